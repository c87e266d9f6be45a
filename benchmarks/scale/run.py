"""Scaling benchmark: every retriever at 5k, 50k and 500k documents, each system in its own process.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/scale/run.py --save benchmarks/results/scale.json \
        --plot benchmarks/results/scale.png

Development run (small): ``--sizes 5183 --systems bm25-bm25s,hybrid --queries 20``. From 100k documents
on, every system runs the first ``--large-queries`` (50) test queries and the three that score every
document in Python (rank-bm25, LangChain's BM25 and its ensemble) the first ``--slow-queries`` (10); every
row also gives nDCG@10 on the first 10 queries, so all systems compare on the same ones. The corpus, the
distractors and the measurements are described in ``ragkit/evaluation/scale.py`` and
``benchmarks/scale/README.md``. Results are written after every row, so an interrupted run keeps what it
measured; each row carries the machine's load average when it finished (``uptime``'s three numbers).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.evaluation.scale import SIZES, SYSTEMS, measure  # noqa: E402

SLOW = ("bm25-rank_bm25", "langchain-bm25", "langchain-ensemble")  # every document scored in Python per query term


def run_worker(system: str, size: int, args: argparse.Namespace, ann_path: Path) -> dict:
    """One (system, size) measured in a fresh Python process, so its peak memory is its own."""
    queries = args.queries if size < 100_000 else min(args.queries, args.large_queries)
    if size >= 100_000 and system in SLOW:
        queries = min(queries, args.slow_queries)
    command = [sys.executable, __file__, "--worker", system, "--size", str(size), "--queries", str(queries),
               "--data", str(args.data), "--ann-path", str(ann_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    if done.returncode != 0:
        return {"system": system, "size": size, "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "datasets" / "scifact")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--queries", type=int, default=300, help="SciFact test queries per system (default all 300)")
    parser.add_argument("--large-queries", type=int, default=50, help="queries per system from 100k documents on")
    parser.add_argument("--slow-queries", type=int, default=10,
                        help="queries for the systems that score every document in Python, from 100k documents on")
    parser.add_argument("--keep", type=Path, default=None, help="folder for the generated corpora and HNSW graphs "
                                                                "(default: a temporary one)")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds one system may take")
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--plot", type=Path, default=None, help="write the log-log plot (PNG) here")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ann-path", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args.worker, args.size, args.data, args.queries, ann_path=args.ann_path)))
        return 0
    systems = [s.strip() for s in args.systems.split(",")]
    record = {"command": "python " + " ".join(shlex.quote(a) for a in sys.argv), "cpu_count": os.cpu_count(),
              "load_average_start": [round(x, 2) for x in os.getloadavg()], "rows": []}
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            ann_path = Path(args.keep or tmp) / f"hnsw-{size}.faiss"
            for system in systems:
                started, load = time.time(), [round(x, 2) for x in os.getloadavg()]
                row = {**run_worker(system, size, args, ann_path), "load_average_start": load}
                row["wall_s"] = round(time.time() - started, 1)
                record["rows"].append(row)
                print(json.dumps(row), flush=True)
                if args.save:
                    args.save.parent.mkdir(parents=True, exist_ok=True)
                    args.save.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    record["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    if args.save:
        args.save.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if args.plot:
        from ragkit.plots import plot_scaling

        plot_scaling(record).savefig(args.plot, dpi=120, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(main())
