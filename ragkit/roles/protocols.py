"""The role contracts the RAG graphs share (what each role takes and returns), and how a builder checks and picks a
role. A family only some graphs use has a module of its own (``router_protocols``, ``answer_grader_protocols``,
``judge_protocols``, ``statute_protocols``, ``agent_protocols``; the advanced pipeline's front end: ``llm_queries``).

A role has a local implementation (:mod:`ragkit.offline`) and an LLM one (:mod:`ragkit.roles.llm`), and a
scripted fake or a plain function can stand in for either. Every result is a frozen dataclass: decisions are
``bool`` or ``Literal`` values, never strings to compare; ``note`` is a short reason for traces; ``fallback``
is true when an LLM role took its documented safe default.

What it cannot do: :func:`as_role` checks that the methods exist and a function's arity, not the types a
role returns.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable

from ragkit.core.nlp import strip_citations

NOT_ENOUGH_INFORMATION = "I don't have enough information in the provided documents to answer that."


def is_refusal(answer: str) -> bool:
    """True for an empty answer or the writers' explicit "not enough information".

    >>> is_refusal(NOT_ENOUGH_INFORMATION), is_refusal("Six oysters cost 14 euros [1].")
    (True, False)
    """
    text = strip_citations(answer).strip()
    return not text or text.startswith(NOT_ENOUGH_INFORMATION.rstrip("."))


# ---------------------------------------------------------------- document grader
@dataclass(frozen=True)
class Grade:
    relevant: bool
    score: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class DocumentGrader(Protocol):
    """``grade_many`` is optional: :func:`as_role` adds it (one ``grade`` per document) when it is missing."""

    def grade(self, question: str, document: Document) -> Grade: ...


# ---------------------------------------------------------------- question rewriter
@runtime_checkable
class QuestionRewriter(Protocol):
    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str: ...


# ---------------------------------------------------------------- writer
@dataclass(frozen=True)
class Answer:
    """An answer with ``[n]`` citations; ``citations`` are 1-based indexes into the documents given."""

    text: str
    citations: tuple[int, ...] = ()
    answered: bool = True  # False for an explicit "not enough information"
    fallback: bool = False


@runtime_checkable
class Writer(Protocol):
    def write(self, question: str, documents: Sequence[Document]) -> Answer: ...


# ---------------------------------------------------------------- hallucination grader
@dataclass(frozen=True)
class Groundedness:
    grounded: bool
    unsupported: tuple[str, ...] = ()  # the answer's claims no source supports
    score: float = 1.0
    note: str = ""
    fallback: bool = False


@runtime_checkable
class HallucinationGrader(Protocol):
    def check(self, documents: Sequence[Document], answer: str) -> Groundedness: ...


# ---------------------------------------------------------------- tool planner (the tool loop)
@runtime_checkable
class ToolPlanner(Protocol):
    """A chat model that proposes tool calls (``bind_tools(tools).invoke(messages)`` -> ``AIMessage.tool_calls``):
    any LangChain chat model with tool calling, or ``LocalToolPlanner``. It only proposes; the loop's guards decide."""

    def bind_tools(self, tools: Sequence[Any]) -> Runnable: ...

    def invoke(self, input: Any) -> AIMessage: ...


# ---------------------------------------------------------------- checking and picking roles
R = TypeVar("R")


def methods_of(protocol: type) -> list[str]:
    """The methods a role protocol declares, in order.

    >>> methods_of(DocumentGrader), methods_of(HallucinationGrader)
    (['grade'], ['check'])
    """
    return [name for name, value in vars(protocol).items() if not name.startswith("_") and inspect.isfunction(value)]


class FunctionRole:
    """A plain function standing for a role with one method (``as_role`` builds it)."""

    def __init__(self, method: str, fn: Callable[..., Any]):
        self.method, self.fn = method, fn
        setattr(self, method, fn)

    def __repr__(self) -> str:
        return f"FunctionRole({self.method}={getattr(self.fn, '__name__', self.fn)!r})"


class GradeEach:
    """A grader with only ``grade`` given ``grade_many``: one ``grade`` call per document."""

    def __init__(self, grader: Any):
        self.grader = grader

    def grade(self, question: str, document: Document) -> Grade:
        return self.grader.grade(question, document)

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]:
        return [self.grader.grade(question, d) for d in documents]


def as_role(value: Any, protocol: type, keyword: str) -> Any:
    """``value`` checked as a ``protocol`` role when the graph is built, so a wrong swap fails now, not mid-run.

    An object with the protocol's methods is used as it is (a document grader without ``grade_many`` gets
    one); a plain function is accepted where the protocol has one method.

    >>> as_role(lambda question, documents: Answer(question.upper()), Writer, "writer").write("hi", []).text
    'HI'
    >>> as_role(object(), Writer, "writer")
    Traceback (most recent call last):
    ...
    TypeError: writer= needs a Writer: an object with write(question, documents) -> Answer, or a function of the same arguments; got object
    """
    methods = methods_of(protocol)
    if isinstance(value, type):
        raise TypeError(f"{keyword}= needs a {protocol.__name__} object, got the class {value.__name__}: "
                        f"pass an instance, {value.__name__}(...)")
    if all(callable(getattr(value, m, None)) for m in methods):
        role = value
    elif callable(value) and len(methods) == 1 and takes(value, len(arguments(protocol, methods[0]))):
        role = FunctionRole(methods[0], value)
    else:
        wanted = " and ".join(f"{m}{signature(protocol, m)}" for m in methods)
        plain = ", or a function of the same arguments" if len(methods) == 1 else ""
        raise TypeError(f"{keyword}= needs a {protocol.__name__}: an object with {wanted}{plain}; "
                        f"got {type(value).__name__}")
    if protocol is DocumentGrader and not callable(getattr(role, "grade_many", None)):
        role = GradeEach(role)
    if protocol is ToolPlanner and isinstance(role, BaseChatModel) and type(role).bind_tools is BaseChatModel.bind_tools:
        raise TypeError(f"{keyword}= needs a chat model that can call tools, but {type(value).__name__} does not "
                        "implement bind_tools. Use a chat model with tool calling (Gemini), "
                        "ragkit.core.chat_models.ScriptedChatModel in tests, or leave it None for the offline "
                        "LocalToolPlanner.")
    return role


def arguments(protocol: type, method: str) -> list[str]:
    """The names of a protocol method's arguments (``self`` left out)."""
    return [p for p in inspect.signature(getattr(protocol, method)).parameters if p != "self"]


def signature(protocol: type, method: str) -> str:
    """A method's arguments and result as a reader would write them: ``(question, documents) -> Answer``."""
    annotation = inspect.signature(getattr(protocol, method)).return_annotation
    result = annotation if isinstance(annotation, str) else annotation.__name__
    return f"({', '.join(arguments(protocol, method))}) -> {result}"


def takes(fn: Callable[..., Any], n: int) -> bool:
    """True when ``fn`` can be called with ``n`` positional arguments (a function standing for a method).

    >>> takes(lambda question, document: None, 2), takes(lambda question: None, 2)
    (True, False)
    """
    try:
        inspect.signature(fn).bind(*range(n))
    except TypeError:
        return False
    except ValueError:  # a builtin without a signature: let it be tried
        return True
    return True


def choose(given: Any, protocol: type, keyword: str, *, model: Any, llm: Callable[[Any], R],
           local: Callable[[], R]) -> R:
    """The role a builder uses: ``given`` (checked by :func:`as_role`), else ``llm(model)``, else ``local()``.

    >>> choose(None, Writer, "writer", model=None, llm=lambda m: "llm", local=lambda: "local")
    'local'
    """
    if given is not None:
        return as_role(given, protocol, keyword)
    return llm(model) if model is not None else local()


__all__ = ['Answer', 'arguments', 'as_role', 'choose', 'DocumentGrader', 'FunctionRole', 'Grade', 'GradeEach', 'Groundedness', 'HallucinationGrader', 'is_refusal', 'methods_of', 'NOT_ENOUGH_INFORMATION', 'QuestionRewriter', 'signature', 'takes', 'ToolPlanner', 'Writer']
