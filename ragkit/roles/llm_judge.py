"""The LLM judge (CRAG): a chat model gives one of four verdicts on the retrieved documents (a prompt plus
structured output, adapted from the LangGraph CRAG tutorial); code keeps only real document numbers, and a
failed call or malformed output takes the fail-soft default. Local stand-in: :class:`ragkit.offline.judge.LocalJudge`.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.nlp import clean_query
from ragkit.roles.judge_protocols import Judgement, Verdict, fail_soft
from ragkit.roles.llm import call_structured, document_indexes, format_documents

JUDGE_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You judge whether retrieved documents can answer a user question, before anyone writes an "
               "answer. Choose exactly one verdict:\n"
               "- sufficient: one or more documents contain the answer. List their numbers in `keep`.\n"
               "- insufficient: the documents are about the right topic but do not contain the answer. Put a "
               "better search query in `corrected_query` (keep every name and number of the question).\n"
               "- ambiguous: the question cannot be answered as asked, because it could mean several "
               "different things or refers to something it does not name. Put one short question to ask "
               "the user in `clarifying_question`.\n"
               "- irrelevant: the documents are about something else entirely; the knowledge base does "
               "not cover the question.\n"
               "Judge by meaning, not by shared words."),
    ("human", "Documents:\n\n{documents}\n\nUser question: {question}"),
])


class JudgeVerdict(BaseModel):
    """What the LLM judge must return (parsed by structured output)."""

    verdict: Verdict = Field(description="the judgement")
    keep: list[int] = Field(default_factory=list, description="numbers [n] of the documents that answer the question")
    corrected_query: str | None = Field(default=None, description="a better search query, for insufficient")
    clarifying_question: str | None = Field(default=None, description="a question for the user, for ambiguous")
    reason: str = Field(default="", description="one short sentence saying why")


class LLMJudge:
    """A chat model judges the documents; malformed output or a failed call -> fail-soft ``sufficient``.

    >>> from ragkit.core.chat_models import scripted
    >>> judge = LLMJudge(scripted({"verdict": "sufficient", "keep": [2]}))
    >>> judge.judge("Who built it?", [Document("a"), Document("b")]).keep
    (1,)
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = JUDGE_PROMPT, fallback_keep: int = 3):
        self.model, self.prompt, self.fallback_keep = model, prompt, fallback_keep

    def judge(self, question: str, documents: Sequence[Document]) -> Judgement:
        question, documents = clean_query(question, what="question"), list(documents)
        if not documents:
            return Judgement("irrelevant", note="nothing was retrieved")
        call = call_structured(self.model, self.prompt, JudgeVerdict,
                               {"question": question, "documents": format_documents(documents)})
        if call.value is None:
            return fail_soft(documents, call.note, self.fallback_keep)
        out = call.value
        keep = document_indexes(out.keep, len(documents))  # code disposes
        if out.verdict == "sufficient" and not keep:
            return fail_soft(documents, "verdict 'sufficient' without any valid document number", self.fallback_keep)
        clarifying = (out.clarifying_question or "").strip() or None
        if out.verdict == "ambiguous" and clarifying is None:
            clarifying = "Could you say more precisely what you mean?"
        corrected = (out.corrected_query or "").strip() or None
        return Judgement(out.verdict, keep=keep, note=out.reason, clarifying_question=clarifying,
                         corrected_query=corrected if out.verdict == "insufficient" else None)


__all__ = ["JUDGE_PROMPT", "JudgeVerdict", "LLMJudge"]
