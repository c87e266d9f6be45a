"""The offline kit: every wheel the workbook needs, for the chosen platforms, in one folder.

``build_wheelhouse(dest, platforms, pythons)`` writes the ragkit wheel (``pip wheel --no-deps``; it carries
the notebooks and data), ``constraints.txt``, torch from ``TORCH_INDEX_URL`` (PyTorch's CPU index for
Linux by default; PyPI's macOS and Windows wheels are CPU builds already), then everything else at the
versions in ``constraints.txt`` (``pip download --only-binary=:all: --platform ...``). The folder is all a
laptop needs::

    pip install --no-index --find-links wheelhouse -c wheelhouse/constraints.txt torch==2.13.0 "ragkit[dev]"

(``pip install ragkit`` without ``--no-index`` would ask PyPI, where "ragkit" is another project.)

pip evaluates dependency markers (``sys_platform == "win32"``, ``python_version < "3.12"``) for the
machine it runs on, whatever ``--platform`` says: resolved on Linux, a Windows kit would lack
``colorama`` and ``pywinpty`` and want the nvidia packages. So for this machine's platform and Python
pip resolves, and for any other pair ``uv pip compile --python-platform`` (``pip install uv``) writes
the exact list first, which pip then downloads with ``--no-deps``.

``offline_install`` installs from the folder in a fresh virtual environment with pip's network off
(``--isolated`` so no pip.conf adds an index, ``--no-index``, an unreachable proxy) and returns the seconds.

What it cannot do: it needs a checkout (the project and its constraints) and PyPI while it downloads; a
package pinned in ``constraints.txt`` but missing on the target is taken at uv's choice of version only
if it is not pinned (``colorama``, ``pywinpty``, ``appnope`` are not: the pins come from a Linux freeze).
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
from ragkit.core.files import checkout_root

TORCH_REQUIREMENT = "torch==2.13.0"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PYPI_INDEX = "https://pypi.org/simple"
# A name learners can read -> the pip platform tags that machine accepts (pip widens a macOS tag to older ones).
# uv's name for the same target (--python-platform), for the lists of other platforms.
UV_TARGETS = {"linux-x86_64": "x86_64-manylinux_2_28", "linux-aarch64": "aarch64-manylinux_2_28",
              "macos-arm64": "aarch64-apple-darwin", "windows-x86_64": "x86_64-pc-windows-msvc"}
CUDA_ONLY = ("nvidia-", "triton", "cuda-")  # what PyPI's Linux torch needs and the CPU build does not
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


def _target(dest: Path, platform_name: str, python_version: str) -> list[str]:
    args = ["--only-binary=:all:", "--implementation", "cp", "--python-version", python_version, "--dest", str(dest)]
    for tag in PLATFORMS[platform_name]:
        args += ["--platform", tag]
    return args


def download_commands(dest: Path, platform_name: str, python_version: str, constraints: Path,
                      requirements: Path | None = None) -> list[list[str]]:
    """The two ``pip download`` command lines for one platform and Python: torch, then everything else.

    Everything else is resolved by pip from ragkit's wheel in ``dest`` (a path, so pip never looks for a
    "ragkit" on PyPI), or, given ``requirements`` (the exact list for another platform), downloaded as
    listed with ``--no-deps``.

    >>> cmds = download_commands(Path("wh"), "windows-x86_64", "3.12.0", Path("c.txt"), Path("win.txt"))
    >>> [c[c.index("--platform") + 1] for c in cmds], cmds[0][-2:], cmds[1][-3:]
    (['win_amd64', 'win_amd64'], ['--index-url', 'https://pypi.org/simple'], ['--no-deps', '-r', 'win.txt'])
    """
    pip = [sys.executable, "-m", "pip", "download", "--quiet", *_target(dest, platform_name, python_version)]
    torch = [*pip, "--no-deps", TORCH_REQUIREMENT, "--index-url", torch_index(platform_name)]
    if requirements is not None:
        return [torch, [*pip, "--no-deps", "-r", str(requirements)]]
    rest = [*pip, "-c", str(constraints), "--find-links", str(dest),
            TORCH_REQUIREMENT, f"{dest / wheel_name()}[dev]", "pip", "setuptools>=77"]
    return [torch, rest]


def is_this_machine(platform_name: str, python_version: str) -> bool:
    """True when pip's own resolution is right for the pair: this machine's platform and Python (X.Y)."""
    return platform_name == this_platform() and python_version.split(".")[:2] == platform.python_version().split(".")[:2]


def other_platform_requirements(dest: Path, platform_name: str, python_version: str, constraints: Path) -> Path:
    """Write ``dest/requirements-<platform>-<python>.txt``: every package the pair needs, by ``uv pip compile``."""
    uv = shutil.which("uv")
    if uv is None:
        raise FileNotFoundError(f"a wheelhouse for {platform_name} / Python {python_version} from this machine needs uv "
                                "(pip resolves for this machine only): pip install uv, or build it on such a laptop")
    wheel = dest / wheel_name()
    out = dest / f"requirements-{platform_name}-{python_version}.txt"
    cmd = [uv, "pip", "compile", "-", "-c", str(constraints), "--python-platform", UV_TARGETS[platform_name],
           "--python-version", python_version, "--only-binary", ":all:", "--no-header", "--no-annotate", "--quiet"]
    wanted = f"{TORCH_REQUIREMENT}\nragkit[dev] @ {wheel.as_uri()}\n"
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, input=wanted, capture_output=True, text=True,
                          env={**os.environ, "MACOSX_DEPLOYMENT_TARGET": "14.0"})  # torch 2.13 needs macOS 14
    if done.returncode != 0:
        raise RuntimeError(f"uv could not resolve ragkit for {platform_name} / Python {python_version}: {done.stderr.strip()}")
    cpu = torch_index(platform_name) != PYPI_INDEX
    lines = [line for line in done.stdout.splitlines() if line.strip() and not line.startswith(("#", "ragkit", "torch=="))
             and not (cpu and line.startswith(CUDA_ONLY))]
    out.write_text("\n".join([*lines, "pip", "setuptools>=77"]) + "\n", encoding="utf-8")
    return out


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
            listed = None if is_this_machine(name, version) else other_platform_requirements(dest, name, version, constraints)
            for cmd in download_commands(dest, name, version, constraints, listed):
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
    missing = [name for name in ("constraints.txt", wheel_name()) if not (wheelhouse / name).is_file()]
    if missing:  # said before a venv is made for nothing
        raise FileNotFoundError(f"{wheelhouse} is not a wheelhouse of ragkit {ragkit.__version__} (no {' or '.join(missing)}): "
                                "build it first with `ragkit wheelhouse DIR` (or make wheelhouse), then check it")
    start = time.perf_counter()
    venv.create(venv_dir, with_pip=True, clear=True)
    python = venv_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    pip = [str(python), "-m", "pip", "install", "--isolated", "--no-index", "--find-links", str(wheelhouse), "--quiet"]
    env = offline_env()
    _run([*pip, "--upgrade", "pip"], env)
    wheel = str(wheelhouse / wheel_name()) + (f"[{extras}]" if extras else "")
    _run([*pip, "-c", str(wheelhouse / "constraints.txt"), TORCH_REQUIREMENT, wheel], env)
    return time.perf_counter() - start
