"""Chat models: Gemini when a key is set, otherwise nothing (callers fall back to local roles).

``load_chat_model()`` never blocks on a dead network: a short timeout and at most one retry, so a
laptop without internet learns within seconds what is wrong and what to do.
"""

from __future__ import annotations

import os
from typing import Literal

from langchain_core.language_models.base import LangSmithParams
from langchain_core.language_models.chat_models import BaseChatModel

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
