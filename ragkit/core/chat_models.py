"""Chat models: Gemini when a key is set, otherwise nothing (callers fall back to local roles).

``load_chat_model()`` never blocks on a dead network: a short timeout and at most one retry, so a
laptop without internet learns within seconds what is wrong and what to do.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable, Literal, Sequence

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models.base import LangSmithParams
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, PrivateAttr, ValidationError

Tier = Literal["fast", "strong"]

# Cheaper model for judging roles (router, graders, judge, supervisor); stronger one for writing.
DEFAULT_MODELS: dict[str, str] = {"fast": "gemini-2.5-flash-lite", "strong": "gemini-2.5-flash"}
MODEL_ENV = {"fast": "RAGKIT_GEMINI_FAST_MODEL", "strong": "RAGKIT_GEMINI_STRONG_MODEL"}
KEY_ENV = ("GOOGLE_API_KEY", "GEMINI_API_KEY")


class ChatModelUnavailable(RuntimeError):
    """Raised when a chat model was asked for explicitly but cannot be built."""


def gemini_api_key() -> str | None:
    """The Gemini key from ``GOOGLE_API_KEY`` or ``GEMINI_API_KEY``, or ``None``."""
    for name in KEY_ENV:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def model_name(tier: Tier = "fast") -> str:
    """The Gemini model name for a tier, overridable with ``RAGKIT_GEMINI_FAST_MODEL`` / ``..._STRONG_MODEL``."""
    if tier not in DEFAULT_MODELS:
        raise ValueError(f"tier must be one of {sorted(DEFAULT_MODELS)}, got {tier!r}")
    return os.environ.get(MODEL_ENV[tier], DEFAULT_MODELS[tier])


def load_chat_model(
    tier: Tier = "fast",
    model: str | None = None,
    temperature: float = 0.0,
    timeout: float = 20.0,
    max_retries: int = 1,
    required: bool = False,
) -> BaseChatModel | None:
    """Gemini through ``langchain-google-genai`` when a key is set; otherwise ``None``.

    ``tier="fast"`` is meant for judging roles, ``tier="strong"`` for writing. With ``required=True`` a
    missing key raises :class:`ChatModelUnavailable` instead of returning ``None``.

    >>> load_chat_model() is None  # with no GOOGLE_API_KEY in the environment  # doctest: +SKIP
    True
    """
    key = gemini_api_key()
    if key is None:
        if required:
            raise ChatModelUnavailable(
                "No Gemini key found. Set GOOGLE_API_KEY (or GEMINI_API_KEY) in the shell that starts "
                "Jupyter, or use the local roles, which need no key."
            )
        return None
    try:
        from langchain_google_genai import ChatGoogleGenerativeAI
    except ImportError as err:  # pragma: no cover - core dependency
        raise ChatModelUnavailable("Install langchain-google-genai to use Gemini: pip install langchain-google-genai") from err
    return ChatGoogleGenerativeAI(
        model=model or model_name(tier),
        google_api_key=key,
        temperature=temperature,
        timeout=timeout,
        max_retries=max_retries,
    )


def local_ls_params(model_name: str, stop: list[str] | None = None, **kwargs: object) -> LangSmithParams:
    """LangSmith's standard tracing parameters for ragkit's own offline chat models (scripted, local planner).

    >>> local_ls_params("scripted")["ls_provider"], local_ls_params("scripted", model="other")["ls_model_name"]
    ('ragkit', 'other')
    """
    params = LangSmithParams(ls_provider="ragkit", ls_model_name=str(kwargs.get("model", model_name)),
                             ls_model_type="chat", ls_temperature=0.0)
    if stop:
        params["ls_stop"] = stop
    return params


def describe_backend() -> str:
    """One line for notebooks: which models the graphs will use."""
    if gemini_api_key() is None:
        return "local roles (offline, no API key): MiniLM embeddings + classic IR/NLP"
    return f"Gemini: {model_name('fast')} for judging roles, {model_name('strong')} for writing"


# ---------------------------------------------------------------------- fake_chat
# A scripted chat model for tests and demos: it answers from a list you give it, in order.
#
# Unlike the fakes in ``langchain-core``, it supports ``with_structured_output`` (including
# ``include_raw=True`` and malformed output) and ``bind_tools`` with tool calls, so every LLM-backed role
# and the tool loop can be driven offline and deterministically. Each call is recorded in ``calls``
# (messages plus the tools that were offered), so a test can check what the model was shown.
#
# A scripted response can be:
# - a ``str`` (the reply text; for structured output it must be JSON),
# - a ``dict`` or pydantic model (serialised to JSON),
# - an ``AIMessage`` (returned as is; use it for ``tool_calls``),
# - an ``Exception`` instance (raised, to simulate a failing call),
# - a callable ``(messages, tools) -> any of the above`` for replies that depend on the prompt.


class ScriptExhausted(RuntimeError):
    """The scripted model was called more times than it has responses."""


def _to_json_text(value: Any) -> str:
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    return json.dumps(value)


def parse_json_object(text: str) -> dict:
    """Pull one JSON object out of model text, tolerating a Markdown code fence.

    >>> parse_json_object('```json\\n{"relevant": true}\\n```')
    {'relevant': True}
    """
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise ValueError(f"no JSON object in model output: {text[:80]!r}")
    value = json.loads(body[start : end + 1])
    if not isinstance(value, dict):
        raise ValueError("model output is not a JSON object")
    return value


class ScriptedChatModel(BaseChatModel):
    """Replies with scripted responses in order; records every call in ``calls``.

    >>> model = ScriptedChatModel(responses=["hello", {"route": "wine"}])
    >>> model.invoke("hi").content
    'hello'
    """

    responses: list[Any]
    cycle: bool = False
    model_name: str = "scripted"  # shown in traces (LangSmith's ls_model_name)
    _index: int = PrivateAttr(default=0)
    _calls: list[dict] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        """The standard tracing parameters (provider, model name, type), so LangSmith shows who answered."""
        return local_ls_params(self.model_name, stop, **kwargs)

    @property
    def calls(self) -> list[dict]:
        """One entry per call: ``{"messages": [...], "tools": [tool names offered]}``."""
        return self._calls

    def _next(self, messages: list[BaseMessage], tools: list[dict] | None) -> Any:
        if self._index >= len(self.responses):
            if not self.cycle or not self.responses:
                raise ScriptExhausted(f"scripted model has only {len(self.responses)} responses")
            self._index = 0
        response = self.responses[self._index]
        self._index += 1
        names = [t["function"]["name"] for t in tools or []]
        self._calls.append({"messages": list(messages), "tools": names})
        if callable(response) and not isinstance(response, (BaseModel, BaseMessage)):
            response = response(messages, names)
        if isinstance(response, BaseException):
            raise response
        return response

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        response = self._next(messages, kwargs.get("tools"))
        if isinstance(response, AIMessage):
            message = response
            if message.tool_calls and any(not c.get("id") for c in message.tool_calls):
                calls = [dict(c, id=c.get("id") or f"call_{self._index}_{i}") for i, c in enumerate(message.tool_calls)]
                message = AIMessage(content=message.content, tool_calls=calls)
        elif isinstance(response, str):
            message = AIMessage(content=response)
        else:
            message = AIMessage(content=_to_json_text(response))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any) -> Runnable:
        """Offer tools to the model; scripted replies decide whether to call them."""
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Runnable:
        """Parse each scripted reply into ``schema`` (a pydantic class or a JSON-schema dict)."""

        def parse(message: AIMessage) -> Any:
            if message.tool_calls:
                data = message.tool_calls[0]["args"]
            else:
                data = parse_json_object(str(message.content))
            if isinstance(schema, type) and issubclass(schema, BaseModel):
                return schema.model_validate(data)
            return data

        def run(value: Any) -> Any:
            message = self.invoke(value)
            try:
                parsed = parse(message)
            except (ValueError, ValidationError, json.JSONDecodeError) as err:
                if include_raw:
                    return {"raw": message, "parsed": None, "parsing_error": err}
                raise OutputParserException(f"could not parse model output: {err}", llm_output=str(message.content)) from err
            return {"raw": message, "parsed": parsed, "parsing_error": None} if include_raw else parsed

        return RunnableLambda(run, name="ScriptedStructuredOutput")


def scripted(*responses: Any, cycle: bool = False) -> ScriptedChatModel:
    """Shorthand: ``scripted("a", {"b": 1})`` builds a :class:`ScriptedChatModel`."""
    return ScriptedChatModel(responses=list(responses), cycle=cycle)


ResponseFn = Callable[[list[BaseMessage], list[str]], Any]


def message_text(message: Any) -> str:
    """The text of a chat model's reply, whether its content is a string or a list of parts.

    >>> message_text(AIMessage("Hello!")), message_text(AIMessage([{"type": "text", "text": "Hi"}, " there"]))
    ('Hello!', 'Hi  there')
    """
    content = getattr(message, "content", message)
    if isinstance(content, list):  # some providers return a list of content parts
        return " ".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)
