"""Structured retrieval: apply a question's filter and sort EXACTLY, then rank what passes by similarity.

Similarity search cannot answer "the cheapest main" or "desserts without nuts": the cheapest dish is not
the one whose text is closest to the word "cheapest", and a passage that says "hazelnuts" is close to
"nuts". A structured query can. :class:`StructuredRetriever` takes documents whose metadata holds fields
(course, price, allergens ...), asks a query analyser what the question wants (a
:class:`ragkit.roles.structured_query.QueryAnalysis`), and then

1. keeps the documents that pass the filter (:func:`ragkit.roles.structured_query.matches`: exact, in
   code; a missing numeric value never passes a numeric condition, so a wine without a glass price is
   never "under 8 euros a glass");
2. for a superlative, sorts the survivors by the field and keeps the winners (ties all win); for a
   comparison of two named items, returns those two; for a question about one named item, returns it;
   for a superlative compared with a named item ("the cheapest red, and is it cheaper than the Barolo?"),
   returns the winners and that item;
3. ranks the rest by the similarity of ragkit's default retriever (BM25 + dense) within what passed.

A filtered question's :meth:`StructuredRetriever.search_analysed` returns every document that passes (up to
``max_results``), not ``k`` of them: the set is the answer (``search_with_scores`` keeps the protocol's
top ``k`` of that order). When the filter leaves nothing, the result is empty and its note says why; the
result's analysis is marked ``searched_all``, so a writer given it may say "none on the list" rather than
"none among what I found".

:func:`unmet` says which conditions one document fails, in words: why a near match by similarity is not an
answer.

Simplifications: ranking within what passes uses the question's search text, so two equally good matches
are ordered by wording, not by merit; the similarity ranker is built on the first search (so building a
graph embeds nothing).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.structured_query import FilterDirective, Operation, Operator
from pydantic import ConfigDict, PrivateAttr

from ragkit.core import hybrid
from ragkit.core.search import Scored, ScoredRetriever, as_scored_search, check_corpus, doc_key
from ragkit.offline.query_analysis import LocalQueryAnalyzer
from ragkit.roles.structured_query import QueryAnalysis, StructuredResult, describe, matches


def unmet(flt: FilterDirective | None, metadata: Mapping[str, Any]) -> list[str]:
    """The conditions of a filter that a document with this metadata fails, in words (``[]`` when it passes).

    An AND is split into its parts, so the answer names what is missing, not the whole filter; any other
    filter (an OR, a NOT, one comparison) is one condition.

    >>> from langchain_core.structured_query import Comparator, Comparison
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


def _number(value: Any) -> float | None:
    return None if isinstance(value, bool) or not isinstance(value, (int, float)) else float(value)


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

    ``analyzer`` turns a question into a query analysis (default: a ``LocalQueryAnalyzer`` over these same
    documents, reading no domain's words; the menu's is ``ragkit.domains.menu.vocabulary.menu_query_analyzer``);
    ``ranker`` is any scored search over the same documents (default: :func:`ragkit.core.hybrid.default_retriever`).

    >>> from ragkit.domains.menu.corpus import load_menu
    >>> from ragkit.domains.menu.vocabulary import menu_query_analyzer
    >>> r = StructuredRetriever.from_documents(load_menu(), analyzer=menu_query_analyzer(load_menu()))  # doctest: +SKIP
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
            self.analyzer = LocalQueryAnalyzer(self.docs)

    @classmethod
    def from_documents(cls, docs: Sequence[Document], analyzer: Any = None, ranker: Any = None, **kwargs: Any) -> "StructuredRetriever":
        return cls(docs=list(docs), analyzer=analyzer, ranker=ranker, **kwargs)

    def _ranker(self) -> Any:
        if self.ranker is None:
            self.ranker = hybrid.default_retriever(self.docs, k=self.k)
        self.ranker = as_scored_search(self.ranker, self.k)
        return self.ranker

    def analyze(self, question: str) -> QueryAnalysis:
        """The analyser's reading of the question."""
        return self.analyzer.analyze(question)

    def similarity(self, text: str) -> dict[str, float]:
        """Similarity of every document to ``text`` (document key -> score; unseen documents score lowest)."""
        hits = self._ranker().search_with_scores(text, len(self.docs))
        return {doc_key(d): float(s) for d, s in hits}

    def search_analysed(self, analysis: QueryAnalysis, k: int | None = None) -> StructuredResult:
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
            note = f"{what} {field} among {len(valued)} matching documents"
            against = self._by_key.get(analysis.versus.against) if analysis.versus is not None else None
            if against is not None and against not in winners:  # the named item the winner is compared with
                winners, note = [*winners, against], f"{note}, and the item to compare it with"
            return self._result(winners, analysis, note, len(passing))
        ranked = by_similarity(passing)[: self.max_results]
        return self._result(ranked, analysis, f"{len(passing)} documents match: {describe(flt)}", len(passing))

    def _result(self, docs: list[Document], analysis: QueryAnalysis, note: str, passed: int) -> StructuredResult:
        n = len(docs)
        hits = [(d, 1.0 - i / max(n, 1)) for i, d in enumerate(docs)]  # the order is the answer's: rank scores
        if analysis.structured:  # the structure was applied to every document: an empty set means "none"
            analysis = dataclasses.replace(analysis, searched_all=True)
        return StructuredResult(hits, analysis, note, passed)

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        """The protocol's top ``k``, in the structured order (``search_analysed`` returns the whole set)."""
        query, k = self._prepare(query, k)
        return self.search_analysed(self.analyze(query), k).hits[:k]


__all__ = ["StructuredRetriever", "sort_value", "top_by", "unmet"]
