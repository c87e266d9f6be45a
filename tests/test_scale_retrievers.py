"""The retrievers built for scale: bm25s BM25 equals rank-bm25's, HNSW finds what the exact scan finds."""

from __future__ import annotations

import random
import types

import faiss
import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

import ragkit.core.dense as dense
from ragkit.core.bm25 import BM25Retriever
from ragkit.core.dense import DenseRetriever
from ragkit.core.search import doc_key
from ragkit.evaluation.tuning import bm25_scores

WORDS = ("red wine fish steak ferry quay harbour tide bass fennel oyster lemon island museum closed monday "
         "bees dance flowers moon pull ocean ferries leaving leaves").split()


def corpus(n: int, seed: int) -> list[Document]:
    rng = random.Random(seed)
    return [Document(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 25))), metadata={"id": f"d{i}"})
            for i in range(n)]


QUERIES = ["red wine with fish", "ferry ferry quay", "the island museum on monday", "nothing here at all", "leaving"]


@pytest.mark.parametrize("k1, b", [(1.2, 0.5), (0.9, 0.3), (2.0, 0.9), (0.5, 0.75)])  # rank-bm25 divides 0 by 0 at k1=0 or b=1
def test_bm25s_scores_and_ranks_like_rank_bm25(k1: float, b: float) -> None:
    docs = corpus(400, seed=int(k1 * 10 + b * 100))
    sparse = BM25Retriever.from_documents(docs, k1=k1, b=b)
    reference = BM25Retriever.from_documents(docs, k1=k1, b=b, backend="rank_bm25")
    assert sparse.backend == "bm25s"
    assert sparse.idf.keys() == reference.idf.keys()
    assert all(abs(sparse.idf[t] - reference.idf[t]) < 1e-12 for t in sparse.idf)
    np.testing.assert_array_equal(sparse.doc_lengths, reference.doc_lengths)
    assert sparse.average_length == pytest.approx(reference.average_length)
    for query in QUERIES:
        np.testing.assert_allclose(sparse.scores(query), reference.scores(query), rtol=1e-12, atol=1e-12)
        ranked = [(d.metadata["id"], round(s, 9)) for d, s in sparse.search_with_scores(query, 50)]
        assert ranked == [(d.metadata["id"], round(s, 9)) for d, s in reference.search_with_scores(query, 50)]


def test_the_tuners_term_frequencies_are_the_same_on_both_backends() -> None:
    docs = corpus(300, seed=7)
    sparse, reference = (BM25Retriever.from_documents(docs, k1=0.9, b=0.3, backend=name) for name in ("bm25s", "rank_bm25"))
    for query in QUERIES:
        (idf_s, tf_s), (idf_r, tf_r) = sparse.term_matrix(query), reference.term_matrix(query)
        np.testing.assert_array_equal(tf_s, tf_r)
        np.testing.assert_allclose(idf_s, idf_r)
        np.testing.assert_allclose(bm25_scores(idf_s, tf_s, sparse.doc_lengths, sparse.average_length, 1.5, 0.75),
                                   bm25_scores(idf_r, tf_r, reference.doc_lengths, reference.average_length, 1.5, 0.75))


def test_bm25s_save_and_load_keep_the_backend_and_the_results(tmp_path) -> None:
    docs = corpus(120, seed=3)
    for backend in ("bm25s", "rank_bm25"):
        built = BM25Retriever.from_documents(docs, k=7, backend=backend)
        built.save(tmp_path / backend)
        loaded = BM25Retriever.load(tmp_path / backend)
        assert loaded.backend == backend and loaded.k == 7
        assert [d.metadata["id"] for d in loaded.invoke("wine fish")] == [d.metadata["id"] for d in built.invoke("wine fish")]


def test_bm25s_refuses_what_rank_bm25_refuses() -> None:
    with pytest.raises(ValueError, match="'bm25s' or 'rank_bm25'"):
        BM25Retriever.from_documents(corpus(3, 0), backend="lucene")
    with pytest.raises(ValueError, match="no document contains an indexable word"):
        BM25Retriever.from_documents([Document("the and of"), Document("")])
    assert BM25Retriever.from_documents(corpus(20, 1)).search_with_scores("zzz unknown") == []


class TableEmbeddings(Embeddings):
    """Vectors looked up by text: a synthetic corpus with known geometry."""

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    def embed_documents(self, texts):
        return [self.table[t].tolist() for t in texts]

    def embed_query(self, text):
        return self.table[text].tolist()


def clustered(n: int, queries: int, seed: int = 0) -> tuple[list[Document], list[str], TableEmbeddings]:
    """Unit vectors around 40 centres (like topics), and queries drawn the same way."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, 64))
    points = centres[rng.integers(0, 40, n + queries)] + 0.6 * rng.standard_normal((n + queries, 64))
    points = (points / np.linalg.norm(points, axis=1, keepdims=True)).astype(np.float32)
    texts = [f"doc {i}" for i in range(n)] + [f"query {i}" for i in range(queries)]
    docs = [Document(t, metadata={"id": t}) for t in texts[:n]]
    return docs, texts[n:], TableEmbeddings(dict(zip(texts, points)))


def test_hnsw_recall_at_10_against_the_exact_scan() -> None:
    docs, queries, emb = clustered(4000, 100)
    exact = DenseRetriever.from_documents(docs, embeddings=emb, index_type="flat", k=10)
    ann = DenseRetriever.from_documents(docs, embeddings=emb, index_type="hnsw", k=10)
    assert ann.approximate and not exact.approximate
    found = [len({doc_key(d) for d, _ in exact.search_with_scores(q)} & {doc_key(d) for d, _ in ann.search_with_scores(q)}) for q in queries]
    assert sum(found) / (10 * len(queries)) >= 0.95


def test_the_graph_is_built_and_searched_with_the_pinned_defaults() -> None:
    from ragkit.defaults import RETRIEVAL

    docs, queries, emb = clustered(2000, 50, seed=2)
    ann = DenseRetriever.from_documents(docs, embeddings=emb, index_type="hnsw", k=10)
    graph = faiss.downcast_index(ann.faiss_index)
    assert ann.ef_search == RETRIEVAL.hnsw_ef_search and graph.hnsw.efConstruction == RETRIEVAL.hnsw_ef_construction
    assert graph.hnsw.nb_neighbors(1) == RETRIEVAL.hnsw_m  # FAISS keeps M neighbours above layer 0 (2 M on it)
    exact = DenseRetriever.from_documents(docs, embeddings=emb, index_type="flat", k=10)
    same = [[doc_key(d) for d, _ in ann.search_with_scores(q)] == [doc_key(d) for d, _ in exact.search_with_scores(q)]
            for q in queries]
    assert sum(same) >= 0.98 * len(queries)  # at the default efSearch the graph returns the exact top 10, in order


def test_auto_is_exact_below_the_default_threshold_and_approximate_from_it(monkeypatch) -> None:
    from ragkit.defaults import RETRIEVAL

    assert dense.ANN_MIN_DOCS == RETRIEVAL.ann_min_docs
    docs, _, emb = clustered(RETRIEVAL.ann_min_docs, 0, seed=4)
    vectors = np.asarray(emb.embed_documents([d.page_content for d in docs]), dtype=np.float32)
    monkeypatch.setattr(faiss, "IndexHNSWFlat", None)  # below the threshold no graph may be built
    assert not DenseRetriever.from_vectors(docs[:-1], vectors[:-1], embeddings=emb).approximate
    monkeypatch.undo()
    built = []

    class Graph:  # records what would be built, without building a 100,000-vector graph in a test
        def __init__(self, *args) -> None:
            built.append(args)
            self.hnsw, self.d = types.SimpleNamespace(efConstruction=None), args[0]

        def add(self, x) -> None:
            built.append(len(x))

    monkeypatch.setattr(faiss, "IndexHNSWFlat", Graph)
    graph = DenseRetriever.from_vectors(docs, vectors, embeddings=emb).faiss_index
    assert built == [(64, RETRIEVAL.hnsw_m, faiss.METRIC_INNER_PRODUCT), RETRIEVAL.ann_min_docs]  # at the threshold: the graph
    assert graph.hnsw.efConstruction == RETRIEVAL.hnsw_ef_construction


def test_auto_switches_to_hnsw_at_the_threshold_and_mmr_still_works(monkeypatch) -> None:
    docs, queries, emb = clustered(300, 3)
    monkeypatch.setattr(dense, "ANN_MIN_DOCS", 301)
    assert not DenseRetriever.from_documents(docs, embeddings=emb).approximate
    monkeypatch.setattr(dense, "ANN_MIN_DOCS", 300)
    ann = DenseRetriever.from_documents(docs, embeddings=emb, search_type="mmr", fetch_k=30, k=5)
    assert ann.approximate
    picked = ann.search_with_scores(queries[0])
    assert len(picked) == len({doc_key(d) for d, _ in picked}) == 5


def test_a_saved_hnsw_index_loads_as_it_was(tmp_path, monkeypatch) -> None:
    docs, queries, emb = clustered(1500, 5)
    ann = DenseRetriever.from_documents(docs, embeddings=emb, index_type="hnsw", ef_search=64, k=10)
    ann.save(tmp_path / "ann")
    monkeypatch.setattr(faiss, "IndexHNSWFlat", None)  # loading must not rebuild the graph
    loaded = DenseRetriever.load(tmp_path / "ann", embeddings=emb)
    assert loaded.approximate and loaded.ef_search == 64
    for query in queries:
        assert loaded.search_with_scores(query) == ann.search_with_scores(query)
    monkeypatch.undo()
    flat = DenseRetriever.load(tmp_path / "ann", embeddings=emb, index_type="flat")
    assert not flat.approximate and doc_key(flat.search_with_scores(queries[0])[0][0]).startswith('doc ')


def test_a_graph_over_8_bit_codes_can_be_passed_in_searched_with_mmr_and_saved(tmp_path) -> None:
    docs, queries, emb = clustered(3000, 50, seed=7)
    vectors = np.asarray(emb.embed_documents([d.page_content for d in docs]), dtype=np.float32)
    codes = faiss.IndexHNSWSQ(vectors.shape[1], faiss.ScalarQuantizer.QT_8bit, 32, faiss.METRIC_INNER_PRODUCT)
    codes.train(vectors)
    codes.add(vectors)  # 64 bytes a vector instead of 256: the memory-saving graph of benchmarks/scale 3c
    sq8 = DenseRetriever.from_vectors(docs, codes, embeddings=emb, k=10)
    exact = DenseRetriever.from_vectors(docs, vectors, embeddings=emb, index_type="flat", k=10)
    assert sq8.approximate
    found = [len({doc_key(d) for d, _ in exact.search_with_scores(q)} & {doc_key(d) for d, _ in sq8.search_with_scores(q)})
             for q in queries]
    assert sum(found) / (10 * len(queries)) >= 0.9
    mmr = DenseRetriever.from_vectors(docs, codes, embeddings=emb, k=5, search_type="mmr", fetch_k=30)
    assert len({doc_key(d) for d, _ in mmr.search_with_scores(queries[0])}) == 5
    sq8.save(tmp_path / "sq8")
    loaded = DenseRetriever.load(tmp_path / "sq8", embeddings=emb)
    assert isinstance(loaded.faiss_index, faiss.IndexHNSWSQ)
    assert all(loaded.search_with_scores(q) == sq8.search_with_scores(q) for q in queries[:5])


def test_top_k_is_the_stable_full_sorts_head() -> None:
    from ragkit.core.bm25 import top_k

    rng = np.random.default_rng(5)
    for _ in range(200):
        scores = rng.integers(0, 6, size=int(rng.integers(1, 60))).astype(float)  # many ties
        k = int(rng.integers(1, 70))
        assert top_k(scores, k).tolist() == np.argsort(-scores, kind="stable")[:k].tolist()
