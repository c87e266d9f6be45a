"""The local tool planner: an offline chat model that proposes tool calls from the user's own words.

``LocalToolPlanner`` is a LangChain ``BaseChatModel`` with ``bind_tools``, so the tool loop runs on it
exactly as on Gemini: it returns ordinary ``AIMessage.tool_calls``. It works in three honest steps:

1. Intent: prototypes per tool (example phrases; a tool without examples uses its description).
   First keywords: phrases are tokenized (stopwords out, Porter stems) and the user's stems are scored
   against each tool with an IDF weight (a stem shared by every tool counts for nothing). If no single
   tool wins, MiniLM embeddings: the nearest prototype sentence, accepted only when its cosine is at
   least ``min_similarity`` and beats the next tool by ``min_margin``. Otherwise the planner asks.
   A tie between tools is not guessed either: the planner asks which one the user means.
2. Arguments, only from the user's text: order ids by the pattern ``A1001``; a new address from the
   text after "to" (or "address is ..."). A required argument it cannot find is never invented: the
   planner asks the user for it and proposes no call.
3. After tool results, a short final answer made from those results.

Simplifications: keywords miss paraphrases with no shared word ("I no longer need it"), negation is
ignored ("don't cancel" looks like "cancel"), and the address rule is a regular expression that trusts
the user to put the address after "to". The guards, not this planner, are what keep the loop safe.
"""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.base import LangSmithParams
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from ragkit.chat_models import local_ls_params
from ragkit.text import QUESTION_STOPWORDS, tokenize

IGNORED_WORDS = QUESTION_STOPWORDS | {"order", "orders", "thanks", "thank", "hi", "hello"}

ORDER_ID_IN_TEXT = re.compile(r"(?<![\w-])([A-Za-z]\d{4})(?![\w-])")

TOOL_PROTOTYPES: dict[str, tuple[str, ...]] = {
    "lookup_order": ("look up my order", "what is in my order", "show me the order details", "what did I buy",
                     "check my order", "which items are in it", "order information", "what address is it going to",
                     "what is the status of my order", "the contents of my order"),
    "track_shipment": ("where is my package", "track my shipment", "what is the tracking number", "when will it arrive",
                       "has it shipped yet", "where is my parcel", "is it on its way", "expected delivery date",
                       "where is my order"),
    "cancel_order": ("cancel my order", "cancel it", "I want to cancel", "stop the order",
                     "call off my purchase", "cancellation", "abort the order"),
    "change_delivery_address": ("change the delivery address", "ship it to a different address",
                                "send it to my new address", "update the shipping address", "I moved house",
                                "redirect the delivery", "deliver it somewhere else", "ship it to", "send it to"),
}

ARG_QUESTIONS = {
    "order_id": "the order id (it looks like A1001)",
    "new_address": "the new delivery address (for example: change A1001 to 12 High Street, Oxford)",
}


AWAITING = "awaiting_argument_for"  # response_metadata key: the tool the planner asked an argument for


def _user_turn_text(messages: Sequence[BaseMessage]) -> tuple[str, list[BaseMessage], str | None]:
    """The user's words for this turn, the messages since them, and the tool an earlier question was for.

    When the planner's previous reply asked for a missing argument, the human message before that
    question is included, so "cancel my order" then "A1001" reads as one request.
    """
    humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    if not humans:
        return "", [], None
    last = humans[-1]
    text, awaiting = str(messages[last].content), None
    before = messages[last - 1] if last > 0 else None
    if isinstance(before, AIMessage) and before.response_metadata.get(AWAITING) and len(humans) > 1:
        awaiting = str(before.response_metadata[AWAITING])
        text = f"{messages[humans[-2]].content}\n{text}"
    return text, list(messages[last + 1 :]), awaiting


def extract_order_ids(text: str) -> list[str]:
    """Order ids the user typed, upper-cased, in order, without repeats.

    >>> extract_order_ids("Is a1001 or A1002 (not A10033) shipped? a1001 again")
    ['A1001', 'A1002']
    """
    return list(dict.fromkeys(m.upper() for m in ORDER_ID_IN_TEXT.findall(text)))


def extract_address(text: str) -> str | None:
    """The new address: after "address is"/"address:", else after the first "to" that follows the order id.

    >>> extract_address("Please change the address of A1001 to 12 High Street, Oxford OX1 4AA.")
    '12 High Street, Oxford OX1 4AA'
    >>> extract_address("change my address") is None
    True
    """
    m = re.search(r"\baddress\s*(?:is|:)\s*(.+)$", text, re.IGNORECASE | re.DOTALL)
    if not m:
        ids = list(ORDER_ID_IN_TEXT.finditer(text))
        anchor = re.search(r"\baddress\b", text, re.IGNORECASE)
        starts = [x.end() for x in (ids[:1] + ([anchor] if anchor else []))] or [0]
        m = None
        for start in sorted(starts) + [0]:
            m = re.search(r"\bto\b\s*:?\s*(.+)$", text[start:], re.IGNORECASE | re.DOTALL)
            if m and not re.match(r"(?:change|update|send|ship|deliver|move)\b", m.group(1), re.IGNORECASE):
                break
            m = None
    if not m:
        return None
    address = re.sub(r"\s+(?:for|of|on)\s+(?:my\s+)?(?:order\s+)?[A-Za-z]\d{4}\b.*$", "", m.group(1).strip())
    address = re.sub(r"[\s.!?,;]*(?:please|thanks|thank you)?[\s.!?]*$", "", address, flags=re.IGNORECASE)
    return address if len(address) >= 5 else None


class LocalToolPlanner(BaseChatModel):
    """A keyword-prototype tool planner that speaks LangChain's tool-calling protocol.

    >>> from ragkit.tools import make_order_tools, load_order_store
    >>> planner = LocalToolPlanner().bind_tools(make_order_tools(load_order_store()))
    >>> planner.invoke("Where is my parcel A1002?").tool_calls[0]["name"]
    'track_shipment'
    >>> planner.invoke("Please cancel my order").content
    'To cancel_order I need the order id (it looks like A1001). Could you give it?'
    """

    prototypes: dict[str, tuple[str, ...]] = Field(default_factory=lambda: dict(TOOL_PROTOTYPES))
    use_embeddings: bool = True  # MiniLM fallback when keywords find no single tool (loaded on first need)
    min_similarity: float = 0.4  # cosine a MiniLM prototype must reach: "clearly about this", not "vaguely"
    min_margin: float = 0.03  # and by how much it must beat the best prototype of any other tool
    model_name: str = "local-tool-planner"  # shown in traces (LangSmith's ls_model_name)

    @property
    def _llm_type(self) -> str:
        return "local-tool-planner"

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        """The standard tracing parameters (provider, model name, type), so LangSmith shows who answered."""
        return local_ls_params(self.model_name, stop, **kwargs)

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any) -> Runnable:
        """Offer tools (LangChain tools, functions or schemas), as ``ChatGoogleGenerativeAI.bind_tools`` does."""
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def intent_scores(self, text: str, tools: Sequence[dict]) -> dict[str, float]:
        """IDF-weighted overlap between the user's stems and each offered tool's prototype stems."""
        vocab = {}
        for t in tools:
            fn = t["function"]
            examples = self.prototypes.get(fn["name"]) or (fn.get("description", ""),)
            vocab[fn["name"]] = set(tokenize(" ".join((fn["name"].replace("_", " "), *examples)), IGNORED_WORDS))
        n = len(vocab)
        query = set(tokenize(text, IGNORED_WORDS))
        scores = {}
        for name, stems in vocab.items():
            hits = query & stems
            scores[name] = round(sum(math.log(n / sum(s in v for v in vocab.values())) for s in hits), 4)
        return scores

    def embedding_scores(self, text: str, tools: Sequence[dict]) -> dict[str, float]:
        """Best cosine between the user's text and each offered tool's prototype sentences (MiniLM)."""
        from ragkit.embeddings import load_embedder

        embedder = load_embedder()
        query = embedder.embed_array([ORDER_ID_IN_TEXT.sub("my order", text)])[0]
        scores = {}
        for t in tools:
            fn = t["function"]
            examples = list(self.prototypes.get(fn["name"]) or (fn.get("description", ""),))
            scores[fn["name"]] = round(float((embedder.embed_array(examples) @ query).max()), 4)
        return scores

    def nearest_tool(self, text: str, tools: Sequence[dict]) -> str | None:
        """The tool whose prototype is nearest in meaning, if it is near enough and clearly ahead."""
        ranked = sorted(self.embedding_scores(text, tools).items(), key=lambda kv: (-kv[1], kv[0]))
        if not ranked or ranked[0][1] < self.min_similarity:
            return None
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < self.min_margin:
            return None
        return ranked[0][0]

    def plan(self, messages: Sequence[BaseMessage], tools: Sequence[dict]) -> AIMessage:
        """The reply for this conversation: tool calls, a question for the user, or a final answer."""
        text, since, awaiting = _user_turn_text(messages)
        results = [m for m in since if isinstance(m, ToolMessage)]
        if results:
            return AIMessage(content=self.answer_from(results))
        if not text:
            return AIMessage(content="How can I help with your order?")
        if not tools:
            return AIMessage(content="I could not finish that request within the allowed steps. Please try again.")
        scores = self.intent_scores(text, tools)
        best = max(scores.values(), default=0.0)
        top = [t["function"] for t in tools if best > 0 and scores[t["function"]["name"]] == best]
        if len(top) != 1 and awaiting in scores:
            top = [t["function"] for t in tools if t["function"]["name"] == awaiting]
        if len(top) != 1 and self.use_embeddings:
            top = [t["function"] for t in tools if t["function"]["name"] == self.nearest_tool(text, tools)]
        if not top:
            names = ", ".join(sorted(scores))
            return AIMessage(content=f"I can help with these actions: {names}. What would you like to do, and for which order?")
        if len(top) > 1:
            names = " or ".join(f["name"] for f in top)
            return AIMessage(content=f"Do you want me to {names}? Please say which, with the order id.")
        fn = top[0]
        required = fn.get("parameters", {}).get("required", [])
        order_ids = extract_order_ids(text)
        values: dict[str, Any] = {}
        for arg in required:
            if arg == "order_id" and order_ids:
                values[arg] = order_ids
            elif arg == "new_address" and (address := extract_address(text)):
                values[arg] = [address]
            else:
                need = ARG_QUESTIONS.get(arg, f"the value of {arg!r}")
                return AIMessage(content=f"To {fn['name']} I need {need}. Could you give it?",
                                 response_metadata={AWAITING: fn["name"]})
        n_ai = sum(isinstance(m, AIMessage) for m in messages)
        ids = values.get("order_id", [None])
        calls = []
        for i, oid in enumerate(ids):
            args = {k: (oid if k == "order_id" else v[0]) for k, v in values.items()}
            calls.append({"name": fn["name"], "args": args, "id": f"call_{n_ai}_{i}", "type": "tool_call"})
        return AIMessage(content="", tool_calls=calls)

    @staticmethod
    def answer_from(results: Sequence[ToolMessage]) -> str:
        """A short final answer made only from this turn's tool results."""
        parts = []
        for r in results:
            content = str(r.content).strip()
            if r.status == "error":
                if "ask the user" in content.lower():
                    parts.append("I need a detail from you first: " + content.split(". ")[0].rstrip(".") + ".")
                else:  # keep what happened; drop sentences addressed to the model ("Do not retry ...")
                    kept = [s for s in re.split(r"(?<=\.)\s+", content) if not s.startswith("Do not")]
                    parts.append("That did not go through: " + " ".join(kept))
            else:
                parts.append(content)
        return " ".join(parts)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self.plan(messages, kwargs.get("tools") or [])
        return ChatResult(generations=[ChatGeneration(message=message)])
