"""Golden-set replay: run every question of a golden set through a graph and score what came back.

A golden set is JSONL, one ``{"question", "reference_answer", "reference_context_ids", "category"}`` per
line (``data/eval/handbook_golden.jsonl``, ``data/eval/statute_golden.jsonl``). :func:`replay` runs each
question in process (through the server's graph registry) or against a running ``ragkit serve``
(:class:`ServerRunner`), and returns one result per question: the answer, the contexts it was written from,
per-node timings, tokens when a chat model reported them, and the offline scores of
:mod:`ragkit.evaluation.metrics`. :func:`summarise` gives mean and standard deviation per category.

Simplifications: against a server, contexts arrive summarised (their first 300 characters), so
faithfulness, which needs the full text, is scored in process only; "refused" is read from the state's own
signals (an ``outcome`` of "refused", an ``Answer`` with ``answered=False``) or the writers' refusal text.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragkit.evaluation.metrics import context_precision, context_recall, exact_match, token_f1

CONTEXT_KEYS = ("sources", "reranked", "documents", "kept", "candidates", "articles", "retrieved")
REQUIRED = ("question", "reference_answer", "reference_context_ids", "category")


@dataclass(frozen=True)
class GoldenItem:
    question: str
    reference_answer: str
    reference_context_ids: tuple[str, ...]
    category: str
    id: str


def load_golden(path: str | Path) -> tuple[list[GoldenItem], str | None]:
    """The items of a JSONL golden set, and its sha256 when it is a frozen set under ``data/eval``."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"golden set not found: {path}")
    items = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not UTF-8 text (byte {err.start}); save it as UTF-8") from err
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            if not items and _one_document(text):
                raise ValueError(f"{path} is one JSON document, not JSON Lines: a golden set has one JSON object per "
                                 f"line, with the keys {list(REQUIRED)} (like data/eval/handbook_golden.jsonl)") from err
            raise ValueError(f"{path}, line {n}: not JSON ({err.msg})") from err
        if not isinstance(row, dict):
            raise ValueError(f"{path}, line {n}: a JSON object is needed, with the keys {list(REQUIRED)}; got {type(row).__name__}")
        missing = [key for key in REQUIRED if key not in row]
        if missing:
            raise ValueError(f"{path}, line {n}: missing {missing}; each line needs {list(REQUIRED)}")
        ids = row["reference_context_ids"]
        if not isinstance(ids, list) or not all(isinstance(i, (str, int)) for i in ids):
            raise ValueError(f"{path}, line {n}: reference_context_ids must be a list of ids, such as [\"HB-03\"]; "
                             f"got {ids!r}")
        items.append(GoldenItem(str(row["question"]), str(row["reference_answer"]), tuple(row["reference_context_ids"]),
                                str(row["category"]), str(row.get("id", n))))
    if not items:
        raise ValueError(f"{path}: no items")
    from ragkit.goldsets import check_frozen, eval_dir

    digest = check_frozen(path) if path.resolve().parent == eval_dir().resolve() else None
    return items, digest


def _one_document(text: str) -> bool:
    """Whether the text is a single JSON document spread over several lines (a .json file, not JSON Lines)."""
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def _field(doc: Any, key: str) -> Any:
    if isinstance(doc, Mapping):
        return doc.get(key)
    if key == "text":
        return getattr(doc, "page_content", None)
    return (getattr(doc, "metadata", None) or {}).get(key)


def _attr(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)


def answer_of(state: Mapping[str, Any]) -> tuple[str, bool]:
    """The answer text of a final state (any ragkit graph, raw or as server JSON) and whether it refused."""
    from ragkit.roles.protocols import is_refusal

    answer, refused = state.get("answer"), state.get("outcome") == "refused"
    if isinstance(answer, str):
        text = answer
    else:  # the RAG graphs keep the text in "generation" and an Answer (or its JSON) in "answer"
        text = str(state.get("generation") or _attr(answer, "text") or "")
        refused = refused or _attr(answer, "answered") is False
    if not text and state.get("messages"):  # the tool loop: the last message
        text = str(_attr(state["messages"][-1], "content") or "")
    return text, refused or is_refusal(text)


def contexts_of(state: Mapping[str, Any]) -> list[Any]:
    """The documents the answer was written from: the first non-empty of the graphs' document fields."""
    return next((list(state[k]) for k in CONTEXT_KEYS if state.get(k)), [])


def node_timings(state: Mapping[str, Any]) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for name, seconds in state.get("timings") or []:
        totals[str(name)] += float(seconds)
    return {k: round(v, 6) for k, v in totals.items()}


class InProcessRunner:
    """Runs a registered graph in this process (local roles, or the chat model given)."""

    def __init__(self, graph: str, chat_model: Any = None):
        from langgraph.checkpoint.memory import InMemorySaver

        from ragkit.server.registry import default_specs

        specs = default_specs()
        if graph not in specs:
            raise ValueError(f"unknown graph {graph!r}; choose one of {sorted(specs)}")
        self.name, self.spec = graph, specs[graph]
        self.graph = self.spec.build(InMemorySaver(), chat_model)
        self.full_contexts = True

    def run(self, question: str, thread_id: str) -> dict[str, Any]:
        return self.graph.invoke(self.spec.graph_input(question), {"configurable": {"thread_id": thread_id}})


class ServerRunner:
    """Runs a graph on a running ``ragkit serve`` through :class:`ragkit.server.client.RagkitClient`."""

    def __init__(self, url: str, graph: str, token: str | None = None, timeout: float = 300):
        from ragkit.server.client import RagkitClient

        self.client = RagkitClient(url, token=token, timeout=timeout)
        self.name, self.full_contexts = graph, False
        kinds = {g["name"]: g["input"] for g in self.client.graphs()}
        if graph not in kinds:
            raise ValueError(f"the server at {url} has no graph {graph!r}; it has {sorted(kinds)}")
        self.field = "message" if kinds[graph] == "message" else "question"

    def run(self, question: str, thread_id: str) -> dict[str, Any]:
        return self.client.invoke(self.name, question, thread_id, field=self.field)["state"]


def score_item(item: GoldenItem, state: Mapping[str, Any], seconds: float, full_contexts: bool, grader: Any) -> dict:
    """One result row: what came back and its offline scores."""
    text, refused = answer_of(state)
    contexts = contexts_of(state)
    ids = [str(_field(d, "id")) for d in contexts]
    scores = {"exact_match": exact_match(text, item.reference_answer), "token_f1": round(token_f1(text, item.reference_answer), 4),
              "refused": float(refused), "context_precision": context_precision(ids, item.reference_context_ids),
              "context_recall": context_recall(ids, item.reference_context_ids), "faithfulness": None}
    if full_contexts and grader is not None and contexts and not refused:
        from langchain_core.documents import Document

        docs = [d if isinstance(d, Document) else Document(str(_field(d, "text") or "")) for d in contexts]
        scores["faithfulness"] = float(grader.check(docs, text).grounded)
    return {"id": item.id, "question": item.question, "category": item.category, "answer": text,
            "contexts": [{"id": i, "text": str(_field(d, "text") or "")[:500]} for i, d in zip(ids, contexts)],
            "reference_context_ids": list(item.reference_context_ids), "seconds": round(seconds, 4),
            "node_seconds": node_timings(state), "tokens": state.get("tokens"), "scores": scores}


def replay(items: Sequence[GoldenItem], runner: Any, grader: Any = None, progress: bool = True) -> list[dict]:
    """Run every item through ``runner`` and score it; a failing run is recorded with its error, not raised."""
    from ragkit.core.embeddings import progress_bar

    bar = progress_bar(len(items), f"replay {runner.name}", unit="question", min_total=1 if progress else 10**9)
    rows = []
    for n, item in enumerate(items):
        started = time.perf_counter()
        try:
            state = runner.run(item.question, thread_id=f"eval-{runner.name}-{n}")
            rows.append(score_item(item, state, time.perf_counter() - started, runner.full_contexts, grader))
        except Exception as err:  # noqa: BLE001 - one failing question must not stop the replay
            rows.append({"id": item.id, "question": item.question, "category": item.category,
                         "error": f"{type(err).__name__}: {err}", "scores": {}})
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows


def summarise(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """Per category (and "all"): mean, standard deviation and n of every score that has values."""
    groups: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        for category in (row["category"], "all"):
            groups[category]["errors"].append(float("error" in row))
            for metric, value in row.get("scores", {}).items():
                if value is not None:
                    groups[category][metric].append(float(value))
    return {category: {metric: {"mean": round(statistics.fmean(v), 4), "std": round(statistics.pstdev(v), 4), "n": len(v)}
                       for metric, v in sorted(metrics.items()) if v}
            for category, metrics in sorted(groups.items())}


def format_summary(summary: Mapping[str, Mapping[str, Mapping[str, float]]]) -> str:
    """A text table: one row per category, mean (std) per metric."""
    metrics = ["exact_match", "token_f1", "refused", "context_precision", "context_recall", "faithfulness", "errors"]
    head = f"{'category':<14}" + "".join(f"{m:>19}" for m in metrics)
    lines = [head]
    for category, row in summary.items():
        cells = [f"{row[m]['mean']:.3f} ({row[m]['std']:.2f})" if m in row else "-" for m in metrics]
        lines.append(f"{category:<14}" + "".join(f"{c:>19}" for c in cells))
    return "\n".join(lines)


__all__ = ["GoldenItem", "InProcessRunner", "ServerRunner", "answer_of", "contexts_of", "format_summary", "load_golden",
           "replay", "score_item", "summarise"]
