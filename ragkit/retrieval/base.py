"""The one retrieval protocol of ragkit: scored search, ``search_with_scores(query, k)``, higher is better.

LangChain's ``BaseRetriever.invoke(query)`` returns documents only. Fusion, reranking and the graphs also
need each document's score, so everything that searches in ragkit speaks one protocol,
:class:`ScoredSearch`: ``search_with_scores(query, k) -> list[(Document, score)]``, best first, where a
higher score is always better. Every ragkit retriever subclasses :class:`ScoredRetriever`, which adds
LangChain's ``invoke`` on top (``retriever.invoke(query, k=2)`` works too); the returned documents are
copies carrying their score in ``metadata["score"]``. Anything else (a LangChain ``VectorStore``, its
``as_retriever()``, any ``BaseRetriever``, a plain function) becomes a ``ScoredSearch`` through the one
adapter, :func:`ragkit.retrieval.adapters.as_scored_search`.

Simplification: documents are identified by ``metadata["id"]`` (falling back to ``Document.id`` and then
to the text itself), so two different documents with the same id count as one in fusion and reranking.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from ragkit.text import clean_query

Scored = list[tuple[Document, float]]


def doc_key(doc: Document) -> str:
    """The identity of a document: ``metadata["id"]``, else ``Document.id``, else its text.

    >>> doc_key(Document("some text", metadata={"id": "d1#0"}))
    'd1#0'
    >>> doc_key(Document("no id here"))
    'no id here'
    """
    key = doc.metadata.get("id") or doc.id
    return str(key) if key is not None else doc.page_content


def with_score(doc: Document, score: float, field: str = "score") -> Document:
    """A copy of ``doc`` with ``metadata[field] = score`` (the stored document is never mutated).

    >>> with_score(Document("x", metadata={"id": "a"}), 0.5).metadata
    {'id': 'a', 'score': 0.5}
    """
    return Document(page_content=doc.page_content, metadata={**doc.metadata, field: float(score)}, id=doc.id)


def check_corpus(docs: Sequence[Document], who: str) -> list[Document]:
    """Return ``docs`` as a list, or raise a clear ValueError when there is nothing to index."""
    docs = list(docs)
    if not docs:
        raise ValueError(f"{who} needs at least one document: the corpus (documents list) is empty")
    for i, doc in enumerate(docs):
        if not isinstance(doc, Document):
            raise TypeError(f"{who}: item {i} of the corpus is a {type(doc).__name__}, not a langchain Document")
    return docs


def check_k(k: int, what: str = "k") -> int:
    """Return ``k`` if it is a positive int, else raise a ValueError naming it."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"{what} must be a positive integer, got {k!r}")
    return k


@runtime_checkable
class ScoredSearch(Protocol):
    """The retrieval protocol every graph, fusion and reranker accepts: scored search, best first.

    Scores only need to be comparable within one result list (higher is better); fusion rescales them.
    """

    def search_with_scores(self, query: str, k: int | None = None) -> Scored: ...


class ScoredRetriever(BaseRetriever):
    """Base class: subclasses implement ``search_with_scores``; ``invoke(query, k=...)`` returns the top ``k``."""

    k: int = 4

    @abstractmethod
    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        """The top ``k`` (default ``self.k``) documents for ``query`` with scores, best first."""

    def _prepare(self, query: str, k: int | None) -> tuple[str, int]:
        """Validate the query and k (shared by every subclass)."""
        return clean_query(query), check_k(self.k if k is None else k)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, k: int | None = None
    ) -> list[Document]:
        return [with_score(doc, score) for doc, score in self.search_with_scores(query, self.k if k is None else k)]
