"""Every worked example in a ragkit docstring runs and prints what it says (doctest, over every module)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ragkit

MODULES = sorted(m.name for m in pkgutil.walk_packages(ragkit.__path__, "ragkit.") if not m.name.endswith("_launcher"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples in {name} failed"
