"""Files: where the teaching data is, and reading it with errors that name the file.

- **where the workbook is**: :func:`data_dir`, :func:`results_dir` and :func:`notebooks_dir` (notebooks and
  benchmarks find files through these, never through ``../``). First match wins: the kind's variable
  (``RAGKIT_DATA_DIR``, ``RAGKIT_RESULTS_DIR``, ``RAGKIT_NOTEBOOKS_DIR``), a learner's copy made by
  ``ragkit workbook DEST`` (the current folder or its parent holds ``ragkit-workbook.json``), the checkout
  ragkit runs from, the copy inside the installed package (``ragkit/_workbook``); else :class:`DataNotFound`
  naming the variable and the fix. :func:`locate` resolves a loader's path argument the same way;
- **reading**: :func:`read_json` and :func:`read_text` turn encoding and syntax errors into a
  :class:`DataError` naming the file and line; :func:`records`, :func:`require` and :func:`unique_ids`
  check a JSON list's entries; :func:`markdown_sections` splits Markdown at its headings (the corpora's
  loaders and ``ragkit ingest`` both read Markdown with it).

Saving and loading a retriever's index folder is :mod:`ragkit.core.saved_index`.

What it cannot do: the checks are hand-written for flat records (a field's type, no nested schema; a
project with many formats would use pydantic or JSON Schema), and the Markdown splitter knows ATX headings
(``#`` to ``######``) and fenced code only: setext headings (a line underlined with ``===``), HTML blocks and
indented code are read as plain lines.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from ragkit.core.contract import DataError, DataNotFound
from ragkit.core.nlp import FENCE

PACKAGE = Path(__file__).resolve().parents[1]  # the installed ragkit folder


WORKBOOK_MARKER = "ragkit-workbook.json"  # written by ``ragkit workbook DEST`` at the top of the copy
# kind -> (its variable, its folder inside a workbook root, what it holds)
KINDS: dict[str, tuple[str, str, str]] = {
    "data": ("RAGKIT_DATA_DIR", "data", "the teaching data (menu.json, handbook.md, statute.md, web/, eval/, ...)"),
    "results": ("RAGKIT_RESULTS_DIR", "benchmarks/results", "the saved benchmark results the notebooks read (*.json)"),
    "notebooks": ("RAGKIT_NOTEBOOKS_DIR", "notebooks", "the numbered notebooks (00_welcome.ipynb ... 12_serving.ipynb)"),
}


def checkout_root() -> Path | None:
    """The project folder when ragkit runs from a checkout (``pyproject.toml`` beside the package), else None."""
    root = PACKAGE.parent
    return root if (root / "pyproject.toml").is_file() else None


def packaged_root() -> Path:
    """The workbook copy inside the installed package: ``ragkit/_workbook`` (only a built wheel has it)."""
    return PACKAGE / "_workbook"


def workbook_dir(kind: str) -> Path:
    """The folder of one kind of workbook file ("data", "results" or "notebooks"); raises DataNotFound."""
    variable, relative, holds = KINDS[kind]
    override = os.environ.get(variable)
    if override:
        path = Path(override).expanduser()
        if not path.is_dir():
            raise DataNotFound(
                f"{variable}={override} is not a folder. Expected {holds}. Fix: set {variable} to the folder "
                f"that holds them, or unset it to use the workbook's own copy."
            )
        return path
    here, checkout = Path.cwd(), checkout_root()
    copies = [folder for folder in (here, here.parent) if (folder / WORKBOOK_MARKER).is_file()]
    tried = [root / relative for root in (*copies[:1], *([checkout] if checkout else []), packaged_root())]
    for path in tried:
        if path.is_dir():
            return path
    raise DataNotFound(
        f"no {kind} folder found; looked in {', '.join(str(p) for p in tried)}. Expected {holds}. Fix: set "
        f"{variable} to the folder that holds them, or reinstall ragkit from its wheel, which carries the "
        "workbook (pip install --force-reinstall ragkit-<version>-py3-none-any.whl; PyPI's \"ragkit\" is "
        "another project), or run from a checkout."
    )


def data_dir() -> Path:
    """The folder holding the teaching data (``RAGKIT_DATA_DIR``, a workbook copy, the checkout, the package).

    >>> (data_dir() / "menu.json").is_file()
    True
    """
    return workbook_dir("data")


def results_dir() -> Path:
    """The folder of saved benchmark results the notebooks read (``benchmarks/results``; ``RAGKIT_RESULTS_DIR``).

    >>> (results_dir() / "crag_squad2.json").is_file()
    True
    """
    return workbook_dir("results")


def notebooks_dir() -> Path:
    """The folder of the numbered notebooks (``notebooks/``; ``RAGKIT_NOTEBOOKS_DIR``).

    >>> (notebooks_dir() / "00_welcome.ipynb").is_file()
    True
    """
    return workbook_dir("notebooks")


def locate(path: str | Path | None, default: str, expected: str, want_dir: bool = False) -> Path:
    """Resolve a loader's path argument and fail early, saying what should be there."""
    p = Path(path) if path is not None else data_dir() / default
    if not p.exists() or (want_dir and not p.is_dir()) or (not want_dir and not p.is_file()):
        kind = "folder" if want_dir else "file"
        raise DataNotFound(
            f"{kind} not found: {p}. Expected {expected}. "
            "Pass a path, or set RAGKIT_DATA_DIR to the folder that holds the data files."
        )
    return p


def unwritable(folder: Path) -> str | None:
    """Why ``folder`` (made first if missing) cannot take new files, or None when it can: a file is written there
    and removed, which also catches what a permission check misses (a read-only mount, root squashing).

    >>> import tempfile
    >>> unwritable(Path(tempfile.mkdtemp())) is None
    True
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        return str(err.strerror or err)
    return None


def read_text(path: Path) -> str:
    """The file's text, or a DataError saying it is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DataError(f"{path}: not UTF-8 text (byte {err.start}); save the file as UTF-8") from err


def read_json(path: Path) -> Any:
    """The parsed JSON of a file, or a DataError naming the line and column of the syntax error."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from err


def records(path: Path, data: Any, key: str) -> list[dict[str, Any]]:
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


def require(path: Path, entry: dict[str, Any], index: int, fields: dict[str, type | tuple[type, ...]]) -> None:
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


def unique_ids(path: Path, docs: list[Document]) -> list[Document]:
    """Return ``docs`` unchanged, or raise a DataError naming the first id used twice."""
    seen: set[str] = set()
    for doc in docs:
        if doc.metadata["id"] in seen:
            raise DataError(f"{path}: the id {doc.metadata['id']!r} is used twice; ids must be unique")
        seen.add(doc.metadata["id"])
    return docs


# ---------------------------------------------------------------- Markdown sections
_ATX = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")  # "## Title", optional closing " ##" (CommonMark)


@dataclass(frozen=True)
class Section:
    """One section of a Markdown text: its heading, the headings it sits under, and the text under it."""

    line: int  # the heading's line, counting from 1 (1 for the text before the first heading)
    level: int  # 1 to 6 for "#" to "######"; 0 for the text before the first heading
    heading: str  # the heading's text ("" for the text before the first heading)
    parents: tuple[str, ...]  # the headings it sits under, outermost first
    body: str  # the lines under the heading up to the next cut, stripped (deeper headings stay in it)


def markdown_sections(text: str, depth: int = 6) -> list[Section]:
    """Split Markdown at its ATX headings of level 1 to ``depth``, outside fenced code.

    Text before the first heading is a level-0 section when there is any; a heading deeper than ``depth``
    stays in its section's body as a line of text.

    >>> [(s.line, s.heading, s.parents, s.body) for s in markdown_sections("# Act\\n# Part I\\n## Article 1\\n(1) Text.")]
    [(1, 'Act', (), ''), (2, 'Part I', (), ''), (3, 'Article 1', ('Part I',), '(1) Text.')]
    >>> [(s.level, s.heading, s.body) for s in markdown_sections("Lead.\\n## A\\n### A.1\\nx\\n```\\n## code\\n```", depth=2)]
    [(0, '', 'Lead.'), (2, 'A', '### A.1\\nx\\n```\\n## code\\n```')]
    >>> [s.heading for s in markdown_sections("## Using C#\\n## Title ##")]  # a closing "#" run follows a space
    ['Using C#', 'Title']
    """
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []  # the open headings: (level, text)
    line_no, body = 1, []
    fence: str | None = None

    def close() -> None:
        content = "\n".join(body).strip()
        if stack or content:
            level, heading = stack[-1] if stack else (0, "")
            sections.append(Section(line_no, level, heading, tuple(h for _, h in stack[:-1]), content))

    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        marker = FENCE.match(line)
        if marker and (fence is None or marker.group(1) == fence):
            fence = marker.group(1) if fence is None else None
        match = _ATX.match(line) if fence is None and not marker else None
        if match and match.group(2) and len(match.group(1)) <= depth:
            close()
            level = len(match.group(1))
            stack = [(lv, h) for lv, h in stack if lv < level] + [(level, match.group(2))]
            line_no, body = number, []
            continue
        body.append(line)
    close()
    return sections
