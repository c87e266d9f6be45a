"""What the tests of the frozen claim sets share: the datasets they are built from and their builder scripts."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import benchmark_script

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT.parent / "shared" / "datasets"
needs_sources = pytest.mark.skipif(
    not (DATASETS / "squad2").is_dir() or not (DATASETS / "scifact").is_dir(),
    reason=f"SQuAD 2.0 / SciFact not found under {DATASETS}",
)


def load_builder(name: str) -> ModuleType:
    """``benchmarks/roles/<name>.py`` as a module (its folder on ``sys.path`` while it loads, for its imports)."""
    return benchmark_script(f"roles/{name}.py")


def load_set(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def norm(text: str) -> str:
    """Whitespace collapsed, for "this text occurs in that one" checks."""
    return " ".join(text.split())
