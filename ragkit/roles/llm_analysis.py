"""LLM roles that analyse a question or its evidence before anyone writes: a prompt plus structured output.

Each role asks the chat model (:func:`ragkit.roles.llm.call_structured`) for ``Literal`` fields, never
strings compared afterwards, and takes its documented safe default on any failure. The prompts name no
corpus: the domain's descriptions are passed in.

:class:`LLMQueryAnalyzer` asks for an :class:`AnalysisSchema`, shown the data's fields, values and items
(the ``vocabulary`` of the local analyser it is given; what the data is comes in as ``description``, the
menu's is :data:`ragkit.domains.menu.vocabulary.MENU_DESCRIPTION`). Every field, value and item it names
is checked against that vocabulary (an unknown one is dropped with a note) and the checked pieces are
assembled as the local analyser's are (:func:`ragkit.roles.structured_query.analysis_from_parse`); a
failed call or malformed output falls back to the local analysis, marked ``fallback=True``. What it
cannot do: report which of the question's words it used (``used`` stays empty, so a judge re-checks its
values by wording).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.nlp import clean_query
from ragkit.roles.llm import call_structured, choice_schema, document_indexes, format_documents, format_routes
from ragkit.roles.protocols import EvidenceGrade, EvidenceVerdict, KindDecision, RouteSpec, check_routes
from ragkit.roles.structured_query import Parse, QueryAnalysis, analysis_from_parse

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


# ---------------------------------------------------------------- query analyser
class Condition(BaseModel):
    """One filter condition on a field of the data."""

    attribute: str = Field(description="a field name from the list given")
    op: Literal["eq", "ne", "contain", "not_contain", "lt", "lte", "gt", "gte", "is_null", "not_null"] = Field(
        description="eq/ne for one-value fields, contain/not_contain for list fields, lt..gte for numbers, "
                    "is_null/not_null for 'has no value' / 'has a value'")
    value: str | float | None = Field(default=None, description="a value from the list given, or a number")


class AnalysisSchema(BaseModel):
    """The structured query the model proposes."""

    search_text: str = Field(default="", description="what to search for by similarity, without the conditions")
    conditions: list[Condition] = Field(default_factory=list)
    sort_attribute: str | None = Field(default=None, description="numeric field for a superlative (cheapest, oldest)")
    sort_descending: bool = Field(default=False, description="true for most expensive / newest")
    limit: int | None = Field(default=None, description="how many the superlative asks for (1 by default)")
    compare_items: list[str] = Field(default_factory=list, description="exactly two item names for 'is A ...-er than B'")
    compare_attribute: str | None = None
    compare_want: Literal["higher", "lower"] | None = Field(default=None, description="which value wins the comparison")
    subject_item: str | None = Field(default=None, description="the one item name a yes/no question asks about")
    yes_no: bool = Field(default=False, description="true when the question asks yes or no")
    negated: list[str] = Field(default_factory=list, description="what the question excludes, in its own words")


QUERY_ANALYSIS_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You turn a user's question into a structured query over {description}. Use ONLY the fields and values "
     "listed; prices are numbers. 'No X', 'without X', 'X-free' exclude items whose list field contains X (use "
     "every listed value that means X); 'under X' is lt, 'X or less' lte, 'between X and Y' gte X and lte Y. A "
     "superlative (cheapest, most expensive, oldest) is a sort plus limit; 'Is A more expensive than B?' compares "
     "two named items. Leave out anything you cannot express.\n\nFields and values:\n{vocabulary}"),
    ("human", "{question}"),
])
NEUTRAL_DESCRIPTION = "a collection of items with fields"


class LLMQueryAnalyzer:
    """A chat model proposes the structured query; code keeps only fields, values and items the data has.

    >>> from ragkit.core.chat_models import scripted
    >>> from ragkit.offline.query_analysis import LocalQueryAnalyzer
    >>> docs = [Document("x", metadata={"id": "a", "title": "Tart", "course": "dessert", "price": 8.0}),
    ...         Document("y", metadata={"id": "b", "title": "Soup", "course": "starter", "price": 9.0})]
    >>> llm = LLMQueryAnalyzer(scripted({"conditions": [{"attribute": "course", "op": "eq", "value": "dessert"},
    ...                                                 {"attribute": "colour", "op": "eq", "value": "red"}]}),
    ...                        LocalQueryAnalyzer(docs, embedder=False))
    >>> a = llm.analyze("Which desserts are red?")
    >>> a.describe(), a.notes
    ('course is dessert', ("dropped condition on unknown field 'colour'",))
    """

    def __init__(self, model: BaseChatModel, local: Any, description: str = NEUTRAL_DESCRIPTION,
                 prompt: ChatPromptTemplate = QUERY_ANALYSIS_PROMPT):
        self.model, self.local, self.description, self.prompt = model, local, description, prompt

    @property
    def vocabulary(self) -> Any:
        return self.local.vocabulary

    def for_documents(self, documents: Sequence[Document]) -> "LLMQueryAnalyzer":
        return LLMQueryAnalyzer(self.model, self.local.for_documents(documents), self.description, self.prompt)

    def restricted(self, documents: Sequence[Document]) -> "LLMQueryAnalyzer":
        return LLMQueryAnalyzer(self.model, self.local.restricted(documents), self.description, self.prompt)

    def analyze(self, question: str) -> QueryAnalysis:
        question = clean_query(question, what="question")
        call = call_structured(self.model, self.prompt, AnalysisSchema, {
            "question": question, "vocabulary": self.vocabulary.prompt_text(), "description": self.description})
        if call.value is None:
            local = self.local.analyze(question)
            return dataclasses.replace(local, fallback=True, notes=(f"LLM analysis failed ({call.note}); local analysis used",)
                                       + local.notes)
        return self.check(question, call.value)

    def check(self, question: str, out: AnalysisSchema) -> QueryAnalysis:
        """Code disposes: keep what the vocabulary knows, drop the rest with a note."""
        v, notes, conditions = self.vocabulary, [], []
        for c in out.conditions:
            kept = v.check_condition(c.attribute, c.op, c.value)
            if isinstance(kept, str):
                notes.append(kept)
            else:
                conditions.append(kept)
        sort = None
        if out.sort_attribute:
            if out.sort_attribute in v.numeric:
                sort = (out.sort_attribute, bool(out.sort_descending))
            else:
                notes.append(f"dropped sort on unknown or non-numeric field {out.sort_attribute!r}")
        comparison = None
        if out.compare_items:
            ids = [v.resolve_name(n) for n in out.compare_items]
            if len(ids) == 2 and all(ids) and ids[0] != ids[1] and out.compare_attribute in v.numeric and out.compare_want:
                comparison = ((ids[0], ids[1]), out.compare_attribute, out.compare_want, bool(out.yes_no))
            else:
                notes.append(f"dropped comparison of {out.compare_items!r}: items or field not in the data")
        subject = v.resolve_name(out.subject_item) if out.subject_item else None
        if out.subject_item and subject is None:
            notes.append(f"dropped unknown item {out.subject_item!r}")
        limit = out.limit if isinstance(out.limit, int) and out.limit > 0 else 1
        parse = Parse(conditions=conditions, sort=sort, limit=limit, comparison=comparison, subject=subject,
                      polar=bool(out.yes_no), negated=[n for n in out.negated if n.strip()],
                      search_text=out.search_text.strip() or question)
        return analysis_from_parse(question, parse, v.list_fields, extra_notes=notes)


__all__ = ['AnalysisSchema', 'CLASSIFIER_PROMPT', 'Condition', 'EVIDENCE_PROMPT', 'EvidenceVerdictSchema', 'LLMEvidenceGrader', 'LLMQueryAnalyzer', 'LLMQuestionClassifier', 'NEUTRAL_DESCRIPTION', 'QUERY_ANALYSIS_PROMPT']
