"""Checkers for notebook 02 (LangGraph basics): a router that stops a loop at its cap, and a list reducer.

>>> from ragkit.graphs.basics import route_after_check
>>> check_capped_router(route_after_check, quiet=True).passed
True
>>> def cap_first(state):
...     if len(state["guesses"]) >= state["max_guesses"]:
...         return "give_up"
...     return "found" if state["hint"] == "correct" else "guess"
>>> "a correct guess" in check_capped_router(cap_first, quiet=True).message
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from ragkit.core.contract import add_path
from ragkit.exercises.core import CheckResult, Variant, run_checker, short
from ragkit.graphs.basics import route_after_check


# ---------------------------------------------------------------- the capped router
@dataclass(frozen=True)
class RouterCase:
    hint: str
    n_guesses: int
    max_guesses: int
    low: int
    high: int

    def state(self) -> dict[str, Any]:
        guesses = list(range(10, 10 + self.n_guesses))
        return {"hint": self.hint, "guesses": guesses, "max_guesses": self.max_guesses, "low": self.low,
                "high": self.high}

    def label(self) -> str:
        return (f"the state hint={self.hint!r}, {self.n_guesses} guesses of max_guesses={self.max_guesses}, "
                f"range {self.low}..{self.high}")


def router_cases(seed: int, n: int = 40) -> list[RouterCase]:
    """States at and below the cap, with each hint, some with an empty range (low > high) and one with a single
    number left (low == high)."""
    rng = random.Random(seed)
    cases = [RouterCase("lower", 3, 3, 1, 11), RouterCase("correct", 3, 3, 26, 49), RouterCase("higher", 1, 7, 51, 100),
             RouterCase("higher", 2, 7, 31, 30), RouterCase("lower", 2, 7, 30, 30)]
    while len(cases) < n:
        cap = rng.randint(1, 7)
        used = rng.randint(1, cap)
        low = rng.randint(1, 60)
        high = low + rng.randint(-2, 40)
        cases.append(RouterCase(rng.choice(["higher", "lower", "correct"]), used, cap, low, high))
    return cases


def _router_variant(order: str = "correct_first", compare: str = ">=", empty_range: bool = True,
                    cap: bool = True, one_left_is_empty: bool = False) -> Callable[[dict], str]:
    def route(state: dict) -> str:
        used, limit = len(state["guesses"]), state["max_guesses"]
        at_cap = cap and (used >= limit if compare == ">=" else used > limit)
        empty = state["low"] >= state["high"] if one_left_is_empty else state["low"] > state["high"]
        stuck = at_cap or (empty_range and empty)
        if order == "cap_first" and stuck:
            return "give_up"
        if state["hint"] == "correct":
            return "found"
        return "give_up" if stuck else "guess"

    return route


ROUTER_VARIANTS = [
    Variant(_router_variant(cap=False, empty_range=False),
            "your router never gives up, so the loop has no cap: return 'give_up' once len(state['guesses']) "
            "reaches state['max_guesses']"),
    Variant(_router_variant(order="cap_first"),
            "you test the cap before the hint, so a correct guess on the last allowed try is thrown away; "
            "test for 'correct' first, then the cap"),
    Variant(_router_variant(compare=">"),
            "you compare with > instead of >=, so at the cap the game guesses again (one guess more than "
            "max_guesses); give up once len(state['guesses']) >= state['max_guesses']"),
    Variant(_router_variant(empty_range=False),
            "the cap is right, but when the hints leave no number (low > high) the loop should give up too"),
    Variant(_router_variant(one_left_is_empty=True),
            "you give up when low == high, but then one number is still possible: guess it; give up only when "
            "low > high"),
]


def check_capped_router(fn: Callable[[dict], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check a router ``fn(state) -> "guess" | "found" | "give_up"`` against ``basics.route_after_check``."""
    cases = router_cases(seed)

    def describe(case: RouterCase, got: Any, expected: str) -> str:
        return f"for {case.label()} your router returns {short(got)}; the reference returns {expected!r}"

    return run_checker("capped_router", fn, cases, route_after_check, call=lambda f, c: f(c.state()),
                       same=lambda got, expected: got == expected, describe=describe, variants=ROUTER_VARIANTS,
                       quiet=quiet,
                       passed_message=f"your router agrees with ragkit's route_after_check on {len(cases)} generated "
                                      "states, including states at the cap and states with no number left.")


# ---------------------------------------------------------------- the reducer
@dataclass(frozen=True)
class ReducerCase:
    left: tuple[str, ...] | None
    right: tuple[str, ...] | None

    def label(self) -> str:
        show = lambda side: "None (the key is not in the state yet)" if side is None else repr(list(side))
        return f"left={show(self.left)}, right={show(self.right)}"


def reducer_cases(seed: int, n: int = 24) -> list[ReducerCase]:
    """Node-name lists with repeats (loops visit a node twice), empty lists and ``None`` on either side."""
    rng = random.Random(seed)
    nodes = ["retrieve", "grade", "rewrite", "generate"]
    cases = [ReducerCase(("retrieve", "grade"), ("rewrite", "retrieve")), ReducerCase(None, ("retrieve",)),
             ReducerCase(("retrieve",), None), ReducerCase((), ())]
    while len(cases) < n:
        left = tuple(rng.choices(nodes, k=rng.randint(0, 4)))
        right = tuple(rng.choices(nodes, k=rng.randint(1, 3)))
        cases.append(ReducerCase(left if rng.random() > 0.15 else None, right))
    return cases


def _call_reducer(f: Callable[[Any, Any], Any], case: ReducerCase) -> tuple[Any, Any, Any]:
    """Run the reducer on fresh copies; return its result (as a list) and both inputs afterwards."""
    left = None if case.left is None else list(case.left)
    right = None if case.right is None else list(case.right)
    out = f(left, right)
    out = list(out) if isinstance(out, (list, tuple)) else out
    return out, left, right


REDUCER_VARIANTS = [
    Variant(lambda left, right: list(right or []),
            "you return only the update, so every earlier entry is lost: that is what a plain (overwritten) key "
            "does; a reducer combines old and new, old first"),
    Variant(lambda left, right: list(right or []) + list(left or []),
            "you put the update first; the reducer appends: old + new"),
    Variant(lambda left, right: list(dict.fromkeys(list(left or []) + list(right or []))),
            "you drop repeated names, but a loop visits the same node twice and the path must show it"),
]


def _mutating(left: list | None, right: list | None) -> list:
    if left is None:
        return list(right or [])
    left.extend(right or [])
    return left


REDUCER_VARIANTS.append(Variant(_mutating, "you extend the old list in place; a reducer must return a new list "
                                           "and leave its inputs unchanged (left + right builds a new one)"))


def check_reducer(fn: Callable[[Any, Any], Any], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check a reducer ``fn(left, right) -> list`` against ``ragkit.core.contract.add_path`` (None = empty)."""
    cases = reducer_cases(seed)

    def describe(case: ReducerCase, got: tuple, expected: tuple) -> str:
        out, left, right = got
        if not isinstance(out, list):
            return f"for {case.label()} you return {short(out)}, not a list; the reference returns {expected[0]}"
        if out != expected[0]:
            return f"for {case.label()} you return {short(out)}; the reference returns {expected[0]}"
        side, now = ("left", left) if left != expected[1] else ("right", right)
        return (f"for {case.label()} your result is right, but the {side} list is now {short(now)}: "
                "you changed an input in place")

    return run_checker("reducer", fn, cases, add_path, call=_call_reducer, same=lambda got, expected: got == expected,
                       describe=describe, variants=REDUCER_VARIANTS, quiet=quiet,
                       passed_message=f"your reducer equals ragkit's add_path on {len(cases)} generated updates "
                                      "(None and repeats included), and leaves its inputs unchanged.")
