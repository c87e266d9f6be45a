"""The offline CRAG judge: which of four verdicts answers "can these documents answer this question?"
(:class:`ragkit.roles.judge_protocols.Judgement`; the path each verdict takes: :mod:`ragkit.graphs.crag`).

What it cannot do: the thresholds (:data:`ragkit.defaults.JUDGE`) are global numbers for the default
``LocalGrader``, not calibrated per corpus or per grader (a grader with another score scale needs its own
``relevant_above``; how they were chosen: ``benchmarks/crag/README.md``); "a name" is a capitalised word
inside the question, so a lower-case entity ("bm25") is neither an antecedent nor a rare term; the title
signal needs ``metadata["title"]``; a term counts as present when a passage word starts with it
("America" in "American"), so a few near misses pass, and a typo ("Masstricht") looks like a missing
term; a related word is one MiniLM places close, which is no proof of meaning; synonyms ("did not" vs
"failed to") and antonyms ("most" vs "least") are not understood. English only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, Sequence

import numpy as np
from langchain_core.documents import Document

from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    NEGATIONS,
    QUESTION_STOPWORDS,
    answer_type,
    clean_query,
    fold,
    has_answer,
    key_terms,
    mentions_term,
    supporting_sentence,
    words,
)
from ragkit.defaults import JUDGE, QUERY_ANALYSIS
from ragkit.offline.graders import LocalGrader
from ragkit.roles.judge_protocols import Judgement, Verdict
from ragkit.roles.protocols import DocumentGrader

RELEVANT_ABOVE = JUDGE.relevant_above
IRRELEVANT_BELOW = JUDGE.irrelevant_below
PRONOUNS = frozenset("he she him her his hers it its they them their theirs".split())


def has_antecedent(question: str) -> bool:
    """True when the question names something a pronoun could mean: a capitalised word after the first, or a number.

    >>> has_antecedent("What did they build in Warsaw?"), has_antecedent("What did they build?")
    (True, False)
    """
    tokens = re.findall(r"[\w'-]+", question)
    return any(t[0].isdigit() for t in tokens) or any(t[0].isupper() and t != "I" for t in tokens[1:])


def underspecified(question: str) -> str | None:
    """Why a question cannot be answered as asked (no key terms, or a pronoun with no antecedent), or None.

    >>> underspecified("When did he die?")
    "the pronoun 'he' does not say who or what is meant"
    >>> underspecified("When did Chopin die?") is None
    True
    >>> underspecified("What about it?")
    'the question has no key terms'
    """
    if not key_terms(question):
        return "the question has no key terms"
    pronouns = [w for w in words(question) if w in PRONOUNS]
    if pronouns and not has_antecedent(question):
        return f"the pronoun {pronouns[0]!r} does not say who or what is meant"
    return None


def title_split(question: str, documents: Sequence[Document], scores: Sequence[float], margin: float) -> tuple[str, str] | None:
    """Two titles the best documents are split between (scores within ``margin``, the question not telling them apart), or None.

    >>> docs = [Document("x", metadata={"title": "Mercury (planet)"}), Document("y", metadata={"title": "Mercury (element)"})]
    >>> title_split("How heavy is mercury?", docs, [0.61, 0.58], margin=0.05)
    ('Mercury (planet)', 'Mercury (element)')
    >>> title_split("How heavy is mercury?", docs, [0.61, 0.40], margin=0.05) is None
    True
    """
    if len(documents) < 2:
        return None
    best, *others = sorted(range(len(documents)), key=lambda i: -scores[i])
    best_title = str(documents[best].metadata.get("title") or "")
    if not best_title:
        return None
    rival = next((i for i in others if str(documents[i].metadata.get("title") or best_title) != best_title), None)
    if rival is None or scores[best] - scores[rival] > margin:
        return None
    rival_title = str(documents[rival].metadata.get("title"))
    if set(key_terms(question)) & (set(key_terms(best_title)) ^ set(key_terms(rival_title))):
        return None  # the question names a word that tells the two apart
    return best_title, rival_title


class LocalJudge:
    """Offline judge: the grader's scores, an irrelevance threshold, an ambiguity signal and an answerability check.

    A document passes when the grader says ``relevant`` (or, with ``relevant_above`` set, when its score
    reaches it) and, with ``check_answerable``, when ``answerability_gap`` finds no reason it cannot hold
    the answer, so a passage that is on topic but cannot hold it makes the verdict ``insufficient``. When
    the question's analysis (``query_analyzer``, :mod:`ragkit.roles.structured_query`) explains the whole
    question over fields the documents carry (a list, a winner, a yes/no, a comparison), the fields decide
    what is on topic instead of the scores ("which desserts have no nuts?" keeps the desserts without nuts,
    whatever their wording), so no score or wording rule can refuse a question the data answers.

    Decision order: nothing retrieved or best score below ``irrelevant_below`` with no document
    relevant -> ``irrelevant``; an under-specified question (:func:`underspecified`) -> ``ambiguous``; no
    document passing -> ``insufficient``; the best passing documents split between two titles within
    ``ambiguity_margin`` (:func:`title_split`) -> ``ambiguous``; otherwise ``sufficient`` with the passing documents (best first, at most ``max_keep``).
    Every verdict carries the grader's best score (``Judgement.score``).

    >>> judge = LocalJudge()  # doctest: +SKIP
    >>> judge.judge("When did he die?", docs).verdict  # doctest: +SKIP
    'ambiguous'
    """

    def __init__(
        self,
        grader: DocumentGrader | None = None,
        irrelevant_below: float = IRRELEVANT_BELOW,
        ambiguity_margin: float = JUDGE.ambiguity_margin,
        max_keep: int = JUDGE.max_keep,
        relevant_above: float | None = RELEVANT_ABOVE,  # None: trust the grader's own ``relevant`` flag
        check_answerable: bool = True,
        query_analyzer: Any | None = None,  # None: no structure, the wording checks only
        related_bar: float | None = QUERY_ANALYSIS.related_bar,
        negation_check: bool = QUERY_ANALYSIS.negation_check,
    ):
        self.grader = grader if grader is not None else LocalGrader()
        if max_keep < 1:
            raise ValueError(f"max_keep must be at least 1, got {max_keep}")
        self.irrelevant_below, self.ambiguity_margin, self.max_keep = irrelevant_below, ambiguity_margin, max_keep
        self.relevant_above, self.check_answerable = relevant_above, check_answerable
        self.query_analyzer, self.related_bar, self.negation_check = query_analyzer, related_bar, negation_check

    def analyse(self, question: str, documents: Sequence[Document]) -> Any | None:
        """The question's analysis over the fields these documents carry (None without an analyser)."""
        if self.query_analyzer is None:
            return None
        restricted = getattr(self.query_analyzer, "restricted", None)
        return (restricted(documents) if restricted else self.query_analyzer).analyze(question)

    def gap(self, question: str, document: Document, analysis: Any | None) -> str | None:
        if not self.check_answerable:
            return None
        return answerability_gap(question, document.page_content, analysis, document.metadata,
                                 related_bar=self.related_bar, negation_check=self.negation_check)

    def judge(self, question: str, documents: Sequence[Document]) -> Judgement:
        question = clean_query(question, what="question")
        documents = list(documents)
        if not documents:
            return Judgement("irrelevant", note="nothing was retrieved")
        grades = self.grader.grade_many(question, documents)
        scores, bar = [g.score for g in grades], self.relevant_above
        passed = [i for i, g in enumerate(grades) if (g.relevant if bar is None else g.score >= bar)]
        analysis = self.analyse(question, documents)
        fielded = [i for i, d in enumerate(documents) if carries(d.metadata, analysis)]
        by_fields = analysis is not None and analysis.covered and bool(fielded)  # the fields decide what is on topic
        relevant = sorted(fielded if by_fields else passed, key=lambda i: -scores[i])
        top = max(scores)
        gaps = {i: self.gap(question, documents[i], analysis) for i in relevant}
        passing = [i for i in relevant if gaps[i] is None]
        keep = tuple(passing[: self.max_keep])

        def verdict(kind: Verdict, note: str, **extra: Any) -> Judgement:  # score: the best kept document's grade
            score = round(float(max((scores[i] for i in keep), default=top)), 4)
            return Judgement(kind, keep=keep, note=note, score=score, **extra)

        if not relevant and top < self.irrelevant_below:
            return verdict("irrelevant", f"best score {top:.2f} < {self.irrelevant_below:.2f} and no document passed")
        vague = underspecified(question)
        if vague and not by_fields:
            pronoun = re.search(r"'(\w+)'", vague)
            ask = f"Who or what do you mean by '{pronoun.group(1)}'?" if pronoun else "What exactly would you like to know?"
            return verdict("ambiguous", vague, clarifying_question=ask)
        if not relevant:
            return verdict("insufficient", f"no document passed the grader (best score {top:.2f})")
        if by_fields and analysis.comparison is not None:
            found = {str(documents[i].metadata.get("id")) for i in passing}
            if not set(analysis.comparison.ids) <= found:
                names = [n for n in (analysis_name(documents, analysis, i) for i in analysis.comparison.ids) if n]
                return verdict("insufficient", "only one of the two items compared was retrieved",
                               corrected_query=" ".join(names) or None)
        if not passing:
            return verdict("insufficient", f"{len(relevant)} relevant, but none can answer: {gaps[relevant[0]]}")
        if not by_fields:
            split = title_split(question, [documents[i] for i in passing], [scores[i] for i in passing], self.ambiguity_margin)
            if split:
                return verdict("ambiguous", f"the best documents are split between {split[0]!r} and {split[1]!r}",
                               clarifying_question=f"Do you mean {split[0]} or {split[1]}?")
        how = f"by the question's conditions ({analysis.describe()})" if by_fields else f"best {top:.2f}"
        return verdict("sufficient", f"{len(passing)} of {len(documents)} documents passed ({how})")


def analysis_name(documents: Sequence[Document], analysis: Any, item_id: str) -> str | None:
    """The name of a compared item: its title among the documents, else from the analyser's vocabulary notes."""
    for d in documents:
        if str(d.metadata.get("id")) == item_id and isinstance(d.metadata.get("title"), str):
            return d.metadata["title"]
    for note in getattr(analysis, "notes", ()):
        match = re.match(r"compare '(.+)' and '(.+)' on", note)
        if match:
            return match.group(1 if item_id == analysis.comparison.ids[0] else 2)
    return None


# ---------------------------------------------------------------------- answerability
_TERM = re.compile(r"[A-Za-z\u00C0-\u024F][\w\u00C0-\u024F-]*|\d[\d,.]*\d|\d")
_NEGATION = re.compile(rf"\b(?:{'|'.join(sorted(NEGATIONS))})\b|n't\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z\u00C0-\u024F][\w\u00C0-\u024F'-]*")


def rare_terms(question: str) -> list[str]:
    """The question's names and numbers (folded, without a possessive 's), in order.

    >>> rare_terms("How many libraries does Cambridge's 1,200-year-old university have in 2016?")
    ['cambridge', '1200', '2016']
    """
    out: dict[str, None] = {}
    for i, token in enumerate(_TERM.findall(question)):
        token = re.sub(r"'s$", "", token)
        if token[0].isdigit():
            out.setdefault(token.replace(",", "").rstrip("."), None)
        elif i > 0 and token[0].isupper() and token.lower() not in QUESTION_STOPWORDS and token != "I":
            out.setdefault(fold(token), None)
    return list(out)


@lru_cache(maxsize=50_000)
def _word_vector(word: str) -> np.ndarray:
    return embed(load_embedder(), [word])[0]


def related_in(text: str, term: str, bar: float | None) -> bool:
    """True when ``text`` has a word that starts like ``term`` (first letter) and that MiniLM places within
    ``bar`` cosine of it ("france" ~ "French"); never for numbers, and off when ``bar`` is None.

    >>> related_in("A French white wine.", "france", None)
    False
    """
    if bar is None or not term or term[0].isdigit():
        return False
    candidates = {fold(w) for w in _WORD.findall(text) if fold(w)[:1] == term[:1] and len(w) >= 3 and fold(w) != term}
    if not candidates:
        return False
    target = _word_vector(term)
    return any(float(_word_vector(w) @ target) >= bar for w in sorted(candidates))


def carries(metadata: Mapping[str, Any] | None, analysis: Any) -> bool:
    """True when a document has every field the analysis reads (so the analysis can be checked on it)."""
    if metadata is None or analysis is None or not analysis.structured:
        return False
    needed = list(analysis.attributes) + (["id"] if analysis.comparison is not None or analysis.subject else [])
    return all(field in metadata for field in needed)


def condition_gap(analysis: Any, metadata: Mapping[str, Any]) -> str | None:
    """Why a document with fields fails the question's structure, or None."""
    doc_id = str(metadata.get("id"))
    if analysis.comparison is not None and doc_id not in analysis.comparison.ids:
        return "it is not one of the two items the question compares"
    if analysis.subject is not None and doc_id != analysis.subject:
        return "it is not the item the question is about"
    if not analysis.passes(dict(metadata)):
        return f"it does not match the question's conditions ({analysis.describe()})"
    return None


def answerability_gap(question: str, text: str, analysis: Any | None = None, metadata: Mapping[str, Any] | None = None,
                      related_bar: float | None = QUERY_ANALYSIS.related_bar,
                      negation_check: bool = QUERY_ANALYSIS.negation_check) -> str | None:
    """Why ``text`` cannot answer ``question`` (the first failed check), or None when every check passes.

    A relevance score says a passage is *about* the question; these checks ask whether it can hold the
    answer. What the question's analysis understood is checked against the document's fields, the rest
    against its words:

    1. **conditions** (a document that :func:`carries` the analysis's fields): it passes the question's
       filter exactly, is one of the two items a comparison names, or is the item asked about;
    2. **rare terms** (:func:`rare_terms`): every name and number the analysis did not use (a price bound,
       a value matched to a field) occurs in the passage, or, with ``related_bar``, a related word does;
    3. **polarity** (``negation_check``): a question asking what did *not* happen needs a supporting
       sentence (the passage sentence with most of the question's key terms) that negates, unless the
       analysis turned the negation into a condition ("not vegetarian");
    4. **answer type**, unless the fields answer the question: "who" needs a name, "when" a date, "how
       many / how much" a number in the supporting sentence, one the question does not already contain.

    >>> answerability_gap("How many libraries are there in Cambridge?", "Oxford has 100 libraries.", related_bar=None)
    "the passage never mentions 'cambridge'"
    >>> answerability_gap("What did the monks not build?", "The monks built a mill.")
    'the question asks what is not the case, but the passage does not say so'
    >>> answerability_gap("When was the mill built?", "The monks built a mill by the river.")
    'the passage has no time or date where the question asks for one'
    >>> answerability_gap("When was the mill built?", "The monks built the mill in 1120.") is None
    True
    """
    checked = carries(metadata, analysis)
    if checked:
        gap = condition_gap(analysis, metadata)  # type: ignore[arg-type]
        if gap:
            return gap
    used = {fold(w) for w in getattr(analysis, "used", ())} if checked else set()
    for term in rare_terms(question):
        if term in used or mentions_term(text, term) or related_in(text, term, related_bar):
            continue
        return f"the passage never mentions {term!r}"
    sentence = supporting_sentence(question, text)
    understood = checked and bool(getattr(analysis, "negated", ())) and analysis.filter is not None
    if negation_check and not understood and _NEGATION.search(question) and not _NEGATION.search(sentence):
        return "the question asks what is not the case, but the passage does not say so"
    if checked and analysis.covered:
        return None  # a list, a winner, a yes/no or a comparison: the fields answer it, not a sentence
    kind = answer_type(question)
    if not has_answer(kind, sentence, question):
        what = {"person": "name", "time": "time or date", "quantity": "number"}[kind]
        return f"the passage has no {what} where the question asks for one"
    return None


__all__ = ["IRRELEVANT_BELOW", "PRONOUNS", "RELEVANT_ABOVE", "LocalJudge", "analysis_name", "answerability_gap",
           "carries", "condition_gap", "has_antecedent", "rare_terms", "related_in", "title_split", "underspecified"]
