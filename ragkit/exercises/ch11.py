"""Checkers for notebook 11 (statute QA): reading direct citations, a k-hop walk over the article graph, and
wiring the statute QA graph by hand.

>>> from ragkit.domains.statute.citations import cited_articles
>>> from ragkit.domains.statute.corpus import load_statute
>>> from ragkit.domains.statute.domain import STATUTE
>>> from ragkit.domains.statute.plots import articles_within
>>> from ragkit.domains.statute.strategies import strategy_searches
>>> from ragkit.graphs.statute_qa import statute_qa_graph
>>> check_cited_articles(cited_articles, quiet=True).passed, check_articles_within(articles_within, quiet=True).passed
(True, True)
>>> articles = load_statute()
>>> check_statute_qa_wiring(lambda: statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE),
...                         quiet=True).passed
True
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

import networkx as nx

from ragkit.domains.statute.citations import cited_articles
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.plots import articles_within
from ragkit.domains.statute.strategies import strategy_searches
from ragkit.exercises.core import CheckResult, Variant, check_wiring, rewired, run_checker, short
from ragkit.graphs.statute_qa import statute_qa_graph


# ---------------------------------------------------------------- direct citations
@dataclass(frozen=True)
class CitationCase:
    text: str

    def label(self) -> str:
        return repr(self.text)


# The forms the exercise asks for (each with the article number in {n}; {p} a paragraph number).
# The space after the keyword is optional ("Art.12", "§12"), and so are the spaces inside the Korean form ("제 12 조").
FORMS = ["Article {n}", "article {n}", "ARTICLE {n}", "Art. {n}", "art. {n}", "Article {n}({p})", "Art. {n}({p})",
         "section {n}", "Section {n}", "§ {n}", "제{n}조", "제{n}조 제{p}항", "Art.{n}", "§{n}", "Article{n}",
         "제 {n} 조", "제 {n} 조 제 {p} 항"]
# Numbers and words that are not citations.
DISTRACTORS = ["within {d} days", "{d} nautical miles", "a fine of up to {d} euros", "an article of clothing",
               "a section of the coast", "in {d} cases", "vessels over {d} metres"]
FRAMES = ["What does {c} say?", "Under {c}, {x} is not allowed.", "Is {x} covered by {c}?", "Compare {c} with {c2}.",
          "{x}: see {c} and {c2}.", "Does {c} apply {x}?", "Nothing here cites a provision, {x}."]


def citation_cases(seed: int, n: int = 30) -> list[CitationCase]:
    """Questions with one or two citations in the forms above (some repeated), numbers that are not citations,
    and questions that cite nothing."""
    rng = random.Random(seed)
    cases = [CitationCase("What does Article 12(3) say about 20 nautical miles?"), CitationCase("제7조 제2항에 따르면?"),
             CitationCase("Compare section 30 with Art. 4."), CitationCase("An article of clothing costs 12 euros."),
             CitationCase("Does Art.12 apply to §3?"), CitationCase("제 12 조 제 3 항은 무엇을 말합니까?")]
    while len(cases) < n:
        def cite() -> str:
            return rng.choice(FORMS).format(n=rng.randint(1, 40), p=rng.randint(1, 5))

        first = cite()
        second = first if rng.random() < 0.2 else cite()
        text = rng.choice(FRAMES).format(c=first, c2=second, x=rng.choice(DISTRACTORS).format(d=rng.randint(2, 90)))
        cases.append(CitationCase(text))
    return cases


def _keyword_numbers(pattern: str, flags: int = re.IGNORECASE, distinct: bool = True) -> Callable[[str], list[int]]:
    compiled = re.compile(pattern, flags)

    def numbers(text: str) -> list[int]:
        found = [int(next(g for g in m.groups() if g)) for m in compiled.finditer(text)]
        return sorted(set(found)) if distinct else found

    return numbers


_ALL_FORMS = r"(?:\b(?:article|art\.|section)|§)\s?(\d+)|제\s?(\d+)\s?조"
CITATION_VARIANTS = [
    Variant(_keyword_numbers(r"Article (\d+)", flags=0),
            "you read only \"Article N\" with a capital A; the keyword comes in any case, and \"Art. N\", \"section N\", "
            "\"§ N\" and the Korean \"제N조\" cite an article too"),
    Variant(_keyword_numbers(r"\barticle\s?(\d+)"),
            "you read only the word \"article\"; \"Art. N\", \"section N\", \"§ N\" and the Korean \"제N조\" cite an article too"),
    Variant(_keyword_numbers(r"(?:\b(?:article|art\.|section)|§)\s?(\d+)"),
            "you miss the Korean form: \"제12조\" is Article 12 (and \"제12조 제3항\" is Article 12(3))"),
    Variant(_keyword_numbers(r"(?:\b(?:article|art\.|section)|§)\s(\d+)|제\s?(\d+)\s?조"),
            "you need a space after the keyword; it is optional: \"Art.12\" and \"§12\" cite Article 12 too"),
    Variant(_keyword_numbers(r"(?:\b(?:article|art\.|section)|§)\s?(\d+)|제(\d+)조"),
            "you read \"제12조\" but not \"제 12 조\": the spaces inside the Korean form are optional"),
    Variant(_keyword_numbers(r"(\d+)"),
            "you take every number in the text; \"20 nautical miles\" or \"within 30 days\" cite nothing: a number is an "
            "article only right after a keyword (or inside 제...조)"),
    Variant(_keyword_numbers(_ALL_FORMS, distinct=False),
            "you return the numbers in the order they appear, with repeats; return each article once, sorted"),
    Variant(_keyword_numbers(r"(?:(?:\b(?:article|art\.|section)|§)\s?|\()(\d+)|제\s?(\d+)\s?(?:조|항)"),
            "you also read the paragraph: \"Article 12(3)\" cites Article 12 only, the (3) is its paragraph"),
]


def check_cited_articles(fn: Callable[[str], list[int]], seed: int = 0, quiet: bool = False) -> CheckResult:
    """Check ``fn(text) -> sorted distinct article numbers`` against ragkit's ``cited_articles``."""
    cases = citation_cases(seed)

    def same(got: Any, expected: list[int]) -> bool:
        return isinstance(got, (list, tuple)) and [int(x) if isinstance(x, (int, str)) and str(x).isdigit() else x
                                                   for x in got] == expected

    def describe(case: CitationCase, got: Any, expected: list[int]) -> str:
        if not isinstance(got, (list, tuple)):
            return f"for {case.label()} you return {short(got)}; return a list of article numbers, like {expected}"
        return f"for {case.label()} you return {short(list(got))}; ragkit's cited_articles returns {expected}"

    return run_checker("cited_articles", fn, cases, cited_articles, call=lambda f, c: f(c.text), same=same,
                       describe=describe, variants=CITATION_VARIANTS, quiet=quiet,
                       passed_message=f"your parser reads the same articles as ragkit's cited_articles in {len(cases)} "
                                      "generated questions (every form, paragraphs, Korean, numbers that cite nothing).")


# ---------------------------------------------------------------- a k-hop walk over the article graph
@dataclass(frozen=True)
class WalkCase:
    edges: tuple[tuple[str, str], ...]
    nodes: tuple[str, ...]
    start: str
    hops: int

    def graph(self) -> nx.DiGraph:
        graph = nx.DiGraph()
        graph.add_nodes_from(self.nodes)
        graph.add_edges_from(self.edges)
        return graph

    def label(self) -> str:
        return f"start={self.start!r}, hops={self.hops}, edges {[f'{u}->{v}' for u, v in self.edges]}"


def walk_cases(seed: int, n: int = 24) -> list[WalkCase]:
    """Small directed graphs of articles (cycles, shortcuts, articles nobody cites), hops 0-3."""
    rng = random.Random(seed)
    cases = [WalkCase((("art-1", "art-2"), ("art-2", "art-3"), ("art-1", "art-3"), ("art-4", "art-1")),
                      ("art-1", "art-2", "art-3", "art-4"), "art-1", 1)]
    while len(cases) < n:
        size = rng.randint(4, 8)
        nodes = tuple(f"art-{i}" for i in range(1, size + 1))
        edges = sorted({(u, v) for u in nodes for v in nodes if u != v and rng.random() < 0.22})
        cases.append(WalkCase(tuple(edges), nodes, rng.choice(nodes), rng.choice([0, 1, 1, 2, 2, 3])))
    return cases


def _bfs(graph: nx.DiGraph, start: str, hops: int, neighbours: Callable[[str], Any]) -> dict[str, int]:
    seen, queue = {start: 0}, deque([start])
    while queue:
        node = queue.popleft()
        if seen[node] == hops:
            continue
        for nxt in neighbours(node):
            if nxt not in seen:
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return seen


def _dfs(graph: nx.DiGraph, start: str, hops: int) -> dict[str, int]:
    seen: dict[str, int] = {}

    def visit(node: str, depth: int) -> None:
        if node in seen or depth > hops:
            return
        seen[node] = depth
        for nxt in sorted(graph.successors(node)):
            visit(nxt, depth + 1)

    visit(start, 0)
    return seen


WALK_VARIANTS = [
    Variant(lambda g, s, h: {s: 0, **{v: 1 for v in g.successors(s)}} if h > 0 else {s: 0},
            "you stop after one step whatever hops says; keep going from the articles you reached until hops steps"),
    Variant(lambda g, s, h: {n: d for n, d in _bfs(g, s, h, g.successors).items() if n != s},
            "you leave out the start article; it is in the result at distance 0"),
    Variant(lambda g, s, h: _bfs(g, s, h + 1, g.successors),
            "you walk one step too far: with hops=1 only the articles start points to are added"),
    Variant(lambda g, s, h: _bfs(g, s, h, lambda n: [*g.successors(n), *g.predecessors(n)]),
            "you follow edges both ways; follow them from the citing article to the cited one (graph.successors)"),
    Variant(lambda g, s, h: _bfs(g, s, h, g.predecessors),
            "you follow edges backwards (who cites the article); follow them forwards with graph.successors"),
    Variant(_dfs,
            "you walk depth-first, so an article can get a longer distance than its shortest path (and one just within "
            "reach can be cut off); walk breadth-first, one step at a time"),
    Variant(lambda g, s, h: {n: d for n, d in _bfs(g, s, h, g.successors).items() if d == h},
            "you return only the articles exactly hops steps away; return every article within hops steps"),
]


def check_articles_within(fn: Callable[[nx.DiGraph, str, int], dict[str, int]], seed: int = 0,
                          quiet: bool = False) -> CheckResult:
    """Check ``fn(graph, start, hops) -> {article: steps}`` against ragkit's ``articles_within``."""
    cases = walk_cases(seed)

    def same(got: Any, expected: dict[str, int]) -> bool:
        return isinstance(got, dict) and dict(got) == expected

    def describe(case: WalkCase, got: Any, expected: dict[str, int]) -> str:
        if not isinstance(got, dict):
            return f"for {case.label()} you return {short(got)}; return a dict {{article: steps}}, like {expected}"
        return f"for {case.label()} you return {short(dict(got))}; ragkit's articles_within returns {expected}"

    return run_checker("articles_within", fn, cases, articles_within, call=lambda f, c: f(c.graph(), c.start, c.hops),
                       same=same, describe=describe, variants=WALK_VARIANTS, quiet=quiet,
                       passed_message=f"your walk reaches the same articles at the same distances as ragkit's "
                                      f"articles_within on {len(cases)} generated graphs (cycles, shortcuts, hops 0-3).")


# ---------------------------------------------------------------- wiring the statute QA graph
def _statute_qa_graph() -> Any:
    """The builder's graph over the bundled statute: what a learner's wiring is compared with."""
    articles = load_statute()
    return statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE)


def _rewired(drop: tuple[tuple[str, str], ...] = (), routers: tuple[str, ...] = (),
             add: tuple[tuple[str, str], ...] = ()) -> Callable[[], Any]:
    return lambda: rewired(_statute_qa_graph(), drop=drop, routers=routers, add=add)


WIRING_VARIANTS = [
    Variant(_rewired(routers=("verify",)),
            "verify has no way out yet: add_conditional_edges('verify', route_after_verify) lets a verified draft "
            "finish, a draft with a bad citation be written again without the blamed paragraphs, and the rest refuse, as "
            "ragkit's builder does"),
    Variant(_rewired(routers=("verify",), add=(("verify", "finish"),)),
            "a fixed edge verify -> finish delivers every draft, even one whose citations failed: ragkit's builder "
            "lets route_after_verify send it back to generate (within the cap) or to refuse_low_confidence"),
    Variant(_rewired(routers=("grade_evidence",), add=(("grade_evidence", "generate"),)),
            "a fixed edge grade_evidence -> generate writes from short evidence and never reads the references of "
            "what was found: ragkit's builder lets route_after_grade_evidence go to follow_references first (once), "
            "search again with the rewrite, or refuse with low confidence"),
    Variant(_rewired(routers=("follow_references",), add=(("follow_references", "generate"),)),
            "a fixed edge follow_references -> generate writes after the hop whatever the evidence: ragkit's builder "
            "lets route_after_follow_references hop again while caps['hops'] allows, grade short evidence again when "
            "the hop added a paragraph, or go on as grade_evidence decided (search again, or refuse)"),
    Variant(_rewired(routers=("follow_references",)),
            "follow_references has no way out yet: add_conditional_edges('follow_references', "
            "route_after_follow_references) lets the run hop again, grade again, write, search again or refuse, as "
            "ragkit's builder does"),
    Variant(_rewired(routers=("check_question",), add=(("check_question", "classify"),)),
            "a fixed edge check_question -> classify classifies every question: ragkit's builder lets "
            "route_after_check_question send a direct citation straight to retrieve (the pin), refuse a citation "
            "of an article the statute lacks, and give a question it cannot read the language message"),
]


def check_statute_qa_wiring(build: Callable[[], Any], quiet: bool = False) -> CheckResult:
    """Check that ``build()`` wires the statute QA graph as ``ragkit.graphs.statute_qa.statute_qa_graph`` does:
    the same nodes and edges, each conditional edge from the module's router (a known wrong wiring is named)."""
    return check_wiring(build, _statute_qa_graph(), "statute_qa_wiring", quiet, WIRING_VARIANTS)


__all__ = ["CITATION_VARIANTS", "WALK_VARIANTS", "WIRING_VARIANTS", "check_articles_within", "check_cited_articles",
           "check_statute_qa_wiring", "citation_cases", "walk_cases"]
