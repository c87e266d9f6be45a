"""The workbook after a plain install: the wheel carries notebooks, data and results; copies, learner copies, reset.

The slow test builds the wheel (``pip wheel --no-deps .``), installs it with ``--no-deps`` into a fresh venv
that sees this environment's packages, and runs ``ragkit workbook DEST`` there: the copy must load the menu
with no checkout in sight.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import nbformat
import pytest

import ragkit
from ragkit.core.contract import DataNotFound
from ragkit.core.files import WORKBOOK_MARKER, data_dir, notebooks_dir, results_dir
from ragkit.domains.menu.corpus import load_menu
from ragkit.workbook import copy_workbook, learner_notebook, reset_notebooks, workbook_sources, write_archive

ROOT = Path(__file__).resolve().parents[1]


def tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def test_each_kind_honours_its_variable_then_a_copy_then_the_checkout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("RAGKIT_DATA_DIR", "RAGKIT_RESULTS_DIR", "RAGKIT_NOTEBOOKS_DIR"):
        monkeypatch.delenv(name, raising=False)
    assert (data_dir(), results_dir(), notebooks_dir()) == (ROOT / "data", ROOT / "benchmarks" / "results", ROOT / "notebooks")
    copy = copy_workbook(tmp_path / "copy")
    monkeypatch.chdir(copy / "notebooks")  # where Jupyter runs a notebook of the copy
    assert (data_dir(), results_dir(), notebooks_dir()) == (copy / "data", copy / "benchmarks" / "results", copy / "notebooks")
    monkeypatch.setenv("RAGKIT_RESULTS_DIR", str(tmp_path))
    assert results_dir() == tmp_path


@pytest.mark.parametrize("variable, finder", [("RAGKIT_DATA_DIR", data_dir), ("RAGKIT_RESULTS_DIR", results_dir),
                                              ("RAGKIT_NOTEBOOKS_DIR", notebooks_dir)])
def test_a_variable_pointing_nowhere_fails_naming_it_and_the_fix(tmp_path, monkeypatch, variable, finder):
    monkeypatch.setenv(variable, str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFound, match=f"{variable}=.*nowhere is not a folder.*Fix: set {variable}"):
        finder()


def test_a_loader_without_its_data_raises_instead_of_answering(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_DATA_DIR", str(tmp_path))  # a folder, but without menu.json
    with pytest.raises(DataNotFound, match="menu.json.*RAGKIT_DATA_DIR"):
        load_menu()
    assert issubclass(DataNotFound, FileNotFoundError)  # callers that catch FileNotFoundError still do


def test_no_data_anywhere_names_every_place_looked_and_the_fix(tmp_path, monkeypatch):
    monkeypatch.delenv("RAGKIT_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("ragkit.core.files.checkout_root", lambda: None)
    monkeypatch.setattr("ragkit.core.files.packaged_root", lambda: tmp_path / "site-packages" / "ragkit" / "_workbook")
    with pytest.raises(DataNotFound, match=r"no data folder found; looked in .*_workbook.data.*Fix: set RAGKIT_DATA_DIR"):
        data_dir()


def test_a_copy_holds_what_the_notebooks_read_and_refuses_to_overwrite(tmp_path):
    copy = copy_workbook(tmp_path / "copy")
    shipped = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(p.name for p in (copy / "notebooks").glob("*.ipynb")) == shipped
    for relative in ("data/menu.json", "data/eval/MANIFEST.json", "benchmarks/results/crag_squad2.json",
                     "benchmarks/supervisor/hostile_code.json", "LICENSE"):
        assert (copy / relative).read_bytes() == (ROOT / relative).read_bytes(), relative
    assert json.loads((copy / WORKBOOK_MARKER).read_text())["ragkit"] == ragkit.__version__
    with pytest.raises(FileExistsError, match="--force"):
        copy_workbook(copy)
    copy_workbook(copy, force=True)


def test_learner_copies_drop_solutions_and_their_recheck_and_clear_exercise_outputs():
    original = nbformat.read(ROOT / "notebooks" / "04_self_rag.ipynb", as_version=4)
    learner = learner_notebook(original)
    count = lambda nb, tag: sum(tag in tags(c) for c in nb.cells)  # noqa: E731
    exercises = count(original, "exercise")
    assert exercises >= 3 and count(original, "solution") == exercises and count(learner, "solution") == 0
    assert count(learner, "exercise") == exercises and count(learner, "checker") == exercises  # one checker each, not two
    assert all(not c.outputs for c in learner.cells if {"exercise", "checker"} & set(tags(c)))
    assert "Learner copy" in learner.cells[0].source and learner.cells[0].source.startswith(original.cells[0].source.strip())
    assert count(original, "solution") == exercises  # the input is left as it was
    solutions = {c.source for c in original.cells if "solution" in tags(c)}
    assert not solutions & {c.source for c in learner.cells}


def test_reset_restores_a_copys_notebooks_and_keeps_learner_copies_learner(tmp_path, monkeypatch):
    copy = copy_workbook(tmp_path / "copy", learner=True)
    notebook = copy / "notebooks" / "00_welcome.ipynb"
    shipped = notebook.read_text(encoding="utf-8")
    notebook.write_text("{}", encoding="utf-8")
    (copy / "notebooks" / "my_notes.ipynb").write_text("{}", encoding="utf-8")
    assert "restored 13 learner copies" in reset_notebooks(copy)
    assert notebook.read_text(encoding="utf-8") == shipped
    assert (copy / "notebooks" / "my_notes.ipynb").read_text() == "{}"  # a reset touches only the numbered notebooks
    with pytest.raises(FileNotFoundError, match="neither a checkout nor a copy"):
        reset_notebooks(tmp_path)


def test_the_archive_is_reproducible_and_named_by_version(tmp_path):
    first = write_archive(tmp_path / "a")
    second = write_archive(tmp_path / "b")
    assert first.name == f"ragkit-workbook-{ragkit.__version__}.zip"
    assert first.read_bytes() == second.read_bytes()
    names = zipfile.ZipFile(first).namelist()
    top = f"ragkit-workbook-{ragkit.__version__}/"
    assert all(n.startswith(top) for n in names) and f"{top}notebooks/00_welcome.ipynb" in names
    assert len(names) == len(workbook_sources()) + 1  # and the marker


def test_the_wheel_is_a_workbook_after_a_plain_install(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(wheels), str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("ragkit-*.whl")
    packed = {n.split("ragkit/_workbook/", 1)[1] for n in zipfile.ZipFile(wheel).namelist() if "ragkit/_workbook/" in n}
    assert set(workbook_sources()) - {"LICENSE"} <= packed  # every file a copy holds, but the licence (in dist-info)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    # This environment's packages through a .pth file (its ragkit, an editable install, is hidden below).
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    outer = [p for p in sys.path if p.endswith("site-packages")]
    Path(site, "outer.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
                    "--isolated", str(wheel)], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGKIT_")} | {"HF_HUB_OFFLINE": "1", "PYTHONPATH": ""}
    dest = tmp_path / "my-workbook"
    ragkit_cli = [str(python), "-m", "ragkit"]
    done = subprocess.run([*ragkit_cli, "workbook", str(dest)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    probe = ("import ragkit, sys; from ragkit.domains.menu.corpus import load_menu; from ragkit.core.files import checkout_root; "
             "from ragkit.core.nlp import antonyms, synonyms; "
             "print(ragkit.__file__, checkout_root(), ragkit.data_dir(), len(load_menu()), *sorted(antonyms('dry')), *sorted(synonyms('marked')), sep='|')")
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, env=env, cwd=dest / "notebooks", check=True)
    installed, checkout, data, dishes, *opposites = out.stdout.strip().split("|")
    assert str(env_dir) in installed and checkout == "None"
    assert {"sweet", "pronounced"} <= set(opposites)  # the package's own data (WordNet's two tables) is in the wheel
    assert Path(data) == dest / "data" and int(dishes) == len(load_menu())
    # Outside the copy, the data inside the installed package is used.
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert "_workbook" in out.stdout.split("|")[2]
