"""The LLM query analyser: a chat model proposes the structured query, code keeps what the data has.

:class:`LLMQueryAnalyzer` asks the model (:func:`ragkit.roles.llm.call_structured`) for an
:class:`AnalysisSchema`: search text, filter conditions on named fields, a sort, two items to compare, the one
item asked about, whether the question asks yes or no. The prompt lists the data's fields and values (from a
local analyser's vocabulary) and names no corpus: a domain passes its own description (the menu's is
``ragkit.domains.menu.vocabulary.MENU_DESCRIPTION``). Code then disposes: a condition on a field or value the
vocabulary does not know, a sort on a non-numeric field, an item the data does not have are dropped, each
with a note, and what is left is assembled like the local analysis (:mod:`ragkit.roles.query_parse`) into a
:class:`ragkit.roles.structured_query.QueryAnalysis`.

What it cannot do: the whole vocabulary goes into the prompt, so a large catalogue makes a long prompt; the
model reports no "which ..." intent and no left-over words, so a list question comes back as kind
``lookup`` with its filter (the search still applies the filter) and nothing is marked unexplained; it does
not compare a superlative's winner with a named item ("the cheapest red, and is it cheaper than the
Barolo?" keeps only the sort). When the model fails, the local analysis is used and marked ``fallback``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.nlp import clean_query
from ragkit.roles.llm import call_structured
from ragkit.roles.query_parse import Parse, analysis_from_parse
from ragkit.roles.structured_query import QueryAnalysis


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


__all__ = ["AnalysisSchema", "Condition", "LLMQueryAnalyzer", "NEUTRAL_DESCRIPTION", "QUERY_ANALYSIS_PROMPT"]
