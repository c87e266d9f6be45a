"""Hostile code through the whole supervisor graph: each case is contained, told to the user, and the run goes on.

Each case is a question that hands the code agent a hostile program in a ``` block (the offline coder runs
the code it is given). The plan is fixed to ``code -> analysis`` so every run must also reach the analysis
agent and the aggregator after the sandbox stopped the code. For each case the script records how the
sandbox run ended (``status``), the sentence the user was told, whether the run reached the aggregator,
and the case's own check (no secret in the output, no file written outside, no connection made).

``tests/test_supervisor_hostile.py`` runs the same cases (imported from here) as tests; this script writes
``benchmarks/supervisor/hostile_code.json`` with the sandbox mode and the number of cases.

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/supervisor/hostile_code.py   (about 30 s)
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "hostile_code.json"
COMMAND = "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/supervisor/hostile_code.py"
SECRET = "ragkit-test-secret-4b1d"
LIMITS = {"timeout_s": 2.0, "memory_mb": 64, "max_output_bytes": 10_000}


@dataclass(frozen=True)
class Case:
    """One hostile program, the statuses that count as contained, and a check on the run's output."""

    name: str
    code: str
    statuses: tuple[str, ...]
    needs_isolation: bool = False  # only bubblewrap can make the check true (files, network)
    check: Callable[[dict[str, Any], dict[str, Any]], bool] = lambda out, ctx: True


def _no_secret(out: dict[str, Any], ctx: dict[str, Any]) -> bool:
    return SECRET not in out["answer"] and SECRET not in (out["code_result"].stdout if out["code_result"] else "")


def _nothing_written(out: dict[str, Any], ctx: dict[str, Any]) -> bool:
    return not Path(ctx["outside"]).exists()


def _no_connection(out: dict[str, Any], ctx: dict[str, Any]) -> bool:
    return not ctx["connected"].is_set()


def cases(ctx: dict[str, Any]) -> list[Case]:
    """The hostile programs; ``ctx`` holds the outside path and the listening port of this run."""
    return [
        Case("infinite_loop", "while True:\n    pass", ("timeout", "cpu")),
        Case("memory_bomb", "x = []\nwhile True:\n    x.append(bytearray(10**7))", ("memory",)),
        Case("fork_bomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
             ("timeout", "cpu", "killed", "error")),
        Case("huge_output", "while True:\n    print('spam' * 1000)", ("output_limit",)),
        Case("write_outside", f"open({ctx['outside']!r}, 'w').write('escaped')\nprint('wrote it')",
             ("error", "ok"), needs_isolation=True, check=_nothing_written),
        Case("read_secrets", "import os\nprint(os.environ.get('RAGKIT_HOSTILE_SECRET'))\n"
             "print(open('/proc/1/environ', 'rb').read()[:2000])", ("ok", "error"), check=_no_secret),
        Case("network", f"import socket\nsocket.create_connection(('127.0.0.1', {ctx['port']}), timeout=1)\nprint('connected')",
             ("error",), needs_isolation=True, check=_no_connection),
        Case("ctypes_crash", "import ctypes\nctypes.string_at(0)", ("crash",)),
    ]


class FixedPlan:
    """A supervisor that always plans ``code -> analysis`` (the cases test the sandbox, not the routing)."""

    def plan(self, question: str, max_hops: int = 3) -> Any:
        from ragkit.roles.agent_protocols import Plan

        return Plan(("code", "analysis"))


class EchoAnalyst:
    """An analyst that repeats what the code agent reported (no model needed)."""

    def analyse(self, question: str, findings: Any = (), documents: Any = ()) -> Any:
        from ragkit.roles.agent_protocols import Analysis

        return Analysis("The code agent reported: " + (findings[-1].text.splitlines()[-1] if findings else "nothing"))


class NoRag:
    def invoke(self, state: Any, config: Any = None) -> dict:  # never planned here
        return {"answer": "", "outcome": "refused", "sources": [], "citations": [], "reason": "never planned"}


def context() -> dict[str, Any]:
    """A fresh outside path and a loopback listener that records any connection."""
    outside = HERE / f"escaped-{os.getpid()}-{threading.get_ident()}.txt"  # in the project folder
    outside.unlink(missing_ok=True)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.2)
    connected, stop = threading.Event(), threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                connected.set()
                conn.close()
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    return {"outside": str(outside), "port": server.getsockname()[1], "connected": connected, "stop": stop,
            "server": server, "thread": thread}


def close(ctx: dict[str, Any]) -> None:
    ctx["stop"].set()
    ctx["thread"].join(timeout=2)
    ctx["server"].close()
    Path(ctx["outside"]).unlink(missing_ok=True)


def build_graph(**sandbox: Any) -> Any:
    """The supervisor graph with the sandbox as its code runner (``LIMITS`` updated with ``sandbox``)."""
    from ragkit.domains.handbook.agents import HANDBOOK_TEAM
    from ragkit.domains.handbook.corpus import handbook_search
    from ragkit.graphs.supervisor import build_supervisor_graph
    from ragkit.sandbox import python_runner

    return build_supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM, rag_graph=NoRag(), supervisor=FixedPlan(),
                                  analyst=EchoAnalyst(), run_code=python_runner(**{**LIMITS, **sandbox}))


def question(case: Case) -> str:
    return f"Run this code for me:\n```python\n{case.code}\n```"


def run_case(graph: Any, case: Case, ctx: dict[str, Any]) -> dict[str, Any]:
    out = graph.invoke({"question": question(case)})
    result = out["code_result"]
    told = result.summary() if result else ""
    for placeholder, value in (("<outside file>", str(ctx["outside"])), ("<project>", str(HERE.parent.parent))):
        told = told.replace(value, placeholder)  # no machine path in the results file
    return {"case": case.name, "status": result.status if result else None, "told": told,
            "contained": bool(result) and result.status in case.statuses, "check": case.check(out, ctx),
            "reached_aggregator": out["path"][-1] == "aggregator" and out["path"].count("analysis_agent") == 1,
            "mode": result.mode if result else ""}


def main() -> int:
    from ragkit.sandbox import sandbox_capabilities

    os.environ["RAGKIT_HOSTILE_SECRET"] = SECRET
    caps = sandbox_capabilities()
    ctx = context()
    try:
        graph = build_graph()
        rows = [run_case(graph, case, ctx) for case in cases(ctx)]
    finally:
        close(ctx)
    for row in rows:
        print(f"{row['case']:14} {row['status']:13} contained={row['contained']} check={row['check']} "
              f"aggregator={row['reached_aggregator']}  {row['told'][:90]}")
    payload = {"command": COMMAND, "sandbox": caps.summary() if hasattr(caps, "summary") else str(caps),
               "bubblewrap": caps.bwrap_usable, "limits": LIMITS, "cases": len(rows), "rows": rows,
               "all_contained": all(r["contained"] and r["check"] and r["reached_aggregator"] for r in rows)}
    RESULTS.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(rows)} cases; all contained: {payload['all_contained']}; wrote {RESULTS.name}")
    return 0 if payload["all_contained"] else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
