"""Hostile code through the whole supervisor graph: contained by the sandbox, told to the user, and the run
goes on to the analysis agent and the aggregator. The cases live in benchmarks/supervisor/hostile_code.py."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from ragkit.sandbox import sandbox_capabilities
from tests.conftest import benchmark_script

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"),
                                reason="the sandbox tests need Linux")

HOSTILE = benchmark_script("supervisor/hostile_code.py")

CAPS = sandbox_capabilities()
NAMES = [case.name for case in HOSTILE.cases({"outside": "/nonexistent", "port": 1})]


@pytest.fixture(scope="module")
def graph():
    return HOSTILE.build_graph()


@pytest.fixture
def ctx(monkeypatch):
    monkeypatch.setenv("RAGKIT_HOSTILE_SECRET", HOSTILE.SECRET)
    context = HOSTILE.context()
    yield context
    HOSTILE.close(context)


def test_there_are_eight_kinds_of_hostile_code() -> None:
    assert NAMES == ["infinite_loop", "memory_bomb", "fork_bomb", "huge_output", "write_outside", "read_secrets",
                     "network", "ctypes_crash"]


@pytest.mark.parametrize("name", NAMES)
def test_hostile_code_is_contained_reported_and_the_run_goes_on(graph, ctx, name) -> None:
    case = next(c for c in HOSTILE.cases(ctx) if c.name == name)
    if case.needs_isolation and not CAPS.bwrap_usable:
        pytest.skip(f"only bubblewrap can keep {name} in: {CAPS.bwrap_problem}")
    row = HOSTILE.run_case(graph, case, ctx)
    assert row["contained"], row
    assert row["check"], row
    assert row["reached_aggregator"], row
    out = graph.invoke({"question": HOSTILE.question(case)})
    assert out["code_result"].summary() in out["code_answer"]  # the user is told what happened
    assert out["code_result"].summary() in out["answer"]


@pytest.mark.skipif(not CAPS.bwrap_usable, reason="compares against bubblewrap")
def test_without_bubblewrap_the_answer_says_which_protections_are_off() -> None:
    python = next((p for p in ("/usr/bin/python3", "/usr/local/bin/python3")
                   if os.path.exists(p) and sandbox_capabilities(p).plain_usable), None)
    if python is None and not CAPS.plain_usable:
        pytest.skip("no interpreter an unprivileged uid can run without bubblewrap")
    graph = HOSTILE.build_graph(use_bwrap=False, **({"python": python} if python else {}))
    out = graph.invoke({"question": "Run this:\n```python\nprint('hello')\n```"})
    assert "Not isolated: no filesystem isolation, no network isolation" in out["code_answer"]
    assert "bubblewrap turned off" in out["code_answer"] and "hello" in out["code_answer"]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
def test_bubblewrap_is_used_when_present(graph) -> None:
    out = graph.invoke({"question": "Run `print(1 + 1)`"})
    assert out["code_result"].mode.startswith("bubblewrap") and out["code_result"].missing == ()
