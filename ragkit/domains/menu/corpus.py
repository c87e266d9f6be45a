"""The JSON teaching data: the menu and the wine list, one Document per dish or wine, and their searches.

Each dish and wine becomes a readable paragraph holding every fact of its record (so both retrieval and
sentence extraction can find a price or an allergen), with the record's fields kept as metadata for
filtering. The routes of the Adaptive RAG graph and the labelled routing set are in
:mod:`ragkit.domains.menu.routes`.

Simplifications: prices are euros, printed with two decimals; optional wine fields are only ``vintage``
and ``price_glass`` (a wine without ``price_glass`` is not sold by the glass).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from ragkit.core.contract import DataError
from ragkit.core.files import locate, read_json, records, require, unique_ids
from ragkit.core.hybrid import default_retriever
from ragkit.core.search import LazySearch
from ragkit.defaults import GRAPHS


def _eur(amount: float) -> str:
    """A price as the menu prints it.

    >>> _eur(24.5)
    '24.50 EUR'
    """
    return f"{amount:.2f} EUR"


def _listing(items: list[str], empty: str = "none") -> str:
    """Items joined with commas, or ``empty`` when there are none."""
    return ", ".join(items) if items else empty


# ---------------------------------------------------------------- menu and wines

COURSES = ("starter", "main", "side", "dessert")
_MENU_FIELDS: dict[str, Any] = {
    "id": str, "name": str, "course": str, "price": (int, float), "description": str,
    "ingredients": list, "allergens": list, "dietary": list,
}


def menu_text(dish: dict[str, Any]) -> str:
    """The readable paragraph a dish becomes (every fact in it, so retrieval and extraction both work).

    >>> menu_text({"name": "Fish soup", "course": "starter", "price": 9, "description": "Rich and red.",
    ...            "ingredients": ["fish", "tomato"], "allergens": ["fish"], "dietary": []})
    'Fish soup (starter, 9.00 EUR). Rich and red. Ingredients: fish, tomato. Allergens: fish. Dietary: none.'
    """
    course = "main course" if dish["course"] == "main" else dish["course"]
    return (
        f"{dish['name']} ({course}, {_eur(dish['price'])}). {dish['description'].strip()} "
        f"Ingredients: {_listing(dish['ingredients'])}. Allergens: {_listing(dish['allergens'], 'none listed')}. "
        f"Dietary: {_listing(dish['dietary'])}."
    )


def load_menu(path: str | Path | None = None) -> list[Document]:
    """One Document per dish of ``menu.json``; metadata adds course, price, allergens, dietary, ingredients."""
    path = locate(path, "menu.json", "a JSON object with 'restaurant' and a list of 'dishes'")
    data = read_json(path)
    info = data.get("restaurant") if isinstance(data, dict) else None
    restaurant = str(info.get("name", "")) if isinstance(info, dict) else ""
    docs = []
    for i, dish in enumerate(records(path, data, "dishes")):
        require(path, dish, i, _MENU_FIELDS)
        if dish["course"] not in COURSES:
            raise DataError(f"{path}: entry {i} ({dish['id']}) has course {dish['course']!r}; use one of {COURSES}")
        meta = {
            "source": path.name, "id": dish["id"], "title": dish["name"], "course": dish["course"],
            "price": float(dish["price"]), "ingredients": list(dish["ingredients"]),
            "allergens": list(dish["allergens"]), "dietary": list(dish["dietary"]), "restaurant": restaurant,
        }
        docs.append(Document(page_content=menu_text(dish), metadata=meta))
    return unique_ids(path, docs)


_WINE_FIELDS: dict[str, Any] = {
    "id": str, "name": str, "producer": str, "region": str, "country": str, "grapes": list, "style": str,
    "price_bottle": (int, float), "tasting_notes": str, "pairing": str,
}


def wine_text(wine: dict[str, Any]) -> str:
    """The readable paragraph a wine becomes.

    >>> wine_text({"name": "Vermentino", "producer": "Casa Bianca", "region": "Sardinia", "country": "Italy",
    ...            "grapes": ["Vermentino"], "style": "white", "vintage": 2023, "price_glass": 7,
    ...            "price_bottle": 32, "tasting_notes": "Lemon and salt.", "pairing": "Good with oysters."})
    'Vermentino by Casa Bianca (Sardinia, Italy), 2023, white wine. Grapes: Vermentino. Price: 7.00 EUR a glass, 32.00 EUR a bottle. Tasting notes: Lemon and salt. Pairing: Good with oysters.'
    """
    vintage = str(wine["vintage"]) if wine.get("vintage") else "non-vintage"
    bottle = f"{_eur(wine['price_bottle'])} a bottle"
    price = f"{_eur(wine['price_glass'])} a glass, {bottle}" if wine.get("price_glass") else f"{bottle} (not by the glass)"
    return (
        f"{wine['name']} by {wine['producer']} ({wine['region']}, {wine['country']}), {vintage}, "
        f"{wine['style']} wine. Grapes: {_listing(wine['grapes'])}. Price: {price}. "
        f"Tasting notes: {wine['tasting_notes'].strip()} Pairing: {wine['pairing'].strip()}"
    )


def load_wines(path: str | Path | None = None) -> list[Document]:
    """One Document per wine of ``wines.json``; metadata adds producer, region, grapes, style, prices, pairs_with."""
    path = locate(path, "wines.json", "a JSON object with a list of 'wines'")
    docs = []
    for i, wine in enumerate(records(path, read_json(path), "wines")):
        require(path, wine, i, _WINE_FIELDS)
        for optional in ("vintage", "price_glass"):
            value = wine.get(optional)
            if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool)):
                raise DataError(f"{path}: entry {i} ({wine['id']}) field {optional!r} must be a number or null")
        meta = {
            "source": path.name, "id": wine["id"], "title": wine["name"], "producer": wine["producer"],
            "region": wine["region"], "country": wine["country"], "grapes": list(wine["grapes"]),
            "style": wine["style"], "vintage": wine.get("vintage"),
            "price_glass": float(wine["price_glass"]) if wine.get("price_glass") else None,
            "price_bottle": float(wine["price_bottle"]), "pairs_with": list(wine.get("pairs_with", [])),
        }
        docs.append(Document(page_content=wine_text(wine), metadata=meta))
    return unique_ids(path, docs)


def menu_search(k: int = GRAPHS.k) -> LazySearch:
    """The default retriever over the menu (hybrid BM25 + dense), built on its first search."""
    return LazySearch(lambda: default_retriever(load_menu(), k=k), k, name="menu")


def wine_search(k: int = GRAPHS.k) -> LazySearch:
    """The default retriever over the wine list, built on its first search."""
    return LazySearch(lambda: default_retriever(load_wines(), k=k), k, name="wine")


def menu_and_wines() -> list[Document]:
    """Every dish and every wine: the documents whose fields a query analyser reads its vocabulary from."""
    return load_menu() + load_wines()


__all__ = ["COURSES", "load_menu", "load_wines", "menu_and_wines", "menu_search",
           "menu_text", "wine_search", "wine_text"]
