"""Risk-coverage curves: what a refusal dial trades, from one run per question.

A graph with a refusal dial (``refuse_below``, :mod:`ragkit.core.contract`) answers a question when the
run's ``confidence`` reaches the bar. Run every question once with the dial at its lowest, keep for each
an :class:`Item` (``score``: the run's confidence if it answered, ``None`` if it refused anyway;
``correct``: its answer is right; ``answerable``), and every bar's outcome follows without running again:
a question is answered at bar ``t`` exactly when its score is not None and ``score >= t``.

Each point of the curve says, at one bar: ``coverage`` (the share of all questions answered),
``accuracy`` (the share of the answered ones answered right: an unanswerable question answered is always
wrong), ``risk`` (1 - accuracy), and the two rates a refusal benchmark reports: answerable questions
answered right, unanswerable questions refused.

>>> items = [Item(0.9, True, True), Item(0.6, False, False), Item(0.4, True, True), Item(None, False, False)]
>>> [(p.threshold, p.coverage, p.accuracy) for p in curve(items)]
[(inf, 0.0, None), (0.9, 0.25, 1.0), (0.6, 0.5, 0.5), (0.4, 0.75, 0.6667)]
>>> point_at(items, 0.5).coverage, point_at(items, 0.5).unanswerable_refused
(0.5, 0.5)

What it cannot do: the curve is only as good as the score's ranking, and a score that ties many runs
(a grader that says 0 or 1) gives a curve of few points; runs with no score (``float('inf')``: answered
at every bar) and runs refused whatever the bar pin its two ends. The share of unanswerable questions in
the set moves every accuracy: compare curves only on the same questions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Item:
    """One question's run: its confidence if it answered at the lowest bar (None: refused anyway; inf: no
    score, answered at every bar), whether that answer is right, and whether the question has an answer."""

    score: float | None
    correct: bool
    answerable: bool


@dataclass(frozen=True)
class Point:
    """The outcome of one bar over a set of questions (shares in 0-1; ``accuracy`` None when none answered)."""

    threshold: float
    coverage: float
    accuracy: float | None
    risk: float | None
    answered: int
    questions: int
    answerable_right: float  # answerable questions answered right / answerable questions
    unanswerable_refused: float  # unanswerable questions refused / unanswerable questions

    def as_dict(self) -> dict:
        """A JSON-friendly dict (an infinite threshold becomes the string "inf").

        >>> Point(math.inf, 0.0, None, None, 0, 2, 0.0, 1.0).as_dict()["threshold"]
        'inf'
        """
        out = asdict(self)
        out["threshold"] = "inf" if math.isinf(self.threshold) else self.threshold
        return out


def answered_at(item: Item, threshold: float) -> bool:
    """True when the run keeps its answer at this bar (the rule of :func:`ragkit.core.contract.answers_at`).

    >>> answered_at(Item(0.4, True, True), 0.3), answered_at(Item(0.4, True, True), 0.5), answered_at(Item(None, False, True), 0.0)
    (True, False, False)
    """
    return item.score is not None and item.score >= threshold


def point_at(items: Sequence[Item], threshold: float) -> Point:
    """The point of the curve at one bar.

    >>> p = point_at([Item(0.8, True, True), Item(0.7, False, False), Item(0.2, False, False)], 0.5)
    >>> p.coverage, p.accuracy, p.answerable_right, p.unanswerable_refused
    (0.6667, 0.5, 1.0, 0.5)
    """
    items = list(items)
    if not items:
        raise ValueError("a risk-coverage point needs at least one item")
    answered = [i for i in items if answered_at(i, threshold)]
    right = sum(i.correct and i.answerable for i in answered)
    answerable = [i for i in items if i.answerable]
    unanswerable = [i for i in items if not i.answerable]
    accuracy = round(right / len(answered), 4) if answered else None
    return Point(
        threshold=threshold, coverage=round(len(answered) / len(items), 4), accuracy=accuracy,
        risk=None if accuracy is None else round(1 - accuracy, 4), answered=len(answered), questions=len(items),
        answerable_right=round(sum(answered_at(i, threshold) and i.correct for i in answerable) / len(answerable), 4)
        if answerable else 0.0,
        unanswerable_refused=round(sum(not answered_at(i, threshold) for i in unanswerable) / len(unanswerable), 4)
        if unanswerable else 0.0)


def thresholds(items: Iterable[Item]) -> list[float]:
    """Every bar at which the outcome changes, highest first: above every score (inf), then each finite score.

    >>> thresholds([Item(0.2, True, True), Item(0.5, False, False), Item(0.2, False, True), Item(None, False, True)])
    [inf, 0.5, 0.2]
    """
    finite = sorted({i.score for i in items if i.score is not None and not math.isinf(i.score)}, reverse=True)
    return [math.inf, *finite]


def curve(items: Sequence[Item]) -> list[Point]:
    """The risk-coverage curve: one point per bar of :func:`thresholds`, from no answer to the most answers."""
    return [point_at(items, t) for t in thresholds(items)]


def aurc(points: Sequence[Point]) -> float:
    """Area under the risk-coverage curve (lower is better): each point's risk weighted by the coverage it
    adds over the point before it (the mean risk of answering the questions one by one, best score first).

    >>> items = [Item(0.9, True, True), Item(0.6, False, False), Item(0.4, True, True), Item(None, False, False)]
    >>> aurc(curve(items))
    0.2083
    """
    area, previous = 0.0, 0.0
    for p in sorted(points, key=lambda p: p.coverage):
        if p.risk is not None and p.coverage > previous:
            area += (p.coverage - previous) * p.risk
            previous = p.coverage
    return round(area, 4)


def balanced(point: Point) -> float:
    """The mean of the two rates a refusal benchmark reports: answerable answered right, unanswerable refused.

    >>> balanced(Point(0.5, 0.5, 0.5, 0.5, 2, 4, 0.5, 1.0))
    0.75
    """
    return round((point.answerable_right + point.unanswerable_refused) / 2, 4)


def balanced_standard_error(point: Point, n_answerable: int, n_unanswerable: int) -> float:
    """Standard error of :func:`balanced` (two independent rates on their own counts).

    >>> balanced_standard_error(Point(0.5, 0.5, 0.5, 0.5, 2, 4, 0.5, 0.5), 100, 100)
    0.0354
    """
    a, u = point.answerable_right, point.unanswerable_refused
    return round(math.sqrt(a * (1 - a) / max(n_answerable, 1) + u * (1 - u) / max(n_unanswerable, 1)) / 2, 4)


def choose_threshold(items: Sequence[Item], floor: float = 0.0) -> tuple[float, dict]:
    """The bar a tuning split picks: the highest :func:`balanced` mean, then the one-standard-error rule
    leaning towards answering (the lowest bar within one standard error of the best); bars below ``floor``
    (the graph's own lowest bar) are not candidates. Returns the bar and how it was chosen.

    >>> items = [Item(0.9, True, True), Item(0.8, True, True), Item(0.3, False, False), Item(0.2, False, False)]
    >>> choose_threshold(items)[0]
    0.8
    """
    items = list(items)
    n_answerable = sum(i.answerable for i in items)
    candidates = [t for t in thresholds(items) if t >= floor] + ([floor] if floor not in thresholds(items) else [])
    points = {t: point_at(items, t) for t in candidates}
    best = max(candidates, key=lambda t: (balanced(points[t]), -t))
    se = balanced_standard_error(points[best], n_answerable, len(items) - n_answerable)
    within = [t for t in candidates if balanced(points[t]) >= balanced(points[best]) - se]
    chosen = min(within)
    return chosen, {"best_balanced_threshold": best, "best_balanced": balanced(points[best]), "standard_error": se,
                    "chosen_balanced": balanced(points[chosen])}


def curves_payload(named: Mapping[str, Sequence[Item]], defaults: Mapping[str, float]) -> dict[str, dict]:
    """Each curve as JSON-friendly points, with its area and the point at its default bar marked."""
    out = {}
    for name, items in named.items():
        points = curve(items)
        out[name] = {"points": [p.as_dict() for p in points], "aurc": aurc(points),
                     "default": {"threshold": defaults[name], **point_at(items, defaults[name]).as_dict()}}
    return out


__all__ = ["Item", "Point", "answered_at", "aurc", "balanced", "balanced_standard_error", "choose_threshold", "curve",
           "curves_payload", "point_at", "thresholds"]
