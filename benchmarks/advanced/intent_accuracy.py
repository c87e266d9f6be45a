"""How often does LocalIntentClassifier send small talk to retrieval, or a question to small talk?

Two sets, both written before the classifier was first run: the dev set
(``benchmarks/advanced/intent_dev.json``, 50 questions + 50 small-talk messages; its mistakes may be read
and printed) and the frozen test set (``data/eval/intent_test.json``, 50 + 40, hash checked against the
manifest; aggregates only, never tuned on).

One setting was tuned, on dev only: ``min_similarity`` (below it a message is searched, whatever it looks
like), over the dev set plus 300 seeded questions of SQuAD 2.0 articles 0-7 (its tuning split; every
SQuAD question is a request for information). The router's default (0.1) sent 8 of those 300 questions,
on topics no example touches, to small talk; the grid below is written to the results, and the value with
the fewest errors, 0.25, is ``ragkit.defaults.ADVANCED.intent_min_similarity``. margin and k stay the
router's (``ragkit.defaults.ROUTER``).

Reported per set: accuracy, the share of small talk that would run retrieval (``chitchat_searched``: the
issue asks that greetings and thanks never do), and the share of questions that would get a canned reply
instead of a search (``rag_unsearched``), with the majority-class baseline.

Run from the project root:
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/intent_accuracy.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks" / "advanced"))

from common import sha256  # noqa: E402

from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.offline.small_talk import LocalIntentClassifier

DEV = ROOT / "benchmarks" / "advanced" / "intent_dev.json"
OUT = ROOT / "benchmarks" / "results" / "advanced_intent.json"


def score(classifier: LocalIntentClassifier, rows: list[dict], show_errors: bool) -> dict:
    wrong = {"rag": 0, "chitchat": 0}
    total = {"rag": 0, "chitchat": 0}
    for row in rows:
        intent = classifier.classify(row["text"])
        total[row["route"]] += 1
        if intent.route != row["route"]:
            wrong[row["route"]] += 1
            if show_errors:
                print(f"  dev error: {row['text']!r} is {row['route']}, classified {intent.route} ({intent.note})")
    n = sum(total.values())
    return {"n": n, "n_rag": total["rag"], "n_chitchat": total["chitchat"],
            "accuracy": round(1 - sum(wrong.values()) / n, 4),
            "chitchat_searched": round(wrong["chitchat"] / total["chitchat"], 4),
            "rag_unsearched": round(wrong["rag"] / total["rag"], 4),
            "majority_baseline": round(max(total.values()) / n, 4)}


def squad_tune_questions(n: int = 300, seed: int = 1) -> list[str]:
    """A seeded sample of questions from SQuAD 2.0 articles 0-7 (the tuning split of the SQuAD benchmarks)."""
    import importlib.util
    import random

    from common import datasets_dir

    spec = importlib.util.spec_from_file_location("crag_squad2_eval", ROOT / "benchmarks" / "crag" / "squad2_eval.py")
    crag = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(crag)  # type: ignore[union-attr]
    articles = crag.load_squad(datasets_dir() / "squad2" / "dev-v2.0_cs224n_half.json")
    pool = [q["question"] for a in crag.SPLITS["tune"] for q in articles[a]["questions"]]
    return random.Random(seed).sample(pool, n)


def tune_grid(classifier: LocalIntentClassifier, dev: list[dict], squad: list[str]) -> list[dict]:
    """Errors on dev and SQuAD 0-7 for each min_similarity (the router's margin kept), from one scoring pass."""
    scored = [(classifier.router.scores(r["text"]), r["route"], "dev") for r in dev]
    scored += [(classifier.router.scores(q), "rag", "squad") for q in squad]
    margin, rows = classifier.router.margin, []
    for bar in GRID:
        def route(s: dict) -> str:
            c, r = s["chitchat"], s["rag"]
            return "chitchat" if c > r and c >= bar and c - r >= margin else "rag"

        rows.append({"min_similarity": bar,
                     "dev_errors": sum(route(s) != label for s, label, src in scored if src == "dev"),
                     "squad_questions_to_chitchat": sum(route(s) != "rag" for s, _, src in scored if src == "squad")})
    return rows


GRID = (0.1, 0.15, 0.2, 0.22, 0.24, 0.25, 0.26, 0.28, 0.3, 0.35, 0.4)


def main() -> None:
    classifier = LocalIntentClassifier()
    dev = json.loads(DEV.read_text(encoding="utf-8"))
    test, test_hash = load_goldset("intent_test.json")
    grid = tune_grid(classifier, dev, squad_tune_questions())
    for row in grid:
        print(row)
    results = {"dev": score(classifier, dev, show_errors=True),
               "test": score(classifier, test, show_errors=False)}  # never the test set's items
    print(json.dumps(results, indent=1))
    payload = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/intent_accuracy.py",
               "classifier": "LocalIntentClassifier() defaults (LocalRouter over RAG_EXAMPLES / CHITCHAT_EXAMPLES, "
                             f"min_similarity {classifier.router.min_similarity}, margin and k of ragkit.defaults.ROUTER)",
               "tuning": {"what": "min_similarity, on the dev set plus 300 questions of SQuAD 2.0 articles 0-7 "
                                  "(seed 1); fewest total errors", "grid": grid},
               "sha256": {"benchmarks/advanced/intent_dev.json": sha256(DEV), "data/eval/intent_test.json": test_hash},
               "splits": {"dev": "written with the classifier, before its first run; errors may be read",
                          "test": "frozen before the first run, never tuned on; aggregates only"},
               "results": results}
    OUT.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print("written", OUT.relative_to(ROOT))


if __name__ == "__main__":
    main()
