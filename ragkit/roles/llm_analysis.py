"""LLM roles that analyse a question or its evidence before anyone writes: a prompt plus structured output.

Each role asks the chat model (:func:`ragkit.roles.llm.call_structured`) for ``Literal`` fields, never
strings compared afterwards, and takes its documented safe default on any failure. The prompts name no
corpus: the domain's descriptions are passed in.

The LLM query analyser has a module of its own, :mod:`ragkit.roles.llm_query_analysis`.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.nlp import clean_query
from ragkit.roles.llm import call_structured, choice_schema, document_indexes, format_documents
from ragkit.roles.llm_routing import format_routes
from ragkit.roles.router_protocols import RouteSpec, check_routes
from ragkit.roles.statute_protocols import EvidenceGrade, EvidenceVerdict, KindDecision

# ---------------------------------------------------------------- question classifier
CLASSIFIER_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You label questions about {corpus} before anyone searches it. The kinds are:\n{kinds}\n\n"
               "Pick exactly one kind. Choose \"{refuse}\" only when {corpus} clearly cannot answer; "
               "when unsure, prefer \"{safe}\"."),
    ("human", "Question: {question}"),
])


class LLMQuestionClassifier:
    """A chat model picks the kind (a ``Literal`` of the kind names); on any failure: ``safe``, ``fallback=True``
    (search, and let the evidence grader decide), never the refusing kind.

    >>> from ragkit.core.chat_models import scripted
    >>> kinds = [RouteSpec("single", "one fact"), RouteSpec("multihop", "two rules"), RouteSpec("none", "off topic")]
    >>> LLMQuestionClassifier(scripted('{"kind": "multihop", "reason": "duty and fine"}'), kinds, refuse="none",
    ...                       safe="single", corpus="the rules").classify("A ship dumps oil: fine?")
    KindDecision(kind='multihop', confidence=1.0, note='duty and fine', fallback=False)
    """

    def __init__(self, model: BaseChatModel, kinds: Sequence[RouteSpec], *, refuse: str, safe: str, corpus: str,
                 prompt: ChatPromptTemplate = CLASSIFIER_PROMPT):
        self.kinds, _ = check_routes(kinds, refuse)
        self.model, self.refuse, self.safe, self.corpus, self.prompt = model, refuse, safe, corpus, prompt
        self.schema = choice_schema("QuestionKindChoice", "kind", tuple(k.name for k in self.kinds), "the kind of question")

    def classify(self, question: str) -> KindDecision:
        question = clean_query(question, what="question")
        inputs = {"question": question, "kinds": format_routes(self.kinds), "corpus": self.corpus, "refuse": self.refuse,
                  "safe": self.safe}
        result = call_structured(self.model, self.prompt, self.schema, inputs)
        if not result.ok:
            return KindDecision(self.safe, 0.0, f"safe default: {result.note}", fallback=True)
        return KindDecision(result.value.kind, 1.0, getattr(result.value, "reason", ""))


# ---------------------------------------------------------------- evidence grader
EVIDENCE_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You check whether retrieved documents ({corpus}) answer a question. Say 'sufficient' only if the "
               "documents state the answer itself ({answers}), not merely the topic; say 'short' if the answer is "
               "missing{missing}. List in `supporting` the numbers of the documents that state it."),
    ("human", "Documents:\n\n{documents}\n\nQuestion: {question}"),
])


class EvidenceVerdictSchema(BaseModel):
    """Can the numbered documents answer the question?"""

    verdict: EvidenceVerdict = Field(description="'sufficient' if the documents state the answer, 'short' if they do not")
    supporting: list[int] = Field(default_factory=list, description="numbers [n] of the documents that state the answer")
    reason: str = Field(default="", description="one short sentence saying why")


class LLMEvidenceGrader:
    """A chat model grades the evidence; on failure ``sufficient`` with every document (fail-soft: the check
    of every citation still stands between the evidence and the answer). ``corpus``, ``answers`` and
    ``missing`` describe the documents, what an answer looks like and what does not count as one.

    >>> from ragkit.core.chat_models import scripted
    >>> docs = [Document("Permits are issued by the Authority."), Document("A permit costs 40 crowns.")]
    >>> LLMEvidenceGrader(scripted('{"verdict": "sufficient", "supporting": [2, 9]}')).grade("Permit price?", docs).supporting
    (1,)
    >>> LLMEvidenceGrader(scripted(RuntimeError("quota"))).grade("Permit price?", docs).fallback
    True
    """

    def __init__(self, model: BaseChatModel, corpus: str = "passages", answers: str = "a fact, a number, a date, a name",
                 missing: str = "", prompt: ChatPromptTemplate = EVIDENCE_PROMPT):
        self.model, self.prompt = model, prompt
        self.described = {"corpus": corpus, "answers": answers, "missing": f", {missing}" if missing else ""}

    def grade(self, question: str, documents: Sequence[Document]) -> EvidenceGrade:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return EvidenceGrade("short", (), 0.0, "no documents to grade")
        result = call_structured(self.model, self.prompt, EvidenceVerdictSchema,
                                 {"question": question, "documents": format_documents(documents), **self.described})
        if not result.ok:
            return EvidenceGrade("sufficient", tuple(range(len(documents))), 0.5, f"fail-soft: {result.note}", fallback=True)
        value = result.value
        supporting = document_indexes(value.supporting, len(documents))
        if value.verdict == "sufficient" and not supporting:
            supporting = tuple(range(len(documents)))  # sufficient without naming documents: keep them all
        if value.verdict == "short":
            supporting = ()
        return EvidenceGrade(value.verdict, supporting, 1.0 if value.verdict == "sufficient" else 0.0, value.reason)


__all__ = ["CLASSIFIER_PROMPT", "EVIDENCE_PROMPT", "EvidenceVerdictSchema", "LLMEvidenceGrader", "LLMQuestionClassifier"]
