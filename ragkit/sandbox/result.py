"""What one sandboxed run produced: its output, how it ended (a ``Status``), and a sentence for a user.

``classify`` turns the raw facts of a run (why the runner stopped it, the exit code or signal, the CPU
time, stderr) into one ``Status``. It cannot see inside the code: a program that prints
``MemoryError`` to stderr and exits 1 is reported as ``"memory"``, and one that ends with
``sys.exit(137)`` inside bubblewrap, where the launcher's report is missing, may read as a signal.
Such lies only fool the report, never the limits.
"""

from __future__ import annotations

import re
import signal as _signal
from dataclasses import dataclass
from typing import Literal

Status = Literal["ok", "error", "timeout", "cpu", "memory", "output_limit", "crash", "killed", "sandbox_error"]

# By name: Windows has no SIGBUS or SIGSYS, and this module must import there too.
CRASH_SIGNALS = frozenset(
    getattr(_signal, name) for name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGSYS") if hasattr(_signal, name)
)
_MEMORY_RE = re.compile(r"(^|\n)\s*(\w+\.)*MemoryError\b|Cannot allocate memory|[Oo]ut of memory")
_SANDBOX_ERROR_PREFIXES = ("bwrap:", "ragkit-sandbox:")


@dataclass(frozen=True)
class SandboxLimits:
    """The limits one run had; sizes in MB, times in seconds."""

    timeout_s: float
    cpu_s: int
    memory_mb: int
    max_processes: int
    max_output_bytes: int
    file_size_mb: int
    disk_mb: int
    max_open_files: int


@dataclass(frozen=True)
class SandboxResult:
    """The outcome of ``run_python``: output (cut at the cap), how it ended, and which protections held.

    ``exit_code`` is set when the code exited, ``signal`` when a signal killed it (``SIGKILL`` too when
    the runner stopped it for a timeout or too much output). ``protections`` names what was on;
    ``missing`` says in words what was off and why; ``leftover_processes`` counts the code's processes
    still alive after cleanup (0 unless something is badly wrong; counted only under root).

    >>> r = SandboxResult("ok", "45\\n", "", exit_code=0)
    >>> r.summary()
    'The code ran successfully.'
    """

    status: Status
    stdout: str
    stderr: str
    exit_code: int | None = None
    signal: int | None = None
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    wall_time_s: float = 0.0
    cpu_time_s: float = 0.0
    limits: SandboxLimits | None = None
    protections: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    mode: str = ""
    leftover_processes: int = 0

    @property
    def ok(self) -> bool:
        """True when the code ran to the end and exited with code 0."""
        return self.status == "ok"

    @property
    def truncated(self) -> bool:
        """True when stdout or stderr was cut at the output cap."""
        return self.stdout_truncated or self.stderr_truncated

    @property
    def signal_name(self) -> str | None:
        """The killing signal's name, e.g. ``'SIGSEGV'``."""
        return None if self.signal is None else _signal_name(self.signal)

    @property
    def error_line(self) -> str:
        """The last non-empty line of stderr: for a traceback, the exception (``'ZeroDivisionError: ...'``)."""
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def summary(self) -> str:
        """One sentence for a user about how the run ended, plus the protections that were off."""
        sentence = _SUMMARIES[self.status](self)
        if self.missing:
            sentence += " Not isolated: " + "; ".join(self.missing) + "."
        return sentence


def _signal_name(number: int) -> str:
    try:
        return _signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _limit(result: SandboxResult, name: str, default: str) -> str:
    return default if result.limits is None else f"{getattr(result.limits, name):g}"


def _error_sentence(r: SandboxResult) -> str:
    if r.error_line and r.exit_code == 1:
        return f"The code stopped with an error: {r.error_line}"
    return f"The code exited with code {r.exit_code}."


_SUMMARIES = {
    "ok": lambda r: "The code ran successfully.",
    "error": _error_sentence,
    "timeout": lambda r: f"The code took longer than the time limit ({_limit(r, 'timeout_s', '?')} s) and was stopped.",
    "cpu": lambda r: f"The code used more than its CPU time ({_limit(r, 'cpu_s', '?')} s) and was stopped.",
    "memory": lambda r: f"The code ran out of memory (limit {_limit(r, 'memory_mb', '?')} MB) and was stopped.",
    "output_limit": lambda r: (
        f"The code printed more than {_limit(r, 'max_output_bytes', 'the limit of')} bytes, "
        "so it was stopped and its output cut."
    ),
    "crash": lambda r: f"The Python interpreter crashed ({r.signal_name}); the caller is unaffected.",
    "killed": lambda r: f"The code was killed by {r.signal_name}.",
    "sandbox_error": lambda r: f"The sandbox could not run the code: {r.error_line}",
}


def classify(
    *,
    stopped_for: Literal["timeout", "output_limit"] | None,
    exit_code: int | None,
    signal: int | None,
    cpu_time_s: float,
    cpu_limit_s: float,
    stderr: str,
) -> Status:
    """Name how a run ended, the runner's own decision first.

    >>> classify(stopped_for=None, exit_code=1, signal=None, cpu_time_s=0.1, cpu_limit_s=2,
    ...          stderr="Traceback (most recent call last):\\nMemoryError")
    'memory'
    >>> classify(stopped_for=None, exit_code=None, signal=24, cpu_time_s=2.0, cpu_limit_s=2, stderr="")
    'cpu'
    """
    if stopped_for is not None:
        return stopped_for
    if signal == _signal.SIGXCPU or (signal == _signal.SIGKILL and cpu_time_s >= cpu_limit_s):
        return "cpu"
    if (exit_code not in (0, None) or signal is not None) and _MEMORY_RE.search(stderr):
        return "memory"
    if signal is not None:
        return "crash" if signal in CRASH_SIGNALS else "killed"
    if exit_code != 0 and stderr.lstrip().startswith(_SANDBOX_ERROR_PREFIXES):
        return "sandbox_error"
    return "ok" if exit_code == 0 else "error"
