"""Split a request into clauses, in the order their work must happen ("find X, then code it").

A question that asks for several things in order strings them together with English connectives:
"Look up BM25, implement it, and then tell me whether ...". :func:`split_clauses` cuts a question at
punctuation (``. ? ! ; : ,``), at arrows (``->``) and before the connectives that can open a new step
(``and``, ``then``, ``after``, ``before``, ``once``, ``finally`` ...), but never inside brackets, quotes or
backticks, so ``[1, 2, 3]`` and ```f(a, b)``` stay whole. Each clause keeps an ``order`` mark read from its
connective:

- ``"first"``: the clause says it comes first ("Check the handbook first", "First, ...");
- ``"before_previous"``: it names a prerequisite of the clause before it ("..., after reading the
  section", "..., based on the handbook", "..., using its definition");
- ``"after_next"``: it must wait for the clause after it ("Before you code it, look it up");
- ``""``: it happens where it is written.

:func:`reorder` applies the marks. The words that decide (``SEQUENCE_WORDS``, ``PREREQUISITE_OPENERS``)
are English grammar, not a vocabulary of any one corpus.

>>> [c.text for c in split_clauses("Look up BM25, implement it, and then compare it with [1, 2].")]
['Look up BM25', 'implement it', 'compare it with [1, 2]']
>>> [(c.text, c.order) for c in split_clauses("Write the parser after checking the handbook.")]
[('Write the parser', ''), ('checking the handbook', 'before_previous')]

Simplifications: connectives are read at the start (and "first" also at the end) of a clause only; a
clause that splits a noun phrase ("BM25 and dense retrieval") is left for the caller to merge back; no
parser, so "after" as a preposition ("what happens after a crash?") is cut like the conjunction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Sequence

Order = Literal["", "first", "before_previous", "after_next"]

# Words that join steps; dropped from the front of a clause before it is classified.
SEQUENCE_WORDS = ("and then", "and finally", "and also", "after that", "after which", "afterwards", "and", "then",
                  "finally", "lastly", "next", "also", "so", "but", "plus")
# Words that open a clause naming what must be done before the clause it is attached to.
PREREQUISITE_OPENERS = ("after", "once", "based on", "using", "given", "according to", "from")
# Words before which a new clause may start (besides punctuation and arrows).
_CUT_BEFORE = ("and", "then", "after", "afterwards", "before", "once", "finally", "lastly")
_PUNCT = ".?!;:,"
_ARROWS = ("->", "=>", "\u2192")
_OPEN, _CLOSE = "([{", ")]}"


@dataclass(frozen=True)
class Clause:
    """One step of a request: its text (connectives removed), the raw text, and its order mark."""

    text: str
    raw: str
    order: Order = ""


def _pieces(question: str) -> list[str]:
    """Cut at depth-0 punctuation followed by a space (or the end), arrows, and before cut words."""
    out, start, depth, quote = [], 0, 0, ""
    i, n = 0, len(question)
    while i < n:
        ch = question[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "`\"":
            quote = ch
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            arrow = next((a for a in _ARROWS if question.startswith(a, i)), None)
            if arrow:
                out.append(question[start:i])
                start = i = i + len(arrow)
                continue
            if ch in _PUNCT and (i + 1 == n or question[i + 1].isspace()):
                out.append(question[start:i + 1])
                start = i + 1
            elif ch.isspace() and i > start:
                rest = question[i + 1:i + 12].lower()
                if any(re.match(rf"{w}\b", rest) for w in _CUT_BEFORE):
                    out.append(question[start:i])
                    start = i + 1
        i += 1
    out.append(question[start:])
    return [p.strip() for p in out if p.strip(" \t\n" + _PUNCT)]


def _strip_words(text: str, words: Sequence[str]) -> tuple[str, str]:
    """Remove leading ``words`` (longest first, repeatedly); return (rest, the first word removed)."""
    first = ""
    changed = True
    while changed:
        changed = False
        for word in sorted(words, key=len, reverse=True):
            match = re.match(rf"{re.escape(word)}\b[\s,]*", text, flags=re.IGNORECASE)
            if match and match.end() < len(text):
                first = first or word
                text, changed = text[match.end():], True
                break
    return text, first


def split_clauses(question: str) -> list[Clause]:
    """The clauses of a question, each with its order mark (see the module docstring)."""
    clauses = []
    for raw in _pieces(question):
        text = raw.strip().rstrip(_PUNCT).strip()
        text, _ = _strip_words(text, SEQUENCE_WORDS)
        if text.lower().strip(" ,") in SEQUENCE_WORDS:  # a bare joiner ("and", "afterwards"): order as written
            continue
        order: Order = ""
        if re.match(r"first\b", text, re.IGNORECASE) or re.search(r"\bfirst$", text, re.IGNORECASE):
            order = "first"
            text = re.sub(r"^first\b[\s,]*|[\s,]*\bfirst$", "", text, flags=re.IGNORECASE).strip() or text
        elif re.match(r"before\b", text, re.IGNORECASE):
            order = "after_next"
            text = re.sub(r"^before\b\s*", "", text, flags=re.IGNORECASE) or text
        else:
            rest, opener = _strip_words(text, PREREQUISITE_OPENERS)
            if opener:
                order, text = "before_previous", (rest if opener in ("after", "once") else text)
        if text.strip():
            clauses.append(Clause(text.strip(), raw, order))
    return clauses


def reorder(items: Sequence[Clause]) -> list[Clause]:
    """Apply the order marks: "first" clauses to the front, a prerequisite before the clause it follows,
    an "after_next" clause behind the one after it.

    >>> [c.text for c in reorder([Clause("code it", ""), Clause("look it up", "", "before_previous")])]
    ['look it up', 'code it']
    >>> [c.text for c in reorder([Clause("b", ""), Clause("a", "", "first")])]
    ['a', 'b']
    """
    items = list(items)
    for i in range(1, len(items)):
        if items[i].order == "before_previous":
            items[i - 1], items[i] = items[i], items[i - 1]
    for i in range(len(items) - 2, -1, -1):
        if items[i].order == "after_next":
            items[i], items[i + 1] = items[i + 1], items[i]
    firsts = [c for c in items if c.order == "first"]
    return [*firsts, *(c for c in items if c.order != "first")]


_PRIORITY: tuple[Order, ...] = ("first", "before_previous", "after_next", "")


def merge(a: Clause, b: Clause, order: Order | None = None) -> Clause:
    """Two neighbouring clauses as one; ``order`` defaults to the stronger of their marks.

    >>> merge(Clause("a", "a"), Clause("b", "b", "first"))
    Clause(text='a b', raw='a b', order='first')
    """
    if order is None:
        order = min(a.order, b.order, key=_PRIORITY.index)
    return Clause(f"{a.text} {b.text}".strip(), f"{a.raw} {b.raw}".strip(), order)


__all__ = ["Clause", "Order", "PREREQUISITE_OPENERS", "SEQUENCE_WORDS", "merge", "reorder", "split_clauses"]
