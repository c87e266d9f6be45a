"""The graphs the server serves, described once: how to build each, what input it takes, how to resume it.

A :class:`GraphSpec` names a graph, says in one line what it does, builds it on the server's checkpointer
(and chat model, if one is configured), and knows three things the HTTP layer needs: whether its input is a
question or a chat message, whether it can change data (then its endpoints need the bearer token), and how to
check a resume payload against the pending interrupt *before* the graph is touched, so a bad payload is a
4xx that changes nothing.

Simplification: the tool loop's order store is one in-memory copy per server process; a restart starts
again from ``data/orders.csv`` (paused approvals still resume: they are tied to the call, not the store).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel

Builder = Callable[[Any, "BaseChatModel | None"], Any]


class ResumeError(ValueError):
    """A resume payload that does not fit the pending interrupt (the thread is left as it was)."""


def _check_clarification(pending: Mapping[str, Any], payload: Any) -> Any:
    from ragkit.graphs.crag import check_clarification

    try:
        return check_clarification(payload)
    except (TypeError, ValueError) as err:
        raise ResumeError(f"this thread is waiting for a clarification (a non-empty string): {err}") from err


def _check_tool_payload(store: Any) -> Callable[[Mapping[str, Any], Any], Any]:
    def check(pending: Mapping[str, Any], payload: Any) -> Any:
        from ragkit.core.tools import ResumePayloadError, parse_approval, parse_login, parse_otp

        kind = pending.get("kind")
        try:
            if kind == "approval":
                parse_approval(payload, str(pending.get("digest", "")))
            elif kind == "login":
                parse_login(payload, store.customers())
            elif kind == "otp":
                parse_otp(payload)
            else:
                raise ResumeError(f"unknown pause kind {kind!r}")
        except ResumePayloadError as err:
            raise ResumeError(f"this thread is waiting for {kind}: {err}") from err
        return payload

    return check


@dataclass(frozen=True)
class GraphSpec:
    """One servable graph."""

    name: str
    description: str
    build: Builder
    input_kind: Literal["question", "message"] = "question"
    changes_data: bool = False  # its endpoints need the bearer token
    check_resume: Callable[[Mapping[str, Any], Any], Any] | None = None  # None: the graph never pauses
    extras: dict[str, Any] = field(default_factory=dict)  # things a spec shares with the server (the store)

    def graph_input(self, text: str) -> dict[str, Any]:
        """The graph's input for a question or message text."""
        if self.input_kind == "message":
            from langchain_core.messages import HumanMessage

            return {"messages": [HumanMessage(text)]}
        return {"question": text}


def advanced_bandit(database: Any = None, state_dir: Path | None = None) -> Any:
    """The advanced pipeline's retrieval bandit, shared by every request: Thompson sampling over its arms.

    With the server's ``database`` (:class:`ragkit.server.database.StateDatabase`), its counts live there and
    every worker process and replica shares them (:class:`ragkit.server.bandit_db.DatabaseBandit`); an
    ``advanced_bandit.json`` left in ``state_dir`` by an older ragkit is imported once (a damaged or
    mismatched one stops the server at start, ``BanditStateError``). Without a database it is kept in memory.
    """
    from ragkit.bandit import SharedBandit, ThompsonSampling, load
    from ragkit.graphs.advanced_rag import ARMS

    policy = ThompsonSampling(list(ARMS), seed=0)
    if database is None:
        return SharedBandit(policy)
    from ragkit.server.bandit_db import DatabaseBandit

    legacy = state_dir / "advanced_bandit.json" if state_dir is not None else None
    start = load(legacy, kind=policy.kind, arms=policy.arms) if legacy is not None and legacy.exists() else None
    return DatabaseBandit(policy, database, "advanced_rag", start=start)


def default_specs(state_dir: Path | None = None, database: Any = None) -> dict[str, GraphSpec]:
    """Every ragkit graph the server offers, by name (``database``: where the advanced pipeline's bandit
    keeps its counts, None keeps them in memory; ``state_dir``: where an older bandit file may be)."""
    from ragkit.domains.handbook.agents import HANDBOOK_TEAM
    from ragkit.domains.handbook.corpus import handbook_search, load_handbook
    from ragkit.domains.menu.routes import OFFLINE_FALLBACK, ROUTES, menu_sources
    from ragkit.domains.shop.orders import load_order_store
    from ragkit.domains.shop.tools import ORDER_TOOL_SPECS, SYSTEM_PROMPT
    from ragkit.domains.statute.corpus import load_statute
    from ragkit.domains.statute.domain import STATUTE
    from ragkit.domains.statute.strategies import strategy_searches
    from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph
    from ragkit.graphs.advanced_rag import build_advanced_rag_graph
    from ragkit.graphs.crag import build_crag_graph
    from ragkit.graphs.self_rag import build_self_rag_graph
    from ragkit.graphs.statute_qa import build_statute_qa_graph
    from ragkit.graphs.supervisor import build_supervisor_graph
    from ragkit.graphs.tool_agent import build_tool_agent_graph
    from ragkit.sandbox import python_runner

    store = load_order_store()
    handbook = handbook_search()  # one handbook index for the three graphs that search it, built on first use
    bandit = advanced_bandit(database, state_dir)
    specs = [
        GraphSpec("adaptive_rag", "Route a question to the menu, the wine list or the local news, or to a fallback.",
                  lambda cp, cm: build_adaptive_rag_graph(menu_sources(chat_model=cm), routes=ROUTES,
                                                          fallback_text=OFFLINE_FALLBACK, chat_model=cm, checkpointer=cp)),
        GraphSpec("self_rag", "Retrieve from the handbook, grade documents and the answer, rewrite and retry within a cap.",
                  lambda cp, cm: build_self_rag_graph(handbook, chat_model=cm, checkpointer=cp)),
        GraphSpec("crag", "Judge retrieved handbook sections (4 verdicts), write, verify; ask back when ambiguous.",
                  lambda cp, cm: build_crag_graph(handbook, chat_model=cm, checkpointer=cp), check_resume=_check_clarification),
        GraphSpec("advanced_rag", "Classify, transform the query, let a bandit pick the retriever, rerank, grade "
                  "(the grade rewards the arm), write, check for hallucination; capped retries.",
                  lambda cp, cm: build_advanced_rag_graph(load_handbook(), bandit=bandit, chat_model=cm, checkpointer=cp),
                  extras={"bandit": bandit}),
        GraphSpec("statute_qa", "Classify a question about the bundled statute, route it to vector, hybrid or graph "
                  "retrieval, answer with verified paragraph citations or refuse.",
                  lambda cp, cm: build_statute_qa_graph(articles := load_statute(), strategies=strategy_searches(articles),
                                                        domain=STATUTE, chat_model=cm, checkpointer=cp)),
        GraphSpec("supervisor", "A supervisor sends the question to the rag, code, analysis or chitchat agent, or a chain.",
                  lambda cp, cm: build_supervisor_graph(handbook, domain=HANDBOOK_TEAM, chat_model=cm, checkpointer=cp, run_code=python_runner())),
        GraphSpec("tool_agent", "The guarded tool loop over the orders table: login, approval and one-time-code pauses.",
                  lambda cp, cm: build_tool_agent_graph(store, ORDER_TOOL_SPECS, system_prompt=SYSTEM_PROMPT,
                                                        chat_model=cm, checkpointer=cp),
                  input_kind="message", changes_data=True, check_resume=_check_tool_payload(store),
                  extras={"store": store}),
    ]
    return {spec.name: spec for spec in specs}


LANGGRAPH_MODULE = "./ragkit/server/langgraph_graphs.py"
LANGGRAPH_AUTH = "./ragkit/server/langgraph_auth.py:auth"


def langgraph_config() -> dict[str, Any]:
    """``langgraph.json`` for LangGraph's own server: every graph above, the bearer-token auth, offline variables.

    Write it with ``python -m ragkit.server.registry langgraph.json`` after changing the graphs.
    """
    return {"dependencies": ["."],
            "graphs": {name: f"{LANGGRAPH_MODULE}:{name}" for name in default_specs()},
            "auth": {"path": LANGGRAPH_AUTH, "disable_studio_auth": True},
            "env": {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "LANGGRAPH_CLI_NO_ANALYTICS": "1"},
            "python_version": "3.11"}


__all__ = ["GraphSpec", "ResumeError", "default_specs", "langgraph_config"]

if __name__ == "__main__":
    import json
    import sys

    text = json.dumps(langgraph_config(), indent=2) + "\n"
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
