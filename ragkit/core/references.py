"""Following references: from a passage a search found to the passages it points to, or that point to it.

A multi-hop answer often needs a passage the question never describes, only *linked* to one that was
found: the rule a question describes is fined by a penalty provision that cites it ("a breach of
Article 17 is liable to ..."), and a rule's words may be defined somewhere else ("Baseline" means ...).
A search ranks passages by what they say, so it finds one end of the link and misses, or under-ranks,
the other. This module follows the links in code, one hop at a time:

- a domain says what a passage refers to, ``references_of(passage) -> [Reference(source, target, why,
  weight)]`` (passage ids; ``why`` in words, for the trace; ``weight``: how much this kind of link counts);
- :class:`ReferenceIndex` reads every passage of the corpus once and keeps the references both ways
  (what a passage points to, and what points to it) and, apart, those whose target the corpus lacks;
- :func:`next_hop` takes the passages the answer rests on (``anchors``), collects every link from or to
  them, asks a relevance function (a grader: the model proposes) how relevant the passage at the other
  end is to the question, and keeps the best ``limit`` whose ``relevance * weight`` reaches ``bar``
  and is above 0 (code disposes). A passage already in the chain is never added twice, so a chain of hops cannot loop.

What it cannot do: it follows only what ``references_of`` reads (a reference by description, "the
previous paragraph", is invisible unless the domain reads it); the relevance of the passage at the other
end is judged against the question alone, so a link whose target shares no words or meaning with the
question ranks low even when it is the one needed; one hop follows at most ``limit`` links, so a passage
that points to three needed passages needs three hops.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from langchain_core.documents import Document

from ragkit.core.search import doc_key


@dataclass(frozen=True)
class Reference:
    """Passage ``source`` refers to passage ``target`` (ids); ``why`` says how; ``weight`` scales its relevance."""

    source: str
    target: str
    why: str
    weight: float = 1.0


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

    def __str__(self) -> str:
        return f"hop {self.hop}: {self.added} added from {self.anchor} ({self.why})"


class ReferenceIndex:
    """Every reference among a corpus's passages, readable both ways, and the unresolved ones apart.

    >>> a, b = Document("See B.", metadata={"id": "a"}), Document("B holds.", metadata={"id": "b"})
    >>> refs = {"a": [Reference("a", "b", "a cites b"), Reference("a", "z", "a cites z")]}
    >>> index = ReferenceIndex([a, b], lambda p: refs.get(doc_key(p), []))
    >>> [(other, r.why) for other, r in index.links("b")], [r.target for r in index.unresolved["a"]]
    ([('a', 'a cites b')], ['z'])
    """

    def __init__(self, passages: Sequence[Document], references_of: Callable[[Document], Iterable[Reference]]):
        self.passages = {doc_key(p): p for p in passages}
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
             hop: int, chain: Iterable[str] = (), limit: int = 1, bar: float = 0.0, max_candidates: int = 24) -> list[Hop]:
    """The references to follow from ``anchors``: the best ``limit`` links by ``relevance * weight``, at least ``bar``.

    Candidates are the passages linked to an anchor (either way) that are not in ``chain`` (the anchors
    count as in it); a passage reached by several links keeps its heaviest. Only the ``max_candidates``
    heaviest candidates are scored (a guard: a definitions passage is linked to most of a corpus).

    >>> p = {k: Document(t, metadata={"id": k}) for k, t in [("rule", "No nets."), ("fine", "Breach of rule: 50 crowns."),
    ...                                                        ("other", "Rule applies at sea.")]}
    >>> refs = [Reference("fine", "rule", "fine cites rule"), Reference("other", "rule", "other cites rule", 0.5)]
    >>> index = ReferenceIndex(list(p.values()), lambda d: [r for r in refs if r.source == doc_key(d)])
    >>> [str(h) for h in next_hop(index, ["rule"], lambda docs: [0.8 if "crowns" in d.page_content else 0.6 for d in docs], hop=1)]
    ['hop 1: fine added from rule (fine cites rule)']
    """
    chain = {*chain, *anchors}
    candidates: dict[str, tuple[str, Reference]] = {}
    for anchor in anchors:
        for other, ref in index.links(anchor):
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
            hops.append(Hop(hop, anchor, keys[i], ref.why, round(score, 4)))
    return hops


__all__ = ["Hop", "Reference", "ReferenceIndex", "next_hop"]
