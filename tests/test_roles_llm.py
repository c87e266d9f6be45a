"""The LLM roles on a scripted chat model: valid output, malformed text, a wrong Literal, a failing call.

Each LLM role must turn every failure into its documented safe default with ``fallback=True``, never an
exception. The shared contract tests at the bottom run the local and the scripted-LLM implementation of
each interface through the same assertions.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from langchain_core.documents import Document

from ragkit.core.chat_models import scripted
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.router import LocalRouter
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles.answer_grader_protocols import AnswerGrader, Usefulness
from ragkit.roles.llm import (
    WRITER_PROMPT,
    LLMGrader,
    LLMHallucinationGrader,
    LLMRewriter,
    LLMWriter,
)
from ragkit.roles.llm_answer_grader import LLMAnswerGrader
from ragkit.roles.llm_routing import ROUTER_PROMPT, LLMRouter
from ragkit.roles.protocols import (
    NOT_ENOUGH_INFORMATION,
    Answer,
    DocumentGrader,
    Grade,
    Groundedness,
    HallucinationGrader,
    QuestionRewriter,
    Writer,
)
from ragkit.roles.router_protocols import RouteDecision, Router
from tests.test_roles_local import DOCS, ROUTES

FAILURES = {
    "malformed": "Sure! The answer is yes.",
    "wrong_literal": '{"route": "search_moon", "relevant": "maybe", "grounded": "perhaps", "useful": "kinda", "answered": "?"}',
    "exception": RuntimeError("503 service unavailable"),
}


# ---------------------------------------------------------------- valid output
def test_llm_router_valid_and_prompt_lists_routes() -> None:
    model = scripted('{"route": "search_wine", "reason": "asks about wine"}')
    decision = LLMRouter(model, ROUTES, fallback="llm_fallback").route("A red for the lamb?")
    assert decision == RouteDecision("search_wine", 1.0, "asks about wine")
    shown = "\n".join(str(m.content) for m in model.calls[0]["messages"])
    assert all(spec.name in shown for spec in ROUTES) and "A red for the lamb?" in shown


def test_llm_grader_valid() -> None:
    assert LLMGrader(scripted('{"relevant": true}')).grade("Is the soup vegan?", DOCS[1]) == Grade(True, 1.0)
    grades = LLMGrader(scripted({"relevant": False}, {"relevant": True})).grade_many("Is the soup vegan?", DOCS[:2])
    assert [g.relevant for g in grades] == [False, True]


def test_llm_writer_keeps_only_real_citations() -> None:
    model = scripted({"answer": "The soup is vegan [2] [9].", "answered": True})
    answer = LLMWriter(model).write("Is the soup vegan?", DOCS)
    assert answer == Answer("The soup is vegan [2].", (2,))
    system = str(model.calls[0]["messages"][0].content)
    assert "[2]\nTomato soup" in system  # documents are numbered from 1 in the prompt


def test_llm_writer_refusal_is_explicit() -> None:
    answer = LLMWriter(scripted({"answer": "No idea.", "answered": False})).write("Who is the chef?", DOCS)
    assert answer == Answer(NOT_ENOUGH_INFORMATION, (), answered=False)


def test_llm_hallucination_grader_valid_and_contradictory() -> None:
    ok = LLMHallucinationGrader(scripted({"grounded": True, "unsupported": []})).check(DOCS, "The soup is vegan.")
    assert ok == Groundedness(True, (), 1.0)
    odd = LLMHallucinationGrader(scripted({"grounded": True, "unsupported": ["It costs 9 euros."]}))
    assert odd.check(DOCS, "The soup is vegan. It costs 9 euros.").grounded is False


def test_llm_hallucination_grader_checks_claims() -> None:
    model = scripted({"grounded": False, "unsupported": ["it is served with chips"]})
    result = LLMHallucinationGrader(model).check(DOCS, "The soup is vegan, and it is served with chips.")
    assert result == Groundedness(False, ("it is served with chips",), 0.0)
    system = str(model.calls[0]["messages"][0].content)
    assert "claim by claim" in system and "negation" in system and "quantifiers" in system


def test_llm_rewriter_valid_and_too_long() -> None:
    assert LLMRewriter(scripted({"query": "  vegan   soup  "})).rewrite("Is the soup vegan?") == "vegan soup"
    rewriter = LLMRewriter(scripted({"query": "x" * 600}))
    assert rewriter.rewrite("Is the soup vegan?") == "Is the soup vegan?" and "unusable" in rewriter.last_note


def test_llm_answer_grader_refusal_is_decided_by_code() -> None:
    model = scripted({"useful": True})
    assert LLMAnswerGrader(model).grade("Is the soup vegan?", NOT_ENOUGH_INFORMATION).useful is False
    assert model.calls == []  # no model call needed for a refusal


# ---------------------------------------------------------------- failures -> documented safe defaults
@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_llm_roles_fall_back_safely(failure: str) -> None:
    reply = FAILURES[failure]
    router = LLMRouter(scripted(reply), ROUTES, fallback="llm_fallback").route("A red for the lamb?")
    assert (router.route, router.fallback) == ("llm_fallback", True) and router.note

    grade = LLMGrader(scripted(reply)).grade("Is the soup vegan?", DOCS[1])
    assert (grade.relevant, grade.fallback) == (True, True)  # kept: evidence is not dropped on a failure

    answer = LLMWriter(scripted(reply)).write("Is the soup vegan?", DOCS)
    assert (answer.answered, answer.fallback, answer.text) == (False, True, NOT_ENOUGH_INFORMATION)

    grounded = LLMHallucinationGrader(scripted(reply)).check(DOCS, "The soup is vegan.")
    assert (grounded.grounded, grounded.fallback) == (False, True)  # fails closed

    useful = LLMAnswerGrader(scripted(reply)).grade("Is the soup vegan?", "Yes, it is vegan.")
    assert (useful.useful, useful.fallback) == (True, True)

    rewriter = LLMRewriter(scripted(reply))
    assert rewriter.rewrite("Is the soup vegan?", DOCS) == "Is the soup vegan?" and rewriter.last_note


def test_prompts_are_chat_prompt_templates_with_their_variables() -> None:
    assert set(ROUTER_PROMPT.input_variables) == {"routes", "fallback", "question"}
    assert set(WRITER_PROMPT.input_variables) == {"documents", "question"}
    assert NOT_ENOUGH_INFORMATION in WRITER_PROMPT.format(documents="d", question="q")


# ---------------------------------------------------------------- one contract, every implementation
def _scripted(*replies: Any) -> Callable[[], Any]:
    return lambda: scripted(*replies)


ROUTERS = {
    "local": lambda: LocalRouter(ROUTES, fallback="llm_fallback"),
    "llm": lambda: LLMRouter(scripted({"route": "search_menu"}), ROUTES, fallback="llm_fallback"),
}
GRADERS = {"local": LocalGrader, "llm": lambda: LLMGrader(scripted({"relevant": True}, {"relevant": False}))}
WRITERS = {"local": LocalWriter, "llm": lambda: LLMWriter(scripted({"answer": "The soup is vegan [2].", "answered": True}))}
VERIFIERS = {"local": LocalHallucinationGrader, "llm": lambda: LLMHallucinationGrader(scripted({"grounded": True}))}
ANSWER_GRADERS = {"local": LocalAnswerGrader, "llm": lambda: LLMAnswerGrader(scripted({"useful": True}))}
REWRITERS = {"local": LocalRewriter, "llm": lambda: LLMRewriter(scripted({"query": "Is the soup vegan? vegan tomato soup"}))}


@pytest.mark.parametrize("kind", ["local", "llm"])
def test_router_contract(kind: str) -> None:
    router = ROUTERS[kind]()
    assert isinstance(router, Router)
    assert router.route("Is the tomato soup gluten free?").route == "search_menu"
    with pytest.raises(ValueError):
        router.route(" ")


@pytest.mark.parametrize("kind", ["local", "llm"])
def test_grader_contract(kind: str) -> None:
    grader = GRADERS[kind]()
    assert isinstance(grader, DocumentGrader)
    grades = grader.grade_many("Is the tomato soup vegan?", [DOCS[1], DOCS[3]])
    assert [g.relevant for g in grades] == [True, False] and grades[0].score > grades[1].score
    with pytest.raises(ValueError):
        grader.grade("", DOCS[0])


@pytest.mark.parametrize("kind", ["local", "llm"])
def test_writer_contract(kind: str) -> None:
    writer = WRITERS[kind]()
    assert isinstance(writer, Writer)
    answer = writer.write("Is the tomato soup vegan?", DOCS)
    assert answer.answered and 2 in answer.citations and "vegan" in answer.text
    with pytest.raises(ValueError):
        writer.write("  ", DOCS)
    with pytest.raises(ValueError, match="characters long"):
        writer.write("Is it vegan?", [Document(page_content="soup " * 30_000)])


@pytest.mark.parametrize("kind", ["local", "llm"])
def test_hallucination_grader_contract(kind: str) -> None:
    verifier = VERIFIERS[kind]()
    assert isinstance(verifier, HallucinationGrader)
    assert verifier.check(DOCS, "The soup is vegan [2].").grounded
    assert verifier.check(DOCS, NOT_ENOUGH_INFORMATION).grounded
    with pytest.raises(TypeError):
        verifier.check(DOCS[0], "The soup is vegan.")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["local", "llm"])
def test_answer_grader_contract(kind: str) -> None:
    grader = ANSWER_GRADERS[kind]()
    assert isinstance(grader, AnswerGrader)
    result = grader.grade("Is the tomato soup vegan?", "Yes, the tomato soup is vegan [2].")
    assert isinstance(result, Usefulness) and result.useful
    assert not grader.grade("Is the tomato soup vegan?", NOT_ENOUGH_INFORMATION).useful


@pytest.mark.parametrize("kind", ["local", "llm"])
def test_rewriter_contract(kind: str) -> None:
    rewriter = REWRITERS[kind]()
    assert isinstance(rewriter, QuestionRewriter)
    query = rewriter.rewrite("Is the soup vegan?", DOCS[1:2])
    assert "soup" in query and "vegan" in query and query != "Is the soup vegan?"
