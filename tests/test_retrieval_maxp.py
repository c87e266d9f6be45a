"""MaxChunkDenseRetriever: parents returned once, scored by their best chunk, MMR over parents, save/load."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.dense import DenseRetriever, embed
from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import HybridRetriever
from ragkit.core.maxp import MaxChunkDenseRetriever, make_passages

# A long document whose answer sits far past the first 256 word pieces, and short distractors.
FILLER = "Sourdough bakers feed the starter with flour and water every morning. " * 25
LONG = Document(FILLER + "Ocean tides are caused by the gravitational pull of the moon.", metadata={"id": "long"})
SHORT = [
    Document("Honey bees communicate the location of flowers with a waggle dance.", metadata={"id": "bees"}),
    Document("Volcanoes erupt when molten rock and gas pressure build up beneath the crust.", metadata={"id": "volcano"}),
    Document("Green tea is steeped in water below boiling to avoid a bitter taste.", metadata={"id": "tea"}),
    Document("Solar panels convert sunlight into electricity with silicon cells.", metadata={"id": "solar"}),
]
DOCS = [LONG, *SHORT]
TIDES = "What causes the ocean tides?"


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return load_embedder(cache_dir=tmp_path_factory.mktemp("embeddings"))


@pytest.fixture(scope="module")
def maxp(embedder) -> MaxChunkDenseRetriever:
    return MaxChunkDenseRetriever.from_documents(DOCS, embeddings=embedder, chunk_size=300, chunk_overlap=50)


def cosines(embedder, query: str, texts: list[str]) -> np.ndarray:
    vectors = embed(embedder, [query, *texts])
    return vectors[1:] @ vectors[0]


def test_passages_keep_their_parent_and_add_the_whole_text_only_when_it_was_cut():
    passages = make_passages(DOCS, chunk_size=300, chunk_overlap=50)
    long_ids = [p.metadata["id"] for p in passages if p.metadata["parent_id"] == "long"]
    assert len(long_ids) > 3 and long_ids[-1] == "long#all"
    assert [p.metadata["id"] for p in passages if p.metadata["parent_id"] == "bees"] == ["bees#0"]  # no duplicate
    assert all(p.metadata["id"] != "long#all" for p in make_passages(DOCS, 300, 50, include_whole=False))


def test_finds_a_long_document_by_its_best_chunk_where_whole_document_dense_misses_it(embedder, maxp):
    whole = DenseRetriever.from_documents(DOCS, embeddings=embedder)
    assert whole.search_with_scores(TIDES, 1)[0][0].metadata["id"] != "long"  # the answer is past MiniLM's window
    doc, chunk, score = maxp.search_with_chunks(TIDES, 1)[0]
    assert doc is LONG and "tides" in chunk.page_content and chunk.metadata["parent_id"] == "long"


def test_each_parent_once_with_the_score_of_its_best_passage(embedder, maxp):
    found = maxp.search_with_chunks(TIDES, 50)
    keys = [d.metadata["id"] for d, _, _ in found]
    assert sorted(keys) == sorted(d.metadata["id"] for d in DOCS)  # every parent exactly once, no chunk ids
    for doc, chunk, score in found:
        own = [p for p in maxp.passages.docs if p.metadata["parent_id"] == doc.metadata["id"]]
        sims = cosines(embedder, TIDES, [p.page_content for p in own])
        assert score == pytest.approx(float(sims.max()), abs=1e-5)
        assert chunk is own[int(np.argmax(sims))]
    scores = [s for _, _, s in found]
    assert scores == sorted(scores, reverse=True)
    # the short list is a prefix of the long one: the doubling search is exact for every k
    for k in (1, 2, 3):
        assert [d.metadata["id"] for d, _ in maxp.search_with_scores(TIDES, k)] == keys[:k]


def test_mmr_runs_over_parents(embedder):
    near_duplicates = [
        Document("Coffee contains caffeine, which keeps you awake.", metadata={"id": "c1"}),
        Document("Coffee contains caffeine that keeps people awake.", metadata={"id": "c2"}),
        Document("Coffee has caffeine, and caffeine keeps you awake.", metadata={"id": "c3"}),
        Document("Espresso is brewed by forcing hot water through finely ground coffee.", metadata={"id": "espresso"}),
        Document("Coffee plants grow best in tropical highlands. " * 12, metadata={"id": "plants"}),
    ]
    sim = MaxChunkDenseRetriever.from_documents(near_duplicates, embeddings=embedder, chunk_size=200, chunk_overlap=20)
    mmr = MaxChunkDenseRetriever.from_documents(near_duplicates, embeddings=embedder, chunk_size=200, chunk_overlap=20,
                                                search_type="mmr", fetch_k=5, lambda_mult=0.5)
    query = "Does coffee keep you awake?"
    top_sim = [d.metadata["id"] for d, _ in sim.search_with_scores(query, 3)]
    top_mmr = [d.metadata["id"] for d, _ in mmr.search_with_scores(query, 3)]
    assert top_mmr[0] == top_sim[0] and len(set(top_mmr)) == 3
    assert sum(key.startswith("c") for key in top_mmr) < sum(key.startswith("c") for key in top_sim)
    assert len({d.metadata["id"] for d, _ in mmr.search_with_scores(query, 10)}) == 5  # k beyond the corpus: each once


def test_works_inside_a_hybrid_and_as_a_langchain_retriever(embedder, maxp):
    hybrid = HybridRetriever(retrievers=[BM25Retriever.from_documents(DOCS), maxp], method="weighted", alpha=0.5)
    assert hybrid.search_with_scores("Why do honey bees dance?", 1)[0][0].metadata["id"] == "bees"
    maxp.k = 2
    found = maxp.invoke(TIDES)
    assert len(found) == 2 and found[0].metadata["id"] == "long" and "score" in found[0].metadata
    assert "score" not in LONG.metadata
    with pytest.raises(ValueError, match="empty"):
        maxp.invoke("  ")


def test_clear_errors(embedder):
    with pytest.raises(ValueError, match="corpus.*empty"):
        MaxChunkDenseRetriever.from_documents([], embeddings=embedder)
    twins = [Document("one", metadata={"id": "x"}), Document("two", metadata={"id": "x"})]
    with pytest.raises(ValueError, match="share the id 'x'"):
        MaxChunkDenseRetriever.from_documents(twins, embeddings=embedder)
    with pytest.raises(ValueError, match="search_type"):
        MaxChunkDenseRetriever.from_documents(SHORT, embeddings=embedder, search_type="nearest")
    with pytest.raises(ValueError, match="chunk_overlap"):
        MaxChunkDenseRetriever.from_documents(SHORT, embeddings=embedder, chunk_size=100, chunk_overlap=100)


def test_save_load_round_trip(tmp_path, embedder, maxp):
    maxp.save(tmp_path / "maxp")
    loaded = MaxChunkDenseRetriever.load(tmp_path / "maxp", embeddings=embedder)
    assert (loaded.chunk_size, loaded.chunk_overlap, loaded.include_whole) == (300, 50, True)
    before = [(d.metadata["id"], round(s, 5)) for d, s in maxp.search_with_scores(TIDES, 3)]
    assert [(d.metadata["id"], round(s, 5)) for d, s in loaded.search_with_scores(TIDES, 3)] == before
    with pytest.raises(ValueError, match="holds a 'dense-maxp' index, not a 'dense' index"):
        DenseRetriever.load(tmp_path / "maxp", embeddings=embedder)
