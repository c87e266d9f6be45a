"""One set of interfaces: the retrieval protocol, the role factory, the tuned defaults and the error policy.

Each test here is a regression for a break a new user hit: a LangChain vector store that worked in two
graphs but not in CRAG or fusion, a route of one's own that was silently sent to the fallback, CRAG
without ``chat_model``, a search that crashed CRAG, the tool loop taking any message.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.messages import HumanMessage
from langchain_core.vectorstores import InMemoryVectorStore

import ragkit
from ragkit.core.bm25 import BM25Retriever
from ragkit.core.chat_models import scripted
from ragkit.core.community import langchain_faiss
from ragkit.core.dense import DenseRetriever
from ragkit.core.hybrid import HybridRetriever, default_retriever, fuse
from ragkit.core.nlp import answer_type, has_answer
from ragkit.core.rerank import LocalReranker, RerankRetriever
from ragkit.core.search import (
    FunctionSearch,
    RetrieverSearch,
    ScoredSearch,
    VectorStoreSearch,
    as_scored_search,
    doc_key,
)
from ragkit.defaults import GRAPHS, RETRIEVAL
from ragkit.domains.handbook.corpus import handbook_search
from ragkit.domains.menu.routes import ROUTES, menu_sources
from ragkit.domains.shop.orders import load_order_store
from ragkit.domains.shop.tools import ORDER_TOOL_SPECS
from ragkit.evaluation.tuning import bm25_scores
from ragkit.graphs.adaptive_rag import adaptive_rag_graph, build_adaptive_rag_graph
from ragkit.graphs.crag import build_crag_graph, crag_graph, run_crag
from ragkit.graphs.self_rag import build_self_rag_graph, self_rag_graph
from ragkit.graphs.tool_agent import build_tool_agent_graph, tool_agent_graph

DOCS = [
    Document("Harbour fish soup, a starter with saffron and croutons, costs 11.50 EUR.", metadata={"id": "m1", "title": "Fish soup"}),
    Document("Roast lamb with rosemary potatoes is a main course at 27.00 EUR.", metadata={"id": "m2", "title": "Lamb"}),
    Document("The orange and almond cake is a dessert with tree nuts, 8.50 EUR.", metadata={"id": "m3", "title": "Cake"}),
    Document("Grilled sea bass with fennel, a main course, costs 24.00 EUR.", metadata={"id": "m4", "title": "Sea bass"}),
    Document("The ferry to Isola Verde leaves the quay at nine every morning.", metadata={"id": "w1", "title": "Ferry"}),
]


@pytest.fixture(scope="module")
def faiss_store():
    return langchain_faiss(DOCS)


# ---------------------------------------------------------------- the retrieval protocol and its one adapter
def test_every_kind_of_source_becomes_scored_search(faiss_store):
    bm25 = BM25Retriever.from_documents(DOCS)
    assert as_scored_search(bm25) is bm25  # ragkit retrievers already speak the protocol
    assert isinstance(as_scored_search(faiss_store), VectorStoreSearch)
    assert isinstance(as_scored_search(faiss_store.as_retriever()), VectorStoreSearch)  # unwrapped to its store
    assert isinstance(as_scored_search(lambda q: DOCS[:1]), FunctionSearch)
    from langchain_community.retrievers import TFIDFRetriever  # noqa: F401  (not imported by ragkit itself)

    class Plain(ragkit.core.search.ScoredRetriever):
        def search_with_scores(self, query, k=None):
            return [(DOCS[0], 1.0)]

    assert isinstance(as_scored_search(Plain()), ScoredSearch)
    with pytest.raises(TypeError, match="cannot search with a int"):
        as_scored_search(42)


def test_langchain_faiss_relevance_is_higher_is_better_unlike_its_raw_distances(faiss_store):
    raw = faiss_store.similarity_search_with_score("lamb main course", k=3)  # L2 distances: lower is better
    assert raw[0][1] < raw[1][1]
    hits = as_scored_search(faiss_store).search_with_scores("lamb main course", 3)
    assert hits[0][0].metadata["id"] == "m2" and hits[0][1] > hits[1][1] > hits[2][1]


def test_a_langchain_vector_store_fuses_without_inverting_min_max(faiss_store):
    """A naive adapter passing FAISS distances to weighted fusion would rank the worst match first."""
    bm25 = BM25Retriever.from_documents(DOCS)
    hybrid = HybridRetriever(retrievers=[bm25, faiss_store], method="weighted", alpha=0.5)
    top = hybrid.search_with_scores("When does the ferry to Isola Verde leave?", 5)
    assert top[0][0].metadata["id"] == "w1"
    naive = HybridRetriever(retrievers=[bm25, FunctionSearch(fn=lambda q: DOCS)], alpha=0.0)  # rank scores only
    assert naive.search_with_scores("ferry", 1)[0][0].metadata["id"] == "m1"  # order taken as given


def test_a_mmr_vector_store_retriever_keeps_its_search_type(faiss_store):
    search = as_scored_search(faiss_store.as_retriever(search_type="mmr", search_kwargs={"k": 3, "fetch_k": 5}))
    assert search.search_type == "mmr" and search.k == 3
    assert len(search.search_with_scores("main course", 3)) == 3


def test_a_generic_langchain_retriever_is_asked_for_k_when_it_accepts_it():
    bm25 = BM25Retriever.from_documents(DOCS)
    wrapped = RetrieverSearch(retriever=bm25)
    assert len(wrapped.search_with_scores("main course costs", 1)) == 1
    assert bm25.invoke("main course costs", k=1)[0].metadata["id"] in {"m2", "m4"}


@pytest.mark.parametrize("kind", ["vectorstore", "as_retriever", "in_memory"])
def test_a_langchain_vector_store_runs_in_every_graph(kind, faiss_store):
    from ragkit.core.embeddings import load_embedder

    store = {"vectorstore": faiss_store, "as_retriever": faiss_store.as_retriever(search_kwargs={"k": 4}),
             "in_memory": InMemoryVectorStore.from_documents(DOCS, load_embedder())}[kind]
    question = "How much is the roast lamb main course?"
    crag = run_crag(build_crag_graph(store, reranker=LocalReranker()), question, f"vs-{kind}")
    assert crag["candidates"] and crag["candidates"][0].metadata["id"] == "m2" and crag["outcome"] == "answered"
    self_rag = build_self_rag_graph(store).invoke({"question": question})
    assert self_rag["retrieved"][0].metadata["id"] == "m2"
    adaptive = build_adaptive_rag_graph({"search_menu": store, "search_wine": store, "search_web": store}, routes=ROUTES)
    out = adaptive.invoke({"question": question})
    assert out["route"] == "search_menu" and out["documents"][0].metadata["id"] == "m2"
    reranked = RerankRetriever(base=store, reranker=LocalReranker(), fetch_k=4)
    assert reranked.invoke(question, k=1)[0].metadata["id"] == "m2"


# ---------------------------------------------------------------- one set of tuned defaults
def test_the_graphs_default_retriever_is_the_readme_hybrid_row():
    r = default_retriever(DOCS)
    assert (r.method, r.alpha, r.fetch_k) == (RETRIEVAL.fusion, RETRIEVAL.alpha, RETRIEVAL.fetch_k) == ("weighted", 0.6, 100)
    bm25, dense = r.retrievers
    assert (bm25.k1, bm25.b) == (RETRIEVAL.bm25_k1, RETRIEVAL.bm25_b) and isinstance(dense, DenseRetriever)
    from ragkit.evaluation.beir import BeirData
    from ragkit.evaluation.bench import build_systems

    data = BeirData(corpus={d.metadata["id"]: {"title": "", "text": d.page_content} for d in DOCS}, queries={}, qrels={},
                    split="test")
    (search, _), = build_systems(data, ["hybrid"], RETRIEVAL, dense.embeddings).values()
    question = "fennel sea bass"
    assert [doc_key(d) for d in search(question)][:5] == [doc_key(d) for d, _ in r.search_with_scores(question, 5)]


def test_the_tuners_numpy_bm25_equals_the_retriever():
    bm25 = BM25Retriever.from_documents(DOCS, k1=0.9, b=0.3)
    for query in ["main course costs EUR", "ferry ferry quay", "nothing matches here"]:
        idf, tf = bm25.term_matrix(query)
        np.testing.assert_allclose(bm25_scores(idf, tf, bm25.doc_lengths, bm25.average_length, 0.9, 0.3), bm25.scores(query))


def test_the_fusion_formula_exists_once_and_the_tuner_uses_it():
    from ragkit.evaluation import tuning

    bm25, dense = BM25Retriever.from_documents(DOCS), DenseRetriever.from_documents(DOCS)
    queries = {"q1": "main course with potatoes", "q2": "ferry to the quay", "q3": "dessert"}
    keys = [doc_key(d) for d in DOCS]
    qrels = {qid: {keys[i]: 1} for i, qid in enumerate(queries)}
    lists = {name: {qid: [(doc_key(d), s) for d, s in r.search_with_scores(q, len(DOCS))] for qid, q in queries.items()}
             for name, r in (("bm25", bm25), ("dense", dense))}
    for method, alpha, k in [("weighted", 0.6, 60), ("rrf", 0.3, 5)]:
        hybrid = HybridRetriever(retrievers=[bm25, dense], method=method, alpha=alpha, rrf_k=k, fetch_k=len(DOCS))
        for qid, query in queries.items():
            fused = fuse([lists["bm25"][qid], lists["dense"][qid]], method, [alpha, 1 - alpha], k)
            assert [doc_key(d) for d, _ in hybrid.search_with_scores(query, 5)] == [key for key, _ in fused][:5]
        # The tuner's figure for this setting is the figure of the retriever's own rankings.
        run = {qid: [doc_key(d) for d, _ in hybrid.search_with_scores(q, 10)] for qid, q in queries.items()}
        grid = tuning.tune_fusion(lists["bm25"], lists["dense"], qrels, rrf_ks=(k,), alphas=(alpha,))["grid"]
        row = next(r for r in grid if r["method"] == method)
        assert row["ndcg@10"] == round(tuning.ndcg10(run, qrels), 4)


# ---------------------------------------------------------------- chat_model= on every builder
@pytest.mark.parametrize("builder", [adaptive_rag_graph, self_rag_graph, crag_graph, tool_agent_graph])
def test_every_builder_takes_chat_model_and_the_input_limit(builder):
    params = inspect.signature(builder).parameters
    assert "chat_model" in params
    assert ("max_message_chars" if builder is tool_agent_graph else "max_question_chars") in params


def test_crag_runs_on_a_chat_model_without_building_roles_by_hand():
    model = scripted(
        {"verdict": "sufficient", "keep": [1], "reason": "doc 1 has the price"},
        {"answer": "The roast lamb costs 27.00 EUR [1].", "answered": True},
        {"grounded": True, "unsupported": []},
    )
    out = run_crag(build_crag_graph(BM25Retriever.from_documents(DOCS), chat_model=model), "How much is the lamb?", "llm")
    assert out["outcome"] == "answered" and out["answer"] == "The roast lamb costs 27.00 EUR [1]."
    assert len(model.calls) == 3  # judge, writer, verifier: all LLM roles, none built by hand


# ---------------------------------------------------------------- one error policy
class Exploding:
    def search_with_scores(self, query, k=None):
        raise ConnectionError("index offline")


def test_a_search_that_raises_is_a_recorded_outcome_in_every_graph():
    crag = run_crag(build_crag_graph(Exploding()), "How much is the lamb?", "boom")
    assert crag["outcome"] == "refused" and crag["refusal"] == "search_failed"
    assert "index offline" in crag["answer"] and crag["path"][-2:] == ["retrieve", "refuse"]
    self_rag = build_self_rag_graph(Exploding()).invoke({"question": "How much is the lamb?"})
    assert "index offline" in self_rag["retrieval_note"] and self_rag["documents"] == []
    class ToMenu:
        def route(self, question):
            return ragkit.roles.router_protocols.RouteDecision("search_menu", 1.0)

    adaptive = build_adaptive_rag_graph({"search_menu": Exploding(), "search_wine": Exploding(), "search_web": Exploding()},
                                        routes=ROUTES, router=ToMenu())
    out = adaptive.invoke({"question": "How much is the lamb on your menu?"})
    assert out["search_failed"] is True and "index offline" in out["answer"] and out["outcome"] == "refused"


def test_the_tool_loop_rejects_empty_and_oversized_messages_clearly():
    graph = build_tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS)
    for text, message in [("", "message is empty"), ("x" * 20_000, r"20,000 characters.*max_message_chars=")]:
        with pytest.raises(ValueError, match=message):
            graph.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": f"t{len(text)}"}})
    roomy = build_tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS, max_message_chars=5_000)
    text = "Track A1002 please. " + "thanks " * 500
    assert "DHL" in roomy.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "roomy"}})["messages"][-1].content
    with pytest.raises(ValueError, match="max_message_chars must be"):
        build_tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS, max_message_chars=0)


def test_the_default_limit_is_the_one_in_defaults():
    assert GRAPHS.max_question_chars == 2_000
    with pytest.raises(ValueError, match="2,001 characters"):
        build_self_rag_graph(lambda q: DOCS).invoke({"question": "x" * 2_001})


# ---------------------------------------------------------------- one question-type module, one table of cases
TYPE_CASES = [
    # question, expected type, an answer that has it, an answer that does not
    ("In what year did the terrace open?", "time", "It opened in 1998.", "It opened after a long wait."),
    ("When does the terrace open?", "time", "It opens in May.", "It opens for dinner guests."),
    ("How much is the tomato soup?", "quantity", "It costs 7.50 EUR.", "The tomato soup is gluten-free."),
    ("How many oysters come in a plate?", "quantity", "Six oysters.", "No oysters are raw."),
    ("How much did it cost when it opened?", "quantity", "It cost 40 euros.", "It opened in spring."),
    ("Who is the chef?", "person", "Marta Rossi is the chef.", "the chef trained abroad."),
    ("Is the tomato soup vegan?", "yes/no", "Yes, it is vegan.", None),
    ("Why is saffron expensive?", "other", "It is picked by hand.", None),
]


@pytest.mark.parametrize(("question", "kind", "good", "bad"), TYPE_CASES)
def test_one_table_decides_question_type_for_both_graders(question, kind, good, bad):
    assert answer_type(question) == kind
    assert has_answer(kind, good, question)
    if bad is not None:
        assert not has_answer(kind, bad, question)


# ---------------------------------------------------------------- policy 5: a language the local roles cannot read
KOREAN = "디저트 중에 견과류가 없는 것은 무엇입니까?"


def test_every_graph_says_plainly_that_the_offline_models_read_english():
    adaptive = build_adaptive_rag_graph(menu_sources(), routes=ROUTES).invoke({"question": KOREAN})
    assert adaptive["path"] == ["check_question", "unsupported_language"] and "Korean" in adaptive["answer"]
    assert adaptive["outcome"] == "refused" and adaptive["reason"] == "language"
    self_rag = build_self_rag_graph(handbook_search()).invoke({"question": KOREAN})
    assert self_rag["path"][-1] == "unsupported_language" and "GOOGLE_API_KEY" in self_rag["answer"]
    assert self_rag["outcome"] == "refused" and self_rag["reason"] == "language"
    crag = run_crag(build_crag_graph(handbook_search()), KOREAN, "ko")
    assert crag["refusal"] == "language" and "English only" in crag["answer"] and "retrieve" not in crag["path"]
    tool = build_tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS).invoke(
        {"messages": [HumanMessage("A1002 주문은 어디에 있나요?")]}, {"configurable": {"thread_id": "ko"}})
    assert "Korean" in tool["messages"][-1].content


def test_with_a_chat_model_a_korean_question_goes_through_unchanged():
    model = scripted({"route": "search_menu", "reason": "menu"}, {"answer": "초콜릿 무스 [1].", "answered": True})
    out = build_adaptive_rag_graph({"search_menu": lambda q: DOCS[:1], "search_wine": lambda q: [], "search_web": lambda q: []},
                                   routes=ROUTES, chat_model=model).invoke({"question": KOREAN})
    assert out["route"] == "search_menu" and out["answer"] == "초콜릿 무스 [1]."
    assert KOREAN in str(model.calls[0]["messages"][-1].content)
