"""The package surface: what ``import ragkit`` promises exists, is documented, and keeps its contracts."""

import inspect

import pytest

import ragkit
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.judge import LocalJudge
from ragkit.offline.router import LocalRouter
from ragkit.offline.tool_planner import LocalToolPlanner
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles import llm
from ragkit.roles import protocols as roles
from ragkit.roles.answer_grader_protocols import AnswerGrader
from ragkit.roles.judge_protocols import Judge
from ragkit.roles.llm_answer_grader import LLMAnswerGrader
from ragkit.roles.llm_judge import LLMJudge
from ragkit.roles.router_protocols import Router


def test_every_exported_name_exists_and_is_documented():
    for name in ragkit.__all__:
        obj = getattr(ragkit, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), f"ragkit.{name} has no docstring"


@pytest.mark.parametrize(
    ("cls", "protocol"),
    [
        (LocalRouter, Router),
        (LocalGrader, roles.DocumentGrader),
        (LocalRewriter, roles.QuestionRewriter),
        (LocalWriter, roles.Writer),
        (LocalHallucinationGrader, roles.HallucinationGrader),
        (LocalAnswerGrader, AnswerGrader),
        (LocalJudge, Judge),
        (LocalToolPlanner, roles.ToolPlanner),
        (llm.LLMGrader, roles.DocumentGrader),
        (llm.LLMRewriter, roles.QuestionRewriter),
        (llm.LLMWriter, roles.Writer),
        (llm.LLMHallucinationGrader, roles.HallucinationGrader),
        (LLMAnswerGrader, AnswerGrader),
        (LLMJudge, Judge),
    ],
)
def test_role_classes_implement_their_contract(cls, protocol):
    methods = [m for m in dir(protocol) if not m.startswith("_") and callable(getattr(protocol, m, None))]
    assert methods, protocol
    for method in methods:
        assert callable(getattr(cls, method, None)), f"{cls.__name__} lacks {method}()"
