"""The supervisor role: which agents a request needs, in the order their work must happen.

The supervisor graph (``ragkit.graphs.supervisor``) has four agents: ``rag`` (look it up in the
handbook), ``code`` (write or run Python in a sandbox), ``analysis`` (compare, weigh up, interpret) and
``chitchat``. A supervisor returns a :class:`Plan`: an ordered sequence of agent names, e.g.
``("rag", "code")`` for "find the cosine formula and then code it".

Whatever proposes the sequence, code disposes (:func:`normalise_sequence`): unknown names are dropped
(and kept in ``Plan.dropped``), a name repeated in a row collapses to one, an empty result falls back to
``DEFAULT_AGENT`` ("rag": looking it up is the safest first step) with ``fallback=True``, and the
sequence is cut at ``max_hops``.

- ``LLMSupervisor``: the original prompt, "reply with the agent name(s), comma-separated", parsed in
  code by :func:`parse_agent_names`; ``LLMStructuredSupervisor``: the same choice as structured output
  (a list of ``Literal`` agent names).
- ``LocalSupervisor``: a nearest-prototype classifier over labelled examples (``LocalRouter``'s
  k-nearest-prototype scores over :data:`ragkit.roles.supervisor_routes.SUPERVISOR_ROUTES`) applied to
  each *clause* of the question (:mod:`ragkit.roles.clauses`): clauses too weak to be a step of their
  own are merged into their neighbour, the clauses are put in the order their connectives say ("...,
  after checking the handbook" comes first), and neighbours with the same agent collapse. A greeting
  in front of a real request adds no ``chitchat`` hop.

>>> normalise_sequence(["rag_agent", "rag", "Coder", "code", "analysis"], max_hops=3)
(('rag', 'code', 'analysis'), ('Coder',), False)

How well it routes (``benchmarks/supervisor/routing_accuracy.py`` on ``data/eval/supervisor_routing.json``,
frozen before tuning): the four settings in ``ragkit.defaults.SUPERVISOR`` were chosen on the dev split
(80 questions) where the exact sequence is right for 0.925 of them (0.89 when the whole tuning is
cross-validated on dev folds); on the test split (102 questions, reported once) it is 0.725: 0.83 for
two-agent chains, 0.60 for three-agent ones, and only 0.70 for single-agent questions, 11 of 47 of which
it splits into a chain (one agent per whole question, no clauses, gets 0.94 of the single-agent questions
but none of the chains). Per-agent precision / recall on test: rag 0.94 / 0.98, code 0.91 / 0.95,
analysis 0.86 / 0.94, chitchat 1.00 / 0.80.

What the local supervisor cannot do: it reads no meaning beyond MiniLM's similarity to its examples,
so an implicit step ("Using the handbook's definition, ...") is found only when its clause is close to
a ``rag`` example; it cannot tell "what does the snippet print" (look it up) from "run the snippet"
unless the wording differs; and clause cuts come from connectives and punctuation, not from a parser.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Protocol, Sequence, runtime_checkable

from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.embeddings import embed
from ragkit.core.nlp import clean_query, tokenize
from ragkit.defaults import SUPERVISOR
from ragkit.roles.protocols import RouteSpec
from ragkit.roles.clauses import Clause, merge, reorder, split_clauses
from ragkit.roles.llm import call_structured
from ragkit.offline.router import LocalRouter, term_shares
from ragkit.roles.supervisor_routes import SUPERVISOR_ROUTES
from ragkit.roles.supervisor_types import AGENT_DESCRIPTIONS, AGENTS, DEFAULT_AGENT, AgentName


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
    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> Plan: ...


def agent_name(item: object) -> AgentName | None:
    """The agent a proposed name means ("rag_agent", " Code ", "analysis agent"), or None.

    >>> agent_name("rag_agent"), agent_name(" Code "), agent_name("analysis agent"), agent_name("FINISH")
    ('rag', 'code', 'analysis', None)
    """
    if not isinstance(item, str):
        return None
    name = re.sub(r"[\s-]+", "_", item.strip().strip("`'\"*.").lower())
    name = name.removesuffix("_agent")
    return name if name in AGENTS else None  # type: ignore[return-value]


def normalise_sequence(proposed: Iterable[object] | object, max_hops: int = SUPERVISOR.max_hops,
                       default: AgentName = DEFAULT_AGENT) -> tuple[tuple[AgentName, ...], tuple[str, ...], bool]:
    """``(sequence, dropped, fallback)``: unknown names dropped, repeats in a row collapsed, empty -> default,
    cut at ``max_hops``. Anything that is not a list of names counts as nothing proposed.

    >>> normalise_sequence(["code", "code", "rag", "code"], max_hops=2)
    (('code', 'rag'), (), False)
    >>> normalise_sequence(["FINISH", 7], max_hops=3)
    (('rag',), ('FINISH', '7'), True)
    """
    if isinstance(max_hops, bool) or not isinstance(max_hops, int) or max_hops < 1:
        raise ValueError(f"max_hops must be a positive integer, got {max_hops!r}")
    items = list(proposed) if isinstance(proposed, (list, tuple)) else []
    sequence: list[AgentName] = []
    dropped: list[str] = []
    for item in items:
        name = agent_name(item)
        if name is None:
            dropped.append(str(item)[:40])
        elif not sequence or sequence[-1] != name:
            sequence.append(name)
    if not sequence:
        return (default,), tuple(dropped), True
    return tuple(sequence[:max_hops]), tuple(dropped), False


def parse_agent_names(text: str) -> list[str]:
    """The items of a "comma-separated agent names" reply, in order (bullets, numbers, arrows tolerated).

    >>> parse_agent_names("rag_agent, code_agent")
    ['rag_agent', 'code_agent']
    >>> parse_agent_names("1. rag_agent\\n2. analysis_agent -> aggregator")
    ['rag_agent', 'analysis_agent', 'aggregator']
    """
    parts = re.split(r"[,;\n]|->|=>|\u2192|\bthen\b", text)
    return [p for p in (re.sub(r"^\s*(\d+[.)]|[-*\u2022])\s*", "", part).strip() for part in parts) if p]


# ---------------------------------------------------------------- local
UNKNOWN_TERMS = "__unknown__"  # where term_shares puts the weight of terms no example contains


def example_vocabulary(routes: Sequence[RouteSpec]) -> tuple[dict[str, Counter[str]], dict[str, int]]:
    """Per agent: how many of its texts (description and examples) contain each stem, and how many texts.

    >>> freq, sizes = example_vocabulary([RouteSpec("code", "writes Python", ("write a function",)),
    ...                                   RouteSpec("rag", "looks things up", ())])
    >>> freq["code"]["write"], sizes
    (2, {'code': 2, 'rag': 1})
    """
    frequencies: dict[str, Counter[str]] = {}
    sizes: dict[str, int] = {}
    for spec in routes:
        texts = ([spec.description] if spec.description.strip() else []) + list(spec.examples)
        frequencies[spec.name] = Counter(term for text in texts for term in set(tokenize(text)))
        sizes[spec.name] = len(texts)
    return frequencies, sizes


def steps_from_evidence(evidence: Sequence[tuple[Clause, dict[str, float]]], min_terms: int,
                        min_margin: float) -> list[tuple[Clause, AgentName]]:
    """Group scored clauses into ordered steps.

    A clause is a step of its own when its best class is an agent (not ``context``), it has at least
    ``min_terms`` terms and its best class beats the runner-up by ``min_margin``; a weaker clause joins
    the step before it (the first step, when it comes first) and keeps that step's agent and order mark.
    Neighbouring steps with the same agent then join (their order marks combine), and the order marks
    are applied (:func:`ragkit.roles.clauses.reorder`). When no clause is a step, the whole question is
    one step with the best-scored agent of its clauses.

    >>> ev = [(Clause("find the formula", "", ""), {"rag": 0.6, "code": 0.3}),
    ...       (Clause("for my case", "", ""), {"rag": 0.1, "code": 0.1}),
    ...       (Clause("code it up", "", ""), {"rag": 0.2, "code": 0.7})]
    >>> [(c.text, a) for c, a in steps_from_evidence(ev, 1, 0.05)]
    [('find the formula for my case', 'rag'), ('code it up', 'code')]
    """
    def ranked(scores: dict[str, float]) -> list[tuple[str, float]]:
        return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))

    steps: list[tuple[Clause, AgentName]] = []
    pending: Clause | None = None  # weak clauses met before the first step
    for clause, scores in evidence:
        order = ranked(scores)
        margin = order[0][1] - (order[1][1] if len(order) > 1 else 0.0)
        if order[0][0] in AGENTS and len(tokenize(clause.text)) >= min_terms and margin >= min_margin:
            steps.append((merge(pending, clause, clause.order) if pending else clause, order[0][0]))  # type: ignore[arg-type]
            pending = None
        elif steps:
            steps[-1] = (merge(steps[-1][0], clause, steps[-1][0].order), steps[-1][1])
        else:
            pending = merge(pending, clause, pending.order) if pending else clause
    if not steps:
        agent = max(((a, s) for _, scores in evidence for a, s in scores.items() if a in AGENTS),
                    key=lambda pair: pair[1])[0]
        return [(pending or evidence[0][0], agent)]  # type: ignore[list-item]
    joined: list[tuple[Clause, AgentName]] = []
    for clause, agent in steps:
        if joined and joined[-1][1] == agent:
            joined[-1] = (merge(joined[-1][0], clause), agent)
        else:
            joined.append((clause, agent))
    agents = {id(c): a for c, a in joined}
    return [(c, agents[id(c)]) for c in reorder([c for c, _ in joined])]


def plan_from_steps(question: str, steps: Sequence[tuple[Clause, AgentName]], max_hops: int,
                    default: AgentName = DEFAULT_AGENT) -> Plan:
    """The plan of ordered steps: small talk next to a request adds no hop, repeats in a row collapsed.

    A ``chitchat`` step in front of the first request is dropped ("Hello! Look up ..."); one after a request
    joins the step before it, so its words stay in that hop's task (a trailing "thanks", or a clause such as
    the "1" of "rank 3, 2, 0, 1" that happens to score closest to chitchat).

    >>> plan = plan_from_steps("q", [(Clause("hi", ""), "chitchat"), (Clause("rank 3 2 0", ""), "code"),
    ...                              (Clause("1", ""), "chitchat")], max_hops=3)
    >>> plan.sequence, plan.tasks
    (('code',), ('rank 3 2 0 1',))
    """
    if any(agent != "chitchat" for _, agent in steps):
        kept: list[tuple[Clause, AgentName]] = []
        for clause, agent in steps:
            if agent != "chitchat":
                kept.append((clause, agent))
            elif kept:
                kept[-1] = (merge(kept[-1][0], clause, kept[-1][0].order), kept[-1][1])
        steps = kept
    sequence: list[AgentName] = []
    tasks: list[str] = []
    for clause, agent in steps:
        if sequence and sequence[-1] == agent:
            tasks[-1] = f"{tasks[-1]}; {clause.text}"
        else:
            sequence.append(agent)
            tasks.append(clause.text)
    planned, _, fallback = normalise_sequence(sequence, max_hops, default)
    note = " | ".join(f"{a}: {t}" for a, t in zip(sequence, tasks))
    if len(sequence) > max_hops:
        note += f" (cut at max_hops={max_hops})"
    return Plan(planned, (question,) if fallback else tuple(tasks[: len(planned)]), note, (), fallback)


class LocalSupervisor:
    """Nearest-prototype classification of each clause, grouped and ordered (see the module docstring).

    A clause's score for an agent is ``LocalRouter``'s k-nearest-prototype score plus ``term_weight``
    times the share of the clause's idf weight that the agent's examples explain (``term_shares``, with
    the vocabulary read from the examples: "handbook" occurs only in ``rag`` examples, "implement" only in
    ``code`` ones). Grouping: :func:`steps_from_evidence`; the plan: :func:`plan_from_steps`.

    >>> LocalSupervisor().plan("Find the MMR formula and then implement it.").sequence  # doctest: +SKIP
    ('rag', 'code')
    """

    def __init__(self, embedder: Embeddings | None = None, routes: Sequence[RouteSpec] = SUPERVISOR_ROUTES,
                 k: int = SUPERVISOR.k, term_weight: float = SUPERVISOR.term_weight,
                 min_terms: int = SUPERVISOR.min_terms, min_margin: float = SUPERVISOR.min_margin,
                 default: AgentName = DEFAULT_AGENT):
        names = [spec.name for spec in routes]
        if not set(AGENTS) <= set(names):
            raise ValueError(f"the supervisor's routes must include every agent {list(AGENTS)}, got {names}")
        self.router = LocalRouter(routes, fallback=default, embedder=embedder, k=k)
        self.frequencies, self.sizes = example_vocabulary(routes)
        self.term_weight, self.min_terms, self.min_margin, self.default = term_weight, min_terms, min_margin, default

    def term_evidence(self, text: str) -> dict[str, float]:
        """The share of the text's idf weight each agent's examples explain (unknown terms count for none)."""
        terms = list(dict.fromkeys(tokenize(text)))
        shares = term_shares(terms, self.frequencies, self.sizes, UNKNOWN_TERMS)
        return {name: shares[name] for name in self.frequencies}

    def evidence(self, question: str) -> list[tuple[Clause, dict[str, float]]]:
        """Each clause of the question with its score per agent."""
        clauses = split_clauses(question) or [Clause(question, question)]
        embed(self.router.embedder, [c.text for c in clauses])  # one batch: the router's calls then hit the cache
        out = []
        for clause in clauses:
            protos, terms = self.router.scores(clause.text), self.term_evidence(clause.text)
            out.append((clause, {a: protos[a] + self.term_weight * terms[a] for a in protos}))
        return out

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> Plan:
        """The ordered agents for a question, with the clause each hop is for (``tasks``)."""
        question = clean_query(question, what="question")
        steps = steps_from_evidence(self.evidence(question), self.min_terms, self.min_margin)
        return plan_from_steps(question, steps, max_hops, self.default)


# ---------------------------------------------------------------- LLM
def format_agents() -> str:
    """One line per agent for the supervisor prompts."""
    return "\n".join(f"- {name}_agent: {AGENT_DESCRIPTIONS[name]}" for name in AGENTS)


SUPERVISOR_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are a supervisor managing a team of specialist agents:\n{agents}\n\n"
     "Given the user's request, decide which agent or agents should act, in the order their work must "
     "happen (an agent can use what the agents before it found). Use several agents only when the request "
     "asks for several kinds of work, and at most {max_hops}. A greeting in front of a real request needs "
     "no chitchat_agent.\nReply with the agent name(s), comma-separated, and nothing else."),
    ("human", "{question}"),
])


def _text_of(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, list):  # some providers return a list of content parts
        return " ".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)


class LLMSupervisor:
    """The chat model replies with comma-separated agent names; code parses and normalises them.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMSupervisor(scripted("rag_agent, code_agent, code_agent, oracle")).plan("Find it, then code it.")
    Plan(sequence=('rag', 'code'), tasks=(), note='rag_agent, code_agent, code_agent, oracle', dropped=('oracle',), fallback=False)
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = SUPERVISOR_PROMPT,
                 default: AgentName = DEFAULT_AGENT):
        self.model, self.prompt, self.default = model, prompt, default

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> Plan:
        question = clean_query(question, what="question")
        messages = self.prompt.format_messages(agents=format_agents(), max_hops=max_hops, question=question)
        try:
            reply = _text_of(self.model.invoke(messages)).strip()
        except Exception as err:  # noqa: BLE001 - a failed call takes the stated default
            return Plan((self.default,), (), f"model call failed: {type(err).__name__}: {err}"[:200], (), True)
        sequence, dropped, fallback = normalise_sequence(parse_agent_names(reply), max_hops, self.default)
        return Plan(sequence, (), reply[:200], dropped, fallback)


class AgentChoice(BaseModel):
    """The structured-output form of the supervisor's decision."""

    agents: list[Literal["rag_agent", "code_agent", "analysis_agent", "chitchat_agent"]] = Field(
        description="the agents to run, in the order their work must happen")
    reason: str = Field(default="", description="one short sentence saying why")


STRUCTURED_SUPERVISOR_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are a supervisor managing a team of specialist agents:\n{agents}\n\n"
     "Given the user's request, list in `agents` the agent or agents that should act, in the order their "
     "work must happen; several only when the request asks for several kinds of work, at most {max_hops}. "
     "A greeting in front of a real request needs no chitchat_agent."),
    ("human", "{question}"),
])


class LLMStructuredSupervisor:
    """The same decision as structured output (a list of ``Literal`` names); a malformed reply -> default.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMStructuredSupervisor(scripted('{"agents": ["code_agent", "analysis_agent"]}')).plan("Time it and judge.").sequence
    ('code', 'analysis')
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = STRUCTURED_SUPERVISOR_PROMPT,
                 default: AgentName = DEFAULT_AGENT):
        self.model, self.prompt, self.default = model, prompt, default

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> Plan:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, AgentChoice,
                                 {"agents": format_agents(), "max_hops": max_hops, "question": question})
        if not result.ok:
            return Plan((self.default,), (), result.note, (), True)
        sequence, dropped, fallback = normalise_sequence(result.value.agents, max_hops, self.default)
        return Plan(sequence, (), result.value.reason, dropped, fallback)


__all__ = ["AGENTS", "DEFAULT_AGENT", "STRUCTURED_SUPERVISOR_PROMPT", "SUPERVISOR_PROMPT", "AgentChoice", "AgentName",
           "LLMStructuredSupervisor", "LLMSupervisor", "LocalSupervisor", "Plan", "Supervisor", "agent_name",
           "example_vocabulary", "format_agents", "normalise_sequence", "parse_agent_names", "plan_from_steps",
           "steps_from_evidence"]
