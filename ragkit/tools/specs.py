"""The four order tools and their specs: what each does, its arguments, whether it mutates or needs login.

A ``ToolSpec`` is the single source of truth about one tool. The guards read ``mutates``, ``needs_login``,
``required`` and ``user_args`` (the arguments that must come from the user's own words); the local planner
reads ``title`` (the action in words a user reads), ``examples`` (phrases a user might say) and each user
argument's extractor and question; ``spec.as_tool(store)`` makes the real LangChain tool for ``bind_tools``,
carrying its spec. A new tool is one more ``ToolSpec``: neither the guards nor the planner change.
Business rules live here, in code: ``check`` refuses an action before anyone is asked to approve it, and
``run`` checks again before it changes the store (a rule is never trusted to have been checked elsewhere).

Simplifications: the rules are a shop's obvious ones (only a ``processing`` order can be cancelled or
re-addressed), and the results are short English sentences meant for a model to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from langchain_core.tools import StructuredTool
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragkit.tools.extract import extract_address, extract_order_ids
from ragkit.tools.orders import Order, OrderRuleError, OrderStore

ORDER_ID_PATTERN = re.compile(r"^\s*[A-Za-z]\d{4}\s*$")


class OrderIdArgs(BaseModel):
    """Arguments of the read tools: one order id (checked by a validator, so the JSON schema stays plain)."""

    model_config = ConfigDict(extra="forbid")
    order_id: str = Field(description="The order id exactly as the user gave it, like A1001.")

    @field_validator("order_id")
    @classmethod
    def _looks_like_an_order_id(cls, value: str) -> str:
        if not ORDER_ID_PATTERN.match(value):
            raise ValueError(f"{value!r} is not an order id like A1001")
        return value


class CancelArgs(OrderIdArgs):
    reason: str = Field(default="", max_length=200, description="Optional reason the user gave.")


class ChangeAddressArgs(OrderIdArgs):
    new_address: str = Field(
        min_length=5, max_length=200, description="The new delivery address, exactly as the user wrote it."
    )


@dataclass(frozen=True)
class UserArg:
    """An argument whose value must come from the user's own words, and how to find it or ask for it.

    ``extract(text)`` returns the value(s) written in one clause of the user's message: a string, a list
    (in the order written) or ``None``/``[]`` when there is none. ``ask`` completes "To <title> I need ...".
    ``refers_back``: a clause that names no value but points back ("... and track it too") takes it from
    an earlier clause. ``one_call_each``: several values in one clause mean one call per value ("track
    A1002 and A1004").

    >>> UserArg("order_id", extract_order_ids, "its order id (for example A1001)").extract("track a1002")
    ['a1002']
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
    check: Callable[..., None] | None = None  # check(store, **args) raises OrderRuleError; no side effects
    owner_arg: str | None = "order_id"  # the argument naming the order whose owner must be logged in
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

    def as_tool(self, store: OrderStore | None, handle_errors: bool = True) -> StructuredTool:
        """A LangChain tool bound to ``store`` (usable with ``bind_tools`` and ``ToolNode``), carrying this spec.

        With ``handle_errors`` a business-rule refusal becomes an error ``ToolMessage``; the tool loop
        passes ``False`` so that it sees the exception and can roll the store back.
        """

        def call(**kwargs: Any) -> str:
            return self.run(store, **kwargs)

        return SpecTool(name=self.name, description=self.description, func=call, args_schema=self.args_schema,
                        handle_tool_error=handle_errors, spec=self)


class SpecTool(StructuredTool):
    """A ``StructuredTool`` that keeps its ``ToolSpec``, so a planner given the tool can read the spec."""

    spec: Any = Field(default=None, exclude=True)


def _norm(order_id: str) -> str:
    return order_id.strip().upper()


def lookup_order(store: OrderStore, order_id: str) -> str:
    o = store.require(order_id)
    return (
        f"Order {o.order_id} for {o.customer_name}: {o.items}. Status: {o.status}. "
        f"Delivery address: {o.delivery_address}. Carrier: {o.carrier}."
        + (f" Expected delivery: {o.eta}." if o.eta and o.status in ("processing", "shipped") else "")
    )


def track_shipment(store: OrderStore, order_id: str) -> str:
    o = store.require(order_id)
    if o.status == "processing":
        return f"Order {o.order_id} has not shipped yet; it is expected to ship with {o.carrier} and arrive by {o.eta}."
    if o.status == "cancelled":
        return f"Order {o.order_id} was cancelled, so there is no shipment to track."
    if o.status == "delivered":
        return f"Order {o.order_id} was delivered by {o.carrier} (tracking number {o.tracking_number})."
    return f"Order {o.order_id} is on its way with {o.carrier}, tracking number {o.tracking_number}, expected {o.eta}."


def _must_be_processing(o: Order, action: str) -> None:
    if o.status != "processing":
        hint = {"shipped": "it has already shipped", "delivered": "it was already delivered",
                "cancelled": "it is already cancelled"}[o.status]
        raise OrderRuleError(f"Order {o.order_id} cannot be {action}: {hint}. Nothing was changed.")


def check_cancel(store: OrderStore, order_id: str, reason: str = "") -> None:
    _must_be_processing(store.require(order_id), "cancelled")


def cancel_order(store: OrderStore, order_id: str, reason: str = "") -> str:
    check_cancel(store, order_id)
    store.update(_norm(order_id), {"status": "cancelled", "eta": ""}, tool="cancel_order")
    return f"Order {_norm(order_id)} is now cancelled." + (f" Reason noted: {reason.strip()}." if reason.strip() else "")


def check_change_address(store: OrderStore, order_id: str, new_address: str) -> None:
    _must_be_processing(store.require(order_id), "re-addressed")
    if "\n" in new_address or len(new_address.strip()) < 5:
        raise OrderRuleError("The new address must be one line of at least 5 characters. Ask the user for it.")


def change_delivery_address(store: OrderStore, order_id: str, new_address: str) -> str:
    check_change_address(store, order_id, new_address)
    store.update(_norm(order_id), {"delivery_address": new_address.strip()}, tool="change_delivery_address")
    return f"Order {_norm(order_id)} will now be delivered to: {new_address.strip()}."


ORDER_ID = UserArg("order_id", extract_order_ids, "its order id (for example A1001)", refers_back=True,
                   one_call_each=True)
NEW_ADDRESS = UserArg("new_address", extract_address,
                      "the new delivery address (for example: change A1001 to 12 High Street, Oxford)")

ORDER_TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec("lookup_order", "Look up an order's items, status, delivery address and carrier by its order id.",
             OrderIdArgs, lookup_order, mutates=False, needs_login=True, title="look up an order",
             examples=("look up my order", "what is in my order", "show me the order details", "what did I buy",
                       "check my order", "which items are in it", "order information", "what address is it going to",
                       "what is the status of my order", "the contents of my order"),
             user_args=(ORDER_ID,)),
    ToolSpec("track_shipment", "Track the shipment of an order by its order id: carrier, tracking number, expected date.",
             OrderIdArgs, track_shipment, mutates=False, needs_login=False, title="track a shipment",
             examples=("where is my package", "track my shipment", "what is the tracking number", "when will it arrive",
                       "has it shipped yet", "where is my parcel", "is it on its way", "expected delivery date",
                       "where is my order", "which carrier is delivering it"),
             user_args=(ORDER_ID,)),
    ToolSpec("cancel_order", "Cancel an order that has not shipped yet.",
             CancelArgs, cancel_order, mutates=True, needs_login=True, check=check_cancel, title="cancel an order",
             examples=("cancel my order", "cancel it", "I want to cancel", "stop the order", "call off my purchase",
                       "cancellation", "abort the order"),
             user_args=(ORDER_ID,)),
    ToolSpec("change_delivery_address", "Change the delivery address of an order that has not shipped yet.",
             ChangeAddressArgs, change_delivery_address, mutates=True, needs_login=True, check=check_change_address,
             title="change an order's delivery address",
             examples=("change the delivery address", "ship it to a different address", "send it to my new address",
                       "update the shipping address", "I moved house", "redirect the delivery",
                       "deliver it somewhere else", "ship it to", "send it to"),
             user_args=(ORDER_ID, NEW_ADDRESS)),
)


def make_order_tools(store: OrderStore | None, specs: tuple[ToolSpec, ...] = ORDER_TOOL_SPECS) -> list[StructuredTool]:
    """The LangChain tools for ``specs``, all bound to the same ``store``.

    >>> from ragkit.tools.orders import load_order_store
    >>> [t.name for t in make_order_tools(load_order_store())]
    ['lookup_order', 'track_shipment', 'cancel_order', 'change_delivery_address']
    """
    return [spec.as_tool(store) for spec in specs]
