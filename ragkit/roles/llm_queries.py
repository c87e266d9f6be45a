"""The roles that read a question before it is searched (the advanced pipeline's front end): their contracts
(:class:`IntentClassifier`, :class:`SmallTalk`, :class:`QueryTransformer`) and their LLM implementations
(multi-query retrieval as in RAG-Fusion, and HyDE, Gao et al. 2022, in one JSON call).

Each fails visibly and safely: a failed intent call searches (``rag``, ``fallback=True``), a failed small-talk
call gets its ``fallback``'s canned reply, and transformer output that does not parse gives no alternatives
(``fallback=True``), so the graph searches the question alone. Their local stand-ins are
:class:`ragkit.offline.small_talk.LocalIntentClassifier`, ``LocalSmallTalk`` and
:class:`ragkit.offline.small_talk.LocalQueryTransformer`.

What they cannot do: the small-talk reply is plain text, not structured output, with no memory of the
conversation, and nothing checks that it really makes no claim (the prompt asks for none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, get_args, runtime_checkable

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import message_text
from ragkit.core.nlp import clean_query
from ragkit.defaults import ADVANCED
from ragkit.roles.llm import call_structured, choice_schema

# ---------------------------------------------------------------- the contracts: intent classifier, small talk
IntentRoute = Literal["rag", "chitchat"]
INTENT_ROUTES: tuple[str, ...] = get_args(IntentRoute)


@dataclass(frozen=True)
class Intent:
    """What a message wants: a search (``rag``) or a reply to small talk (``chitchat``)."""

    route: IntentRoute
    confidence: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class IntentClassifier(Protocol):
    def classify(self, question: str) -> Intent: ...


@runtime_checkable
class SmallTalk(Protocol):
    """The reply to a message that is small talk (a greeting, thanks, "who are you?")."""

    def reply(self, question: str) -> str: ...


# ---------------------------------------------------------------- the contract: query transformer
MAX_ALTERNATIVE_CHARS = 500  # an alternative query longer than this is not a query
MAX_HYPOTHETICAL_CHARS = 2_000


@dataclass(frozen=True)
class QueryTransform:
    """Alternative queries (the question itself not included) and a hypothetical answer ("" for none)."""

    queries: tuple[str, ...] = ()
    hypothetical: str = ""
    note: str = ""
    fallback: bool = False


@runtime_checkable
class QueryTransformer(Protocol):
    """``uses_first_pass`` (an attribute, default False): the graph passes the documents of a first-pass search."""

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform: ...


def new_queries(candidates: Sequence[str], question: str, tried: Sequence[str], limit: int) -> tuple[str, ...]:
    """Clean candidate queries: whitespace collapsed, empty, over-long, repeated or already tried ones dropped.

    >>> new_queries(["  bm25  idf ", "BM25 idf", "what is bm25", "", "tf-idf"], "What is BM25?", ["tf-idf"], 5)
    ('bm25 idf', 'what is bm25')
    """
    seen = {" ".join(q.split()).lower() for q in [question, *tried]}
    out: list[str] = []
    for candidate in candidates:
        query = " ".join(str(candidate).split())
        if query and len(query) <= MAX_ALTERNATIVE_CHARS and query.lower() not in seen:
            seen.add(query.lower())
            out.append(query)
    return tuple(out[:limit])


# ---------------------------------------------------------------- intent
INTENT_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You decide whether a message to a document question-answering assistant needs a document search.\n"
               "- rag: the message asks for information, an explanation or a fact, even if it also greets or thanks.\n"
               "- chitchat: greetings, thanks, goodbyes, compliments, acknowledgements, or questions about the "
               "assistant itself; nothing to look up.\nIf unsure, choose rag."),
    ("human", "Message: {question}"),
])

class LLMIntentClassifier:
    """A chat model picks rag or chitchat (a ``Literal`` field); on any failure: rag, with ``fallback=True``.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMIntentClassifier(scripted('{"route": "chitchat"}')).classify("Hi!")
    Intent(route='chitchat', confidence=1.0, note='', fallback=False)
    >>> LLMIntentClassifier(scripted("hello?")).classify("Hi!").route
    'rag'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = INTENT_PROMPT):
        self.model, self.prompt = model, prompt
        self.schema = choice_schema("IntentChoice", "route", INTENT_ROUTES, "rag or chitchat")

    def classify(self, question: str) -> Intent:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, self.schema, {"question": question})
        if not result.ok:
            return Intent("rag", 0.0, result.note, fallback=True)
        return Intent(result.value.route, 1.0, getattr(result.value, "reason", ""))


# ---------------------------------------------------------------- query transformer
QUERY_TRANSFORM_PROMPT = ChatPromptTemplate.from_messages([
    ("system", "You help a search engine find documents. For the user's question, write {n} alternative search "
               "queries that ask for the same information in different words or from different angles, and one "
               "short hypothetical answer: a passage, two to four sentences, written the way a document that "
               "answers the question would be. Keep every name, number and specific term of the question.\n"
               "Queries already tried, which found nothing relevant (write different ones): {tried}\n"
               'Return JSON: {{"queries": ["...", "...", "..."], "hypothetical_answer": "..."}}'),
    ("human", "Question: {question}"),
])


class Expansion(BaseModel):
    """Alternative search queries and a hypothetical answer for one question."""

    queries: list[str] = Field(description="three alternative search queries, each worded differently")
    hypothetical_answer: str = Field(description="a short passage that would answer the question, written as a document would")


class LLMQueryTransformer:
    """A chat model writes the alternative queries and the hypothetical answer; unparsable output: none of them.

    >>> from ragkit.core.chat_models import scripted
    >>> reply = '{"queries": ["bm25 ranking function", "okapi bm25 formula", "bm25 term weighting"], '
    >>> reply += '"hypothetical_answer": "BM25 scores a document by term frequency and idf."}'
    >>> LLMQueryTransformer(scripted(reply)).transform("What is BM25?").queries
    ('bm25 ranking function', 'okapi bm25 formula', 'bm25 term weighting')
    >>> LLMQueryTransformer(scripted('{"queries": "oops"')).transform("What is BM25?").fallback
    True
    """

    uses_first_pass = False

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = QUERY_TRANSFORM_PROMPT,
                 n_alternatives: int = ADVANCED.n_alternatives):
        self.model, self.prompt, self.n_alternatives = model, prompt, n_alternatives

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform:
        question = clean_query(question, what="question")
        shown = [t if len(t) <= 200 else t[:197] + "..." for t in tried]  # a tried passage is shown by its start
        inputs = {"question": question, "n": self.n_alternatives, "tried": "; ".join(shown) if shown else "(none)"}
        result = call_structured(self.model, self.prompt, Expansion, inputs)
        if not result.ok:
            return QueryTransform((), "", f"no transform, the question alone: {result.note}", fallback=True)
        queries = new_queries(result.value.queries, question, tried, self.n_alternatives)
        hypothetical = " ".join(result.value.hypothetical_answer.split())[:MAX_HYPOTHETICAL_CHARS]
        dropped = len(result.value.queries) - len(queries)
        note = f"{len(queries)} queries and a hypothetical answer" + (f" ({dropped} dropped: empty, repeated or tried)" if dropped else "")
        return QueryTransform(queries, hypothetical, note)


# ---------------------------------------------------------------- small talk
SMALL_TALK_PROMPT = ("You are a document question-answering assistant. The user is making small talk. Reply in one "
                     "or two short, friendly sentences, make no factual claims, and invite a question about the documents.")


class LLMSmallTalk:
    """A one- or two-sentence reply by the chat model, following ``prompt``; a failed call or an empty reply
    gets ``fallback``'s reply instead.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMSmallTalk(scripted("Hi! What shall we look up?"), "Reply briefly.", fallback=lambda q: "Hello!").reply("hey")
    'Hi! What shall we look up?'
    """

    def __init__(self, model: BaseChatModel, prompt: str, fallback: Callable[[str], str]):
        self.model, self.prompt, self.fallback = model, prompt, fallback

    def reply(self, question: str) -> str:
        try:
            text = message_text(self.model.invoke([SystemMessage(self.prompt), HumanMessage(question)])).strip()
        except Exception:  # noqa: BLE001 - a failed call still gets a polite reply
            text = ""
        return text or self.fallback(question)


__all__ = ["Expansion", "INTENT_PROMPT", "INTENT_ROUTES", "Intent", "IntentClassifier", "IntentRoute", "LLMIntentClassifier",
           "LLMQueryTransformer", "LLMSmallTalk", "MAX_ALTERNATIVE_CHARS", "MAX_HYPOTHETICAL_CHARS", "QUERY_TRANSFORM_PROMPT",
           "QueryTransform", "QueryTransformer", "SMALL_TALK_PROMPT", "SmallTalk", "new_queries"]
