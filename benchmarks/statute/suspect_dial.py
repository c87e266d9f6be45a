"""The dial for questions the classifier suspects (``STATUTE_QA.suspect_refuse_below``), chosen on every dev set at once.

The 2026-12-06b round's rule (``benchmarks/statute/README.md``): the dev pool is the refusal dev set
(``statute_refusal_dev.json``, 40), the DEV split of ``statute_qa.json`` (78) and the multi-hop dev sets of
``dev_round.py --pool 2026-12-06`` (108); the graph is the one the other statute benchmarks run,
``build_statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE)``, at each candidate bar
(``none``: a suspected question refused unsearched). An answerable question counts as right when it is answered and
cites a gold article; the objective is the balanced mean of that share and of the unanswerable questions refused.
Prints aggregates per candidate and the rule's choice; nothing is written to disk and no report set is read. ~1 min::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/statute/suspect_dial.py
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from dev_round import dev_sets  # noqa: E402
from refusal_sets import SETS as REFUSAL_SETS  # noqa: E402
from refusal_sets import outcome  # noqa: E402
from statute_qa import bar_or_none, run_graph  # noqa: E402

from ragkit.defaults import STATUTE_QA  # noqa: E402
from ragkit.domains.statute.corpus import load_statute  # noqa: E402
from ragkit.domains.statute.domain import STATUTE  # noqa: E402
from ragkit.domains.statute.strategies import strategy_searches  # noqa: E402
from ragkit.evaluation.risk_coverage import balanced, point_at  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.graphs.statute_qa import build_statute_qa_graph  # noqa: E402

CANDIDATES = (None, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.02, 0.03, 0.05)
MIN_GAIN = 0.01  # a candidate replaces the shipped bar only when its objective is at least this much higher


def dev_pool() -> list[dict]:
    """The round's dev questions as ``{"id", "question", "answerable", "gold_articles"}``."""
    pool = [{"id": i["id"], "question": i["question"], "answerable": i["answerable"], "gold_articles": i["gold_articles"]}
            for i in load_goldset(REFUSAL_SETS["dev"])[0]["items"]]
    pool += [{"id": i["id"], "question": i["question"], "answerable": i["type"] != "unanswerable",
              "gold_articles": i["gold_articles"]} for items in dev_sets("2026-12-06").values() for i in items]
    if len({i["id"] for i in pool}) != len(pool):
        raise ValueError("two dev questions share an id")
    return pool


def objective(runs: dict[str, dict], pool: Sequence[dict]) -> dict[str, Any]:
    """Answerable answered citing a gold article, unanswerable refused (shares of each, as
    :func:`refusal_sets.outcome` scores a run), and their balanced mean."""
    point = point_at([outcome(runs[i["id"]], i) for i in pool], 0.0)
    return {"answerable_right": point.answerable_right, "unanswerable_refused": point.unanswerable_refused,
            "balanced": balanced(point), "n_answerable": sum(i["answerable"] for i in pool),
            "n_unanswerable": sum(not i["answerable"] for i in pool)}


def choose(scores: dict[float | None, float], shipped: float | None) -> float | None:
    """The rule: the best objective, ties to the higher bar (``None``, refusing unsearched, is the highest); kept only
    when it beats the shipped bar by ``MIN_GAIN``.

    >>> choose({None: 0.5, 0.01: 0.62, 0.02: 0.6}, 0.02), choose({0.01: 0.605, 0.02: 0.6}, 0.02)
    (0.01, 0.02)
    """
    best = max(scores, key=lambda bar: (scores[bar], float("inf") if bar is None else bar))
    return best if scores[best] >= scores[shipped] + MIN_GAIN else shipped


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=bar_or_none, nargs="+", default=list(CANDIDATES))
    args = parser.parse_args(argv)
    pool = dev_pool()
    articles = load_statute()
    strategies = strategy_searches(articles)
    out: dict[str, Any] = {}
    for bar in args.candidates:
        graph = build_statute_qa_graph(articles, strategies=strategies, domain=STATUTE, suspect_refuse_below=bar)
        out[str(bar)] = objective(run_graph(graph, pool), pool)
        print(f"suspect_refuse_below {str(bar):7} {out[str(bar)]}")
    shipped = STATUTE_QA.suspect_refuse_below
    if shipped in args.candidates:
        chosen = choose({bar: out[str(bar)]["balanced"] for bar in args.candidates}, shipped)
        print(f"shipped {shipped}; the rule chooses {chosen}")
        out["chosen"] = chosen
    return out


if __name__ == "__main__":  # pragma: no cover
    main()
