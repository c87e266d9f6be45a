"""Search several queries with one retrieval arm and fuse the lists: the advanced pipeline's retrieval.

The advanced graph's ``retrieve`` node searches the lead query, the alternative queries and the
hypothetical answer of a :class:`ragkit.roles.query_transform.QueryTransform` with the one arm the bandit
chose, and fuses the result lists into one ranking (multi-query retrieval, as in RAG-Fusion). The same two
functions run in ``benchmarks/advanced/scifact_transforms.py``, so the benchmark measures what the graph does.

Simplification: the lists are fused by rank (RRF) or by min-max-scaled score (``ragkit.core.hybrid.fuse``);
a document that only one query finds can still rank first if that query's list weighs enough.
"""

from __future__ import annotations

from typing import Sequence

from langchain_core.documents import Document

from ragkit.bandit import LinearThompsonSampling, LinUCB, Policy, SharedBandit
from ragkit.core import contract as policy
from ragkit.core.hybrid import fuse
from ragkit.core.search import ScoredSearch, doc_key
from ragkit.defaults import ADVANCED
from ragkit.roles.query_transform import QueryTransform

Bandit = Policy | SharedBandit


# ---------------------------------------------------------------- the queries and their fused search
def weighted_queries(question: str, transform: QueryTransform | None, original_weight: float = ADVANCED.original_weight,
                     hypothetical_weight: float = ADVANCED.hypothetical_weight) -> list[tuple[str, float]]:
    """The queries to search and the weight of each one's list: the question, the alternatives, the hypothetical.

    >>> weighted_queries("q", QueryTransform(("a", "q"), "h"), original_weight=2.0)
    [('q', 2.0), ('a', 1.0), ('h', 0.5)]
    """
    out: dict[str, float] = {question: original_weight}
    for query in (transform.queries if transform else ()):
        out.setdefault(query, 1.0)
    if transform and transform.hypothetical and hypothetical_weight > 0:
        out.setdefault(transform.hypothetical, hypothetical_weight)
    return list(out.items())


def search_queries(search: ScoredSearch, queries: Sequence[tuple[str, float]], k: int, method: str = ADVANCED.fusion,
                   depth: int | None = None) -> tuple[list[tuple[Document, float]], list[str]]:
    """Search every query, fuse the lists (:func:`ragkit.core.hybrid.fuse`), keep the best ``k`` once each.

    ``depth`` is how many results each query asks for (None: the source's own k). A query whose search
    raises is left out, and its note returned (policy 2); with one list, its own order is kept.

    >>> from ragkit.core.search import as_scored_search
    >>> docs = {"a": Document("a", metadata={"id": "a"}), "b": Document("b", metadata={"id": "b"})}
    >>> search = as_scored_search(lambda q: [docs[c] for c in q])
    >>> [(d.page_content, round(s, 3)) for d, s in search_queries(search, [("ab", 1.0), ("b", 1.0)], k=2, method="rrf")[0]]
    [('b', 0.033), ('a', 0.016)]
    """
    lists, notes, by_key = [], [], {}
    for query, weight in queries:
        outcome = policy.run_search(search, query, depth, what="search")  # type: ignore[arg-type]
        if outcome.failed:
            notes.append(outcome.note)
            continue
        for doc in outcome.documents:
            by_key.setdefault(doc_key(doc), doc)
        lists.append((weight, [(doc_key(d), float(d.metadata.get("score", 0.0))) for d in outcome.documents]))
    if not lists:
        return [], notes
    if len(lists) == 1:
        ranking = lists[0][1]
    else:
        ranking = fuse([scored for _, scored in lists], method, [w for w, _ in lists])  # type: ignore[arg-type]
    return [(by_key[key], score) for key, score in ranking[:k]], notes


# ---------------------------------------------------------------- the bandit
def policy_of(bandit: Bandit) -> Policy:
    """The policy behind a bandit (a ``SharedBandit`` wraps one)."""
    return bandit.policy if isinstance(bandit, SharedBandit) else bandit


def is_contextual(bandit: Bandit) -> bool:
    """True when the policy chooses from query features (LinUCB, linear Thompson sampling)."""
    return isinstance(policy_of(bandit), (LinUCB, LinearThompsonSampling))


__all__ = ["Bandit", "is_contextual", "policy_of", "search_queries", "weighted_queries"]
