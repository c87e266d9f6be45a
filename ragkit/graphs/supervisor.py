"""The supervisor graph: a supervisor plans which specialist agents a request needs, they run in order,
each seeing what the ones before it found, and an aggregator combines their answers.

The graph::

    check_question -> supervisor -> rag_agent | code_agent | analysis_agent | chitchat_agent
    check_question -> unsupported_language -> END          (the offline roles read English only)
    <each agent> -> next_hop -> <the next planned agent>   (while hops remain and hops < max_hops)
    <each agent> -> aggregator -> END

Unlike a supervisor that loops back to itself after every worker (stopped only by LangGraph's recursion
limit), the plan is made once and the hops are counted in the state, so a run takes at most
``worst_case_steps(max_hops)`` steps whatever the supervisor proposes. The plans weighed and why one was
chosen are in ``plan_candidates`` and ``plan_note``; ``hop_log`` records every hop's task, what it saw, its
answer and its time. An empty or oversized question, a bad ``max_hops`` or a ``recursion_limit`` too low for
it raises before any agent runs; an agent that raises becomes an answer saying so, and the run goes on to the
aggregator. The final state carries the RAG result fields (:class:`ragkit.core.contract.RAGResult`).

What it cannot do: the plan is not revised after a hop (no replanning); an agent that runs twice in one
plan (rag, code, rag) overwrites its own field and the ``sources`` (``hop_log`` keeps both); the rag agent
searches with its task's subject, not with the earlier answers; a refusal hands the later agents no
passages (a refused result has no sources).
"""

from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypedDict

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from ragkit.core.contract import (
    RAGResult,
    check_limit,
    check_positive,
    check_question_node,
    check_steps,
    result,
    traced,
    unsupported_language,
)
from ragkit.core.nlp import fenced
from ragkit.core.search import ScoredSearch, as_scored_search, run_search
from ragkit.defaults import GRAPHS, SUPERVISOR
from ragkit.graphs.crag import build_crag_graph
from ragkit.offline.agents import LocalAggregator, LocalAnalyst, LocalCoder, describe_code, search_subject
from ragkit.offline.small_talk import LocalSmallTalk
from ragkit.offline.supervisor import LocalSupervisor
from ragkit.roles.agent_protocols import (
    AgentAnswer,
    AgentName,
    Aggregator,
    Analyst,
    Coder,
    Supervisor,
    TeamDomain,
    normalise_sequence,
    truncate,
)
from ragkit.roles.llm import check_chat_model
from ragkit.roles.llm_agents import LLMAggregator, LLMAnalyst, LLMCoder, LLMSupervisor
from ragkit.roles.llm_queries import LLMSmallTalk, SmallTalk
from ragkit.roles.protocols import choose

BUILDER = "build_supervisor_graph"
AgentNode = Literal["rag_agent", "code_agent", "analysis_agent", "chitchat_agent"]
MAX_OUTPUT_SHOWN = 2_000  # characters of program output put in the code agent's answer
NO_RUNNER = ("This graph was built without a code runner, so the code above was not run. To run code, build "
             "it with one: build_supervisor_graph(run_code=ragkit.sandbox.python_runner()) runs it in the "
             "sandbox, with its limits (python_runner(timeout_s=2, memory_mb=128) ...).")


class CodeRun(Protocol):
    """What a code runner returns (``ragkit.sandbox.SandboxResult`` is one)."""

    status: str
    stdout: str

    @property
    def ok(self) -> bool: ...

    def summary(self) -> str: ...


class HopRecord(TypedDict):
    """One hop: which agent ran, for which part of the question, what it saw, what it said, how long it took."""

    hop: int
    agent: AgentName
    task: str
    saw: list[tuple[str, str]]  # (agent, the truncated answer it passed on)
    answer: str
    ok: bool
    seconds: float


class SupervisorState(RAGResult, total=False):
    """State of the supervisor graph; the result fields (answer, sources, outcome, ...) come from ``RAGResult``."""

    max_hops: int  # cap on agents per run (the planned sequence is cut here)
    plan: list[AgentName]  # the planned sequence of agents
    tasks: list[str]  # the part of the question each planned hop is for
    plan_note: str  # why this plan: LocalSupervisor names the plan chosen, its score, and the shorter or longer one
    plan_candidates: list[Any]  # the plans weighed, chosen first (LocalSupervisor: PlanCandidate with evidence, cost, score)
    plan_fallback: bool  # the supervisor proposed nothing usable: the default agent was used
    dropped: list[str]  # proposed names that are not agents
    hops: int  # agents run so far
    next_agent: AgentName
    rag_question: str  # what the rag agent asked its RAG graph: its task without the words naming the corpus
    rag_answer: str
    code_answer: str
    analysis_answer: str
    chitchat_answer: str
    answers: list[AgentAnswer]  # every hop's answer, in order
    hop_log: list[HopRecord]
    code: str
    code_result: CodeRun | None
    aggregate_fallback: bool


Work = Callable[[SupervisorState, str, list[AgentAnswer]], tuple[AgentAnswer, dict[str, Any]]]


# ---------------------------------------------------------------- small helpers
def worst_case_steps(max_hops: int) -> int:
    """The ``recursion_limit`` a run needs at most: check_question, supervisor, ``max_hops`` agents, the
    ``max_hops - 1`` next_hop nodes between them and the aggregator, plus LangGraph's start step.

    >>> worst_case_steps(3)
    9
    """
    return 2 * max_hops + 3


def rag_answer(output: dict[str, Any]) -> AgentAnswer:
    """The rag agent's answer, read from the result fields every ragkit RAG graph ends with (``answer``,
    ``sources``, ``outcome``, ``citations``, ``reason``: :class:`ragkit.core.contract.RAGResult`).

    >>> rag_answer({"answer": "I don't know.", "outcome": "refused", "reason": "irrelevant"}).ok
    False
    >>> rag_answer({"answer": "Which one?", "outcome": "asked_back"}).text
    'The RAG graph asked back instead of answering: Which one?'
    """
    text, outcome, reason = str(output.get("answer") or ""), output.get("outcome"), str(output.get("reason") or "")
    if outcome == "asked_back":
        return AgentAnswer("rag", f"The RAG graph asked back instead of answering: {text}", ok=False, note=reason)
    return AgentAnswer("rag", text or "The RAG graph returned no answer.", tuple(output.get("sources") or ()),
                       ok=outcome == "answered" and bool(text.strip()), note=reason,
                       citations=tuple(output.get("citations") or ()))


def outcome_of(answers: list[AgentAnswer]) -> tuple[Literal["answered", "refused"], str]:
    """``answered`` when at least one agent did its part, else ``refused``; the reason names who did what.

    >>> outcome_of([AgentAnswer("rag", "a"), AgentAnswer("code", "b", ok=False)])
    ('answered', 'done by: rag; could not do its part: code')
    """
    done = list(dict.fromkeys(a.agent for a in answers if a.ok))
    failed = list(dict.fromkeys(a.agent for a in answers if not a.ok))
    reason = "; ".join([*([f"done by: {', '.join(done)}"] if done else []),
                        *([f"could not do its part: {', '.join(failed)}"] if failed else [])]) or "no agent answered"
    return ("answered" if done else "refused"), reason


# ---------------------------------------------------------------- nodes
def start_run(default_max_hops: int) -> Callable[[dict, RunnableConfig, str], SupervisorState]:
    """What the entry node adds: the hop cap (checked against the run's ``recursion_limit``), clean fields."""

    def start(state: dict, config: RunnableConfig, question: str) -> SupervisorState:
        cap = state.get("max_hops", default_max_hops)
        check_positive(max_hops=cap)
        check_steps(config, worst_case_steps(cap), max_hops=cap)
        return {"max_hops": cap, "plan": [], "hops": 0, "answers": [], "hop_log": [], "sources": [], "citations": [],
                "code": "", "code_result": None, "rag_question": "", "rag_answer": "", "code_answer": "", "analysis_answer": "",
                "chitchat_answer": ""}

    return start


def supervisor_node(supervisor: Supervisor) -> Callable[[SupervisorState], SupervisorState]:
    """Build the ``supervisor`` node: ask the role for a plan, then normalise it in code, whatever it returned
    (:func:`ragkit.roles.agent_protocols.normalise_sequence`)."""

    @traced("supervisor")
    def supervise(state: SupervisorState) -> SupervisorState:
        """Plan the agents; a supervisor that raises takes the default agent, with the reason kept.

        Reads: question, max_hops. Writes: plan, tasks, plan_note, plan_candidates, plan_fallback, dropped, next_agent.
        """
        cap = state["max_hops"]
        try:
            plan = supervisor.plan(state["question"], cap)
            proposed, tasks = getattr(plan, "sequence", None), list(getattr(plan, "tasks", ()) or ())
            note, role_dropped, role_fallback, candidates = (str(getattr(plan, "note", ""))[:600], tuple(getattr(plan, "dropped", ())),
                                                             bool(getattr(plan, "fallback", False)), list(getattr(plan, "candidates", ()) or ()))
        except Exception as err:  # noqa: BLE001 - the safe default, with the reason kept
            proposed, tasks, note, role_dropped, role_fallback, candidates = [], [], f"supervisor failed ({err!r})", (), True, []
        sequence, dropped, fallback = normalise_sequence(list(proposed) if isinstance(proposed, (list, tuple)) else [], cap)
        if len(tasks) != len(sequence) or not all(isinstance(t, str) and t.strip() for t in tasks):
            tasks = [state["question"]] * len(sequence)
        return {"plan": list(sequence), "tasks": tasks, "plan_note": note, "plan_candidates": candidates, "next_agent": sequence[0],
                "plan_fallback": fallback or role_fallback, "dropped": [*map(str, role_dropped), *dropped]}

    return supervise


@traced("next_hop")
def next_hop(state: SupervisorState) -> SupervisorState:
    """Hand over to the next planned agent. Reads: plan, hops. Writes: next_agent."""
    return {"next_agent": state["plan"][state["hops"]]}


def agent_node(agent: AgentName, work: Work, previous_chars: int) -> Callable[[SupervisorState], SupervisorState]:
    """Build an agent node around its *work* function ``(state, task, earlier) -> (AgentAnswer, extra state)``:
    the node gives it its hop's task and the earlier answers cut to ``previous_chars``, times it, turns an
    exception into an answer saying what failed, and records the answer."""

    @traced(f"{agent}_agent")
    def run(state: SupervisorState) -> SupervisorState:
        """Reads: question, hops, tasks, answers (+ what the work reads). Writes: <agent>_answer, hops,
        answers, hop_log (+ what the work writes: sources, citations, code, code_result)."""
        hop = state.get("hops", 0)
        tasks = state.get("tasks") or []
        task = tasks[hop] if hop < len(tasks) else state["question"]
        earlier = [AgentAnswer(a.agent, truncate(a.text, previous_chars), a.documents, a.ok, a.note, a.citations)
                   for a in state.get("answers") or []]
        start = time.perf_counter()
        try:
            answer, extra = work(state, task, earlier)
        except Exception as err:  # noqa: BLE001 - an agent that fails is an answer saying so; the run goes on
            answer, extra = AgentAnswer(agent, f"The {agent} agent failed ({type(err).__name__}: {err}).", ok=False), {}
        seconds = round(time.perf_counter() - start, 6)
        record: HopRecord = {"hop": hop + 1, "agent": agent, "task": task, "saw": [(a.agent, a.text) for a in earlier],
                             "answer": answer.text, "ok": answer.ok, "seconds": seconds}
        return {**extra, f"{agent}_answer": answer.text, "hops": hop + 1,
                "answers": [*(state.get("answers") or []), answer], "hop_log": [*(state.get("hop_log") or []), record]}

    run.__name__ = run.__qualname__ = f"{agent}_agent"
    return run


def rag_work(rag_graph: Any, sources: tuple[str, ...] = ()) -> Work:
    """The rag agent: run the RAG graph as a subgraph on its task's subject (the task without the words that
    name the corpus, ``sources``: :func:`ragkit.offline.agents.search_subject`), on a fresh thread that is
    then deleted."""
    counter = itertools.count(1)

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        thread_id = f"supervisor-rag-{next(counter)}"
        question = search_subject(task, sources)
        try:
            output = rag_graph.invoke({"question": question}, {"configurable": {"thread_id": thread_id}})
        finally:
            saver = getattr(rag_graph, "checkpointer", None)
            if saver is not None and hasattr(saver, "delete_thread"):
                saver.delete_thread(thread_id)
        answer = rag_answer(output)
        return answer, {"rag_question": question, "sources": list(answer.documents), "citations": list(answer.citations)}

    return work


def code_work(coder: Coder, run_code: Callable[[str], CodeRun] | None) -> Work:
    """The code agent: get code from the coder and run it only through ``run_code``. Its answer says what the
    code is, shows it, what it printed (cut to ``MAX_OUTPUT_SHOWN`` characters) and how the run ended."""

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        draft = coder.draft(state["question"], earlier, list(state.get("sources") or []))
        if not draft.code.strip():
            return AgentAnswer("code", draft.explanation, ok=False, note=draft.origin), {"code": "", "code_result": None}
        explanation, extra = draft.explanation or describe_code(draft.code), {"code": draft.code, "code_result": None}
        shown = f"{explanation}\n\n{fenced(draft.code, 'python')}\n"
        if run_code is None:
            return AgentAnswer("code", shown + NO_RUNNER, ok=False, note="no code runner"), extra
        try:
            run = run_code(draft.code)
        except Exception as err:  # noqa: BLE001 - a runner that cannot run here (no POSIX, code too long) is reported
            return AgentAnswer("code", f"{shown}The code runner could not run it: {err}", ok=False, note="runner failed"), extra
        printed = truncate(run.stdout, MAX_OUTPUT_SHOWN) if run.stdout.strip() else ""
        output = f"Output:\n{fenced(printed)}\n" if printed else "It printed nothing.\n"
        return AgentAnswer("code", shown + output + run.summary(), ok=run.ok, note=run.status), {**extra, "code_result": run}

    return work


def analysis_work(analyst: Analyst, search: ScoredSearch, k: int, corpus: str) -> Work:
    """The analysis agent: analyse what the earlier agents found; with nothing found yet, read ``k`` passages
    the search returns for the question first (and say so)."""

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        docs = list(state.get("sources") or [])
        prefix = ""
        if not docs and not earlier:
            outcome = run_search(search, state["question"], k, what="background search")
            docs = outcome.documents
            prefix = (f"No earlier agent had found anything, so the analyst read the {len(docs)} passages the "
                      f"{corpus} search returned for the question.\n" if docs else f"({outcome.note}.)\n")
        analysis = analyst.analyse(state["question"], earlier, docs)
        return AgentAnswer("analysis", prefix + analysis.text, tuple(docs), not analysis.fallback), {}

    return work


def chitchat_work(small_talk: SmallTalk) -> Work:
    """The chitchat agent: a friendly reply, no retrieval."""

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        return AgentAnswer("chitchat", small_talk.reply(state["question"])), {}

    return work


def aggregator_node(aggregator: Aggregator) -> Callable[[SupervisorState], SupervisorState]:
    """Build the ``aggregator`` node around the aggregator role."""

    @traced("aggregator")
    def aggregate(state: SupervisorState) -> SupervisorState:
        """Combine every hop's answer into the final one.

        Reads: question, answers, sources, citations. Writes: the result fields, aggregate_fallback.
        """
        answers = state.get("answers") or []
        merged = aggregator.combine(state["question"], answers)
        outcome, reason = outcome_of(answers)
        return {**result(merged.text, outcome, reason, state.get("sources") or [], state.get("citations") or []),
                "aggregate_fallback": merged.fallback}

    return aggregate


# ---------------------------------------------------------------- routers
def route_after_check_question(state: SupervisorState) -> Literal["supervisor", "unsupported_language"]:
    """A question the roles cannot read gets the language message; every other one is planned."""
    return "unsupported_language" if state.get("language_note") else "supervisor"


def route_after_supervisor(state: SupervisorState) -> AgentNode:
    """The first planned agent (``supervisor`` and ``next_hop`` only write known agents)."""
    return f"{state['next_agent']}_agent"  # type: ignore[return-value]


def route_after_next_hop(state: SupervisorState) -> AgentNode:
    """The next planned agent."""
    return route_after_supervisor(state)


def route_after_agent(state: SupervisorState) -> Literal["next_hop", "aggregator"]:
    """Another hop while the plan has one left and the cap allows it; else the aggregator."""
    hops = state.get("hops", 0)
    return "next_hop" if hops < len(state.get("plan", [])) and hops < state["max_hops"] else "aggregator"


# ---------------------------------------------------------------- the graph
def supervisor_graph(
    retriever: Any,
    *,
    domain: TeamDomain,
    rag_graph: Any | None = None,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    supervisor: Supervisor | None = None,
    analyst: Analyst | None = None,
    coder: Coder | None = None,
    aggregator: Aggregator | None = None,
    small_talk: SmallTalk | Callable[[str], str] | None = None,
    run_code: Callable[[str], CodeRun] | None = None,
    max_hops: int = SUPERVISOR.max_hops,
    k: int = GRAPHS.k,
    previous_answer_chars: int = SUPERVISOR.previous_answer_chars,
    max_question_chars: int = GRAPHS.max_question_chars,
    strict: bool = False,
    chitchat: SmallTalk | Callable[[str], str] | None = None,
) -> StateGraph:
    """The supervisor graph, uncompiled (see the module docstring).

    ``retriever`` is what the default RAG graph and the analyst's background search read (anything
    :func:`ragkit.core.search.as_scored_search` takes; the handbook's is
    ``ragkit.domains.handbook.corpus.handbook_search()``); ``domain`` is what the team knows about it (a
    :class:`ragkit.roles.agent_protocols.TeamDomain`). ``rag_graph`` is any compiled ragkit RAG graph
    (Self-RAG, CRAG ...), invoked with ``{"question": task}`` and read through its result fields; by
    default CRAG over ``retriever``, built with ``max_clarifications=0`` so it never pauses to ask back.
    ``run_code`` runs the code agent's code (``ragkit.sandbox.python_runner(**limits)``); without it the code
    agent says it cannot run code. ``small_talk`` replies to small talk (an object with ``reply(question)`` or
    a plain function; ``chitchat=`` is its old, deprecated name). Roles left as ``None``: the LLM role on
    ``chat_model`` (the supervisor on ``judge_model`` when given), else the local one. ``max_hops`` is the
    default cap; a run can pass ``{"max_hops": n}`` in its input. ``strict=True`` raises, instead of
    warning, when a chat model cannot return structured output.
    """
    check_limit(max_question_chars)
    check_positive(max_hops=max_hops, k=k, previous_answer_chars=previous_answer_chars)
    if rag_graph is not None and not callable(getattr(rag_graph, "invoke", None)):
        raise TypeError(f"rag_graph must be a compiled graph with invoke(), got {type(rag_graph).__name__}")
    if run_code is not None and not callable(run_code):
        raise TypeError(f"run_code must be a function code -> result (e.g. ragkit.sandbox.python_runner()), "
                        f"got {type(run_code).__name__}")
    chat_model = check_chat_model(chat_model, "chat_model", strict)
    judging = check_chat_model(judge_model, "judge_model", strict) or chat_model
    supervisor = choose(supervisor, Supervisor, "supervisor", model=judging,
                        llm=lambda m: LLMSupervisor(m, domain.descriptions), local=lambda: LocalSupervisor(domain.routes, corpus=domain.corpus))
    analyst = choose(analyst, Analyst, "analyst", model=chat_model, llm=LLMAnalyst,
                     local=lambda: LocalAnalyst(corpus=domain.corpus))
    coder = choose(coder, Coder, "coder", model=chat_model, llm=LLMCoder, local=lambda: LocalCoder(domain.corpus))
    merge = LocalAggregator(domain.titles)
    aggregator = choose(aggregator, Aggregator, "aggregator", model=chat_model,
                        llm=lambda m: LLMAggregator(m, fallback=merge), local=lambda: merge)
    def canned() -> LocalSmallTalk:
        return LocalSmallTalk(domain.small_talk, domain.replies, domain.small_talk_fallback)

    if chitchat is not None:
        if small_talk is not None:
            raise TypeError("pass small_talk= only (chitchat= is its old name)")
        warnings.warn("chitchat= is deprecated: pass small_talk=", DeprecationWarning, stacklevel=2)
        small_talk = chitchat
    small_talk = choose(small_talk, SmallTalk, "small_talk", model=chat_model, local=canned,
                        llm=lambda m: LLMSmallTalk(m, domain.small_talk_prompt, fallback=canned().reply))
    if rag_graph is None:
        rag_graph = build_crag_graph(retriever, chat_model=chat_model, judge_model=judge_model, k=k, max_clarifications=0,
                                     max_question_chars=max_question_chars, strict=strict)
    search = as_scored_search(retriever, k)

    graph = StateGraph(SupervisorState)
    graph.add_node("check_question", check_question_node(BUILDER, max_question_chars, chat_model is not None,
                                                         start_run(max_hops)))
    graph.add_node("unsupported_language", unsupported_language)
    graph.add_node("supervisor", supervisor_node(supervisor))
    works = {"rag": rag_work(rag_graph, (domain.corpus,)), "code": code_work(coder, run_code),
             "analysis": analysis_work(analyst, search, k, domain.corpus), "chitchat": chitchat_work(small_talk)}
    for agent, work in works.items():
        graph.add_node(f"{agent}_agent", agent_node(agent, work, previous_answer_chars))  # type: ignore[arg-type]
        graph.add_conditional_edges(f"{agent}_agent", route_after_agent)
    graph.add_node("next_hop", next_hop)
    graph.add_node("aggregator", aggregator_node(aggregator))

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_conditional_edges("supervisor", route_after_supervisor)
    graph.add_conditional_edges("next_hop", route_after_next_hop)
    graph.add_edge("aggregator", END)
    return graph


def build_supervisor_graph(retriever: Any, *, checkpointer: Any | None = None,
                           **options: Any) -> CompiledStateGraph:
    """:func:`supervisor_graph` compiled (same arguments), with an optional LangGraph checkpointer."""
    return supervisor_graph(retriever, **options).compile(checkpointer=checkpointer, name="supervisor")


__all__ = ["NO_RUNNER", "AgentNode", "CodeRun", "HopRecord", "SupervisorState", "agent_node", "aggregator_node",
           "analysis_work", "build_supervisor_graph", "chitchat_work", "code_work",
           "next_hop", "outcome_of", "rag_answer", "rag_work", "route_after_agent", "route_after_check_question",
           "route_after_next_hop", "route_after_supervisor", "start_run", "supervisor_graph",
           "supervisor_node", "worst_case_steps"]
