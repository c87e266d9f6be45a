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


BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def benchmark_script(path: str) -> ModuleType:
    """``benchmarks/<path>`` as a module (benchmarks/ is not a package), named after its file and registered in
    ``sys.modules`` (dataclasses look their module up there); its folder is on ``sys.path`` while it loads, for
    its imports of the scripts beside it."""
    file = BENCHMARKS / path
    folder = str(file.parent)
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(file.stem, file)
        assert spec is not None and spec.loader is not None, file
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return module


def goldset_builder(name: str) -> ModuleType:
    """The gold-set builder ``benchmarks/goldsets/<name>.py`` as a module."""
    return benchmark_script(f"goldsets/{name}.py")
