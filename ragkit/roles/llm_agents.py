"""The LLM roles of the supervisor graph: supervisor, analyst, coder and aggregator (the small-talk reply,
``LLMSmallTalk``, is in :mod:`ragkit.roles.llm_queries`).

Each is a prompt plus structured output (:func:`ragkit.roles.llm.call_structured`; ``LLMSupervisor`` parses
a comma-separated reply) with a safe default: a supervisor whose reply is unusable plans the default agent
(``rag``), an analyst or coder that gets no usable output says so (``fallback=True``), an aggregator falls back
to the merge it is given. The agents' descriptions name the corpus, so they are passed in (domain data).
Whatever a supervisor plans, the graph normalises it again (``normalise_sequence``).
"""

from __future__ import annotations

import re
from typing import Literal, Mapping, Sequence

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import message_text
from ragkit.core.nlp import clean_query, code_blocks
from ragkit.defaults import SUPERVISOR
from ragkit.roles.agent_protocols import (
    AGENTS,
    DEFAULT_AGENT,
    AgentAnswer,
    AgentName,
    Aggregate,
    Aggregator,
    Analysis,
    CodeDraft,
    Plan,
    normalise_sequence,
    truncate,
)
from ragkit.roles.llm import call_structured, format_documents


def format_findings(answers: Sequence[AgentAnswer], max_chars: int | None = 1_000) -> str:
    """The earlier agents' answers for the next agent's prompt, each cut to ``max_chars``.

    >>> print(format_findings([AgentAnswer("rag", "RRF adds 1/(k + rank) for each list.")], max_chars=20))
    [rag agent]
    RRF adds 1/(k + rank ...
    """
    if not answers:
        return "(no earlier agent has answered)"
    return "\n\n".join(f"[{a.agent} agent]\n{truncate(a.text, max_chars)}" for a in answers)


def team_inputs(question: str, findings: Sequence[AgentAnswer], documents: Sequence[Document],
                max_chars: int | None) -> dict[str, str]:
    """The prompt variables of an agent that works on what the earlier agents found."""
    return {"question": question, "findings": format_findings(findings, max_chars),
            "documents": format_documents(list(documents))}


# ---------------------------------------------------------------- supervisor
def parse_agent_names(text: str) -> list[str]:
    """The items of a "comma-separated agent names" reply, in order (bullets, numbers, arrows tolerated).

    >>> parse_agent_names("rag_agent, code_agent")
    ['rag_agent', 'code_agent']
    >>> parse_agent_names("1. rag_agent\\n2. analysis_agent -> aggregator")
    ['rag_agent', 'analysis_agent', 'aggregator']
    """
    parts = re.split(r"[,;\n]|->|=>|\u2192|\bthen\b", text)
    return [p for p in (re.sub(r"^\s*(\d+[.)]|[-*\u2022])\s*", "", part).strip() for part in parts) if p]


def format_agents(descriptions: Mapping[str, str]) -> str:
    """One line per agent for the supervisor prompts."""
    return "\n".join(f"- {name}_agent: {descriptions[name]}" for name in AGENTS)


SUPERVISOR_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are a supervisor managing a team of specialist agents:\n{agents}\n\n"
     "Given the user's request, decide which agent or agents should act, in the order their work must "
     "happen (an agent can use what the agents before it found). Use several agents only when the request "
     "asks for several kinds of work, and at most {max_hops}. A greeting in front of a real request needs "
     "no chitchat_agent.\nReply with the agent name(s), comma-separated, and nothing else."),
    ("human", "{question}"),
])

class LLMSupervisor:
    """The original recipe: the chat model replies with comma-separated agent names; code parses
    (:func:`parse_agent_names`) and normalises them.

    >>> from ragkit.core.chat_models import scripted
    >>> team = {name: f"the {name} agent" for name in AGENTS}  # one line per agent (domain data)
    >>> LLMSupervisor(scripted("rag_agent, code_agent, code_agent, oracle"), team).plan("Find it, then code it.")
    Plan(sequence=('rag', 'code'), tasks=(), note='rag_agent, code_agent, code_agent, oracle', dropped=('oracle',), fallback=False)
    """

    def __init__(self, model: BaseChatModel, descriptions: Mapping[str, str],
                 prompt: ChatPromptTemplate = SUPERVISOR_PROMPT, default: AgentName = DEFAULT_AGENT):
        self.model, self.descriptions, self.prompt, self.default = model, descriptions, prompt, default

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> Plan:
        question = clean_query(question, what="question")
        messages = self.prompt.format_messages(agents=format_agents(self.descriptions), max_hops=max_hops,
                                               question=question)
        try:
            reply = message_text(self.model.invoke(messages)).strip()
        except Exception as err:  # noqa: BLE001 - a failed call takes the stated default
            return Plan((self.default,), (), f"model call failed: {type(err).__name__}: {err}"[:200], (), True)
        sequence, dropped, fallback = normalise_sequence(parse_agent_names(reply), max_hops, self.default)
        return Plan(sequence, (), reply[:200], dropped, fallback)


class AgentChoice(BaseModel):
    """The structured-output form of the supervisor's decision."""

    agents: list[Literal["rag_agent", "code_agent", "analysis_agent", "chitchat_agent"]] = Field(
        description="the agents to run, in the order their work must happen")
    reason: str = Field(default="", description="one short sentence saying why")


STRUCTURED_SUPERVISOR_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are a supervisor managing a team of specialist agents:\n{agents}\n\n"
     "Given the user's request, list in `agents` the agent or agents that should act, in the order their "
     "work must happen; several only when the request asks for several kinds of work, at most {max_hops}. "
     "A greeting in front of a real request needs no chitchat_agent."),
    ("human", "{question}"),
])


class LLMStructuredSupervisor:
    """The same decision as structured output (a list of ``Literal`` names); a malformed reply -> default.

    >>> from ragkit.core.chat_models import scripted
    >>> team = {name: f"the {name} agent" for name in AGENTS}
    >>> LLMStructuredSupervisor(scripted('{"agents": ["code_agent", "analysis_agent"]}'), team).plan("Judge it.").sequence
    ('code', 'analysis')
    """

    def __init__(self, model: BaseChatModel, descriptions: Mapping[str, str],
                 prompt: ChatPromptTemplate = STRUCTURED_SUPERVISOR_PROMPT, default: AgentName = DEFAULT_AGENT):
        self.model, self.descriptions, self.prompt, self.default = model, descriptions, prompt, default

    def plan(self, question: str, max_hops: int = SUPERVISOR.max_hops) -> Plan:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, AgentChoice, {
            "agents": format_agents(self.descriptions), "max_hops": max_hops, "question": question})
        if not result.ok:
            return Plan((self.default,), (), result.note, (), True)
        sequence, dropped, fallback = normalise_sequence(result.value.agents, max_hops, self.default)
        return Plan(sequence, (), result.value.reason, dropped, fallback)


# ---------------------------------------------------------------- analyst
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
        result = call_structured(self.model, self.prompt, AnalysisText, team_inputs(question, findings, documents,
                                                                                    self.max_chars))
        if not result.ok or not result.value.analysis.strip():
            return Analysis(f"The analyst could not answer ({result.note or 'empty reply'}).", fallback=True)
        return Analysis(result.value.analysis.strip())


# ---------------------------------------------------------------- coder
CODER_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are the code agent on a team of agents. Write one short, self-contained Python 3 program for the "
     "user's request. Use the standard library only (no numpy, pandas or network access): it runs in a "
     "sandbox with a few seconds and a few hundred MB. Print every result the user asked for. Use what the "
     "earlier agents found when it helps. Put the program in `code` (no Markdown fences) and one or two "
     "sentences on what it does in `explanation`.\n\nEarlier agents' answers:\n{findings}\n\nPassages:\n{documents}"),
    ("human", "{question}"),
])


class Program(BaseModel):
    code: str = Field(description="a complete Python 3 program, standard library only, that prints its results")
    explanation: str = Field(default="", description="one or two sentences on what the program does")


class LLMCoder:
    """The chat model writes the program (fences stripped); a failed or malformed reply gives no code
    (``fallback=True``). The coder never runs anything: the graph's code agent does, through its runner.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMCoder(scripted('{"code": "print(2 ** 20)", "explanation": "Powers of two."}')).draft("2^20?").code
    'print(2 ** 20)'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = CODER_PROMPT, max_chars: int | None = 1_000):
        self.model, self.prompt, self.max_chars = model, prompt, max_chars

    def draft(self, question: str, findings: Sequence[AgentAnswer] = (),
              documents: Sequence[Document] = ()) -> CodeDraft:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, Program, team_inputs(question, findings, documents, self.max_chars))
        if not result.ok:
            return CodeDraft("", f"The code agent's model gave no usable program ({result.note}).", "none", fallback=True)
        code = result.value.code.strip()
        code = (code_blocks(code) or [code])[0] if code.startswith("```") else code
        if not code:
            return CodeDraft("", "The code agent's model returned an empty program.", "none", fallback=True)
        return CodeDraft(code, result.value.explanation.strip(), "model")


# ---------------------------------------------------------------- aggregator
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
    """The chat model merges several answers; one answer (or none) goes to ``fallback``, and so does a failed
    call (``fallback=True``). The graph gives ``LocalAggregator`` as the fallback.

    >>> from ragkit.core.chat_models import scripted
    >>> agg = LLMAggregator(scripted('{"answer": "RRF fuses ranks; the code printed 0.03."}'), fallback=None)
    >>> agg.combine("q", [AgentAnswer("rag", "RRF fuses ranks."), AgentAnswer("code", "0.03")]).text
    'RRF fuses ranks; the code printed 0.03.'
    """

    def __init__(self, model: BaseChatModel, fallback: Aggregator, prompt: ChatPromptTemplate = AGGREGATOR_PROMPT):
        self.model, self.fallback, self.prompt = model, fallback, prompt

    def combine(self, question: str, answers: Sequence[AgentAnswer]) -> Aggregate:
        answers = [a for a in answers if a.text.strip()]
        if len(answers) <= 1:
            return self.fallback.combine(question, answers)
        result = call_structured(self.model, self.prompt, CombinedAnswer,
                                 {"question": question, "answers": format_findings(answers, max_chars=None)})
        if not result.ok or not result.value.answer.strip():
            merged = self.fallback.combine(question, answers)
            return Aggregate(merged.text, merged.agents, fallback=True)
        return Aggregate(result.value.answer.strip(), tuple(a.agent for a in answers))

__all__ = ["AGGREGATOR_PROMPT", "ANALYST_PROMPT", "CODER_PROMPT", "STRUCTURED_SUPERVISOR_PROMPT", "SUPERVISOR_PROMPT",
           "AgentChoice", "AnalysisText", "CombinedAnswer", "LLMAggregator", "LLMAnalyst", "LLMCoder",
           "LLMStructuredSupervisor", "LLMSupervisor", "Program", "format_agents", "format_findings", "parse_agent_names",
           "team_inputs"]
