"""The three retrieval strategies a statute question can be routed to: vector, hybrid and graph.

All three rank the statute's articles and speak ragkit's one retrieval protocol
(``search_with_scores(query, k)``):

- ``vector``: dense retrieval, all-MiniLM-L6-v2 over whole articles (:func:`ragkit.core.hybrid.dense_retriever`);
- ``hybrid``: BM25 + dense fused with the settings tuned on SciFact train (:func:`ragkit.core.hybrid.default_retriever`);
- ``graph``: hybrid seeds spread along the article graph by personalized PageRank
  (:func:`ragkit.domains.statute.article_graph.statute_graph_retriever`, with :data:`STATUTE_GRAPH_DEFAULTS`,
  chosen on the statute QA dev split).

:func:`strategy_searches` builds them lazily (:class:`ragkit.core.search.LazySearch`), so
compiling a graph or drawing it embeds nothing; the three share one embedder and one hybrid retriever.

Simplification: articles are ranked whole; a long article with one relevant paragraph competes on its
average meaning (dense) and its term counts (BM25), not on its best paragraph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.search import LazySearch
from ragkit.defaults import STATUTE_QA

STRATEGIES: tuple[str, ...] = ("vector", "hybrid", "graph")


class StrategySet:
    """The three strategies over one statute, built on first use and then shared.

    >>> from ragkit.domains.statute.corpus import load_statute
    >>> s = StrategySet(load_statute())
    >>> s.built  # nothing embedded yet
    []
    """

    def __init__(self, docs: Sequence[Document], embeddings: Embeddings | None = None, k: int = STATUTE_QA.k,
                 graph_settings: dict[str, Any] | None = None):
        self.docs, self.k, self.graph_settings = list(docs), k, dict(graph_settings or {})
        self._embeddings = embeddings
        self._built: dict[str, Any] = {}

    @property
    def built(self) -> list[str]:
        return sorted(self._built)

    @property
    def embeddings(self) -> Embeddings:
        if self._embeddings is None:
            from ragkit.core.embeddings import load_embedder

            self._embeddings = load_embedder()
        return self._embeddings

    def get(self, name: str) -> Any:
        """The retriever of one strategy (``vector``, ``hybrid`` or ``graph``)."""
        if name not in STRATEGIES:
            raise KeyError(f"unknown strategy {name!r}; the strategies are {list(STRATEGIES)}")
        if name not in self._built:
            from ragkit.core.hybrid import default_retriever, dense_retriever
            from ragkit.domains.statute.article_graph import statute_graph_retriever

            if name == "vector":
                self._built[name] = dense_retriever(self.docs, k=self.k, embeddings=self.embeddings)
            elif name == "hybrid":
                self._built[name] = default_retriever(self.docs, k=self.k, embeddings=self.embeddings)
            else:
                self._built[name] = statute_graph_retriever(self.docs, base=self.get("hybrid"), **self.graph_settings)
        return self._built[name]


def strategy_searches(docs: Sequence[Document], embeddings: Embeddings | None = None, k: int = STATUTE_QA.k,
                      graph_settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{strategy name: lazy search}`` over the statute's articles (see the module docstring)."""
    shared = StrategySet(docs, embeddings, k, graph_settings)
    return {name: LazySearch(lambda name=name: shared.get(name), k, name=name) for name in STRATEGIES}


__all__ = ["STRATEGIES", "StrategySet", "strategy_searches"]
