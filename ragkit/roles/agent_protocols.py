"""The contracts of the supervisor's team: the agents, the answer each gives, and the roles that plan,
analyse, write code, merge and make small talk (the RAG roles' contracts are in :mod:`ragkit.roles.protocols`).

A builder checks these roles with :func:`ragkit.roles.protocols.as_role` like any other: an object with the
method, or (for these one-method roles) a plain function of the same arguments. Whatever a supervisor
proposes, the graph runs only what :func:`normalise_sequence` makes of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, get_args, runtime_checkable

from langchain_core.documents import Document

from ragkit.roles.router_protocols import RouteSpec

AgentName = Literal["rag", "code", "analysis", "chitchat"]
AGENTS: tuple[AgentName, ...] = get_args(AgentName)
DEFAULT_AGENT: AgentName = "rag"  # what an empty or unusable plan falls back to: looking it up is the safest step


@dataclass(frozen=True)
class AgentAnswer:
    """What one agent produced: its answer, the documents it used (and, for the rag agent, the 1-based
    numbers of those its answer cites), and whether it did its part."""

    agent: AgentName
    text: str
    documents: tuple[Document, ...] = ()
    ok: bool = True  # False when the agent could not do its part (a refusal, code that failed, an error)
    note: str = ""
    citations: tuple[int, ...] = ()


@dataclass(frozen=True)
class Plan:
    """The agents to run, in order; ``tasks[i]`` is the part of the question hop ``i`` is for."""

    sequence: tuple[AgentName, ...]
    tasks: tuple[str, ...] = ()
    note: str = ""
    dropped: tuple[str, ...] = ()  # proposed names that are not agents
    fallback: bool = False  # nothing usable was proposed: DEFAULT_AGENT was used


@runtime_checkable
class Supervisor(Protocol):
    def plan(self, question: str, max_hops: int) -> Plan: ...


@dataclass(frozen=True)
class Analysis:
    """The analyst's answer, the options it compared, how many evidence sentences it used."""

    text: str
    options: tuple[str, ...] = ()
    evidence: int = 0
    fallback: bool = False


@runtime_checkable
class Analyst(Protocol):
    def analyse(self, question: str, findings: Sequence[AgentAnswer], documents: Sequence[Document]) -> Analysis: ...


CodeOrigin = Literal["model", "question", "documents", "answers", "none"]


@dataclass(frozen=True)
class CodeDraft:
    """Code to run ("" when there is none), what it does, and where it came from."""

    code: str
    explanation: str
    origin: CodeOrigin = "none"
    source: str = ""  # e.g. the document id a block came from
    fallback: bool = False


@runtime_checkable
class Coder(Protocol):
    def draft(self, question: str, findings: Sequence[AgentAnswer], documents: Sequence[Document]) -> CodeDraft: ...


@dataclass(frozen=True)
class Aggregate:
    """The final answer, the agents it was built from, and whether a safe default was used."""

    text: str
    agents: tuple[str, ...] = ()
    fallback: bool = False


@runtime_checkable
class Aggregator(Protocol):
    def combine(self, question: str, answers: Sequence[AgentAnswer]) -> Aggregate: ...


@dataclass(frozen=True)
class TeamDomain:
    """What the supervisor's team knows about its corpus, passed in (the handbook's:
    ``ragkit.domains.handbook.agents.HANDBOOK_TEAM``).

    ``routes`` are the local supervisor's labelled examples, one ``RouteSpec`` per agent (plus any
    non-agent class such as ``context``); ``small_talk`` the kinds of small talk, each with its canned
    reply in ``replies``; ``corpus`` names what the rag agent searches, in the agents' messages.
    """

    corpus: str
    descriptions: dict[str, str]  # agent -> one line, for the prompts
    titles: dict[str, str]  # agent -> its section title in the merged answer
    routes: tuple[RouteSpec, ...]
    small_talk: tuple[RouteSpec, ...]
    replies: dict[str, str]  # small-talk kind -> reply
    small_talk_prompt: str
    small_talk_fallback: str = "small_talk"


def agent_name(item: object) -> AgentName | None:
    """The agent a proposed name means ("rag_agent", " Code ", "analysis agent"), or None.

    >>> agent_name("rag_agent"), agent_name(" Code "), agent_name("analysis agent"), agent_name("FINISH")
    ('rag', 'code', 'analysis', None)
    """
    if not isinstance(item, str):
        return None
    name = re.sub(r"[\s-]+", "_", item.strip().strip("`'\"*.").lower()).removesuffix("_agent")
    return name if name in AGENTS else None  # type: ignore[return-value]


def normalise_sequence(proposed: object, max_hops: int,
                       default: AgentName = DEFAULT_AGENT) -> tuple[tuple[AgentName, ...], tuple[str, ...], bool]:
    """``(sequence, dropped, fallback)``: unknown names dropped, repeats in a row collapsed, empty -> default,
    cut at ``max_hops``. Anything that is not a list of names counts as nothing proposed. Whatever a
    supervisor proposes, the graph runs only what this returns.

    >>> normalise_sequence(["rag_agent", "rag", "Coder", "code", "analysis"], max_hops=3)
    (('rag', 'code', 'analysis'), ('Coder',), False)
    >>> normalise_sequence(["FINISH", 7], max_hops=3)
    (('rag',), ('FINISH', '7'), True)
    """
    if isinstance(max_hops, bool) or not isinstance(max_hops, int) or max_hops < 1:
        raise ValueError(f"max_hops must be a positive integer, got {max_hops!r}")
    sequence: list[AgentName] = []
    dropped: list[str] = []
    for item in list(proposed) if isinstance(proposed, (list, tuple)) else []:
        name = agent_name(item)
        if name is None:
            dropped.append(str(item)[:40])
        elif not sequence or sequence[-1] != name:
            sequence.append(name)
    if not sequence:
        return (default,), tuple(dropped), True
    return tuple(sequence[:max_hops]), tuple(dropped), False


def truncate(text: str, max_chars: int | None) -> str:
    """``text`` cut to ``max_chars`` characters with `` ...`` (None: no limit).

    >>> truncate("abcdef", 3), truncate("abc", 3)
    ('abc ...', 'abc')
    """
    text = text.strip()
    return text if max_chars is None or len(text) <= max_chars else text[:max_chars].rstrip() + " ..."


__all__ = ["AGENTS", "DEFAULT_AGENT", "Aggregate", "Aggregator", "AgentAnswer", "AgentName", "Analysis", "Analyst",
           "CodeDraft", "CodeOrigin", "Coder", "Plan", "Supervisor", "TeamDomain", "agent_name",
           "normalise_sequence", "truncate"]
