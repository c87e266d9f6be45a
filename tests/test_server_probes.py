"""The server under a hostile client and a failing database: faults found by probing it, each kept fixed here.

Over SQLite and PostgreSQL (when ``RAGKIT_TEST_POSTGRES_URL`` is set): a crashed run leaves the client's
keep-alive connection usable; a thread id in a URL is checked like one in a body; a NUL character (which
PostgreSQL cannot store) is refused before anything runs, so a paused thread keeps its pause; bad collection
names and paths are 4xx; on PostgreSQL, the server outlives losing every database connection (what a database
restart does to it). In process, on a graph that fails on purpose: a database out of reach is a 503, never a
422 or a plain 500, and a failed resume is counted as an error.
"""

from __future__ import annotations

import http.client
import json
import time
import uuid
from typing import Any, TypedDict

import pytest
from fastapi.testclient import TestClient
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from ragkit.server.app import create_app
from ragkit.server.registry import GraphSpec
from ragkit.server.settings import ServerSettings
from tests.server_fixtures import BACKENDS, POSTGRES_URL, Server

CRAG_AMBIGUOUS = "Why does it saturate term frequency?"


@pytest.fixture(scope="module", params=BACKENDS)
def probed(request, tmp_path_factory):
    """A server on SQLite or PostgreSQL (its connections named, so a test can cut exactly those)."""
    state_dir = tmp_path_factory.mktemp(f"probes-{request.param}")
    (state_dir / "docs").mkdir()
    env = {"RAGKIT_INGEST_ROOT": str(state_dir / "docs")}
    app_name = f"ragkit-probes-{uuid.uuid4().hex[:8]}"
    if request.param == "postgres":
        env["RAGKIT_CHECKPOINT_URL"] = f"{POSTGRES_URL}{'&' if '?' in POSTGRES_URL else '?'}application_name={app_name}"
    srv = Server(state_dir, extra_env=env)
    yield request.param, app_name, srv
    srv.stop()


def is_error(response: Any, status: int, code: str) -> bool:
    return (response.status_code == status and set(response.json()) == {"error", "message"}
            and response.json()["error"] == code and "Traceback" not in response.text)


def test_a_crashed_run_leaves_the_connection_open_for_the_next_request(probed):
    _, _, srv = probed
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)  # one socket, reused as a browser would
    try:
        for _ in range(2):
            conn.request("POST", "/graphs/boom/invoke", body=json.dumps({"question": "x"}),
                         headers={"content-type": "application/json"})
            crashed = conn.getresponse()
            assert crashed.status == 500 and json.loads(crashed.read())["error"] == "internal"
            time.sleep(0.2)  # time for a server that drops the connection to have dropped it
            conn.request("GET", "/health")
            health = conn.getresponse()
            assert health.status == 200 and json.loads(health.read()) == {"status": "ok"}
    finally:
        conn.close()


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/threads/a%00b"), ("post", "/threads/a%00b/resume"),
    ("get", "/threads/%C3%A9t%C3%A9"), ("get", "/threads/" + "a" * 200),
])
def test_a_thread_id_in_the_path_is_checked_like_one_in_the_body(probed, method, path):
    _, _, srv = probed
    reply = getattr(srv.client, method)(path, **({"json": {"value": "x"}} if method == "post" else {}))
    assert is_error(reply, 422, "invalid_request") and "thread_id" in reply.json()["message"], reply.text


def test_a_nul_character_is_refused_before_anything_runs_and_a_pause_survives_it(probed):
    _, _, srv = probed
    before = srv.client.get("/metrics").json()["queries_total"]
    for endpoint in ("invoke", "stream"):
        reply = srv.client.post(f"/graphs/self_rag/{endpoint}", json={"question": "What is \u0000 BM25?"})
        assert is_error(reply, 422, "invalid_request") and "NUL" in reply.json()["message"], reply.text
    assert srv.client.get("/metrics").json()["queries_total"] == before
    thread_id = f"nul-{uuid.uuid4().hex[:8]}"
    paused = srv.client.post("/graphs/crag/invoke", json={"question": CRAG_AMBIGUOUS, "thread_id": thread_id}).json()
    assert paused["paused"]
    refused = srv.client.post(f"/threads/{thread_id}/resume", json={"value": "BM25\u0000"})
    assert is_error(refused, 422, "invalid_request") and "NUL" in refused.json()["message"], refused.text
    still = srv.client.get(f"/threads/{thread_id}").json()
    assert still["paused"] and still["interrupt"] == paused["interrupt"]
    done = srv.client.post(f"/threads/{thread_id}/resume", json={"value": "BM25"})
    assert done.status_code == 200 and not done.json()["paused"] and "(BM25)" in done.json()["state"]["question"]


def test_bad_collection_names_and_paths_are_4xx(probed):
    _, _, srv = probed
    auth = srv.auth()
    for name in (".hidden", "a%20b", "x" * 100):
        assert is_error(srv.client.delete(f"/collections/{name}", headers=auth), 404, "unknown_collection")
    reply = srv.client.post("/collections/docs/ingest", json={"path": "docs\u0000"}, headers=auth)
    assert is_error(reply, 422, "invalid_request"), reply.text


def test_threads_survive_postgres_cutting_every_connection_of_the_server(probed):
    backend, app_name, srv = probed
    if backend != "postgres":
        pytest.skip("a PostgreSQL restart; SQLite opens its file again for each statement")
    import psycopg

    thread_id = f"cut-{uuid.uuid4().hex[:8]}"
    paused = srv.client.post("/graphs/crag/invoke", json={"question": CRAG_AMBIGUOUS, "thread_id": thread_id}).json()
    assert paused["paused"]
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:  # what a restart does to the server's sessions
        cut = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                            (app_name,)).fetchall()
    assert cut and all(ok for (ok,) in cut)
    still = srv.client.get(f"/threads/{thread_id}")
    assert still.status_code == 200 and still.json()["interrupt"] == paused["interrupt"], still.text
    done = srv.client.post(f"/threads/{thread_id}/resume", json={"value": "BM25"})
    assert done.status_code == 200 and not done.json()["paused"], done.text
    assert srv.client.post("/graphs/self_rag/invoke", json={"question": "What is BM25?"}).status_code == 200


# ---------------------------------------------------------------- in process: graphs that fail on purpose
class FaultState(TypedDict, total=False):
    question: str
    reply: str


def failing_graph(error: Exception, pause_first: bool = False) -> Any:
    """A one-node graph raising ``error`` (after a pause for a reply, with ``pause_first``)."""

    def fail(state: FaultState) -> dict:
        if pause_first:
            interrupt({"ask": "anything"})
        raise error

    def build(checkpointer: Any, chat_model: Any = None) -> Any:
        graph = StateGraph(FaultState)
        graph.add_node("fail", fail)
        graph.add_edge(START, "fail")
        graph.add_edge("fail", END)
        return graph.compile(checkpointer=checkpointer)

    return build


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    psycopg = pytest.importorskip("psycopg")
    from ragkit.bandit import BanditStateError

    def wrapped() -> Exception:
        try:
            raise psycopg.OperationalError("the connection is closed")
        except psycopg.OperationalError as err:
            try:
                raise BanditStateError("db", "the update was not saved") from err  # a ValueError
            except BanditStateError as wrapper:
                return wrapper

    specs = {"db_down": GraphSpec("db_down", "loses its database", failing_graph(psycopg.OperationalError("gone"))),
             "bandit_down": GraphSpec("bandit_down", "its bandit loses the database", failing_graph(wrapped())),
             "resume_fails": GraphSpec("resume_fails", "fails once resumed",
                                       failing_graph(RuntimeError("failed on purpose"), pause_first=True),
                                       check_resume=lambda pending, payload: payload)}
    settings = ServerSettings(state_dir=tmp_path_factory.mktemp("faulty"), use_chat_model=False)
    with TestClient(create_app(settings, specs)) as client:  # raises anything the app lets escape
        yield client


@pytest.mark.parametrize("graph", ["db_down", "bandit_down"])
def test_a_database_out_of_reach_is_a_503(faulty, graph):
    reply = faulty.post(f"/graphs/{graph}/invoke", json={"question": "x"})
    assert is_error(reply, 503, "database_unavailable"), reply.text
    events = [json.loads(line) for line in faulty.post(f"/graphs/{graph}/stream", json={"question": "x"}).iter_lines()
              if line.strip()]
    assert events[-1]["event"] == "error" and events[-1]["error"] == "database_unavailable"
    assert faulty.get("/metrics").json()["errors"][graph] == 2


def test_a_resume_that_fails_is_counted_as_an_error(faulty):
    paused = faulty.post("/graphs/resume_fails/invoke", json={"question": "x", "thread_id": "fails-1"}).json()
    assert paused["paused"]
    reply = faulty.post("/threads/fails-1/resume", json={"value": "go"})
    assert is_error(reply, 500, "internal") and "failed on purpose" in reply.json()["message"]
    metrics = faulty.get("/metrics").json()
    assert metrics["queries"]["resume_fails"] == 2 and metrics["errors"]["resume_fails"] == 1


def test_a_thread_lock_is_dropped_once_its_runs_are_done(faulty):
    runtime = faulty.app.state.runtime
    for n in range(5):
        faulty.post("/graphs/resume_fails/invoke", json={"question": "x", "thread_id": f"locks-{n}"})
    assert runtime._locks == {}  # no lock kept per thread served
    with runtime.lock("held"):
        assert list(runtime._locks) == ["held"]
    assert runtime._locks == {}
