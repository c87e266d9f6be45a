"""The local tool planner: an offline chat model that proposes tool calls from the user's own words.

``LocalToolPlanner`` is a LangChain ``BaseChatModel`` with ``bind_tools``, so the tool loop runs on it
exactly as on Gemini: it returns ordinary ``AIMessage.tool_calls``. It knows no shop: everything it
knows about a tool comes from the tool's ``ToolSpec`` (a tool made by ``spec.as_tool`` carries it):
``examples`` (phrases a user might say), ``title`` (the action in words) and ``user_args`` (how to find
each argument in the user's words, and how to ask for it). A tool without a spec offers only its name
and description, and its arguments are always asked for. It works in four steps:

1. Requests (:mod:`ragkit.offline.tool_requests`): the message is cut into its requests, each read for
   negation ("don't cancel", "never mind"), retraction and back-reference ("track it too").
2. Intent per request: its stems are scored against each tool's example stems with an IDF weight. If no
   single tool wins, MiniLM: the nearest example phrase, accepted only when its cosine is at least
   ``min_similarity`` and beats every other tool by ``min_margin``; a tie is asked about, not guessed.
3. Arguments (:mod:`ragkit.offline.tool_plan`), only from the request's own words, by the spec's
   extractors; a declined request is never proposed, a missing argument is asked for, never invented.
4. After tool results, a short final answer made from those results; a refusal whose structured reason
   (``ToolMessage.artifact["reason"]``, set by the guard) means "the user must say more" becomes a
   question in the spec's words.

Example phrases are embedded once per planner (the embedder is passed in; default ``load_embedder()``).
What it cannot do: keywords and one nearest phrase miss paraphrases far from every example, and the
request rules read English cue words rather than syntax (see :mod:`ragkit.offline.tool_requests`). The
guards, not this planner, are what keep the loop safe.
"""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

import numpy as np
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.base import LangSmithParams
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field, PrivateAttr

from ragkit.core.chat_models import local_ls_params
from ragkit.core.contract import message_text
from ragkit.core.nlp import tokenize, words
from ragkit.core.tools import ASK_USER_REASONS, ToolSpec
from ragkit.defaults import TOOL_PLANNER
from ragkit.offline.tool_plan import (
    IGNORED_WORDS,
    Plan,
    Read,
    ToolHints,
    action_words,
    attach_orphans,
    calls_for,
    fill,
    placeholders,
)
from ragkit.offline.tool_requests import RequestClause, opens_request, request_core, split_requests

AWAITING = "awaiting_argument_for"  # response_metadata: the tool the planner asked an argument for
AWAITING_CLAUSE = "awaiting_clause"  # response_metadata: the words of that request, to complete next turn


def _user_turn(messages: Sequence[BaseMessage]) -> tuple[str, list[BaseMessage], tuple[str, str] | None]:
    """The user's newest words, the messages since them, and ``(tool, clause)`` an earlier question was for."""
    humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    if not humans:
        return "", [], None
    last = humans[-1]
    before = messages[last - 1] if last > 0 else None
    awaiting = None
    if isinstance(before, AIMessage) and before.response_metadata.get(AWAITING) and len(humans) > 1:
        clause = before.response_metadata.get(AWAITING_CLAUSE) or message_text(messages[humans[-2]])
        awaiting = (str(before.response_metadata[AWAITING]), str(clause))
    return message_text(messages[last]), list(messages[last + 1 :]), awaiting


class LocalToolPlanner(BaseChatModel):
    """A spec-driven, clause-by-clause tool planner that speaks LangChain's tool-calling protocol.

    >>> from pydantic import create_model
    >>> from ragkit.core.tools import UserArg
    >>> ticket = UserArg("ticket", lambda text: re.findall(r"T\\d+", text), "its number (for example T12)")
    >>> close = ToolSpec("close_ticket", "Close a ticket.", create_model("Ticket", ticket=(str, ...)),
    ...                  lambda store, ticket: "closed", mutates=True, needs_login=False, title="close a ticket",
    ...                  examples=("close the ticket",), user_args=(ticket,))
    >>> planner = LocalToolPlanner(use_embeddings=False).bind_tools([close.as_tool(None)])
    >>> [(c["name"], c["args"]) for c in planner.invoke("Please close T7").tool_calls]
    [('close_ticket', {'ticket': 'T7'})]
    >>> planner.invoke("Please close my ticket").content
    'To close a ticket I need its number (for example T12).'
    """

    embedder: Any = Field(default=None, exclude=True)  # any LangChain Embeddings; None: load_embedder() on first need
    use_embeddings: bool = True  # MiniLM fallback when keywords find no single tool
    min_similarity: float = TOOL_PLANNER.min_similarity  # cosine a MiniLM example must reach
    min_margin: float = TOOL_PLANNER.min_margin  # and by how much it must beat the best example of any other tool
    model_name: str = "local-tool-planner"  # shown in traces (LangSmith's ls_model_name)
    tool_specs: dict[str, Any] = Field(default_factory=dict, exclude=True)  # tool name -> ToolSpec (set by bind_tools)
    _cache: dict = PrivateAttr(default_factory=dict)  # example vectors and stems, computed once per planner

    @property
    def _llm_type(self) -> str:
        return "local-tool-planner"

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        """The standard tracing parameters (provider, model name, type), so LangSmith shows who answered."""
        return local_ls_params(self.model_name, stop, **kwargs)

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any) -> Runnable:
        """Offer tools (LangChain tools, functions or schemas); one made by ``ToolSpec.as_tool`` brings its spec."""
        specs = {t.name: t.spec for t in tools if isinstance(getattr(t, "spec", None), ToolSpec)}
        planner = self.model_copy(update={"tool_specs": {**self.tool_specs, **specs}}) if specs else self
        return planner.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def hints(self, tools: Sequence[dict]) -> list[ToolHints]:
        return [ToolHints.of(t, self.tool_specs.get(t["function"]["name"])) for t in tools]

    # ------------------------------------------------------------ intent
    def _stems(self, h: ToolHints) -> set[str]:
        key = ("stems", h.name, h.examples)
        if key not in self._cache:
            self._cache[key] = set(tokenize(" ".join((h.name.replace("_", " "), *h.examples)), IGNORED_WORDS))
        return self._cache[key]

    def intent_scores(self, text: str, hints: Sequence[ToolHints]) -> dict[str, float]:
        """IDF-weighted overlap between the text's stems and each tool's example stems (one tool: 1 per stem)."""
        vocab = {h.name: self._stems(h) for h in hints}
        query, n = set(tokenize(text, IGNORED_WORDS)), len(vocab)

        def weight(s: str) -> float:
            return math.log(n / sum(s in v for v in vocab.values())) if n > 1 else 1.0

        return {name: round(sum(weight(s) for s in query & stems), 4) for name, stems in vocab.items()}

    def _example_vectors(self, h: ToolHints) -> np.ndarray:
        from ragkit.core.embeddings import embed, load_embedder

        key = ("vectors", h.name, h.examples)
        if key not in self._cache:
            if self.embedder is None and "embedder" not in self._cache:
                self._cache["embedder"] = load_embedder()
            self._cache[key] = embed(self.embedder or self._cache["embedder"], list(h.examples))
        return self._cache[key]

    def embedding_scores(self, text: str, hints: Sequence[ToolHints]) -> dict[str, float]:
        """Best cosine between the text and each tool's example phrases (examples embedded once)."""
        from ragkit.core.embeddings import embed_query

        vectors = {h.name: self._example_vectors(h) for h in hints}
        query = embed_query(self.embedder or self._cache["embedder"], text)[0]
        return {name: round(float((v @ query).max()), 4) for name, v in vectors.items()}

    def intent(self, text: str, hints: Sequence[ToolHints], asks: bool = True) -> tuple[str | None, tuple[str, ...]]:
        """``(tool, tied)`` for one clause. ``asks``: the clause reads as a request (MiniLM may then decide).

        Argument values are replaced by their names first ("send A1 to 4 Oak Way" -> "send order to new
        address"), so the words of an address never vote for a tool ("Way" is not "on its way").
        """
        text = placeholders(text, hints)
        scores = self.intent_scores(text, hints)
        best = max(scores.values(), default=0.0)
        top = tuple(n for n, s in scores.items() if best > 0 and s == best)
        if len(top) == 1:
            return top[0], ()
        if self.use_embeddings and asks:
            query = request_core(text) or text
            ranked = sorted(self.embedding_scores(query, hints).items(), key=lambda kv: (-kv[1], kv[0]))
            if ranked and ranked[0][1] >= self.min_similarity and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= self.min_margin):
                return ranked[0][0], ()
        return None, top

    # ------------------------------------------------------------ planning one message
    def read(self, text: str, tools: Sequence[dict], awaiting: tuple[str, str] | None = None) -> Plan:
        """The plan for one user message: its requests, what each needs, and the calls to propose.

        ``awaiting`` is ``(tool, clause)`` when the planner's last reply asked for a missing argument: a
        message that names no action of its own ("It is A1001") completes that request.
        """
        hints = self.hints(tools)
        by_name = {h.name: h for h in hints}
        actions = action_words(hints)
        clauses = split_requests(text, actions)
        if awaiting and awaiting[0] in by_name and not self._names_an_action(clauses, hints):
            clauses = [RequestClause(f"{awaiting[1]}\n{text}")]
            read = [(clauses[0], awaiting[0], ())]
        else:
            read: list[Read] = []
            for c in clauses:
                tool, tied = (None, ()) if c.retracts else self.intent(c.text, hints, self._reads_as_request(c.text, hints, actions))
                if tied and not opens_request(c.text, actions, capitals=True):  # "A1002 has not shipped": context
                    tied = ()
                read.append((c, tool, tied))
        requests = fill(attach_orphans(read), by_name)
        return Plan(tuple(requests), tuple(calls_for(requests, by_name)))

    def _names_an_action(self, clauses: Sequence[RequestClause], hints: Sequence[ToolHints]) -> bool:
        for c in clauses:
            scores = self.intent_scores(placeholders(c.text, hints), hints)
            best = max(scores.values(), default=0.0)
            if c.cue or (best > 0 and sum(s == best for s in scores.values()) == 1):
                return True
        return False

    def _reads_as_request(self, text: str, hints: Sequence[ToolHints], actions: set[str]) -> bool:
        """Opens with a request word ("where", "tell", "cancel") or holds a content word besides its values."""
        bare = placeholders(text, hints)
        arg_words = {w for h in hints for a in h.user_args for w in a.name.split("_")}
        return opens_request(text, actions, capitals=True) or any(
            w not in IGNORED_WORDS and w not in arg_words for w in words(bare))

    # ------------------------------------------------------------ replies
    def plan(self, messages: Sequence[BaseMessage], tools: Sequence[dict]) -> AIMessage:
        """The reply for this conversation: tool calls (perhaps with a question), a question, or a final answer."""
        text, since, awaiting = _user_turn(messages)
        results = [m for m in since if isinstance(m, ToolMessage)]
        if results:
            proposer = next((m for m in reversed(since) if isinstance(m, AIMessage) and m.tool_calls), None)
            return self.answer_from(results, self.hints(tools), proposer)
        if not text.strip():
            return AIMessage(content="How can I help?")
        if not tools:
            return AIMessage(content="I could not finish that request within the allowed steps. Please try again.")
        hints = {h.name: h for h in self.hints(tools)}
        plan = self.read(text, tools, awaiting)
        said, meta = [], {}
        for r in plan.asks:
            said.append(hints[r.tool].ask_for(r.missing))
            meta = meta or {AWAITING: r.tool, AWAITING_CLAUSE: r.clause}
        for r in plan.requests:
            if r.tied:
                said.append(f"Do you want me to {' or '.join(hints[t].title for t in r.tied)}? Please say which.")
        if not plan.calls and not said:
            if plan.declined:
                said.append(f"All right, I will not {' or '.join(hints[t].title for t in plan.declined)}.")
            else:
                said.append(f"I can help with these actions: {'; '.join(h.title for h in hints.values())}. "
                            "What would you like me to do?")
        n_ai = sum(isinstance(m, AIMessage) for m in messages)
        calls = [{**c, "id": f"call_{n_ai}_{i}", "type": "tool_call"} for i, c in enumerate(plan.calls)]
        return AIMessage(content=" ".join(said), tool_calls=calls, response_metadata=meta)

    @staticmethod
    def answer_from(results: Sequence[ToolMessage], hints: Sequence[ToolHints] = (),
                    proposer: AIMessage | None = None) -> AIMessage:
        """A short final answer made only from this turn's tool results (and the question still open)."""
        by_name = {h.name: h for h in hints}
        parts = []
        for r in results:
            content = message_text(r).strip()
            details = r.artifact if isinstance(r.artifact, dict) else {}
            if r.status == "error" and details.get("reason") in ASK_USER_REASONS:
                h, arg = by_name.get(str(r.name)), details.get("arg")
                parts.append(h.ask_for([arg]) if h and arg else "I need a detail from you first: " + content.split(". ")[0] + ".")
            elif r.status == "error":  # keep what happened; drop sentences addressed to the model ("Do not retry ...")
                kept = [s for s in re.split(r"(?<=\.)\s+", content) if not s.startswith("Do not")]
                parts.append("That did not go through: " + " ".join(kept))
            else:
                parts.append(content)
        meta = {}
        if proposer is not None and message_text(proposer).strip():
            parts.append(message_text(proposer).strip())  # the question asked alongside the calls
            meta = {k: v for k, v in proposer.response_metadata.items() if k in (AWAITING, AWAITING_CLAUSE)}
        return AIMessage(content=" ".join(dict.fromkeys(parts)), response_metadata=meta)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self.plan(messages, kwargs.get("tools") or [])
        return ChatResult(generations=[ChatGeneration(message=message)])
