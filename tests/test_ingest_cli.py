"""``ragkit ingest`` and ``ragkit collections``: output, exit codes, the --yes guard; the bench commands still work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragkit.cli import main


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RAGKIT_COLLECTIONS_DIR", str(tmp_path / "collections"))
    monkeypatch.setenv("RAGKIT_PROGRESS", "0")


def make_folder(folder: Path) -> Path:
    folder.mkdir()
    (folder / "a.md").write_text("# Ferries\n\nThe ferry to the island leaves at seven.\n")
    (folder / "b.txt").write_text("The museum is closed on Mondays.\n")
    (folder / "c.bin").write_bytes(b"\x00\x01")
    return folder


def test_ingest_list_and_delete_from_the_command_line(tmp_path: Path, capsys) -> None:
    folder = make_folder(tmp_path / "docs")
    assert main(["ingest", str(folder), "--collection", "town"]) == 0
    out = capsys.readouterr().out
    assert "collection 'town' saved: 2 documents, 2 chunks" in out and "skipped c.bin: unsupported file type '.bin'" in out
    assert str(tmp_path / "collections" / "town") in out
    assert main(["ingest", str(folder), "--collection", "town", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["up_to_date"] is True and record["skipped"][0]["path"] == "c.bin"
    assert main(["collections"]) == 0
    listing = capsys.readouterr().out
    assert str(tmp_path / "collections") in listing and "town" in listing and "2 documents" in listing
    assert main(["collections", "list", "--json"]) == 0
    assert [c["name"] for c in json.loads(capsys.readouterr().out)] == ["town"]
    assert main(["collections", "delete", "town"]) == 2  # no --yes: nothing deleted
    assert "add --yes" in capsys.readouterr().err
    assert (tmp_path / "collections" / "town").is_dir()
    assert main(["collections", "delete", "town", "--yes"]) == 0
    assert "deleted collection 'town'" in capsys.readouterr().out
    assert main(["collections", "delete", "town", "--yes"]) == 2
    assert "no collection named 'town'" in capsys.readouterr().err


def test_ingest_refusals_have_clear_messages_and_exit_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["ingest", str(tmp_path / "empty"), "--collection", "x"]) == 2
    assert "no supported files found" in capsys.readouterr().err
    assert main(["ingest", str(tmp_path / "missing"), "--collection", "x"]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["ingest", str(tmp_path), "--collection", "../x"]) == 2
    assert "invalid collection name" in capsys.readouterr().err
    folder = make_folder(tmp_path / "docs")
    assert main(["ingest", str(folder), "--collection", "small", "--max-file-mb", "0.00001"]) == 2
    assert "too large" in capsys.readouterr().err


def test_collections_root_option_and_help(tmp_path: Path, capsys) -> None:
    folder = make_folder(tmp_path / "docs")
    other = tmp_path / "elsewhere"
    assert main(["ingest", str(folder), "--collection", "t", "--root", str(other)]) == 0
    capsys.readouterr()
    assert main(["collections", "--root", str(other)]) == 0 and "t " in capsys.readouterr().out
    assert main(["collections", "list", "--root", str(other), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1
    with pytest.raises(SystemExit):
        main(["--help"])
    usage = capsys.readouterr().out
    assert all(word in usage for word in ("bench", "ingest", "collections"))
