"""The statute: ``data/statute.md`` (the fictional Coastal Waters Act), one Document per ``## Article N. Title``.

Each article records the articles it cites (``metadata["references"]``, read by the one citation parser,
:func:`ragkit.domains.statute.citations.cited_articles`), so a graph can follow cross-references.
Simplification: the loader knows exactly this heading format.
"""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.documents import Document

from ragkit.core.contract import DataError
from ragkit.core.files import locate, markdown_sections, read_text, unique_ids
from ragkit.domains.statute.citations import cited_articles

_ARTICLE_HEADING = re.compile(r"^Article\s+(\d+)\s*[.:\-\u2013\u2014]?\s+(\S.*)$")


def load_statute(path: str | Path | None = None) -> list[Document]:
    """One Document per ``## Article N. Title`` of ``statute.md``; metadata adds article, part, references."""
    path = locate(path, "statute.md", "Markdown with articles headed '## Article 1. Title'")
    sections = [s for s in markdown_sections(read_text(path), depth=2) if s.level == 2]
    if not sections:
        raise DataError(f"{path}: no articles found; each article starts with a line like '## Article 1. Title'")
    docs = []
    for section in sections:
        line, body = section.line, section.body
        match = _ARTICLE_HEADING.match(section.heading)
        if not match:
            raise DataError(f"{path}: line {line}: heading {section.heading!r} should look like '## Article 1. Title'")
        if not body:
            raise DataError(f"{path}: line {line}: Article {match.group(1)} has no text")
        number, title = int(match.group(1)), match.group(2).strip()
        level1 = section.parents[0] if section.parents else None  # the "# Part ..." heading above it
        part = level1 if level1 and level1.lower().startswith("part ") else None
        docs.append(Document(page_content=f"Article {number}. {title}\n\n{body}", metadata={
            "source": path.name, "id": f"art-{number}", "title": title, "article": number, "part": part,
            "references": cited_articles(body, exclude=number),
            "paragraphs": len(re.findall(r"^\(\d+\)", body, flags=re.MULTILINE)), "line": line,
        }))
    return unique_ids(path, docs)


__all__ = ["load_statute"]
