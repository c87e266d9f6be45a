"""Questions that turn on a defined word (issue 22, 2026-12-03 round), on a small statute written here (none of the
evaluation sets): the hop adds the penalty *and* the definition, prefers the definition a question's word falls
under, the writer reads the question glossed with that term, and a refusal is checked on the glossed question.
Every test reads results, hop records or decisions, never source text."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from ragkit.core.references import DEFINES, Definitions, Reference, ReferenceIndex, next_hop
from ragkit.core.search import doc_key
from ragkit.domains.statute.article_graph import statute_definitions, statute_reference_index
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.questions import KINDS, REFUSE_KIND, SAFE_KIND, GlossingQuestionClassifier
from ragkit.graphs.statute_qa import build_statute_qa_graph
from ragkit.roles.protocols import Answer
from tests.test_statute_hops import FixedSearch, Grounded, Kind, OverlapGrader, Supports, articles_of

LAGOON_ACT = {  # article number -> (title, paragraphs)
    1: ("Definitions", ['"Marine mammal" means any whale, dolphin or seal.', '"Craft" means any boat, raft or canoe.']),
    2: ("Keeping away", ["No craft shall come within 50 metres of a marine mammal or of a seal colony."]),
    3: ("Penalties", ["A person who contravenes Article 2 is liable to a fine of up to 700 crowns."]),
    4: ("Moorings", ["A craft may moor at the public jetty for one night."]),
}


ARTICLES = articles_of(LAGOON_ACT)


class QuotingWriter:
    """Quotes every paragraph it is given (so the citations show what the graph handed it); records the question."""

    def __init__(self):
        self.questions: list[str] = []

    def write(self, question, documents):
        self.questions.append(question)
        return Answer(" ".join(f"{d.page_content.strip()} [{n}]" for n, d in enumerate(documents, start=1)),
                      tuple(range(1, len(documents) + 1)))


def lagoon_graph(found, writer=None, **options):
    options = {"definition_gloss_bar": 0.0, **options}  # five paragraphs: every word is rare-ish, so no specificity bar
    return build_statute_qa_graph(ARTICLES, domain=STATUTE, strategies={name: FixedSearch(found, ARTICLES) for name in ("vector", "hybrid", "graph")},
                                  question_classifier=Kind("multihop"), evidence_grader=Supports(), grader=OverlapGrader(),
                                  writer=writer or QuotingWriter(), hallucination_grader=Grounded(), **options)


def added(out) -> list[str]:
    return [h.added for h in out["followed"]]


# ---------------------------------------------------------------- the hop: a penalty and a definition, not one of them
def test_one_hop_adds_the_penalty_and_the_definition_the_question_turns_on():
    out = lagoon_graph([2]).invoke({"question": "What fine does a kayaker face for paddling close to a dolphin?"})
    assert set(added(out)) == {"art-3(1)", "art-1(1)"} and out["hops"] == 1  # one hop, bounded as before
    assert {"Article 2(1)", "Article 3(1)", "Article 1(1)"} <= set(out["cited_labels"])


def test_without_a_definition_bar_the_two_links_compete_and_one_is_followed():
    out = lagoon_graph([2], definition_hop_bar=None).invoke({"question": "What fine does a kayaker face for paddling close to a dolphin?"})
    assert len(out["followed"]) == 1


def test_the_definition_a_question_word_falls_under_is_followed_even_when_the_rule_holds_that_word():
    # "seal" is in the rule too (a seal colony), so nothing is left for the definition to supply: only the gloss
    # ("seal" is listed in the definition of "Marine mammal") finds it
    question = "A seal swims up to my motorboat. Must I keep away?"
    out = lagoon_graph([2]).invoke({"question": question})
    assert "art-1(1)" in added(out) and "Article 1(1)" in out["cited_labels"]
    assert "art-1(2)" not in added(out)  # the other definition the rule uses shares no word with the question
    assert "art-1(1)" not in added(lagoon_graph([2], definition_gloss_bar=None).invoke({"question": question}))


def test_the_writer_reads_the_question_glossed_with_the_term_its_words_fall_under():
    writer = QuotingWriter()
    lagoon_graph([2], writer=writer).invoke({"question": "A seal swims up to my motorboat. Must I keep away?"})
    assert writer.questions and "marine mammal" in writer.questions[-1].lower()
    writer = QuotingWriter()
    lagoon_graph([4], writer=writer).invoke({"question": "How long may I moor at the public jetty?"})
    assert writer.questions[-1] == "How long may I moor at the public jetty?"  # nothing to gloss: unchanged


def test_a_definition_hop_never_follows_a_link_of_another_kind():
    p = {k: Document(t, metadata={"id": k}) for k, t in [("rule", "No nets."), ("fine", "50 crowns."), ("def", '"Net" means a mesh.')]}
    refs = [Reference("fine", "rule", "fine cites rule"), Reference("rule", "def", "rule uses 'Net'", 0.5, DEFINES)]
    index = ReferenceIndex(list(p.values()), lambda d: [r for r in refs if r.source == doc_key(d)])
    assert [h.added for h in next_hop(index, ["rule"], lambda docs: [1.0] * len(docs), hop=1, kinds={DEFINES})] == ["def"]
    assert [h.added for h in next_hop(index, ["def"], lambda docs: [1.0] * len(docs), hop=1, kinds={DEFINES}, both_ways=False)] == []


# ---------------------------------------------------------------- which defined terms a question falls under
def test_definitions_find_the_term_a_question_word_falls_under():
    defs = statute_definitions(ARTICLES)
    assert defs.under("A seal swims up to my motorboat.") == ["Marine mammal"]
    assert defs.under("Is a raft allowed near a whale?") == ["Marine mammal", "Craft"]
    assert defs.under("Is a seal a marine mammal?") == []  # it uses the term: nothing to add
    assert defs.gloss("How long may I moor?") == "How long may I moor?"
    assert statute_reference_index(ARTICLES).definitions.where["Marine mammal"] == "art-1(1)"


def test_a_common_word_or_a_number_of_a_definition_glosses_nothing():
    defs = Definitions.from_texts({"Zone": "the water within 12 miles of the shore"},
                                  ["The shore is public.", "Boats stay off the shore.", "A zone is marked."])
    assert defs.under("Can I walk on the shore?", bar=0.6) == []  # "shore" is in every passage: not specific
    assert defs.under("Can I walk on the shore?", bar=0.0) == ["Zone"]
    assert defs.under("What happens at 12 knots?") == []  # a number is a fact of the case, not a defined thing


# ---------------------------------------------------------------- a refusal is checked on the glossed question
@pytest.mark.parametrize("glossed_refused, expected", [(False, "single"), (True, REFUSE_KIND)])
def test_a_refused_question_is_searched_when_its_glossed_reading_is_not_refused(glossed_refused, expected):
    clf = GlossingQuestionClassifier(KINDS, refuse=REFUSE_KIND, safe=SAFE_KIND, gloss=lambda q: f"{q} (marine mammal)",
                                     refuse_margin=0.1)
    reading = {"plain": {"single": 0.2, "definition": 0.1, "multihop": 0.1, REFUSE_KIND: 0.6},
               "glossed": {"single": 0.6, "definition": 0.1, "multihop": 0.1, REFUSE_KIND: 0.3 if not glossed_refused else 0.9}}
    clf.scores = lambda q: reading["glossed" if q.endswith("(marine mammal)") else "plain"]
    decision = clf.classify("A seal swims up to my motorboat. Do I have to slow down?")
    assert decision.kind == expected
    assert ("read as" in decision.note) == (expected != REFUSE_KIND)


def test_a_question_that_is_not_refused_keeps_its_kind_and_is_not_glossed():
    seen = []
    clf = GlossingQuestionClassifier(KINDS, refuse=REFUSE_KIND, safe=SAFE_KIND, gloss=lambda q: seen.append(q) or q + " (x)")
    clf.scores = lambda q: {"single": 0.1, "definition": 0.2, "multihop": 0.7, REFUSE_KIND: 0.0}
    assert clf.classify("What fine applies to a seal hunt?").kind == "multihop" and seen == []
