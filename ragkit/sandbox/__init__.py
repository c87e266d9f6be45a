"""A sandbox for untrusted Python: a separate process with limits, an empty environment, and bubblewrap.

The supervisor's code agent runs code through ``python_runner()`` (``run_python`` with fixed limits) and
gets back a ``SandboxResult``: the output (cut at a cap), a ``status`` such as ``"ok"``, ``"error"``, ``"timeout"``,
``"memory"`` or ``"output_limit"``, and a ``summary()`` sentence for the user.

>>> from ragkit.sandbox import run_python
>>> r = run_python("print(sum(range(10)))", timeout_s=2)
>>> r.status, r.stdout
('ok', '45\\n')

Layers (``sandbox_capabilities()`` tells which are on here): rlimits for CPU, memory, processes, file
size, open files and core dumps; a wall-clock timeout and an output cap enforced by the caller; an
environment built from scratch (no API keys); a private unprivileged uid when the caller is root; on Linux
a seccomp filter against the memory no rlimit counts (System V IPC, ``memfd_create``, namespaces of its
own); and on Linux with bubblewrap, a read-only minimal file system and no network, pids or IPC shared
with the host. What it does not do: no allow-list of system calls, no total memory cap across the code's
processes, and without bubblewrap no file-system or network isolation at all (every result then says so
in ``missing``).
``disallowed_imports`` (``imports.py``) is a pre-flight allow-list check of the import statements, for a
clearer message; it is no protection (``__import__("os")`` passes it).

Platforms: this package imports everywhere; the Unix-only parts (``resource``, ``pwd``, ``fork``) load
when code runs, and on Windows ``run_python`` raises ``SandboxUnavailable`` saying what is missing and
that WSL has it. Bubblewrap is Linux only and optional: without it, ``missing`` lists what is off.
"""

from ragkit.sandbox.capabilities import SandboxCapabilities, SandboxUnavailable, sandbox_capabilities
from ragkit.sandbox.imports import disallowed_imports, imported_modules
from ragkit.sandbox.result import SandboxLimits, SandboxResult, Status, classify
from ragkit.sandbox.runner import MAX_CODE_CHARS, python_runner, run_python

__all__ = [
    "MAX_CODE_CHARS",
    "SandboxCapabilities",
    "SandboxLimits",
    "SandboxResult",
    "SandboxUnavailable",
    "Status",
    "classify",
    "disallowed_imports",
    "imported_modules",
    "python_runner",
    "run_python",
    "sandbox_capabilities",
]
