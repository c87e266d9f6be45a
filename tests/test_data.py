"""The teaching data loads, is consistent, and every broken file fails loudly with its name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.documents import Document

from ragkit import data
from ragkit.data import (
    DataError,
    article_references,
    data_dir,
    load_corpus,
    load_handbook,
    load_menu,
    load_routing_questions,
    load_statute,
    load_web_snapshot,
    load_wines,
    markdown_sections,
)

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
