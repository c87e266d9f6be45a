"""The questions people ask about the statute: their kinds, the routing table, and how the graph refuses.

A question's *kind* says which evidence it needs (:class:`ragkit.roles.statute_protocols.KindDecision`):

- ``single``: the answer is in one article, asked without naming it ("What must a report of a pollution incident state?");
- ``definition``: what a term means or whether something falls under it ("Does an accidental spill count as a discharge?");
- ``multihop``: a case that needs two or more articles, typically a duty and its penalty or a decision
  and its appeal ("A trawler dumps plastic at sea: what fine can apply?");
- ``citation``: the question names an article ("What does Article 12(3) require?"), decided by the
  citation parser (:func:`citation_note`), never by similarity;
- ``unanswerable``: the statute does not say (another law, another country, a figure the Act leaves to
  someone else); refused without searching, so it must win by a margin. A question refused so is read once
  more with the defined terms its words fall under added ("A seal swims up to my motorboat" + "(marine
  mammal)": :class:`GlossingQuestionClassifier`), and searched when that reading is not refused: a question
  that turns on a defined word is worded far from the statute, the very thing that makes it look off topic.

:data:`KINDS` describes each kind with example questions written for the classifier from the statute's
structure and the forms people ask in, after reading the dev split (never the test split) and never
copied from the gold set (a test checks they are no near-duplicates of it). :data:`ROUTING_TABLE` maps a
kind to a retrieval strategy; both tables are measured in ``benchmarks/statute/statute_qa.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel

from ragkit.defaults import STATUTE_QA
from ragkit.domains.statute.citations import parse_citations, without_citations
from ragkit.domains.statute.corpus import load_statute
from ragkit.offline.evidence import LocalEvidenceGrader
from ragkit.offline.question_classifier import LocalQuestionClassifier
from ragkit.roles.llm_analysis import LLMEvidenceGrader, LLMQuestionClassifier
from ragkit.roles.protocols import DocumentGrader
from ragkit.roles.router_protocols import RouteSpec
from ragkit.roles.statute_protocols import KindDecision

QuestionKind = Literal["single", "definition", "multihop", "citation", "unanswerable"]
REFUSE_KIND, SAFE_KIND, CITATION_KIND, MULTIHOP_KIND = "unanswerable", "single", "citation", "multihop"
CORPUS = "the Coastal Waters Act"  # how an LLM prompt names the statute

KINDS: tuple[RouteSpec, ...] = (
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
ROUTED_KINDS: tuple[str, ...] = tuple(k.name for k in KINDS if k.name != REFUSE_KIND)  # the kinds that are searched

# The original system's table, the starting point of the issue.
STARTING_TABLE: dict[str, str] = {"single": "hybrid", "definition": "vector", "multihop": "graph", "citation": "hybrid"}
# Chosen on the DEV split by benchmarks/statute/statute_qa.py: per kind, the best dev hit@1, then recall@5, then
# hybrid > graph > vector. The citation entry fills the ranks after the pinned articles.
ROUTING_TABLE: dict[str, str] = {"single": "hybrid", "definition": "graph", "multihop": "graph", "citation": "hybrid"}

REFUSALS: dict[str, str] = {
    "unanswerable": "The statute does not deal with this question, so I will not guess an answer.",
    "no_such_article": "The question cites an article this statute does not have",
    "low_confidence": "I found no provision that answers this clearly enough, so I will not guess (low confidence).",
    "unsupported": "I could not write an answer whose every sentence its cited paragraph supports, so I will not give one (low confidence).",
    "search_failed": "The search failed, so I could not look anything up and will not guess an answer.",
    "closest": " The closest provisions I found: {articles}.",
    "language_cited": ("The question cites {articles}; the offline models could find it, but not read what the question asks "
                       "about it, so they will not guess. Ask in English, for example \"What does {first} say about ...?\""),
}


def citation_note(question: str) -> str:
    """What the question cites ("cites Article 12(3)"), or "" when it cites nothing: the rule of the citation kind.

    >>> citation_note("Do Arts. 5 and 6 apply?"), citation_note("Who pays?")
    ('cites Article 5, Article 6', '')
    """
    cited = parse_citations(question)
    return f"cites {', '.join(dict.fromkeys(c.label() for c in cited))}" if cited else ""


class GlossingQuestionClassifier(LocalQuestionClassifier):
    """A :class:`LocalQuestionClassifier` that reads a question it would refuse once more, glossed (``gloss``: the
    question with the defined terms its words fall under added), and keeps the refusal only when that reading is
    refused too. Only refusals change: every other kind is the plain classifier's.

    What it cannot do: a word of a definition that is also an everyday word ("close" in "closed to all fishing")
    glosses an off-topic question too, which is then searched instead of refused (the evidence grader may still
    refuse it); a question worded with none of a definition's words is refused as before.
    """

    def __init__(self, *args: Any, gloss: Callable[[str], str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.gloss = gloss

    def classify(self, question: str) -> KindDecision:
        decision = super().classify(question)
        if decision.kind != self.refuse or self.gloss is None:
            return decision
        glossed = self.gloss(question)
        again = super().classify(glossed) if glossed != question else decision
        if again.kind == self.refuse:
            return decision
        return KindDecision(again.kind, again.confidence, f"{again.note} (read as {glossed!r})".lstrip(), again.fallback)


def definitions_gloss(documents: Sequence[Document] | Callable[[], Sequence[Document]] = load_statute,
                      bar: float = STATUTE_QA.definition_gloss_bar) -> Callable[[str], str]:
    """The question with the statute's defined terms its words fall under (at least ``bar`` specific) added, the
    definitions read on first use (:func:`ragkit.domains.statute.article_graph.statute_definitions`).

    >>> definitions_gloss()("Does the Act still apply 10 nautical miles offshore?")
    'Does the Act still apply 10 nautical miles offshore? (coastal waters)'
    """
    from ragkit.domains.statute.article_graph import statute_definitions

    found: list[Any] = []

    def gloss(question: str) -> str:
        if not found:
            found.append(statute_definitions(list(documents() if callable(documents) else documents)))
        return found[0].gloss(question, bar)

    return gloss


def local_question_classifier(documents: Sequence[Document] | Callable[[], Sequence[Document]] = load_statute,
                              embedder: Embeddings | None = None,
                              refuse_margin: float = STATUTE_QA.classifier_refuse_margin, k: int = STATUTE_QA.classifier_k,
                              passage_weight: float = STATUTE_QA.classifier_passage_weight,
                              passage_bar: float = STATUTE_QA.classifier_passage_bar,
                              term_weight: float = STATUTE_QA.classifier_term_weight,
                              gloss_bar: float | None = STATUTE_QA.definition_gloss_bar) -> LocalQuestionClassifier:
    """The local classifier of the statute's kinds, the articles (default: loaded on first use) as corpus evidence;
    a refusal is checked on the question glossed with the defined terms it falls under (``gloss_bar`` None: not).

    >>> local_question_classifier().classify("What does Article 12(3) require?").kind  # a citation needs no model
    'citation'
    """
    return GlossingQuestionClassifier(KINDS, refuse=REFUSE_KIND, safe=SAFE_KIND, rules={CITATION_KIND: citation_note},
                                      documents=documents, embedder=embedder, refuse_margin=refuse_margin, k=k,
                                      passage_weight=passage_weight, passage_bar=passage_bar, term_weight=term_weight,
                                      gloss=None if gloss_bar is None else definitions_gloss(documents, gloss_bar))


def llm_question_classifier(model: BaseChatModel) -> LLMQuestionClassifier:
    """The LLM classifier of the statute's kinds."""
    return LLMQuestionClassifier(model, KINDS, refuse=REFUSE_KIND, safe=SAFE_KIND, corpus=CORPUS)


def local_evidence_grader(grader: DocumentGrader | None = None, embedder: Embeddings | None = None,
                          relevant_above: float = STATUTE_QA.evidence_relevant_above) -> LocalEvidenceGrader:
    """The local evidence grader; a question's citations ("Article 15") are not names it must find."""
    return LocalEvidenceGrader(grader, embedder, relevant_above, ignore=without_citations)


def llm_evidence_grader(model: BaseChatModel) -> LLMEvidenceGrader:
    """The LLM evidence grader, told what the documents are and what counts as an answer."""
    return LLMEvidenceGrader(model, corpus="articles of a statute", answers="a rule, a number, a time limit, a definition",
                             missing="left to someone else, or in another law")


__all__ = ["CITATION_KIND", "CORPUS", "GlossingQuestionClassifier", "KINDS", "MULTIHOP_KIND", "QuestionKind", "REFUSALS", "REFUSE_KIND", "ROUTED_KINDS", "ROUTING_TABLE",
           "SAFE_KIND", "STARTING_TABLE", "citation_note", "definitions_gloss", "llm_evidence_grader", "llm_question_classifier",
           "local_evidence_grader", "local_question_classifier"]
