"""Strategy-routed QA over a statute: classify, route by a table, grade the evidence, verify every citation.

The graph, over the articles of a statute (``metadata["article"]``: its number) and what the graph must know
about that statute, ``domain`` (:class:`ragkit.roles.statute_protocols.StatuteDomain`; the bundled Coastal
Waters Act's is ``ragkit.domains.statute.domain.STATUTE``)::

    check_question -> unsupported_language | refuse | retrieve | classify
    classify -> retrieve (the strategy is routing_table[kind]) | refuse (unanswerable, unless suspect_refuse_below is set)
    retrieve -> grade_evidence -> follow_references (once) | generate | retrieve (the rewrite, while retrievals remain)
                                  | refuse_low_confidence
    follow_references -> follow_references (the next hop, while hops remain) | grade_evidence (short) | generate
                         | retrieve | refuse_low_confidence (as grade_evidence decided, when nothing was added)
                         (follow_references runs once per run; it hops only when a link is worth following)
    generate -> verify -> finish | generate (without the blamed paragraphs) | refuse_low_confidence

- ``check_question`` reads direct citations ("Art. 12(3)", "section 12", "제12조"): a question citing an
  article the statute has skips classification (its kind is ``domain.citation_kind``), the cited articles
  are pinned at rank 1 and their paragraphs are the writer's first evidence (``domain.cited_first``); one
  citing only articles the statute lacks is refused at once, and so is one that cites nothing and has no
  content word to look up ("Why?", "What is it?", "???": :func:`ragkit.core.nlp.key_terms`), which the
  classifier would give some kind and the grader, missing none of its terms, would pass on any article.
- ``classify`` (role ``question_classifier``) labels the question's kind (one of the domain's kinds);
  ``retrieve`` searches with ``routing_table[kind]``. A question the classifier calls unanswerable is refused
  unsearched by default (:data:`ragkit.defaults.STATUTE_QA`: ``suspect_refuse_below=None``, chosen on the dev sets).
  With a bar, that label is a suspicion the search checks: the question is searched as ``domain.safe_kind`` and
  written from only when its evidence score reaches ``suspect_refuse_below`` (the refusal dial raised for this run),
  else refused with low confidence, naming the closest articles; this answers more of what the Act covers and
  refuses fewer of the questions it does not (``benchmarks/statute/README.md``).
- ``grade_evidence`` (role ``evidence_grader``): short evidence is searched again with the rewriter's
  query while ``retrieval_attempts < max_retrievals`` and the rewrite differs from every query tried.
- ``follow_references`` runs once per run, before writing or rewriting: it reads the cross-references
  ("Article 17", "Articles 3 to 5") and defined terms around the found paragraph the grader (role
  ``grader``) ranks first (:mod:`ragkit.core.references` over ``domain.reference_index(articles)``) and adds
  the linked paragraph that best supplies what the found one leaves of the question (:func:`supplies`: the
  share of the missing key terms it holds plus its grade), when that times the link's weight reaches the bar
  (the model proposes, the code disposes): a low one, ``multihop_hop_bar``, for a question the classifier
  calls ``domain.multihop_kind``, else ``hop_bar`` (the classifier misses multi-hop questions, so a strong link is followed whatever the
  kind). Definitions are scored apart (``definition_hop_bar``): the same hop also adds the best definition of a
  term the found article uses, preferring one whose words the question uses ("a seal" -> "Marine mammal" means
  ... seal: ``references.definitions``, :class:`ragkit.core.references.Definitions`), so a penalty and a
  definition do not push each other out. The next hop starts from the added paragraphs, while ``hops < max_hops``
  (:data:`ragkit.defaults.STATUTE_QA`: one hop). Hops are recorded in ``followed``; a reference the statute
  lacks goes to ``unresolved_references`` and is never followed. The writer must quote every followed
  paragraph (``metadata["required"]``, after its own picks), so the answer cites both ends.
- ``generate`` (role ``writer``; the local one quotes at ``STATUTE_QA.writer_support_bar``, lower than elsewhere,
  as the evidence grader has judged the evidence already) writes from one Document per paragraph of the supporting articles, citing
  ``[Article 12(3)]``, reading the question glossed with the defined terms its words fall under ("A seal swims
  up to my motorboat (marine mammal)"), so a story-worded question finds the rule's sentence; ``verify`` (role ``hallucination_grader``, one cited paragraph at a time) drops every
  citation of an article that was not retrieved, of a paragraph that does not exist, or of one that does not
  support its sentence. ``finish`` delivers an answer whose every sentence keeps a supporting citation;
  otherwise ``generate`` tries again without the blamed paragraphs, up to ``max_generations``.

Refusing is one dial: sufficient evidence is written from only when its score (``EvidenceGrade.score``; for
the local grader, the document grader's best score among the supporting articles) reaches ``refuse_below``
(default :data:`ragkit.defaults.REFUSAL`), else the run ends in ``refuse_low_confidence``; ``confidence`` in
the result is that score (None when nothing was graded; risk-coverage curves: ``benchmarks/refusal``).

Every run ends with the result fields (:class:`ragkit.core.contract.RAGResult`): ``sources`` are the
paragraphs the answer was written from, ``citations`` the 1-based numbers of those it cites, and
``cited_labels`` the citations in the statute's own form. With local roles, a question the offline models
cannot read gets the language message, naming any article it cites (the pin would find it, but nothing
could read what the question asks about it). Every node that calls a role records its model calls and
tokens (``usage``; zero for local roles).

What it cannot do: articles are retrieved whole; one question per run; the rewrite starts from the
original question and cannot tell what was missing; a regeneration cannot tell the writer why a
paragraph failed; a sentence merging two paragraphs supports neither on its own; a hop starts from
one paragraph and follows one link (the best the grader finds), so a wrong first paragraph leads the
hop astray and a paragraph that needs two others gets one of them per hop (plus one definition); a needed
paragraph whose words the question does not share stays below the bar and is not followed; a question word
that falls under a defined term only by meaning ("a kayak" for "any craft on the water", "sell" for "sold")
finds no gloss and no preferred definition; the classifier's "unanswerable" refuses, unsearched, some questions
the Act answers that are told as stories, and with ``suspect_refuse_below`` set a suspected question is answered
whenever its evidence clears the bar, so a near miss the Act does not answer (a yearly charge it never sets) is
answered from the nearest article, as an unsuspected one always is.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from threading import Lock
from typing import Annotated, Any, Literal

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.runnables import RunnableConfig
from langchain_core.tracers.context import register_configure_hook
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from ragkit.core.contract import (
    RAGResult,
    add_path,
    answers_at,
    check_limit,
    check_positive,
    check_question_node,
    check_steps,
    check_threshold,
    low_confidence_note,
    result,
    traced,
)
from ragkit.core.nlp import QUESTION_STOPWORDS, fold, key_terms, same_query, stem, term_coverage, tidy, tokenize
from ragkit.core.references import DEFINES, Hop, ReferenceIndex, next_hop
from ragkit.core.search import Scored, ScoredSearch, as_scored_search, doc_key, run_search, with_score
from ragkit.defaults import GRAPHS, REFUSAL, STATUTE_QA
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles.llm import LLMGrader, LLMHallucinationGrader, LLMRewriter, LLMWriter, check_chat_model
from ragkit.roles.protocols import (
    DocumentGrader,
    HallucinationGrader,
    QuestionRewriter,
    Writer,
    choose,
    is_refusal,
)
from ragkit.roles.statute_protocols import EvidenceGrade, EvidenceGrader, QuestionClassifier, Refusal, StatuteDomain

BUILDER = "build_statute_qa_graph"


class StatuteQAState(RAGResult, total=False):
    """State of the statute QA graph; the result fields (answer, sources, outcome, ...) come from ``RAGResult``."""

    active_query: str  # the query the last search used (the question, then the rewrite)
    rewritten_query: str | None  # the rewriter's proposal after short evidence (None before any)
    queries: list[str]  # every query searched, in order
    cited: list[int]  # articles the question cites and the statute has (pinned at rank 1)
    citation_problems: list[str]  # cited articles the statute does not have
    question_kind: str  # one of the domain's kinds (domain.citation_kind for a direct citation)
    unanswerable: bool  # no key term, or the classifier chose domain.refuse_kind (suspect_refuse_below None): refused unsearched
    suspected_unanswerable: bool  # the classifier chose domain.refuse_kind, suspect_refuse_below set: searched at that dial
    kind_note: str
    strategy: str
    evidence_sufficient: bool
    evidence_note: str
    evidence_score: float | None  # the last EvidenceGrade's score: what refuse_below is compared with
    refuse_below: float  # the refusal dial (the builder's refuse_below)
    search_failed: bool
    search_note: str
    retrieval_attempts: int
    generation_attempts: int
    caps: dict[str, int]
    articles: list[Document]  # what the last search returned (pinned first)
    supporting: list[Document]  # the articles the writer writes from
    references_read: bool  # follow_references has run (it runs once per run)
    hops: int  # hops that added a paragraph (capped by caps["hops"])
    frontier: list[str]  # ids of the paragraphs the last hop added: the next hop starts from them
    followed: list[Hop]  # every followed reference: the hop, the paragraph it starts from, the one added, why
    followed_passages: list[Document]  # the paragraphs the hops added (the writer must quote them)
    unresolved_references: list[str]  # references of the read paragraphs to articles or paragraphs the statute lacks
    hop_note: str
    paragraphs: list[Document]  # the paragraph documents of the last generation
    excluded: list[str]  # paragraph ids a verification blamed (left out of the next generation)
    draft: str
    verified: bool  # every sentence of the draft kept a supporting citation
    cited_labels: list[str]  # "Article 12(3)" labels that survived verification
    supported: list[str]  # ids of the paragraphs those citations name
    invalid_citations: list[tuple[str, str]]  # (label, why) dropped by verification
    unsupported: list[str]  # draft sentences with no supporting citation
    refusal: Refusal | None
    usage: Annotated[list[dict[str, Any]], add_path]


Node = Callable[[StatuteQAState], StatuteQAState]


# ---------------------------------------------------------------- token usage
@dataclass
class Usage:
    """Model calls and the tokens their ``usage_metadata`` reported, counted inside one :func:`record_usage` block."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    _lock: Lock = field(default_factory=Lock, repr=False, compare=False)

    def add(self, message: Any) -> None:
        usage = getattr(message, "usage_metadata", None) or {}
        with self._lock:
            self.calls += 1
            for key in ("input_tokens", "output_tokens", "total_tokens"):
                setattr(self, key, getattr(self, key) + int(usage.get(key, 0) or 0))

    def entry(self, node: str, seconds: float | None = None) -> dict[str, Any]:
        out = {"node": node, "calls": self.calls, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
               "total_tokens": self.total_tokens}
        return out if seconds is None else {**out, "seconds": round(seconds, 6)}


class _UsageHandler(BaseCallbackHandler):
    def __init__(self, usage: Usage):
        self.usage = usage

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                self.usage.add(generation.message if isinstance(generation, ChatGeneration) else None)


# The mechanism of langchain_core.callbacks.get_usage_metadata_callback, which skips messages without a model name.
_USAGE: ContextVar[_UsageHandler | None] = ContextVar("ragkit_statute_usage", default=None)
register_configure_hook(_USAGE, inheritable=True)


@contextmanager
def record_usage() -> Iterator[Usage]:
    """Count every chat-model call (and its ``usage_metadata`` tokens) made inside the block.

    >>> from langchain_core.messages import AIMessage
    >>> from ragkit.core.chat_models import scripted
    >>> model = scripted(AIMessage("hi", usage_metadata={"input_tokens": 7, "output_tokens": 2, "total_tokens": 9}))
    >>> with record_usage() as usage:
    ...     _ = model.invoke("hello")
    >>> usage.calls, usage.total_tokens
    (1, 9)
    """
    usage = Usage()
    token = _USAGE.set(_UsageHandler(usage))
    try:
        yield usage
    finally:
        _USAGE.reset(token)


def usage_totals(entries: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Calls and tokens summed over a run's ``usage`` entries.

    >>> usage_totals([{"calls": 1, "input_tokens": 5, "output_tokens": 2, "total_tokens": 7}, {"calls": 0}])
    {'calls': 1, 'input_tokens': 5, 'output_tokens': 2, 'total_tokens': 7}
    """
    return {k: sum(int(e.get(k, 0)) for e in entries) for k in ("calls", "input_tokens", "output_tokens", "total_tokens")}


# ---------------------------------------------------------------- small helpers
def check_routing_table(table: Mapping[str, str], strategies: Sequence[str], kinds: Sequence[str]) -> dict[str, str]:
    """A routing table must send every searched kind to a known strategy.

    >>> check_routing_table({"single": "hybrid", "definition": "vector", "multihop": "graph", "citation": "bm25"},
    ...                     ["vector", "hybrid", "graph"], ["single", "definition", "multihop", "citation"])
    Traceback (most recent call last):
    ...
    ValueError: routing table sends 'citation' to 'bm25', which is not a strategy ['vector', 'hybrid', 'graph']
    """
    missing = [kind for kind in kinds if kind not in table]
    if missing:
        raise ValueError(f"routing table has no strategy for {missing}; it needs one for each of {list(kinds)}")
    for kind in kinds:
        if table[kind] not in strategies:
            raise ValueError(f"routing table sends {kind!r} to {table[kind]!r}, which is not a strategy {list(strategies)}")
    return {kind: table[kind] for kind in kinds}


def pin(results: Scored, pinned: Sequence[Document], k: int) -> list[Document]:
    """The pinned documents first (rank 1, 2, ...), then the search results that are not pinned, ``k`` in all
    (more when more are pinned); each carries ``metadata["score"]`` and ``metadata["pinned"]``.

    >>> a, b, c = (Document(x, metadata={"id": x}) for x in "abc")
    >>> [(d.page_content, d.metadata["pinned"]) for d in pin([(a, 0.9), (b, 0.8)], [b], 2)]
    [('b', True), ('a', False)]
    """
    keys = {doc_key(d) for d in pinned}
    top = max((s for _, s in results), default=1.0)
    out = [with_score(Document(d.page_content, metadata={**d.metadata, "pinned": True}, id=d.id), top + 1.0) for d in pinned]
    for doc, score in results:
        if len(out) >= max(k, len(pinned)):
            break
        if doc_key(doc) not in keys:
            out.append(with_score(Document(doc.page_content, metadata={**doc.metadata, "pinned": False}, id=doc.id), score))
    return out


def rewrite_repeats(state: StatuteQAState) -> bool:
    """True when there is no rewritten query, or it repeats a query already searched (case and spacing aside)."""
    proposal = state.get("rewritten_query")
    tried = [*state.get("queries", []), state.get("active_query", "")]
    return not proposal or any(same_query(proposal, q) for q in tried if q)


def article_names(articles: Sequence[Document]) -> str:
    """``Article 15 (Catch limits and quotas); ...`` for a refusal naming the closest provisions."""
    return "; ".join(f"Article {d.metadata['article']} ({d.metadata.get('title', '')})" for d in articles)


# ---------------------------------------------------------------- nodes
def worst_case_steps(max_retrievals: int, max_hops: int, max_generations: int) -> int:
    """The ``recursion_limit`` a run needs at most (one step per node, plus LangGraph's start step).

    The longest run: check_question and classify; 2 per retrieval (retrieve, grade_evidence); with hops,
    follow_references at most ``max_hops`` times and grade_evidence once more; 2 per generation (generate,
    verify); finish or a refusal.

    >>> worst_case_steps(2, 1, 2)
    14
    """
    return 4 + 2 * max_retrievals + (max_hops + 1 if max_hops else 0) + 2 * max_generations


def start_run(article_numbers: Sequence[int], caps: Mapping[str, int], refuse_below: float = REFUSAL.statute_qa, *,
              domain: StatuteDomain) -> Callable[[dict, RunnableConfig, str], StatuteQAState]:
    """What the entry node adds: the tidied question, the articles it cites (``domain.pinned_articles``), whether
    it is unanswerable unsearched (it cites nothing and has no key term), fresh counters, the caps and the
    refusal dial; a ``recursion_limit`` too low for the caps is an error here, before any search
    (:func:`worst_case_steps`)."""
    numbers = tuple(article_numbers)

    def start(state: dict, config: RunnableConfig, question: str) -> StatuteQAState:
        check_steps(config, worst_case_steps(caps["retrievals"], caps["hops"], caps["generations"]),
                    max_retrievals=caps["retrievals"], max_hops=caps["hops"], max_generations=caps["generations"])
        question = tidy(question)
        cited, problems = domain.pinned_articles(question, numbers)
        update: StatuteQAState = {
            "question": question, "active_query": question, "rewritten_query": None, "queries": [], "cited": cited,
            "citation_problems": problems, "retrieval_attempts": 0, "generation_attempts": 0, "caps": dict(caps),
            "refusal": None, "search_failed": False, "evidence_sufficient": False, "articles": [], "supporting": [],
            "references_read": False, "hops": 0, "frontier": [], "followed": [], "followed_passages": [],
            "unresolved_references": [], "hop_note": "", "unanswerable": False, "suspected_unanswerable": False,
            "paragraphs": [], "excluded": [], "draft": "", "verified": False, "answer": "", "sources": [], "citations": [],
            "cited_labels": [], "supported": [], "invalid_citations": [], "unsupported": [],
            "evidence_score": None, "confidence": None, "refuse_below": refuse_below,
        }
        if cited:
            update.update(question_kind=domain.citation_kind, kind_note=f"direct citation of Article(s) {', '.join(map(str, cited))}")
        elif not problems and not key_terms(question):
            update.update(unanswerable=True, kind_note="the question names nothing to look up")
        return update

    return start


def classify_node(classifier: QuestionClassifier, *, domain: StatuteDomain, suspect_bar: float | None = None) -> Node:
    """Build the ``classify`` node around a question classifier (a failing classifier means ``domain.safe_kind``).
    With ``suspect_bar``, a question classified ``domain.refuse_kind`` is searched as ``domain.safe_kind`` with the
    refusal dial raised to ``suspect_bar`` for this run, instead of being refused unsearched."""

    @traced("classify")
    def classify(state: StatuteQAState) -> StatuteQAState:
        """Label the question's kind. Reads: question, refuse_below. Writes: question_kind, unanswerable,
        suspected_unanswerable, refuse_below, kind_note, usage."""
        start = time.perf_counter()
        with record_usage() as usage:
            try:
                decision = classifier.classify(state["question"])
                kind, note = decision.kind, decision.note + (" (fallback)" if decision.fallback else "")
            except Exception as err:  # noqa: BLE001 - policy 3: a crashing classifier takes the safe kind
                kind = domain.safe_kind
                note = f"classifier failed ({type(err).__name__}: {err}); searching as {kind!r}"
        usage_entry = [usage.entry("classify", time.perf_counter() - start)]
        if kind == domain.refuse_kind and suspect_bar is not None:
            bar = max(state.get("refuse_below", REFUSAL.statute_qa), suspect_bar)
            return {"question_kind": domain.safe_kind, "unanswerable": False, "suspected_unanswerable": True,
                    "refuse_below": bar, "usage": usage_entry,
                    "kind_note": f"{note}; searched as {domain.safe_kind!r}, written from only at evidence >= {bar:.3f}"}
        return {"question_kind": kind, "unanswerable": kind == domain.refuse_kind, "kind_note": note, "usage": usage_entry}

    return classify


def retrieve_node(searches: Mapping[str, ScoredSearch], routing_table: Mapping[str, str], articles: Mapping[int, Document],
                  k: int, *, domain: StatuteDomain) -> Node:
    """Build the ``retrieve`` node: the routing table picks the strategy, cited articles are pinned at rank 1."""

    @traced("retrieve")
    def retrieve(state: StatuteQAState) -> StatuteQAState:
        """Search with the strategy for the question's kind; after short evidence, with the rewritten query.

        Reads: question_kind, cited, active_query, rewritten_query, retrieval_attempts, queries.
        Writes: strategy, active_query, queries, articles, retrieval_attempts, search_note, search_failed.
        """
        strategy = routing_table[state.get("question_kind", domain.safe_kind)]
        attempts = state.get("retrieval_attempts", 0)
        query = state["rewritten_query"] if attempts and state.get("rewritten_query") else state["active_query"]
        outcome = run_search(searches[strategy], query, k, what=f"{strategy} search")
        pinned = [articles[n] for n in state.get("cited", [])]
        found = pin([(d, d.metadata.get("score", 0.0)) for d in outcome.documents], pinned, k)
        return {"strategy": strategy, "active_query": query, "queries": [*state.get("queries", []), query], "articles": found,
                "retrieval_attempts": attempts + 1, "search_note": outcome.note, "search_failed": outcome.failed and not pinned}

    return retrieve


def grade_evidence_node(grader: EvidenceGrader, rewriter: QuestionRewriter) -> Node:
    """Build the ``grade_evidence`` node: grade the articles; when short, ask the rewriter for the next query."""

    @traced("grade_evidence")
    def grade_evidence(state: StatuteQAState) -> StatuteQAState:
        """Grade the evidence; keep the supporting articles (pinned ones always); propose a rewrite when short.

        Reads: question, articles. Writes: evidence_sufficient, evidence_note, evidence_score, supporting,
        rewritten_query, usage.
        """
        start = time.perf_counter()
        docs = state.get("articles", [])
        with record_usage() as usage:
            try:
                grade = grader.grade(state["question"], docs)
            except Exception as err:  # noqa: BLE001 - a crashing grader: the evidence counts as short
                grade = EvidenceGrade("short", (), 0.0, f"evidence grader failed ({type(err).__name__}: {err})")
            supporting = [d for d in docs if d.metadata.get("pinned")]
            supporting += [docs[i] for i in grade.supporting if 0 <= i < len(docs) and docs[i] not in supporting]
            update: StatuteQAState = {"evidence_sufficient": grade.sufficient and bool(supporting), "evidence_note": grade.note,
                                      "supporting": supporting, "evidence_score": float(grade.score)}
            if not update["evidence_sufficient"]:
                try:
                    proposal = rewriter.rewrite(state["question"], docs)
                except Exception:  # noqa: BLE001 - no rewrite: the loop stops
                    proposal = None
                update["rewritten_query"] = " ".join(proposal.split()) if isinstance(proposal, str) and proposal.strip() else None
        update["usage"] = [usage.entry("grade_evidence", time.perf_counter() - start)]
        return update

    return grade_evidence


def follow_references_node(index: ReferenceIndex, grader: DocumentGrader, articles: Mapping[int, Document],
                           bar: float, multihop_bar: float, *, domain: StatuteDomain,
                           definition_bar: float | None = STATUTE_QA.definition_hop_bar,
                           gloss_bar: float | None = STATUTE_QA.definition_gloss_bar) -> Node:
    """Build the ``follow_references`` node: one hop along the references of what was found."""

    @traced("follow_references")
    def follow_references(state: StatuteQAState) -> StatuteQAState:
        """One hop (:func:`plan_hop`): from the paragraph the grader ranks first in the first supporting article
        (a later hop: from what the previous one added), add the best linked paragraph when its score reaches the
        bar (``multihop_bar`` for a question the classifier calls multihop, else ``bar``) and, apart, the best
        definition when it reaches ``definition_bar``. Nothing is followed once the chain holds every content
        word of the question.

        Reads: question, question_kind, supporting, articles, hops, frontier, followed, followed_passages,
        unresolved_references. Writes: references_read, hops, frontier, followed, followed_passages,
        articles, unresolved_references, hop_note, usage.
        """
        start = time.perf_counter()
        need = multihop_bar if state.get("question_kind") == domain.multihop_kind else bar
        with record_usage() as usage:
            try:
                anchors, new, note = plan_hop(state, index, grader, need, domain.paragraphs_of, definition_bar, gloss_bar)
            except Exception as err:  # noqa: BLE001 - a crashing grader: no hop, the found evidence stands
                anchors, new, note = [], [], f"references not followed ({type(err).__name__}: {err})"
        passages = [Document(index.passages[h.added].page_content, id=h.added,
                             metadata={**index.passages[h.added].metadata, "required": True, "followed": h.why}) for h in new]
        have = {int(d.metadata["article"]) for d in state.get("articles", [])}
        added = [articles[n] for n in dict.fromkeys(int(p.metadata["article"]) for p in passages) if n not in have]
        unresolved = [r.why for a in anchors for r in index.unresolved.get(a, [])]
        return {"references_read": True, "hops": state.get("hops", 0) + (1 if new else 0), "frontier": [h.added for h in new],
                "followed": [*state.get("followed", []), *new], "followed_passages": [*state.get("followed_passages", []), *passages],
                "articles": [*state.get("articles", []),
                             *(Document(d.page_content, metadata={**d.metadata, "pinned": False, "followed": True}, id=d.id) for d in added)],
                "unresolved_references": list(dict.fromkeys([*state.get("unresolved_references", []), *unresolved])),
                "hop_note": note, "usage": [usage.entry("follow_references", time.perf_counter() - start)]}

    return follow_references


def uncovered_part(question: str, text: str) -> str:
    """The question without the content words ``text`` holds (stemmed): what is left to find.

    >>> uncovered_part("What is the fine for leaving a gillnet in the water?", "No gillnet shall be left in the water.")
    'What is the fine for leaving a in the?'
    """
    present = set(tokenize(text))
    kept = re.sub(r"\w+", lambda m: "" if fold(m.group()) not in QUESTION_STOPWORDS and stem(fold(m.group())) in present
                  else m.group(), question)
    return re.sub(r"\s+([?.!,;:])", r"\1", " ".join(kept.split()))


def plan_hop(state: StatuteQAState, index: ReferenceIndex, grader: DocumentGrader, bar: float,
             paragraphs_of: Callable[[Sequence[Document]], list[Document]],
             definition_bar: float | None = None, gloss_bar: float | None = None) -> tuple[list[str], list[Hop], str]:
    """One hop: the paragraphs it starts from, the references it follows (:func:`ragkit.core.references.next_hop`,
    the links graded on what the chain leaves of the question, :func:`supplies`) and a note saying why.

    With ``definition_bar`` None every link competes, and one is followed. Otherwise the links that are not
    definitions (``DEFINES``) compete for ``bar`` and, apart, the definitions of the terms the anchor's article
    uses compete for ``definition_bar``, so a penalty that cites the rule and the definition of the word the
    question turns on do not push each other out; with ``gloss_bar``, a definition of a term the question's words
    fall under (:meth:`ragkit.core.references.Definitions.under`: "a dolphin" under "Marine mammal") scores 1
    more (:func:`falls_under`). What it cannot do: a definition is reached only through a term the article uses,
    and scored by the words it shares with the question (and the grader)."""
    followed = state.get("followed", [])
    anchors = list(state.get("frontier", [])) or hop_anchor(state, index, graded_by(grader, state["question"]), paragraphs_of)
    if not anchors:
        return [], [], "nothing found to start from"
    chain = [*(h.anchor for h in followed), *(h.added for h in followed), *anchors]
    missing = uncovered_part(state["question"], " ".join(index.passages[k].page_content for k in chain))
    if not key_terms(missing):
        return anchors, [], "the paragraphs found hold every content word of the question"
    score, hop = supplies(grader, missing), state.get("hops", 0) + 1
    if definition_bar is None:
        new = next_hop(index, anchors, score, hop=hop, chain=chain, bar=bar)
    else:
        others = {r.kind for refs in index.outgoing.values() for r in refs} - {DEFINES}
        new = next_hop(index, anchors, score, hop=hop, chain=chain, bar=bar, kinds=others)
        # the definitions of the terms the anchor uses, or the paragraphs using a term the anchor defines; and the
        # definitions of the terms the rest of the anchor's article uses ("the distance rule for vessels" in (1),
        # "marine mammals" in (4)): the best of them
        own = {index.passages[a].metadata.get("article") for a in anchors}
        rest = [k for k, p in index.passages.items() if p.metadata.get("article") in own and k not in anchors]
        relevance, taken = falls_under(score, index, state["question"], gloss_bar), [*chain, *(h.added for h in new)]
        options = [*next_hop(index, anchors, relevance, hop=hop, chain=taken, bar=definition_bar, kinds={DEFINES}),
                   *next_hop(index, rest, relevance, hop=hop, chain=[*taken, *anchors], bar=definition_bar, kinds={DEFINES},
                             both_ways=False)]
        new += sorted(options, key=lambda h: -h.score)[:1]
    return anchors, new, "; ".join(map(str, new)) or f"nothing worth following from {', '.join(anchors)}"


def graded_by(grader: DocumentGrader, question: str) -> Callable[[list[Document]], list[float]]:
    """The grader's scores of documents for ``question``; a grade it could not make (a fallback) counts 0."""
    return lambda docs: [0.0 if g.fallback else g.score for g in grader.grade_many(question, docs)]


def supplies(grader: DocumentGrader, missing: str) -> Callable[[list[Document]], list[float]]:
    """How much a linked paragraph supplies of what the chain leaves of the question: the share of ``missing``'s
    key terms it holds (stemmed) plus the grader's score of it for ``missing`` (a grade it could not make counts 0).

    The share decides between links when one holds a missing word ("fined" -> "a fine of up to ...") and
    another only the same topic; the grade decides when none holds one (a paraphrase: "penalty" for "fine").

    >>> from ragkit.roles.protocols import Grade
    >>> class Flat:
    ...     def grade_many(self, question, docs): return [Grade(True, 0.01) for _ in docs]
    >>> supplies(Flat(), "How much can a skipper be fined?")([Document("A breach is punishable by a fine."), Document("No discharge.")])
    [0.51, 0.01]
    """
    grades = graded_by(grader, missing)
    return lambda docs: [round(term_coverage(missing, d.page_content) + g, 6) for d, g in zip(docs, grades(docs))]


def falls_under(relevance: Callable[[list[Document]], list[float]], index: ReferenceIndex, question: str,
                gloss_bar: float | None) -> Callable[[list[Document]], list[float]]:
    """``relevance`` plus 1 for the passage defining a term the question's words fall under (``index.definitions``;
    unchanged without definitions or with ``gloss_bar`` None).

    >>> from ragkit.core.references import Definitions
    >>> defs = Definitions.from_texts({"Vessel": "any craft, including rafts"}, ["A vessel shall ..."], {"Vessel": "def-1"})
    >>> index = ReferenceIndex([Document("...", metadata={"id": "def-1"})], lambda p: [], defs)
    >>> falls_under(lambda docs: [0.25] * len(docs), index, "Is my raft covered?", 0.0)([index.passages["def-1"]])
    [1.25]
    """
    defs = index.definitions
    if defs is None or gloss_bar is None:
        return relevance
    under = {defs.where[t] for t in defs.under(question, gloss_bar) if t in defs.where}
    return lambda docs: [s + (1.0 if doc_key(d) in under else 0.0) for d, s in zip(docs, relevance(docs))]


def hop_anchor(state: StatuteQAState, index: ReferenceIndex, relevance: Callable[[list[Document]], list[float]],
               paragraphs_of: Callable[[Sequence[Document]], list[Document]]) -> list[str]:
    """Where the first hop starts: the paragraph (of ``paragraphs_of``, the domain's) of the first supporting
    article (pinned ones come first; the first article found when none supports) that ``relevance`` ranks first
    (``[]`` when nothing was found)."""
    first = (state.get("supporting") or state.get("articles", []))[:1]
    found = [p for p in paragraphs_of(first) if doc_key(p) in index.passages]
    if not found:
        return []
    scores = relevance(found)
    return [doc_key(found[max(range(len(found)), key=lambda i: scores[i])])]


def generate_node(writer: Writer, *, domain: StatuteDomain, gloss: Callable[[str], str] | None = None) -> Node:
    """Build the ``generate`` node: the writer answers from the paragraphs of the supporting articles."""

    @traced("generate")
    def generate(state: StatuteQAState) -> StatuteQAState:
        """Write from paragraph documents (``domain.paragraphs_of``), turning the writer's ``[n]`` into
        ``[Article N(p)]`` citations (``domain.cite_paragraphs``). A cited article's title is written after its
        citation in the question the writer reads (``domain.with_titles``).

        The paragraphs the hops added come last, marked for the writer to quote.

        Reads: question, supporting, followed_passages, excluded, generation_attempts.
        Writes: paragraphs, draft, generation_attempts, usage.
        """
        start = time.perf_counter()
        excluded = set(state.get("excluded", []))
        supporting, followed = state.get("supporting", []), state.get("followed_passages", [])
        keys = {doc_key(p) for p in followed}
        paragraphs = [p for p in [*(p for p in domain.paragraphs_of(supporting) if doc_key(p) not in keys), *followed]
                      if doc_key(p) not in excluded]
        titles = {int(d.metadata["article"]): d.metadata.get("title", "") for d in supporting if d.metadata.get("pinned")}
        paragraphs = domain.cited_first(paragraphs, state["question"])  # a cited paragraph is the first evidence
        draft = ""
        with record_usage() as usage:
            if paragraphs:
                asked = gloss(state["question"]) if gloss is not None else state["question"]
                answer = writer.write(domain.with_titles(asked, titles), paragraphs)
                draft = domain.cite_paragraphs(answer.text, paragraphs) if answer.answered else ""
        return {"paragraphs": paragraphs, "draft": draft, "generation_attempts": state.get("generation_attempts", 0) + 1,
                "usage": [usage.entry("generate", time.perf_counter() - start)]}

    return generate


def verify_node(hallucination_grader: HallucinationGrader, *, domain: StatuteDomain) -> Node:
    """Build the ``verify`` node: every citation must name a retrieved article and support its sentence
    (``domain.check_answer_citations``)."""

    @traced("verify")
    def verify(state: StatuteQAState) -> StatuteQAState:
        """Drop citations of articles that were not retrieved or that do not support their sentence; the
        draft is verified when every sentence keeps a supporting citation.

        Reads: draft, articles, excluded. Writes: verified, cited_labels, supported, invalid_citations,
        unsupported, excluded, draft, usage.
        """
        start = time.perf_counter()
        draft = state.get("draft", "")
        if is_refusal(draft):
            return {"verified": False, "cited_labels": [], "supported": [], "unsupported": [], "invalid_citations": [],
                    "usage": [Usage().entry("verify", time.perf_counter() - start)]}
        retrieved = {int(d.metadata["article"]): d for d in state.get("articles", [])}
        with record_usage() as usage:
            report = domain.check_answer_citations(draft, retrieved, hallucination_grader)
        return {"verified": report.verified, "cited_labels": list(report.valid), "supported": list(report.supported),
                "invalid_citations": list(report.invalid), "unsupported": list(report.unsupported),
                "draft": domain.remove_citations(draft, {label for label, _ in report.invalid} - set(report.valid)),
                "excluded": list(dict.fromkeys([*state.get("excluded", []), *report.blamed])),
                "usage": [usage.entry("verify", time.perf_counter() - start)]}

    return verify


@traced("finish")
def finish(state: StatuteQAState) -> StatuteQAState:
    """Deliver the verified draft, written from ``paragraphs``.

    Reads: draft, paragraphs, supported, evidence_score. Writes: the result fields (answered), refusal, confidence.
    """
    sources, supported = state.get("paragraphs", []), set(state.get("supported", []))
    cited = [n for n, p in enumerate(sources, start=1) if doc_key(p) in supported]
    return {**result(state["draft"], "answered", "verified: every sentence keeps a citation of a paragraph that supports it",
                     sources, cited), "refusal": None, "confidence": state.get("evidence_score")}


def unsupported_language_node(*, domain: StatuteDomain) -> Node:
    """Build the ``unsupported_language`` node: the language message, in the domain's words."""

    @traced("unsupported_language")
    def unsupported_language(state: StatuteQAState) -> StatuteQAState:
        """The language message (policy 5), naming the cited articles so the user can ask about them in English.

        Reads: language_note, cited. Writes: the result fields (refused), refusal.
        """
        text, cited = state["language_note"], state.get("cited") or []
        if cited:
            names = [f"Article {n}" for n in cited]
            text = f"{text} {domain.refusals['language_cited'].format(articles=', '.join(names), first=names[0])}"
        return {**result(text, "refused", "language"), "refusal": "language"}

    return unsupported_language


def refuse_node(*, domain: StatuteDomain) -> Node:
    """Build the ``refuse`` node: the domain's refusal of an unanswerable question or of a missing article."""

    @traced("refuse")
    def refuse(state: StatuteQAState) -> StatuteQAState:
        """Refuse at once: the question is unanswerable, or cites only articles the statute lacks.

        Reads: citation_problems, cited, kind_note. Writes: the result fields (refused), refusal.
        """
        problems, refusals = state.get("citation_problems") or [], domain.refusals
        if problems and not state.get("cited"):
            text = f"{refusals['no_such_article']}: {'; '.join(problems)}."
            return {**result(text, "refused", f"no_such_article: {'; '.join(problems)}"), "refusal": "no_such_article"}
        return {**result(refusals["unanswerable"], "refused", f"unanswerable: {state.get('kind_note', '')}".rstrip(": ")),
                "refusal": "unanswerable"}

    return refuse


def refuse_low_confidence_node(*, domain: StatuteDomain) -> Node:
    """Build the ``refuse_low_confidence`` node: the domain's refusal when the evidence or the draft falls short."""

    @traced("refuse_low_confidence")
    def refuse_low_confidence(state: StatuteQAState) -> StatuteQAState:
        """Refuse because the search failed, the evidence stayed short or below the refusal dial, or no draft
        survived verification, naming the closest articles (the reason names the classifier's suspicion, if any:
        a search that found little does not prove that the statute is silent, so the refusal does not claim it).

        Reads: search_failed, search_note, generation_attempts, draft, articles, evidence_note, evidence_score,
        evidence_sufficient, refuse_below, unsupported. Writes: the result fields (refused), refusal, confidence.
        """
        refusals = domain.refusals
        if state.get("search_failed") and not state.get("articles"):
            reason: Refusal = "search_failed"
            detail = state.get("search_note", "the search raised an error")
            text = f"{refusals[reason]} ({detail})"
        else:
            reason = "unsupported" if state.get("generation_attempts", 0) and state.get("draft") else "low_confidence"
            detail = "; ".join(state.get("unsupported", [])) if reason == "unsupported" else state.get("evidence_note", "")
            if reason == "low_confidence" and state.get("evidence_sufficient") and not confident(state):
                detail = low_confidence_note(state.get("evidence_score"), state.get("refuse_below", REFUSAL.statute_qa))
            if reason == "low_confidence" and state.get("suspected_unanswerable"):
                detail = f"{state.get('kind_note', '')}; {detail}"
            text = refusals[reason]
            if state.get("articles"):
                text += refusals["closest"].format(articles=article_names(state["articles"][:3]))
        return {**result(text, "refused", f"{reason}: {detail}".rstrip(": ")), "refusal": reason,
                "confidence": state.get("evidence_score")}

    return refuse_low_confidence


# ---------------------------------------------------------------- routers (pure functions of the state)
def confident(state: StatuteQAState) -> bool:
    """The refusal dial: the evidence score reaches ``refuse_below`` (or the evidence grader gave no score)."""
    return answers_at(state.get("evidence_score"), state.get("refuse_below", REFUSAL.statute_qa))


def route_after_check_question(state: StatuteQAState) -> Literal["unsupported_language", "retrieve", "refuse", "classify"]:
    """Unreadable language -> the message; a direct citation -> retrieve (no classification); a citation of
    articles the statute lacks, or nothing to look up -> refuse; anything else -> classify."""
    if state.get("language_note"):
        return "unsupported_language"
    if state.get("cited"):
        return "retrieve"
    if state.get("citation_problems") or state.get("unanswerable"):
        return "refuse"
    return "classify"


def route_after_classify(state: StatuteQAState) -> Literal["refuse", "retrieve"]:
    """An unanswerable question (the classify node's ``unanswerable``) is refused at once; every other kind is searched."""
    return "refuse" if state.get("unanswerable") else "retrieve"


def wants_hop(state: StatuteQAState) -> bool:
    """Read the references of what was found once per run (hops allowed and something found); whether a
    hop is made is the node's decision."""
    return not state.get("references_read") and state["caps"]["hops"] > 0 and bool(state.get("articles"))


def route_after_grade_evidence(state: StatuteQAState) -> Literal["follow_references", "generate", "retrieve",
                                                                "refuse_low_confidence"]:
    """The references of what was found are read first (once); then enough evidence -> write (when it passes
    the refusal dial, else refuse); short -> search again with a new rewrite while attempts remain; else refuse."""
    if wants_hop(state):
        return "follow_references"
    if state.get("evidence_sufficient"):
        return "generate" if confident(state) else "refuse_low_confidence"
    if state.get("retrieval_attempts", 0) < state["caps"]["retrievals"] and not rewrite_repeats(state):
        return "retrieve"
    return "refuse_low_confidence"


def route_after_follow_references(state: StatuteQAState) -> Literal["follow_references", "grade_evidence", "generate", "retrieve",
                                                                   "refuse_low_confidence"]:
    """Another hop from what this one added while hops remain; short evidence that gained paragraphs is
    graded again; otherwise on as ``grade_evidence`` decided (write, search again, or refuse)."""
    if state.get("frontier") and state.get("hops", 0) < state["caps"]["hops"]:
        return "follow_references"
    if state.get("followed") and not state.get("evidence_sufficient"):
        return "grade_evidence"
    return route_after_grade_evidence(state)


def route_after_verify(state: StatuteQAState) -> Literal["finish", "generate", "refuse_low_confidence"]:
    """A verified draft is delivered; a failed one is regenerated while attempts and paragraphs remain."""
    if state.get("verified"):
        return "finish"
    if is_refusal(state.get("draft", "")):
        return "refuse_low_confidence"  # the writer found nothing to say: the same paragraphs will not help
    excluded = set(state.get("excluded", []))
    left = [p for p in state.get("paragraphs", []) if doc_key(p) not in excluded]
    if state.get("generation_attempts", 0) < state["caps"]["generations"] and left:
        return "generate"
    return "refuse_low_confidence"


# ---------------------------------------------------------------- the graph
def statute_qa_graph(
    articles: Sequence[Document],
    *,
    strategies: Mapping[str, Any],
    domain: StatuteDomain,
    routing_table: Mapping[str, str] | None = None,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    question_classifier: QuestionClassifier | None = None,
    evidence_grader: EvidenceGrader | None = None,
    grader: DocumentGrader | None = None,
    writer: Writer | None = None,
    hallucination_grader: HallucinationGrader | None = None,
    rewriter: QuestionRewriter | None = None,
    references: ReferenceIndex | None = None,
    k: int = STATUTE_QA.k,
    max_retrievals: int = STATUTE_QA.max_retrievals,
    max_generations: int = STATUTE_QA.max_generations,
    max_hops: int = STATUTE_QA.max_hops,
    hop_bar: float = STATUTE_QA.hop_bar,
    multihop_hop_bar: float = STATUTE_QA.multihop_hop_bar,
    definition_hop_bar: float | None = STATUTE_QA.definition_hop_bar,
    definition_gloss_bar: float | None = STATUTE_QA.definition_gloss_bar,
    max_question_chars: int = GRAPHS.max_question_chars,
    refuse_below: float = REFUSAL.statute_qa,
    suspect_refuse_below: float | None = STATUTE_QA.suspect_refuse_below,
    strict: bool = False,
) -> StateGraph:
    """The statute QA graph, uncompiled (see the module docstring).

    ``articles`` are the statute's articles (``metadata["article"]``: the number; the bundled statute's:
    ``load_statute()``); ``strategies`` maps strategy names to anything
    :func:`ragkit.core.search.as_scored_search` takes (the bundled statute's vector, hybrid and graph, built on
    first search: ``strategy_searches(articles)``); ``domain`` is what the graph knows about the statute
    (:class:`ragkit.roles.statute_protocols.StatuteDomain`; the bundled statute's: ``STATUTE`` of
    ``ragkit.domains.statute.domain``). ``routing_table`` defaults to ``domain.routing_table``. ``grader`` is
    the document grader the local evidence grader and ``follow_references`` use; ``references`` the links
    between paragraphs (default ``domain.reference_index(articles)``); ``max_hops=0`` turns the hop off;
    ``definition_hop_bar`` is the bar of the definition a hop adds beside the best other link (None: one link per hop,
    definitions competing with citations); ``definition_gloss_bar`` how specific a question word must be for the
    definition holding it to be preferred (None: not). ``refuse_below`` is the
    refusal dial: the evidence score a run needs to write; ``suspect_refuse_below`` the dial for a question the
    classifier calls unanswerable (None, the default: refused unsearched; a bar: searched, written from at that bar). ``strict=True`` raises, instead of warning, when
    ``chat_model`` cannot return structured output.
    """
    check_positive(k=k, max_retrievals=max_retrievals, max_generations=max_generations)
    if max_hops < 0:
        raise ValueError(f"max_hops must be 0 (no hop) or more, got {max_hops}")
    check_limit(max_question_chars)
    refuse_below = check_threshold(refuse_below)
    suspect_refuse_below = None if suspect_refuse_below is None else check_threshold(suspect_refuse_below, "suspect_refuse_below")
    articles = list(articles)
    by_number = {int(d.metadata["article"]): d for d in articles}
    if not by_number:
        raise ValueError(f"{BUILDER} needs the statute's articles (metadata 'article'); got none")
    searches = {name: as_scored_search(value, k) for name, value in strategies.items()}
    table = check_routing_table(domain.routing_table if routing_table is None else routing_table, list(searches),
                                domain.routed_kinds)
    chat_model = check_chat_model(chat_model, "chat_model", strict)
    judging = check_chat_model(judge_model, "judge_model", strict) or chat_model
    question_classifier = choose(question_classifier, QuestionClassifier, "question_classifier", model=judging,
                                 llm=domain.llm_question_classifier, local=lambda: domain.local_question_classifier(articles))
    grader = choose(grader, DocumentGrader, "grader", model=judging, llm=LLMGrader, local=LocalGrader)
    evidence_grader = choose(evidence_grader, EvidenceGrader, "evidence_grader", model=judging,
                             llm=domain.llm_evidence_grader, local=lambda: domain.local_evidence_grader(grader))
    writer = choose(writer, Writer, "writer", model=chat_model, llm=LLMWriter,
                    local=lambda: LocalWriter(support_bar=STATUTE_QA.writer_support_bar))
    hallucination_grader = choose(hallucination_grader, HallucinationGrader, "hallucination_grader", model=judging,
                                  llm=LLMHallucinationGrader, local=LocalHallucinationGrader)
    rewriter = choose(rewriter, QuestionRewriter, "rewriter", model=chat_model, llm=LLMRewriter, local=LocalRewriter)
    references = domain.reference_index(articles) if references is None else references
    caps = {"retrievals": max_retrievals, "generations": max_generations, "hops": max_hops}

    graph = StateGraph(StatuteQAState)
    graph.add_node("check_question", check_question_node(BUILDER, max_question_chars, chat_model is not None,
                                                         start_run(sorted(by_number), caps, refuse_below, domain=domain)))
    graph.add_node("unsupported_language", unsupported_language_node(domain=domain))
    graph.add_node("classify", classify_node(question_classifier, domain=domain, suspect_bar=suspect_refuse_below))
    graph.add_node("retrieve", retrieve_node(searches, table, by_number, k, domain=domain))
    graph.add_node("grade_evidence", grade_evidence_node(evidence_grader, rewriter))
    graph.add_node("follow_references", follow_references_node(references, grader, by_number, hop_bar, multihop_hop_bar,
                                                               domain=domain, definition_bar=definition_hop_bar,
                                                               gloss_bar=definition_gloss_bar))
    gloss = None if references.definitions is None or definition_gloss_bar is None else (
        lambda q: references.definitions.gloss(q, definition_gloss_bar))
    graph.add_node("generate", generate_node(writer, domain=domain, gloss=gloss))
    graph.add_node("verify", verify_node(hallucination_grader, domain=domain))
    graph.add_node("finish", finish)
    graph.add_node("refuse", refuse_node(domain=domain))
    graph.add_node("refuse_low_confidence", refuse_low_confidence_node(domain=domain))

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_conditional_edges("classify", route_after_classify)
    graph.add_edge("retrieve", "grade_evidence")
    graph.add_conditional_edges("grade_evidence", route_after_grade_evidence)
    graph.add_conditional_edges("follow_references", route_after_follow_references)
    graph.add_edge("generate", "verify")
    graph.add_conditional_edges("verify", route_after_verify)
    for name in ("finish", "unsupported_language", "refuse", "refuse_low_confidence"):
        graph.add_edge(name, END)
    return graph


def build_statute_qa_graph(articles: Sequence[Document], *, checkpointer: Any | None = None,
                           **options: Any) -> CompiledStateGraph:
    """:func:`statute_qa_graph` compiled (same arguments), with an optional LangGraph checkpointer."""
    return statute_qa_graph(articles, **options).compile(checkpointer=checkpointer, name="statute_qa")


def summarize(state: Mapping[str, Any]) -> dict[str, Any]:
    """What a run did, in plain values: kind, strategy, articles, answer, citations, counters, tokens, seconds."""
    return {
        "question": state.get("question"), "question_kind": state.get("question_kind"), "strategy": state.get("strategy"),
        "suspected_unanswerable": bool(state.get("suspected_unanswerable")),
        "cited": list(state.get("cited", [])), "articles": [d.metadata.get("article") for d in state.get("articles", [])],
        "answer": state.get("answer"), "outcome": state.get("outcome"), "confidence": state.get("confidence"),
        "cited_labels": list(state.get("cited_labels", [])),
        "invalid_citations": list(state.get("invalid_citations", [])), "refused": state.get("outcome") == "refused",
        "refusal": state.get("refusal"), "low_confidence": state.get("refusal") in ("low_confidence", "unsupported"),
        "retrieval_attempts": state.get("retrieval_attempts", 0), "generation_attempts": state.get("generation_attempts", 0),
        "hops": state.get("hops", 0), "followed": [str(h) for h in state.get("followed", [])],
        "queries": list(state.get("queries", [])), "path": list(state.get("path", [])),
        "tokens": usage_totals(state.get("usage", [])), "seconds": round(sum(s for _, s in state.get("timings", [])), 6),
    }


__all__ = ["BUILDER", "StatuteQAState", "Usage", "build_statute_qa_graph", "check_routing_table", "classify_node", "confident",
           "finish", "follow_references_node", "generate_node", "grade_evidence_node", "pin", "record_usage", "refuse_node",
           "refuse_low_confidence_node", "retrieve_node", "rewrite_repeats", "route_after_check_question", "route_after_classify",
           "route_after_follow_references", "route_after_grade_evidence", "route_after_verify", "start_run", "statute_qa_graph",
           "summarize", "unsupported_language_node", "usage_totals", "verify_node", "wants_hop", "worst_case_steps"]
