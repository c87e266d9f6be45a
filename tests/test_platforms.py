"""ragkit imports on Windows, macOS and Linux: checked here by hiding what Windows lacks.

A child interpreter gets a ``sys.meta_path`` blocker for the Unix-only modules (``resource``, ``pwd``,
``fcntl``, ``grp``, ``termios``) and loses the ``os`` and ``signal`` attributes Windows has no
counterpart for (``os.fork``, ``os.getuid``, ``signal.SIGKILL``, ...); then it imports ragkit, every
public module of it and every module a notebook imports. What it cannot check: Windows' own paths,
file locking (``msvcrt``) and console; those need a real Windows machine.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from ragkit.core.files import notebooks_dir

UNIX_ONLY_MODULES = ("resource", "pwd", "fcntl", "grp", "termios")
UNIX_ONLY_OS = ("fork", "forkpty", "getuid", "geteuid", "getgid", "getegid", "killpg", "setsid", "getpgid",
                "setuid", "setgid", "wait4", "waitid", "sched_getaffinity", "getloadavg")
UNIX_ONLY_SIGNALS = ("SIGKILL", "SIGBUS", "SIGSYS", "SIGXCPU", "SIGHUP", "SIGQUIT", "SIGALRM", "SIGUSR1",
                     "SIGUSR2", "SIGCHLD", "SIGPIPE")

# Runs in the child: hide what Windows lacks, then import each module named in argv[1] (a JSON list).
CHILD = f"""
import importlib, importlib.abc, json, os, signal, sys, warnings
warnings.simplefilter("ignore")
BLOCKED = set({list(UNIX_ONLY_MODULES)!r})

class WindowsLike(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (hidden: not on Windows)", name=name)
        return None

assert not BLOCKED & set(sys.modules) or [sys.modules.pop(m) for m in BLOCKED & set(sys.modules)]
sys.meta_path.insert(0, WindowsLike())
for name in {list(UNIX_ONLY_OS)!r}:
    if hasattr(os, name):
        delattr(os, name)
for name in {list(UNIX_ONLY_SIGNALS)!r}:
    if hasattr(signal, name):
        delattr(signal, name)
failed = {{}}
for module in json.loads(sys.argv[1]):
    try:
        importlib.import_module(module)
    except Exception as err:
        failed[module] = f"{{type(err).__name__}}: {{err}}"
from ragkit.sandbox import SandboxUnavailable, run_python
try:
    run_python("print(1)")
    sandbox = "ran"
except SandboxUnavailable as err:
    sandbox = str(err)
print(json.dumps({{"failed": failed, "sandbox": sandbox, "hidden_loaded": sorted(BLOCKED & set(sys.modules))}}))
"""


def ragkit_modules() -> list[str]:
    """Every public module of the ragkit package (names with no part starting with ``_``)."""
    root = Path(__file__).resolve().parents[1] / "ragkit"
    names = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return names


def notebook_imports() -> list[str]:
    """The modules the notebooks' code cells import (``import x`` and ``from x import y``)."""
    names: set[str] = set()
    for path in sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "\n".join(line for line in "".join(cell["source"]).splitlines() if not line.startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module)
    return sorted(names)


def run_windows_like(modules: list[str]) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "RAGKIT_PROGRESS": "0"}
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(modules)], capture_output=True, text=True,
                         timeout=600, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_ragkit_and_notebook_imports_load_without_unix_only_modules() -> None:
    modules = ["ragkit", *ragkit_modules(), *notebook_imports()]
    assert "ragkit.sandbox.runner" in modules and "ipywidgets" in modules  # the lists are not empty by accident
    report = run_windows_like(modules)
    assert report["failed"] == {}
    assert report["hidden_loaded"] == []
    # The sandbox says, when used, what is missing here and what to do.
    assert "needs Linux or macOS" in report["sandbox"] and "resource" in report["sandbox"]
    assert "WSL" in report["sandbox"]


def test_the_check_would_catch_a_unix_only_import() -> None:
    report = run_windows_like(["fcntl", "ragkit"])
    assert "fcntl" in report["failed"] and "ragkit" not in report["failed"]
