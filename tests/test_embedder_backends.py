"""The embedder's backends: ONNX gives PyTorch's vectors and rankings, the cache is shared only where they are equal."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document

import ragkit.core.embeddings as embeddings
from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import (
    BACKENDS,
    DEFAULT_BACKEND,
    EmbeddingCache,
    MiniLMEmbeddings,
    check_backend,
    load_embedder,
    onnx_model_path,
)

TEXTS = [
    "A glass of red wine with the steak.",
    "   leading and trailing spaces   ",
    "",
    "Ünïcode café, 日本語 and emoji 🙂 side by side",
    "the literal token [PAD] and [CLS] inside a sentence",
    "Photosynthesis converts light into chemical energy. " * 60,  # far beyond the 256-token window
    "x",
    "Ferry timetable: departures at 07:10, 09:45 and 18:30 from the harbour.",
]
DOCS = [Document(t, metadata={"id": str(i)}) for i, t in enumerate([
    "The ferry to the island leaves at seven every morning.",
    "Red wine goes well with grilled steak and mushrooms.",
    "Photosynthesis turns sunlight, water and carbon dioxide into sugar.",
    "The museum is closed on Mondays and public holidays.",
    "Tides are caused by the gravitational pull of the moon.",
    "Honey bees dance to tell the hive where flowers are.",
])]
QUERIES = ["when does the boat leave", "what drink with beef", "how do plants make food", "why does the sea rise"]


@pytest.fixture(scope="module")
def torch_and_onnx() -> tuple[MiniLMEmbeddings, MiniLMEmbeddings]:
    return MiniLMEmbeddings(backend="torch"), MiniLMEmbeddings(backend="onnx")


def test_onnx_vectors_equal_pytorch_vectors(torch_and_onnx) -> None:
    torch_emb, onnx_emb = torch_and_onnx
    a, b = torch_emb.embed_array(TEXTS), onnx_emb.embed_array(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384)
    assert ((a * b).sum(axis=1) >= 0.9999).all()
    np.testing.assert_allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert np.allclose(torch_emb.embed_query(QUERIES[0]), onnx_emb.embed_query(QUERIES[0]), atol=1e-4)


def test_a_text_embedded_alone_gets_the_vector_it_gets_in_a_padded_batch(torch_and_onnx) -> None:
    _, onnx_emb = torch_and_onnx
    batch = onnx_emb.embed_array(TEXTS)  # one batch, padded to the longest text
    alone = np.array([onnx_emb.embed_query(t) for t in TEXTS], dtype=np.float32)  # no padding
    np.testing.assert_allclose(alone, batch, atol=1e-5)
    assert ((alone * batch).sum(axis=1) >= 0.99999).all()


def test_onnx_and_pytorch_rank_documents_the_same(torch_and_onnx) -> None:
    rankings = []
    for emb in torch_and_onnx:
        retriever = DenseRetriever.from_documents(DOCS, embeddings=emb, k=len(DOCS))
        rankings.append([[d.metadata["id"] for d, _ in retriever.search_with_scores(q)] for q in QUERIES])
    assert rankings[0] == rankings[1]


def test_equal_backends_share_cached_vectors_and_int8_keeps_its_own(tmp_path, monkeypatch) -> None:
    cache = EmbeddingCache(tmp_path / "e.sqlite")
    torch_emb, onnx_emb, int8_emb = (MiniLMEmbeddings(cache=cache, backend=b) for b in ("torch", "onnx", "onnx-int8"))
    assert torch_emb.model_name == onnx_emb.model_name != int8_emb.model_name
    first = torch_emb.embed_array(["oysters and lemon"])

    def fail(_texts):
        raise AssertionError("a vector proven identical must come from the cache")

    monkeypatch.setattr(onnx_emb, "_encode", fail)
    np.testing.assert_array_equal(onnx_emb.embed_array(["oysters and lemon"]), first)
    calls = []
    monkeypatch.setattr(int8_emb, "_encode", lambda texts: calls.append(texts) or np.ones((len(texts), 384), np.float32))
    int8_emb.embed_array(["oysters and lemon"])
    assert calls == [["oysters and lemon"]]  # int8 vectors differ, so the fp32 one is not reused
    assert len(cache) == 2


def test_int8_is_opt_in_and_close_but_not_equal(torch_and_onnx) -> None:
    assert DEFAULT_BACKEND != "onnx-int8"
    reference = torch_and_onnx[0].embed_array(TEXTS[:2])
    cos = (MiniLMEmbeddings(backend="onnx-int8").embed_array(TEXTS[:2]) * reference).sum(axis=1)
    assert (cos > 0.8).all() and (cos < 0.9999).any()


def test_the_backend_comes_from_the_argument_then_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("RAGKIT_EMBEDDER_BACKEND", "torch")
    assert check_backend(None) == "torch" and check_backend("onnx") == "onnx"
    assert load_embedder(cache=False).backend == "torch"
    monkeypatch.delenv("RAGKIT_EMBEDDER_BACKEND")
    assert check_backend(None) == DEFAULT_BACKEND in BACKENDS
    with pytest.raises(ValueError, match="unknown embedder backend 'gpu': choose one of torch, onnx, onnx-int8"):
        MiniLMEmbeddings(backend="gpu")


def test_the_onnx_model_is_made_once_and_then_reused(monkeypatch) -> None:
    path = onnx_model_path()
    assert path.is_file() and path.parent.name == "onnx"

    def fail(_target):
        raise AssertionError("the ONNX model must not be exported again")

    monkeypatch.setattr(embeddings, "_export_onnx", fail)
    assert onnx_model_path() == path


def test_the_command_line_flag_picks_the_backend_for_ingest(tmp_path, monkeypatch, capsys) -> None:
    from ragkit.cli import main
    from ragkit.ingest.store import load_collection

    monkeypatch.setenv("RAGKIT_EMBEDDER_BACKEND", "onnx")  # restored after the test
    monkeypatch.setenv("RAGKIT_PROGRESS", "0")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Ferries\n\nThe ferry to the island leaves at seven.\n")
    assert main(["ingest", str(folder), "--collection", "town", "--root", str(tmp_path / "c"), "--backend", "torch"]) == 0
    import os

    assert os.environ["RAGKIT_EMBEDDER_BACKEND"] == "torch"
    collection = load_collection("town", root=tmp_path / "c", embeddings=MiniLMEmbeddings(backend="onnx"))  # same vectors
    assert collection.search_with_scores("when does the boat leave", 1)[0][0].metadata["source"] == "a.md"
    with pytest.raises(SystemExit):
        main(["ingest", str(folder), "--collection", "town", "--backend", "gpu"])
    assert "invalid choice: 'gpu'" in capsys.readouterr().err
