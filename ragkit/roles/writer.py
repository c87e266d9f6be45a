"""Writers: answer a question from documents, citing them as [n], or say there is not enough information.

``LocalWriter`` is extractive: it writes nothing of its own, it quotes. Every document is cut into
sentences; headings, table rows, code blocks and short unpunctuated labels are not sentences and are
never quoted (:func:`ragkit.core.nlp.prose_sentences`). A very short sentence, like "12 euros.",
is glued to the one before it so it keeps its context. Each sentence is scored by

    relevance = similarity_weight * cosine(question, sentence) + (1 - similarity_weight) * key-term coverage

and up to ``max_sentences`` are picked greedily with maximal marginal relevance (MMR: relevance minus a
penalty for resembling a sentence already picked), so the answer does not say the same thing twice. Only
sentences that clear ``support_bar`` and come within ``relative_bar`` of the best one are used; if none
clears the bar, the writer refuses with ``NOT_ENOUGH_INFORMATION`` (``answered=False``). Each quoted
sentence is followed by ``[n]``, the 1-based number of its document. A quoted sentence that is not its
document's first and does not name the document's subject gets the document's title in front
("Chocolate and olive oil mousse: Dietary: vegan, ... [1].", :func:`with_subject`), but only a title that
the document's own text contains, so every word is still the source's.

``LLMWriter`` asks a chat model for an answer with citations; code then keeps only citations that point
at a real document, and a failed call is an explicit refusal.

**Structure first.** Both writers take the question's analysis (``write(question, documents,
query=analysis)``, as Adaptive RAG passes it; or, given a ``query_analyzer``, they analyse the question
themselves, as in CRAG and Self-RAG, whose nodes pass only the question). Then code decides
(:mod:`ragkit.roles.structured_answers`): documents that fail the filter are never quoted and a sentence
naming an excluded item is dropped, so an answer never lists an item the question excluded; a list
question lists every match, a superlative answers with the winner, a yes/no question says "Yes"/"No", a
comparison states which of the two items wins, from their documents, with citations. ``LLMWriter`` gets
the same constraints in its prompt and is still filtered in code. A word the question excludes that the
data does not know ("lactose") is said first: the answer cannot promise it was checked.

Simplifications: quoting cannot combine facts into a new sentence, resolve "it" to its antecedent, or
compute anything (a total, a comparison). The default ``support_bar`` (0.4) was chosen on SQuAD 2.0
tune articles: a question with its own paragraph should be answered, with another article's paragraphs
refused (``benchmarks/roles/writer_refusal.py``; held out: answers 96.5%, refuses 99.5%). It does NOT
catch a same-topic paragraph that lacks the answer (SQuAD 2.0 "impossible" questions: refuses 6%).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    SourceSentence,
    cited_numbers,
    clean_query,
    document_subject,
    mentions,
    prose_sentences,
    term_coverage,
)
from ragkit.defaults import WRITER
from ragkit.roles.base import NOT_ENOUGH_INFORMATION, Answer
from ragkit.roles.llm import call_structured
from ragkit.roles.prompts import WRITER_PROMPT, format_documents
from ragkit.roles.structured_answers import drop_excluded, split_by_filter, structured_answer, title_of

MIN_UNIT_WORDS = 5


def answer_units(documents: Sequence[Document]) -> list[SourceSentence]:
    """The quotable sentences of every document (no headings, code or labels: :func:`prose_sentences`).

    A very short sentence ("12 euros.") is glued to the previous sentence of its document, or, when it
    opens the document, to the next one ("Article 1." + "(1) This Act ..."), so it keeps its context.

    >>> doc = Document(page_content="Oysters\\n\\nArticle 1. Oysters are served raw. Both cost 14 euros.")
    >>> [u.text for u in answer_units([doc])]
    ['Article 1. Oysters are served raw. Both cost 14 euros.']
    """
    units: list[SourceSentence] = []
    pending: SourceSentence | None = None  # a short sentence that opened its document, waiting for the next
    for s in prose_sentences(documents):
        if pending is not None and pending.doc != s.doc:
            units.append(pending)
            pending = None
        short = len(s.text.split()) < MIN_UNIT_WORDS
        if pending is not None:
            units.append(SourceSentence(s.doc, pending.position, f"{pending.text} {s.text}"))
            pending = None
        elif short and units and units[-1].doc == s.doc:
            units[-1] = SourceSentence(s.doc, units[-1].position, f"{units[-1].text} {s.text}")
        elif short:
            pending = s
        else:
            units.append(s)
    if pending is not None:
        units.append(pending)
    return units


def with_subject(unit: SourceSentence, document: Document) -> str:
    """The sentence to quote, prefixed with its document's subject when it would otherwise lose it.

    A later sentence of a document often leans on the first one ("Dietary: vegan." says nothing about
    WHICH dish). When the unit is not its document's first sentence and does not mention the document's
    title, the title goes in front, "<title>: <sentence>". Only a title that occurs in the document's
    own text is used (:func:`ragkit.core.nlp.document_subject`), so the answer stays a quote.

    >>> doc = Document(page_content="Panna cotta with figs (dessert, 8.00 EUR). Figs are roasted in honey. "
    ...                "Dietary: gluten-free, vegetarian, no nuts.", metadata={"title": "Panna cotta with figs"})
    >>> [with_subject(u, doc) for u in answer_units([doc])][1:]
    ['Panna cotta with figs: Figs are roasted in honey.', 'Panna cotta with figs: Dietary: gluten-free, vegetarian, no nuts.']
    """
    subject = document_subject(document)
    if subject is None or unit.position == 0 or mentions(unit.text, subject):
        return unit.text
    return f"{subject}: {unit.text}"


def cite(sentence: str, number: int) -> str:
    """Put a ``[n]`` marker before the sentence's final punctuation.

    >>> cite("Oysters cost 12 euros.", 2)
    'Oysters cost 12 euros [2].'
    """
    match = re.search(r"[.!?]+[\"')\]]*$", sentence)
    if match:
        return f"{sentence[: match.start()]} [{number}]{sentence[match.start():]}"
    return f"{sentence} [{number}]"


class LocalWriter:
    """Extractive answers: the best source sentences (MMR), each cited [n]; a refusal when none is good enough.

    >>> docs = [Document(page_content="Oysters from Brittany. Six oysters cost 14 euros."),
    ...         Document(page_content="The terrace opens in May.")]
    >>> LocalWriter().write("How much are the oysters?", docs).text  # doctest: +SKIP
    'Six oysters cost 14 euros [1].'
    """

    def __init__(
        self,
        embedder: Embeddings | None = None,
        max_sentences: int = WRITER.max_sentences,
        support_bar: float = WRITER.support_bar,
        relative_bar: float = WRITER.relative_bar,
        similarity_weight: float = WRITER.similarity_weight,
        diversity: float = WRITER.diversity,
        query_analyzer: Any | None = None,
    ):
        self.embedder = embedder if embedder is not None else load_embedder()
        self.query_analyzer = query_analyzer  # None: the question's structure is only used when passed in
        self.max_sentences = max_sentences
        self.support_bar = support_bar
        self.relative_bar = relative_bar
        self.similarity_weight = similarity_weight
        self.diversity = diversity

    def score_units(self, question: str, documents: Sequence[Document]) -> tuple[list[SourceSentence], np.ndarray, np.ndarray]:
        """Candidate sentences, their relevance to the question, and their embeddings."""
        question = clean_query(question, what="question")
        units = answer_units(check_documents(documents))
        if not units:
            return [], np.zeros(0), np.zeros((0, 1))
        vectors = embed(self.embedder, [question] + [u.text for u in units])
        cosine = vectors[1:] @ vectors[0]
        coverage = np.asarray([term_coverage(question, u.text) for u in units])
        w = self.similarity_weight
        return units, w * cosine + (1 - w) * coverage, vectors[1:]

    def select(self, relevance: np.ndarray, vectors: np.ndarray) -> list[int]:
        """Indexes of the chosen sentences in answer order (MMR over those that clear both bars)."""
        if len(relevance) == 0 or relevance.max() < self.support_bar:
            return []
        floor = max(self.support_bar, float(relevance.max()) - self.relative_bar)
        candidates = [i for i in np.argsort(-relevance, kind="stable") if relevance[i] >= floor]
        chosen: list[int] = []
        while candidates and len(chosen) < self.max_sentences:
            def mmr(i: int) -> float:
                redundancy = max((float(vectors[i] @ vectors[j]) for j in chosen), default=0.0)
                return (1 - self.diversity) * relevance[i] - self.diversity * redundancy

            best = max(candidates, key=lambda i: (mmr(i), -i))
            candidates.remove(best)
            if chosen and max(float(vectors[best] @ vectors[j]) for j in chosen) > 0.9:
                continue  # a near-duplicate of a sentence already quoted
            chosen.append(best)
        return chosen

    def write(self, question: str, documents: Sequence[Document], query: Any | None = None) -> Answer:
        """A cited answer; ``query`` is the question's analysis (else the writer's ``query_analyzer`` reads it)."""
        documents = check_documents(documents)
        analysis = analyse(self.query_analyzer, question, documents, query)
        if analysis is not None and analysis.structured:
            decided = structured_answer(documents, analysis)
            if decided is not None:
                return with_caveat(decided, analysis)
            passing, failing = split_by_filter(documents, analysis)
            if analysis.subject is not None:
                passing = [i for i in passing if str(documents[i].metadata.get("id")) == analysis.subject] or passing
            if not passing:
                return Answer(f"None of the documents matches ({analysis.describe()}).", (), answered=False)
            answer = self.extract(question, [documents[i] for i in passing], numbers=[i + 1 for i in passing])
            excluded = [title_of(documents[i]) for i in failing if title_of(documents[i])]
            allowed = [title_of(documents[i]) for i in passing if title_of(documents[i])]
            text = drop_excluded(answer.text, excluded, allowed) if answer.answered else answer.text
            if not text.strip():
                return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
            return with_caveat(Answer(text, tuple(n for n in answer.citations if f"[{n}]" in text), answer.answered), analysis)
        return self.extract(question, documents)

    def extract(self, question: str, documents: Sequence[Document], numbers: Sequence[int] | None = None) -> Answer:
        """The extractive answer (MMR over source sentences); ``numbers`` are the documents' citation numbers."""
        numbers = list(numbers) if numbers is not None else list(range(1, len(documents) + 1))
        units, relevance, vectors = self.score_units(question, documents)
        chosen = self.select(relevance, vectors)
        if not chosen:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        documents = check_documents(documents)
        text = " ".join(cite(with_subject(units[i], documents[units[i].doc]), numbers[units[i].doc]) for i in chosen)
        return Answer(text, tuple(sorted({numbers[units[i].doc] for i in chosen})))


def analyse(analyzer: Any | None, question: str, documents: Sequence[Document], query: Any | None) -> Any | None:
    """The question's analysis: the one passed in, else the analyser's over the fields these documents carry."""
    if query is not None or analyzer is None or not documents:
        return query
    restricted = getattr(analyzer, "restricted", None)
    return (restricted(documents) if restricted else analyzer).analyze(question)


def with_caveat(answer: Answer, analysis: Any) -> Answer:
    """Say first what the question excluded that the data does not know, so the answer promises nothing about it.

    >>> from types import SimpleNamespace
    >>> with_caveat(Answer("Lemon tart [1].", (1,)), SimpleNamespace(unresolved=("lactose",))).text
    "I could not check 'lactose': it is not in the data, so nothing was left out for it. Lemon tart [1]."
    """
    words = [w for w in getattr(analysis, "unresolved", ()) if w]
    if not words:
        return answer
    listed = " or ".join(f"'{w}'" for w in words)
    note = f"I could not check {listed}: {'it is' if len(words) == 1 else 'they are'} not in the data, so nothing was left out for {'it' if len(words) == 1 else 'them'}."
    return Answer(f"{note} {answer.text}", answer.citations, answer.answered, answer.fallback)


def accepts_query(writer: Any) -> bool:
    """True when ``writer.write`` takes the analysis (``query=``); scripted test writers may not."""
    import inspect

    try:
        return "query" in inspect.signature(writer.write).parameters
    except (TypeError, ValueError):
        return False


class WrittenAnswer(BaseModel):
    """An answer grounded in numbered documents."""

    answer: str = Field(description="the answer, each sentence followed by the [n] numbers of its documents")
    answered: bool = Field(description="false when the documents do not contain the answer")


class LLMWriter:
    """A chat model writes the answer; code keeps only citations of real documents. On failure: a refusal.

    Why refuse: an answer the model did not produce cannot be checked; "not enough information" is honest
    and makes the graph try again or stop, never shows a made-up answer.

    >>> from ragkit.core.chat_models import scripted
    >>> w = LLMWriter(scripted('{"answer": "Six cost 14 euros [1] [7].", "answered": true}'))
    >>> w.write("How much are the oysters?", [Document(page_content="Six oysters cost 14 euros.")])
    Answer(text='Six cost 14 euros [1].', citations=(1,), answered=True, fallback=False)
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = WRITER_PROMPT, query_analyzer: Any | None = None):
        self.model = model
        self.prompt = prompt
        self.query_analyzer = query_analyzer

    def write(self, question: str, documents: Sequence[Document], query: Any | None = None) -> Answer:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        analysis = analyse(self.query_analyzer, question, documents, query)
        excluded: list[str] = []
        allowed: list[str] = []
        shown = documents
        asked = question
        if analysis is not None and analysis.structured:
            passing, failing = split_by_filter(documents, analysis)
            excluded = [title_of(documents[i]) for i in failing if title_of(documents[i])]
            allowed = [title_of(documents[i]) for i in passing if title_of(documents[i])]
            shown = [documents[i] for i in passing] if analysis.comparison is None else documents
            asked = f"{question}\n\n{constraints(shown, analysis, excluded)}"
        if not shown:
            return Answer(f"None of the documents matches ({analysis.describe()}).", (), answered=False)
        inputs = {"question": asked, "documents": format_documents(shown)}
        result = call_structured(self.model, self.prompt, WrittenAnswer, inputs)
        if not result.ok:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False, fallback=True)
        text = result.value.answer.strip()
        if not result.value.answered or not text or NOT_ENOUGH_INFORMATION in text:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        text = drop_excluded(drop_invalid_citations(text, len(shown)), excluded, allowed)  # code still filters
        if not text.strip():
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        if shown is not documents:  # renumber the citations to the documents the caller passed
            index = [documents.index(d) + 1 for d in shown]
            text = re.sub(r"\[(\d+)\]", lambda m: f"[{index[int(m.group(1)) - 1]}]", text)
        valid = sorted({n for n in cited_numbers(text) if 1 <= n <= len(documents)})
        answer = Answer(text, tuple(valid))
        return with_caveat(answer, analysis) if analysis is not None else answer


def constraints(documents: Sequence[Document], analysis: Any, excluded: Sequence[str]) -> str:
    """The analysis as instructions for a chat model: what qualifies, what to leave out, what code computed."""
    lines = ["Constraints decided from the data (follow them exactly):"]
    if analysis.filter is not None:
        lines.append(f"- Every document shown matches: {analysis.describe()}. Mention only these items.")
    if excluded:
        lines.append(f"- Never name these items, they do not qualify: {', '.join(excluded)}.")
    decided = structured_answer(documents, analysis)
    if decided is not None and analysis.kind in ("single", "comparison", "yes_no"):
        lines.append(f"- The computed answer is: {decided.text} Say it in your own words, with the citations.")
    if analysis.unresolved:
        lines.append(f"- These words could not be checked against the data; say so: {', '.join(analysis.unresolved)}.")
    return "\n".join(lines)


def drop_invalid_citations(text: str, n_documents: int) -> str:
    """Remove citation markers that point outside ``1..n_documents`` (a model may invent them).

    >>> drop_invalid_citations("A [1] [7]. B [2, 9].", 2)
    'A [1]. B [2].'
    """

    def fix(match: re.Match) -> str:
        kept = [n for n in cited_numbers(match.group(0)) if 1 <= n <= n_documents]
        return f" [{', '.join(map(str, kept))}]" if kept else ""

    return re.sub(r"\s*\[(\d+(?:\s*[,;-]\s*\d+)*)\]", fix, text)
