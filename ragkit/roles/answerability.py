"""Answerability: does this passage hold an answer to the question, or only look like it does?

A relevance score says a passage is *about* the question. It cannot tell "Who founded the abbey?" over a
passage that names the founder from the same question over a passage that only says when the abbey was
built. SQuAD 2.0's unanswerable questions are written to exploit exactly that gap. ``answerability_gap``
runs three cheap checks on one passage and returns the first that fails (``None`` when all pass):

1. **rare terms**: every name (a capitalised word after the question's first word) and every number of the
   question must occur in the passage; a question about "Cambridge" is not answered by a passage that
   never mentions Cambridge, however similar it is;
2. **polarity**: a question asking what did *not* happen needs a supporting sentence that says "not",
   "never", "no" ...; otherwise the passage answers the opposite question;
3. **answer type**: "who" needs a name, "when" a date (a number, a month, a century), "how many / how much"
   a number, in the supporting sentence, and one the question does not already contain
   (:mod:`ragkit.roles.question_type`, which the answer grader uses too).

The *supporting sentence* is the passage sentence that contains most of the question's key terms.

Simplifications: names are found by capital letters (a lower-case entity like "bm25" is not a rare term,
and a question typed in lower case has none); a term counts as present when a word of the passage starts
with it ("America" is found in "American", "1970" in "1970s"), so a few near misses pass; typos in the
question ("Masstricht") make the passage look like it lacks the term; synonyms ("did not" vs "failed to")
and antonyms ("most" vs "least") are not understood. English only.
"""

from __future__ import annotations

import re

from ragkit.roles.features import term_coverage
from ragkit.roles.question_type import answer_type, has_answer
from ragkit.text import QUESTION_STOPWORDS, fold, split_sentences

_TERM = re.compile(r"[A-Za-z\u00C0-\u024F][\w\u00C0-\u024F-]*|\d[\d,.]*\d|\d")
_NEGATION = re.compile(r"\b(not|never|no|none|nothing|neither|nor|without|cannot)\b|n't\b", re.IGNORECASE)
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


def supporting_sentence(question: str, text: str) -> str:
    """The sentence of ``text`` with the largest share of the question's key terms (the first on ties).

    >>> supporting_sentence("When was the abbey founded?", "It is old. The abbey was founded in 1066. It has a bell.")
    'The abbey was founded in 1066.'
    """
    sentences = split_sentences(text) or [text]
    return max(sentences, key=lambda s: term_coverage(question, s))


def answerability_gap(question: str, text: str) -> str | None:
    """Why ``text`` cannot answer ``question`` (the first failed check), or None when every check passes.

    >>> answerability_gap("How many libraries are there in Cambridge?", "Oxford has 100 libraries.")
    "the passage never mentions 'cambridge'"
    >>> answerability_gap("What did the monks not build?", "The monks built a mill.")
    'the question asks what is not the case, but the passage does not say so'
    >>> answerability_gap("When was the mill built?", "The monks built a mill by the river.")
    'the passage has no time or date where the question asks for one'
    >>> answerability_gap("When was the mill built?", "The monks built the mill in 1120.") is None
    True
    """
    missing = [t for t in rare_terms(question) if not mentions(text, t)]
    if missing:
        return f"the passage never mentions {missing[0]!r}"
    sentence = supporting_sentence(question, text)
    if _NEGATION.search(question) and not _NEGATION.search(sentence):
        return "the question asks what is not the case, but the passage does not say so"
    kind = answer_type(question)
    if not has_answer(kind, sentence, question):
        what = {"person": "name", "time": "time or date", "quantity": "number"}[kind]
        return f"the passage has no {what} where the question asks for one"
    return None


__all__ = ["answerability_gap", "mentions", "rare_terms",
           "supporting_sentence"]
