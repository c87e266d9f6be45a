"""The article graph of a statute: who cites whom, and who uses whose defined terms.

Nodes are articles (the Documents of :func:`ragkit.domains.statute.corpus.load_statute`, keyed ``art-N``). Two kinds of
directed edge, from the article that needs the other to the article it needs:

- ``"reference"``: the article cites another ("under Article 9", "Article 30(1)"), as parsed by
  :func:`ragkit.domains.statute.citations.cited_articles` (``metadata["references"]`` when present);
- ``"defined_term"``: the article uses a term that another article defines. Terms are read from the
  text: every quoted phrase followed by "means" (``"Vessel" means any craft ...``), wherever it stands,
  so a new statute works unchanged. An article "uses" a term when the phrase appears in it, in any case,
  with an optional plural ``s``/``es`` and hyphens or spaces between its words.

Edge attributes: ``kinds`` (a tuple of the kinds above), ``terms`` (the defined terms behind a
``defined_term`` edge) and ``weight``: ``kind_weights["reference"]`` for a reference, plus
``kind_weights["defined_term"]`` times the highest :func:`term_specificity` (an idf scaled to [0, 1])
of the edge's terms, so "Authority", which nearly every article uses, adds little, and "Gross tonnage",
used by two, adds almost as much as a citation. This damps, but does not remove, the pull of the
definitions article, which nearly every article links to (see ``STATUTE_GRAPH_DEFAULTS``). References
to articles the statute does not have are listed in ``graph.graph["unresolved_references"]``.

:class:`GraphRetriever` (from :mod:`ragkit.core.graph_retriever`) ranks articles by personalized
PageRank over this graph; :func:`statute_graph_retriever` wires the two together. Pictures and a k-hop
walk of the graph are in :mod:`ragkit.domains.statute.plots`.

The same definitions, read as words (:func:`statute_definitions`, a :class:`ragkit.core.references.Definitions`),
say which defined term a question's words fall under ("a seal" -> "Marine mammal"); the paragraph index carries them.

Simplifications: a term matches by its surface form, so "master" in "master plan" counts as a use and an
irregular plural ("fishermen") does not; when a term is defined twice, the first definition wins; a
definition's own cross-references ("an area designated under Article 28") attach to the defining
article, not to the term; a definition without quotes ("a period expressed in days means calendar
days") is not read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import networkx as nx
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.graph_retriever import GraphRetriever, document_graph
from ragkit.core.references import DEFINES, Definitions, Reference, ReferenceIndex
from ragkit.core.search import doc_key
from ragkit.defaults import STATUTE_QA
from ragkit.domains.statute.citations import cited_articles, parse_citations
from ragkit.domains.statute.paragraphs import paragraphs_of

# Bounded term length and no nested quantifiers: one attempt reads at most ~90 characters.
_DEFINITION = re.compile(r"[\"“](?P<term>[^\"“”\n]{1,80})[\"”][ \t]{0,3}means\b")
EDGE_KINDS = ("reference", "defined_term")
# The walk over the article graph (ragkit.defaults.STATUTE_QA, chosen on the statute QA dev split), not the
# MuSiQue-tuned GraphRetriever defaults, which walk every query into the definitions article.
STATUTE_GRAPH_DEFAULTS: dict[str, Any] = {"direction": STATUTE_QA.graph_direction, "damping": STATUTE_QA.graph_damping,
                                          "mix": STATUTE_QA.graph_mix, "seed_k": STATUTE_QA.graph_seed_k}
KIND_WEIGHTS = {"reference": 1.0, "defined_term": STATUTE_QA.graph_defined_term_weight}


def defined_terms(docs: Sequence[Document]) -> dict[str, str]:
    """Every quoted term followed by "means", mapped to the id of the first document defining it.

    >>> defined_terms([Document('(1) "Vessel" means any craft.', metadata={"id": "art-3"})])
    {'Vessel': 'art-3'}
    """
    terms: dict[str, str] = {}
    seen: set[str] = set()
    for doc in docs:
        for match in _DEFINITION.finditer(doc.page_content):
            term = " ".join(match.group("term").split())
            if term and term.lower() not in seen:
                seen.add(term.lower())
                terms[term] = doc_key(doc)
    return terms


@lru_cache(maxsize=4096)
def term_pattern(term: str) -> re.Pattern[str]:
    """A case-insensitive pattern for a term: words joined by spaces or hyphens, optional plural at the end.

    >>> bool(term_pattern("No-take zone").search("two no-take zones")), bool(term_pattern("Master").search("masterful"))
    (True, False)
    """
    words = [re.escape(w) for w in re.split(r"[\s\-]+", term.strip()) if w]
    if not words:
        raise ValueError("a defined term needs at least one word")
    return re.compile(r"(?<!\w)" + r"[\s\-]{1,3}".join(words) + r"(?:s|es)?(?!\w)", re.IGNORECASE)


def terms_used(text: str, terms: Sequence[str]) -> list[str]:
    """The terms (from ``terms``) that ``text`` uses, in the order given.

    >>> terms_used("The master of each vessel shall ...", ["Vessel", "Master", "Operator"])
    ['Vessel', 'Master']
    """
    return [term for term in terms if term_pattern(term).search(text)]


def term_specificity(df: int, n_docs: int) -> float:
    """How much using a term says about an article: ``log(N / df) / log(N)``, 1 for a term one article uses.

    >>> round(term_specificity(1, 40), 2), round(term_specificity(35, 40), 2)
    (1.0, 0.04)
    """
    if n_docs < 2:
        return 1.0
    return math.log(n_docs / max(df, 1)) / math.log(n_docs)


def _article_number(doc: Document) -> int:
    number = doc.metadata.get("article")
    if number is None:
        raise ValueError(f"document {doc_key(doc)!r} has no metadata 'article': load it with ragkit.domains.statute.corpus.load_statute")
    return int(number)


def build_article_graph(docs: Sequence[Document], kind_weights: Mapping[str, float] = KIND_WEIGHTS) -> nx.DiGraph:
    """The directed article graph of a statute (see the module docstring for nodes, edges and attributes)."""
    docs = list(docs)
    if not docs:
        raise ValueError("build_article_graph needs the statute's articles: the documents list is empty")
    graph = document_graph(docs)
    by_number = {_article_number(d): doc_key(d) for d in docs}
    for doc in docs:
        graph.nodes[doc_key(doc)].update(article=_article_number(doc), title=doc.metadata.get("title", ""), part=doc.metadata.get("part"))
    edges: dict[tuple[str, str], dict[str, Any]] = {}

    def add(source: str, target: str, kind: str, term: str | None = None) -> None:
        data = edges.setdefault((source, target), {"kinds": [], "terms": []})
        if kind not in data["kinds"]:
            data["kinds"].append(kind)
        if term:
            data["terms"].append(term)

    unresolved: dict[str, list[int]] = {}
    terms = defined_terms(docs)
    uses = {key: terms_used(doc.page_content, list(terms)) for doc in docs for key in [doc_key(doc)]}
    term_df = {term: sum(term in used for used in uses.values()) for term in terms}
    for doc in docs:
        source, number = doc_key(doc), _article_number(doc)
        refs = doc.metadata.get("references")
        if refs is None:
            refs = cited_articles(doc.page_content, exclude=number)
        for ref in refs:
            if ref in by_number and by_number[ref] != source:
                add(source, by_number[ref], "reference")
            elif ref not in by_number:
                unresolved.setdefault(source, []).append(int(ref))
        for term in uses[source]:
            if terms[term] != source:
                add(source, terms[term], "defined_term", term)
    n = len(docs)
    for (source, target), data in edges.items():
        kinds = tuple(k for k in EDGE_KINDS if k in data["kinds"])
        weight = kind_weights["reference"] if "reference" in kinds else 0.0
        weight += kind_weights["defined_term"] * max((term_specificity(term_df[t], n) for t in data["terms"]), default=0.0)
        graph.add_edge(source, target, kinds=kinds, terms=tuple(data["terms"]), weight=weight)
    graph.graph["defined_terms"] = terms
    graph.graph["unresolved_references"] = unresolved
    return graph


def statute_graph_retriever(docs: Sequence[Document] | None = None, base: Any = None, embeddings: Embeddings | None = None,
                            kind_weights: Mapping[str, float] = KIND_WEIGHTS, **kwargs: Any) -> GraphRetriever:
    """A :class:`GraphRetriever` over the article graph (default: ``load_statute()``, hybrid seeds,
    :data:`KIND_WEIGHTS` and :data:`STATUTE_GRAPH_DEFAULTS`, which keywords override)."""
    if docs is None:
        from ragkit.domains.statute.corpus import load_statute

        docs = load_statute()
    graph = build_article_graph(docs, kind_weights)
    return GraphRetriever.from_graph(graph, base=base, embeddings=embeddings, **{**STATUTE_GRAPH_DEFAULTS, **kwargs})


# ---------------------------------------------------------------- the same links between paragraphs
def paragraph_references(paragraphs: Sequence[Document],
                         kind_weights: Mapping[str, float] = KIND_WEIGHTS) -> Callable[[Document], list[Reference]]:
    """What a paragraph refers to (for :class:`ragkit.core.references.ReferenceIndex`): every paragraph of
    each article it cites ("Article 17": all of 17's paragraphs; "Article 19(3)": that one; its own article
    only when it names a paragraph), and the paragraph defining each defined term it uses.

    ``paragraphs`` are the statute's paragraph Documents (:func:`ragkit.domains.statute.paragraphs.paragraphs_of`).
    A citation's weight is ``kind_weights["reference"]`` (kind ``CITES``); a defined term's is ``kind_weights["defined_term"]``
    times its :func:`term_specificity` over the paragraphs, so "Authority", used everywhere, counts little (kind
    ``DEFINES``, so the graph can follow the best definition apart from the best citation).
    A cited article or paragraph the statute lacks becomes a target no paragraph has (the index keeps it
    apart, unresolved). "this Article" and "paragraph (1)" are not citations and are not read.

    >>> from ragkit.domains.statute.corpus import load_statute
    >>> paras = paragraphs_of(load_statute())
    >>> refs = paragraph_references(paras)
    >>> [(r.target, r.why) for r in refs(next(p for p in paras if p.metadata["id"] == "art-36(2)"))][:2]
    [('art-22(1)', 'Article 36(2) cites Article 22'), ('art-22(2)', 'Article 36(2) cites Article 22')]
    >>> [(r.target, r.why) for r in refs(next(p for p in paras if p.metadata["id"] == "art-16(1)"))]
    [('art-3(2)', "Article 16(1) uses the defined term 'Baseline'")]
    """
    paragraphs = list(paragraphs)
    by_article: dict[int, list[str]] = {}
    for p in paragraphs:
        by_article.setdefault(int(p.metadata["article"]), []).append(doc_key(p))
    terms = defined_terms(paragraphs)
    uses = {doc_key(p): terms_used(p.page_content, list(terms)) for p in paragraphs}
    term_df = {term: sum(term in used for used in uses.values()) for term in terms}

    def references_of(paragraph: Document) -> list[Reference]:
        key, own, label = doc_key(paragraph), int(paragraph.metadata["article"]), paragraph.metadata.get("title", doc_key(paragraph))
        refs = []
        for citation in parse_citations(paragraph.page_content):
            if citation.paragraph is not None:
                targets = [f"art-{citation.article}({citation.paragraph})"]
            elif citation.article == own:
                continue
            else:
                targets = by_article.get(citation.article, [f"art-{citation.article}"])
            why = f"{label} cites {citation.label()}"
            refs.extend(Reference(key, target, why, kind_weights["reference"]) for target in targets)
        for term in uses.get(key, []):
            weight = kind_weights["defined_term"] * term_specificity(term_df[term], len(paragraphs))
            refs.append(Reference(key, terms[term], f"{label} uses the defined term '{term}'", weight, DEFINES))
        return refs

    return references_of


def statute_definitions(articles: Sequence[Document]) -> Definitions:
    """The statute's defined terms with the words of their definitions (the text after ``"Term" means``, to the end
    of its paragraph), for finding the terms a question's words fall under (:class:`ragkit.core.references.Definitions`).

    >>> from ragkit.domains.statute.corpus import load_statute
    >>> statute_definitions(load_statute()).under("A seal swims up to my motorboat. Do I have to slow down?", 0.6)
    ['Marine mammal']
    """
    return _definitions(paragraphs_of(articles))


def _definitions(paragraphs: Sequence[Document]) -> Definitions:
    bodies: dict[str, str] = {}
    where: dict[str, str] = {}
    for p in paragraphs:
        for match in _DEFINITION.finditer(p.page_content):
            term = " ".join(match.group("term").split())
            if term and term.lower() not in {t.lower() for t in bodies}:
                bodies[term], where[term] = p.page_content[match.end():].split("\n")[0], doc_key(p)
    return Definitions.from_texts(bodies, [p.page_content for p in paragraphs], where)


def statute_reference_index(articles: Sequence[Document], kind_weights: Mapping[str, float] = KIND_WEIGHTS) -> ReferenceIndex:
    """The references among the statute's paragraphs, both ways (see :func:`paragraph_references`), and its
    definitions (:func:`statute_definitions`)."""
    paragraphs = paragraphs_of(articles)
    return ReferenceIndex(paragraphs, paragraph_references(paragraphs, kind_weights), _definitions(paragraphs))


__all__ = ["EDGE_KINDS", "KIND_WEIGHTS", "STATUTE_GRAPH_DEFAULTS", "build_article_graph", "defined_terms",
           "paragraph_references", "statute_definitions", "statute_graph_retriever", "statute_reference_index", "term_pattern",
           "term_specificity", "terms_used"]
