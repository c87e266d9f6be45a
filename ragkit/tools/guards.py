"""The deterministic guards of the tool loop: the model proposes a call, this code decides what happens.

``check_call`` looks at one proposed call and the facts in the state (who is logged in, what was
approved) and returns the next step: ``refuse`` (with a message for the model), ``login``, ``approve``,
``otp`` or ``execute``. It is a pure function, so every rule is tested directly. Approvals are tied to a
call by ``call_digest``: a sha256 of the canonical JSON of the tool name and arguments, so an approval of
"cancel A1001" cannot be spent on "cancel A1002". The ``parse_*`` functions validate resume payloads.

Simplifications: "grounding" only checks that an order id the model passes appears in something the
user typed (it stops invented ids, not every invented value), the one-time code is an HMAC of the
call's digest with a demo secret (a real shop would send a random code by e-mail or SMS), and login is
"say who you are" with no password: it shows where authentication goes, not how to do it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any, Literal, Mapping

from pydantic import ValidationError

from ragkit.tools.orders import OrderRuleError, OrderStore
from ragkit.tools.specs import ToolSpec

Step = Literal["refuse", "login", "approve", "otp", "execute"]
ASK_USER = "Do not invent it: ask the user."


class ResumePayloadError(ValueError):
    """A resume payload had the wrong shape; the run stays paused and nothing changes."""


def call_digest(name: str, args: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of ``{"name": ..., "args": ...}`` (sorted keys, no spaces).

    >>> call_digest("cancel_order", {"order_id": "A1001"})[:12]
    '8598f9f3664e'
    >>> call_digest("cancel_order", {"order_id": "A1001"}) == call_digest("cancel_order", {"order_id": "A1002"})
    False
    """
    text = json.dumps({"name": name, "args": dict(args)}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def is_blank(value: Any) -> bool:
    """True for a missing value, ``None``, or a string of whitespace.

    >>> is_blank("  "), is_blank(None), is_blank("A1001")
    (True, True, False)
    """
    return value is None or (isinstance(value, str) and not value.strip())


def mentioned_by_user(value: str, user_text: str) -> bool:
    """Did the user type this value (case-insensitive, as a whole word)?

    >>> mentioned_by_user("a1001", "please cancel A1001."), mentioned_by_user("A1001", "order A10012")
    (True, False)
    """
    needle = re.escape(str(value).strip())
    return bool(needle) and re.search(rf"(?<!\w){needle}(?!\w)", user_text, re.IGNORECASE) is not None


@dataclass(frozen=True)
class GuardDecision:
    """What to do with one proposed call.

    ``message`` is what the model is told when it is refused. ``args`` are the arguments as the tool
    will receive them (validated, defaults filled in): the graph stores these, so the call a person
    approves, and whose digest is checked, is exactly the call that runs.
    """

    step: Step
    message: str = ""
    args: dict | None = None


def _refuse(message: str) -> GuardDecision:
    return GuardDecision("refuse", message)


def check_call(
    call: Mapping[str, Any],
    specs: Mapping[str, ToolSpec],
    store: OrderStore,
    *,
    user_text: str = "",
    user_id: str | None = None,
    approval: Mapping[str, Any] | None = None,
    otp: Mapping[str, Any] | None = None,
    require_otp: bool = False,
    grounded: bool = True,
) -> GuardDecision:
    """The next step for one proposed call ``{"name", "args"}``, checked in a fixed order.

    Order: known tool -> required arguments present -> arguments valid -> order id typed by the user ->
    logged in -> owner -> business rule -> approved (mutations) -> one-time code (mutations) -> execute.

    >>> from ragkit.tools.specs import ORDER_TOOL_SPECS
    >>> from ragkit.tools.orders import load_order_store
    >>> specs = {s.name: s for s in ORDER_TOOL_SPECS}
    >>> check_call({"name": "cancel_order", "args": {}}, specs, load_order_store()).message
    "Missing required argument 'order_id' for cancel_order. Do not invent it: ask the user."
    """
    name, args = call.get("name"), call.get("args")
    spec = specs.get(name) if isinstance(name, str) else None
    if spec is None:
        return _refuse(f"Unknown tool {name!r}. Available tools: {', '.join(sorted(specs))}. Nothing was run.")
    if not isinstance(args, Mapping):
        return _refuse(f"The arguments of {name} must be an object, got {type(args).__name__}. Nothing was run.")
    for arg in spec.required:
        if is_blank(args.get(arg)):
            return _refuse(f"Missing required argument {arg!r} for {name}. {ASK_USER}")
    try:
        args = spec.args_schema.model_validate(dict(args)).model_dump()
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'args'}: {e['msg']}" for e in err.errors())
        return _refuse(f"Invalid arguments for {name}: {problems}. Nothing was run.")
    order_id = str(args.get(spec.owner_arg, "")).strip() if spec.owner_arg else ""
    if grounded and order_id and not mentioned_by_user(order_id, user_text):
        return _refuse(f"The order id {order_id!r} was not given by the user. {ASK_USER}")
    if spec.needs_login:
        if user_id is None:
            return GuardDecision("login", args=args)
        order = store.get(order_id) if order_id else None
        if order_id and order is None:
            return _refuse(f"No order with id {order_id!r} exists. Ask the user to check the order id. Nothing was run.")
        if order is not None and order.customer_id != user_id:
            return _refuse(f"Order {order.order_id} does not belong to the logged-in customer {user_id}. Nothing was run.")
    if spec.check is not None:
        try:
            spec.check(store, **args)
        except OrderRuleError as err:
            return _refuse(str(err))
    if spec.mutates:
        digest = call_digest(name, args)
        if approval is None or approval.get("digest") != digest:
            return GuardDecision("approve", args=args)
        if not approval.get("approved"):
            return _refuse(f"The user rejected {name} {dict(args)}. Nothing was changed. Do not retry unless the user asks again.")
        if require_otp:
            if otp is None or otp.get("digest") != digest:
                return GuardDecision("otp", args=args)
            if not otp.get("passed"):
                return _refuse(f"The one-time code check failed for {name}. Nothing was changed.")
    return GuardDecision("execute", args=args)


# ---------------------------------------------------------------- resume payloads
APPROVAL_SHAPE = '{"approved": true|false, "digest": "<the digest shown with the call>"}'
LOGIN_SHAPE = '{"user_id": "C001"}'
OTP_SHAPE = '{"code": "123456"}'


def _exact_keys(payload: Any, allowed: set[str], required: set[str], shape: str) -> dict:
    if not isinstance(payload, dict):
        raise ResumePayloadError(f"expected a dict shaped like {shape}, got {type(payload).__name__}")
    extra, missing = sorted(set(payload) - allowed), sorted(required - set(payload))
    if extra:
        raise ResumePayloadError(
            f"unexpected key(s) {extra}: a resume payload cannot change the call. Expected {shape}; "
            "to change the call, reject it and ask again."
        )
    if missing:
        raise ResumePayloadError(f"missing key(s) {missing}. Expected {shape}")
    return payload


def parse_approval(payload: Any, digest: str) -> bool:
    """``True``/``False`` from ``{"approved": bool, "digest": str}``; approving needs the pending call's digest.

    >>> parse_approval({"approved": False}, "abc")
    False
    >>> parse_approval({"approved": True, "digest": "abc"}, "abc")
    True
    """
    payload = _exact_keys(payload, {"approved", "digest"}, {"approved"}, APPROVAL_SHAPE)
    if not isinstance(payload["approved"], bool):
        raise ResumePayloadError(f"'approved' must be true or false, got {payload['approved']!r}")
    if payload["approved"] and not hmac.compare_digest(str(payload.get("digest", "")), digest):
        raise ResumePayloadError("the digest does not match the pending call: approve exactly the call shown")
    return payload["approved"]


def parse_login(payload: Any, known_users: set[str]) -> str:
    """The customer id from ``{"user_id": "C001"}``; it must be a known customer."""
    payload = _exact_keys(payload, {"user_id"}, {"user_id"}, LOGIN_SHAPE)
    user_id = payload["user_id"]
    if not isinstance(user_id, str) or is_blank(user_id):
        raise ResumePayloadError(f"'user_id' must be a non-blank string like C001, got {user_id!r}")
    if user_id.strip().upper() not in known_users:
        raise ResumePayloadError(f"no customer with id {user_id!r}")
    return user_id.strip().upper()


def parse_otp(payload: Any) -> str:
    """The code from ``{"code": "123456"}`` (digits only)."""
    payload = _exact_keys(payload, {"code"}, {"code"}, OTP_SHAPE)
    code = str(payload["code"]).strip()
    if not code.isdigit():
        raise ResumePayloadError(f"'code' must be digits, got {payload['code']!r}")
    return code


class SeededCodeSource:
    """Deterministic one-time codes for demos and tests: HMAC-sha256(secret, digest) -> 6 digits.

    The same call always gets the same code, so a notebook can print it and a test can type it.

    >>> SeededCodeSource("demo").code_for("abc") == SeededCodeSource("demo").code_for("abc")
    True
    """

    def __init__(self, secret: str = "ragkit-demo", digits: int = 6):
        self.secret, self.digits = secret.encode("utf-8"), digits

    def code_for(self, digest: str) -> str:
        mac = hmac.new(self.secret, digest.encode("utf-8"), hashlib.sha256).hexdigest()
        return str(int(mac, 16) % 10**self.digits).zfill(self.digits)
