"""The router's contract: the routes it chooses between (``RouteSpec``) and its choice (``RouteDecision``).

Used by the graphs that route a question: Adaptive RAG's router, the supervisor's and the advanced pipeline's
classifiers, statute QA's question classifier. A local router (:class:`ragkit.offline.router.LocalRouter`) reads a
route's examples; an LLM one (:class:`ragkit.roles.llm_routing.LLMRouter`) its description.

What it cannot do: :func:`check_routes` checks names and that each route says something, not that two routes'
examples do not overlap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class RouteSpec:
    """One destination a router can choose, described the way a prompt would describe it.

    ``description`` says what the route answers, ``examples`` are questions it should receive. A local router
    also reads ``serves`` (kinds of question it answers whatever their topic: ``"fresh"``, ``"general"``) and
    ``templates`` (questions over its documents' metadata, ``"Is the {title} {dietary}?"``).
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


__all__ = ["RouteDecision", "RouteSpec", "Router", "check_routes"]
