"""The CRAG judge: one of four verdicts on "can these documents answer this question?".

Corrective RAG (Yan et al., 2024) puts an evaluator between retrieval and writing. Here it returns one of
four verdicts, each with its own path through the graph (``ragkit.graphs.crag``):

- ``sufficient``: some documents answer it; ``keep`` lists them (0-based) and only those reach the writer;
- ``insufficient``: the documents are on topic but miss the answer; search again (``corrected_query``);
- ``ambiguous``: the question cannot be answered as asked; ask the user (``clarifying_question``);
- ``irrelevant``: the knowledge base does not cover it; refuse honestly.

``LocalJudge`` first reads the question's structure (``query_analyzer``, restricted to the fields the
documents carry, :mod:`ragkit.roles.query_analysis`). When the structure explains the whole question (a
list, a winner, a yes/no, a comparison over documents with fields), relevance is decided by the fields:
a document that carries them is on topic, and it passes only if it meets the question's conditions ("which
desserts have no nuts?" keeps the desserts without nuts, whatever their wording), so no relevance score
or wording rule can refuse a question the data answers. Otherwise it combines four signals, each a few
lines of plain code: the document grader's scores
(which documents pass, and how high the best one is), an *irrelevance threshold* on the best score, an
*ambiguity signal* (the question is under-specified: no key terms at all, or a pronoun with nothing it
could refer to; or the best documents come from different titles with almost the same score while the
question names neither), and an *answerability check* on every passing document
(``ragkit.roles.answerability``: the question's names and numbers occur in it, a "not" question meets a
"not" sentence, a "who/when/how many" question finds a name/date/number), so a passage that is on topic
but cannot hold the answer makes the verdict ``insufficient``, not ``sufficient``. ``LLMJudge`` asks a chat model for the verdict as a ``Literal`` field of a
pydantic schema; a failed call or malformed output takes the fail-soft default (keep the top candidates
as ``sufficient``, ``fallback=True``), so a broken judge never stops an answer that retrieval supports.

Simplifications: the thresholds are global numbers tuned once on SQuAD 2.0 articles 0-7 (see
``benchmarks/crag``) for the default ``LocalGrader``, not calibrated per corpus or per grader (a grader
with another score scale needs its own ``relevant_above``); "a name" is a capitalised word inside the question, so
a lower-case entity ("bm25") does not count as an antecedent; the title signal needs ``metadata["title"]``.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Sequence

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.nlp import clean_query, key_terms, words
from ragkit.defaults import JUDGE, QUERY_ANALYSIS
from ragkit.roles.answerability import answerability_gap, carries
from ragkit.roles.base import DocumentGrader, Judgement
from ragkit.roles.llm import call_structured
from ragkit.roles.prompts import format_documents

# Tuned on SQuAD 2.0 articles 0-7 for the default LocalGrader (benchmarks/crag/squad2_eval.py --mode tune; the
# grid, every row and the rule are in benchmarks/results/crag_squad2_tuning.json). The mean of the three rates
# (answerable answered, unanswerable refused, removed article refused) is flat from 0.08 to 0.28; within one
# standard error of its best the rule takes the setting that answers most: 0.08 (tune: 0.72 / 0.54 / 0.99).
RELEVANT_ABOVE = JUDGE.relevant_above
IRRELEVANT_BELOW = JUDGE.irrelevant_below
PRONOUNS = frozenset("he she him her his hers it its they them their theirs".split())
_TOKEN = re.compile(r"[\w'-]+")


def has_antecedent(question: str) -> bool:
    """True when the question names something: a capitalised word after the first word, or a number.

    >>> has_antecedent("What did they build in Warsaw?"), has_antecedent("What did they build?")
    (True, False)
    """
    tokens = _TOKEN.findall(question)
    return any(t[0].isdigit() for t in tokens) or any(t[0].isupper() and t != "I" for t in tokens[1:])


def fail_soft(documents: Sequence[Document], note: str, top: int = 3) -> Judgement:
    """The judge's safe default: keep the top ``top`` candidates as ``sufficient`` and flag ``fallback``.

    >>> fail_soft([Document("a"), Document("b")], "model call failed").keep
    (0, 1)
    """
    return Judgement("sufficient", keep=tuple(range(min(top, len(documents)))), note=f"fail-soft: {note}", fallback=True)


def underspecified(question: str) -> str | None:
    """Why a question cannot be answered as asked (no key terms, or a pronoun with no antecedent), or None.

    An antecedent is anything that could name what the pronoun means: a capitalised word after the first
    word, or a number.

    >>> underspecified("When did he die?")
    "the pronoun 'he' does not say who or what is meant"
    >>> underspecified("When did Chopin die?") is None
    True
    >>> underspecified("What about it?")
    'the question has no key terms'
    """
    if not key_terms(question):
        return "the question has no key terms"
    pronouns = [w for w in words(question) if w in PRONOUNS]
    if pronouns and not has_antecedent(question):
        return f"the pronoun {pronouns[0]!r} does not say who or what is meant"
    return None


def title_split(question: str, documents: Sequence[Document], scores: Sequence[float], margin: float) -> tuple[str, str] | None:
    """Two titles the best documents are split between (scores within ``margin``, the question not telling them apart), or None.

    >>> docs = [Document("x", metadata={"title": "Mercury (planet)"}), Document("y", metadata={"title": "Mercury (element)"})]
    >>> title_split("How heavy is mercury?", docs, [0.61, 0.58], margin=0.05)
    ('Mercury (planet)', 'Mercury (element)')
    >>> title_split("How heavy is mercury?", docs, [0.61, 0.40], margin=0.05) is None
    True
    """
    if len(documents) < 2:
        return None
    order = sorted(range(len(documents)), key=lambda i: -scores[i])
    best = order[0]
    best_title = str(documents[best].metadata.get("title") or "")
    if not best_title:
        return None
    rival = next((i for i in order[1:] if str(documents[i].metadata.get("title") or best_title) != best_title), None)
    if rival is None or scores[best] - scores[rival] > margin:
        return None
    rival_title = str(documents[rival].metadata.get("title"))
    asked, a, b = set(key_terms(question)), set(key_terms(best_title)), set(key_terms(rival_title))
    if asked & (a ^ b):
        return None  # the question names a word that tells the two apart
    return best_title, rival_title


class LocalJudge:
    """Offline judge: the grader's scores + an ambiguity signal + an irrelevance threshold, in that order.

    A document passes when the grader says ``relevant`` (or, with ``relevant_above`` set, when its score
    reaches it) and, with ``check_answerable``, when ``answerability_gap`` finds no reason it cannot hold
    the answer. Decision order: nothing retrieved or best score below ``irrelevant_below`` with no document
    relevant -> ``irrelevant``; an under-specified question -> ``ambiguous``; no document passing ->
    ``insufficient``; the best passing documents split between two titles within ``ambiguity_margin`` ->
    ``ambiguous``; otherwise ``sufficient`` with the passing documents (best first, at most ``max_keep``).

    >>> judge = LocalJudge()  # doctest: +SKIP
    >>> judge.judge("When did he die?", docs).verdict  # doctest: +SKIP
    'ambiguous'
    """

    def __init__(
        self,
        grader: DocumentGrader | None = None,
        irrelevant_below: float = IRRELEVANT_BELOW,
        ambiguity_margin: float = JUDGE.ambiguity_margin,
        max_keep: int = JUDGE.max_keep,
        relevant_above: float | None = RELEVANT_ABOVE,
        check_answerable: bool = True,
        query_analyzer: Any | None = None,
        related_bar: float | None = QUERY_ANALYSIS.related_bar,
        negation_check: bool = QUERY_ANALYSIS.negation_check,
    ):
        if grader is None:
            from ragkit.roles import LocalGrader  # lazy: building a judge with your own grader loads no model

            grader = LocalGrader()
        if max_keep < 1:
            raise ValueError(f"max_keep must be at least 1, got {max_keep}")
        self.grader = grader
        self.irrelevant_below = irrelevant_below
        self.ambiguity_margin = ambiguity_margin
        self.max_keep = max_keep
        self.relevant_above = relevant_above  # None: trust the grader's own ``relevant`` flag
        self.check_answerable = check_answerable
        self.query_analyzer = query_analyzer  # None: no structure, the wording checks only
        self.related_bar = related_bar
        self.negation_check = negation_check

    def analyse(self, question: str, documents: Sequence[Document]) -> Any | None:
        """The question's analysis over the fields these documents carry (None without an analyser)."""
        if self.query_analyzer is None:
            return None
        restricted = getattr(self.query_analyzer, "restricted", None)
        return (restricted(documents) if restricted else self.query_analyzer).analyze(question)

    def gap(self, question: str, document: Document, analysis: Any | None) -> str | None:
        if not self.check_answerable:
            return None
        return answerability_gap(question, document.page_content, analysis, document.metadata,
                                 related_bar=self.related_bar, negation_check=self.negation_check)

    def judge(self, question: str, documents: Sequence[Document]) -> Judgement:
        question = clean_query(question, what="question")
        documents = list(documents)
        if not documents:
            return Judgement("irrelevant", note="nothing was retrieved")
        grades = self.grader.grade_many(question, documents)
        scores = [g.score for g in grades]
        bar = self.relevant_above
        analysis = self.analyse(question, documents)
        fielded = [i for i, d in enumerate(documents) if carries(d.metadata, analysis)]
        by_fields = analysis is not None and analysis.covered and bool(fielded)
        if by_fields:  # the fields decide what is on topic, not the wording
            relevant = sorted(fielded, key=lambda i: -scores[i])
        else:
            relevant = sorted((i for i, g in enumerate(grades) if (g.relevant if bar is None else g.score >= bar)),
                              key=lambda i: -scores[i])
        top = max(scores)
        if not relevant and top < self.irrelevant_below:
            return Judgement("irrelevant", note=f"best score {top:.2f} < {self.irrelevant_below:.2f} and no document passed")
        gaps = {i: self.gap(question, documents[i], analysis) for i in relevant}
        passing = [i for i in relevant if gaps[i] is None]
        vague = underspecified(question)
        if vague and not by_fields:
            pronoun = re.search(r"'(\w+)'", vague)
            ask = f"Who or what do you mean by '{pronoun.group(1)}'?" if pronoun else "What exactly would you like to know?"
            return Judgement("ambiguous", keep=tuple(passing[: self.max_keep]), note=vague, clarifying_question=ask)
        if not relevant:
            return Judgement("insufficient", note=f"no document passed the grader (best score {top:.2f})")
        if by_fields and analysis.comparison is not None:
            found = {str(documents[i].metadata.get("id")) for i in passing}
            if not set(analysis.comparison.ids) <= found:
                names = [n for n in (analysis_name(documents, analysis, i) for i in analysis.comparison.ids) if n]
                return Judgement("insufficient", keep=tuple(passing[: self.max_keep]),
                                 note="only one of the two items compared was retrieved",
                                 corrected_query=" ".join(names) or None)
        if not passing:
            return Judgement("insufficient", note=f"{len(relevant)} relevant, but none can answer: {gaps[relevant[0]]}")
        if not by_fields:
            split = title_split(question, [documents[i] for i in passing], [scores[i] for i in passing], self.ambiguity_margin)
            if split:
                return Judgement("ambiguous", keep=tuple(passing[: self.max_keep]),
                                 note=f"the best documents are split between {split[0]!r} and {split[1]!r}",
                                 clarifying_question=f"Do you mean {split[0]} or {split[1]}?")
        keep = tuple(passing[: self.max_keep])
        how = f"by the question's conditions ({analysis.describe()})" if by_fields else f"best {top:.2f}"
        return Judgement("sufficient", keep=keep, note=f"{len(passing)} of {len(documents)} documents passed ({how})")


def analysis_name(documents: Sequence[Document], analysis: Any, item_id: str) -> str | None:
    """The name of a compared item: its title among the documents, else from the analyser's vocabulary notes."""
    for d in documents:
        if str(d.metadata.get("id")) == item_id and isinstance(d.metadata.get("title"), str):
            return d.metadata["title"]
    for note in getattr(analysis, "notes", ()):
        match = re.match(r"compare '(.+)' and '(.+)' on", note)
        if match:
            return match.group(1 if item_id == analysis.comparison.ids[0] else 2)
    return None


# ---------------------------------------------------------------- LLM judge
JUDGE_PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You judge whether retrieved documents can answer a user question, before anyone writes an "
            "answer. Choose exactly one verdict:\n"
            "- sufficient: one or more documents contain the answer. List their numbers in `keep`.\n"
            "- insufficient: the documents are about the right topic but do not contain the answer. Put a "
            "better search query in `corrected_query` (keep every name and number of the question).\n"
            "- ambiguous: the question cannot be answered as asked, because it could mean several "
            "different things or refers to something it does not name. Put one short question to ask "
            "the user in `clarifying_question`.\n"
            "- irrelevant: the documents are about something else entirely; the knowledge base does "
            "not cover the question.\n"
            "Judge by meaning, not by shared words.",
        ),
        ("human", "Documents:\n\n{documents}\n\nUser question: {question}"),
    ]
)


class JudgeVerdict(BaseModel):
    """What the LLM judge must return (parsed by structured output)."""

    verdict: Literal["sufficient", "insufficient", "ambiguous", "irrelevant"] = Field(description="the judgement")
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
        self.model = model
        self.prompt = prompt
        self.fallback_keep = fallback_keep

    def judge(self, question: str, documents: Sequence[Document]) -> Judgement:
        question = clean_query(question, what="question")
        documents = list(documents)
        if not documents:
            return Judgement("irrelevant", note="nothing was retrieved")
        call = call_structured(self.model, self.prompt, JudgeVerdict, {"question": question, "documents": format_documents(documents)})
        if call.value is None:
            return fail_soft(documents, call.note, self.fallback_keep)
        out = call.value
        keep = tuple(dict.fromkeys(n - 1 for n in out.keep if 1 <= n <= len(documents)))  # code disposes: valid, unique
        if out.verdict == "sufficient" and not keep:
            return fail_soft(documents, "verdict 'sufficient' without any valid document number", self.fallback_keep)
        corrected = (out.corrected_query or "").strip() or None
        clarifying = (out.clarifying_question or "").strip() or None
        if out.verdict == "ambiguous" and clarifying is None:
            clarifying = "Could you say more precisely what you mean?"
        return Judgement(out.verdict, keep=keep, note=out.reason, clarifying_question=clarifying,
                         corrected_query=corrected if out.verdict == "insufficient" else None)


__all__ = ["JUDGE_PROMPT", "JudgeVerdict", "LLMJudge", "LocalJudge", "fail_soft", "has_antecedent", "title_split", "underspecified"]
