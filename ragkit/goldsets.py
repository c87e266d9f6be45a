"""Frozen evaluation sets: a gold set is written, hashed, and only then used to tune or report anything.

Honest measurement needs a reporting set that nobody changed after looking at its errors. Each gold set
under ``data/eval/`` is recorded in ``data/eval/MANIFEST.json`` with the sha256 of its bytes, the date it
was frozen and a note saying what it is for. :func:`load_goldset` refuses a set whose bytes no longer match
the manifest, and every benchmark writes the hash it read into its results file, so a reader can tell
which version of a set a number was measured on.

Command line (run from the project folder)::

    python -m ragkit.goldsets freeze data/eval/routing_blind.json --note "blind router test set"
    python -m ragkit.goldsets check          # every entry of the manifest still matches its file

Simplifications: the hash covers the file's bytes, so re-indenting a set changes its hash (and needs a new,
honest freeze); the manifest is a plain JSON file, guarded by a file lock against two writers at once.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from filelock import FileLock

from ragkit.core.contract import DataError
from ragkit.core.files import data_dir, read_json


def eval_dir() -> Path:
    """The folder that holds the gold sets: ``<data_dir>/eval``."""
    return data_dir() / "eval"


def manifest_path() -> Path:
    return eval_dir() / "MANIFEST.json"


def sha256_file(path: str | Path) -> str:
    """The sha256 hex digest of a file's bytes.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"abc")
    >>> sha256_file(f.name)[:16]
    'ba7816bf8f01cfea'
    >>> os.unlink(f.name)
    """
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_manifest() -> dict[str, dict[str, str]]:
    """``{file name: {"sha256", "frozen", "note"}}`` (empty when there is no manifest yet)."""
    path = manifest_path()
    if not path.is_file():
        return {}
    data = read_json(path)
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected a JSON object of file name -> entry")
    return data


@contextmanager
def _locked_manifest() -> Iterator[dict[str, dict[str, str]]]:
    path = manifest_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(path.with_suffix(".lock")):  # flock on Unix, msvcrt on Windows
        manifest = read_manifest()
        yield manifest
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)


def _key(path: str | Path) -> str:
    path = Path(path).resolve()
    try:
        return str(path.relative_to(eval_dir().resolve()))
    except ValueError as err:
        raise ValueError(f"{path} is not inside {eval_dir()}: gold sets live there") from err


def freeze(path: str | Path, note: str, today: str | None = None) -> str:
    """Record a gold set's hash in the manifest; refuse to re-freeze a changed file under the same name.

    A set that was frozen must not be edited afterwards; write a new file (a new name) instead, so that
    the old numbers keep pointing at the bytes they were measured on.
    """
    if not note.strip():
        raise ValueError("say what the set is for: freeze(path, note='...')")
    key, digest = _key(path), sha256_file(path)
    with _locked_manifest() as manifest:
        old = manifest.get(key)
        if old is not None and old["sha256"] != digest:
            raise ValueError(
                f"{key} was frozen on {old['frozen']} with a different hash: a frozen set must not change. "
                "Save the new version under a new file name and freeze that."
            )
        manifest[key] = {"sha256": digest, "frozen": today or _dt.date.today().isoformat(), "note": note.strip()}
    return digest


def check_frozen(path: str | Path) -> str:
    """The set's hash, after checking it matches the manifest (raises DataError when it does not)."""
    key = _key(path)
    entry = read_manifest().get(key)
    if entry is None:
        raise DataError(f"{key} is not frozen: run `python -m ragkit.goldsets freeze {path} --note ...` first")
    digest = sha256_file(path)
    if digest != entry["sha256"]:
        raise DataError(f"{key} changed after it was frozen on {entry['frozen']} (sha256 {digest[:12]} != "
                        f"{entry['sha256'][:12]}): numbers measured on it would not be comparable")
    return digest


def load_goldset(name: str) -> tuple[Any, str]:
    """``(parsed JSON, sha256)`` of the frozen set ``data/eval/<name>``, checked against the manifest."""
    path = eval_dir() / name
    if not path.is_file():
        raise FileNotFoundError(f"gold set not found: {path}")
    digest = check_frozen(path)
    return read_json(path), digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ragkit.goldsets", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    f = commands.add_parser("freeze", help="record a gold set's hash in data/eval/MANIFEST.json")
    f.add_argument("path", type=Path)
    f.add_argument("--note", required=True)
    commands.add_parser("check", help="check every frozen set still matches its hash")
    args = parser.parse_args(argv)
    if args.command == "freeze":
        print(freeze(args.path, args.note))
        return 0
    bad = 0
    for key in sorted(read_manifest()):
        try:
            check_frozen(eval_dir() / key)
            print(f"ok       {key}")
        except (DataError, FileNotFoundError) as err:
            bad += 1
            print(f"CHANGED  {key}: {err}")
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
