"""Loaders for the workbook's teaching data: plain files in ``data/`` turned into LangChain Documents.

Five corpora, each small enough to read in an editor and change by hand:

| name       | file                | one Document per | id        |
|------------|---------------------|------------------|-----------|
| "menu"     | ``menu.json``       | dish             | menu-01   |
| "wine"     | ``wines.json``      | wine             | wine-01   |
| "web"      | ``web/*.md``        | article          | file stem |
| "handbook" | ``handbook.md``     | ``## HB-01 ...`` | HB-01     |
| "statute"  | ``statute.md``      | ``## Article N`` | art-N     |

Every Document carries metadata ``source`` (where a citation should point), ``id`` and ``title``, plus
fields useful for filtering (price, allergens, grapes, date, part, references, ...). A loader either
returns every record of its file or raises: a missing file is a ``FileNotFoundError`` that says what was
expected, a file that cannot be parsed is a ``DataError`` naming the file and the entry or line.

The loaders live in three modules: :mod:`ragkit.data.files` (``data_dir``, ``DataError`` and the
checks every loader shares), :mod:`ragkit.data.json_loaders` (menu, wines, the routing set) and
:mod:`ragkit.data.markdown_loaders` (web snapshot, handbook, statute); this package re-exports them all
and adds :func:`load_corpus`, which loads a corpus by name.

Simplifications: the Markdown parsers know exactly the two heading formats this project uses (they are
not a general Markdown parser; they only skip fenced code blocks), and the web front matter is a flat
``key: value`` block, not full YAML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from langchain_core.documents import Document

from ragkit.data.files import DataError, data_dir
from ragkit.data.json_loaders import COURSES, ROUTES, load_menu, load_routing_questions, load_wines, menu_text, wine_text
from ragkit.data.markdown_loaders import (
    WEB_FIELDS,
    article_references,
    load_handbook,
    load_statute,
    load_web_snapshot,
    markdown_sections,
    parse_front_matter,
)

LOADERS: dict[str, Callable[..., list[Document]]] = {
    "menu": load_menu, "wine": load_wines, "web": load_web_snapshot,
    "handbook": load_handbook, "statute": load_statute,
}


def load_corpus(name: str, path: str | Path | None = None) -> list[Document]:
    """Load a corpus by name: "menu", "wine", "web", "handbook" or "statute".

    >>> len(load_corpus("menu")) == len(load_menu())
    True
    """
    key = str(name).strip().lower()
    key = {"wines": "wine", "menus": "menu"}.get(key, key)
    if key not in LOADERS:
        raise ValueError(f"unknown corpus {name!r}; choose one of {sorted(LOADERS)}")
    return LOADERS[key](path)


__all__ = [
    "COURSES",
    "LOADERS",
    "ROUTES",
    "WEB_FIELDS",
    "DataError",
    "article_references",
    "data_dir",
    "load_corpus",
    "load_handbook",
    "load_menu",
    "load_routing_questions",
    "load_statute",
    "load_web_snapshot",
    "load_wines",
    "markdown_sections",
    "menu_text",
    "parse_front_matter",
    "wine_text",
]
