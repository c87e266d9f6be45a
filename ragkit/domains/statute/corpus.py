"""The statute: ``data/statute.md`` (the fictional Coastal Waters Act), one Document per ``## Article N. Title``.

Each article records the articles it cites (:func:`article_references`), so a graph can follow
cross-references. Simplification: the parser knows exactly this heading format.
"""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.documents import Document

from ragkit.core.files import DataError, locate, markdown_sections, read_text, unique_ids

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


__all__ = ["article_references", "load_statute"]
