"""``ragkit eval``: replay a golden set through a graph (in process or on a server) and score it offline.

    ragkit eval --graph crag --golden data/eval/handbook_golden.jsonl --out results/crag_handbook.jsonl
    ragkit eval --graph crag --golden ... --server http://127.0.0.1:8000      # against a running ragkit serve

It prints a table per category (mean and standard deviation of each score) and, with ``--save``, writes the
summary with the command and the golden set's sha256. Exit codes: 0 every question ran; 1 some failed to run
(each is counted in the ``errors`` column, and the first error is printed); 2 refused before the replay.
RAGAS's LLM metrics need ``ragas`` and a chat model in a separate environment: see
``ragkit/evaluation/ragas_scores.py``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

COMMANDS = ("eval",)


def add_commands(commands: argparse._SubParsersAction) -> None:
    ev = commands.add_parser("eval", help="replay a golden set (JSONL) through a graph and score it offline")
    ev.add_argument("--graph", required=True, help="graph name (see GET /graphs or ragkit.server.registry)")
    ev.add_argument("--golden", required=True, type=Path, help="JSONL: question, reference_answer, reference_context_ids, category")
    ev.add_argument("--server", default=None, help="URL of a running ragkit serve (default: run in this process)")
    ev.add_argument("--token", default=None, help="bearer token for graphs that change data (server mode)")
    ev.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N questions")
    ev.add_argument("--out", type=Path, default=None, help="write one JSON result per question to this JSONL file")
    ev.add_argument("--save", type=Path, default=None, help="write the summary, command and set hash to this JSON file")


def server_runner(url: str, graph: str, token: str | None) -> Any:
    """A :class:`ragkit.evaluation.replay.ServerRunner`, or a ValueError saying how to start the server it cannot reach."""
    import httpx

    from ragkit.evaluation.replay import ServerRunner
    from ragkit.server.client import ServerError

    try:
        return ServerRunner(url, graph, token)
    except (httpx.HTTPError, ServerError) as err:
        raise ValueError(f"cannot use the server at {url} ({type(err).__name__}: {err}); start it with `ragkit serve` "
                         "and pass its URL, such as --server http://127.0.0.1:8000") from err


def run(args: argparse.Namespace) -> int:
    from ragkit.evaluation.replay import InProcessRunner, format_summary, load_golden, replay, summarise

    try:
        items, digest = load_golden(args.golden)
        if args.limit is not None:
            if args.limit < 1:
                raise ValueError("--limit must be at least 1")
            items = items[: args.limit]
        for flag, path, example in (("--out", args.out, "results.jsonl"), ("--save", args.save, "summary.json")):
            if path is not None and path.is_dir():  # found now, not after the whole replay
                raise ValueError(f"{flag} {path} is a folder; give a file name, such as {path / example}")
        runner = server_runner(args.server, args.graph, args.token) if args.server else InProcessRunner(args.graph)
    except (FileNotFoundError, ValueError) as err:
        print(f"ragkit eval: {err}", file=sys.stderr)
        return 2
    grader = None
    if runner.full_contexts:
        from ragkit.offline.claims import LocalHallucinationGrader

        grader = LocalHallucinationGrader()
    rows = replay(items, runner, grader)
    summary = summarise(rows)
    print(format_summary(summary))
    try:
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        if args.save:
            record = {"command": "ragkit eval " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else "ragkit eval",
                      "graph": args.graph, "golden": str(args.golden), "sha256": digest, "questions": len(items),
                      "mode": "server" if args.server else "in process", "summary": summary}
            args.save.parent.mkdir(parents=True, exist_ok=True)
            args.save.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    except OSError as err:  # the table above is the replay's result; only the file could not be written
        print(f"ragkit eval: cannot write {err.filename}: {err.strerror or err}; choose a file you can write to",
              file=sys.stderr)
        return 2
    failed = [row for row in rows if "error" in row]
    if failed:  # the scores above count them as misses; the exit code says the replay did not run cleanly
        print(f"ragkit eval: {len(failed)} of {len(rows)} questions failed to run (the 'errors' column); the first: "
              f"{failed[0]['error']}", file=sys.stderr)
        return 1
    return 0
