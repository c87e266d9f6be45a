"""Following references: from a passage a search found to the passages it points to, or that point to it.

A multi-hop answer often needs a passage the question never describes, only *linked* to one that was
found: the rule a question describes is fined by a penalty provision that cites it ("a breach of
Article 17 is liable to ..."), and a rule's words may be defined somewhere else ("Baseline" means ...).
A search ranks passages by what they say, so it finds one end of the link and misses, or under-ranks,
the other. This module follows the links in code, one hop at a time:

- a domain says what a passage refers to, ``references_of(passage) -> [Reference(source, target, why,
  weight, kind)]`` (passage ids; ``why`` in words, for the trace; ``weight``: how much this kind of link counts;
  ``kind``: :data:`CITES` for a citation, :data:`DEFINES` for a link from a passage using a term to the passage
  defining it);
- :class:`ReferenceIndex` reads every passage of the corpus once and keeps the references both ways
  (what a passage points to, and what points to it) and, apart, those whose target the corpus lacks;
- :func:`next_hop` takes the passages the answer rests on (``anchors``), collects every link from or to
  them, asks a relevance function (a grader: the model proposes) how relevant the passage at the other
  end is to the question, and keeps the best ``limit`` whose ``relevance * weight`` reaches ``bar``
  and is above 0 (code disposes). A passage already in the chain is never added twice, so a chain of hops cannot loop.
  ``kinds`` restricts a hop to some kinds of link, so that a caller can take the best citation and, apart, the
  best definition, instead of letting the two compete (a definitions passage is linked to most of a corpus, and a
  question that turns on a defined word usually needs the rule *and* the definition).

A question that turns on a defined word rarely uses the term itself: it says "a seal", and the rule says
"marine mammal", defined as "any whale, dolphin, porpoise or seal". :class:`Definitions` holds the words of each
definition and finds the defined terms a question's words fall under (:meth:`Definitions.under`), so a caller can
read the question with those terms added (:meth:`Definitions.gloss`).

What it cannot do: it follows only what ``references_of`` reads (a reference by description, "the
previous paragraph", is invisible unless the domain reads it); the relevance of the passage at the other
end is judged against the question alone, so a link whose target shares no words or meaning with the
question ranks low even when it is the one needed; one hop follows at most ``limit`` links, so a passage
that points to three needed passages needs three hops. :class:`Definitions` matches words, stemmed: a
question word the definition does not list ("a kayak" for "any craft on the water") falls under no term,
and a common word of a definition falls under it wrongly unless ``bar`` (a word's specificity) keeps it out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from langchain_core.documents import Document

from ragkit.core.nlp import key_terms, tokenize
from ragkit.core.search import doc_key

CITES = "cites"  # the source passage cites the target ("Article 17", "Articles 3 to 5")
DEFINES = "defines"  # the target passage defines a term the source passage uses


@dataclass(frozen=True)
class Reference:
    """Passage ``source`` refers to passage ``target`` (ids); ``why`` says how; ``weight`` scales its relevance;
    ``kind`` is :data:`CITES` or :data:`DEFINES` (or a domain's own kind)."""

    source: str
    target: str
    why: str
    weight: float = 1.0
    kind: str = CITES


@dataclass(frozen=True)
class Hop:
    """One followed reference: in hop ``hop``, from the chain's passage ``anchor`` to the new passage ``added``.

    >>> str(Hop(1, "art-17(2)", "art-35(2)", "Article 35(2) cites Article 17", 0.02))
    'hop 1: art-35(2) added from art-17(2) (Article 35(2) cites Article 17)'
    """

    hop: int
    anchor: str
    added: str
    why: str
    score: float
    kind: str = CITES  # the kind of the link followed

    def __str__(self) -> str:
        return f"hop {self.hop}: {self.added} added from {self.anchor} ({self.why})"


class ReferenceIndex:
    """Every reference among a corpus's passages, readable both ways, and the unresolved ones apart (and, when the
    domain reads them, the corpus's :class:`Definitions`).

    >>> a, b = Document("See B.", metadata={"id": "a"}), Document("B holds.", metadata={"id": "b"})
    >>> refs = {"a": [Reference("a", "b", "a cites b"), Reference("a", "z", "a cites z")]}
    >>> index = ReferenceIndex([a, b], lambda p: refs.get(doc_key(p), []))
    >>> [(other, r.why) for other, r in index.links("b")], [r.target for r in index.unresolved["a"]]
    ([('a', 'a cites b')], ['z'])
    """

    def __init__(self, passages: Sequence[Document], references_of: Callable[[Document], Iterable[Reference]],
                 definitions: Definitions | None = None):
        self.passages = {doc_key(p): p for p in passages}
        self.definitions = definitions  # the corpus's defined terms, when the domain reads them
        self.outgoing: dict[str, list[Reference]] = {}
        self.incoming: dict[str, list[Reference]] = {}
        self.unresolved: dict[str, list[Reference]] = {}
        for passage in passages:
            for ref in references_of(passage):
                if ref.target == ref.source:
                    continue
                if ref.target not in self.passages:
                    self.unresolved.setdefault(ref.source, []).append(ref)
                    continue
                self.outgoing.setdefault(ref.source, []).append(ref)
                self.incoming.setdefault(ref.target, []).append(ref)

    def links(self, key: str) -> list[tuple[str, Reference]]:
        """``(the passage at the other end, the reference)`` for every reference from, then to, passage ``key``."""
        return [(r.target, r) for r in self.outgoing.get(key, [])] + [(r.source, r) for r in self.incoming.get(key, [])]


def next_hop(index: ReferenceIndex, anchors: Sequence[str], relevance: Callable[[list[Document]], Sequence[float]], *,
             hop: int, chain: Iterable[str] = (), limit: int = 1, bar: float = 0.0, max_candidates: int = 24,
             kinds: Collection[str] | None = None, both_ways: bool = True) -> list[Hop]:
    """The references to follow from ``anchors``: the best ``limit`` links by ``relevance * weight``, at least ``bar``.

    Candidates are the passages linked to an anchor (either way, or only from it when ``both_ways`` is False; by a
    link of one of ``kinds``, None: any kind)
    that are not in ``chain`` (the anchors count as in it); a passage reached by several links keeps its heaviest. Only the ``max_candidates``
    heaviest candidates are scored (a guard: a definitions passage is linked to most of a corpus).

    >>> p = {k: Document(t, metadata={"id": k}) for k, t in [("rule", "No nets."), ("fine", "Breach of rule: 50 crowns."),
    ...                                                        ("other", "Rule applies at sea.")]}
    >>> refs = [Reference("fine", "rule", "fine cites rule"), Reference("other", "rule", "other cites rule", 0.5)]
    >>> index = ReferenceIndex(list(p.values()), lambda d: [r for r in refs if r.source == doc_key(d)])
    >>> [str(h) for h in next_hop(index, ["rule"], lambda docs: [0.8 if "crowns" in d.page_content else 0.6 for d in docs], hop=1)]
    ['hop 1: fine added from rule (fine cites rule)']
    >>> next_hop(index, ["rule"], lambda docs: [1.0] * len(docs), hop=1, kinds={DEFINES})  # no definition links here
    []
    """
    chain = {*chain, *anchors}
    candidates: dict[str, tuple[str, Reference]] = {}
    for anchor in anchors:
        links = index.links(anchor) if both_ways else [(r.target, r) for r in index.outgoing.get(anchor, [])]
        for other, ref in links:
            if kinds is not None and ref.kind not in kinds:
                continue
            if other not in chain and (other not in candidates or ref.weight > candidates[other][1].weight):
                candidates[other] = (anchor, ref)
    keys = sorted(candidates, key=lambda k: -candidates[k][1].weight)[:max_candidates]  # stable: index order breaks ties
    if not keys:
        return []
    scores = relevance([index.passages[k] for k in keys])
    ranked = sorted(range(len(keys)), key=lambda i: -float(scores[i]) * candidates[keys[i]][1].weight)
    hops = []
    for i in ranked[:limit]:
        score = float(scores[i]) * candidates[keys[i]][1].weight
        if score > 0 and score >= bar:  # a link to a paragraph graded irrelevant (0) is never followed
            anchor, ref = candidates[keys[i]]
            hops.append(Hop(hop, anchor, keys[i], ref.why, round(score, 4), ref.kind))
    return hops


@dataclass(frozen=True)
class Definitions:
    """The terms a corpus defines, the stemmed words of each definition, and how specific each word is.

    ``specificity`` is ``log(N / df) / log(N)`` over the corpus's passages (1 for a word one passage uses); a
    word absent from it counts 1. Build it with :meth:`from_texts`.

    >>> defs = Definitions.from_texts({"Marine mammal": "any whale, dolphin, porpoise or seal"},
    ...                               ["A vessel shall keep 100 metres from a marine mammal.", "Seals rest on rocks."])
    >>> defs.under("A seal swims up to my boat. Must I slow down?"), defs.under("Is a seal a marine mammal?")
    (['Marine mammal'], [])
    >>> defs.gloss("A seal swims up to my boat.")
    'A seal swims up to my boat. (marine mammal)'
    """

    words: dict[str, frozenset[str]]
    specificity: dict[str, float]
    where: dict[str, str] = field(default_factory=dict)  # term -> id of the passage defining it (when known)

    @classmethod
    def from_texts(cls, definitions: dict[str, str], passages: Sequence[str], where: dict[str, str] | None = None) -> Definitions:
        """``definitions`` maps each term to what it means (the text after "means"); ``passages`` are the corpus's;
        ``where`` the id of the passage defining each term."""
        df: dict[str, int] = {}
        for text in passages:
            for word in set(tokenize(text)):
                df[word] = df.get(word, 0) + 1
        n = max(len(passages), 2)
        words = {term: frozenset(tokenize(body)) - set(tokenize(term)) for term, body in definitions.items()}
        spec = {w: math.log(n / df[w]) / math.log(n) for w in set().union(*words.values(), set()) if w in df}
        return cls(words, spec, dict(where or {}))

    def under(self, question: str, bar: float = 0.0) -> list[str]:
        """The terms the question does not use whose definitions hold one of its key words (not a number) at
        least ``bar`` specific, in definition order."""
        asked = set(key_terms(question))
        return [term for term, words in self.words.items()
                if not set(tokenize(term)) <= asked
                and any(not w.isdigit() and self.specificity.get(w, 1.0) >= bar for w in asked & words)]

    def gloss(self, question: str, bar: float = 0.0) -> str:
        """The question with the terms it falls under added in brackets (unchanged when there are none)."""
        terms = self.under(question, bar)
        return f"{question} ({', '.join(t.lower() for t in terms)})" if terms else question


__all__ = ["CITES", "DEFINES", "Definitions", "Hop", "Reference", "ReferenceIndex", "next_hop"]
