"""Advanced pipeline: shape snapshot, every branch with scripted roles, the caps (a property test over any
verdicts), the bandit's one update per search, the input and error policy, LLM roles on a scripted chat
model, and the default local roles end to end on the handbook."""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document

from ragkit.bandit import LinUCB, SharedBandit, ThompsonSampling
from ragkit.core.bm25 import BM25Retriever
from ragkit.defaults import REFUSAL
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.graphs.advanced_rag import build_advanced_rag_graph, worst_case_steps
from ragkit.offline.small_talk import CANNED_REPLIES
from ragkit.roles.llm_queries import Intent, QueryTransform
from ragkit.roles.protocols import Answer
from tests.conftest import assert_snapshot
from tests.doubles import Script, ScriptedGrader, ScriptedHallucinationGrader


# ---------------------------------------------------------------- scripted test doubles
class ScriptedIntent(Script):
    def classify(self, question: str) -> Intent:
        route = self.next()
        return Intent(route, 1.0, f"scripted {route}")


class ScriptedTransformer:
    """Two alternatives and a hypothetical answer per call, numbered by call; records what it was given."""

    def __init__(self, uses_first_pass: bool = True) -> None:
        self.uses_first_pass, self.calls = uses_first_pass, []

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform:
        self.calls.append({"question": question, "documents": [d.metadata.get("id") for d in documents],
                           "tried": list(tried)})
        n = len(self.calls)
        return QueryTransform((f"{question} alt{n}a", f"{question} alt{n}b"), f"hypothetical {n}")






class NumberingWriter:
    """Writes "answer N [1]" (or abstains when scripted to), so tests can tell generations apart."""

    def __init__(self, answered: Sequence[bool] = ()) -> None:
        self.answered, self.calls = list(answered), []

    def write(self, question: str, documents: Sequence[Document]) -> Answer:
        self.calls.append((question, [d.metadata.get("id") for d in documents]))
        if not (self.answered.pop(0) if self.answered else True):
            return Answer("I don't have enough information.", answered=False)
        return Answer(f"answer {len(self.calls)} [1].", citations=(1,))


class Arm:
    """A search arm: six documents per query, ids shared between queries (so fusion must de-duplicate)."""

    def __init__(self, name: str, fail: bool = False) -> None:
        self.name, self.fail, self.queries = name, fail, []

    def invoke(self, query: str) -> list[Document]:
        self.queries.append(query)
        if self.fail:
            raise OSError(f"{self.name} index missing")
        return [Document(f"{self.name} doc {i} about {query}", metadata={"id": f"{self.name}-{i}"}) for i in range(6)]


class ReverseReranker:
    def __init__(self, fail: bool = False) -> None:
        self.fail, self.calls = fail, 0

    def rerank_with_scores(self, query: str, docs: Sequence[Document], top_n: int) -> list[tuple[Document, float]]:
        self.calls += 1
        if self.fail:
            raise RuntimeError("reranker crashed")
        return [(d, float(i)) for i, d in enumerate(list(docs)[::-1][:top_n])]


def make_graph(intents=(), relevant=(), grounded=(), answered=(), then: bool = True, retrieval_retries: int = 1,
               generation_retries: int = 1, fail: bool = False, bandit: Any = None, **kwargs: Any) -> tuple[Any, dict]:
    parts = {
        "arms": {"dense": Arm("dense", fail), "bm25": Arm("bm25", fail), "hybrid": Arm("hybrid", fail)},
        "intent_classifier": ScriptedIntent(intents, "rag"),
        "query_transformer": ScriptedTransformer(),
        "grader": ScriptedGrader(relevant, then),
        "writer": NumberingWriter(answered),
        "hallucination_grader": ScriptedHallucinationGrader(grounded, then),
        "reranker": ReverseReranker(),
        "first_pass": Arm("first"),
    }
    parts.update({name: kwargs.pop(name) for name in list(kwargs) if name in parts})  # swap a part
    graph = build_advanced_rag_graph(**parts, bandit=bandit, max_retrieval_retries=retrieval_retries,
                                     max_generation_retries=generation_retries, **kwargs)
    return graph, parts


def searched(parts: dict) -> list[str]:
    return [q for arm in parts["arms"].values() for q in arm.queries]


# ---------------------------------------------------------------- shape
def test_mermaid_snapshot() -> None:
    graph, _ = make_graph()
    assert_snapshot("advanced_rag.mmd", graph.get_graph().draw_mermaid())


def test_the_default_arms_are_built_lazily_so_drawing_the_graph_is_cheap() -> None:
    graph = build_advanced_rag_graph(load_handbook(), intent_classifier=ScriptedIntent(), query_transformer=ScriptedTransformer(),
                                     grader=ScriptedGrader(), writer=NumberingWriter(),
                                     hallucination_grader=ScriptedHallucinationGrader())
    assert "query_transform" in graph.get_graph().draw_mermaid()


# ---------------------------------------------------------------- each branch
def test_chitchat_never_runs_retrieval() -> None:
    graph, parts = make_graph(intents=["chitchat"])
    out = graph.invoke({"question": "Hello!"})
    assert out["path"] == ["check_question", "classify", "generate", "hallucination_check", "finish"]
    assert searched(parts) == [] and parts["grader"].calls == 0 and parts["writer"].calls == []
    assert out["route"] == "chitchat" and out["generation"].startswith("Hello!")  # the canned greeting
    assert out["verified"] is False and "nothing to check" in out["note"]


def test_rag_happy_path_searches_every_query_with_one_arm_and_updates_the_bandit_once() -> None:
    graph, parts = make_graph()
    out = graph.invoke({"question": "How does BM25 score documents?"})
    assert out["path"] == ["check_question", "classify", "query_transform", "retrieve", "rerank", "grade", "generate",
                           "hallucination_check", "finish"]
    arm = out["arm"]
    assert arm in ("dense", "bm25", "hybrid") and out["arms_used"] == [arm]
    q = "How does BM25 score documents?"
    assert parts["arms"][arm].queries == [q, f"{q} alt1a", f"{q} alt1b", "hypothetical 1"]  # only the chosen arm
    assert len(searched(parts)) == 4
    assert len(out["documents"]) == 6  # 4 lists of the same 6 ids, fused and de-duplicated
    assert len({d.metadata["id"] for d in out["documents"]}) == 6
    assert len(out["reranked"]) == 4 and parts["reranker"].calls == 1 and parts["grader"].calls == 4
    assert out["relevance_score"] == 1.0 and out["bandit_update"] == {"arm": arm, "reward": 1.0}
    assert out["bandit_stats"]["total_pulls"] == 1 and out["bandit_stats"]["arms"][arm]["pulls"] == 1
    assert out["verified"] is True and out["generation"] == "answer 1 [1]." and out["hallucination_score"] == 1.0
    assert (out["answer"], out["outcome"], out["citations"]) == ("answer 1 [1].", "answered", [1])
    assert out["sources"] == out["relevant"] and out["reason"] == out["note"]
    assert out["question"] == out["query"] == q
    assert {name for name, _ in out["timings"]} == set(out["path"])


def test_the_reward_is_the_relevant_share_of_the_reranked_documents() -> None:
    graph, _ = make_graph(relevant=[True, False, False, True])
    out = graph.invoke({"question": "q"})
    assert out["relevance_score"] == 0.5 and len(out["relevant"]) == 2
    assert out["bandit_stats"]["arms"][out["arm"]]["mean_reward"] == 0.5


def test_no_relevant_document_retries_with_a_different_formulation() -> None:
    graph, parts = make_graph(relevant=[False] * 4)
    out = graph.invoke({"question": "q"})
    assert out["path"][2:10] == ["query_transform", "retrieve", "rerank", "grade"] * 2
    first, second = parts["query_transformer"].calls
    assert first["tried"] == [] and second["tried"] == ["q", "q alt1a", "q alt1b", "hypothetical 1"]
    assert set(second["documents"]).isdisjoint(out["rejected"][:4])  # the first pass skips rejected documents
    assert out["query"] == "q alt2a" and out["question"] == "q"  # the lead query changed
    assert sorted(searched(parts)) == sorted(["q", "q alt1a", "q alt1b", "hypothetical 1",
                                              "q alt2a", "q alt2b", "hypothetical 2"])  # "q" is not searched again
    assert out["retrieval_retries"] == 1 and len(out["arms_used"]) == 2
    assert out["bandit_stats"]["total_pulls"] == 2  # one update per search
    assert parts["writer"].calls[0][0] == "q"  # the writer answers the user's question


def test_retries_exhausted_without_relevant_documents_ends_in_a_refusal() -> None:
    graph, parts = make_graph(relevant=[False] * 8, then=False, answered=[False])
    out = graph.invoke({"question": "q"})
    assert out["retrieval_retries"] == 1 and parts["writer"].calls == [("q", [])]
    assert out["path"][-3:] == ["generate", "hallucination_check", "finish"] and out["verified"] is False
    assert out["bandit_update"]["reward"] == 0.0 and "do not answer" in out["note"]


def test_a_hallucinated_answer_is_written_again_and_then_verified() -> None:
    graph, parts = make_graph(grounded=[False, True])
    out = graph.invoke({"question": "q"})
    assert out["path"][-5:] == ["generate", "hallucination_check", "generate", "hallucination_check", "finish"]
    assert out["generation"] == "answer 2 [1]." and out["verified"] is True and out["generation_retries"] == 1
    assert out["note"].startswith("verified")
    # the retry writes without the document that only the unsupported sentence cited ([1])
    assert parts["writer"].calls[1][1] == [d.metadata["id"] for d in out["relevant"][1:]]


def test_hallucinated_with_no_retry_left_ends_saying_it_could_not_be_verified() -> None:
    graph, _ = make_graph(grounded=[False, False])
    out = graph.invoke({"question": "q"})
    assert out["generation_retries"] == 1 and out["verified"] is False and out["grounded"] is False
    assert out["note"].startswith("This answer could not be verified") and out["path"][-1] == "finish" and out["reason"] == out["note"]


def test_a_writer_that_repeats_an_ungrounded_answer_is_not_asked_a_third_time() -> None:
    class ConstantWriter(NumberingWriter):
        def write(self, question: str, documents: Sequence[Document]) -> Answer:
            self.calls.append((question, documents))
            return Answer("the same answer [1].", citations=(1,))

    writer = ConstantWriter()
    graph, _ = make_graph(grounded=[], then=False, generation_retries=3, writer=writer)
    out = graph.invoke({"question": "q"})
    assert len(writer.calls) == 2 and out["generation_retries"] == 1 and "could not be verified" in out["note"]
    assert out["relevance_score"] == 0.0  # then=False: nothing was relevant either, and it still ends


def test_caps_are_state_fields_per_run() -> None:
    graph, _ = make_graph(relevant=[], then=False)
    out = graph.invoke({"question": "q", "max_retrieval_retries": 3, "max_generation_retries": 0})
    assert out["retrieval_retries"] == 3 and out["max_retrieval_retries"] == 3
    assert graph.invoke({"question": "q"})["retrieval_retries"] == 1


@pytest.mark.parametrize("cap", [-1, 1.5, True, "2"])
def test_a_bad_cap_is_rejected(cap: Any) -> None:
    graph, parts = make_graph()
    with pytest.raises(ValueError, match="max_retrieval_retries"):
        graph.invoke({"question": "q", "max_retrieval_retries": cap})
    with pytest.raises(ValueError, match="max_generation_retries"):
        make_graph(generation_retries=cap)
    assert searched(parts) == []


def test_caps_the_recursion_limit_cannot_finish_are_rejected_up_front() -> None:
    graph, parts = make_graph()
    with pytest.raises(ValueError, match="recursion_limit"):
        graph.invoke({"question": "q", "max_retrieval_retries": 5}, {"recursion_limit": 20})
    assert searched(parts) == []


# ---------------------------------------------------------------- errors and the input policy
def test_a_failing_arm_is_a_recorded_outcome_with_zero_reward() -> None:
    graph, _ = make_graph(fail=True, answered=[False, False])
    out = graph.invoke({"question": "q"})
    assert out["search_failed"] is True and "index missing" in out["retrieval_note"]
    assert out["documents"] == [] and out["bandit_update"]["reward"] == 0.0 and out["retrieval_retries"] == 1


def test_a_failing_reranker_keeps_the_fused_order() -> None:
    graph, _ = make_graph(reranker=ReverseReranker(fail=True))
    out = graph.invoke({"question": "q"})
    assert "reranking failed" in out["rerank_note"] and out["reranked"] == out["documents"][:4]


def test_rerank_off_keeps_the_fused_top_k() -> None:
    graph, parts = make_graph(rerank=False)
    out = graph.invoke({"question": "q"})
    assert parts["reranker"].calls == 0 and out["reranked"] == out["documents"][:4]
    assert out["metadata"]["reranker"] == "off"


def test_a_failing_intent_classifier_searches() -> None:
    class Broken:
        def classify(self, question: str) -> Intent:
            raise RuntimeError("model down")

    graph, _ = make_graph(intent_classifier=Broken())
    out = graph.invoke({"question": "q"})
    assert out["route"] == "rag" and out["intent"].fallback and "model down" in out["intent"].note


@pytest.mark.parametrize("question", ["", "   ", None])
def test_an_empty_question_is_rejected_before_any_search(question: Any) -> None:
    graph, parts = make_graph()
    with pytest.raises((ValueError, TypeError), match="question"):
        graph.invoke({"question": question})
    assert searched(parts) == [] and parts["intent_classifier"].calls == 0


def test_an_oversized_question_names_the_builder_argument() -> None:
    graph, parts = make_graph(max_question_chars=10)
    with pytest.raises(ValueError, match="max_question_chars"):
        graph.invoke({"question": "x" * 11})
    assert searched(parts) == []


def test_a_question_the_local_roles_cannot_read_gets_the_language_message() -> None:
    graph, parts = make_graph()
    out = graph.invoke({"question": "체크포인터는 무엇을 합니까?"})
    assert out["path"] == ["check_question", "unsupported_language"] and "English" in out["answer"]
    assert out["outcome"] == "refused"
    assert searched(parts) == []


# ---------------------------------------------------------------- the bandit as a builder argument
def test_a_shared_bandit_is_learned_across_runs_and_persisted(tmp_path) -> None:
    shared = SharedBandit(ThompsonSampling(["dense", "bm25", "hybrid"], seed=3), path=tmp_path / "b.json", save_every=1)
    graph, _ = make_graph(bandit=shared)
    for _ in range(3):
        graph.invoke({"question": "q"})
    assert shared.stats()["total_pulls"] == 3 and (tmp_path / "b.json").is_file()


def test_the_bandits_arms_must_be_the_graphs_arms() -> None:
    with pytest.raises(ValueError, match="arms"):
        make_graph(bandit=ThompsonSampling(["dense", "bm25"]))
    with pytest.raises(TypeError, match="bandit"):
        make_graph(bandit=object())


def test_the_default_bandit_is_seeded() -> None:
    arms = [make_graph(seed=7)[0].invoke({"question": "q"})["arm"] for _ in range(2)]
    assert arms[0] == arms[1]


def test_a_contextual_bandit_chooses_and_learns_from_the_questions_features() -> None:
    docs = [Document("BM25 ranks by term frequency", metadata={"id": "a"}), Document("dense vectors", metadata={"id": "b"})]
    _, parts = make_graph()
    arms = {**parts["arms"], "bm25": BM25Retriever.from_documents(docs)}
    policy = LinUCB(["dense", "bm25", "hybrid"], n_features=12, alpha=0.5)
    graph = build_advanced_rag_graph(arms=arms, bandit=policy, intent_classifier=ScriptedIntent(),
                                     query_transformer=ScriptedTransformer(), grader=ScriptedGrader(),
                                     writer=NumberingWriter(), hallucination_grader=ScriptedHallucinationGrader(),
                                     reranker=ReverseReranker())
    out = graph.invoke({"question": "How does BM25 rank?"})
    assert len(out["bandit_context"]) == 12 and out["bandit_context"][0] == 1.0  # bias feature
    assert int(policy.pulls.sum()) == 1


# ---------------------------------------------------------------- the caps, for any verdicts
def test_the_worst_case_takes_exactly_worst_case_steps() -> None:
    for r in range(0, 3):
        for g in range(0, 3):
            graph, _ = make_graph(then=False, retrieval_retries=r, generation_retries=g)
            out = graph.invoke({"question": "q"}, {"recursion_limit": worst_case_steps(r, g)})
            assert len(out["path"]) + 1 == worst_case_steps(r, g)  # +1: LangGraph's start step


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    retrieval_cap=st.integers(min_value=0, max_value=3),
    generation_cap=st.integers(min_value=0, max_value=3),
    intents=st.lists(st.sampled_from(["rag", "chitchat"]), max_size=2),
    relevant=st.lists(st.booleans(), max_size=20),
    grounded=st.lists(st.booleans(), max_size=6),
    answered=st.lists(st.booleans(), max_size=6),
    then=st.booleans(),
    fail=st.booleans(),
)
def test_any_verdicts_end_within_the_caps(retrieval_cap, generation_cap, intents, relevant, grounded, answered, then,
                                          fail) -> None:
    graph, parts = make_graph(intents, relevant, grounded, answered, then=then, retrieval_retries=retrieval_cap,
                              generation_retries=generation_cap, fail=fail)
    # the recursion limit is the worst case: going past it would raise GraphRecursionError
    out = graph.invoke({"question": "q"}, {"recursion_limit": worst_case_steps(retrieval_cap, generation_cap)})
    assert out["retrieval_retries"] <= retrieval_cap and out["generation_retries"] <= generation_cap
    assert len(out["path"]) < worst_case_steps(retrieval_cap, generation_cap)
    assert out["path"][-1] == "finish" and out["generation"]
    dial = out["route"] == "rag" and out["draft"].answered and out["confidence"] < REFUSAL.advanced_rag
    if dial:  # the refusal dial (ragkit.defaults.REFUSAL) refused an answer written from weak documents
        assert out["outcome"] == "refused" and out["reason"].startswith("low confidence")
    else:
        assert out["reason"] == out["note"]
    assert out["path"].count("retrieve") == out["transforms"] == out.get("retrieval_retries", 0) + (out["route"] == "rag")
    assert out["path"].count("generate") == out["generations"] == out["generation_retries"] + 1
    assert (out.get("bandit_stats") or {}).get("total_pulls", 0) == out["path"].count("grade")  # one update per search
    assert out["verified"] == (out["route"] == "rag" and out["draft"].answered and out["grounded"])


# ---------------------------------------------------------------- LLM roles on a scripted chat model
def test_llm_roles_on_a_scripted_model() -> None:
    from ragkit.core.chat_models import ScriptedChatModel

    model = ScriptedChatModel(responses=[
        {"route": "rag"},
        {"queries": ["bm25 scoring", "okapi bm25", "bm25 formula"], "hypothetical_answer": "BM25 weighs terms by idf."},
        {"relevant": True}, {"relevant": False}, {"relevant": False}, {"relevant": False},
        {"answer": "It weighs terms by idf [1].", "answered": True},
        {"grounded": True, "unsupported": []},
    ])
    _, parts = make_graph()
    graph = build_advanced_rag_graph(arms=parts["arms"], chat_model=model, reranker=ReverseReranker())
    out = graph.invoke({"question": "How does BM25 score documents?"})
    assert out["queries"] == ["bm25 scoring", "okapi bm25", "bm25 formula"] and not out["transform_fallback"]
    assert len(searched(parts)) == 5  # question + 3 queries + hypothetical answer; no first pass for the LLM
    assert out["relevance_score"] == 0.25 and out["verified"] is True and len(model.calls) == 8


def test_malformed_llm_output_is_a_visible_fallback_and_the_caps_hold() -> None:
    from ragkit.core.chat_models import ScriptedChatModel

    model = ScriptedChatModel(responses=["not json at all"], cycle=True)
    _, parts = make_graph()
    graph = build_advanced_rag_graph(arms=parts["arms"], chat_model=model, reranker=ReverseReranker())
    out = graph.invoke({"question": "How does BM25 score documents?"}, {"recursion_limit": worst_case_steps(1, 1)})
    assert out["intent"].fallback and out["route"] == "rag"  # an unparsable intent: search
    assert out["transform_fallback"] and "no transform" in out["transform_note"] and out["queries"] == []
    # LLMGrader keeps documents on failure; LLMWriter refuses; a refusal claims nothing
    assert out["relevance_score"] == 1.0 and out["draft"].answered is False and out["verified"] is False
    assert out["outcome"] == "refused"


def test_chitchat_with_a_chat_model_gets_its_short_reply() -> None:
    from ragkit.core.chat_models import ScriptedChatModel

    model = ScriptedChatModel(responses=[{"route": "chitchat"}, "Hi! Ask me about the documents."])
    _, parts = make_graph()
    out = build_advanced_rag_graph(arms=parts["arms"], chat_model=model).invoke({"question": "hey there"})
    assert out["generation"] == "Hi! Ask me about the documents." and searched(parts) == []


# ---------------------------------------------------------------- the default local roles, end to end
@pytest.fixture(scope="module")
def handbook_graph():
    return build_advanced_rag_graph(load_handbook())


def test_default_local_roles_answer_a_handbook_question(handbook_graph) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = handbook_graph.invoke({"question": "What does a checkpointer give a LangGraph graph?"})
    assert out["route"] == "rag" and out["verified"] and "pause and resume" in out["generation"]
    assert out["arm"] in ("dense", "bm25", "hybrid") and 0 < out["relevance_score"] <= 1
    assert len(out["queries"]) == 3 and out["hypothetical"]  # local PRF queries and the extractive passage
    assert all(d.metadata["id"].startswith("HB-") for d in out["reranked"]) and len(out["reranked"]) == 4
    if out["metadata"]["reranker"] == "local":  # no cross-encoder weights here: it warned and fell back
        assert any("CrossEncoderReranker" in str(w.message) for w in caught)


def test_default_local_roles_reply_to_thanks_without_searching(handbook_graph) -> None:
    out = handbook_graph.invoke({"question": "Thanks a lot, that helped!"})
    assert out["path"] == ["check_question", "classify", "generate", "hallucination_check", "finish"]
    assert out["route"] == "chitchat" and out["generation"] == CANNED_REPLIES["thanks"]


def test_default_local_roles_refuse_an_off_topic_question(handbook_graph) -> None:
    out = handbook_graph.invoke({"question": "What is the capital of Peru?"})
    assert out["outcome"] == "refused" and out["verified"] is False and out["retrieval_retries"] == 1
    assert out["bandit_stats"]["total_pulls"] >= out["path"].count("grade") == 2  # the bandit outlives a run
