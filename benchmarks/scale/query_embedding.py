"""One query through the ONNX MiniLM under onnxruntime's thread settings: can embedding a query get under 5 ms here?

The scale target "dense ANN p50 <= 5 ms" cannot include embedding the query if the embedding alone takes
longer. This times ``onnx_encode``'s model (the cached, BERT-fused fp32 file of ``onnx_model_path()``) on one
short query at a time, as a search does, under the session settings that matter for a single small input:
the intra-op thread count (onnxruntime's default: one per physical core) and whether idle threads spin
(ragkit turns spinning off, ``_onnx_session``, because the cores are shared with the rest of a notebook).
Tokenising is included; each setting is timed twice over 200 queries after a warm-up, round-robin.

Run from the project root (about a minute):
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/query_embedding.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import onnxruntime  # noqa: E402

from ragkit.core.embeddings import _onnx_session, onnx_model_path  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "scale_query_embedding.json"
QUERIES = ["What is the maximum fine for leaving a gillnet in the water for two days?",
           "does vitamin d reduce the risk of fractures in older adults", "Which wine goes with grilled fish?",
           "How do I set chunk overlap in the handbook?"] * 50
SETTINGS = {"ragkit (default threads, no spinning)": (0, "0"), "default threads, spinning": (0, "1"),
            "1 thread": (1, "0"), "2 threads, spinning": (2, "1")}


def session(threads: int, spin: str) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads  # 0: onnxruntime's default
    options.add_session_config_entry("session.intra_op.allow_spinning", spin)
    return onnxruntime.InferenceSession(str(onnx_model_path(False)), options, providers=["CPUExecutionProvider"])


def times_ms(model: onnxruntime.InferenceSession, tokenizer) -> list[float]:
    out = []
    for query in QUERIES:
        start = time.perf_counter()
        ids = np.asarray([tokenizer.encode(query).ids], dtype=np.int64)
        model.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> dict:
    tokenizer = _onnx_session(False)[1]
    models = {name: session(*s) for name, s in SETTINGS.items()}
    runs: dict[str, list[float]] = {name: [] for name in models}
    for name, model in models.items():
        times_ms(model, tokenizer)  # warm-up
    for _ in range(2):
        for name, model in models.items():
            runs[name] += times_ms(model, tokenizer)
    report = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/query_embedding.py",
              "model": onnx_model_path(False).name, "queries_timed_per_setting": len(QUERIES) * 2,
              "settings": {name: {"p50_ms": round(statistics.median(t), 2), "p95_ms": round(sorted(t)[int(0.95 * len(t))], 2)}
                           for name, t in runs.items()}}
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for name, row in report["settings"].items():
        print(f"{name:40} p50 {row['p50_ms']:5.2f} ms   p95 {row['p95_ms']:5.2f} ms")
    return report


if __name__ == "__main__":
    main()
