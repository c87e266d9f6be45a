"""LangGraph's own server on the project's langgraph.json, driven by the official client (``langgraph-sdk``).

It starts ``langgraph dev`` (``langgraph-cli[inmem]``: in memory, ``LANGGRAPH_CLI_NO_ANALYTICS=1``, 127.0.0.1,
a free port, ``--no-browser --no-reload``, ready within 180 s, its process group killed afterwards) and checks:
a thread and a streamed run of Self-RAG (one ``updates`` event per node of the final path); a CRAG thread that
asks back, resumed with a clarification; the tool loop refused without the token, with a wrong one and with
Studio's header, run with the token, and its thread hidden from callers without it.

These run when ``RAGKIT_TEST_LANGGRAPH_SERVER=1`` (``make test-langgraph-server`` installs the pinned
``langgraph-server`` extra and sets it; ``.ci/run`` runs that), and fail, naming the extra, if the CLI is
missing then. The check that langgraph.json is what the registry generates always runs.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import httpx
import pytest

from ragkit.server.background import ServerProcess, free_port, offline_environment

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "langgraph-test-token"
CRAG_AMBIGUOUS = "Why does it saturate term frequency?"
CANCEL = {"messages": [{"role": "human", "content": "Please cancel order A1001"}]}


def test_langgraph_json_is_generated_from_the_server_registry():
    from ragkit.server.registry import default_specs, langgraph_config

    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config == langgraph_config(), "regenerate it: python -m ragkit.server.registry langgraph.json"
    assert list(config["graphs"]) == list(default_specs())
    assert config["auth"]["disable_studio_auth"] is True  # no header may skip the token check


@pytest.fixture(scope="module")
def server():
    if not os.environ.get("RAGKIT_TEST_LANGGRAPH_SERVER"):
        pytest.skip("set RAGKIT_TEST_LANGGRAPH_SERVER=1 to start langgraph dev (make test-langgraph-server; CI does)")
    cli = Path(sys.executable).with_name("langgraph")
    if not cli.exists():
        pytest.fail("langgraph-cli is not installed: pip install -c constraints.txt -e '.[langgraph-server]'")
    kept = (ROOT / ".langgraph_api").exists()
    port = free_port()
    env = offline_environment({"LANGGRAPH_CLI_NO_ANALYTICS": "1", "RAGKIT_SERVER_TOKEN": TOKEN})
    env.pop("RAGKIT_CHECKPOINT_URL", None)  # in memory: the bandit too
    started = time.perf_counter()
    srv = ServerProcess([str(cli), "dev", "--host", "127.0.0.1", "--port", str(port), "--no-browser", "--no-reload",
                         "--config", str(ROOT / "langgraph.json")], port, env, cwd=ROOT, ready_path="/ok")
    print(f"langgraph dev ready in {time.perf_counter() - started:.1f} s")
    yield srv
    srv.stop()
    if not kept:
        shutil.rmtree(ROOT / ".langgraph_api", ignore_errors=True)  # what langgraph dev saved in the folder it ran in


def client(server: ServerProcess, headers: dict | None = None):
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url, headers=headers or {}, timeout=300)


def status_of(call) -> int:
    """The status of the error a refused call raises (the client raises httpx.HTTPStatusError or a subclass)."""
    with pytest.raises(httpx.HTTPStatusError) as refused:
        call()
    return refused.value.response.status_code


def test_a_self_rag_run_streams_its_node_updates(server):
    anonymous = client(server)
    thread = anonymous.threads.create()
    chunks = list(anonymous.runs.stream(thread["thread_id"], "self_rag", input={"question": "What is HyDE?"},
                                        stream_mode="updates"))
    assert chunks[0].event == "metadata"
    nodes = [node for chunk in chunks if chunk.event == "updates" for node in chunk.data]
    state = anonymous.threads.get_state(thread["thread_id"])["values"]
    assert nodes == state["path"] and nodes[0] == "check_question" and state["generation"]


def test_a_paused_crag_thread_resumes_with_a_clarification(server):
    anonymous = client(server)
    thread = anonymous.threads.create()["thread_id"]
    anonymous.runs.wait(thread, "crag", input={"question": CRAG_AMBIGUOUS})
    paused = anonymous.threads.get_state(thread)
    asked = [i["value"] for task in paused["tasks"] for i in task["interrupts"]]
    assert paused["next"] == ["clarify"] and "it" in asked[0]["clarifying_question"]
    done = anonymous.runs.wait(thread, "crag", command={"resume": "BM25 and its k1 parameter"})
    assert done["outcome"] == "answered" and "saturation" in done["answer"]


def test_the_tool_loop_needs_the_token(server):
    callers = {"no token": client(server), "a wrong token": client(server, {"Authorization": "Bearer wrong"}),
               "Studio's header": client(server, {"x-auth-scheme": "langsmith"})}
    for who, caller in callers.items():
        public = caller.threads.create()["thread_id"] if who != "a wrong token" else None
        assert status_of(lambda: caller.runs.wait(public, "tool_agent", input=CANCEL)) == 401, who
        assert status_of(lambda: caller.assistants.create("tool_agent")) in (401, 403), who
    operator = client(server, {"Authorization": f"Bearer {TOKEN}"})
    thread = operator.threads.create()["thread_id"]
    operator.runs.wait(thread, "tool_agent", input=CANCEL)
    paused = operator.threads.get_state(thread)
    assert paused["next"] == ["login"]  # it asks who is cancelling: the run happened, with the token
    for who, caller in callers.items():
        assert status_of(lambda: caller.threads.get_state(thread)) in (401, 404), who
        if who != "a wrong token":
            assert thread not in [t["thread_id"] for t in caller.threads.search(limit=1000)], who
            assert status_of(lambda: caller.runs.wait(thread, "tool_agent", command={"resume": {"user_id": "C001"}})) == 401
    assert operator.threads.get_state(thread)["next"] == ["login"]  # unchanged by the refused calls
