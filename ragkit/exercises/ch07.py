"""Checkers for notebook 07 (query analysis): a price-bound parser, an exclusion filter with a superlative, and
the wiring of Adaptive RAG around the structured searches.

>>> check_price_bounds(price_bounds, quiet=True).passed, check_cheapest_without(cheapest_without, quiet=True).passed
(True, True)

The references are ragkit's own code: :func:`price_bounds` reads the price conditions out of
the menu's query analyser (:func:`ragkit.domains.menu.vocabulary.menu_query_analyzer`, over a small
generated menu), and :func:`cheapest_without` applies :func:`ragkit.roles.structured_query.matches` (the
exclusion, as a LangChain ``Operation(NOT, [Comparison(CONTAIN, ...)])``) and
:func:`ragkit.offline.structured.top_by` (the superlative, ties included).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from langchain_core.documents import Document
from langchain_core.structured_query import Comparator, Comparison, Operation, Operator

from ragkit.domains.menu.routes import ROUTES, menu_sources
from ragkit.domains.menu.vocabulary import menu_query_analyzer
from ragkit.exercises.ch03 import menu_graph
from ragkit.exercises.core import CheckResult, Variant, check_wiring, rewired, run_checker, short
from ragkit.graphs.adaptive_rag import adaptive_rag_nodes, route_after_route_question
from ragkit.offline.structured import top_by
from ragkit.roles.structured_query import matches

COURSES = ("starter", "main", "dessert", "side")
DISHES = {"starter": ("Tomato soup", "Fried squid"), "main": ("Lamb shoulder", "Mushroom risotto"),
          "dessert": ("Lemon tart", "Almond cake"), "side": ("Green salad", "Chips")}


# ---------------------------------------------------------------- 1. price bounds
@lru_cache(maxsize=1)
def _analyzer() -> Any:
    docs = [Document(name, metadata={"id": f"d{i}{j}", "title": name, "course": course, "price": 5.0 + 3 * i + j})
            for i, course in enumerate(COURSES) for j, name in enumerate(DISHES[course])]
    return menu_query_analyzer(docs, embedder=False)


def _price_conditions(node: Any) -> list[tuple[str, float]]:
    if node is None:
        return []
    if isinstance(node, Comparison):
        return [(node.comparator.value, float(node.value))] if node.attribute == "price" else []
    return [c for arg in node.arguments for c in _price_conditions(arg)]


def price_bounds(question: str) -> list[tuple[str, float]]:
    """ragkit's reading of a question's price bounds: ``(comparator, number)`` pairs, comparators as LangChain
    names them ("lt", "lte", "gt", "gte"), sorted.

    >>> price_bounds("Which desserts cost between 5 and 9 euros?")
    [('gte', 5.0), ('lte', 9.0)]
    """
    return sorted(_price_conditions(_analyzer().analyze(question).filter))


@dataclass(frozen=True)
class BoundCase:
    question: str

    def label(self) -> str:
        return repr(self.question)


BEFORE = {"under": "lt", "below": "lt", "less than": "lt", "at most": "lte", "up to": "lte", "no more than": "lte",
          "over": "gt", "above": "gt", "more than": "gt", "at least": "gte"}
AFTER = {"or less": "lte", "or more": "gte"}


def _number(rng: random.Random) -> str:
    return str(rng.randint(4, 30)) if rng.random() < 0.8 else f"{rng.randint(4, 20)}.5"


def bound_cases(seed: int, n: int = 30) -> list[BoundCase]:
    """Questions with each bound phrase (before the number, after it, "between A and B") and without one."""
    rng = random.Random(seed)
    phrases = [*BEFORE, *AFTER, "between", "none"]
    cases = [BoundCase("Which desserts cost under 9 euros?"), BoundCase("Which mains cost no more than 20 euros?"),
             BoundCase("Which starters cost between 6 and 10 euros?"), BoundCase("Which sides cost 5 euros or less?"),
             BoundCase("Which desserts cost more than 7 euros?")]
    while len(cases) < n:
        course, phrase = rng.choice(COURSES), phrases[len(cases) % len(phrases)] if rng.random() < 0.6 else rng.choice(phrases)
        if phrase in BEFORE:
            bound = f"{phrase} {_number(rng)} euros"
        elif phrase in AFTER:
            bound = f"{_number(rng)} euros {phrase}"
        elif phrase == "between":
            low = rng.randint(4, 15)
            bound = f"between {low} and {low + rng.randint(2, 12)} euros"
        else:
            bound = rng.choice(["on the menu", "today", "with a good price"])
        template = rng.choice(["Which {c}s cost {b}?", "Show me the {c}s {b}.", "Do you have {c}s {b}?"])
        cases.append(BoundCase(template.format(c=course, b=bound)))
    return cases


def _bounds_variant(under_inclusive: bool = False, no_more_first: bool = True, strict_between: bool = False,
                    after_words: bool = True, only_under: bool = False) -> Callable[[str], list[tuple[str, float]]]:
    def parse(question: str) -> list[tuple[str, float]]:
        q = question.lower()
        if only_under:
            m = re.search(r"\bunder (\d+(?:\.\d+)?)", q)
            return [("lt", float(m.group(1)))] if m else []
        between = re.search(r"between (\d+(?:\.\d+)?) and (\d+(?:\.\d+)?)", q)
        if between:
            low, high = float(between.group(1)), float(between.group(2))
            return sorted([("gt", low), ("lt", high)] if strict_between else [("gte", low), ("lte", high)])
        if after_words:
            for phrase, op in AFTER.items():
                m = re.search(rf"(\d+(?:\.\d+)?) euros {phrase}", q)
                if m:
                    return [(op, float(m.group(1)))]
        table = dict(BEFORE, under="lte") if under_inclusive else dict(BEFORE)
        order = sorted(table, key=len, reverse=True) if no_more_first else sorted(table, key=len)
        for phrase in order:
            m = re.search(rf"\b{phrase} (\d+(?:\.\d+)?)", q)
            if m:
                return [(table[phrase], float(m.group(1)))]
        return []

    return parse


BOUND_VARIANTS = [
    Variant(_bounds_variant(only_under=True),
            "you read 'under' only: add the other phrases before the number, 'or less' / 'or more' after it, and "
            "'between A and B'"),
    Variant(_bounds_variant(no_more_first=False),
            "'no more than 20' became ('gt', 20): you matched 'more than' inside 'no more than'; try the longer "
            "phrases first"),
    Variant(_bounds_variant(strict_between=True),
            "'between 6 and 10' includes both ends: ('gte', 6) and ('lte', 10), not 'gt'/'lt'"),
    Variant(_bounds_variant(after_words=False),
            "you read bounds before the number only; '5 euros or less' is ('lte', 5) and '5 euros or more' ('gte', 5)"),
    Variant(_bounds_variant(under_inclusive=True), "'under 9' excludes 9 itself: it is ('lt', 9), not 'lte'"),
]


def _as_pairs(value: Any) -> list[tuple[str, float]] | None:
    try:
        return sorted((str(op), float(number)) for op, number in value)
    except (TypeError, ValueError):
        return None


def check_price_bounds(fn: Callable[[str], list], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(question) -> [(comparator, number), ...]`` against ragkit's analyser (the price conditions)."""
    cases = bound_cases(seed)

    def describe(case: BoundCase, got: Any, expected: list) -> str:
        if _as_pairs(got) is None:
            return f"for {case.label()} you return {short(got)}; return a list of (comparator, number) pairs"
        return f"for {case.label()} you return {short(_as_pairs(got))}; ragkit's analyser reads {expected}"

    return run_checker("price_bounds", fn, cases, price_bounds, call=lambda f, c: f(c.question),
                       same=lambda got, expected: _as_pairs(got) == expected, describe=describe,
                       variants=BOUND_VARIANTS, quiet=quiet,
                       passed_message=f"your parser reads the same price bounds as ragkit's LocalQueryAnalyzer on "
                                      f"{len(cases)} generated questions (under/at most/over/at least, 'or less', "
                                      "'or more', 'between', and none).")


# ---------------------------------------------------------------- 2. the cheapest without X
ALLERGENS = ("gluten", "eggs", "milk", "tree nuts", "peanuts", "soya", "fish", "celery")
NAMES = ("Lemon tart", "Almond cake", "Panna cotta", "Fruit salad", "Chocolate mousse", "Tiramisu", "Gelato",
         "Apple crumble", "Cheese board", "Sorbet")


@dataclass(frozen=True)
class MenuCase:
    records: tuple[tuple[str, float | None, tuple[str, ...]], ...]
    excluded: str
    limit: int

    def dicts(self) -> list[dict]:
        return [{"name": n, "price": p, "allergens": list(a)} for n, p, a in self.records]

    def label(self) -> str:
        shown = "; ".join(f"{n} {p if p is not None else 'no price'} [{', '.join(a)}]" for n, p, a in self.records)
        return f"excluded={self.excluded!r}, limit={self.limit}, records: {shown}"


def menu_cases(seed: int, n: int = 30) -> list[MenuCase]:
    """Small menus with price ties, a missing price, and the excluded allergen written in another case."""
    rng = random.Random(seed)
    cases = [MenuCase((("Lemon tart", 8.0, ("gluten",)), ("Almond cake", 6.5, ("tree nuts",)),
                       ("Sorbet", 5.0, ()), ("Gelato", 5.0, ("milk",))), "tree nuts", 1),
             MenuCase((("Fruit salad", None, ()), ("Tiramisu", 7.0, ("eggs", "milk")), ("Sorbet", 6.0, ("Milk",))),
                      "milk", 1)]
    while len(cases) < n:
        names = rng.sample(NAMES, rng.randint(3, 6))
        prices = [rng.choice([4.5, 5.0, 6.0, 6.5, 7.0, 8.0]) for _ in names]
        if rng.random() < 0.3:
            prices[rng.randrange(len(prices))] = None
        records = tuple((name, price, tuple(rng.sample(ALLERGENS, rng.randint(0, 2)))) for name, price in zip(names, prices))
        present = [a for _, _, al in records for a in al] or list(ALLERGENS)
        excluded = rng.choice(present)
        excluded = excluded.capitalize() if rng.random() < 0.3 else excluded
        cases.append(MenuCase(records, excluded, rng.choice([1, 1, 2])))
    return cases


def cheapest_without(records: list[dict], excluded: str, limit: int = 1) -> list[str]:
    """ragkit's answer: the names of the ``limit`` cheapest records whose allergens do not include ``excluded``
    (case ignored), every record tied with the last of them too, and never one without a price.

    >>> cheapest_without([{"name": "Tart", "price": 8.0, "allergens": ["gluten"]},
    ...                   {"name": "Cake", "price": 6.5, "allergens": ["tree nuts"]}], "tree nuts")
    ['Tart']
    """
    exclusion = Operation(Operator.NOT, [Comparison(Comparator.CONTAIN, "allergens", excluded)])
    passing = [r for r in records if matches(exclusion, r)]
    return [r["name"] for r in top_by(passing, lambda r: r.get("price"), descending=False, limit=limit)]


def _cheapest_variant(ties: bool = True, exclude: bool = True, fold_case: bool = True,
                      missing_as_zero: bool = False, descending: bool = False) -> Callable[..., list[str]]:
    def pick(records: list[dict], excluded: str, limit: int = 1) -> list[str]:
        target = excluded.lower() if fold_case else excluded
        kept = [r for r in records if not exclude
                or target not in [a.lower() if fold_case else a for a in r["allergens"]]]
        if missing_as_zero:
            kept = [dict(r, price=0.0 if r["price"] is None else r["price"]) for r in kept]
        kept = [r for r in kept if r["price"] is not None]
        kept.sort(key=lambda r: -r["price"] if descending else r["price"])
        if not kept:
            return []
        if not ties:
            return [r["name"] for r in kept[:limit]]
        cut = kept[min(limit, len(kept)) - 1]["price"]
        return [r["name"] for r in kept if (r["price"] >= cut if descending else r["price"] <= cut)]

    return pick


CHEAPEST_VARIANTS = [
    Variant(_cheapest_variant(exclude=False), "you sorted every record: first drop those whose allergens include "
                                              "the excluded one"),
    Variant(_cheapest_variant(descending=True), "you kept the most expensive; the cheapest is the lowest price"),
    Variant(_cheapest_variant(missing_as_zero=True), "a record without a price won as if it cost 0; a missing "
                                                     "price never wins"),
    Variant(_cheapest_variant(fold_case=False), "you compared allergens with their case: 'Milk' and 'milk' are the "
                                                "same allergen"),
    Variant(_cheapest_variant(ties=False), "you cut at exactly `limit` records; every record tied with the last "
                                           "winner's price wins too"),
]


def check_cheapest_without(fn: Callable[..., list], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(records, excluded, limit) -> [names]`` against ragkit's ``matches`` + ``top_by``."""
    cases = menu_cases(seed)

    def describe(case: MenuCase, got: Any, expected: list[str]) -> str:
        return f"for {case.label()} you return {short(got)}; ragkit's filter and sort give {expected}"

    return run_checker("cheapest_without", fn, cases, cheapest_without,
                       call=lambda f, c: f(c.dicts(), c.excluded, c.limit),
                       same=lambda got, expected: isinstance(got, list) and list(got) == expected,
                       describe=describe, variants=CHEAPEST_VARIANTS, quiet=quiet,
                       passed_message=f"your filter and sort equal ragkit's (matches + top_by) on {len(cases)} "
                                      "generated menus (price ties, missing prices, the allergen in another case).")


__all__ = ["BOUND_VARIANTS", "CHEAPEST_VARIANTS", "bound_cases", "cheapest_without", "check_cheapest_without",
           "check_price_bounds", "menu_cases", "price_bounds"]


# ---------------------------------------------------------------- the wiring around the structured searches
def _fan_out() -> Any:
    """route_question with a fixed edge to every route: every search (and the fallback) runs at once."""
    parts = adaptive_rag_nodes(menu_sources(), routes=ROUTES)
    return rewired(menu_graph(), routers=["route_question"], add=[("route_question", r) for r in parts.routes])


def _no_path_map() -> Any:
    """route_after_route_question without its path map: LangGraph cannot know the routes, and draws none."""
    graph = rewired(menu_graph(), routers=["route_question"])
    graph.add_conditional_edges("route_question", route_after_route_question)
    return graph


def _one_route() -> Any:
    """route_question with one fixed edge, to the menu search: every question is searched on the menu."""
    return rewired(menu_graph(), routers=["route_question"], add=[("route_question", "search_menu")])


WIRING_VARIANTS = [
    Variant(_one_route,
            "route_question goes to one fixed search: give it its router, add_conditional_edges('route_question', "
            "route_after_route_question, parts.routes), so each question goes to the route the router chose, as in ragkit's graph (and the "
            "wine and web searches become reachable)"),
    Variant(_fan_out,
            "route_question must choose ONE route: add_conditional_edges('route_question', route_after_route_question, "
            "parts.routes); a fixed edge to every route runs every search and the fallback at once"),
    Variant(_no_path_map,
            "give route_after_route_question its path map, parts.routes: it returns the route's name (a str, not a "
            "Literal), so without the list LangGraph knows no target and draws route_question -> END"),
]


def check_query_analysis_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires Adaptive RAG with its structured searches as
    :func:`ragkit.graphs.adaptive_rag.adaptive_rag_graph` does over the restaurant (the same nodes and edges)."""
    return check_wiring(build, menu_graph(), "query_analysis_wiring", quiet, WIRING_VARIANTS)
