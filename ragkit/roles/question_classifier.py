"""Question classifiers: what kind of statute question is this (single, definition, multihop, citation, unanswerable)?

Strategy-routed QA (:mod:`ragkit.graphs.statute_qa`) labels a question before it searches, and a plain
dict maps the label to a retrieval strategy. The five kinds:

- ``single``: the answer is in one article, asked without naming it ("What must a report of a pollution incident state?");
- ``definition``: what a term means or whether something falls under it ("Does an accidental spill count as a discharge?");
- ``multihop``: a case that needs two or more articles, typically a duty and its penalty or a decision
  and its appeal ("A trawler dumps plastic at sea: what fine can apply?");
- ``citation``: the question names an article ("What does Article 12(3) require?");
- ``unanswerable``: the statute does not say (another law, another country, a figure the Act leaves to
  someone else).

``LocalQuestionClassifier`` reuses the router's machinery (:class:`ragkit.offline.router.LocalRouter`): each
kind but ``citation`` is a route described by a sentence and example questions written for this module
(:data:`QUESTION_TYPES`, NOT taken from the gold set: a test checks they are not near-duplicates of it),
and the statute's own passages are corpus evidence for every answerable kind, so a question whose terms
the statute never uses leans towards ``unanswerable``. ``citation`` is not guessed from similarity: a
question is a citation exactly when :func:`ragkit.domains.statute.citations.parse_citations` finds one. Two
decisions are asymmetric, because their mistakes cost differently: ``unanswerable`` (a refusal without
searching) must beat the best answerable kind by ``refuse_margin``; otherwise the best answerable kind
wins, and a tie goes to ``single`` (hybrid search, the safest strategy).

``LLMQuestionClassifier`` asks a chat model for the kind as a ``Literal`` field (structured output); on
a failed or malformed call it answers ``single`` with ``fallback=True`` (search, and let the evidence
grader and the citation check decide), never ``unanswerable``.

What it cannot do: nearest-prototype similarity sees topic more than form, so a single-article question
about fines and a fine-plus-duty case look alike; "unanswerable" is only caught when the question is
about something the statute never mentions; a near miss ("What is this year's herring quota in tonnes?",
when the Act leaves quotas to the Authority) reads as answerable, and only the evidence grader can
refuse it later. The examples were written after reading the dev split (never the test split), so dev
accuracy flatters it; the test split is the honest number (``benchmarks/statute/statute_qa.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, get_args, runtime_checkable

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate

from ragkit.core.nlp import clean_query
from ragkit.defaults import STATUTE_QA
from ragkit.domains.statute.citations import parse_citations
from ragkit.roles.llm import call_structured, choice_schema, format_routes
from ragkit.roles.protocols import RouteSpec

QuestionKind = Literal["single", "definition", "multihop", "citation", "unanswerable"]
QUESTION_KINDS: tuple[str, ...] = get_args(QuestionKind)
SAFE_KIND = "single"  # what a tie or a failed model call becomes


@dataclass(frozen=True)
class QuestionType:
    """A question's kind, how sure the classifier is (a score, not a probability), and why."""

    kind: QuestionKind
    confidence: float
    note: str = ""
    fallback: bool = False


@runtime_checkable
class QuestionClassifier(Protocol):
    def classify(self, question: str) -> QuestionType: ...


# Written for this module from the statute's structure and the forms people ask in (never copied from
# data/eval/statute_qa.json; tests/test_statute_qa_roles.py checks no example is a near-duplicate of a gold
# question). Varied in topic within each kind, so that the form, not the subject, is what the kinds share.
QUESTION_TYPES: tuple[RouteSpec, ...] = (
    RouteSpec(
        "single",
        "A question whose answer is stated in one article of the statute: a time limit, an amount, a "
        "distance, a duty, a power or a prohibition, asked without naming the article.",
        ("What is the largest structure that can be built without an impact assessment?",
         "Within how many hours must an escape of farmed fish be reported?",
         "Who has to carry an identity card issued by the Authority?",
         "What must the master do when a whale swims towards the boat?",
         "What must a fish farm operator do during a disease outbreak?",
         "How many days does the public have to comment on a draft designation order?",
         "When must the Authority publish its annual report?",
         "How often must turbidity be measured while dredging?",
         "What may a court order besides a fine?",
         "What is the maximum length of a gillnet?",
         "What has to be marked on a buoy at the end of a longline?",
         "How close may a boat come to a whale with a calf?",
         "Can someone be punished for reporting a spill in good faith?",
         "Who pays when the Authority cleans up the pollution itself?",
         "How often must the holder of a discharge permit sample the discharge?",
         "When does the part on protected areas take effect?",
         "How quickly must the Authority decide on a request to transfer a permit?",
         "What must a report of a pollution incident state?",
         "How long may an inspector hold a boat in port without a court order?",
         "Where can dredged material be dumped?"),
    ),
    RouteSpec(
        "definition",
        "A question about what a term means in the statute, or whether a particular thing, person or "
        "activity falls under a term the statute defines.",
        ("What does the Act mean by a discharge?",
         "How does the law define aquaculture?",
         "Does an accidental spill count as a discharge?",
         "Who is the operator of an activity under the Act?",
         "What is meant by the baseline?",
         "Is seaweed farming aquaculture under this law?",
         "What exactly is a harmful substance here?",
         "What does 'fallow' mean for a fish farm?",
         "Does a rope farm for mussels count as aquaculture?",
         "What is meant by a designation order?",
         "What does 'coastal zone' cover?",
         "Is a dolphin a protected species under the Act?",
         "What is bycatch?",
         "Does a jet ski count as a vessel?",
         "Which animals are marine mammals for the purposes of the Act?",
         "what does the term master mean in the act"),
    ),
    RouteSpec(
        "multihop",
        "A case or scenario that needs two or more articles together: a rule and the penalty for "
        "breaking it, a decision and how to appeal it, a procedure that refers to another article, or "
        "an exception to a rule stated elsewhere.",
        ("A ship releases untreated sewage 5 miles off the coast. What fine can it face?",
         "An operator does not report that fish escaped from his farm. How much could he be fined?",
         "What is the fine for taking a boat too close to a whale?",
         "My discharge permit was revoked. How long do I have to appeal, and to whom?",
         "A fisher is caught using explosives. What penalty applies and what happens to the catch?",
         "A company lays a 10 kilometre cable without a permit. What fine can it get?",
         "A dredging operator stops monitoring turbidity as its permit requires. What is the maximum fine?",
         "A 500-tonne vessel spills oil. How much can its owner be fined?",
         "A crew throws plastic overboard in the harbour. What penalty can follow?",
         "A diver disturbs a seal haul-out site in June. Is that an offence, and what can it cost?",
         "If the Authority refuses to let me transfer my permit, can I challenge that, and by when?",
         "A trawler uses a 60 millimetre mesh two miles from the baseline. Which rules does it break and what is the fine?",
         "Does an exempt private mooring still need a permit inside a no-take zone?",
         "An inspector is lied to during a boarding. What can happen to the person who lied?",
         "A fish farm exceeds its permitted biomass. What penalty applies and can the Authority revoke the permit?",
         "If my fishing licence is suspended by a court after an offence, can I still fish recreationally?"),
    ),
    RouteSpec(
        "citation",
        "A question that names an article or section of the statute by number.",
        ("What does Article 12(3) require?", "Under Article 22, where may treated sewage be released?",
         "Explain section 9.", "Which fines are listed in Art. 36?"),
    ),
    RouteSpec(
        "unanswerable",
        "A question the statute does not answer: about another law, another country, practical matters "
        "the statute does not regulate, or a figure the statute leaves to someone else to set.",
        ("What is the speed limit on motorways in Talvora?",
         "How do I register a fishing company?",
         "What taxes does a fishing business pay?",
         "Who is the current Minister for the marine environment?",
         "What are the opening hours of the Authority's office?",
         "What is the salary of a coastal inspector?",
         "Which beaches have lifeguards in summer?",
         "What does the EU Habitats Directive require?",
         "What will the weather be like on the coast tomorrow?",
         "How many tonnes of fish were landed last year?",
         "How many inspectors does the Authority employ?",
         "Is it legal to fly a drone over the beach?",
         "Do I need a building permit for a house far from the sea?",
         "What are the hunting seasons for ducks?",
         "How do I become a licensed skipper in another country?",
         "What does the constitution say about property rights?"),
    ),
)


def check_kinds(specs: Sequence[RouteSpec]) -> tuple[RouteSpec, ...]:
    """Route specs for the five kinds: every kind once, nothing else."""
    specs = tuple(specs)
    names = sorted(s.name for s in specs)
    if names != sorted(QUESTION_KINDS):
        raise ValueError(f"question types must be exactly {list(QUESTION_KINDS)}, got {names}")
    return specs


class LocalQuestionClassifier:
    """Citations by the parser; the other kinds by the router's prototypes and corpus evidence (module docs).

    >>> clf = LocalQuestionClassifier()  # cheap: nothing is embedded yet
    >>> clf.classify("What does Article 12(3) require?").kind  # no model needed for a citation
    'citation'
    >>> clf.classify("Does an accidental spill count as a discharge?").kind  # doctest: +SKIP
    'definition'

    ``documents`` are the statute's articles (default: ``load_statute()``); the router is built on the
    first question that is not a citation, so building the classifier loads no model.
    """

    def __init__(self, embedder: Embeddings | None = None, documents: Sequence[Document] | None = None,
                 types: Sequence[RouteSpec] = QUESTION_TYPES, refuse_margin: float = STATUTE_QA.classifier_refuse_margin,
                 k: int = STATUTE_QA.classifier_k, passage_weight: float = STATUTE_QA.classifier_passage_weight,
                 passage_bar: float = STATUTE_QA.classifier_passage_bar, term_weight: float = STATUTE_QA.classifier_term_weight):
        self.types = check_kinds(types)
        self.embedder, self.documents = embedder, None if documents is None else list(documents)
        self.refuse_margin = refuse_margin
        self.settings = {"k": k, "passage_weight": passage_weight, "passage_bar": passage_bar, "term_weight": term_weight}
        self._router = None

    @property
    def router(self):
        """The :class:`~ragkit.offline.router.LocalRouter` over the four guessable kinds (built on first use)."""
        if self._router is None:
            from ragkit.offline.router import LocalRouter

            docs = self.documents
            if docs is None:
                from ragkit.domains.statute.corpus import load_statute

                docs = load_statute()
            routes = [s for s in self.types if s.name != "citation"]
            evidence = {s.name: docs for s in routes if s.name != "unanswerable"}
            self._router = LocalRouter(routes, fallback="unanswerable", embedder=self.embedder, documents=evidence,
                                       margin=0.0, min_similarity=float("-inf"), **self.settings)
        return self._router

    def scores(self, question: str) -> dict[str, float]:
        """The router's score for each guessable kind (what :meth:`classify` compares)."""
        return self.router.scores(question)

    def classify(self, question: str) -> QuestionType:
        question = clean_query(question, what="question")
        cited = parse_citations(question)
        if cited:
            return QuestionType("citation", 1.0, f"cites {', '.join(dict.fromkeys(c.label() for c in cited))}")
        return decide(self.scores(question), self.refuse_margin)


def decide(scores: dict[str, float], refuse_margin: float) -> QuestionType:
    """The kind from the router's scores: ``unanswerable`` only by ``refuse_margin``, ties to ``single``.

    >>> decide({"single": 0.50, "definition": 0.52, "multihop": 0.40, "unanswerable": 0.55}, 0.05).kind
    'definition'
    >>> decide({"single": 0.50, "definition": 0.40, "multihop": 0.40, "unanswerable": 0.60}, 0.05).kind
    'unanswerable'
    """
    answerable = sorted(((s, k) for k, s in scores.items() if k != "unanswerable"), key=lambda sk: (-sk[0], sk[1] != SAFE_KIND))
    best_score, best = answerable[0]
    refuse = scores.get("unanswerable", float("-inf"))
    if refuse - best_score >= refuse_margin:
        return QuestionType("unanswerable", refuse, f"unanswerable beats {best} by {refuse - best_score:.3f}")
    runner = answerable[1][0] if len(answerable) > 1 else float("-inf")
    return QuestionType(best, best_score, f"nearest kind {best} ({best_score:.2f}, gap {best_score - runner:.3f})")  # type: ignore[arg-type]


CLASSIFIER_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system",
         "You label questions about a statute (the Coastal Waters Act) before anyone searches it. The kinds are:\n"
         "{kinds}\n\nPick exactly one kind. Choose \"unanswerable\" only when the statute clearly cannot answer; "
         "when unsure, prefer \"single\"."),
        ("human", "Question: {question}"),
    ]
)


class LLMQuestionClassifier:
    """A chat model picks the kind (a ``Literal`` field); on any failure: ``single`` with ``fallback=True``.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMQuestionClassifier(scripted('{"kind": "multihop", "reason": "duty and fine"}')).classify("A ship dumps oil: fine?")
    QuestionType(kind='multihop', confidence=1.0, note='duty and fine', fallback=False)
    >>> LLMQuestionClassifier(scripted('{"kind": "poem"}')).classify("Who?").kind
    'single'
    """

    def __init__(self, model: BaseChatModel, types: Sequence[RouteSpec] = QUESTION_TYPES,
                 prompt: ChatPromptTemplate = CLASSIFIER_PROMPT):
        self.model, self.types, self.prompt = model, check_kinds(types), prompt
        self.schema = choice_schema("QuestionKindChoice", "kind", QUESTION_KINDS, "the kind of question")

    def classify(self, question: str) -> QuestionType:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, self.schema, {"question": question, "kinds": format_routes(self.types)})
        if not result.ok:
            return QuestionType(SAFE_KIND, 0.0, f"safe default: {result.note}", fallback=True)
        return QuestionType(result.value.kind, 1.0, getattr(result.value, "reason", ""))


__all__ = ["CLASSIFIER_PROMPT", "LLMQuestionClassifier", "LocalQuestionClassifier", "QUESTION_KINDS", "QUESTION_TYPES",
           "QuestionClassifier", "QuestionKind", "QuestionType", "SAFE_KIND", "check_kinds", "decide"]
