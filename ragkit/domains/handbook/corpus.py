"""The handbook: ``data/handbook.md``, one Document per ``## HB-NN Title`` section.

Simplification: the parser knows exactly this heading format (see :func:`ragkit.core.files.markdown_sections`).
"""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.documents import Document

from ragkit.core.contract import DataError
from ragkit.core.files import locate, markdown_sections, read_text, unique_ids
from ragkit.core.hybrid import default_retriever
from ragkit.core.nlp import FENCE
from ragkit.core.search import LazySearch
from ragkit.defaults import GRAPHS

_HB_HEADING = re.compile(r"^(HB-\d{2,})\s*[.:\-\u2013\u2014]?\s+(\S.*)$")


def load_handbook(path: str | Path | None = None) -> list[Document]:
    """One Document per ``## HB-NN Title`` section of ``handbook.md``; metadata adds has_code."""
    path = locate(path, "handbook.md", "Markdown with sections headed '## HB-01 Title'")
    sections = [s for s in markdown_sections(read_text(path), depth=2) if s.level == 2]
    if not sections:
        raise DataError(f"{path}: no sections found; each section starts with a line like '## HB-01 Title'")
    docs = []
    for section in sections:
        line, body = section.line, section.body
        match = _HB_HEADING.match(section.heading)
        if not match:
            raise DataError(f"{path}: line {line}: heading {section.heading!r} should look like '## HB-01 Title'")
        if not body:
            raise DataError(f"{path}: line {line}: section {match.group(1)} has no text")
        section_id, title = match.group(1), match.group(2).strip()
        docs.append(Document(page_content=f"{title}\n\n{body}", metadata={
            "source": path.name, "id": section_id, "title": title,
            "has_code": any(FENCE.match(row) for row in body.splitlines()), "line": line,
        }))
    return unique_ids(path, docs)


def handbook_search(k: int = GRAPHS.k) -> LazySearch:
    """The default retriever over the handbook (hybrid BM25 + dense), built on its first search."""
    return LazySearch(lambda: default_retriever(load_handbook(), k=k), k, name="handbook")


__all__ = ["handbook_search", "load_handbook"]
