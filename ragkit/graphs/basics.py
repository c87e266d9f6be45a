"""A LangGraph graph with no model at all: "guess the number" by halving, with a cap and a human mode.

This is the reference graph for notebook 02 (LangGraph basics). It shows every moving part the later
RAG graphs use, with logic simple enough to check by hand:

- a ``TypedDict`` state where one key has a reducer (``guesses``: each update is *appended*) and the
  others are overwritten;
- nodes that read a few keys and return a *partial* update (only the keys they change);
- a conditional edge whose router returns a ``Literal``, so LangGraph can draw the branches;
- a loop ``guess -> check -> guess`` with its cap (``max_guesses``) stored in the state;
- a human-in-the-loop mode: with no ``secret`` in the state, ``check`` calls ``interrupt()`` and waits
  for a person to answer "higher", "lower" or "correct" (resume with ``Command(resume=...)``).

What it simplifies: the guesser always picks the middle of the range (plain binary search), and a
human who contradicts themself simply makes the game give up instead of being argued with.

>>> graph = build_guess_graph()
>>> final = graph.invoke(new_game(secret=37, low=1, high=100))
>>> final["guesses"], final["outcome"]
([50, 25, 37], 'found')
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Iterable, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

Hint = Literal["higher", "lower", "correct"]
HINTS: tuple[str, ...] = ("higher", "lower", "correct")
MAX_CAP = 50  # a sanity bound for max_guesses; halving 1..10**15 needs fewer than 50 guesses


class GuessState(TypedDict, total=False):
    """State of one game. Only ``guesses`` has a reducer; every other key is replaced on update."""

    low: int  # smallest number still possible
    high: int  # largest number still possible
    secret: int | None  # the answer; None means "ask a human" (interrupt)
    max_guesses: int  # the loop cap
    guess: int  # the latest guess
    hint: Hint  # the latest answer to it
    guesses: Annotated[list[int], operator.add]  # every guess so far, in order (reducer: list +)
    outcome: Literal["found", "gave_up"]


def new_game(secret: int | None = None, low: int = 1, high: int = 100, max_guesses: int = 7) -> GuessState:
    """The input state for a game; ``secret=None`` makes ``check`` ask a human through ``interrupt()``.

    >>> new_game(secret=3, low=1, high=10, max_guesses=4)["max_guesses"]
    4
    """
    if low > high:
        raise ValueError(f"new_game: low ({low}) must not be greater than high ({high})")
    if secret is not None and not low <= secret <= high:
        raise ValueError(f"new_game: secret {secret} is outside the range {low}..{high}")
    if not 1 <= max_guesses <= MAX_CAP:
        raise ValueError(f"new_game: max_guesses must be between 1 and {MAX_CAP}, got {max_guesses}")
    return {"low": low, "high": high, "secret": secret, "max_guesses": max_guesses, "guesses": []}


def guess(state: GuessState) -> dict[str, Any]:
    """Guess the middle of the range that is still possible.

    Reads: low, high
    Writes: guess, guesses (one item, appended by the reducer)

    >>> guess({"low": 1, "high": 100})
    {'guess': 50, 'guesses': [50]}
    """
    middle = (state["low"] + state["high"]) // 2
    return {"guess": middle, "guesses": [middle]}


def normalise_hint(answer: Any) -> Hint | None:
    """Turn a human answer into a hint, or ``None`` when it is not one (case and spaces are forgiven).

    >>> normalise_hint(" Higher "), normalise_hint("warmer")
    ('higher', None)
    """
    text = str(answer).strip().lower()
    return text if text in HINTS else None  # type: ignore[return-value]


def check(state: GuessState) -> dict[str, Any]:
    """Answer the guess (from ``secret``, or by asking a human) and narrow the range.

    Reads: guess, secret, low, high
    Writes: hint, and low or high when the hint rules numbers out

    >>> check({"guess": 50, "secret": 37, "low": 1, "high": 100})
    {'hint': 'lower', 'high': 49}
    """
    current = state["guess"]
    secret = state.get("secret")
    if secret is None:
        question = {"guess": current, "question": f"Is it {current}? Answer higher, lower or correct."}
        hint = normalise_hint(interrupt(question))
        while hint is None:  # each extra interrupt() waits for one more resume value
            hint = normalise_hint(interrupt({**question, "error": "Please answer higher, lower or correct."}))
    else:
        hint = "correct" if current == secret else ("higher" if secret > current else "lower")
    if hint == "higher":
        return {"hint": hint, "low": current + 1}
    if hint == "lower":
        return {"hint": hint, "high": current - 1}
    return {"hint": hint}


def route_after_check(state: GuessState) -> Literal["guess", "found", "give_up"]:
    """Stop when found; give up at the cap or when the hints leave no number; otherwise guess again.

    >>> route_after_check({"hint": "higher", "guesses": [50], "max_guesses": 1, "low": 51, "high": 100})
    'give_up'
    """
    if state["hint"] == "correct":
        return "found"
    if len(state["guesses"]) >= state["max_guesses"] or state["low"] > state["high"]:
        return "give_up"
    return "guess"


def found(state: GuessState) -> dict[str, Any]:
    """Reads: nothing. Writes: outcome = "found"."""
    return {"outcome": "found"}


def give_up(state: GuessState) -> dict[str, Any]:
    """Reads: nothing. Writes: outcome = "gave_up"."""
    return {"outcome": "gave_up"}


def guess_graph() -> StateGraph:
    """The guessing graph, wired but not compiled: every ragkit graph has this pair, ``<name>_graph()`` (a
    ``StateGraph`` you can still add to) and ``build_<name>_graph()`` (compiled)."""
    builder = StateGraph(GuessState)
    builder.add_node("guess", guess)
    builder.add_node("check", check)
    builder.add_node("found", found)
    builder.add_node("give_up", give_up)
    builder.add_edge(START, "guess")
    builder.add_edge("guess", "check")
    builder.add_conditional_edges("check", route_after_check)  # the Literal gives the three targets
    builder.add_edge("found", END)
    builder.add_edge("give_up", END)
    return builder


def build_guess_graph(checkpointer: Any = None, interrupt_before: list[str] | None = None) -> Any:
    """Compile the guessing graph. Pass a checkpointer (e.g. ``InMemorySaver()``) for human mode.

    ``interrupt_before`` (e.g. ``["check"]``) pauses before those nodes on every visit; it also needs a
    checkpointer. The recursion limit leaves room for ``MAX_CAP`` rounds of two steps each.
    """
    graph = guess_graph().compile(checkpointer=checkpointer, interrupt_before=interrupt_before)
    return graph.with_config(recursion_limit=2 * MAX_CAP + 5)


def format_updates(chunks: Iterable[dict[str, Any]]) -> list[str]:
    """One line per ``stream_mode="updates"`` chunk: the node and the keys it wrote (interrupts too).

    Interrupts are shown by their value only (their ids change from run to run).

    >>> format_updates([{"guess": {"guess": 50, "guesses": [50]}}])
    ['guess    -> guess=50, guesses=[50]']
    """
    lines: list[str] = []
    for chunk in chunks:
        for node, update in chunk.items():
            if node == "__interrupt__":
                values = "; ".join(repr(item.value) for item in update)
                lines.append(f"{'(paused)':<8} -> waiting for a human: {values}")
            else:
                written = ", ".join(f"{key}={value!r}" for key, value in (update or {}).items())
                lines.append(f"{node:<8} -> {written}")
    return lines


def play(secret: int, low: int = 1, high: int = 100, max_guesses: int = 7) -> list[str]:
    """Run a whole game with a known secret and return its trace (what the notebook's widget prints).

    >>> play(secret=3, low=1, high=4, max_guesses=1)[-1]
    "give_up  -> outcome='gave_up'"
    """
    graph = build_guess_graph()
    return format_updates(graph.stream(new_game(secret, low, high, max_guesses), stream_mode="updates"))
