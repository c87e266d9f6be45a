"""How the router is measured (benchmarks/roles/router_accuracy.py): grouped folds keep a subject's questions
together, cross-validation by groups, and the near-duplicate stop for every frozen reporting set.

Constructed vectors and questions only; the labelled routing sets are never read here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from ragkit.core.nlp import words
from tests.conftest import benchmark_script

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    """benchmarks/roles/router_accuracy.py as a module (benchmarks/ is not a package)."""
    return benchmark_script("roles/router_accuracy.py")


def unit(*rows: list[float]) -> np.ndarray:
    vectors = np.array(rows, dtype=float)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_subject_groups_link_close_questions_transitively_and_keep_distant_ones_apart(bench) -> None:
    # a~b and b~c at the bar, a and c not: one subject all the same; d is far from all three.
    vectors = unit([1.0, 0.0, 0.0], [0.96, 0.28, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0])
    assert vectors[0] @ vectors[2] < 0.9 <= min(vectors[0] @ vectors[1], vectors[1] @ vectors[2])
    assert bench.subject_groups(vectors, bar=0.9).tolist() == [0, 0, 0, 1]
    assert bench.subject_groups(vectors, bar=0.99).tolist() == [0, 1, 2, 3]  # a strict bar: every question alone


def test_grouped_folds_never_split_a_group_and_balance_the_folds(bench) -> None:
    groups = np.array([0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    for seed in range(5):
        folds = bench.grouped_folds(groups, 3, np.random.default_rng(seed))
        for group in np.unique(groups):
            assert len(set(folds[groups == group])) == 1  # a subject sits in one fold
        sizes = np.bincount(folds, minlength=3)
        assert sizes.max() - sizes.min() <= 1, sizes
    again = bench.grouped_folds(groups, 3, np.random.default_rng(0))
    assert again.tolist() == bench.grouped_folds(groups, 3, np.random.default_rng(0)).tolist()  # seeded


def test_grouped_cross_validation_scores_a_question_without_its_twin(bench, monkeypatch) -> None:
    # Two settings over four questions that come in twin pairs (0,1) and (2,3). Setting 1 is right on one twin
    # of each pair only, setting 0 on the other; under random folds a twin can tune the fold its pair is
    # scored in, under grouped folds never: each fold tunes on the other pair and scores this one.
    monkeypatch.setattr(bench, "GRID", {"a": [0, 1]})
    settings = [{"a": 0}, {"a": 1}]
    correct = np.array([[True, False, True, False], [False, True, False, True]])
    groups = np.array([0, 0, 1, 1])
    grouped = bench.cross_validate(settings, correct, folds=2, repeats=3, groups=groups)
    assert grouped["groups"] == 2 and "grouped" in grouped
    assert grouped["mean_accuracy"] == pytest.approx(0.5) and grouped["std"] == 0.0
    assert "groups" not in bench.cross_validate(settings, correct, folds=2, repeats=3)


class WordEmbedder(Embeddings):
    """One axis per distinct word seen so far: identical questions have cosine 1, others much less."""

    def __init__(self) -> None:
        self.vocabulary: dict[str, int] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        for text in texts:
            for word in words(text):
                self.vocabulary.setdefault(word, len(self.vocabulary))
        size = 400
        out = []
        for text in texts:
            vector = np.zeros(size)
            for word in words(text):
                vector[self.vocabulary[word] % size] += 1.0
            vector[-1] += 0.1
            out.append(list(vector / np.linalg.norm(vector)))
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def test_a_frozen_set_that_nearly_repeats_a_dev_question_stops_the_run(bench) -> None:
    dev = [{"question": "Is the quince jelly homemade?", "route": "search_menu"}]
    clean = {"dev": dev, "fresh": [{"question": "Who painted the ceiling of a chapel in Padua?", "route": "llm_fallback"}]}
    report = bench.check_no_leaks(dict(clean), WordEmbedder())
    assert report["fresh"]["dropped_near_duplicates"] == 0
    for frozen in ("fresh", "blind"):
        leaking = {"dev": dev, frozen: [{"question": "Is the quince jelly homemade ?", "route": "search_menu"}]}
        with pytest.raises(SystemExit, match=f"1 {frozen} questions nearly repeat"):
            bench.check_no_leaks(leaking, WordEmbedder())
    # The older test set is not frozen: its near-duplicates are dropped and counted, not fatal.
    older = {"dev": dev, "test": [{"question": "Is the quince jelly homemade ?", "route": "search_menu"}]}
    assert bench.check_no_leaks(older, WordEmbedder())["test"]["dropped_near_duplicates"] == 1
    # The new blind set is run once by the lead: measured whole, its near-duplicates counted beside the figure.
    tolerant = {"dev": dev, "blind2": [{"question": "Is the quince jelly homemade ?", "route": "search_menu"}]}
    report = bench.check_no_leaks(tolerant, WordEmbedder())
    assert report["blind2"]["near_duplicates_kept"] == 1 and len(tolerant["blind2"]) == 1


def test_cross_validation_reports_the_held_out_accuracy_of_each_route(bench, monkeypatch) -> None:
    # One setting, right on both "a" questions and one of two "b" questions: held out, a 1.0 and b 0.5.
    monkeypatch.setattr(bench, "GRID", {"x": [0]})
    correct = np.array([[True, True, True, False]])
    out = bench.cross_validate([{"x": 0}], correct, folds=2, repeats=2, labels=["a", "a", "b", "b"])
    assert out["per_route_accuracy"] == {"a": 1.0, "b": 0.5} and out["mean_accuracy"] == pytest.approx(0.75)


def test_the_signal_grid_holds_the_shared_values_at_the_given_setting(bench) -> None:
    setting = {key: values[-1] for key, values in bench.GRID.items()}
    grid = bench.fixed_grid(setting, bench.SIGNAL_KEYS)
    assert all(grid[key] == bench.GRID[key] for key in bench.SIGNAL_KEYS)
    assert all(grid[key] == [setting[key]] for key in bench.SHARED_KEYS)
    assert "ours" in bench.SIGNAL_KEYS and "blind2" in bench.REPORTING_SETS and "blind2" in bench.FROZEN
