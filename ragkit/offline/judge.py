"""The CRAG judge: one of four verdicts on "can these documents answer this question?".

Corrective RAG (Yan et al., 2024) puts an evaluator between retrieval and writing. Here it returns one of
four verdicts, each with its own path through the graph (``ragkit.graphs.crag``):

- ``sufficient``: some documents answer it; ``keep`` lists them (0-based) and only those reach the writer;
- ``insufficient``: the documents are on topic but miss the answer; search again (``corrected_query``);
- ``ambiguous``: the question cannot be answered as asked; ask the user (``clarifying_question``);
- ``irrelevant``: the knowledge base does not cover it; refuse honestly.

``LocalJudge`` first reads the question's structure (``query_analyzer``, restricted to the fields the
documents carry, :mod:`ragkit.roles.structured_query`). When the structure explains the whole question (a
list, a winner, a yes/no, a comparison over documents with fields), relevance is decided by the fields:
a document that carries them is on topic, and it passes only if it meets the question's conditions ("which
desserts have no nuts?" keeps the desserts without nuts, whatever their wording), so no relevance score
or wording rule can refuse a question the data answers. Otherwise it combines four signals, each a few
lines of plain code: the document grader's scores
(which documents pass, and how high the best one is), an *irrelevance threshold* on the best score, an
*ambiguity signal* (the question is under-specified: no key terms at all, or a pronoun with nothing it
could refer to; or the best documents come from different titles with almost the same score while the
question names neither), and an *answerability check* on every passing document
(``ragkit.offline.judge``: the question's names and numbers occur in it, a "not" question meets a
"not" sentence, a "who/when/how many" question finds a name/date/number), so a passage that is on topic
but cannot hold the answer makes the verdict ``insufficient``, not ``sufficient``. ``LLMJudge`` asks a chat model for the verdict as a ``Literal`` field of a
pydantic schema; a failed call or malformed output takes the fail-soft default (keep the top candidates
as ``sufficient``, ``fallback=True``), so a broken judge never stops an answer that retrieval supports.

Simplifications: the thresholds are global numbers tuned once on SQuAD 2.0 articles 0-7 (see
``benchmarks/crag``) for the default ``LocalGrader``, not calibrated per corpus or per grader (a grader
with another score scale needs its own ``relevant_above``); "a name" is a capitalised word inside the question, so
a lower-case entity ("bm25") does not count as an antecedent; the title signal needs ``metadata["title"]``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping, Sequence

import numpy as np
from langchain_core.documents import Document

from ragkit.core.nlp import (
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
from ragkit.roles.protocols import DocumentGrader, Judgement

# Tuned on SQuAD 2.0 articles 0-7 for the default LocalGrader (benchmarks/crag/squad2_eval.py --mode tune; the
# grid, every row and the rule are in benchmarks/results/crag_squad2_tuning.json). The mean of the three rates
# (answerable answered, unanswerable refused, removed article refused) is flat from 0.08 to 0.28; within one
# standard error of its best the rule takes the setting that answers most: 0.08 (tune: 0.72 / 0.54 / 0.99).
RELEVANT_ABOVE = JUDGE.relevant_above
IRRELEVANT_BELOW = JUDGE.irrelevant_below
PRONOUNS = frozenset("he she him her his hers it its they them their theirs".split())
_TOKEN = re.compile(r"[\w'-]+")


def has_antecedent(question: str) -> bool:
    """True when the question names something: a capitalised word after the first word, or a number.

    >>> has_antecedent("What did they build in Warsaw?"), has_antecedent("What did they build?")
    (True, False)
    """
    tokens = _TOKEN.findall(question)
    return any(t[0].isdigit() for t in tokens) or any(t[0].isupper() and t != "I" for t in tokens[1:])


def underspecified(question: str) -> str | None:
    """Why a question cannot be answered as asked (no key terms, or a pronoun with no antecedent), or None.

    An antecedent is anything that could name what the pronoun means: a capitalised word after the first
    word, or a number.

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
    order = sorted(range(len(documents)), key=lambda i: -scores[i])
    best = order[0]
    best_title = str(documents[best].metadata.get("title") or "")
    if not best_title:
        return None
    rival = next((i for i in order[1:] if str(documents[i].metadata.get("title") or best_title) != best_title), None)
    if rival is None or scores[best] - scores[rival] > margin:
        return None
    rival_title = str(documents[rival].metadata.get("title"))
    asked, a, b = set(key_terms(question)), set(key_terms(best_title)), set(key_terms(rival_title))
    if asked & (a ^ b):
        return None  # the question names a word that tells the two apart
    return best_title, rival_title


class LocalJudge:
    """Offline judge: the grader's scores + an ambiguity signal + an irrelevance threshold, in that order.

    A document passes when the grader says ``relevant`` (or, with ``relevant_above`` set, when its score
    reaches it) and, with ``check_answerable``, when ``answerability_gap`` finds no reason it cannot hold
    the answer. Decision order: nothing retrieved or best score below ``irrelevant_below`` with no document
    relevant -> ``irrelevant``; an under-specified question -> ``ambiguous``; no document passing ->
    ``insufficient``; the best passing documents split between two titles within ``ambiguity_margin`` ->
    ``ambiguous``; otherwise ``sufficient`` with the passing documents (best first, at most ``max_keep``).
    Every verdict carries ``score``: the grader's best score among the kept documents (among all of them
    when none is kept), which CRAG's refusal dial compares with ``refuse_below``.

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
        relevant_above: float | None = RELEVANT_ABOVE,
        check_answerable: bool = True,
        query_analyzer: Any | None = None,
        related_bar: float | None = QUERY_ANALYSIS.related_bar,
        negation_check: bool = QUERY_ANALYSIS.negation_check,
    ):
        if grader is None:
            grader = LocalGrader()
        if max_keep < 1:
            raise ValueError(f"max_keep must be at least 1, got {max_keep}")
        self.grader = grader
        self.irrelevant_below = irrelevant_below
        self.ambiguity_margin = ambiguity_margin
        self.max_keep = max_keep
        self.relevant_above = relevant_above  # None: trust the grader's own ``relevant`` flag
        self.check_answerable = check_answerable
        self.query_analyzer = query_analyzer  # None: no structure, the wording checks only
        self.related_bar = related_bar
        self.negation_check = negation_check

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
        scores = [g.score for g in grades]
        bar = self.relevant_above
        analysis = self.analyse(question, documents)
        fielded = [i for i, d in enumerate(documents) if carries(d.metadata, analysis)]
        by_fields = analysis is not None and analysis.covered and bool(fielded)
        if by_fields:  # the fields decide what is on topic, not the wording
            relevant = sorted(fielded, key=lambda i: -scores[i])
        else:
            relevant = sorted((i for i, g in enumerate(grades) if (g.relevant if bar is None else g.score >= bar)),
                              key=lambda i: -scores[i])
        top = max(scores)

        def scored(j: Judgement) -> Judgement:  # the verdict's evidence score: the best kept document's grade
            return replace(j, score=round(float(max((scores[i] for i in j.keep), default=top)), 4))

        if not relevant and top < self.irrelevant_below:
            return scored(Judgement("irrelevant", note=f"best score {top:.2f} < {self.irrelevant_below:.2f} and no document passed"))
        gaps = {i: self.gap(question, documents[i], analysis) for i in relevant}
        passing = [i for i in relevant if gaps[i] is None]
        vague = underspecified(question)
        if vague and not by_fields:
            pronoun = re.search(r"'(\w+)'", vague)
            ask = f"Who or what do you mean by '{pronoun.group(1)}'?" if pronoun else "What exactly would you like to know?"
            return scored(Judgement("ambiguous", keep=tuple(passing[: self.max_keep]), note=vague, clarifying_question=ask))
        if not relevant:
            return scored(Judgement("insufficient", note=f"no document passed the grader (best score {top:.2f})"))
        if by_fields and analysis.comparison is not None:
            found = {str(documents[i].metadata.get("id")) for i in passing}
            if not set(analysis.comparison.ids) <= found:
                names = [n for n in (analysis_name(documents, analysis, i) for i in analysis.comparison.ids) if n]
                return scored(Judgement("insufficient", keep=tuple(passing[: self.max_keep]),
                                        note="only one of the two items compared was retrieved",
                                        corrected_query=" ".join(names) or None))
        if not passing:
            return scored(Judgement("insufficient", note=f"{len(relevant)} relevant, but none can answer: {gaps[relevant[0]]}"))
        if not by_fields:
            split = title_split(question, [documents[i] for i in passing], [scores[i] for i in passing], self.ambiguity_margin)
            if split:
                return scored(Judgement("ambiguous", keep=tuple(passing[: self.max_keep]),
                                        note=f"the best documents are split between {split[0]!r} and {split[1]!r}",
                                        clarifying_question=f"Do you mean {split[0]} or {split[1]}?"))
        keep = tuple(passing[: self.max_keep])
        how = f"by the question's conditions ({analysis.describe()})" if by_fields else f"best {top:.2f}"
        return scored(Judgement("sufficient", keep=keep, note=f"{len(passing)} of {len(documents)} documents passed ({how})"))


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
# Answerability: does this passage hold an answer to the question, or only look like it does?
#
# A relevance score says a passage is *about* the question. It cannot tell "Who founded the abbey?" over a
# passage that names the founder from the same question over a passage that only says when the abbey was
# built. ``answerability_gap`` runs cheap checks on one passage and returns the first that fails (``None``
# when all pass). They start from the question's analysis (:mod:`ragkit.roles.structured_query`), so what the
# analysis understood is checked against the data, and only the rest against the words:
#
# 1. **conditions** (a document with fields): the document must pass the question's filter exactly (a
#    dessert with nuts cannot answer "which desserts have no nuts?"), be one of the two items a comparison
#    names, or be the item a question is about;
# 2. **rare terms**: every name (a capitalised word after the question's first word) and every number the
#    analysis did NOT use must occur in the passage; a number that is a price bound ("under 11 euros") or a
#    value matched to a field ("Italy", "French" -> France) is checked by condition 1 instead, never by its
#    spelling. On plain text, ``related_bar`` (off by default, see ``ragkit.defaults.QUERY_ANALYSIS``) also
#    accepts a passage word MiniLM places close to the term with the same first letter ("France" ~ "French");
# 3. **polarity** (``negation_check``): a question asking what did *not* happen needs a supporting sentence
#    that says "not", "never", "no" ... (SQuAD 2.0 writes many unanswerable questions by adding a "not");
#    a negation the analysis turned into a condition ("not vegetarian", "without nuts") is checked by 1;
# 4. **answer type**: "who" needs a name, "when" a date, "how many / how much" a number, in the
#    supporting sentence, and one the question does not already contain (:mod:`ragkit.core.nlp`).
#
# The *supporting sentence* is the passage sentence that contains most of the question's key terms.
#
# Simplifications: names are found by capital letters (a lower-case entity like "bm25" is not a rare term);
# a term counts as present when a word of the passage starts with it ("America" in "American"), so a few
# near misses pass; a related word is one MiniLM places close, which is not a proof of meaning; typos ("Masstricht") make the passage look
# like it lacks the term; synonyms ("did not" vs "failed to") and antonyms ("most" vs "least") are not
# understood; on plain text (SQuAD, the handbook) the checks are the wording rules of before, since there
# is no structure to check against. English only.


_TERM = re.compile(r"[A-Za-z\u00C0-\u024F][\w\u00C0-\u024F-]*|\d[\d,.]*\d|\d")
_NEGATION = re.compile(r"\b(not|never|no|none|nothing|neither|nor|without|cannot)\b|n't\b", re.IGNORECASE)
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
    from ragkit.core.embeddings import embed, load_embedder

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


def negation_understood(analysis: Any) -> bool:
    """True when the analysis turned the question's negation into a condition ("not vegetarian")."""
    return analysis is not None and bool(getattr(analysis, "negated", ())) and analysis.filter is not None


def answerability_gap(question: str, text: str, analysis: Any | None = None, metadata: Mapping[str, Any] | None = None,
                      related_bar: float | None = QUERY_ANALYSIS.related_bar,
                      negation_check: bool = QUERY_ANALYSIS.negation_check) -> str | None:
    """Why ``text`` cannot answer ``question`` (the first failed check), or None when every check passes.

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
    understood = checked and negation_understood(analysis)
    if negation_check and not understood and _NEGATION.search(question) and not _NEGATION.search(sentence):
        return "the question asks what is not the case, but the passage does not say so"
    if checked and analysis.covered:
        return None  # a list, a winner, a yes/no or a comparison: the fields answer it, not a sentence
    kind = answer_type(question)
    if not has_answer(kind, sentence, question):
        what = {"person": "name", "time": "time or date", "quantity": "number"}[kind]
        return f"the passage has no {what} where the question asks for one"
    return None


__all__ = ['LocalJudge', 'answerability_gap', 'carries', 'condition_gap', 'has_antecedent', 'negation_understood', 'rare_terms', 'related_in', 'supporting_sentence', 'title_split', 'underspecified']
