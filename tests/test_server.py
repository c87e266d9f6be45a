"""The server, tested as a client meets it: a real ``ragkit serve`` process on a free local port.

Every endpoint; NDJSON and SSE read line by line, with the first events arriving while the graph is still
running; pauses and resumes over HTTP for CRAG and the tool loop; a restart in the middle of a paused thread;
bad input of every kind getting a 4xx with a clear message and changing nothing.
"""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests.server_fixtures import Server

CRAG_AMBIGUOUS = "Why does it saturate term frequency?"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("server-state"))
    yield srv
    srv.stop()


def ndjson(response: httpx.Response):
    for line in response.iter_lines():
        if line.strip():
            yield json.loads(line)


# ---------------------------------------------------------------- endpoints
def test_health_ready_and_graph_list(server):
    assert server.client.get("/health").json() == {"status": "ok"}
    assert server.client.get("/ready").json() == {"ready": True}
    graphs = {g["name"]: g for g in server.client.get("/graphs").json()}
    assert {"adaptive_rag", "self_rag", "crag", "tool_agent", "gate"} <= set(graphs)
    assert graphs["crag"]["pauses"] and graphs["tool_agent"]["changes_data"] and graphs["tool_agent"]["input"] == "message"
    assert "refine(refine)" in graphs["crag"]["mermaid"] and graphs["self_rag"]["mermaid"].startswith("---")


def test_invoke_returns_the_final_public_state(server):
    out = server.client.post("/graphs/adaptive_rag/invoke", json={"question": "What red wine goes with the lamb?",
                                                                 "thread_id": "inv-1"}).json()
    assert out["graph"] == "adaptive_rag" and out["thread_id"] == "inv-1" and out["paused"] is False
    state = out["state"]
    assert state["route"] == "search_wine" and state["answer"] and state["outcome"] == "answered" and state["documents"][0]["id"].startswith("wine-")
    assert set(state["documents"][0]) == {"id", "title", "source", "score", "text"}  # summarised, not dumped


def test_ndjson_stream_sends_events_while_the_graph_is_still_running(server, tmp_path):
    release = tmp_path / "release"
    with server.client.stream("POST", "/graphs/gate/stream", json={"question": str(release)}) as response:
        assert response.headers["content-type"].startswith("application/x-ndjson")
        events = ndjson(response)
        first, second = next(events), next(events)
        assert first["event"] == "metadata" and second == {**second, "event": "updates", "node": "announce"}
        assert not release.exists()  # the last node is still waiting: these events left before the run ended
        release.touch()
        rest = list(events)
    assert [e["event"] for e in rest] == ["updates", "end"]
    assert rest[0]["node"] == "wait" and rest[0]["update"] == {"released": True} and rest[-1]["state"]["released"] is True


def test_health_answers_while_a_slow_run_is_going(server, tmp_path):
    release = tmp_path / "later"
    with server.client.stream("POST", "/graphs/gate/stream", json={"question": str(release)}) as response:
        events = ndjson(response)
        next(events), next(events)  # the run is inside its waiting node now
        started = time.perf_counter()
        assert httpx.get(f"{server.url}/health", timeout=5).status_code == 200
        assert time.perf_counter() - started < 2.0  # generous: the point is it is not stuck behind the run
        release.touch()
        assert list(events)[-1]["event"] == "end"


def test_sse_stream_uses_langgraph_event_names(server):
    with server.client.stream("POST", "/graphs/self_rag/stream", json={"question": "What is HyDE?"},
                              headers={"Accept": "text/event-stream"}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    blocks = [b for b in text.split("\n\n") if b.strip()]
    names = [b.splitlines()[0].removeprefix("event: ") for b in blocks]
    data = [json.loads(b.splitlines()[1].removeprefix("data: ")) for b in blocks]
    assert names[0] == "metadata" and names[-1] == "end" and set(names[1:-1]) == {"updates"}
    assert [d["node"] for d in data[1:-1]] == data[-1]["state"]["path"]  # no event lost, none duplicated


# ---------------------------------------------------------------- pauses and resumes
def test_crag_asks_back_over_http_and_resumes(server):
    with server.client.stream("POST", "/graphs/crag/stream", json={"question": CRAG_AMBIGUOUS, "thread_id": "ask-1"}) as r:
        events = list(ndjson(r))
    assert [e["event"] for e in events][-2:] == ["interrupt", "end"]
    assert "it" in events[-2]["value"]["clarifying_question"] and events[-1]["paused"] is True
    thread = server.client.get("/threads/ask-1").json()
    assert thread["paused"] and thread["graph"] == "crag" and thread["next"] == ["clarify"]
    bad = server.client.post("/threads/ask-1/resume", json={"value": "   "})
    assert bad.status_code == 422 and "clarification" in bad.json()["message"]
    assert server.client.get("/threads/ask-1").json()["paused"]  # the bad payload changed nothing
    done = server.client.post("/threads/ask-1/resume", json={"value": "BM25 and its k1 parameter"}).json()
    assert done["paused"] is False and done["state"]["outcome"] == "answered" and "saturation" in done["state"]["answer"]
    again = server.client.post("/threads/ask-1/resume", json={"value": "more"})
    assert again.status_code == 409 and "not paused" in again.json()["message"]


def test_the_tool_loop_needs_the_token_and_its_digest(server):
    assert server.client.post("/graphs/tool_agent/invoke", json={"message": "Cancel A1001"}).status_code == 401
    auth = server.auth()
    step = server.client.post("/graphs/tool_agent/invoke", json={"message": "Please cancel order A1001", "thread_id": "shop-1"},
                              headers=auth).json()
    assert step["interrupt"]["kind"] == "login"
    assert server.client.get("/threads/shop-1").status_code == 401  # reading a tool thread needs the token too
    wrong_user = server.client.post("/threads/shop-1/resume", json={"value": {"user_id": "C999"}}, headers=auth)
    assert wrong_user.status_code == 422 and "no customer" in wrong_user.json()["message"]
    step = server.client.post("/threads/shop-1/resume", json={"value": {"user_id": "C001"}}, headers=auth).json()
    assert step["interrupt"]["kind"] == "approval"
    digest = step["interrupt"]["digest"]
    forged = server.client.post("/threads/shop-1/resume", json={"value": {"approved": True, "digest": "0" * 64}}, headers=auth)
    assert forged.status_code == 422 and "digest" in forged.json()["message"]
    unchanged = server.client.get("/threads/shop-1", headers=auth).json()
    assert unchanged["interrupt"]["digest"] == digest and unchanged["interrupt"]["error"] is None
    done = server.client.post("/threads/shop-1/resume", json={"value": {"approved": True, "digest": digest}}, headers=auth).json()
    assert "now cancelled" in done["state"]["messages"][-1]["content"]


def test_a_paused_thread_its_owner_and_the_bandit_survive_a_server_restart(tmp_path):
    first = Server(tmp_path)
    try:
        out = first.client.post("/graphs/crag/invoke", json={"question": CRAG_AMBIGUOUS, "thread_id": "keep"}).json()
        assert out["paused"]
        ran = first.client.post("/graphs/advanced_rag/invoke", json={"question": "What does the BM25 parameter k1 control?"}).json()
        arm = ran["state"]["arm"]
        learned = first.client.get("/metrics").json()["bandit"]
        assert learned["total_pulls"] >= 1 and learned["arms"][arm]["pulls"] >= 1
    finally:
        first.stop()  # SIGKILL: no clean shutdown
    second = Server(tmp_path)
    try:
        assert second.client.get("/metrics").json()["bandit"]["arms"] == learned["arms"]  # saved after every update
        assert second.client.get("/threads/keep").json()["paused"]
        taken = second.client.post("/graphs/self_rag/invoke", json={"question": "What is BM25?", "thread_id": "keep"})
        assert taken.status_code == 409 and "belongs to graph 'crag'" in taken.json()["message"]  # ownership is durable
        done = second.client.post("/threads/keep/resume", json={"value": "BM25 and its k1 parameter"}).json()
        assert done["state"]["outcome"] == "answered"
    finally:
        second.stop()


# ---------------------------------------------------------------- bad input: a 4xx with a clear message, nothing changed
@pytest.mark.parametrize(("method", "path", "body", "status", "words"), [
    ("post", "/graphs/nope/invoke", {"question": "x"}, 404, "no graph named"),
    ("post", "/graphs/crag/invoke", {"question": 42}, 422, "valid string"),
    ("post", "/graphs/crag/invoke", {"question": "x", "extra": 1}, 422, "extra"),
    ("post", "/graphs/crag/invoke", {}, 422, "give {'question'"),
    ("post", "/graphs/crag/invoke", {"message": "hi"}, 422, "takes 'question'"),
    ("post", "/graphs/crag/invoke", {"question": "   "}, 422, "empty"),
    ("post", "/graphs/crag/invoke", {"question": "w" * 2_500}, 422, "2,500 characters"),
    ("post", "/graphs/crag/invoke", {"question": "x", "thread_id": "../etc"}, 422, "thread_id"),
    ("get", "/threads/never-made", None, 404, "no thread"),
    ("post", "/threads/never-made/resume", {"value": "x"}, 404, "no thread"),
    ("post", "/threads/inv-1/resume", {"value": "x"}, 409, "not paused"),
    ("post", "/threads/inv-1/resume", {"value": 3}, 422, "value"),
])
def test_bad_requests_get_clear_4xx_errors(server, method, path, body, status, words):
    before = server.client.get("/metrics").json()["queries_total"]
    response = getattr(server.client, method)(path, **({"json": body} if body is not None else {}))
    assert response.status_code == status, response.text
    payload = response.json()
    assert set(payload) == {"error", "message"} and words in payload["message"] and "Traceback" not in response.text
    if status != 422 or "characters" not in words and "empty" not in words:
        assert server.client.get("/metrics").json()["queries_total"] == before  # refused before any run started


def test_an_oversized_body_is_refused(server):
    response = server.client.post("/graphs/crag/invoke", content=b'{"question": "' + b"x" * 100_000 + b'"}',
                                  headers={"content-type": "application/json"})
    assert response.status_code == 413 and "bytes" in response.json()["message"]


def chunks(total: int, size: int = 8_192):
    for start in range(0, total, size):
        yield b"x" * min(size, total - start)


# Every kind of error the server sends, the framework's own included: (method, path, request kwargs, status, code).
ERRORS = [
    ("post", "/graphs/crag/invoke", {"content": b'{"question": "caf\xe9 \xff"}', "headers": {"content-type": "application/json"}},
     400, "bad_request"),  # not UTF-8
    ("post", "/graphs/crag/invoke", {"content": b'{"question": ', "headers": {"content-type": "application/json"}},
     422, "invalid_request"),  # not JSON
    ("post", "/graphs/crag/invoke", {"content": b"question=hi", "headers": {"content-type": "text/plain"}},
     422, "invalid_request"),  # not a JSON object
    ("post", "/graphs/crag/invoke", {"json": {"question": 42}}, 422, "invalid_request"),
    ("post", "/graphs/crag/invoke", {"json": {"message": "hi"}}, 422, "wrong_field"),
    ("get", "/no/such/route", {}, 404, "not_found"),
    ("post", "/graphs", {"json": {}}, 405, "method_not_allowed"),
    ("get", "/graphs/crag/invoke", {}, 405, "method_not_allowed"),
    ("options", "/health", {}, 405, "method_not_allowed"),
    ("post", "/graphs/crag/invoke", {"content": b"x" * 70_000, "headers": {"content-type": "application/json"}},
     413, "body_too_large"),  # content-length says so
    ("post", "/graphs/crag/invoke", {"content": lambda: chunks(70_000), "headers": {"content-type": "application/json"}},
     413, "body_too_large"),  # chunked: counted as it arrives
    ("post", "/graphs/nope/invoke", {"json": {"question": "x"}}, 404, "unknown_graph"),
    ("get", "/threads/never-made", {}, 404, "unknown_thread"),
    ("post", "/threads/inv-1/resume", {"json": {"value": "x"}}, 409, "not_paused"),
    ("post", "/graphs/tool_agent/invoke", {"json": {"message": "Track A1002"}}, 401, "unauthorised"),
    ("get", "/collections", {}, 401, "unauthorised"),
    ("post", "/graphs/boom/invoke", {"json": {"question": "x"}}, 500, "internal"),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "code"), ERRORS,
                         ids=[f"{s}-{c}-{i}" for i, (_, _, _, s, c) in enumerate(ERRORS)])
def test_every_error_is_the_projects_json(server, method, path, kwargs, status, code):
    if path == "/threads/inv-1/resume":  # a thread that ran to its end
        server.client.post("/graphs/adaptive_rag/invoke", json={"question": "What is on the menu?", "thread_id": "inv-1"})
    kwargs = {**kwargs, "content": kwargs["content"]() if callable(kwargs.get("content")) else kwargs.get("content")}
    response = server.client.request(method.upper(), path, **{k: v for k, v in kwargs.items() if v is not None})
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["error"] == code and set(response.json()) == {"error", "message"}
    assert response.json()["message"] and "Traceback" not in response.text


def test_graphs_that_change_data_are_off_without_a_configured_token(tmp_path):
    srv = Server(tmp_path, token=None)
    try:
        response = srv.client.post("/graphs/tool_agent/invoke", json={"message": "Track A1002"},
                                   headers={"Authorization": "Bearer anything"})
        assert response.status_code == 403 and "RAGKIT_SERVER_TOKEN" in response.json()["message"]
    finally:
        srv.stop()


# ---------------------------------------------------------------- metrics
def test_metrics_count_runs_and_node_latency_in_json_and_prometheus(server):
    before = server.client.get("/metrics").json()
    for q in ("What is BM25?", "What is MMR?"):
        server.client.post("/graphs/self_rag/invoke", json={"question": q})
    after = server.client.get("/metrics").json()
    assert after["queries"]["self_rag"] == before["queries"].get("self_rag", 0) + 2
    assert after["node_latency_seconds"]["self_rag/retrieve"]["count"] >= 2
    assert set(after["node_latency_seconds"]["self_rag/retrieve"]) == {"count", "mean", "p50", "p95"}
    assert after["average_relevance"] is not None and 0 <= after["hallucination_rate"] <= 1
    text = server.client.get("/metrics/prometheus").text
    assert f'ragkit_queries_total{{graph="self_rag"}} {float(after["queries"]["self_rag"])}' in text
    assert 'ragkit_node_seconds_count{graph="self_rag",node="retrieve"}' in text


# ---------------------------------------------------------------- the client and ragkit eval --server
def test_the_client_raises_the_servers_own_message(server):
    from ragkit.server.client import RagkitClient, ServerError

    client = RagkitClient(server.url)
    try:
        with pytest.raises(ServerError, match="404 unknown_graph"):
            client.invoke("nope", "x")
        events = list(client.stream("crag", "What does the BM25 parameter k1 control?"))
        assert events[0]["event"] == "metadata" and events[-1]["state"]["outcome"] == "answered"
    finally:
        client.close()


def test_ragkit_eval_against_a_running_server(server, tmp_path):
    from ragkit.cli import main

    golden = tmp_path / "g.jsonl"
    golden.write_text(json.dumps({"question": "What does the BM25 parameter k1 control?", "reference_answer":
                                  "term frequency saturation", "reference_context_ids": ["HB-11"], "category": "factual"}) + "\n")
    assert main(["eval", "--graph", "crag", "--golden", str(golden), "--server", server.url, "--out", str(tmp_path / "r.jsonl")]) == 0
    row = json.loads((tmp_path / "r.jsonl").read_text())
    assert row["scores"]["context_recall"] == 1.0 and row["scores"]["faithfulness"] is None  # summarised contexts


# ---------------------------------------------------------------- collections over HTTP (behind the token)
def test_collections_ingest_search_and_delete_over_http(tmp_path):
    docs = tmp_path / "allowed" / "notes"
    docs.mkdir(parents=True)
    (docs / "ferry.md").write_text("# Ferry\n\nThe ferry to Isola Verde leaves the quay at nine every morning.\n")
    (docs / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    (tmp_path / "secret.md").write_text("# Secret\n\nNot for the server.\n")
    srv = Server(tmp_path / "state", extra_env={"RAGKIT_INGEST_ROOT": str(tmp_path / "allowed")})
    try:
        auth = srv.auth()
        assert srv.client.post("/collections/notes/ingest", json={"path": "notes"}).status_code == 401
        escape = srv.client.post("/collections/notes/ingest", json={"path": "../secret.md"}, headers=auth)
        assert escape.status_code == 403 and "outside" in escape.json()["message"]
        report = srv.client.post("/collections/notes/ingest", json={"path": "notes"}, headers=auth).json()
        assert report["documents"] == 1 and any("photo.jpg" in s for s in report["skipped"])
        names = [c["name"] for c in srv.client.get("/collections", headers=auth).json()]
        assert names == ["notes"]
        found = srv.client.post("/collections/notes/search", json={"query": "When does the ferry leave?"}, headers=auth).json()
        assert "nine every morning" in found["documents"][0]["text"] and found["documents"][0]["score"] is not None
        assert srv.client.post("/collections/none/search", json={"query": "x"}, headers=auth).status_code == 404
        assert srv.client.delete("/collections/notes", headers=auth).json()["deleted"]["name"] == "notes"
        assert srv.client.get("/collections", headers=auth).json() == []
    finally:
        srv.stop()


def test_ingest_over_http_is_off_without_an_ingest_root(server):
    response = server.client.post("/collections/x/ingest", json={"path": "/etc"}, headers=server.auth())
    assert response.status_code == 403 and "RAGKIT_INGEST_ROOT" in response.json()["message"]
