import pytest
from langchain_core.exceptions import OutputParserException
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from pydantic import BaseModel

from ragkit.core.chat_models import ScriptedChatModel, ScriptExhausted, parse_json_object, scripted


class Verdict(BaseModel):
    relevant: bool


@tool
def lookup(order_id: str) -> str:
    """Look up an order."""
    return order_id


def test_replies_in_order_and_records_calls():
    model = scripted("one", {"a": 1})
    assert model.invoke("hi").content == "one"
    assert model.invoke("again").content == '{"a": 1}'
    assert [c["messages"][0].content for c in model.calls] == ["hi", "again"]
    with pytest.raises(ScriptExhausted):
        model.invoke("third")


def test_cycle_repeats_the_script():
    model = scripted("x", cycle=True)
    assert [model.invoke("q").content for _ in range(3)] == ["x", "x", "x"]


def test_structured_output_parses_json_and_fences():
    model = scripted('```json\n{"relevant": true}\n```', {"relevant": False})
    runnable = model.with_structured_output(Verdict)
    assert runnable.invoke("q") == Verdict(relevant=True)
    assert runnable.invoke("q") == Verdict(relevant=False)


def test_structured_output_malformed_raises_or_reports():
    model = scripted("not json", {"relevant": "perhaps"})
    with pytest.raises(OutputParserException):
        model.with_structured_output(Verdict).invoke("q")
    out = model.with_structured_output(Verdict, include_raw=True).invoke("q")
    assert out["parsed"] is None and out["parsing_error"] is not None


def test_exceptions_are_raised():
    model = scripted(TimeoutError("network down"))
    with pytest.raises(TimeoutError):
        model.invoke("q")


def test_tool_calls_get_deterministic_ids_and_tools_are_recorded():
    reply = AIMessage(content="", tool_calls=[{"name": "lookup", "args": {"order_id": "A1"}, "id": None}])
    model = ScriptedChatModel(responses=[reply])
    out = model.bind_tools([lookup]).invoke("where is A1?")
    assert out.tool_calls[0]["args"] == {"order_id": "A1"}
    assert out.tool_calls[0]["id"] == "call_1_0"
    assert model.calls[0]["tools"] == ["lookup"]


def test_callable_responses_see_the_prompt():
    model = scripted(lambda messages, tools: f"echo {messages[-1].content}")
    assert model.invoke("ping").content == "echo ping"


def test_parse_json_object_rejects_non_objects():
    with pytest.raises(ValueError):
        parse_json_object("[1, 2]")
