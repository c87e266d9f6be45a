"""A small client for ``ragkit serve``: what a notebook, a script or ``ragkit eval --server`` uses.

>>> list(read_ndjson(['{"event": "metadata"}', "", '{"event": "end"}']))
[{'event': 'metadata'}, {'event': 'end'}]

An error status becomes a :class:`ServerError` carrying the server's own message.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import httpx


class ServerError(RuntimeError):
    """The server answered with an error status; ``status`` and ``code`` say which."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def read_ndjson(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One event per non-empty line of an NDJSON stream."""
    for line in lines:
        if line.strip():
            yield json.loads(line)


class RagkitClient:
    """``RagkitClient("http://127.0.0.1:8000", token=...)``: the server's endpoints as methods."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 300):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=timeout)

    def _json(self, response: httpx.Response) -> Any:
        if response.status_code >= 400:
            try:
                body = response.json()
            except ValueError:
                body = {"error": "http", "message": response.text[:200]}
            raise ServerError(response.status_code, body.get("error", "http"), body.get("message", ""))
        return response.json()

    def health(self) -> dict:
        return self._json(self.http.get("/health"))

    def graphs(self) -> list[dict]:
        return self._json(self.http.get("/graphs"))

    def invoke(self, graph: str, text: str, thread_id: str | None = None, field: str = "question") -> dict:
        """Run a graph to its end (or its pause); ``field="message"`` for the tool loop."""
        body = {field: text, **({"thread_id": thread_id} if thread_id else {})}
        return self._json(self.http.post(f"/graphs/{graph}/invoke", json=body))

    def stream(self, graph: str, text: str, thread_id: str | None = None, field: str = "question") -> Iterator[dict]:
        """The run's events (metadata, updates, interrupt, end, error) as they arrive."""
        body = {field: text, **({"thread_id": thread_id} if thread_id else {})}
        with self.http.stream("POST", f"/graphs/{graph}/stream", json=body) as response:
            if response.status_code >= 400:
                response.read()
                self._json(response)
            yield from read_ndjson(response.iter_lines())

    def thread(self, thread_id: str) -> dict:
        return self._json(self.http.get(f"/threads/{thread_id}"))

    def resume(self, thread_id: str, value: Any) -> dict:
        return self._json(self.http.post(f"/threads/{thread_id}/resume", json={"value": value}))

    def metrics(self) -> dict:
        return self._json(self.http.get("/metrics"))

    def close(self) -> None:
        self.http.close()


__all__ = ["RagkitClient", "ServerError", "read_ndjson"]
