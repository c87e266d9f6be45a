"""Intent classifiers: does a message need retrieval (``rag``), or is it small talk (``chitchat``)?

The advanced pipeline asks this first, so that "hello" and "thanks!" never run a search, a reranker and
three graders only to answer "I don't have enough information".

``LocalIntentClassifier`` is the router of :mod:`ragkit.offline.router` (a k-nearest-prototype classifier
on MiniLM embeddings) over two routes described by labelled examples: :data:`RAG_EXAMPLES` (requests for
information, of many topics and shapes, including those that open with a greeting) and
:data:`CHITCHAT_EXAMPLES` (greetings, thanks, farewells, questions about the assistant, ...). When the
two routes score too close (``margin``), or when no example is close (the best score is under
``min_similarity``), it says ``rag``: a greeting searched for costs a refusal, a question taken for small
talk loses its answer. That bar (0.25, :data:`ragkit.defaults.ADVANCED`, chosen on the dev sets) matters:
a question on a topic no example touches (steam engines, say) is far from both routes, and with the
router's own bar (0.1) 8 of 300 SQuAD questions (articles 0-7) went to small talk. For a ``chitchat`` message it also names the *kind* of
small talk, the kind of the nearest chitchat example, so the graph can give an honest canned reply
(:data:`CANNED_REPLIES`) without a chat model.

``LLMIntentClassifier`` asks a chat model for a ``Literal["rag", "chitchat"]``; a failed or malformed
call is ``rag`` with ``fallback=True``. :func:`small_talk_reply` writes the chitchat reply: a short one by
the chat model, or the canned reply.

The examples were written for this module from what people type to a documentation assistant; the dev
set (``benchmarks/advanced/intent_dev.json``) and the frozen test set (``data/eval/intent_test.json``)
are other wordings, never copied here (a test checks). ``benchmarks/advanced/intent_accuracy.py``
measures both.

Simplifications: English only; a message is one intent (a greeting followed by a question counts as a
question, which is what the examples teach); nothing is learned beyond the examples, so a kind of small
talk they do not cover ("tell me a joke" is covered, "what's your favourite colour?" may not be) is
classified by whatever it happens to resemble. To fix a systematic mistake, add an example to the right
list, then re-measure on the dev set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping, Protocol, Sequence, get_args, runtime_checkable

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate

from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import clean_query
from ragkit.defaults import ADVANCED, ROUTER
from ragkit.roles.protocols import RouteSpec
from ragkit.roles.llm import call_structured, choice_schema
from ragkit.offline.router import LocalRouter

IntentRoute = Literal["rag", "chitchat"]
INTENT_ROUTES: tuple[str, ...] = get_args(IntentRoute)


@dataclass(frozen=True)
class Intent:
    """What a message wants: ``route`` and, for small talk, its ``kind`` (a key of :data:`CANNED_REPLIES`)."""

    route: IntentRoute
    confidence: float
    kind: str | None = None
    note: str = ""
    fallback: bool = False


@runtime_checkable
class IntentClassifier(Protocol):
    def classify(self, question: str) -> Intent: ...


RAG_DESCRIPTION = ("A request for information that the documents may hold: a question about a topic, a fact, a "
                   "definition, a procedure, a setting or a comparison, or an instruction to explain or find something.")
CHITCHAT_DESCRIPTION = ("Small talk that needs no documents: a greeting, thanks, a goodbye, a compliment, an "
                        "acknowledgement, or a question about the assistant itself.")

# Requests for information, deliberately varied in topic and form (questions, keyword queries, imperatives,
# a greeting or thanks in front of a real question), so that the prototypes cover what people send.
RAG_EXAMPLES: tuple[str, ...] = (
    "How do I reset my password?",
    "What is the difference between a list and a tuple in Python?",
    "Explain how reciprocal rank fusion works.",
    "Which port does the database listen on by default?",
    "Is the museum open on Mondays?",
    "What are the side effects of ibuprofen?",
    "When was the Treaty of Versailles signed?",
    "Who invented the telephone?",
    "How many vacation days do new employees get?",
    "Can I bring my dog on the train?",
    "chunk size for long documents",
    "error 404 after deploying the app",
    "Summarise the refund policy for me.",
    "Tell me what the handbook says about code reviews.",
    "Find the section on data retention.",
    "Why does my model overfit on small datasets?",
    "What does the error 'connection refused' mean?",
    "Does vitamin D reduce the risk of fractures?",
    "Compare BM25 and dense retrieval.",
    "What should I do if the build fails on CI?",
    "Hi! What time does the pharmacy close?",
    "Hello, could you tell me how checkpointing works?",
    "Thanks. And how do I configure the timeout?",
    "Good morning, is there parking near the station?",
    "Hey, what's the capital of Australia?",
    "Thanks for that. What about the cost of shipping?",
    "What does the contract say about termination?",
    "Where can I find the installation instructions?",
    "Give me an example of a conditional edge.",
    "How long does the warranty last?",
    "Is it safe to take paracetamol with coffee?",
    "What year did the company go public?",
    "Which wines go well with fish?",
    "What are the prerequisites for the course?",
    "list of supported file formats",
    "How is the interest rate calculated?",
    "Can you explain what a vector database is?",
    "What happens if I miss the deadline?",
    "Do you know how to cancel a subscription?",
    "What did the study find about sleep and memory?",
)

# Small talk, by kind; each kind has a canned reply below.
CHITCHAT_EXAMPLES: dict[str, tuple[str, ...]] = {
    "greeting": ("Hello!", "Hi there", "Hey", "Good morning!", "Good evening", "Hiya, anyone there?",
                 "Greetings", "Yo!"),
    "thanks": ("Thanks!", "Thank you so much", "Cheers, that's helpful", "Many thanks for your help",
               "Thanks a lot, that answers it", "Much appreciated", "ty"),
    "farewell": ("Bye!", "Goodbye", "See you later", "That's all for today, bye", "Have a good night",
                 "Talk to you tomorrow", "I'm done, thanks and bye"),
    "wellbeing": ("How are you?", "How's it going?", "How are you doing today?", "Are you having a good day?",
                  "What's up?"),
    "about_assistant": ("Who are you?", "What can you do?", "Are you a bot?", "What's your name?",
                        "Are you a real person?", "How do you work?", "What are you able to help me with?"),
    "acknowledgement": ("Okay, got it", "Sure", "Alright", "Cool", "I see", "Makes sense", "Fine"),
    "compliment": ("You're great", "Nice job!", "That was really helpful, well done", "You're awesome",
                   "Good bot"),
    "banter": ("Tell me a joke", "Do you like music?", "I'm bored", "Let's chat", "lol"),
}

# Honest replies for an offline assistant: what it is, and what it can do next.
CANNED_REPLIES: dict[str, str] = {
    "greeting": "Hello! I answer questions from the documents I was given. What would you like to know?",
    "thanks": "You're welcome. Ask me another question about the documents whenever you like.",
    "farewell": "Goodbye!",
    "wellbeing": "I'm a program, so there is nothing to report; I'm ready to answer questions about the documents.",
    "about_assistant": ("I'm a question-answering assistant: I search the documents I was given and answer by "
                        "quoting them, with citations. Without a chat model I cannot hold a conversation."),
    "acknowledgement": "All right. Ask me anything about the documents.",
    "compliment": "Thank you! Is there anything else you would like to find in the documents?",
    "banter": "I can only answer questions from the documents I was given, not chat. What would you like to know?",
    "other": "I answer questions from the documents I was given. What would you like to know?",
}


def intent_routes(rag: Sequence[str] = RAG_EXAMPLES, chitchat: Mapping[str, Sequence[str]] = CHITCHAT_EXAMPLES) -> tuple[RouteSpec, ...]:
    """The two routes as router specs (description plus examples).

    >>> [(spec.name, len(spec.examples)) for spec in intent_routes(["What is BM25?"], {"thanks": ["Thanks!"]})]
    [('rag', 1), ('chitchat', 1)]
    """
    examples = tuple(text for texts in chitchat.values() for text in texts)
    return RouteSpec("rag", RAG_DESCRIPTION, tuple(rag)), RouteSpec("chitchat", CHITCHAT_DESCRIPTION, examples)


class LocalIntentClassifier:
    """rag vs chitchat by the nearest labelled examples (a :class:`~ragkit.offline.router.LocalRouter`); ties go to rag.

    >>> clf = LocalIntentClassifier()  # doctest: +SKIP
    >>> clf.classify("thanks a lot!").route, clf.classify("thanks a lot!").kind  # doctest: +SKIP
    ('chitchat', 'thanks')
    """

    def __init__(self, embedder: Embeddings | None = None, rag_examples: Sequence[str] = RAG_EXAMPLES,
                 chitchat_examples: Mapping[str, Sequence[str]] = CHITCHAT_EXAMPLES,
                 margin: float = ROUTER.margin, min_similarity: float = ADVANCED.intent_min_similarity,
                 k: int = ROUTER.k):
        if not rag_examples or not any(chitchat_examples.values()):
            raise ValueError("LocalIntentClassifier needs examples for both rag and chitchat")
        self.embedder = embedder if embedder is not None else load_embedder()
        self.router = LocalRouter(intent_routes(rag_examples, chitchat_examples), fallback="rag",
                                  embedder=self.embedder, margin=margin, min_similarity=min_similarity, k=k)
        self._kinds = [kind for kind, texts in chitchat_examples.items() for _ in texts]
        self._kind_vectors = embed(self.embedder, [text for texts in chitchat_examples.values() for text in texts])

    def kind(self, question: str) -> str:
        """The kind of small talk: that of the most similar chitchat example."""
        vector = embed(self.embedder, [clean_query(question, what="question")])[0]
        return self._kinds[int(np.argmax(self._kind_vectors @ vector))]

    def classify(self, question: str) -> Intent:
        decision = self.router.route(question)
        kind = self.kind(question) if decision.route == "chitchat" else None
        return Intent(decision.route, decision.confidence, kind, decision.note)  # type: ignore[arg-type]


INTENT_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system",
         "You decide whether a message to a document question-answering assistant needs a document search.\n"
         "- rag: the message asks for information, an explanation or a fact, even if it also greets or thanks.\n"
         "- chitchat: greetings, thanks, goodbyes, compliments, acknowledgements, or questions about the "
         "assistant itself; nothing to look up.\nIf unsure, choose rag."),
        ("human", "Message: {question}"),
    ]
)

SMALL_TALK_PROMPT = ("You are a document question-answering assistant. The user is making small talk. Reply in one "
                     "or two short, friendly sentences, make no factual claims, and invite a question about the documents.")


class LLMIntentClassifier:
    """A chat model picks rag or chitchat (a ``Literal`` field); on any failure: rag, with ``fallback=True``.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMIntentClassifier(scripted('{"route": "chitchat"}')).classify("Hi!")
    Intent(route='chitchat', confidence=1.0, kind=None, note='', fallback=False)
    >>> LLMIntentClassifier(scripted("hello?")).classify("Hi!").route
    'rag'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = INTENT_PROMPT):
        self.model = model
        self.prompt = prompt
        self.schema = choice_schema("IntentChoice", "route", INTENT_ROUTES, "rag or chitchat")

    def classify(self, question: str) -> Intent:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, self.schema, {"question": question})
        if not result.ok:  # safe default: search; a greeting searched for only costs a refusal
            return Intent("rag", 0.0, None, result.note, fallback=True)
        return Intent(result.value.route, 1.0, None, getattr(result.value, "reason", ""))


def small_talk_reply(question: str, kind: str | None, chat_model: BaseChatModel | None = None) -> tuple[str, str]:
    """The reply to small talk and a note: the chat model's short reply, else (or on failure) the canned one.

    >>> small_talk_reply("thanks!", "thanks")[0]
    "You're welcome. Ask me another question about the documents whenever you like."
    """
    canned = CANNED_REPLIES.get(kind or "other", CANNED_REPLIES["other"])
    if chat_model is None:
        return canned, f"canned reply ({kind or 'other'})"
    try:
        reply = chat_model.invoke([SystemMessage(SMALL_TALK_PROMPT), HumanMessage(question)])
    except Exception as err:  # noqa: BLE001 - a failing model falls back to the canned reply, and says so
        return canned, f"the chat model failed ({type(err).__name__}); canned reply"
    text = reply.content if isinstance(reply.content, str) else str(reply.content)
    return (text.strip(), "chat model reply") if text.strip() else (canned, "empty chat model reply; canned reply")


__all__ = ["CANNED_REPLIES", "CHITCHAT_EXAMPLES", "INTENT_PROMPT", "INTENT_ROUTES", "Intent", "IntentClassifier",
           "IntentRoute", "LLMIntentClassifier", "LocalIntentClassifier", "RAG_EXAMPLES", "intent_routes",
           "small_talk_reply"]
