"""Tools over the orders table, their specs and the deterministic guards of the tool loop.

``orders`` loads ``data/orders.csv`` into an in-memory ``OrderStore``; ``specs`` defines the four tools
(``lookup_order``, ``track_shipment``, ``cancel_order``, ``change_delivery_address``); ``guards`` decides,
in code, whether a proposed call is refused, needs login, approval or a one-time code, or may run.
"""

from ragkit.tools.guards import (
    GuardDecision,
    ResumePayloadError,
    SeededCodeSource,
    call_digest,
    check_call,
    parse_approval,
    parse_login,
    parse_otp,
)
from ragkit.tools.orders import AuditEntry, Order, OrderRuleError, OrderStore, load_order_store, load_orders
from ragkit.tools.specs import ORDER_TOOL_SPECS, ToolSpec, make_order_tools

__all__ = [
    "ORDER_TOOL_SPECS",
    "AuditEntry",
    "GuardDecision",
    "Order",
    "OrderRuleError",
    "OrderStore",
    "ResumePayloadError",
    "SeededCodeSource",
    "ToolSpec",
    "call_digest",
    "check_call",
    "load_order_store",
    "load_orders",
    "make_order_tools",
    "parse_approval",
    "parse_login",
    "parse_otp",
]
