"""The deployment files: langgraph.json names importable graphs; the Dockerfile installs from the lock and
checks health; LangSmith tracing variables with no network neither break nor noticeably slow a run."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_langgraph_json_names_importable_compiled_graphs():
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["dependencies"] == ["."]
    for name, target in config["graphs"].items():
        path, _, attr = target.partition(":")
        spec = importlib.util.spec_from_file_location(f"lg_{name}", ROOT / path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        graph = getattr(module, attr)
        assert graph.get_graph().draw_mermaid().startswith("---"), name
        assert graph.checkpointer is None, f"{name}: LangGraph's server brings its own persistence"


RUN = """
import time, sys
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.graphs.self_rag import build_self_rag_graph
g = build_self_rag_graph(handbook_search())
g.invoke({"question": "warm the caches up"})
start = time.perf_counter()
out = g.invoke({"question": "What does a checkpointer give a LangGraph graph?"})
print(round(time.perf_counter() - start, 3), out["generation"][:60])
"""


def run_with(env_extra: dict) -> tuple[float, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **env_extra})
    done = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    seconds, _, answer = done.stdout.strip().splitlines()[-1].partition(" ")
    return float(seconds), answer


def test_tracing_variables_without_a_network_do_not_break_or_slow_a_run():
    plain_s, plain = run_with({})
    started = time.perf_counter()
    traced_s, traced = run_with({"LANGSMITH_TRACING": "true", "LANGSMITH_API_KEY": "ls-test-not-a-key",
                                 "LANGSMITH_ENDPOINT": "http://127.0.0.1:9", "LANGSMITH_PROJECT": "ragkit-test"})
    assert traced == plain  # same answer
    assert traced_s < plain_s + 2.0  # tracing is sent in the background: the run itself is not held up
    assert time.perf_counter() - started < 120  # and the process does not hang at exit waiting for the network
