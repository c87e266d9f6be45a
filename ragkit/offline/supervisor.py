"""The local supervisor: the shortest plan of agents that covers a request's parts, offline.

A plan is a hypothesis with a cost. A question's parts are its clauses (:func:`ragkit.core.nlp.split_clauses`),
each scored per class from labelled examples: ``LocalRouter``'s k-nearest-prototype score, ``term_weight`` times
the share of the part's idf weight each class's examples explain, and ``head_weight`` times the share of the
examples that open with the part's first word (its head: "implement", "compare"). A plan's evidence is the sum
of its parts' scores for the agents serving them. A change of agent is a hop that must be earned: it costs
``hop_cost`` unless the wording marks a new step there (a sentence end, "then", "first" ...), since a comma or
a bare "and" also joins the pieces of one request. Small talk and scene-setting parts (``context``) go with a
neighbour's agent and add no hop. Dynamic programming finds the best plan for every ending agent and hop count;
the best evidence net of costs wins (a tie: the shorter), with the candidates and the reason kept. The first
hypothesis is the one agent that serves the whole question (scored as one text); any other plan must be earned:
each of its hops served by another agent needs ``earn_margin`` more evidence on its parts than that agent has
there (``PlanCandidate.earned`` and ``why``; with ``earn_margin=0`` a hop needs only to score higher). The examples
are passed in (``routes``, e.g. ``ragkit.domains.handbook.agents.SUPERVISOR_ROUTES``); how well it routes and
how its settings were chosen: ``benchmarks/supervisor/README.md``.

What it cannot do: it reads no meaning beyond MiniLM's similarity to its examples and their words, so an
implicit step ("Using the manual's definition, ...") is found only when its part is close to a ``rag`` example,
a follow-up in one sentence ("..., and which value does it recommend?") can buy a hop it does not need, and
"what does the snippet print" (look it up) and "run the snippet" differ only by their wording. The earned-hop
test compares summed scores, which are not calibrated: a real step that resembles its examples weakly gains as
little over the whole question's agent as a spurious follow-up does (on the dev split they overlap, so the
tuned margin is 0), and each (last agent, hops) pair keeps only its best labelling, so an earned labelling behind
an unearned better one is not weighed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from langchain_core.embeddings import Embeddings

from ragkit.core.embeddings import embed
from ragkit.core.nlp import Clause, clean_query, merge, reorder, split_clauses, tokenize
from ragkit.defaults import SUPERVISOR
from ragkit.offline.router import LocalRouter, term_shares
from ragkit.roles.agent_protocols import AGENTS, DEFAULT_AGENT, AgentName, Plan
from ragkit.roles.protocols import RouteSpec

UNKNOWN_TERMS = "__unknown__"  # where term_shares puts the weight of terms no example contains
ORDERING_WORDS = ("then", "after", "afterwards", "before", "finally", "lastly", "next", "once")  # open a new step
UNHEADED = frozenset(("a", "an", "the", "please", "you"))  # skipped before a part's head ("before you write it")
Labelling = tuple[float, float, tuple[str, ...]]  # (evidence, hop costs, one label per part)


@dataclass(frozen=True)
class PlanCandidate:
    """One plan weighed: its agents, each hop's part, evidence (its parts' scores), hop costs, evidence - cost,
    and whether each hop not served by the whole question's agent was earned (``earned``, ``why``)."""

    sequence: tuple[AgentName, ...]
    tasks: tuple[str, ...]
    evidence: float
    cost: float
    score: float
    earned: bool = True
    why: str = ""


@dataclass(frozen=True)
class SupervisorPlan(Plan):
    candidates: tuple[PlanCandidate, ...] = ()  # every plan weighed, the chosen one first


def head(text: str) -> str:
    """The stemmed first word of a request, after its connectives and articles ("then code it up" -> "code").

    >>> head("And then implement the splitter"), head("Is the corpus big enough?"), head("")  # Porter: is -> i
    ('implement', 'i', '')
    """
    words = tokenize(next((clause.text for clause in split_clauses(text)), text), UNHEADED)
    return words[0] if words else ""


def example_vocabulary(routes: Sequence[RouteSpec]) -> tuple[dict[str, Counter[str]], dict[str, int], dict[str, Counter[str]]]:
    """Per route: how many of its texts (description and examples) contain each stem, how many texts, and
    how many of its examples open with each head.

    >>> freq, sizes, heads = example_vocabulary([RouteSpec("code", "writes Python", ("write a function",)),
    ...                                          RouteSpec("rag", "looks things up", ())])
    >>> freq["code"]["write"], sizes, heads["code"]
    (2, {'code': 2, 'rag': 1}, Counter({'write': 1}))
    """
    frequencies, sizes, heads = {}, {}, {}
    for spec in routes:
        texts = ([spec.description] if spec.description.strip() else []) + list(spec.examples)
        frequencies[spec.name] = Counter(term for text in texts for term in set(tokenize(text)))
        sizes[spec.name], heads[spec.name] = len(texts), Counter(head(text) for text in spec.examples)
    return frequencies, sizes, heads


def marked_boundaries(question: str, clauses: Sequence[Clause]) -> list[bool]:
    """Whether the wording marks a new step where each clause starts: the first, one opening with an ordering
    word or carrying an order mark, one after ``. ? ! ; :``, an arrow or a dropped joiner, or after a fronted
    ordering clause and its comma ("Using X, write Y"). A bare comma or "and" marks nothing.

    >>> q = "Look up BM25, implement it. Then compare it with [1, 2] and tell me"
    >>> marked_boundaries(q, split_clauses(q))
    [True, False, True, False]
    """
    marks, end = [], 0
    for i, clause in enumerate(clauses):
        start, before = max(question.find(clause.raw, end), end), clauses[i - 1] if i else None
        marks.append(before is None or bool(
            clause.order or re.match(rf"(?:and\s+)?(?:{'|'.join(ORDERING_WORDS)})\b", clause.raw, re.I)
            or before.raw.rstrip()[-1:] in ".?!;:" or question[end:start].strip()
            or (before.order and before.raw.rstrip().endswith(","))))
        end = start + len(clause.raw)
    return marks


def best_labellings(scores: Sequence[dict[str, float]], marked: Sequence[bool], hop_cost: float) -> list[Labelling]:
    """The best labelling of the parts for each (last agent, number of hops), by evidence net of hop costs. A
    part labelled ``chitchat`` or a non-agent class stays in the hop it is in; another agent than the current
    hop's starts a hop, at ``hop_cost`` unless its boundary is ``marked``. Exact: dynamic programming.

    >>> rows = [{"rag": 0.6, "code": 0.2}, {"rag": 0.3, "code": 0.4}]
    >>> [(labels, round(evidence - cost, 2)) for evidence, cost, labels in best_labellings(rows, [True, False], 0.2)]
    [(('code', 'code'), 0.6), (('rag', 'code'), 0.8), (('rag', 'rag'), 0.9), (('code', 'rag'), 0.3)]
    """
    states: dict[tuple[str, int], Labelling] = {("", 0): (0.0, 0.0, ())}
    for row, mark in zip(scores, marked):
        reached: dict[tuple[str, int], Labelling] = {}
        for (agent, hops), (evidence, cost, labels) in states.items():
            for label, value in row.items():
                stays = label not in AGENTS or label in ("chitchat", agent)
                key = (agent, hops) if stays else (label, hops + 1)
                option = (evidence + value, cost + (hop_cost if agent and not stays and not mark else 0.0), (*labels, label))
                if key not in reached or option[0] - option[1] > reached[key][0] - reached[key][1] + 1e-12:
                    reached[key] = option
        states = reached
    return [states[key] for key in sorted(states)]


def plan_from_labels(question: str, clauses: Sequence[Clause], labels: Sequence[str],
                     scores: Sequence[dict[str, float]], max_hops: int) -> Plan:
    """The plan of a labelling: parts of one agent in a row are one hop; a ``context`` or ``chitchat`` part
    joins the hop before it, its words kept in that hop's task (a scene-setting part in front joins the next
    hop; small talk in front is dropped); order marks applied (:func:`ragkit.core.nlp.reorder`), repeats in a
    row collapsed, cut at ``max_hops``. No agent part: one hop for the agent of the highest summed score.

    >>> parts = [Clause(t, t) for t in ("hi", "my corpus is small", "is a flat index enough", "thanks")]
    >>> plan_from_labels("q", parts, ["chitchat", "context", "analysis", "chitchat"], [{}] * 4, 3).tasks
    ('my corpus is small is a flat index enough thanks',)
    """
    steps: list[tuple[Clause, str]] = []
    pending: Clause | None = None
    for clause, label in zip(clauses, labels):
        if label in AGENTS and label != "chitchat":
            if steps and steps[-1][1] == label:
                steps[-1] = (merge(steps[-1][0], clause), label)
            else:
                steps.append((merge(pending, clause, clause.order) if pending else clause, label))
                pending = None
        elif steps:
            steps[-1] = (merge(steps[-1][0], clause, steps[-1][0].order), steps[-1][1])
        elif label != "chitchat":
            pending = merge(pending, clause, pending.order) if pending else clause
    if not steps:
        return Plan((max(AGENTS, key=lambda a: sum(row.get(a, 0.0) for row in scores)),), (question,))
    agents, sequence, tasks = {id(c): a for c, a in steps}, [], []
    for clause in reorder([c for c, _ in steps]):
        if sequence and sequence[-1] == agents[id(clause)]:
            tasks[-1] = f"{tasks[-1]}; {clause.text}"
        else:
            sequence, tasks = [*sequence, agents[id(clause)]], [*tasks, clause.text]
    cut = f" (cut at max_hops={max_hops})" if len(sequence) > max_hops else ""
    return Plan(tuple(sequence[:max_hops]), tuple(tasks[:max_hops]), cut)


def mix_evidence(protos: dict[str, float], terms: dict[str, float], heads: dict[str, float], term_weight: float,
                 head_weight: float) -> dict[str, float]:
    """One part's score per route: prototypes + ``term_weight`` * terms + ``head_weight`` * head."""
    return {a: protos[a] + term_weight * terms[a] + head_weight * heads[a] for a in protos}


def whole_agent(whole: dict[str, float]) -> AgentName:
    """The one agent that serves the whole question best: its highest score among the agents (never ``context``).

    >>> whole_agent({"rag": 0.4, "analysis": 0.4, "code": 0.1, "context": 0.9})
    'rag'
    """
    return max(AGENTS, key=lambda agent: (whole.get(agent, float("-inf")), -AGENTS.index(agent)))


def hop_gains(clauses: Sequence[Clause], labels: Sequence[str], scores: Sequence[dict[str, float]],
              base: AgentName) -> list[tuple[str, str, float]]:
    """For each run of parts labelled with one agent other than ``base``: (agent, its parts, how much more
    evidence that agent has on them than ``base`` has). Chitchat and ``context`` parts are nobody's hop.

    >>> parts = [Clause(t, t) for t in ("look it up", "and code it")]
    >>> hop_gains(parts, ["rag", "code"], [{"rag": 0.9, "code": 0.1}, {"rag": 0.3, "code": 0.8}], "rag")
    [('code', 'and code it', 0.5)]
    """
    runs: list[tuple[str, list[int]]] = []
    for i, label in enumerate(labels):
        if label not in AGENTS or label == "chitchat":
            continue
        if runs and runs[-1][0] == label:
            runs[-1][1].append(i)
        else:
            runs.append((label, [i]))
    return [(agent, " / ".join(clauses[i].text for i in parts),
             round(sum(scores[i][agent] - scores[i].get(base, 0.0) for i in parts), 4))
            for agent, parts in runs if agent != base]


def choose_plan(question: str, clauses: Sequence[Clause], scores: Sequence[dict[str, float]], hop_cost: float,
                max_hops: int, whole: dict[str, float] | None = None, earn_margin: float = 0.0) -> SupervisorPlan:
    """The best plan of :func:`best_labellings` (a tie goes to fewer hops), with every distinct candidate and a
    note naming the plan chosen and the shorter plan it beat or the longer one that did not earn its hop.

    With ``whole`` (the whole question's score per agent) the plan starts as one hypothesis: the single agent
    that serves the whole question (:func:`whole_agent`). Any other plan is allowed only when every hop of it
    served by another agent is *earned*: that agent's evidence on the hop's parts beats the whole question's
    agent's by at least ``earn_margin`` (:func:`hop_gains`), i.e. the whole question's agent cannot serve
    that part. Plans that are not earned stay in the candidates with the reason (``earned``, ``why``).
    """
    base = whole_agent(whole) if whole is not None else None
    options: dict[tuple[AgentName, ...], tuple[PlanCandidate, Plan]] = {}
    for evidence, cost, labels in best_labellings(scores, marked_boundaries(question, clauses), hop_cost):
        plan = plan_from_labels(question, clauses, labels, scores, max_hops)
        earned, why = True, ""
        if base is not None and plan.sequence != (base,):
            gains = hop_gains(clauses, labels, scores, base)
            weakest = min(gains, key=lambda g: g[2]) if gains else None
            earned = weakest is not None and weakest[2] >= earn_margin
            why = f"no part is served by another agent than {base}" if weakest is None else (
                f"{weakest[0]} on {weakest[1]!r}: {weakest[2]:+.2f} over {base} "
                f"{'>=' if earned else '<'} margin {earn_margin:.2f}")
        candidate = PlanCandidate(plan.sequence, plan.tasks, round(evidence, 4), round(cost, 4),
                                  round(evidence - cost, 4), earned, why)
        if plan.sequence not in options or (candidate.earned, candidate.score) > (
                options[plan.sequence][0].earned, options[plan.sequence][0].score):
            options[plan.sequence] = (candidate, plan)
    if base is not None and (base,) not in options:  # the one-agent hypothesis is always weighed
        evidence = round(sum(row.get(base, 0.0) for row in scores), 4)
        options[(base,)] = (PlanCandidate((base,), (question,), evidence, 0.0, evidence), Plan((base,), (question,)))
    ranked = sorted(options.values(), key=lambda option: (not option[0].earned, -option[0].score, len(option[0].sequence)))
    (best, plan), others = ranked[0], [c for c, _ in ranked[1:]]
    shown = lambda c: (f"{' -> '.join(c.sequence)} {c.score:.2f} (evidence {c.evidence:.2f} - hop cost {c.cost:.2f})"  # noqa: E731
                       + (f" [{c.why}]" if c.why else ""))
    outscoring = [f"; not earned: {shown(c)}" for c in others if not c.earned and c.score > best.score]
    shorter = [f"; its extra hop is earned over {shown(c)}" for c in others if len(c.sequence) < len(best.sequence)]
    longer = [f"; not earned: {shown(c)}" for c in others if len(c.sequence) > len(best.sequence)]
    chosen = shown(best) if best.why or base is None else f"{shown(best)} [one agent for the whole question: {base}]"
    note = f"chose {chosen}{plan.note}{''.join(dict.fromkeys(outscoring[:1] + shorter[:1] + longer[:1]))}"
    return SupervisorPlan(plan.sequence, plan.tasks, note, candidates=(best, *others))


class LocalSupervisor:
    """The shortest plan that covers the question's parts, each extra hop earned (see the module docstring)."""

    def __init__(self, routes: Sequence[RouteSpec], embedder: Embeddings | None = None, k: int = SUPERVISOR.k,
                 term_weight: float = SUPERVISOR.term_weight, head_weight: float = SUPERVISOR.head_weight,
                 hop_cost: float = SUPERVISOR.hop_cost, earn_margin: float = SUPERVISOR.earn_margin,
                 default: AgentName = DEFAULT_AGENT):
        names = [spec.name for spec in routes]
        if not set(AGENTS) <= set(names):
            raise ValueError(f"the supervisor's routes must include every agent {list(AGENTS)}, got {names}")
        self.router = LocalRouter(routes, fallback=default, embedder=embedder, k=k)
        self.frequencies, self.sizes, self.heads = example_vocabulary(routes)
        self.term_weight, self.head_weight, self.hop_cost = term_weight, head_weight, hop_cost
        self.earn_margin = earn_margin

    def term_evidence(self, text: str) -> dict[str, float]:
        """The share of the text's idf weight each route's examples explain (unknown terms count for none)."""
        shares = term_shares(list(dict.fromkeys(tokenize(text))), self.frequencies, self.sizes, UNKNOWN_TERMS)
        return {name: shares[name] for name in self.frequencies}

    def head_evidence(self, text: str) -> dict[str, float]:
        """How the routes share the examples that open with the text's head (an unknown head: none)."""
        shares = term_shares([head(text)], self.heads, self.sizes, UNKNOWN_TERMS)
        return {name: shares[name] for name in self.heads}

    def scores(self, text: str) -> dict[str, float]:
        """The score of each route for one part (:func:`mix_evidence` of its three kinds of evidence)."""
        return mix_evidence(self.router.scores(text), self.term_evidence(text), self.head_evidence(text),
                            self.term_weight, self.head_weight)

    def evidence(self, question: str) -> list[tuple[Clause, dict[str, float]]]:
        """Each part (clause) of the question with its score per route."""
        clauses = split_clauses(question) or [Clause(question, question)]
        embed(self.router.embedder, [question, *(c.text for c in clauses)])  # one batch: later calls hit the cache
        return [(clause, self.scores(clause.text)) for clause in clauses]

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> SupervisorPlan:
        """The ordered agents for a question, the part each hop is for (``tasks``), and the candidates weighed."""
        question = clean_query(question, what="question")
        evidence = self.evidence(question)
        return choose_plan(question, [c for c, _ in evidence], [s for _, s in evidence], self.hop_cost, max_hops,
                           whole=self.scores(question), earn_margin=self.earn_margin)


__all__ = ["LocalSupervisor", "ORDERING_WORDS", "PlanCandidate", "SupervisorPlan", "UNHEADED", "UNKNOWN_TERMS",
           "best_labellings", "choose_plan", "example_vocabulary", "head", "hop_gains", "marked_boundaries", "mix_evidence", "plan_from_labels",
           "whole_agent"]
