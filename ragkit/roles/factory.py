"""The one role factory: local roles, or LLM roles on a chat model, for every graph builder.

Every builder takes ``chat_model=`` (and optionally ``judge_model=``) plus one keyword per role it uses,
and asks :func:`make_roles` for the rest::

    roles = make_roles(chat_model, judge_model=judge_model, grader=grader, writer=writer)
    roles.grader   # your grader if you passed one; else LLMGrader(judge_model or chat_model); else LocalGrader()

- ``chat_model=None`` (the default): every role is its ``Local...`` implementation, offline.
- ``chat_model=m``: every role is its ``LLM...`` implementation on ``m``; judging roles (router, graders,
  verifier, judge) run on ``judge_model`` when one is given, a cheaper model being enough to judge
  (``load_chat_model("fast")``), while writing roles (writer, rewriter) use ``chat_model``.
- a role passed by keyword always wins, so one part can be swapped for a scripted fake in a test.

Roles are built on first use and then kept, so a graph that never grades builds no grader.

>>> roles = make_roles()
>>> type(roles.rewriter).__name__
'LocalRewriter'
>>> from ragkit.core.chat_models import scripted
>>> type(make_roles(scripted("{}")).rewriter).__name__
'LLMRewriter'

Simplification: one chat model (two at most) for all roles; for a different model per role, pass that
role built by hand (``grader=LLMGrader(other_model)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel

from ragkit.roles.protocols import RouteSpec

# role name -> (judging role?, local class path, LLM class path). A local class is built with the keyword
# arguments its constructor takes among ``embedder`` and the other roles (the judge gets ``grader``); an
# LLM class with the chat model. A new role is one line here, and its two classes at those paths.
ROLES: dict[str, tuple[bool, str, str]] = {
    "grader": (True, "ragkit.offline.graders:LocalGrader", "ragkit.roles.llm:LLMGrader"),
    "rewriter": (False, "ragkit.offline.writing:LocalRewriter", "ragkit.roles.llm:LLMRewriter"),
    "writer": (False, "ragkit.offline.writing:LocalWriter", "ragkit.roles.llm:LLMWriter"),
    "hallucination_grader": (True, "ragkit.offline.claims:LocalHallucinationGrader",
                             "ragkit.roles.llm:LLMHallucinationGrader"),
    "answer_grader": (True, "ragkit.offline.graders:LocalAnswerGrader", "ragkit.roles.llm:LLMAnswerGrader"),
    "judge": (True, "ragkit.offline.judge:LocalJudge", "ragkit.roles.llm:LLMJudge"),
    "question_classifier": (True, "ragkit.roles.question_classifier:LocalQuestionClassifier",
                            "ragkit.roles.question_classifier:LLMQuestionClassifier"),
    "evidence_grader": (True, "ragkit.roles.evidence:LocalEvidenceGrader", "ragkit.roles.evidence:LLMEvidenceGrader"),
}
# Roles built with extra arguments (see the methods of Roles). The tool loop picks its planner itself.
SPECIAL_ROLES = ("router",)
ROLE_NAMES: tuple[str, ...] = (*ROLES, *SPECIAL_ROLES)


def _load(path: str) -> Any:
    import importlib

    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def _check_model(value: Any, name: str) -> BaseChatModel | None:
    if value is not None and not isinstance(value, BaseChatModel):
        raise TypeError(f"{name} must be a LangChain chat model (BaseChatModel) or None, got {type(value).__name__}")
    return value


class Roles:
    """The roles of one graph: overrides first, then LLM roles on the chat model, then local roles."""

    def __init__(self, chat_model: BaseChatModel | None = None, judge_model: BaseChatModel | None = None,
                 embedder: Embeddings | None = None, **overrides: Any):
        unknown = sorted(set(overrides) - set(ROLE_NAMES))
        if unknown:
            raise TypeError(f"unknown role(s) {unknown}; the roles are {list(ROLE_NAMES)}")
        self.chat_model = _check_model(chat_model, "chat_model")
        self.judge_model = _check_model(judge_model, "judge_model")
        if self.judge_model is not None and self.chat_model is None:
            raise ValueError("judge_model needs a chat_model too (the writing roles run on chat_model)")
        self.embedder = embedder
        self._built: dict[str, Any] = {name: role for name, role in overrides.items() if role is not None}

    @property
    def llm(self) -> bool:
        """True when the default roles are LLM roles."""
        return self.chat_model is not None

    def model_for(self, name: str) -> BaseChatModel | None:
        """The chat model a role runs on: ``judge_model`` for judging roles when given, else ``chat_model``."""
        judging = ROLES[name][0] if name in ROLES else name == "router"
        return (self.judge_model or self.chat_model) if judging else self.chat_model

    def get(self, name: str) -> Any:
        """The role called ``name`` (built on first use)."""
        if name not in ROLES:
            raise KeyError(f"{name!r} is not a role built without arguments; roles: {list(ROLES)}")
        if name not in self._built:
            _, local, llm = ROLES[name]
            model = self.model_for(name)
            self._built[name] = _load(llm)(model) if model is not None else self._local(_load(local))
        return self._built[name]

    def _local(self, cls: type) -> Any:
        """Build a local role, giving it the embedder and the roles its constructor asks for by name."""
        import inspect

        params = inspect.signature(cls).parameters
        kwargs: dict[str, Any] = {"embedder": self.embedder} if "embedder" in params else {}
        kwargs.update({name: self.get(name) for name in params if name in ROLES and name != "embedder"})
        return cls(**kwargs)

    grader = property(lambda self: self.get("grader"), doc="document grader")
    rewriter = property(lambda self: self.get("rewriter"), doc="question rewriter")
    writer = property(lambda self: self.get("writer"), doc="writer")
    hallucination_grader = property(lambda self: self.get("hallucination_grader"), doc="hallucination grader / verifier")
    answer_grader = property(lambda self: self.get("answer_grader"), doc="answer grader")
    judge = property(lambda self: self.get("judge"), doc="CRAG judge")
    question_classifier = property(lambda self: self.get("question_classifier"), doc="statute question classifier")
    evidence_grader = property(lambda self: self.get("evidence_grader"), doc="evidence grader (sufficient / short)")

    def router(self, routes: Sequence[RouteSpec], fallback: str | None = None,
               documents: Mapping[str, Sequence[Document]] | None = None) -> Any:
        """A router over ``routes``: the override, else ``LLMRouter`` on the (judge) model, else ``LocalRouter``
        with ``documents`` (route name -> the documents that route searches) as corpus evidence."""
        if "router" not in self._built:
            from ragkit.offline.router import LocalRouter
            from ragkit.roles.llm import LLMRouter

            model = self.model_for("router")
            self._built["router"] = (LLMRouter(model, routes, fallback=fallback) if model is not None else
                                     LocalRouter(routes, fallback=fallback, embedder=self.embedder, documents=documents))
        return self._built["router"]


def make_roles(chat_model: BaseChatModel | None = None, *, judge_model: BaseChatModel | None = None,
               embedder: Embeddings | None = None, **overrides: Any) -> Roles:
    """The role set a graph builder uses (see the module docstring); ``None`` overrides are ignored."""
    return Roles(chat_model, judge_model, embedder, **overrides)


__all__ = ["ROLE_NAMES", "Roles", "make_roles"]
