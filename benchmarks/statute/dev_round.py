"""The statute QA graph at its defaults on every DEV set at once: the decision rule of the 2026-12-03 round.

Sets: the DEV split of ``data/eval/statute_qa.json`` (78 questions; the test split is never read here) and the
three multi-hop dev sets (``statute_multihop_dev.json``, ``statute_multihop_held_out.json``,
``statute_multihop_report.json``: the last two were scored once each as held-out sets and are dev sets since).
With ``--pool 2026-12-04c`` also ``statute_multihop_report2.json`` and ``statute_multihop_report3.json`` (each scored
once as a blind set, dev sets since); ``--pool 2026-12-04d`` adds ``statute_multihop_report4.json`` (likewise);
``--pool 2026-12-06`` adds ``statute_multihop_report5.json`` (scored once, a dev set since);
``statute_multihop_report6.json`` and ``statute_multihop_report7.json`` (each scored once, in the 2026-12-06 and
2026-12-06b rounds) are not read here yet: a next round adds them to a pool of its own. The graph is the one ``multihop_held_out.py`` runs:
``build_statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE)``, every default.

Prints, per set, :func:`statute_qa.kind_metrics` (statute dev: per question type, and answerable refused);
``--show-errors`` also prints to stderr every dev item whose answer misses a gold article (dev items only).
Nothing is written to disk. About two minutes::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/statute/dev_round.py [--show-errors] [--pool 2026-12-04c] [--max-hops 0] [--hop-bar 0.1] [--definition-hop-bar none] [--gloss-bar none] [--refuse-margin 0.25]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from statute_qa import GOLD, bar_or_none, cited_articles_of, kind_metrics, run_graph  # noqa: E402

from ragkit.defaults import STATUTE_QA  # noqa: E402
from ragkit.domains.statute.corpus import load_statute  # noqa: E402
from ragkit.domains.statute.domain import STATUTE  # noqa: E402
from ragkit.domains.statute.questions import local_question_classifier  # noqa: E402
from ragkit.domains.statute.strategies import strategy_searches  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.graphs.statute_qa import build_statute_qa_graph  # noqa: E402

MULTIHOP_DEV_SETS = ("statute_multihop_dev.json", "statute_multihop_held_out.json", "statute_multihop_report.json")
# The multi-hop dev sets of each round (benchmarks/statute/README.md): report2 and report3 were each scored once
# as blind sets and are dev sets since, and so are report4 and report5; report6 and report7 are never read here.
POOLS = {"2026-12-03": MULTIHOP_DEV_SETS,
         "2026-12-04c": (*MULTIHOP_DEV_SETS, "statute_multihop_report2.json", "statute_multihop_report3.json"),
         "2026-12-04d": (*MULTIHOP_DEV_SETS, "statute_multihop_report2.json", "statute_multihop_report3.json",
                         "statute_multihop_report4.json"),
         "2026-12-06": (*MULTIHOP_DEV_SETS, "statute_multihop_report2.json", "statute_multihop_report3.json",
                        "statute_multihop_report4.json", "statute_multihop_report5.json")}
FIGURES = ("answer_cites_every_gold_article", "answer_cites_a_gold_article", "cited_article_f1", "answered", "hopped")


def dev_sets(pool: str) -> dict[str, list[dict]]:
    """The round's dev sets by name: the DEV split of the statute set ("statute dev") and each multi-hop dev set
    of ``POOLS[pool]`` (its items typed "multihop")."""
    sets = {"statute dev": [i for i in load_goldset(GOLD)[0] if i["split"] == "dev"]}
    for name in POOLS[pool]:
        sets[name] = [{**i, "type": "multihop"} for i in load_goldset(name)[0]["items"]]
    return sets


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-errors", action="store_true", help="print dev items whose answer misses a gold article")
    parser.add_argument("--pool", choices=sorted(POOLS), default="2026-12-03", help="the round's multi-hop dev sets")
    parser.add_argument("--max-hops", type=int, default=STATUTE_QA.max_hops)
    parser.add_argument("--hop-bar", type=float, default=STATUTE_QA.hop_bar)
    parser.add_argument("--definition-hop-bar", type=bar_or_none, default=STATUTE_QA.definition_hop_bar,
                        help="a number, or none (definitions compete with citations, as before the 2026-12-03 round)")
    parser.add_argument("--gloss-bar", type=bar_or_none, default=STATUTE_QA.definition_gloss_bar,
                        help="the classifier's second reading of a refused question: a number, or none (no second reading)")
    parser.add_argument("--refuse-margin", type=float, default=STATUTE_QA.classifier_refuse_margin,
                        help="the question classifier's refusal margin (a large one: never refused unsearched)")
    args = parser.parse_args(argv)
    sets = dev_sets(args.pool)
    articles = load_statute()
    graph = build_statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE, max_hops=args.max_hops, hop_bar=args.hop_bar,
                                   definition_hop_bar=args.definition_hop_bar, definition_gloss_bar=args.gloss_bar,
                                   question_classifier=local_question_classifier(articles, gloss_bar=args.gloss_bar,
                                                                                 refuse_margin=args.refuse_margin))
    out: dict[str, Any] = {}
    pooled: list[dict] = []
    pooled_runs: dict[str, dict] = {}
    for name, items in sets.items():
        runs = run_graph(graph, items)
        answerable = [i for i in items if i["type"] != "unanswerable"]
        if name == "statute dev":
            out[name] = {t: kind_metrics(runs, [i for i in answerable if i["type"] == t])
                         for t in sorted({i["type"] for i in answerable})}
            out[name]["answerable refused"] = round(sum(runs[i["id"]]["refused"] for i in answerable) / len(answerable), 4)
            out[name]["unanswerable refused"] = round(sum(runs[i["id"]]["refused"] for i in items if i["type"] == "unanswerable")
                                                      / max(1, len(items) - len(answerable)), 4)
        else:
            pooled += items
            pooled_runs.update(runs)
            out[name] = {"all": kind_metrics(runs, items),
                         **{p: kind_metrics(runs, [i for i in items if i["pattern"] == p]) for p in sorted({i["pattern"] for i in items})}}
        if args.show_errors:
            for item in answerable:
                r = runs[item["id"]]
                if not set(item["gold_articles"]) <= cited_articles_of(r):
                    print(f"{name} {item['id']} {item['type']} -> {r['question_kind']} refused={r['refused']} ({r['refusal']}) "
                          f"articles={r['articles']} gold={item['gold_articles']} cites={r['cited_labels']} followed={r['followed']} "
                          f"| {item['question']}", file=sys.stderr)
    out[f"{len(POOLS[args.pool])} multi-hop dev sets"] = {"all": kind_metrics(pooled_runs, pooled)}
    for name, groups in out.items():
        print(f"== {name}")
        for group, m in groups.items():
            print(f"  {group:18} {m}" if not isinstance(m, dict) else
                  f"  {group:18} n {m['n']:3}  " + "  ".join(f"{k} {m[k]:.3f}" for k in FIGURES))
    return out


if __name__ == "__main__":  # pragma: no cover
    main()
