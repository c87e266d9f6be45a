"""The one module that imports ``langchain-community``: LangChain's own FAISS vector store.

``langchain-community`` is being sunset (it warns at import). ragkit takes from it only what has no
maintained standalone package, LangChain's ``FAISS`` vector store, so that learners can check that a
standard LangChain part drops into every ragkit graph and fusion through the one adapter
(:func:`ragkit.core.search.as_scored_search`, which reads its *relevance* scores: higher is better,
while its raw ``similarity_search_with_score`` returns L2 distances, lower is better). Everything else
ragkit needs from LangChain comes from ``langchain-core``.

>>> from langchain_core.documents import Document
>>> store = langchain_faiss([Document("Red wine with steak", metadata={"id": "a"})])  # doctest: +SKIP
>>> store.similarity_search("steak", k=1)[0].id  # doctest: +SKIP
'a'

Simplification: documents get their ``metadata["id"]`` as the store id (else their position), so results
are repeatable; LangChain's own default is a random UUID per document.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings


def langchain_faiss(docs: Sequence[Document], embeddings: Embeddings | None = None, **kwargs: Any) -> Any:
    """LangChain's ``FAISS.from_documents`` over ``docs`` with ragkit's embedder (ids from ``metadata["id"]``)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*langchain-community.*sunset", category=DeprecationWarning)
        from langchain_community.vectorstores import FAISS
    if embeddings is None:
        from ragkit.core.embeddings import load_embedder

        embeddings = load_embedder()
    docs = list(docs)
    ids = [str(d.metadata.get("id") or d.id or i) for i, d in enumerate(docs)]
    return FAISS.from_documents(docs, embeddings, ids=ids, **kwargs)


__all__ = ["langchain_faiss"]
