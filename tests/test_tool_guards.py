"""The deterministic guards, one rule at a time (pure functions: no graph, no model)."""

from __future__ import annotations

import pytest

from ragkit.core.tools import (
    ASK_USER_REASONS,
    LOGIN_SHAPE,
    ResumePayloadError,
    SeededCodeSource,
    call_digest,
    check_call,
    parse_approval,
    parse_login,
    parse_otp,
    written_by_user,
)
from ragkit.domains.shop.orders import load_order_store
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS

SPECS = {s.name: s for s in ORDER_TOOL_SPECS}
SAID = "please cancel A1001, and track A1002 and A9999; A1007 too"


def decide(name, args, **facts):
    facts.setdefault("user_text", SAID)
    return check_call({"name": name, "args": args}, SPECS, load_order_store(), **facts)


def test_unknown_tool_is_refused_and_lists_the_real_ones() -> None:
    d = decide("delete_all_orders", {"order_id": "A1001"})
    assert d.step == "refuse" and "Unknown tool 'delete_all_orders'" in d.message and "cancel_order" in d.message
    assert d.reason == "unknown_tool" and not d.asks_user


@pytest.mark.parametrize("args", [{}, {"order_id": ""}, {"order_id": "   "}, {"order_id": None}])
def test_blank_or_missing_required_argument_says_ask_the_user(args) -> None:
    d = decide("cancel_order", args, user_id="C001")
    assert d.step == "refuse"
    assert "Missing required argument 'order_id'" in d.message and "Do not invent it: ask the user" in d.message
    assert d.details() == {"reason": "missing_argument", "arg": "order_id"} and d.asks_user


def test_blank_address_is_refused_even_with_a_good_order_id() -> None:
    d = decide("change_delivery_address", {"order_id": "A1001", "new_address": " \n "}, user_id="C001")
    assert d.step == "refuse" and "'new_address'" in d.message and "ask the user" in d.message


def test_invalid_or_extra_arguments_are_refused() -> None:
    assert "not an order id" in decide("track_shipment", {"order_id": "12"}).message
    assert "Extra inputs" in decide("track_shipment", {"order_id": "A1002", "force": True}).message
    assert "must be an object" in decide("track_shipment", ["A1002"]).message


def test_order_ids_the_user_never_typed_are_refused_when_grounded() -> None:
    d = decide("track_shipment", {"order_id": "A1010"})
    assert d.step == "refuse" and "'A1010' is not in what the user wrote. Do not invent it: ask the user." in d.message
    assert (d.reason, d.arg, d.asks_user) == ("not_from_user", "order_id", True)
    assert decide("track_shipment", {"order_id": "A1010"}, grounded=False).step == "execute"
    assert decide("track_shipment", {"order_id": "a1002"}).step == "execute"  # case-insensitive


def test_an_address_the_user_never_wrote_is_refused_like_an_invented_id() -> None:
    said = "Please change the address of A1001 to 12 High St,  Oxford."
    invented = decide("change_delivery_address", {"order_id": "A1001", "new_address": "99 Attacker Road, Nowhere"},
                      user_text=said, user_id="C001")
    assert invented.step == "refuse" and (invented.reason, invented.arg) == ("not_from_user", "new_address")
    assert invented.message.endswith("Do not invent it: ask the user.")
    # "12 High St" is part of what was written, so it passes: provenance is a substring test, and the person
    # approving sees the exact address before anything changes
    for written in ("12 High St, Oxford", "12 high st,oxford", " 12 High St, Oxford. ", "12 High St"):
        d = decide("change_delivery_address", {"order_id": "A1001", "new_address": written}, user_text=said, user_id="C001")
        assert d.step == "approve", written  # folded case, spaces and trailing punctuation
    for paraphrase in ("12 High Street, Oxford", "12 High St, Oxford OX1", "2 High St"):
        d = decide("change_delivery_address", {"order_id": "A1001", "new_address": paraphrase}, user_text=said, user_id="C001")
        assert d.reason == "not_from_user", paraphrase  # not written by the user: asked again, never trusted
    assert decide("change_delivery_address", {"order_id": "A1001", "new_address": "99 Attacker Road, Nowhere"},
                  user_text=said, user_id="C001", grounded=False).step == "approve"


def test_written_by_user_matches_whole_words_only() -> None:
    assert written_by_user("A1001", "cancel a1001!") and not written_by_user("A100", "cancel A1001")
    assert not written_by_user("", "anything") and not written_by_user("   ", "anything")
    assert written_by_user("St John\u2019s Road 4", "send it to St John's Road 4")


def test_login_then_ownership_then_business_rule() -> None:
    assert decide("lookup_order", {"order_id": "A1001"}).step == "login"
    owner = decide("lookup_order", {"order_id": "A1001"}, user_id="C002")
    assert "does not belong to the logged-in customer C002" in owner.message and owner.reason == "not_owner"
    missing = decide("cancel_order", {"order_id": "A9999"}, user_id="C001")
    assert "No order with id 'A9999'" in missing.message and missing.reason == "no_such_order"
    rule = decide("cancel_order", {"order_id": "A1002"}, user_id="C002")
    assert "already shipped" in rule.message and rule.reason == "business_rule" and not rule.asks_user
    assert decide("track_shipment", {"order_id": "A1002"}).step == "execute"  # reads without login run at once


def test_mutations_need_an_approval_for_this_exact_digest() -> None:
    args = {"order_id": "A1001"}
    first = decide("cancel_order", args, user_id="C001")
    assert first.step == "approve" and first.args == {"order_id": "A1001", "reason": ""}  # defaults filled in
    digest = call_digest("cancel_order", first.args)  # the digest covers the call exactly as it would run
    other = {"digest": call_digest("cancel_order", {"order_id": "A1001"}), "approved": True}
    assert decide("cancel_order", args, user_id="C001", approval=other).step == "approve"
    assert decide("cancel_order", args, user_id="C001", approval={"digest": digest, "approved": True}).step == "execute"
    rejected = decide("cancel_order", args, user_id="C001", approval={"digest": digest, "approved": False})
    assert rejected.step == "refuse" and "rejected" in rejected.message and rejected.reason == "rejected"


def test_otp_is_asked_after_approval_only_when_required() -> None:
    args = {"order_id": "A1001", "reason": ""}
    approved = {"digest": call_digest("cancel_order", args), "approved": True}
    facts = {"user_id": "C001", "approval": approved, "require_otp": True}
    assert decide("cancel_order", args, **facts).step == "otp"
    assert decide("cancel_order", args, otp={"digest": approved["digest"], "passed": True}, **facts).step == "execute"
    failed = decide("cancel_order", args, otp={"digest": approved["digest"], "passed": False}, **facts)
    assert failed.step == "refuse" and "one-time code" in failed.message and failed.reason == "otp_failed"


def test_only_missing_or_unseen_arguments_are_for_the_user_to_fix() -> None:
    assert ASK_USER_REASONS == {"missing_argument", "not_from_user"}


def test_digest_is_canonical_and_sensitive_to_every_argument() -> None:
    assert call_digest("cancel_order", {"order_id": "A1001", "reason": ""}) == call_digest("cancel_order", {"reason": "", "order_id": "A1001"})
    assert call_digest("cancel_order", {"order_id": "A1001"}) != call_digest("cancel_order", {"order_id": "A1001 "})
    assert call_digest("cancel_order", {"order_id": "A1001"}) != call_digest("lookup_order", {"order_id": "A1001"})


@pytest.mark.parametrize(
    "payload, error",
    [
        (None, "expected a dict"),
        ("yes", "expected a dict"),
        ({}, "missing key"),
        ({"approved": "yes", "digest": "d"}, "must be true or false"),
        ({"approved": True}, "does not match"),
        ({"approved": True, "digest": "other"}, "does not match"),
        ({"approved": True, "digest": "d", "args": {"order_id": "A1007"}}, "cannot change the call"),
        ({"approved": True, "digest": "d", "name": "lookup_order"}, "cannot change the call"),
    ],
)
def test_approval_payloads_of_the_wrong_shape_are_rejected(payload, error) -> None:
    with pytest.raises(ResumePayloadError, match=error):
        parse_approval(payload, "d")


def test_login_and_otp_payloads() -> None:
    assert "C0" not in LOGIN_SHAPE  # the pause suggests no one's customer id
    assert parse_login({"user_id": " c001 "}, {"C001"}) == "C001"
    for bad, error in (({"user_id": ""}, "non-blank"), ({"user_id": "C999"}, "no customer"), ({"user": "C001"}, "unexpected")):
        with pytest.raises(ResumePayloadError, match=error):
            parse_login(bad, {"C001"})
    assert parse_otp({"code": 123456}) == "123456"
    with pytest.raises(ResumePayloadError, match="digits"):
        parse_otp({"code": "12ab"})


def test_seeded_codes_are_repeatable_and_depend_on_the_call_and_secret() -> None:
    a, b = SeededCodeSource("s"), SeededCodeSource("s")
    assert a.code_for("x") == b.code_for("x") and len(a.code_for("x")) == 6 and a.code_for("x").isdigit()
    assert len({a.code_for(str(i)) for i in range(50)}) > 45
    assert SeededCodeSource("other").code_for("x") != a.code_for("x")
