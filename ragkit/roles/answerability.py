"""Answerability: does this passage hold an answer to the question, or only look like it does?

A relevance score says a passage is *about* the question. It cannot tell "Who founded the abbey?" over a
passage that names the founder from the same question over a passage that only says when the abbey was
built. ``answerability_gap`` runs cheap checks on one passage and returns the first that fails (``None``
when all pass). They start from the question's analysis (:mod:`ragkit.roles.query_analysis`), so what the
analysis understood is checked against the data, and only the rest against the words:

1. **conditions** (a document with fields): the document must pass the question's filter exactly (a
   dessert with nuts cannot answer "which desserts have no nuts?"), be one of the two items a comparison
   names, or be the item a question is about;
2. **rare terms**: every name (a capitalised word after the question's first word) and every number the
   analysis did NOT use must occur in the passage; a number that is a price bound ("under 11 euros") or a
   value matched to a field ("Italy", "French" -> France) is checked by condition 1 instead, never by its
   spelling. On plain text, ``related_bar`` (off by default, see ``ragkit.defaults.QUERY_ANALYSIS``) also
   accepts a passage word MiniLM places close to the term with the same first letter ("France" ~ "French");
3. **polarity** (``negation_check``): a question asking what did *not* happen needs a supporting sentence
   that says "not", "never", "no" ... (SQuAD 2.0 writes many unanswerable questions by adding a "not");
   a negation the analysis turned into a condition ("not vegetarian", "without nuts") is checked by 1;
4. **answer type**: "who" needs a name, "when" a date, "how many / how much" a number, in the
   supporting sentence, and one the question does not already contain (:mod:`ragkit.core.nlp`).

The *supporting sentence* is the passage sentence that contains most of the question's key terms.

Simplifications: names are found by capital letters (a lower-case entity like "bm25" is not a rare term);
a term counts as present when a word of the passage starts with it ("America" in "American"), so a few
near misses pass; a related word is one MiniLM places close, which is not a proof of meaning; typos ("Masstricht") make the passage look
like it lacks the term; synonyms ("did not" vs "failed to") and antonyms ("most" vs "least") are not
understood; on plain text (SQuAD, the handbook) the checks are the wording rules of before, since there
is no structure to check against. English only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

import numpy as np

from ragkit.core.nlp import QUESTION_STOPWORDS, answer_type, fold, has_answer, split_sentences, term_coverage
from ragkit.defaults import QUERY_ANALYSIS

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


def mentions(text: str, term: str) -> bool:
    """True when a word of ``text`` starts with ``term`` (case, accents and thousands commas ignored).

    >>> mentions("Huguenots settled in North American colonies.", "america"), mentions("In the 1970s", "1970")
    (True, True)
    >>> mentions("The Americas", "merica")
    False
    """
    return re.search(r"(?<!\w)" + re.escape(term), fold(text).replace(",", "")) is not None


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


def supporting_sentence(question: str, text: str) -> str:
    """The sentence of ``text`` with the largest share of the question's key terms (the first on ties).

    >>> supporting_sentence("When was the abbey founded?", "It is old. The abbey was founded in 1066. It has a bell.")
    'The abbey was founded in 1066.'
    """
    sentences = split_sentences(text) or [text]
    return max(sentences, key=lambda s: term_coverage(question, s))


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
        if term in used or mentions(text, term) or related_in(text, term, related_bar):
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


__all__ = ["answerability_gap", "carries", "condition_gap", "mentions", "negation_understood", "rare_terms",
           "related_in", "supporting_sentence"]
