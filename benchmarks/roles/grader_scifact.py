"""Fit and measure LocalGrader on SciFact: fit on TRAIN pairs, report precision/recall/F1 on TEST pairs.

A pair is (claim, one of the top 10 abstracts the default hybrid retriever returns for it); it is relevant
when the qrels cite that abstract. The logistic weights and the threshold (the one keeping GRADER.recall_target
of the relevant pairs, and for comparison the F1-best one) are fitted on TRAIN only (a seeded sample of
train claims, to keep the run short), then frozen and applied to TEST.

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/grader_scifact.py [--train-queries 300]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import binary_metrics, scifact_hybrid, write_result  # noqa: E402

from ragkit.defaults import GRADER
from ragkit.evaluation.tuning import best_f1_threshold, fit_grader
from ragkit.offline.graders import FEATURES, LocalGrader


def pairs(data, retriever, grader: LocalGrader, qids: list[str], k: int = 10) -> tuple[np.ndarray, np.ndarray]:
    X, y = [], []
    for i, qid in enumerate(qids):
        if i % 50 == 0:
            print(f"  {data.split}: {i}/{len(qids)} queries", flush=True)
        docs = [d for d, _ in retriever.search_with_scores(data.queries[qid], k)]
        X.append(grader.features(data.queries[qid], docs))
        y.extend(int(d.metadata["id"] in data.qrels[qid]) for d in docs)
    return np.vstack(X), np.asarray(y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--train-queries", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    train, test, retriever = scifact_hybrid()
    grader = LocalGrader()
    train_ids = sorted(train.queries, key=int)
    random.Random(args.seed).shuffle(train_ids)
    train_ids = sorted(train_ids[: args.train_queries], key=int)
    X_train, y_train = pairs(train, retriever, grader, train_ids)
    X_test, y_test = pairs(test, retriever, grader, sorted(test.queries, key=int))

    fit_grader(grader, X_train, y_train, recall_target=None)
    f1_threshold = grader.threshold
    fit_grader(grader, X_train, y_train)  # the default operating point: GRADER.recall_target of the relevant TRAIN pairs
    result = {
        "command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/grader_scifact.py "
        f"--train-queries {args.train_queries} --seed {args.seed}",
        "pairs": "each query x top 10 of HybridRetriever(BM25 + MiniLM dense, RRF); relevant = in qrels",
        "train": {"queries": len(train_ids), "pairs": int(len(y_train)), "relevant": int(y_train.sum())},
        "test": {"queries": len(test.queries), "pairs": int(len(y_test)), "relevant": int(y_test.sum())},
        "features": list(FEATURES),
        "weights": [round(float(w), 4) for w in grader.weights],
        "bias": round(grader.bias, 4),
        "threshold": round(grader.threshold, 4),
        "recall_target": GRADER.recall_target,
        "local_grader_test": binary_metrics(grader.probability(X_test) >= grader.threshold, y_test),
        "f1_best_threshold": round(f1_threshold, 4),
        "local_grader_test_at_f1_best_threshold": binary_metrics(grader.probability(X_test) >= f1_threshold, y_test),
        "local_grader_train": binary_metrics(grader.probability(X_train) >= grader.threshold, y_train),
        "baselines_test": {},
    }
    # Single-feature baselines, each with its own F1-best threshold from TRAIN.
    for j, name in enumerate(FEATURES):
        t = best_f1_threshold(X_train[:, j], y_train)
        result["baselines_test"][f"{name}_only"] = dict(binary_metrics(X_test[:, j] >= t, y_test), threshold=round(t, 4))
    result["baselines_test"]["all_relevant"] = binary_metrics(np.ones_like(y_test, bool), y_test)
    path = write_result("roles_grader", result)
    print(f"wrote {path}")
    print(f"DEFAULT_WEIGHTS = {tuple(result['weights'])}\nDEFAULT_BIAS = {result['bias']}\nDEFAULT_THRESHOLD = {result['threshold']}")
    print("test:", result["local_grader_test"])
    print("test at the F1-best threshold", f1_threshold, result["local_grader_test_at_f1_best_threshold"])
    for name, m in result["baselines_test"].items():
        print(f"  {name}: {m}")


if __name__ == "__main__":
    main()
