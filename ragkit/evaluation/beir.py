"""Load any retrieval test collection in BEIR format from a folder.

A BEIR folder holds ``corpus.jsonl`` (one ``{"_id", "title", "text"}`` object a line), ``queries.jsonl``
(``{"_id", "text"}``) and ``qrels/<split>.tsv`` (``query-id<TAB>corpus-id<TAB>score``, with an optional
header line). ``load_beir`` reads the three, keeps only the queries that have judgements in the split,
and names the file and line of anything malformed.

Simplification: everything is read into memory (fine for BEIR's smaller sets: SciFact is 5,183 abstracts).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from langchain_core.documents import Document


@dataclass(frozen=True)
class BeirData:
    """A loaded collection: ``corpus[id] = {"title", "text"}``, ``queries[id] = text``, ``qrels[qid][docid] = grade``."""

    corpus: dict[str, dict[str, str]]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    split: str

    def documents(self) -> list[Document]:
        """The corpus as LangChain Documents: text = title + " " + text, ``metadata = {"id", "title"}``."""
        return [
            Document(page_content=f"{d['title']} {d['text']}".strip(), metadata={"id": doc_id, "title": d["title"]}, id=doc_id)
            for doc_id, d in self.corpus.items()
        ]


def _read_jsonl(path: Path, required: tuple[str, ...]) -> list[dict]:
    if not path.is_file():
        raise FileNotFoundError(f"BEIR folder is missing {path.name}: expected it at {path}")
    rows = []
    with path.open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}, line {line_no}: not valid JSON ({err.msg})") from err
            if not isinstance(row, dict):
                raise ValueError(f"{path}, line {line_no}: expected a JSON object, got {type(row).__name__}")
            missing = [key for key in required if key not in row]
            if missing:
                raise ValueError(f"{path}, line {line_no}: missing field(s) {missing}")
            rows.append(row)
    return rows


def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    if not path.is_file():
        available = sorted(p.stem for p in path.parent.glob("*.tsv")) if path.parent.is_dir() else []
        raise FileNotFoundError(f"BEIR folder has no qrels for this split: {path} is missing (splits found: {available})")
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            parts = line.rstrip("\r\n").split("\t")
            if line_no == 1 and parts[0] in ("query-id", "query_id", "qid"):
                continue  # header
            if not line.strip():
                continue
            if len(parts) != 3:
                raise ValueError(f"{path}, line {line_no}: expected 3 tab-separated columns (query-id, corpus-id, score), got {len(parts)}")
            try:
                grade = int(parts[2])
            except ValueError as err:
                raise ValueError(f"{path}, line {line_no}: score {parts[2]!r} is not an integer") from err
            qrels.setdefault(parts[0], {})[parts[1]] = grade
    return qrels


def load_beir(folder: str | Path, split: str = "test") -> BeirData:
    """Read a BEIR folder; ``split`` picks ``qrels/<split>.tsv`` and the queries judged in it.

    >>> data = load_beir("../shared/datasets/scifact", "test")   # doctest: +SKIP
    >>> len(data.corpus), len(data.queries)                       # doctest: +SKIP
    (5183, 300)
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"BEIR folder not found: {folder} (expected corpus.jsonl, queries.jsonl, qrels/)")
    corpus = {
        str(row["_id"]): {"title": str(row.get("title") or ""), "text": str(row.get("text") or "")}
        for row in _read_jsonl(folder / "corpus.jsonl", ("_id",))
    }
    if not corpus:
        raise ValueError(f"{folder / 'corpus.jsonl'} holds no documents: the corpus is empty")
    all_queries = {str(row["_id"]): str(row["text"]) for row in _read_jsonl(folder / "queries.jsonl", ("_id", "text"))}
    qrels = _read_qrels(folder / "qrels" / f"{split}.tsv")
    unknown = sorted(set(qrels) - set(all_queries))
    if unknown:
        raise ValueError(f"qrels/{split}.tsv judges {len(unknown)} query id(s) absent from queries.jsonl, e.g. {unknown[:3]}")
    queries = {qid: text for qid, text in all_queries.items() if qid in qrels}
    return BeirData(corpus=corpus, queries=queries, qrels=qrels, split=split)
