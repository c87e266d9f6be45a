"""Cleaning up after a run: a private uid per run under root, and killing or removing what it left.

Under root every run gets a uid that no account and no process uses (``SANDBOX_UID_BASE`` plus the
caller's pid and a counter). That makes ``RLIMIT_NPROC`` a per-run process limit (it counts per uid, and
never applies to root), and it makes cleanup exact: ``kill(-1, SIGKILL)`` sent *as that uid* reaches
every process the run started, wherever it moved, and nothing else. Without root neither holds; the
launcher's subreaper and the process group are then the only cleanup, and a process that kills the
launcher first and leaves the group can survive (bubblewrap's pid namespace closes that hole).
"""

from __future__ import annotations

import itertools
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from ragkit.sandbox.capabilities import SandboxUnavailable

SANDBOX_UID_BASE = 1_999_000_000  # private uids for runs under root: BASE + (pid % 10000) * 100 + n
CLEANUP_S = 5.0
_KILL_ALL = "import os\ntry:\n    os.kill(-1, 9)\nexcept OSError:\n    pass\n"
_uid_lock = threading.Lock()
_uid_counter = itertools.count()
_uids_in_use: set[int] = set()


def live_pids_of_uid(uid: int) -> list[int]:
    """Processes (not zombies) whose real uid is ``uid``, read from /proc (empty where there is none)."""
    pids = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            text = Path("/proc", entry, "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        alive = not fields.get("State", "").strip().startswith(("Z", "X"))
        if alive and fields.get("Uid", "").split()[:1] == [str(uid)]:
            pids.append(int(entry))
    return pids


def claim_uid() -> int:
    """A uid no account and no process uses, for one run under root."""
    import pwd  # Unix only: imported when used, so that ragkit imports on Windows

    with _uid_lock:
        for _ in range(1000):
            uid = SANDBOX_UID_BASE + (os.getpid() % 10_000) * 100 + next(_uid_counter) % 100
            if uid in _uids_in_use or live_pids_of_uid(uid):
                continue
            try:
                pwd.getpwuid(uid)
            except KeyError:
                _uids_in_use.add(uid)
                return uid
    raise SandboxUnavailable("no free uid for the sandbox user")


def release_uid(uid: int | None) -> None:
    """Give a run's uid back once its processes are gone."""
    with _uid_lock:
        _uids_in_use.discard(uid)


def sweep_uid(uid: int, python: str) -> int:
    """Kill every process of the run's private uid (``kill(-1)`` sent as that uid); return how many are left."""
    end = time.monotonic() + CLEANUP_S
    while (left := live_pids_of_uid(uid)) and time.monotonic() < end:
        try:
            subprocess.run([python, "-I", "-S", "-c", _KILL_ALL], user=uid, group=uid, extra_groups=[], env={},
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=5)
        except (OSError, subprocess.SubprocessError):
            pass
        time.sleep(0.01)
    return len(left)


def remove_files_of(uid: int, roots: tuple[str, ...], keep: str) -> None:
    """Without bubblewrap the code can write to world-writable places: remove what the private uid made there."""
    for root in roots:
        try:
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.path == keep or entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except OSError:
                pass


def remove_tree(path: str) -> None:
    """Remove the run's directory even where the code took away its own permissions inside it."""
    top = os.path.realpath(path)

    def inside(p: str) -> bool:
        return os.path.realpath(p).startswith(top + os.sep) or os.path.realpath(p) == top

    def retry(func, failed, exc):
        if isinstance(exc if isinstance(exc, BaseException) else exc[1], FileNotFoundError):
            return
        parent = os.path.dirname(failed)
        try:  # never touch anything above ``path``
            if inside(parent):
                os.chmod(parent, stat.S_IRWXU)
            if inside(failed) and os.path.isdir(failed) and not os.path.islink(failed):
                os.chmod(failed, stat.S_IRWXU)
            func(failed)
        except OSError:
            pass

    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=retry)
    else:
        shutil.rmtree(path, onerror=retry)
