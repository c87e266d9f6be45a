"""The ``ragkit`` console script: help, --json on a tiny BEIR folder, --save, clear errors."""

from __future__ import annotations

import json

import pytest

from ragkit.cli import main


def make_beir(folder):
    """A three-document BEIR folder whose two queries each have one obvious answer."""
    (folder / "qrels").mkdir(parents=True)
    corpus = {"d1": "Ocean tides are caused by the pull of the moon.", "d2": "Honey bees dance to point at flowers.", "d3": "Tea is bitter."}
    queries = {"q1": ("What causes ocean tides?", "d1"), "q2": ("Why do bees dance?", "d2")}
    (folder / "corpus.jsonl").write_text("".join(json.dumps({"_id": k, "title": "", "text": t}) + "\n" for k, t in corpus.items()))
    (folder / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t}) + "\n" for q, (t, _) in queries.items()))
    (folder / "qrels" / "test.tsv").write_text("".join(f"{q}\t{d}\t1\n" for q, (_, d) in queries.items()))
    return folder


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path / "cache"))


def test_help_lists_the_bench_command(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "bench" in capsys.readouterr().out


def test_bench_retrieval_json(tmp_path, capsys):
    folder = make_beir(tmp_path / "beir")
    save = tmp_path / "out" / "results.json"
    code = main(["bench", "retrieval", "--data", str(folder), "--json", "--systems", "bm25,hybrid", "--save", str(save)])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(printed) == ["bm25", "hybrid"]
    assert set(printed["bm25"]) == {"ndcg@10", "recall@100", "index_s", "query_ms_p50"}
    assert printed["hybrid"]["ndcg@10"] == pytest.approx(1.0)
    record = json.loads(save.read_text())
    assert record["results"] == printed and record["command"].startswith("ragkit bench retrieval --data")
    assert record["params"]["fusion"] in ("rrf", "weighted")


def test_bench_retrieval_table(tmp_path, capsys):
    assert main(["bench", "retrieval", "--data", str(make_beir(tmp_path / "beir")), "--systems", "bm25", "--limit-queries", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("system") and lines[1].startswith("bm25")


def test_bench_retrieval_errors_are_clear(tmp_path, capsys):
    assert main(["bench", "retrieval", "--data", str(tmp_path / "missing")]) == 2
    assert "BEIR folder not found" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "retrieval", "--data", str(tmp_path), "--systems", "bm25,magic"])
    assert "unknown system" in capsys.readouterr().err


def test_bench_tune_reports_best_points(tmp_path, capsys):
    save = tmp_path / "tuning.json"
    assert main(["bench", "tune", "--data", str(make_beir(tmp_path / "beir")), "--split", "test", "--save", str(save)]) == 0
    best = json.loads(capsys.readouterr().out)
    assert set(best) == {"bm25", "fusion", "reranker"}
    assert best["fusion"]["ndcg@10"] == pytest.approx(1.0)
    record = json.loads(save.read_text())
    assert len(record["bm25"]["grid"]) == 36 and record["command"].startswith("ragkit bench tune")
    assert all(row["weights"]["sentence"] == 0.0 for row in record["reranker"]["grid"])


def test_bench_tune_maxp_adds_the_passage_stage(tmp_path, capsys):
    save = tmp_path / "tuning_maxp.json"
    folder = make_beir(tmp_path / "beir")
    assert main(["bench", "tune", "--data", str(folder), "--split", "test", "--dense", "maxp", "--save", str(save)]) == 0
    best = json.loads(capsys.readouterr().out)
    assert list(best) == ["bm25", "maxp", "fusion", "reranker"]
    record = json.loads(save.read_text())
    assert record["dense"] == "maxp" and [row["include_whole"] for row in record["maxp"]["grid"]] == [False, True]
    with pytest.raises(SystemExit):
        main(["bench", "tune", "--data", str(folder), "--dense", "chunks"])
    assert "invalid choice" in capsys.readouterr().err
