"""Small text utilities shared by retrievers and local roles: tokenizing, stemming, sentences, query checks.

The tokenizer is the classic IR recipe: lower-case, strip accents, split on word characters, drop Lucene's 33 English
stopwords, Porter-stem what is left (the Snowball implementation of Porter's 1980 algorithm, in C through
PyStemmer). The sentence splitter is a regular expression, not a trained model: it knows common
abbreviations and decimal numbers, and it will sometimes split or join wrongly on unusual text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import Stemmer

# Lucene's EnglishAnalyzer default stop set (33 words).
LUCENE_STOPWORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there "
    "these they this to was will with".split()
)

# A wider list for picking "key terms" out of questions (never used for BM25 scoring).
QUESTION_STOPWORDS = LUCENE_STOPWORDS | frozenset(
    "what which who whom whose when where why how do does did can could should would may might must "
    "i me my we our you your he she him her his its them about from have has had been being were am "
    "any some all more most other than too very just also so up down out over under again only own same "
    "tell give show list please know want like get got one ones s t much many".split()
)

# The hard cap on one query or question handed to a retriever or a role (a safety limit on the library
# API). The graphs enforce their own, lower, user-facing limit (ragkit.graphs.policy), adjustable up to this.
MAX_QUERY_CHARS = 20_000

_WORD = re.compile(r"\w+", re.UNICODE)
_stemmer = Stemmer.Stemmer("porter")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter-stem one lower-case word.

    >>> stem("running"), stem("studies")
    ('run', 'studi')
    """
    return _stemmer.stemWord(word)


def strip_accents(text: str) -> str:
    """Drop accents, keep everything else (case included).

    >>> strip_accents("Café rosé, Xarel·lo")
    'Cafe rose, Xarel·lo'
    """
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def fold(text: str) -> str:
    """Lower-case and strip accents, so "Café" and "cafe" match.

    >>> fold("Crème Brûlée")
    'creme brulee'
    """
    return strip_accents(text.lower())


def words(text: str) -> list[str]:
    """Lower-cased word tokens, nothing removed.

    >>> words("Hello, World-2!")
    ['hello', 'world', '2']
    """
    return _WORD.findall(fold(text))


def tokenize(text: str, stopwords: frozenset[str] = LUCENE_STOPWORDS) -> list[str]:
    """The BM25 analyzer: lower-case, split, drop stopwords, Porter-stem.

    >>> tokenize("The wines are pairing well with oysters")
    ['wine', 'pair', 'well', 'oyster']
    """
    return [stem(w) for w in _WORD.findall(fold(text)) if w not in stopwords]


def key_terms(text: str) -> list[str]:
    """Stemmed content words of a question, in order, without repeats.

    >>> key_terms("Which wine goes with the grilled fish?")
    ['wine', 'goe', 'grill', 'fish']
    """
    seen: dict[str, None] = {}
    for w in _WORD.findall(fold(text)):
        if w not in QUESTION_STOPWORDS and len(w) > 1:
            seen.setdefault(stem(w), None)
    return list(seen)


_ABBREVIATIONS = frozenset("e.g i.e etc vs mr mrs ms dr st no art sec fig al approx".split())
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Split text into sentences with a regular expression (keeps decimals and common abbreviations).

    >>> split_sentences("It costs 12.50 euros. See Art. 4 for details! Is it ok? Yes.")
    ['It costs 12.50 euros.', 'See Art. 4 for details!', 'Is it ok?', 'Yes.']
    """
    sentences: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*[-*#|]|\s*\d+\.\s)", text):
        block = " ".join(block.split())
        if not block:
            continue
        pieces: list[str] = []
        for piece in _SENTENCE_END.split(block):
            piece = piece.strip()
            if not piece:
                continue
            last = pieces[-1].rstrip(".").rsplit(" ", 1)[-1].lower() if pieces else ""
            if pieces and last in _ABBREVIATIONS:
                pieces[-1] = f"{pieces[-1]} {piece}"
            else:
                pieces.append(piece)
        sentences.extend(pieces)
    return sentences


def clean_query(query: object, max_chars: int = MAX_QUERY_CHARS, what: str = "query", hint: str = "Shorten it.") -> str:
    """Check a user query and return it stripped; reject empty or oversized input with a clear message.

    ``hint`` ends the message for oversized input (a graph says which argument raises its limit).

    >>> clean_query("  red wine  ")
    'red wine'
    >>> clean_query("x" * 30, max_chars=10)
    Traceback (most recent call last):
    ...
    ValueError: query is 30 characters long; the limit is 10. Shorten it.
    """
    if not isinstance(query, str):
        raise TypeError(f"{what} must be a string, got {type(query).__name__}")
    query = query.strip()
    if not query:
        raise ValueError(f"{what} is empty: type a question or search words")
    if len(query) > max_chars:
        raise ValueError(f"{what} is {len(query):,} characters long; the limit is {max_chars:,}. {hint}")
    return query
