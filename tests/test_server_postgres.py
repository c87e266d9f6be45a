"""Checkpoints in a real PostgreSQL: a paused thread survives a new connection and a server restart.

Runs when ``RAGKIT_TEST_POSTGRES_URL`` points at a database (``.ci/run`` installs and starts Debian's
``postgresql`` and sets it); skipped with that reason otherwise.
"""

from __future__ import annotations

import os
import uuid
from contextlib import ExitStack

import pytest

from ragkit.domains.handbook.corpus import handbook_search

URL = os.environ.get("RAGKIT_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not URL, reason="no PostgreSQL configured: set RAGKIT_TEST_POSTGRES_URL (CI does)")

QUESTION = "Why does it saturate term frequency?"


def test_a_paused_crag_thread_resumes_through_a_new_connection(tmp_path):
    from langgraph.checkpoint.postgres import PostgresSaver

    from ragkit.graphs.crag import build_crag_graph, resume_crag, run_crag
    from ragkit.server.checkpoints import open_checkpointer

    thread = f"pg-{uuid.uuid4().hex}"
    with ExitStack() as stack:
        saver = open_checkpointer(URL, tmp_path, stack)
        assert isinstance(saver, PostgresSaver)
        assert "__interrupt__" in run_crag(build_crag_graph(handbook_search(), checkpointer=saver), QUESTION, thread)
    with ExitStack() as stack:  # a new connection, as after a restart
        graph = build_crag_graph(handbook_search(), checkpointer=open_checkpointer(URL, tmp_path, stack))
        assert resume_crag(graph, "BM25 and its k1 parameter", thread)["outcome"] == "answered"


def test_the_server_keeps_threads_in_postgres_across_a_restart(tmp_path):
    from tests.server_fixtures import Server

    thread = f"pg-{uuid.uuid4().hex}"
    env = {"RAGKIT_CHECKPOINT_URL": URL}
    first = Server(tmp_path / "a", extra_env=env)
    try:
        assert first.client.post("/graphs/crag/invoke", json={"question": QUESTION, "thread_id": thread}).json()["paused"]
    finally:
        first.stop()
    second = Server(tmp_path / "b", extra_env=env)  # another state dir: the thread can only come from PostgreSQL
    try:
        done = second.client.post(f"/threads/{thread}/resume", json={"value": "BM25 and its k1 parameter"}).json()
        assert done["state"]["outcome"] == "answered"
    finally:
        second.stop()
