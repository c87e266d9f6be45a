"""Checkers for notebook 00 (warm-ups): the cosine of two vectors, and a keyword-overlap score.

>>> import numpy as np
>>> check_cosine(lambda u, v: float(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)), quiet=True).passed
True
>>> check_cosine(lambda u, v: float(np.dot(u, v)), quiet=True).message.endswith("divide by the two lengths?")
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ragkit.core.embeddings import cosine_matrix
from ragkit.core.nlp import key_terms, term_coverage, tokenize, words
from ragkit.exercises.core import CheckResult, Variant, close, run_checker, short


# ---------------------------------------------------------------- cosine
@dataclass(frozen=True)
class VectorPair:
    u: tuple[float, ...]
    v: tuple[float, ...]

    def label(self) -> str:
        return f"u={list(self.u)}, v={list(self.v)}"


def vector_pairs(seed: int, n: int = 24) -> list[VectorPair]:
    """Random integer vectors of 2-4 dimensions, never all zero, most of them not of length 1."""
    rng = random.Random(seed)
    pairs = [VectorPair((3.0, 4.0), (4.0, 3.0))]
    while len(pairs) < n:
        d = rng.randint(2, 4)
        u = tuple(float(rng.randint(-4, 5)) for _ in range(d))
        v = tuple(float(rng.randint(-4, 5)) for _ in range(d))
        if any(u) and any(v):
            pairs.append(VectorPair(u, v))
    return pairs


def reference_cosine(u: Any, v: Any) -> float:
    return float(cosine_matrix(np.array([u], dtype=float), np.array([v], dtype=float))[0, 0])


COSINE_VARIANTS = [
    Variant(lambda u, v: float(np.dot(u, v)),
            "you return the dot product u·v. That is the cosine only for vectors of length 1; "
            "did you forget to divide by the two lengths?"),
    Variant(lambda u, v: float(np.dot(u, v) / np.linalg.norm(u)),
            "you divide by the length of u only; divide by |u| * |v|"),
    Variant(lambda u, v: float(np.dot(u, v) / (np.linalg.norm(u) + np.linalg.norm(v))),
            "you divide by |u| + |v|; the cosine divides by the product |u| * |v|"),
    Variant(lambda u, v: float(np.dot(u, v) / (np.dot(u, u) * np.dot(v, v))),
            "you divide by the squared lengths (u·u)(v·v); take their square roots"),
    Variant(lambda u, v: 1.0 - float(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)),
            "you return 1 - cosine, the cosine *distance*; return the similarity itself"),
    Variant(lambda u, v: float(np.linalg.norm(np.asarray(u) - np.asarray(v))),
            "you return the Euclidean distance |u - v|; the cosine is u·v / (|u| |v|)"),
]


def check_cosine(fn: Callable[[Any, Any], float], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(u, v) -> float`` against ragkit's ``cosine_matrix`` on random (mostly non-unit) vectors."""
    cases = vector_pairs(seed)

    def describe(case: VectorPair, got: Any, expected: float) -> str:
        return f"for {case.label()} your cosine is {short(got)}; the reference gives {expected:.4f}"

    return run_checker(
        "cosine", fn, cases, lambda u, v: reference_cosine(u, v),
        call=lambda f, c: f(np.array(c.u), np.array(c.v)),
        same=lambda got, expected: close(got, expected, 1e-5),
        describe=describe, variants=COSINE_VARIANTS, quiet=quiet,
        passed_message=f"your cosine equals ragkit's cosine_matrix on {len(cases)} generated vector pairs "
                       "(most of them not of length 1).")


# ---------------------------------------------------------------- keyword overlap
VOCABULARY = ["wine", "wines", "oyster", "oysters", "grilled", "grilling", "fish", "lamb", "dessert", "desserts",
              "vegan", "price", "prices", "saffron", "harbour", "festival", "beach", "beaches", "ferry", "bakery"]
FILLER = ["which", "what", "the", "a", "is", "with", "do", "you", "have", "of", "and", "for", "does", "how"]


@dataclass(frozen=True)
class OverlapCase:
    question: str
    text: str

    def label(self) -> str:
        return f"question={self.question!r}, text={self.text!r}"


def overlap_cases(seed: int, n: int = 30) -> list[OverlapCase]:
    """Questions and texts from a small vocabulary, with plurals (stemming matters), stopwords, repeats,
    and a question made of stopwords only."""
    rng = random.Random(seed)
    cases = [OverlapCase("Which wines go with oysters?", "A white wine for oysters and fish."),
             OverlapCase("What do you have?", "Grilled fish with saffron.")]
    while len(cases) < n:
        q_words = rng.sample(VOCABULARY, rng.randint(1, 4)) + rng.sample(FILLER, rng.randint(1, 3))
        rng.shuffle(q_words)
        t_words = rng.choices(VOCABULARY + FILLER, k=rng.randint(2, 9))
        cases.append(OverlapCase(" ".join(q_words).capitalize() + "?", " ".join(t_words).capitalize() + "."))
    return cases


def _share(terms: list[str], present: set[str], empty: float) -> float:
    return sum(t in present for t in terms) / len(terms) if terms else empty


OVERLAP_VARIANTS = [
    Variant(lambda q, t: _share(key_terms(q), set(tokenize(t)), 0.0),
            "a question with no key terms should score 1.0 (nothing is missing), not 0.0"),
    Variant(lambda q, t: _share(key_terms(q), set(words(t)), 1.0),
            "you compare stemmed question terms with unstemmed text words; use tokenize(text) so "
            "'oysters' in the text matches the term 'oyster'"),
    Variant(lambda q, t: _share(list(dict.fromkeys(words(q))), set(words(t)), 1.0),
            "you count every word, stopwords included, without stemming; use key_terms(question) and tokenize(text)"),
    Variant(lambda q, t: sum(term in set(key_terms(q)) for term in tokenize(t)) / max(len(tokenize(t)), 1),
            "you divide by the number of words in the text; the score is the share of the *question's* terms found"),
    Variant(lambda q, t: float(sum(term in set(tokenize(t)) for term in key_terms(q))),
            "you return the count of shared terms; divide it by the number of question terms"),
    Variant(lambda q, t: float(any(term in set(tokenize(t)) for term in key_terms(q))),
            "you return 1 when any term is shared; return the share of question terms found"),
    Variant(lambda q, t: sum(term in set(tokenize(t)) for term in key_terms(q)) / len(key_terms(q)),
            "a question with no key terms (only stopwords, like 'What do you have?') leaves nothing to divide by: "
            "return 1.0 for it, since no term is missing"),
]


def check_keyword_overlap(fn: Callable[[str, str], float], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(question, text) -> float`` against ragkit's ``term_coverage`` (the graders' coverage feature)."""
    cases = overlap_cases(seed)

    def describe(case: OverlapCase, got: Any, expected: float) -> str:
        terms = key_terms(case.question)
        present = sorted(set(terms) & set(tokenize(case.text)))
        return (f"for {case.label()} you return {short(got)}; the reference gives {expected:.3f} "
                f"(question terms {terms}, found in the text: {present})")

    return run_checker(
        "keyword_overlap", fn, cases, term_coverage, call=lambda f, c: f(c.question, c.text),
        same=lambda got, expected: close(got, expected, 1e-9), describe=describe, variants=OVERLAP_VARIANTS,
        quiet=quiet,
        passed_message=f"your score equals ragkit's term_coverage on {len(cases)} generated question/text pairs.")
