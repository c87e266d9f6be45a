"""The advanced pipeline's front end without a chat model: is a message small talk or a request, which kind,
a canned reply, and the query transformer (:class:`LocalQueryTransformer`).

Both roles are a :class:`ragkit.offline.router.LocalRouter` (nearest labelled examples) over a route table:
``LocalIntentClassifier`` sends small talk away from retrieval (``rag`` or ``chitchat``), and ``LocalSmallTalk``
gives the canned reply for its kind. Their LLM counterparts are in :mod:`ragkit.roles.llm_queries`; how the
threshold was tuned: ``benchmarks/advanced/intent_accuracy.py``.

Simplifications: the examples are generic English; a kind of small talk they do not cover is classified by
what it resembles; a greeting in front of a real question leans to ``rag`` because a few examples are such
messages, not by any rule. The replies are fixed, one per kind: nothing new can be said, and no conversation is held.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_documents
from ragkit.core.embeddings import load_embedder
from ragkit.core.nlp import clean_query
from ragkit.defaults import ADVANCED, ROUTER
from ragkit.offline.router import LocalRouter
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles.llm_queries import MAX_HYPOTHETICAL_CHARS, Intent, QueryTransform, new_queries
from ragkit.roles.router_protocols import RouteSpec

# ---------------------------------------------------------------- rag or small talk: a router over two routes
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


class LocalIntentClassifier:
    """rag (:data:`RAG_EXAMPLES`) vs chitchat (:data:`CHITCHAT_EXAMPLES`) by the nearest labelled examples.

    Ties, and messages close to no example (under ``ADVANCED.intent_min_similarity``), go to ``rag``: a
    greeting searched for costs a refusal, a question taken for small talk loses its answer.

    >>> clf = LocalIntentClassifier()  # doctest: +SKIP
    >>> clf.classify("thanks a lot!").route  # doctest: +SKIP
    'chitchat'
    """

    def __init__(self, embedder: Embeddings | None = None, rag_examples: Sequence[str] = RAG_EXAMPLES,
                 chitchat_examples: Mapping[str, Sequence[str]] = CHITCHAT_EXAMPLES,
                 margin: float = ROUTER.margin, min_similarity: float = ADVANCED.intent_min_similarity,
                 k: int = ROUTER.k):
        if not rag_examples or not any(chitchat_examples.values()):
            raise ValueError("LocalIntentClassifier needs examples for both rag and chitchat")
        self.embedder = embedder if embedder is not None else load_embedder()
        chitchat = tuple(text for texts in chitchat_examples.values() for text in texts)
        routes = (RouteSpec("rag", RAG_DESCRIPTION, tuple(rag_examples)), RouteSpec("chitchat", CHITCHAT_DESCRIPTION, chitchat))
        self.router = LocalRouter(routes, fallback="rag", embedder=self.embedder, margin=margin,
                                  min_similarity=min_similarity, k=k)

    def classify(self, question: str) -> Intent:
        decision = self.router.route(question)
        return Intent(decision.route, decision.confidence, decision.note)  # type: ignore[arg-type]


def small_talk_kinds(chitchat: Mapping[str, Sequence[str]] = CHITCHAT_EXAMPLES) -> tuple[RouteSpec, ...]:
    """One route per kind of small talk (its examples), and ``other`` for the rest: what :class:`LocalSmallTalk`
    picks a canned reply with.

    >>> [spec.name for spec in small_talk_kinds({"thanks": ["Thanks!"]})]
    ['thanks', 'other']
    """
    return (*(RouteSpec(kind, kind.replace("_", " "), tuple(texts)) for kind, texts in chitchat.items()),
            RouteSpec("other", "other small talk"))


class LocalSmallTalk:
    """A reply to small talk without a chat model: the kind of small talk, then that kind's canned reply.

    The kind is the route a ``LocalRouter`` picks over ``kinds`` (one ``RouteSpec`` per kind of small
    talk; a message close to none, or too close to two, gets the ``fallback`` kind). The defaults are the
    generic kinds and honest replies above (:data:`CHITCHAT_EXAMPLES`, :data:`CANNED_REPLIES`); a domain
    passes its own (the supervisor's team does). It cannot say anything new (one fixed reply per kind), and it does not
    decide *whether* a message is small talk, only which kind.

    >>> talk = LocalSmallTalk([RouteSpec("greeting", "a greeting", ("hello",)), RouteSpec("other", "other")],
    ...                       {"greeting": "Hello!", "other": "Ask me something."}, fallback="other")  # doctest: +SKIP
    >>> talk.reply("hi there")  # doctest: +SKIP
    'Hello!'
    """

    def __init__(self, kinds: Sequence[RouteSpec] | None = None, replies: Mapping[str, str] = CANNED_REPLIES,
                 fallback: str = "other", embedder: Embeddings | None = None):
        kinds = small_talk_kinds() if kinds is None else kinds
        missing = sorted({spec.name for spec in kinds} - set(replies))
        if missing:
            raise ValueError(f"no reply for the small-talk kind(s) {missing}")
        self.router = LocalRouter(kinds, fallback=fallback, embedder=embedder)
        self.replies = dict(replies)

    def kind(self, question: str) -> str:
        """The kind of small talk a message is."""
        return self.router.route(question).route

    def reply(self, question: str) -> str:
        return self.replies[self.kind(question)]


# ---------------------------------------------------------------- the query transformer: RM3 alternatives + an extractive passage
class LocalQueryTransformer:
    """Query transforms without a model to imagine an answer with, saying what they do: one RM3 expansion
    (:class:`ragkit.offline.writing.LocalRewriter`) per first-pass document that shares a key term with the
    question, so each leans towards a different document, and a "hypothetical document" that is not
    hypothetical (the first-pass sentences :class:`ragkit.offline.writing.LocalWriter` would quote). On a
    retry it gets the queries already tried and a first pass without the rejected documents.

    It cannot find vocabulary no first-pass document has, write an answer, or paraphrase; on a strong first
    stage it adds little (``benchmarks/advanced/scifact_transforms.py``).

    >>> docs = [Document("Chablis is a dry white wine from Burgundy; it suits oysters."),
    ...         Document("Muscadet, a crisp white from the Loire, is the classic match for oysters.")]
    >>> t = LocalQueryTransformer(prf_terms=2, hypothetical_sentences=0)
    >>> t.transform("What goes with oysters?", docs).queries
    ('What goes with oysters? chablis dry', 'What goes with oysters? muscadet crisp')
    """

    uses_first_pass = True

    def __init__(self, embedder: Embeddings | None = None, n_alternatives: int = ADVANCED.n_alternatives,
                 prf_terms: int = ADVANCED.prf_terms, hypothetical_sentences: int = ADVANCED.hypothetical_sentences):
        for name, value in {"n_alternatives": n_alternatives, "prf_terms": prf_terms,
                            "hypothetical_sentences": hypothetical_sentences}.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        self.embedder = embedder
        self.n_alternatives, self.prf_terms, self.hypothetical_sentences = n_alternatives, prf_terms, hypothetical_sentences
        self._rm3 = LocalRewriter(max_terms=prf_terms, feedback_docs=1)
        self._writer: LocalWriter | None = None

    def alternatives(self, question: str, documents: Sequence[Document], tried: Sequence[str] = ()) -> tuple[str, ...]:
        """One RM3 expansion of the question per feedback document; without any, the question's keywords."""
        if self.n_alternatives == 0:
            return ()
        feedback = LocalRewriter(feedback_docs=len(documents)).feedback(question, documents)
        candidates = [self._rm3.rewrite(question, [doc]) for doc in feedback] or [self._rm3.rewrite(question)]
        return new_queries(candidates, question, tried, self.n_alternatives)

    def hypothetical(self, question: str, documents: Sequence[Document]) -> str:
        """The most relevant sentences of the documents (the writer's relevance and MMR), as one passage."""
        if self.hypothetical_sentences == 0 or not documents:
            return ""
        if self._writer is None:  # no bar: the best sentences, whatever their score
            self._writer = LocalWriter(self.embedder if self.embedder is not None else load_embedder(),
                                       max_sentences=self.hypothetical_sentences, support_bar=-1.0, relative_bar=2.0)
        units, relevance, vectors = self._writer.score_units(question, documents)
        return " ".join(units[i].text for i in self._writer.select(relevance, vectors))[:MAX_HYPOTHETICAL_CHARS]

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        queries = self.alternatives(question, documents, tried)
        hypothetical = self.hypothetical(question, documents)
        if hypothetical and hypothetical.lower() in {q.lower() for q in tried}:
            hypothetical = ""
        note = (f"{len(queries)} feedback quer{'y' if len(queries) == 1 else 'ies'} and a "
                f"{len(hypothetical.split())}-word passage from {len(documents)} first-pass documents")
        return QueryTransform(queries, hypothetical, note)
