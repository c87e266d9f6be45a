"""The LLM roles of the RAG graphs (grader, rewriter, writer, verifier), and the call every LLM role shares.

Every role fills a prompt (adapted from the LangGraph Self-RAG / Adaptive RAG / CRAG tutorials), asks the
model for an object of a pydantic schema and uses the parsed object: a decision is a ``bool`` or
``Literal`` field, never a "yes"/"no" string compared afterwards. A failed call (:func:`call_structured`)
makes a role take its documented safe default (``fallback=True``). The other LLM role families
(``llm_routing``, ``llm_queries``, ``llm_answer_grader``, ``llm_judge``, ``llm_analysis``, ``llm_agents``)
sit beside this module and use its machinery.

Simplification: no retry here; the chat model's own ``max_retries`` covers network errors, and a model
that answered badly once is not asked again (a retry would double the cost of every failure).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field, create_model

from ragkit.core.contract import check_answer, check_documents
from ragkit.core.nlp import cited_numbers, clean_query
from ragkit.roles.protocols import (
    NOT_ENOUGH_INFORMATION,
    Answer,
    Grade,
    Groundedness,
    is_refusal,
)

S = TypeVar("S", bound=BaseModel)
MAX_PROMPT_DOCUMENT_CHARS = 4_000  # per document; keeps a prompt bounded whatever the retriever returns


# ---------------------------------------------------------------- the model and the call
class StructuredOutputUnavailable(TypeError):
    """A chat model that cannot return structured output, checked with ``strict=True``."""


class Answered(BaseModel):
    """The probe schema :func:`check_chat_model` asks a model to bind."""

    answered: bool


def check_chat_model(model: Any, keyword: str = "chat_model", strict: bool = False) -> BaseChatModel | None:
    """``model`` checked when a graph is built: a LangChain chat model (or None) that can do structured output.

    Without ``with_structured_output`` (``FakeListChatModel``) every LLM role would take its safe default on
    every call: a warning says so, or an error with ``strict=True``.
    """
    if model is None:
        return None
    if not isinstance(model, BaseChatModel):
        raise TypeError(f"{keyword}= must be a LangChain chat model (BaseChatModel) or None, got {type(model).__name__}")
    try:
        model.with_structured_output(Answered, include_raw=True)
    except NotImplementedError:
        message = (f"{keyword}={type(model).__name__} cannot return structured output, so every LLM role on it will "
                   "take its safe default (refuse, keep, not grounded) on every call. Use a chat model with "
                   "with_structured_output (tool calling), ragkit.core.chat_models.ScriptedChatModel in tests, "
                   "or leave chat_model=None for the local roles.")
        if strict:
            raise StructuredOutputUnavailable(message) from None
        warnings.warn(message, stacklevel=3)
    return model


@dataclass(frozen=True)
class StructuredCall(Generic[S]):
    """The outcome of one structured call: ``value`` when it worked, else ``None`` and a ``note`` why."""

    value: S | None
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.value is not None


def _short(err: object, limit: int = 160) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_structured(model: BaseChatModel, prompt: ChatPromptTemplate, schema: type[S], inputs: dict[str, Any]) -> StructuredCall[S]:
    """Run ``prompt | model.with_structured_output(schema, include_raw=True)``; never raise for model failures.

    A call that raises (network, quota, timeout), output not in the schema, or nothing usable: ``value=None``
    and a ``note`` saying which.

    >>> from ragkit.core.chat_models import scripted
    >>> class Relevance(BaseModel):
    ...     relevant: bool
    >>> call_structured(scripted('{"relevant": true}'), GRADER_PROMPT, Relevance, {"question": "q", "document": "d"}).value
    Relevance(relevant=True)
    >>> print(call_structured(scripted("sure!"), GRADER_PROMPT, Relevance, {"question": "q", "document": "d"}).note)
    unparsable model output: no JSON object in model output: 'sure!'
    """
    messages = prompt.format_messages(**inputs)  # a missing prompt variable is a programming error: raise
    try:
        result = model.with_structured_output(schema, include_raw=True).invoke(messages)
    except Exception as err:  # noqa: BLE001 - any failure of the call becomes the role's safe default
        return StructuredCall(None, f"model call failed: {type(err).__name__}: {_short(err)}")
    if isinstance(result, schema):  # a model that ignores include_raw
        return StructuredCall(result)
    if not isinstance(result, dict):
        return StructuredCall(None, f"unexpected result type {type(result).__name__}")
    if result.get("parsing_error") is not None:
        return StructuredCall(None, f"unparsable model output: {_short(result['parsing_error'])}")
    parsed = result.get("parsed")
    if isinstance(parsed, dict):  # some providers hand back a dict; validate it ourselves
        try:
            parsed = schema.model_validate(parsed)
        except Exception as err:  # noqa: BLE001
            return StructuredCall(None, f"unparsable model output: {_short(err)}")
    if not isinstance(parsed, schema):
        return StructuredCall(None, "the model returned no structured output")
    return StructuredCall(parsed)


def choice_schema(name: str, field: str, choices: tuple[str, ...], description: str, reason: bool = True) -> type[BaseModel]:
    """A pydantic schema with one ``Literal[choices]`` field (plus an optional ``reason``), built at run time.

    >>> Pick = choice_schema("Pick", "route", ("menu", "wine"), "where to send the question")
    >>> Pick(route="wine", reason="a wine question").route
    'wine'
    """
    if not choices:
        raise ValueError("choice_schema needs at least one choice")
    fields: dict[str, Any] = {field: (Literal[tuple(choices)], Field(description=description))}  # type: ignore[valid-type]
    if reason:
        fields["reason"] = (str, Field(default="", description="one short sentence saying why"))
    return create_model(name, **fields)


def format_documents(documents: Sequence[Document], max_chars: int = MAX_PROMPT_DOCUMENT_CHARS) -> str:
    """Number documents from 1 for a prompt (the numbers a writer cites), with their title or source.

    >>> print(format_documents([Document(page_content="Oysters, 12 euros.", metadata={"title": "Oysters"})]))
    [1] Oysters
    Oysters, 12 euros.
    """
    if not documents:
        return "(no documents)"
    blocks = []
    for n, doc in enumerate(documents, start=1):
        label = doc.metadata.get("title") or doc.metadata.get("source") or ""
        text = doc.page_content if len(doc.page_content) <= max_chars else doc.page_content[:max_chars] + " ..."
        blocks.append(f"[{n}] {label}".rstrip() + f"\n{text}")
    return "\n\n".join(blocks)


def document_indexes(numbers: Sequence[int], n_documents: int) -> tuple[int, ...]:
    """The 0-based indexes of the ``[n]`` numbers a model gave, keeping only real documents, without repeats.

    >>> document_indexes([2, 9, 2, 0, 1], 3)
    (1, 0)
    """
    return tuple(dict.fromkeys(n - 1 for n in numbers if 1 <= n <= n_documents))


# ---------------------------------------------------------------- document grader
GRADER_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You are a grader assessing the relevance of a retrieved document to a user question.\n"
               "If the document contains keywords or meaning that help answer the question, it is relevant. "
               "It does not need to be a stringent test: the goal is to filter out erroneous retrievals.\n"
               "Set `relevant` to true or false."),
    ("human", "Retrieved document:\n\n{document}\n\nUser question: {question}"),
])


class BinaryRelevance(BaseModel):
    """Is the document relevant to the question?"""

    relevant: bool = Field(description="true if the document contains keywords or meaning related to the question")


class LLMGrader:
    """A chat model grades relevance (a ``bool`` field). On failure the document is KEPT (relevant, fallback):
    dropping evidence because the grader failed would empty the context; the verifier still checks the answer.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMGrader(scripted('{"relevant": false}')).grade("Is the soup vegan?", Document(page_content="Wine list."))
    Grade(relevant=False, score=0.0, note='', fallback=False)
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = GRADER_PROMPT):
        self.model, self.prompt = model, prompt

    def grade(self, question: str, document: Document) -> Grade:
        question = clean_query(question, what="question")
        (document,) = check_documents([document], what="document")
        inputs = {"question": question, "document": document.page_content[:MAX_PROMPT_DOCUMENT_CHARS]}
        result = call_structured(self.model, self.prompt, BinaryRelevance, inputs)
        if not result.ok:
            return Grade(True, 0.5, f"kept by default: {result.note}", fallback=True)
        return Grade(result.value.relevant, 1.0 if result.value.relevant else 0.0)

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]:
        return [self.grade(question, d) for d in check_documents(documents)]


# ---------------------------------------------------------------- question rewriter
REWRITER_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You are a question re-writer that converts an input question into a better version optimised "
               "for vector-store and keyword search. Reason about the underlying intent of the question. "
               "Keep every name, number and specific term of the original; add the words a good answer "
               "would contain. Return only the new query in `query`."),
    ("human", "Initial question: {question}\n\nDocuments retrieved so far (may be irrelevant):\n{documents}\n\n"
              "Formulate an improved search query."),
])


class RewrittenQuery(BaseModel):
    """A search query."""

    query: str = Field(description="the improved search query")


class LLMRewriter:
    """A chat model rewrites the question for search. On failure (or an empty or huge query): the question,
    which is always a valid query, so a failed rewrite costs one wasted search at most.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMRewriter(scripted('{"query": "oyster wine pairing"}')).rewrite("What goes with oysters?")
    'oyster wine pairing'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = REWRITER_PROMPT, max_chars: int = 500):
        self.model, self.prompt, self.max_chars = model, prompt, max_chars
        self.last_note = ""  # why the last call fell back, for traces ("" when it did not)

    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        question = clean_query(question, what="question")
        inputs = {"question": question, "documents": format_documents(check_documents(documents), max_chars=1_000)}
        result = call_structured(self.model, self.prompt, RewrittenQuery, inputs)
        query = " ".join(result.value.query.split()) if result.ok else ""
        if not query or len(query) > self.max_chars:
            self.last_note = result.note or f"unusable rewrite ({len(query)} characters); kept the question"
            return question
        self.last_note = ""
        return query


# ---------------------------------------------------------------- writer
WRITER_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You are an assistant for question-answering tasks. Answer the question using only the numbered "
               "documents below. After each sentence, cite the documents that support it as [n], using their "
               "numbers. Use three sentences at most and keep the answer concise.\n"
               "If the documents do not contain the answer, set `answered` to false and `answer` to exactly: "
               f"{NOT_ENOUGH_INFORMATION}\n\nDocuments:\n{{documents}}"),
    ("human", "Question: {question}"),
])


class WrittenAnswer(BaseModel):
    """An answer grounded in numbered documents."""

    answer: str = Field(description="the answer, each sentence followed by the [n] numbers of its documents")
    answered: bool = Field(description="false when the documents do not contain the answer")


def drop_invalid_citations(text: str, n_documents: int) -> str:
    """Remove citation markers that point outside ``1..n_documents`` (a model may invent them).

    >>> drop_invalid_citations("A [1] [7]. B [2, 9].", 2)
    'A [1]. B [2].'
    """

    def fix(match: re.Match) -> str:
        kept = [n for n in cited_numbers(match.group(0)) if 1 <= n <= n_documents]
        return f" [{', '.join(map(str, kept))}]" if kept else ""

    return re.sub(r"\s*\[(\d+(?:\s*[,;-]\s*\d+)*)\]", fix, text)


class LLMWriter:
    """A chat model writes the answer; code keeps only citations of real documents. On failure: a refusal,
    because an answer the model did not produce cannot be checked.

    >>> from ragkit.core.chat_models import scripted
    >>> w = LLMWriter(scripted('{"answer": "Six cost 14 euros [1] [7].", "answered": true}'))
    >>> w.write("How much are the oysters?", [Document(page_content="Six oysters cost 14 euros.")])
    Answer(text='Six cost 14 euros [1].', citations=(1,), answered=True, fallback=False)
    """

    reads_instructions = True  # a StructuredWriter may add its constraints to the question

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = WRITER_PROMPT):
        self.model, self.prompt = model, prompt

    def write(self, question: str, documents: Sequence[Document]) -> Answer:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        result = call_structured(self.model, self.prompt, WrittenAnswer,
                                 {"question": question, "documents": format_documents(documents)})
        if not result.ok:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False, fallback=True)
        text = result.value.answer.strip()
        if not result.value.answered or not text or NOT_ENOUGH_INFORMATION in text:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        text = drop_invalid_citations(text, len(documents))
        if not text.strip():
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        return Answer(text, tuple(sorted({n for n in cited_numbers(text) if 1 <= n <= len(documents)})))


# ---------------------------------------------------------------- hallucination grader
HALLUCINATION_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You are a grader assessing whether an answer is grounded in, that is supported by, a set of "
               "retrieved documents. Check the answer claim by claim, not sentence by sentence: split each "
               "sentence into its claims (clauses joined by 'and', 'but', commas or semicolons each make one). "
               "A claim is supported only if the documents state it, with the same: numbers, dates and prices; "
               "names of people, places and things; negation ('is' vs 'is not', 'able' vs 'unable'); "
               "quantifiers and modals ('some', 'most', 'all', 'only', 'usually', 'always', 'may', 'must'); and "
               "attributes (adjectives and the properties of things). A clause the documents do not mention is "
               "unsupported even when the rest of its sentence is supported. Rewording is fine when the meaning "
               "is unchanged. Set `grounded` to true only if every claim is supported; list in `unsupported` "
               "each unsupported claim, copied verbatim from the answer."),
    ("human", "Documents:\n\n{documents}\n\nAnswer: {answer}"),
])


class GroundednessVerdict(BaseModel):
    """Is the answer supported by the documents, claim by claim?"""

    grounded: bool = Field(description="true only if every claim of the answer is supported by the documents")
    unsupported: list[str] = Field(default_factory=list, description="each unsupported claim, copied verbatim from the answer")


class LLMHallucinationGrader:
    """A chat model checks groundedness claim by claim; on failure the answer is NOT grounded (fails closed:
    passing an unchecked answer as verified is the one mistake a verifier must not make).

    >>> from ragkit.core.chat_models import scripted
    >>> LLMHallucinationGrader(scripted(RuntimeError("quota"))).check([Document(page_content="x")], "y").grounded
    False
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = HALLUCINATION_PROMPT):
        self.model, self.prompt = model, prompt

    def check(self, documents: Sequence[Document], answer: str) -> Groundedness:
        documents, answer = check_documents(documents), check_answer(answer)
        if is_refusal(answer):
            return Groundedness(True, (), 1.0, "a refusal makes no claim")
        result = call_structured(self.model, self.prompt, GroundednessVerdict,
                                 {"documents": format_documents(documents), "answer": answer})
        if not result.ok:
            return Groundedness(False, (), 0.0, f"not verified: {result.note}", fallback=True)
        unsupported = tuple(s for s in result.value.unsupported if s.strip())
        if result.value.grounded and unsupported:  # contradictory output: trust the specific list
            return Groundedness(False, unsupported, 0.0, "model said grounded but listed unsupported claims")
        return Groundedness(result.value.grounded, unsupported, 1.0 if result.value.grounded else 0.0)


__all__ = ["GRADER_PROMPT", "HALLUCINATION_PROMPT",
           "LLMGrader", "LLMHallucinationGrader", "LLMRewriter", "LLMWriter", "REWRITER_PROMPT",
           "StructuredCall", "StructuredOutputUnavailable", "WRITER_PROMPT", "call_structured",
           "check_chat_model", "choice_schema", "document_indexes", "drop_invalid_citations", "format_documents"]
