"""LLM roles: router, graders, rewriter, writer, verifier, judge, tool planner.

``ragkit.roles.base`` holds the contracts; each role has a ``Local...`` and an ``LLM...`` implementation:

| role                 | local (offline, deterministic)          | LLM (prompt + structured output) |
|----------------------|-----------------------------------------|----------------------------------|
| router               | ``LocalRouter`` (nearest prototype)     | ``LLMRouter``                    |
| document grader      | ``LocalGrader`` (logistic mix)          | ``LLMGrader``                    |
| question rewriter    | ``LocalRewriter`` (RM3 feedback)        | ``LLMRewriter``                  |
| writer               | ``LocalWriter`` (extractive, MMR)       | ``LLMWriter``                    |
| hallucination grader | ``LocalHallucinationGrader``            | ``LLMHallucinationGrader``       |
| answer grader        | ``LocalAnswerGrader`` (intent+coverage) | ``LLMAnswerGrader``              |
| judge (CRAG)         | ``LocalJudge`` (grades + ambiguity)     | ``LLMJudge``                     |
| tool planner         | ``LocalToolPlanner`` (clauses + spec examples: IDF keywords, MiniLM) | any chat model with ``bind_tools`` |
"""

from ragkit.roles.answer_grader import LLMAnswerGrader, LocalAnswerGrader
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
from ragkit.roles.grader import LLMGrader, LocalGrader
from ragkit.roles.hallucination import LLMHallucinationGrader, LocalHallucinationGrader
from ragkit.roles.judge import LLMJudge, LocalJudge
from ragkit.roles.llm import StructuredCall, call_structured
from ragkit.roles.rewriter import LLMRewriter, LocalRewriter
from ragkit.roles.router import LLMRouter, LocalRouter
from ragkit.roles.tool_planner import LocalToolPlanner
from ragkit.roles.writer import LLMWriter, LocalWriter

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
    "LLMAnswerGrader",
    "LLMGrader",
    "LLMHallucinationGrader",
    "LLMJudge",
    "LLMRewriter",
    "LLMRouter",
    "LLMWriter",
    "LocalAnswerGrader",
    "LocalGrader",
    "LocalHallucinationGrader",
    "LocalJudge",
    "LocalRewriter",
    "LocalRouter",
    "LocalToolPlanner",
    "LocalWriter",
    "QuestionRewriter",
    "RouteDecision",
    "RouteSpec",
    "Router",
    "StructuredCall",
    "Usefulness",
    "Verdict",
    "Writer",
    "call_structured",
]
