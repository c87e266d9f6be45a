"""``run_python``: run untrusted Python in a separate, limited, isolated process and say what happened.

One run: write the code to a fresh temporary directory, start ``[bwrap ...] python -I -S -c <launcher>``
in a new session with an empty environment; the launcher (``_launcher.py``) drops to a private uid when
the caller is root, sets the rlimits and the seccomp filter and starts ``python -s -P main.py``. The
runner reads stdout and stderr as they come, stops everything on the wall-clock deadline or when output
passes the cap, then kills what is left: the process group, and, under root, every process of the private
uid (``cleanup.py``). Finally it removes the temporary directory.

Why ``-s -P`` and not ``-I`` for the code: ``-I`` implies ``-E``, which ignores ``PYTHONHASHSEED``, so
``hash('abc')`` would change from run to run. The environment is built from scratch here (nothing of
``os.environ`` passes), so dropping ``-E`` lets in only the variables set below. ``site`` stays on (``-S``
would keep the interpreter's own site-packages off ``sys.path`` too, but would also take away ``exit()``,
which model-written code calls), so the code can import what is installed in the interpreter that runs it;
that is a convenience, not a hole: whatever it imports runs inside the same limits.

What it cannot do: without bubblewrap the code sees the host file system and network as its user does
(the result's ``missing`` says so); disk use outside bubblewrap is capped per file only, and files it
leaves in world-writable places are removed only at the top of ``/tmp``, ``/var/tmp``, ``/dev/shm`` and
``/run/lock`` (not in another user's world-writable folder inside them); a process can
outlive its run only with neither bubblewrap nor root, and only if it kills the launcher (its subreaper)
and leaves the process group first.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from ragkit.defaults import SUPERVISOR
from ragkit.sandbox.capabilities import (
    WORKDIR,
    SandboxCapabilities,
    SandboxUnavailable,
    bwrap_argv,
    require_unix,
    sandbox_capabilities,
    syscall_filter,
)
from ragkit.sandbox.cleanup import claim_uid, live_pids_of_uid, release_uid, remove_files_of, remove_tree, sweep_uid
from ragkit.sandbox.result import SandboxLimits, SandboxResult, classify

MAX_CODE_CHARS = 100_000
MAX_STDIN_BYTES = 10_000_000
DRAIN_S = 0.1  # after the code exits, how long to keep reading output its children still write
_LAUNCHER_SOURCE = (Path(__file__).with_name("_launcher.py")).read_text(encoding="utf-8")


def run_python(
    code: str,
    *,
    timeout_s: float = 5.0,
    memory_mb: int = 256,
    cpu_s: float | None = None,
    max_processes: int = 8,
    max_output_bytes: int = 64_000,
    file_size_mb: int = 16,
    disk_mb: int = 64,
    max_open_files: int = 64,
    stdin: str | bytes | None = None,
    python: str | None = None,
    use_bwrap: bool | None = None,
) -> SandboxResult:
    """Run ``code`` with ``python`` (default: this interpreter, without its virtualenv) in the sandbox.

    ``use_bwrap``: ``None`` uses bubblewrap when it works here, ``False`` runs with rlimits only, ``True``
    raises ``SandboxUnavailable`` if bubblewrap cannot be used. ``cpu_s`` defaults to the timeout.
    The code gets the standard library and the packages installed in that interpreter (not this
    virtualenv's), stdin if given, and ``/sandbox`` (or, without bubblewrap, the temporary directory) as
    its working directory and home. Code that is not valid UTF-8 (a lone surrogate) runs and ends as a
    ``SyntaxError``, as a NUL byte does.

    >>> run_python("print(sum(range(10)))").stdout
    '45\\n'
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    if len(code) > MAX_CODE_CHARS:
        raise ValueError(f"code is {len(code):,} characters; the sandbox takes at most {MAX_CODE_CHARS:,}")
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    if stdin is not None and not isinstance(stdin, bytes):
        raise TypeError(f"stdin must be str, bytes or None, not {type(stdin).__name__}")
    if stdin is not None and len(stdin) > MAX_STDIN_BYTES:
        raise ValueError(f"stdin is {len(stdin):,} bytes; the sandbox takes at most {MAX_STDIN_BYTES:,}")
    if not (0 < timeout_s <= 3600):
        raise ValueError(f"timeout_s must be in (0, 3600], got {timeout_s}")
    for name, value, low in (("memory_mb", memory_mb, 16), ("max_processes", max_processes, 1),
                             ("max_output_bytes", max_output_bytes, 1), ("file_size_mb", file_size_mb, 1),
                             ("disk_mb", disk_mb, 1), ("max_open_files", max_open_files, 16)):
        if not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an int of at least {low}, got {value!r}")
    limits = SandboxLimits(
        timeout_s=float(timeout_s), cpu_s=max(1, math.ceil(cpu_s if cpu_s is not None else timeout_s)),
        memory_mb=memory_mb, max_processes=max_processes, max_output_bytes=max_output_bytes,
        file_size_mb=file_size_mb, disk_mb=disk_mb, max_open_files=max_open_files,
    )
    require_unix()
    caps = sandbox_capabilities(python)
    if use_bwrap and not caps.bwrap_usable:
        raise SandboxUnavailable(f"bubblewrap was asked for but cannot be used: {caps.bwrap_problem}")
    bwrap = caps.bwrap_usable if use_bwrap is None else use_bwrap
    if not bwrap and not caps.plain_usable:
        raise SandboxUnavailable(caps.plain_problem)
    why_off = "bubblewrap turned off (use_bwrap=False)" if (use_bwrap is False and caps.bwrap_usable) else ""
    host_tmp = tempfile.mkdtemp(prefix="ragkit-sandbox-")
    uid = None
    leftover = 0
    try:
        uid = claim_uid() if caps.separate_user else None
        result = _run(code, stdin, limits, caps, bwrap, uid, host_tmp)
    finally:
        if uid is not None:
            leftover = sweep_uid(uid, caps.python.executable)
            if not bwrap:
                remove_files_of(uid, ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"), keep=host_tmp)
        remove_tree(host_tmp)
        release_uid(uid)
    return SandboxResult(
        **result, limits=limits, protections=caps.protections(bwrap), missing=caps.missing(bwrap, why_off),
        mode=f"bubblewrap ({caps.bwrap_mode})" if bwrap else "rlimits only", leftover_processes=leftover,
    )


def python_runner(**limits: Any) -> Callable[[str], SandboxResult]:
    """``run_python`` with its limits fixed, as a function ``code -> SandboxResult``: the code runner the
    supervisor graph's code agent takes (``build_supervisor_graph(run_code=python_runner())``).

    ``limits`` are ``run_python``'s keyword arguments (``timeout_s``, ``memory_mb``, ``use_bwrap`` ...); the
    defaults are the supervisor's (:data:`ragkit.defaults.SUPERVISOR`: 5 s, 256 MB, 20,000 bytes of
    output). An unknown name is a ``ValueError`` now, not at the first run.

    >>> python_runner(timeout_s=2.0)("print(6 * 7)").stdout
    '42\\n'
    >>> python_runner(allow_network=True)
    Traceback (most recent call last):
    ...
    ValueError: unknown sandbox option(s) ['allow_network']; run_python takes ['cpu_s', 'disk_mb', ...]
    """
    allowed = set(inspect.signature(run_python).parameters) - {"code", "stdin"}
    unknown = sorted(set(limits) - allowed)
    if unknown:
        raise ValueError(f"unknown sandbox option(s) {unknown}; run_python takes {sorted(allowed)}")
    options = {"timeout_s": SUPERVISOR.sandbox_timeout_s, "memory_mb": SUPERVISOR.sandbox_memory_mb,
               "max_output_bytes": SUPERVISOR.sandbox_max_output_bytes, **limits}
    return functools.partial(run_python, **options)  # its .keywords are the limits


def _run(code: str, stdin: bytes | None, limits: SandboxLimits, caps: SandboxCapabilities, bwrap: bool,
         uid: int | None, host_tmp: str) -> dict[str, Any]:
    """Start the code, collect its output, stop it, and return the facts of the run as result fields."""
    script_host = os.path.join(host_tmp, "main.py")
    Path(script_host).write_text(code, encoding="utf-8", errors="surrogatepass")  # Python then says SyntaxError
    if bwrap:
        os.chmod(script_host, 0o644)
        workdir, script, tmp = WORKDIR, f"{WORKDIR}/main.py", "/tmp"
    else:
        workdir = tmp = host_tmp
        script = script_host
        if uid is not None:
            os.chown(host_tmp, uid, uid)
            os.chown(script_host, uid, uid)
    if stdin is not None:
        Path(host_tmp, ".stdin").write_bytes(stdin)
    flags = ["-s", "-P"] if caps.python.version >= (3, 11) else ["-s"]
    status_r, status_w = os.pipe()
    cfg = {
        "uid": uid, "nnp": sys.platform.startswith("linux"), "status_fd": status_w, "seccomp": syscall_filter(),
        "rlimits": _rlimits(limits, caps, uid, bwrap), "argv": [caps.python.executable, *flags, script],
    }
    cmd = [caps.python.executable, "-I", "-S", "-c", _LAUNCHER_SOURCE, json.dumps(cfg)]
    if bwrap:
        prefix = bwrap_argv(caps.bwrap_path, caps.bwrap_mode, caps.python, script=script_host, disk_mb=limits.disk_mb)
        cmd = prefix + cmd
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": workdir,
           "TMPDIR": tmp, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    stdin_file = open(os.path.join(host_tmp, ".stdin") if stdin is not None else os.devnull, "rb")
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdin=stdin_file, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                cwd=host_tmp, start_new_session=True, pass_fds=(status_w,))
    except BaseException:
        os.close(status_r)
        raise
    finally:
        os.close(status_w)
        stdin_file.close()
    try:
        out, err, out_cut, err_cut, stopped_for = _collect(proc, start + limits.timeout_s, limits.max_output_bytes)
    finally:
        _kill_group(proc.pid)
        try:
            _, wait_status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(wait_status)
            code_cpu = usage.ru_utime + usage.ru_stime
        except ChildProcessError:  # someone else in this program reaped it (a stray os.wait())
            proc.returncode, code_cpu = -signal.SIGKILL, 0.0
        proc.stdout.close()
        proc.stderr.close()
    wall = time.monotonic() - start
    code_status, cpu = _read_status(status_r)
    if code_status is None:  # the launcher was killed before it could report
        code_status, cpu = proc.returncode, code_cpu
        if bwrap and 128 < code_status < 128 + 65:  # bubblewrap reports a signal death as 128 + signal
            code_status = 128 - code_status
    exit_code = code_status if code_status >= 0 else None
    sig = -code_status if code_status < 0 else None
    stderr = err.decode("utf-8", errors="replace")
    status = classify(stopped_for=stopped_for, exit_code=exit_code, signal=sig, cpu_time_s=cpu,
                      cpu_limit_s=limits.cpu_s, stderr=stderr)
    return dict(status=status, stdout=out.decode("utf-8", errors="replace"), stderr=stderr, exit_code=exit_code,
                signal=sig, stdout_truncated=out_cut, stderr_truncated=err_cut, wall_time_s=wall, cpu_time_s=cpu)


def _rlimits(limits: SandboxLimits, caps: SandboxCapabilities, uid: int | None, bwrap: bool) -> dict[str, list[int]]:
    """The launcher's rlimits, never above this process's own hard limits."""
    import resource  # Unix only: imported when used (run_python calls require_unix first)

    mem = limits.memory_mb * 1024 * 1024
    own = 2 if (bwrap and caps.bwrap_mode == "userns") else 1  # the launcher (and bwrap's init in userns)
    nproc = limits.max_processes + own
    if uid is None and not bwrap:  # counted against all of this user's processes
        nproc += len(live_pids_of_uid(os.getuid()))
    wanted = {
        "RLIMIT_CPU": limits.cpu_s, "RLIMIT_AS": mem, "RLIMIT_DATA": mem, "RLIMIT_NPROC": nproc,
        "RLIMIT_FSIZE": limits.file_size_mb * 1024 * 1024, "RLIMIT_CORE": 0, "RLIMIT_NOFILE": limits.max_open_files,
        "RLIMIT_MSGQUEUE": 0,  # no POSIX message queues: outside bubblewrap they would outlive the run
    }
    out = {}
    for name, value in wanted.items():
        if not hasattr(resource, name):
            continue
        hard = resource.getrlimit(getattr(resource, name))[1]
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        top = value + 1 if name == "RLIMIT_CPU" else value  # SIGXCPU at the soft limit, SIGKILL a second later
        out[name] = [value, top if hard == resource.RLIM_INFINITY else min(top, hard)]
    return out


def _collect(proc: subprocess.Popen, deadline: float, cap: int) -> tuple[bytes, bytes, bool, bool, str | None]:
    """Read stdout and stderr until the code exits, the deadline passes or one stream passes ``cap``."""
    fds = (proc.stdout.fileno(), proc.stderr.fileno())
    bufs = {fd: bytearray() for fd in fds}
    cut = {fd: False for fd in fds}
    sel = selectors.DefaultSelector()
    for fd in fds:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    exited_at, stopped_for = None, None
    try:
        while stopped_for is None:
            now = time.monotonic()
            if exited_at is None and _has_exited(proc.pid):
                exited_at = now
            if exited_at is not None and (not sel.get_map() or now - exited_at >= DRAIN_S):
                break
            if now >= deadline:
                stopped_for = "timeout"
                break
            wait = min(deadline - now, 0.05)
            if not sel.get_map():
                time.sleep(min(wait, 0.005))
                continue
            for key, _ in sel.select(wait):
                try:
                    chunk = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                room = cap - len(bufs[key.fd])
                bufs[key.fd] += chunk[: max(room, 0)]
                if len(chunk) > room:
                    cut[key.fd] = True
                    stopped_for = "output_limit"
    finally:
        sel.close()
    return bytes(bufs[fds[0]]), bytes(bufs[fds[1]]), cut[fds[0]], cut[fds[1]], stopped_for


def _has_exited(pid: int) -> bool:
    """True once ``pid`` has ended; it stays unreaped, so its pid (and process group) cannot be reused."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # already reaped by someone else
        return True


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read_status(fd: int) -> tuple[int | None, float]:
    """The launcher's report of the code's exit: exit code (or minus the signal number), CPU seconds."""
    try:
        os.set_blocking(fd, False)
        data = os.read(fd, 64)
    except OSError:
        data = b""
    finally:
        os.close(fd)
    try:
        code, cpu = data.decode().split()
        return int(code), float(cpu)
    except ValueError:
        return None, 0.0
