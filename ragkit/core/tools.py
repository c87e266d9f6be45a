"""Tool specs and the deterministic guards of a tool loop: the model proposes a call, this code decides.

A :class:`ToolSpec` is all there is to know about one tool: the guards read ``mutates``, ``needs_login``,
``required``, ``owner_arg`` and ``user_args`` (arguments that must come from the user's own words); a
planner reads ``title``, ``examples`` and each user argument's extractor and question; ``as_tool(store)``
makes the LangChain tool for ``bind_tools``, carrying its spec. A new tool is one more ``ToolSpec`` in its
domain's folder (the shop's: :mod:`ragkit.domains.shop.tools`); the guards and the planner do not change.
From the data the tools act on, the loop needs only a :class:`ToolStore`.

:func:`check_call` looks at one proposed call and the facts in the state (who is logged in, what was
approved) and returns the next step: ``refuse`` (a message for the model, a ``reason`` code for code),
``login``, ``approve``, ``otp`` or ``execute``; it is a pure function, so every rule is tested directly.
An approval is tied to one call by :func:`call_digest` (sha256 of its canonical JSON), so approving
"cancel A1001" cannot be spent on "cancel A1002"; the ``parse_*`` functions validate resume payloads.
Every ``user_args`` value must be in what the user wrote (:func:`written_by_user`), else the call is
refused with "Do not invent it: ask the user." (a reason in ``ASK_USER_REASONS``).

What it cannot do: one owner per record and one record argument per tool; provenance is a substring
test, so a value the model paraphrased ("Street" for the user's "St") is refused too (safe: the user is
asked again), while a value pieced together from two places in the user's words is not caught; the
one-time code is an HMAC of the call's digest with a demo secret (a real shop sends a random code), and
login is "say who you are" with no password: it shows where authentication goes, not how to do it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Protocol

from langchain_core.tools import StructuredTool, ToolException
from pydantic import BaseModel, Field, ValidationError


class ToolRuleError(ToolException):
    """A business rule refused an action (an unknown record, cancelling what was delivered, ...).

    It is a LangChain ``ToolException``, so a tool built with ``handle_tool_error=True`` turns it into an
    error ``ToolMessage`` for the model instead of crashing the run.
    """


@dataclass(frozen=True)
class Owner:
    """Who owns one record: ``key`` as the store writes it, the customer's id, and where a code is sent."""

    key: str
    customer_id: str
    email: str = ""


class ToolStore(Protocol):
    """What the tool loop needs from the data its tools act on (the shop's ``OrderStore`` is one)."""

    noun: str  # what one record is called in messages to the model: "order"

    def owner(self, key: str) -> Owner | None:
        """Who owns the record ``key``, or ``None`` when there is no such record."""

    def customers(self) -> set[str]:
        """The customer ids a person may log in as."""

    def transaction(self, user_id: str = "", digest: str = "") -> AbstractContextManager[Any]:
        """A block run as one change: if it raises, the store is as it was before."""


@dataclass(frozen=True)
class UserArg:
    """An argument whose value must come from the user's own words, and how to find it or ask for it.

    ``extract(text)`` returns the value(s) written in one clause of the user's message: a string, a list
    (in the order written) or ``None``/``[]`` when there is none. ``ask`` completes "To <title> I need ...".
    ``refers_back``: a clause that names no value but points back ("... and track it too") takes it from
    an earlier clause. ``one_call_each``: several values in one clause mean one call per value ("track
    A1002 and A1004").

    >>> import re
    >>> UserArg("ticket", lambda text: re.findall(r"T\\d+", text), "its number (for example T12)").extract("close T7")
    ['T7']
    """

    name: str
    extract: Callable[[str], Any]
    ask: str
    refers_back: bool = False
    one_call_each: bool = False


@dataclass(frozen=True)
class ToolSpec:
    """Everything the guard, the graph and the local planner need to know about one tool."""

    name: str
    description: str
    args_schema: type[BaseModel]
    run: Callable[..., str]  # run(store, **args) -> text for the model
    mutates: bool
    needs_login: bool
    check: Callable[..., None] | None = None  # check(store, **args) raises ToolRuleError; no side effects
    owner_arg: str | None = None  # the argument naming the record whose owner must be logged in
    title: str = ""  # the action as a user reads it: "cancel an order" (never the tool's name)
    examples: tuple[str, ...] = ()  # phrases a user might say for this action (the planner's prototypes)
    user_args: tuple[UserArg, ...] = ()  # arguments that must be found in what the user wrote

    @property
    def required(self) -> tuple[str, ...]:
        """Names of the arguments without a default, read from the pydantic schema."""
        return tuple(n for n, f in self.args_schema.model_fields.items() if f.is_required())

    @property
    def from_user(self) -> tuple[str, ...]:
        """Names of the arguments the guard checks against the user's words: ``user_args`` and ``owner_arg``."""
        names = tuple(a.name for a in self.user_args)
        return names if self.owner_arg is None or self.owner_arg in names else (*names, self.owner_arg)

    @property
    def human_title(self) -> str:
        """``title``, else the name in words ("book_table" -> "book table")."""
        return self.title or self.name.replace("_", " ")

    def as_tool(self, store: Any, handle_errors: bool = True) -> StructuredTool:
        """A LangChain tool bound to ``store``, carrying this spec. With ``handle_errors`` a business-rule
        refusal becomes an error ``ToolMessage``; the tool loop passes ``False`` to roll the store back."""

        def call(**kwargs: Any) -> str:
            return self.run(store, **kwargs)

        return SpecTool(name=self.name, description=self.description, func=call, args_schema=self.args_schema,
                        handle_tool_error=handle_errors, spec=self)


class SpecTool(StructuredTool):
    """A ``StructuredTool`` that keeps its ``ToolSpec``, so a planner given the tool can read the spec."""

    spec: Any = Field(default=None, exclude=True)


# ---------------------------------------------------------------- the guards
Step = Literal["refuse", "login", "approve", "otp", "execute"]
# "no_such_order": the record ``owner_arg`` names does not exist (whatever the store calls a record).
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
    store: ToolStore,
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
    the user (``grounded``) -> logged in -> owner (of the record ``owner_arg`` names) -> business rule ->
    approved (mutations) -> one-time code (mutations) -> execute. ``otp`` is the code step's verdict
    ``{"digest", "passed"}``: ``passed`` is false only once too many wrong codes have locked the customer's codes.

    >>> from pydantic import create_model
    >>> close = ToolSpec("close_ticket", "Close a ticket.", create_model("Ticket", ticket=(str, ...)),
    ...                  lambda store, ticket: "closed", mutates=True, needs_login=False)
    >>> check_call({"name": "close_ticket", "args": {}}, {"close_ticket": close}, store=None).message
    "Missing required argument 'ticket' for close_ticket. Do not invent it: ask the user."
    >>> check_call({"name": "close_ticket", "args": {"ticket": "T7"}}, {"close_ticket": close}, None).step
    'approve'
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
    key = str(args.get(spec.owner_arg, "")).strip() if spec.owner_arg else ""
    if spec.needs_login:
        if user_id is None:
            return GuardDecision("login", args=args)
        owner = store.owner(key) if key else None
        if key and owner is None:
            return _refuse(f"No {store.noun} with id {key!r} exists. Ask the user to check the {store.noun} id. "
                           "Nothing was run.", "no_such_order", spec.owner_arg)
        if owner is not None and owner.customer_id != user_id:
            return _refuse(f"{store.noun.capitalize()} {owner.key} does not belong to the logged-in customer {user_id}. "
                           "Nothing was run.", "not_owner", spec.owner_arg)
    if spec.check is not None:
        try:
            spec.check(store, **args)
        except ToolRuleError as err:
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
                return _refuse(f"The one-time code check failed for {name}: too many wrong codes, so this customer's codes "
                               "are locked. Nothing was changed.", "otp_failed")
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


__all__ = ["APPROVAL_SHAPE", "ASK_USER", "ASK_USER_REASONS", "LOGIN_SHAPE", "OTP_SHAPE", "GuardDecision", "Owner",
           "Reason", "ResumePayloadError", "SeededCodeSource", "SpecTool", "Step", "ToolRuleError", "ToolSpec",
           "ToolStore", "UserArg", "call_digest", "check_call", "is_blank", "normalise", "parse_approval",
           "parse_login", "parse_otp", "written_by_user"]
