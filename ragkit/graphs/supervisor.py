"""The supervisor graph: a supervisor plans which specialist agents a request needs, they run in order,
each seeing what the ones before it found, and an aggregator combines their answers.

The graph::

    check_question -> supervisor -> rag_agent | code_agent | analysis_agent | chitchat_agent
    check_question -> unsupported_language -> END          (policy 5: offline roles read English only)
    <each agent> -> next_hop -> <the next planned agent>   (while hops remain and hops < max_hops)
    <each agent> -> aggregator -> END

- ``supervisor`` (role): an ordered agent sequence, normalised in code whatever the role returned:
  unknown names dropped, repeats in a row collapsed, nothing usable -> ``rag``, cut at ``max_hops``
  (a state field, default 3). The hop count and every hop's task, input, answer and time are in the state
  (``hops``, ``hop_log``), each agent's answer in its own field (``rag_answer``, ``code_answer`` ...).
- ``rag_agent`` runs a ragkit RAG graph as a subgraph (``rag_graph=``; default: CRAG over the handbook,
  built with ``max_clarifications=0`` so it never pauses to ask back).
- ``code_agent`` gets code from the ``coder`` role and runs it only through ``ragkit.sandbox.run_python``
  (limits: ``sandbox=``, defaults in ``ragkit.defaults.SUPERVISOR``). Hostile code (an endless loop, a
  memory or fork bomb, an output flood, writes outside its directory, reading secrets, the network, a
  ctypes crash) is stopped by the sandbox; the answer says what happened, and which protections were off
  when bubblewrap is missing, and the run goes on to the aggregator.
- ``analysis_agent`` (``analyst`` role) compares what the earlier agents found; ``chitchat_agent`` answers
  small talk without retrieval; ``aggregator`` (role) merges the answers, keeping each one's details.

Unlike a supervisor that loops back to itself after every worker (and is stopped only by LangGraph's
recursion limit), the plan is made once and the hops are counted in the state, so a run takes at most
``worst_case_steps(max_hops)`` steps whatever the supervisor proposes.

Errors follow :mod:`ragkit.core.contract`: an empty or oversized question, a bad ``max_hops`` or one the
run's ``recursion_limit`` could not finish raises before any agent runs; an agent that raises becomes an
answer saying so. Simplifications: the plan is not revised after a hop (no "replanning"); the nodes are in
:mod:`ragkit.graphs.supervisor_nodes`.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Literal, Mapping

from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

from ragkit.core.contract import check_limit
from ragkit.core.search import as_scored_search
from ragkit.defaults import GRAPHS, SUPERVISOR
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.graphs.supervisor_nodes import (
    AgentNode,
    HopRecord,
    SupervisorState,
    agent_node,
    aggregator_node,
    analysis_work,
    check_question_node,
    chitchat_work,
    code_work,
    next_hop,
    rag_result,
    rag_work,
    route_after_agent,
    route_to_agent,
    supervisor_node,
    unsupported_language,
    worst_case_steps,
)
from ragkit.roles.factory import make_roles
from ragkit.roles.protocols import RouteSpec
from ragkit.sandbox import run_python

SANDBOX_DEFAULTS: dict[str, Any] = {"timeout_s": SUPERVISOR.sandbox_timeout_s, "memory_mb": SUPERVISOR.sandbox_memory_mb,
                                    "max_output_bytes": SUPERVISOR.sandbox_max_output_bytes}
CHITCHAT_KINDS = (
    RouteSpec("greeting", "a greeting", ("hello", "hi there", "good morning", "hey, how are you?")),
    RouteSpec("thanks", "thanks or praise", ("thank you", "thanks a lot", "great, that helped", "you're brilliant")),
    RouteSpec("farewell", "saying goodbye", ("bye", "see you tomorrow", "good night", "that's all for today")),
    RouteSpec("about", "a question about the assistant itself", ("who are you?", "what can you do?", "are you a bot?")),
    RouteSpec("small_talk", "other small talk", ("nice weather today", "haha", "I'm back", "happy holidays")),
)
CHITCHAT_REPLIES = {
    "greeting": "Hello! I can look things up in the ragkit handbook, run Python in a sandbox, and line up comparisons. "
                "What would you like to do?",
    "thanks": "You're welcome! Ask me about the handbook any time, or give me some code to run.",
    "farewell": "Goodbye, and good luck with your project!",
    "about": "I am ragkit's supervisor graph: a handbook lookup agent, a code agent with a sandbox, an analysis agent "
             "and me, the chitchat agent. Ask a question and the supervisor decides which of us should work on it.",
    "small_talk": "Nice to chat! When you are ready, ask me about the handbook or give me some code to run.",
}
CHITCHAT_PROMPT = ("You are the friendly chitchat agent of a team that answers questions about a RAG handbook and runs "
                   "Python. Reply to the user's small talk in one or two sentences, without inventing facts.")


def route_after_check_question(state: SupervisorState) -> Literal["supervisor", "unsupported_language"]:
    """A question the roles cannot read gets the language message; every other one is planned."""
    return "unsupported_language" if state.get("language_note") else "supervisor"


def route_after_supervisor(state: SupervisorState) -> AgentNode:
    """The first planned agent."""
    return route_to_agent(state)


def route_after_next_hop(state: SupervisorState) -> AgentNode:
    """The next planned agent."""
    return route_to_agent(state)


class LazyRole:
    """A role built on its first use, so compiling (or drawing) the graph loads no model."""

    def __init__(self, build: Callable[[], Any]):
        self._build, self._role = build, None

    def __getattr__(self, name: str) -> Any:
        if self._role is None:
            self._role = self._build()
        return getattr(self._role, name)


def chitchat_reply(chat_model: BaseChatModel | None = None, embedder: Embeddings | None = None) -> Callable[[str], str]:
    """The chitchat agent's reply: the chat model's, or (offline) a fixed reply for the kind of small talk,
    chosen by a ``LocalRouter`` over :data:`CHITCHAT_KINDS`."""
    from ragkit.offline.router import LocalRouter

    router = LazyRole(lambda: LocalRouter(CHITCHAT_KINDS, fallback="small_talk", embedder=embedder))

    def local(question: str) -> str:
        return CHITCHAT_REPLIES[router.route(question).route]

    def llm(question: str) -> str:
        try:
            text = str(chat_model.invoke([SystemMessage(CHITCHAT_PROMPT), HumanMessage(question)]).content).strip()
        except Exception:  # noqa: BLE001 - a failed call still gets a polite reply
            text = ""
        return text or local(question)

    return llm if chat_model is not None else local


def check_sandbox_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``run_python`` keyword arguments for the code agent: the defaults, updated with ``options``."""
    allowed = set(inspect.signature(run_python).parameters) - {"code", "stdin"}
    unknown = sorted(set(options or {}) - allowed)
    if unknown:
        raise ValueError(f"unknown sandbox option(s) {unknown}; run_python takes {sorted(allowed)}")
    return {**SANDBOX_DEFAULTS, **(options or {})}


def build_supervisor_graph(
    retriever: Any | None = None,
    *,
    rag_graph: Any | None = None,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    supervisor: Any | None = None,
    analyst: Any | None = None,
    coder: Any | None = None,
    aggregator: Any | None = None,
    chitchat: Callable[[str], str] | None = None,
    max_hops: int = SUPERVISOR.max_hops,
    k: int = GRAPHS.k,
    previous_answer_chars: int = SUPERVISOR.previous_answer_chars,
    sandbox: Mapping[str, Any] | None = None,
    max_question_chars: int = GRAPHS.max_question_chars,
    checkpointer: Any | None = None,
) -> Any:
    """Compile the supervisor graph (see the module docstring).

    ``retriever`` is what the default RAG graph and the analyst's background search read (anything
    :func:`ragkit.core.search.as_scored_search` takes; default the handbook). ``rag_graph`` is any compiled
    graph that takes ``{"question": ...}`` and returns a ragkit RAG state (:func:`rag_result` reads it).
    Roles left as ``None`` come from :func:`ragkit.roles.factory.make_roles` (local, or LLM roles on
    ``chat_model``; the supervisor on ``judge_model`` when given). ``chitchat`` replaces the chitchat
    reply (a function of the question). ``sandbox`` updates the code agent's ``run_python`` limits.
    ``max_hops`` is the default cap; a run can pass ``{"max_hops": n}`` in its input.
    """
    check_limit(max_question_chars)
    for name, value in {"max_hops": max_hops, "k": k, "previous_answer_chars": previous_answer_chars}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    sandbox_options = check_sandbox_options(sandbox)
    if rag_graph is not None and not callable(getattr(rag_graph, "invoke", None)):
        raise TypeError(f"rag_graph must be a compiled graph with invoke(), got {type(rag_graph).__name__}")
    if chitchat is not None and not callable(chitchat):
        raise TypeError("chitchat must be a function question -> reply")
    roles = make_roles(chat_model, judge_model=judge_model, supervisor=supervisor, analyst=analyst, coder=coder,
                       aggregator=aggregator)
    if rag_graph is None:
        from ragkit.graphs.crag import build_crag_graph

        rag_graph = build_crag_graph(retriever, chat_model=chat_model, judge_model=judge_model, k=k,
                                     max_clarifications=0, max_question_chars=max_question_chars)
    search = as_scored_search(retriever, k) if retriever is not None else handbook_search(k)
    lazy = {name: LazyRole(lambda name=name: roles.get(name)) for name in ("supervisor", "analyst", "coder", "aggregator")}

    graph = StateGraph(SupervisorState)
    graph.add_node("check_question", check_question_node(max_hops, max_question_chars, roles.llm))
    graph.add_node("unsupported_language", unsupported_language)
    graph.add_node("supervisor", supervisor_node(lazy["supervisor"]))
    works = {"rag": rag_work(rag_graph), "code": code_work(lazy["coder"], sandbox_options),
             "analysis": analysis_work(lazy["analyst"], search, k),
             "chitchat": chitchat_work(chitchat or chitchat_reply(chat_model))}
    for agent, work in works.items():
        graph.add_node(f"{agent}_agent", agent_node(agent, work, previous_answer_chars))  # type: ignore[arg-type]
        graph.add_conditional_edges(f"{agent}_agent", route_after_agent)
    graph.add_node("next_hop", next_hop)
    graph.add_node("aggregator", aggregator_node(lazy["aggregator"]))

    graph.add_edge(START, "check_question")
    graph.add_conditional_edges("check_question", route_after_check_question)
    graph.add_edge("unsupported_language", END)
    graph.add_conditional_edges("supervisor", route_after_supervisor)
    graph.add_conditional_edges("next_hop", route_after_next_hop)
    graph.add_edge("aggregator", END)
    return graph.compile(checkpointer=checkpointer)


__all__ = ["CHITCHAT_KINDS", "CHITCHAT_REPLIES", "HopRecord", "LazyRole", "SANDBOX_DEFAULTS", "SupervisorState",
           "build_supervisor_graph", "check_sandbox_options", "chitchat_reply", "rag_result", "route_after_agent",
           "route_after_check_question", "route_after_next_hop", "route_after_supervisor", "worst_case_steps"]
