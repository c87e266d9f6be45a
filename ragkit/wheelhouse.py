"""The offline kit: every wheel the workbook needs, for the chosen platforms, in one folder.

``build_wheelhouse(dest, platforms, pythons)`` runs three ``pip`` steps: the ragkit wheel itself
(``pip wheel --no-deps``; it carries the notebooks and data), torch from ``TORCH_INDEX_URL`` (PyTorch's
CPU index for Linux by default; PyPI's macOS and Windows wheels are CPU builds already), then everything
else at the versions in ``constraints.txt`` (``pip download --only-binary=:all: --platform ...``).
``constraints.txt`` is copied in, so the folder is all a laptop needs::

    pip install --no-index --find-links wheelhouse -c wheelhouse/constraints.txt torch==2.13.0 "ragkit[dev]"

(``pip install ragkit`` without ``--no-index`` would ask PyPI, where "ragkit" is another project.)

``offline_install`` does exactly that in a fresh virtual environment with pip's network off (``--isolated``
so no pip.conf adds an index, ``--no-index``, and an unreachable proxy) and returns the seconds it took.

What it cannot do: it needs a checkout (the project and its constraints) and network to PyPI while it
downloads; a platform whose wheel of some pinned package does not exist fails with pip's message.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Sequence
from pathlib import Path

import ragkit
from ragkit.data.files import checkout_root

TORCH_REQUIREMENT = "torch==2.13.0"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PYPI_INDEX = "https://pypi.org/simple"
# A name learners can read -> the pip platform tags that machine accepts (pip widens a macOS tag to older ones).
PLATFORMS: dict[str, tuple[str, ...]] = {
    "linux-x86_64": (*(f"manylinux_2_{m}_x86_64" for m in range(28, 16, -1)), "manylinux2014_x86_64", "linux_x86_64"),
    "linux-aarch64": (*(f"manylinux_2_{m}_aarch64" for m in range(28, 16, -1)), "manylinux2014_aarch64", "linux_aarch64"),
    "macos-arm64": ("macosx_14_0_arm64",),
    "windows-x86_64": ("win_amd64",),
}


def this_platform() -> str:
    """The :data:`PLATFORMS` name of this machine (ValueError where torch 2.13 has no wheel).

    >>> this_platform() in PLATFORMS
    True
    """
    machine = platform.machine().lower()
    name = {"Linux": "linux", "Darwin": "macos", "Windows": "windows"}.get(platform.system(), "")
    name += "-" + {"amd64": "x86_64", "arm64": "arm64" if name == "macos" else "aarch64"}.get(machine, machine)
    if name not in PLATFORMS:
        raise ValueError(f"no wheels of torch 2.13.0 for {name}; choose from {', '.join(PLATFORMS)}")
    return name


def torch_index(platform_name: str) -> str:
    """Where torch comes from: ``$TORCH_INDEX_URL`` (default PyTorch's CPU index) on Linux, PyPI elsewhere."""
    if platform_name.startswith("linux"):
        return os.environ.get("TORCH_INDEX_URL") or CPU_INDEX
    return PYPI_INDEX


def wheel_name() -> str:
    """The file name of this version's ragkit wheel (PyPI's "ragkit" is another project: never ask PyPI for it)."""
    return f"ragkit-{ragkit.__version__}-py3-none-any.whl"


def download_commands(dest: Path, platform_name: str, python_version: str, constraints: Path) -> list[list[str]]:
    """The two ``pip download`` command lines for one platform and Python (torch, then everything else).

    ragkit's own dependencies are read from its wheel file in ``dest`` (a path, so pip never looks for a
    "ragkit" on PyPI, where that name belongs to another project).

    >>> cmds = download_commands(Path("wh"), "windows-x86_64", "3.12", Path("constraints.txt"))
    >>> [c[c.index("--platform") + 1] for c in cmds], cmds[0][-2:]
    (['win_amd64', 'win_amd64'], ['--index-url', 'https://pypi.org/simple'])
    """
    target = ["--only-binary=:all:", "--implementation", "cp", "--python-version", python_version, "--dest", str(dest)]
    for tag in PLATFORMS[platform_name]:
        target += ["--platform", tag]
    pip = [sys.executable, "-m", "pip", "download", "--quiet"]
    torch = [*pip, *target, "--no-deps", TORCH_REQUIREMENT, "--index-url", torch_index(platform_name)]
    rest = [*pip, *target, "-c", str(constraints), "--find-links", str(dest),
            TORCH_REQUIREMENT, f"{dest / wheel_name()}[dev]", "pip", "setuptools>=77"]
    return [torch, rest]


def build_wheelhouse(dest: str | Path, platforms: Sequence[str], pythons: Sequence[str],
                     project: Path | None = None) -> Path:
    """Fill ``dest`` with the ragkit wheel, ``constraints.txt`` and every wheel for ``platforms`` x ``pythons``."""
    project = project or checkout_root()
    if project is None or not (project / "constraints.txt").is_file():
        raise FileNotFoundError("a wheelhouse is built from a checkout of ragkit (it needs pyproject.toml and constraints.txt)")
    unknown = [p for p in platforms if p not in PLATFORMS]
    if unknown:
        raise ValueError(f"unknown platform(s) {unknown}; choose from {', '.join(PLATFORMS)}")
    dest = Path(dest).expanduser().resolve()
    dest.mkdir(parents=True, exist_ok=True)
    constraints = dest / "constraints.txt"
    shutil.copyfile(project / "constraints.txt", constraints)
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dest), str(project)])
    for name in platforms:
        for version in pythons:
            for cmd in download_commands(dest, name, version, constraints):
                _run(cmd)
    return dest


def _run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"this step failed (exit code {done.returncode}): {' '.join(cmd)}")


def offline_env() -> dict[str, str]:
    """This process's environment with pip's network off: no index, an unreachable proxy, no pip.conf."""
    dead = "http://127.0.0.1:9"  # the discard port: nothing listens, every connection is refused
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, HTTP_PROXY=dead, HTTPS_PROXY=dead, http_proxy=dead, https_proxy=dead)
    return env


def offline_install(wheelhouse: str | Path, venv_dir: str | Path, extras: str = "dev") -> float:
    """Install ragkit from ``wheelhouse`` into a new venv at ``venv_dir`` with the network off; return the seconds."""
    wheelhouse = Path(wheelhouse).resolve()
    venv_dir = Path(venv_dir).resolve()
    start = time.perf_counter()
    venv.create(venv_dir, with_pip=True, clear=True)
    python = venv_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    pip = [str(python), "-m", "pip", "install", "--isolated", "--no-index", "--find-links", str(wheelhouse), "--quiet"]
    env = offline_env()
    _run([*pip, "--upgrade", "pip"], env)
    wheel = str(wheelhouse / wheel_name()) + (f"[{extras}]" if extras else "")
    _run([*pip, "-c", str(wheelhouse / "constraints.txt"), TORCH_REQUIREMENT, wheel], env)
    return time.perf_counter() - start
