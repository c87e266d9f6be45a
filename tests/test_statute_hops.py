"""Following references in the statute graph (the second hop), on a small statute written here and on
constructed questions over the real one (none from the gold sets): penalty -> offence, defined term ->
definitions article, a chain capped at the hop limit, a reference to an article that does not exist, and
a single-hop question that does not hop. Every test reads the result (sources, citations) and the hop
record, never source text."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from ragkit.core.nlp import tokenize
from ragkit.core.references import Hop, Reference, ReferenceIndex, next_hop
from ragkit.core.search import doc_key
from ragkit.domains.statute.article_graph import paragraph_references, statute_reference_index
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.paragraphs import paragraphs_of
from ragkit.domains.statute.strategies import strategy_searches
from ragkit.graphs.statute_qa import build_statute_qa_graph, summarize, worst_case_steps
from ragkit.offline.writing import LocalWriter
from ragkit.roles.protocols import Grade, Groundedness
from ragkit.roles.statute_protocols import EvidenceGrade, KindDecision

HARBOUR_ACT = {  # article number -> (title, paragraphs)
    1: ("Definitions", ['"Skiff" means any boat shorter than 6 metres.', '"Reef" means a ridge of rock near the surface.']),
    2: ("Anchoring", ["No person shall anchor a skiff on a reef."]),
    3: ("Night fishing", ["Fishing between sunset and sunrise is prohibited."]),
    4: ("Penalties", ["A person who contravenes Article 2 is liable to a fine of up to 900 crowns.",
                      "A person who contravenes Article 3 is liable to a fine of up to 400 crowns."]),
    5: ("Repeat offences", ["Whoever is caught twice within a year under Article 9 or Article 4(7) loses the permit."]),
    6: ("Lights", ["Every skiff shall carry a white light at night."]),
    10: ("Marina", ["Boats in the marina follow the berth rules in Article 11."]),
    11: ("Berths", ["Berth rules for the marina are those of Article 12."]),
    12: ("Berth rules", ["A berth is assigned under the terms in Article 13."]),
    13: ("Berth terms", ["A berth is rented by the month."]),
}


def articles_of(act: dict[int, tuple[str, list[str]]]) -> list[Document]:
    """A made-up statute as the graph reads one: an article Document per entry, its paragraphs numbered."""
    out = []
    for number, (title, paragraphs) in act.items():
        body = "\n\n".join(f"({i}) {text}" for i, text in enumerate(paragraphs, start=1))
        out.append(Document(f"Article {number}. {title}\n\n{body}", id=f"art-{number}",
                            metadata={"id": f"art-{number}", "article": number, "title": title, "paragraphs": len(paragraphs)}))
    return out


ARTICLES = articles_of(HARBOUR_ACT)
BY_NUMBER = {d.metadata["article"]: d for d in ARTICLES}


# ---------------------------------------------------------------- test doubles (follow the role protocols)
class FixedSearch:
    """Finds the given articles, in order, whatever the query."""

    def __init__(self, numbers, articles=ARTICLES):
        self.numbers, self.by_number = list(numbers), {d.metadata["article"]: d for d in articles}

    def search_with_scores(self, query, k=None):
        return [(self.by_number[n], 1.0 - i / 10) for i, n in enumerate(self.numbers[:k])]


class OverlapGrader:
    """Relevance = the share of the question's words (stemmed, stop words aside) the document holds; ``flat`` instead
    gives every document the same grade."""

    def __init__(self, flat: float | None = None):
        self.flat, self.questions = flat, []

    def grade_many(self, question, documents):
        self.questions.append(question)
        words = set(tokenize(question))
        return [Grade(True, self.flat if self.flat is not None else len(words & set(tokenize(d.page_content))) / max(len(words), 1))
                for d in documents]

    def grade(self, question, document):
        return self.grade_many(question, [document])[0]


class Kind:
    def __init__(self, kind="single"):
        self.kind = kind

    def classify(self, question):
        return KindDecision(self.kind, 1.0, "scripted")


class Supports:
    """The evidence grader's double: the first document found supports an answer."""

    def grade(self, question, documents):
        return EvidenceGrade("sufficient", (0,), 0.9, "scripted")


class Grounded:
    def check(self, documents, answer):
        return Groundedness(True)


@pytest.fixture(scope="module")
def writer():
    return LocalWriter()


def harbour_graph(found, writer, kind="single", grader=None, **options):
    return build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: FixedSearch(found) for name in ("vector", "hybrid", "graph")},
                                  question_classifier=Kind(kind), evidence_grader=Supports(), grader=grader or OverlapGrader(),
                                  writer=writer, hallucination_grader=Grounded(), hop_bar=0.05, **options)


def cited_ids(out) -> list[str]:
    return [doc_key(out["sources"][n - 1]) for n in out["citations"]]


# ---------------------------------------------------------------- the graph, on the small statute
def test_a_fine_question_follows_the_offence_to_the_penalty_that_cites_it_and_cites_both(writer):
    out = harbour_graph([2, 6], writer).invoke({"question": "What is the fine for anchoring a skiff on a reef?"})
    assert [(h.hop, h.anchor, h.added) for h in out["followed"]] == [(1, "art-2(1)", "art-4(1)")]
    assert out["followed"][0].why == "Article 4(1) cites Article 2"
    assert out["outcome"] == "answered" and {"art-2(1)", "art-4(1)"} <= set(cited_ids(out))
    assert {"Article 2(1)", "Article 4(1)"} <= set(out["cited_labels"]) and out["hops"] == 1
    assert 4 in [d.metadata["article"] for d in out["articles"]]  # the hop retrieved the penalty article


def test_a_defined_term_is_followed_to_its_definition(writer):
    out = harbour_graph([6, 3], writer).invoke({"question": "Which boats must carry a white light at night?"})
    assert [(h.anchor, h.added) for h in out["followed"]] == [("art-6(1)", "art-1(1)")]
    assert "defined term 'Skiff'" in out["followed"][0].why
    assert {"art-6(1)", "art-1(1)"} <= set(cited_ids(out)) and "Article 1(1)" in out["cited_labels"]


@pytest.mark.parametrize("max_hops, added", [(2, ["art-11(1)", "art-12(1)"]), (3, ["art-11(1)", "art-12(1)", "art-13(1)"]),
                                             (0, [])])
def test_a_chain_of_references_stops_at_the_hop_limit(writer, max_hops, added):
    graph = harbour_graph([10], writer, grader=OverlapGrader(flat=0.5), max_hops=max_hops)
    out = graph.invoke({"question": "How much does a boat owner pay to stay overnight?"})
    assert [h.added for h in out["followed"]] == added and [h.hop for h in out["followed"]] == list(range(1, len(added) + 1))
    assert out["hops"] == len(added) <= max_hops and out["path"][-1] in ("finish", "refuse_low_confidence")
    assert out["path"].count("follow_references") == (0 if max_hops == 0 else min(len(added) + 1, max_hops))


def test_a_reference_to_an_article_the_statute_lacks_is_recorded_not_followed(writer):
    out = harbour_graph([5], writer).invoke({"question": "What happens to someone caught twice within a year?"})
    assert out["unresolved_references"] == ["Article 5(1) cites Article 9", "Article 5(1) cites Article 4(7)"]
    assert out["followed"] == [] and out["outcome"] == "answered"
    assert all(not label.startswith(("Article 9", "Article 4")) for label in out["cited_labels"])


@pytest.mark.parametrize("question", ["Is fishing between sunset and sunrise prohibited?",  # the paragraph holds every word
                                      "Is fishing between sunset and sunrise prohibited under a full moon?"])  # no link helps
def test_a_single_hop_question_does_not_hop(writer, question):
    out = harbour_graph([3, 6], writer).invoke({"question": question})
    assert out["hops"] == 0 and out["followed"] == [] and out["followed_passages"] == []
    assert set(cited_ids(out)) == {"art-3(1)"} and out["outcome"] == "answered"
    assert out["path"] == ["check_question", "classify", "retrieve", "grade_evidence", "follow_references", "generate",
                           "verify", "finish"]


def test_a_crashing_grader_means_no_hop_and_the_found_answer_stands(writer):
    class Broken(OverlapGrader):
        def grade_many(self, question, documents):
            raise RuntimeError("grader down")

    out = harbour_graph([2], writer, grader=Broken()).invoke({"question": "What is the fine for anchoring a skiff on a reef?"})
    assert out["followed"] == [] and "grader down" in out["hop_note"] and cited_ids(out) == ["art-2(1)"]


def test_the_hop_grades_links_on_what_the_found_paragraph_leaves_of_the_question(writer):
    grader = OverlapGrader()
    harbour_graph([2], writer, grader=grader).invoke({"question": "What is the fine for anchoring a skiff on a reef?"})
    assert grader.questions[0] == "What is the fine for anchoring a skiff on a reef?"  # choosing where to start
    assert "fine" in grader.questions[1] and "reef" not in grader.questions[1]  # grading what the links lead to


def test_of_two_links_the_hop_takes_the_paragraph_that_holds_what_the_question_still_lacks(writer):
    """Both paragraphs cite the rule found; the grader prefers the one on the same topic (the storm exception), but
    only the penalty holds the word the found rule leaves of the question ("fined")."""
    pier = {20: ("Mooring", ["No person shall moor a skiff at the pier without a berth permit."]),
            21: ("Storms", ["Article 20 does not apply to a skiff moored at the pier in a storm while it waits for a berth permit."]),
            22: ("Penalties", ["A breach of Article 20 is punishable by a fine of up to 300 crowns."])}
    docs = [Document(f"Article {n}. {title}\n\n(1) {text[0]}", id=f"art-{n}",
                     metadata={"id": f"art-{n}", "article": n, "title": title, "paragraphs": 1}) for n, (title, text) in pier.items()]

    class SameTopic:
        def grade_many(self, question, documents):
            return [Grade(True, 0.05 if "storm" in d.page_content else 0.01) for d in documents]

        def grade(self, question, document):
            return self.grade_many(question, [document])[0]

    class FindsTheRule:
        def search_with_scores(self, query, k=None):
            return [(docs[0], 1.0)]

    out = build_statute_qa_graph(docs, domain=STATUTE, strategies={name: FindsTheRule() for name in ("vector", "hybrid", "graph")},
                                 question_classifier=Kind("multihop"),
                                 evidence_grader=Supports(), grader=SameTopic(), writer=writer,
                                 hallucination_grader=Grounded()).invoke({"question": "How much can I be fined for mooring a skiff at the pier without a berth permit?"})
    assert [(h.anchor, h.added) for h in out["followed"]] == [("art-20(1)", "art-22(1)")]
    assert {"Article 20(1)", "Article 22(1)"} <= set(out["cited_labels"])


def test_a_followed_paragraph_is_quoted_after_the_writers_own_picks_never_instead_of_them():
    docs = [Document("No person shall anchor a skiff on a reef.", metadata={"id": "a"}),
            Document("A skiff anchored on a reef must be moved at once.", metadata={"id": "b"}),
            Document("A contravention is liable to a fine of up to 900 crowns.", metadata={"id": "c", "required": True})]
    question = "May a skiff anchor on a reef?"
    own = LocalWriter(max_sentences=2).write(question, docs[:2])
    both = LocalWriter(max_sentences=2).write(question, docs)
    assert set(own.citations) == {1, 2} and set(both.citations) == {1, 2, 3}


# ---------------------------------------------------------------- the generic part and the statute's reader
def test_next_hop_never_returns_to_the_chain_and_keeps_the_bar():
    docs = [Document(x, metadata={"id": x}) for x in "abc"]
    refs = [Reference("a", "b", "a cites b"), Reference("b", "c", "b cites c", weight=0.1)]
    index = ReferenceIndex(docs, lambda d: [r for r in refs if r.source == doc_key(d)])
    flat = lambda found: [1.0] * len(found)  # noqa: E731
    assert [h.added for h in next_hop(index, ["b"], flat, hop=1)] == ["a"]  # a cites b: followed backwards
    assert next_hop(index, ["b"], flat, hop=2, chain=["a"], bar=0.5) == []  # c is too weak a link
    assert [h.added for h in next_hop(index, ["b"], flat, hop=2, chain=["a"], bar=0.05)] == ["c"]


def test_the_statutes_paragraph_references_read_citations_ranges_and_defined_terms():
    paragraphs = [Document('"Net" means any mesh.', metadata={"id": "art-1(1)", "article": 1, "title": "Article 1(1)"}),
                  Document("A net under Articles 2 to 3, this Article or Article 3(2) ...",
                           metadata={"id": "art-4(1)", "article": 4, "title": "Article 4(1)"})]
    paragraphs += [Document("x", metadata={"id": f"art-{n}(1)", "article": n, "title": f"Article {n}(1)"}) for n in (2, 3)]
    refs = paragraph_references(paragraphs)(paragraphs[1])
    assert [r.target for r in refs] == ["art-2(1)", "art-3(1)", "art-3(2)", "art-1(1)"]
    assert refs[-1].weight < refs[0].weight  # a defined term counts less than a citation


# ---------------------------------------------------------------- the real statute, default local roles
def test_default_local_roles_cite_the_penalty_with_the_rule_it_punishes():
    statute = load_statute()
    out = build_statute_qa_graph(statute, strategies=strategy_searches(statute), domain=STATUTE).invoke({"question": "How large a fine risks a boat that lets its gillnets stay unhauled for 3 days?"})
    labels = {label.split("(")[0] for label in summarize(out)["cited_labels"]}
    assert {"Article 17", "Article 35"} <= labels, summarize(out)
    assert any(h.added.startswith(("art-35(", "art-17(")) for h in out["followed"])


def test_the_statute_index_resolves_every_citation_of_the_bundled_act():
    index = statute_reference_index(load_statute())
    assert index.unresolved == {} and len(index.passages) == len(paragraphs_of(load_statute()))
    assert ("art-35(2)", "Article 35(2) cites Article 17") in [(o, r.why) for o, r in index.links("art-17(2)")]


def test_a_served_checkpoint_keeps_the_hop_record():
    from ragkit.server.checkpoints import allowed_types, serializer  # an extra: imported only here

    hop = Hop(1, "art-17(2)", "art-35(2)", "Article 35(2) cites Article 17", 0.02)
    assert ("ragkit.core.references", "Hop") in allowed_types()
    assert serializer().loads_typed(serializer().dumps_typed({"followed": [hop]})) == {"followed": [hop]}


# ---------------------------------------------------------------- the recursion limit, checked up front
class ShortUntil:
    """The evidence grader's double: short until the ``n``-th grading, then the first document supports an answer."""

    def __init__(self, n):
        self.n, self.calls = n, 0

    def grade(self, question, documents):
        self.calls += 1
        return EvidenceGrade("sufficient", (0,), 0.9, "scripted") if self.calls >= self.n else EvidenceGrade("short", (), 0.0, "scripted")


class NewRewrites:
    def __init__(self):
        self.calls = 0

    def rewrite(self, question, documents=()):
        self.calls += 1
        return f"berth question {self.calls}"


class NeverGrounded:
    def check(self, documents, answer):
        return Groundedness(False)


def worst_case_graph(writer, max_retrievals, max_hops, max_generations):
    """Every hop of the marina's chain is made, the evidence stays short until the last search, every draft fails."""
    gradings = max_retrievals + (1 if max_hops else 0)  # the hop adds paragraphs, so they are graded once more
    return build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: FixedSearch([10]) for name in ("vector", "hybrid", "graph")},
                                  question_classifier=Kind(), evidence_grader=ShortUntil(gradings), grader=OverlapGrader(flat=0.5),
                                  writer=writer, hallucination_grader=NeverGrounded(), rewriter=NewRewrites(), hop_bar=0.05,
                                  max_retrievals=max_retrievals, max_hops=max_hops, max_generations=max_generations)


@pytest.mark.parametrize("caps", [(1, 0, 1), (2, 1, 2), (3, 3, 2)])
def test_the_worst_case_takes_exactly_worst_case_steps(writer, caps):
    need = worst_case_steps(*caps)
    out = worst_case_graph(writer, *caps).invoke({"question": "How much does a boat owner pay for a berth?"}, {"recursion_limit": need})
    assert len(out["path"]) + 1 == need  # +1: LangGraph's start step
    assert (out["retrieval_attempts"], out["path"].count("follow_references"), out["generation_attempts"]) == caps
    with pytest.raises(ValueError, match=rf"max_retrievals={caps[0]}, max_hops={caps[1]}, max_generations={caps[2]} can take up "
                                         rf"to {need} graph steps.*recursion_limit': {need}"):
        worst_case_graph(writer, *caps).invoke({"question": "How much does a boat owner pay for a berth?"}, {"recursion_limit": need - 1})
