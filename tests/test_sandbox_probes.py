"""Hostile code found by probing the sandbox: memory that no rlimit counts, files and queues that outlive a run,
the host interpreter's site-packages, and code that cannot be written as UTF-8.

Each case runs with bubblewrap and without it (rlimits and a private uid; needs root and an interpreter that uid
can read). The memory cases ask for four times ``memory_mb`` and pass when the code could hold at most
``memory_mb`` of it. A fixture removes, after every test, what a failing run could have left on the host.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
from pathlib import Path

import pytest

from ragkit.sandbox import SandboxResult, run_python, sandbox_capabilities
from ragkit.sandbox.cleanup import SANDBOX_UID_BASE

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"),
                                reason="the sandbox tests need Linux")

ROOT = os.geteuid() == 0
CAPS = sandbox_capabilities()
PLAIN_PYTHON = next((p for p in (None, "/usr/bin/python3", "/usr/local/bin/python3")
                     if (p is None or os.path.exists(p)) and sandbox_capabilities(p).plain_usable), "unavailable")
BWRAP = pytest.param({"use_bwrap": True}, id="bwrap",
                     marks=pytest.mark.skipif(not CAPS.bwrap_usable, reason=f"no bubblewrap: {CAPS.bwrap_problem}"))
PLAIN = pytest.param({"use_bwrap": False, "python": PLAIN_PYTHON}, id="plain",
                     marks=pytest.mark.skipif(not ROOT or PLAIN_PYTHON == "unavailable",
                                              reason="without bubblewrap these cases are safe only under a private uid"))
LIMITS = {"timeout_s": 4.0, "memory_mb": 64, "disk_mb": 8, "file_size_mb": 16, "max_output_bytes": 10_000}
MACHINE = platform.machine()
NR_CLONE = {"x86_64": 56, "aarch64": 220}.get(MACHINE)
QUEUE = f"/ragkit_probe_{os.getpid()}"
LOCK_FILE = Path("/run/lock") / f"ragkit_probe_{os.getpid()}"
libc = ctypes.CDLL(None, use_errno=True)


def _my_uids(uid: int) -> bool:
    low = SANDBOX_UID_BASE + (os.getpid() % 10_000) * 100
    return low <= uid < low + 100


def _sysv_left() -> list[tuple[str, int]]:
    """System V objects (kind, id) owned by this process's private sandbox uids."""
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            header, *rows = Path("/proc/sysvipc", kind).read_text().splitlines()
        except OSError:
            continue
        column = header.split().index("uid")
        found += [(kind, int(row.split()[1])) for row in rows if _my_uids(int(row.split()[column]))]
    return found


@pytest.fixture(autouse=True)
def host_left_clean():
    """Remove what a failing run left on the host (System V objects, a queue, a lock file) after each test."""
    yield
    for kind, ident in _sysv_left():
        {"shm": lambda: libc.shmctl(ident, 0, None), "msg": lambda: libc.msgctl(ident, 0, None),
         "sem": lambda: libc.semctl(ident, 0, 0)}[kind]()
    libc.mq_unlink(QUEUE.encode())
    LOCK_FILE.unlink(missing_ok=True)


def run(code: str, mode: dict, **limits) -> SandboxResult:
    result = run_python(code, **{**LIMITS, **mode, **limits})
    assert result.leftover_processes == 0
    return result


def held_mb(result: SandboxResult) -> int:
    """The ``held N`` line the memory cases print last."""
    lines = [line for line in result.stdout.splitlines() if line.startswith("held ")]
    assert lines, result
    return int(lines[-1].split()[1])


SYSV_SHM = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype, libc.shmat.argtypes = ctypes.c_void_p, [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
held = 0
for _ in range(16):  # 16 x 16 MB, each attached, filled and detached: it stays in the IPC namespace
    sid = libc.shmget(0, 16 << 20, 0o1600)
    addr = libc.shmat(sid, None, 0) if sid >= 0 else None
    if addr in (None, 2**64 - 1):
        print("refused", ctypes.get_errno())
        break
    ctypes.memset(addr, 1, 16 << 20)
    libc.shmdt(ctypes.c_void_p(addr))
    held += 16
print("held", held)
"""

MEMFD = """
import os
held, chunk = 0, b"x" * 2**20
fds = []
try:
    for _ in range(16):  # 16 memory files of 16 MB: no mapping, so RLIMIT_AS never sees them
        fds.append(os.memfd_create("bomb"))
        for _ in range(16):
            os.write(fds[-1], chunk)
        held += 16
except OSError as e:
    print("refused", e.errno)
print("held", held)
"""

OWN_TMPFS = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
uid, gid = os.getuid(), os.getgid()
def fill():  # in a user and mount namespace of its own: map the uid, mount a tmpfs without a size, fill it
    open("/proc/self/setgroups", "w").write("deny")
    open("/proc/self/uid_map", "w").write(f"0 {uid} 1")
    open("/proc/self/gid_map", "w").write(f"0 {gid} 1")
    os.makedirs("own", exist_ok=True)
    assert libc.mount(b"none", b"own", b"tmpfs", 0, None) == 0, ctypes.get_errno()
    held = 0
    for i in range(16):
        with open(f"own/f{i}", "wb") as f:
            f.write(b"x" * (16 << 20))
        held += 16
    return held
NEW = 0x10000000 | 0x20000  # CLONE_NEWUSER | CLONE_NEWNS
%s
"""
UNSHARE = "if libc.unshare(NEW) != 0:\n    print('refused', ctypes.get_errno()); print('held 0')\nelse:\n    print('held', fill())"
CLONE = ("libc.syscall.restype = ctypes.c_long\n"
         f"pid = libc.syscall({NR_CLONE}, ctypes.c_ulong(NEW | 17), ctypes.c_ulong(0), None, None, ctypes.c_ulong(0))\n"
         "if pid == 0:\n    os.write(1, f'held {fill()}\\n'.encode())\n    os._exit(0)\n"
         "if pid < 0:\n    print('refused', ctypes.get_errno()); print('held 0')\nelse:\n    os.waitpid(pid, 0)")
CLONE3 = ("libc.syscall.restype = ctypes.c_long\n"
          "args = (ctypes.c_uint64 * 8)(NEW, 0, 0, 0, 17, 0, 0, 0)  # struct clone_args: flags, ..., exit_signal\n"
          "pid = libc.syscall(435, ctypes.byref(args), ctypes.c_size_t(64))\n"
          "if pid == 0:\n    os.write(1, f'held {fill()}\\n'.encode())\n    os._exit(0)\n"
          "if pid < 0:\n    print('refused', ctypes.get_errno()); print('held 0')\nelse:\n    os.waitpid(pid, 0)")


@pytest.mark.parametrize("code", [SYSV_SHM, MEMFD], ids=["sysv_shared_memory", "memfd_files"])
@pytest.mark.parametrize("mode", [BWRAP, PLAIN])
def test_memory_outside_the_address_space_is_not_a_way_past_memory_mb(mode, code):
    result = run(code, mode)
    assert held_mb(result) <= LIMITS["memory_mb"], result
    assert _sysv_left() == []  # nothing stays in the host's IPC namespace either


@pytest.mark.parametrize("how", [UNSHARE, CLONE, CLONE3], ids=["unshare", "clone", "clone3"])
@pytest.mark.parametrize("mode", [BWRAP, PLAIN])
def test_a_namespace_of_its_own_is_not_a_way_past_the_disk_quota(mode, how):
    if NR_CLONE is None:
        pytest.skip(f"system call numbers known for x86_64 and aarch64, not {MACHINE}")
    result = run(OWN_TMPFS % how, mode)
    assert held_mb(result) <= LIMITS["disk_mb"], result


@pytest.mark.parametrize("mode", [BWRAP, PLAIN])
def test_threads_processes_and_subprocesses_still_work(mode):
    code = ("import os, subprocess, threading\nt = threading.Thread(target=print, args=('thread',))\nt.start()\n"
            "t.join()\npid = os.fork()\nif pid == 0:\n    os._exit(3)\nprint('fork', os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
            "print(subprocess.run(['/bin/echo', 'subprocess'], capture_output=True, text=True).stdout.strip())")
    result = run(code, mode)
    assert (result.status, result.stdout) == ("ok", "thread\nfork 3\nsubprocess\n"), result


@pytest.mark.parametrize("mode", [BWRAP, PLAIN])
def test_exit_ends_the_code_with_its_status(mode):  # model-written code calls exit(), a builtin of ``site``
    result = run("print('bye')\nexit(3)", mode)
    assert (result.status, result.exit_code, result.stdout) == ("error", 3, "bye\n"), result


def test_code_that_is_not_valid_utf8_is_a_syntax_error_not_an_exception():
    result = run_python("print('\ud800')", timeout_s=4.0)  # a lone surrogate, as a JSON "\\ud800" decodes to
    assert result.status == "error" and "SyntaxError" in result.error_line, result


@pytest.mark.parametrize("mode", [PLAIN])
def test_posix_message_queue_does_not_outlive_the_run(mode):
    code = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            f"print(libc.mq_open({QUEUE.encode()!r}, os.O_CREAT | os.O_RDWR, 0o600, None), ctypes.get_errno())")
    run(code, mode)
    assert libc.mq_open(QUEUE.encode(), os.O_RDONLY) == -1 and ctypes.get_errno() == 2, "the queue is still there"


@pytest.mark.parametrize("mode", [PLAIN])
def test_files_in_run_lock_do_not_outlive_the_run(mode):
    if not (LOCK_FILE.parent.is_dir() and os.stat(LOCK_FILE.parent).st_mode & 0o002):
        pytest.skip("no world-writable /run/lock here")
    run(f"open({str(LOCK_FILE)!r}, 'w').write('x')", mode)
    assert not LOCK_FILE.exists()
