"""Search sources for the graphs: any retriever, web search or function turned into ``query -> documents``.

A graph node should not care whether it searches a LangChain retriever (``.invoke``), ragkit's offline
web search (``.search_documents(query, k)``) or a plain function: :func:`as_search` gives all three one
shape. :class:`LazySearch` defers building a default source until the first search, so compiling a graph
(or drawing it) loads no corpus and no embedding model. :func:`default_retriever` is the hybrid retriever
the adaptive RAG and Self-RAG graphs use when you pass none.

Simplifications: a source is built once and never refreshed; edit a data file and you need a new graph.
"""

from __future__ import annotations

from typing import Any, Callable

from langchain_core.documents import Document

SearchFn = Callable[[str], list[Document]]


def as_search(source: Any, k: int = 4) -> SearchFn:
    """Turn a retriever (``.invoke``), a web search (``.search_documents``) or a function into ``query -> docs``.

    >>> search = as_search(lambda q: [Document(q.upper())])
    >>> search("hi")[0].page_content
    'HI'
    """
    if hasattr(source, "search_documents"):
        return lambda query: list(source.search_documents(query, k))
    if hasattr(source, "invoke"):
        return lambda query: list(source.invoke(query))
    if callable(source):
        return lambda query: list(source(query))
    raise TypeError(f"a search source needs .invoke, .search_documents or to be callable; got {type(source).__name__}")


class LazySearch:
    """A search built on first use, so building the graph loads no corpus and no embedder."""

    def __init__(self, factory: Callable[[], Any], k: int = 4) -> None:
        self._factory, self._k, self._search = factory, k, None

    def __call__(self, query: str) -> list[Document]:
        if self._search is None:
            self._search = as_search(self._factory(), self._k)
        return self._search(query)


def default_retriever(corpus: str, k: int = 4) -> Any:
    """ragkit's hybrid retriever (BM25 + MiniLM dense, fused with RRF) over one bundled corpus, e.g. "menu"."""
    from ragkit.data import load_corpus
    from ragkit.retrieval import BM25Retriever, DenseRetriever, HybridRetriever

    docs = load_corpus(corpus)
    return HybridRetriever(retrievers=[BM25Retriever.from_documents(docs, k=k), DenseRetriever.from_documents(docs, k=k)], k=k)


def default_web_search() -> Any:
    """The offline web search over the bundled snapshot of local news pages."""
    from ragkit.web_search import OfflineWebSearch

    return OfflineWebSearch()


__all__ = ["LazySearch", "SearchFn", "as_search", "default_retriever", "default_web_search"]
