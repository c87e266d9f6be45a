"""The small program that starts the sandboxed code: drop to the sandbox user, set limits, run, report.

It is not imported: ``ragkit.sandbox.runner`` reads this file's source and runs it with ``python -I -S -c``
as the last step before the user's code (inside bubblewrap when that is on), with one JSON argument::

    {"uid": 1999000123 | null, "nnp": true, "status_fd": 3, "seccomp": {"arch": ..., "refuse": {...}} | null,
     "rlimits": {"RLIMIT_CPU": [2, 3], ...}, "argv": ["/usr/bin/python3", "-s", "-P", "main.py"]}

It forks the code as its child, waits, and writes the child's exit code (negative: killed by that
signal) and CPU seconds to ``status_fd``, a pipe the code itself never holds. The launcher stays alive as the code's
parent, so ``os.kill(os.getppid(), 9)`` hits the launcher, never the caller. It is also the "child
subreaper" of everything the code starts: orphans (even those that called ``os.setsid()``) become its
children, are reaped while the code runs, and are killed when the code's main process ends. Killing the
launcher itself defeats that last step; the runner's own cleanup then still applies. With ``seccomp`` set,
the code starts under a seccomp filter built from those numbers (``capabilities.syscall_filter()`` says
which calls and why); it applies to everything the code starts. Only the standard library,
no ``site``: it must start fast and work in an empty file system.
"""

import json
import os
import resource
import signal
import struct
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
CLONE_NEW_ANY = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET


def _prctl(option: int, value: int, arg: object = 0) -> None:
    import ctypes  # imported first in main(), while the interpreter's files are surely readable

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, arg, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


def _seccomp_program(spec: dict) -> list:
    """BPF instructions ``(code, jump_true, jump_false, k)`` over ``struct seccomp_data`` (nr at 0, arch at 4,
    args at 16): another architecture's calls and clone3 get ENOSYS, the refused calls and clone with a
    ``CLONE_NEW*`` flag get EPERM, everything else is allowed."""
    load, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    prog = [(load, 0, 0, 4), (jeq, 1, 0, spec["arch"]), (ret, 0, 0, enosys), (load, 0, 0, 0),
            (jge, 0, 1, 0x40000000), (ret, 0, 0, enosys),  # x32 calls on x86-64 (no such numbers on arm64)
            (jeq, 0, 1, spec["clone3"]), (ret, 0, 0, enosys)]
    for nr in spec["refuse"].values():
        prog += [(jeq, 0, 1, nr), (ret, 0, 0, eperm)]
    return prog + [(jeq, 1, 0, spec["clone"]), (ret, 0, 0, allow), (load, 0, 0, 16),  # clone's flags
                   (jset, 0, 1, CLONE_NEW_ANY), (ret, 0, 0, eperm), (ret, 0, 0, allow)]


def _install_seccomp(spec: dict) -> None:
    """Load the filter for this process and all it starts; raise ``OSError`` where the kernel refuses it."""
    import ctypes

    prog = _seccomp_program(spec)
    code = ctypes.create_string_buffer(b"".join(struct.pack("=HBBI", *ins) for ins in prog))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(prog), ctypes.cast(code, ctypes.c_void_p))
    try:
        _prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog))  # needs no_new_privs, set before
    except OSError as exc:
        raise OSError(exc.errno, "the kernel refused the seccomp filter") from None


def _children() -> list:
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = f.read().rsplit(")", 1)[1].split()[1]
        except (OSError, IndexError):
            continue
        if ppid == me:
            found.append(int(entry))
    return found


def _kill_orphans() -> None:
    """Kill and reap whatever the code left running (all of it is now this process's children)."""
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        for pid in _children() if os.path.isdir("/proc") else ():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        time.sleep(0.002)


def main() -> None:
    cfg = json.loads(sys.argv[1])
    status_fd = cfg["status_fd"]
    os.set_inheritable(status_fd, False)
    uid = cfg["uid"]
    linux = sys.platform.startswith("linux")
    if linux:
        import ctypes  # noqa: F401
    if uid is not None and os.getuid() != uid:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)  # clears every capability: the user is not root
    if cfg["nnp"]:
        _prctl(PR_SET_NO_NEW_PRIVS, 1)  # set-uid programs (su, mount) gain nothing
    if linux:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # after the uid change, which clears it
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    for name, (soft, hard) in cfg["rlimits"].items():
        resource.setrlimit(getattr(resource, name), (soft, hard))
    argv = cfg["argv"]
    pid = os.fork()
    if pid == 0:
        try:
            if linux:
                _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if cfg.get("seccomp"):
                _install_seccomp(cfg["seccomp"])
            os.execv(argv[0], argv)
        except BaseException as exc:  # noqa: BLE001 - report anything, then leave without cleanup
            os.write(2, f"ragkit-sandbox: could not start {argv[0]}: {exc}\n".encode())
        os._exit(127)
    while True:  # reap orphans as they die, so their zombies do not use up the process limit
        done, status, usage = os.wait4(-1, 0)
        if done == pid:
            break
    code = os.waitstatus_to_exitcode(status)
    try:
        os.write(status_fd, f"{code} {usage.ru_utime + usage.ru_stime:.3f}\n".encode())
    except OSError:
        pass
    if linux:
        _kill_orphans()
    os._exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
