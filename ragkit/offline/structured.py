"""Structured retrieval: apply a question's filter and sort EXACTLY, then rank what passes by similarity.

Similarity search cannot answer "the cheapest main" or "desserts without nuts": the cheapest dish is not
the one whose text is closest to the word "cheapest", and a passage that says "hazelnuts" is close to
"nuts". A structured query can. :class:`StructuredRetriever` takes documents whose metadata holds fields
(course, price, allergens ...; ``ragkit.domains.menu.corpus.load_menu`` and ``load_wines`` keep every field), asks a
query analyser (:mod:`ragkit.roles.query_analysis`) what the question wants, and then

1. keeps the documents that pass the filter (:func:`matches`: exact, in code; a missing numeric value
   never passes a numeric condition, so a wine without a glass price is never "under 8 euros a glass");
2. for a superlative, sorts the survivors by the field and keeps the winners (ties all win); for a
   comparison of two named items, returns those two; for a question about one named item, returns it;
3. ranks the rest by the similarity of ragkit's default retriever (BM25 + dense) within what passed.

A filtered question's :meth:`StructuredRetriever.search_analysed` returns every document that passes (up to
``max_results``), not ``k`` of them: the set is the answer (``search_with_scores`` keeps the protocol's
top ``k`` of that order). When the filter leaves nothing, the result is empty and its note says why.

Filters are LangChain's own query-construction types (``langchain_core.structured_query``):
``Comparison(comparator, attribute, value)`` and ``Operation(operator, arguments)``. Semantics on one
document's metadata, as :func:`matches` applies them:

- ``eq`` / ``ne`` on a text field: equal ignoring case and accents; ``eq``/``ne`` with value ``None``:
  the field is / is not empty (a wine "by the glass" has a glass price);
- ``contain`` on a list field: the list holds the value (case and accents ignored);
- ``in`` / ``nin``: the field's value is / is not one of the values;
- ``lt``, ``lte``, ``gt``, ``gte``: numeric, and false for a missing value;
- ``and``, ``or``, ``not``: as in logic. A condition on a field the document does not have is true (not
  applicable), so a filter written for the menu leaves a web page alone.

>>> from langchain_core.structured_query import Comparator, Comparison, Operation, Operator
>>> f = Operation(Operator.AND, [Comparison(Comparator.EQ, "course", "dessert"),
...     Operation(Operator.NOT, [Comparison(Comparator.CONTAIN, "allergens", "tree nuts")])])
>>> matches(f, {"course": "dessert", "allergens": ["soya"]}), matches(f, {"course": "dessert", "allergens": ["tree nuts"]})
(True, False)
>>> describe(f)
'course is dessert and allergens do not include tree nuts'

Simplifications: metadata values are compared as stored (no units: a price is a number in the
corpus's currency); a list of numbers is not supported; ranking within what passes uses the question's
search text, so two equally good matches are ordered by wording, not by merit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

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
from pydantic import ConfigDict, PrivateAttr

from ragkit.core.nlp import fold
from ragkit.core.search import Scored, ScoredRetriever, check_corpus, doc_key

MISSING = object()


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


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


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
    if c in (Comparator.EQ, Comparator.NE) and v is None:
        has = (c == Comparator.NE) != negate
        return f"{a} is given" if has else f"{a} is not given"
    if c in (Comparator.EQ, Comparator.NE):
        yes = (c == Comparator.EQ) != negate
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
    return f"{a} {_WORDS[c]} {_num(v)}"


@dataclasses.dataclass(frozen=True)
class StructuredResult:
    """What a structured search found: the hits (best first), the analysis it applied, and a note why."""

    hits: Scored
    analysis: Any
    note: str
    passed: int = 0  # how many documents passed the filter


def sort_value(doc: Document, attribute: str) -> float | None:
    return _number(doc.metadata.get(attribute))


def top_by(items: Sequence[Any], value: Any, descending: bool = False, limit: int = 1) -> list[Any]:
    """A superlative, exactly: the ``limit`` items with the lowest (``descending``: highest) ``value(item)``,
    and every item tied with the last of them; an item whose value is ``None`` never wins. Winners come in
    value order, ties in the order given (``search_analysed`` gives them by similarity).

    >>> top_by([("tart", 8.0), ("cake", 7.5), ("soup", None), ("gelato", 7.5), ("fish", 18.0)], lambda x: x[1])
    [('cake', 7.5), ('gelato', 7.5)]
    >>> [name for name, _ in top_by([("tart", 8.0), ("cake", 7.5), ("fish", 18.0)], lambda x: x[1], True, 2)]
    ['fish', 'tart']
    """
    valued = [(v, i, item) for i, item in enumerate(items) if (v := _number(value(item))) is not None]
    if not valued or limit < 1:
        return []
    sign = -1.0 if descending else 1.0
    valued.sort(key=lambda t: (sign * t[0], t[1]))
    cut = sign * valued[min(limit, len(valued)) - 1][0]
    return [item for v, _, item in valued if sign * v <= cut]


class StructuredRetriever(ScoredRetriever):
    """Exact filter and sort over document metadata, then similarity within what passes.

    ``analyzer`` turns a question into a query analysis (default: ``LocalQueryAnalyzer`` over these same
    documents, so the vocabulary is theirs); ``ranker`` is any scored search over the same documents
    (default: :func:`ragkit.core.hybrid.default_retriever`).

    >>> from ragkit.domains.menu.corpus import load_menu
    >>> r = StructuredRetriever.from_documents(load_menu())  # doctest: +SKIP
    >>> [d.metadata["title"] for d, _ in r.search_with_scores("What is the cheapest main course?")]  # doctest: +SKIP
    ['Aubergine parmigiana']
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    docs: list[Document]
    analyzer: Any = None
    ranker: Any = None
    max_results: int = 50
    name: str = "structured"
    _by_key: dict[str, Document] = PrivateAttr(default_factory=dict)

    def model_post_init(self, __context: Any) -> None:
        self.docs = check_corpus(self.docs, "StructuredRetriever")
        self._by_key = {doc_key(d): d for d in self.docs}
        if self.analyzer is None:
            from ragkit.roles.query_analysis import LocalQueryAnalyzer

            self.analyzer = LocalQueryAnalyzer(self.docs)

    @classmethod
    def from_documents(cls, docs: Sequence[Document], analyzer: Any = None, ranker: Any = None, **kwargs: Any) -> "StructuredRetriever":
        return cls(docs=list(docs), analyzer=analyzer, ranker=ranker, **kwargs)

    def _ranker(self) -> Any:
        if self.ranker is None:
            from ragkit.core.hybrid import default_retriever

            self.ranker = default_retriever(self.docs, k=self.k)
        if not hasattr(self.ranker, "search_with_scores"):
            from ragkit.core.search import as_scored_search

            self.ranker = as_scored_search(self.ranker, self.k)
        return self.ranker

    def analyze(self, question: str) -> Any:
        """The analyser's reading of the question (see :mod:`ragkit.roles.query_analysis`)."""
        return self.analyzer.analyze(question)

    def similarity(self, text: str) -> dict[str, float]:
        """Similarity of every document to ``text`` (document key -> score; unseen documents score lowest)."""
        hits = self._ranker().search_with_scores(text, len(self.docs))
        return {doc_key(d): float(s) for d, s in hits}

    def search_analysed(self, analysis: Any, k: int | None = None) -> StructuredResult:
        """Apply an analysis to the documents: filter, then sort or pick, then rank by similarity."""
        k = self.k if k is None else k
        query = analysis.query
        flt = query.filter
        scores = self.similarity(query.query or analysis.question)
        low = min(scores.values(), default=0.0) - 1.0

        def by_similarity(docs: list[Document]) -> list[Document]:
            return sorted(docs, key=lambda d: -scores.get(doc_key(d), low))

        if analysis.comparison is not None:
            picked = [self._by_key[i] for i in analysis.comparison.ids if i in self._by_key]
            return self._result(picked, analysis, f"compared {len(picked)} named items", len(picked))
        passing = [d for d in self.docs if matches(flt, d.metadata)]
        if analysis.subject is not None and analysis.subject in self._by_key:
            subject = self._by_key[analysis.subject]
            note = "the item asked about" + ("" if flt is None else f" (checked against: {describe(flt)})")
            return self._result([subject], analysis, note, len(passing))
        if not analysis.structured:
            ranked = by_similarity(self.docs)[:k]
            return self._result(ranked, analysis, f"{len(ranked)} documents by similarity (no structure found)", len(self.docs))
        if not passing:
            return self._result([], analysis, f"no document matches: {describe(flt)}", 0)
        if analysis.sort is not None:
            field = analysis.sort.attribute
            valued = [d for d in passing if sort_value(d, field) is not None]
            if not valued:
                return self._result([], analysis, f"no document that matches has a value for {field}", 0)
            winners = top_by(by_similarity(valued), lambda d: sort_value(d, field), analysis.sort.descending,
                             query.limit or 1)
            what = "highest" if analysis.sort.descending else "lowest"
            return self._result(winners, analysis, f"{what} {field} among {len(valued)} matching documents", len(passing))
        ranked = by_similarity(passing)[: self.max_results]
        return self._result(ranked, analysis, f"{len(passing)} documents match: {describe(flt)}", len(passing))

    def _result(self, docs: list[Document], analysis: Any, note: str, passed: int) -> StructuredResult:
        n = len(docs)
        hits = [(d, 1.0 - i / max(n, 1)) for i, d in enumerate(docs)]  # the order is the answer's: rank scores
        return StructuredResult(hits, analysis, note, passed)

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        """The protocol's top ``k``, in the structured order (``search_analysed`` returns the whole set)."""
        query, k = self._prepare(query, k)
        return self.search_analysed(self.analyze(query), k).hits[:k]


__all__ = ["MetadataFilter", "StructuredResult", "StructuredRetriever", "attributes", "describe", "matches", "sort_value", "top_by"]
