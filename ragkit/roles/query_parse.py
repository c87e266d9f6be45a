"""What an analyser found, made into a ``QueryAnalysis``: the last step of both query analysers (local and LLM).

An analyser reads a question (the local one with patterns, :mod:`ragkit.offline.query_analysis`; the LLM one
with a chat model, :mod:`ragkit.roles.llm_query_analysis`) and writes down what it found in a :class:`Parse`:
``(attribute, op, value)`` conditions, a sort and its limit, two named items to compare, the one item asked
about, the words it excluded or could not explain. :func:`analysis_from_parse` turns that into the frozen
analysis: :func:`build_filter` makes LangChain's filter from the conditions, and the *kind* of answer is
decided in this order: two named items compared -> ``comparison``; a sort -> ``single``; a yes/no question
whose every content word is explained and that has a filter -> ``yes_no``; a "which ..." question likewise ->
``set``; anything else -> ``lookup`` (answered from the text).

What it cannot do: it checks nothing against the data (the analyser keeps only the fields, values and items
the data has before it gets here); conditions on different fields are always AND-ed (no "red, or anything
under 8 euros"); one left-over word turns a list or a yes/no into a ``lookup``, and a winner decided by a
sort keeps its left-over words only as ``unused`` (said in the answer, not applied).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from langchain_core.structured_query import (
    Comparator,
    Comparison,
    FilterDirective,
    Operation,
    Operator,
    StructuredQuery,
)

from ragkit.roles.structured_query import ItemComparison, Kind, QueryAnalysis, Sort, WinnerComparison


@dataclasses.dataclass
class Parse:
    """What an analyser found, before it is assembled (mutable while reading; :func:`analysis_from_parse`
    turns it into a frozen ``QueryAnalysis``). ``conditions`` are ``(attribute, op, value)``; a tuple value
    means "any of these"."""

    conditions: list[tuple[str, str, Any]] = dataclasses.field(default_factory=list)
    sort: tuple[str, bool] | None = None
    limit: int = 1
    comparison: tuple[tuple[str, str], str, str, bool] | None = None
    subject: str | None = None
    versus: tuple[str, str, str] | None = None  # (named item's id, attribute, want): the winner against it
    polar: bool = False
    negated: list[str] = dataclasses.field(default_factory=list)
    unresolved: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    search_text: str = ""
    set_intent: bool = False  # "Which ...", "Show me ...", "What ... do you have"
    leftovers: list[str] = dataclasses.field(default_factory=list)  # content words no part of the structure explains
    used: list[str] = dataclasses.field(default_factory=list)  # the question's words the structure consumed
    unapplied: list[str] = dataclasses.field(default_factory=list)  # structure read but not applied ("cheaper than X")


def _options(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def build_filter(conditions: Sequence[tuple[str, str, Any]], list_fields: frozenset[str]) -> FilterDirective | None:
    """LangChain filter from ``(attribute, op, value)`` conditions; values of one field are OR-ed when the field
    holds one value per item (a style is red OR white), AND-ed when it is a list (``list_fields``: gluten-free
    AND vegan). ``op`` is one of eq, ne, contain, not_contain, lt, lte, gt, gte, is_null, not_null.

    >>> from ragkit.roles.structured_query import describe
    >>> describe(build_filter([("style", "eq", "red"), ("style", "eq", "white"), ("price", "lt", 8.0)], frozenset()))
    '(style is red or style is white) and price below 8'
    """
    parts: list[FilterDirective] = []
    grouped: dict[tuple[str, str], list[Any]] = {}  # (attribute, op) -> values, in order
    for attribute, op, value in conditions:
        grouped.setdefault((attribute, op), [])
        if value not in grouped[(attribute, op)]:
            grouped[(attribute, op)].append(value)
    for (attribute, op), values in grouped.items():
        listy = attribute in list_fields
        if op in ("eq", "contain"):
            comparator = Comparator.CONTAIN if op == "contain" or listy else Comparator.EQ
            alternatives = [[Comparison(comparator, attribute, x) for x in _options(v)] for v in values]
            if op == "eq" and not listy:  # one value per item: red OR white
                flat = [c for group in alternatives for c in group]
                parts.append(flat[0] if len(flat) == 1 else Operation(Operator.OR, flat))
            else:  # a list holds every value asked for; a tuple value means any of its options
                parts.extend(g[0] if len(g) == 1 else Operation(Operator.OR, g) for g in alternatives)
        elif op in ("ne", "not_contain"):
            comparator = Comparator.CONTAIN if listy or op == "not_contain" else Comparator.EQ
            for v in values:
                group = [Comparison(comparator, attribute, x) for x in _options(v)]
                parts.append(Operation(Operator.NOT, [group[0] if len(group) == 1 else Operation(Operator.OR, group)]))
        elif op in ("is_null", "not_null"):
            parts.append(Comparison(Comparator.EQ if op == "is_null" else Comparator.NE, attribute, None))
        else:
            parts.extend(Comparison(Comparator(op), attribute, float(v)) for v in values)
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else Operation(Operator.AND, parts)


def analysis_from_parse(question: str, parse: Parse, list_fields: frozenset[str], fallback: bool = False,
                        extra_notes: Sequence[str] = ()) -> QueryAnalysis:
    """Assemble a :class:`QueryAnalysis` from what an analyser found (the local patterns, or an LLM, checked)."""
    flt = build_filter(parse.conditions, list_fields)
    sort = Sort(parse.sort[0], parse.sort[1]) if parse.sort else None
    comparison = None
    if parse.comparison:
        ids, attribute, want, yes_no = parse.comparison
        comparison = ItemComparison((ids[0], ids[1]), attribute, want, yes_no)
    covered = not parse.leftovers  # every content word is explained by the structure
    if comparison is not None:
        kind: Kind = "comparison"
    elif sort is not None:
        kind = "single"
    elif parse.polar and covered and flt is not None:
        kind = "yes_no"
    elif parse.set_intent and covered and flt is not None:
        kind = "set"
    else:
        kind = "lookup"
    notes = list(parse.notes)
    if parse.leftovers and kind == "lookup" and (flt is not None or parse.subject):
        notes.append(f"words the structure does not explain ({', '.join(parse.leftovers)}): answered from the text")
    # A winner decided by a sort does not read left-over words ("the cheapest spicy dish"): they are said, not
    # dropped. (Words left over in a comparison of two named items describe those items: "which dessert wine".)
    unused = list(parse.unapplied)
    if kind == "single":
        unused += [w for w in parse.leftovers if not any(w in part.split() for part in unused)]
    if unused:
        notes.append(f"not used in the answer: {', '.join(unused)}")
    versus = None
    if parse.versus and sort is not None:
        versus = WinnerComparison(parse.versus[0], parse.versus[1], parse.versus[2])  # type: ignore[arg-type]
    limit = parse.limit if sort is not None else None
    return QueryAnalysis(question=question, query=StructuredQuery(parse.search_text or question, flt, limit), kind=kind,
                         sort=sort, comparison=comparison, subject=parse.subject if comparison is None else None,
                         versus=versus, unused=tuple(unused),
                         negated=tuple(parse.negated), unresolved=tuple(parse.unresolved),
                         ignored=tuple(parse.leftovers), used=tuple(parse.used), notes=tuple(notes) + tuple(extra_notes),
                         fallback=fallback)


__all__ = ["Parse", "analysis_from_parse", "build_filter"]
