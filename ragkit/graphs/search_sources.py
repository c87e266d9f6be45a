"""Search sources for the graphs: what a graph searches, in ragkit's one retrieval protocol.

Every graph searches through :class:`ragkit.core.search.ScoredSearch` (``search_with_scores(query,
k)``, higher is better). :func:`source` turns what a user passes into one: a ragkit retriever, a LangChain
``VectorStore`` or retriever, a function, or the *name* of a bundled corpus ("menu", "wine", "web",
"handbook", "statute"), which becomes that corpus's default retriever, or ``"collection:NAME"``, a
collection you ingested (:func:`ragkit.ingest.load_collection`). Named corpora and collections are built
lazily (:class:`LazySearch`), so compiling a graph (or drawing it) loads no corpus and no embedding model.

Simplifications: a source is built once and never refreshed; edit a data file and you need a new graph.
"""

from __future__ import annotations

from typing import Any, Callable

from ragkit.core.search import Scored, ScoredSearch, as_scored_search
from ragkit.defaults import GRAPHS

CORPORA = ("menu", "wine", "web", "handbook", "statute")
COLLECTION_PREFIX = "collection:"


class LazySearch:
    """A search built on first use, so building the graph loads no corpus and no embedder.

    >>> from langchain_core.documents import Document
    >>> calls = []
    >>> lazy = LazySearch(lambda: calls.append(1) or (lambda q: [Document(q)]))
    >>> calls  # nothing built yet
    []
    >>> [d.page_content for d, _ in lazy.search_with_scores("hi", 1)], calls
    (['hi'], [1])
    """

    def __init__(self, factory: Callable[[], Any], k: int = GRAPHS.k, name: str = "search") -> None:
        self._factory, self._k, self._search, self.name = factory, k, None, name

    def resolve(self) -> ScoredSearch:
        """Build the source now (if it was not built yet) and return it."""
        if self._search is None:
            self._search = as_scored_search(self._factory(), self._k)
        return self._search

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        return self.resolve().search_with_scores(query, self._k if k is None else k)

    def __repr__(self) -> str:
        return f"LazySearch({self.name!r}, built={self._search is not None})"


def corpus_search(corpus: str, k: int = GRAPHS.k) -> LazySearch:
    """The default retriever over a bundled corpus (built on first search); "web" is the offline web search."""
    if corpus not in CORPORA:
        raise ValueError(f"unknown corpus {corpus!r}; the bundled corpora are {list(CORPORA)}, "
                         f"or name an ingested collection as '{COLLECTION_PREFIX}NAME'")
    if corpus == "web":
        from ragkit.domains.web.search import OfflineWebSearch

        return LazySearch(OfflineWebSearch, k, name=corpus)

    def build() -> Any:
        from ragkit.core.hybrid import default_retriever
        from ragkit.domains.corpora import load_corpus

        return default_retriever(load_corpus(corpus), k=k)

    return LazySearch(build, k, name=corpus)


def collection_search(name: str, k: int = GRAPHS.k) -> LazySearch:
    """An ingested collection (``ragkit ingest PATH --collection NAME``), opened on first search.

    >>> collection_search("notes")  # nothing is opened yet
    LazySearch('collection:notes', built=False)
    """
    from ragkit.ingest.store import check_name

    check_name(name)  # a bad name fails when the graph is built, not at its first question

    def build() -> Any:
        from ragkit.ingest import load_collection

        return load_collection(name, k=k)

    return LazySearch(build, k, name=f"{COLLECTION_PREFIX}{name}")


def source(value: Any, k: int = GRAPHS.k) -> ScoredSearch:
    """What a graph searches: a corpus name becomes its default retriever, ``"collection:NAME"`` an ingested
    collection; anything else goes through the adapter."""
    if isinstance(value, str):
        if value.startswith(COLLECTION_PREFIX):
            return collection_search(value[len(COLLECTION_PREFIX):], k)
        return corpus_search(value, k)
    return as_scored_search(value, k)


__all__ = ["COLLECTION_PREFIX", "CORPORA", "LazySearch", "collection_search", "corpus_search", "source"]
