"""Helpers for the notebooks: show source code, tables and graphs the way JupyterLab draws them best.

Nothing here calls a web service. ``show_graph`` (and ``show_chapter_map``) send mermaid text with the MIME
type ``text/vnd.mermaid``, which JupyterLab (4.1+) draws itself, together with a picture drawn offline with
matplotlib (``image/png``), which GitHub, nbviewer and exported HTML show; the text is shown only on request
(``echo=True`` prints it, ``echo="details"`` puts it in a collapsed block). ``show`` highlights source
with pygments (inline styles, so nothing leaks into the page's CSS) and can show one method or a range of
lines; ``show_table`` renders rows as an HTML table, with aligned plain text for nbval and terminals.
Each rich output carries a ``text/plain`` part that is identical on every run. Outside Jupyter every
helper prints plain text.

Simplification: the chapter map reads titles from the notebooks on disk and lists the planned chapters
from :data:`PLANNED_CHAPTERS`; it does not know which planned ones are half written.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import inspect
import io
import json
import random
import re
import textwrap
import tokenize
from pathlib import Path
from typing import Any, Iterable, Literal, Sequence

from ragkit.core.contract import DataNotFound
from ragkit.core.files import notebooks_dir, results_dir

MERMAID_MIME = "text/vnd.mermaid"
# The chapters after 06 that are planned but not written yet (number, short title); a notebook file with
# the number replaces its entry on the map.
PLANNED_CHAPTERS: tuple[tuple[str, str], ...] = (
    ("07", "Query analysis"), ("08", "Advanced pipeline"), ("09", "Bandit strategy choice"),
    ("10", "Supervisor multi-agent"), ("11", "Statute QA"), ("12", "Serving"),
)


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (rich display), False in a terminal, a script or a doctest."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython ships with jupyterlab
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def _display(data: dict[str, str]) -> None:
    """Display a MIME bundle in a kernel; print its ``text/plain`` part elsewhere."""
    if _in_kernel():
        from IPython.display import display

        display(data, raw=True)
    else:
        print(data["text/plain"])


# ---------------------------------------------------------------- source code
def source_of(obj: Any, part: str | None = None, lines: tuple[int, int] | None = None) -> str:
    """The dedented source of ``obj`` (or of its attribute ``part``), optionally only ``lines`` (1-based,
    inclusive, counted within that source).

    >>> source_of(source_of, lines=(1, 1))
    'def source_of(obj: Any, part: str | None = None, lines: tuple[int, int] | None = None) -> str:'
    """
    target = getattr(obj, part) if part else obj
    text = textwrap.dedent(inspect.getsource(target)).rstrip()
    if lines is not None:
        start, end = lines
        text = "\n".join(text.split("\n")[start - 1 : end])
    return text


def code_html(source: str) -> str:
    """Python source as highlighted HTML with inline styles (no stylesheet), or escaped text without pygments."""
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer
    except ImportError:  # pragma: no cover - pygments ships with IPython
        return f"<pre>{html.escape(source)}</pre>"
    return highlight(source, PythonLexer(), HtmlFormatter(noclasses=True, nobackground=True, style="default"))


def show(obj: Any, part: str | None = None, lines: tuple[int, int] | None = None) -> None:
    """Show the source of a function, class or module (highlighted in Jupyter), so a notebook shows ragkit
    instead of copying it. ``part`` picks a method (``show(LocalRouter, "route")``), ``lines`` a range.

    >>> show(show, lines=(1, 1))
    def show(obj: Any, part: str | None = None, lines: tuple[int, int] | None = None) -> None:
    """
    source = source_of(obj, part, lines)
    _display({"text/plain": source, "text/html": code_html(source)})


# ---------------------------------------------------------------- tables and long text
def _cell(value: Any, floats: str) -> str:
    if isinstance(value, float):
        return format(value, floats)
    return str(value)


def table_text(rows: Sequence[Sequence[Any]], columns: Sequence[str], floats: str = ".3f",
               wrap_at: int | None = None) -> str:
    """Rows as aligned plain text (numbers right-aligned); ``wrap_at`` wraps longer text cells onto more lines.

    >>> print(table_text([["bm25", 0.6801], ["dense", 0.6451]], ["retriever", "ndcg@10"]))
    retriever  ndcg@10
    bm25         0.680
    dense        0.645
    >>> print(table_text([["k", "documents a graph retrieves and writes from"]], ["name", "note"], wrap_at=20))
    name  note
    k     documents a graph
          retrieves and writes
          from
    """
    cells = [[_cell(v, floats) for v in row] for row in rows]
    numeric = [all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) for row in rows) if rows else False
               for i in range(len(columns))]

    def pieces(text: str, is_number: bool) -> list[str]:
        if wrap_at is None or is_number or len(text) <= wrap_at:
            return [text]
        return textwrap.wrap(text, wrap_at, break_long_words=False, break_on_hyphens=False) or [""]

    split = [[pieces(v, num) for v, num in zip(row, numeric)] for row in cells]
    widths = [max([len(c)] + [len(line) for row in split for line in row[i]]) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()

    out = [line(list(columns))]
    for row in split:
        for depth in range(max(len(parts) for parts in row)):
            out.append(line([parts[depth] if depth < len(parts) else "" for parts in row]))
    return "\n".join(out)


def table_html(rows: Sequence[Sequence[Any]], columns: Sequence[str], floats: str = ".3f") -> str:
    """Rows as a small HTML table (numbers right-aligned, text wraps inside its cell)."""
    head = "".join(f'<th style="text-align:left">{html.escape(str(c))}</th>' for c in columns)
    body = []
    for row in rows:
        tds = []
        for v in row:
            align = "right" if isinstance(v, (int, float)) and not isinstance(v, bool) else "left"
            tds.append(f'<td style="text-align:{align}">{html.escape(_cell(v, floats))}</td>')
        body.append("<tr>" + "".join(tds) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def show_table(rows: Iterable[Sequence[Any]], columns: Sequence[str], floats: str = ".3f",
               wrap_at: int | None = None) -> None:
    """Show rows as an HTML table in Jupyter (it fits the window) and as aligned text elsewhere (text cells
    longer than ``wrap_at`` characters wrapped onto more lines).

    >>> show_table([["a", 1.0]], ["name", "score"])
    name  score
    a     1.000
    """
    rows = [list(row) for row in rows]
    _display({"text/plain": table_text(rows, columns, floats, wrap_at), "text/html": table_html(rows, columns, floats)})


def wrap(text: str, width: int = 100, indent: str = "", hanging: str | None = None) -> str:
    """Wrap long text at word boundaries, paragraph by paragraph (for answers, rules, prompts and notes);
    ``hanging`` indents every line but the first (default: ``indent``).

    >>> print(wrap("answer: one two three four", width=16, hanging="        "))
    answer: one two
            three
            four
    """
    rest = indent if hanging is None else hanging
    return "\n".join(textwrap.fill(p, width, initial_indent=indent, subsequent_indent=rest,
                                   break_long_words=False, break_on_hyphens=False) if p.strip() else ""
                     for p in text.split("\n"))


def show_json(value: Any, width: int = 100) -> None:
    """Print a JSON-like value indented, one key per line, never as one long line.

    >>> show_json({"a": 1, "b": [1, 2]})
    {
      "a": 1,
      "b": [1, 2]
    }
    """
    text = json.dumps(value, indent=2, ensure_ascii=False)
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
    print("\n".join(line if len(line) <= width else wrap(line, width, indent=" " * (len(line) - len(line.lstrip())))
                    for line in text.split("\n")))


# ---------------------------------------------------------------- saved results
def saved_results(name: str, command: str) -> Any:
    """A saved benchmark result, read from :func:`ragkit.results_dir` (never relative to the working folder);
    when the file is missing, a ``DataNotFound`` that says which ``command`` makes it.

    >>> saved_results("crag_squad2.json", "python benchmarks/crag/squad2_eval.py")["command"].split()[-2:]
    ['--seed', '0']
    """
    path = results_dir() / name
    if not path.is_file():
        raise DataNotFound(f"no saved results {name} in {path.parent}: make them with `{command}` from the project "
                           "folder (or set RAGKIT_RESULTS_DIR to a folder that holds them)")
    return json.loads(path.read_text(encoding="utf-8"))


REFUSAL_COMMAND = ("HF_HUB_OFFLINE=1 python benchmarks/refusal/risk_coverage.py --split tune, "
                   "then --split report")


def saved_curve(graph: str) -> tuple[str, dict, str]:
    """One graph's saved risk-coverage curve (``refusal_risk_coverage.json``, the report split first, else the
    tune split): ``(split, curve, command that made it)``. A missing file or curve is a ``DataNotFound`` naming
    the command that makes it.

    >>> split, curve, command = saved_curve("crag")
    >>> split, "points" in curve, "risk_coverage.py" in command
    ('report', True, True)
    """
    splits = saved_results("refusal_risk_coverage.json", REFUSAL_COMMAND).get("splits", {})
    for split in ("report", "tune"):
        saved = splits.get(split, {})
        if graph in saved.get("curves", {}):
            command = saved.get("commands", {}).get(graph, saved.get("command", REFUSAL_COMMAND))
            return split, saved["curves"][graph], command
    raise DataNotFound(f"no risk-coverage curve for {graph} in refusal_risk_coverage.json: make it with "
                       f"`{REFUSAL_COMMAND} --graphs {graph}` from the project folder")


# ---------------------------------------------------------------- mermaid
Echo = bool | Literal["details"]


def mermaid(text: str, echo: Echo = False) -> None:
    """Render mermaid text in JupyterLab (MIME ``text/vnd.mermaid``). ``echo=True`` also prints the text;
    ``echo="details"`` shows it in a collapsed block. Outside Jupyter the text is printed."""
    text = text.strip()
    if not _in_kernel():
        print(text)
        return
    from IPython.display import display

    display({MERMAID_MIME: text, "text/plain": "<mermaid diagram>"}, raw=True)
    if echo == "details":
        block = f"<details><summary>mermaid text</summary><pre>{html.escape(text)}</pre></details>"
        display({"text/html": block, "text/plain": "<mermaid text in a collapsed block>"}, raw=True)
    elif echo:
        print(text)


def sequence_mermaid(participants: Sequence[tuple[str, str]], messages: Sequence[tuple[str, str, str, bool]]) -> str:
    """Mermaid text of a sequence diagram: ``(id, label)`` participants, ``(sender, receiver, text, reply)`` messages.

    >>> print(sequence_mermaid([("U", "User"), ("M", "Model")], [("U", "M", "hello", False), ("M", "U", "hi", True)]))
    sequenceDiagram
        participant U as User
        participant M as Model
        U->>M: hello
        M-->>U: hi
    """
    lines = ["sequenceDiagram", *(f"    participant {pid} as {label}" for pid, label in participants)]
    lines += [f"    {a}{'-->>' if reply else '->>'}{b}: {text}" for a, b, text, reply in messages]
    return "\n".join(lines)


def show_sequence(participants: Sequence[tuple[str, str]], messages: Sequence[tuple[str, str, str, bool]]) -> None:
    """Show a sequence diagram: JupyterLab draws its mermaid text; GitHub, nbviewer and exported HTML show the
    picture drawn offline (:func:`ragkit.plots.plot_sequence`) with it. Outside Jupyter the text is printed."""
    text = sequence_mermaid(participants, messages)
    if not _in_kernel():
        print(text)
        return
    import base64

    from IPython.display import display

    from ragkit.plots import plot_sequence

    png = base64.b64encode(figure_png(plot_sequence(participants, messages))).decode("ascii")
    display({MERMAID_MIME: text, "image/png": png, "text/plain": "<sequence: mermaid diagram and picture>"}, raw=True)


def graph_mermaid(graph: Any, xray: bool = False, direction: str | None = None) -> str:
    """Mermaid text of a compiled LangGraph graph (or a ``StateGraph``), as LangGraph draws it.

    LangGraph always draws top-down (``graph TD;``); ``direction="LR"`` lays the graph out left to right,
    which fits a screen better for long, branching graphs.
    """
    if hasattr(graph, "get_graph"):
        drawable = graph.get_graph(xray=xray)
    elif hasattr(graph, "compile"):
        drawable = graph.compile().get_graph(xray=xray)
    else:
        drawable = graph
    text = drawable.draw_mermaid()
    if direction is not None:
        if direction not in ("TD", "TB", "LR", "RL", "BT"):
            raise ValueError(f"direction must be one of TD, TB, LR, RL, BT; got {direction!r}")
        text = text.replace("graph TD;", f"graph {direction};", 1)
    return text


def figure_png(fig: Any) -> bytes:
    """A matplotlib figure as PNG bytes (the figure is closed, so it is not drawn a second time)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return buffer.getvalue()


def graph_png(graph: Any) -> bytes:
    """The graph drawn offline with matplotlib (:func:`ragkit.plots.plot_graph`), as PNG bytes."""
    from ragkit.plots import plot_graph

    return figure_png(plot_graph(graph))


def show_graph(graph: Any, xray: bool = False, echo: Echo = False, direction: str | None = None) -> None:
    """Show a LangGraph graph: JupyterLab draws its mermaid text; GitHub, nbviewer and exported HTML show the
    picture drawn offline with it (one output, two forms). Never calls mermaid.ink."""
    text = graph_mermaid(graph, xray=xray, direction=direction).strip()
    if not _in_kernel():
        print(text)
        return
    from IPython.display import display

    png = base64.b64encode(graph_png(graph)).decode("ascii")
    display({MERMAID_MIME: text, "image/png": png, "text/plain": "<graph: mermaid diagram and picture>"}, raw=True)
    if echo == "details":
        block = f"<details><summary>mermaid text</summary><pre>{html.escape(text)}</pre></details>"
        display({"text/html": block, "text/plain": "<mermaid text in a collapsed block>"}, raw=True)
    elif echo:
        print(text)


def graph_shape(graph: Any) -> tuple[list[str], list[tuple[str, str, bool]]]:
    """A graph's nodes and edges (source, target, conditional), sorted: what two graphs must share to be the same.

    >>> from langgraph.graph import END, START, StateGraph
    >>> g = StateGraph(dict).add_node("a", lambda s: s).add_edge(START, "a").add_edge("a", END)
    >>> graph_shape(g)
    (['__end__', '__start__', 'a'], [('__start__', 'a', False), ('a', '__end__', False)])
    """
    drawable = graph.get_graph() if hasattr(graph, "get_graph") else graph.compile().get_graph()
    edges = sorted((e.source, e.target, bool(e.conditional)) for e in drawable.edges)
    return sorted(drawable.nodes), edges


def same_shape(mine: Any, reference: Any) -> str:
    """"same shape" when two graphs have the same nodes and edges, else what differs, in words.

    The notebooks build each graph cell by cell and check it against the builder's with this.
    """
    (nodes_a, edges_a), (nodes_b, edges_b) = graph_shape(mine), graph_shape(reference)
    problems = []
    if set(nodes_b) - set(nodes_a):
        problems.append(f"missing nodes {sorted(set(nodes_b) - set(nodes_a))}")
    if set(nodes_a) - set(nodes_b):
        problems.append(f"extra nodes {sorted(set(nodes_a) - set(nodes_b))}")
    if set(edges_b) - set(edges_a):
        problems.append(f"missing edges {sorted(set(edges_b) - set(edges_a))}")
    if set(edges_a) - set(edges_b):
        problems.append(f"extra edges {sorted(set(edges_a) - set(edges_b))}")
    return "; ".join(problems) or "same shape"


def notebook_titles(directory: Path | str | None = None) -> dict[str, str]:
    """``{"00": "Welcome to the ragkit workbook", ...}`` from the first heading of each ``NN_*.ipynb``."""
    titles: dict[str, str] = {}
    for path in sorted(Path(directory or notebooks_dir()).glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        first = "".join(cells[0]["source"]) if cells else ""
        match = re.match(r"#\s*\d+\s*[·.:-]?\s*(.+)", first.strip().split("\n")[0])
        titles[path.name[:2]] = match.group(1).strip() if match else path.stem[3:].replace("_", " ")
    return titles


def chapter_rows(directory: Path | str | None = None, planned: Sequence[tuple[str, str]] = PLANNED_CHAPTERS,
                 per_row: int = 4) -> list[list[tuple[str, str, bool]]]:
    """The chapters in rows of ``per_row``, each ``(number, short title, coming)``: the notebooks that exist,
    then the planned ones. Titles are cut at the first colon, so labels stay short."""
    titles = notebook_titles(directory)
    chapters = [(n, t.split(":")[0].strip(), False) for n, t in titles.items()]
    chapters += [(n, t, True) for n, t in planned if n not in titles]
    chapters.sort()
    ready = [c for c in chapters if not c[2]]
    coming = [c for c in chapters if c[2]]
    rows = [ready[i : i + per_row] for i in range(0, len(ready), per_row)]
    return rows + [coming[i : i + per_row] for i in range(0, len(coming), per_row)]


def chapter_map(directory: Path | str | None = None, planned: Sequence[tuple[str, str]] = PLANNED_CHAPTERS,
                per_row: int = 4) -> str:
    """Mermaid text of the chapter map (:func:`chapter_rows`): the chapters of a row left to right, the rows
    top to bottom, the planned chapters marked "coming"."""
    rows = chapter_rows(directory, planned, per_row)
    lines = ["flowchart TB"]
    for r, row in enumerate(rows):
        kind = "coming" if row[0][2] else "ready"
        lines.append(f'    subgraph row{r}[" "]')
        lines.append("        direction LR")
        for number, title, later in row:
            label = (f"{number} {title}" + (" (coming)" if later else "")).replace('"', "'")
            lines.append(f'        c{number}["{label}"]:::{kind}')
        if len(row) > 1:
            lines.append("        " + " --> ".join(f"c{n}" for n, _, _ in row))
        lines.append("    end")
    # Link the rows, not their nodes: mermaid ignores a subgraph's direction once an edge leaves it.
    lines += [f"    row{r} --> row{r + 1}" for r in range(len(rows) - 1)]
    lines += ["    classDef ready fill:#e8e4ff,stroke:#7b6cf6", "    classDef coming fill:#f4f4f4,stroke:#aaa,stroke-dasharray: 4 3,color:#666"]
    return "\n".join(lines)


def show_chapter_map(directory: Path | str | None = None, per_row: int = 4) -> None:
    """Show the chapter map like :func:`show_graph` shows a graph: mermaid for JupyterLab and a picture drawn
    offline (:func:`ragkit.plots.plot_chapter_map`) for GitHub, nbviewer and exported HTML."""
    text = chapter_map(directory, per_row=per_row)
    if not _in_kernel():
        print(text)
        return
    from ragkit.plots import plot_chapter_map

    png = base64.b64encode(figure_png(plot_chapter_map(chapter_rows(directory, per_row=per_row)))).decode("ascii")
    _display({MERMAID_MIME: text, "image/png": png, "text/plain": "<chapter map: mermaid diagram and picture>"})


# ---------------------------------------------------------------- ragkit.defaults, for the glossary
def _field_comments(cls: type) -> dict[str, str]:
    """The comments written for each field of a dataclass, by field name: a comment block applies to the
    fields below it until the next block; an inline comment is added to its own field."""
    source = textwrap.dedent(inspect.getsource(cls))
    comments: dict[str, str] = {}
    block: list[str] = []
    in_block = False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            block = block + [stripped.lstrip("# ").strip()] if in_block else [stripped.lstrip("# ").strip()]
            in_block = True
            continue
        in_block = False
        match = re.match(r"(\w+)\s*:", stripped)
        if match and not stripped.startswith(("def ", "class ")):
            inline = ""
            try:
                tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
                inline = next((t.string.lstrip("# ").strip() for t in tokens if t.type == tokenize.COMMENT), "")
            except (tokenize.TokenError, IndentationError):
                pass
            text = " ".join(([inline.rstrip(".") + "." if block else inline] if inline else []) + block)
            if text:
                comments[match.group(1)] = text
    return comments


def _docstring_note(cls: type, field_name: str) -> str:
    """The docstring sentence that names the field, else the docstring's first paragraph."""
    doc = " ".join((inspect.getdoc(cls) or "").split())
    sentences = re.split(r"(?<=[.;])\s+", doc)
    named = [s for s in sentences if re.search(rf"\b{re.escape(field_name)}\b", s)]
    return " ".join(named) if named else " ".join((inspect.getdoc(cls) or "").split("\n\n")[0].split())


def defaults_rows() -> list[list[Any]]:
    """One row per tuned default in :mod:`ragkit.defaults`: group, name, value, and how it was chosen (the
    comment next to the field, else the first line of the group's docstring), read from the module itself."""
    from ragkit import defaults

    rows: list[list[Any]] = []
    for name in sorted(n for n in dir(defaults) if n.isupper()):
        value = getattr(defaults, name)
        if not dataclasses.is_dataclass(value):
            continue
        cls = type(value)
        comments = _field_comments(cls)
        for f in dataclasses.fields(value):
            setting = getattr(value, f.name)
            shown = ", ".join(f"{k} {v}" for k, v in setting.items()) if isinstance(setting, dict) else setting
            note = comments.get(f.name) or _docstring_note(cls, f.name)
            rows.append([name, f.name, shown, note.replace("``", "`")])  # reStructuredText quotes -> Markdown's
    return rows


def seed_everything(seed: int = 0) -> None:
    """Seed Python's and NumPy's random generators (and torch's, when it is loaded) for repeatable cells."""
    import sys

    import numpy as np

    random.seed(seed)
    np.random.seed(seed)
    if "torch" in sys.modules:
        sys.modules["torch"].manual_seed(seed)
