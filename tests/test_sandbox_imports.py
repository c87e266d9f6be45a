"""The import allow-list pre-flight check: what it reads from the syntax tree, and what it cannot see."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragkit.sandbox import disallowed_imports, imported_modules

MODULES = ["os", "math", "json", "socket", "subprocess", "collections"]


@pytest.mark.parametrize("code, modules", [
    ("import os", ["os"]),
    ("import os.path as p, json", ["os", "json"]),
    ("from collections.abc import Mapping", ["collections"]),
    ("from . import helpers\nfrom .tools import run\nimport math", ["math"]),
    ("def f():\n    import socket\nimport math", ["socket", "math"]),  # source order, nested ones too
    ("try:\n    import json\nexcept ImportError:\n    import math\nimport json", ["json", "math"]),
    ("x = 'import os'  # import sys", []),
    ('"""\nimport shutil\n"""', []),
])
def test_imported_modules(code: str, modules: list[str]) -> None:
    assert imported_modules(code) == modules


def test_disallowed_imports_and_what_it_cannot_see() -> None:
    assert disallowed_imports("import math, socket\nfrom os import path", allowed={"math"}) == ["socket", "os"]
    for evasive in ["__import__('socket')", "import importlib\nimportlib.import_module('socket')", "exec('import socket')"]:
        assert "socket" not in disallowed_imports(evasive, allowed={"math"})  # documented: not a security boundary


def test_code_that_does_not_parse_raises() -> None:
    with pytest.raises(SyntaxError):
        imported_modules("import (")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(MODULES), st.sampled_from(["import {m}", "from {m} import x",
                                                                     "def f():\n    import {m}", "import {m} as alias"])),
                min_size=1, max_size=6),
       st.sets(st.sampled_from(MODULES)))
def test_every_statement_form_is_found_once_in_order(statements, allowed) -> None:
    code = "\n".join(form.format(m=module) for module, form in statements)
    expected = list(dict.fromkeys(module for module, _ in statements))
    assert imported_modules(code) == expected
    assert disallowed_imports(code, allowed) == [m for m in expected if m not in allowed]
