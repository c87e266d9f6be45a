"""What this machine can do to contain code: bubblewrap (and in which mode), a separate user, rlimits.

``sandbox_capabilities()`` probes once per interpreter (it starts one tiny sandbox) and says which
protections ``run_python`` will switch on, and in words which ones are off and why. ``bwrap_argv``
builds bubblewrap's command line: a read-only view of ``/usr`` (and ``/bin``, ``/lib``... as on the
host), the interpreter's own prefix, ``/etc/ld.so.cache``; fresh ``/proc``, ``/dev``, a size-capped
tmpfs ``/tmp`` and a size-capped tmpfs working directory ``/sandbox`` holding the code as ``main.py``.
Nothing else of the host is visible: not ``/work``, not ``/root``, not ``/home``.

Two bubblewrap modes, because ``RLIMIT_NPROC`` never applies to uid 0:

- ``"privileged"`` (the caller is root): bwrap runs as root without a user namespace, unshares pid,
  net, ipc, uts and cgroup namespaces, and the launcher inside drops to a private unprivileged uid
  before the code starts (only ``CAP_SETUID``/``CAP_SETGID`` are kept for that step, then lost).
- ``"userns"`` (any other user): ``--unshare-all`` with a user namespace; the code keeps the caller's
  uid outside, and its process limit counts only the processes inside that namespace.

On Linux (x86-64 and arm64) a small seccomp filter (``syscall_filter()``, installed by the launcher) refuses
the few system calls that hold memory no rlimit counts: System V shared memory, message queues and
semaphores, ``memfd_create``, and new namespaces (``unshare``, ``clone`` with ``CLONE_NEW*``; ``clone3``
reports "not implemented", so the C library falls back to ``clone``). Inside a user namespace of its own the
code could mount a tmpfs without a size; in the host's IPC namespace its segments would outlive the run.
A kernel that refuses the filter makes every run a ``"sandbox_error"``: the code never runs without it.

Not done: every other system call is allowed (no allow-list), and no cgroup memory limit: memory is capped
per process, so the total is at most ``max_processes`` times ``memory_mb``, plus the two tmpfs of ``disk_mb``
each, plus kernel memory no limit names (pipe and socket buffers, the inodes of many small files).
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from typing import Literal

WORKDIR = "/sandbox"
_HOST_LINKS = ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
_HOST_FILES = ("/etc/ld.so.cache", "/etc/alternatives")

BWRAP_PROTECTIONS = ("filesystem_isolation", "network_isolation", "pid_isolation", "ipc_isolation", "disk_quota")
BASE_PROTECTIONS = (
    "wall_clock_timeout",
    "cpu_limit",
    "memory_limit",
    "process_limit",
    "file_size_limit",
    "open_files_limit",
    "no_core_dumps",
    "output_limit",
    "clean_environment",
    "temp_workdir",
)


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here, or a protection that was asked for is not available."""


# The seccomp filter's numbers per machine: audit architecture, clone, clone3 and the calls refused outright.
SYSCALL_FILTERS = {
    "x86_64": {"arch": 0xC000003E, "clone": 56, "clone3": 435,
               "refuse": {"shmget": 29, "semget": 64, "msgget": 68, "unshare": 272, "memfd_create": 319}},
    "aarch64": {"arch": 0xC00000B7, "clone": 220, "clone3": 435,
                "refuse": {"unshare": 97, "msgget": 186, "semget": 190, "shmget": 194, "memfd_create": 279}},
}


def syscall_filter() -> dict | None:
    """The numbers the launcher's seccomp filter needs on this machine, or ``None`` where it has none.

    >>> spec = syscall_filter()
    >>> spec is None or {"arch", "clone", "clone3", "refuse"} == set(spec)
    True
    """
    return SYSCALL_FILTERS.get(os.uname().machine) if sys.platform.startswith("linux") else None


UNIX_MODULES = ("resource", "pwd")  # rlimits and the private uid's check: Linux and macOS only


def require_unix() -> None:
    """Raise ``SandboxUnavailable``, with the fix, where the sandbox cannot run (Windows: no fork, no rlimits).

    ragkit imports everywhere; only running code in the sandbox needs a Unix system, so this check runs
    when ``run_python`` is called, not when ragkit is imported.
    """
    missing = []
    for name in UNIX_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if not hasattr(os, "fork"):
        missing.append("os.fork")
    if missing:
        raise SandboxUnavailable(
            f"the sandbox needs Linux or macOS; this platform ({sys.platform}) lacks {', '.join(missing)}. "
            "On Windows, run the workbook inside WSL (wsl --install, then follow the Linux "
            "steps in the README); everything else in ragkit works without the sandbox."
        )


@dataclass(frozen=True)
class PythonInfo:
    """The interpreter that runs sandboxed code: its real path, prefixes and version."""

    executable: str
    prefixes: tuple[str, ...]
    version: tuple[int, int]


@dataclass(frozen=True)
class SandboxCapabilities:
    """What ``run_python`` can switch on here, found by ``sandbox_capabilities()``."""

    python: PythonInfo
    bwrap_path: str | None
    bwrap_mode: Literal["privileged", "userns"] | None
    bwrap_problem: str
    separate_user: bool
    plain_problem: str = ""

    @property
    def plain_usable(self) -> bool:
        """True when the code can run without bubblewrap (under root: the private uid can read Python)."""
        return not self.plain_problem

    @property
    def bwrap_usable(self) -> bool:
        """True when bubblewrap is installed and a probe sandbox started."""
        return self.bwrap_mode is not None

    def protections(self, use_bwrap: bool) -> tuple[str, ...]:
        """The protections a run has, with or without bubblewrap."""
        names = list(BASE_PROTECTIONS)
        if self.separate_user:
            names.append("separate_user")
        if sys.platform.startswith("linux"):
            names.append("no_new_privileges")
        if syscall_filter() is not None:
            names.append("syscall_filter")
        if use_bwrap:
            names.extend(BWRAP_PROTECTIONS)
        return tuple(names)

    def missing(self, use_bwrap: bool, why_off: str = "") -> tuple[str, ...]:
        """The protections that are off, each with its reason, in words for a user."""
        out = []
        if not use_bwrap:
            reason = why_off or (
                "bubblewrap not found (apt-get install bubblewrap)" if self.bwrap_path is None
                else f"bubblewrap cannot start a sandbox here ({self.bwrap_problem})"
            )
            out.append(f"no filesystem isolation, no network isolation, no process isolation, no disk quota: {reason}")
            if not self.separate_user:
                out.append(
                    "no separate user: the code runs as you, so it can read and change your files, "
                    "signal your processes, and shares your process limit"
                )
        if sys.platform.startswith("linux") and syscall_filter() is None:
            out.append(f"no system-call filter on this processor ({os.uname().machine}): shared memory, memory "
                       "files and namespaces of its own can hold more memory than memory_mb")
        return tuple(out)

    def summary(self) -> str:
        """One line: the mode ``run_python`` uses by default and what is off."""
        if not self.bwrap_usable and not self.plain_usable:
            return f"Sandbox: unavailable ({self.bwrap_problem}; {self.plain_problem})"
        mode = f"bubblewrap ({self.bwrap_mode})" if self.bwrap_usable else "rlimits only"
        missing = self.missing(self.bwrap_usable)
        return f"Sandbox: {mode}" + (f"; off: {'; '.join(missing)}" if missing else "; every protection listed is on")


@functools.lru_cache(maxsize=8)
def python_info(python: str | None = None) -> PythonInfo:
    """Describe the interpreter (default: the one running this, outside any virtualenv)."""
    if python is None:
        exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
        prefixes = {sys.base_prefix, sys.base_exec_prefix}
        return PythonInfo(exe, tuple(sorted(prefixes)), sys.version_info[:2])
    exe = os.path.realpath(shutil.which(python) or python)
    probe = "import json,sys;print(json.dumps([sys.base_prefix,sys.base_exec_prefix,sys.version_info[:2]]))"
    try:
        out = subprocess.run([exe, "-I", "-S", "-c", probe], capture_output=True, text=True, env={}, timeout=30,
                             check=True)
        base, exec_base, version = json.loads(out.stdout)
    except (OSError, ValueError, subprocess.SubprocessError) as exc:
        raise SandboxUnavailable(f"cannot use {python!r} as the sandbox's Python: {exc}") from exc
    return PythonInfo(exe, tuple(sorted({base, exec_base})), (version[0], version[1]))


@functools.lru_cache(maxsize=4)
def _bwrap_help(bwrap: str) -> str:
    try:
        return subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _others_can_read(path: str) -> bool:
    """True when a user with no groups can reach ``path`` (every parent searchable by others)."""
    real = os.path.realpath(path)
    parts = real.strip("/").split("/")
    try:
        for i in range(len(parts) + 1):
            mode = os.stat("/" + "/".join(parts[:i])).st_mode
            if not mode & 0o001 and (i < len(parts) or not mode & 0o004):
                return False
    except OSError:
        return False
    return True


def _covered(path: str, bound: list[str]) -> bool:
    return any(path == b or path.startswith(b.rstrip("/") + "/") for b in bound)


def bwrap_argv(bwrap: str, mode: str, py: PythonInfo, *, script: str | None, disk_mb: int) -> list[str]:
    """Bubblewrap's options for one run (``script``: the host file shown as ``/sandbox/main.py``)."""
    args = [bwrap, "--die-with-parent", "--new-session"]
    if mode == "privileged":
        args += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--unshare-all", "--unshare-user"]
        if "--disable-userns" in _bwrap_help(bwrap):  # bubblewrap 0.8+
            args.append("--disable-userns")
    args += ["--hostname", "sandbox", "--ro-bind", "/usr", "/usr"]
    bound = ["/usr"]
    for path in _HOST_LINKS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
            bound.append(path)
    args += [a for path in _HOST_FILES if os.path.exists(path) for a in ("--ro-bind", path, path)]
    for path in (*py.prefixes, os.path.dirname(py.executable)):
        real = os.path.realpath(path)
        if _covered(real, bound):
            continue
        parts = real.strip("/").split("/")
        for i in range(1, len(parts)):  # parents readable by the sandbox user (bwrap makes them 0700)
            args += ["--perms", "0755", "--dir", "/" + "/".join(parts[:i])]
        args += ["--ro-bind", real, real]
        bound.append(real)
    size = str(disk_mb * 1024 * 1024)
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
    args += ["--perms", "0777", "--size", size, "--tmpfs", WORKDIR]
    if script is not None:
        args += ["--ro-bind", script, f"{WORKDIR}/main.py"]
    return args + ["--chdir", WORKDIR]


def _probe_bwrap(bwrap: str, mode: str, py: PythonInfo) -> str:
    """Start an empty sandbox; return '' when it works, else bubblewrap's complaint."""
    cmd = bwrap_argv(bwrap, mode, py, script=None, disk_mb=1) + [py.executable, "-I", "-S", "-c", "pass"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, env={}, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    lines = (out.stderr or "").strip().splitlines()
    return "" if out.returncode == 0 else (lines[-1] if lines else f"exit code {out.returncode}")


@functools.lru_cache(maxsize=8)
def sandbox_capabilities(python: str | None = None) -> SandboxCapabilities:
    """Find what can contain code here: is bubblewrap installed and usable, is there a user to drop to.

    >>> caps = sandbox_capabilities()
    >>> caps.bwrap_mode in ("privileged", "userns", None)
    True
    """
    py = python_info(python)
    linux = sys.platform.startswith("linux")
    bwrap = shutil.which("bwrap") if linux else None
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    mode: Literal["privileged", "userns"] = "privileged" if root else "userns"
    problem = "" if bwrap is None else _probe_bwrap(bwrap, mode, py)
    if bwrap is None:
        problem = "bubblewrap not found" if linux else f"bubblewrap needs Linux, not {sys.platform}"
    plain_problem = ""
    if root and not all(_others_can_read(p) for p in (py.executable, *py.prefixes)):
        plain_problem = (
            f"without bubblewrap the code runs as an unprivileged uid, which cannot read the interpreter "
            f"{py.executable}; use bubblewrap or pass python= an interpreter outside private folders "
            "(for example /usr/bin/python3)"
        )
    return SandboxCapabilities(
        plain_problem=plain_problem,
        python=py,
        bwrap_path=bwrap,
        bwrap_mode=None if problem else mode,
        bwrap_problem=problem,
        separate_user=root,
    )
