"""What the tests of the frozen claim sets share: the datasets they are built from and their builder scripts."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILDERS = ROOT / "benchmarks" / "roles"
DATASETS = ROOT.parent / "shared" / "datasets"
needs_sources = pytest.mark.skipif(
    not (DATASETS / "squad2").is_dir() or not (DATASETS / "scifact").is_dir(),
    reason=f"SQuAD 2.0 / SciFact not found under {DATASETS}",
)


def load_builder(name: str) -> ModuleType:
    """``benchmarks/roles/<name>.py`` as a module (its folder on ``sys.path`` while it loads, for its imports)."""
    sys.path.insert(0, str(BUILDERS))
    try:
        spec = importlib.util.spec_from_file_location(name, BUILDERS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BUILDERS))
    return module


def load_set(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def norm(text: str) -> str:
    """Whitespace collapsed, for "this text occurs in that one" checks."""
    return " ".join(text.split())
