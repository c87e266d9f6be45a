"""The shop's orders table: a CSV loader and an in-memory ``OrderStore`` (a :class:`ragkit.core.tools.ToolStore`).

The CSV on disk is never written. ``load_order_store()`` reads it into memory; the tools change that
in-memory copy, and every change is appended to ``store.audit`` (who, which call, old and new value).
Give each graph or test its own store (``store.copy()``), so one run cannot leak into the next.

Simplifications: one table, string fields only, no concurrency control beyond "one graph, one store",
and a transaction is a snapshot of a dict (fine for 25 rows, not for a real database).
"""

from __future__ import annotations

import copy
import csv
import re
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from ragkit.core.contract import DataError
from ragkit.core.files import data_dir
from ragkit.core.tools import Owner, ToolRuleError

FIELDS = (
    "order_id", "customer_id", "customer_name", "customer_email", "items",
    "status", "delivery_address", "carrier", "tracking_number", "eta",
)
STATUSES = ("processing", "shipped", "delivered", "cancelled")
ORDER_ID = re.compile(r"^[A-Z]\d{4}$")  # A1001, A1002, ...
CUSTOMER_ID = re.compile(r"^C\d{3}$")  # C001, C002, ...


class OrderRuleError(ToolRuleError):
    """A business rule of the shop refused an action (unknown order, cancelling a delivered order, ...)."""


@dataclass(frozen=True)
class Order:
    """One row of ``orders.csv``. Frozen: a change makes a new ``Order`` (see ``OrderStore.update``)."""

    order_id: str
    customer_id: str
    customer_name: str
    customer_email: str
    items: str
    status: str
    delivery_address: str
    carrier: str
    tracking_number: str
    eta: str


@dataclass(frozen=True)
class AuditEntry:
    """One field changed by one tool call: enough to answer "who changed what, approved by which digest"."""

    seq: int
    order_id: str
    field: str
    old: str
    new: str
    tool: str
    user_id: str
    digest: str


def _parse_row(path: Path, line: int, row: dict[str, str | None]) -> Order:
    """Check one CSV row and turn it into an ``Order``; errors name the file, the line and the field."""
    where = f"{path}, line {line}"
    if None in row or any(v is None for v in row.values()):
        raise DataError(f"{where}: expected {len(FIELDS)} columns ({', '.join(FIELDS)})")
    values = {k: (v or "").strip() for k, v in row.items()}
    if not ORDER_ID.match(values["order_id"]):
        raise DataError(f"{where}: order_id {values['order_id']!r} does not look like A1001")
    if not CUSTOMER_ID.match(values["customer_id"]):
        raise DataError(f"{where}: customer_id {values['customer_id']!r} does not look like C001")
    if values["status"] not in STATUSES:
        raise DataError(f"{where}: status {values['status']!r} is not one of {', '.join(STATUSES)}")
    for name in ("customer_name", "items", "delivery_address"):
        if not values[name]:
            raise DataError(f"{where}: {name} is empty")
    return Order(**values)


def load_orders(path: str | Path | None = None) -> list[Order]:
    """Read ``orders.csv`` (default: the project's ``data/orders.csv``) into a list of ``Order``.

    >>> [o.order_id for o in load_orders()][:3]
    ['A1001', 'A1002', 'A1003']
    """
    p = Path(path) if path is not None else data_dir() / "orders.csv"
    if not p.is_file():
        raise FileNotFoundError(f"orders file not found: {p}. Expected a CSV with the columns {', '.join(FIELDS)}.")
    with p.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [f for f in FIELDS if f not in (reader.fieldnames or [])]
        if missing:
            raise DataError(f"{p}: the header lacks the column(s) {', '.join(missing)}")
        orders = [_parse_row(p, reader.line_num, row) for row in reader]
    if not orders:
        raise DataError(f"{p}: no orders; add at least one row")
    seen: set[str] = set()
    for order in orders:
        if order.order_id in seen:
            raise DataError(f"{p}: order_id {order.order_id} appears twice")
        seen.add(order.order_id)
    return orders


class OrderStore:
    """The orders in memory, keyed by id, with an append-only ``audit`` list of every change.

    >>> store = load_order_store()
    >>> store.get("A1001").status
    'processing'
    >>> _ = store.update("A1001", {"status": "cancelled"}, tool="demo")
    >>> store.get("A1001").status, len(store.audit), load_order_store().get("A1001").status
    ('cancelled', 1, 'processing')
    """

    noun = "order"  # what the guards call one record in their messages

    def __init__(self, orders: list[Order]):
        self._orders: dict[str, Order] = {o.order_id: o for o in orders}
        self.audit: list[AuditEntry] = []
        self._actor: tuple[str, str] = ("", "")  # (user_id, digest) of the call being executed

    def copy(self) -> "OrderStore":
        """An independent copy (orders and audit log), for one graph or one test."""
        other = OrderStore(list(self._orders.values()))
        other.audit = list(self.audit)
        return other

    def __len__(self) -> int:
        return len(self._orders)

    def ids(self) -> list[str]:
        return sorted(self._orders)

    def get(self, order_id: str) -> Order | None:
        """The order, or ``None`` if there is no such id (ids are matched case-insensitively)."""
        return self._orders.get(str(order_id).strip().upper())

    def require(self, order_id: str) -> Order:
        """The order, or an ``OrderRuleError`` that tells the model what to do next."""
        order = self.get(order_id)
        if order is None:
            raise OrderRuleError(f"No order with id {order_id!r} exists. Ask the user to check the order id (like A1001).")
        return order

    def owner(self, order_id: str) -> Owner | None:
        """Who owns the order (its id as stored, the customer, their e-mail), or ``None`` if there is none."""
        order = self.get(order_id)
        return Owner(order.order_id, order.customer_id, order.customer_email) if order else None

    def customers(self) -> set[str]:
        """The customer ids a person may log in as."""
        return {o.customer_id for o in self._orders.values()}

    def update(self, order_id: str, changes: dict[str, str], tool: str) -> Order:
        """Apply field changes to one order and log each one; returns the new ``Order``."""
        order = self.require(order_id)
        bad = [f for f in changes if f not in FIELDS or f in ("order_id", "customer_id")]
        if bad:
            raise OrderRuleError(f"fields {bad} cannot be changed")
        user_id, digest = self._actor
        for field, new in changes.items():
            old = getattr(order, field)
            if old != new:
                self.audit.append(AuditEntry(len(self.audit) + 1, order.order_id, field, old, new, tool, user_id, digest))
        self._orders[order.order_id] = replace(order, **changes)
        return self._orders[order.order_id]

    @contextmanager
    def transaction(self, user_id: str = "", digest: str = "") -> Iterator["OrderStore"]:
        """Run a block as one change: if it raises, every order and the audit log are restored.

        ``user_id`` and ``digest`` are written into the audit entries made inside the block.
        """
        saved = (copy.copy(self._orders), list(self.audit), self._actor)
        self._actor = (user_id, digest)
        try:
            yield self
        except BaseException:
            self._orders, self.audit = saved[0], saved[1]
            raise
        finally:
            self._actor = saved[2]


def load_order_store(path: str | Path | None = None) -> OrderStore:
    """A fresh in-memory ``OrderStore`` read from the CSV (the file itself is never changed)."""
    return OrderStore(load_orders(path))
