"""``ragkit doctor``: each failure says what is wrong and how to fix it; a FAIL makes the exit code non-zero."""

from __future__ import annotations

import os
import socket
import sys
import types

import pytest

from ragkit import doctor
from ragkit.cli import main
from ragkit.doctor import (
    Check,
    check_data,
    check_disk,
    check_folder,
    check_platform,
    check_port,
    check_python,
    check_torch,
)


def lines_of(checks) -> tuple[int, list[str]]:
    out: list[str] = []
    return doctor.run(checks, out=out.append), out


def test_missing_data_is_a_failure_naming_the_variable_and_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_DATA_DIR", str(tmp_path / "nowhere"))
    result = check_data()
    assert result.status == "FAIL" and "RAGKIT_DATA_DIR" in result.detail and "nowhere" in result.detail
    assert result.fix.startswith("set RAGKIT_DATA_DIR to the folder")
    code, out = lines_of([check_data])
    assert code == 1
    assert out[1].startswith("[FAIL] data: RAGKIT_DATA_DIR=") and out[2].startswith("       fix: set RAGKIT_DATA_DIR")
    assert "Fix the [FAIL] lines" in out[-1]


def test_a_broken_corpus_is_a_failure_naming_the_file(tmp_path, monkeypatch):
    (tmp_path / "menu.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("RAGKIT_DATA_DIR", str(tmp_path))
    result = check_data()
    assert result.status == "FAIL" and "menu.json: not valid JSON (line 1" in result.detail and result.fix


def test_notebooks_and_results_are_counted_by_their_own_patterns(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_NOTEBOOKS_DIR", str(tmp_path))
    (tmp_path / "scratch.ipynb").write_text("{}")
    result = check_folder("notebooks", "[0-9][0-9]_*.ipynb")
    assert result.status == "FAIL" and "no [0-9][0-9]_*.ipynb in" in result.detail and "RAGKIT_NOTEBOOKS_DIR" in result.fix
    assert doctor.check_results().status == "OK"


@pytest.mark.parametrize("version, status, words", [
    ((3, 10, 12), "FAIL", "too old"), ((3, 11, 4), "FAIL", "3.11.5 or newer"), ((3, 11, 5), "OK", "3.11.5"),
    ((3, 13, 1), "OK", "3.13.1"), ((3, 15, 0), "WARN", "newer than any tested"),
])
def test_python_versions(version, status, words):
    result = check_python(version)
    assert result.status == status and words in result.detail
    assert bool(result.fix) == (status != "OK")


@pytest.mark.parametrize("system, machine, mac, status, words", [
    ("Darwin", "x86_64", "14.5", "FAIL", "Intel"), ("Darwin", "arm64", "13.6", "FAIL", "macOS 14"),
    ("Darwin", "arm64", "15.1", "OK", "Apple Silicon"), ("Windows", "ARM64", "", "FAIL", "x86-64 only"),
    ("Windows", "AMD64", "", "OK", "WSL"),
])
def test_platforms_without_a_torch_wheel_fail_with_a_way_out(system, machine, mac, status, words):
    result = check_platform(system, machine, mac)
    assert result.status == status and words in result.detail
    assert bool(result.fix) == (status == "FAIL")


def test_a_cuda_build_of_torch_is_a_warning_naming_the_cpu_index(monkeypatch, tmp_path):
    fake = types.ModuleType("torch")
    fake.__version__, fake.__file__ = "2.13.0", str(tmp_path / "torch" / "__init__.py")
    fake.version = types.SimpleNamespace(cuda="12.8")
    monkeypatch.setitem(sys.modules, "torch", fake)
    result = check_torch()
    assert result.status == "WARN" and "CUDA 12.8 build" in result.detail
    assert "--index-url https://download.pytorch.org/whl/cpu" in result.fix


def test_torch_missing_is_a_failure_with_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    result = check_torch()
    assert result.status == "FAIL" and result.fix.startswith("pip install torch==2.13.0")


def test_a_port_in_use_is_a_warning_with_a_free_one():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = check_port(port)
    assert result.status == "WARN" and f"{port} is in use" in result.detail
    assert result.fix.startswith("ragkit lab --port ") and int(result.fix.split()[3]) != port


def test_too_little_disk_fails(tmp_path):
    assert check_disk(tmp_path, need_mb=1e12).status == "FAIL"
    assert check_disk(tmp_path, need_mb=1, want_mb=1e12).status == "WARN"


def test_a_check_that_crashes_is_reported_not_raised():
    def check_boom() -> Check:
        raise RuntimeError("boom")

    code, out = lines_of([check_boom, lambda: Check("WARN", "optional", "missing")])
    assert code == 1 and "[FAIL] check_boom: RuntimeError: boom" in out and "[WARN] optional: missing" in out


def test_warnings_alone_pass():
    code, out = lines_of([lambda: Check("OK", "a", "fine"), lambda: Check("WARN", "b", "optional", "install it")])
    assert code == 0 and out[-1].endswith("Ready for the workbook ([WARN] lines are optional).")


def test_ragkit_doctor_on_this_machine(capsys, monkeypatch):
    """The whole doctor, as a learner runs it: every required check passes here, and it leaves the environment as it was."""
    monkeypatch.delenv("RAGKIT_PROGRESS", raising=False)
    code = main(["doctor"])
    assert "RAGKIT_PROGRESS" not in os.environ
    out = capsys.readouterr().out
    assert "[FAIL]" not in out, out
    assert code == 0
    for name in ("Python", "torch", "data", "results", "notebooks", "embedder", "graph", "port", "bubblewrap", "disk"):
        assert f"] {name}: " in out, name
