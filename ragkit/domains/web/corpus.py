"""The offline web snapshot: articles in ``data/web/*.md`` (front matter + body), one Document each.

Each file opens with a ``---`` front matter of ``key: value`` lines (title, url, date, topic); the body
follows. Simplification: the front matter is a flat ``key: value`` block, not full YAML.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.documents import Document

from ragkit.core.files import DataError, locate, read_text, unique_ids

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


__all__ = ["WEB_FIELDS", "load_web_snapshot", "parse_front_matter"]
