"""The Markdown teaching data: the web snapshot (front matter + body), the handbook and the statute (sections).

``web/*.md`` files open with a ``---`` front matter of ``key: value`` lines; ``handbook.md`` and
``statute.md`` are split at their level-2 headings (``## HB-01 Title``, ``## Article 1. Title``) by
:func:`markdown_sections`, one Document per section. Statute articles also record the articles they cite
(:func:`article_references`), so a graph can follow cross-references.

Simplifications: the parsers know exactly the two heading formats this project uses (they are not a
general Markdown parser; they only skip fenced code blocks), and the front matter is a flat
``key: value`` block, not full YAML.
"""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.documents import Document

from ragkit.data.files import DataError, locate, read_text, unique_ids


WEB_FIELDS = ("title", "url", "date", "topic")


def parse_front_matter(path: Path, text: str) -> tuple[dict[str, str], str]:
    """Split ``---`` / ``key: value`` lines / ``---`` from the body of a Markdown file.

    >>> parse_front_matter(Path("a.md"), "---\\ntitle: Hi\\n---\\nBody text.")
    ({'title': 'Hi'}, 'Body text.')
    """
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise DataError(f"{path}: line 1 should be '---', the start of the front matter (title, url, date, topic)")
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return meta, "\n".join(lines[number:]).strip()
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise DataError(f"{path}: line {number} of the front matter is not 'key: value': {line!r}")
        meta[key.strip().lower()] = value.strip().strip("\"'")
    raise DataError(f"{path}: the front matter that opens on line 1 is never closed with '---'")


def load_web_snapshot(path: str | Path | None = None) -> list[Document]:
    """One Document per article in ``web/*.md`` (sorted by file name); id is the file stem, source the url."""
    folder = locate(path, "web", "a folder of Markdown articles (*.md) with front matter", want_dir=True)
    files = sorted(folder.glob("*.md"))
    if not files:
        raise DataError(f"{folder}: no Markdown articles (*.md) found; the web snapshot is empty")
    docs = []
    for file in files:
        meta, body = parse_front_matter(file, read_text(file))
        for field in WEB_FIELDS:
            if not meta.get(field):
                raise DataError(f"{file}: the front matter is missing the required field {field!r}")
        if not body:
            raise DataError(f"{file}: the article has a front matter but no text")
        # Extra front-matter keys (author, ...) ride along; the fixed keys always win.
        fixed = {"source": meta["url"], "id": file.stem, "file": f"{folder.name}/{file.name}"}
        docs.append(Document(page_content=body, metadata={**meta, **fixed}))
    return unique_ids(folder, docs)


# ---------------------------------------------------------------- handbook and statute (Markdown sections)

_FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_sections(text: str) -> list[tuple[int, str, str, str | None]]:
    """Split Markdown at level-2 headings, skipping fenced code: ``(line, heading, body, last level-1 heading)``.

    >>> markdown_sections("# Act\\n# Part I. Basics\\n## Article 1. Scope\\n(1) Text.\\n")
    [(3, 'Article 1. Scope', '(1) Text.', 'Part I. Basics')]
    """
    sections: list[tuple[int, str, str, str | None]] = []
    level1: str | None = None
    current: tuple[int, str, str | None] | None = None
    body: list[str] = []
    fence: str | None = None

    def close() -> None:
        if current is not None:
            sections.append((current[0], current[1], "\n".join(body).strip(), current[2]))

    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        marker = _FENCE.match(line)
        if marker and (fence is None or marker.group(1) == fence):
            fence = marker.group(1) if fence is None else None
        elif fence is None and line.startswith("## "):
            close()
            current, body = (number, line[3:].strip(), level1), []
            continue
        elif fence is None and line.startswith("# "):
            level1 = line[2:].strip()
            continue
        body.append(line)
    close()
    return sections


_HB_HEADING = re.compile(r"^(HB-\d{2,})\s*[.:\-\u2013\u2014]?\s+(\S.*)$")


def load_handbook(path: str | Path | None = None) -> list[Document]:
    """One Document per ``## HB-NN Title`` section of ``handbook.md``; metadata adds has_code."""
    path = locate(path, "handbook.md", "Markdown with sections headed '## HB-01 Title'")
    sections = markdown_sections(read_text(path))
    if not sections:
        raise DataError(f"{path}: no sections found; each section starts with a line like '## HB-01 Title'")
    docs = []
    for line, heading, body, _ in sections:
        match = _HB_HEADING.match(heading)
        if not match:
            raise DataError(f"{path}: line {line}: heading {heading!r} should look like '## HB-01 Title'")
        if not body:
            raise DataError(f"{path}: line {line}: section {match.group(1)} has no text")
        section_id, title = match.group(1), match.group(2).strip()
        docs.append(Document(page_content=f"{title}\n\n{body}", metadata={
            "source": path.name, "id": section_id, "title": title,
            "has_code": any(_FENCE.match(row) for row in body.splitlines()), "line": line,
        }))
    return unique_ids(path, docs)


_ARTICLE_HEADING = re.compile(r"^Article\s+(\d+)\s*[.:\-\u2013\u2014]?\s+(\S.*)$")
_ARTICLE_REF = re.compile(r"\bArticles?\s+(\d+(?:\(\d+\))*(?:\s*(?:,|and|or|to)\s*\d+(?:\(\d+\))*)*)")


def article_references(text: str, exclude: int | None = None) -> list[int]:
    """Article numbers cited in ``text`` ("Article 12", "Article 12(3)", "Articles 4 and 6", "Articles 3 to 5").

    >>> article_references("See Article 12(3), Articles 4 and 6, and Articles 8 to 10 of this Act.", exclude=9)
    [4, 6, 8, 10, 12]
    """
    found: set[int] = set()
    for match in _ARTICLE_REF.finditer(text):
        listed = re.sub(r"\(\d+\)", "", match.group(1))
        for part in re.split(r"\s*(?:,|and|or)\s*", listed):
            bounds = [int(n) for n in re.findall(r"\d+", part)]
            if len(bounds) == 2 and bounds[0] < bounds[1] <= bounds[0] + 50:
                found.update(range(bounds[0], bounds[1] + 1))
            else:
                found.update(bounds)
    return sorted(found - {exclude})


def load_statute(path: str | Path | None = None) -> list[Document]:
    """One Document per ``## Article N. Title`` of ``statute.md``; metadata adds article, part, references."""
    path = locate(path, "statute.md", "Markdown with articles headed '## Article 1. Title'")
    sections = markdown_sections(read_text(path))
    if not sections:
        raise DataError(f"{path}: no articles found; each article starts with a line like '## Article 1. Title'")
    docs = []
    for line, heading, body, level1 in sections:
        match = _ARTICLE_HEADING.match(heading)
        if not match:
            raise DataError(f"{path}: line {line}: heading {heading!r} should look like '## Article 1. Title'")
        if not body:
            raise DataError(f"{path}: line {line}: Article {match.group(1)} has no text")
        number, title = int(match.group(1)), match.group(2).strip()
        part = level1 if level1 and level1.lower().startswith("part ") else None
        docs.append(Document(page_content=f"Article {number}. {title}\n\n{body}", metadata={
            "source": path.name, "id": f"art-{number}", "title": title, "article": number, "part": part,
            "references": article_references(body, exclude=number),
            "paragraphs": len(re.findall(r"^\(\d+\)", body, flags=re.MULTILINE)), "line": line,
        }))
    return unique_ids(path, docs)


__all__ = ["WEB_FIELDS", "article_references", "load_handbook", "load_statute", "load_web_snapshot", "markdown_sections", "parse_front_matter"]
