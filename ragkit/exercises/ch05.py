"""Checkers for notebook 05 (CRAG): the verdict router after the judge, and ``same_query``.

>>> from ragkit.graphs.crag import route_after_judge
>>> from ragkit.core.nlp import same_query
>>> check_verdict_router(route_after_judge, quiet=True).passed, check_same_query(same_query, quiet=True).passed
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from langchain_core.documents import Document

from ragkit.core.nlp import same_query
from ragkit.exercises.core import CheckResult, Variant, run_checker, short
from ragkit.graphs.crag import route_after_judge

VERDICTS = ("sufficient", "insufficient", "ambiguous", "irrelevant")


# ---------------------------------------------------------------- the verdict router
@dataclass(frozen=True)
class JudgeCase:
    verdict: str
    corrections: int
    max_corrections: int
    clarifications: int
    max_clarifications: int
    kept: int

    def state(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "corrections": self.corrections,
                "clarifications": [f"reply {i}" for i in range(self.clarifications)],
                "caps": {"corrections": self.max_corrections, "clarifications": self.max_clarifications, "revisions": 1},
                "kept": [Document(page_content=f"kept document {i}") for i in range(self.kept)]}

    def label(self) -> str:
        return (f"verdict={self.verdict!r}, corrections {self.corrections} of {self.max_corrections}, "
                f"clarifications {self.clarifications} of {self.max_clarifications}, {self.kept} kept document(s)")


def judge_cases(seed: int, n: int = 40) -> list[JudgeCase]:
    """Every verdict, below and at each cap, with and without kept documents."""
    rng = random.Random(seed)
    cases = [JudgeCase("insufficient", 0, 2, 0, 1, 0), JudgeCase("insufficient", 2, 2, 0, 1, 1),
             JudgeCase("ambiguous", 0, 2, 1, 1, 0), JudgeCase("irrelevant", 0, 2, 0, 1, 2)]
    while len(cases) < n:
        max_corr, max_clar = rng.randint(0, 2), rng.randint(0, 1)
        cases.append(JudgeCase(rng.choice(VERDICTS), rng.randint(0, max_corr), max_corr,
                               rng.randint(0, max_clar), max_clar, rng.choice([0, 0, 1, 3])))
    return cases


def _judge_variant(caps: bool = True, write_when_out: bool = True, irrelevant_first: bool = True) -> Callable[[dict], str]:
    def route(state: dict) -> str:
        verdict, kept = state["verdict"], bool(state.get("kept"))
        if irrelevant_first and verdict == "irrelevant":
            return "refuse"
        if verdict == "sufficient":
            return "write"
        if verdict == "insufficient" and (not caps or state.get("corrections", 0) < state["caps"]["corrections"]):
            return "correct"
        if verdict == "ambiguous" and (not caps or len(state.get("clarifications", [])) < state["caps"]["clarifications"]):
            return "ask_back"
        return "write" if (kept and write_when_out) else "refuse"

    return route


JUDGE_VARIANTS = [
    Variant(_judge_variant(caps=False),
            "you ignore the caps: 'insufficient' goes to 'correct' and 'ambiguous' to 'ask_back' even when "
            "state['corrections'] or len(state['clarifications']) has reached state['caps'][...], so the loop "
            "never ends"),
    Variant(_judge_variant(write_when_out=False),
            "at a cap you always refuse; when the judge kept some documents, go on and 'write' from them"),
    Variant(_judge_variant(irrelevant_first=False),
            "an 'irrelevant' verdict with kept documents goes to 'write'; 'irrelevant' must always 'refuse'"),
]


def check_verdict_router(fn: Callable[[dict], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(state) -> "write" | "correct" | "ask_back" | "refuse"`` against CRAG's ``route_after_judge``."""
    cases = judge_cases(seed)

    def describe(case: JudgeCase, got: Any, expected: str) -> str:
        return f"for {case.label()} you return {short(got)}; the reference returns {expected!r}"

    return run_checker("verdict_router", fn, cases, route_after_judge, call=lambda f, c: f(c.state()),
                       same=lambda got, expected: got == expected, describe=describe, variants=JUDGE_VARIANTS,
                       quiet=quiet,
                       passed_message=f"your router agrees with ragkit's route_after_judge on {len(cases)} generated "
                                      "states (every verdict, below and at each cap, with and without kept documents).")


# ---------------------------------------------------------------- same_query
@dataclass(frozen=True)
class QueryPair:
    a: str
    b: str

    def label(self) -> str:
        return f"{self.a!r} and {self.b!r}"


BASES = ["who built the abbey", "how many rooms does the hotel have", "ferry times to isola verde",
         "red wine serving temperature", "is the ice cream vegan", "opening hours of the bakery"]


def _mess(text: str, rng: random.Random) -> str:
    """The same query with other case, spacing or punctuation (one kind of change, or all three)."""
    kind = rng.choice(["case", "space", "punctuation", "all"])
    words = text.split()
    if kind in ("case", "all"):
        words = [w.upper() if rng.random() < 0.3 else (w.capitalize() if rng.random() < 0.4 else w) for w in words]
    if kind in ("punctuation", "all"):
        words = [w + ("," if rng.random() < 0.3 else "") for w in words]
        words[-1] += rng.choice(["?", " ?", "!", "..."])
    joined = (" " * (rng.randint(2, 3) if kind in ("space", "all") else 1)).join(words)
    return (" " if kind in ("space", "all") else "") + joined


def query_pairs(seed: int, n: int = 30) -> list[QueryPair]:
    """Pairs that differ only in case, spacing or punctuation (same), and pairs that differ in a word, the word
    order, or where a space falls ("ice cream" / "icecream"): different."""
    rng = random.Random(seed)
    cases = [QueryPair("Who built it?", "who  built it"), QueryPair("is the ice cream vegan", "is the icecream vegan"),
             QueryPair("who built the abbey", "the abbey who built"), QueryPair("Who built it", "who built it"),
             QueryPair("who built  it", "who built it"), QueryPair("who built it?", "who built it"),
             QueryPair("who, built it", "who built it"), QueryPair("is the ice-cream vegan", "is the ice cream vegan"),
             QueryPair("is the ice-cream vegan", "is the icecream vegan")]
    while len(cases) < n:
        base = rng.choice(BASES)
        kind = rng.choice(["same", "same", "word", "order", "space", "hyphen"])
        if kind == "same":
            other = base
        elif kind == "word":
            words = base.split()
            words[rng.randrange(len(words))] = rng.choice(["museum", "price", "white", "castle"])
            other = " ".join(words)
        elif kind == "order":
            words = base.split()
            other = " ".join(words[1:] + words[:1])
        elif kind == "hyphen":  # "ice-cream" is "ice cream": punctuation is a word break
            words = base.split()
            i = rng.randrange(len(words) - 1)
            other = " ".join(words[:i] + [f"{words[i]}-{words[i + 1]}"] + words[i + 2:])
        else:
            words = base.split()
            i = rng.randrange(len(words) - 1)
            other = " ".join(words[:i] + [words[i] + words[i + 1]] + words[i + 2:])
        cases.append(QueryPair(_mess(base, rng), _mess(other, rng)))
    return cases


def _alnum_only(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _punctuation_deleted(text: str) -> str:
    return " ".join("".join(c for c in text.lower() if c.isalnum() or c.isspace()).split())


def _words(text: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in text.lower()).split()


SAME_QUERY_VARIANTS = [
    Variant(lambda a, b: a == b, "you compare the strings exactly; queries that differ only in case, spacing or "
                                 "punctuation count as the same"),
    Variant(lambda a, b: a.lower() == b.lower(), "you ignore case only; ignore spacing and punctuation too"),
    Variant(lambda a, b: " ".join(a.lower().split()) == " ".join(b.lower().split()),
            "you ignore case and spacing but not punctuation ('it?' vs 'it')"),
    Variant(lambda a, b: a.strip().lower().strip("?!. ") == b.strip().lower().strip("?!. "),
            "you strip punctuation at the ends only; repeated spaces and commas inside still count"),
    Variant(lambda a, b: _alnum_only(a) == _alnum_only(b),
            "you remove spaces altogether, so 'ice cream' and 'icecream' become the same query; replace "
            "punctuation with a space, then collapse the spaces"),
    Variant(lambda a, b: _punctuation_deleted(a) == _punctuation_deleted(b),
            "you delete punctuation, so 'ice-cream' becomes 'icecream' and no longer equals 'ice cream'; turn each "
            "punctuation mark into a space, then collapse the spaces"),
    Variant(lambda a, b: sorted(_words(a)) == sorted(_words(b)),
            "you compare the words in any order, so 'who built the abbey' equals 'the abbey who built'; keep the order"),
]


def check_same_query(fn: Callable[[str, str], bool], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(a, b) -> bool`` against CRAG's ``same_query`` (the rule that stops a repeated re-search)."""
    cases = query_pairs(seed)

    def describe(case: QueryPair, got: Any, expected: bool) -> str:
        return f"for {case.label()} you return {short(got)}; the reference returns {expected}"

    return run_checker("same_query", fn, cases, same_query, call=lambda f, c: f(c.a, c.b),
                       same=lambda got, expected: isinstance(got, (bool, int)) and bool(got) == expected,
                       describe=describe, variants=SAME_QUERY_VARIANTS, quiet=quiet,
                       passed_message=f"your rule equals ragkit's same_query on {len(cases)} generated pairs "
                                      "(case, spacing and punctuation changes; changed words, order and spaces).")
