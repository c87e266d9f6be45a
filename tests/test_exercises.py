"""Every exercise checker against the solution (passes), the stub (fails, naming what is missing) and plausible
wrong answers (fail, naming the mistake).

The stub and the solution are read from the notebooks themselves (cells tagged ``exercise`` and ``solution``),
so what the test checks is what a learner sees. Those cells are self-contained: each runs alone in a fresh
namespace. The wrong answers are the checkers' own ``Variant`` lists plus a few written here the way a
learner would write them.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

import ragkit.exercises as exercises
from ragkit.domains.handbook.agents import HANDBOOK_TEAM
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.exercises import EXERCISES, ch00, ch01, ch02, ch03, ch04, ch05, ch06, ch07, ch08, ch09, ch10, ch11, ch12
from ragkit.exercises.core import CheckResult, Variant

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
CHECKER_CALL = re.compile(r"^(check_\w+)\((\w+)\)\s*$")
MODULES = {nb: importlib.import_module(f"ragkit.exercises.ch{nb}") for nb in EXERCISES}


def tags(cell: nbformat.NotebookNode) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def notebook_exercises() -> list[tuple[str, str, str, str, str]]:
    """``(notebook number, checker name, function name, stub source, solution source)`` per exercise."""
    found = []
    for path in sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        for i, cell in enumerate(cells):
            if "exercise" not in tags(cell):
                continue
            match = CHECKER_CALL.match(cells[i + 1].source.strip())
            assert match and "checker" in tags(cells[i + 1]), f"{path.name} cell {i}: the exercise has no checker call after it"
            assert "solution" in tags(cells[i + 2]), f"{path.name} cell {i}: no solution cell after the checker"
            found.append((path.name[:2], match.group(1), match.group(2), cell.source, cells[i + 2].source))
    return found


CASES = notebook_exercises()
IDS = [f"{nb}-{checker}" for nb, checker, *_ in CASES]


def variants_of(module: object) -> list[Variant]:
    return [v for value in vars(module).values() if isinstance(value, list) for v in value if isinstance(v, Variant)]


def run_cell(source: str, name: str) -> object:
    namespace: dict = {}
    exec(compile(source, f"<cell defining {name}>", "exec"), namespace)  # noqa: S102 - our own notebook cells
    return namespace[name]


def test_every_listed_checker_is_used_in_its_notebook() -> None:
    used: dict[str, list[str]] = {}
    for nb, checker, *_ in CASES:
        used.setdefault(nb, []).append(checker)
    assert {nb: tuple(names) for nb, names in used.items()} == EXERCISES


@pytest.mark.parametrize("nb, checker, name, stub, solution", CASES, ids=IDS)
def test_solution_passes(nb: str, checker: str, name: str, stub: str, solution: str) -> None:
    result = getattr(exercises, checker)(run_cell(solution, name), quiet=True)
    assert isinstance(result, CheckResult)
    assert result.passed, result.message
    assert any(words in result.message for words in ("generated", "budgets", "the builder's"))  # what it checked


@pytest.mark.parametrize("nb, checker, name, stub, solution", CASES, ids=IDS)
def test_stub_fails_with_a_named_mistake(nb: str, checker: str, name: str, stub: str, solution: str) -> None:
    assert "# TODO" in stub, "a stub shows where to work with a # TODO"
    result = getattr(exercises, checker)(run_cell(stub, name), quiet=True)
    assert not result.passed
    hints = [v.hint for v in variants_of(MODULES[nb])]
    assert any(result.message.endswith(hint) for hint in hints), (
        f"the stub's message names no mistake: {result.message}")
    assert "reference" in result.message or "ragkit" in result.message  # and shows the expected answer


def checker_variants() -> list[tuple[str, Variant]]:
    """Each checker with the variant list it uses (``CHECK_RRF`` uses ``RRF_VARIANTS`` and so on)."""
    pairs = {
        "check_cosine": ch00.COSINE_VARIANTS, "check_keyword_overlap": ch00.OVERLAP_VARIANTS,
        "check_bm25": ch01.BM25_VARIANTS, "check_rrf": ch01.RRF_VARIANTS, "check_mmr": ch01.MMR_VARIANTS,
        "check_capped_router": ch02.ROUTER_VARIANTS, "check_reducer": ch02.REDUCER_VARIANTS,
        "check_route_table": ch03.TABLE_VARIANTS, "check_prototype_scores": ch03.PROTOTYPE_VARIANTS,
        "check_adaptive_wiring": ch03.WIRING_VARIANTS, "check_query_analysis_wiring": ch07.WIRING_VARIANTS,
        "check_threshold_for_recall": ch04.THRESHOLD_VARIANTS, "check_precision_recall": ch04.PR_VARIANTS,
        "check_can_rewrite": ch04.BUDGET_VARIANTS, "check_verdict_router": ch05.JUDGE_VARIANTS,
        "check_same_query": ch05.SAME_QUERY_VARIANTS, "check_invented_argument_guard": ch06.GUARD_VARIANTS,
        "check_call_digest": ch06.DIGEST_VARIANTS, "check_tool_loop_wiring": ch06.WIRING_VARIANTS,
        "check_self_rag_wiring": ch04.WIRING_VARIANTS, "check_crag_wiring": ch05.WIRING_VARIANTS,
        "check_price_bounds": ch07.BOUND_VARIANTS, "check_cheapest_without": ch07.CHEAPEST_VARIANTS,
        "check_beta_update": ch09.UPDATE_VARIANTS, "check_thompson_choice": ch09.CHOICE_VARIANTS,
        "check_cumulative_regret": ch09.REGRET_VARIANTS, "check_bandit_wiring": ch09.WIRING_VARIANTS,
        "check_read_ndjson": ch12.READER_VARIANTS, "check_percentile": ch12.PERCENTILE_VARIANTS,
        "check_served_graph_wiring": ch12.WIRING_VARIANTS, "check_supervisor_wiring": ch10.WIRING_VARIANTS,
        "check_plan_parser": ch10.PLAN_VARIANTS, "check_hop_router": ch10.HOP_VARIANTS,
        "check_import_allowlist": ch10.IMPORT_VARIANTS,
        "check_cited_articles": ch11.CITATION_VARIANTS, "check_articles_within": ch11.WALK_VARIANTS,
        "check_statute_qa_wiring": ch11.WIRING_VARIANTS,
        "check_retry_router": ch08.RETRY_VARIANTS, "check_fuse_queries": ch08.FUSE_VARIANTS,
        "check_advanced_wiring": ch08.WIRING_VARIANTS,
    }
    assert set(pairs) == {c for names in EXERCISES.values() for c in names}
    return [(checker, v) for checker, variants in pairs.items() for v in variants]


@pytest.mark.parametrize("checker, variant", checker_variants(),
                         ids=lambda x: x if isinstance(x, str) else x.hint[:40])
def test_each_plausible_wrong_answer_fails_and_is_named(checker: str, variant: Variant) -> None:
    result = getattr(exercises, checker)(variant.fn, quiet=True)
    assert not result.passed
    assert result.message.endswith(variant.hint), result.message


# ---------------------------------------------------------------- wrong answers written as a learner would
def rrf_rank_from_zero(rankings, k=60):
    scores = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking):
            scores[key] = scores.get(key, 0) + 1 / (k + rank)
    return sorted(scores.items(), key=lambda kv: kv[1], reverse=True)


def cosine_without_norm(u, v):
    return sum(a * b for a, b in zip(u, v))


def route_cap_before_success(state):
    if len(state["guesses"]) >= state["max_guesses"] or state["low"] > state["high"]:
        return "give_up"
    return "found" if state["hint"] == "correct" else "guess"


def same_query_lower(a, b):
    return a.strip().lower() == b.strip().lower()


def guard_substring(call, user_text):
    spec = ch06.SPECS.get(call["name"])
    if spec is None or any(not str(call["args"].get(a) or "").strip() for a in spec.required):
        return "refuse"
    if call["args"].get("order_id") and call["args"]["order_id"] not in user_text:
        return "refuse"
    return "approve" if spec.mutates else "execute"


def percentile_at_q_times_n(values, q):  # interpolates, but at position q * n
    ordered = sorted(values)
    position = q * len(ordered)
    below = min(int(position), len(ordered) - 1)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])


def supervisor_with_a_fixed_hop():  # every agent hands on to next_hop with a fixed edge
    from langgraph.graph import END, START, StateGraph

    from ragkit.graphs.supervisor import (
        SupervisorState,
        route_after_check_question,
        route_after_next_hop,
        route_after_supervisor,
        supervisor_graph,
    )

    graph = StateGraph(SupervisorState)
    for name, node in supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM).nodes.items():
        graph.add_node(name, node.runnable)
    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_conditional_edges("supervisor", route_after_supervisor)
    for agent in ("rag", "code", "analysis", "chitchat"):
        graph.add_edge(f"{agent}_agent", "next_hop")
    graph.add_conditional_edges("next_hop", route_after_next_hop)
    graph.add_edge("aggregator", END)
    return graph


@pytest.mark.parametrize("checker, fn, words", [
    ("check_percentile", percentile_at_q_times_n, "q-quantile sits at q * (n - 1)"),
    ("check_supervisor_wiring", supervisor_with_a_fixed_hop, "rag_agent -> next_hop (a router's choice): this edge comes "
                                                             "from a router"),
    ("check_rrf", rrf_rank_from_zero, "rank starting at 1"),
    ("check_cosine", cosine_without_norm, "divide by the two lengths"),
    ("check_capped_router", route_cap_before_success, "test for 'correct' first"),
    ("check_same_query", same_query_lower, "ignore"),
    ("check_invented_argument_guard", guard_substring, "whole word"),
])
def test_learner_style_mistakes_are_named(checker: str, fn, words: str) -> None:
    result = getattr(exercises, checker)(fn, quiet=True)
    assert not result.passed and words in result.message, result.message


# ---------------------------------------------------------------- robustness of the checkers themselves
def test_an_exception_in_the_learners_code_is_reported_not_raised() -> None:
    def broken(rankings, k=60):
        raise ZeroDivisionError("division by zero")

    result = ch01.check_rrf(broken, quiet=True)
    assert not result.passed and "raised ZeroDivisionError: division by zero" in result.message


def test_a_non_function_is_explained() -> None:
    result = ch01.check_rrf(ch01.reciprocal_rank_fusion([["a"]]), quiet=True)
    assert not result.passed and "pass the function itself" in result.message


def test_wrong_return_types_are_reported_in_words() -> None:
    assert "one number per document" in ch01.check_bm25(lambda q, d, k1, b: "scores", quiet=True).message
    assert "(doc id, score)" in ch01.check_rrf(lambda r, k=60: 42, quiet=True).message


def test_seeded_cases_repeat_and_differ_between_seeds() -> None:
    assert ch01.rrf_cases(0) == ch01.rrf_cases(0)
    assert ch01.rrf_cases(0) != ch01.rrf_cases(1)
    assert ch04.scored_label_cases(3) == ch04.scored_label_cases(3)
    first = ch02.check_capped_router(lambda state: "guess", quiet=True).message
    assert ch02.check_capped_router(lambda state: "guess", quiet=True).message == first


def test_the_cases_are_generated_not_one_example() -> None:
    for cases in [ch00.vector_pairs(0), ch00.overlap_cases(0), ch01.bm25_cases(0), ch01.mmr_cases(0), ch02.router_cases(0),
                  ch02.reducer_cases(0), ch03.table_cases(0), ch03.prototype_cases(0), ch04.budget_cases(0),
                  ch05.judge_cases(0), ch05.query_pairs(0), ch06.guard_cases(0), ch06.digest_cases(0),
                  ch07.bound_cases(0), ch07.menu_cases(0),
                  ch09.update_cases(0), ch09.choice_cases(0), ch09.regret_cases(0),
                  ch10.reply_cases(0), ch10.hop_cases(0), ch10.import_cases(0),
                  ch11.citation_cases(0), ch11.walk_cases(0)]:
        assert len(cases) >= 15 and len(set(map(repr, cases))) >= 10


def test_result_shows_as_plain_text_outside_jupyter(capsys: pytest.CaptureFixture[str]) -> None:
    result = ch00.check_cosine(lambda u, v: float(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)))
    printed = capsys.readouterr().out
    assert result.passed and printed.startswith("Passed (cosine):")
    assert "&#10003;" in result._repr_html_() and "cosine_matrix" in result._repr_html_()


def test_mmr_checker_tells_near_duplicates_apart() -> None:
    """Every generated MMR case has a near-duplicate pair, so plain top-k relevance differs from MMR somewhere."""
    top_k = ch01.MMR_VARIANTS[0].fn
    differs = [top_k(np.array(c.query), np.array(c.candidates), c.k, c.lambda_mult) != ch01.reference_mmr(
        np.array(c.query), np.array(c.candidates), c.k, c.lambda_mult) for c in ch01.mmr_cases(0)]
    assert sum(differs) >= 5


# ---------------------------------------------------------------- wiring a graph by hand
def test_the_wiring_checker_passes_the_builders_graph_and_names_what_a_wrong_one_lacks() -> None:
    from langgraph.graph import END, START, StateGraph

    from ragkit.exercises.core import check_wiring
    from ragkit.graphs.crag import CragState, crag_graph

    reference = crag_graph(retriever=lambda q: [])
    assert check_wiring(lambda: crag_graph(retriever=lambda q: []), reference, "crag", quiet=True).passed

    def fixed_instead_of_routed():  # the judge's router replaced by a fixed edge to write
        mine = crag_graph(retriever=lambda q: [])
        del mine.branches["judge"]
        return mine.add_edge("judge", "write")

    result = check_wiring(fixed_instead_of_routed, reference, "crag", quiet=True)
    assert not result.passed and "judge -> write (a router's choice): this edge comes from a router" in result.message
    result = check_wiring(lambda: 42, reference, "crag", quiet=True)
    assert not result.passed and "does not compile" in result.message
    empty = StateGraph(CragState).add_node("refine", lambda s: s).add_edge(START, "refine").add_edge("refine", END)
    result = check_wiring(lambda: empty, reference, "crag", quiet=True)
    assert "add the node(s) ask_back, clarify" in result.message and "extra edge refine -> END" in result.message


@pytest.mark.parametrize("checker, variants", [("check_tool_loop_wiring", ch06.WIRING_VARIANTS),
                                               ("check_advanced_wiring", ch08.WIRING_VARIANTS),
                                               ("check_bandit_wiring", ch09.WIRING_VARIANTS),
                                               ("check_supervisor_wiring", ch10.WIRING_VARIANTS),
                                               ("check_served_graph_wiring", ch12.WIRING_VARIANTS),
                                               ("check_self_rag_wiring", ch04.WIRING_VARIANTS),
                                               ("check_crag_wiring", ch05.WIRING_VARIANTS),
                                               ("check_statute_qa_wiring", ch11.WIRING_VARIANTS)])
def test_a_wrong_wiring_names_each_edge_it_lacks_or_adds_then_the_mistake(checker: str, variants: list) -> None:
    for variant in variants:
        message = getattr(exercises, checker)(variant.fn, quiet=True).message
        named = re.match(r"(?:missing edge |extra edge )?\w+ -> \w+", message)  # the first edge that differs
        assert named and message.endswith(variant.hint), message


@pytest.mark.parametrize("checker, missing", [("check_self_rag_wiring", "grade_generation -> generate"),
                                              ("check_crag_wiring", "clarify -> retrieve")])
def test_the_wiring_stubs_fail_naming_the_missing_edge(checker: str, missing: str) -> None:
    (stub,) = [s for nb, c, name, s, _ in CASES if c == checker]
    result = getattr(exercises, checker)(run_cell(stub, "build_my_graph"), quiet=True)
    assert not result.passed and f"missing edge {missing}" in result.message, result.message
