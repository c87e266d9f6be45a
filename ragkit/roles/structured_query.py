"""The query analyser's contract: a question read as a structured query, and what its filter means.

"I'm allergic to nuts, which desserts can I eat?" is not a request for the passages most similar to it
(those are the desserts with nuts); it is a filter: ``course = dessert AND NOT allergens contain tree
nuts``. A query analyser (:class:`QueryAnalyzer`: local in :mod:`ragkit.offline.query_analysis`, LLM: :class:`LLMQueryAnalyzer`,
below) *proposes* such a query as a :class:`QueryAnalysis`; code *disposes*:
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
currency); a list of numbers is not supported.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.structured_query import (
    Comparator,
    Comparison,
    FilterDirective,
    Operation,
    Operator,
    StructuredQuery,
    Visitor,
)
from pydantic import BaseModel, Field

from ragkit.core.nlp import clean_query, fold
from ragkit.roles.llm import call_structured

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


def unmet(flt: FilterDirective | None, metadata: Mapping[str, Any]) -> list[str]:
    """The conditions of a filter that a document with this metadata fails, in words (``[]`` when it passes).

    An AND is split into its parts, so the answer names what is missing, not the whole filter; any other
    filter (an OR, a NOT, one comparison) is one condition.

    >>> vegan_dessert = Operation(Operator.AND, [Comparison(Comparator.EQ, "course", "dessert"),
    ...                                          Comparison(Comparator.CONTAIN, "dietary", "vegan")])
    >>> unmet(vegan_dessert, {"course": "dessert", "dietary": ["vegetarian", "gluten-free"]})
    ['dietary include vegan']
    >>> unmet(vegan_dessert, {"course": "dessert", "dietary": ["vegan"]}), unmet(None, {})
    ([], [])
    """
    if flt is None:
        return []
    parts = flt.arguments if isinstance(flt, Operation) and flt.operator == Operator.AND else [flt]
    return [describe(part) for part in parts if not matches(part, metadata)]


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


# ---------------------------------------------------------------- assembling an analysis
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


# ---------------------------------------------------------------- query analyser
class Condition(BaseModel):
    """One filter condition on a field of the data."""

    attribute: str = Field(description="a field name from the list given")
    op: Literal["eq", "ne", "contain", "not_contain", "lt", "lte", "gt", "gte", "is_null", "not_null"] = Field(
        description="eq/ne for one-value fields, contain/not_contain for list fields, lt..gte for numbers, "
                    "is_null/not_null for 'has no value' / 'has a value'")
    value: str | float | None = Field(default=None, description="a value from the list given, or a number")


class AnalysisSchema(BaseModel):
    """The structured query the model proposes."""

    search_text: str = Field(default="", description="what to search for by similarity, without the conditions")
    conditions: list[Condition] = Field(default_factory=list)
    sort_attribute: str | None = Field(default=None, description="numeric field for a superlative (cheapest, oldest)")
    sort_descending: bool = Field(default=False, description="true for most expensive / newest")
    limit: int | None = Field(default=None, description="how many the superlative asks for (1 by default)")
    compare_items: list[str] = Field(default_factory=list, description="exactly two item names for 'is A ...-er than B'")
    compare_attribute: str | None = None
    compare_want: Literal["higher", "lower"] | None = Field(default=None, description="which value wins the comparison")
    subject_item: str | None = Field(default=None, description="the one item name a yes/no question asks about")
    yes_no: bool = Field(default=False, description="true when the question asks yes or no")
    negated: list[str] = Field(default_factory=list, description="what the question excludes, in its own words")


QUERY_ANALYSIS_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You turn a user's question into a structured query over {description}. Use ONLY the fields and values "
     "listed; prices are numbers. 'No X', 'without X', 'X-free' exclude items whose list field contains X (use "
     "every listed value that means X); 'under X' is lt, 'X or less' lte, 'between X and Y' gte X and lte Y. A "
     "superlative (cheapest, most expensive, oldest) is a sort plus limit; 'Is A more expensive than B?' compares "
     "two named items. Leave out anything you cannot express.\n\nFields and values:\n{vocabulary}"),
    ("human", "{question}"),
])
NEUTRAL_DESCRIPTION = "a collection of items with fields"


class LLMQueryAnalyzer:
    """A chat model proposes the structured query; code keeps only fields, values and items the data has.

    >>> from ragkit.core.chat_models import scripted
    >>> from ragkit.offline.query_analysis import LocalQueryAnalyzer
    >>> docs = [Document("x", metadata={"id": "a", "title": "Tart", "course": "dessert", "price": 8.0}),
    ...         Document("y", metadata={"id": "b", "title": "Soup", "course": "starter", "price": 9.0})]
    >>> llm = LLMQueryAnalyzer(scripted({"conditions": [{"attribute": "course", "op": "eq", "value": "dessert"},
    ...                                                 {"attribute": "colour", "op": "eq", "value": "red"}]}),
    ...                        LocalQueryAnalyzer(docs, embedder=False))
    >>> a = llm.analyze("Which desserts are red?")
    >>> a.describe(), a.notes
    ('course is dessert', ("dropped condition on unknown field 'colour'",))
    """

    def __init__(self, model: BaseChatModel, local: Any, description: str = NEUTRAL_DESCRIPTION,
                 prompt: ChatPromptTemplate = QUERY_ANALYSIS_PROMPT):
        self.model, self.local, self.description, self.prompt = model, local, description, prompt

    @property
    def vocabulary(self) -> Any:
        return self.local.vocabulary

    def for_documents(self, documents: Sequence[Document]) -> "LLMQueryAnalyzer":
        return LLMQueryAnalyzer(self.model, self.local.for_documents(documents), self.description, self.prompt)

    def restricted(self, documents: Sequence[Document]) -> "LLMQueryAnalyzer":
        return LLMQueryAnalyzer(self.model, self.local.restricted(documents), self.description, self.prompt)

    def analyze(self, question: str) -> QueryAnalysis:
        question = clean_query(question, what="question")
        call = call_structured(self.model, self.prompt, AnalysisSchema, {
            "question": question, "vocabulary": self.vocabulary.prompt_text(), "description": self.description})
        if call.value is None:
            local = self.local.analyze(question)
            return dataclasses.replace(local, fallback=True, notes=(f"LLM analysis failed ({call.note}); local analysis used",)
                                       + local.notes)
        return self.check(question, call.value)

    def check(self, question: str, out: AnalysisSchema) -> QueryAnalysis:
        """Code disposes: keep what the vocabulary knows, drop the rest with a note."""
        v, notes, conditions = self.vocabulary, [], []
        for c in out.conditions:
            kept = v.check_condition(c.attribute, c.op, c.value)
            if isinstance(kept, str):
                notes.append(kept)
            else:
                conditions.append(kept)
        sort = None
        if out.sort_attribute:
            if out.sort_attribute in v.numeric:
                sort = (out.sort_attribute, bool(out.sort_descending))
            else:
                notes.append(f"dropped sort on unknown or non-numeric field {out.sort_attribute!r}")
        comparison = None
        if out.compare_items:
            ids = [v.resolve_name(n) for n in out.compare_items]
            if len(ids) == 2 and all(ids) and ids[0] != ids[1] and out.compare_attribute in v.numeric and out.compare_want:
                comparison = ((ids[0], ids[1]), out.compare_attribute, out.compare_want, bool(out.yes_no))
            else:
                notes.append(f"dropped comparison of {out.compare_items!r}: items or field not in the data")
        subject = v.resolve_name(out.subject_item) if out.subject_item else None
        if out.subject_item and subject is None:
            notes.append(f"dropped unknown item {out.subject_item!r}")
        limit = out.limit if isinstance(out.limit, int) and out.limit > 0 else 1
        parse = Parse(conditions=conditions, sort=sort, limit=limit, comparison=comparison, subject=subject,
                      polar=bool(out.yes_no), negated=[n for n in out.negated if n.strip()],
                      search_text=out.search_text.strip() or question)
        return analysis_from_parse(question, parse, v.list_fields, extra_notes=notes)


__all__ = ["AnalysisSchema", "Condition", "ItemComparison", "LLMQueryAnalyzer", "NEUTRAL_DESCRIPTION", "QUERY_ANALYSIS_PROMPT", "Kind", "MetadataFilter", "Parse", "QueryAnalysis", "QueryAnalyzer", "Sort",
           "StructuredResult", "StructuredSearch", "WinnerComparison", "analysis_from_parse", "attributes", "build_filter", "describe",
           "filter_as_dict", "matches", "unmet"]
