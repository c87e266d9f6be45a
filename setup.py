"""Build step of the ragkit wheel: the workbook (notebooks, data, saved results) goes inside the package.

Everything else about the package is in ``pyproject.toml``; this file only adds one step to setuptools'
``build_py``. The repository keeps its layout (``data/``, ``notebooks/``, ``benchmarks/results/`` at the
top, where a checkout's notebooks read them); building a wheel copies the files listed in ``WORKBOOK`` to
``ragkit/_workbook/<same path>``, where :func:`ragkit.core.files.packaged_root` finds them after a plain
``pip install ragkit``. An editable install (``pip install -e .``) copies nothing: ragkit then reads the
checkout itself. ``MANIFEST.in`` puts the same files in the source archive, so a wheel built from it has
them too.

What it cannot do: a results file outside these folders needs a line in ``WORKBOOK`` (and in
``MANIFEST.in``); ``tests/test_workbook.py`` builds the wheel and checks what a learner needs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# folder in the repository -> the files of it the wheel carries, copied to ragkit/_workbook/<folder>/
SKIPPED_SUFFIXES = (".lock", ".tmp")  # the gold-set manifest's lock and half-written files, never shipped
WORKBOOK: dict[str, tuple[str, ...]] = {
    "notebooks": ("[0-9][0-9]_*.ipynb",),
    "data": ("**/*",),
    "benchmarks/results": ("*.json",),
    "benchmarks/supervisor": ("*.json",),  # notebook 10 reads the hostile-code and routing results here
    "jupyter": ("overrides.json",),  # JupyterLab settings `ragkit setup` installs (widget state saved)
}


def workbook_files(root: Path = ROOT) -> list[Path]:
    """Every file of the repository that the wheel's ``ragkit/_workbook`` carries, sorted."""
    found = {path for folder, patterns in WORKBOOK.items() for pattern in patterns for path in (root / folder).glob(pattern)}
    return sorted(path for path in found if path.is_file() and not path.name.startswith(".")
                  and path.suffix not in SKIPPED_SUFFIXES and "__pycache__" not in path.parts)


class BuildWithWorkbook(build_py):
    """setuptools' ``build_py``, then a copy of the workbook files into ``ragkit/_workbook``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "ragkit" / "_workbook"
        for source in workbook_files():
            destination = target / source.relative_to(ROOT)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


setup(cmdclass={"build_py": BuildWithWorkbook})
