"""Lost bandit updates: several processes update one retrieval bandit at once; how many updates are left?

Each process opens the bandit, waits until all have, then makes ``--updates`` rounds of ``select`` and
``update`` (seeded rewards). The stores compared:

- ``json``: ragkit.bandit's ``SharedBandit`` on one JSON file, saved after every update (how ``ragkit serve``
  kept it before): each process saves its own view, overwriting the others';
- ``sqlite``: ``ragkit.server.bandit_db.DatabaseBandit`` on SQLite in a fresh state folder;
- ``postgres``: the same on PostgreSQL (``--postgres-url``, or ``RAGKIT_TEST_POSTGRES_URL``; left out if neither).

It writes ``benchmarks/results/server_bandit_updates.json``.

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/server/bandit_updates.py [--stores json,sqlite,postgres]

Simplification: the rounds are as fast as the store allows (no graph runs between them), which is the
hardest case for a store that loses updates and the easiest way to see it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.server_fixtures import bandit_opener, updates_from_processes  # noqa: E402

CASES = ((2, 100), (4, 250))


def recorded_pulls(store: str, location: str, name: str) -> int:
    return int(bandit_opener(store, location, name)().stats()["total_pulls"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", default="json,sqlite,postgres")
    parser.add_argument("--postgres-url", default=os.environ.get("RAGKIT_TEST_POSTGRES_URL"))
    args = parser.parse_args(argv)
    results = []
    for store in args.stores.split(","):
        if store == "postgres" and not args.postgres_url:
            print("postgres: skipped (no --postgres-url and no RAGKIT_TEST_POSTGRES_URL)")
            continue
        for processes, updates in CASES:
            folder = tempfile.mkdtemp(prefix="ragkit-bandit-")
            location = {"json": str(Path(folder) / "bandit.json"), "sqlite": folder}.get(store, args.postgres_url)
            name = f"bench-{uuid.uuid4().hex[:12]}"  # fresh rows on a shared PostgreSQL
            started = time.perf_counter()
            updates_from_processes(bandit_opener(store, location, name), processes, updates)
            seconds = time.perf_counter() - started
            kept = recorded_pulls(store, location, name)
            row = {"store": store, "processes": processes, "updates_each": updates, "updates_made": processes * updates,
                   "pulls_recorded": kept, "lost": processes * updates - kept, "seconds_incl_process_start": round(seconds, 1)}
            results.append(row)
            print(row, flush=True)
    record = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/server/bandit_updates.py " + " ".join(argv or sys.argv[1:]),
              "machine": "2 shared cores", "results": results}
    out = ROOT / "benchmarks" / "results" / "server_bandit_updates.json"
    out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print("written", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
