"""Evidence grader: do the retrieved documents hold an answer (``sufficient``) or not yet (``short``)?

``LocalEvidenceGrader`` combines the document grader with the answerability checks of the CRAG judge
(:func:`ragkit.offline.judge.answerability_gap`), adapted to questions that describe a case:

1. **names** (over the whole result set): every name of the question (a capitalised word that does not
   open one of its sentences: "Norway", "Interpol") must occur in at least one document. The union, not
   each document, because a multi-hop answer spans documents. The question's *numbers* and *dates* are
   not required (unlike ``answerability_gap``): in a described case they are usually its facts ("a ferry
   certified for 200 people", "in June", "on a Sunday"), compared with a threshold or a period the
   documents state in other words ("from 1 May to 31 July"); a capitalised month or weekday
   (:data:`ragkit.core.nlp.TIME_WORDS`) is a date, not a name;
2. **relevance** (per document): the grader's probability is at least ``relevant_above``, or the user
   named the document (``metadata["pinned"]``: relevant on the user's own account);
3. **answer type** (per document): in the document's sentence with most of the question's key terms, a
   who/when/how-many question finds a name, a date or a number it does not already contain
   (:func:`ragkit.core.nlp.has_answer`). The polarity check of ``answerability_gap`` is left out: in a
   described case a negation states the facts ("without a licence"), it does not ask what is not so.

A document that passes 2 and 3 *supports* an answer; the verdict is ``sufficient`` when the names check
passes and at least one document supports, with ``supporting`` listing them (best grade first).

What it cannot do: relevance and a present answer *type* are not an answer, so a question about a figure
the documents leave to someone else ("this year's quota in tonnes") passes on a passage with a number in
it; a name the documents word differently ("the Board" vs "the Appeals Board") is graded short. The bar
is a probability of :class:`~ragkit.offline.graders.LocalGrader` (fitted on SciFact), meaningful only for
that grader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_documents
from ragkit.core.nlp import (
    TIME_WORDS,
    answer_type,
    clean_query,
    has_answer,
    mentions_term,
    names,
    split_sentences,
    supporting_sentence,
)
from ragkit.offline.graders import LocalGrader
from ragkit.roles.protocols import DocumentGrader
from ragkit.roles.statute_protocols import EvidenceGrade


def missing_names(question: str, documents: Sequence[Document], ignore: Callable[[str], str] | None = None) -> list[str]:
    """The question's names (capitalised words that do not open a sentence; not its numbers, months or
    weekdays) that no document mentions; ``ignore`` first removes what is found otherwise (a statute's
    "Article 15").

    >>> missing_names("Do the rules apply to a ship of 500 tonnes in Norway in June? Apart from that, who pays?",
    ...               [Document("Every ship in Talvora, from 1 May to 31 July.")])
    ['norway']
    """
    if ignore is not None:
        question = ignore(question)
    found = [n for sentence in split_sentences(question) for n in sorted(names(sentence), key=sentence.lower().find)]
    wanted = [n.removesuffix("'s").removesuffix("’s") for n in dict.fromkeys(found) if not n[:1].isdigit() and n not in TIME_WORDS]
    return [t for t in wanted if not any(mentions_term(d.page_content, t) for d in documents)]


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


class LocalEvidenceGrader:
    """Names, relevance and answer type (see the module docstring).

    >>> class Flat:  # a stand-in grader: every document relevant with probability 0.9
    ...     def grade_many(self, question, documents):
    ...         from ragkit.roles.protocols import Grade
    ...         return [Grade(True, 0.9) for _ in documents]
    >>> docs = [Document("Permits are issued by the Authority."), Document("A permit costs 40 crowns.")]
    >>> LocalEvidenceGrader(grader=Flat()).grade("How much is a permit?", docs)
    EvidenceGrade(verdict='sufficient', supporting=(1,), score=0.9, note='1 of 2 documents support an answer', fallback=False)
    """

    def __init__(self, grader: DocumentGrader | None = None, embedder: Embeddings | None = None,
                 relevant_above: float = 0.0, ignore: Callable[[str], str] | None = None):
        self.grader = grader if grader is not None else LocalGrader(embedder)
        self.relevant_above, self.ignore = relevant_above, ignore

    def grade(self, question: str, documents: Sequence[Document]) -> EvidenceGrade:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        if not documents:
            return EvidenceGrade("short", (), 0.0, "no documents to grade")
        missing = missing_names(question, documents, self.ignore)
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


__all__ = ["LocalEvidenceGrader", "answer_gap", "missing_names"]
