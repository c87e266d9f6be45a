"""LLM roles: router, graders, rewriter, writer, verifier, judge, tool planner.

``ragkit.roles.base`` holds the contracts; each role has a ``Local...`` and an ``LLM...`` implementation.
"""

from ragkit.roles.base import (
    NOT_ENOUGH_INFORMATION,
    Answer,
    AnswerGrader,
    DocumentGrader,
    Grade,
    Groundedness,
    HallucinationGrader,
    Judge,
    Judgement,
    QuestionRewriter,
    RouteDecision,
    Router,
    RouteSpec,
    Usefulness,
    Verdict,
    Writer,
)

__all__ = [
    "NOT_ENOUGH_INFORMATION",
    "Answer",
    "AnswerGrader",
    "DocumentGrader",
    "Grade",
    "Groundedness",
    "HallucinationGrader",
    "Judge",
    "Judgement",
    "QuestionRewriter",
    "RouteDecision",
    "RouteSpec",
    "Router",
    "Usefulness",
    "Verdict",
    "Writer",
]
