"""Turn one file (Markdown, plain text, HTML, PDF) into text parts with ``title``, ``heading`` or ``page``.

A reader returns a :class:`ReadResult`: the file's title and its *parts*, each a piece of text with its
own metadata: a Markdown or HTML section (``heading``: the path of headings above it, "Setup > Linux"),
a PDF page (``page``, counting from 1), or the whole of a plain text file. The ingest pipeline then cuts
each part into chunks, so a chunk never straddles two sections or two pages and can cite where it is.

A file that cannot be used raises :class:`ReadError` with a reason a person can act on ("encrypted PDF:
it needs a password", "binary content (NUL bytes)", "not UTF-8 or Windows-1252 text"); the pipeline
records it against the file's name and carries on with the rest of the folder.

- Markdown: split at ATX headings (``#`` to ``######``) outside fenced code
  (:func:`ragkit.core.files.markdown_sections`); a ``---`` front matter
  block is dropped (its ``title:`` is used as the title).
- HTML: parsed by BeautifulSoup with the standard library's ``html.parser`` (no C parser needed);
  ``script``/``style``/``template``/``noscript`` are dropped; block elements become line breaks.
- PDF: ``pypdf`` extracts each page's text; an encrypted PDF that opens with the empty password is
  read, any other is refused.

Simplifications: no OCR, so a scanned PDF (images only) is refused as having no text; PDF text comes
out in pypdf's reading order, which can scramble multi-column layouts and tables; setext headings
(underlined with ``===``) and HTML tables are read as plain lines; text files must be UTF-8,
Windows-1252, or UTF-16/UTF-32 with a byte-order mark (as Windows Notepad saves "Unicode").
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ragkit.core.files import markdown_sections

READER_VERSION = 3  # bump when a reader's output changes, so re-ingest re-reads every file


class ReadError(ValueError):
    """A file that cannot be ingested; the message says why (the pipeline adds the file's name)."""


@dataclass(frozen=True)
class Part:
    """One section or page of a file: its text and the metadata that locates it (``heading``, ``page``)."""

    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReadResult:
    """What a reader found in one file: its kind ("markdown", "text", "html", "pdf"), title and parts."""

    kind: str
    title: str
    parts: list[Part]
    pages: int = 0  # PDF pages in the file (0 for other kinds)


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),  # UTF-32 LE starts like UTF-16 LE
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def decode_text(data: bytes) -> str:
    """Bytes of a text file as ``str``: UTF-16/32 with a BOM, UTF-8 (BOM allowed), else Windows-1252; not binary.

    >>> decode_text("café".encode("utf-8")), decode_text("café".encode("cp1252")), decode_text("café".encode("utf-16"))
    ('café', 'café', 'café')
    >>> decode_text(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00")
    Traceback (most recent call last):
    ...
    ragkit.ingest.readers.ReadError: binary content (NUL bytes), not text
    """
    codec = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    if codec is not None:  # its ASCII letters have NUL bytes, so it must be decoded before the binary check
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as err:
            raise ReadError(f"not valid {codec.upper()} text (byte {err.start}); save it as UTF-8") from err
        if _CONTROL.search(text):
            raise ReadError("binary content (control characters), not text")
        return text
    if b"\x00" in data[:65536]:
        raise ReadError("binary content (NUL bytes), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as err:
        raise ReadError(f"not UTF-8 or Windows-1252 text (byte {err.start}); save it as UTF-8") from err
    if _CONTROL.search(text):
        raise ReadError("binary content (control characters), not text")
    return text


def tidy_lines(text: str) -> str:
    """Strip trailing spaces and collapse runs of blank lines to one.

    >>> tidy_lines("a  \\n\\n\\n\\nb\\n")
    'a\\n\\nb'
    """
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# ------------------------------------------------------------------------------------------ Markdown

def front_matter(text: str) -> tuple[dict[str, str], str]:
    """Split a leading ``---`` block of ``key: value`` lines from the body (no block: empty dict).

    >>> front_matter("---\\ntitle: Notes\\n---\\nBody")
    ({'title': 'Notes'}, 'Body')
    """
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            meta = {}
            for line in lines[1:end]:
                key, sep, value = line.partition(":")
                if sep and key.strip():
                    meta[key.strip().lower()] = value.strip().strip("\"'")
            return meta, "\n".join(lines[end + 1:])
    return {}, text


def heading_parts(sections: list[tuple[int, str, str, str]]) -> list[Part]:
    """Parts from ``(level, heading, heading path, text)`` sections, in order, losing no heading's words.

    A section's text starts with its heading line. A heading with no text under it makes no part of its
    own: if the sections after it lie under it, it is in their heading path already; if not (a sibling or
    a higher heading follows), its line goes in front of the next part's text; headings with nothing at
    all after them (a file of headings only, like release notes) make one last part.

    >>> parts = heading_parts([(1, "Notes", "Notes", ""), (2, "1.2: dark mode", "Notes > 1.2: dark mode", ""),
    ...                        (2, "1.1: login fix", "Notes > 1.1: login fix", "")])
    >>> [(p.metadata["heading"], p.text) for p in parts]
    [('Notes', 'Notes\\n1.2: dark mode\\n1.1: login fix')]
    """
    parts: list[Part] = []
    waiting: list[tuple[int, str, str]] = []  # headings with no text under them yet
    for level, heading, path, text in sections:
        if not text:
            if heading:
                waiting.append((level, heading, path))
            continue
        # a waiting heading is left out of the text only when every heading after it, to this one, lies under it
        levels = [lv for lv, _, _ in waiting] + [level]
        lines = [h for n, (lv, h, _) in enumerate(waiting) if lv >= min(levels[n + 1:])]
        head = "\n".join([*lines, heading] if heading else lines)
        parts.append(Part(f"{head}\n\n{text}" if head else text, {"heading": path} if path else {}))
        waiting = []
    if waiting:
        parts.append(Part("\n".join(h for _, h, _ in waiting), {"heading": waiting[0][2]}))
    return parts


def markdown_parts(text: str) -> tuple[str | None, list[Part]]:
    """Sections of Markdown at ATX headings (fenced code is not split): ``(first h1, parts)``.

    Each part's text starts with its heading line (without the ``#`` marks), so the heading's words
    are searchable; ``metadata["heading"]`` is the path of headings above and including it. The split
    is :func:`ragkit.core.files.markdown_sections`.

    >>> h1, parts = markdown_parts("# Guide\\nIntro.\\n## Install\\nRun it.\\n```\\n# not a heading\\n```")
    >>> h1, [(p.metadata["heading"], p.text) for p in parts]
    ('Guide', [('Guide', 'Guide\\n\\nIntro.'), ('Guide > Install', 'Install\\n\\nRun it.\\n```\\n# not a heading\\n```')])
    """
    sections = markdown_sections(text)
    parts = heading_parts([(s.level, s.heading, " > ".join((*s.parents, s.heading)) if s.level else "",
                            tidy_lines(s.body)) for s in sections])
    return next((s.heading for s in sections if s.level == 1), None), parts


def read_markdown(path: Path, data: bytes) -> ReadResult:
    meta, body = front_matter(tidy_lines(decode_text(data)))
    h1, parts = markdown_parts(body)
    return ReadResult("markdown", meta.get("title") or h1 or path.stem, parts)


def read_text_file(path: Path, data: bytes) -> ReadResult:
    text = tidy_lines(decode_text(data))
    return ReadResult("text", path.stem, [Part(text)] if text else [])


# ------------------------------------------------------------------------------------------ HTML

_BLOCKS = ("p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "li", "ul", "ol",
           "dl", "dt", "dd", "tr", "table", "blockquote", "pre", "figure", "figcaption", "form", "hr",
           "address", "details", "summary")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_MARK = "\ue000"  # private-use characters: where a heading starts, and <pre> line breaks and spaces
_PRE_LINE, _PRE_SPACE = "\ue001", "\ue002"


def html_parts(html: str) -> tuple[str | None, list[Part]]:
    """Title and heading sections of an HTML page, parsed by BeautifulSoup (``html.parser``).

    >>> title, parts = html_parts("<title>Shop</title><script>x=1</script><h1>Hours</h1><p>Open <b>daily</b>.</p>")
    >>> title, [(p.metadata["heading"], p.text) for p in parts]
    ('Shop', [('Hours', 'Hours\\n\\nOpen daily.')])
    """
    from bs4 import BeautifulSoup, Comment, Doctype

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(["script", "style", "template", "noscript", "meta", "link", "base"]):
        tag.decompose()
    title = soup.title.get_text(" ", strip=True) if soup.title else None
    if soup.title:
        soup.title.decompose()
    for node in soup.find_all(string=True):
        if isinstance(node, (Comment, Doctype)):
            node.extract()
        elif node.find_parent("pre") is None:
            node.replace_with(re.sub(r"\s+", " ", str(node)))
        else:  # keep a <pre> block's layout through the line stripping below
            node.replace_with(str(node).replace("\n", _PRE_LINE).replace(" ", _PRE_SPACE))
    for br in soup.find_all("br"):
        br.replace_with("\n")
    for tag in soup.find_all(_HEADINGS):
        level = int(tag.name[1])
        text = " ".join(tag.get_text(" ").split())
        tag.replace_with(f"\n{_MARK}{level}{_MARK}{text}\n")
    for tag in soup.find_all(_BLOCKS):
        tag.insert_before("\n\n")
        tag.insert_after("\n\n")
    flat = soup.get_text()  # the whole page: a browser shows text outside <body> (after </head>, after </body>) too
    lines = "\n".join(line.strip() for line in flat.split("\n")).replace(_PRE_LINE, "\n").replace(_PRE_SPACE, " ")
    pieces = lines.split(f"\n{_MARK}")
    sections = [(0, "", "", tidy_lines(pieces[0].replace(_MARK, "")))]
    stack: list[tuple[int, str]] = []
    first_h1: str | None = None
    for piece in pieces[1:]:
        level_text, _, rest = piece.partition(_MARK)
        heading, _, body = rest.partition("\n")
        level = int(level_text) if level_text.isdigit() else 6
        heading = heading.strip()
        body = tidy_lines(body)
        if heading:
            stack = [(lv, h) for lv, h in stack if lv < level] + [(level, heading)]
            if level == 1 and first_h1 is None:
                first_h1 = heading
        sections.append((level, heading, " > ".join(h for _, h in stack), body))
    return title or first_h1, heading_parts(sections)


def read_html(path: Path, data: bytes) -> ReadResult:
    title, parts = html_parts(decode_text(data))
    return ReadResult("html", title or path.stem, parts)


# ------------------------------------------------------------------------------------------ PDF

def read_pdf(path: Path, data: bytes) -> ReadResult:
    """One part per PDF page that has text (``page`` counts from 1); refuses encrypted and scanned PDFs."""
    import io
    import logging

    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # malformed-but-readable files warn per object
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise ReadError("not a PDF (the file does not start with %PDF)")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ReadError("encrypted PDF: it needs a password (save an unencrypted copy to ingest it)")
        title = (reader.metadata.title if reader.metadata else None) or path.stem
        texts = [page.extract_text() or "" for page in reader.pages]
    except ReadError:
        raise
    except Exception as err:  # pypdf raises many kinds on damaged files; every one means "unreadable"
        raise ReadError(f"unreadable PDF ({type(err).__name__}: {err})") from err
    parts = [Part(tidy_lines(t), {"page": n}) for n, t in enumerate(texts, start=1) if tidy_lines(t)]
    if not parts:
        raise ReadError(f"no extractable text in {len(texts)} page(s): a scanned PDF needs OCR first")
    return ReadResult("pdf", str(title).strip() or path.stem, parts, pages=len(texts))


Reader = Callable[[Path, bytes], ReadResult]
READERS: dict[str, Reader] = {
    ".md": read_markdown, ".markdown": read_markdown, ".txt": read_text_file, ".text": read_text_file,
    ".html": read_html, ".htm": read_html, ".pdf": read_pdf,
}


def reader_for(path: Path) -> Reader | None:
    """The reader for a file's suffix (case-insensitive), or ``None`` for a type ragkit does not read."""
    return READERS.get(path.suffix.lower())


def read_file(path: Path, data: bytes | None = None) -> ReadResult:
    """Read one file with the reader for its suffix; ``ReadError`` says why a file cannot be used."""
    reader = reader_for(path)
    if reader is None:
        raise ReadError(f"unsupported file type {path.suffix or '(no suffix)'!r}; ragkit reads {', '.join(sorted(READERS))}")
    if data is None:
        data = path.read_bytes()
    result = reader(path, data)
    if not result.parts:
        raise ReadError("no text in the file")
    return result


__all__ = ["READERS", "READER_VERSION", "Part", "ReadError", "ReadResult", "decode_text", "front_matter",
           "heading_parts", "html_parts", "markdown_parts", "read_file", "reader_for", "tidy_lines"]
