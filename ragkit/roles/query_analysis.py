"""Query analysis: turn a question into a structured query (filters, sort, comparison) before retrieving.

"I'm allergic to nuts, which desserts can I eat?" is not a request for the passages most similar to it
(those are the desserts with nuts); it is a filter: ``course = dessert AND NOT allergens contain tree
nuts``. The analyser *proposes* such a query; code *disposes* (:mod:`ragkit.offline.structured`
applies it exactly). Results are :class:`QueryAnalysis` values built on LangChain's query-construction
types (``langchain_core.structured_query``): ``StructuredQuery(query, filter, limit)`` holds the search
text, the filter (``Comparison`` / ``Operation`` with ``Comparator`` / ``Operator``) and the limit of a
superlative. LangChain's types have no sort and no "compare these two items", so :class:`Sort` and
:class:`ItemComparison` sit next to it, with the negated intents, the question's form and the notes.

Two implementations behind one Protocol, :class:`QueryAnalyzer` (``analyze(question) -> QueryAnalysis``):

- :class:`LocalQueryAnalyzer`: patterns plus the data's OWN vocabulary (:class:`Vocabulary`), read from the
  documents' metadata when it is built: every text or list field's values (courses, allergens, dietary
  tags, styles, countries, grapes ...), the numeric fields (prices, vintages) and the items' names. No value
  is typed into the code, so a new menu works unchanged; the code knows only a few dozen English function
  words (negation: "no", "not", "without", "-free", "allergic to" ...; comparison: "than", "cheaper",
  "more expensive" ...; superlatives: "cheapest", "oldest" ...; price bounds: "under", "at most",
  "between"). How the pieces are found is in :mod:`ragkit.roles.query_patterns` (with the vocabulary of
  :mod:`ragkit.roles.query_vocabulary`).
- :class:`LLMQueryAnalyzer`: a chat model fills a pydantic schema (``with_structured_output`` through
  :func:`ragkit.roles.llm.call_structured`), shown the same vocabulary; code then checks every field and
  value against it (an unknown one is dropped with a note). A failed call or malformed output falls back
  to the local analysis, marked ``fallback=True``.

>>> from langchain_core.documents import Document
>>> docs = [Document("Lemon tart", metadata={"id": "d1", "title": "Lemon tart", "course": "dessert", "price": 8.0,
...                                          "allergens": ["gluten", "eggs"]}),
...         Document("Almond cake", metadata={"id": "d2", "title": "Almond cake", "course": "dessert", "price": 7.5,
...                                           "allergens": ["tree nuts", "eggs"]}),
...         Document("Chips", metadata={"id": "m1", "title": "Chips", "course": "side", "price": 4.0, "allergens": []})]
>>> a = LocalQueryAnalyzer(docs, embedder=False).analyze("I'm allergic to nuts, which desserts can I eat?")
>>> a.describe()
'allergens do not include tree nuts and course is dessert'
>>> LocalQueryAnalyzer(docs, embedder=False).analyze("What is the cheapest dessert?").sort
Sort(attribute='price', descending=False)

What the local analyser cannot do: knowledge outside the data ("coeliac" means gluten-free, "lactose"
means milk, "shellfish" means crustaceans and molluscs). Such a word, when the question excludes it or the
user describes themselves with it, is listed in ``unresolved`` and the writers say first that they could
not check it (mapping it by embedding similarity was tried and rejected: MiniLM puts "shellfish" closest
to "fish", which the data keeps apart, and "meat" closest to the tag "vegetarian", which would invert the
exclusion); arithmetic ("five glasses cost more than a bottle"); nested or disjunctive
conditions beyond "A or B" of one field; a negation whose scope runs past a comma; relations between items
("the red that goes with the lamb": the filter keeps the reds, the words are left to similarity, listed in
``ignored``); a superlative with such words still sorts by its field; questions that are not English.
Everything it did is in ``notes``, so a wrong reading is visible. The LLM analyser does not report which
words it used (``used`` is empty), so a judge re-checks its values by wording.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.structured_query import (
    Comparator,
    Comparison,
    FilterDirective,
    Operation,
    Operator,
    StructuredQuery,
)
from pydantic import BaseModel, Field

from ragkit.core.nlp import clean_query
from ragkit.offline.structured import attributes, describe, matches
from ragkit.roles.llm import call_structured
from ragkit.roles.query_patterns import Parse, parse_question
from ragkit.roles.query_vocabulary import Vocabulary

Kind = Literal["lookup", "set", "single", "yes_no", "comparison"]


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
class QueryAnalysis:
    """A question read as a structured query. ``structured`` is False when nothing but search text was found."""

    question: str
    query: StructuredQuery
    kind: Kind = "lookup"
    sort: Sort | None = None
    comparison: ItemComparison | None = None
    subject: str | None = None  # the id of the one item a question asks about ("Is the panna cotta vegan?")
    negated: tuple[str, ...] = ()  # what the question excludes, as written ("nuts", "vegetarian")
    unresolved: tuple[str, ...] = ()  # excluded words the data's vocabulary does not know
    ignored: tuple[str, ...] = ()  # content words no part of the structure explains ("spicy", "goes with")
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
        return self.comparison is not None or (self.structured and self.kind != "lookup" and not self.ignored)

    @property
    def attributes(self) -> list[str]:
        """Every field the analysis reads (filter, sort, comparison)."""
        out = dict.fromkeys(attributes(self.filter))
        if self.sort:
            out[self.sort.attribute] = None
        if self.comparison:
            out[self.comparison.attribute] = None
        return list(out)

    def passes(self, metadata: dict[str, Any]) -> bool:
        return matches(self.filter, metadata)

    def describe(self) -> str:
        """The filter in words ("anything" when there is none)."""
        return describe(self.filter)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view (for notebooks and servers): LangChain's filter as nested dicts, then the rest.

        >>> from langchain_core.structured_query import Comparator, Comparison, StructuredQuery
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
        for name in ("subject", "negated", "unresolved", "ignored", "notes"):
            value = getattr(self, name)
            if value:
                out[name] = list(value) if isinstance(value, tuple) else value
        out["fallback"] = self.fallback
        return out


def filter_as_dict(flt: FilterDirective | None) -> dict[str, Any] | None:
    """LangChain's ``Comparison`` / ``Operation`` tree as plain dicts (``None`` stays ``None``)."""
    if flt is None:
        return None
    if isinstance(flt, Comparison):
        value = list(flt.value) if isinstance(flt.value, (list, tuple)) else flt.value
        return {"comparator": flt.comparator.value, "attribute": flt.attribute, "value": value}
    return {"operator": flt.operator.value, "arguments": [filter_as_dict(a) for a in flt.arguments]}


@runtime_checkable
class QueryAnalyzer(Protocol):
    def analyze(self, question: str) -> QueryAnalysis: ...

    def for_documents(self, documents: Sequence[Document]) -> "QueryAnalyzer": ...


def _options(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _conjoin(parts: list[FilterDirective]) -> FilterDirective | None:
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else Operation(Operator.AND, parts)


def build_filter(conditions: Sequence[tuple[str, str, Any]], vocabulary: Vocabulary) -> FilterDirective | None:
    """LangChain filter from ``(attribute, op, value)`` conditions; values of one field are OR-ed when the field
    holds one value per item (a style is red OR white), AND-ed when it is a list (gluten-free AND vegan).

    ``op`` is one of eq, ne, contain, not_contain, lt, lte, gt, gte, is_null, not_null.

    >>> v = Vocabulary.from_documents([Document("x", metadata={"id": "a", "style": "red", "price": 9.0}),
    ...                                Document("y", metadata={"id": "b", "style": "white", "price": 7.0})])
    >>> describe(build_filter([("style", "eq", "red"), ("style", "eq", "white"), ("price", "lt", 8.0)], v))
    '(style is red or style is white) and price below 8'
    """
    parts: list[FilterDirective] = []
    grouped: dict[tuple[str, str], list[Any]] = {}  # (attribute, op) -> values, in order
    for attribute, op, value in conditions:
        grouped.setdefault((attribute, op), [])
        if value not in grouped[(attribute, op)]:
            grouped[(attribute, op)].append(value)
    for (attribute, op), values in grouped.items():
        listy = attribute in vocabulary.list_fields
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
    return _conjoin(parts)


def analysis_from_parse(question: str, parse: Parse, vocabulary: Vocabulary, fallback: bool = False,
                        extra_notes: Sequence[str] = ()) -> QueryAnalysis:
    """Assemble a :class:`QueryAnalysis` from what :func:`parse_question` (or an LLM, checked) found."""
    flt = build_filter(parse.conditions, vocabulary)
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
    elif parse.polar and covered and (flt is not None or (parse.subject and flt is not None)):
        kind = "yes_no"
    elif parse.set_intent and covered and flt is not None:
        kind = "set"
    else:
        kind = "lookup"
    notes = list(parse.notes)
    if parse.leftovers and kind == "lookup" and (flt is not None or parse.subject):
        notes.append(f"words the structure does not explain ({', '.join(parse.leftovers)}): answered from the text")
    limit = parse.limit if sort is not None else None
    return QueryAnalysis(question=question, query=StructuredQuery(parse.search_text or question, flt, limit), kind=kind,
                         sort=sort, comparison=comparison, subject=parse.subject if comparison is None else None,
                         negated=tuple(parse.negated), unresolved=tuple(parse.unresolved),
                         ignored=tuple(parse.leftovers), used=tuple(parse.used), notes=tuple(notes) + tuple(extra_notes),
                         fallback=fallback)


def _bundled_documents() -> list[Document]:
    from ragkit.domains.menu.corpus import load_menu, load_wines

    return load_menu() + load_wines()


class LocalQueryAnalyzer:
    """Patterns + the documents' own vocabulary (default: the bundled menu and wine list).

    ``embedder``: used for one thing only, reported in ``notes``: an adjective that names a value
    ("Italian" -> country Italy), only when one value is clearly the closest (the ``QUERY_ANALYSIS`` bars
    in :mod:`ragkit.defaults`). ``embedder=False`` turns it off.
    """

    def __init__(self, documents: Sequence[Document] | None = None, embedder: Embeddings | None | bool = None,
                 vocabulary: Vocabulary | None = None):
        self._documents = list(documents) if documents is not None else None
        self._embedder = embedder
        self._vocabulary = vocabulary  # built on first use, so building a graph loads no corpus

    @property
    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            docs = self._documents if self._documents is not None else _bundled_documents()
            self._vocabulary = Vocabulary.from_documents(docs, embedder=self._embedder)
        return self._vocabulary

    def for_documents(self, documents: Sequence[Document]) -> "LocalQueryAnalyzer":
        """An analyser with the vocabulary of these documents (same embedder)."""
        return LocalQueryAnalyzer(documents, embedder=self._embedder)

    def restricted(self, documents: Sequence[Document]) -> "LocalQueryAnalyzer":
        """This analyser limited to the fields and items the given documents carry (for a writer or a judge
        that sees a few retrieved documents but knows the whole corpus's values)."""
        return LocalQueryAnalyzer(vocabulary=self.vocabulary.restricted(documents))

    def analyze(self, question: str) -> QueryAnalysis:
        question = clean_query(question, what="question")
        return analysis_from_parse(question, parse_question(question, self.vocabulary), self.vocabulary)


# ---------------------------------------------------------------- LLM analyser
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
     "You turn a customer's question into a structured query over a restaurant's data. Use ONLY the fields "
     "and values listed; prices are numbers. 'Allergic to X', 'no X', 'without X', 'X-free' exclude items "
     "whose list field contains X (use every listed value that means X); 'under X' is lt, 'X or less' lte, "
     "'between X and Y' gte X and lte Y. A superlative (cheapest, most expensive, oldest) is a sort plus "
     "limit; 'Is A more expensive than B?' compares two named items. Leave out anything you cannot express.\n\n"
     "Fields and values:\n{vocabulary}"),
    ("human", "{question}"),
])


class LLMQueryAnalyzer:
    """A chat model proposes the structured query; code keeps only fields, values and items the data has.

    >>> from ragkit.core.chat_models import scripted
    >>> docs = [Document("x", metadata={"id": "a", "title": "Tart", "course": "dessert", "price": 8.0}),
    ...         Document("y", metadata={"id": "b", "title": "Soup", "course": "starter", "price": 9.0})]
    >>> llm = LLMQueryAnalyzer(scripted({"conditions": [{"attribute": "course", "op": "eq", "value": "dessert"},
    ...                                                 {"attribute": "colour", "op": "eq", "value": "red"}]}), docs)
    >>> a = llm.analyze("Which desserts are red?")
    >>> a.describe(), a.notes
    ('course is dessert', ("dropped condition on unknown field 'colour'",))
    """

    def __init__(self, model: BaseChatModel, documents: Sequence[Document] | None = None,
                 prompt: ChatPromptTemplate = QUERY_ANALYSIS_PROMPT, local: LocalQueryAnalyzer | None = None):
        self.model = model
        self.prompt = prompt
        self.local = local if local is not None else LocalQueryAnalyzer(documents, embedder=False)

    @property
    def vocabulary(self) -> Vocabulary:
        return self.local.vocabulary

    def for_documents(self, documents: Sequence[Document]) -> "LLMQueryAnalyzer":
        return LLMQueryAnalyzer(self.model, documents, self.prompt)

    def restricted(self, documents: Sequence[Document]) -> "LLMQueryAnalyzer":
        return LLMQueryAnalyzer(self.model, prompt=self.prompt, local=self.local.restricted(documents))

    def analyze(self, question: str) -> QueryAnalysis:
        question = clean_query(question, what="question")
        call = call_structured(self.model, self.prompt, AnalysisSchema,
                               {"question": question, "vocabulary": self.vocabulary.prompt_text()})
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
        return analysis_from_parse(question, parse, v, extra_notes=notes)


__all__ = ["AnalysisSchema", "Condition", "ItemComparison", "Kind", "LLMQueryAnalyzer", "LocalQueryAnalyzer",
           "QUERY_ANALYSIS_PROMPT", "QueryAnalysis", "QueryAnalyzer", "Sort", "analysis_from_parse", "build_filter",
           "filter_as_dict"]
