"""The local supervisor: the shortest plan of agents that covers a request's parts, offline.

A plan is a hypothesis with a cost. A question's parts are its clauses (:func:`ragkit.core.nlp.split_clauses`),
each scored per class from labelled examples (:func:`mix_evidence`: ``LocalRouter``'s k-nearest-prototype score,
the share of the part's idf weight each class's examples explain, and the share of the examples that open with
the part's first word, its head: "implement", "compare"; plus, for a route that declares it in ``RouteSpec.serves``,
a signal of :data:`ragkit.offline.router.SIGNALS` weighted by ``signal_weights``: the handbook team's code agent
serves ``compute``, arithmetic on numbers the part gives, "2 to the power of 20", and ``execute``, a part that opens
with a verb of running or measuring, "time the search"). A change of agent is a hop that costs ``hop_cost``
unless the wording marks a new step there (:func:`marked_boundaries`; in a series whose last item opens with
"then", its commas too), since a comma or a bare "and" also joins the pieces of one request. Small talk and scene-setting parts (``context``) go with a neighbour's agent and add
no hop. Dynamic programming finds the best plan for every ending agent and hop count (:func:`best_labellings`).

The first hypothesis is the one agent that can best serve the whole question, and any other plan must be earned
by a part that agent cannot serve, by at least ``earn_margin`` (:func:`choose_plan`). Raw scores of two agents
are not comparable (one agent's examples share more words with everything), so each score is turned into a
*can-serve probability* (:class:`ServeCalibration`), calibrated on the route examples, each scored with itself
left out (:func:`held_out_evidence`, :func:`calibrate`). Two readings of the wording follow: a goal asked first
and worked on where it is restated ("Which k1 is best? ..., then recommend one": :func:`restated_goal`), and a
part that names the rag agent's corpus (``corpus``, the team domain's: "handbook") gets a lookup in front of
it (:func:`lookup_first`). The examples are passed in (``routes``, e.g.
``ragkit.domains.handbook.agents.SUPERVISOR_ROUTES``); how well it routes and how its settings were chosen:
``benchmarks/supervisor/README.md``.

What it cannot do: it reads no meaning beyond MiniLM's similarity to its examples and their words, so an
implicit step that does not name the corpus ("Using the standard definition, ...") is found only when its part is
close to a ``rag`` example, a detail of one request that names a topic ("..., and show the DCG along the way")
can look like a lookup, a scene-setting first sentence ("I'm building a FAQ bot.") can be taken for a step, a step
worded unlike every example ("fuse the lists") is not seen as one, and "what does the snippet print" (look it
up) and "run the snippet" differ only by their wording. The probabilities are calibrated on the route examples,
not on questions, so they say how an example-like text would be served (and without the signal part a live part's
score has: the ``compute`` signal lifts the code agent's score past what its calibration saw); each (last agent, hops) pair keeps only
its best labelling, so an earned labelling behind an unearned better one is not weighed. The margin is one number
for every pair of agents, in probability or in log-odds (``earn_scale``); neither tells a follow-up the first agent
answers ("..., and when?") from a new step as well as sending the whole question to one agent does on one-agent
questions (``benchmarks/supervisor/README.md``).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from dataclasses import dataclass
from itertools import groupby
from typing import Literal, Mapping, Sequence

import numpy as np
from langchain_core.embeddings import Embeddings

from ragkit.core.embeddings import embed
from ragkit.core.nlp import Clause, Order, clean_query, split_clauses, tokenize
from ragkit.defaults import SUPERVISOR
from ragkit.offline.router import LocalRouter, term_shares
from ragkit.roles.agent_protocols import AGENTS, DEFAULT_AGENT, AgentName, Plan
from ragkit.roles.router_protocols import RouteSpec

UNKNOWN_TERMS = "__unknown__"  # where term_shares puts the weight of terms no example contains
ORDERING_WORDS = ("then", "after", "afterwards", "before", "finally", "lastly", "next", "once")  # open a new step
_OPENS_STEP = re.compile(rf"(?:and\s+)?(?:{'|'.join(ORDERING_WORDS)})\b", re.I)  # a clause that opens with one
UNHEADED = frozenset(("a", "an", "the", "please", "pls", "plz", "kindly", "you"))  # skipped before a part's head ("before you write it")
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


def reorder(clauses: Sequence[Clause]) -> list[Clause]:
    """Apply the order marks: "first" clauses to the front, a prerequisite before the clause it follows,
    an "after_next" clause behind the next one.

    >>> [c.text for c in reorder([Clause("code it", ""), Clause("look it up", "", "before_previous")])]
    ['look it up', 'code it']
    """
    items = list(clauses)
    for i in range(1, len(items)):
        if items[i].order == "before_previous":
            items[i - 1], items[i] = items[i], items[i - 1]
    for i in range(len(items) - 2, -1, -1):
        if items[i].order == "after_next":
            items[i], items[i + 1] = items[i + 1], items[i]
    return [c for c in items if c.order == "first"] + [c for c in items if c.order != "first"]


_ORDER_STRENGTH: tuple[Order, ...] = ("first", "before_previous", "after_next", "")


def merge(a: Clause, b: Clause, order: Order | None = None) -> Clause:
    """Two neighbouring clauses as one; ``order`` defaults to the stronger of their marks.

    >>> merge(Clause("a", "a"), Clause("b", "b", "first"))
    Clause(text='a b', raw='a b', order='first')
    """
    order = min(a.order, b.order, key=_ORDER_STRENGTH.index) if order is None else order
    return Clause(f"{a.text} {b.text}".strip(), f"{a.raw} {b.raw}".strip(), order)


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
    ordering clause and its comma ("Using X, write Y"). A bare comma or "and" marks nothing, except in a series of
    steps whose last item opens with an ordering word ("A, B, then C"): that word marks the commas of the series.
    What it cannot do: a list of nouns inside one step before ", then" ("compare BM25, TF-IDF, then pick") is read
    as steps too (each hop must still be earned).

    >>> q = "Look up BM25, implement it. Then compare it with [1, 2] and tell me"
    >>> marked_boundaries(q, split_clauses(q))
    [True, False, True, False]
    >>> q = "Check how RRF is defined, fuse two lists in code, then judge the result"
    >>> marked_boundaries(q, split_clauses(q))
    [True, True, True]
    """
    marks, end = [], 0
    opens_step = [bool(_OPENS_STEP.match(clause.raw)) for clause in clauses]
    for i, clause in enumerate(clauses):
        start, before = max(question.find(clause.raw, end), end), clauses[i - 1] if i else None
        marks.append(before is None or bool(
            clause.order or opens_step[i]
            or before.raw.rstrip()[-1:] in ".?!;:" or question[end:start].strip()
            or (before.order and before.raw.rstrip().endswith(","))))
        end = start + len(clause.raw)
    for i in range(len(clauses) - 1, 0, -1):  # a series "A, B, then C": its last item's ordering word marks its commas
        if opens_step[i]:
            j = i - 1
            while j > 0 and clauses[j].raw.rstrip().endswith(",") and clauses[j - 1].raw.rstrip().endswith(","):
                marks[j], j = True, j - 1
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


def restated_goal(steps: Sequence[tuple[Clause, str]]) -> list[tuple[Clause, str]]:
    """A goal stated first and worked on last: when the first step is a question or an announcement of its own
    (its text ends in "?" or ":") and a later step has the same agent, that agent works once, at the later step,
    with the goal in its task ("I want a verdict on k: read the handbook, try a few values, then decide").
    What it cannot do: a first question that is real work repeated later ("What is BM25? Code it, then tell me
    what the handbook says about k1") loses its first hop.

    >>> steps = [(Clause("Which k1 is best?", "Which k1 is best?"), "analysis"), (Clause("code it", "code it"), "code"),
    ...          (Clause("recommend one", "recommend one"), "analysis")]
    >>> [(c.text, agent) for c, agent in restated_goal(steps)]
    [('code it', 'code'), ('Which k1 is best? recommend one', 'analysis')]
    """
    if len(steps) < 3 or steps[0][0].raw.rstrip()[-1:] not in ("?", ":"):
        return list(steps)
    (first, agent), rest = steps[0], list(steps[1:])
    later = next((i for i, (_, label) in enumerate(rest) if label == agent), None)
    if later is None:
        return list(steps)
    rest[later] = (merge(first, rest[later][0], rest[later][0].order), agent)
    return rest


def plan_from_labels(question: str, clauses: Sequence[Clause], labels: Sequence[str],
                     scores: Sequence[dict[str, float]], max_hops: int) -> Plan:
    """The plan of a labelling: parts of one agent in a row are one hop; a ``context`` or ``chitchat`` part
    joins the hop before it, its words kept in that hop's task (a scene-setting part in front joins the next
    hop; small talk in front is dropped); order marks applied (:func:`reorder`), repeats in a
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
    steps = restated_goal(steps)
    agents, sequence, tasks = {id(c): a for c, a in steps}, [], []
    for clause in reorder([c for c, _ in steps]):
        if sequence and sequence[-1] == agents[id(clause)]:
            tasks[-1] = f"{tasks[-1]}; {clause.text}"
        else:
            sequence, tasks = [*sequence, agents[id(clause)]], [*tasks, clause.text]
    return Plan(*cut_at(sequence, tasks, max_hops))


def cut_at(sequence: Sequence[str], tasks: Sequence[str], max_hops: int) -> tuple[tuple, tuple, str]:
    """A plan's agents and tasks cut at ``max_hops``, and the note saying so ("" when nothing was cut)."""
    cut = f" (cut at max_hops={max_hops})" if len(sequence) > max_hops else ""
    return tuple(sequence[:max_hops]), tuple(tasks[:max_hops]), cut


def names_corpus(text: str, corpus: str) -> bool:
    """Whether the text names the rag agent's corpus ("what the handbook says", "the handbook's formula").

    >>> names_corpus("compare it with what the Handbook claims", "handbook"), names_corpus("my notes", "handbook")
    (True, False)
    """
    return bool(corpus) and re.search(rf"\b{re.escape(corpus)}(?:'s|s)?\b", text, re.IGNORECASE) is not None


def lookup_first(plan: Plan, corpus: str, max_hops: int) -> Plan:
    """A hop of another agent whose part names the corpus needs what the corpus says first: the lookup agent
    (``DEFAULT_AGENT``, rag) goes in front of it unless a lookup comes earlier in the plan. Small talk needs none.
    What it cannot do: it reads the corpus's name, not a reference to it ("the section on MMR"), and a part that
    names the corpus only in passing ("unlike the handbook, ...") gets a lookup too.

    >>> lookup_first(Plan(("code", "analysis"), ("time it", "compare with what the handbook claims")), "handbook", 3).sequence
    ('code', 'rag', 'analysis')
    """
    sequence, tasks = [], []
    for agent, task in zip(plan.sequence, plan.tasks or (("",) * len(plan.sequence))):
        if agent not in (DEFAULT_AGENT, "chitchat") and names_corpus(task, corpus) and DEFAULT_AGENT not in sequence:
            sequence, tasks = [*sequence, DEFAULT_AGENT], [*tasks, task]
        sequence, tasks = [*sequence, agent], [*tasks, task]
    if len(sequence) == len(plan.sequence):
        return plan
    sequence, tasks, cut = cut_at(sequence, tasks, max_hops)
    return dataclasses.replace(plan, sequence=sequence, tasks=tasks, note=f"{plan.note}; a lookup first: a part names the corpus{cut}")


def mix_evidence(protos: dict[str, float], terms: dict[str, float], heads: dict[str, float], term_weight: float,
                 head_weight: float) -> dict[str, float]:
    """One part's score per route: prototypes + ``term_weight`` * terms + ``head_weight`` * head."""
    return {a: protos[a] + term_weight * terms[a] + head_weight * heads[a] for a in protos}


Evidence = tuple[str, dict[str, float], dict[str, float], dict[str, float]]  # (route, prototypes, terms, heads)


def held_out_evidence(routes: Sequence[RouteSpec], embedder: Embeddings, k: int) -> list[Evidence]:
    """Every route example scored as a part would be, with the example itself left out of the prototypes, the term
    counts and the heads: (its route, prototype, term and head evidence per route). What :func:`calibrate` reads.

    >>> from langchain_core.embeddings import DeterministicFakeEmbedding
    >>> routes = [RouteSpec("code", "", ("write a function", "write a class", "print it")),
    ...           RouteSpec("rag", "", ("look it up", "find the page", "read the section"))]
    >>> route, protos, terms, heads = held_out_evidence(routes, DeterministicFakeEmbedding(size=8), k=1)[0]
    >>> route, round(terms["code"], 2), round(heads["code"], 2)  # only "write a class" still explains "write"
    ('code', 0.31, 1.0)
    """
    texts = [(spec.name, text, is_example) for spec in routes
             for text, is_example in [(spec.description, False)] * bool(spec.description.strip())
             + [(example, True) for example in spec.examples]]
    vectors = embed(embedder, [text for _, text, _ in texts])
    owners = np.array([name for name, _, _ in texts])
    frequencies, sizes, heads = example_vocabulary(routes)
    rows = []
    for i, (own, text, is_example) in enumerate(texts):
        if not is_example:
            continue
        sims, others = vectors @ vectors[i], np.arange(len(texts)) != i
        protos = {}
        for spec in routes:
            nearest = np.sort(sims[(owners == spec.name) & others])[::-1][:k]
            protos[spec.name] = float(nearest.mean()) if len(nearest) else 0.0
        terms, opener = list(dict.fromkeys(tokenize(text))), head(text)
        without = {name: freq - Counter(set(terms)) if name == own else freq for name, freq in frequencies.items()}
        opened = {name: count - Counter([opener]) if name == own else count for name, count in heads.items()}
        less = {name: size - (name == own) for name, size in sizes.items()}
        term_share, head_share = term_shares(terms, without, less, UNKNOWN_TERMS), term_shares([opener], opened, less, UNKNOWN_TERMS)
        rows.append((own, protos, {n: term_share[n] for n in frequencies}, {n: head_share[n] for n in heads}))
    return rows


@dataclass(frozen=True)
class ServeCalibration:
    """Per route, the (slope, offset) of the log-odds that the route serves a text given the route's score on it:
    ``P = 1 / (1 + exp(-(slope * score + offset)))``, so every agent's score is on one scale."""

    log_odds: Mapping[str, tuple[float, float]]

    def __call__(self, scores: Mapping[str, float]) -> dict[str, float]:
        """The can-serve probability of each route for one text's scores.

        >>> ServeCalibration({"rag": (10.0, -5.0)})({"rag": 0.5})
        {'rag': 0.5}
        """
        return {name: 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, a * value + b))))
                for name, value in scores.items() for a, b in [self.log_odds[name]]}


def calibrate(rows: Sequence[Evidence], term_weight: float, head_weight: float) -> ServeCalibration:
    """Each route's can-serve calibration from held-out example scores (:func:`held_out_evidence`): its scores on
    its own examples and on the other routes' examples as two Gaussians with one shared variance, weighted by their
    counts (linear discriminant analysis on one feature), which gives a log-odds linear in the score.

    >>> rows = [("a", {"a": s, "b": 1 - s}, {"a": 0.0, "b": 0.0}, {"a": 0.0, "b": 0.0}) for s in (0.8, 0.9)]
    >>> rows += [("b", {"a": s, "b": 1 - s}, {"a": 0.0, "b": 0.0}, {"a": 0.0, "b": 0.0}) for s in (0.1, 0.3)]
    >>> calibration = calibrate(rows, 0.0, 0.0)  # a scores its own examples 0.85 on average, b's 0.2
    >>> {name: round(p, 2) for name, p in calibration({"a": 0.525, "b": 0.475}).items()}  # both halfway
    {'a': 0.5, 'b': 0.5}
    >>> round(calibration({"a": 0.7, "b": 0.0})["a"], 2), round(calibration({"a": 0.7, "b": 0.0})["b"], 2)
    (1.0, 0.0)
    """
    mixed = [(own, mix_evidence(protos, terms, heads, term_weight, head_weight)) for own, protos, terms, heads in rows]
    log_odds = {}
    for name in mixed[0][1]:
        mine = np.array([scores[name] for own, scores in mixed if own == name])
        others = np.array([scores[name] for own, scores in mixed if own != name])
        if len(mine) < 2 or len(others) < 2:  # too few examples to calibrate: keep the raw score's order
            log_odds[name] = (1.0, 0.0)
            continue
        spread = max(1e-6, (((mine - mine.mean()) ** 2).sum() + ((others - others.mean()) ** 2).sum())
                     / (len(mine) + len(others) - 2))
        slope = (mine.mean() - others.mean()) / spread
        log_odds[name] = (float(slope), float(-slope * (mine.mean() + others.mean()) / 2 + math.log(len(mine) / len(others))))
    return ServeCalibration(log_odds)


def whole_agent(whole: dict[str, float]) -> AgentName:
    """The one agent that serves the whole question best: its highest score (or can-serve probability) among the
    agents, never ``context``.

    >>> whole_agent({"rag": 0.4, "analysis": 0.4, "code": 0.1, "context": 0.9})
    'rag'
    """
    return max(AGENTS, key=lambda agent: (whole.get(agent, float("-inf")), -AGENTS.index(agent)))


EarnScale = Literal["probability", "log_odds"]


def log_odds(p: float) -> float:
    """``log(p / (1 - p))``, with ``p`` kept within 1e-9 of 0 and 1 (so within about +-20.7).

    >>> round(log_odds(0.5), 2), round(log_odds(0.9), 2), round(log_odds(1.0), 1)
    (0.0, 2.2, 20.7)
    """
    p = min(1.0 - 1e-9, max(1e-9, p))
    return math.log(p / (1.0 - p))


def hop_gains(clauses: Sequence[Clause], labels: Sequence[str], serve: Sequence[dict[str, float]],
              base: AgentName, scale: EarnScale = "probability") -> list[tuple[str, str, float]]:
    """For each run of parts labelled with one agent other than ``base``: (agent, the run's part where that agent
    gains most, how much more likely it serves that part than ``base`` does). Chitchat and ``context`` parts are
    nobody's hop. ``scale="probability"``: the gain is the difference of the probabilities; ``"log_odds"``: of their
    log-odds, the log of a likelihood ratio, so 0.81 against 1.00 is a large step apart while 0.45 against 0.05 is
    a large step too (both agents' evidence on one calibrated scale, not capped at 1).

    >>> parts = [Clause(t, t) for t in ("look it up", "and code it", "and test it")]
    >>> rows = [{"rag": 0.9, "code": 0.1}, {"rag": 0.3, "code": 0.8}, {"rag": 0.4, "code": 0.5}]
    >>> hop_gains(parts, ["rag", "code", "code"], rows, "rag")
    [('code', 'and code it', 0.5)]
    >>> hop_gains(parts, ["rag", "code", "code"], rows, "rag", scale="log_odds")  # log(0.8/0.2) - log(0.3/0.7)
    [('code', 'and code it', 2.2336)]
    """
    agent_parts = [i for i, label in enumerate(labels) if label in AGENTS and label != "chitchat"]
    lift = (lambda p: p) if scale == "probability" else log_odds
    out = []
    for agent, parts in groupby(agent_parts, key=lambda i: labels[i]):
        if agent != base:
            gain, i = max((lift(serve[i][agent]) - lift(serve[i].get(base, 0.0)), -i) for i in parts)
            out.append((agent, clauses[-i].text, round(gain, 4)))
    return out


def choose_plan(question: str, clauses: Sequence[Clause], scores: Sequence[dict[str, float]], hop_cost: float,
                max_hops: int, whole: dict[str, float] | None = None, earn_margin: float = 0.0,
                serve: Sequence[dict[str, float]] | None = None, earn_scale: EarnScale = "probability",
                corpus: str = "") -> SupervisorPlan:
    """The best plan of :func:`best_labellings` (a tie goes to fewer hops), with every distinct candidate and a
    note naming the plan chosen and the shorter plan it beat or the longer one that did not earn its hop.

    With ``whole`` (how likely each agent serves the whole question) the plan starts as one hypothesis: the single
    agent that serves the whole question (:func:`whole_agent`). Any other plan is allowed only when every hop of it
    served by another agent is *earned*: on one of the hop's parts, that agent is more likely to serve it than the
    whole question's agent by at least ``earn_margin`` (:func:`hop_gains` on ``serve``, the parts' can-serve
    probabilities; without ``serve``, on ``scores``), i.e. the whole question's agent cannot serve that part. Plans
    that are not earned stay in the candidates with the reason (``earned``, ``why``). ``earn_scale`` says what the
    margin is measured in: a difference of probabilities, or of log-odds (a log likelihood ratio, :func:`hop_gains`).
    A hop whose part names the rag agent's corpus (``corpus``) gets a lookup in front of it (:func:`lookup_first`).
    """
    serve = scores if serve is None else serve
    base = whole_agent(whole) if whole is not None else None
    options: dict[tuple[AgentName, ...], tuple[PlanCandidate, Plan]] = {}
    for evidence, cost, labels in best_labellings(scores, marked_boundaries(question, clauses), hop_cost):
        plan = plan_from_labels(question, clauses, labels, scores, max_hops)
        earned, why = True, ""
        if base is not None and plan.sequence != (base,):
            gains = hop_gains(clauses, labels, serve, base, earn_scale)
            weakest = min(gains, key=lambda g: g[2]) if gains else None
            earned = weakest is not None and weakest[2] >= earn_margin
            unit = "" if earn_scale == "probability" else " log-odds"
            why = f"no part is served by another agent than {base}" if weakest is None else (
                f"{weakest[0]} on {weakest[1]!r}: {weakest[2]:+.2f}{unit} over {base} "
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
    plan = lookup_first(dataclasses.replace(plan, note=note), corpus, max_hops)
    return SupervisorPlan(plan.sequence, plan.tasks, plan.note, candidates=(best, *others))


class LocalSupervisor:
    """The shortest plan that covers the question's parts, each extra hop earned (see the module docstring)."""

    def __init__(self, routes: Sequence[RouteSpec], embedder: Embeddings | None = None, k: int = SUPERVISOR.k,
                 term_weight: float = SUPERVISOR.term_weight, head_weight: float = SUPERVISOR.head_weight,
                 hop_cost: float = SUPERVISOR.hop_cost, earn_margin: float = SUPERVISOR.earn_margin,
                 earn_scale: EarnScale = SUPERVISOR.earn_scale, default: AgentName = DEFAULT_AGENT,
                 corpus: str = "", signal_weights: Mapping[str, float] | None = None):
        names = [spec.name for spec in routes]
        if not set(AGENTS) <= set(names):
            raise ValueError(f"the supervisor's routes must include every agent {list(AGENTS)}, got {names}")
        self.router = LocalRouter(routes, fallback=default, embedder=embedder, k=k,
                                  signal_weights=SUPERVISOR.signal_weights if signal_weights is None else signal_weights)
        self.frequencies, self.sizes, self.heads = example_vocabulary(routes)
        self.term_weight, self.head_weight, self.hop_cost = term_weight, head_weight, hop_cost
        self.earn_margin, self.earn_scale, self.corpus = earn_margin, earn_scale, corpus
        self.calibration = calibrate(held_out_evidence(routes, self.router.embedder, k), term_weight, head_weight)

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

    def can_serve(self, text: str) -> dict[str, float]:
        """How likely each route is to serve the text: its score through the calibration (:class:`ServeCalibration`)."""
        return self.calibration(self.scores(text))

    def evidence(self, question: str) -> list[tuple[Clause, dict[str, float]]]:
        """Each part (clause) of the question with its score per route."""
        clauses = split_clauses(question) or [Clause(question, question)]
        embed(self.router.embedder, [question, *(c.text for c in clauses)])  # one batch: later calls hit the cache
        return [(clause, self.scores(clause.text)) for clause in clauses]

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> SupervisorPlan:
        """The ordered agents for a question, the part each hop is for (``tasks``), and the candidates weighed."""
        question = clean_query(question, what="question")
        evidence = self.evidence(question)
        scores = [s for _, s in evidence]
        return choose_plan(question, [c for c, _ in evidence], scores, self.hop_cost, max_hops,
                           whole=self.can_serve(question), earn_margin=self.earn_margin,
                           serve=[self.calibration(s) for s in scores], earn_scale=self.earn_scale,
                           corpus=self.corpus)


__all__ = ["EarnScale", "Evidence", "LocalSupervisor", "ORDERING_WORDS", "PlanCandidate", "ServeCalibration", "SupervisorPlan", "UNHEADED",
           "UNKNOWN_TERMS", "best_labellings", "calibrate", "choose_plan", "cut_at", "example_vocabulary", "head", "held_out_evidence", "hop_gains",
           "log_odds", "lookup_first", "marked_boundaries", "mix_evidence", "names_corpus", "plan_from_labels", "restated_goal", "whole_agent"]
