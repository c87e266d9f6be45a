"""The analyst role: compare and reason over what the agents before it found.

- ``LLMAnalyst``: the chat model compares, weighs up and judges, from the earlier agents' answers and the
  passages they retrieved.
- ``LocalAnalyst``: a structured comparison, honestly limited. It reads the options the question names
  (``options_in``: "A or B", "A vs B", "between A and B", "compare A and/with B"), finds the evidence
  sentences about each one in the retrieved passages and the earlier answers (ranked by MiniLM cosine to
  the question), and lines them up: one bullet list per option, the sentences that mention several
  options, and the numbers the code agent printed. Without options it lists the most relevant points,
  most similar first, near-repeats skipped.

>>> options_in("For a small corpus, is BM25 or dense retrieval the better pick?")
['BM25', 'dense retrieval']
>>> options_in("Compare IVF and HNSW on memory use.")
['IVF', 'HNSW']

What the local analyst cannot do: weigh options for the user's case, do arithmetic on the evidence, or
notice that two sentences contradict each other. It says so in every answer, and says plainly when
nothing was found to compare.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import QUESTION_STOPWORDS, clean_query, mentions, prose_sentences, split_sentences, strip_citations
from ragkit.roles.llm import call_structured
from ragkit.roles.llm import format_documents
from ragkit.roles.supervisor_types import AgentAnswer, format_findings

LIMITS = ("This lines up what was found; it is not a judgement: the offline analyst does not weigh options for "
          "your case (pass chat_model= for a reasoned comparison).")
_WORD = re.compile(r"[\w@#+.'-]*\w|[,;:?!()]")
_JOINS = {"or", "vs", "versus", "against"}
# "between A and B", "compare A and/with/to B": the joins that count only after these openers
_OPENERS = {"between": {"and"}, "compare": {"and", "with", "to", "against"}, "comparing": {"and", "with", "to"}}
MAX_OPTION_WORDS = 3


@dataclass(frozen=True)
class Analysis:
    """The analyst's answer, the options it compared, how many evidence sentences it used."""

    text: str
    options: tuple[str, ...] = ()
    evidence: int = 0
    fallback: bool = False


@runtime_checkable
class Analyst(Protocol):
    def analyse(self, question: str, findings: Sequence[AgentAnswer] = (),
                documents: Sequence[Document] = ()) -> Analysis: ...


# English words that end an option's name: "is BM25 or dense retrieval [better] ...".
_OPTION_STOPS = frozenset("is are be better best worse worst preferable faster slower cheaper easier harder simpler "
                          "safer smarter wiser".split())


def _stop(word: str) -> bool:
    return not word[0].isalnum() or word.lower() in QUESTION_STOPWORDS or word.lower() in _OPTION_STOPS


def _phrase(words: list[str], skip: int = 0) -> list[str]:
    """Up to ``skip`` leading stopwords dropped, then words up to the next stopword or punctuation mark
    (at most MAX_OPTION_WORDS)."""
    while skip and words and _stop(words[0]) and words[0][0].isalnum():
        words, skip = words[1:], skip - 1
    out = []
    for word in words[:MAX_OPTION_WORDS]:
        if _stop(word):
            break
        out.append(word)
    return out


def options_in(question: str) -> list[str]:
    """The things a question asks to compare, as written (see the module docstring); [] when none."""
    words = _WORD.findall(question)
    lower = [w.lower() for w in words]
    for i, word in enumerate(lower):
        opener = next((j for j in range(i - 1, max(-1, i - 9), -1) if lower[j] in _OPENERS), None)
        pair = opener is not None and word in _OPENERS[lower[opener]]
        if word not in _JOINS and not pair:
            continue
        if pair:  # read forward from the opener: "between [a supervisor] with three workers and ..."
            left = _phrase(words[opener + 1:i], skip=2)  # type: ignore[operator]
        else:  # read backward from the join: "for a demo, [HNSW] or ..."
            left = list(reversed(_phrase(list(reversed(words[max(0, i - MAX_OPTION_WORDS):i])))))
        right = _phrase(words[i + 1:i + 3 + MAX_OPTION_WORDS], skip=2)
        if left and right:
            return [" ".join(left), " ".join(right)]
    return []


def evidence_sentences(findings: Sequence[AgentAnswer], documents: Sequence[Document]) -> list[tuple[str, str]]:
    """``(sentence, where it came from)`` from the passages and the earlier answers (code blocks left out)."""
    out: list[tuple[str, str]] = []
    for s in prose_sentences(list(documents)):
        doc = documents[s.doc]
        out.append((s.text, str(doc.metadata.get("id") or doc.metadata.get("title") or f"passage {s.doc + 1}")))
    for answer in findings:
        text = re.sub(r"```.*?```", " ", answer.text, flags=re.DOTALL)
        out.extend((strip_citations(s), f"{answer.agent} agent") for s in split_sentences(text) if len(s.split()) > 3)
    seen: set[str] = set()
    unique = []
    for sentence, where in out:
        key = " ".join(sentence.lower().split())
        if key not in seen:
            seen.add(key)
            unique.append((sentence, where))
    return unique


def printed_numbers(findings: Sequence[AgentAnswer], max_lines: int = 5) -> list[str]:
    """Lines of program output (inside the code agent's "Output" block) that hold a digit."""
    lines: list[str] = []
    for answer in findings:
        if answer.agent != "code":
            continue
        for block in re.findall(r"Output:\n```\n(.*?)```", answer.text, flags=re.DOTALL):
            lines.extend(line.strip() for line in block.splitlines() if re.search(r"\d", line))
    return lines[:max_lines]


class LocalAnalyst:
    """Structured comparison of the evidence (see the module docstring)."""

    def __init__(self, embedder: Embeddings | None = None, per_option: int = 2, max_points: int = 4,
                 duplicate_bar: float = 0.9):
        self.embedder = embedder if embedder is not None else load_embedder()
        self.per_option, self.max_points, self.duplicate_bar = per_option, max_points, duplicate_bar

    def analyse(self, question: str, findings: Sequence[AgentAnswer] = (),
                documents: Sequence[Document] = ()) -> Analysis:
        question = clean_query(question, what="question")
        evidence = evidence_sentences(findings, documents)
        numbers = printed_numbers(findings)
        if not evidence and not numbers:
            return Analysis("There is nothing to analyse: no earlier agent found anything for this question, and the "
                            "offline analyst does not reason without evidence. Ask for a handbook lookup first, or "
                            "pass chat_model= for a reasoned answer.")
        order: list[int] = []
        if evidence:
            vectors = embed(self.embedder, [question, *[s for s, _ in evidence]])
            sims = vectors[1:] @ vectors[0]
            order = [int(i) for i in np.argsort(-sims, kind="stable")]
        options = options_in(question)
        lines: list[str] = []
        used = 0
        if len(options) >= 2 and evidence:
            about = {o: [i for i in order if mentions(evidence[i][0], o)] for o in options}
            both = [i for i in order if sum(i in about[o] for o in options) >= 2]
            lines.append(f"Comparison of {' and '.join(options)}, from what was found:")
            for option in options:
                own = [i for i in about[option] if i not in both][: self.per_option]
                lines.append(f"- {option}: " + (" ".join(f"{evidence[i][0]} ({evidence[i][1]})" for i in own)
                                                if own else "nothing found about it."))
                used += len(own)
            if both:
                lines.append("- Both: " + " ".join(f"{evidence[i][0]} ({evidence[i][1]})" for i in both[: self.per_option]))
                used += min(len(both), self.per_option)
        elif evidence:
            picked = self._diverse(order, vectors[1:])
            lines.append("The points found that bear most on the question, most relevant first:")
            lines.extend(f"- {evidence[i][0]} ({evidence[i][1]})" for i in picked)
            used = len(picked)
        if numbers:
            lines.append("Results the code printed: " + "; ".join(numbers))
        lines.append(LIMITS)
        return Analysis("\n".join(lines), tuple(options), used)

    def _diverse(self, order: list[int], vectors: np.ndarray) -> list[int]:
        picked: list[int] = []
        for i in order:
            if all(float(vectors[i] @ vectors[j]) < self.duplicate_bar for j in picked):
                picked.append(i)
            if len(picked) == self.max_points:
                break
        return picked


ANALYST_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are an analyst on a team of agents. Compare, weigh up, judge or interpret, as the user's request "
     "asks, using what the earlier agents found and the passages below. Say which points are your judgement "
     "and which come from the findings, and keep the numbers and citations you use. Put the analysis in "
     "`analysis`.\n\nEarlier agents' answers:\n{findings}\n\nPassages:\n{documents}"),
    ("human", "{question}"),
])


class AnalysisText(BaseModel):
    analysis: str = Field(description="the comparison, judgement or interpretation for the user")


class LLMAnalyst:
    """The chat model analyses; a failed or malformed call says so (``fallback=True``).

    >>> from ragkit.core.chat_models import scripted
    >>> LLMAnalyst(scripted('{"analysis": "BM25 fits exact ids better."}')).analyse("BM25 or dense?").text
    'BM25 fits exact ids better.'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = ANALYST_PROMPT,
                 max_chars: int | None = 1_000):
        self.model, self.prompt, self.max_chars = model, prompt, max_chars

    def analyse(self, question: str, findings: Sequence[AgentAnswer] = (),
                documents: Sequence[Document] = ()) -> Analysis:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, AnalysisText, {
            "question": question, "findings": format_findings(findings, self.max_chars),
            "documents": format_documents(list(documents))})
        if not result.ok or not result.value.analysis.strip():
            return Analysis(f"The analyst could not answer ({result.note or 'empty reply'}).", fallback=True)
        return Analysis(result.value.analysis.strip())


__all__ = ["ANALYST_PROMPT", "Analysis", "AnalysisText", "Analyst", "LIMITS", "LLMAnalyst", "LocalAnalyst",
           "evidence_sentences", "options_in", "printed_numbers"]
