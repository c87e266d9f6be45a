"""``ragkit ingest PATH --collection NAME`` and ``ragkit collections [list | delete NAME --yes]``.

Examples (collections live in ``$RAGKIT_COLLECTIONS_DIR`` or ``~/.cache/ragkit/collections``)::

    ragkit ingest ~/notes --collection notes          # read, chunk, embed, save; prints what it skipped and why
    ragkit ingest ~/notes --collection notes          # again: unchanged files are not read again
    ragkit collections                                # name, documents, chunks, size, when built
    ragkit collections delete notes --yes             # without --yes nothing is deleted

Exit codes: 0 done (files may have been skipped; each is listed with its reason), 2 refused (nothing
could be ingested, a bad name, an unknown collection, a missing --yes, a folder that cannot be opened
or written), 3 busy (another ingest of the same collection is running).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

COMMANDS = ("ingest", "collections")


def add_commands(subparsers: Any) -> None:
    """Add ``ingest`` and ``collections`` to the ``ragkit`` command's subparsers."""
    from ragkit.ingest.files import MAX_FILE_BYTES

    ingest = subparsers.add_parser("ingest", help="read a folder of Markdown, text, HTML and PDF into a named collection")
    ingest.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="folders (read recursively) or files")
    ingest.add_argument("--collection", required=True, metavar="NAME", help="collection name (letters, digits, _ - .)")
    ingest.add_argument("--max-file-mb", type=float, default=MAX_FILE_BYTES / 2**20, metavar="MB",
                        help=f"refuse files larger than this (default {MAX_FILE_BYTES / 2**20:g})")
    ingest.add_argument("--rehash", action="store_true", help="hash every file instead of trusting size and mtime")
    ingest.add_argument("--root", type=Path, default=None, help="collections folder (default $RAGKIT_COLLECTIONS_DIR "
                                                                 "or ~/.cache/ragkit/collections)")
    ingest.add_argument("--json", action="store_true", help="print the report as one JSON object")
    collections = subparsers.add_parser("collections", help="list collections (default), or delete one")
    actions = collections.add_subparsers(dest="action")
    listing = actions.add_parser("list", help="name, documents, chunks, size and build time of each collection")
    delete = actions.add_parser("delete", help="delete a collection (needs --yes)")
    delete.add_argument("name", help="collection to delete")
    delete.add_argument("--yes", action="store_true", help="really delete it")
    for parser in (collections, listing, delete):  # options before or after the action; SUPPRESS keeps the first
        default: Any = None if parser is collections else argparse.SUPPRESS
        parser.add_argument("--root", type=Path, default=default, help="collections folder")
        if parser is not delete:
            parser.add_argument("--json", action="store_true", default=False if parser is collections else argparse.SUPPRESS,
                                help="print one JSON list")


def format_size(size: int) -> str:
    """Bytes for people.

    >>> format_size(512), format_size(2_500_000)
    ('512 B', '2.4 MB')
    """
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("kB", 2**10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def run_ingest(args: argparse.Namespace) -> int:
    from ragkit.ingest.pipeline import IngestError, ingest

    if args.max_file_mb <= 0:
        print("ragkit: --max-file-mb must be positive", file=sys.stderr)
        return 2
    try:
        report = ingest(args.paths, collection=args.collection, root=args.root, rehash=args.rehash,
                        max_file_bytes=int(args.max_file_mb * 2**20))
    except IngestError as err:
        print(f"ragkit: {err}", file=sys.stderr)
        for skipped in err.skipped:
            print(f"  skipped {skipped}", file=sys.stderr)
        return 2
    if args.json:
        record = {**report.__dict__, "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped]}
        print(json.dumps(record, indent=2))
    else:
        print(report.summary())
    return 0


def run_collections(args: argparse.Namespace) -> int:
    from ragkit.ingest.store import collections_dir, delete_collection, list_collections

    if args.action == "delete":
        if not args.yes:
            print(f"ragkit: this deletes collection {args.name!r} and its indexes; add --yes to do it", file=sys.stderr)
            return 2
        info = delete_collection(args.name, args.root)
        print(f"deleted collection {info.name!r} ({info.documents} documents, {info.chunks} chunks, {format_size(info.size_bytes)})")
        return 0
    found = list_collections(args.root)
    if getattr(args, "json", False):
        print(json.dumps([c.to_json() for c in found], indent=2))
        return 0
    print(f"collections in {collections_dir(args.root)}:")
    if not found:
        print("  none yet (make one with `ragkit ingest PATH --collection NAME`)")
    for c in found:
        print(f"  {c.name:24} {c.documents:6} documents {c.chunks:7} chunks {format_size(c.size_bytes):>9}  built {c.built}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``ragkit ingest`` or ``ragkit collections``; returns the exit code (errors are printed, not raised)."""
    from ragkit.ingest.store import CollectionBusy

    try:
        return run_ingest(args) if args.command == "ingest" else run_collections(args)
    except CollectionBusy as err:
        print(f"ragkit: {err}", file=sys.stderr)
        return 3
    except (OSError, ValueError) as err:  # a missing or unreadable folder, a collections folder we may not write
        print(f"ragkit: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C while reading or embedding: the swap into place had not happened
        print("ragkit: interrupted; the collection is as it was (an ingest replaces it only when it finishes)",
              file=sys.stderr)
        return 130


__all__ = ["COMMANDS", "add_commands", "format_size", "run"]
