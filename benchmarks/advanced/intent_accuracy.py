"""How often does LocalIntentClassifier send small talk to retrieval, or a question to small talk?

Two sets, both written before the classifier was first run: the dev set
(``benchmarks/advanced/intent_dev.json``, 50 questions + 50 small-talk messages; its mistakes may be read
and printed) and the frozen test set (``data/eval/intent_test.json``, 50 + 40, hash checked against the
manifest; aggregates only). The classifier's settings are the router's defaults (``ragkit.defaults.ROUTER``);
nothing was tuned on either set.

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
from ragkit.roles.intent import LocalIntentClassifier  # noqa: E402

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


def main() -> None:
    classifier = LocalIntentClassifier()
    dev = json.loads(DEV.read_text(encoding="utf-8"))
    test, test_hash = load_goldset("intent_test.json")
    results = {"dev": score(classifier, dev, show_errors=True),
               "test": score(classifier, test, show_errors=False)}  # never the test set's items
    print(json.dumps(results, indent=1))
    payload = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/advanced/intent_accuracy.py",
               "classifier": "LocalIntentClassifier() defaults (LocalRouter over RAG_EXAMPLES / CHITCHAT_EXAMPLES, "
                             "ragkit.defaults.ROUTER margin/min_similarity/k)",
               "sha256": {"benchmarks/advanced/intent_dev.json": sha256(DEV), "data/eval/intent_test.json": test_hash},
               "splits": {"dev": "written with the classifier, before its first run; errors may be read",
                          "test": "frozen before the first run, never tuned on; aggregates only"},
               "results": results}
    OUT.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print("written", OUT.relative_to(ROOT))


if __name__ == "__main__":
    main()
