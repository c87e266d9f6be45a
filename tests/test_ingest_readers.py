"""Readers and file discovery: Markdown, text, HTML, real PDFs (plain, encrypted, damaged), symlinks, size limit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ragkit.ingest.files import discover
from ragkit.ingest.readers import ReadError, decode_text, html_parts, markdown_parts, read_file
from ragkit.ingest.samples import write_text_pdf


def test_markdown_sections_carry_their_heading_path_and_front_matter_title(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text("---\ntitle: The Guide\n---\n# Setup\nIntro text.\n## Linux\nRun apt.\n```sh\n# comment, not a heading\n```\n"
                    "## Windows\n\n### Old versions\nUse the installer.\n", encoding="utf-8")
    result = read_file(path)
    assert result.kind == "markdown" and result.title == "The Guide"
    assert [p.metadata["heading"] for p in result.parts] == ["Setup", "Setup > Linux", "Setup > Windows > Old versions"]
    assert "# comment, not a heading" in result.parts[1].text  # fenced code stays in its section
    assert result.parts[2].text.startswith("Old versions\n\nUse the installer.")


def test_markdown_without_headings_is_one_part_titled_by_the_file() -> None:
    h1, parts = markdown_parts("Just a paragraph.\n\nAnd another.")
    assert h1 is None and len(parts) == 1 and parts[0].metadata == {}


def test_html_uses_a_real_parser_drops_scripts_and_splits_at_headings() -> None:
    page = """<!doctype html><html><head><title>Caf&eacute; hours</title><style>p {color: red}</style></head>
    <body><nav>Home | About</nav><script>var secret = 1;</script><!-- a comment -->
    <h1>Opening</h1><p>We open at <b>9&nbsp;am</b>,
    every day.</p><ul><li>Coffee</li><li>Tea</li></ul>
    <h2>Closing</h2><p>We close at 5 pm.<br>Except Sundays.</p><pre>  keep   spacing</pre></body></html>"""
    title, parts = html_parts(page)
    assert title == "Café hours"
    text = "\n".join(p.text for p in parts)
    assert "secret" not in text and "color" not in text and "a comment" not in text
    assert "We open at 9 am, every day." in text  # inline tags and source line breaks do not split sentences
    assert [p.metadata.get("heading") for p in parts] == [None, "Opening", "Opening > Closing"]
    assert "Coffee\n" in parts[1].text and "Except Sundays." in parts[2].text and "  keep   spacing" in parts[2].text


def test_text_decoding_accepts_utf8_and_cp1252_and_refuses_binary(tmp_path: Path) -> None:
    assert decode_text("naïve".encode("cp1252")) == "naïve"
    binary = tmp_path / "data.txt"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ReadError, match="binary"):
        read_file(binary)
    (tmp_path / "blank.txt").write_text("  \n\n ")
    with pytest.raises(ReadError, match="no text"):
        read_file(tmp_path / "blank.txt")


def test_a_real_pdf_gives_one_part_per_page_with_page_numbers(tmp_path: Path) -> None:
    pdf = write_text_pdf(tmp_path / "report.pdf", ["Page one talks about tides (and the moon).", "", "Page three: bees."],
                         title="Field report")
    result = read_file(pdf)
    assert (result.kind, result.title, result.pages) == ("pdf", "Field report", 3)
    assert [p.metadata["page"] for p in result.parts] == [1, 3]  # the empty page has no text and no part
    assert "tides (and the moon)" in result.parts[0].text


def test_encrypted_damaged_and_fake_pdfs_are_refused_with_a_reason(tmp_path: Path) -> None:
    locked = write_text_pdf(tmp_path / "locked.pdf", ["secret text"], password="hunter2")
    with pytest.raises(ReadError, match="encrypted PDF: it needs a password"):
        read_file(locked)
    opens = write_text_pdf(tmp_path / "opens.pdf", ["owner-only protection"], password="")
    assert "owner-only protection" in read_file(opens).parts[0].text  # empty user password: readable
    good = write_text_pdf(tmp_path / "good.pdf", ["text"]).read_bytes()
    (tmp_path / "damaged.pdf").write_bytes(good[:60])
    with pytest.raises(ReadError, match="unreadable PDF|no extractable text"):
        read_file(tmp_path / "damaged.pdf")
    (tmp_path / "fake.pdf").write_text("I am a text file with a .pdf name")
    with pytest.raises(ReadError, match="not a PDF"):
        read_file(tmp_path / "fake.pdf")


def test_discover_refuses_links_outside_loops_and_big_files(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "private.md").write_text("# Private\nnot yours")
    (root / "a.md").write_text("# A\ntext")
    (root / "sub" / "b.txt").write_text("b text")
    os.symlink(outside / "private.md", root / "escape.md")          # a file link out of the folder
    os.symlink(outside, root / "escape_dir")                        # a folder link out of the folder
    os.symlink(root / "loop2", root / "loop1")                      # a link loop
    os.symlink(root / "loop1", root / "loop2")
    os.symlink(root, root / "sub" / "up")                           # a folder link back up: a cycle if followed
    os.symlink(root / "a.md", root / "sub" / "alias.md")            # a link inside: read once, as a.md
    with open(root / "huge.pdf", "wb") as f:                        # 200 MB, sparse: costs no disk
        f.truncate(200 * 2**20)
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]")
    found = discover(root)
    assert [f.key for f in found.files] == ["a.md", "sub/b.txt"]
    reasons = {s.path: s.reason for s in found.skipped}
    assert "outside what was asked" in reasons["escape.md"] and "outside what was asked" in reasons["escape_dir"]
    assert "link loop" in reasons["loop1"] and "link loop" in reasons["loop2"]
    assert "too large: 200.0 MB" in reasons["huge.pdf"] and "unsupported file type '.png'" in reasons["image.png"]
    assert "sub/up" not in reasons and found.hidden == 1
    assert [f.key for f in discover(root, max_file_bytes=3).files] == []  # the limit is configurable


def test_discover_takes_files_and_folders_and_names_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "one.md").write_text("one")
    (tmp_path / "two.txt").write_text("two")
    found = discover([tmp_path / "x", tmp_path / "two.txt"])
    assert [f.key for f in found.files] == ["two.txt", "x/one.md"]
    with pytest.raises(FileNotFoundError, match="no-such-folder"):
        discover(tmp_path / "no-such-folder")
