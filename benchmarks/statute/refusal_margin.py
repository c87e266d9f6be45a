"""The question classifier's refusal margin, end to end, on dev-grade questions only (the 2026-12-04 rule).

A question the classifier calls unanswerable is refused before any search when the refusing kind beats every
other kind by ``classifier_refuse_margin`` (0.15, chosen on the dev split's kind accuracy). This script scores
the shipped graph with the candidate margins 0.15, 0.20, 0.25 and 0.30 end to end, on the statute dev split (78)
and the four multi-hop dev sets (dev, held-out, report, report2: 54): the dev split's right outcomes (an
unanswerable question refused, an answerable one answered citing a gold article) plus the multi-hop questions
whose answer cites every gold article. Only a question refused unsearched at 0.15 can change, so the graph runs
once as shipped and once with the widest margin for the questions that margin would search (a wider margin
searches what a narrower one refuses and leaves every other decision as it was). Reads no report or test split.
The rule and the result: ``benchmarks/statute/README.md``.

Run from the project root (a few minutes)::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/statute/refusal_margin.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from statute_qa import cited_articles_of, run_graph  # noqa: E402

from ragkit.core.embeddings import load_embedder  # noqa: E402
from ragkit.domains.statute.corpus import load_statute  # noqa: E402
from ragkit.domains.statute.domain import STATUTE  # noqa: E402
from ragkit.domains.statute.questions import REFUSE_KIND, local_question_classifier  # noqa: E402
from ragkit.domains.statute.strategies import strategy_searches  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.graphs.statute_qa import build_statute_qa_graph  # noqa: E402

MARGINS = (0.15, 0.2, 0.25, 0.3)
MULTIHOP_DEV = ("statute_multihop_dev.json", "statute_multihop_held_out.json", "statute_multihop_report.json",
                "statute_multihop_report2.json")


def main() -> None:
    docs, embedder = load_statute(), load_embedder()
    gold, _ = load_goldset("statute_qa.json")
    dev = [i for i in gold if i["split"] == "dev"]
    multihop = [{**i, "type": "multihop"} for name in MULTIHOP_DEV for i in load_goldset(name)[0]["items"]]
    searches = strategy_searches(docs)
    shipped = build_statute_qa_graph(docs, strategies=searches, domain=STATUTE)
    widest = build_statute_qa_graph(docs, strategies=searches, domain=STATUTE,
                                    question_classifier=local_question_classifier(docs, embedder, refuse_margin=max(MARGINS)))
    scorer = local_question_classifier(docs, embedder, refuse_margin=0.0)

    def refusal_win(question: str) -> float:
        """By how much the refusing kind wins; refused only when the plain and the glossed reading both refuse."""
        wins = []
        for text in (question, scorer.gloss(question)):
            scores = scorer.scores(text)
            wins.append(scores[REFUSE_KIND] - max(v for k, v in scores.items() if k != REFUSE_KIND))
        return min(wins)

    runs = run_graph(shipped, dev + multihop)
    flip = [i for i in dev + multihop if runs[i["id"]]["refusal"] == "unanswerable" and refusal_win(i["question"]) < max(MARGINS)]
    searched = run_graph(widest, flip)
    wins = {i["id"]: refusal_win(i["question"]) for i in flip}
    print(f"{len(flip)} questions refused unsearched at {MARGINS[0]} that a margin of {max(MARGINS)} would search")
    unanswerable = [i for i in dev if i["type"] == "unanswerable"]
    answerable = [i for i in dev if i["type"] != "unanswerable"]
    for margin in MARGINS:
        at = {**runs, **{k: v for k, v in searched.items() if wins[k] < margin and margin > MARGINS[0]}}
        refused = sum(at[i["id"]]["refused"] for i in unanswerable)
        right = sum(not at[i["id"]]["refused"] and bool(cited_articles_of(at[i["id"]]) & set(i["gold_articles"])) for i in answerable)
        every = sum(not at[i["id"]]["refused"] and set(i["gold_articles"]) <= cited_articles_of(at[i["id"]]) for i in multihop)
        print(f"margin {margin:.2f}: dev unanswerable refused {refused}/{len(unanswerable)}, answerable right {right}/{len(answerable)}, "
              f"multi-hop every gold cited {every}/{len(multihop)}; score {refused + right + every}")


if __name__ == "__main__":  # pragma: no cover
    main()
