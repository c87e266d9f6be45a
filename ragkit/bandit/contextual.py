"""Contextual bandits: the best arm depends on features of the query known before retrieval.

Both policies here keep one ridge regression per arm ("disjoint" models, Li et al. 2010): for arm a,
``A_a = l2 * I + sum x x^T`` and ``b_a = sum r x`` over the rounds it was played, so the estimated reward
of playing a on context x is ``x . theta_a`` with ``theta_a = A_a^-1 b_a``.

- ``LinUCB`` plays the arm with the largest ``x . theta_a + alpha * sqrt(x^T A_a^-1 x)``: the estimate plus
  a bonus that is large where the arm has seen few similar contexts.
- ``LinearThompsonSampling`` draws ``theta ~ Normal(theta_a, alpha^2 A_a^-1)`` per arm and plays the
  largest ``x . theta`` (Agrawal and Goyal 2013, with ``alpha`` as the posterior scale).

What they simplify: the reward is assumed linear in the features (feature crosses must be added by
hand), arms share nothing (a lesson learned for one arm does not transfer), and the features should be
on comparable scales, since one ``l2`` penalises every coefficient alike. A bias feature (a constant 1)
is what lets an arm have a base rate; without it the model is forced through zero. Estimates start at 0
(the ridge prior), so an arm never played has the bound ``alpha * |x| / sqrt(l2)``: with ``alpha`` well
below the reward scale, LinUCB may never try an arm that started behind (it is then nearly greedy).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ragkit.bandit.policies import Policy, Seed
from ragkit.core.nlp import POLAR_OPENERS, QUESTION_WORDS, tokenize, words
from ragkit.core.search import LazySearch


def check_context(context: Any, n_features: int, who: str = "this policy") -> np.ndarray:
    """The context as a float vector of length ``n_features``; a ValueError saying what to pass otherwise.

    >>> check_context([1, 0.5], 2).tolist()
    [1.0, 0.5]
    """
    hint = f"{who} needs a context: a vector of {n_features} finite floats, e.g. ragkit.bandit.query_features(query, idf)"
    if context is None:
        raise ValueError(f"{hint}; got None")
    try:
        x = np.asarray(context, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{hint}; got {type(context).__name__} {context!r}") from None
    if x.shape != (n_features,):
        raise ValueError(f"{hint}; got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError(f"{hint}; got non-finite values {x.tolist()}")
    return x


class _LinearArms(Policy):
    """Shared ridge bookkeeping for LinUCB and linear Thompson sampling."""

    contextual = True

    def default_context(self, arms: Mapping[str, Any]) -> Callable[[str], np.ndarray]:
        """Query features with the idf of the ``bm25`` arm of ``arms`` (read on the first question)."""
        if "bm25" not in arms:
            raise ValueError("a contextual bandit needs bandit_context=(question -> features), or a 'bm25' arm for idf")

        def features(question: str) -> np.ndarray:
            bm25 = arms["bm25"]
            bm25 = bm25.resolve() if isinstance(bm25, LazySearch) else bm25
            return query_features(question, bm25.idf)

        return features

    def __init__(self, arms: Sequence[str], seed: Seed = 0, n_features: int = 1, alpha: float = 1.0,
                 l2: float = 1.0, feature_names: Sequence[str] | None = None):
        super().__init__(arms, seed)
        if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
            raise ValueError(f"n_features must be a positive int (the length of the context vector), got {n_features!r}")
        for name, value, low in (("alpha", alpha, 0.0), ("l2", l2, 0.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value) or value < low:
                raise ValueError(f"{name} must be a finite number >= {low}, got {value!r}")
        if l2 == 0:
            raise ValueError("l2 must be > 0: the ridge penalty keeps A invertible before any update")
        names = list(feature_names) if feature_names is not None else [f"x{j}" for j in range(n_features)]
        if len(names) != n_features:
            raise ValueError(f"{len(names)} feature_names for n_features={n_features}: give one name per feature")
        self.n_features, self.alpha, self.l2, self.feature_names = n_features, float(alpha), float(l2), names
        self.A = np.stack([self.l2 * np.eye(n_features)] * len(self.arms))
        self.b = np.zeros((len(self.arms), n_features))
        self._refresh()

    def _refresh(self, i: int | None = None) -> None:
        """Recompute ``A^-1`` and ``theta`` for arm ``i`` (or every arm, one by one, so a reload is bit-identical)."""
        if i is None:
            self.A_inv, self.theta = np.empty_like(self.A), np.empty_like(self.b)
            for j in range(len(self.arms)):
                self._refresh(j)
            return
        self.A_inv[i] = np.linalg.inv(self.A[i])
        self.theta[i] = self.A_inv[i] @ self.b[i]

    def context(self, context: Any) -> np.ndarray:
        return check_context(context, self.n_features, type(self).__name__)

    def estimates(self, context: Any) -> tuple[np.ndarray, np.ndarray]:
        """Per arm: the ridge estimate ``x . theta`` and the width ``sqrt(x^T A^-1 x)``."""
        x = self.context(context)
        width = np.sqrt(np.maximum((self.A_inv @ x) @ x, 0.0))
        return self.theta @ x, width

    def _learn(self, i: int, reward: float, context: Any) -> None:
        x = self.context(context)
        self.A[i] += np.outer(x, x)
        self.b[i] += reward * x
        self._refresh(i)

    def params(self) -> dict[str, Any]:
        return {"n_features": self.n_features, "alpha": self.alpha, "l2": self.l2, "feature_names": self.feature_names}

    def state(self) -> dict[str, Any]:
        return {**super().state(), "A": self.A.tolist(), "b": self.b.tolist()}

    def set_state(self, state: dict[str, Any]) -> None:
        super().set_state(state)
        k, d = len(self.arms), self.n_features
        A, b = np.asarray(state["A"], dtype=np.float64), np.asarray(state["b"], dtype=np.float64)
        if A.shape != (k, d, d) or b.shape != (k, d) or not (np.isfinite(A).all() and np.isfinite(b).all()):
            raise ValueError(f"state fields 'A' and 'b' must be finite with shapes ({k}, {d}, {d}) and ({k}, {d})")
        self.A, self.b = A, b
        self._refresh()

    def stats(self, context: Any = None) -> dict[str, Any]:
        """Per arm pulls, mean reward and ridge coefficients; with a ``context``, also estimate and bound."""
        summary = super().stats()
        if context is not None:
            estimate, width = self.estimates(context)
        for i, arm in enumerate(self.arms):
            summary["arms"][arm]["coefficients"] = dict(zip(self.feature_names, map(float, self.theta[i])))
            if context is not None:
                summary["arms"][arm].update(estimate=float(estimate[i]), bound=float(estimate[i] + self.alpha * width[i]))
        return summary


class LinUCB(_LinearArms):
    """Disjoint LinUCB: play the arm with the highest ``x . theta_a + alpha * sqrt(x^T A_a^-1 x)``.

    >>> bandit = LinUCB(["bm25", "dense"], n_features=2, alpha=0.0)
    >>> for _ in range(5): bandit.update("bm25", 1.0, [1, 0]); bandit.update("dense", 1.0, [0, 1])
    >>> bandit.select([1, 0]), bandit.select([0, 1])
    ('bm25', 'dense')
    """

    kind = "linucb"

    def select(self, context: Any = None) -> str:
        estimate, width = self.estimates(context)
        return self.arms[int(np.argmax(estimate + self.alpha * width))]


class LinearThompsonSampling(_LinearArms):
    """Linear Thompson sampling: draw ``theta ~ N(theta_a, alpha^2 A_a^-1)`` per arm, play the best ``x . theta``."""

    kind = "linear_thompson_sampling"

    def select(self, context: Any = None) -> str:
        x = self.context(context)
        samples = [self.rng.multivariate_normal(self.theta[i], self.alpha**2 * self.A_inv[i], method="cholesky")
                   for i in range(len(self.arms))]
        return self.arms[int(np.argmax([s @ x for s in samples]))]


# ---------------------------------------------------------------------- features
# Query features a contextual bandit can use before any retrieval runs: length, term rarity, digits, question form.
#
# Everything is read from the query and from an idf table of the corpus (term -> Lucene idf
# ``log(1 + (N - n + 0.5) / (n + 0.5))``, n = documents containing the term: ``BM25Retriever.idf``), so
# nothing is fitted to one collection; the question form comes from :func:`question_form`. Idf values are
# divided by the largest idf in the table (a term found in one document), which puts them in [0, 1] whatever
# the corpus size. A term counts as *rare* when its scaled idf is at least
# one half, which for Lucene idf means it occurs in fewer than about ``sqrt(1.5 N)`` documents (88 of
# SciFact's 5,183). A term the corpus never uses (out of vocabulary) gets the largest idf.
#
# What this cannot see: anything about the answer documents (that would need retrieval first), word order,
# or meaning; the question-word categories are English only; and a linear policy on these features learns
# only additive effects.


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


def question_form(question: str) -> str | None:
    """The question's form: "what", "how", "why", "wh_other" (who, which, where, when ...) from its first word
    (or any wh-word of a question), "yes_no" (an auxiliary first and a "?"), None for a statement.

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
