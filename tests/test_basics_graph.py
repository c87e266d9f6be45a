"""The 'guess the number' reference graph of notebook 02: shape, cap, reducer, checkpoints and resume."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from ragkit.graphs.basics import (
    MAX_CAP,
    build_guess_graph,
    format_updates,
    guess_graph,
    new_game,
    play,
    route_after_check,
)
from ragkit.notebook import graph_mermaid, same_shape

EXPECTED_MERMAID = """\
---
config:
  flowchart:
    curve: linear
---
graph TD;
\t__start__([<p>__start__</p>]):::first
\tguess(guess)
\tcheck(check)
\tfound(found)
\tgive_up(give_up)
\t__end__([<p>__end__</p>]):::last
\t__start__ --> guess;
\tcheck -.-> found;
\tcheck -.-> give_up;
\tcheck -.-> guess;
\tguess --> check;
\tfound --> __end__;
\tgive_up --> __end__;
\tclassDef default fill:#f2f0ff,line-height:1.2
\tclassDef first fill-opacity:0
\tclassDef last fill:#bfb6fc
"""

GRAPH = build_guess_graph()


def test_graph_shape_snapshot() -> None:
    assert graph_mermaid(GRAPH) == EXPECTED_MERMAID


def test_the_uncompiled_graph_is_the_builders_and_can_be_extended() -> None:
    from langgraph.graph import StateGraph

    builder = guess_graph()
    assert isinstance(builder, StateGraph) and same_shape(builder, GRAPH) == "same shape"
    builder.add_node("log", lambda state: {})  # still open: a learner can add to it before compiling
    assert "extra nodes ['log']" in same_shape(builder, GRAPH)


def test_finds_the_secret_by_halving() -> None:
    final = GRAPH.invoke(new_game(secret=37, low=1, high=100))
    assert final["guesses"] == [50, 25, 37]
    assert final["outcome"] == "found"


@settings(max_examples=60, deadline=None)
@given(
    low=st.integers(-1000, 1000),
    width=st.integers(0, 2000),
    offset=st.integers(0, 2000),
    cap=st.integers(1, 15),
)
def test_cap_holds_and_halving_always_finds_within_log2(low: int, width: int, offset: int, cap: int) -> None:
    high = low + width
    secret = low + offset % (width + 1)
    final = GRAPH.invoke(new_game(secret=secret, low=low, high=high, max_guesses=cap))
    assert 1 <= len(final["guesses"]) <= cap
    needed = math.ceil(math.log2(width + 2))  # binary search worst case over width + 1 numbers
    if cap >= needed:
        assert final["outcome"] == "found" and final["guesses"][-1] == secret
    if final["outcome"] == "gave_up":
        assert len(final["guesses"]) == cap and secret not in final["guesses"]


def test_cap_of_one_gives_up_after_one_guess() -> None:
    final = GRAPH.invoke(new_game(secret=1, low=1, high=100, max_guesses=1))
    assert final["guesses"] == [50] and final["outcome"] == "gave_up"


def test_reducer_appends_one_guess_per_visit_while_hint_is_overwritten() -> None:
    chunks = list(GRAPH.stream(new_game(secret=90, low=1, high=100), stream_mode="updates"))
    guess_updates = [c["guess"]["guess"] for c in chunks if "guess" in c]
    final = GRAPH.invoke(new_game(secret=90, low=1, high=100))
    assert final["guesses"] == guess_updates == [50, 75, 88, 94, 91, 89, 90]
    assert final["hint"] == "correct"  # not a list: no reducer, the last write wins


def test_router_literal_targets() -> None:
    base = {"guesses": [5], "max_guesses": 3, "low": 1, "high": 9}
    assert route_after_check({**base, "hint": "correct"}) == "found"
    assert route_after_check({**base, "hint": "higher"}) == "guess"
    assert route_after_check({**base, "hint": "higher", "guesses": [5, 7, 8]}) == "give_up"
    assert route_after_check({**base, "hint": "lower", "low": 6, "high": 5}) == "give_up"


def test_new_game_rejects_bad_input_with_clear_errors() -> None:
    with pytest.raises(ValueError, match="outside the range"):
        new_game(secret=0, low=1, high=10)
    with pytest.raises(ValueError, match="low"):
        new_game(secret=None, low=5, high=4)
    with pytest.raises(ValueError, match="max_guesses"):
        new_game(secret=3, max_guesses=MAX_CAP + 1)


def test_human_mode_pauses_saves_and_resumes_on_the_same_thread() -> None:
    graph = build_guess_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "game-1"}}
    paused = graph.invoke(new_game(secret=None, low=1, high=100), config)
    assert paused["__interrupt__"][0].value["guess"] == 50
    assert graph.get_state(config).next == ("check",)

    # Another thread is a separate game with its own saved state.
    other = {"configurable": {"thread_id": "game-2"}}
    graph.invoke(new_game(secret=None, low=1, high=10), other)
    assert graph.get_state(other).values["guesses"] == [5]

    for answer, next_guess in [("lower", 25), (" Higher ", 37)]:
        paused = graph.invoke(Command(resume=answer), config)
        assert paused["__interrupt__"][0].value["guess"] == next_guess
    final = graph.invoke(Command(resume="correct"), config)
    assert final["outcome"] == "found" and final["guesses"] == [50, 25, 37]
    assert graph.get_state(config).next == ()

    history = list(graph.get_state_history(config))
    oldest_first = [snapshot.next for snapshot in reversed(history)]
    assert oldest_first[:3] == [("__start__",), ("guess",), ("check",)]  # one checkpoint per step
    assert history[0].values["outcome"] == "found"
    assert graph.get_state(other).values["guesses"] == [5]  # untouched


def test_human_mode_asks_again_after_a_nonsense_answer() -> None:
    graph = build_guess_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke(new_game(secret=None, low=1, high=3), config)
    again = graph.invoke(Command(resume="warmer"), config)
    assert "error" in again["__interrupt__"][0].value and again["__interrupt__"][0].value["guess"] == 2
    final = graph.invoke(Command(resume="correct"), config)
    assert final["outcome"] == "found" and final["guesses"] == [2]


def test_interrupt_before_pauses_each_check_then_continues_with_none() -> None:
    graph = build_guess_graph(checkpointer=InMemorySaver(), interrupt_before=["check"])
    config = {"configurable": {"thread_id": "bp"}}
    graph.invoke(new_game(secret=3, low=1, high=4), config)
    assert graph.get_state(config).next == ("check",)
    steps = 1
    while graph.get_state(config).next:
        graph.invoke(None, config)
        steps += 1
    final = graph.get_state(config).values
    assert final["outcome"] == "found" and final["guesses"] == [2, 3] and steps == 3


def test_trace_lines_are_deterministic_and_name_each_node() -> None:
    trace = play(secret=3, low=1, high=4)
    assert trace == play(secret=3, low=1, high=4)
    assert [line.split()[0] for line in trace] == ["guess", "check", "guess", "check", "found"]
    lines = format_updates(build_guess_graph(checkpointer=InMemorySaver()).stream(
        new_game(secret=None), {"configurable": {"thread_id": "x"}}, stream_mode="updates"))
    assert lines[-1].startswith("(paused)") and "Is it 50?" in lines[-1]
