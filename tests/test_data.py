"""The teaching data loads, is consistent, and every broken file fails loudly with its name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.documents import Document

from ragkit.core.contract import DataError
from ragkit.core.files import data_dir, markdown_sections
from ragkit.domains.corpora import load_corpus
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.menu.routes import ROUTE_NAMES, load_routing_questions
from ragkit.domains.statute.citations import cited_articles
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.web.corpus import load_web_snapshot

# The 14 allergens EU food law asks restaurants to declare.
EU_ALLERGENS = {
    "gluten", "crustaceans", "eggs", "fish", "peanuts", "soya", "milk", "tree nuts", "celery", "mustard",
    "sesame", "sulphites", "lupin", "molluscs",
}
ANIMAL_ALLERGENS = {"eggs", "fish", "milk", "crustaceans", "molluscs"}


def check_documents(docs: list[Document]) -> None:
    """What every loader promises: Documents with text, source, id and title, ids unique."""
    assert docs and all(isinstance(d, Document) for d in docs)
    for doc in docs:
        assert doc.page_content.strip()
        for key in ("source", "id", "title"):
            assert isinstance(doc.metadata.get(key), str) and doc.metadata[key], (key, doc.metadata)
    ids = [d.metadata["id"] for d in docs]
    assert len(ids) == len(set(ids))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- the real files


def test_data_dir_is_the_projects_data_folder_unless_overridden(monkeypatch, tmp_path):
    monkeypatch.delenv("RAGKIT_DATA_DIR", raising=False)
    assert data_dir().name == "data" and (data_dir() / "menu.json").is_file()
    monkeypatch.setenv("RAGKIT_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    with pytest.raises(FileNotFoundError, match="menu.json"):
        load_menu()


def test_menu_has_25_dishes_with_consistent_facts():
    docs = load_menu()
    check_documents(docs)
    assert len(docs) == 25
    assert [d.metadata["id"] for d in docs] == [f"menu-{i:02d}" for i in range(1, 26)]
    assert {d.metadata["course"] for d in docs} == {"starter", "main", "side", "dessert"}
    for doc in docs:
        meta = doc.metadata
        assert meta["restaurant"] == "La Lanterna"
        assert 0 < meta["price"] < 100
        assert set(meta["allergens"]) <= EU_ALLERGENS, meta["allergens"]
        # The text carries every fact, so an extractive answer can quote it.
        assert doc.page_content.startswith(f"{meta['title']} (")
        assert f"{meta['price']:.2f} EUR" in doc.page_content
        for allergen in meta["allergens"]:
            assert allergen in doc.page_content.split("Allergens:")[1]
        # Dietary labels must not contradict the allergens.
        if "vegan" in meta["dietary"]:
            assert "vegetarian" in meta["dietary"] and not ANIMAL_ALLERGENS & set(meta["allergens"])
        if "gluten-free" in meta["dietary"]:
            assert "gluten" not in meta["allergens"]
        if "dairy-free" in meta["dietary"]:
            assert "milk" not in meta["allergens"]
        if "vegetarian" in meta["dietary"]:
            assert not {"fish", "crustaceans", "molluscs"} & set(meta["allergens"])


def test_menu_text_reads_as_a_paragraph():
    sea_bass = next(d for d in load_menu() if d.metadata["title"] == "Grilled sea bass with salsa verde")
    assert sea_bass.page_content.startswith("Grilled sea bass with salsa verde (main course, 24.50 EUR).")
    assert sea_bass.page_content.endswith("Allergens: fish. Dietary: gluten-free, dairy-free.")


def test_load_corpus_dispatches_by_name():
    assert [d.metadata["id"] for d in load_corpus("menu")] == [d.metadata["id"] for d in load_menu()]
    with pytest.raises(ValueError, match="unknown corpus 'recipes'.*menu"):
        load_corpus("recipes")


# ---------------------------------------------------------------- error paths (JSON)

DISH = {
    "id": "menu-01", "name": "Soup", "course": "starter", "price": 5, "description": "Hot.",
    "ingredients": ["water"], "allergens": [], "dietary": ["vegan"],
}


def test_missing_file_names_the_path_and_what_is_expected(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nowhere\.json.*Expected a JSON object"):
        load_menu(tmp_path / "nowhere.json")
    with pytest.raises(FileNotFoundError, match=r"folder not found.*web.*Markdown"):
        load_web_snapshot(tmp_path / "web")


def test_bad_json_names_file_and_line(tmp_path):
    path = write(tmp_path / "menu.json", '{"dishes": [\n  {"id": "menu-01",}\n]}')
    with pytest.raises(DataError, match=r"menu\.json: not valid JSON \(line 2"):
        load_menu(path)


@pytest.mark.parametrize("field", ["name", "price", "allergens"])
def test_missing_field_names_the_entry(tmp_path, field):
    broken = {k: v for k, v in DISH.items() if k != field}
    path = write(tmp_path / "menu.json", json.dumps({"dishes": [DISH | {"id": "menu-00"}, broken]}))
    with pytest.raises(DataError, match=rf"entry 1 \(menu-01\) is missing the required field '{field}'"):
        load_menu(path)


def test_wrong_types_and_values_are_rejected(tmp_path):
    cases = [DISH | {"price": "cheap"}, DISH | {"price": True}, DISH | {"course": "brunch"},
             DISH | {"allergens": "fish"}, DISH | {"ingredients": [1, 2]}]
    for dish in cases:
        path = write(tmp_path / "menu.json", json.dumps({"dishes": [dish]}))
        with pytest.raises(DataError, match="entry 0"):
            load_menu(path)


def test_empty_file_and_empty_list_are_errors(tmp_path):
    with pytest.raises(DataError, match="not valid JSON"):
        load_menu(write(tmp_path / "menu.json", ""))
    with pytest.raises(DataError, match="empty"):
        load_menu(write(tmp_path / "menu.json", '{"dishes": []}'))
    with pytest.raises(DataError, match="list of entries"):
        load_menu(write(tmp_path / "menu.json", '{"plates": []}'))


def test_duplicate_ids_never_half_load(tmp_path):
    path = write(tmp_path / "menu.json", json.dumps({"dishes": [DISH, DISH | {"name": "Other"}]}))
    with pytest.raises(DataError, match="'menu-01' is used twice"):
        load_menu(path)


def test_data_error_is_a_value_error():
    assert issubclass(DataError, ValueError)


def test_wines_are_complete_and_pair_with_real_dishes():
    docs = load_wines()
    check_documents(docs)
    assert 18 <= len(docs) <= 25
    dishes = {d.metadata["id"]: d.metadata["title"] for d in load_menu()}
    styles = {d.metadata["style"] for d in docs}
    assert {"red", "white", "sparkling", "sweet"} <= styles
    for doc in docs:
        meta = doc.metadata
        assert meta["grapes"] and meta["price_bottle"] > 0
        if meta["price_glass"] is not None:
            assert 0 < meta["price_glass"] < meta["price_bottle"]
            assert f"{meta['price_glass']:.2f} EUR a glass" in doc.page_content
        else:
            assert "not by the glass" in doc.page_content
        assert meta["pairs_with"], meta["id"]
        for dish_id in meta["pairs_with"]:
            # The pairing note names the dish as the menu spells it, so a retriever can connect the two.
            assert dishes[dish_id].lower() in doc.page_content.lower(), (meta["id"], dish_id)


def test_web_snapshot_articles_have_front_matter_and_reasonable_length():
    docs = load_web_snapshot()
    check_documents(docs)
    assert 25 <= len(docs) <= 40
    assert {d.metadata["topic"] for d in docs} == {"food", "wine", "travel", "news"}
    urls = [d.metadata["url"] for d in docs]
    assert len(set(urls)) == len(urls) and all(u.startswith("https://example.org/") for u in urls)
    for doc in docs:
        assert doc.metadata["source"] == doc.metadata["url"]
        assert len(doc.metadata["date"]) == 10 and doc.metadata["date"][4] == "-"
        assert 120 <= len(doc.page_content.split()) <= 300, doc.metadata["id"]


def test_handbook_has_40_sections_some_with_code():
    docs = load_handbook()
    check_documents(docs)
    assert [d.metadata["id"] for d in docs] == [f"HB-{i:02d}" for i in range(1, 41)]
    assert any(d.metadata["has_code"] for d in docs) and not all(d.metadata["has_code"] for d in docs)
    for doc in docs:
        assert doc.page_content.startswith(doc.metadata["title"])
        assert "## HB-" not in doc.page_content  # no section swallowed its neighbour


def test_statute_has_40_articles_with_parts_and_valid_references():
    docs = load_statute()
    check_documents(docs)
    assert [d.metadata["article"] for d in docs] == list(range(1, 41))
    assert all(d.metadata["id"] == f"art-{d.metadata['article']}" for d in docs)
    assert all(d.metadata["part"] and d.metadata["part"].startswith("Part ") for d in docs)
    numbers = set(range(1, 41))
    cited = [r for d in docs for r in d.metadata["references"]]
    assert cited and set(cited) <= numbers
    for doc in docs:
        assert doc.metadata["article"] not in doc.metadata["references"]
        assert doc.metadata["paragraphs"] >= 1


def test_load_corpus_covers_every_name():
    sizes = {name: len(load_corpus(name)) for name in ("menu", "wine", "web", "handbook", "statute")}
    assert sizes == {"menu": 25, "wine": len(load_wines()), "web": len(load_web_snapshot()),
                     "handbook": 40, "statute": 40}
    assert len(load_corpus(" Wines ")) == sizes["wine"]


def test_routing_questions_are_balanced_and_distinct():
    items = load_routing_questions()
    assert len(items) >= 48
    routes = [item["route"] for item in items]
    assert all(routes.count(route) >= 12 for route in ROUTE_NAMES)
    questions = [item["question"].lower() for item in items]
    assert len(set(questions)) == len(questions)
    assert all(q.strip() and len(q) < 200 for q in questions)


# ---------------------------------------------------------------- Markdown parsing (fixtures, not the real files)

HANDBOOK = """# A tiny handbook

Intro text that belongs to no section.

## HB-01 Retrieval basics
Retrieval finds documents.

```python
# a comment, not a heading
## neither is this
print("hi")
```

## HB-02: Graphs
Graphs have nodes.
"""

STATUTE = """# Coastal Waters Act

# Part I. General provisions

## Article 1. Scope
(1) This Act applies to coastal waters.
(2) See Article 2(1) and Articles 3 to 4.

# Part II. Permits

## Article 2. Permits
(1) A permit is needed, except as in Article 1 and Article 2(2).
"""


def test_handbook_fixture_sections_skip_code_fences(tmp_path):
    docs = load_handbook(write(tmp_path / "handbook.md", HANDBOOK))
    assert [(d.metadata["id"], d.metadata["title"], d.metadata["has_code"]) for d in docs] == [
        ("HB-01", "Retrieval basics", True), ("HB-02", "Graphs", False)]
    assert "## neither is this" in docs[0].page_content and "Intro text" not in docs[0].page_content


def test_statute_fixture_parts_and_references(tmp_path):
    docs = load_statute(write(tmp_path / "statute.md", STATUTE))
    assert [d.metadata["part"] for d in docs] == ["Part I. General provisions", "Part II. Permits"]
    assert [d.metadata["references"] for d in docs] == [[2, 3, 4], [1]]
    assert docs[0].page_content.startswith("Article 1. Scope\n\n(1)")
    assert docs[0].metadata["paragraphs"] == 2


def test_article_references_ignore_paragraph_numbers():
    assert cited_articles("under Article 6(1)(d) or Article 38") == [6, 38]
    assert cited_articles("paragraph (3) of this Article") == []


@pytest.mark.parametrize(
    ("loader", "name", "text", "message"),
    [
        (load_handbook, "handbook.md", "", "no sections found"),
        (load_handbook, "handbook.md", "# Title only\n\nSome text.\n", "no sections found"),
        (load_handbook, "handbook.md", "## HB-01 Ok\ntext\n## Chunking\ntext\n", r"line 3: heading 'Chunking'"),
        (load_handbook, "handbook.md", "## HB-01 Empty\n\n## HB-02 Full\ntext\n", "line 1: section HB-01 has no text"),
        (load_handbook, "handbook.md", "## HB-01 A\ntext\n## HB-01 B\ntext\n", "'HB-01' is used twice"),
        (load_statute, "statute.md", "", "no articles found"),
        (load_statute, "statute.md", "## Art. 1 Scope\n(1) x\n", "line 1: heading 'Art. 1 Scope'"),
        (load_statute, "statute.md", "## Article 1. A\n(1) x\n## Article 1. B\n(1) y\n", "'art-1' is used twice"),
    ],
)
def test_markdown_errors_name_file_and_line(tmp_path, loader, name, text, message):
    with pytest.raises(DataError, match=rf"{name}.*{message}"):
        loader(write(tmp_path / name, text))


def test_markdown_sections_keeps_body_order():
    sections = markdown_sections("## A\none\n~~~\n# not a part\n~~~\n## B\ntwo")
    assert [(s.heading, s.parents) for s in sections] == [("A", ()), ("B", ())]
    assert "# not a part" in sections[0].body


# ---------------------------------------------------------------- web snapshot errors

ARTICLE = "---\ntitle: T\nurl: https://example.org/t\ndate: 2025-01-01\ntopic: news\n---\n\nSome text.\n"


def test_web_snapshot_errors(tmp_path):
    web = tmp_path / "web"
    web.mkdir()
    with pytest.raises(DataError, match="no Markdown articles"):
        load_web_snapshot(web)
    write(web / "a.md", ARTICLE)
    assert load_web_snapshot(web)[0].metadata["id"] == "a"
    write(web / "b.md", ARTICLE.replace("topic: news\n", ""))
    with pytest.raises(DataError, match=r"b\.md: the front matter is missing the required field 'topic'"):
        load_web_snapshot(web)
    write(web / "b.md", "Just text, no front matter.\n")
    with pytest.raises(DataError, match=r"b\.md: line 1 should be '---'"):
        load_web_snapshot(web)
    write(web / "b.md", ARTICLE.replace("\n---\n\nSome text.\n", "\n"))
    with pytest.raises(DataError, match="never closed"):
        load_web_snapshot(web)
    write(web / "b.md", ARTICLE.replace("Some text.", ""))
    with pytest.raises(DataError, match=r"b\.md: the article has a front matter but no text"):
        load_web_snapshot(web)
    with pytest.raises(FileNotFoundError, match="folder not found"):
        load_web_snapshot(web / "a.md")


def test_wine_and_routing_errors(tmp_path):
    wine = json.loads((data_dir() / "wines.json").read_text(encoding="utf-8"))["wines"][0]
    path = write(tmp_path / "wines.json", json.dumps({"wines": [wine | {"vintage": "old"}]}))
    with pytest.raises(DataError, match=r"entry 0 \(wine-01\) field 'vintage' must be a number or null"):
        load_wines(path)
    path = write(tmp_path / "wines.json", json.dumps({"wines": [{k: v for k, v in wine.items() if k != "grapes"}]}))
    with pytest.raises(DataError, match="missing the required field 'grapes'"):
        load_wines(path)
    path = write(tmp_path / "r.json", json.dumps([{"question": "Hi?", "route": "search_recipes"}]))
    with pytest.raises(DataError, match="route 'search_recipes'"):
        load_routing_questions(path)


def test_non_utf8_file_is_a_data_error(tmp_path):
    path = tmp_path / "handbook.md"
    path.write_bytes("## HB-01 Caf\xe9\ntext\n".encode("latin-1"))
    with pytest.raises(DataError, match=r"handbook\.md: not UTF-8"):
        load_handbook(path)


def test_extra_front_matter_keys_are_kept_but_cannot_override(tmp_path):
    write(tmp_path / "a.md", ARTICLE.replace("topic: news\n", "topic: news\nauthor: Ana\nsource: elsewhere\n"))
    meta = load_web_snapshot(tmp_path)[0].metadata
    assert meta["author"] == "Ana" and meta["source"] == "https://example.org/t" and meta["id"] == "a"
