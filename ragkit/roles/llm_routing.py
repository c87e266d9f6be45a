"""The LLM router: a chat model sends a question to one of a few labelled destinations (menu search, web search, ...).

The route names become a ``Literal`` schema field (:func:`ragkit.roles.llm.choice_schema`), so the answer is
always one of them; the prompt, adapted from the LangGraph Adaptive RAG tutorial, lists each route's
description and up to four of its examples (:func:`format_routes`). A failed or malformed
call goes to the fallback route, the one meant for "none of the above" (``fallback=True``).

Its local stand-in is :class:`ragkit.offline.router.LocalRouter`.

Simplifications: one call, no scores (``confidence`` is 1.0 for a choice, 0.0 for the fallback, not a
probability), and no evidence from the routes' documents: the model sees only the descriptions and examples.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate

from ragkit.core.nlp import clean_query
from ragkit.roles.llm import call_structured, choice_schema
from ragkit.roles.router_protocols import RouteDecision, RouteSpec, check_routes


def format_routes(routes: Sequence[RouteSpec]) -> str:
    """One bullet per route with its description and examples, for a prompt that lists routes (the router's).

    >>> print(format_routes([RouteSpec("wine", "the wine list", ("a red for lamb?",))]))
    - wine: the wine list (e.g. "a red for lamb?")
    """
    lines = []
    for spec in routes:
        examples = "; ".join(f'"{e}"' for e in spec.examples[:4])
        lines.append(f"- {spec.name}: {spec.description}" + (f" (e.g. {examples})" if examples else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------- router
ROUTER_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You are an expert at routing a user question to the right data source.\n"
               "The sources are:\n{routes}\n\n"
               "Pick the one source most likely to hold the answer. If none fits, pick \"{fallback}\"."),
    ("human", "Question: {question}"),
])


class LLMRouter:
    """A chat model picks the route (a ``Literal`` of the route names); on any failure: the fallback route.

    >>> from ragkit.core.chat_models import scripted
    >>> router = LLMRouter(scripted('{"route": "wine"}'), [RouteSpec("wine", "the wine list"),
    ...                    RouteSpec("web", "anything else")], fallback="web")
    >>> router.route("A red for lamb?")
    RouteDecision(route='wine', confidence=1.0, note='', fallback=False, scores={}, margin=None)
    """

    def __init__(self, model: BaseChatModel, routes: Sequence[RouteSpec], fallback: str | None = None,
                 prompt: ChatPromptTemplate = ROUTER_PROMPT):
        self.model = model
        self.routes, self.fallback = check_routes(routes, fallback)
        self.prompt = prompt
        self.schema = choice_schema("RouteChoice", "route", tuple(r.name for r in self.routes), "the chosen data source")

    def route(self, question: str) -> RouteDecision:
        question = clean_query(question, what="question")
        inputs = {"question": question, "routes": format_routes(self.routes), "fallback": self.fallback}
        result = call_structured(self.model, self.prompt, self.schema, inputs)
        if not result.ok:  # the fallback route is the one meant for "none of the above"
            return RouteDecision(self.fallback, 0.0, result.note, fallback=True)
        return RouteDecision(result.value.route, 1.0, getattr(result.value, "reason", ""))


__all__ = ["LLMRouter", "ROUTER_PROMPT", "format_routes"]
