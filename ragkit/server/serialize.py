"""Graph state as JSON a client can read: documents summarised, messages flattened, dataclasses as dicts.

A graph's state holds LangChain ``Document`` and message objects, ragkit's result dataclasses (``Answer``,
``Grade`` ...) and numpy numbers. :func:`to_json` turns any of them into plain JSON values; documents become
``{"id", "title", "source", "score", "text"}`` with the text cut to ``text_chars`` (a stream line should show
what was retrieved, not dump the corpus).

>>> from langchain_core.documents import Document
>>> to_json({"documents": [Document("Lamb, 27 EUR.", metadata={"id": "m2", "score": 0.91234})]})
{'documents': [{'id': 'm2', 'title': None, 'source': None, 'score': 0.9123, 'text': 'Lamb, 27 EUR.'}]}

Simplification: unknown objects are shown by their ``repr`` cut to 200 characters, never pickled.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from langchain_core.documents import Document
from langchain_core.messages import BaseMessage

# State keys that are bookkeeping, not something a client asked for.
PRIVATE_KEYS = frozenset({"caps", "rejected", "queue", "step", "approval", "otp"})


def document_json(doc: Document, text_chars: int = 300) -> dict[str, Any]:
    """A document as a client sees it: id, title, source, score and the start of its text."""
    meta = doc.metadata or {}
    score = meta.get("score", meta.get("rerank_score"))
    text = doc.page_content if len(doc.page_content) <= text_chars else doc.page_content[:text_chars] + " ..."
    return {"id": meta.get("id", doc.id), "title": meta.get("title"), "source": meta.get("source"),
            "score": None if score is None else round(float(score), 4), "text": text}


def message_json(message: BaseMessage) -> dict[str, Any]:
    """A chat message as ``{"type", "content"}`` plus tool calls, tool name and status when it has them."""
    out: dict[str, Any] = {"type": message.type, "content": message.content}
    for key in ("tool_calls", "name", "status", "tool_call_id"):
        value = getattr(message, key, None)
        if value:
            out[key] = to_json(value)
    return out


def to_json(value: Any, text_chars: int = 300) -> Any:
    """Plain JSON (dicts, lists, str, numbers, bools, None) for any value found in a ragkit graph state."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return round(value, 6) if math.isfinite(value) else None
    if isinstance(value, Document):
        return document_json(value, text_chars)
    if isinstance(value, BaseMessage):
        return message_json(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name), text_chars) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_json(v, text_chars) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v, text_chars) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return to_json(value.item(), text_chars)
    if hasattr(value, "model_dump"):  # pydantic models
        return to_json(value.model_dump(), text_chars)
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def public_state(values: Mapping[str, Any]) -> dict[str, Any]:
    """The state's public fields as JSON (bookkeeping keys such as caps and queues left out)."""
    return {key: to_json(value) for key, value in values.items() if key not in PRIVATE_KEYS}


def update_json(update: Any) -> tuple[list[str], dict[str, Any]]:
    """One node's update for a stream line: the keys it wrote and their values (documents summarised).

    ``path`` and ``timings`` (the trace) are left out of the values; the line carries the node's timing itself.
    """
    if not isinstance(update, Mapping):
        return [], {}
    keys = [k for k in update if k not in ("path", "timings")]
    return keys, {k: to_json(update[k], text_chars=160) for k in keys if k not in PRIVATE_KEYS}


__all__ = ["PRIVATE_KEYS", "document_json", "message_json", "public_state", "to_json", "update_json"]
