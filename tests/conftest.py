"""Shared test setup: keep everything offline and give each test session its own embedding cache."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import pytest  # noqa: E402


@pytest.fixture
def no_gemini_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test as if no Gemini key were set."""
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
