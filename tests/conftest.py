"""Shared test setup: keep everything offline and give each test session its own embedding cache."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import pytest  # noqa: E402


@pytest.fixture
def no_gemini_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test as if no Gemini key were set."""
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)


SNAPSHOTS = __import__("pathlib").Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    """Compare text with ``tests/snapshots/<name>``; ``RAGKIT_UPDATE_SNAPSHOTS=1`` rewrites it (then review the diff)."""
    path = SNAPSHOTS / name
    if os.environ.get("RAGKIT_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text.strip() + "\n")
    assert text.strip() == path.read_text().strip(), f"{name} changed; if on purpose, re-run with RAGKIT_UPDATE_SNAPSHOTS=1"


GOLDSETS = Path(__file__).resolve().parents[1] / "benchmarks" / "goldsets"


def goldset_builder(name: str) -> ModuleType:
    """The gold-set builder ``benchmarks/goldsets/<name>.py`` as a module (its shared helpers importable beside it)."""
    if str(GOLDSETS) not in sys.path:
        sys.path.insert(0, str(GOLDSETS))
    spec = importlib.util.spec_from_file_location(name, GOLDSETS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
