"""The offline web: saved articles in ``data/web/*.md`` and a search tool over them (BM25), one Document each.

Each file opens with a ``---`` front matter of ``key: value`` lines (title, url, date, topic); the body
follows (:func:`load_web_snapshot`). :class:`OfflineWebSearch` is a LangChain tool named ``web_search``
with the interface of a real search tool (such as Tavily's): it takes a query and an optional
``max_results`` and returns a ranked list of ``{"url", "title", "content", "score"}``, so an agent calls it
exactly as it would call the real thing and swapping in a live search changes one line. It also speaks
ragkit's retrieval protocol, ``search_with_scores(query, k)``, so a graph searches it like any retriever.

Simplifications: the front matter is a flat ``key: value`` block, not full YAML; the "web" is 30 fixed
articles about the fictional town of Porto Calvera, ranked with BM25 (rank-bm25's Okapi with Lucene's
never-negative idf, ``ragkit.core.bm25.LuceneIdfBM25``, at rank-bm25's default k1 and b) over title and
text, with ragkit's analyzer, which folds accents (so "cafe" finds "café"). There is no freshness, no
snippet extraction (``content`` is the whole short article) and no network. Articles that share no term
with the query are not returned, so a search can come back empty.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.documents import Document
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field, PrivateAttr

from ragkit.core.bm25 import LuceneIdfBM25
from ragkit.core.contract import DataError
from ragkit.core.files import locate, read_text, unique_ids
from ragkit.core.nlp import clean_query, tokenize

WEB_FIELDS = ("title", "url", "date", "topic")
MAX_RESULTS_LIMIT = 20


def parse_front_matter(path: Path, text: str) -> tuple[dict[str, str], str]:
    """Split ``---`` / ``key: value`` lines / ``---`` from the body of a Markdown file.

    >>> parse_front_matter(Path("a.md"), "---\\ntitle: Hi\\n---\\nBody text.")
    ({'title': 'Hi'}, 'Body text.')
    """
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise DataError(f"{path}: line 1 should be '---', the start of the front matter (title, url, date, topic)")
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return meta, "\n".join(lines[number:]).strip()
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise DataError(f"{path}: line {number} of the front matter is not 'key: value': {line!r}")
        meta[key.strip().lower()] = value.strip().strip("\"'")
    raise DataError(f"{path}: the front matter that opens on line 1 is never closed with '---'")


def load_web_snapshot(path: str | Path | None = None) -> list[Document]:
    """One Document per article in ``web/*.md`` (sorted by file name); id is the file stem, source the url."""
    folder = locate(path, "web", "a folder of Markdown articles (*.md) with front matter", want_dir=True)
    files = sorted(folder.glob("*.md"))
    if not files:
        raise DataError(f"{folder}: no Markdown articles (*.md) found; the web snapshot is empty")
    docs = []
    for file in files:
        meta, body = parse_front_matter(file, read_text(file))
        for field in WEB_FIELDS:
            if not meta.get(field):
                raise DataError(f"{file}: the front matter is missing the required field {field!r}")
        if not body:
            raise DataError(f"{file}: the article has a front matter but no text")
        # Extra front-matter keys (author, ...) ride along; the fixed keys always win.
        fixed = {"source": meta["url"], "id": file.stem, "file": f"{folder.name}/{file.name}"}
        docs.append(Document(page_content=body, metadata={**meta, **fixed}))
    return unique_ids(folder, docs)


class WebSearchInput(BaseModel):
    """The arguments a model fills in when it calls ``web_search``."""

    query: str = Field(description="What to look up, in a few plain words, e.g. 'ferry timetable Isola Verde'.")
    max_results: int = Field(default=5, ge=1, le=MAX_RESULTS_LIMIT, description="How many results to return.")


class OfflineWebSearch(BaseTool):
    """Search a saved snapshot of the web (news, events, travel, food and wine articles) with BM25.

    >>> search = OfflineWebSearch()
    >>> search.invoke({"query": "ferry to Isola Verde", "max_results": 1})[0]["title"]
    'Summer ferry timetable: more crossings to Isola Verde'
    """

    name: str = "web_search"
    description: str = (
        "Search the web for current or outside information: local news, events, weather, travel, "
        "new places to eat, and general food and wine articles. Input: a search query. Returns a list "
        "of results, each with url, title, content and score, best first."
    )
    args_schema: type[BaseModel] = WebSearchInput
    documents: list[Document] = Field(default_factory=list, description="The articles searched.")

    _bm25: LuceneIdfBM25 = PrivateAttr()

    @property
    def docs(self) -> list[Document]:
        """The articles searched (as ragkit's retrievers keep theirs: a router reads them as corpus evidence)."""
        return self.documents

    def __init__(self, documents: list[Document] | None = None, path: str | Path | None = None, **kwargs: Any):
        """Index ``documents``, or the articles in ``path`` (default: the project's ``data/web``)."""
        docs = list(documents) if documents is not None else load_web_snapshot(path)
        if not docs:
            raise DataError("OfflineWebSearch needs at least one document to search")
        super().__init__(documents=docs, **kwargs)
        self._bm25 = LuceneIdfBM25([tokenize(self._index_text(d)) or ["\x00"] for d in docs])

    @staticmethod
    def _index_text(doc: Document) -> str:
        return f"{doc.metadata.get('title', '')}\n{doc.page_content}"

    def search_with_scores(self, query: str, k: int | None = 4) -> list[tuple[Document, float]]:
        """The ``k`` best ``(document, score)`` pairs; ties broken by document id so the order never wobbles."""
        k = 4 if k is None else k
        query = clean_query(query, what="web search query")
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise ValueError(f"the number of results must be a positive whole number, got {k!r}")
        terms = tokenize(query)
        if not terms:
            return []  # only stopwords ("what is the"): nothing to match
        scores = self._bm25.get_scores(terms)
        hits = [(round(float(s), 6), str(d.metadata.get("id", i)), i) for i, (d, s) in
                enumerate(zip(self.documents, scores)) if s > 0]
        hits.sort(key=lambda hit: (-hit[0], hit[1]))
        return [(self.documents[i], score) for score, _, i in hits[:k]]

    def search(self, query: str, max_results: int = 5) -> list[dict[str, Any]]:
        """Results as a web search API returns them: ``url``, ``title``, ``content``, ``score`` (rounded)."""
        return [
            {"url": d.metadata.get("url", d.metadata.get("source", "")), "title": d.metadata.get("title", ""),
             "content": d.page_content, "score": round(score, 4)}
            for d, score in self.search_with_scores(query, max_results)
        ]

    def _run(
        self, query: str, max_results: int = 5, run_manager: CallbackManagerForToolRun | None = None
    ) -> list[dict[str, Any]]:
        return self.search(query, max_results)


__all__ = ["MAX_RESULTS_LIMIT", "OfflineWebSearch", "WEB_FIELDS", "WebSearchInput", "load_web_snapshot", "parse_front_matter"]
