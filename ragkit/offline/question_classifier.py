"""Question classifier: label a question with its *kind* by the nearest labelled examples.

A domain describes each kind the way a router describes a route (:class:`ragkit.roles.router_protocols.RouteSpec`:
a sentence and example questions), and ``LocalQuestionClassifier`` scores them with the router's own
machinery (:class:`ragkit.offline.router.LocalRouter`: nearest prototypes, plus the domain's documents as
corpus evidence for every kind but the refusing one, so a question whose terms the documents never use
leans towards refusing). On top of the router's scores, three choices that a router does not make:

- a kind can be decided by a *rule* instead of by similarity (``rules``: kind -> a function returning a
  note when the rule holds, "" otherwise; a statute's "citation" kind is exactly "a citation parses");
- the *refusing* kind (what the caller may refuse; the statute graph searches it first, at a raised refusal
  dial) must beat the best other kind by ``refuse_margin``, because refusing an answerable question costs more
  than searching an unanswerable one;
- a tie between the other kinds goes to the *safe* kind (the one whose strategy suits most questions);
- a question told in several sentences is refused only when each of its sentences with a key term is refused
  too (:meth:`~LocalQuestionClassifier.readings`): a story ("A fuel hose split on my boat. Do I have to report
  it?") looks like the off-topic examples as a whole more than its ask does.

What it cannot do: nearest-prototype similarity sees topic more than form, so two kinds asked about the
same subject look alike; the refusing kind is only found when the question is about something the
documents never mention; quality rests on how well the examples cover what people ask.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.nlp import clean_query, question_sentences
from ragkit.defaults import ROUTER
from ragkit.offline.router import LocalRouter
from ragkit.roles.router_protocols import RouteSpec, check_routes
from ragkit.roles.statute_protocols import KindDecision


def check_kinds(kinds: Sequence[RouteSpec], refuse: str, safe: str, rules: Sequence[str] = ()) -> tuple[RouteSpec, ...]:
    """The kinds, checked: unique names, with the refusing, the safe and every rule kind among them."""
    kinds, _ = check_routes(kinds, refuse)
    names = [k.name for k in kinds]
    for role, name in [("safe", safe), *(("rule", r) for r in rules)]:
        if name not in names or name == refuse:
            raise ValueError(f"the {role} kind {name!r} must be one of the kinds {names} other than {refuse!r}")
    return kinds


def refusal_lead(scores: Mapping[str, float], refuse: str) -> float:
    """How far the refusing kind's score leads the best other kind's (negative when it trails).

    >>> round(refusal_lead({"single": 0.50, "definition": 0.40, "none": 0.60}, "none"), 2)
    0.1
    """
    return scores.get(refuse, float("-inf")) - max(s for k, s in scores.items() if k != refuse)


def decide(scores: Mapping[str, float], refuse_margin: float, refuse: str, safe: str) -> KindDecision:
    """The kind from the scores: ``refuse`` only by ``refuse_margin``, ties between the others to ``safe``.

    >>> decide({"single": 0.50, "definition": 0.52, "none": 0.55}, 0.05, "none", "single").kind
    'definition'
    >>> decide({"single": 0.50, "definition": 0.40, "none": 0.60}, 0.05, "none", "single").kind
    'none'
    """
    others = sorted(((s, k) for k, s in scores.items() if k != refuse), key=lambda sk: (-sk[0], sk[1] != safe))
    best_score, best = others[0]
    lead = refusal_lead(scores, refuse)
    if lead >= refuse_margin:
        return KindDecision(refuse, scores[refuse], f"{refuse} beats {best} by {lead:.3f}")
    runner = others[1][0] if len(others) > 1 else float("-inf")
    return KindDecision(best, best_score, f"nearest kind {best} ({best_score:.2f}, gap {best_score - runner:.3f})")


class LocalQuestionClassifier:
    """Rules first, then the router's scores with an asymmetric refusal (see the module docstring).

    ``documents`` (the corpus the answerable kinds search) may be a function returning them; the router
    is built on the first question no rule decides, so building the classifier embeds nothing.

    >>> kinds = [RouteSpec("single", "one fact"), RouteSpec("cited", "names a page"), RouteSpec("none", "off topic")]
    >>> clf = LocalQuestionClassifier(kinds, refuse="none", safe="single", rules={"cited": lambda q: "p. 4" if "p. 4" in q else ""})
    >>> clf.classify("What does p. 4 say?")
    KindDecision(kind='cited', confidence=1.0, note='p. 4', fallback=False)
    """

    def __init__(self, kinds: Sequence[RouteSpec], *, refuse: str, safe: str,
                 rules: Mapping[str, Callable[[str], str]] | None = None,
                 documents: Sequence[Document] | Callable[[], Sequence[Document]] = (),
                 embedder: Embeddings | None = None, refuse_margin: float = 0.0, k: int = ROUTER.k,
                 passage_weight: float = ROUTER.passage_weight, passage_bar: float = ROUTER.passage_bar,
                 term_weight: float = ROUTER.term_weight):
        self.rules = dict(rules or {})
        self.kinds = check_kinds(kinds, refuse, safe, list(self.rules))
        self.refuse, self.safe = refuse, safe
        self.documents, self.embedder, self.refuse_margin = documents, embedder, refuse_margin
        self.settings = {"k": k, "passage_weight": passage_weight, "passage_bar": passage_bar, "term_weight": term_weight}
        self._router: LocalRouter | None = None

    @property
    def router(self) -> LocalRouter:
        """The router over the kinds no rule decides (built on first use)."""
        if self._router is None:
            docs = list(self.documents() if callable(self.documents) else self.documents)
            routes = [s for s in self.kinds if s.name not in self.rules]
            evidence = {s.name: docs for s in routes if s.name != self.refuse} if docs else None
            self._router = LocalRouter(routes, fallback=self.refuse, embedder=self.embedder, documents=evidence,
                                       margin=0.0, min_similarity=float("-inf"), **self.settings)
        return self._router

    def scores(self, question: str) -> dict[str, float]:
        """The router's score for each kind no rule decides (what :meth:`classify` compares)."""
        return self.router.scores(question)

    def readings(self, question: str) -> list[str]:
        """The texts a refusal must hold on: the question and, when it is told in several sentences, each sentence
        with a key term.

        >>> LocalQuestionClassifier([RouteSpec("a", "asks"), RouteSpec("b", "off topic")], refuse="b", safe="a").readings(
        ...     "My hose split. Diesel leaked out. Must I report it?")
        ['My hose split. Diesel leaked out. Must I report it?', 'My hose split.', 'Diesel leaked out.', 'Must I report it?']
        """
        return [question, *question_sentences(question)]

    def classify(self, question: str) -> KindDecision:
        question = clean_query(question, what="question")
        for kind, rule in self.rules.items():
            note = rule(question)
            if note:
                return KindDecision(kind, 1.0, note)
        whole, *sentences = self.readings(question)
        decision = decide(self.scores(whole), self.refuse_margin, self.refuse, self.safe)
        if decision.kind != self.refuse:
            return decision
        searched = []  # (the sentence's decision, the sentence) for each sentence that would be searched
        for text in sentences:
            reading = decide(self.scores(text), self.refuse_margin, self.refuse, self.safe)
            if reading.kind != self.refuse:
                searched.append((reading, text))
        if not searched:
            return decision
        best, text = max(searched, key=lambda pair: pair[0].confidence)
        return KindDecision(best.kind, best.confidence, f"{best.note} (the sentence {text!r}; the whole: {decision.note})")


__all__ = ["LocalQuestionClassifier", "check_kinds", "decide", "refusal_lead"]
