"""The package surface: what ``import ragkit`` promises exists, is documented, and keeps its contracts."""

import inspect

import pytest

import ragkit
from ragkit import roles


def test_every_exported_name_exists_and_is_documented():
    for name in ragkit.__all__:
        obj = getattr(ragkit, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), f"ragkit.{name} has no docstring"


@pytest.mark.parametrize(
    ("cls", "protocol"),
    [
        (roles.LocalRouter, roles.Router),
        (roles.LocalGrader, roles.DocumentGrader),
        (roles.LocalRewriter, roles.QuestionRewriter),
        (roles.LocalWriter, roles.Writer),
        (roles.LocalHallucinationGrader, roles.HallucinationGrader),
        (roles.LocalAnswerGrader, roles.AnswerGrader),
        (roles.LocalJudge, roles.Judge),
        (roles.LLMGrader, roles.DocumentGrader),
        (roles.LLMRewriter, roles.QuestionRewriter),
        (roles.LLMWriter, roles.Writer),
        (roles.LLMHallucinationGrader, roles.HallucinationGrader),
        (roles.LLMAnswerGrader, roles.AnswerGrader),
        (roles.LLMJudge, roles.Judge),
    ],
)
def test_role_classes_implement_their_contract(cls, protocol):
    methods = [m for m in dir(protocol) if not m.startswith("_") and callable(getattr(protocol, m, None))]
    assert methods, protocol
    for method in methods:
        assert callable(getattr(cls, method, None)), f"{cls.__name__} lacks {method}()"
