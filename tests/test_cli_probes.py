"""The workshop's commands as a careless learner or a hurried instructor runs them: each mistake is one line
naming the fix and exit code 2, never a traceback, and nothing is overwritten that was not asked for."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from ragkit import doctor
from ragkit.cli import main
from ragkit.server.background import free_port

ROOT = Path(__file__).resolve().parents[1]
QUESTION = {"question": "What does the BM25 parameter k1 control?", "reference_answer": "term frequency saturation",
            "reference_context_ids": ["HB-03"], "category": "factual"}


@pytest.fixture(autouse=True)
def private_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_STATE_DIR", str(tmp_path / "state"))
    for name in ("RAGKIT_DATA_DIR", "RAGKIT_RESULTS_DIR", "RAGKIT_NOTEBOOKS_DIR"):
        monkeypatch.delenv(name, raising=False)


def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("mine\n", encoding="utf-8")
    return path


def test_a_copy_into_a_folder_that_cannot_be_written_is_one_line_naming_the_fix(tmp_path, capsys):
    notes = a_file(tmp_path)
    assert main(["workbook", str(notes)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["workbook", str(notes / "copy")]) == 2  # as a read-only folder: the folder cannot be made
    err = capsys.readouterr().err
    assert err.startswith("ragkit workbook: cannot write the copy into") and "choose a folder you can write to" in err
    assert notes.read_text(encoding="utf-8") == "mine\n"


def test_a_reset_outside_a_copy_never_resets_the_checkout_it_runs_from(tmp_path, monkeypatch, capsys):
    calls: list[list[str]] = []

    def fake_run(cmd, **kwargs):  # stands in for git, which would discard the checkout's edits
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr("ragkit.workbook.subprocess.run", fake_run)
    monkeypatch.chdir(tmp_path)  # a learner's home, not the copy they meant
    assert main(["workbook", "--reset"]) == 2
    assert calls == [] and "ragkit workbook --reset DEST" in capsys.readouterr().err
    monkeypatch.chdir(ROOT)  # make reset, in the checkout: git restores the notebooks
    assert main(["workbook", "--reset"]) == 0
    assert calls == [["git", "checkout", "--", "notebooks"]]


def test_eval_refuses_a_folder_as_its_output_file_before_the_replay(tmp_path, capsys):
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps(QUESTION) + "\n", encoding="utf-8")
    for flag in ("--out", "--save"):
        assert main(["eval", "--graph", "self_rag", "--golden", str(golden), flag, str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert f"{flag} {tmp_path} is a folder; give a file name" in err


@pytest.mark.parametrize("url", ["http://127.0.0.1:{port}", "127.0.0.1:{port}"], ids=["nothing-listening", "no-scheme"])
def test_eval_against_a_server_that_is_not_there_says_how_to_start_one(url, tmp_path, capsys):
    url = url.format(port=free_port())
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps(QUESTION) + "\n", encoding="utf-8")
    assert main(["eval", "--graph", "crag", "--golden", str(golden), "--server", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ragkit eval: cannot use the server at {url}") and "ragkit serve" in err


def test_doctor_names_an_unwritable_cache_and_its_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(a_file(tmp_path) / "cache"))  # cannot be made, as a read-only one
    cache = doctor.check_cache()
    assert cache.status == "FAIL" and "cannot be written" in cache.detail and "RAGKIT_CACHE_DIR" in cache.fix

    def no_room(**kwargs):
        raise OSError(30, "Read-only file system", str(tmp_path / "cache" / "onnx"))

    monkeypatch.setattr("ragkit.core.embeddings.load_embedder", no_room)
    embedder = doctor.check_embedder()
    assert embedder.status == "FAIL" and "RAGKIT_CACHE_DIR" in embedder.fix and "reinstall" not in embedder.fix
    assert doctor.check_cache(tmp_path / "writable").status == "OK"
    assert doctor.check_cache in doctor.CHECKS[: doctor.CHECKS.index(doctor.check_embedder)]


@pytest.mark.parametrize("contents", [[], ["constraints.txt"]])
def test_checking_a_folder_that_is_no_wheelhouse_says_how_to_build_one(contents, tmp_path, capsys):
    folder = tmp_path / "wheelhouse"
    folder.mkdir()
    for name in contents:
        (folder / name).write_text("", encoding="utf-8")
    assert main(["wheelhouse", str(folder), "--check"]) == 2
    err = capsys.readouterr().err
    assert "is not a wheelhouse" in err and "ragkit wheelhouse DIR" in err
    assert not (tmp_path / "wheelhouse-check-venv").exists()  # no venv made for nothing


@pytest.mark.parametrize("port", ["99999", "-1", "0"])
def test_serve_refuses_a_port_that_does_not_exist(port, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", port])
    assert stopped.value.code == 2 and "from 1 to 65535" in capsys.readouterr().err


def test_serve_with_a_bad_setting_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setenv("RAGKIT_MAX_BODY_BYTES", "lots")
    assert main(["serve", "--port", str(free_port())]) == 2
    assert capsys.readouterr().err.startswith("ragkit serve: RAGKIT_MAX_BODY_BYTES must be a whole number")


def test_serve_with_a_state_folder_it_cannot_write_names_the_variable(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RAGKIT_STATE_DIR", str(a_file(tmp_path) / "state"))
    assert main(["serve", "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragkit serve: cannot write the state folder") and "set RAGKIT_STATE_DIR" in err


def test_a_copy_and_an_archive_at_once_is_refused_not_half_done(tmp_path, capsys):
    assert main(["workbook", str(tmp_path / "copy"), "--archive", str(tmp_path / "zips")]) == 2
    assert "not both" in capsys.readouterr().err
    assert not (tmp_path / "copy").exists() and not (tmp_path / "zips").exists()


def test_a_reset_of_a_copy_whose_marker_is_broken_names_the_file(tmp_path, capsys):
    copy = tmp_path / "copy"
    (copy / "notebooks").mkdir(parents=True)
    (copy / "ragkit-workbook.json").write_text("{oops", encoding="utf-8")
    assert main(["workbook", "--reset", str(copy)]) == 2
    assert "ragkit-workbook.json: not valid JSON" in capsys.readouterr().err


GOOD_ROW = {"question": "What is BM25?", "reference_answer": "A ranking function.", "reference_context_ids": ["HB-03"],
            "category": "factual"}


@pytest.mark.parametrize("line, said", [
    ("42", "a JSON object is needed"),
    ("null", "a JSON object is needed"),
    (json.dumps({**GOOD_ROW, "reference_context_ids": 5}), "must be a list of ids"),
    (json.dumps({**GOOD_ROW, "reference_context_ids": "HB-03"}), "must be a list of ids"),  # not split into letters
])
def test_a_golden_line_of_the_wrong_shape_is_named_with_its_line(line, said, tmp_path):
    from ragkit.evaluation.replay import load_golden

    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps(GOOD_ROW) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"line 2: .*{said}"):
        load_golden(golden)
    golden.write_bytes("caf\xe9".encode("cp1252"))
    with pytest.raises(ValueError, match="golden.jsonl: not UTF-8"):
        load_golden(golden)


def test_eval_exits_1_when_a_question_failed_to_run(tmp_path, capsys):
    golden = tmp_path / "golden.jsonl"
    too_long = {**GOOD_ROW, "question": "What is BM25? " * 300}  # over the graph's limit: the run raises
    golden.write_text(json.dumps(GOOD_ROW) + "\n" + json.dumps(too_long) + "\n", encoding="utf-8")
    assert main(["eval", "--graph", "self_rag", "--golden", str(golden)]) == 1
    assert "1 of 2 questions failed to run" in capsys.readouterr().err


@pytest.mark.parametrize("env, said", [
    ({"RAGKIT_CHECKPOINT_URL": "mysql://u@localhost/db"}, "RAGKIT_CHECKPOINT_URL must be a postgresql"),
    ({"RAGKIT_SERVER_SPECS": "no_colon_here"}, "must look like 'package.module:function'"),
    ({"RAGKIT_SERVER_SPECS": "no_such_module_here:specs"}, "which Python cannot find"),
])
def test_serve_checks_the_checkpoint_url_and_the_specs_before_any_worker_starts(env, said, monkeypatch, capsys):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--port", str(free_port())]) == 2
    assert said in capsys.readouterr().err
