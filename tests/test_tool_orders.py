"""The orders table, the store, the tools and their business rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from ragkit.core.chat_models import ScriptedChatModel
from ragkit.core.contract import DataError
from ragkit.domains.shop.orders import FIELDS, STATUSES, OrderRuleError, load_order_store, load_orders
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS, make_order_tools

CSV = Path(__file__).resolve().parents[1] / "data" / "orders.csv"
SPECS = {s.name: s for s in ORDER_TOOL_SPECS}


def _write(tmp_path: Path, rows: list[str], header: str = ",".join(FIELDS)) -> Path:
    path = tmp_path / "orders.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


GOOD = "A1001,C001,Ada,ada@example.com,1 x pen,processing,1 Road Street,UPS,,2025-01-01"


def test_the_shipped_table_is_well_formed() -> None:
    orders = load_orders()
    assert 20 <= len(orders) <= 30
    assert {o.status for o in orders} == set(STATUSES)
    assert [o.order_id for o in orders] == sorted(o.order_id for o in orders)
    # tracking numbers exist exactly for parcels that left the warehouse
    assert all(bool(o.tracking_number) == (o.status in ("shipped", "delivered")) for o in orders)


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nope.csv"):
        load_orders(tmp_path / "nope.csv")


@pytest.mark.parametrize(
    "row, message",
    [
        (GOOD.replace("processing", "lost"), "line 2: status 'lost'"),
        (GOOD.replace("A1001", "1001"), "line 2: order_id '1001'"),
        (GOOD.replace("C001", "bob"), "customer_id 'bob'"),
        (GOOD.rsplit(",", 1)[0], "expected 10 columns"),
        (GOOD.replace("1 Road Street", ""), "delivery_address is empty"),
    ],
)
def test_bad_rows_name_file_line_and_field(tmp_path: Path, row: str, message: str) -> None:
    path = _write(tmp_path, [GOOD.replace("A1001", "A1000"), row])
    with pytest.raises(DataError, match=message.replace("line 2", "line 3")) as err:
        load_orders(path)
    assert str(path) in str(err.value)


def test_missing_column_duplicate_id_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="lacks the column"):
        load_orders(_write(tmp_path, [GOOD], header=",".join(FIELDS[:-1])))
    with pytest.raises(DataError, match="appears twice"):
        load_orders(_write(tmp_path, [GOOD, GOOD]))
    with pytest.raises(DataError, match="no orders"):
        load_orders(_write(tmp_path, []))


def test_store_copies_are_independent_and_the_csv_never_changes() -> None:
    before = CSV.read_bytes()
    store = load_order_store()
    copy = store.copy()
    cancel = SPECS["cancel_order"].as_tool(store)
    assert cancel.invoke({"order_id": "A1001"}) == "Order A1001 is now cancelled."
    assert store.get("A1001").status == "cancelled"
    assert copy.get("A1001").status == "processing" and copy.audit == []
    assert [(e.order_id, e.field, e.old, e.new) for e in store.audit] == [
        ("A1001", "status", "processing", "cancelled"), ("A1001", "eta", "2025-03-14", "")]
    assert CSV.read_bytes() == before


def test_transaction_rolls_back_orders_and_audit() -> None:
    store = load_order_store()
    with pytest.raises(RuntimeError):
        with store.transaction(user_id="C001", digest="d"):
            store.update("A1001", {"status": "cancelled"}, tool="t")
            raise RuntimeError("boom")
    assert store.get("A1001").status == "processing" and store.audit == []
    with store.transaction(user_id="C001", digest="d"):
        store.update("A1001", {"status": "cancelled"}, tool="t")
    assert (store.audit[0].user_id, store.audit[0].digest) == ("C001", "d")


@pytest.mark.parametrize("order_id, status", [("A1002", "shipped"), ("A1003", "delivered"), ("A1006", "cancelled")])
def test_only_processing_orders_can_be_cancelled_or_readdressed(order_id: str, status: str) -> None:
    store = load_order_store()
    assert store.get(order_id).status == status
    for spec, args in ((SPECS["cancel_order"], {}), (SPECS["change_delivery_address"], {"new_address": "9 New Road, Leeds"})):
        with pytest.raises(OrderRuleError, match=f"Order {order_id} cannot be"):
            spec.run(store, order_id=order_id, **args)
    assert store.audit == []


def test_unknown_order_gets_a_clear_message_from_every_tool() -> None:
    store = load_order_store()
    for tool in make_order_tools(store):
        args = {"order_id": "A9999"} | ({"new_address": "9 New Road, Leeds"} if tool.name == "change_delivery_address" else {})
        message = tool.invoke({"type": "tool_call", "id": "c1", "name": tool.name, "args": args})
        assert message.status == "error"
        assert "No order with id 'A9999' exists" in message.content
    assert store.audit == []


def test_read_tools_report_status() -> None:
    store = load_order_store()
    assert "has not shipped yet" in SPECS["track_shipment"].run(store, order_id="A1001")
    assert "DHL-4821337790" in SPECS["track_shipment"].run(store, order_id="a1002")
    assert "was cancelled" in SPECS["track_shipment"].run(store, order_id="A1006")
    assert "Ada Lovelace" in SPECS["lookup_order"].run(store, order_id="A1001")


def test_specs_declare_what_the_guards_need() -> None:
    table = {s.name: (s.required, s.mutates, s.needs_login) for s in ORDER_TOOL_SPECS}
    assert table == {
        "lookup_order": (("order_id",), False, True),
        "track_shipment": (("order_id",), False, False),
        "cancel_order": (("order_id",), True, True),
        "change_delivery_address": (("order_id", "new_address"), True, True),
    }


def test_tools_are_real_langchain_tools_for_bind_tools() -> None:
    model = ScriptedChatModel(responses=[AIMessage(content="", tool_calls=[
        {"name": "track_shipment", "args": {"order_id": "A1002"}, "id": "c1"}])])
    reply = model.bind_tools(make_order_tools(load_order_store())).invoke("where is A1002?")
    assert model.calls[0]["tools"] == [s.name for s in ORDER_TOOL_SPECS]
    assert reply.tool_calls[0]["args"] == {"order_id": "A1002"}
