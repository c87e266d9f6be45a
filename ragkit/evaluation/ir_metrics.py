"""Ranking metrics as BEIR reports them (through pytrec_eval): nDCG@k and Recall@k.

- DCG@k = sum over the top k of ``grade / log2(rank + 1)`` (ranks from 1; the grade itself is the gain,
  as trec_eval does, not ``2**grade - 1``). nDCG@k divides by the DCG@k of the ideal ranking, built from
  every judged-relevant document of the query.
- Recall@k = relevant documents in the top k / all relevant documents (grade > 0).

Both are averaged over the judged queries; a query with no results counts as 0.

Simplification: runs are ranked lists, so ties are broken by the retriever's order, whereas trec_eval
re-sorts by score and breaks ties by document id. BEIR also drops a document whose id equals the query
id; pass such runs through your own filter if your collection needs it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Run = Mapping[str, Sequence[str]]
Qrels = Mapping[str, Mapping[str, int]]


def ndcg_at_k(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    """nDCG@k of one ranked list of doc ids against ``judged[doc_id] = grade``.

    >>> round(ndcg_at_k(["x", "a", "b"], {"a": 1, "b": 1}, k=3), 4)   # (1/log2(3) + 1/log2(4)) / (1 + 1/log2(3))
    0.6934
    """
    dcg = sum(judged.get(doc, 0) / math.log2(rank + 1) for rank, doc in enumerate(ranking[:k], start=1))
    ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at_k(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    """Share of the relevant documents found in the top k.

    >>> recall_at_k(["x", "a", "y"], {"a": 1, "b": 1, "c": 0}, k=2)
    0.5
    """
    relevant = {doc for doc, g in judged.items() if g > 0}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranking[:k])) / len(relevant)


def evaluate(run: Run, qrels: Qrels, ks: Sequence[int] = (10, 100)) -> dict[str, float]:
    """Mean ``ndcg@k`` and ``recall@k`` over the queries in ``qrels``.

    >>> evaluate({"q1": ["a", "b"], "q2": ["c"]}, {"q1": {"a": 1}, "q2": {"d": 1}}, ks=(1,))
    {'ndcg@1': 0.5, 'recall@1': 0.5}
    """
    if not qrels:
        raise ValueError("evaluate: qrels is empty, there is nothing to score against")
    scores: dict[str, float] = {}
    for k in ks:
        scores[f"ndcg@{k}"] = sum(ndcg_at_k(run.get(q, []), j, k) for q, j in qrels.items()) / len(qrels)
        scores[f"recall@{k}"] = sum(recall_at_k(run.get(q, []), j, k) for q, j in qrels.items()) / len(qrels)
    return scores
