"""A bounded load run against a real ``ragkit serve``: requests/s and latency at concurrency 1, 4 and 16.

It starts the server on a free local port (local roles, a fresh state directory, ``--workers`` processes),
then for each concurrency sends the same seeded mix of requests (invoke and NDJSON stream, over adaptive_rag,
self_rag, crag and advanced_rag, with questions from data/eval/handbook_golden.jsonl and
data/eval/routing_blind.json) and checks, for every one: no error status, and for streams no lost or
duplicated event (``metadata`` first, ``end`` last, one ``updates`` event per node in the final state's
``path``). Afterwards ``/metrics`` must count exactly the runs made, and the bandit exactly the advanced
pipeline's searches (one pull per search: ``arms_used`` in each final state; one per request unless a
request retried its retrieval). It writes ``benchmarks/results/server_load.json`` (``--workers 1``) or
``server_load_workers<N>.json``.

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/server/load.py [--requests 300] [--workers 2]

Simplifications: client and server share the machine's cores, so this measures the whole box, not the server
alone; questions repeat across concurrencies (the embedding cache is warm after the first pass); the warm-up
reaches one worker, so with several the first level also pays the others' first requests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.server.metrics import percentile  # noqa: E402
from tests.server_fixtures import Server  # noqa: E402

GRAPHS = ("adaptive_rag", "self_rag", "crag", "advanced_rag")


def questions() -> dict[str, list[str]]:
    handbook = [json.loads(line)["question"] for line in (ROOT / "data/eval/handbook_golden.jsonl").read_text().splitlines() if line]
    routing = [item["question"] for item in json.loads((ROOT / "data/eval/routing_blind.json").read_text())]
    return {"adaptive_rag": routing, "self_rag": handbook, "crag": handbook, "advanced_rag": handbook}


def plan(n: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """``(graph, mode, question)`` for n requests, seeded."""
    rng, pool = random.Random(seed), questions()
    out = []
    for _ in range(n):
        graph = rng.choice(GRAPHS)
        out.append((graph, rng.choice(("invoke", "stream")), rng.choice(pool[graph])))
    return out


def one(server: Server, n: int, graph: str, mode: str, question: str) -> tuple[float, str | None, int]:
    """Send one request; return its latency, a problem description (None when all was right) and the number
    of bandit updates its run made (its searches; 0 outside the advanced pipeline)."""
    body = {"question": question, "thread_id": f"load-{n}"}
    started = time.perf_counter()
    if mode == "invoke":
        response = server.client.post(f"/graphs/{graph}/invoke", json=body)
        seconds = time.perf_counter() - started
        if response.status_code != 200:
            return seconds, f"status {response.status_code}", 0
        return seconds, None, len(response.json()["state"].get("arms_used") or [])
    with server.client.stream("POST", f"/graphs/{graph}/stream", json=body) as response:
        if response.status_code != 200:
            return time.perf_counter() - started, f"status {response.status_code}", 0
        events = [json.loads(line) for line in response.iter_lines() if line.strip()]
    seconds = time.perf_counter() - started
    kinds = [e["event"] for e in events]
    if kinds[0] != "metadata" or kinds[-1] != "end" or "error" in kinds:
        return seconds, f"events {kinds[:1]}...{kinds[-1:]}", 0
    nodes = [e["node"] for e in events if e["event"] == "updates"]
    state = events[-1]["state"]
    path = state.get("path", [])
    return seconds, None if nodes == path else f"updates {nodes} != path {path}", len(state.get("arms_used") or [])


def bandit_pulls(server: Server) -> int:
    return int(server.client.get("/metrics").json().get("bandit", {}).get("total_pulls", 0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrency", default="1,4,16")
    parser.add_argument("--workers", type=int, default=1, help="ragkit serve --workers (default 1)")
    args = parser.parse_args(argv)
    levels = [int(c) for c in args.concurrency.split(",")]
    requests = plan(args.requests)
    load_at_start = round(os.getloadavg()[0], 2)  # other work on the machine slows every figure below
    server = Server(Path(tempfile.mkdtemp(prefix="ragkit-load-")), workers=args.workers)
    results = {}
    try:
        for graph in GRAPHS:  # warm every graph once (its corpus, its index) so level 1 is not all start-up
            server.client.post(f"/graphs/{graph}/invoke", json={"question": "warm up: what is BM25?"})
        for level in levels:
            before, pulls_before = server.client.get("/metrics").json()["queries_total"], bandit_pulls(server)
            started = time.perf_counter()
            with ThreadPoolExecutor(level) as pool:
                outcomes = list(pool.map(lambda job: one(server, f"{level}-{job[0]}", *job[1]), enumerate(requests)))
            wall = time.perf_counter() - started
            counted = server.client.get("/metrics").json()["queries_total"] - before
            pulled = bandit_pulls(server) - pulls_before
            latencies = sorted(s for s, _, _ in outcomes)
            problems = [p for _, p, _ in outcomes if p]
            searches = sum(n for _, _, n in outcomes)
            results[str(level)] = {
                "requests": len(requests), "errors": len(problems), "first_problems": problems[:3],
                "metrics_counted": counted, "metrics_match": counted == len(requests),
                "advanced_requests": sum(job[0] == "advanced_rag" for job in requests), "advanced_searches": searches,
                "bandit_pulls_added": pulled, "bandit_match": pulled == searches,
                "requests_per_s": round(len(requests) / wall, 2),
                "latency_p50_s": round(percentile(latencies, 0.5), 3),
                "latency_p95_s": round(percentile(latencies, 0.95), 3)}
            print(level, results[str(level)], flush=True)
    finally:
        server.stop()
    record = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/server/load.py " + " ".join(argv or sys.argv[1:]),
              "mix": "seeded mix of invoke and NDJSON stream over adaptive_rag, self_rag, crag, advanced_rag (local roles)",
              "workers": args.workers,
              "machine": "2 shared cores; client and server on the same machine",
              "load_average_1min_at_start": load_at_start, "results": results}
    out = ROOT / "benchmarks" / "results" / ("server_load.json" if args.workers == 1 else f"server_load_workers{args.workers}.json")
    out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print("written", out)
    return 0 if all(r["errors"] == 0 and r["metrics_match"] and r["bandit_match"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
