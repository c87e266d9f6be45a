"""The local supervisor: which agents a request needs, in the order their work must happen, offline.

Each clause of the question (:func:`ragkit.core.nlp.split_clauses`) is scored against labelled examples
of every agent (``LocalRouter``'s k-nearest-prototype score, plus ``term_weight`` times the share of the
clause's idf weight that an agent's examples explain); clauses too weak to be a step of their own join
their neighbour, the steps are put in the order their connectives say ("..., after checking the
docs" comes first), neighbours with the same agent collapse, and small talk next to a request adds
no hop. The examples are passed in (``routes``: one ``RouteSpec`` per agent, plus non-agent classes
such as ``context`` for scene-setting clauses), e.g. ``ragkit.domains.handbook.agents.SUPERVISOR_ROUTES``.
How well it routes, and how its four settings were chosen: ``benchmarks/supervisor/README.md``.

What it cannot do: it reads no meaning beyond MiniLM's similarity to its examples, so an implicit step
("Using the manual's definition, ...") is found only when its clause is close to a ``rag`` example; it
cannot tell "what does the snippet print" (look it up) from "run the snippet" unless the wording differs;
and clause cuts come from connectives and punctuation, not from a parser.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from langchain_core.embeddings import Embeddings

from ragkit.core.embeddings import embed
from ragkit.core.nlp import Clause, clean_query, merge, reorder, split_clauses, tokenize
from ragkit.defaults import SUPERVISOR
from ragkit.offline.router import LocalRouter, term_shares
from ragkit.roles.agent_protocols import AGENTS, DEFAULT_AGENT, AgentName, Plan, normalise_sequence
from ragkit.roles.protocols import RouteSpec

UNKNOWN_TERMS = "__unknown__"  # where term_shares puts the weight of terms no example contains


def example_vocabulary(routes: Sequence[RouteSpec]) -> tuple[dict[str, Counter[str]], dict[str, int]]:
    """Per route: how many of its texts (description and examples) contain each stem, and how many texts.

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
    Neighbouring steps with the same agent then join, and the order marks are applied
    (:func:`ragkit.core.nlp.reorder`). When no clause is a step, the whole question is one step with the
    best-scored agent of its clauses.

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

    >>> supervisor = LocalSupervisor(routes)  # one RouteSpec per agent  # doctest: +SKIP
    >>> supervisor.plan("Find the MMR formula and then implement it.").sequence  # doctest: +SKIP
    ('rag', 'code')
    """

    def __init__(self, routes: Sequence[RouteSpec], embedder: Embeddings | None = None, k: int = SUPERVISOR.k,
                 term_weight: float = SUPERVISOR.term_weight, min_terms: int = SUPERVISOR.min_terms,
                 min_margin: float = SUPERVISOR.min_margin, default: AgentName = DEFAULT_AGENT):
        names = [spec.name for spec in routes]
        if not set(AGENTS) <= set(names):
            raise ValueError(f"the supervisor's routes must include every agent {list(AGENTS)}, got {names}")
        self.router = LocalRouter(routes, fallback=default, embedder=embedder, k=k)
        self.frequencies, self.sizes = example_vocabulary(routes)
        self.term_weight, self.min_terms, self.min_margin, self.default = term_weight, min_terms, min_margin, default

    def term_evidence(self, text: str) -> dict[str, float]:
        """The share of the text's idf weight each route's examples explain (unknown terms count for none)."""
        terms = list(dict.fromkeys(tokenize(text)))
        shares = term_shares(terms, self.frequencies, self.sizes, UNKNOWN_TERMS)
        return {name: shares[name] for name in self.frequencies}

    def evidence(self, question: str) -> list[tuple[Clause, dict[str, float]]]:
        """Each clause of the question with its score per route."""
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


__all__ = ["LocalSupervisor", "UNKNOWN_TERMS", "example_vocabulary", "plan_from_steps", "steps_from_evidence"]
