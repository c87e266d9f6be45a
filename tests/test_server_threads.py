"""A thread belongs to the graph that made it: a request for another graph is refused before anything is written.

Over SQLite and PostgreSQL (when ``RAGKIT_TEST_POSTGRES_URL`` is set; ``.ci/run`` sets it): for every ordered
pair of served graphs (A, B), a request for B on A's thread (invoke and stream) gets 409 naming A, and A's
checkpoint rows, read straight from the database, are byte for byte what they were. The tool loop's threads
(it changes orders) cannot be read, resumed or written by any graph without the token. Ownership is claimed
atomically: processes racing for one new thread id all read back the same owner.
"""

from __future__ import annotations

import functools
import multiprocessing
import sqlite3
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import httpx
import pytest

from tests.server_fixtures import BACKENDS, POSTGRES_URL, Server

# One input per served graph; CRAG's and the tool loop's pause (a clarification, a login), as a victim's would.
FIRST_INPUT = {
    "adaptive_rag": "What red wine goes with the lamb?",
    "self_rag": "What is HyDE?",
    "crag": "Why does it saturate term frequency?",
    "advanced_rag": "What does the BM25 parameter k1 control?",
    "statute_qa": "What does the statute say about notice periods?",
    "supervisor": "What is BM25?",
    "tool_agent": "Please cancel order A1001",
}
GRAPHS = list(FIRST_INPUT)


def body(graph: str, thread_id: str, text: str = "What is BM25?") -> dict:
    return {"message" if graph == "tool_agent" else "question": text, "thread_id": thread_id}


def checkpoint_image(backend: str, state_dir: Path, thread_id: str) -> list:
    """Every checkpoint, blob and pending-write row of a thread, exactly as the database holds them."""
    if backend == "sqlite":
        with closing(sqlite3.connect(f"file:{state_dir / 'checkpoints.sqlite'}?mode=ro", uri=True)) as conn:
            return [conn.execute(f"SELECT * FROM {table} WHERE thread_id = ? ORDER BY {order}", (thread_id,)).fetchall()
                    for table, order in (("checkpoints", "checkpoint_ns, checkpoint_id"),
                                         ("writes", "checkpoint_ns, checkpoint_id, task_id, idx"))]
    import psycopg

    with psycopg.connect(POSTGRES_URL) as conn:
        return [conn.execute(f"SELECT row_to_json(t)::text FROM {table} t WHERE thread_id = %s ORDER BY {order}",
                             (thread_id,)).fetchall()
                for table, order in (("checkpoints", "checkpoint_ns, checkpoint_id"),
                                     ("checkpoint_blobs", "checkpoint_ns, channel, version"),
                                     ("checkpoint_writes", "checkpoint_ns, checkpoint_id, task_id, idx"))]


@pytest.fixture(scope="module", params=BACKENDS)
def served(request, tmp_path_factory):
    state_dir = tmp_path_factory.mktemp(f"threads-{request.param}")
    env = {"RAGKIT_CHECKPOINT_URL": POSTGRES_URL} if request.param == "postgres" else {}
    srv = Server(state_dir, extra_env=env)
    yield request.param, state_dir, srv
    srv.stop()


def test_every_graph_refuses_every_other_graphs_thread_and_writes_nothing(served):
    backend, state_dir, srv = served
    auth = srv.auth()
    threads = {graph: f"own-{graph}-{uuid.uuid4().hex[:8]}" for graph in GRAPHS}
    for graph, thread_id in threads.items():
        made = srv.client.post(f"/graphs/{graph}/invoke", json=body(graph, thread_id, FIRST_INPUT[graph]), headers=auth)
        assert made.status_code == 200, (graph, made.text)
    before = {graph: checkpoint_image(backend, state_dir, thread_id) for graph, thread_id in threads.items()}
    assert all(image[0] for image in before.values())  # every thread has checkpoints to protect
    runs_before = srv.client.get("/metrics").json()["queries_total"]
    refused = 0
    for owner, thread_id in threads.items():
        for other in GRAPHS:
            if other == owner:
                continue
            for endpoint in ("invoke", "stream"):
                reply = srv.client.post(f"/graphs/{other}/{endpoint}", json=body(other, thread_id), headers=auth)
                assert reply.status_code == 409, (owner, other, endpoint, reply.text)
                assert reply.json()["error"] == "thread_of_another_graph" and set(reply.json()) == {"error", "message"}
                assert f"belongs to graph {owner!r}" in reply.json()["message"]
                refused += 1
    assert refused == len(GRAPHS) * (len(GRAPHS) - 1) * 2
    assert srv.client.get("/metrics").json()["queries_total"] == runs_before  # no run started
    for graph, thread_id in threads.items():
        assert checkpoint_image(backend, state_dir, thread_id) == before[graph], graph
        assert srv.client.get(f"/threads/{thread_id}", headers=auth).json()["graph"] == graph


def test_the_tool_loops_thread_is_closed_to_requests_without_the_token(served):
    backend, state_dir, srv = served
    victim = f"victim-{uuid.uuid4().hex[:8]}"
    paused = srv.client.post("/graphs/tool_agent/invoke", json=body("tool_agent", victim, "Please cancel order A1001"),
                             headers=srv.auth()).json()
    assert paused["interrupt"]["kind"] == "login"
    before = checkpoint_image(backend, state_dir, victim)
    attempts = [("post", "/graphs/self_rag/invoke", body("self_rag", victim, "What is BM25?")),
                ("post", "/graphs/crag/stream", body("crag", victim, "What is BM25?")),
                ("post", "/graphs/tool_agent/invoke", body("tool_agent", victim, "Track A1002")),
                ("get", f"/threads/{victim}", None),
                ("post", f"/threads/{victim}/resume", {"value": {"user_id": "C001"}})]
    for headers in ({}, {"Authorization": "Bearer wrong-token"}):
        for method, path, payload in attempts:
            reply = getattr(srv.client, method)(path, headers=headers, **({"json": payload} if payload else {}))
            assert reply.status_code == 401, (path, reply.text)
            assert set(reply.json()) == {"error", "message"} and "Bearer" in reply.json()["message"]
    assert checkpoint_image(backend, state_dir, victim) == before
    still = srv.client.get(f"/threads/{victim}", headers=srv.auth()).json()
    assert still["graph"] == "tool_agent" and still["interrupt"]["kind"] == "login"


def test_two_first_requests_for_different_graphs_on_one_new_thread_one_wins(served):
    _, _, srv = served
    thread_id = f"race-{uuid.uuid4().hex[:8]}"

    def first(graph: str) -> int:
        return httpx.post(f"{srv.url}/graphs/{graph}/invoke", json=body(graph, thread_id, "What is BM25?"),
                          timeout=300).status_code

    with ThreadPoolExecutor(2) as pool:
        statuses = sorted(pool.map(first, ["self_rag", "crag"]))
    assert statuses == [200, 409]


def test_a_thread_older_than_the_owner_table_keeps_its_graph(served):
    backend, state_dir, srv = served
    if backend != "sqlite":
        pytest.skip("the same code path; SQLite is enough to remove the owner row by hand")
    thread_id = f"old-{uuid.uuid4().hex[:8]}"
    assert srv.client.post("/graphs/self_rag/invoke", json=body("self_rag", thread_id)).status_code == 200
    with closing(sqlite3.connect(state_dir / "checkpoints.sqlite", timeout=30)) as conn, conn:
        conn.execute("DELETE FROM ragkit_thread_owners WHERE thread_id = ?", (thread_id,))
    refused = srv.client.post("/graphs/crag/invoke", json=body("crag", thread_id))
    assert refused.status_code == 409 and "belongs to graph 'self_rag'" in refused.json()["message"]
    assert srv.client.post("/graphs/self_rag/invoke", json=body("self_rag", thread_id)).status_code == 200


def test_a_thread_that_another_program_checkpointed_is_not_taken(served):
    backend, state_dir, srv = served
    if backend != "sqlite":
        pytest.skip("the same code path; SQLite is enough to write a foreign checkpoint by hand")
    from langgraph.checkpoint.sqlite import SqliteSaver

    from tests.server_fixtures import build_gate_graph

    thread_id = f"notebook-{uuid.uuid4().hex[:8]}"  # e.g. a notebook's own graph sharing the database
    with closing(sqlite3.connect(state_dir / "checkpoints.sqlite", check_same_thread=False, timeout=30)) as conn:
        build_gate_graph(SqliteSaver(conn)).invoke({"question": "/"}, {"configurable": {"thread_id": thread_id}})
    before = checkpoint_image(backend, state_dir, thread_id)
    refused = srv.client.post("/graphs/self_rag/invoke", json=body("self_rag", thread_id))
    assert refused.status_code == 409 and refused.json()["error"] == "thread_not_ours"
    assert checkpoint_image(backend, state_dir, thread_id) == before
    assert srv.client.get(f"/threads/{thread_id}").status_code == 404


# ---------------------------------------------------------------- the claim itself, from racing processes
def claim_all(url: str | None, state_dir: str, thread_ids: list[str], start, graph: str) -> list[str]:
    """In a fresh process: wait for the others, then claim every id for ``graph``; the owners read back."""
    from ragkit.server.database import StateDatabase
    from ragkit.server.threads import ThreadOwners

    owners = ThreadOwners(StateDatabase(url, Path(state_dir)))
    start.wait()
    return [owners.claim(thread_id, graph) for thread_id in thread_ids]


@pytest.mark.parametrize("backend", BACKENDS)
def test_processes_racing_for_new_thread_ids_all_read_the_same_owner(backend, tmp_path):
    url = POSTGRES_URL if backend == "postgres" else None
    thread_ids = [f"claim-{uuid.uuid4().hex}" for _ in range(200)]
    graphs = ["self_rag", "crag", "tool_agent", "supervisor"]
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(len(graphs)) as pool:
        start = manager.Barrier(len(graphs))
        results = pool.map(functools.partial(claim_all, url, str(tmp_path), thread_ids, start), graphs)
    assert all(result == results[0] for result in results)  # one owner per id, whoever won it
    assert set(results[0]) <= set(graphs)
