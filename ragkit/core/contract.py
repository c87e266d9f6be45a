"""The contract every ragkit graph keeps; whoever consumes a graph relies on these and nothing else.

1. **Input is checked first** (:func:`check_question_node`), before any search, model or embedder is touched;
   characters that show nothing (:func:`visible`) are dropped first, so a question of them is empty.
2. **A search that fails at run time is an outcome** (:func:`ragkit.core.search.run_search`), not a crash;
   a setup error is raised with its fix (:data:`SETUP_ERRORS`).
3. **A role that fails takes its documented safe default** (``fallback=True``).
4. **Every loop has a cap in the state**, and a test proves the run ends within it.
5. **A question the models cannot read is told so** (:func:`unsupported_language`).
6. **One result**: every RAG graph ends with the :class:`RAGResult` fields.
7. **Every node is traced** (:func:`traced`): ``path`` and ``timings`` (which vary, so notebooks only plot them).
8. **Refusing is one dial** (:func:`answers_at`): a run keeps its answer only when its ``confidence`` reaches
   the builder's ``refuse_below``.

>>> check_question("x" * 30, 10, "build_self_rag_graph")
Traceback (most recent call last):
...
ValueError: question is 30 characters long; the limit is 10. Shorten it, or build the graph with build_self_rag_graph(max_question_chars=...) for longer questions.
"""

from __future__ import annotations

import functools
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypedDict, TypeVar

from langchain_core.documents import Document
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from ragkit.core.nlp import MAX_QUERY_CHARS, clean_query, offline_language_note


class DataError(ValueError):
    """A data file exists but cannot be used (bad JSON, a missing field, no sections, an empty corpus)."""


class DataNotFound(FileNotFoundError):
    """A workbook folder or data file is missing."""


SETUP_ERRORS = (FileNotFoundError, DataError, ImportError)  # raised with their fix, never an "outcome"
F = TypeVar("F", bound=Callable[..., Any])

Outcome = Literal["answered", "refused", "asked_back"]


# ---------------------------------------------------------------- tracing
def add_path(left: list | None, right: list | None) -> list:
    """Reducer for ``path`` and ``timings``: concatenate; ``None`` counts as empty.

    >>> add_path(["a"], ["b"])
    ['a', 'b']
    """
    return list(left or []) + list(right or [])


def traced(name: str) -> Callable[[F], F]:
    """Decorator: the node's update also carries ``path: [name]`` and ``timings: [(name, seconds)]``.

    >>> node = traced("double")(lambda state: {"x": state["x"] * 2})
    >>> update = node({"x": 3})
    >>> update["x"], update["path"]
    (6, ['double'])
    """

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


# ---------------------------------------------------------------- the result every RAG graph ends with
class RAGResult(TypedDict, total=False):
    """The fields every RAG graph's final state carries (a graph's own state extends this)."""

    question: str
    answer: str
    sources: list[Document]
    outcome: Outcome
    citations: list[int]  # 1-based numbers into ``sources`` that the answer cites
    reason: str  # why this outcome: the checks passed, the refusal's cause, what was asked back
    # The grader's best score among the documents the answer is written from (None: nothing was scored): it
    # ranks runs of one graph with the same roles, it is not the probability that the answer is right.
    confidence: float | None
    language_note: str | None  # set by the entry node when the local roles cannot read the question
    path: Annotated[list[str], add_path]
    timings: Annotated[list[tuple[str, float]], add_path]


def result(answer: str, outcome: Outcome, reason: str, sources: Sequence[Document] = (),
           citations: Sequence[int] = ()) -> RAGResult:
    """The result fields as a state update (citations outside ``sources`` are dropped).

    >>> result("Six cost 14 euros [1].", "answered", "verified", [Document("Six oysters cost 14 euros.")], [1, 3])["citations"]
    [1]
    """
    sources = list(sources)
    cited = sorted({int(n) for n in citations if 1 <= int(n) <= len(sources)})
    return {"answer": answer, "outcome": outcome, "reason": reason, "sources": sources, "citations": cited}


# ---------------------------------------------------------------- the refusal dial
def check_threshold(value: object, name: str = "refuse_below") -> float:
    """A refusal bar: a finite real number (the scores it is compared with are a grader's, usually 0-1).

    >>> check_threshold(0.3)
    0.3
    >>> check_threshold("high")
    Traceback (most recent call last):
    ...
    ValueError: refuse_below must be a finite number (a score the run's confidence must reach), got 'high'
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or abs(value) == float("inf"):
        raise ValueError(f"{name} must be a finite number (a score the run's confidence must reach), got {value!r}")
    return float(value)


def answers_at(confidence: float | None, refuse_below: float) -> bool:
    """The dial: a run that reached an answer keeps it when its confidence reaches the bar (or it has no score).

    >>> answers_at(0.4, 0.3), answers_at(0.4, 0.5), answers_at(0.4, 0.4), answers_at(None, 0.5)
    (True, False, True, True)
    """
    return confidence is None or confidence >= refuse_below


def low_confidence_note(confidence: float | None, refuse_below: float) -> str:
    """Why the dial refused, for a result's ``reason``.

    >>> low_confidence_note(0.123, 0.3)
    'confidence 0.123 is below refuse_below 0.3'
    """
    return f"confidence {confidence:.3g} is below refuse_below {refuse_below:.3g}"


def best_score(scores: Sequence[float]) -> float:
    """A run's confidence from the grader's scores of the documents an answer is written from (0.0 for none).

    >>> best_score([0.2, 0.71, 0.5]), best_score([])
    (0.71, 0.0)
    """
    return round(float(max(scores, default=0.0)), 4)


# ---------------------------------------------------------------- input
def check_limit(max_chars: object, name: str = "max_question_chars") -> int:
    """A builder's character limit: a whole number from 1 to the library's hard cap."""
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or not 1 <= max_chars <= MAX_QUERY_CHARS:
        raise ValueError(f"{name} must be a whole number from 1 to {MAX_QUERY_CHARS:,}, got {max_chars!r}")
    return max_chars


def check_positive(**values: object) -> None:
    """Every value a whole number of at least 1 (a builder's sizes), else a ``ValueError`` naming it.

    >>> check_positive(k=4, fetch_k=0)
    Traceback (most recent call last):
    ...
    ValueError: fetch_k must be a positive integer, got 0
    """
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")


def check_cap(**values: object) -> None:
    """Every value a whole number of at least 0 (a loop's cap), else a ``ValueError`` naming it."""
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def check_steps(config: RunnableConfig | None, need: int, **caps: int) -> None:
    """The run's ``recursion_limit`` must leave room for ``need`` steps, the most a graph's ``caps`` can take
    (checked when the run starts, so a run never stops half-way); else a ``ValueError`` with the fix.

    >>> check_steps({"recursion_limit": 10}, 13, max_attempts=3)
    Traceback (most recent call last):
    ...
    ValueError: max_attempts=3 can take up to 13 graph steps but recursion_limit is 10; lower max_attempts or pass config={'recursion_limit': 13}
    """
    limit = (config or {}).get("recursion_limit")
    if isinstance(limit, int) and limit < need:
        given = ", ".join(f"{name}={value}" for name, value in caps.items())
        raise ValueError(f"{given} can take up to {need} graph steps but recursion_limit is {limit}; lower "
                         f"{' or '.join(caps)} or pass config={{'recursion_limit': {need}}}")


_JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner: part of how some words are spelled


def visible(text: str) -> str:
    """``text`` without the characters that show nothing: control characters other than white space (NUL, ESC)
    and format characters (zero-width space, byte-order mark, soft hyphen, direction marks and overrides), but
    the zero-width (non-)joiner, which Persian and Indic spelling and emoji sequences need.

    >>> visible("What does\\u200b BM25\\x00 k1 control?\\u200f")
    'What does BM25 k1 control?'
    """
    kept = "".join(c for c in text if c.isspace() or c in _JOINERS or unicodedata.category(c) not in ("Cc", "Cf"))
    return kept if any(not c.isspace() and c not in _JOINERS for c in kept) else ""  # joiners alone show nothing


def check_question(question: object, max_chars: int, builder: str, what: str = "question",
                   arg: str = "max_question_chars") -> str:
    """The question, :func:`visible` and stripped; a clear error for a non-string, an empty one (nothing
    visible), or one over ``max_chars``."""
    if question is None:
        raise ValueError(f"no {what} given: invoke the graph with {{{what!r}: '...'}}"
                         + (" (to answer a pause, resume the paused thread instead)" if what == "question" else ""))
    hint = f"Shorten it, or build the graph with {builder}({arg}=...) for longer {what}s."
    return clean_query(visible(question) if isinstance(question, str) else question, max_chars=max_chars, what=what,
                       hint=hint)


Start = Callable[[dict, RunnableConfig, str], dict]


def message_text(message: Any) -> str:
    """The text of a message (the user's or a chat model's), whether its content is a string or a list of parts.

    >>> from langchain_core.messages import AIMessage
    >>> message_text(AIMessage("Hello!")), message_text(AIMessage([{"type": "text", "text": "Hi"}, " there"]))
    ('Hello!', 'Hi  there')
    """
    content = getattr(message, "content", message)
    if isinstance(content, list):  # some providers return a list of content parts
        return " ".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)


def last_user_message(messages: Sequence[Any] | None) -> str:
    """The text of the last message (:func:`message_text`), which must be the user's (a chat graph's turn starts
    with one)."""
    last = messages[-1] if messages else None
    if not isinstance(last, HumanMessage):
        raise ValueError("a turn starts with a user message: invoke with {'messages': [('user', '...')]} "
                         "(to answer a pause, resume the paused thread instead)")
    return message_text(last)


def check_question_node(builder: str, max_chars: int, chat_model_set: bool, start: Start | None = None,
                        name: str = "check_question", field: Literal["question", "messages"] = "question"
                        ) -> Callable[..., dict]:
    """The entry node every graph starts with: check the question (policies 1 and 5), then ``start``.

    ``start(state, config, question)`` returns the graph's own first update (its counters, its caps checked
    against the run's ``recursion_limit``). ``field="messages"``: a chat graph's text is the last message.
    """
    what, arg = ("message", "max_message_chars") if field == "messages" else ("question", "max_question_chars")

    @traced(name)
    def check_question_(state: dict, config: RunnableConfig) -> dict:
        """Check the question (or the user's new message) and its language; reset the run.

        Reads: question (or messages). Writes: question (not for messages), language_note, what ``start`` returns.
        """
        given = last_user_message(state.get("messages")) if field == "messages" else state.get("question")
        question = check_question(given, max_chars, builder, what=what, arg=arg)
        update = {"language_note": offline_language_note(question, chat_model_set)}
        if field == "question":
            update["question"] = question
        if start is not None:
            update.update(start(state, config, question))
        return update

    return check_question_


@traced("unsupported_language")
def unsupported_language(state: dict) -> RAGResult:
    """Say plainly which language the offline models read (policy 5).

    Reads: language_note. Writes: the result fields (refused, reason "language").
    """
    return result(state["language_note"], "refused", "language")


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
            raise ValueError(f"{what}[{i}] is {len(doc.page_content):,} characters long; the limit is "
                             f"{MAX_DOCUMENT_CHARS:,}. Split long texts into passages before grading or writing from them.")
    return documents


def check_answer(answer: object, max_chars: int = MAX_ANSWER_CHARS) -> str:
    """Check an answer string (type and size) and return it stripped; an empty answer is allowed."""
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a string, got {type(answer).__name__}")
    if len(answer) > max_chars:
        raise ValueError(f"answer is {len(answer):,} characters long; the limit is {max_chars:,}")
    return answer.strip()
