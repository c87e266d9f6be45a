"""One structured-output call, with every way it can fail turned into a value instead of an exception.

Every LLM role does the same thing: fill a prompt, ask the chat model for an object of a pydantic schema
(``model.with_structured_output(Schema, include_raw=True)``), and use the parsed object. Three things can
go wrong, and each role must decide what to do about them rather than crash a graph halfway:

1. the call itself raises (network, quota, timeout),
2. the model answers, but not in the schema (malformed JSON, a ``Literal`` value that is not allowed),
3. the model answers nothing usable (``parsed`` is ``None`` without an error).

``call_structured`` returns a :class:`StructuredCall` whose ``value`` is the parsed object or ``None``,
with a one-line ``note`` saying what failed. The role then takes its documented safe default.

Simplification: no retry here. The chat model's own ``max_retries`` covers transient network errors; a
model that answered badly once is not asked again (a retry would double the cost of every failure).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field, create_model

S = TypeVar("S", bound=BaseModel)


@dataclass(frozen=True)
class StructuredCall(Generic[S]):
    """The outcome of one structured call: ``value`` when it worked, else ``None`` and a ``note`` why."""

    value: S | None
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.value is not None


def _short(err: object, limit: int = 160) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_structured(model: BaseChatModel, prompt: ChatPromptTemplate, schema: type[S], inputs: dict[str, Any]) -> StructuredCall[S]:
    """Run ``prompt | model.with_structured_output(schema, include_raw=True)``; never raise for model failures.

    >>> from ragkit.core.chat_models import scripted
    >>> from ragkit.roles.prompts import GRADER_PROMPT
    >>> class Relevance(BaseModel):
    ...     relevant: bool
    >>> call_structured(scripted('{"relevant": true}'), GRADER_PROMPT, Relevance,
    ...                 {"question": "q", "document": "d"}).value
    Relevance(relevant=True)
    >>> print(call_structured(scripted("sure!"), GRADER_PROMPT, Relevance, {"question": "q", "document": "d"}).note)
    unparsable model output: no JSON object in model output: 'sure!'
    """
    messages = prompt.format_messages(**inputs)  # a missing prompt variable is a programming error: raise
    try:
        result = model.with_structured_output(schema, include_raw=True).invoke(messages)
    except Exception as err:  # noqa: BLE001 - any failure of the call becomes the role's safe default
        return StructuredCall(None, f"model call failed: {type(err).__name__}: {_short(err)}")
    if isinstance(result, schema):  # a model that ignores include_raw
        return StructuredCall(result)
    if not isinstance(result, dict):
        return StructuredCall(None, f"unexpected result type {type(result).__name__}")
    if result.get("parsing_error") is not None:
        return StructuredCall(None, f"unparsable model output: {_short(result['parsing_error'])}")
    parsed = result.get("parsed")
    if isinstance(parsed, dict):  # some providers hand back a dict; validate it ourselves
        try:
            parsed = schema.model_validate(parsed)
        except Exception as err:  # noqa: BLE001
            return StructuredCall(None, f"unparsable model output: {_short(err)}")
    if not isinstance(parsed, schema):
        return StructuredCall(None, "the model returned no structured output")
    return StructuredCall(parsed)


def choice_schema(name: str, field: str, choices: tuple[str, ...], description: str, reason: bool = True) -> type[BaseModel]:
    """A pydantic schema with one ``Literal[choices]`` field (plus an optional ``reason``), built at run time.

    >>> Pick = choice_schema("Pick", "route", ("menu", "wine"), "where to send the question")
    >>> Pick(route="wine", reason="a wine question").route
    'wine'
    """
    if not choices:
        raise ValueError("choice_schema needs at least one choice")
    fields: dict[str, Any] = {field: (Literal[tuple(choices)], Field(description=description))}  # type: ignore[valid-type]
    if reason:
        fields["reason"] = (str, Field(default="", description="one short sentence saying why"))
    return create_model(name, **fields)
