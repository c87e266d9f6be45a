"""Copies of the workbook for learners: notebooks, data and saved results in one folder, and JupyterLab on it.

``copy_workbook(dest)`` writes the layout of the repository (``notebooks/``, ``data/``,
``benchmarks/results/``, the two saved files of ``benchmarks/supervisor/``, ``LICENSE``) plus
``ragkit-workbook.json``, the marker by which :func:`ragkit.core.files.data_dir` and friends recognise the
copy when a notebook runs in ``dest/notebooks``. ``learner=True`` writes learner copies of the notebooks:
the ``solution`` cells and the checker call that re-checks each solution removed with nbconvert's
``TagRemovePreprocessor``, the outputs of the exercise and checker cells cleared. ``write_archive`` zips
such a copy reproducibly (sorted names, fixed timestamps), the way d2l ships one notebook archive per
version. ``reset_notebooks`` puts the notebooks back as they were shipped.

What it cannot do: it copies files, it does not install anything (install the ragkit wheel first); a reset
overwrites the numbered notebooks without asking (a learner's edits in them are lost) and touches nothing else.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import ragkit
from ragkit.core.files import (
    WORKBOOK_MARKER,
    checkout_root,
    data_dir,
    notebooks_dir,
    packaged_root,
    read_json,
    results_dir,
)

NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"
SKIPPED_SUFFIXES = (".lock", ".tmp")  # the gold-set manifest's lock and half-written files
LEARNER_NOTE = ("\n\n> *Learner copy (ragkit {version}): the solution cells are removed. Where the text mentions a "
                "collapsed solution, complete the stub and run its checker; your instructor has the solutions.*")
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # every archive entry gets this timestamp, so the same files make the same zip


def _files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file() and not p.name.startswith(".")
                  and p.suffix not in SKIPPED_SUFFIXES and "__pycache__" not in p.parts)


def workbook_sources() -> dict[str, Path]:
    """``{path inside a copy (posix): source file}`` for every file a learner's copy holds.

    >>> sources = workbook_sources()
    >>> "notebooks/00_welcome.ipynb" in sources and "data/menu.json" in sources
    True
    """
    results = results_dir()
    parts: list[tuple[str, Path, str]] = [
        ("notebooks", notebooks_dir(), NOTEBOOK_GLOB), ("data", data_dir(), "**/*"),
        ("benchmarks/results", results, "*.json"), ("benchmarks/supervisor", results.parent / "supervisor", "*.json"),
    ]
    sources = {f"{prefix}/{path.relative_to(folder).as_posix()}": path
               for prefix, folder, pattern in parts for path in _files(folder, pattern)}
    licence = [root / "LICENSE" for root in (checkout_root(), packaged_root()) if root and (root / "LICENSE").is_file()]
    if licence:
        sources["LICENSE"] = licence[0]
    return sources


def _tags(cell: dict[str, Any]) -> list[str]:
    return cell.setdefault("metadata", {}).setdefault("tags", [])


def learner_notebook(notebook: Any) -> Any:
    """A learner's copy of a notebook (an ``nbformat`` node, read with ``as_version=4``; the input is unchanged):
    no solution cells, no outputs on the exercise and checker cells, a note under the title."""
    from nbconvert.preprocessors import TagRemovePreprocessor

    nb = copy.deepcopy(notebook)
    for previous, cell in zip(nb.cells, nb.cells[1:], strict=False):
        if "solution" in _tags(previous) and "checker" in _tags(cell):
            _tags(cell).append("solution-check")  # re-checks the solution: it goes with it
    remover = TagRemovePreprocessor(remove_cell_tags={"solution", "solution-check"},
                                    remove_all_outputs_tags={"exercise", "checker"})
    nb, _ = remover.preprocess(nb, {})
    for cell in nb.cells:
        if {"exercise", "checker"} & set(_tags(cell)):
            cell.execution_count = None
    first = nb.cells[0] if nb.cells else None
    if first is not None and first.cell_type == "markdown":
        first.source = first.source.rstrip() + LEARNER_NOTE.format(version=ragkit.__version__)
    return nb


def _write_notebook(source: Path, destination: Path, learner: bool) -> None:
    destination.parent.mkdir(parents=True, exist_ok=True)
    if not learner:
        shutil.copyfile(source, destination)
        return
    import nbformat

    nb = learner_notebook(nbformat.reads(source.read_text(encoding="utf-8"), as_version=4))
    destination.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")


def copy_workbook(dest: str | Path, learner: bool = False, force: bool = False) -> Path:
    """Write a runnable copy of the workbook into ``dest`` and return it; refuse a non-empty ``dest`` unless ``force``."""
    dest = Path(dest).expanduser().resolve()
    if dest.exists() and not dest.is_dir():
        raise FileExistsError(f"{dest} is a file, not a folder; choose a new folder for the copy")
    if dest.exists() and any(dest.iterdir()) and not force:
        raise FileExistsError(f"{dest} is not empty; choose a new folder, or pass --force to overwrite the workbook's files in it")
    sources = workbook_sources()
    marker = {"ragkit": ragkit.__version__, "learner": learner, "files": len(sources),
              "about": "A copy of the ragkit workbook made by `ragkit workbook`. Notebooks run in notebooks/ read "
                       "data/ and benchmarks/ here; `ragkit workbook --reset .` restores the notebooks."}
    try:
        for relative, source in sources.items():
            target = dest / relative
            if relative.startswith("notebooks/"):
                _write_notebook(source, target, learner)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
        (dest / WORKBOOK_MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    except OSError as err:  # a read-only folder, a file where a folder goes, a full disk
        raise OSError(f"cannot write the copy into {dest}: {err.strerror or err} ({err.filename}); choose a folder "
                      "you can write to, such as ~/ragkit-workbook") from err
    return dest


def write_archive(out_dir: str | Path, learner: bool = False) -> Path:
    """``out_dir/ragkit-workbook-<version>[-learner].zip``: a copy of the workbook under one top folder."""
    name = f"ragkit-workbook-{ragkit.__version__}" + ("-learner" if learner else "")
    out_dir = Path(out_dir).expanduser().resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    archive = out_dir / f"{name}.zip"
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_workbook(Path(tmp) / name, learner=learner)
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                info = zipfile.ZipInfo(f"{name}/{path.relative_to(root).as_posix()}", ZIP_TIME)
                info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
                zf.writestr(info, path.read_bytes())
    return archive


def reset_notebooks(dest: str | Path | None = None) -> str:
    """Restore the numbered notebooks as shipped: ``git checkout`` in a checkout, else from the installed package.

    ``dest``: a copy made by :func:`copy_workbook` (default: the notebooks ragkit finds from here; a checkout's
    only when run inside the checkout, so a learner in the wrong folder never loses the checkout's edits).
    Returns a sentence saying what was restored from where.
    """
    folder = Path(dest).expanduser().resolve() / "notebooks" if dest is not None else notebooks_dir().resolve()
    marker = folder.parent / WORKBOOK_MARKER
    checkout = checkout_root()
    if not marker.is_file():
        if checkout is not None and folder == (checkout / "notebooks").resolve():
            here = Path.cwd().resolve()
            if dest is None and checkout.resolve() not in (here, *here.parents):  # a copy's owner in the wrong folder
                raise FileNotFoundError(f"{here} is not inside a copy made by `ragkit workbook`; pass the copy's folder "
                                        f"(ragkit workbook --reset DEST), or run it in {checkout} to restore the "
                                        "checkout's notebooks from git (your changes to them are lost)")
            done = subprocess.run(["git", "checkout", "--", "notebooks"], cwd=checkout, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"git checkout -- notebooks failed in {checkout}: {done.stderr.strip()}; "
                                   "without git, copy the notebooks again from a release archive")
            return f"restored {folder} from git (the last commit)"
        raise FileNotFoundError(f"{folder.parent} is neither a checkout nor a copy made by `ragkit workbook` "
                                f"(no {WORKBOOK_MARKER}); pass the folder of a copy")
    learner = bool(read_json(marker).get("learner"))  # a DataError naming the file when it is not JSON
    shipped = packaged_root() / "notebooks"
    source = shipped if shipped.is_dir() else (checkout / "notebooks" if checkout else None)
    if source is None or not source.is_dir():
        raise FileNotFoundError("no shipped notebooks to restore from; reinstall ragkit from its wheel")
    notebooks = _files(source, NOTEBOOK_GLOB)
    for path in notebooks:
        _write_notebook(path, folder / path.name, learner)
    kind = "learner copies" if learner else "notebooks"
    return f"restored {len(notebooks)} {kind} in {folder} from {source}"


def configure_jupyterlab(prefix: str | Path = sys.prefix) -> Path:
    """Install the workbook's JupyterLab settings (widget state saved with outputs) into this environment."""
    candidates = [root / "jupyter" / "overrides.json" for root in (checkout_root(), packaged_root()) if root]
    source = next((p for p in candidates if p.is_file()), None)
    if source is None:
        raise FileNotFoundError("jupyter/overrides.json not found in the checkout or the package; reinstall ragkit from its wheel")
    target = Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def trust_notebooks(folder: Path) -> int:
    """Trust the workbook's own notebooks (JupyterLab shows saved widgets only in trusted ones); return how many."""
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()
    paths = _files(folder, NOTEBOOK_GLOB)
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if not notary.check_signature(nb):
            notary.sign(nb)
    return len(paths)


def lab_command(notebook_dir: Path, port: int) -> list[str]:
    """The JupyterLab command line: headless where Linux has no display, ``--allow-root`` as root."""
    cmd = [sys.executable, "-m", "jupyterlab", f"--notebook-dir={notebook_dir}", f"--port={port}"]
    headless = sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if headless:
        cmd.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd


def lab_notebook_dir() -> Path:
    """The notebooks ``ragkit lab`` opens: never the copy inside site-packages (a learner's edits would land there)."""
    folder = notebooks_dir().resolve()
    if packaged_root().resolve() in folder.parents:
        raise FileNotFoundError("ragkit lab opens a copy of the workbook: run `ragkit workbook ragkit-workbook`, then "
                                "`cd ragkit-workbook` and `ragkit lab` again")
    return folder
