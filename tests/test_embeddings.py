import numpy as np
import pytest

from ragkit.embeddings import EmbeddingCache, MiniLMEmbeddings, cosine_matrix, load_embedder


def test_minilm_vectors_are_unit_length_and_semantic(tmp_path):
    emb = load_embedder(cache_dir=tmp_path)
    vecs = emb.embed_array(["a glass of red wine", "a bottle of merlot", "the tide timetable for the harbour"])
    assert vecs.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    sims = cosine_matrix(vecs, vecs)
    assert sims[0, 1] > sims[0, 2] + 0.2


def test_embedder_is_loaded_once_per_process(tmp_path):
    assert load_embedder(cache_dir=tmp_path) is load_embedder(cache_dir=tmp_path)


def test_cache_makes_second_pass_free(tmp_path, monkeypatch):
    emb = MiniLMEmbeddings(cache=EmbeddingCache(tmp_path / "e.sqlite"))
    first = emb.embed_array(["oysters", "lemon tart", "oysters"])
    assert len(emb.cache) == 2  # duplicates are embedded once

    def fail(_texts):
        raise AssertionError("the model must not run for cached text")

    monkeypatch.setattr(emb, "_encode", fail)
    np.testing.assert_allclose(emb.embed_array(["lemon tart", "oysters"]), first[[1, 0]])


def test_cache_persists_across_instances(tmp_path):
    path = tmp_path / "e.sqlite"
    MiniLMEmbeddings(cache=EmbeddingCache(path)).embed_array(["sea bass"])
    assert len(EmbeddingCache(path)) == 1


def test_langchain_interface(tmp_path):
    emb = load_embedder(cache_dir=tmp_path)
    assert len(emb.embed_query("risotto")) == 384
    assert emb.embed_documents([]) == []
    assert np.asarray(emb.embed_documents(["a", "b"])).shape == (2, 384)


def test_cache_key_depends_on_model_and_text():
    assert EmbeddingCache.key("m", "x") != EmbeddingCache.key("n", "x")
    assert EmbeddingCache.key("m", "x") != EmbeddingCache.key("m", "y")


def test_cosine_matrix_handles_zero_vectors():
    sims = cosine_matrix(np.zeros((1, 3)), np.ones((1, 3)))
    assert sims[0, 0] == pytest.approx(0.0)
