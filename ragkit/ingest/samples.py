"""Small files to ingest, made on the spot: a real text PDF (written with pypdf) and a mixed sample folder.

Tests, benchmarks and notebooks need documents of every kind without shipping binary files.
:func:`write_text_pdf` writes a genuine PDF (one Helvetica text page per string, a ``/Title``, optional
password encryption) that any PDF reader opens and ``pypdf`` extracts text from; :func:`write_sample_folder`
writes a few handbook sections as Markdown, text, HTML and PDF files.

Simplifications: the PDF writer lays out text in one font and size, wraps lines at a fixed number of
characters, and encodes text as Windows-1252 (characters outside it become ``?``); it is a test-file
maker, not a typesetter.
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Sequence
from pathlib import Path

LINE_CHARS = 90  # characters per line on the page (11 pt Helvetica on US Letter with 1-inch margins)
LINES_PER_PAGE = 48


def _escape(line: str) -> str:
    """A line as a PDF string literal's body (backslash and parentheses escaped).

    >>> _escape("f(x) = a\\\\b")
    'f\\\\(x\\\\) = a\\\\\\\\b'
    """
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def page_lines(text: str, width: int = LINE_CHARS) -> list[str]:
    """Wrap text to ``width`` characters, keeping blank lines between paragraphs.

    >>> page_lines("one two three\\n\\nfour", width=8)
    ['one two', 'three', '', 'four']
    """
    lines: list[str] = []
    for n, paragraph in enumerate(text.split("\n\n")):
        if n:
            lines.append("")
        lines.extend(textwrap.wrap(" ".join(paragraph.split()), width) or [""])
    return lines


def write_text_pdf(path: str | Path, pages: Sequence[str], title: str | None = None, password: str | None = None) -> Path:
    """Write a PDF with one page per text (lines past a page's room are cut); ``password`` encrypts it (AES-128).

    >>> import tempfile
    >>> from pypdf import PdfReader
    >>> pdf = write_text_pdf(Path(tempfile.mkdtemp()) / "a.pdf", ["Hello (PDF) world."], title="Hi")
    >>> reader = PdfReader(pdf); reader.metadata.title, reader.pages[0].extract_text()
    ('Hi', 'Hello (PDF) world.')
    """
    from pypdf import PdfWriter
    from pypdf.generic import ContentStream, DictionaryObject, NameObject

    writer = PdfWriter()
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica"),
                             NameObject("/Encoding"): NameObject("/WinAnsiEncoding")})
    for text in pages:
        page = writer.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        lines = page_lines(text)[:LINES_PER_PAGE]
        body = " T* ".join(f"({_escape(line)}) Tj" for line in lines)
        stream = ContentStream(None, None)
        stream.set_data(f"BT /F1 11 Tf 14 TL 72 720 Td {body} ET".encode("cp1252", errors="replace"))
        page.replace_contents(stream)
    if title:
        writer.add_metadata({"/Title": title})
    if password is not None:
        writer.encrypt(password, algorithm="AES-128")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        writer.write(handle)
    return path


def write_sample_folder(folder: str | Path, sections: int = 8) -> Path:
    """Write the first ``sections`` handbook sections as .md, .txt, .html and .pdf files (in turn) under ``folder``.

    >>> import tempfile
    >>> folder = write_sample_folder(tempfile.mkdtemp(), sections=4)
    >>> sorted(p.suffix for p in folder.iterdir())
    ['.html', '.md', '.pdf', '.txt']
    """
    from ragkit.domains.handbook.corpus import load_handbook

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for n, doc in enumerate(load_handbook()[:sections]):
        title, _, body = doc.page_content.partition("\n\n")
        name = f"{doc.metadata['id']}"
        kind = n % 4
        if kind == 0:
            (folder / f"{name}.md").write_text(f"# {doc.metadata['id']} {title}\n\n{body}\n", encoding="utf-8")
        elif kind == 1:
            (folder / f"{name}.txt").write_text(f"{title}\n\n{body}\n", encoding="utf-8")
        elif kind == 2:
            paragraphs = "".join(f"<pre>{html.escape(p.strip('`'))}</pre>\n" if p.startswith("```") else f"<p>{html.escape(p)}</p>\n"
                                 for p in body.split("\n\n"))
            (folder / f"{name}.html").write_text(f"<!doctype html><html><head><title>{html.escape(title)}</title></head>"
                                                 f"<body><h1>{html.escape(title)}</h1>\n{paragraphs}</body></html>\n", encoding="utf-8")
        else:
            write_text_pdf(folder / f"{name}.pdf", [f"{title}\n\n{body}"], title=title)
    return folder


__all__ = ["page_lines", "write_sample_folder", "write_text_pdf"]
