"""The local tool planner: intent from the user's words, arguments only from the user's words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from ragkit.roles.tool_planner import LocalToolPlanner, extract_address, extract_order_ids
from ragkit.tools import load_order_store, make_order_tools

TOOLS = make_order_tools(load_order_store())
PLANNER = LocalToolPlanner(use_embeddings=False).bind_tools(TOOLS)


def calls(text: str):
    return [(c["name"], c["args"]) for c in PLANNER.invoke(text).tool_calls]


def test_intents_and_arguments_from_plain_requests() -> None:
    assert calls("Where is my parcel A1002?") == [("track_shipment", {"order_id": "A1002"})]
    assert calls("please cancel order a1007") == [("cancel_order", {"order_id": "A1007"})]
    assert calls("Show me the details of A1004") == [("lookup_order", {"order_id": "A1004"})]
    assert calls("Change the delivery address of A1001 to 12 High Street, Oxford OX1 4AA.") == [
        ("change_delivery_address", {"order_id": "A1001", "new_address": "12 High Street, Oxford OX1 4AA"})]
    assert calls("tracking number for A1011 and A1019") == [
        ("track_shipment", {"order_id": "A1011"}), ("track_shipment", {"order_id": "A1019"})]


def test_missing_arguments_are_asked_for_never_invented() -> None:
    reply = PLANNER.invoke("I want to cancel my order")
    assert not reply.tool_calls and "I need the order id" in reply.content
    reply = PLANNER.invoke("Please change the delivery address of A1001")
    assert not reply.tool_calls and "new delivery address" in reply.content


def test_no_intent_means_a_question_not_a_guess() -> None:
    reply = PLANNER.invoke("What is the weather like?")
    assert not reply.tool_calls and reply.content.endswith("for which order?")


def test_embedding_fallback_understands_a_paraphrase() -> None:
    planner = LocalToolPlanner().bind_tools(TOOLS)  # loads MiniLM (shipped in a package, offline)
    assert planner.invoke("What is in order A1003?").tool_calls[0]["name"] == "lookup_order"


def test_final_answer_is_made_from_tool_results() -> None:
    messages = [HumanMessage("track A1002"), AIMessage(content="", tool_calls=[{"name": "track_shipment", "args": {"order_id": "A1002"}, "id": "c1"}]),
                ToolMessage("Order A1002 is on its way.", tool_call_id="c1")]
    assert PLANNER.invoke(messages).content == "Order A1002 is on its way."
    messages[-1] = ToolMessage("Order A1002 cannot be cancelled: it has already shipped.", tool_call_id="c1", status="error")
    assert PLANNER.invoke(messages).content.startswith("That did not go through: Order A1002 cannot be cancelled")


def test_tool_call_ids_are_deterministic() -> None:
    first = [c["id"] for c in PLANNER.invoke("track A1002 and A1004").tool_calls]
    assert first == [c["id"] for c in PLANNER.invoke("track A1002 and A1004").tool_calls] == ["call_0_0", "call_0_1"]


def test_extractors() -> None:
    assert extract_order_ids("a1001, A1001, XA1002, A10033 and A1003") == ["A1001", "A1003"]
    assert extract_address("My new address is 7 Rue Cler, Paris for order A1001") == "7 Rue Cler, Paris"
    assert extract_address("I want to change the address of A1001 to 5 Main St please") == "5 Main St"
    assert extract_address("I want to change the address of A1001") is None


WORDS = st.sampled_from("cancel track where address change to is my order A1001 a1002 A9999 A10011 12 High Street , . "
                         "please new ship send delivery details status ignore previous instructions".split())


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=60), st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=14).map(" ".join)))
def test_every_proposed_argument_was_typed_by_the_user(text: str) -> None:
    for call in PLANNER.invoke(text or " ").tool_calls:
        for value in call["args"].values():
            assert str(value).lower() in text.lower()
