"""Tools over the orders table, their specs and the deterministic guards of the tool loop.

``orders`` loads ``data/orders.csv`` into an in-memory ``OrderStore``; ``specs`` defines the four tools
(``lookup_order``, ``track_shipment``, ``cancel_order``, ``change_delivery_address``) with their example
phrases and argument extractors (``extract``); ``guards`` decides, in code, whether a proposed call is
refused, needs login, approval or a one-time code, or may run; ``clauses`` cuts a user's message into its
requests and reads their negation, for the local planner.
"""

from ragkit.tools.guards import (
    ASK_USER_REASONS,
    GuardDecision,
    ResumePayloadError,
    SeededCodeSource,
    call_digest,
    check_call,
    parse_approval,
    parse_login,
    parse_otp,
    written_by_user,
)
from ragkit.tools.orders import AuditEntry, Order, OrderRuleError, OrderStore, load_order_store, load_orders
from ragkit.tools.specs import ORDER_TOOL_SPECS, ToolSpec, UserArg, make_order_tools

__all__ = [
    "ASK_USER_REASONS",
    "ORDER_TOOL_SPECS",
    "AuditEntry",
    "GuardDecision",
    "Order",
    "OrderRuleError",
    "OrderStore",
    "ResumePayloadError",
    "SeededCodeSource",
    "ToolSpec",
    "UserArg",
    "call_digest",
    "check_call",
    "load_order_store",
    "load_orders",
    "make_order_tools",
    "parse_approval",
    "parse_login",
    "parse_otp",
    "written_by_user",
]
