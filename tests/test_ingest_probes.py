"""A learner's messy folder: unreadable folders, Notepad's UTF-16, notes written as headings only, OS errors."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from ragkit.cli import main
from ragkit.ingest import IngestError, ingest, load_collection
from ragkit.ingest.files import discover
from ragkit.ingest.readers import html_parts, markdown_parts, read_file
from tests.test_ingest import HashEmbeddings
from tests.test_ingest_cli import private_dirs  # noqa: F401 - the same private folders, autouse


def denied(path: Path) -> PermissionError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def test_a_folder_that_cannot_be_listed_or_entered_is_named_not_dropped(tmp_path: Path, monkeypatch) -> None:
    """As a non-root user, ``chmod 000 closed`` and ``chmod 444 listed``: the walk must say so (root reads both)."""
    docs = tmp_path / "docs"
    for sub in ("closed", "listed"):
        (docs / sub).mkdir(parents=True)
        (docs / sub / "note.md").write_text("# Owls\n\nOwls hunt at night.\n")
    (docs / "open.md").write_text("Open notes about otters.\n")
    real_scandir, real_lstat = os.scandir, Path.lstat

    def scandir(path):  # what the kernel answers for a folder without read permission
        if Path(path).name == "closed":
            raise denied(Path(path))
        return real_scandir(path)

    def lstat(self: Path):  # ... and for an entry of a folder without execute (search) permission
        if self.parent.name == "listed":
            raise denied(self)
        return real_lstat(self)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(Path, "lstat", lstat)
    found = discover(docs)
    assert [f.key for f in found.files] == ["open.md"]
    reasons = {s.path: s.reason for s in found.skipped}
    assert reasons["closed"].startswith("cannot read the folder (Permission denied)")
    assert reasons["listed/note.md"].startswith("cannot read the file's folder (Permission denied)")
    with pytest.raises(IngestError, match="nothing to ingest") as refused:  # the folder asked for is the closed one
        ingest(docs / "closed", collection="c", embeddings=HashEmbeddings())
    assert "closed: cannot read the folder (Permission denied)" in str(refused.value.skipped[0])


def test_an_os_error_is_a_message_and_exit_2_not_a_traceback(tmp_path: Path, capsys) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("The ferry leaves at seven.\n")
    (tmp_path / "not-a-folder").write_text("x")
    assert main(["ingest", str(tmp_path / "docs"), "--collection", "t", "--root", str(tmp_path / "not-a-folder")]) == 2
    assert capsys.readouterr().err.startswith("ragkit: ")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_notepad_unicode_text_with_a_byte_order_mark_is_read(tmp_path: Path, encoding: str) -> None:
    text = "# Brücke\n\nDie Brücke über den Fluss ist gesperrt.\n"
    path = tmp_path / "notice.md"
    path.write_bytes(("\ufeff" + text if encoding.endswith("-be") else text).encode(encoding))
    result = read_file(path)
    assert result.title == "Brücke" and result.parts[0].text == "Brücke\n\nDie Brücke über den Fluss ist gesperrt."


def test_headings_without_text_under_them_keep_their_words(tmp_path: Path) -> None:
    h1, parts = markdown_parts("# Release notes\n## 1.2: fixed the login crash\n## 1.1: added dark mode\n")
    assert h1 == "Release notes" and [p.text for p in parts] == ["Release notes\n1.2: fixed the login crash\n1.1: added dark mode"]
    _, parts = markdown_parts("# Guide\nIntro.\n## Old step\n## Install\nRun it.\n## See also: the FAQ\n")
    assert [(p.metadata["heading"], p.text) for p in parts] == [
        ("Guide", "Guide\n\nIntro."), ("Guide > Install", "Old step\nInstall\n\nRun it."),
        ("Guide > See also: the FAQ", "See also: the FAQ")]
    _, parts = markdown_parts("# Setup\n## Windows\n### Old versions\nUse the installer.")  # parents stay in the path only
    assert [(p.metadata["heading"], p.text) for p in parts] == [("Setup > Windows > Old versions", "Old versions\n\nUse the installer.")]
    _, parts = html_parts("<h1>News</h1><h3><a href='1'>Otters return to the river</a></h3><h3>Ferry times change</h3>")
    assert [p.text for p in parts] == ["News\nOtters return to the river\nFerry times change"]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "changelog.md").write_text("# Changelog\n## 2.0: the kettle now boils faster\n")
    ingest(docs, collection="notes", embeddings=HashEmbeddings())
    hits = load_collection("notes", embeddings=HashEmbeddings()).search_with_scores("kettle boils", 1)
    assert hits and hits[0][0].metadata["source"] == "changelog.md"


@pytest.mark.parametrize("name", ["CON", "nul", "com1", "LPT9.notes", "notes."])
def test_a_collection_name_windows_cannot_use_is_refused_everywhere(name):
    from ragkit.ingest.store import check_name

    with pytest.raises(ValueError, match="Windows"):
        check_name(name)
    assert check_name("console") == "console" and check_name("com10") == "com10"


def test_ctrl_c_during_an_ingest_is_a_message_and_leaves_the_collection_as_it_was(tmp_path: Path, monkeypatch,
                                                                                   capsys) -> None:
    import ragkit.ingest.pipeline as pipeline

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("The ferry leaves at seven.\n")
    ingest(docs, "notes", root=tmp_path, embeddings=HashEmbeddings())

    class Interrupted(HashEmbeddings):
        def embed_documents(self, texts):
            raise KeyboardInterrupt

    (docs / "b.md").write_text("The market opens at eight.\n")
    monkeypatch.setattr(pipeline, "load_embedder", lambda **_: Interrupted())
    assert main(["ingest", str(docs), "--collection", "notes", "--root", str(tmp_path)]) == 130
    err = capsys.readouterr().err
    assert err.startswith("ragkit: interrupted") and "Traceback" not in err
    texts = [d.page_content for d in load_collection("notes", root=tmp_path, embeddings=HashEmbeddings()).chunks]
    assert any("ferry" in t for t in texts) and not any("market" in t for t in texts)


def test_html_text_a_browser_shows_outside_the_body_tags_is_kept(tmp_path: Path) -> None:
    page = ("<html><head><meta charset='utf-8'><title>Notice</title><link rel='x' href='y'></head>"
            "The pier is closed on Monday.<body><p>The ferry leaves at seven.</p></body>Last updated in May.</html>")
    title, parts = html_parts(page)
    assert title == "Notice"
    assert [p.text for p in parts] == ["The pier is closed on Monday.\n\nThe ferry leaves at seven.\n\nLast updated in May."]
    title, parts = html_parts("<head><title>T</title><body><h1>Hours</h1><p>Open daily.</p>")  # head never closed
    assert [(p.metadata["heading"], p.text) for p in parts] == [("Hours", "Hours\n\nOpen daily.")]
