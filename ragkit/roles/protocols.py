"""The role contracts the RAG graphs share: what each role takes and returns, and how a builder checks and
picks a role. A family only some graphs use has a module of its own: Self-RAG's answer grader's
(:mod:`ragkit.roles.answer_grader_protocols`), the judge's (:mod:`ragkit.roles.judge_protocols`), the statute
QA graph's (:mod:`ragkit.roles.statute_protocols`) and the supervisor's team's (:mod:`ragkit.roles.agent_protocols`).

A role has a local implementation (:mod:`ragkit.offline`: offline, deterministic) and an LLM one
(:mod:`ragkit.roles.llm`: a prompt plus structured output). Graph builders take roles as arguments, so
either, a scripted fake or a plain function can be swapped in without touching the graph. Every result is
a frozen dataclass: decisions are ``bool`` or ``Literal`` values, never strings to compare; ``note`` is a
short reason for traces; ``fallback`` is true when an LLM role took its documented safe default.

A builder checks every role it is given when the graph is built (:func:`as_role`) and picks the rest
(:func:`choose`): the role you passed, else the LLM role on the chat model, else the local one.

>>> def shout(question, documents):
...     return Answer(question.upper())
>>> as_role(shout, Writer, "writer").write("hi", []).text
'HI'
>>> as_role(object(), Writer, "writer")
Traceback (most recent call last):
...
TypeError: writer= needs a Writer: an object with write(question, documents) -> Answer, or a function of the same arguments; got object
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar, get_args, runtime_checkable

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


# ---------------------------------------------------------------- router
@dataclass(frozen=True)
class RouteSpec:
    """One destination a router can choose, described the way a prompt would describe it.

    ``description`` says what the route answers, ``examples`` are questions it should receive. A local
    router also reads two optional declarations: ``serves`` names kinds of question the route answers
    whatever their topic (``"fresh"``: time-bound information, ``"general"``: general knowledge; the
    signals are in :mod:`ragkit.offline.router`), and ``templates`` are example questions over the route's
    documents' metadata (``"Is the {title} {dietary}?"``), filled from its data when it has documents.
    """

    name: str
    description: str
    examples: tuple[str, ...] = ()
    serves: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteDecision:
    """A router's choice; ``scores`` (route name -> score) and ``margin`` (best minus runner-up) when it has scores."""

    route: str
    confidence: float
    note: str = ""
    fallback: bool = False
    scores: Mapping[str, float] = field(default_factory=dict)
    margin: float | None = None


def check_routes(routes: Sequence[RouteSpec], fallback: str | None) -> tuple[tuple[RouteSpec, ...], str]:
    """Validate route specs (non-empty, unique names) and resolve the fallback (default: the last route)."""
    routes = tuple(routes)
    if not routes:
        raise ValueError("a router needs at least one RouteSpec")
    names = [r.name for r in routes]
    if len(set(names)) != len(names):
        raise ValueError(f"route names must be unique, got {names}")
    for spec in routes:
        if not isinstance(spec, RouteSpec):
            raise TypeError(f"routes must be RouteSpec objects, got {type(spec).__name__}")
        if not spec.description.strip() and not spec.examples:
            raise ValueError(f"route {spec.name!r} has neither a description nor examples")
    fallback = names[-1] if fallback is None else fallback
    if fallback not in names:
        raise ValueError(f"fallback route {fallback!r} is not one of the routes {names}")
    return routes, fallback


@runtime_checkable
class Router(Protocol):
    def route(self, question: str) -> RouteDecision: ...


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


# ---------------------------------------------------------------- intent classifier (the advanced pipeline)
IntentRoute = Literal["rag", "chitchat"]
INTENT_ROUTES: tuple[str, ...] = get_args(IntentRoute)


@dataclass(frozen=True)
class Intent:
    """What a message wants: a search (``rag``) or a reply to small talk (``chitchat``)."""

    route: IntentRoute
    confidence: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class IntentClassifier(Protocol):
    def classify(self, question: str) -> Intent: ...


@runtime_checkable
class SmallTalk(Protocol):
    """The reply to a message that is small talk (a greeting, thanks, "who are you?")."""

    def reply(self, question: str) -> str: ...


# ---------------------------------------------------------------- query transformer (the advanced pipeline)
MAX_ALTERNATIVE_CHARS = 500  # an alternative query longer than this is not a query
MAX_HYPOTHETICAL_CHARS = 2_000


@dataclass(frozen=True)
class QueryTransform:
    """Alternative queries (the question itself not included) and a hypothetical answer ("" for none)."""

    queries: tuple[str, ...] = ()
    hypothetical: str = ""
    note: str = ""
    fallback: bool = False


@runtime_checkable
class QueryTransformer(Protocol):
    """``uses_first_pass`` (an attribute, default False): the graph passes the documents of a first-pass search."""

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform: ...


def new_queries(candidates: Sequence[str], question: str, tried: Sequence[str], limit: int) -> tuple[str, ...]:
    """Clean candidate queries: whitespace collapsed, empty, over-long, repeated or already tried ones dropped.

    >>> new_queries(["  bm25  idf ", "BM25 idf", "what is bm25", "", "tf-idf"], "What is BM25?", ["tf-idf"], 5)
    ('bm25 idf', 'what is bm25')
    """
    seen = {" ".join(q.split()).lower() for q in [question, *tried]}
    out: list[str] = []
    for candidate in candidates:
        query = " ".join(str(candidate).split())
        if query and len(query) <= MAX_ALTERNATIVE_CHARS and query.lower() not in seen:
            seen.add(query.lower())
            out.append(query)
    return tuple(out[:limit])


# ---------------------------------------------------------------- tool planner (the tool loop)
@runtime_checkable
class ToolPlanner(Protocol):
    """A chat model that proposes tool calls: ``bind_tools(tools)`` gives a runnable whose ``invoke(messages)``
    returns an ``AIMessage`` with ``tool_calls`` (any LangChain chat model with tool calling, or the offline
    ``LocalToolPlanner``). It only proposes; the tool loop's guards decide."""

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
    one); a plain function is accepted where the protocol has one method. Anything else is a ``TypeError``
    naming the keyword, the methods needed and what was given.
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
    """The role a builder uses: ``given`` (checked by :func:`as_role`); else ``llm(model)`` when a chat model
    is set; else ``local()``.

    >>> choose(None, Writer, "writer", model=None, llm=lambda m: "llm", local=lambda: "local")
    'local'
    """
    if given is not None:
        return as_role(given, protocol, keyword)
    return llm(model) if model is not None else local()


__all__ = ['Answer', 'arguments', 'as_role', 'check_routes', 'choose', 'DocumentGrader', 'FunctionRole', 'Grade', 'GradeEach', 'Groundedness', 'HallucinationGrader', 'Intent', 'INTENT_ROUTES', 'IntentClassifier', 'IntentRoute', 'is_refusal', 'MAX_ALTERNATIVE_CHARS', 'MAX_HYPOTHETICAL_CHARS', 'methods_of', 'new_queries', 'NOT_ENOUGH_INFORMATION', 'QueryTransform', 'QueryTransformer', 'QuestionRewriter', 'RouteDecision', 'Router', 'RouteSpec', 'signature', 'SmallTalk', 'takes', 'ToolPlanner', 'Writer']
