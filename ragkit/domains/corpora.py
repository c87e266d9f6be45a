"""The bundled corpora by name: "menu", "wine", "web", "handbook" and "statute".

| name       | file                | one Document per | id        | loader |
|------------|---------------------|------------------|-----------|--------|
| "menu"     | ``menu.json``       | dish             | menu-01   | :func:`ragkit.domains.menu.corpus.load_menu` |
| "wine"     | ``wines.json``      | wine             | wine-01   | :func:`ragkit.domains.menu.corpus.load_wines` |
| "web"      | ``web/*.md``        | article          | file stem | :func:`ragkit.domains.web.corpus.load_web_snapshot` |
| "handbook" | ``handbook.md``     | ``## HB-01 ...`` | HB-01     | :func:`ragkit.domains.handbook.corpus.load_handbook` |
| "statute"  | ``statute.md``      | ``## Article N`` | art-N     | :func:`ragkit.domains.statute.corpus.load_statute` |

Every Document carries metadata ``source`` (where a citation should point), ``id`` and ``title``, plus
fields useful for filtering (price, allergens, grapes, date, part, references, ...). A loader either
returns every record of its file or raises: a missing file is a ``FileNotFoundError`` that says what was
expected, a file that cannot be parsed is a ``DataError`` naming the file and the entry or line.
This module is for scripts, benchmarks and notebooks; the graphs import the loader they need.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from langchain_core.documents import Document

from ragkit.core.hybrid import default_retriever
from ragkit.core.search import LazySearch, ScoredSearch
from ragkit.defaults import GRAPHS
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.web.corpus import OfflineWebSearch, load_web_snapshot

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


def corpus_search(name: str, k: int = GRAPHS.k) -> ScoredSearch:
    """The default search over a bundled corpus by name (built on its first search); "web" is the offline web search.

    >>> corpus_search("menu")  # nothing is loaded yet
    LazySearch('menu', built=False)
    """
    key = {"wines": "wine", "menus": "menu"}.get(str(name).strip().lower(), str(name).strip().lower())
    if key == "web":
        return OfflineWebSearch()
    if key not in LOADERS:
        raise ValueError(f"unknown corpus {name!r}; the bundled corpora are {sorted(LOADERS)}")
    return LazySearch(lambda: default_retriever(LOADERS[key](), k=k), k, name=key)


__all__ = ["LOADERS", "corpus_search", "load_corpus"]
