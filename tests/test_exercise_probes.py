"""Checkers against answers a learner really writes when they get it wrong: a forgotten ``return``, a numpy array
or a dict where a list or a pair is asked for, a loop that never ends, a mutable default argument, a generator,
a wiring function that returns nothing or is called too early, the wrong router in the right place, the global
random generator instead of the one given. Each must fail with a message that names the problem (never a
traceback, a hang or a memory address), and a right answer written another way must still pass.
"""

from __future__ import annotations

import json
import math
import re
import signal
import time
from collections import Counter, deque

import numpy as np
import pytest

import ragkit.exercises as exercises
from ragkit.core.nlp import key_terms, tokenize
from ragkit.exercises import ch00, ch01, ch02, ch03, ch04, ch09, ch11, ch12, core

ADDRESS = re.compile(r"0x[0-9a-f]{6,}")


# ---------------------------------------------------------------- what the learner's function returns
def forgot_return(lines):
    events = []
    for line in lines:
        if line.strip():
            events.append(json.loads(line))


@pytest.mark.parametrize("checker, fn, words", [
    ("check_read_ndjson", forgot_return, "you return None"),
    ("check_reducer", lambda left, right: np.concatenate([left or [], right or []]), "not a list"),
    ("check_prototype_scores", lambda q, protos, k=3: {r: np.sort(v @ q)[::-1][:k] for r, v in protos.items()},
     "not a number"),
    ("check_prototype_scores", lambda q, protos, k=3: {r: (v @ q).sort() for r, v in protos.items()}, "not a number"),
    ("check_beta_update", lambda a, b, r: {"alpha": a + r, "beta": b + 1 - r}, "return the pair"),
    ("check_beta_update", lambda a, b, r: (a + r, b + 1 - r, (a + r) / (a + b + 1)), "3 values"),
    ("check_bm25", lambda q, docs, k1, b: dict(enumerate(ch01.reference_bm25(q, docs, k1, b))), "a dict"),
])
def test_a_wrong_kind_of_value_is_named_not_raised(checker: str, fn, words: str) -> None:
    result = getattr(exercises, checker)(fn, quiet=True)
    assert not result.passed and words in result.message, result.message


def test_a_value_that_cannot_be_compared_is_reported() -> None:
    class Stubborn:
        def __eq__(self, other):
            raise RuntimeError("no comparing me")

        __hash__ = object.__hash__

    result = ch02.check_capped_router(lambda state: Stubborn(), quiet=True)
    assert not result.passed and "Stubborn object" in result.message


def test_a_generator_or_a_function_is_named_without_its_memory_address() -> None:
    result = ch02.check_reducer(lambda left, right: (x for x in (left or []) + (right or [])), quiet=True)
    assert not result.passed and "generator" in result.message and not ADDRESS.search(result.message)
    result = ch00.check_cosine(lambda u, v: ch00.reference_cosine, quiet=True)
    assert not result.passed and "function" in result.message and not ADDRESS.search(result.message)


def test_the_reducer_names_the_input_it_changed() -> None:
    def prepend_into_right(left, right):
        right = right if right is not None else []
        right[:0] = left or []
        return right

    result = ch02.check_reducer(prepend_into_right, quiet=True)
    assert not result.passed and "the right list is now" in result.message, result.message


def test_a_mutable_default_argument_is_named() -> None:
    def walk(graph, start, hops, depth=0, found={}):  # noqa: B006 - the mistake under test
        if start in found or depth > hops:
            return found
        found[start] = depth
        for nxt in sorted(graph.successors(start)):
            walk(graph, nxt, hops, depth + 1, found)
        return found

    result = ch11.check_articles_within(walk, quiet=True)
    assert not result.passed and "the very same dict" in result.message, result.message


# ---------------------------------------------------------------- a loop that never ends
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="the time limit uses a SIGALRM timer (Unix)")
def test_a_function_that_never_returns_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "TIME_LIMIT", 1.0)
    give_up_at = time.monotonic() + 5.0  # "never" ends after 5 s, so a checker without a limit does not hang the suite

    def walk_without_seen(graph, start, hops):  # goes round every cycle again and again
        found, queue = {start: 0}, deque([start])
        while queue and time.monotonic() < give_up_at:
            node = queue.popleft()
            if found[node] >= hops:
                continue
            for nxt in graph.successors(node):
                found.setdefault(nxt, found[node] + 1)
                queue.append(nxt)
        return found

    began = time.monotonic()
    result = ch11.check_articles_within(walk_without_seen, quiet=True)
    assert time.monotonic() - began < 4.0
    assert not result.passed and "still running after 1 s" in result.message, result.message
    assert "loop that never ends" in result.message
    assert ch11.check_articles_within(ch11.articles_within, quiet=True).passed  # the timer is gone afterwards


# ---------------------------------------------------------------- wrong answers the generated cases used to miss
def test_giving_up_with_one_number_left_fails() -> None:
    def route(state):
        if state["hint"] == "correct":
            return "found"
        if len(state["guesses"]) >= state["max_guesses"] or state["low"] >= state["high"]:
            return "give_up"
        return "guess"

    result = ch02.check_capped_router(route, quiet=True)
    assert not result.passed and "low == high" in result.message, result.message


def test_precision_without_a_guard_for_an_empty_selection_fails() -> None:
    def unguarded(scores, labels, threshold):
        kept = [s >= threshold for s in scores]
        tp = sum(k and y == 1 for k, y in zip(kept, labels))
        return tp / sum(kept), tp / sum(labels)

    result = ch04.check_precision_recall(unguarded, quiet=True)
    assert not result.passed and "ZeroDivisionError" in result.message and "nothing is kept" in result.message


def test_a_fallback_taken_from_the_route_list_fails() -> None:
    result = ch03.check_route_table(lambda proposed, routes, fallback: proposed if proposed in routes else routes[-1],
                                    quiet=True)
    assert not result.passed and "fallback" in result.message, result.message


def test_a_question_without_key_terms_that_divides_by_zero_is_explained() -> None:
    def unguarded(question, text):
        terms = key_terms(question)
        return sum(t in set(tokenize(text)) for t in terms) / len(terms)

    result = ch00.check_keyword_overlap(unguarded, quiet=True)
    assert not result.passed and "no key terms" in result.message, result.message


def test_document_frequency_counted_per_occurrence_is_named() -> None:
    def bm25(query, docs, k1, b):
        n, avg = len(docs), sum(map(len, docs)) / len(docs)
        df = Counter(t for d in docs for t in d)  # every occurrence, not every document
        out = []
        for d in docs:
            tf = Counter(d)
            out.append(sum(math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) * tf[t] * (k1 + 1)
                           / (tf[t] + k1 * (1 - b + b * len(d) / avg)) for t in query))
        return out

    result = ch01.check_bm25(bm25, quiet=True)
    assert not result.passed and "set(doc)" in result.message, result.message


@pytest.mark.parametrize("draw", [lambda a, b, rng: np.random.beta(a, b),
                                  lambda a, b, rng: np.random.default_rng(0).beta(a, b)])
def test_sampling_from_another_generator_is_named(draw) -> None:
    result = ch09.check_thompson_choice(lambda alpha, beta, rng: int(np.argmax(draw(alpha, beta, rng))), quiet=True)
    assert not result.passed and "never draws from rng" in result.message, result.message


def test_sampling_from_the_given_generator_arm_by_arm_passes() -> None:
    def choose(alpha, beta, rng):
        samples = [rng.beta(a, b) for a, b in zip(alpha, beta)]
        return samples.index(max(samples))

    assert ch09.check_thompson_choice(choose, quiet=True).passed


# ---------------------------------------------------------------- wiring a graph by hand
def _served(router: object = None):
    """Self-RAG wired by hand as notebook 12's solution does, with ``router`` after transform_query."""
    from langgraph.graph import END, START, StateGraph

    from ragkit.domains.handbook.corpus import handbook_search
    from ragkit.graphs import self_rag as sr

    graph = StateGraph(sr.SelfRAGState)
    for name, node in sr.self_rag_graph(handbook_search()).nodes.items():
        graph.add_node(name, node.runnable)
    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", sr.route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_edge("retrieve", "grade_documents")
    graph.add_conditional_edges("grade_documents", sr.route_after_grade_documents)
    graph.add_edge("generate", "grade_generation")
    graph.add_conditional_edges("grade_generation", sr.route_after_grade_generation)
    graph.add_conditional_edges("transform_query", router or sr.route_after_transform_query, ["retrieve", "generate"])
    graph.add_edge("finish", END)
    graph.add_edge("give_up", END)
    return graph


def test_the_wrong_router_in_the_right_place_fails() -> None:
    from ragkit.graphs.self_rag import route_after_grade_documents

    assert ch12.check_served_graph_wiring(_served, quiet=True).passed
    result = ch12.check_served_graph_wiring(lambda: _served(route_after_grade_documents), quiet=True)
    assert not result.passed
    assert "transform_query is routed by route_after_grade_documents" in result.message, result.message
    assert "route_after_transform_query" in result.message


def test_a_router_factory_passed_uncalled_is_named() -> None:
    from ragkit.exercises.ch03 import menu_graph
    from ragkit.graphs.adaptive_rag import route_after_search_to

    def uncalled():
        graph = menu_graph()
        for name in ("search_menu", "search_wine", "search_web"):
            del graph.branches[name]
            graph.add_conditional_edges(name, route_after_search_to, ["generate", "llm_fallback"])
        return graph

    result = exercises.check_adaptive_wiring(uncalled, quiet=True)
    assert not result.passed and "route_after_search_to(...)" in result.message, result.message


def test_a_wiring_function_that_returns_nothing_or_was_called_is_explained() -> None:
    result = ch12.check_served_graph_wiring(lambda: None, quiet=True)
    assert not result.passed and "returned None" in result.message and "return graph" in result.message
    result = ch12.check_served_graph_wiring(_served(), quiet=True)
    assert not result.passed and "pass the function itself" in result.message, result.message
