"""Evidence graders: do the retrieved articles hold an answer (``sufficient``) or not yet (``short``)?

Strategy-routed QA (:mod:`ragkit.graphs.statute_qa`) grades what one search found before writing: enough
evidence goes to the writer, too little is re-searched with a rewritten query (at most once), and
evidence that stays short ends in a low-confidence refusal.

``LocalEvidenceGrader`` combines two existing local pieces, the document grader and the answerability
checks of :mod:`ragkit.offline.judge`, adapted to questions about rules:

1. **names** (over the whole result set): every name of the question (a capitalised word that does not
   open one of its sentences: "Norway", "MARPOL", "Ports Act") must occur in at least one retrieved
   document. The union, not each document, because a multi-hop answer spans articles. The question's
   *numbers* are not required (unlike ``answerability_gap``): in a question about rules they are usually
   the facts of the case ("a ferry certified to carry 200 people", "a mesh of 80 millimetres"), compared
   with a threshold the statute states in other numbers;
2. **relevance** (per document): the grader's (:class:`ragkit.offline.graders.LocalGrader`) calibrated
   probability is at least ``relevant_above``, or the question cites the document by number (a pinned
   article, ``metadata["pinned"]``: relevant on the user's own account);
3. **answer type** (per document): in the document's sentence with most of the question's key terms, a
   who/when/how-many question finds a name, a date or a number it does not already contain
   (:func:`ragkit.core.nlp.has_answer`). The polarity check of ``answerability_gap`` is left
   out: in a case described to a statute ("a ferry has no garbage record book", "without a licence")
   the negation states the facts, it does not ask what is not the case.

A document that passes 2 and 3 *supports* an answer; the verdict is ``sufficient`` when the names check
passes and at least one document supports, with ``supporting`` listing them (0-based, best grade first).
``LLMEvidenceGrader`` asks a chat model for the verdict as a ``Literal`` field and the supporting document
numbers (structured output); a failed or malformed call is fail-soft: ``sufficient`` with every
document, ``fallback=True``, because the verifier that checks each citation still stands between the
evidence and the answer.

What it cannot do: relevance and a present answer *type* are not an answer. A question about a figure the
statute leaves to the Authority ("What is this year's herring quota in tonnes?") meets the article on
quotas with a number in it and passes; a question whose capitalised words the article words
differently ("the Board" vs "the Coastal Appeals Board") loses a rare term and is graded short. The bar
is a probability of LocalGrader, which was fitted on SciFact, so it is only meaningful for that grader;
its default (:data:`ragkit.defaults.STATUTE_QA`) is 0, because on the statute QA dev split every higher
bar refused more answerable questions than it caught unanswerable ones, so by default only the names and
the answer type decide (the grader's probability still orders the supporting documents).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.nlp import answer_type, clean_query, has_answer, names, split_sentences
from ragkit.defaults import STATUTE_QA
from ragkit.domains.statute.citations import parse_citations
from ragkit.offline.judge import mentions, supporting_sentence
from ragkit.roles.llm import call_structured, format_documents
from ragkit.roles.protocols import DocumentGrader

EvidenceVerdict = Literal["sufficient", "short"]
def missing_names(question: str, documents: Sequence[Document]) -> list[str]:
    """The question's names (capitalised words that do not open a sentence; not its numbers, nor its citations)
    that no document mentions.

    >>> missing_names("Do the rules apply to a ship of 500 tonnes in Norway? Apart from that, who pays?",
    ...               [Document("Every ship in Talvora.")])
    ['norway']
    """
    for citation in reversed(parse_citations(question)):  # "Article 15" is found by its number, not as a name
        question = question[: citation.start] + question[citation.end:]
    found = [n for sentence in split_sentences(question) for n in sorted(names(sentence), key=sentence.lower().find)]
    wanted = [n.removesuffix("'s").removesuffix("’s") for n in dict.fromkeys(found) if not n[:1].isdigit()]
    return [t for t in wanted if not any(mentions(d.page_content, t) for d in documents)]


def answer_gap(question: str, text: str) -> str | None:
    """Why ``text`` holds no answer of the kind asked (a name, a date, a number), or None when it may.

    >>> answer_gap("How many days does the public get to comment?", "Any person may comment on the application.")
    'the passage has no number where the question asks for one'
    >>> answer_gap("How many days does the public get to comment?", "Any person has 21 days to comment.") is None
    True
    """
    sentence = supporting_sentence(question, text)
    kind = answer_type(question)
    if not has_answer(kind, sentence, question):
        what = {"person": "name", "time": "time or date", "quantity": "number"}[kind]
        return f"the passage has no {what} where the question asks for one"
    return None


@dataclass(frozen=True)
class EvidenceGrade:
    """The verdict on a set of documents; ``supporting`` are 0-based indexes of those that hold the answer."""

    verdict: EvidenceVerdict
    supporting: tuple[int, ...] = ()
    score: float = 0.0
    note: str = ""
    fallback: bool = False

    @property
    def sufficient(self) -> bool:
        return self.verdict == "sufficient"


@runtime_checkable
class EvidenceGrader(Protocol):
    def grade(self, question: str, documents: Sequence[Document]) -> EvidenceGrade: ...


class LocalEvidenceGrader:
    """Relevant (the grader) and answerable (the answerability check): see the module docstring.

    >>> class Flat:  # a stand-in grader: every document relevant with probability 0.9
    ...     def grade_many(self, question, documents):
    ...         from ragkit.roles.protocols import Grade
    ...         return [Grade(True, 0.9) for _ in documents]
    >>> docs = [Document("Oysters are served raw."), Document("Six oysters cost 14 euros.")]
    >>> LocalEvidenceGrader(grader=Flat()).grade("How much are the oysters?", docs)
    EvidenceGrade(verdict='sufficient', supporting=(1,), score=0.9, note='1 of 2 documents support an answer', fallback=False)
    """

    def __init__(self, grader: DocumentGrader | None = None, embedder=None,
                 relevant_above: float = STATUTE_QA.evidence_relevant_above):
        if grader is None:
            from ragkit.offline.graders import LocalGrader

            grader = LocalGrader(embedder)
        self.grader, self.relevant_above = grader, relevant_above

    def grade(self, question: str, documents: Sequence[Document]) -> EvidenceGrade:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return EvidenceGrade("short", (), 0.0, "no documents to grade")
        missing = missing_names(question, documents)
        if missing:
            return EvidenceGrade("short", (), 0.0, f"no retrieved document mentions {missing[0]!r}")
        grades = self.grader.grade_many(question, documents)
        order = sorted(range(len(documents)), key=lambda i: -grades[i].score)
        supporting, gaps = [], []
        for i in order:
            if grades[i].score < self.relevant_above and not documents[i].metadata.get("pinned"):
                continue
            gap = answer_gap(question, documents[i].page_content)
            if gap is None:
                supporting.append(i)
            else:
                gaps.append(gap)
        best = float(grades[order[0]].score)
        if supporting:
            return EvidenceGrade("sufficient", tuple(supporting), round(float(grades[supporting[0]].score), 4),
                                 f"{len(supporting)} of {len(documents)} documents support an answer")
        why = gaps[0] if gaps else f"no document is relevant enough (best {best:.3f} < {self.relevant_above})"
        return EvidenceGrade("short", (), round(best, 4), why)


class EvidenceVerdictSchema(BaseModel):
    """Can the numbered documents answer the question?"""

    verdict: EvidenceVerdict = Field(description="'sufficient' if the documents state the answer, 'short' if they do not")
    supporting: list[int] = Field(default_factory=list, description="numbers [n] of the documents that state the answer")
    reason: str = Field(default="", description="one short sentence saying why")


EVIDENCE_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system",
         "You check whether retrieved articles of a statute answer a question. Say 'sufficient' only if the "
         "documents state the answer itself (a rule, a number, a time limit, a definition), not merely the "
         "topic; say 'short' if the answer is missing, left to someone else, or in another law. List in "
         "`supporting` the numbers of the documents that state it."),
        ("human", "Documents:\n\n{documents}\n\nQuestion: {question}"),
    ]
)


class LLMEvidenceGrader:
    """A chat model grades the evidence; on failure: ``sufficient`` with every document (fail-soft).

    >>> from ragkit.core.chat_models import scripted
    >>> docs = [Document("Wine list."), Document("Six oysters cost 14 euros.")]
    >>> LLMEvidenceGrader(scripted('{"verdict": "sufficient", "supporting": [2, 9]}')).grade("Oyster price?", docs).supporting
    (1,)
    >>> LLMEvidenceGrader(scripted(RuntimeError("quota"))).grade("Oyster price?", docs).fallback
    True
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = EVIDENCE_PROMPT):
        self.model, self.prompt = model, prompt

    def grade(self, question: str, documents: Sequence[Document]) -> EvidenceGrade:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return EvidenceGrade("short", (), 0.0, "no documents to grade")
        result = call_structured(self.model, self.prompt, EvidenceVerdictSchema,
                                 {"question": question, "documents": format_documents(documents)})
        if not result.ok:
            return EvidenceGrade("sufficient", tuple(range(len(documents))), 0.5, f"fail-soft: {result.note}", fallback=True)
        value = result.value
        supporting = tuple(dict.fromkeys(n - 1 for n in value.supporting if 1 <= n <= len(documents)))
        if value.verdict == "sufficient" and not supporting:
            supporting = tuple(range(len(documents)))  # sufficient without naming documents: keep them all
        if value.verdict == "short":
            supporting = ()
        return EvidenceGrade(value.verdict, supporting, 1.0 if value.verdict == "sufficient" else 0.0, value.reason)


__all__ = ["EVIDENCE_PROMPT", "answer_gap", "missing_names", "EvidenceGrade", "EvidenceGrader", "EvidenceVerdict", "EvidenceVerdictSchema",
           "LLMEvidenceGrader", "LocalEvidenceGrader"]
