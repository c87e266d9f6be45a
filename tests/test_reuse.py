"""Reuse that fails early and loudly: the README's "Reuse the nodes" examples run, roles are checked when a
graph is built, a chat model without structured output is reported, a missing corpus is a setup error."""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from pathlib import Path

import pytest
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from ragkit.core.chat_models import scripted
from ragkit.core.contract import DataNotFound
from ragkit.core.threads import thread
from ragkit.domains.handbook.corpus import handbook_search, load_handbook
from ragkit.graphs.advanced_rag import build_advanced_rag_graph
from ragkit.graphs.crag import build_crag_graph
from ragkit.graphs.self_rag import build_self_rag_graph
from ragkit.graphs.supervisor import build_supervisor_graph
from ragkit.offline.graders import LocalGrader
from ragkit.roles.llm import StructuredOutputUnavailable
from ragkit.roles.protocols import Answer, Grade

ROOT = Path(__file__).resolve().parents[1]
DOCS = [Document("A checkpointer saves the state of a thread after every step.", metadata={"id": "a"}),
        Document("BM25 ranks documents by term frequency and inverse document frequency.", metadata={"id": "b"})]


def readme_examples() -> list[str]:
    """The Python blocks of the README's "Reuse the nodes" section, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Reuse the nodes", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


@pytest.mark.parametrize("index", range(4))
def test_every_readme_reuse_example_runs(index: int) -> None:
    blocks = readme_examples()
    assert len(blocks) == 4
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(blocks[index], f"README reuse example {index + 1}", "exec"), {})  # noqa: S102 - our own README
    out = printed.getvalue()
    expected = [r"^answered ", r"^answered \[.*'HB-\d\d'.*\]\nwriter= needs a Writer: an object with write\(question, documents\)",
                r"^\d relevant documents", r"check_question\nretrieve\n"][index]
    assert re.search(expected, out), out


def test_a_role_without_its_method_is_refused_when_the_graph_is_built() -> None:
    with pytest.raises(TypeError, match=r"grader= needs a DocumentGrader: an object with grade\(question, document\) -> Grade"):
        build_self_rag_graph(retriever=lambda q: DOCS, grader=object())
    with pytest.raises(TypeError, match=r"writer= needs a Writer"):
        build_crag_graph(retriever=lambda q: DOCS, writer="not a writer")
    with pytest.raises(TypeError, match=r"got the class LocalGrader: pass an instance"):
        build_crag_graph(retriever=lambda q: DOCS, grader=LocalGrader)
    with pytest.raises(TypeError, match=r"hallucination_grader= needs a HallucinationGrader"):  # takes (answer) only
        build_self_rag_graph(retriever=lambda q: DOCS, hallucination_grader=lambda answer: True)


def test_a_grader_with_only_grade_and_a_plain_function_both_work() -> None:
    class OnlyGrade:
        def grade(self, question: str, document: Document) -> Grade:
            return Grade("checkpoint" in document.page_content, 1.0)

    def writer(question, documents):
        return Answer(f"{documents[0].page_content} [1]", (1,)) if documents else Answer("none", (), answered=False)

    for grader in (OnlyGrade(), OnlyGrade().grade):
        out = build_self_rag_graph(retriever=lambda q: DOCS, grader=grader, writer=writer).invoke(
            {"question": "What does a checkpointer save?"})
        assert [d.metadata["id"] for d in out["documents"]] == ["a"] and out["answer"].startswith("A checkpointer")


def test_crag_keeps_the_old_verifier_keyword_as_a_deprecated_alias() -> None:
    class Always:
        def check(self, documents, answer):
            from ragkit.roles.protocols import Groundedness
            return Groundedness(True)

    with pytest.warns(DeprecationWarning, match="hallucination_grader"):
        build_crag_graph(retriever=lambda q: DOCS, verifier=Always())
    with pytest.raises(TypeError, match="only"):
        build_crag_graph(retriever=lambda q: DOCS, verifier=Always(), hallucination_grader=Always())


def test_a_chat_model_without_structured_output_warns_once_and_strict_raises() -> None:
    fake = FakeListChatModel(responses=["I am not JSON"])
    with pytest.warns(UserWarning, match="cannot return structured output") as caught:
        build_self_rag_graph(retriever=lambda q: DOCS, chat_model=fake)
    assert len([w for w in caught if "structured output" in str(w.message)]) == 1
    with pytest.raises(StructuredOutputUnavailable, match="FakeListChatModel"):
        build_crag_graph(retriever=lambda q: DOCS, chat_model=fake, strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # ragkit's own scripted fake supports structured output: no warning
        build_self_rag_graph(retriever=lambda q: DOCS, chat_model=scripted("{}"))


def test_crag_without_a_thread_id_says_so_in_ragkits_words() -> None:
    graph = build_crag_graph(retriever=lambda q: DOCS)
    with pytest.raises(ValueError, match=r"give it a thread id: graph.invoke\(input, \{'configurable'"):
        graph.invoke({"question": "What does a checkpointer save?"})
    assert graph.invoke({"question": "What does a checkpointer save?"}, thread("t"))["outcome"] in ("answered", "refused")


@pytest.mark.parametrize("build", [
    lambda: build_self_rag_graph(handbook_search()),
    lambda: build_crag_graph(handbook_search()),
    lambda: build_advanced_rag_graph(load_handbook()),
], ids=["self_rag", "crag", "advanced_rag"])
def test_a_missing_data_folder_is_an_error_naming_the_fix_never_an_answer(build, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RAGKIT_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFound, match="RAGKIT_DATA_DIR"):  # at build (load_handbook) or first search
        build().invoke({"question": "What does a checkpointer give a LangGraph graph?"}, thread("missing"))


@pytest.mark.parametrize("build, needs", [
    (lambda: build_self_rag_graph(), "retriever"),
    (lambda: build_crag_graph(chat_model=None), "retriever"),
    (lambda: build_supervisor_graph(handbook_search()), "domain"),
    (lambda: build_advanced_rag_graph(), "corpus"),
], ids=["self_rag", "crag", "supervisor", "advanced_rag"])
def test_a_graph_knows_no_corpus_so_building_without_one_names_the_missing_argument(build, needs) -> None:
    with pytest.raises(TypeError, match=needs):
        build()
