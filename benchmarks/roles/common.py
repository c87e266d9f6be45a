"""Shared helpers for the role benchmarks: paths, the SciFact hybrid retriever, metrics, writing results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT.parent / "shared" / "datasets"
RESULTS = ROOT / "benchmarks" / "results"


def scifact_hybrid(folder: Path = DATASETS / "scifact"):
    """SciFact train and test splits plus the hybrid retriever the grader was fitted with (BM25 + MiniLM, RRF
    k=60, equal weights: the graphs' default then; ragkit's default is now weighted fusion)."""
    from ragkit.core.bm25 import BM25Retriever
    from ragkit.core.dense import DenseRetriever
    from ragkit.core.hybrid import HybridRetriever
    from ragkit.evaluation.beir import load_beir

    train, test = load_beir(folder, "train"), load_beir(folder, "test")
    docs = test.documents()
    retriever = HybridRetriever(retrievers=[BM25Retriever.from_documents(docs), DenseRetriever.from_documents(docs)],
                                method="rrf", alpha=0.5)
    return train, test, retriever


def binary_metrics(predicted: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Precision, recall, F1 and counts for boolean predictions."""
    predicted, labels = np.asarray(predicted, bool), np.asarray(labels, bool)
    tp = int((predicted & labels).sum())
    fp = int((predicted & ~labels).sum())
    fn = int((~predicted & labels).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4), "tp": tp, "fp": fp, "fn": fn, "n": len(labels)}


def write_result(name: str, payload: dict[str, Any]) -> Path:
    """Write ``benchmarks/results/<name>.json`` (sorted keys, stable formatting) and return the path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def module_from_git(rev: str, path: str, name: str):
    """Import ``path`` as it was at commit ``rev`` of this repository (for a baseline that the current
    code replaced: ``module_from_git(OLD, "ragkit/offline/claims.py", "claims_old")``)."""
    import subprocess
    import sys
    import types

    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True, capture_output=True,
                            text=True).stdout
    module = types.ModuleType(name)
    module.__file__ = f"{rev[:7]}:{path}"
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def write_frozen_set(text: str, path: Path, check: bool) -> int:
    """Write a built evaluation set to ``path``, or with ``check`` only compare it with the file; never overwrite
    a set frozen in ``data/eval/MANIFEST.json`` with other content. The exit status of the builder scripts."""
    import sys

    from ragkit.goldsets import read_manifest

    same = path.is_file() and path.read_text(encoding="utf-8") == text
    if check:
        print("matches" if same else "DIFFERS from", path)
        return 0 if same else 1
    if path.is_file() and not same and path.name in read_manifest():
        print(f"refusing to overwrite the frozen {path.name}; write a new file name instead", file=sys.stderr)
        return 1
    path.write_text(text, encoding="utf-8")
    print("wrote", path)
    return 0


def routing_set(items: Sequence[tuple[str, Sequence[str], str]], key: str, prefix: str) -> str:
    """A supervisor routing set's text: ``{key: [{"id": "<prefix>-001", "question", "sequence", "why"}, ...]}``
    from ``(question, sequence, why)`` tuples, every question once."""
    import json

    rows = [{"id": f"{prefix}-{i:03d}", "question": q, "sequence": list(seq), "why": why}
            for i, (q, seq, why) in enumerate(items, 1)]
    assert len({row["question"] for row in rows}) == len(rows), "a question is in the set twice"
    return json.dumps({key: rows}, indent=1, ensure_ascii=False) + "\n"


def near_within(questions: Sequence[str], bar: float = 0.9) -> int:
    """Print every pair of ``questions`` (one set's own) with MiniLM cosine >= ``bar``; exit status 1 if there is one."""
    from ragkit.core.embeddings import embed, load_embedder

    vectors = embed(load_embedder(), list(questions))
    sims = vectors @ vectors.T
    pairs = [(float(sims[i, j]), i, j) for i in range(len(questions)) for j in range(i + 1, len(questions))
             if sims[i, j] >= bar]
    for sim, i, j in sorted(pairs, reverse=True):
        print(f"{sim:.3f}  {i + 1:03d} {questions[i]!r}  ~  {j + 1:03d} {questions[j]!r}")
    if pairs:
        return 1
    print("no near duplicates")
    return 0


def set_writer(doc: str, build: Callable[[], str], path: Path, argv: list[str] | None = None,
               checks: dict[str, tuple[str, Callable[[], int]]] | None = None) -> int:
    """The command line of a gold-set builder script: compare with the file (default), ``--write`` it (refused once
    frozen), or run one of ``checks`` (``{"--near": (help, function)}``, each returning an exit status)."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the file (refused once it is frozen)")
    for flag, (text, _) in (checks or {}).items():
        parser.add_argument(flag, action="store_true", help=text)
    args = vars(parser.parse_args(argv))
    for flag, (_, check) in (checks or {}).items():
        if args[flag.lstrip("-").replace("-", "_")]:
            return check()
    return write_frozen_set(build(), path, check=not args["write"])
