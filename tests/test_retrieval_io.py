"""Fusion maths, chunking, metrics against hand values, BEIR loading errors, save/load and atomic saves."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from langchain_core.documents import Document

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.chunking import split_documents
from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import reciprocal_rank_fusion, weighted_score_fusion
from ragkit.core.saved_index import atomic_directory
from ragkit.evaluation.beir import load_beir
from ragkit.evaluation.ir_metrics import evaluate, ndcg_at_k, recall_at_k

DOCS = [
    Document("Tides are caused by the moon.", metadata={"id": "t"}),
    Document("Bees dance to show where flowers are.", metadata={"id": "b"}),
    Document("Sourdough rises thanks to wild yeast.", metadata={"id": "s"}),
]


# --- fusion -------------------------------------------------------------------------------------------

def test_rrf_matches_hand_computation():
    fused = dict(reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["b"] == pytest.approx(1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert [key for key, _ in reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]], k=60)] == ["a", "c", "b"]
    assert reciprocal_rank_fusion([], k=60) == []


def test_weighted_fusion_normalises_each_list():
    fused = weighted_score_fusion([[("a", 30.0), ("b", 20.0), ("c", 10.0)], [("b", 0.9), ("c", 0.5), ("d", 0.1)]], [0.3, 0.7])
    scores = dict(fused)
    assert scores["a"] == pytest.approx(0.3)                 # top of list 1, absent from list 2
    assert scores["b"] == pytest.approx(0.3 * 0.5 + 0.7)     # middle of list 1, top of list 2
    assert scores["c"] == pytest.approx(0.7 * 0.5)
    assert scores["d"] == pytest.approx(0.0)
    assert [key for key, _ in fused] == ["b", "c", "a", "d"]
    with pytest.raises(ValueError, match="one weight per list"):
        weighted_score_fusion([[("a", 1.0)]], [0.5, 0.5])


# --- chunking -----------------------------------------------------------------------------------------

def test_split_documents_ids_parent_and_overlap():
    text = " ".join(f"Sentence number {i} is here." for i in range(40))
    chunks = split_documents([Document(text, metadata={"id": "doc", "source": "x"})], chunk_size=200, chunk_overlap=50)
    assert len(chunks) > 3
    assert [c.metadata["id"] for c in chunks] == [f"doc#{n}" for n in range(len(chunks))]
    assert {c.metadata["parent_id"] for c in chunks} == {"doc"} and all(c.metadata["source"] == "x" for c in chunks)
    assert all(len(c.page_content) <= 200 for c in chunks)
    for chunk in chunks:
        start = chunk.metadata["start_index"]
        assert text[start : start + len(chunk.page_content)] == chunk.page_content
    # consecutive chunks overlap
    assert chunks[1].metadata["start_index"] < chunks[0].metadata["start_index"] + len(chunks[0].page_content)
    # no id: the position in the input list is used
    assert split_documents([Document("a b c")], 10, 2)[0].metadata["id"] == "0#0"
    with pytest.raises(ValueError, match="chunk_overlap"):
        split_documents([Document("x")], chunk_size=10, chunk_overlap=10)


# --- metrics ------------------------------------------------------------------------------------------

def test_ndcg_and_recall_hand_values():
    judged = {"a": 1, "b": 2, "z": 0}
    ranking = ["x", "b", "a", "y"]
    dcg = 2 / math.log2(3) + 1 / math.log2(4)
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert ndcg_at_k(ranking, judged, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(ranking, judged, 2) == pytest.approx((2 / math.log2(3)) / idcg)
    assert ndcg_at_k(["b", "a"], judged, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["x"], judged, 10) == 0.0
    assert recall_at_k(ranking, judged, 2) == 0.5
    assert recall_at_k(ranking, judged, 3) == 1.0
    assert recall_at_k(ranking, {"a": 0}, 3) == 0.0


def test_evaluate_averages_over_judged_queries_and_missing_runs_count_zero():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    scores = evaluate({"q1": ["a"]}, qrels, ks=(10,))
    assert scores == {"ndcg@10": 0.5, "recall@10": 0.5}
    with pytest.raises(ValueError, match="qrels is empty"):
        evaluate({}, {})


# --- BEIR ---------------------------------------------------------------------------------------------

def write_beir(folder: Path, corpus_lines: list[str] | None = None, qrels: str | None = None) -> Path:
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    corpus_lines = corpus_lines or [
        json.dumps({"_id": "d1", "title": "Moon", "text": "Tides are caused by the moon."}),
        json.dumps({"_id": "d2", "title": "", "text": "Bees dance."}),
    ]
    (folder / "corpus.jsonl").write_text("\n".join(corpus_lines) + "\n")
    (folder / "queries.jsonl").write_text(
        json.dumps({"_id": "q1", "text": "what causes tides"}) + "\n" + json.dumps({"_id": "q2", "text": "unjudged"}) + "\n"
    )
    (folder / "qrels" / "test.tsv").write_text(qrels if qrels is not None else "query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    return folder


def test_load_beir_reads_a_folder(tmp_path):
    data = load_beir(write_beir(tmp_path))
    assert data.queries == {"q1": "what causes tides"}  # only judged queries
    assert data.qrels == {"q1": {"d1": 1}}
    docs = data.documents()
    assert docs[0].page_content == "Moon Tides are caused by the moon." and docs[0].metadata["id"] == "d1"
    assert docs[1].page_content == "Bees dance."


def test_load_beir_errors_name_what_and_where(tmp_path):
    with pytest.raises(FileNotFoundError, match="BEIR folder not found"):
        load_beir(tmp_path / "nope")
    folder = write_beir(tmp_path / "bad_json", corpus_lines=['{"_id": "d1", "text": "ok"}', "{not json"])
    with pytest.raises(ValueError, match=r"corpus.jsonl, line 2: not valid JSON"):
        load_beir(folder)
    folder = write_beir(tmp_path / "no_id", corpus_lines=['{"text": "no id"}'])
    with pytest.raises(ValueError, match=r"line 1: missing field\(s\) \['_id'\]"):
        load_beir(folder)
    folder = write_beir(tmp_path / "columns", qrels="q1\td1\n")
    with pytest.raises(ValueError, match="test.tsv, line 1: expected 3 tab-separated columns"):
        load_beir(folder)
    folder = write_beir(tmp_path / "grade", qrels="q1\td1\thigh\n")
    with pytest.raises(ValueError, match="score 'high' is not an integer"):
        load_beir(folder)
    with pytest.raises(FileNotFoundError, match=r"no qrels for this split.*splits found: \['test'\]"):
        load_beir(write_beir(tmp_path / "split"), split="dev")
    folder = write_beir(tmp_path / "missing")
    (folder / "queries.jsonl").unlink()
    with pytest.raises(FileNotFoundError, match="missing queries.jsonl"):
        load_beir(folder)


def test_scifact_bm25_smoke():
    scifact = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "scifact"
    if not scifact.is_dir():
        pytest.skip(f"SciFact not found at {scifact}")
    data = load_beir(scifact, "test")
    assert (len(data.corpus), len(data.queries)) == (5183, 300)
    # BM25 over the judged documents of 20 queries plus 500 others: quick, and the relevant one must surface
    qids = sorted(data.queries)[:20]
    keep = {d for q in qids for d in data.qrels[q]} | set(sorted(data.corpus)[:500])
    retriever = BM25Retriever.from_documents([d for d in data.documents() if d.metadata["id"] in keep])
    run = {q: [d.metadata["id"] for d, _ in retriever.search_with_scores(data.queries[q], 10)] for q in qids}
    assert evaluate(run, {q: data.qrels[q] for q in qids}, ks=(10,))["ndcg@10"] > 0.6


# --- save / load --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return load_embedder(cache_dir=tmp_path_factory.mktemp("embeddings"))


def test_bm25_save_load_round_trip(tmp_path):
    original = BM25Retriever.from_documents(DOCS, k1=0.9, b=0.4, k=2)
    original.save(tmp_path / "bm25")
    loaded = BM25Retriever.load(tmp_path / "bm25")
    assert (loaded.k1, loaded.b, loaded.k) == (0.9, 0.4, 2)
    assert loaded.search_with_scores("moon tides", 3) == original.search_with_scores("moon tides", 3)
    with pytest.raises(ValueError, match="holds a 'bm25' index, not a 'dense' index"):
        DenseRetriever.load(tmp_path / "bm25")
    with pytest.raises(FileNotFoundError, match="no saved index"):
        BM25Retriever.load(tmp_path / "elsewhere")


def test_dense_save_load_round_trip(tmp_path, embedder):
    original = DenseRetriever.from_documents(DOCS, embeddings=embedder, search_type="mmr", fetch_k=3)
    original.save(tmp_path / "dense")
    loaded = DenseRetriever.load(tmp_path / "dense", embeddings=embedder)
    assert loaded.search_type == "mmr" and loaded.fetch_k == 3
    before = [(d.metadata["id"], round(s, 5)) for d, s in original.search_with_scores("why do bees dance", 3)]
    after = [(d.metadata["id"], round(s, 5)) for d, s in loaded.search_with_scores("why do bees dance", 3)]
    assert before == after


def test_failed_save_leaves_the_old_index_intact(tmp_path, monkeypatch):
    target = tmp_path / "index"
    BM25Retriever.from_documents(DOCS[:1]).save(target)

    def crash(path, docs):
        path.write_text("half a fi")
        raise OSError("disk full")

    monkeypatch.setattr("ragkit.core.bm25.write_documents", crash)
    with pytest.raises(OSError, match="disk full"):
        BM25Retriever.from_documents(DOCS).save(target)
    monkeypatch.undo()
    survivor = BM25Retriever.load(target)
    assert [d.metadata["id"] for d in survivor.docs] == ["t"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]  # no temporary folder left behind
    # a later successful save replaces the index completely
    BM25Retriever.from_documents(DOCS).save(target)
    assert len(BM25Retriever.load(target).docs) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]


def test_atomic_directory_refuses_to_overwrite_a_file(tmp_path):
    (tmp_path / "taken").write_text("not an index")
    with pytest.raises(FileExistsError, match="a file"):
        with atomic_directory(tmp_path / "taken"):
            pass


