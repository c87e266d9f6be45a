"""Graph retrieval: seed with any scored retriever, spread the seeds along a document graph with
personalized PageRank (PPR), and rank by a mix of seed score and PageRank.

A multi-hop question names the first document it needs; the second is often only *linked* from the
first (Article 35 fines "a breach of Article 10"; a paragraph about a film names its director, whose own
paragraph holds the answer). The recipe, as in HippoRAG (Gutiérrez et al. 2024) but over documents
instead of extracted entities:

1. ask the seed retriever for its top ``seed_k`` documents;
2. turn their scores into a teleport distribution ``p`` (:func:`seed_personalization`);
3. run PageRank with personalization ``p``: a walker follows an edge with probability ``damping`` and
   jumps back to a seed with probability ``1 - damping``, so documents near strong seeds gain mass;
4. score every document ``(1 - mix) * seed / max(seed) + mix * ppr / max(ppr)`` (:func:`mix_scores`).

The graph is any ``networkx.DiGraph`` whose nodes are document ids (:func:`~ragkit.core.search.doc_key`)
with the Document in the node attribute ``doc`` and an optional edge ``weight``. ``direction`` picks the
walk: ``"forward"`` follows edges as drawn (citing -> cited), ``"reverse"`` walks them backwards, and
``"undirected"`` both ways (a reciprocal pair's weights are added).

PageRank runs as :class:`PageRankWalk`: networkx's own power iteration with the sparse matrix built
once per retriever (tests check it against ``networkx.pagerank``, :func:`personalized_pagerank`).

Simplifications: PageRank runs over the whole graph on every query (linear in the edges, with up to
200 iterations: fine to about a million edges); seed scores are taken at face value (their positive
part), so the seed retriever's score scale matters; a document that is neither seeded nor reachable
from a seed is never returned; edges of different kinds count alike unless the graph's ``weight`` says
otherwise; and the walk cannot tell which link the question asks for, so it also promotes neighbours
that are merely well connected (on MuSiQue it raised recall@5 but lowered recall@2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import networkx as nx
import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from pydantic import ConfigDict, PrivateAttr
from scipy import sparse

from ragkit.core.hybrid import default_retriever
from ragkit.core.search import Scored, ScoredRetriever, check_k, doc_key
from ragkit.defaults import GRAPH_WALK

Direction = Literal["forward", "reverse", "undirected"]
DIRECTIONS: tuple[str, ...] = ("forward", "reverse", "undirected")



def document_graph(docs: Sequence[Document]) -> nx.DiGraph:
    """A graph with one node per document (key: ``doc_key``; attribute ``doc``) and no edges yet.

    >>> list(document_graph([Document("a", metadata={"id": "d1"})]).nodes)
    ['d1']
    """
    graph = nx.DiGraph()
    for doc in docs:
        key = doc_key(doc)
        if key in graph:
            raise ValueError(f"two documents share the id {key!r}: a graph needs one node per document")
        graph.add_node(key, doc=doc)
    return graph


def walk_graph(graph: nx.DiGraph, direction: str, weight: str | None = "weight") -> nx.DiGraph | nx.Graph:
    """The graph the walker moves on: as drawn, reversed, or undirected with reciprocal weights added.

    >>> g = nx.DiGraph([("a", "b", {"weight": 1.0}), ("b", "a", {"weight": 2.0})])
    >>> walk_graph(g, "undirected")["a"]["b"]["weight"]
    3.0
    """
    if direction == "forward":
        return graph
    if direction == "reverse":
        return graph.reverse(copy=True)
    if direction != "undirected":
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    walk = nx.Graph()
    walk.add_nodes_from(graph.nodes)
    for u, v, data in graph.edges(data=True):
        w = float(data.get(weight, 1.0)) if weight else 1.0
        if walk.has_edge(u, v):
            walk[u][v]["weight"] += w
        else:
            walk.add_edge(u, v, weight=w)
    return walk


def seed_personalization(seeds: Sequence[tuple[str, float]]) -> dict[str, float]:
    """Seed scores as a teleport distribution: the positive part of each score, summing to 1.

    If no score is positive (a cosine retriever on an unrelated query), seeds get ``1 / rank`` instead.

    >>> seed_personalization([("a", 3.0), ("b", 1.0), ("c", -2.0)])
    {'a': 0.75, 'b': 0.25}
    >>> seed_personalization([("a", -1.0), ("b", -3.0)])  # 1/1 and 1/2, normalised
    {'a': 0.6666666666666666, 'b': 0.3333333333333333}
    """
    weights: dict[str, float] = {}
    for key, score in seeds:
        if score > 0:
            weights[key] = weights.get(key, 0.0) + float(score)
    if not weights:
        for rank, (key, _) in enumerate(seeds, start=1):
            weights.setdefault(key, 1.0 / rank)
    total = sum(weights.values())
    return {key: w / total for key, w in weights.items()} if total > 0 else {}


def seed_weights(seeds: Scored) -> dict[str, float]:
    """The seeds' share of the teleport (:func:`seed_personalization`), and 0 for a seed whose score is not
    positive: it still counts as met, so :func:`mix_scores` ranks it (below the others).

    >>> seed_weights([(Document("a", metadata={"id": "a"}), 3.0), (Document("b", metadata={"id": "b"}), 0.0)])
    {'a': 1.0, 'b': 0.0}
    """
    weights = seed_personalization([(doc_key(d), s) for d, s in seeds])
    for doc, _ in seeds:
        weights.setdefault(doc_key(doc), 0.0)
    return weights


def personalized_pagerank(walk: nx.DiGraph | nx.Graph, personalization: Mapping[str, float], damping: float,
                          weight: str | None = "weight") -> dict[str, float]:
    """``networkx.pagerank`` teleporting to ``personalization`` (the reference :class:`PageRankWalk` is tested against).

    The walk starts from the personalization too, so a node no seed can reach scores exactly 0.

    >>> g = nx.Graph([("a", "b"), ("b", "c")]); g.add_node("z")
    >>> ranks = personalized_pagerank(g, {"a": 1.0}, damping=0.5)
    >>> ranks["a"] > ranks["b"] > ranks["c"] > ranks["z"] == 0.0
    True
    """
    _check_damping(damping)
    teleport = {key: w for key, w in personalization.items() if key in walk and w > 0}
    if not teleport:
        return {}
    return nx.pagerank(walk, alpha=damping, personalization=teleport, nstart=teleport, weight=weight, max_iter=MAX_ITER, tol=TOL)


MAX_ITER, TOL = 200, 1e-8


def _check_damping(damping: float) -> None:
    if not 0.0 <= damping < 1.0:
        raise ValueError(f"damping must be in [0, 1), got {damping}")


class PageRankWalk:
    """Personalized PageRank on a fixed graph with its transition matrix built once.

    The same power iteration as ``networkx.pagerank`` (its scipy version: row-normalised weights,
    dangling nodes' mass sent back to the seeds, L1 convergence below ``N * tol``), started from the
    personalization. ``networkx.pagerank`` rebuilds the sparse matrix on every call, which costs
    about 0.25 s per query on a 115,000-edge graph; here a query costs a few milliseconds.

    >>> walk = PageRankWalk(nx.Graph([("a", "b"), ("b", "c")]))
    >>> {k: round(v, 3) for k, v in walk({"a": 1.0}, damping=0.5).items()}
    {'a': 0.583, 'b': 0.333, 'c': 0.083}
    """

    def __init__(self, walk: nx.DiGraph | nx.Graph, weight: str | None = "weight"):
        self.nodes = list(walk.nodes)
        self.index = {node: i for i, node in enumerate(self.nodes)}
        if not self.nodes:
            self.matrix, self.dangling = None, np.zeros(0, dtype=bool)
            return
        matrix = nx.to_scipy_sparse_array(walk, nodelist=self.nodes, weight=weight, dtype=float, format="csr")
        out = np.asarray(matrix.sum(axis=1)).ravel()
        self.dangling = out == 0
        inverse = np.divide(1.0, out, out=np.zeros_like(out), where=out != 0)
        self.matrix = (sparse.diags(inverse) @ matrix).T.tocsr()  # transposed: x @ A == A.T @ x

    def __call__(self, personalization: Mapping[str, float], damping: float, max_iter: int = MAX_ITER, tol: float = TOL) -> dict[str, float]:
        """PageRank of every node reached from the personalization (others score 0 and are left out)."""
        _check_damping(damping)
        p = np.zeros(len(self.nodes))
        for key, weight in personalization.items():
            if key in self.index and weight > 0:
                p[self.index[key]] += weight
        if p.sum() == 0:
            return {}
        p /= p.sum()
        x = p.copy()
        for _ in range(max_iter):
            last = x
            x = damping * (self.matrix @ x + x[self.dangling].sum() * p) + (1.0 - damping) * p
            if np.abs(x - last).sum() < len(self.nodes) * tol:
                return {self.nodes[i]: float(x[i]) for i in np.flatnonzero(x)}
        raise nx.PowerIterationFailedConvergence(max_iter)


def mix_scores(seed: Mapping[str, float], ppr: Mapping[str, float], mix: float) -> list[tuple[str, float]]:
    """Rank by ``(1 - mix) * seed / max(seed) + mix * ppr / max(ppr)``; ties go to the higher PPR.

    Documents neither seeded nor reached are left out.

    >>> mix_scores({"a": 1.0, "b": 0.5}, {"a": 0.4, "b": 0.2, "c": 0.4}, mix=0.5)
    [('a', 1.0), ('c', 0.5), ('b', 0.5)]

    ``a``: 0.5 * 1 + 0.5 * 1; ``b``: 0.5 * 0.5 + 0.5 * 0.5; ``c`` (never seeded, reached through the graph):
    0.5 * 0 + 0.5 * 1, and it beats ``b`` on the tie because its PageRank is higher.
    """
    if not 0.0 <= mix <= 1.0:
        raise ValueError(f"mix must be between 0 and 1, got {mix}")
    top_seed = max(seed.values(), default=0.0)
    top_ppr = max(ppr.values(), default=0.0)
    keys = list(dict.fromkeys([*seed, *ppr]))
    scored = []
    for key in keys:
        s = seed.get(key, 0.0) / top_seed if top_seed > 0 else 0.0
        r = ppr.get(key, 0.0) / top_ppr if top_ppr > 0 else 0.0
        score = (1.0 - mix) * s + mix * r
        if s > 0 or r > 0:  # with mix 0 a reached non-seed scores 0 but still ranks, below the seeds
            scored.append((key, score, r))
    scored.sort(key=lambda item: (-item[1], -item[2]))  # stable: remaining ties keep seed order
    return [(key, score) for key, score, _ in scored]


class GraphRetriever(ScoredRetriever):
    """Seed retrieval expanded along a document graph by personalized PageRank (see the module docstring).

    ``base`` is any object with ``search_with_scores(query, k)``; :meth:`from_graph` defaults it to
    ragkit's hybrid of BM25 and dense retrieval over the graph's documents.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    graph: nx.DiGraph
    base: Any
    damping: float = GRAPH_WALK.damping  # the walk's defaults: ragkit.defaults.GRAPH_WALK (chosen on MuSiQue)
    mix: float = GRAPH_WALK.mix
    seed_k: int = GRAPH_WALK.seed_k
    direction: Direction = GRAPH_WALK.direction  # type: ignore[assignment]
    weight: str | None = "weight"
    _walk: PageRankWalk = PrivateAttr()

    def model_post_init(self, __context: Any) -> None:
        if not callable(getattr(self.base, "search_with_scores", None)):
            raise TypeError(f"base must have search_with_scores(query, k); got a {type(self.base).__name__}")
        if self.graph.number_of_nodes() == 0:
            raise ValueError("GraphRetriever needs a graph with at least one document node")
        missing = [n for n, data in self.graph.nodes(data=True) if not isinstance(data.get("doc"), Document)]
        if missing:
            raise ValueError(f"graph nodes need a Document in attribute 'doc'; {len(missing)} lack one, e.g. {missing[0]!r}")
        check_k(self.seed_k, "seed_k")
        if not 0.0 <= self.damping < 1.0 or not 0.0 <= self.mix <= 1.0:
            raise ValueError(f"need 0 <= damping < 1 and 0 <= mix <= 1, got damping={self.damping}, mix={self.mix}")
        self._walk = PageRankWalk(walk_graph(self.graph, self.direction, self.weight), "weight" if self.weight else None)

    @classmethod
    def from_graph(cls, graph: nx.DiGraph, base: Any = None, embeddings: Embeddings | None = None, **kwargs: Any) -> GraphRetriever:
        """A retriever over ``graph``; ``base`` defaults to :func:`default_seed_retriever` on its documents."""
        if base is None:
            base = default_seed_retriever([data["doc"] for _, data in graph.nodes(data=True)], embeddings)
        return cls(graph=graph, base=base, **kwargs)

    def ppr(self, seeds: Scored) -> dict[str, float]:
        """Personalized PageRank of every node, teleporting to ``seeds`` (``[(Document, score)]``)."""
        return self._walk(seed_personalization([(doc_key(d), s) for d, s in seeds]), self.damping)

    def rank(self, seeds: Scored, k: int) -> Scored:
        """The top ``k`` documents after expanding ``seeds`` along the graph."""
        by_key = {doc_key(d): d for d, _ in seeds}
        ranking = mix_scores(seed_weights(seeds), self.ppr(seeds), self.mix)
        out: Scored = []
        for key, score in ranking[:k]:
            doc = by_key[key] if key in by_key else self.graph.nodes[key]["doc"]
            out.append((doc, score))
        return out

    def search_with_scores(self, query: str, k: int | None = None) -> Scored:
        query, k = self._prepare(query, k)
        return self.rank(self.base.search_with_scores(query, self.seed_k), k)


def default_seed_retriever(docs: Sequence[Document], embeddings: Embeddings | None = None) -> ScoredRetriever:
    """ragkit's hybrid of BM25 and dense (MiniLM) retrieval, as tuned on SciFact (:func:`ragkit.core.hybrid.default_retriever`)."""
    return default_retriever(list(docs), embeddings=embeddings)


__all__ = [
    "DIRECTIONS", "Direction", "GraphRetriever", "PageRankWalk",
    "default_seed_retriever", "document_graph", "mix_scores", "personalized_pagerank", "seed_personalization", "seed_weights",
    "walk_graph",
]
