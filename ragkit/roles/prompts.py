"""The prompts of the LLM roles, as ``ChatPromptTemplate``s a notebook can print and a learner can edit.

They are adapted from the grader, rewriter and generator prompts of the Self-RAG / Adaptive RAG / CRAG
tutorials in the LangGraph documentation, with one deliberate change: the decision is not a "yes"/"no"
string to compare afterwards, but a ``bool`` or ``Literal`` field of a pydantic schema that structured
output parses (see ``ragkit.roles.llm``). The prompts therefore describe the meaning of the fields, not a
string format.

Documents are shown to the model numbered from 1 (``format_documents``), which is the numbering the
writer cites with ``[n]``.
"""

from __future__ import annotations

from typing import Sequence

from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate

from ragkit.roles.base import NOT_ENOUGH_INFORMATION, RouteSpec

MAX_PROMPT_DOCUMENT_CHARS = 4_000  # per document; keeps a prompt bounded whatever the retriever returns


def format_documents(documents: Sequence[Document], max_chars: int = MAX_PROMPT_DOCUMENT_CHARS) -> str:
    """Number documents from 1 for a prompt, with their title or source when they have one.

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


def format_routes(routes: Sequence[RouteSpec]) -> str:
    """One bullet per route with its description and examples, for the router prompt.

    >>> print(format_routes([RouteSpec("wine", "the wine list", ("a red for lamb?",))]))
    - wine: the wine list (e.g. "a red for lamb?")
    """
    lines = []
    for spec in routes:
        examples = "; ".join(f'"{e}"' for e in spec.examples[:4])
        lines.append(f"- {spec.name}: {spec.description}" + (f" (e.g. {examples})" if examples else ""))
    return "\n".join(lines)


ROUTER_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are an expert at routing a user question to the right data source.\n"
            "The sources are:\n{routes}\n\n"
            "Pick the one source most likely to hold the answer. If none fits, pick \"{fallback}\".",
        ),
        ("human", "Question: {question}"),
    ]
)

GRADER_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are a grader assessing the relevance of a retrieved document to a user question.\n"
            "If the document contains keywords or meaning that help answer the question, it is relevant. "
            "It does not need to be a stringent test: the goal is to filter out erroneous retrievals.\n"
            "Set `relevant` to true or false.",
        ),
        ("human", "Retrieved document:\n\n{document}\n\nUser question: {question}"),
    ]
)

REWRITER_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are a question re-writer that converts an input question into a better version optimised "
            "for vector-store and keyword search. Reason about the underlying intent of the question. "
            "Keep every name, number and specific term of the original; add the words a good answer "
            "would contain. Return only the new query in `query`.",
        ),
        (
            "human",
            "Initial question: {question}\n\nDocuments retrieved so far (may be irrelevant):\n{documents}\n\n"
            "Formulate an improved search query.",
        ),
    ]
)

WRITER_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are an assistant for question-answering tasks. Answer the question using only the numbered "
            "documents below. After each sentence, cite the documents that support it as [n], using their "
            "numbers. Use three sentences at most and keep the answer concise.\n"
            "If the documents do not contain the answer, set `answered` to false and `answer` to exactly: "
            f"{NOT_ENOUGH_INFORMATION}\n\nDocuments:\n{{documents}}",
        ),
        ("human", "Question: {question}"),
    ]
)

HALLUCINATION_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are a grader assessing whether an answer is grounded in, that is supported by, a set of "
            "retrieved documents. Check the answer claim by claim, not sentence by sentence: split each "
            "sentence into its claims (clauses joined by 'and', 'but', commas or semicolons each make one). "
            "A claim is supported only if the documents state it, with the same: numbers, dates and prices; "
            "names of people, places, dishes and things; negation ('is' vs 'is not', 'able' vs 'unable'); "
            "quantifiers and modals ('some', 'most', 'all', 'only', 'usually', 'always', 'may', 'must'); and "
            "attributes ('vegan', 'gluten-free', 'sparkling', 'annual', 'mandatory'). A clause the documents "
            "do not mention is unsupported even when the rest of its sentence is supported. Rewording is "
            "fine when the meaning is unchanged. Set `grounded` to true only if every claim is supported; "
            "list in `unsupported` each unsupported claim, copied verbatim from the answer.",
        ),
        ("human", "Documents:\n\n{documents}\n\nAnswer: {answer}"),
    ]
)

ANSWER_GRADER_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are a grader assessing whether an answer addresses and resolves a question. An answer that "
            "says it does not have enough information does not resolve the question. A 'how much' question "
            "needs an amount, a 'when' question needs a time. Set `useful` to true or false.",
        ),
        ("human", "User question: {question}\n\nAnswer: {answer}"),
    ]
)

__all__ = [
    "ANSWER_GRADER_PROMPT",
    "GRADER_PROMPT",
    "HALLUCINATION_PROMPT",
    "REWRITER_PROMPT",
    "ROUTER_PROMPT",
    "WRITER_PROMPT",
    "format_documents",
    "format_routes",
]
