"""Questions a careless learner types: invisible characters, questions that name nothing, a reused thread.

Each test is a probe that once went wrong: a question of zero-width characters went through every graph as
if it were a question, a NUL byte changed the statute's answer, "Why?" got a "verified" quote of an unrelated
article, and a second question on a thread was answered with the first one's search note.
"""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from ragkit.core.contract import visible
from ragkit.core.threads import thread
from ragkit.domains.handbook.agents import HANDBOOK_TEAM
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.domains.menu.routes import OFFLINE_FALLBACK, ROUTES, menu_sources
from ragkit.domains.shop.orders import load_order_store
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.statute.domain import STATUTE
from ragkit.domains.statute.strategies import strategy_searches
from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph
from ragkit.graphs.advanced_rag import build_advanced_rag_graph
from ragkit.graphs.crag import build_crag_graph, run_crag
from ragkit.graphs.self_rag import build_self_rag_graph
from ragkit.graphs.statute_qa import build_statute_qa_graph
from ragkit.graphs.supervisor import build_supervisor_graph
from ragkit.graphs.tool_agent import build_tool_agent_graph

ARTICLES = load_statute()
DOCS = [Document("BM25 has two knobs. k1 controls term frequency saturation.", metadata={"id": "d1"})]
INVISIBLE = "\u200b\u200e\u200f\x00\ufeff"  # zero-width space, LTR and RTL marks, NUL, byte-order mark


def statute_graph(**options):
    return build_statute_qa_graph(ARTICLES, strategies=strategy_searches(ARTICLES), domain=STATUTE, **options)


BUILDERS = {
    "adaptive_rag": lambda: build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK),
    "self_rag": lambda: build_self_rag_graph(lambda q: DOCS),
    "crag": lambda: build_crag_graph(lambda q: DOCS),
    "advanced_rag": lambda: build_advanced_rag_graph(DOCS),
    "statute_qa": statute_graph,
    "supervisor": lambda: build_supervisor_graph(lambda q: DOCS, domain=HANDBOOK_TEAM),
}


# ---------------------------------------------------------------- the input policy: what shows nothing is nothing
def test_visible_drops_what_shows_nothing_and_keeps_white_space():
    assert visible(f"What does{INVISIBLE} BM25 k1\tcontrol?\n") == "What does BM25 k1\tcontrol?\n"
    assert visible(INVISIBLE) == ""


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_question_of_invisible_characters_is_empty_in_every_graph(name):
    with pytest.raises(ValueError, match="question is empty"):
        BUILDERS[name]().invoke({"question": f" {INVISIBLE} "}, thread(f"invisible-{name}"))


def test_a_message_of_invisible_characters_is_empty_in_the_tool_loop():
    graph = build_tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS)
    with pytest.raises(ValueError, match="message is empty"):
        graph.invoke({"messages": [HumanMessage(INVISIBLE)]}, thread("invisible"))


def test_invisible_characters_do_not_change_the_answer():
    graph = statute_graph()
    plain = graph.invoke({"question": "How long does the Authority have to decide on a permit?"})
    marked = graph.invoke({"question": "How long does the Authority\x00 have to decide on\u200b a permit?\u200f"})
    assert marked["question"] == plain["question"]
    assert (marked["answer"], marked["outcome"], marked["citations"]) == (plain["answer"], plain["outcome"], plain["citations"])


# ---------------------------------------------------------------- statute QA: a question that names nothing
@pytest.mark.parametrize("question", ["Why?", "What is it?", "Is it?", "and?", "???", "?"])
def test_statute_qa_refuses_a_question_that_names_nothing(question):
    out = statute_graph().invoke({"question": question})
    assert out["outcome"] == "refused" and out["refusal"] == "unanswerable"
    assert out["sources"] == [] and out["citations"] == []
    assert out["path"] == ["check_question", "refuse"]  # nothing searched, nothing classified


def test_statute_qa_still_answers_after_a_question_that_named_nothing_on_the_same_thread():
    graph = statute_graph(checkpointer=InMemorySaver())
    question = "How far must a vessel stay from a whale accompanied by a calf?"
    fresh = statute_graph().invoke({"question": question})
    assert graph.invoke({"question": "Why?"}, thread("t"))["outcome"] == "refused"
    again = graph.invoke({"question": question}, thread("t"))
    assert fresh["outcome"] == "answered" and (again["answer"], again["outcome"]) == (fresh["answer"], fresh["outcome"])


# ---------------------------------------------------------------- a reused thread: each run its own result
def test_adaptive_rag_fallback_on_a_reused_thread_does_not_report_the_last_search():
    question = "What is the capital of Peru?"
    fresh = BUILDERS["adaptive_rag"]().invoke({"question": question})
    graph = build_adaptive_rag_graph(menu_sources(), routes=ROUTES, fallback_text=OFFLINE_FALLBACK,
                                     checkpointer=InMemorySaver())
    assert graph.invoke({"question": "Do you have a vegan dessert?"}, thread("t"))["outcome"] == "answered"
    again = graph.invoke({"question": question}, thread("t"))
    assert (again["answer"], again["outcome"], again["reason"]) == (fresh["answer"], fresh["outcome"], fresh["reason"])


def test_crag_language_refusal_on_a_reused_thread_gives_its_own_reason():
    graph = build_crag_graph(handbook_search(4))
    assert run_crag(graph, "What does BM25 k1 control?")["outcome"] == "answered"  # run_crag's default thread
    out = run_crag(graph, "Quel est le rôle du paramètre k1 dans BM25 ?")
    assert out["outcome"] == "refused" and out["reason"] == "language"


def test_visible_keeps_the_joiners_words_are_spelled_with_but_not_alone():
    from ragkit.core.contract import visible

    assert visible("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645") == "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # Persian "I want"
    assert visible("\u200d \u200c") == ""
