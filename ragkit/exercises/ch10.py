"""Checkers for notebook 10 (supervisor multi-agent): the supervisor graph wired by hand, a supervisor's reply
turned into a valid plan, the router after each agent that keeps the run within ``max_hops``, and an import
allow-list check of code.

>>> from ragkit.roles.llm_agents import parse_agent_names
>>> from ragkit.roles.agent_protocols import normalise_sequence
>>> check_plan_parser(lambda reply, max_hops: list(normalise_sequence(parse_agent_names(reply), max_hops)[0]),
...                   quiet=True).passed
True
>>> from ragkit.graphs.supervisor import route_after_agent
>>> check_hop_router(route_after_agent, quiet=True).passed
True
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from langgraph.graph import StateGraph

from ragkit.domains.handbook.agents import HANDBOOK_TEAM
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.exercises.core import CheckResult, Variant, check_wiring, rewired, run_checker, short
from ragkit.graphs.supervisor import (
    route_after_agent,
    supervisor_graph,
)
from ragkit.roles.agent_protocols import AGENTS, DEFAULT_AGENT, normalise_sequence
from ragkit.roles.llm_agents import parse_agent_names
from ragkit.sandbox.imports import disallowed_imports


# ---------------------------------------------------------------- the plan parser
@dataclass(frozen=True)
class ReplyCase:
    reply: str
    max_hops: int

    def label(self) -> str:
        return f"the reply {self.reply!r} with max_hops={self.max_hops}"


UNKNOWN_NAMES = ("oracle", "FINISH", "search", "python_agent", "aggregator", "supervisor", "web")


def _spelling(rng: random.Random, name: str) -> str:
    """One way a chat model writes an agent's name: as is, with ``_agent``, capitalised, spaces around."""
    form = rng.choice([name, name, f"{name}_agent", f"{name}_agent", name.capitalize(), f"{name.upper()}_AGENT"])
    return rng.choice(["", " ", "  "]) + form + rng.choice(["", " "])


def reply_cases(seed: int, n: int = 36) -> list[ReplyCase]:
    """Comma-separated replies: agent names spelt several ways, unknown names, repeats in a row and apart,
    empty items, replies longer than the cap, and replies with no usable name at all."""
    rng = random.Random(seed)
    cases = [ReplyCase("rag, code, rag", 3), ReplyCase("rag_agent, rag_agent, code_agent", 3),
             ReplyCase("FINISH", 2), ReplyCase("oracle, code, code, analysis, rag", 2)]
    while len(cases) < n:
        items: list[str] = []
        for _ in range(rng.randint(1, 6)):
            roll = rng.random()
            if roll < 0.2:
                items.append(rng.choice(UNKNOWN_NAMES))
            elif roll < 0.35 and items:
                items.append(items[-1])  # a repeat in a row
            elif roll < 0.4:
                items.append("")
            else:
                items.append(_spelling(rng, rng.choice(AGENTS)))
        cases.append(ReplyCase(rng.choice([",", ", "]).join(items), rng.randint(1, 4)))
    return cases


def reference_plan(reply: str, max_hops: int) -> list[str]:
    """What ragkit's supervisor node makes of a comma-separated reply (``parse_agent_names`` then
    ``normalise_sequence``)."""
    return list(normalise_sequence(parse_agent_names(reply), max_hops)[0])



def _plan_variant(collapse: str = "in_a_row", cut: str = "after", fallback: bool = True, known: bool = True,
                  suffix: bool = True, fold_case: bool = True, cap: str = "max_hops") -> Callable[[str, int], list[str]]:
    def parse(reply: str, max_hops: int) -> list[str]:
        items = [i.strip() for i in reply.split(",")]
        if cut == "before":
            items = items[:max_hops]
        names = []
        for item in items:
            name = item.lower() if fold_case else item
            name = name.removesuffix("_agent") if suffix else name
            if name in AGENTS or (not known and name):
                names.append(name)
        if collapse == "in_a_row":
            names = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
        elif collapse == "all":
            names = list(dict.fromkeys(names))
        if not names and fallback:
            names = [DEFAULT_AGENT]
        if cut == "after":
            names = names[: {"max_hops": max_hops, "one_less": max_hops - 1, "none": None}[cap]]
        return names

    return parse


PLAN_VARIANTS = [
    Variant(_plan_variant(collapse="none"),
            "a name repeated in a row must collapse to one hop ('code, code' is one code hop): keep a name only "
            "when it differs from the one before it"),
    Variant(_plan_variant(collapse="all"),
            "you drop every repeat, even one that is not in a row; 'rag, code, rag' is three hops (look it up, "
            "code it, look up again): only repeats *in a row* collapse"),
    Variant(_plan_variant(cut="before"),
            "you cut at max_hops before dropping unknown names and collapsing repeats; clean the list first, "
            "then cut, so the cap counts real hops"),
    Variant(_plan_variant(fallback=False),
            "when no name is usable the plan must fall back to the default agent ['rag'], never be empty "
            "(an empty plan leaves the graph no agent to go to)"),
    Variant(_plan_variant(cap="none"),
            "you never apply the cap: keep at most max_hops agents"),
    Variant(_plan_variant(cap="one_less"),
            "off by one: keep max_hops agents (names[:max_hops]), not one fewer"),
    Variant(_plan_variant(known=False),
            "you keep names that are not agents ('oracle', 'FINISH'); drop them, there is no node to send them to"),
    Variant(_plan_variant(suffix=False),
            "you drop names written with the '_agent' suffix ('rag_agent'); the prompt asks for names like "
            "rag_agent, so remove the suffix before comparing"),
    Variant(_plan_variant(fold_case=False),
            "you compare names case-sensitively, so 'Code' or 'RAG_AGENT' is dropped; lower-case each name first"),
]


def check_plan_parser(fn: Callable[[str, int], Sequence[str]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(reply, max_hops) -> list of agent names`` against ragkit's supervisor normalisation."""
    cases = reply_cases(seed)

    def same(got: Any, expected: list[str]) -> bool:
        return isinstance(got, (list, tuple)) and list(got) == expected

    def describe(case: ReplyCase, got: Any, expected: list[str]) -> str:
        return f"for {case.label()} you plan {short(got)}; ragkit plans {expected!r}"

    return run_checker("plan_parser", fn, cases, reference_plan, call=lambda f, c: f(c.reply, c.max_hops), same=same,
                       describe=describe, variants=PLAN_VARIANTS, quiet=quiet,
                       passed_message=f"your parser makes the same plan as ragkit's supervisor node for all {len(cases)} "
                                      "generated replies (unknown names, repeats in a row and apart, '_agent' and "
                                      "capitals, empty replies, replies longer than the cap).")


# ---------------------------------------------------------------- the hop router
@dataclass(frozen=True)
class HopCase:
    plan: tuple[str, ...]
    hops: int
    max_hops: int

    def state(self) -> dict[str, Any]:
        return {"plan": list(self.plan), "hops": self.hops, "max_hops": self.max_hops}

    def label(self) -> str:
        return f"plan={list(self.plan)}, hops={self.hops}, max_hops={self.max_hops}"


def hop_cases(seed: int, n: int = 40) -> list[HopCase]:
    """States after an agent ran: inside the plan, at its end, at the cap, and plans longer than the cap
    (a supervisor that was not cut, or a state written by hand)."""
    rng = random.Random(seed)
    cases = [HopCase(("rag", "code"), 1, 3), HopCase(("rag", "code"), 2, 3), HopCase(("rag", "code", "rag", "code"), 3, 3),
             HopCase(("chitchat",), 1, 1), HopCase(("code", "analysis", "rag"), 1, 1)]
    while len(cases) < n:
        plan = tuple(rng.choice(AGENTS) for _ in range(rng.randint(1, 6)))
        cases.append(HopCase(plan, rng.randint(1, len(plan)), rng.randint(1, 4)))
    return cases


def reference_hop_router(state: dict[str, Any]) -> str:
    """ragkit's ``route_after_agent``."""
    return route_after_agent(state)  # type: ignore[arg-type]


def _hop_variant(plan: bool = True, cap: bool = True, strict: bool = True, early: bool = False) -> Callable[[dict], str]:
    def route(state: dict) -> str:
        hops = state["hops"] + (1 if early else 0)
        within = (lambda a, b: a < b) if strict else (lambda a, b: a <= b)
        more = (not plan or within(hops, len(state["plan"]))) and (not cap or within(hops, state["max_hops"]))
        return "next_hop" if more else "aggregator"

    return route


HOP_VARIANTS = [
    Variant(_hop_variant(cap=False),
            "you stop only when the plan runs out; the cap max_hops in the state must stop the run too, whatever "
            "the plan says (a plan can be longer than the cap)"),
    Variant(_hop_variant(plan=False),
            "you stop only at max_hops; stop also when the plan has no agent left, or next_hop would read past "
            "the end of the plan"),
    Variant(_hop_variant(strict=False),
            "off by one: hops counts the agents that already ran, so another hop needs hops < len(plan) and "
            "hops < max_hops, not <="),
    Variant(_hop_variant(early=True),
            "you stop one hop early: hops already counts the agent that just ran, do not add 1 to it"),
]


def check_hop_router(fn: Callable[[dict], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(state) -> "next_hop" | "aggregator"`` against ragkit's ``route_after_agent``."""
    cases = hop_cases(seed)

    def describe(case: HopCase, got: Any, expected: str) -> str:
        return f"for the state {case.label()} your router returns {short(got)}; ragkit's returns {expected!r}"

    return run_checker("hop_router", fn, cases, reference_hop_router, call=lambda f, c: f(c.state()),
                       same=lambda got, expected: got == expected, describe=describe, variants=HOP_VARIANTS, quiet=quiet,
                       passed_message=f"your router agrees with ragkit's route_after_agent on {len(cases)} generated "
                                      "states, including states at the cap and plans longer than the cap.")


# ---------------------------------------------------------------- the import allow-list
@dataclass(frozen=True)
class ImportCase:
    code: str
    allowed: frozenset[str]

    def label(self) -> str:
        return f"the code {self.code!r} with allowed={sorted(self.allowed)}"


MODULES = ("math", "json", "os", "sys", "socket", "subprocess", "collections", "itertools", "random", "ctypes",
           "statistics", "urllib", "shutil")
SUBMODULES = {"os": "path", "urllib": "request", "collections": "abc", "json": "decoder"}


def import_cases(seed: int, n: int = 30) -> list[ImportCase]:
    """Small programs: plain, dotted, aliased and ``from`` imports, several modules on one line, imports nested
    in functions and ``try`` blocks, relative imports, repeats, and ``import`` inside strings and comments."""
    rng = random.Random(seed)

    def statement(module: str) -> str:
        sub = SUBMODULES.get(module)
        forms = [f"import {module}", f"import {module} as m", f"from {module} import *"]
        if sub:
            forms += [f"import {module}.{sub}", f"from {module}.{sub} import x"]
        return rng.choice(forms)

    cases = [ImportCase("import os.path\nimport math", frozenset({"math"})),
             ImportCase("def f():\n    import socket\n    return socket", frozenset({"math"})),
             ImportCase("from . import helpers\nfrom json import loads", frozenset({"math"})),
             ImportCase("import subprocess\nimport subprocess as sp", frozenset()),
             ImportCase('text = """\nimport shutil\n"""\nprint(text)  # import ctypes', frozenset({"math"}))]
    while len(cases) < n:
        lines = []
        for _ in range(rng.randint(1, 5)):
            module = rng.choice(MODULES)
            roll = rng.random()
            if roll < 0.15:
                lines += ["def helper():", f"    {statement(module)}", "    return 1"]
            elif roll < 0.25:
                lines += ["try:", f"    {statement(module)}", "except ImportError:", "    pass"]
            elif roll < 0.32:
                lines.append(f"from .{module}_tools import run")
            elif roll < 0.4:
                lines.append(f"import {module}, {rng.choice(MODULES)}")
            elif roll < 0.45:
                lines.append(f"print('import {module}')")
            else:
                lines.append(statement(module))
        allowed = frozenset(rng.sample(MODULES, rng.randint(0, 5)))
        cases.append(ImportCase("\n".join(lines), allowed))
    return cases


def reference_disallowed(code: str, allowed: frozenset[str]) -> list[str]:
    """ragkit's ``disallowed_imports``."""
    return disallowed_imports(code, allowed)


def _imports_variant(walk: bool = True, top_level: bool = True, from_imports: bool = True, once: bool = True,
                     skip_relative: bool = True, regex: bool = False) -> Callable[[str, frozenset[str]], list[str]]:
    def check(code: str, allowed: frozenset[str]) -> list[str]:
        if regex:
            names = re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", code, re.MULTILINE)
        else:
            tree = ast.parse(code)
            nodes = ast.walk(tree) if walk else iter(tree.body)
            statements = sorted((n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))),
                                key=lambda n: (n.lineno, n.col_offset))
            names = []
            for node in statements:
                if isinstance(node, ast.Import):
                    names += [alias.name for alias in node.names]
                elif from_imports and (node.level == 0 or not skip_relative):
                    names.append(node.module or ".")
            names = [name.split(".")[0] if top_level else name for name in names]
        if once:
            names = list(dict.fromkeys(names))
        return [name for name in names if name not in allowed]

    return check


IMPORT_VARIANTS = [
    Variant(_imports_variant(walk=False),
            "you read only the top-level statements; an import inside a function or a try block imports too: "
            "walk the whole tree (ast.walk)"),
    Variant(_imports_variant(top_level=False),
            "you compare the full dotted name ('os.path') with the allow-list; compare its top-level package "
            "('os'), which is what gets loaded"),
    Variant(_imports_variant(from_imports=False),
            "you skip 'from x import y' statements; they import x too (ast.ImportFrom, its .module)"),
    Variant(_imports_variant(once=False),
            "you name a module each time it is imported; name each module once, in the order it first appears"),
    Variant(_imports_variant(skip_relative=False),
            "you count relative imports ('from . import helpers', node.level > 0); they load the program's own "
            "files, not a module of the allow-list: skip them"),
    Variant(_imports_variant(regex=True),
            "you search the text for 'import' at the start of a line, so a string that contains one counts and "
            "some real imports may not: read the syntax tree (ast.parse) instead"),
]


def check_import_allowlist(fn: Callable[[str, frozenset[str]], Sequence[str]], seed: int = 0,
                           quiet: bool = False) -> CheckResult:
    """Check ``fn(code, allowed) -> modules not allowed`` against ragkit's ``disallowed_imports``."""
    cases = import_cases(seed)

    def same(got: Any, expected: list[str]) -> bool:
        return isinstance(got, (list, tuple)) and list(got) == expected

    def describe(case: ImportCase, got: Any, expected: list[str]) -> str:
        return f"for {case.label()} you name {short(got)}; ragkit's disallowed_imports names {expected!r}"

    return run_checker("import_allowlist", fn, cases, reference_disallowed, call=lambda f, c: f(c.code, c.allowed),
                       same=same, describe=describe, variants=IMPORT_VARIANTS, quiet=quiet,
                       passed_message=f"your check names the same modules as ragkit's disallowed_imports on all "
                                      f"{len(cases)} generated programs (nested, dotted, aliased, from- and relative "
                                      "imports, repeats, 'import' inside strings).")



# ---------------------------------------------------------------- wiring the graph
AGENT_NODES = ("rag_agent", "code_agent", "analysis_agent", "chitchat_agent")


def _team(after_agents: str = "router", after_next_hop: str = "router") -> Callable[[], StateGraph]:
    """The builder's supervisor graph rewired: after each agent ``router`` (route_after_agent, as built),
    ``aggregator`` (a fixed edge) or ``none``; after next_hop ``router`` (route_after_next_hop, as built),
    ``supervisor`` (a fixed edge back) or ``none``. (A node nothing leads to is not drawn, so "agents to the
    aggregator" hides how next_hop is wired.)"""

    def build() -> StateGraph:
        routers, fixed = [], []
        if after_agents != "router":
            routers.extend(AGENT_NODES)
            if after_agents == "aggregator":
                fixed.extend((agent, "aggregator") for agent in AGENT_NODES)
        if after_next_hop != "router":
            routers.append("next_hop")
            if after_next_hop == "supervisor":
                fixed.append(("next_hop", "supervisor"))
        return rewired(supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM), routers=routers, add=fixed)

    return build


WIRING_VARIANTS = [
    Variant(_team(after_agents="none", after_next_hop="none"),
            "the hops are not wired yet: after each of the four agents add_conditional_edges(agent, route_after_agent) "
            "(another hop, or the aggregator), and add_conditional_edges('next_hop', route_after_next_hop) (the next "
            "planned agent), as ragkit's builder does"),
    Variant(_team(after_agents="aggregator", after_next_hop="none"),
            "a fixed edge from each agent to the aggregator runs only the first agent of the plan: ragkit's builder "
            "lets route_after_agent send the run to next_hop while the plan has an agent left and hops < max_hops"),
    Variant(_team(after_next_hop="supervisor"),
            "next_hop -> supervisor asks the supervisor again after every hop: it plans the same chain from the "
            "start, and only the hop cap ends the loop. ragkit's builder plans once; route_after_next_hop sends the "
            "run on to the next planned agent"),
    Variant(_team(after_next_hop="none"),
            "next_hop has no way out, so a chain stops after its first agent: add_conditional_edges('next_hop', "
            "route_after_next_hop) sends the run to the next planned agent, as ragkit's builder does"),
]


def check_supervisor_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires the supervisor graph as ``ragkit.graphs.supervisor.supervisor_graph`` does
    (the same nine nodes and the same edges, each conditional edge from the module's router)."""
    return check_wiring(build, supervisor_graph(handbook_search(), domain=HANDBOOK_TEAM), "supervisor_wiring", quiet, WIRING_VARIANTS)


__all__ = ["HOP_VARIANTS", "IMPORT_VARIANTS", "PLAN_VARIANTS", "WIRING_VARIANTS", "HopCase", "ImportCase", "ReplyCase",
           "check_hop_router", "check_import_allowlist", "check_plan_parser", "check_supervisor_wiring", "hop_cases",
           "import_cases", "reference_disallowed", "reference_hop_router", "reference_plan", "reply_cases"]
