"""The roles that read a menu question's structure, for any RAG graph over the menu or the wine list.

``build_crag_graph(menu_search(), **menu_roles())`` (or ``judge=False`` for Self-RAG, which has no judge):
the writer is a :class:`ragkit.offline.structured_answers.StructuredWriter` around ``LocalWriter`` and the
judge a ``LocalJudge``, both with one query analyser over every dish and wine
(:func:`ragkit.domains.menu.vocabulary.menu_query_analyzer`), so a list, a winner, a yes/no or a
comparison is decided in code and an excluded item is never named. Adaptive RAG needs none of this: its
menu and wine routes search with a structured retriever already.
"""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings

from ragkit.domains.menu.vocabulary import menu_query_analyzer
from ragkit.offline.judge import LocalJudge
from ragkit.offline.structured_answers import StructuredWriter
from ragkit.offline.writing import LocalWriter
from ragkit.roles.structured_query import QueryAnalyzer


def menu_roles(*, judge: bool = True, query_analyzer: QueryAnalyzer | None = None,
               embedder: Embeddings | None = None) -> dict[str, Any]:
    """``writer`` (and ``judge`` unless ``judge=False``) that read the question's structure with ``query_analyzer``
    (default: the menu's, over every dish and wine)."""
    analyzer = query_analyzer if query_analyzer is not None else menu_query_analyzer(embedder=embedder)
    roles: dict[str, Any] = {"writer": StructuredWriter(LocalWriter(embedder), analyzer)}
    if judge:
        roles["judge"] = LocalJudge(query_analyzer=analyzer)
    return roles


__all__ = ["menu_roles"]
