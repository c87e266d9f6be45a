"""The deterministic guards of the tool loop: the model proposes a call, this code decides what happens.

``check_call`` looks at one proposed call and the facts in the state (who is logged in, what was
approved) and returns the next step: ``refuse`` (with a message for the model and a ``reason`` code for
code), ``login``, ``approve``, ``otp`` or ``execute``. It is a pure function, so every rule is tested
directly. Approvals are tied to a call by ``call_digest``: a sha256 of the canonical JSON of the tool name
and arguments, so an approval of "cancel A1001" cannot be spent on "cancel A1002". The ``parse_*``
functions validate resume payloads.

Provenance: every argument a spec lists in ``user_args`` (order ids, a new address) must be found in what
the user wrote, after folding case, spaces and trailing punctuation (``written_by_user``); otherwise the
call is refused with "Do not invent it: ask the user." The reasons in ``ASK_USER_REASONS`` mean "the user
must supply something", so a planner can ask instead of reading the message text.

Simplifications: provenance is a substring test, so a value the model paraphrased ("Street" for the
user's "St") is refused too (safe, and the user is asked again), while a value pieced together from
two places in the user's words is not caught; the one-time code is an HMAC of the call's digest with a
demo secret (a real shop would send a random code by e-mail or SMS), and login is "say who you are"
with no password: it shows where authentication goes, not how to do it.
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
Reason = Literal["", "unknown_tool", "bad_arguments", "missing_argument", "not_from_user", "no_such_order",
                 "not_owner", "business_rule", "rejected", "otp_failed"]
ASK_USER = "Do not invent it: ask the user."
ASK_USER_REASONS = frozenset({"missing_argument", "not_from_user"})  # refusals the user can fix by saying more


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


def normalise(text: str) -> str:
    """Fold case and whitespace, tidy spaces around commas and drop edge punctuation and quotes.

    >>> normalise("  12 High St ,Oxford.  ")
    '12 high st, oxford'
    """
    text = " ".join(str(text).replace("\u2019", "'").casefold().split())
    text = re.sub(r"\s+([,;:.!?])", r"\1", text)
    text = re.sub(r"([,;])(?=\S)", r"\1 ", text)
    return text.strip(" .,;:!?\"'`()[]")


def written_by_user(value: Any, user_text: str) -> bool:
    """Did the user write this value (after ``normalise``, as whole words)?

    >>> written_by_user("a1001", "please cancel A1001."), written_by_user("A1001", "order A10012")
    (True, False)
    >>> written_by_user("12 High St, Oxford", "move it to 12 high st,oxford please")
    True
    >>> written_by_user("99 Attacker Road", "move it to 12 High St, Oxford")
    False
    """
    needle = normalise(value)
    if not needle:
        return False
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", normalise(user_text)) is not None


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
    reason: Reason = ""  # why a call was refused, for code (the message is for the model)
    arg: str | None = None  # the argument a refusal is about, if any

    @property
    def asks_user(self) -> bool:
        """True when the user can fix the refusal by saying more (a missing or unseen argument)."""
        return self.reason in ASK_USER_REASONS

    def details(self) -> dict[str, Any]:
        """The structured part of a refusal, for ``ToolMessage.artifact``: ``{"reason", "arg"}``."""
        return {"reason": self.reason, "arg": self.arg}


def _refuse(message: str, reason: Reason, arg: str | None = None) -> GuardDecision:
    return GuardDecision("refuse", message, reason=reason, arg=arg)


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

    Order: known tool -> required arguments present -> arguments valid -> every user argument written by
    the user (``grounded``) -> logged in -> owner -> business rule -> approved (mutations) -> one-time
    code (mutations) -> execute.

    >>> from ragkit.tools.specs import ORDER_TOOL_SPECS
    >>> from ragkit.tools.orders import load_order_store
    >>> specs = {s.name: s for s in ORDER_TOOL_SPECS}
    >>> check_call({"name": "cancel_order", "args": {}}, specs, load_order_store()).message
    "Missing required argument 'order_id' for cancel_order. Do not invent it: ask the user."
    """
    name, args = call.get("name"), call.get("args")
    spec = specs.get(name) if isinstance(name, str) else None
    if spec is None:
        return _refuse(f"Unknown tool {name!r}. Available tools: {', '.join(sorted(specs))}. Nothing was run.",
                       "unknown_tool")
    if not isinstance(args, Mapping):
        return _refuse(f"The arguments of {name} must be an object, got {type(args).__name__}. Nothing was run.",
                       "bad_arguments")
    for arg in spec.required:
        if is_blank(args.get(arg)):
            return _refuse(f"Missing required argument {arg!r} for {name}. {ASK_USER}", "missing_argument", arg)
    try:
        args = spec.args_schema.model_validate(dict(args)).model_dump()
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'args'}: {e['msg']}" for e in err.errors())
        return _refuse(f"Invalid arguments for {name}: {problems}. Nothing was run.", "bad_arguments")
    if grounded:
        for arg in spec.from_user:
            value = args.get(arg)
            if not is_blank(value) and not written_by_user(value, user_text):
                return _refuse(f"The {arg} {value!r} is not in what the user wrote. {ASK_USER}", "not_from_user", arg)
    order_id = str(args.get(spec.owner_arg, "")).strip() if spec.owner_arg else ""
    if spec.needs_login:
        if user_id is None:
            return GuardDecision("login", args=args)
        order = store.get(order_id) if order_id else None
        if order_id and order is None:
            return _refuse(f"No order with id {order_id!r} exists. Ask the user to check the order id. Nothing was run.",
                           "no_such_order", spec.owner_arg)
        if order is not None and order.customer_id != user_id:
            return _refuse(f"Order {order.order_id} does not belong to the logged-in customer {user_id}. Nothing was run.",
                           "not_owner", spec.owner_arg)
    if spec.check is not None:
        try:
            spec.check(store, **args)
        except OrderRuleError as err:
            return _refuse(str(err), "business_rule")
    if spec.mutates:
        digest = call_digest(name, args)
        if approval is None or approval.get("digest") != digest:
            return GuardDecision("approve", args=args)
        if not approval.get("approved"):
            return _refuse(f"The user rejected {name} {dict(args)}. Nothing was changed. Do not retry unless the user asks again.",
                           "rejected")
        if require_otp:
            if otp is None or otp.get("digest") != digest:
                return GuardDecision("otp", args=args)
            if not otp.get("passed"):
                return _refuse(f"The one-time code check failed for {name}. Nothing was changed.", "otp_failed")
    return GuardDecision("execute", args=args)


# ---------------------------------------------------------------- resume payloads
APPROVAL_SHAPE = '{"approved": true|false, "digest": "<the digest shown with the call>"}'
LOGIN_SHAPE = '{"user_id": "<your customer id>"}'
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
    """The customer id from ``{"user_id": "<your customer id>"}``; it must be a known customer.

    >>> parse_login({"user_id": " c002 "}, {"C002"})
    'C002'
    """
    payload = _exact_keys(payload, {"user_id"}, {"user_id"}, LOGIN_SHAPE)
    user_id = payload["user_id"]
    if not isinstance(user_id, str) or is_blank(user_id):
        raise ResumePayloadError(f"'user_id' must be a non-blank string (your customer id), got {user_id!r}")
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
