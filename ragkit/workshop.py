"""The workshop's commands: ``ragkit doctor``, ``ragkit lab``, ``ragkit workbook`` and ``ragkit wheelhouse``.

    ragkit doctor                         # is this laptop ready? [ OK ] / [WARN] / [FAIL] lines, exit 1 on a FAIL
    ragkit lab [--port 8888]              # JupyterLab on the notebooks (settings installed, notebooks trusted)
    ragkit workbook DEST [--learner]      # a runnable copy: notebooks, data, saved results
    ragkit workbook --archive DIR         # the same as a zip named by version (add --learner for learner copies)
    ragkit workbook --reset [DEST]        # the notebooks back as shipped
    ragkit wheelhouse DIR --platform linux-x86_64 --python 3.12.0 # every wheel, for an offline install
    ragkit wheelhouse DIR --check         # install from DIR into a fresh venv with pip's network off

The work is done in :mod:`ragkit.doctor`, :mod:`ragkit.workbook` and :mod:`ragkit.wheelhouse`; this module
only parses arguments and turns setup errors into one line and exit code 2.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from pathlib import Path

COMMANDS = ("doctor", "lab", "workbook", "wheelhouse")


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Add the four subcommands to the ``ragkit`` parser."""
    commands.add_parser("doctor", help="check this machine for the workbook: Python, torch, data, embedder, one graph, port")
    lab = commands.add_parser("lab", help="open JupyterLab on the workbook's notebooks")
    lab.add_argument("--port", type=int, default=8888, help="port (default 8888)")
    lab.add_argument("--configure-only", action="store_true",
                     help="install the JupyterLab settings and trust the notebooks, then stop")
    book = commands.add_parser("workbook", help="copy the workbook out (notebooks, data, results), archive it, or reset it")
    book.add_argument("dest", nargs="?", type=Path, help="folder for the copy (with --reset: the copy to reset)")
    book.add_argument("--learner", action="store_true", help="learner copies: solution cells removed, exercise outputs cleared")
    book.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    mode = book.add_mutually_exclusive_group()
    mode.add_argument("--archive", type=Path, metavar="DIR", help="write ragkit-workbook-<version>.zip into DIR")
    mode.add_argument("--reset", action="store_true", help="restore the numbered notebooks as shipped")
    wheels = commands.add_parser("wheelhouse", help="download every wheel for an offline install, or check one")
    wheels.add_argument("dest", type=Path, help="the wheelhouse folder")
    wheels.add_argument("--platform", action="append", dest="platforms", metavar="NAME",
                        help="linux-x86_64, linux-aarch64, macos-arm64 or windows-x86_64 (repeat; default: this machine)")
    wheels.add_argument("--python", action="append", dest="pythons", metavar="X.Y",
                        help="Python version of the laptops, X.Y.Z (repeat; default: this one; pip reads 3.11 as 3.11.0, "
                             "older than ragkit supports, so say 3.11.9)")
    wheels.add_argument("--check", action="store_true", help="install from DEST into a fresh venv with pip offline and time it")


def run(args: argparse.Namespace) -> int:
    """Run one of the four subcommands; a setup error prints one line and returns 2."""
    try:
        if args.command == "doctor":
            from ragkit.doctor import run as run_doctor

            return run_doctor()
        if args.command == "lab":
            return _lab(args)
        if args.command == "workbook":
            return _workbook(args)
        return _wheelhouse(args)
    except (OSError, ValueError, RuntimeError) as err:  # OSError: a missing or unwritable folder
        print(f"ragkit {args.command}: {err}", file=sys.stderr)
        return 2


def _lab(args: argparse.Namespace) -> int:
    from ragkit.workbook import configure_jupyterlab, lab_command, lab_notebook_dir, trust_notebooks

    folder = lab_notebook_dir()
    settings = configure_jupyterlab()
    trusted = trust_notebooks(folder)
    print(f"JupyterLab settings: {settings}; {trusted} notebooks trusted in {folder}")
    if args.configure_only:
        return 0
    cmd = lab_command(folder, args.port)
    if "--no-browser" in cmd:
        print("No display: open the URL printed below in your browser.")
    return subprocess.call(cmd)


def _workbook(args: argparse.Namespace) -> int:
    from ragkit.workbook import copy_workbook, reset_notebooks, write_archive

    if args.reset:
        print(reset_notebooks(args.dest))
        return 0
    if args.archive is not None:
        if args.dest is not None:
            raise ValueError(f"give a folder for the copy ({args.dest}) or --archive DIR, not both")
        print(f"wrote {write_archive(args.archive, learner=args.learner)}")
        return 0
    if args.dest is None:
        raise ValueError("say where the copy goes: ragkit workbook DEST (or --archive DIR, or --reset)")
    dest = copy_workbook(args.dest, learner=args.learner, force=args.force)
    kind = "learner copy" if args.learner else "copy"
    print(f"wrote a {kind} of the workbook to {dest}\nnext: cd {dest} && ragkit lab")
    return 0


def _wheelhouse(args: argparse.Namespace) -> int:
    from ragkit.wheelhouse import build_wheelhouse, offline_install, this_platform

    if args.check:
        venv_dir = args.dest.resolve().parent / (args.dest.name + "-check-venv")
        seconds = offline_install(args.dest, venv_dir)
        print(f"installed from {args.dest} into {venv_dir} with pip offline in {seconds:.0f} s; "
              f"next: {venv_dir / ('Scripts' if sys.platform == 'win32' else 'bin') / 'ragkit'} doctor")
        return 0
    platforms = args.platforms or [this_platform()]
    pythons = args.pythons or [platform.python_version()]
    dest = build_wheelhouse(args.dest, platforms, pythons)
    print(f"wheelhouse for {', '.join(platforms)} x Python {', '.join(pythons)}: {dest}")
    return 0
