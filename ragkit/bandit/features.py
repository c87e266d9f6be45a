"""Query features a contextual bandit can use before any retrieval runs: length, term rarity, digits, question form.

Everything is read from the query and from an idf table of the corpus (term -> Lucene idf
``log(1 + (N - n + 0.5) / (n + 0.5))``, n = documents containing the term: ``BM25Retriever.idf``), so
nothing is fitted to one collection; the question form comes from
:func:`ragkit.core.nlp.question_form`. Idf values are divided by the largest idf in the table
(a term found in one document), which
puts them in [0, 1] whatever the corpus size. A term counts as *rare* when its scaled idf is at least
one half, which for Lucene idf means it occurs in fewer than about ``sqrt(1.5 N)`` documents (88 of
SciFact's 5,183). A term the corpus never uses (out of vocabulary) gets the largest idf.

What this cannot see: anything about the answer documents (that would need retrieval first), word order,
or meaning; the question-word categories are English only; and a linear policy on these features learns
only additive effects.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from ragkit.core.nlp import question_form
from ragkit.core.nlp import tokenize, words

FEATURE_NAMES = (
    "bias",        # always 1: lets each arm have a base rate
    "log_tokens",  # log(1 + number of analysed terms)
    "mean_idf",    # mean scaled idf of the terms
    "max_idf",     # largest scaled idf
    "rare_share",  # share of the query's idf weight carried by rare terms
    "oov_share",   # share of terms the corpus never uses (BM25 cannot match them)
    "has_digits",  # 1 if a word contains a digit (doses, years, gene names)
    "q_what", "q_how", "q_why", "q_wh_other", "q_yes_no",  # question form, one-hot (all 0: a statement)
)


def query_features(query: str, idf: Mapping[str, float]) -> np.ndarray:
    """The feature vector (names in ``FEATURE_NAMES``) of ``query`` given the corpus ``idf`` table.

    >>> from langchain_core.documents import Document
    >>> from ragkit.core.bm25 import BM25Retriever
    >>> idf = BM25Retriever.from_documents([Document(t) for t in ["red wine", "white wine", "red grapes"]]).idf
    >>> x = dict(zip(FEATURE_NAMES, query_features("red grapes", idf).round(2).tolist()))
    >>> x["mean_idf"], x["max_idf"], x["rare_share"], x["oov_share"]  # "red" is in 2 of 3 documents, "grapes" in 1
    (0.74, 1.0, 0.68, 0.0)
    >>> x = dict(zip(FEATURE_NAMES, query_features("Why do 2 vines age?", idf).tolist()))
    >>> x["oov_share"], x["has_digits"], x["q_why"]
    (1.0, 1.0, 1.0)
    """
    if not idf:
        raise ValueError("idf is empty: pass the corpus's term -> idf mapping (BM25Retriever.from_documents(docs).idf)")
    top = max(idf.values())
    if not top > 0:
        raise ValueError("idf values must include a positive one: use BM25Retriever.from_documents(docs).idf")
    terms = tokenize(query)
    scaled = np.array([min(idf.get(t, top), top) / top for t in terms]) if terms else np.zeros(0)
    weight = scaled.sum()
    form = question_form(query)
    x = [
        1.0,
        math.log1p(len(terms)),
        float(scaled.mean()) if terms else 0.0,
        float(scaled.max()) if terms else 0.0,
        float(scaled[scaled >= 0.5].sum() / weight) if weight > 0 else 0.0,
        float(np.mean([t not in idf for t in terms])) if terms else 0.0,
        float(any(ch.isdigit() for w in words(query) for ch in w)),
        *(float(form == name) for name in ("what", "how", "why", "wh_other", "yes_no")),
    ]
    return np.asarray(x, dtype=np.float64)
