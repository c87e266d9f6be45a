"""The ragkit server: every graph over HTTP (FastAPI), with streaming, durable threads and metrics.

Endpoints (all JSON unless said otherwise):

- ``GET /health``: the process is up. ``GET /ready``: the embedding model is loaded (503 until then).
- ``GET /graphs``: each graph's name, description, input kind, whether it changes data or pauses, mermaid text.
- ``POST /graphs/{name}/invoke`` ``{"question": "..."}`` (the tool loop: ``{"message": "..."}``), optional
  ``thread_id``: the final state's public fields, and the pending interrupt if the run paused.
- ``POST /graphs/{name}/stream``: the same run as NDJSON, one line per node update as it happens, then an
  ``end`` line; with ``Accept: text/event-stream``, the same events as Server-Sent Events
  (``metadata``, ``updates``, ``interrupt``, ``end``, ``error``).
- ``GET /threads/{id}``: a thread's state; ``POST /threads/{id}/resume`` ``{"value": ...}``: continue a
  paused thread (the payload is checked against the pending interrupt first; a bad one is a 4xx and the
  thread is left as it was).
- ``GET /metrics``: the JSON summary; ``GET /metrics/prometheus``: Prometheus text.
- ``GET /collections``, ``POST /collections/{name}/ingest`` ``{"path": "..."}`` (a folder inside
  ``RAGKIT_INGEST_ROOT``), ``POST /collections/{name}/search`` ``{"query": "...", "k": 4}``,
  ``DELETE /collections/{name}``: your own documents (:mod:`ragkit.ingest`), all behind the token.

Graphs run in worker threads (``anyio.to_thread``), never on the event loop, so a slow question does not
stall ``/health``. Endpoints of a graph that changes data (the tool loop) need ``Authorization: Bearer
<RAGKIT_SERVER_TOKEN>`` and are refused when no token is configured. A thread belongs to the graph whose
request first named it (:mod:`ragkit.server.threads`): a request for another graph on it is refused with 409
before anything is written (and, if the owner changes data, with 401 unless it carries the token). Every
error, the framework's own included (unknown route, wrong method, a body that is not JSON), is
``{"error", "message"}`` with a 4xx or 5xx status, never a traceback; while the database cannot be reached it
is a 503 (``database_unavailable``), and the server recovers by itself when the database is back. A request
string may not hold a NUL character (PostgreSQL cannot store one), on every database alike.

``ragkit serve --workers N`` runs N processes of this app (:func:`create_app` is uvicorn's factory, and each
worker reads its settings from the environment); they share the checkpoints, the thread owners and the
bandit through the database, and ``/metrics`` sums them (:mod:`ragkit.server.metrics`).

Simplifications: requests for one thread are serialised by a lock held in each process only, so two workers
can still run one thread at the same moment (the later checkpoint wins); run several replicas behind a load
balancer with PostgreSQL, or LangGraph's own server with ``langgraph.json``.
"""

from __future__ import annotations

import asyncio
import hmac
import http
import json
import logging
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import FastAPI, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from langgraph.types import Command
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException

from ragkit import __version__
from ragkit.core.search import with_score
from ragkit.server.checkpoints import open_checkpointer
from ragkit.server.database import StateDatabase, database_down
from ragkit.server.metrics import Metrics
from ragkit.server.registry import GraphSpec, ResumeError
from ragkit.server.serialize import public_state, to_json, update_json
from ragkit.server.settings import ServerSettings
from ragkit.server.threads import ThreadOwners

THREAD_ID = r"^[A-Za-z0-9_.:-]{1,128}$"
ThreadId = Annotated[str, PathParam(pattern=THREAD_ID)]  # a thread id in a URL is checked as in a request body
LOG = logging.getLogger(__name__)
# Collections change data on the server (and read its files), so they share the token rule.
COLLECTIONS = GraphSpec("collections", "your own documents", build=lambda cp, cm: None, changes_data=True)


class ApiError(Exception):
    """An error the client caused (or should know about), with its HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def no_nul(value: Any) -> Any:
    """``value`` unchanged, unless a string in it (a key or a value, at any depth) holds a NUL character.

    PostgreSQL cannot store NUL in text, so a question or a clarification holding one would fail in the middle
    of its run, after the thread's pause was used up; it is refused here instead, on every database alike.

    >>> no_nul({"user_id": "C001"})
    {'user_id': 'C001'}
    """
    todo = [value]
    while todo:  # a loop, not recursion: a deeply nested body cannot exhaust the stack
        item = todo.pop()
        if isinstance(item, str) and "\x00" in item:
            raise ValueError("text may not contain the NUL character (\\u0000)")
        if isinstance(item, dict):
            todo += [*item, *item.values()]
        elif isinstance(item, list):
            todo += item
    return value


class Body(BaseModel):
    """A JSON request body: no keys but its fields, and no NUL character in any string (see :func:`no_nul`)."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        return no_nul(value)


class RunRequest(Body):
    """A question (or, for the tool loop, a message) and an optional thread id."""

    question: str | None = Field(default=None, max_length=20_000)
    message: str | None = Field(default=None, max_length=20_000)
    thread_id: str | None = Field(default=None, pattern=THREAD_ID)


class ResumeRequest(Body):
    """What a paused thread is waiting for: a clarification string, or a login/approval/code object."""

    value: str | dict[str, Any]


class IngestRequest(Body):
    path: str = Field(min_length=1, max_length=4_096)


class SearchRequest(Body):
    query: str = Field(min_length=1, max_length=2_000)
    k: int = Field(default=4, ge=1, le=50)


class BodyLimit:
    """ASGI middleware: refuse a request body over ``max_bytes`` with 413, counting what actually arrives.

    The body (at most ``max_bytes``) is read before the app sees the request, so a chunked upload without a
    ``content-length`` is refused with the same 413, not halfway through the app's body parsing.
    """

    def __init__(self, app: Any, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_large = f"the request body is over {self.max_bytes:,} bytes"
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            return await _send_json(send, 413, "body_too_large", too_large)
        received, seen = [], 0
        while True:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break  # the client went away: the app sees that as it would have
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                return await _send_json(send, 413, "body_too_large", too_large)
            if not message.get("more_body", False):
                break

        async def replay() -> dict:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


class ErrorsAsJson:
    """ASGI middleware: an exception nothing else handled becomes the project's JSON error (:func:`internal_error`),
    its traceback goes to the server's log, and the connection stays open for the client's next request.

    (Starlette's own last-resort handler answers and then raises again, and uvicorn closes the connection of a
    request that raised, so a client's next request on that keep-alive connection failed with a reset.)
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def watched(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as err:
            if started:  # a response is under way: uvicorn cuts it off, as it must
                raise
            LOG.exception("%s %s failed", scope.get("method"), scope.get("path"))
            await _send_json(send, *internal_error(err))


def internal_error(err: BaseException) -> tuple[int, str, str]:
    """Status, error code and message for a failure the server did not expect: 503 while the database cannot be
    reached (a client may try again), else 500 with the exception's type and the start of its message."""
    if database_down(err):
        return 503, "database_unavailable", "the server's database cannot be reached right now; try again shortly"
    return 500, "internal", f"{type(err).__name__}: {str(err)[:300]}"


def graph_failure(err: BaseException) -> tuple[int, str, str]:
    """Status, error code and message for an exception out of a graph run: a ValueError or TypeError means the
    graph refused the input (422), unless the database failed under it; anything else is :func:`internal_error`."""
    if isinstance(err, (ValueError, TypeError)) and not database_down(err):
        return 422, "invalid_input", str(err)
    return internal_error(err)


async def _send_json(send: Any, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class Runtime:
    """What the endpoints share: settings, the checkpointer, the compiled graphs, metrics, per-thread locks."""

    def __init__(self, settings: ServerSettings, specs: Mapping[str, GraphSpec] | None = None):
        self.settings = settings
        self.stack = ExitStack()
        self.database = StateDatabase(settings.checkpoint_url, settings.state_dir)
        self.stack.callback(self.database.close)
        self.checkpointer = open_checkpointer(settings.checkpoint_url, settings.state_dir, self.stack)
        self.owners = ThreadOwners(self.database)
        self.specs = dict(specs) if specs is not None else settings.graph_specs(self.database)
        chat = settings.chat_model()
        self.graphs = {name: spec.build(self.checkpointer, chat) for name, spec in self.specs.items()}
        bandits = [spec.extras["bandit"] for spec in self.specs.values() if "bandit" in spec.extras]
        self.metrics = Metrics(bandit_stats=bandits[0].stats if bandits else None)
        self.ready = threading.Event()
        self._locks: dict[str, list] = {}  # thread id -> [its lock, how many hold or wait for it]
        self._locks_guard = threading.Lock()
        self._collections: dict[str, tuple[float, Any]] = {}

    def collection(self, name: str) -> Any:
        """A saved collection, opened once and reopened only after it was ingested again or deleted."""
        from ragkit.ingest import load_collection
        from ragkit.ingest.store import collection_path

        stamp_file = collection_path(name) / "collection.json"
        if not stamp_file.is_file():
            raise FileNotFoundError(f"no collection named {name!r}")
        stamp = stamp_file.stat().st_mtime_ns
        with self._locks_guard:
            cached = self._collections.get(name)
        if cached is None or cached[0] != stamp:
            cached = (stamp, load_collection(name))
            with self._locks_guard:
                self._collections[name] = cached
        return cached[1]

    def warm_up(self) -> None:
        """Load the embedding model (the slow part of the first request), then mark the server ready."""
        from ragkit.core.embeddings import load_embedder

        load_embedder().embed_query("warm up")
        self.ready.set()

    @contextmanager
    def lock(self, thread_id: str) -> Iterator[None]:
        """Hold thread ``thread_id``'s lock (one run at a time on a thread, in this process); a lock that nobody
        holds or waits for is dropped, so a long-running server keeps no lock per thread it ever served."""
        with self._locks_guard:
            entry = self._locks.setdefault(thread_id, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._locks_guard:
                entry[1] -= 1
                if not entry[1]:
                    del self._locks[thread_id]

    def spec(self, name: str) -> GraphSpec:
        if name not in self.specs:
            raise ApiError(404, "unknown_graph", f"no graph named {name!r}; GET /graphs lists them: {sorted(self.specs)}")
        return self.specs[name]

    def authorise(self, spec: GraphSpec, request: Request) -> None:
        """Graphs that change data need the bearer token (and are off when none is configured)."""
        if not spec.changes_data:
            return
        token = self.settings.token
        if not token:
            raise ApiError(403, "token_not_configured",
                           f"{spec.name} can change data, so it is off until RAGKIT_SERVER_TOKEN is set on the server")
        given = request.headers.get("authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            raise ApiError(401, "unauthorised", f"{spec.name} needs the header 'Authorization: Bearer <token>'")

    def checkpoint_graph(self, thread_id: str) -> str | None:
        """The graph named in a thread's latest checkpoint (None: no checkpoint; "": one this server did not write)."""
        found = self.checkpointer.get_tuple({"configurable": {"thread_id": thread_id}})
        return None if found is None else str((found.metadata or {}).get("ragkit_graph") or "")

    def thread_graph(self, thread_id: str) -> str:
        """The graph a thread belongs to: its owner row, or for a thread older than that table, its checkpoints'."""
        recorded = self.checkpoint_graph(thread_id)
        name = self.owners.owner(thread_id) or recorded
        if recorded is None or not name or name not in self.specs:
            raise ApiError(404, "unknown_thread", f"no thread {thread_id!r} on this server")
        return name

    def claim(self, thread_id: str, spec: GraphSpec, request: Request) -> None:
        """Make ``thread_id`` ``spec``'s if it is new; refuse (409) a thread that another graph owns.

        Nothing is written for a refused request. A thread whose graph changes data is refused with 401/403
        to a request without the token, so it learns nothing about that thread but that it is protected.
        """
        owner = self.owners.owner(thread_id)
        if owner is None:
            recorded = self.checkpoint_graph(thread_id)
            if recorded == "":
                raise ApiError(409, "thread_not_ours", f"thread {thread_id!r} holds checkpoints this server did not "
                                                       "write; use another thread id")
            owner = self.owners.claim(thread_id, recorded or spec.name)
        if owner == spec.name:
            return
        if owner in self.specs:
            self.authorise(self.specs[owner], request)
        served = "" if owner in self.specs else ", which this server does not serve"
        raise ApiError(409, "thread_of_another_graph", f"thread {thread_id!r} belongs to graph {owner!r}{served}; "
                                                       f"use a new thread id (or none) to run {spec.name}")


def run_config(graph_name: str, thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id}, "metadata": {"ragkit_graph": graph_name}}


def input_text(spec: GraphSpec, body: RunRequest) -> str:
    field = "message" if spec.input_kind == "message" else "question"
    other = "question" if field == "message" else "message"
    if getattr(body, other) is not None:
        raise ApiError(422, "wrong_field", f"{spec.name} takes {field!r}, not {other!r}")
    text = getattr(body, field)
    if text is None:
        raise ApiError(422, "missing_field", f"give {{{field!r}: '...'}} in the JSON body")
    return text


def result_json(graph: Any, name: str, thread_id: str) -> dict[str, Any]:
    """A thread's public state and, when paused, what it waits for."""
    snapshot = graph.get_state({"configurable": {"thread_id": thread_id}})
    pending = [to_json(i.value) for i in snapshot.interrupts]
    return {"graph": name, "thread_id": thread_id, "paused": bool(pending), "interrupt": pending[0] if pending else None,
            "next": list(snapshot.next), "state": public_state(snapshot.values)}


def create_app(settings: ServerSettings | None = None, specs: Mapping[str, GraphSpec] | None = None) -> FastAPI:
    """Build the FastAPI app (``ragkit serve`` runs it with uvicorn)."""
    settings = settings or ServerSettings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime = Runtime(settings, specs)
        app.state.runtime = runtime
        threading.Thread(target=runtime.warm_up, name="ragkit-warm-up", daemon=True).start()
        try:
            yield
        finally:
            runtime.stack.close()

    app = FastAPI(title="ragkit", version=__version__, lifespan=lifespan, description=__doc__.split("\n\n")[0])
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(ErrorsAsJson)  # the outermost: it also answers for anything that fails in BodyLimit

    @app.exception_handler(ApiError)
    async def api_error(request: Request, err: ApiError) -> JSONResponse:
        return JSONResponse({"error": err.code, "message": err.message}, status_code=err.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, err: HTTPException) -> JSONResponse:
        """The framework's own errors (unknown route, wrong method, unreadable body) in the same format."""
        return JSONResponse({"error": framework_code(err.status_code), "message": framework_message(request, err)},
                            status_code=err.status_code, headers=getattr(err, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in err.errors())
        return JSONResponse({"error": "invalid_request", "message": problems}, status_code=422)

    def runtime(request: Request) -> Runtime:
        return request.app.state.runtime

    @app.get("/health")
    async def health() -> dict:
        return {"status": "ok"}

    @app.get("/ready")
    async def ready(request: Request) -> JSONResponse:
        ok = runtime(request).ready.is_set()
        return JSONResponse({"ready": ok}, status_code=200 if ok else 503)

    @app.get("/graphs")
    async def graphs(request: Request) -> list[dict]:
        rt = runtime(request)
        return [{"name": n, "description": s.description, "input": s.input_kind, "changes_data": s.changes_data,
                 "pauses": s.check_resume is not None, "mermaid": rt.graphs[n].get_graph().draw_mermaid()}
                for n, s in rt.specs.items()]

    async def prepared(request: Request, name: str, body: RunRequest) -> tuple[Runtime, GraphSpec, dict, str, str]:
        rt = runtime(request)
        spec = rt.spec(name)
        rt.authorise(spec, request)
        text = input_text(spec, body)
        thread_id = body.thread_id or uuid.uuid4().hex
        await anyio.to_thread.run_sync(rt.claim, thread_id, spec, request)
        return rt, spec, spec.graph_input(text), thread_id, text

    @app.post("/graphs/{name}/invoke")
    async def invoke(name: str, body: RunRequest, request: Request) -> dict:
        rt, spec, graph_input, thread_id, _ = await prepared(request, name, body)
        graph = rt.graphs[name]

        def run() -> dict:
            with rt.lock(thread_id):
                run_graph(rt, name, graph_input, run_config(name, thread_id))
                return result_json(graph, name, thread_id)

        return await anyio.to_thread.run_sync(run)

    @app.post("/graphs/{name}/stream")
    async def stream(name: str, body: RunRequest, request: Request) -> StreamingResponse:
        rt, spec, graph_input, thread_id, _ = await prepared(request, name, body)
        sse = "text/event-stream" in request.headers.get("accept", "")
        events = stream_events(rt, name, graph_input, thread_id)
        media = "text/event-stream" if sse else "application/x-ndjson"
        return StreamingResponse((sse_line(e) if sse else json.dumps(e) + "\n" async for e in events), media_type=media)

    @app.get("/threads/{thread_id}")
    async def thread(thread_id: ThreadId, request: Request) -> dict:
        rt = runtime(request)
        name = await anyio.to_thread.run_sync(rt.thread_graph, thread_id)
        rt.authorise(rt.specs[name], request)
        return await anyio.to_thread.run_sync(result_json, rt.graphs[name], name, thread_id)

    @app.post("/threads/{thread_id}/resume")
    async def resume(thread_id: ThreadId, body: ResumeRequest, request: Request) -> dict:
        rt = runtime(request)
        name = await anyio.to_thread.run_sync(rt.thread_graph, thread_id)
        spec, graph = rt.specs[name], rt.graphs[name]
        rt.authorise(spec, request)

        def run() -> dict:
            with rt.lock(thread_id):
                config = run_config(name, thread_id)
                pending = graph.get_state(config).interrupts
                if not pending:
                    raise ApiError(409, "not_paused", f"thread {thread_id!r} is not paused: there is nothing to resume")
                try:
                    value = spec.check_resume(pending[0].value, body.value) if spec.check_resume else body.value
                except ResumeError as err:
                    raise ApiError(422, "bad_resume", str(err)) from err
                run_graph(rt, name, Command(resume=value), config)
                return result_json(graph, name, thread_id)

        return await anyio.to_thread.run_sync(run)

    def collections_auth(request: Request) -> Runtime:
        rt = runtime(request)
        rt.authorise(COLLECTIONS, request)
        return rt

    @app.get("/collections")
    async def collections(request: Request) -> list[dict]:
        from ragkit.ingest import list_collections

        collections_auth(request)
        return [to_json(info) for info in await anyio.to_thread.run_sync(list_collections)]

    @app.post("/collections/{name}/ingest")
    async def ingest_collection(name: str, body: IngestRequest, request: Request) -> dict:
        from ragkit.ingest import CollectionBusy, IngestError, ingest

        rt = collections_auth(request)
        root = rt.settings.ingest_root
        if root is None:
            raise ApiError(403, "ingest_not_configured", "ingest over HTTP is off until RAGKIT_INGEST_ROOT names the "
                                                         "folder the server may read from")
        target = (root / body.path).resolve() if not body.path.startswith("/") else Path(body.path).resolve()
        if target != root and root not in target.parents:
            raise ApiError(403, "outside_ingest_root", f"{body.path!r} is outside the folder the server may read from")
        try:
            report = await anyio.to_thread.run_sync(lambda: ingest(target, collection=name, progress=False))
        except CollectionBusy as err:
            raise ApiError(409, "busy", str(err)) from err
        except (IngestError, FileNotFoundError, ValueError) as err:
            raise ApiError(422, "ingest_refused", str(err)) from err
        return {**to_json(report), "skipped": [str(s) for s in report.skipped]}

    @app.post("/collections/{name}/search")
    async def search_collection(name: str, body: SearchRequest, request: Request) -> dict:
        rt = collections_auth(request)
        try:
            collection = await anyio.to_thread.run_sync(rt.collection, name)
        except (FileNotFoundError, ValueError) as err:
            raise ApiError(404, "unknown_collection", str(err)) from err
        hits = await anyio.to_thread.run_sync(collection.search_with_scores, body.query, body.k)
        return {"collection": name, "query": body.query,
                "documents": [to_json(with_score(doc, score)) for doc, score in hits]}

    @app.delete("/collections/{name}")
    async def delete(name: str, request: Request) -> dict:
        from ragkit.ingest import CollectionBusy, delete_collection

        collections_auth(request)
        try:
            info = await anyio.to_thread.run_sync(delete_collection, name)
        except (FileNotFoundError, ValueError) as err:  # ValueError: a name no collection can have
            raise ApiError(404, "unknown_collection", str(err)) from err
        except CollectionBusy as err:
            raise ApiError(409, "busy", str(err)) from err
        return {"deleted": to_json(info)}

    @app.get("/metrics")
    async def metrics(request: Request) -> dict:
        return runtime(request).metrics.summary()

    @app.get("/metrics/prometheus")
    async def prometheus(request: Request) -> Response:
        return PlainTextResponse(runtime(request).metrics.prometheus().decode(),
                                 media_type="text/plain; version=0.0.4; charset=utf-8")

    return app


def framework_code(status: int) -> str:
    """The error code for a status the framework raised: its HTTP phrase in snake case.

    >>> framework_code(405), framework_code(404)
    ('method_not_allowed', 'not_found')
    """
    try:
        return http.HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "http_error"


def framework_message(request: Request, err: HTTPException) -> str:
    """A message a client can act on for the framework's own errors."""
    where = f"{request.method} {request.url.path}"
    if err.status_code == 404:
        return f"no endpoint {where}; GET /graphs lists the graphs, GET /docs every endpoint"
    if err.status_code == 405:
        allowed = (getattr(err, "headers", None) or {}).get("Allow", "")
        return f"{where} is not allowed" + (f"; this path takes {allowed}" if allowed else "")
    if err.status_code == 400:
        return "the request body could not be read: send JSON text encoded as UTF-8"
    return str(err.detail) if err.detail else http.HTTPStatus(err.status_code).phrase


def run_graph(rt: Runtime, name: str, graph_input: Any, config: dict) -> None:
    """Run graph ``name`` to its end or its next pause, counting the run, each node's time, and a failure
    (a refused input is a 422, :func:`graph_failure`; anything else goes on to :class:`ErrorsAsJson`)."""
    graph = rt.graphs[name]
    rt.metrics.started(name)
    try:
        for chunk in graph.stream(graph_input, config, stream_mode="updates"):
            record_timings(rt, name, chunk, None)
    except Exception as err:
        rt.metrics.failed(name)
        status, code, message = graph_failure(err)
        if status == 422:
            raise ApiError(status, code, message) from err
        raise
    rt.metrics.finished(graph.get_state(config).values)


def record_timings(rt: Runtime, graph: str, chunk: Mapping[str, Any], since: float | None) -> list[tuple[str, float]]:
    """Record each node's time from its trace (or, for untraced nodes, the wall time since the last update)."""
    out = []
    now = time.perf_counter()
    for node, update in chunk.items():
        if node == "__interrupt__":
            continue
        traced = [s for n, s in (update or {}).get("timings", []) if n == node] if isinstance(update, Mapping) else []
        seconds = float(sum(traced)) if traced else (now - since if since is not None else 0.0)
        rt.metrics.node(graph, node, seconds)
        out.append((node, seconds))
    return out


async def stream_events(rt: Runtime, name: str, graph_input: dict, thread_id: str) -> AsyncIterator[dict]:
    """Run the graph in a worker thread and yield its events as they happen (the first before the run ends)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    graph = rt.graphs[name]

    def emit(event: dict | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, event)

    def produce() -> None:
        config = run_config(name, thread_id)
        with rt.lock(thread_id):
            rt.metrics.started(name)
            last = time.perf_counter()
            try:
                for chunk in graph.stream(graph_input, config, stream_mode="updates"):
                    timings = dict(record_timings(rt, name, chunk, last))
                    last = time.perf_counter()
                    for node, update in chunk.items():
                        if node == "__interrupt__":
                            emit({"event": "interrupt", "thread_id": thread_id, "value": to_json(update[0].value)})
                            continue
                        keys, values = update_json(update)
                        emit({"event": "updates", "node": node, "keys": keys, "update": values,
                              "seconds": round(timings.get(node, 0.0), 6)})
                rt.metrics.finished(graph.get_state(config).values)
                emit({"event": "end", **result_json(graph, name, thread_id)})
            except Exception as err:  # noqa: BLE001 - reported to the client as an error event, never a traceback
                rt.metrics.failed(name)
                _, code, message = graph_failure(err)
                emit({"event": "error", "error": code, "message": message})
            finally:
                emit(None)

    yield {"event": "metadata", "graph": name, "thread_id": thread_id}
    worker = threading.Thread(target=produce, name=f"ragkit-{name}", daemon=True)
    worker.start()
    while (event := await queue.get()) is not None:
        yield event


def sse_line(event: dict) -> str:
    """One Server-Sent Event: ``event: <name>`` and ``data: <json>``.

    >>> sse_line({"event": "end", "paused": False})
    'event: end\\ndata: {"event": "end", "paused": false}\\n\\n'
    """
    return f"event: {event['event']}\ndata: {json.dumps(event)}\n\n"


__all__ = ["ApiError", "create_app", "framework_code", "sse_line"]
