"""The parts of the supervisor graph: its state, the hop bookkeeping, and its nodes (the builder is in
``ragkit.graphs.supervisor``).

Every agent node is built by :func:`agent_node` around a small *work* function ``(state, task, earlier)
-> (AgentAnswer, extra state)``: the wrapper gives it the part of the question its hop is for and the
earlier agents' answers (each cut to ``previous_answer_chars``), times it, turns an exception into an
answer that says what failed (the run goes on to the aggregator), and writes the answer into the agent's
own field (``rag_answer``, ``code_answer`` ...), into ``answers`` and into ``hop_log``.

Simplifications: an agent that runs twice in one plan (rag, code, rag) overwrites its own field (``answers``
and ``hop_log`` keep both); the RAG agent searches with its task, not with the earlier answers.
"""

from __future__ import annotations

import itertools
import time
from typing import Annotated, Any, Callable, Literal, Mapping, TypedDict

from langchain_core.documents import Document
from langchain_core.runnables import RunnableConfig

from ragkit.core import contract as policy
from ragkit.core.contract import add_path, traced
from ragkit.core.search import ScoredSearch
from ragkit.roles.aggregator import Aggregator
from ragkit.roles.analysis import Analyst
from ragkit.roles.coder import Coder
from ragkit.roles.supervisor import Supervisor, normalise_sequence
from ragkit.roles.supervisor_types import AgentAnswer, AgentName, truncate
from ragkit.sandbox import SandboxResult, SandboxUnavailable, run_python

AgentNode = Literal["rag_agent", "code_agent", "analysis_agent", "chitchat_agent"]
MAX_OUTPUT_SHOWN = 2_000  # characters of program output put in the code agent's answer


class HopRecord(TypedDict):
    """One hop: which agent ran, for which part of the question, what it saw, what it said, how long it took."""

    hop: int
    agent: AgentName
    task: str
    saw: list[tuple[str, str]]  # (agent, the truncated answer it passed on)
    answer: str
    ok: bool
    seconds: float


class SupervisorState(TypedDict, total=False):
    question: str
    language_note: str | None
    max_hops: int  # cap on agents per run (the planned sequence is cut here)
    plan: list[AgentName]  # the planned sequence of agents
    tasks: list[str]  # the part of the question each planned hop is for
    plan_note: str
    plan_fallback: bool  # the supervisor proposed nothing usable: the default agent was used
    dropped: list[str]  # proposed names that are not agents
    hops: int  # agents run so far
    next_agent: AgentName
    rag_answer: str
    code_answer: str
    analysis_answer: str
    chitchat_answer: str
    answers: list[AgentAnswer]  # every hop's answer, in order
    hop_log: list[HopRecord]
    documents: list[Document]  # what the rag agent answered from (for the code and analysis agents)
    retrieved: list[Document]  # everything its search returned
    code: str
    code_result: SandboxResult | None
    answer: str  # the aggregated answer
    aggregate_fallback: bool
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


Work = Callable[[SupervisorState, str, list[AgentAnswer]], tuple[AgentAnswer, dict[str, Any]]]


def worst_case_steps(max_hops: int) -> int:
    """The ``recursion_limit`` a run needs at most: check_question, supervisor, ``max_hops`` agents, the
    ``max_hops - 1`` next_hop nodes between them and the aggregator, plus LangGraph's start step.

    >>> worst_case_steps(3)
    9
    """
    return 2 * max_hops + 3


def check_question_node(default_max_hops: int, max_chars: int, chat_model_set: bool) -> Callable[..., SupervisorState]:
    """Build the validating entry node (input policy, the hop cap against the run's recursion limit)."""

    @traced("check_question")
    def check_question(state: SupervisorState, config: RunnableConfig) -> SupervisorState:
        """Validate the question and ``max_hops``; start a clean run.

        Reads: question, max_hops. Writes: question, language_note, max_hops, hops, answers, hop_log,
        documents, retrieved, code, code_result, the four agent fields.
        """
        question = policy.check_question(state.get("question"), max_chars, "build_supervisor_graph")
        cap = state.get("max_hops", default_max_hops)
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
            raise ValueError(f"max_hops must be a positive integer (agents per run), got {cap!r}")
        limit = (config or {}).get("recursion_limit")
        if isinstance(limit, int) and limit < worst_case_steps(cap):
            raise ValueError(f"max_hops={cap} can take up to {worst_case_steps(cap)} graph steps but recursion_limit is "
                             f"{limit}; lower max_hops or pass config={{'recursion_limit': {worst_case_steps(cap)}}}")
        return {"question": question, "language_note": policy.language_note(question, chat_model_set), "max_hops": cap,
                "hops": 0, "answers": [], "hop_log": [], "documents": [], "retrieved": [], "code": "",
                "code_result": None, "rag_answer": "", "code_answer": "", "analysis_answer": "", "chitchat_answer": ""}

    return check_question


@traced("unsupported_language")
def unsupported_language(state: SupervisorState) -> SupervisorState:
    """Say which language the offline models read (policy 5). Reads: language_note. Writes: answer, plan."""
    return {"answer": state["language_note"], "plan": []}


def supervisor_node(supervisor: Supervisor) -> Callable[[SupervisorState], SupervisorState]:
    """Build the ``supervisor`` node: ask the role for a plan, then normalise it in code, whatever it returned."""

    @traced("supervisor")
    def supervise(state: SupervisorState) -> SupervisorState:
        """Plan the agents. Unknown names are dropped, repeats collapse, nothing usable -> the default agent,
        and the sequence is cut at ``max_hops`` (policy 3: a supervisor that raises takes that default too).

        Reads: question, max_hops. Writes: plan, tasks, plan_note, plan_fallback, dropped, next_agent.
        """
        cap = state["max_hops"]
        try:
            plan = supervisor.plan(state["question"], cap)
            proposed, tasks = getattr(plan, "sequence", None), list(getattr(plan, "tasks", ()) or ())
            note, role_dropped, role_fallback = str(getattr(plan, "note", ""))[:300], tuple(getattr(plan, "dropped", ())), \
                bool(getattr(plan, "fallback", False))
        except Exception as err:  # noqa: BLE001 - policy 3: the safe default, with the reason kept
            proposed, tasks, note, role_dropped, role_fallback = [], [], f"supervisor failed ({type(err).__name__}: {err})", (), True
        sequence, dropped, fallback = normalise_sequence(list(proposed) if isinstance(proposed, (list, tuple)) else [], cap)
        if len(tasks) != len(sequence) or not all(isinstance(t, str) and t.strip() for t in tasks):
            tasks = [state["question"]] * len(sequence)
        return {"plan": list(sequence), "tasks": tasks, "plan_note": note, "plan_fallback": fallback or role_fallback,
                "dropped": [*map(str, role_dropped), *dropped], "next_agent": sequence[0]}

    return supervise


def route_to_agent(state: SupervisorState) -> AgentNode:
    """The node of the next agent (``supervisor`` and ``next_hop`` only write known agents)."""
    return f"{state['next_agent']}_agent"  # type: ignore[return-value]


def route_after_agent(state: SupervisorState) -> Literal["next_hop", "aggregator"]:
    """Another hop while the plan has one left and the cap allows it; else the aggregator."""
    hops = state.get("hops", 0)
    return "next_hop" if hops < len(state.get("plan", [])) and hops < state["max_hops"] else "aggregator"


@traced("next_hop")
def next_hop(state: SupervisorState) -> SupervisorState:
    """Hand over to the next planned agent. Reads: plan, hops. Writes: next_agent."""
    return {"next_agent": state["plan"][state["hops"]]}


def agent_node(agent: AgentName, work: Work, previous_chars: int) -> Callable[[SupervisorState], SupervisorState]:
    """Build an agent node around its work function (see the module docstring)."""

    @traced(f"{agent}_agent")
    def run(state: SupervisorState) -> SupervisorState:
        """Do this hop's work on its task, seeing the earlier answers cut to ``previous_chars``.

        Reads: question, hops, tasks, answers (+ what the work reads). Writes: <agent>_answer, hops,
        answers, hop_log (+ what the work writes: documents, retrieved, code, code_result).
        """
        hop = state.get("hops", 0)
        tasks = state.get("tasks") or []
        task = tasks[hop] if hop < len(tasks) else state["question"]
        earlier = [AgentAnswer(a.agent, truncate(a.text, previous_chars), a.documents, a.ok, a.note)
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


# ---------------------------------------------------------------- the agents' work
def rag_result(output: Mapping[str, Any]) -> tuple[str, list[Document], list[Document], bool]:
    """``(text, documents used, documents retrieved, answered)`` from any ragkit RAG graph's final state:
    CRAG (``answer``/``outcome``/``sources``/``candidates``), Self-RAG (``generation``, ``answer`` an
    ``Answer``, ``documents``, ``gave_up``), adaptive RAG (``generation``, ``documents``)."""
    if output.get("__interrupt__"):
        pending = output["__interrupt__"][0].value
        asked = pending.get("clarifying_question") if isinstance(pending, dict) else str(pending)
        return f"The RAG graph asked back instead of answering: {asked}", [], [], False
    answer = output.get("answer")
    text = answer if isinstance(answer, str) else getattr(answer, "text", None) or output.get("generation") or ""
    used = list(output.get("sources") or output.get("kept") or output.get("documents") or [])
    retrieved = list(output.get("candidates") or output.get("retrieved") or used)
    answered = (output.get("outcome", "answered") == "answered" and getattr(answer, "answered", True)
                and not output.get("gave_up", False) and bool(str(text).strip()))
    return str(text), used, retrieved, answered


def rag_work(rag_graph: Any) -> Work:
    """The rag agent: run the RAG graph as a subgraph on its task, on a fresh thread that is then deleted."""
    counter = itertools.count(1)

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        thread_id = f"supervisor-rag-{next(counter)}"
        try:
            output = rag_graph.invoke({"question": task}, {"configurable": {"thread_id": thread_id}})
        finally:
            saver = getattr(rag_graph, "checkpointer", None)
            if saver is not None and hasattr(saver, "delete_thread"):
                saver.delete_thread(thread_id)
        text, used, retrieved, answered = rag_result(output)
        return (AgentAnswer("rag", text or "The RAG graph returned no answer.", tuple(used), answered),
                {"documents": used, "retrieved": retrieved})

    return work


def code_answer(explanation: str, code: str, result: SandboxResult) -> str:
    """The code agent's answer: what the code is, the code, what it printed, how the run ended."""
    shown = truncate(result.stdout, MAX_OUTPUT_SHOWN) if result.stdout.strip() else ""
    output = f"Output:\n```\n{shown}\n```\n" if shown else "It printed nothing.\n"
    return f"{explanation}\n\n```python\n{code}\n```\n{output}{result.summary()}"


def code_work(coder: Coder, sandbox: Mapping[str, Any]) -> Work:
    """The code agent: get code from the coder, run it only through ``run_python``, report what happened."""

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        docs = [*(state.get("documents") or []), *(d for d in state.get("retrieved") or [] if d not in (state.get("documents") or []))]
        draft = coder.draft(state["question"], earlier, docs)
        if not draft.code.strip():
            return AgentAnswer("code", draft.explanation, ok=False, note=draft.origin), {"code": "", "code_result": None}
        try:
            result = run_python(draft.code, **sandbox)
        except (SandboxUnavailable, ValueError) as err:
            text = f"{draft.explanation}\n\n```python\n{draft.code}\n```\nThe sandbox could not run it: {err}"
            return AgentAnswer("code", text, ok=False, note="sandbox unavailable"), {"code": draft.code, "code_result": None}
        return (AgentAnswer("code", code_answer(draft.explanation, draft.code, result), ok=result.ok, note=result.status),
                {"code": draft.code, "code_result": result})

    return work


def analysis_work(analyst: Analyst, search: ScoredSearch, k: int) -> Work:
    """The analysis agent: analyse what the earlier agents found; with nothing found yet, read ``k`` passages
    the search returns for the question first (and say so)."""

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        docs = list(state.get("documents") or state.get("retrieved") or [])
        prefix = ""
        if not docs and not earlier:
            outcome = policy.run_search(search, state["question"], k, what="background search")
            docs = outcome.documents
            prefix = (f"No earlier agent had found anything, so the analyst read the {len(docs)} passages the "
                      "handbook search returned for the question.\n" if docs else f"({outcome.note}.)\n")
        analysis = analyst.analyse(state["question"], earlier, docs)
        return AgentAnswer("analysis", prefix + analysis.text, tuple(docs), not analysis.fallback), {}

    return work


def chitchat_work(reply: Callable[[str], str]) -> Work:
    """The chitchat agent: a friendly reply, no retrieval."""

    def work(state: SupervisorState, task: str, earlier: list[AgentAnswer]) -> tuple[AgentAnswer, dict[str, Any]]:
        return AgentAnswer("chitchat", reply(state["question"])), {}

    return work


def aggregator_node(aggregator: Aggregator) -> Callable[[SupervisorState], SupervisorState]:
    """Build the ``aggregator`` node around the aggregator role."""

    @traced("aggregator")
    def aggregate(state: SupervisorState) -> SupervisorState:
        """Combine every hop's answer into the final one. Reads: question, answers. Writes: answer, aggregate_fallback."""
        result = aggregator.combine(state["question"], state.get("answers") or [])
        return {"answer": result.text, "aggregate_fallback": result.fallback}

    return aggregate


__all__ = ["AgentNode", "HopRecord", "SupervisorState", "agent_node", "aggregator_node", "analysis_work", "chitchat_work",
           "check_question_node", "code_answer", "code_work", "next_hop", "rag_result", "rag_work", "route_after_agent",
           "route_to_agent", "supervisor_node", "unsupported_language", "worst_case_steps"]
