"""The LLM answer grader (Self-RAG): a chat model says whether an answer addresses and resolves the question
(prompt adapted from the LangGraph Self-RAG tutorial); code decides refusals; a failed call accepts the answer.
"""

from __future__ import annotations

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_answer
from ragkit.core.nlp import clean_query
from ragkit.roles.answer_grader_protocols import Usefulness, declines
from ragkit.roles.llm import call_structured

ANSWER_GRADER_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You are a grader assessing whether an answer addresses and resolves a question. An answer that "
               "says it does not have enough information does not resolve the question. A 'how much' question "
               "needs an amount, a 'when' question needs a time. Set `useful` to true or false."),
    ("human", "User question: {question}\n\nAnswer: {answer}"),
])


class UsefulnessVerdict(BaseModel):
    """Does the answer resolve the question?"""

    useful: bool = Field(description="true if the answer addresses and resolves the question")


class LLMAnswerGrader:
    """A chat model judges usefulness; on failure: useful unless the answer is a refusal (it has usually passed
    the groundedness check already, and rejecting it for a failed call would loop the graph for nothing).

    >>> from ragkit.core.chat_models import scripted
    >>> LLMAnswerGrader(scripted("not json")).grade("How much?", "12 euros.").useful
    True
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = ANSWER_GRADER_PROMPT):
        self.model, self.prompt = model, prompt

    def grade(self, question: str, answer: str) -> Usefulness:
        question, answer = clean_query(question, what="question"), check_answer(answer)
        if declines(answer):
            return Usefulness(False, 0.0, "the answer is a refusal")
        result = call_structured(self.model, self.prompt, UsefulnessVerdict, {"question": question, "answer": answer})
        if not result.ok:
            return Usefulness(True, 0.5, f"accepted by default: {result.note}", fallback=True)
        return Usefulness(result.value.useful, 1.0 if result.value.useful else 0.0)


__all__ = ["ANSWER_GRADER_PROMPT", "LLMAnswerGrader", "UsefulnessVerdict"]
