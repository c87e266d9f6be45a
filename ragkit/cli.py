"""The ``ragkit`` command line: ``ragkit bench retrieval`` runs the retrieval benchmark on a BEIR folder.

Example (from the project folder)::

    HF_HUB_OFFLINE=1 ragkit bench retrieval --data ../shared/datasets/scifact --split test --json

Without ``--json`` it prints a table; with it, one JSON object ``{system: {metric: value}}`` on stdout.
``--save FILE`` also writes the results, the parameters and the command to a JSON file.
``ragkit bench tune --data DIR --split train`` re-runs the grid searches that chose the defaults;
add ``--dense maxp`` for the systems whose dense side scores a document by its best chunk.

``--backend torch|onnx|onnx-int8`` on ``bench`` and ``ingest`` picks the embedder's backend (it sets
``RAGKIT_EMBEDDER_BACKEND``, which ``load_embedder`` reads; default ONNX).

``ragkit ingest PATH --collection NAME`` reads your own folder into a collection and ``ragkit collections``
lists (or deletes) them (:mod:`ragkit.ingest.command`); ``ragkit serve`` serves every graph over HTTP
(:mod:`ragkit.server.command`); ``ragkit eval`` replays a golden set (:mod:`ragkit.evaluation.command`);
``ragkit doctor``, ``ragkit lab``, ``ragkit workbook`` and ``ragkit wheelhouse`` prepare a workshop
(:mod:`ragkit.workshop`).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from ragkit import workshop as workshop_command
from ragkit.defaults import RETRIEVAL
from ragkit.evaluation import command as eval_command
from ragkit.evaluation.bench import SYSTEMS, config_dict, format_table, run_retrieval_benchmark
from ragkit.ingest import command as ingest_command
from ragkit.server import command as serve_command

# Each module adds its subcommands (add_commands) and runs them (run); COMMANDS names what it owns.
COMMAND_MODULES = (ingest_command, serve_command, eval_command, workshop_command)


def parse_systems(text: str) -> list[str]:
    """Parse ``--systems`` ("bm25,dense" or "all") into a list of known system names.

    >>> parse_systems("bm25, hybrid")
    ['bm25', 'hybrid']
    """
    if text.strip() == "all":
        return list(SYSTEMS)
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown system(s) {unknown or [text]}; choose from {', '.join(SYSTEMS)} or 'all'")
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragkit", description="ragkit: RAG and agents with LangGraph, offline by default.")
    commands = parser.add_subparsers(dest="command", required=True)
    bench = commands.add_parser("bench", help="run a benchmark")
    kinds = bench.add_subparsers(dest="kind", required=True)
    retrieval = kinds.add_parser(
        "retrieval", help="nDCG@10 / Recall@100 of bm25, dense, hybrid, hybrid+rerank (whole-document and max-chunk dense) on a BEIR folder"
    )
    retrieval.add_argument("--data", required=True, type=Path, help="BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)")
    retrieval.add_argument("--split", default="test", help="qrels split to evaluate (default: test)")
    retrieval.add_argument("--systems", default="all", type=parse_systems, help=f"comma-separated subset of {','.join(SYSTEMS)} (default: all)")
    retrieval.add_argument("--limit-queries", type=int, default=None, metavar="N", help="evaluate only the first N judged queries")
    retrieval.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    retrieval.add_argument("--save", type=Path, default=None, metavar="FILE", help="also write results, parameters and command to FILE")
    tune = kinds.add_parser("tune", help="grid-search BM25 k1/b, fusion and reranker weights on a (train) split")
    tune.add_argument("--data", required=True, type=Path, help="BEIR folder")
    tune.add_argument("--split", default="train", help="split to tune on (default: train; never tune on test)")
    tune.add_argument("--dense", choices=("whole", "maxp"), default="whole",
                      help="dense side of the hybrid: one vector per document (whole, default) or best chunk (maxp)")
    tune.add_argument("--save", type=Path, default=None, metavar="FILE", help="write the full grids and the command to FILE")
    for module in COMMAND_MODULES:
        module.add_commands(commands)
    for sub in (retrieval, tune, commands.choices["ingest"]):
        add_backend_flag(sub)
    return parser


def add_backend_flag(parser: argparse.ArgumentParser) -> None:
    """``--backend``: the embedder's backend for this run (sets ``RAGKIT_EMBEDDER_BACKEND``)."""
    from ragkit.core.embeddings import BACKENDS

    parser.add_argument("--backend", choices=BACKENDS, default=None,
                        help="embedder backend (default: $RAGKIT_EMBEDDER_BACKEND, else onnx; onnx-int8 changes the vectors)")


def run_tune(args: argparse.Namespace, argv: list[str]) -> int:
    """``ragkit bench tune``: print the best point of each grid search, optionally save every grid."""
    from ragkit.evaluation.tuning import tune_on_split

    record = tune_on_split(str(args.data), args.split, dense=args.dense)
    best = {stage: record[stage]["best"] for stage in ("bm25", "maxp", "fusion", "reranker") if stage in record}
    if args.save is not None:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        full = {"command": "ragkit " + " ".join(shlex.quote(a) for a in argv), "best": best, **record}
        args.save.write_text(json.dumps(full, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(best, indent=2))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ragkit`` console script; returns the exit code."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never download model weights
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    if getattr(args, "backend", None):
        os.environ["RAGKIT_EMBEDDER_BACKEND"] = args.backend  # the one place load_embedder reads it from
    for module in COMMAND_MODULES:
        if args.command in module.COMMANDS:
            return module.run(args)
    if args.kind == "tune":
        try:
            return run_tune(args, argv)
        except (FileNotFoundError, ValueError) as err:
            print(f"ragkit: {err}", file=sys.stderr)
            return 2
    if args.limit_queries is not None and args.limit_queries < 1:
        print("ragkit: --limit-queries must be at least 1", file=sys.stderr)
        return 2
    config = RETRIEVAL
    try:
        results = run_retrieval_benchmark(args.data, args.split, args.systems, args.limit_queries, config)
    except (FileNotFoundError, ValueError) as err:
        print(f"ragkit: {err}", file=sys.stderr)
        return 2
    if args.save is not None:
        record = {
            "command": "ragkit " + " ".join(shlex.quote(a) for a in argv),
            "dataset": args.data.name,
            "split": args.split,
            "limit_queries": args.limit_queries,
            "params": config_dict(config),
            "results": results,
        }
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2) if args.json else format_table(results))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
