"""The offline web search behaves like a real search tool: ranked, deterministic, strict about input."""

from __future__ import annotations

import json

import pytest
from langchain_core.documents import Document
from langchain_core.messages import ToolMessage

from ragkit.core.contract import DataError
from ragkit.core.nlp import strip_accents as fold_accents
from ragkit.domains.web.corpus import OfflineWebSearch, load_web_snapshot


@pytest.fixture(scope="module")
def search() -> OfflineWebSearch:
    return OfflineWebSearch()


def test_is_a_tool_named_web_search_with_query_and_max_results(search):
    assert search.name == "web_search"
    assert set(search.args) == {"query", "max_results"}
    assert search.args["max_results"]["default"] == 5


def test_results_have_the_shape_of_a_web_search_api(search):
    results = search.invoke({"query": "harbour festival fireworks", "max_results": 3})
    assert 1 <= len(results) <= 3
    for result in results:
        assert set(result) == {"url", "title", "content", "score"}
        assert result["url"].startswith("https://example.org/") and result["content"]
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0


@pytest.mark.parametrize("doc", load_web_snapshot(), ids=lambda d: d.metadata["id"])
def test_searching_an_articles_title_returns_it_first(search, doc):
    assert search.search_with_scores(doc.metadata["title"], k=1)[0][0].metadata["id"] == doc.metadata["id"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("is a storm coming, will boats stay in port", "storm-warning-boats-in-port"),
        ("how warm should I serve red wine", "red-wine-serving-temperature"),
        ("parking fines in the old town", "old-town-parking-rules"),
        ("scuba diving gorgonians", "diving-capo-nero-reef"),
        ("new vegan cafe on the quay", "verde-mare-plant-based-cafe"),  # accent-free query, accented text
        ("train from the regional capital", "getting-to-porto-calvera"),
    ],
)
def test_paraphrased_questions_find_the_right_article(search, query, expected):
    assert search.search_with_scores(query, k=1)[0][0].metadata["id"] == expected


def test_plain_string_input_and_tool_call_input(search):
    assert search.invoke("ferry to Isola Verde")[0]["title"].startswith("Summer ferry timetable")
    message = search.invoke({"type": "tool_call", "name": "web_search", "id": "call-1",
                             "args": {"query": "lighthouse museum", "max_results": 2}})
    assert isinstance(message, ToolMessage)
    assert len(json.loads(message.content)) == 2


def test_it_speaks_the_retrieval_protocol_without_touching_the_index(search):
    from ragkit.core.search import ScoredSearch

    assert isinstance(search, ScoredSearch)
    hits = search.search_with_scores("olive oil peppery", k=2)
    assert hits[0][0].metadata["id"] == "new-olive-oil-peppery" and hits[0][1] > hits[1][1] > 0
    assert all("score" not in d.metadata for d in search.documents)


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_blank_query_is_a_clear_value_error(search, query):
    with pytest.raises(ValueError, match="web search query is empty"):
        search.invoke({"query": query})


def test_bad_max_results(search):
    with pytest.raises(ValueError):
        search.invoke({"query": "wine", "max_results": 0})
    with pytest.raises(ValueError, match="positive whole number"):
        search.search_with_scores("wine", k=0)


def test_no_match_returns_nothing(search):
    assert search.invoke("the of and") == []  # stopwords only
    assert search.invoke("xylophone quantum") == []


def test_ties_are_broken_by_id_and_ranking_is_repeatable():
    same = "Sea and ferry news."
    docs = [Document(same, metadata={"id": i, "title": "", "url": f"https://example.org/{i}"}) for i in "cab"]
    tool = OfflineWebSearch(documents=docs + [Document("Other text.", metadata={"id": "d", "title": ""})])
    first = [d.metadata["id"] for d, _ in tool.search_with_scores("ferry", k=4)]
    assert first == ["a", "b", "c"]
    assert [d.metadata["id"] for d, _ in tool.search_with_scores("ferry", k=4)] == first


def test_custom_snapshot_folder_and_empty_documents(tmp_path):
    (tmp_path / "one.md").write_text(
        "---\ntitle: Kite festival\nurl: https://example.org/kites\ndate: 2025-05-01\ntopic: news\n---\n"
        "Kites fly over the beach on Sunday.\n", encoding="utf-8")
    tool = OfflineWebSearch(path=tmp_path)
    assert tool.invoke("kites")[0]["url"] == "https://example.org/kites"
    with pytest.raises(DataError):
        OfflineWebSearch(documents=[])


def test_fold_accents():
    assert fold_accents("Café, rosé, Mourvèdre") == "Cafe, rose, Mourvedre"
