"""The one retrieval protocol of ragkit: scored search, ``search_with_scores(query, k)``, best first, higher is better.

LangChain's ``BaseRetriever.invoke`` returns documents only; fusion, reranking and the graphs also need
scores. Every ragkit retriever subclasses :class:`ScoredRetriever`; anything else that searches becomes a
:class:`ScoredSearch` through the one adapter, :func:`as_scored_search`; a graph searches through
:func:`run_search`.

What it cannot do: documents are identified by ``metadata["id"]`` (then ``Document.id``, then the text),
so two documents with the same id count as one; a source that returns no scores (a retriever, a function,
MMR, a store without a relevance function) gets rank scores, ``1 - i / n``, so fusion sees its order, not
its margins; a retriever that does not take ``k`` in ``invoke`` is cut to ``k`` and cannot give more.
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import VectorStore, VectorStoreRetriever
from pydantic import ConfigDict, Field

from ragkit.core.contract import SETUP_ERRORS, check_positive
from ragkit.core.nlp import clean_query
from ragkit.defaults import GRAPHS

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
    """Return ``k`` if it is a positive int, else raise a ValueError naming it (:func:`check_positive`)."""
    check_positive(**{what: k})
    return k


@runtime_checkable
class ScoredSearch(Protocol):
    """The retrieval protocol every graph, fusion and reranker accepts: scored search, best first (scores need only
    be comparable within one result list; fusion rescales them)."""

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


# ---------------------------------------------------------------------- adapters
def rank_scores(docs: Sequence[Document]) -> Scored:
    """Give documents that came without scores a score from their rank: ``1 - i / n`` (best first).

    >>> [s for _, s in rank_scores([Document("a"), Document("b"), Document("c"), Document("d")])]
    [1.0, 0.75, 0.5, 0.25]
    """
    n = len(docs)
    return [(doc, 1.0 - i / n) for i, doc in enumerate(docs)]


class VectorStoreSearch(ScoredRetriever):
    """Any LangChain ``VectorStore`` as scored search, through its relevance scores (higher is better; FAISS's
    raw ``similarity_search_with_score`` gives L2 distances, which would turn fusion upside down).

    ``search_type`` and ``search_kwargs`` (``filter``, ``score_threshold``, ...) mean what they mean in
    ``VectorStore.as_retriever``; ``"mmr"`` returns no scores (rank scores).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: VectorStore
    search_type: Literal["similarity", "mmr", "similarity_score_threshold"] = "similarity"
    search_kwargs: dict[str, Any] = Field(default_factory=dict)
    fetch_k: int = 20
    lambda_mult: float = 0.5

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        kwargs = {key: v for key, v in self.search_kwargs.items() if key not in ("k", "fetch_k", "lambda_mult")}
        if self.search_type == "mmr":
            docs = self.store.max_marginal_relevance_search(
                query, k=k, fetch_k=max(k, int(self.search_kwargs.get("fetch_k", self.fetch_k))),
                lambda_mult=float(self.search_kwargs.get("lambda_mult", self.lambda_mult)), **kwargs)
            return rank_scores(docs)
        with warnings.catch_warnings():
            # FAISS's default relevance function leaves [0, 1] for dissimilar texts; only order and spacing matter.
            warnings.filterwarnings("ignore", message="Relevance scores must be between")
            try:
                hits = self.store.similarity_search_with_relevance_scores(query, k=k, **kwargs)
            except NotImplementedError:  # a store with no relevance function (InMemoryVectorStore): its order
                kwargs.pop("score_threshold", None)
                return rank_scores(self.store.similarity_search(query, k=k, **kwargs))
        return [(doc, float(score)) for doc, score in hits]


class RetrieverSearch(ScoredRetriever):
    """Any LangChain ``BaseRetriever`` as scored search: ``invoke`` (with ``k`` when it takes it), rank scores."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retriever: BaseRetriever

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        # BaseRetriever.invoke passes k on only to retrievers whose _get_relevant_documents takes it.
        return rank_scores(list(self.retriever.invoke(query, k=k))[:k])


class FunctionSearch(ScoredRetriever):
    """A plain function ``query -> list[Document]`` as scored search (rank scores, cut to ``k``)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    fn: Callable[[str], Sequence[Document]]

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        docs = list(self.fn(query))
        bad = [type(d).__name__ for d in docs if not isinstance(d, Document)]
        if bad:
            raise TypeError(f"a search function must return langchain Documents; got {bad[0]}")
        return rank_scores(docs[:k])


def as_scored_search(source: Any, k: int = 4) -> ScoredSearch:
    """Turn a ragkit retriever, a LangChain vector store or retriever, or a function into scored search (``k``:
    the adapter's default number of results; a ragkit retriever keeps its own).

    >>> search = as_scored_search(lambda q: [Document(q.upper()), Document(q)])
    >>> [(d.page_content, s) for d, s in search.search_with_scores("hi", 2)]
    [('HI', 1.0), ('hi', 0.5)]
    """
    if isinstance(source, ScoredSearch) and not isinstance(source, VectorStore):
        return source
    if isinstance(source, VectorStore):
        return VectorStoreSearch(store=source, k=k)
    if isinstance(source, VectorStoreRetriever):
        kwargs = dict(source.search_kwargs)
        return VectorStoreSearch(store=source.vectorstore, search_type=source.search_type,  # type: ignore[arg-type]
                                 search_kwargs=kwargs, k=int(kwargs.get("k", k)))
    if isinstance(source, BaseRetriever):
        return RetrieverSearch(retriever=source, k=k)
    if callable(getattr(source, "invoke", None)):
        return FunctionSearch(fn=source.invoke, k=k)
    if callable(source):
        return FunctionSearch(fn=source, k=k)
    if isinstance(source, str):
        raise TypeError(f"{source!r} is a name, not a retriever: pass a retriever, for example "
                        f"ragkit.domains.corpora.corpus_search({source!r}) for a bundled corpus or "
                        "ragkit.ingest.load_collection(NAME) for your own documents")
    raise TypeError(
        f"cannot search with a {type(source).__name__}: give a ragkit retriever, a LangChain VectorStore or "
        "BaseRetriever, an object with search_with_scores(query, k) or invoke(query), or a function "
        "query -> list[Document]"
    )


class LazySearch:
    """A search built on first use, so building the graph loads no corpus and no embedder.

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


# ---------------------------------------------------------------------- searching in a graph
@dataclass(frozen=True)
class SearchOutcome:
    """What one search gave: documents (copies with ``metadata["score"]``), a note, and whether it failed."""

    documents: list[Document]
    note: str
    failed: bool = False


def run_search(source: ScoredSearch, query: str, k: int, what: str = "search") -> SearchOutcome:
    """Search ``source`` for ``query``; a run-time error becomes a failed outcome, a setup error is raised.

    >>> class Broken:
    ...     def search_with_scores(self, query, k=None): raise ConnectionError("index offline")
    >>> run_search(Broken(), "q", 4, "menu search")
    SearchOutcome(documents=[], note='menu search failed (ConnectionError: index offline)', failed=True)
    """
    try:
        hits = source.search_with_scores(query, k)
    except SETUP_ERRORS:
        raise
    except Exception as err:  # noqa: BLE001 - contract policy 2: reported, never raised
        return SearchOutcome([], f"{what} failed ({type(err).__name__}: {err})", failed=True)
    docs = [with_score(doc, score) for doc, score in hits]
    if not docs:
        return SearchOutcome([], f"{what} found nothing for this question")
    return SearchOutcome(docs, f"{what} returned {len(docs)} documents")
