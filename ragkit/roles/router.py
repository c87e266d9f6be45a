"""Routers: send a question to one of a few labelled destinations (menu search, web search, ...).

``LocalRouter`` is a nearest-prototype classifier. Every route is described by its description and a
few example questions; each of those texts is embedded once (a "prototype"). A question goes to the route
of its most similar prototype, unless the decision is unsafe, in which case it goes to the fallback route:
- the best similarity is below ``min_similarity`` (the question resembles none of the routes), or
- the best route beats the runner-up by less than ``margin`` (the router cannot tell them apart).

``LLMRouter`` asks a chat model to choose, with the route names as a ``Literal`` schema field so the
answer is always one of them; a failed or malformed call goes to the fallback route.

Simplifications: one vector per description/example and a plain max over them (no training, no
per-route calibration), so the quality depends entirely on how well the descriptions and examples
cover the questions users really ask. Add examples to a route to fix a systematic mistake.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate

from ragkit.roles.base import RouteDecision, RouteSpec
from ragkit.roles.features import default_embedder, embed
from ragkit.roles.llm import call_structured, choice_schema
from ragkit.roles.prompts import ROUTER_PROMPT, format_routes
from ragkit.text import clean_query


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


class LocalRouter:
    """Nearest-prototype router over embedded route descriptions and examples, with a fallback margin.

    >>> router = LocalRouter([RouteSpec("menu", "dishes, prices and allergens of the restaurant menu"),
    ...                       RouteSpec("other", "anything else")], fallback="other")  # doctest: +SKIP
    >>> router.route("How much is the lamb?").route  # doctest: +SKIP
    'menu'

    ``confidence`` is the chosen route's best cosine similarity (not a probability); ``note`` gives the
    gap to the runner-up, and ``fallback`` is true when a bar or the margin sent the question to the
    fallback route.
    """

    def __init__(
        self,
        routes: Sequence[RouteSpec],
        fallback: str | None = None,
        embedder: Embeddings | None = None,
        margin: float = 0.02,
        min_similarity: float = 0.2,
    ):
        self.routes, self.fallback = check_routes(routes, fallback)
        self.embedder = embedder if embedder is not None else default_embedder()
        self.margin = margin
        self.min_similarity = min_similarity
        texts: list[str] = []
        owners: list[int] = []
        for i, spec in enumerate(self.routes):
            for text in ([spec.description] if spec.description.strip() else []) + list(spec.examples):
                texts.append(text)
                owners.append(i)
        self._prototypes = embed(self.embedder, texts)
        self._owners = np.asarray(owners)

    def scores(self, question: str) -> dict[str, float]:
        """The similarity of a question to each route (its best prototype), by route name."""
        question = clean_query(question, what="question")
        sims = self._prototypes @ embed(self.embedder, [question])[0]
        return {spec.name: float(sims[self._owners == i].max()) for i, spec in enumerate(self.routes)}

    def route(self, question: str) -> RouteDecision:
        scores = self.scores(question)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        best, best_score = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
        gap = best_score - runner_up
        if best_score < self.min_similarity:
            return RouteDecision(self.fallback, best_score, f"no route is close (best {best} {best_score:.2f})", fallback=best != self.fallback)
        if gap < self.margin and best != self.fallback:
            return RouteDecision(
                self.fallback, best_score, f"{best} vs {ranked[1][0]} too close (gap {gap:.3f} < {self.margin})", fallback=True
            )
        return RouteDecision(best, best_score, f"nearest route {best} ({best_score:.2f}, gap {gap:.2f})")


class LLMRouter:
    """A chat model picks the route (a ``Literal`` of the route names); on any failure: the fallback route.

    >>> from ragkit.fake_chat import scripted
    >>> router = LLMRouter(scripted('{"route": "wine"}'), [RouteSpec("wine", "the wine list"),
    ...                    RouteSpec("web", "anything else")], fallback="web")
    >>> router.route("A red for lamb?")
    RouteDecision(route='wine', confidence=1.0, note='', fallback=False)
    """

    def __init__(
        self,
        model: BaseChatModel,
        routes: Sequence[RouteSpec],
        fallback: str | None = None,
        prompt: ChatPromptTemplate = ROUTER_PROMPT,
    ):
        self.model = model
        self.routes, self.fallback = check_routes(routes, fallback)
        self.prompt = prompt
        self.schema = choice_schema("RouteChoice", "route", tuple(r.name for r in self.routes), "the chosen data source")

    def route(self, question: str) -> RouteDecision:
        question = clean_query(question, what="question")
        inputs = {"question": question, "routes": format_routes(self.routes), "fallback": self.fallback}
        result = call_structured(self.model, self.prompt, self.schema, inputs)
        if not result.ok:
            # Safe default: the fallback route is the one meant for "none of the above".
            return RouteDecision(self.fallback, 0.0, result.note, fallback=True)
        return RouteDecision(result.value.route, 1.0, getattr(result.value, "reason", ""))
