"""Score one answer to a structured menu/wine question: is it exactly right?

An answer is *exactly right* (the measure of ``menu_eval.py``) when

- every ``required`` item is **named** (its name, or its name cut before " with " or ",", occurs in the
  answer; case, accents and spacing ignored);
- no ``excluded`` item is named. This is strict on purpose: a scorer that reads names cannot tell "X
  matches" from "X does not match", so an answer that mentions an excluded dish as a near miss counts as
  offering it (the gold set's docstring warns about exactly this; our writers never mention one);
- ``set`` questions with nothing to list (``required`` empty) need an explicit "no"/"none" answer, so a
  refusal is not an answer to "Which sides are not vegan?";
- ``yes_no`` questions need the right polarity: an answer opening with "Yes"/"No" (or "None", "There is
  no ...") says so; an answer that opens with neither but offers an in-scope item counts as "yes" (that is
  how a reader takes it), and a refusal has no polarity;
- ``comparison`` questions phrased "Is A ... than B?" need an explicit "Yes"/"No" that matches
  ``answer_bool``; those phrased "Which of A and B ...?" need a first sentence that names a winner before
  any other item and uses a comparison word (cheaper, more, less, ...), or, for a tie, an equality word
  (same, equal, both).

>>> names = {"menu-01": "Lemon tart", "menu-02": "Panna cotta with figs"}
>>> item = {"kind": "set", "required": ["menu-01"], "excluded": ["menu-02"], "answer_bool": None}
>>> score(item, "Lemon tart (dessert, 8.00 EUR) [1].", names)
(True, 'ok')
>>> score(item, "Lemon tart [1]. Panna cotta [2].", names)
(False, 'offers an excluded item')

Limits: an LLM answer that names a dish by a word of its own ("the mousse") is not recognised; the polarity
reader knows a handful of English openers only.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ragkit.core.nlp import fold

REFUSAL_OPENERS = ("i don't have enough information", "i do not have enough information", "i have no documents",
                   "i can only answer", "the knowledge base does not cover", "i could not write", "i still cannot",
                   "the search failed", "the offline models", "this question is in")
_NO = re.compile(r"^(no\b|none\b|nothing\b|not\b|there (is|are) no\b|we (do not|don't) have\b|neither\b)")
_YES = re.compile(r"^(yes\b)")
COMPARISON_WORDS = re.compile(r"\b(cheaper|dearer|pricier|more|less|higher|lower|costlier|expensive|older|younger|newer)\b")
EQUALITY_WORDS = re.compile(r"\b(same|equal|equally|both)\b")


def _norm(text: str) -> str:
    """Folded text with citation markers removed and spacing normalised."""
    text = re.sub(r"\[\d+(?:\s*[,;-]\s*\d+)*\]", " ", text)
    return " ".join(fold(text).replace("’", "'").split())


def aliases(name: str) -> list[str]:
    """The ways an answer may name an item: its full name, and the name cut before " with " or ",".

    >>> aliases("Panna cotta with figs"), aliases("Calvera oysters, half dozen")
    (['panna cotta with figs', 'panna cotta'], ['calvera oysters, half dozen', 'calvera oysters'])
    """
    full = _norm(name)
    out = [full]
    short = re.split(r"\s+with\s+|,", full)[0].strip()
    if short and short != full and len(short.split()) >= 1:
        out.append(short)
    return out


def first_position(answer: str, name: str) -> int | None:
    """Where the item is first named in the (normalised) answer, or None."""
    text = _norm(answer)
    found = [m.start() for a in aliases(name) for m in [re.search(r"(?<!\w)" + re.escape(a) + r"(?!\w)", text)] if m]
    return min(found) if found else None


def named(answer: str, ids: list[str], names: Mapping[str, str]) -> set[str]:
    """The ids among ``ids`` whose item the answer names."""
    return {i for i in ids if first_position(answer, names[i]) is not None}


def is_refusal(answer: str) -> bool:
    text = _norm(answer)
    return not text or text.startswith(REFUSAL_OPENERS)


def polarity(answer: str) -> bool | None:
    """True for an answer opening with "Yes", False for "No"/"None"/"There is no ...", else None.

    >>> polarity("Yes: the mousse [1]."), polarity("No, none of them."), polarity("The mousse [1].")
    (True, False, None)
    """
    text = _norm(answer)
    if _YES.match(text):
        return True
    if _NO.match(text):
        return False
    return None


def first_sentence(answer: str) -> str:
    text = _norm(answer)
    return re.split(r"(?<=[.!?])\s+", text, maxsplit=1)[0]


def score(item: Mapping[str, Any], answer: str, names: Mapping[str, str]) -> tuple[bool, str]:
    """``(exactly right, reason)`` for one gold item and one answer text."""
    answer = answer or ""
    required, excluded = list(item["required"]), list(item["excluded"])
    kind, truth = item["kind"], item.get("answer_bool")
    if is_refusal(answer):
        return False, "refused"
    said = polarity(answer)
    if named(answer, excluded, names):
        return False, "offers an excluded item"
    if set(required) - named(answer, required, names):
        return False, "misses a required item"
    if kind in ("set", "single"):
        if not required and said is not False:
            return False, "nothing matches, but the answer does not say so"
        return True, "ok"
    if kind == "yes_no":
        if said is None:  # no explicit yes/no: offering an in-scope item reads as "yes"
            said = True if named(answer, required + excluded, names) else None
        return (said == truth, "ok" if said == truth else "wrong polarity")
    if kind == "comparison":
        if truth is not None:
            return (said == truth, "ok" if said == truth else "wrong polarity")
        head = first_sentence(answer)
        if len(required) > 1:
            return (bool(EQUALITY_WORDS.search(head)), "ok" if EQUALITY_WORDS.search(head) else "does not say they tie")
        if not COMPARISON_WORDS.search(head):
            return False, "states no comparison"
        positions = {i: first_position(head, n) for i, n in names.items()}
        present = {i: p for i, p in positions.items() if p is not None}
        if not present or min(present, key=present.get) not in required:
            return False, "does not name the winner first"
        return True, "ok"
    raise ValueError(f"unknown kind {kind!r}")


__all__ = ["aliases", "first_position", "is_refusal", "named", "polarity", "score"]
