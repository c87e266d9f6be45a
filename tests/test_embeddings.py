import numpy as np
import pytest

from ragkit.core.embeddings import EmbeddingCache, MiniLMEmbeddings, cosine_matrix, load_embedder


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


def test_an_interrupted_cold_run_keeps_what_it_embedded_and_the_next_run_resumes(tmp_path, monkeypatch):
    import ragkit.core.embeddings as embeddings

    monkeypatch.setattr(embeddings, "CACHE_BATCH", 3)
    emb = MiniLMEmbeddings(cache=EmbeddingCache(tmp_path / "e.sqlite"))
    texts = [f"passage number {i}" for i in range(10)]
    real, calls = emb._encode, []

    def flaky(batch):
        calls.append(list(batch))
        if len(calls) == 3:
            raise KeyboardInterrupt  # the learner pressed stop during the third batch
        return real(batch)

    monkeypatch.setattr(emb, "_encode", flaky)
    with pytest.raises(KeyboardInterrupt):
        emb.embed_array(texts)
    assert len(emb.cache) == 6  # two full batches were committed before the interrupt
    calls.clear()
    monkeypatch.setattr(emb, "_encode", lambda batch: calls.append(list(batch)) or real(batch))
    vectors = emb.embed_array(texts)
    assert sum(len(c) for c in calls) == 4 and vectors.shape == (10, 384)  # only the rest is embedded


def test_queries_are_never_served_from_the_cache(tmp_path, monkeypatch):
    emb = MiniLMEmbeddings(cache=EmbeddingCache(tmp_path / "e.sqlite"))
    emb.embed_array(["red wine"])
    encoded = []
    real = emb._encode
    monkeypatch.setattr(emb, "_encode", lambda batch: encoded.append(list(batch)) or real(batch))
    emb.embed_query("red wine")
    assert encoded == [["red wine"]]  # a user's query is new: a benchmark's latency must include it


def test_a_long_run_shows_a_progress_bar_and_ragkit_progress_0_hides_it(tmp_path, monkeypatch, capsys):
    import ragkit.core.embeddings as embeddings

    monkeypatch.setattr(embeddings, "PROGRESS_MIN_TEXTS", 5)
    emb = MiniLMEmbeddings(cache=EmbeddingCache(tmp_path / "e.sqlite"))
    emb.embed_array([f"text {i}" for i in range(6)])
    assert "embedding" in capsys.readouterr().err
    monkeypatch.setenv("RAGKIT_PROGRESS", "0")
    emb.embed_array([f"other {i}" for i in range(6)])
    assert "embedding" not in capsys.readouterr().err
