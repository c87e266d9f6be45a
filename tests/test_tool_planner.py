"""The local tool planner: clauses, negation, arguments from each clause's own words, specs as its only source."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from pydantic import BaseModel

from ragkit.core.tools import ToolSpec, UserArg
from ragkit.domains.shop.extract import clean_free_text, extract_address, extract_order_ids
from ragkit.domains.shop.orders import load_order_store
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS, make_order_tools
from ragkit.offline.tool_planner import AWAITING, LocalToolPlanner
from ragkit.offline.tool_requests import split_requests

TOOLS = make_order_tools(load_order_store())
PLANNER = LocalToolPlanner(use_embeddings=False).bind_tools(TOOLS)
EMBEDDING_PLANNER = LocalToolPlanner().bind_tools(TOOLS)  # MiniLM from the packaged weights, offline


def calls(text: str, planner=PLANNER):
    return [(c["name"], c["args"]) for c in planner.invoke(text).tool_calls]


def test_intents_and_arguments_from_plain_requests() -> None:
    assert calls("Where is my parcel A1002?") == [("track_shipment", {"order_id": "A1002"})]
    assert calls("please cancel order a1007") == [("cancel_order", {"order_id": "a1007"})]  # as typed
    assert calls("Show me the details of A1004") == [("lookup_order", {"order_id": "A1004"})]
    assert calls("Change the delivery address of A1001 to 12 High Street, Oxford OX1 4AA.") == [
        ("change_delivery_address", {"order_id": "A1001", "new_address": "12 High Street, Oxford OX1 4AA"})]
    assert calls("tracking number for A1011 and A1019") == [
        ("track_shipment", {"order_id": "A1011"}), ("track_shipment", {"order_id": "A1019"})]


def test_the_two_messages_learners_reported() -> None:
    assert calls("Please don't cancel A1001, just tell me what is in it", EMBEDDING_PLANNER) == [
        ("lookup_order", {"order_id": "A1001"})]
    assert calls("Change the address of A1001 to 1 High St, York and also track A1002") == [
        ("change_delivery_address", {"order_id": "A1001", "new_address": "1 High St, York"}),
        ("track_shipment", {"order_id": "A1002"})]


@pytest.mark.parametrize("message, expected", [
    ("Don't cancel A1005; track it instead.", [("track_shipment", {"order_id": "A1005"})]),
    ("Do not cancel A1005, track it", [("track_shipment", {"order_id": "A1005"})]),
    ("Cancel A1019. Actually, never mind, just look it up.", [("lookup_order", {"order_id": "A1019"})]),
    ("Never mind cancelling A1012, track it", [("track_shipment", {"order_id": "A1012"})]),
    ("Without cancelling A1008, change its delivery address to 14 Park Road, Leeds",
     [("change_delivery_address", {"order_id": "A1008", "new_address": "14 Park Road, Leeds"})]),
    ("I no longer want to cancel A1007. Track it please.", [("track_shipment", {"order_id": "A1007"})]),
    ("Track A1002 instead of cancelling it", [("track_shipment", {"order_id": "A1002"})]),
    ("Cancel A1014 and A1015, not A1016", [("cancel_order", {"order_id": "A1014"}), ("cancel_order", {"order_id": "A1015"})]),
    ("Cancel A1010 and A1013, but don't cancel A1013", [("cancel_order", {"order_id": "A1010"})]),
    ("Not A1004: cancel A1005", [("cancel_order", {"order_id": "A1005"})]),
    ("Cancel A1001, A1005 and A1007 except order A1005", [("cancel_order", {"order_id": "A1001"}), ("cancel_order", {"order_id": "A1007"})]),
])
def test_declined_actions_are_never_proposed(message, expected) -> None:
    assert calls(message) == expected


def test_a_negation_that_names_no_action_declines_nothing() -> None:
    assert calls("I don't know where my parcel A1004 is", EMBEDDING_PLANNER) == [("track_shipment", {"order_id": "A1004"})]
    assert calls("A1002 has not shipped yet? Track it") == [("track_shipment", {"order_id": "A1002"})]


def test_a_declined_request_alone_gets_a_plain_acknowledgement() -> None:
    reply = PLANNER.invoke("Please do not cancel A1001")
    assert not reply.tool_calls and reply.content == "All right, I will not cancel an order."


@pytest.mark.parametrize("message, expected", [
    ("Cancel A1009; track A1010", [("cancel_order", {"order_id": "A1009"}), ("track_shipment", {"order_id": "A1010"})]),
    ("Look up A1003, then cancel it", [("lookup_order", {"order_id": "A1003"}), ("cancel_order", {"order_id": "A1003"})]),
    ("Track A1002 as well as A1004", [("track_shipment", {"order_id": "A1002"}), ("track_shipment", {"order_id": "A1004"})]),
    ("Cancel A1001. Track A1002.", [("cancel_order", {"order_id": "A1001"}), ("track_shipment", {"order_id": "A1002"})]),
    ("Send A1022 to Unit 4 Mill Lane and Co, Leeds LS1 4AP, then track it too",
     [("change_delivery_address", {"order_id": "A1022", "new_address": "Unit 4 Mill Lane and Co, Leeds LS1 4AP"}),
      ("track_shipment", {"order_id": "A1022"})]),
    ("Please ship A1020 to Marks and Spencer, 458 Oxford Street, London W1C 1AP and cancel A1021",
     [("change_delivery_address", {"order_id": "A1020", "new_address": "Marks and Spencer, 458 Oxford Street, London W1C 1AP"}),
      ("cancel_order", {"order_id": "A1021"})]),
    ("Track and cancel A1025", [("track_shipment", {"order_id": "A1025"}), ("cancel_order", {"order_id": "A1025"})]),
    ("Track A1002. I no longer need A1001, please cancel it",
     [("track_shipment", {"order_id": "A1002"}), ("cancel_order", {"order_id": "A1001"})]),
])
def test_each_request_gets_only_its_own_clause_values(message, expected) -> None:
    assert calls(message, EMBEDDING_PLANNER) == expected  # "ship" alone is both "has it shipped" and "ship it to"


def test_a_clause_without_an_id_inherits_one_only_when_it_refers_back() -> None:
    reply = PLANNER.invoke("Track A1002 and cancel my other order")
    assert [(c["name"], c["args"]) for c in reply.tool_calls] == [("track_shipment", {"order_id": "A1002"})]
    assert reply.content == "To cancel an order I need its order id (for example A1001)."
    assert reply.response_metadata[AWAITING] == "cancel_order"


def test_missing_arguments_are_asked_for_in_the_specs_words_never_invented() -> None:
    reply = PLANNER.invoke("I want to cancel my order")
    assert not reply.tool_calls and reply.content == "To cancel an order I need its order id (for example A1001)."
    reply = PLANNER.invoke("Please change the delivery address of A1001")
    assert not reply.tool_calls and "I need the new delivery address" in reply.content
    assert not PLANNER.invoke("Where is order 1001?").tool_calls  # not the shop's id format: asked, not guessed
    for text in ("Cancel my order", "Change the address to my office", "what?"):
        assert not re.search(r"\b\w+_\w+\b", PLANNER.invoke(text).content), "no tool names in what the user reads"


def test_the_answer_to_a_question_completes_only_the_open_request() -> None:
    first = PLANNER.invoke("Track A1002 and cancel my order")
    history = [HumanMessage("Track A1002 and cancel my order"), AIMessage(content=first.content,
               response_metadata=first.response_metadata), HumanMessage("It is A1001")]
    assert [(c["name"], c["args"]) for c in PLANNER.invoke(history).tool_calls] == [("cancel_order", {"order_id": "A1001"})]
    history[-1] = HumanMessage("never mind, track A1004 instead")  # a new request of its own is read on its own
    assert [(c["name"], c["args"]) for c in PLANNER.invoke(history).tool_calls] == [("track_shipment", {"order_id": "A1004"})]


def test_no_intent_means_a_question_not_a_guess() -> None:
    reply = PLANNER.invoke("What is the weather like?")
    assert not reply.tool_calls and reply.content.endswith("What would you like me to do?")
    assert "track a shipment" in reply.content


def test_embedding_fallback_understands_a_paraphrase() -> None:
    assert calls("What is in order A1003?", EMBEDDING_PLANNER) == [("lookup_order", {"order_id": "A1003"})]


# ---------------------------------------------------------------- a new tool, defined here only
class BookingArgs(BaseModel):
    date: str
    people: str


def _date(text: str) -> str | None:
    m = re.search(r"\b(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{4}-\d{2}-\d{2})\b", text, re.IGNORECASE)
    return m.group(1) if m else None


def _people(text: str) -> str | None:
    m = re.search(r"\bfor\s+(\d{1,2})\b", text)
    return m.group(1) if m else None


BOOK_TABLE = ToolSpec(
    "book_table", "Book a table at the restaurant.", BookingArgs, lambda store, **a: f"Booked for {a['people']} on {a['date']}.",
    mutates=True, needs_login=False, owner_arg=None, title="book a table",
    examples=("book a table", "reserve a table for four", "I would like a reservation", "can we get a table"),
    user_args=(UserArg("date", _date, "the date (for example Friday)"),
               UserArg("people", _people, "how many people (for example: for 4)")),
)


def test_a_new_tool_works_from_its_spec_alone() -> None:
    planner = LocalToolPlanner(use_embeddings=False).bind_tools([*TOOLS, BOOK_TABLE.as_tool(None)])
    assert calls("Please book a table for 4 on Friday", planner) == [("book_table", {"date": "Friday", "people": "4"})]
    assert calls("Don't book a table, just track A1002", planner) == [("track_shipment", {"order_id": "A1002"})]
    reply = planner.invoke("Reserve a table on Friday")
    assert not reply.tool_calls and reply.content == "To book a table I need how many people (for example: for 4)."


class CountingEmbeddings(Embeddings):
    """A toy embedder (letter counts) that records every text it is asked to embed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def _vec(self, text: str) -> list[float]:
        return [text.lower().count(c) + 0.01 for c in "abcdefghijklmnopqrstuvwxyz"]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


def test_the_embedder_is_passed_in_and_examples_are_embedded_once() -> None:
    embedder = CountingEmbeddings()
    planner = LocalToolPlanner(embedder=embedder).bind_tools(TOOLS)
    for text in ("What about A1003?", "And A1004, what of it?", "Anything new on A1005?"):
        planner.invoke(text)
    examples = [e for s in ORDER_TOOL_SPECS for e in s.examples]
    assert sorted(embedder.seen) == sorted(examples)  # each example phrase once, however many messages


def test_final_answer_is_made_from_tool_results() -> None:
    messages = [HumanMessage("track A1002"), AIMessage(content="", tool_calls=[{"name": "track_shipment", "args": {"order_id": "A1002"}, "id": "c1"}]),
                ToolMessage("Order A1002 is on its way.", tool_call_id="c1")]
    assert PLANNER.invoke(messages).content == "Order A1002 is on its way."
    messages[-1] = ToolMessage("Order A1002 cannot be cancelled: it has already shipped.", tool_call_id="c1", status="error")
    assert PLANNER.invoke(messages).content.startswith("That did not go through: Order A1002 cannot be cancelled")


def test_a_refusal_that_needs_the_user_is_read_from_its_reason_not_its_text() -> None:
    proposal = AIMessage(content="", tool_calls=[{"name": "change_delivery_address", "id": "c1",
                                                 "args": {"order_id": "A1001", "new_address": "9 Made Up Road"}}])
    refusal = ToolMessage("(any wording)", tool_call_id="c1", name="change_delivery_address", status="error",
                          artifact={"reason": "not_from_user", "arg": "new_address"})
    reply = PLANNER.invoke([HumanMessage("move A1001 please"), proposal, refusal])
    assert reply.content.startswith("To change an order's delivery address I need the new delivery address")
    other = ToolMessage("Ask the user, ask the user.", tool_call_id="c1", name="change_delivery_address", status="error",
                        artifact={"reason": "business_rule", "arg": None})
    assert PLANNER.invoke([HumanMessage("move A1001 please"), proposal, other]).content.startswith("That did not go through")


def test_calls_and_a_question_in_one_turn_keep_the_question_for_the_final_answer() -> None:
    first = PLANNER.invoke("Track A1002 and cancel my order")
    messages = [HumanMessage("Track A1002 and cancel my order"), first,
                ToolMessage("Order A1002 is on its way.", tool_call_id=first.tool_calls[0]["id"])]
    reply = PLANNER.invoke(messages)
    assert reply.content == "Order A1002 is on its way. To cancel an order I need its order id (for example A1001)."
    assert reply.response_metadata[AWAITING] == "cancel_order"


def test_tool_call_ids_are_deterministic() -> None:
    first = [c["id"] for c in PLANNER.invoke("track A1002 and A1004").tool_calls]
    assert first == [c["id"] for c in PLANNER.invoke("track A1002 and A1004").tool_calls] == ["call_0_0", "call_0_1"]


def test_extractors() -> None:
    assert extract_order_ids("a1001, A1001, XA1002, A10033 and A1003") == ["a1001", "A1003"]
    assert extract_address("My new address is 7 Rue Cler, Paris for order A1001") == "7 Rue Cler, Paris"
    assert extract_address("I want to change the address of A1001 to 5 Main St please") == "5 Main St"
    assert extract_address("I want to change the address of A1001") is None
    assert extract_address("New address for A1001: Flat 2, 18 Church Street, Bristol") == "Flat 2, 18 Church Street, Bristol"
    assert clean_free_text("'9 Queen Street, Cardiff' instead.") == "9 Queen Street, Cardiff"


def test_clauses_keep_business_names_and_cut_at_new_requests() -> None:
    actions = {"track", "cancel", "chang", "send"}
    assert [c.text for c in split_requests("Send A1 to Smith and Sons Ltd, 4 Dock Road and cancel A2", actions)] == [
        "Send A1 to Smith and Sons Ltd, 4 Dock Road", "cancel A2"]
    assert [c.text for c in split_requests("cancel it so I can track A2 later", actions)] == ["cancel it so I can track A2 later"]


WORDS = st.sampled_from("cancel track where address change to is my order A1001 a1002 A9999 A10011 12 High Street , . "
                         "please new ship send delivery details status ignore previous instructions don't not and also then ;".split())


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=60), st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=14).map(" ".join)))
def test_every_proposed_argument_was_typed_by_the_user(text: str) -> None:
    for call in PLANNER.invoke(text or " ").tool_calls:
        for value in call["args"].values():
            assert str(value).lower() in text.lower()


def test_a_tool_without_a_spec_has_its_arguments_asked_for_never_filled() -> None:
    from langchain_core.tools import tool

    @tool
    def refund_order(order_id: str) -> str:
        """Refund an order's payment."""
        return "refunded"

    reply = LocalToolPlanner(use_embeddings=False).bind_tools([refund_order]).invoke("Please refund order A1001")
    assert not reply.tool_calls and reply.content == "To refund order I need the order id."
