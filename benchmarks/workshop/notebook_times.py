"""How long each notebook takes to run, cold and warm: the figures in INSTRUCTORS.md.

Cold: a new, empty embedding cache (``RAGKIT_CACHE_DIR`` pointing at an empty temporary folder), what a
learner's first run of that notebook costs. Warm: the same notebook again with the cache it just filled.
Each run is ``jupyter nbconvert --to notebook --execute`` into a temporary folder (the committed notebooks
are not touched), timed from outside, with the 1-minute load average read before it (the machine is shared,
so a number means little without it).

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/workshop/notebook_times.py            # all 13, about 30 minutes
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/workshop/notebook_times.py --nb 00 04

It also records the largest memory any run's kernel used (Linux). What it cannot tell: the time on a learner's laptop (more cores, or fewer), or how long a person takes to
read a notebook and do its exercises (INSTRUCTORS.md budgets that separately).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ragkit.core.files import notebooks_dir, results_dir


def run_notebook(path: Path, cache: Path, out_dir: Path) -> tuple[float, bool, str]:
    """Execute one notebook with ``cache`` as ragkit's cache; return (seconds, ok, last error line)."""
    env = {**os.environ, "RAGKIT_CACHE_DIR": str(cache), "RAGKIT_STATE_DIR": str(cache / "server"),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "RAGKIT_PROGRESS": "0"}
    cmd = [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--output-dir", str(out_dir),
           "--ExecutePreprocessor.timeout=1800", str(path)]
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=path.parent)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return seconds, done.returncode == 0, (lines[-1] if lines and done.returncode else "")


def peak_child_memory_mb() -> float | None:
    """The largest resident set of any process these runs started (a kernel), in MB; None off Linux."""
    try:
        import resource  # Unix only; on Linux ru_maxrss is in KB
    except ImportError:
        return None
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1) if sys.platform.startswith("linux") else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nb", nargs="*", default=None, help="notebook numbers (default: all)")
    parser.add_argument("--save", type=Path, default=results_dir() / "workshop_notebook_times.json")
    args = parser.parse_args(argv)
    paths = sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb"))
    if args.nb:
        paths = [p for p in paths if p.name[:2] in args.nb]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            cache = Path(tmp) / path.stem
            row = {"notebook": path.name}
            for phase in ("cold", "warm"):
                load = os.getloadavg()[0]
                seconds, ok, error = run_notebook(path, cache, Path(tmp) / "out")
                row[phase] = {"seconds": round(seconds, 1), "ok": ok, "load_1min_before": round(load, 2),
                              **({"error": error} if error else {})}
            rows.append(row)
            print(f"{path.name:32} cold {row['cold']['seconds']:7.1f} s (load {row['cold']['load_1min_before']:.1f})"
                  f"   warm {row['warm']['seconds']:7.1f} s (load {row['warm']['load_1min_before']:.1f})"
                  + ("" if row["cold"]["ok"] and row["warm"]["ok"] else "   FAILED"), flush=True)
    record = {
        "command": "python benchmarks/workshop/notebook_times.py" + (f" --nb {' '.join(args.nb)}" if args.nb else ""),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(terse=True)},
        "notebooks": rows,
        "total_seconds": {phase: round(sum(r[phase]["seconds"] for r in rows), 1) for phase in ("cold", "warm")},
        "peak_memory_mb": peak_child_memory_mb(),
    }
    args.save.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"total cold {record['total_seconds']['cold']:.0f} s, warm {record['total_seconds']['warm']:.0f} s; wrote {args.save}")
    return 0 if all(r[p]["ok"] for r in rows for p in ("cold", "warm")) else 1


if __name__ == "__main__":
    sys.exit(main())
