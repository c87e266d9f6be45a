"""The statute graph's refusals on questions worded as people write them: ``data/eval/statute_refusal_{dev,report}.json``.

Each set has 40 questions (20 answerable by one or two articles, 20 the Act does not answer: near misses, another
law, practical matters, questions outside law), all in the same registers (stories, lower case, polite requests,
one-liners), written blind from the Act alone (``benchmarks/goldsets/make_statute_refusal_sets.py``). The graph is the
one the other statute benchmarks run, ``build_statute_qa_graph(articles, strategies=strategy_searches(articles),
domain=STATUTE)`` with every default; ``--suspect-refuse-below none`` runs it as before the 2026-12-06 round (a
question the classifier calls unanswerable refused unsearched).

Figures (aggregates only; ``--set report`` is for a round's report, run once, and prints and writes nothing per item):
unanswerable questions refused (overall and per category), answerable questions answered with a gold article cited,
answerable questions refused, and the balanced mean of "unanswerable refused" and "answerable answered right".
``--show-errors`` prints the dev set's misses to stderr (refused for ``--set report``).

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/statute/refusal_sets.py --set dev [--suspect-refuse-below none] [--show-errors]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from statute_qa import bar_or_none, cited_articles_of, run_graph  # noqa: E402

from ragkit.defaults import STATUTE_QA  # noqa: E402
from ragkit.domains.statute.corpus import load_statute  # noqa: E402
from ragkit.domains.statute.domain import STATUTE  # noqa: E402
from ragkit.domains.statute.strategies import strategy_searches  # noqa: E402
from ragkit.evaluation.risk_coverage import Item, balanced, point_at  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.graphs.statute_qa import build_statute_qa_graph  # noqa: E402

SETS = {"dev": "statute_refusal_dev.json", "report": "statute_refusal_report.json"}


def outcome(run: dict, item: dict) -> Item:
    """One run as a :mod:`ragkit.evaluation.risk_coverage` item at the graph's own dial: refused scores None, answered
    is answered at every bar, and right when the question is answerable and the answer cites a gold article."""
    right = item["answerable"] and bool(cited_articles_of(run) & set(item["gold_articles"]))
    return Item(None if run["refused"] else math.inf, right, item["answerable"])


def figures(runs: dict[str, dict], items: Sequence[dict]) -> dict[str, Any]:
    """Aggregates of the runs, as a point of :mod:`ragkit.evaluation.risk_coverage` at the graph's own dial
    (:func:`outcome`): shares of the set's questions of each kind."""

    def scored(item: dict) -> Item:
        return outcome(runs[item["id"]], item)

    point = point_at([scored(i) for i in items], 0.0)
    answerable = [i for i in items if i["answerable"]]
    return {
        "n": len(items),
        "unanswerable_refused": point.unanswerable_refused,
        "answerable_answered_right": point.answerable_right,
        "answerable_refused": round(sum(runs[i["id"]]["refused"] for i in answerable) / len(answerable), 4),
        "by_category": {category: point_at([scored(i) for i in items if i["category"] == category], 0.0).unanswerable_refused
                        for category in sorted({i["category"] for i in items if not i["answerable"]})},
        "balanced": balanced(point),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), required=True)
    parser.add_argument("--suspect-refuse-below", type=bar_or_none,
                        default=STATUTE_QA.suspect_refuse_below,
                        help="the dial for a question the classifier calls unanswerable; none: refused unsearched")
    parser.add_argument("--show-errors", action="store_true", help="print the dev set's misses to stderr")
    args = parser.parse_args(argv)
    if args.show_errors and args.set != "dev":
        raise SystemExit("--show-errors reads a dev set only: a report set's per-item results are never shown")
    data, sha = load_goldset(SETS[args.set])
    items = data["items"]
    articles = load_statute()
    graph = build_statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE,
                                   suspect_refuse_below=args.suspect_refuse_below)
    runs = run_graph(graph, items)
    out = {"set": SETS[args.set], "sha256": sha, "suspect_refuse_below": args.suspect_refuse_below, **figures(runs, items)}
    if args.show_errors:
        for item in items:
            r = runs[item["id"]]
            wrong = (not r["refused"]) if not item["answerable"] else (
                r["refused"] or not cited_articles_of(r) & set(item["gold_articles"]))
            if wrong:
                print(f"{item['id']} {item['category']} refused={r['refused']} kind={r['question_kind']} "
                      f"confidence={r['confidence']} cites={r['cited_labels']} gold={item['gold_articles']} | "
                      f"{item['question']}", file=sys.stderr)
    print(out)
    return out


if __name__ == "__main__":  # pragma: no cover
    main()
