"""Which modules a piece of Python imports, read from its syntax tree, and which of them an allow-list refuses.

A pre-flight check a code agent can run before it asks the sandbox: "this program imports ``socket``,
which is not on the list" is a clearer message than a failed connection. It reads every ``import`` and
``from ... import`` statement anywhere in the code (inside functions, ``if`` and ``try`` blocks too), keeps
the top-level package (``os.path`` -> ``os``), skips relative imports (``from . import x``: the code's own
files), and never runs anything.

It is **not** a security boundary and must never replace the sandbox: ``__import__("os")``,
``importlib.import_module("os")``, ``exec("import os")`` and modules reached through other modules'
attributes all pass it. :func:`ragkit.sandbox.run_python` is what contains code.

>>> imported_modules("import os.path, json as j\\nfrom collections import Counter\\nfrom . import helpers")
['os', 'json', 'collections']
>>> disallowed_imports("def f():\\n    import socket\\nimport math, subprocess", allowed={"math"})
['socket', 'subprocess']
>>> disallowed_imports("__import__('socket')", allowed={"math"})  # what it cannot see
[]
"""

from __future__ import annotations

import ast
from typing import Collection


def imported_modules(code: str) -> list[str]:
    """The top-level modules the code's import statements name, in order of first appearance, each once.

    Raises ``SyntaxError`` when the code does not parse (then nothing can be said about it).
    """
    statements = sorted((node for node in ast.walk(ast.parse(code)) if isinstance(node, (ast.Import, ast.ImportFrom))),
                        key=lambda node: (node.lineno, node.col_offset))
    found: dict[str, None] = {}
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name.split(".")[0], None)
        elif node.level == 0 and node.module:
            found.setdefault(node.module.split(".")[0], None)
    return list(found)


def disallowed_imports(code: str, allowed: Collection[str]) -> list[str]:
    """The modules of :func:`imported_modules` that are not in ``allowed`` (top-level names)."""
    return [module for module in imported_modules(code) if module not in allowed]


__all__ = ["disallowed_imports", "imported_modules"]
