"""Loaders for the workbook's teaching data: plain files in ``data/`` turned into LangChain Documents.

Five corpora, each small enough to read in an editor and change by hand:

| name       | file                | one Document per | id        |
|------------|---------------------|------------------|-----------|
| "menu"     | ``menu.json``       | dish             | menu-01   |
| "wine"     | ``wines.json``      | wine             | wine-01   |
| "web"      | ``web/*.md``        | article          | file stem |
| "handbook" | ``handbook.md``     | ``## HB-01 ...`` | HB-01     |
| "statute"  | ``statute.md``      | ``## Article N`` | art-N     |

Every Document carries metadata ``source`` (where a citation should point), ``id`` and ``title``, plus
fields useful for filtering (price, allergens, grapes, date, part, references, ...). A loader either
returns every record of its file or raises: a missing file is a ``FileNotFoundError`` that says what was
expected, a file that cannot be parsed is a ``DataError`` naming the file and the entry or line.

Simplifications: the Markdown parsers know exactly the two heading formats this project uses (they are
not a general Markdown parser; they only skip fenced code blocks), and the web front matter is a flat
``key: value`` block, not full YAML.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Callable

from langchain_core.documents import Document

import ragkit


class DataError(ValueError):
    """A data file exists but cannot be used (bad JSON, a missing field, no sections, an empty corpus)."""


def data_dir() -> Path:
    """The folder holding the teaching data: ``$RAGKIT_DATA_DIR`` if set, else the project's ``data/``."""
    override = os.environ.get("RAGKIT_DATA_DIR")
    return Path(override).expanduser() if override else Path(ragkit.__file__).resolve().parents[1] / "data"


def _locate(path: str | Path | None, default: str, expected: str, want_dir: bool = False) -> Path:
    """Resolve a loader's path argument and fail early, saying what should be there."""
    p = Path(path) if path is not None else data_dir() / default
    if not p.exists() or (want_dir and not p.is_dir()) or (not want_dir and not p.is_file()):
        kind = "folder" if want_dir else "file"
        raise FileNotFoundError(
            f"{kind} not found: {p}. Expected {expected}. "
            "Pass a path, or set RAGKIT_DATA_DIR to the folder that holds the data files."
        )
    return p


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DataError(f"{path}: not UTF-8 text (byte {err.start}); save the file as UTF-8") from err


def _read_json(path: Path) -> Any:
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from err


def _records(path: Path, data: Any, key: str) -> list[dict[str, Any]]:
    """The list of entries under ``key`` (or the top-level list itself), checked to be non-empty dicts."""
    items = data.get(key) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise DataError(f"{path}: expected a list of entries under {key!r}")
    if not items:
        raise DataError(f"{path}: the list {key!r} is empty; add at least one entry")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise DataError(f"{path}: entry {i} of {key!r} is a {type(item).__name__}, not an object")
    return items


def _require(path: Path, entry: dict[str, Any], index: int, fields: dict[str, type | tuple[type, ...]]) -> None:
    """Check that an entry has every required field with the right type (a bool is not a number)."""
    label = f"entry {index}" + (f" ({entry['id']})" if isinstance(entry.get("id"), str) else "")
    for name, kind in fields.items():
        if name not in entry or entry[name] is None or entry[name] == "":
            raise DataError(f"{path}: {label} is missing the required field {name!r}")
        value = entry[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise DataError(f"{path}: {label} field {name!r} has type {type(value).__name__}, expected {kind}")
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            raise DataError(f"{path}: {label} field {name!r} must be a list of strings")


def _unique_ids(path: Path, docs: list[Document]) -> list[Document]:
    seen: set[str] = set()
    for doc in docs:
        if doc.metadata["id"] in seen:
            raise DataError(f"{path}: the id {doc.metadata['id']!r} is used twice; ids must be unique")
        seen.add(doc.metadata["id"])
    return docs


def _eur(amount: float) -> str:
    """A price as the menu prints it.

    >>> _eur(24.5)
    '24.50 EUR'
    """
    return f"{amount:.2f} EUR"


def _listing(items: list[str], empty: str = "none") -> str:
    return ", ".join(items) if items else empty


# ---------------------------------------------------------------- menu and wines (JSON)

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
    path = _locate(path, "menu.json", "a JSON object with 'restaurant' and a list of 'dishes'")
    data = _read_json(path)
    info = data.get("restaurant") if isinstance(data, dict) else None
    restaurant = str(info.get("name", "")) if isinstance(info, dict) else ""
    docs = []
    for i, dish in enumerate(_records(path, data, "dishes")):
        _require(path, dish, i, _MENU_FIELDS)
        if dish["course"] not in COURSES:
            raise DataError(f"{path}: entry {i} ({dish['id']}) has course {dish['course']!r}; use one of {COURSES}")
        meta = {
            "source": path.name, "id": dish["id"], "title": dish["name"], "course": dish["course"],
            "price": float(dish["price"]), "ingredients": list(dish["ingredients"]),
            "allergens": list(dish["allergens"]), "dietary": list(dish["dietary"]), "restaurant": restaurant,
        }
        docs.append(Document(page_content=menu_text(dish), metadata=meta))
    return _unique_ids(path, docs)


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
    path = _locate(path, "wines.json", "a JSON object with a list of 'wines'")
    docs = []
    for i, wine in enumerate(_records(path, _read_json(path), "wines")):
        _require(path, wine, i, _WINE_FIELDS)
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
    return _unique_ids(path, docs)


# ---------------------------------------------------------------- web snapshot (Markdown + front matter)

WEB_FIELDS = ("title", "url", "date", "topic")


def parse_front_matter(path: Path, text: str) -> tuple[dict[str, str], str]:
    """Split ``---`` / ``key: value`` lines / ``---`` from the body of a Markdown file.

    >>> parse_front_matter(Path("a.md"), "---\\ntitle: Hi\\n---\\nBody text.")
    ({'title': 'Hi'}, 'Body text.')
    """
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise DataError(f"{path}: line 1 should be '---', the start of the front matter (title, url, date, topic)")
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return meta, "\n".join(lines[number:]).strip()
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise DataError(f"{path}: line {number} of the front matter is not 'key: value': {line!r}")
        meta[key.strip().lower()] = value.strip().strip("\"'")
    raise DataError(f"{path}: the front matter that opens on line 1 is never closed with '---'")


def load_web_snapshot(path: str | Path | None = None) -> list[Document]:
    """One Document per article in ``web/*.md`` (sorted by file name); id is the file stem, source the url."""
    folder = _locate(path, "web", "a folder of Markdown articles (*.md) with front matter", want_dir=True)
    files = sorted(folder.glob("*.md"))
    if not files:
        raise DataError(f"{folder}: no Markdown articles (*.md) found; the web snapshot is empty")
    docs = []
    for file in files:
        meta, body = parse_front_matter(file, _read_text(file))
        for field in WEB_FIELDS:
            if not meta.get(field):
                raise DataError(f"{file}: the front matter is missing the required field {field!r}")
        if not body:
            raise DataError(f"{file}: the article has a front matter but no text")
        # Extra front-matter keys (author, ...) ride along; the fixed keys always win.
        fixed = {"source": meta["url"], "id": file.stem, "file": f"{folder.name}/{file.name}"}
        docs.append(Document(page_content=body, metadata={**meta, **fixed}))
    return _unique_ids(folder, docs)


# ---------------------------------------------------------------- handbook and statute (Markdown sections)

_FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_sections(text: str) -> list[tuple[int, str, str, str | None]]:
    """Split Markdown at level-2 headings, skipping fenced code: ``(line, heading, body, last level-1 heading)``.

    >>> markdown_sections("# Act\\n# Part I. Basics\\n## Article 1. Scope\\n(1) Text.\\n")
    [(3, 'Article 1. Scope', '(1) Text.', 'Part I. Basics')]
    """
    sections: list[tuple[int, str, str, str | None]] = []
    level1: str | None = None
    current: tuple[int, str, str | None] | None = None
    body: list[str] = []
    fence: str | None = None

    def close() -> None:
        if current is not None:
            sections.append((current[0], current[1], "\n".join(body).strip(), current[2]))

    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        marker = _FENCE.match(line)
        if marker and (fence is None or marker.group(1) == fence):
            fence = marker.group(1) if fence is None else None
        elif fence is None and line.startswith("## "):
            close()
            current, body = (number, line[3:].strip(), level1), []
            continue
        elif fence is None and line.startswith("# "):
            level1 = line[2:].strip()
            continue
        body.append(line)
    close()
    return sections


_HB_HEADING = re.compile(r"^(HB-\d{2,})\s*[.:\-\u2013\u2014]?\s+(\S.*)$")


def load_handbook(path: str | Path | None = None) -> list[Document]:
    """One Document per ``## HB-NN Title`` section of ``handbook.md``; metadata adds has_code."""
    path = _locate(path, "handbook.md", "Markdown with sections headed '## HB-01 Title'")
    sections = markdown_sections(_read_text(path))
    if not sections:
        raise DataError(f"{path}: no sections found; each section starts with a line like '## HB-01 Title'")
    docs = []
    for line, heading, body, _ in sections:
        match = _HB_HEADING.match(heading)
        if not match:
            raise DataError(f"{path}: line {line}: heading {heading!r} should look like '## HB-01 Title'")
        if not body:
            raise DataError(f"{path}: line {line}: section {match.group(1)} has no text")
        section_id, title = match.group(1), match.group(2).strip()
        docs.append(Document(page_content=f"{title}\n\n{body}", metadata={
            "source": path.name, "id": section_id, "title": title,
            "has_code": any(_FENCE.match(row) for row in body.splitlines()), "line": line,
        }))
    return _unique_ids(path, docs)


_ARTICLE_HEADING = re.compile(r"^Article\s+(\d+)\s*[.:\-\u2013\u2014]?\s+(\S.*)$")
_ARTICLE_REF = re.compile(r"\bArticles?\s+(\d+(?:\(\d+\))*(?:\s*(?:,|and|or|to)\s*\d+(?:\(\d+\))*)*)")


def article_references(text: str, exclude: int | None = None) -> list[int]:
    """Article numbers cited in ``text`` ("Article 12", "Article 12(3)", "Articles 4 and 6", "Articles 3 to 5").

    >>> article_references("See Article 12(3), Articles 4 and 6, and Articles 8 to 10 of this Act.", exclude=9)
    [4, 6, 8, 10, 12]
    """
    found: set[int] = set()
    for match in _ARTICLE_REF.finditer(text):
        listed = re.sub(r"\(\d+\)", "", match.group(1))
        for part in re.split(r"\s*(?:,|and|or)\s*", listed):
            bounds = [int(n) for n in re.findall(r"\d+", part)]
            if len(bounds) == 2 and bounds[0] < bounds[1] <= bounds[0] + 50:
                found.update(range(bounds[0], bounds[1] + 1))
            else:
                found.update(bounds)
    return sorted(found - {exclude})


def load_statute(path: str | Path | None = None) -> list[Document]:
    """One Document per ``## Article N. Title`` of ``statute.md``; metadata adds article, part, references."""
    path = _locate(path, "statute.md", "Markdown with articles headed '## Article 1. Title'")
    sections = markdown_sections(_read_text(path))
    if not sections:
        raise DataError(f"{path}: no articles found; each article starts with a line like '## Article 1. Title'")
    docs = []
    for line, heading, body, level1 in sections:
        match = _ARTICLE_HEADING.match(heading)
        if not match:
            raise DataError(f"{path}: line {line}: heading {heading!r} should look like '## Article 1. Title'")
        if not body:
            raise DataError(f"{path}: line {line}: Article {match.group(1)} has no text")
        number, title = int(match.group(1)), match.group(2).strip()
        part = level1 if level1 and level1.lower().startswith("part ") else None
        docs.append(Document(page_content=f"Article {number}. {title}\n\n{body}", metadata={
            "source": path.name, "id": f"art-{number}", "title": title, "article": number, "part": part,
            "references": article_references(body, exclude=number),
            "paragraphs": len(re.findall(r"^\(\d+\)", body, flags=re.MULTILINE)), "line": line,
        }))
    return _unique_ids(path, docs)


# ---------------------------------------------------------------- dispatch and the routing set

LOADERS: dict[str, Callable[..., list[Document]]] = {
    "menu": load_menu, "wine": load_wines, "web": load_web_snapshot,
    "handbook": load_handbook, "statute": load_statute,
}


def load_corpus(name: str, path: str | Path | None = None) -> list[Document]:
    """Load a corpus by name: "menu", "wine", "web", "handbook" or "statute".

    >>> len(load_corpus("menu")) == len(load_menu())
    True
    """
    key = str(name).strip().lower()
    key = {"wines": "wine", "menus": "menu"}.get(key, key)
    if key not in LOADERS:
        raise ValueError(f"unknown corpus {name!r}; choose one of {sorted(LOADERS)}")
    return LOADERS[key](path)


ROUTES = ("search_menu", "search_wine", "search_web", "llm_fallback")


def load_routing_questions(path: str | Path | None = None) -> list[dict[str, str]]:
    """The labelled routing set: a list of ``{"question": ..., "route": ...}`` with route in ``ROUTES``."""
    path = _locate(path, "routing_questions.json", "a JSON list of {'question': ..., 'route': ...}")
    items = _records(path, _read_json(path), "questions")
    for i, item in enumerate(items):
        _require(path, item, i, {"question": str, "route": str})
        if item["route"] not in ROUTES:
            raise DataError(f"{path}: entry {i} has route {item['route']!r}; use one of {ROUTES}")
    return [{"question": item["question"].strip(), "route": item["route"]} for item in items]
