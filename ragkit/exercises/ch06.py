"""Checkers for notebook 06 (the guarded tool loop): a guard that refuses invented arguments, the digest
that ties an approval to one exact call, and the loop's wiring.

>>> from ragkit.core.tools import call_digest
>>> check_call_digest(call_digest, quiet=True).passed
True
>>> "sort_keys" in check_call_digest(lambda name, args: __import__("hashlib").sha256(
...     __import__("json").dumps({"name": name, "args": args}, separators=(",", ":"),
...     ensure_ascii=False).encode()).hexdigest(), quiet=True).message
True
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ragkit.core.tools import call_digest, check_call
from ragkit.domains.shop.orders import load_order_store
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS
from ragkit.exercises.core import CheckResult, Variant, check_wiring, rewired, run_checker, short
from ragkit.graphs.tool_agent import tool_agent_graph

SPECS = {spec.name: spec for spec in ORDER_TOOL_SPECS}


# ---------------------------------------------------------------- the guard
@dataclass(frozen=True)
class GuardCase:
    name: str
    args: tuple[tuple[str, Any], ...]
    user_text: str

    def call(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    def label(self) -> str:
        return f"the call {self.name}({dict(self.args)}) after the user typed {self.user_text!r}"


TEMPLATES = ["Where is {ids}?", "Please cancel {ids}", "What is in order {ids}?", "Send {ids} to 5 Main Street, Bath",
             "my orders are {ids}", "Track {ids} please"]


def guard_cases(seed: int, n: int = 40) -> list[GuardCase]:
    """Calls of known and unknown tools whose order id the user typed, typed in lower case, did not type
    (but a longer id that contains it), or left blank; plus blank and missing arguments."""
    rng = random.Random(seed)
    store = load_order_store()
    ids = sorted(store.ids())
    processing = [i for i in ids if store.get(i).status == "processing"]
    cases = [GuardCase("track_shipment", (("order_id", "A1002"),), "Where is A1002?"),
             GuardCase("cancel_order", (("order_id", "A1007"),), "Cancel A1001 please"),
             GuardCase("track_shipment", (("order_id", "A1002"),), "Where is A10021?"),
             GuardCase("refund_everything", (("order_id", "A1002"),), "Refund A1002")]
    while len(cases) < n:
        tool = rng.choice(list(SPECS) + ["refund_everything", "delete_account"])
        pool = processing if SPECS.get(tool) is not None and SPECS[tool].mutates else ids
        order_id = rng.choice(pool)
        mode = rng.choice(["typed", "typed", "lower", "other", "longer", "blank", "missing"])
        typed = {"typed": order_id, "lower": order_id.lower(), "other": rng.choice([i for i in ids if i != order_id]),
                 "longer": order_id + str(rng.randint(0, 9)), "blank": order_id, "missing": order_id}[mode]
        args: dict[str, Any] = {"order_id": "  " if mode == "blank" else order_id}
        if mode == "missing":
            args = {}
        text = rng.choice(TEMPLATES).format(ids=typed)
        if tool == "change_delivery_address":
            args["new_address"] = rng.choice(["5 Main Street, Bath", "5 Main Street, Bath", "   "])
            if args["new_address"].strip():  # the user wrote the address: only the order id is in question here
                text += f" (new address: {args['new_address']})"
        cases.append(GuardCase(tool, tuple(args.items()), text))
    return cases


def reference_guard(call: Mapping[str, Any], user_text: str) -> str:
    """ragkit's ``check_call`` step, with the order's owner logged in (login and ownership pass)."""
    store = load_order_store()
    order_id = str((call.get("args") or {}).get("order_id") or "").strip().upper()
    owner = store.get(order_id).customer_id if order_id and store.get(order_id) is not None else None
    return check_call(call, SPECS, store, user_text=user_text, user_id=owner).step


def _guard_variant(grounding: str = "word", blank: bool = True, approve: bool = True) -> Callable[..., str]:
    def guard(call: Mapping[str, Any], user_text: str) -> str:
        spec = SPECS.get(call.get("name"))
        if spec is None:
            return "refuse"
        args = call.get("args") or {}
        for arg in spec.required:
            value = args.get(arg)
            if value is None or (blank and not str(value).strip()):
                return "refuse"
        order_id = str(args.get("order_id", "")).strip()
        if grounding == "word":
            typed = re.search(rf"(?<!\w){re.escape(order_id)}(?!\w)", user_text, re.IGNORECASE) is not None
        elif grounding == "substring":
            typed = order_id.lower() in user_text.lower()
        elif grounding == "case":
            typed = re.search(rf"(?<!\w){re.escape(order_id)}(?!\w)", user_text) is not None
        else:
            typed = True
        if order_id and not typed:
            return "refuse"
        return "approve" if spec.mutates and approve else "execute"

    return guard


GUARD_VARIANTS = [
    Variant(_guard_variant(grounding="none"),
            "you let through a call whose order id the user never typed: an id the model invented must be refused "
            "(the user has to give it)"),
    Variant(_guard_variant(grounding="substring"),
            "you test `order_id in user_text`, so 'A1002' counts as typed when the user wrote 'A10021'; match "
            "the id as a whole word (re.search with (?<!\\w) and (?!\\w))"),
    Variant(_guard_variant(grounding="case"),
            "you match the id case-sensitively; a user who types 'a1001' did give the id A1001 (use re.IGNORECASE)"),
    Variant(_guard_variant(blank=False),
            "a required argument that is only spaces is as missing as an absent one: refuse it"),
    Variant(_guard_variant(approve=False),
            "a call that changes something (spec.mutates) must go to 'approve', not run at once"),
]


def check_invented_argument_guard(fn: Callable[[dict, str], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(call, user_text) -> "refuse" | "approve" | "execute"`` against ragkit's ``check_call`` (with
    the order's owner logged in, and calls the business rules allow)."""
    cases = guard_cases(seed)

    def describe(case: GuardCase, got: Any, expected: str) -> str:
        return f"for {case.label()} your guard says {short(got)}; ragkit's check_call says {expected!r}"

    return run_checker("invented_argument_guard", fn, cases, reference_guard,
                       call=lambda f, c: f(c.call(), c.user_text), same=lambda got, expected: got == expected,
                       describe=describe, variants=GUARD_VARIANTS, quiet=quiet,
                       passed_message=f"your guard agrees with ragkit's check_call on {len(cases)} generated calls "
                                      "(typed, invented, lower-case, longer and blank ids; unknown tools).")


# ---------------------------------------------------------------- the digest
@dataclass(frozen=True)
class DigestCase:
    name: str
    args: tuple[tuple[str, Any], ...]

    def label(self) -> str:
        return f"{self.name}({dict(self.args)})"


ADDRESSES = ["5 Main Street, Bath", "Via Roma 5, Città di Castello", "12 Rue de la Paix, Paris", "Øster Allé 3, København"]


def digest_cases(seed: int, n: int = 20) -> list[DigestCase]:
    """Calls whose arguments come in a shuffled key order, some with accented addresses and empty reasons."""
    rng = random.Random(seed)
    cases = [DigestCase("cancel_order", (("order_id", "A1001"),)),
             DigestCase("change_delivery_address", (("order_id", "A1007"), ("new_address", "Via Roma 5, Città di Castello")))]
    while len(cases) < n:
        tool = rng.choice(["cancel_order", "change_delivery_address", "track_shipment"])
        args = {"order_id": f"A10{rng.randint(1, 25):02d}"}
        if tool == "cancel_order":
            args["reason"] = rng.choice(["", "ordered twice", "too late"])
        if tool == "change_delivery_address":
            args["new_address"] = rng.choice(ADDRESSES)
        items = list(args.items())
        rng.shuffle(items)
        cases.append(DigestCase(tool, tuple(items)))
    return cases


def _digest_variant(payload: Callable[[str, dict], Any], **dump: Any) -> Callable[[str, Mapping[str, Any]], str]:
    options = {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False, **dump}

    def digest(name: str, args: Mapping[str, Any]) -> str:
        return hashlib.sha256(json.dumps(payload(name, dict(args)), **options).encode("utf-8")).hexdigest()

    return digest


DIGEST_VARIANTS = [
    Variant(_digest_variant(lambda name, args: {"name": name, "args": args}, sort_keys=False, separators=None,
                            ensure_ascii=True),
            "json.dumps with its defaults is not canonical: pass sort_keys=True (the same call in any key order), "
            "separators=(',', ':') (no spaces) and ensure_ascii=False (accented letters as UTF-8)"),
    Variant(_digest_variant(lambda name, args: args),
            "you hash the arguments only; the digest covers the tool name too ({'name': ..., 'args': ...}), or an "
            "approval of one tool could be spent on another with the same arguments"),
    Variant(_digest_variant(lambda name, args: {"name": name, "args": args}, sort_keys=False),
            "the same call with its arguments in another order gives another digest: pass sort_keys=True to json.dumps"),
    Variant(_digest_variant(lambda name, args: {"name": name, "args": args}, separators=None),
            "json.dumps puts spaces after ',' and ':' by default; ragkit's canonical JSON has none: "
            "separators=(',', ':')"),
    Variant(_digest_variant(lambda name, args: {"name": name, "args": args}, ensure_ascii=True),
            "accented letters are escaped (\\u00e0); ragkit writes them as UTF-8: ensure_ascii=False"),
    Variant(lambda name, args: hashlib.sha256(str({"name": name, "args": dict(args)}).encode()).hexdigest(),
            "you hash str(dict), which depends on the key order and Python's repr; hash canonical JSON"),
]


def check_call_digest(fn: Callable[[str, Mapping[str, Any]], str], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(name, args) -> hex sha256`` against ragkit's ``call_digest``."""
    cases = digest_cases(seed)

    def describe(case: DigestCase, got: Any, expected: str) -> str:
        return f"for {case.label()} your digest starts {str(got)[:16]!r}; ragkit's starts {expected[:16]!r}"

    return run_checker("call_digest", fn, cases, call_digest, call=lambda f, c: f(c.name, dict(c.args)),
                       same=lambda got, expected: got == expected, describe=describe, variants=DIGEST_VARIANTS,
                       quiet=quiet,
                       passed_message=f"your digest equals ragkit's call_digest on {len(cases)} generated calls "
                                      "(shuffled argument order, accented addresses).")


# ---------------------------------------------------------------- wiring the loop
PAUSES = ("login", "approve", "otp", "execute")


def _loop_without(drop: tuple[tuple[str, str], ...] = (), router: bool = True,
                  add: tuple[tuple[str, str], ...] = ()) -> Callable[[], Any]:
    return lambda: rewired(tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS), drop=drop,
                           routers=() if router else ("guard",), add=add)


WIRING_VARIANTS = [
    Variant(_loop_without(drop=tuple((node, "guard") for node in PAUSES), router=False),
            "the guard decides nothing yet: add_conditional_edges('guard', route_after_guard) sends the pending call "
            "to a pause, to execute or back to the agent, and each of login, approve, otp and execute hands back to "
            "guard (add_edge(node, 'guard')), which checks the call again, as ragkit's loop does"),
    Variant(_loop_without(drop=(("execute", "guard"),), add=(("execute", "agent"),)),
            "after execute, ragkit's loop goes back to guard, not to the agent: one model turn can propose several "
            "calls, and the guard settles the next queued one before the model is asked again"),
    Variant(_loop_without(drop=(("login", "guard"), ("approve", "guard"), ("otp", "guard")),
                          add=(("login", "execute"), ("approve", "execute"), ("otp", "execute"))),
            "a pause does not run the call: in ragkit's loop login, approve and otp go back to guard, which checks the "
            "call again with what the person answered (a rejected approval must not reach execute)"),
    Variant(_loop_without(drop=tuple((node, "guard") for node in PAUSES)),
            "login, approve, otp and execute each need an edge back to guard (add_edge(node, 'guard')): without them "
            "a run stops at the first pause instead of going on, as ragkit's loop does"),
]


def check_tool_loop_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires the guarded tool loop as ``ragkit.graphs.tool_agent.tool_agent_graph`` does
    (the same nodes and edges, each conditional edge from the module's router)."""
    return check_wiring(build, tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS), "tool_loop_wiring", quiet,
                        WIRING_VARIANTS)
