"""The query analyser's contract: a question read as a structured query, and what its filter means.

"I'm allergic to nuts, which desserts can I eat?" is not a request for the passages most similar to it
(those are the desserts with nuts); it is a filter: ``course = dessert AND NOT allergens contain tree
nuts``. A query analyser (:class:`QueryAnalyzer`: local in :mod:`ragkit.offline.query_analysis`, LLM in
:mod:`ragkit.roles.llm_query_analysis`) *proposes* such a query as a :class:`QueryAnalysis`; code *disposes*:
:func:`matches` applies the filter exactly, a :class:`StructuredSearch` searches with it.

A :class:`QueryAnalysis` wraps LangChain's ``StructuredQuery(query, filter, limit)``
(``langchain_core.structured_query``: search text, ``Comparison`` / ``Operation`` filter, a superlative's
limit). LangChain has no sort and no "compare these two items", so :class:`Sort` and
:class:`ItemComparison` sit next to it.

:data:`Kind` is the *shape of the answer* the structure decides: a list (``set``), a winner (``single``),
``yes_no``, a ``comparison``, or ``lookup`` (nothing decided: answered from the text). It is neither the
question's form nor its answer type (:mod:`ragkit.core.nlp`): "Which desserts cost under 9 euros?" has
form ``wh_other``, answer type ``other`` and kind ``set``.

Semantics of a filter on one document's metadata (:func:`matches`):

- ``eq`` / ``ne`` on a text field: equal ignoring case and accents; with value ``None``: the field is /
  is not empty (a wine "by the glass" has a glass price);
- ``contain`` on a list field: the list holds the value (case and accents ignored);
- ``in`` / ``nin``: the field's value is / is not one of the values;
- ``lt``, ``lte``, ``gt``, ``gte``: numeric, and false for a missing value;
- ``and``, ``or``, ``not``: as in logic. A condition on a field the document does not have is true (not
  applicable), so a filter written for the menu leaves a web page alone.

>>> f = Operation(Operator.AND, [Comparison(Comparator.EQ, "course", "dessert"),
...     Operation(Operator.NOT, [Comparison(Comparator.CONTAIN, "allergens", "tree nuts")])])
>>> matches(f, {"course": "dessert", "allergens": ["soya"]}), matches(f, {"course": "dessert", "allergens": ["tree nuts"]})
(True, False)
>>> describe(f)
'course is dessert and allergens do not include tree nuts'

Simplifications: metadata values are compared as stored (no units: a price is a number in the corpus's
currency); a list of numbers is not supported. This module reads no question: how an analyser's findings
become a :class:`QueryAnalysis` is :mod:`ragkit.roles.query_parse`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from langchain_core.documents import Document
from langchain_core.structured_query import (
    Comparator,
    Comparison,
    FilterDirective,
    Operation,
    Operator,
    StructuredQuery,
    Visitor,
)

from ragkit.core.nlp import fold

Kind = Literal["lookup", "set", "single", "yes_no", "comparison"]
MISSING = object()


# ---------------------------------------------------------------- what a filter means
def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return fold(a).strip() == fold(b).strip()
    return a == b


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


class MetadataFilter(Visitor):
    """A LangChain ``Visitor`` that evaluates a filter against one document's metadata (True = passes)."""

    def __init__(self, metadata: Mapping[str, Any]):
        self.metadata = metadata

    def visit_operation(self, operation: Operation) -> bool:
        results = [arg.accept(self) for arg in operation.arguments]
        if operation.operator == Operator.AND:
            return all(results)
        if operation.operator == Operator.OR:
            return any(results)
        return not results[0] if results else True  # NOT

    def visit_comparison(self, comparison: Comparison) -> bool:
        value = self.metadata.get(comparison.attribute, MISSING)
        if value is MISSING:
            return True  # not applicable to this document
        c, target = comparison.comparator, comparison.value
        if c in (Comparator.EQ, Comparator.NE):
            if target is None:
                empty = value is None or value == [] or value == ""
                return empty if c == Comparator.EQ else not empty
            hit = any(_same(v, target) for v in value) if isinstance(value, list) else _same(value, target)
            return hit if c == Comparator.EQ else not hit
        if c == Comparator.CONTAIN:
            if isinstance(value, list):
                return any(_same(v, target) for v in value)
            return isinstance(value, str) and isinstance(target, str) and fold(target) in fold(value)
        if c in (Comparator.IN, Comparator.NIN):
            options = target if isinstance(target, (list, tuple)) else [target]
            values = value if isinstance(value, list) else [value]
            hit = any(_same(v, o) for v in values for o in options)
            return hit if c == Comparator.IN else not hit
        number, bound = _number(value), _number(target)
        if number is None or bound is None:
            return False
        return {Comparator.LT: number < bound, Comparator.LTE: number <= bound,
                Comparator.GT: number > bound, Comparator.GTE: number >= bound}.get(c, False)

    def visit_structured_query(self, structured_query: StructuredQuery) -> bool:
        return True if structured_query.filter is None else structured_query.filter.accept(self)


def matches(flt: FilterDirective | None, metadata: Mapping[str, Any]) -> bool:
    """True when a document with this metadata passes the filter (no filter: everything passes)."""
    return True if flt is None else bool(flt.accept(MetadataFilter(metadata)))


def attributes(flt: FilterDirective | None) -> list[str]:
    """The fields a filter reads, in order, without repeats.

    >>> attributes(Comparison(Comparator.LT, "price", 9))
    ['price']
    """
    if flt is None:
        return []
    if isinstance(flt, Comparison):
        return [flt.attribute]
    out: dict[str, None] = {}
    for arg in flt.arguments:  # type: ignore[attr-defined]
        out.update(dict.fromkeys(attributes(arg)))
    return list(out)


_WORDS = {Comparator.LT: "below", Comparator.LTE: "at most", Comparator.GT: "above", Comparator.GTE: "at least"}


def describe(flt: FilterDirective | None, negate: bool = False) -> str:
    """A filter in plain words, for notes and for saying why nothing matched.

    >>> describe(Comparison(Comparator.LT, "price_glass", 8.0))
    'price_glass below 8'
    """
    if flt is None:
        return "anything"
    if isinstance(flt, Operation):
        if flt.operator == Operator.NOT:
            return describe(flt.arguments[0], negate=not negate)
        joiner = " and " if (flt.operator == Operator.AND) != negate else " or "

        def part(arg: FilterDirective) -> str:
            text = describe(arg, negate)
            nested = isinstance(arg, Operation) and arg.operator != Operator.NOT and arg.operator != flt.operator
            return f"({text})" if nested and len(arg.arguments) > 1 else text

        return joiner.join(part(a) for a in flt.arguments)
    c, a, v = flt.comparator, flt.attribute, flt.value  # type: ignore[attr-defined]
    if c in (Comparator.EQ, Comparator.NE):
        yes = (c == Comparator.EQ) != negate
        if v is None:
            return f"{a} is not given" if yes else f"{a} is given"
        return f"{a} is {v}" if yes else f"{a} is not {v}"
    if c == Comparator.CONTAIN:
        return f"{a} include {v}" if not negate else f"{a} do not include {v}"
    if c in (Comparator.IN, Comparator.NIN):
        yes = (c == Comparator.IN) != negate
        options = ", ".join(map(str, v if isinstance(v, (list, tuple)) else [v]))
        return f"{a} is one of {options}" if yes else f"{a} is none of {options}"
    if negate:
        c = {Comparator.LT: Comparator.GTE, Comparator.LTE: Comparator.GT,
             Comparator.GT: Comparator.LTE, Comparator.GTE: Comparator.LT}[c]
    return f"{a} {_WORDS[c]} {f'{v:g}' if isinstance(v, float) else v}"


def filter_as_dict(flt: FilterDirective | None) -> dict[str, Any] | None:
    """LangChain's ``Comparison`` / ``Operation`` tree as plain dicts (``None`` stays ``None``)."""
    if flt is None:
        return None
    if isinstance(flt, Comparison):
        value = list(flt.value) if isinstance(flt.value, (list, tuple)) else flt.value
        return {"comparator": flt.comparator.value, "attribute": flt.attribute, "value": value}
    return {"operator": flt.operator.value, "arguments": [filter_as_dict(a) for a in flt.arguments]}


# ---------------------------------------------------------------- the analysis
@dataclasses.dataclass(frozen=True)
class Sort:
    """Sort by a numeric field; a superlative keeps the first ``limit`` (ties all win)."""

    attribute: str
    descending: bool


@dataclasses.dataclass(frozen=True)
class ItemComparison:
    """Compare two named items on a numeric field: which one is ``want`` ("higher" or "lower")?"""

    ids: tuple[str, str]  # in the question's order: "Is A more expensive than B?" -> (A, B)
    attribute: str
    want: Literal["higher", "lower"]
    asks_yes_no: bool  # "Is A ... than B?" (True) or "Which of A and B ...?" (False)


@dataclasses.dataclass(frozen=True)
class WinnerComparison:
    """Compare a superlative's winner with one named item: "What's the cheapest red, and is it cheaper than the
    Barolo?" sorts the reds, then compares the winner with the Barolo on ``attribute``."""

    against: str  # the named item's id
    attribute: str
    want: Literal["higher", "lower"]


@dataclasses.dataclass(frozen=True)
class QueryAnalysis:
    """A question read as a structured query. ``structured`` is False when nothing but search text was found."""

    question: str
    query: StructuredQuery
    kind: Kind = "lookup"
    sort: Sort | None = None
    comparison: ItemComparison | None = None
    subject: str | None = None  # the id of the one item a question asks about ("Is the panna cotta vegan?")
    versus: WinnerComparison | None = None  # the superlative's winner compared with a named item
    negated: tuple[str, ...] = ()  # what the question excludes, as written ("nuts", "vegetarian")
    unresolved: tuple[str, ...] = ()  # excluded words the data's vocabulary does not know
    ignored: tuple[str, ...] = ()  # content words no part of the structure explains ("spicy", "goes with")
    unused: tuple[str, ...] = ()  # parts of the question a decided answer does not use: the writer says them
    used: tuple[str, ...] = ()  # the question's words (folded) the structure consumed: names, values, bounds
    notes: tuple[str, ...] = ()
    fallback: bool = False
    searched_all: bool = False  # set by a retriever that applied the filter to the whole corpus

    @property
    def filter(self) -> FilterDirective | None:
        return self.query.filter

    @property
    def structured(self) -> bool:
        return self.filter is not None or self.sort is not None or self.comparison is not None or self.subject is not None

    @property
    def covered(self) -> bool:
        """True when the structure explains the whole question: a comparison of two named items, or a list,
        a winner or a yes/no with no word left over (what a router or a judge can trust as evidence that
        the data answers the question)."""
        if self.unused:
            return False
        return self.comparison is not None or (self.structured and self.kind != "lookup" and not self.ignored)

    @property
    def attributes(self) -> list[str]:
        """Every field the analysis reads (filter, sort, comparisons), in order, without repeats."""
        out = dict.fromkeys(attributes(self.filter))
        for part in (self.sort, self.comparison, self.versus):
            if part:
                out[part.attribute] = None
        return list(out)

    def passes(self, metadata: dict[str, Any]) -> bool:
        return matches(self.filter, metadata)

    def describe(self) -> str:
        """The filter in words ("anything" when there is none)."""
        return describe(self.filter)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view (for notebooks and servers): LangChain's filter as nested dicts, then the rest.

        >>> QueryAnalysis("Desserts under 9?", StructuredQuery(query="desserts", filter=Comparison(
        ...     comparator=Comparator.LT, attribute="price", value=9.0), limit=None), kind="set").as_dict()["filter"]
        {'comparator': 'lt', 'attribute': 'price', 'value': 9.0}
        """
        out: dict[str, Any] = {"query": self.query.query, "filter": filter_as_dict(self.filter),
                               "filter_in_words": self.describe(), "limit": self.query.limit, "kind": self.kind}
        if self.sort:
            out["sort"] = dataclasses.asdict(self.sort)
        if self.comparison:
            out["comparison"] = {**dataclasses.asdict(self.comparison), "ids": list(self.comparison.ids)}
        if self.versus:
            out["versus"] = dataclasses.asdict(self.versus)
        for name in ("subject", "negated", "unresolved", "ignored", "unused", "notes"):
            value = getattr(self, name)
            if value:
                out[name] = list(value) if isinstance(value, tuple) else value
        out["fallback"] = self.fallback
        return out


@dataclasses.dataclass(frozen=True)
class StructuredResult:
    """What a structured search found: the hits (best first), the analysis it applied, and a note why."""

    hits: list[tuple[Document, float]]
    analysis: QueryAnalysis
    note: str
    passed: int = 0  # how many documents passed the filter


@runtime_checkable
class QueryAnalyzer(Protocol):
    """Reads a question as a :class:`QueryAnalysis`; ``for_documents`` is the same analyser over other documents."""

    def analyze(self, question: str) -> QueryAnalysis: ...

    def for_documents(self, documents: Sequence[Document]) -> "QueryAnalyzer": ...


@runtime_checkable
class StructuredSearch(Protocol):
    """A search that reads the question's structure first: ``analyze``, then ``search_analysed`` applies it
    exactly (every document that passes, not only ``k``). It is also a
    :class:`ragkit.core.search.ScoredSearch` (``search_with_scores`` does both and keeps the top ``k``)."""

    def analyze(self, question: str) -> QueryAnalysis: ...

    def search_analysed(self, analysis: QueryAnalysis, k: int | None = None) -> StructuredResult: ...


__all__ = ["ItemComparison", "Kind", "MetadataFilter", "QueryAnalysis", "QueryAnalyzer", "Sort", "StructuredResult",
           "StructuredSearch", "WinnerComparison", "attributes", "describe", "filter_as_dict", "matches"]
