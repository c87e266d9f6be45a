"""The vocabulary of the supervisor graph: its agents, one agent's answer, and what the next agent sees.

Every agent of ``ragkit.graphs.supervisor`` writes an :class:`AgentAnswer`; the agents after it receive
the question plus the earlier answers, each cut to ``max_chars`` (:func:`format_findings`), so a long
handbook quote or a flood of program output cannot crowd the next agent's prompt.

>>> print(format_findings([AgentAnswer("rag", "RRF adds 1/(k + rank) for each list."),
...                        AgentAnswer("code", "x" * 50)], max_chars=20))
[rag agent]
RRF adds 1/(k + rank ...
<BLANKLINE>
[code agent]
xxxxxxxxxxxxxxxxxxxx ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from langchain_core.documents import Document

AgentName = Literal["rag", "code", "analysis", "chitchat"]
AGENTS: tuple[AgentName, ...] = ("rag", "code", "analysis", "chitchat")
DEFAULT_AGENT: AgentName = "rag"  # what an empty or unusable plan falls back to: looking it up is the safest step

AGENT_DESCRIPTIONS: dict[str, str] = {
    "rag": "Looks things up in the technical handbook: definitions, formulas, parameters, defaults, what a "
           "section says or what its example shows, explanations of a concept or an API.",
    "code": "Writes, runs or computes with Python: implement a function, compute a number, run a snippet, "
            "simulate, measure or benchmark something.",
    "analysis": "Compares options, weighs trade-offs, judges or recommends for a given case, interprets "
                "numbers or results, summarises what was found.",
    "chitchat": "Greetings, thanks, farewells and small talk with no request for information or code.",
}
AGENT_TITLES: dict[str, str] = {"rag": "From the handbook", "code": "Code, run in the sandbox",
                                "analysis": "Analysis", "chitchat": "Reply"}


@dataclass(frozen=True)
class AgentAnswer:
    """What one agent produced: its answer text, the documents it used, and whether it did its part."""

    agent: AgentName
    text: str
    documents: tuple[Document, ...] = ()
    ok: bool = True  # False when the agent could not do its part (a refusal, code that failed, an error)
    note: str = ""


def truncate(text: str, max_chars: int | None) -> str:
    """``text`` cut to ``max_chars`` characters with `` ...`` (None: no limit).

    >>> truncate("abcdef", 3), truncate("abc", 3)
    ('abc ...', 'abc')
    """
    text = text.strip()
    return text if max_chars is None or len(text) <= max_chars else text[:max_chars].rstrip() + " ..."


def format_findings(answers: Sequence[AgentAnswer], max_chars: int | None = 1_000) -> str:
    """The earlier agents' answers for the next agent's prompt, each cut to ``max_chars``."""
    if not answers:
        return "(no earlier agent has answered)"
    return "\n\n".join(f"[{a.agent} agent]\n{truncate(a.text, max_chars)}" for a in answers)


__all__ = ["AGENTS", "AGENT_DESCRIPTIONS", "AGENT_TITLES", "DEFAULT_AGENT", "AgentAnswer", "AgentName",
           "format_findings", "truncate"]
