"""Golden-set replay: metrics by hand, replay and summary with a scripted runner, bad golden files, the CLI."""

from __future__ import annotations

import json

import pytest
from langchain_core.documents import Document

from ragkit.evaluation.metrics import context_precision, context_recall, exact_match, token_f1
from ragkit.evaluation.replay import GoldenItem, answer_of, load_golden, replay, summarise


def test_metrics_follow_their_definitions():
    assert token_f1("Lucene uses k1 = 1.2 [1].", "k1 is 1.2 in Lucene") == pytest.approx(2 * (3 / 4) * (3 / 5) / (3 / 4 + 3 / 5))
    assert exact_match("The answer.", "answer") == 1.0 and exact_match("an answer", "other") == 0.0
    assert context_precision([], ["a"]) is None and context_recall(["a"], []) is None
    assert context_precision(["a", "b", "c", "d"], ["a", "c"]) == 0.5 and context_recall(["a"], ["a", "c"]) == 0.5


def test_answer_of_reads_every_graphs_state_shape():
    from ragkit.roles.protocols import Answer

    assert answer_of({"answer": "No.", "outcome": "refused"}) == ("No.", True)
    assert answer_of({"generation": "Six oysters.", "answer": Answer("Six oysters.")}) == ("Six oysters.", False)
    assert answer_of({"generation": "x", "answer": {"text": "x", "answered": False}}) == ("x", True)  # server JSON
    assert answer_of({"messages": [{"type": "ai", "content": "Order A1002 shipped."}]}) == ("Order A1002 shipped.", False)


class ScriptedRunner:
    name, full_contexts = "scripted", True

    def __init__(self, states):
        self.states = list(states)

    def run(self, question, thread_id):
        state = self.states.pop(0)
        if isinstance(state, Exception):
            raise state
        return state


def test_replay_scores_each_item_and_records_failures_without_stopping():
    items = [GoldenItem("What is k1?", "k1 controls saturation", ("HB-11",), "factual", "g1"),
             GoldenItem("Who won in 1998?", "The handbook does not say.", (), "unanswerable", "g2"),
             GoldenItem("Broken?", "x", ("HB-01",), "factual", "g3")]
    states = [{"answer": "k1 controls saturation [1].", "outcome": "answered", "sources": [Document("k1 controls saturation.", metadata={"id": "HB-11"})],
               "timings": [("retrieve", 0.5), ("judge", 0.25), ("retrieve", 0.5)]},
              {"answer": "The knowledge base does not cover this question.", "outcome": "refused", "kept": []},
              ConnectionError("index offline")]

    class Grounded:
        def check(self, docs, answer):
            from ragkit.roles.protocols import Groundedness
            return Groundedness(True)

    rows = replay(items, ScriptedRunner(states), grader=Grounded(), progress=False)
    assert rows[0]["scores"] == {"exact_match": 1.0, "token_f1": 1.0, "refused": 0.0, "context_precision": 1.0,
                                 "context_recall": 1.0, "faithfulness": 1.0}
    assert rows[0]["node_seconds"] == {"retrieve": 1.0, "judge": 0.25}
    assert rows[1]["scores"]["refused"] == 1.0 and rows[1]["scores"]["context_recall"] is None
    assert rows[2]["error"] == "ConnectionError: index offline"
    summary = summarise(rows)
    assert summary["factual"]["token_f1"] == {"mean": 1.0, "std": 0.0, "n": 1}
    assert summary["all"]["errors"]["mean"] == round(1 / 3, 4) and summary["unanswerable"]["refused"]["mean"] == 1.0


def test_bad_golden_files_are_clear_errors(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"question": "q"}\n')
    with pytest.raises(ValueError, match="line 1: missing"):
        load_golden(path)
    path.write_text("not json\n")
    with pytest.raises(ValueError, match="not JSON"):
        load_golden(path)
    with pytest.raises(FileNotFoundError):
        load_golden(tmp_path / "none.jsonl")


def test_a_json_document_instead_of_json_lines_is_named_as_such(tmp_path):
    """A learner passes a .json set (a list over several lines): the error says it is not JSON Lines, not "line 1"."""
    item = {"question": "q", "reference_answer": "a", "reference_context_ids": ["HB-01"], "category": "factual"}
    path = tmp_path / "g.json"
    path.write_text(json.dumps([item], indent=1))
    with pytest.raises(ValueError, match="one JSON document, not JSON Lines"):
        load_golden(path)
    path.write_text(json.dumps(item) + "\n" + "{broken\n")  # a JSONL file with a bad line keeps its line number
    with pytest.raises(ValueError, match="line 2: not JSON"):
        load_golden(path)


def test_the_frozen_golden_sets_load_with_their_hash():
    for name in ("handbook_golden.jsonl", "statute_golden.jsonl"):
        from ragkit.core.files import data_dir

        items, digest = load_golden(data_dir() / "eval" / name)
        assert len(items) >= 40 and len(digest) == 64


def test_ragkit_eval_command_in_process(tmp_path, capsys):
    from ragkit.cli import main

    golden = tmp_path / "mini.jsonl"
    golden.write_text(json.dumps({"question": "What does the BM25 parameter k1 control?", "reference_answer":
                                  "term frequency saturation", "reference_context_ids": ["HB-11"], "category": "factual"}) + "\n")
    assert main(["eval", "--graph", "crag", "--golden", str(golden), "--out", str(tmp_path / "r.jsonl"),
                 "--save", str(tmp_path / "s.json")]) == 0
    row = json.loads((tmp_path / "r.jsonl").read_text())
    assert row["scores"]["context_recall"] == 1.0 and "saturation" in row["answer"]
    saved = json.loads((tmp_path / "s.json").read_text())
    assert saved["sha256"] is None and saved["summary"]["factual"]["context_recall"]["mean"] == 1.0  # not a frozen set
    assert main(["eval", "--graph", "nope", "--golden", str(golden)]) == 2 and "unknown graph" in capsys.readouterr().err


def test_ragas_script_says_what_it_needs_when_ragas_is_missing(tmp_path, capsys):
    import ragkit.evaluation.ragas_scores as ragas_scores

    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"question": "q", "answer": "a", "contexts": [{"id": "x", "text": "t"}]}) + "\n")
    assert ragas_scores.read_rows(str(path))[0]["answer"] == "a"
    code = ragas_scores.main([str(path)])
    assert code == 2 and ("ragas" in capsys.readouterr().err)
