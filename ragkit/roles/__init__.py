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
| query analyser       | ``LocalQueryAnalyzer`` (patterns + the data's own field values) | ``LLMQueryAnalyzer`` |
| intent classifier    | ``LocalIntentClassifier`` (nearest labelled examples) | ``LLMIntentClassifier``  |
| query transformer    | ``LocalQueryTransformer`` (RM3 alternatives + extractive passage) | ``LLMQueryTransformer`` |
| question classifier  | ``LocalQuestionClassifier`` (statute question types) | ``LLMQuestionClassifier`` |
| evidence grader      | ``LocalEvidenceGrader`` (statute: enough to answer?) | ``LLMEvidenceGrader``    |
| supervisor           | ``LocalSupervisor`` (clauses + nearest examples) | ``LLMSupervisor``, ``LLMStructuredSupervisor`` |
| analyst, coder, aggregator | ``LocalAnalyst``, ``LocalCoder``, ``LocalAggregator`` | ``LLMAnalyst``, ``LLMCoder``, ``LLMAggregator`` |
"""

from ragkit.roles.aggregator import LLMAggregator, LocalAggregator
from ragkit.roles.analysis import LLMAnalyst, LocalAnalyst
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
from ragkit.roles.coder import LLMCoder, LocalCoder
from ragkit.roles.evidence import EvidenceGrade, LLMEvidenceGrader, LocalEvidenceGrader
from ragkit.roles.grader import LLMGrader, LocalGrader
from ragkit.roles.hallucination import LLMHallucinationGrader, LocalHallucinationGrader
from ragkit.roles.intent import Intent, IntentClassifier, LLMIntentClassifier, LocalIntentClassifier
from ragkit.roles.judge import LLMJudge, LocalJudge
from ragkit.roles.llm import StructuredCall, call_structured
from ragkit.roles.query_transform import LLMQueryTransformer, LocalQueryTransformer, QueryTransform, QueryTransformer
from ragkit.roles.query_analysis import LLMQueryAnalyzer, LocalQueryAnalyzer, QueryAnalysis
from ragkit.roles.question_classifier import LLMQuestionClassifier, LocalQuestionClassifier, QuestionType
from ragkit.roles.rewriter import LLMRewriter, LocalRewriter
from ragkit.roles.router import LLMRouter, LocalRouter
from ragkit.roles.supervisor import LLMStructuredSupervisor, LLMSupervisor, LocalSupervisor, Plan
from ragkit.roles.supervisor_types import AgentAnswer
from ragkit.roles.tool_planner import LocalToolPlanner
from ragkit.roles.writer import LLMWriter, LocalWriter

__all__ = [
    "AgentAnswer",
    "Answer",
    "AnswerGrader",
    "DocumentGrader",
    "EvidenceGrade",
    "Grade",
    "Groundedness",
    "HallucinationGrader",
    "Intent",
    "IntentClassifier",
    "Judge",
    "Judgement",
    "LLMAggregator",
    "LLMAnalyst",
    "LLMAnswerGrader",
    "LLMCoder",
    "LLMEvidenceGrader",
    "LLMGrader",
    "LLMHallucinationGrader",
    "LLMIntentClassifier",
    "LLMJudge",
    "LLMQueryTransformer",
    "LLMQueryAnalyzer",
    "LLMQuestionClassifier",
    "LLMRewriter",
    "LLMRouter",
    "LLMStructuredSupervisor",
    "LLMSupervisor",
    "LLMWriter",
    "LocalAggregator",
    "LocalAnalyst",
    "LocalAnswerGrader",
    "LocalCoder",
    "LocalEvidenceGrader",
    "LocalGrader",
    "LocalHallucinationGrader",
    "LocalIntentClassifier",
    "LocalJudge",
    "LocalQueryTransformer",
    "LocalQueryAnalyzer",
    "LocalQuestionClassifier",
    "LocalRewriter",
    "LocalRouter",
    "LocalSupervisor",
    "LocalToolPlanner",
    "LocalWriter",
    "NOT_ENOUGH_INFORMATION",
    "Plan",
    "QueryAnalysis",
    "QueryTransform",
    "QueryTransformer",
    "QuestionRewriter",
    "QuestionType",
    "RouteDecision",
    "RouteSpec",
    "Router",
    "StructuredCall",
    "Usefulness",
    "Verdict",
    "Writer",
    "call_structured",
]
