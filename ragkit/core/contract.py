"""The input and error policy of every ragkit graph, written once and applied by each of them.

1. **Input is checked before any work.** A question (or, in the tool loop, the user's message) must be a
   non-empty string of at most ``max_question_chars`` characters (default
   :data:`ragkit.defaults.GRAPHS`.max_question_chars, 2,000). Each graph's first node calls
   :func:`check_question`, so ``graph.invoke`` raises a ``ValueError`` (``TypeError`` for a non-string)
   before any search, model or embedder is touched. Every builder takes ``max_question_chars=`` (up to the
   library's hard cap :data:`ragkit.core.nlp.MAX_QUERY_CHARS`), and the error message names it.
2. **A search or a tool that raises is an outcome, not a crash.** :func:`run_search` catches the error and
   returns no documents with a note saying what failed; the node writes the note into the state
   (``search_note``, and ``search_failed=True``) and the graph takes its "found nothing" path, which says
   so to the user. A tool that raises becomes an error ``ToolMessage``, and the order store is rolled back.
3. **A role that fails takes its documented safe default.** LLM roles turn a failed or malformed call into
   a value with ``fallback=True``; a node whose role raises anyway records it (``route_note``,
   ``judge_note``) and takes the safe branch. Programming errors in ragkit itself are not hidden.
4. **Every loop has a cap in the state**, and a test proves the run ends within it.
5. **A question the models cannot read is told so.** With local roles, a question in a language they do
   not read (:mod:`ragkit.core.nlp`) gets a plain message saying so, written by the graph's
   ``unsupported_language`` node, instead of a route or a refusal as if it were out of scope; with a chat
   model it goes through unchanged. The entry node writes ``language_note`` (None when readable).

>>> check_question("  Is the soup vegan? ", 2000, "build_self_rag_graph")
'Is the soup vegan?'
>>> check_question("x" * 30, 10, "build_self_rag_graph")
Traceback (most recent call last):
...
ValueError: question is 30 characters long; the limit is 10. Shorten it, or build the graph with build_self_rag_graph(max_question_chars=...) for longer questions.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from langchain_core.documents import Document

from ragkit.core.nlp import MAX_QUERY_CHARS, clean_query, offline_language_note
from ragkit.core.search import ScoredSearch, with_score
from ragkit.defaults import GRAPHS

DEFAULT_MAX_QUESTION_CHARS = GRAPHS.max_question_chars


def check_limit(max_chars: object, name: str = "max_question_chars") -> int:
    """A builder's character limit: a whole number from 1 to the library's hard cap."""
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or not 1 <= max_chars <= MAX_QUERY_CHARS:
        raise ValueError(f"{name} must be a whole number from 1 to {MAX_QUERY_CHARS:,}, got {max_chars!r}")
    return max_chars


def check_question(question: object, max_chars: int, builder: str, what: str = "question",
                   arg: str = "max_question_chars") -> str:
    """The question, stripped; a clear error for a non-string, an empty one, or one over ``max_chars``."""
    if question is None:
        raise ValueError(f"no {what} given: invoke the graph with {{{what!r}: '...'}}"
                         + (" (to answer a pause, resume the paused thread instead)" if what == "question" else ""))
    hint = f"Shorten it, or build the graph with {builder}({arg}=...) for longer {what}s."
    return clean_query(question, max_chars=max_chars, what=what, hint=hint)


@dataclass(frozen=True)
class SearchOutcome:
    """What one search gave: documents (copies with ``metadata["score"]``), a note, and whether it failed."""

    documents: list[Document]
    note: str
    failed: bool = False


def run_search(source: ScoredSearch, query: str, k: int, what: str = "search") -> SearchOutcome:
    """Search ``source`` for ``query``; an exception becomes a failed outcome with the error in its note.

    >>> class Broken:
    ...     def search_with_scores(self, query, k=None): raise ConnectionError("index offline")
    >>> run_search(Broken(), "q", 4, "menu search")
    SearchOutcome(documents=[], note='menu search failed (ConnectionError: index offline)', failed=True)
    """
    try:
        hits = source.search_with_scores(query, k)
    except Exception as err:  # noqa: BLE001 - policy 2: a failing search is reported, never raised
        return SearchOutcome([], f"{what} failed ({type(err).__name__}: {err})", failed=True)
    docs = [with_score(doc, score) for doc, score in hits]
    if not docs:
        return SearchOutcome([], f"{what} found nothing for this question")
    return SearchOutcome(docs, f"{what} returned {len(docs)} documents")


def language_note(question: str, chat_model_set: bool) -> str | None:
    """Policy 5: None when the graph's roles can read the question, else the message to answer with."""
    return offline_language_note(question, chat_model_set)


# ---------------------------------------------------------------------- trace
# Record which nodes a run visited, and how long each took, inside the graph state.
#
# Wrap a node with :func:`traced` and it appends its name to ``path`` and its wall-clock time to
# ``timings``. Both are state keys with reducers, so parallel branches and loops add up correctly. Timings
# change from run to run, so notebooks print ``path`` (deterministic) and only plot timings, never print them.
#
# >>> from typing import Annotated, TypedDict
# >>> class S(TypedDict, total=False):
# ...     x: int
# ...     path: Annotated[list[str], add_path]
# ...     timings: Annotated[list[tuple[str, float]], add_path]
# >>> node = traced("double")(lambda state: {"x": state["x"] * 2})
# >>> update = node({"x": 3})
# >>> update["x"], update["path"]
# (6, ['double'])


F = TypeVar("F", bound=Callable[..., Any])


def add_path(left: list | None, right: list | None) -> list:
    """Reducer for ``path`` and ``timings``: concatenate; ``None`` counts as empty.

    >>> add_path(["a"], ["b"])
    ['a', 'b']
    """
    return list(left or []) + list(right or [])


def traced(name: str) -> Callable[[F], F]:
    """Decorator: the node's update also carries ``path: [name]`` and ``timings: [(name, seconds)]``."""

    def wrap(node: F) -> F:
        @functools.wraps(node)
        def run(state: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            update = node(state, *args, **kwargs)
            elapsed = time.perf_counter() - start
            if update is None:
                update = {}
            if isinstance(update, dict):
                update = {**update, "path": [name], "timings": [(name, round(elapsed, 6))]}
            return update

        return run  # type: ignore[return-value]

    return wrap


def timings_by_node(timings: list[tuple[str, float]]) -> dict[str, float]:
    """Total seconds per node name.

    >>> timings_by_node([("a", 0.5), ("b", 1.0), ("a", 0.25)])
    {'a': 0.75, 'b': 1.0}
    """
    totals: dict[str, float] = {}
    for name, seconds in timings:
        totals[name] = totals.get(name, 0.0) + seconds
    return totals



# ---------------------------------------------------------------- documents and answers handed to a role
MAX_ANSWER_CHARS = 20_000  # an answer longer than this is not an answer to check sentence by sentence
MAX_DOCUMENT_CHARS = 100_000  # one Document above this is an unsplit corpus, not a retrieved passage
MAX_DOCUMENTS = 200


def check_documents(documents: Sequence[Document], what: str = "documents") -> list[Document]:
    """Check a list of Documents (type, count, size) and return it as a list; raise a clear error otherwise."""
    if isinstance(documents, (str, Document)):
        raise TypeError(f"{what} must be a list of Documents, not a single {type(documents).__name__}")
    documents = list(documents)
    if len(documents) > MAX_DOCUMENTS:
        raise ValueError(f"{what}: {len(documents)} documents given; the limit is {MAX_DOCUMENTS}")
    for i, doc in enumerate(documents):
        if not isinstance(doc, Document):
            raise TypeError(f"{what}[{i}] is a {type(doc).__name__}, not a langchain Document")
        if len(doc.page_content) > MAX_DOCUMENT_CHARS:
            raise ValueError(
                f"{what}[{i}] is {len(doc.page_content):,} characters long; the limit is {MAX_DOCUMENT_CHARS:,}. "
                "Split long texts into passages before grading or writing from them."
            )
    return documents


def check_answer(answer: object, max_chars: int = MAX_ANSWER_CHARS) -> str:
    """Check an answer string (type and size) and return it stripped; an empty answer is allowed."""
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a string, got {type(answer).__name__}")
    if len(answer) > max_chars:
        raise ValueError(f"answer is {len(answer):,} characters long; the limit is {max_chars:,}")
    return answer.strip()

__all__ = ['MAX_ANSWER_CHARS', 'MAX_DOCUMENTS', 'MAX_DOCUMENT_CHARS', 'check_answer', 'check_documents', 'DEFAULT_MAX_QUESTION_CHARS', 'SearchOutcome', 'check_limit', 'check_question', 'language_note', 'run_search']
