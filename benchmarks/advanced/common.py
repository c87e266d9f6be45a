"""Shared bits of the advanced-pipeline benchmarks: where the datasets are, and file hashes."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def datasets_dir() -> Path:
    """``$RAGKIT_DATASETS``, else ``../shared/datasets`` next to the project (or next to a worktree's parent)."""
    if os.environ.get("RAGKIT_DATASETS"):
        return Path(os.environ["RAGKIT_DATASETS"])
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / "shared" / "datasets").is_dir():
            return base / "shared" / "datasets"
    return ROOT.parent / "shared" / "datasets"


def sha256(path: Path) -> str:
    """The sha256 of a file's bytes (recorded in every results file)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
