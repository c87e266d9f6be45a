"""Every retriever through the same contract test, plus MMR diversity and reranker fallback."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import HybridRetriever
from ragkit.core.rerank import CrossEncoderReranker, LocalReranker, RerankRetriever

CORPUS = [
    ("wine", "Red wine should breathe for thirty minutes before serving so its tannins soften."),
    ("tide", "Ocean tides are caused by the gravitational pull of the moon on the oceans."),
    ("bread", "Sourdough bread rises because wild yeast ferments the flour and water starter."),
    ("solar", "Solar panels convert sunlight into electricity using photovoltaic silicon cells."),
    ("bees", "Honey bees communicate the location of flowers to the hive with a waggle dance."),
    ("chess", "In chess, castling moves the king two squares towards a rook in a single turn."),
    ("volcano", "Volcanoes erupt when molten rock and gas pressure build up beneath the crust."),
    ("tea", "Green tea is steeped in water below boiling to avoid a bitter taste."),
]
QUERIES = [
    ("Why do honey bees dance in the hive?", "bees"),
    ("What causes the tides of the ocean?", "tide"),
    ("How does castling work in chess?", "chess"),
    ("How long should red wine breathe?", "wine"),
]


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    return [Document(page_content=text, metadata={"id": key}) for key, text in CORPUS]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    # A private on-disk cache: each text is embedded once however many retrievers the tests build.
    return load_embedder(cache_dir=tmp_path_factory.mktemp("embeddings"))


def make(name: str, docs: list[Document], embedder) -> BaseRetriever:
    bm25 = BM25Retriever.from_documents(docs)
    dense = DenseRetriever.from_documents(docs, embeddings=embedder)  # cheap: vectors come from the cache
    if name == "bm25":
        return bm25
    if name == "dense":
        return dense
    if name == "dense-mmr":
        return DenseRetriever.from_documents(docs, embeddings=embedder, search_type="mmr", fetch_k=8, lambda_mult=0.7)
    if name == "hybrid-rrf":
        return HybridRetriever(retrievers=[bm25, dense], method="rrf")
    if name == "hybrid-weighted":
        return HybridRetriever(retrievers=[bm25, dense], method="weighted", alpha=0.4)
    if name == "rerank-local":
        hybrid = HybridRetriever(retrievers=[bm25, dense])
        return RerankRetriever(base=hybrid, reranker=LocalReranker(embeddings=embedder), fetch_k=6)
    raise AssertionError(name)


NAMES = ["bm25", "dense", "dense-mmr", "hybrid-rrf", "hybrid-weighted", "rerank-local"]


@pytest.mark.parametrize("name", NAMES)
def test_retriever_contract(name, docs, embedder):
    retriever = make(name, docs, embedder)
    assert isinstance(retriever, BaseRetriever)
    for query, expected in QUERIES:
        results = retriever.search_with_scores(query, 3)
        assert results[0][0].metadata["id"] == expected, (name, query, [d.metadata["id"] for d, _ in results])
        assert 1 <= len(results) <= 3
        scores = [s for _, s in results]
        assert scores == sorted(scores, reverse=True)
    # invoke() honours k and reports the score without touching the stored documents
    retriever.k = 2
    found = retriever.invoke("What causes the tides of the ocean water?")
    assert len(found) == 2 and found[0].metadata["id"] == "tide" and "score" in found[0].metadata
    assert all("score" not in d.metadata for d in docs)
    assert len(retriever.search_with_scores("moon ocean wine bees bread chess tea", 5)) == 5
    for blank in ["", "   \n\t"]:
        with pytest.raises(ValueError, match="empty"):
            retriever.invoke(blank)
    with pytest.raises(ValueError, match="positive integer"):
        retriever.search_with_scores("tides", 0)


def test_empty_corpus_is_a_clear_error(embedder):
    with pytest.raises(ValueError, match="corpus.*empty"):
        BM25Retriever.from_documents([])
    with pytest.raises(ValueError, match="corpus.*empty"):
        DenseRetriever.from_documents([], embeddings=embedder)
    with pytest.raises(ValueError, match="retrievers list is empty"):
        HybridRetriever(retrievers=[])
    with pytest.raises(ValueError, match="no document contains an indexable word"):
        BM25Retriever.from_documents([Document("the and of"), Document("   ")])


def test_bm25_on_a_single_document_still_scores_positive():
    # rank-bm25's own Okapi idf goes negative when a term is in more than half the documents;
    # Lucene's idf keeps a one-document corpus usable.
    retriever = BM25Retriever.from_documents([Document("Tides follow the moon")])
    assert retriever.search_with_scores("moon", 3)[0][1] > 0
    assert retriever.search_with_scores("the of and", 3) == []  # only stopwords: no evidence, no results


def test_bm25_parameters_change_ranking(docs):
    short = Document("moon tides", metadata={"id": "short"})
    long = Document("moon tides " + "filler words about nothing " * 20, metadata={"id": "long"})
    with_norm = BM25Retriever.from_documents([short, long, *docs], b=1.0)
    without = BM25Retriever.from_documents([short, long, *docs], b=0.0)
    s_norm = dict((d.metadata["id"], s) for d, s in with_norm.search_with_scores("moon tides", 3))
    s_none = dict((d.metadata["id"], s) for d, s in without.search_with_scores("moon tides", 3))
    assert s_norm["short"] > s_norm["long"]
    assert s_none["short"] == pytest.approx(s_none["long"])  # b=0: length does not matter
    with pytest.raises(ValueError, match="k1 >= 0"):
        BM25Retriever.from_documents(docs, b=1.5)


def redundancy(vectors: np.ndarray) -> float:
    sims = vectors @ vectors.T
    n = len(vectors)
    return float((sims.sum() - n) / (n * (n - 1)))


def test_mmr_is_less_redundant_than_similarity(embedder):
    near_duplicates = [
        "Coffee contains caffeine, which keeps you awake.",
        "Coffee contains caffeine that keeps people awake.",
        "Coffee has caffeine, and caffeine keeps you awake.",
        "Caffeine in coffee keeps you awake at night.",
    ]
    others = [
        "Coffee beans are roasted to develop their flavour.",
        "Espresso is brewed by forcing hot water through finely ground coffee.",
        "Coffee plants grow best in tropical highlands.",
        "Bicycles have two wheels and pedals.",
    ]
    docs = [Document(t, metadata={"id": str(i)}) for i, t in enumerate(near_duplicates + others)]
    sim = DenseRetriever.from_documents(docs, embeddings=embedder, search_type="similarity")
    mmr = DenseRetriever.from_documents(docs, embeddings=embedder, search_type="mmr", fetch_k=8, lambda_mult=0.5)
    query = "Does coffee keep you awake?"
    top_sim = [d.page_content for d, _ in sim.search_with_scores(query, 3)]
    top_mmr = [d.page_content for d, _ in mmr.search_with_scores(query, 3)]
    assert top_mmr[0] == top_sim[0]  # the first pick is always the most similar
    r_sim = redundancy(embedder.embed_array(top_sim))
    r_mmr = redundancy(embedder.embed_array(top_mmr))
    assert r_mmr < r_sim - 0.05
    assert sum(t in near_duplicates for t in top_mmr) < sum(t in near_duplicates for t in top_sim)


def test_reranker_is_a_document_compressor(docs, embedder):
    reranker = LocalReranker(embeddings=embedder, top_n=2)
    out = reranker.compress_documents(docs, "Why do honey bees dance?")
    assert [d.metadata["id"] for d in out][0] == "bees" and len(out) == 2
    assert out[0].metadata["rerank_score"] >= out[1].metadata["rerank_score"]
    assert reranker.rerank("bees", [], top_n=3) == []
    with pytest.raises(ValueError, match="unknown LocalReranker weight"):
        LocalReranker(weights={"colour": 1.0})


def test_cross_encoder_falls_back_to_local_reranker_without_weights(docs, embedder, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.warns(RuntimeWarning, match="not on this machine.*LocalReranker"):
        reranker = CrossEncoderReranker(model_name="ragkit-tests/no-such-cross-encoder", fallback=LocalReranker(embeddings=embedder))
    assert reranker.backend == "local"
    top = reranker.rerank("What causes the tides of the ocean?", docs, top_n=1)
    assert top[0].metadata["id"] == "tide"


def test_cross_encoder_is_used_when_its_weights_load(docs, monkeypatch):
    calls = {}

    class FakeCrossEncoder:
        def __init__(self, name, **kwargs):
            calls.update(kwargs, name=name)

        def predict(self, pairs, show_progress_bar=False):
            return [float("tide" in passage) for _, passage in pairs]  # a stand-in for the model's logits

    monkeypatch.setattr("sentence_transformers.CrossEncoder", FakeCrossEncoder)
    reranker = CrossEncoderReranker(top_n=1)
    assert reranker.backend == "cross-encoder"
    assert calls["local_files_only"] is True and calls["name"] == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    assert reranker.compress_documents(docs, "anything")[0].metadata["id"] == "tide"


@pytest.mark.parametrize("name", ["bm25", "dense", "dense-mmr", "hybrid-weighted"])
def test_k_larger_than_corpus_returns_each_document_once(name, docs, embedder):
    found = make(name, docs, embedder).search_with_scores("moon ocean wine bees bread chess tea volcano solar", 50)
    keys = [d.metadata["id"] for d, _ in found]
    assert len(keys) == len(set(keys)) <= len(docs)
