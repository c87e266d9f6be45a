"""The scaling benchmark's parts: deterministic distractors, one measured row, the log-log plot."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document

from ragkit.evaluation.scale import distractor_texts, distractor_vectors, measure, near_real_vectors, nearest_cosines


def test_distractor_text_is_deterministic_and_drawn_from_the_corpus_words() -> None:
    docs = [Document("Cells divide; tumours grow."), Document("Vitamin D and bone density in adults.")]
    first, again = distractor_texts(docs, 30, seed=3), distractor_texts(docs, 30, seed=3)
    assert first == again and first != distractor_texts(docs, 30, seed=4)
    vocabulary = {"cells", "divide", "tumours", "grow", "vitamin", "d", "and", "bone", "density", "in", "adults"}
    assert all(set(t.split()) <= vocabulary and 40 <= len(t.split()) <= 160 for t in first)


def test_distractor_vectors_are_unit_length_deterministic_and_shaped_like_the_real_ones() -> None:
    rng = np.random.default_rng(0)
    real = rng.standard_normal((500, 16)) + 3.0
    real /= np.linalg.norm(real, axis=1, keepdims=True)
    fake = distractor_vectors(real, 2000, seed=1)
    assert fake.dtype == np.float32 and np.allclose(np.linalg.norm(fake, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(fake, distractor_vectors(real, 2000, seed=1))
    assert float(fake.mean(axis=0) @ real.mean(axis=0)) > 0.9  # the same dominant direction, not isotropic noise


def test_near_real_vectors_sit_around_the_real_ones_as_the_real_ones_sit_around_each_other() -> None:
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((20, 32))
    real = centres[rng.integers(0, 20, 400)] + 0.5 * rng.standard_normal((400, 32))
    real = (real / np.linalg.norm(real, axis=1, keepdims=True)).astype(np.float32)
    fake = near_real_vectors(real, 4000, seed=0)
    assert fake.dtype == np.float32 and np.allclose(np.linalg.norm(fake, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(fake, near_real_vectors(real, 4000, seed=0))
    own, theirs = nearest_cosines(real, real, exclude_self=True), nearest_cosines(fake, real)
    # Each distractor is at a real nearest-neighbour cosine from its real vector (or closer to another).
    assert np.all(theirs >= own.min() - 1e-4) and np.all(theirs < 1.0)
    for q in (0.25, 0.5, 0.75):
        assert abs(np.quantile(theirs, q) - np.quantile(own, q)) < 0.03
    gaussian = nearest_cosines(distractor_vectors(real, 4000, seed=0), real)
    assert np.median(gaussian) < np.median(own) - 0.1  # the single Gaussian lies far from every real vector


@pytest.fixture
def tiny_beir(tmp_path: Path) -> Path:
    corpus = {"d1": "Ocean tides are caused by the pull of the moon.", "d2": "Honey bees dance to point at flowers.",
              "d3": "Tea is bitter when it steeps too long."}
    queries = {"q1": ("What causes ocean tides?", "d1"), "q2": ("Why do honey bees dance?", "d2")}
    (tmp_path / "qrels").mkdir()
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps({"_id": k, "title": "", "text": t}) + "\n" for k, t in corpus.items()))
    (tmp_path / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t}) + "\n" for q, (t, _) in queries.items()))
    (tmp_path / "qrels" / "test.tsv").write_text("".join(f"{q}\t{d}\t1\n" for q, (_, d) in queries.items()))
    return tmp_path


@pytest.mark.parametrize("system", ["bm25-bm25s", "dense-hnsw", "hybrid", "langchain-ensemble"])
def test_one_measured_row_per_system(tiny_beir: Path, tmp_path: Path, system: str) -> None:
    small = measure(system, 3, tiny_beir)["ndcg@10"]  # no distractors: ragkit's systems find both first
    assert small == pytest.approx(1.0) if not system.startswith("langchain") else 0.0 < small <= 1.0
    row = measure(system, 60, tiny_beir, ann_path=tmp_path / "hnsw.faiss")
    assert row["system"] == system and row["size"] == 60 and row["queries"] == 2
    assert 0.0 <= row["ndcg@10"] <= 1.0  # 57 distractors from a 20-word vocabulary do compete on words
    assert row["query_ms_p95"] >= row["query_ms_p50"] > 0 and row["peak_mb"] >= row["index_mb"] - 1
    assert len(row["load_average"]) == 3
    if system == "dense-hnsw":
        assert row["recall@10_vs_exact"] == 1.0 and (tmp_path / "hnsw.faiss").is_file()
        assert row["query_embedding_ms_p95"] >= row["query_embedding_ms_p50"] > 0  # the embedding's share, timed alone
    else:
        assert "query_embedding_ms_p50" not in row


def test_the_plot_reads_a_saved_record(tmp_path: Path) -> None:
    from ragkit.plots import plot_scaling

    rows = [{"system": s, "size": n, "query_ms_p50": n / 1000 * f, "index_mb": n / 100 * f}
            for s, f in (("bm25-bm25s", 1.0), ("langchain-ensemble", 3.0)) for n in (5_183, 50_000, 500_000)]
    path = tmp_path / "scale.json"
    path.write_text(json.dumps({"rows": rows + [{"system": "dense-hnsw", "size": 5_183, "error": "killed"}]}))
    fig = plot_scaling(str(path))
    time_ax, mem_ax = fig.axes
    assert time_ax.get_xscale() == time_ax.get_yscale() == mem_ax.get_yscale() == "log"
    assert [line.get_label() for line in time_ax.get_lines()] == ["bm25-bm25s", "langchain-ensemble"]
