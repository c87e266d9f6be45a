"""The aggregator role: one answer from the answers of the agents that ran, keeping each one's details.

After the supervisor's last hop, the aggregator turns the agents' answers (a handbook lookup, code with
its output, an analysis ...) into the reply the user reads. Its one rule: keep every technical detail an
agent gave (code, program output, numbers, citations, error messages) and say which parts could not be
done.

- ``LocalAggregator``: a structured merge. One answer is returned as it is; several become numbered
  sections in the order the agents ran, each under the agent's title, with sentences an earlier agent
  already said dropped (code blocks are never touched), and a last line naming the agents that could not
  do their part.
- ``LLMAggregator``: the chat model combines them ("keeping each agent's technical details"); with one
  answer it is not called, and a failed call falls back to the local merge (``fallback=True``).

>>> from ragkit.roles.supervisor_types import AgentAnswer
>>> merged = LocalAggregator().combine("q", [AgentAnswer("rag", "RRF adds 1/(k + rank) [1]."),
...                                           AgentAnswer("code", "RRF adds 1/(k + rank) [1]. It printed 0.0328.")])
>>> print(merged.text)
1. From the handbook (rag agent)
RRF adds 1/(k + rank) [1].
<BLANKLINE>
2. Code, run in the sandbox (code agent)
It printed 0.0328.

Simplifications: repeats are found by exact sentence text after removing citations and case, so a
paraphrase of an earlier sentence stays; the local merge does not reconcile answers that disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.nlp import split_sentences, strip_citations
from ragkit.roles.llm import call_structured
from ragkit.roles.supervisor_types import AGENT_TITLES, AgentAnswer, format_findings

_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Aggregate:
    """The final answer, the agents it was built from, and whether the LLM's safe default was used."""

    text: str
    agents: tuple[str, ...] = ()
    fallback: bool = False


@runtime_checkable
class Aggregator(Protocol):
    def combine(self, question: str, answers: Sequence[AgentAnswer]) -> Aggregate: ...


def _key(sentence: str) -> str:
    return " ".join(strip_citations(sentence).lower().split()).rstrip(".!?")


def drop_repeats(text: str, seen: set[str]) -> str:
    """The text without sentences already in ``seen`` (updated in place); code blocks are kept whole.

    >>> seen = {"it is fast"}
    >>> drop_repeats("It is fast [2]. It is exact.\\n```\\nprint(1)\\n```", seen)
    'It is exact.\\n```\\nprint(1)\\n```'
    """
    out: list[str] = []
    in_code = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            out.append(line)
            continue
        if in_code or not line.strip():
            out.append(line)
            continue
        prefix = re.match(r"^\s*([-*]|\d+[.)])\s+", line)
        body = line[prefix.end():] if prefix else line
        kept = [s for s in split_sentences(body) if _key(s) not in seen]
        seen.update(_key(s) for s in split_sentences(body))
        if kept:
            out.append((prefix.group(0) if prefix else "") + " ".join(kept))
    return "\n".join(out).strip()


class LocalAggregator:
    """Numbered sections in the order the agents ran, repeats dropped (see the module docstring)."""

    def combine(self, question: str, answers: Sequence[AgentAnswer]) -> Aggregate:
        answers = [a for a in answers if a.text.strip()]
        if not answers:
            return Aggregate("No agent produced an answer to this question.", (), fallback=True)
        agents = tuple(a.agent for a in answers)
        if len(answers) == 1:
            return Aggregate(answers[0].text.strip(), agents)
        seen: set[str] = set()
        sections = []
        for n, answer in enumerate(answers, start=1):
            body = drop_repeats(answer.text, seen) or "(this repeats what the agents above said)"
            sections.append(f"{n}. {AGENT_TITLES[answer.agent]} ({answer.agent} agent)\n{body}")
        failed = [a.agent for a in answers if not a.ok]
        if failed:
            sections.append("Not done: the " + ", ".join(dict.fromkeys(failed)) + " agent could not do its part "
                            "(see above).")
        return Aggregate("\n\n".join(sections), agents)


AGGREGATOR_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You combine the answers of several specialist agents into one answer to the user's request. Keep every "
     "technical detail each agent gave: code (in code blocks), program output, numbers, formulas, citations "
     "such as [1], and error messages. Do not add facts that none of them gave. If an agent could not do its "
     "part, say so plainly. Put the answer in `answer`."),
    ("human", "Request: {question}\n\nAgents' answers, in the order they ran:\n\n{answers}"),
])


class CombinedAnswer(BaseModel):
    answer: str = Field(description="the combined answer for the user")


class LLMAggregator:
    """The chat model merges several answers; one answer passes through; a failure -> the local merge.

    >>> from ragkit.core.chat_models import scripted
    >>> agg = LLMAggregator(scripted('{"answer": "RRF fuses ranks; the code printed 0.03."}'))
    >>> agg.combine("q", [AgentAnswer("rag", "RRF fuses ranks."), AgentAnswer("code", "0.03")]).text
    'RRF fuses ranks; the code printed 0.03.'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = AGGREGATOR_PROMPT):
        self.model, self.prompt = model, prompt

    def combine(self, question: str, answers: Sequence[AgentAnswer]) -> Aggregate:
        answers = [a for a in answers if a.text.strip()]
        if len(answers) <= 1:
            return LocalAggregator().combine(question, answers)
        result = call_structured(self.model, self.prompt, CombinedAnswer,
                                 {"question": question, "answers": format_findings(answers, max_chars=None)})
        if not result.ok or not result.value.answer.strip():
            merged = LocalAggregator().combine(question, answers)
            return Aggregate(merged.text, merged.agents, fallback=True)
        return Aggregate(result.value.answer.strip(), tuple(a.agent for a in answers))


__all__ = ["AGGREGATOR_PROMPT", "Aggregate", "Aggregator", "CombinedAnswer", "LLMAggregator", "LocalAggregator",
           "drop_repeats"]
