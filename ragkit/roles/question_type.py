"""What kind of answer a question asks for, and whether a text holds one: the one place that decides it.

The answer grader ("does this answer say what was asked?") and the CRAG judge's answerability check
("can this passage hold the answer?") both need the same two decisions, so both call this module:

- :func:`answer_type`: ``"time"`` (when / what year / which day ...), ``"quantity"`` (how much / how many /
  what price ...), ``"person"`` (who / whom / whose), ``"yes/no"`` (a question opening with an auxiliary
  verb: "Is ...", "Can ...") or ``"other"``. The wh-phrase that comes *first* in the question decides, so
  "In what year did the terrace open?" is a time question and "How much did it cost when it opened?" a
  quantity one.
- :func:`has_answer`: whether a text contains something of that kind that the question does not already
  contain: a new number (or number word) for a quantity, a new number or a date word for a time, a new
  capitalised name for a person. Yes/no and other questions need nothing in particular.

>>> answer_type("In what year did the terrace open?"), answer_type("How much is the tomato soup?")
('time', 'quantity')
>>> has_answer("quantity", "The tomato soup is gluten-free.", "How much is the tomato soup?")
False

Simplifications: English only, read from question words; "free", "no" and "none" are never quantities
(so "None." does not answer "How many allergens?"); a number anywhere counts, even the wrong number; a
name is a capitalised word, so a lower-case name ("bm25") is not one.
"""

from __future__ import annotations

import re
from typing import Literal

from ragkit.roles.features import names, numbers
from ragkit.text import QUESTION_STOPWORDS, words

AnswerType = Literal["person", "time", "quantity", "yes/no", "other"]
ANSWER_TYPES: tuple[str, ...] = ("person", "time", "quantity", "yes/no", "other")

_PATTERNS: dict[str, re.Pattern[str]] = {
    "time": re.compile(r"\b(when|what (year|date|time|century|decade|month|day)|which (year|century|decade|month|day|date)|"
                       r"how long ago|since when|until when)\b"),
    "quantity": re.compile(r"\b(how (much|many|long|old|far|big|large|often|tall|high|wide|deep|fast|expensive|cheap)|"
                           r"what (is the )?(price|cost|percentage|percent|number|amount|proportion|population))\b"),
    "person": re.compile(r"^(who|whom|whose)\b|\b(who|whom|whose) (is|was|were|did|does|had|has)\b"),
}
# English auxiliaries that open a yes/no question ("Does X cause Y?").
POLAR_OPENERS = frozenset("is are was were am do does did can could should would will shall may might must has have had".split())
QUESTION_WORDS = {"what": "what", "how": "how", "why": "why",
                  **dict.fromkeys(("who", "whom", "whose", "which", "where", "when"), "wh_other")}
QUESTION_FORMS = ("what", "how", "why", "wh_other", "yes_no")
NUMBER_WORDS = frozenset("zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty "
                         "hundred hundreds thousand thousands million millions billion dozen half several".split())
TIME_WORDS = frozenset(
    "january february march april may june july august september october november december jan feb mar apr jun "
    "jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday "
    "morning afternoon evening night noon midnight daily weekly weekend weekends week month year century centuries "
    "decade decades spring summer autumn fall winter am pm".split()
)
_NOT_A_NAME = frozenset({"the", "a", "an", "in", "on", "at", "after", "before", "during", "this", "these", "there"})


def answer_type(question: str) -> AnswerType:
    """The kind of answer a question asks for; the earliest wh-phrase decides.

    >>> [answer_type(q) for q in ["Who founded it?", "When does it open?", "How many rooms?", "Is it vegan?", "Why?"]]
    ['person', 'time', 'quantity', 'yes/no', 'other']
    >>> answer_type("How much did the ticket cost when the terrace opened?")
    'quantity'
    """
    text = " ".join(words(question))
    found = [(m.start(), kind) for kind, pattern in _PATTERNS.items() if (m := pattern.search(text))]
    if found:
        return min(found)[1]  # type: ignore[return-value]
    first = text.split(" ", 1)[0]
    return "yes/no" if first in POLAR_OPENERS else "other"


def question_form(question: str) -> str | None:
    """The question's form from its first word (or any wh-word of a question), or None for a statement.

    Forms: "what", "how", "why", "wh_other" (who, which, where, when ...) and "yes_no" (an auxiliary verb
    first and a question mark). A contextual bandit uses it as a feature known before retrieval.

    >>> question_form("Why do cells divide?"), question_form("Does aspirin thin blood?"), question_form("Aspirin thins blood.")
    ('why', 'yes_no', None)
    """
    tokens = words(question)
    asks = question.rstrip().endswith("?")
    if not tokens:
        return None
    if tokens[0] in QUESTION_WORDS:
        return QUESTION_WORDS[tokens[0]]
    if tokens[0] in POLAR_OPENERS and asks:
        return "yes_no"
    return next((QUESTION_WORDS[t] for t in tokens if t in QUESTION_WORDS), None) if asks else None


def has_answer(kind: str, text: str, question: str = "") -> bool:
    """Whether ``text`` holds an answer of this kind that ``question`` does not already contain.

    >>> has_answer("time", "The abbey was founded in 1066.", "When was the abbey founded?")
    True
    >>> has_answer("time", "It was rebuilt after 1066.", "When was it rebuilt after 1066?")  # only the question's year
    False
    >>> has_answer("quantity", "Six oysters cost 14 euros.", "How much are the oysters?")
    True
    >>> has_answer("person", "Marie Curie discovered it.", "Who discovered radium?")
    True
    """
    if kind not in ANSWER_TYPES:
        raise ValueError(f"unknown answer type {kind!r}; one of {ANSWER_TYPES}")
    asked, said = set(words(question)), set(words(text))
    new_number = any(n not in asked for n in numbers(text))
    if kind == "quantity":
        return new_number or bool((NUMBER_WORDS & said) - asked)
    if kind == "time":
        return new_number or bool((TIME_WORDS & said) - asked)
    if kind == "person":
        return any(n not in asked for n in names(text)) or _opens_with_name(text, asked)
    return True


def _opens_with_name(text: str, asked: set[str]) -> bool:
    first = text.split()[0].strip("\"'(.,;:!?") if text.split() else ""
    lower = first.lower()
    return first[:1].isupper() and lower not in asked and lower not in QUESTION_STOPWORDS and lower not in _NOT_A_NAME


__all__ = ["ANSWER_TYPES", "AnswerType", "NUMBER_WORDS", "POLAR_OPENERS", "QUESTION_FORMS", "TIME_WORDS", "answer_type",
           "has_answer", "question_form"]
