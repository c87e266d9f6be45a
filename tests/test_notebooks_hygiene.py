"""Static checks on the committed notebooks: clean, executed in order, safe to share, and shaped like a chapter.

nbval (``make test``'s second command) re-runs each notebook and compares outputs, so it catches stale
outputs. These checks catch what nbval cannot: secrets and installs in cells, notebooks saved after
running cells out of order, missing learning goals or recap, names that break the chapter numbering,
exercises without a checker or with an open solution (STYLE.md, "Exercises"),
and patterns known to make nbval flaky (see notebooks/sanitize.cfg).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
NAME_PATTERN = re.compile(r"^(\d{2})_[a-z0-9]+(?:_[a-z0-9]+)*\.ipynb$")

# Never in any cell (code or markdown): installs belong in pyproject.toml, keys in the shell.
FORBIDDEN_IN_CELLS = {
    "%pip": re.compile(r"%pip\b"),
    "!pip": re.compile(r"!\s*pip\b"),
    "%conda / !conda": re.compile(r"[%!]\s*conda\b"),
    "getpass": re.compile(r"\bgetpass\b"),
}
# Things that look like a real secret, anywhere in sources or outputs.
SECRET_PATTERNS = {
    "Google API key": re.compile(r"AIza[0-9A-Za-z_\-]{30,}"),
    "OpenAI-style key": re.compile(r"\bsk-[A-Za-z0-9_\-]{20,}"),
    "Anthropic-style key": re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{10,}"),
    "bearer token": re.compile(r"\bBearer\s+[A-Za-z0-9._\-]{20,}"),
}
# Code that sets a key inside the notebook (the key must come from the shell that starts Jupyter).
KEY_ASSIGNMENT = re.compile(
    r"""\b[A-Z_]*(?:API_KEY|TOKEN|SECRET)[A-Z_]*\s*=\s*['"][^'"]+['"]"""
    r"""|os\.environ\s*\[\s*['"][A-Z_]*(?:API_KEY|TOKEN|SECRET)[A-Z_]*['"]\s*\]\s*="""
    r"""|os\.environ\.setdefault\(\s*['"][A-Z_]*(?:API_KEY|TOKEN|SECRET)"""
)
# Code patterns that make outputs non-deterministic or break nbval.
FLAKY_CODE = {
    "interact()/interactive() (nbval sees the widget's initial output as stray stdout; "
    "print the initial result and update an Output widget with .observe(), see notebooks/sanitize.cfg)":
        re.compile(r"\binteract(?:ive)?\s*\("),
    "%time/%timeit (timings differ on every run)": re.compile(r"%%?time(?:it)?\b"),
    "draw_mermaid_png() (calls a web service; use ragkit.notebook.show_graph)": re.compile(r"draw_mermaid_png"),
}
# Output text that changes on every run.
VOLATILE_OUTPUT = {
    "memory address": re.compile(r"\bat 0x[0-9a-fA-F]{6,}"),
    "UUID": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
}


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _code_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in nb.cells if cell.cell_type == "code" and cell.source.strip()]


def _output_texts(cell: nbformat.NotebookNode) -> list[str]:
    """The text of a cell's outputs (streams, text/* MIME data, errors); images and widget JSON are skipped."""
    texts: list[str] = []
    for output in cell.get("outputs", []):
        if "text" in output:
            texts.append(output["text"])
        for mime, value in output.get("data", {}).items():
            if mime.startswith("text/") and isinstance(value, str):
                texts.append(value)
        if output.get("output_type") == "error":
            texts.append(f"{output.get('ename')}: {output.get('evalue')}")
    return texts


def _where(path: Path, index: int) -> str:
    return f"{path.name}, cell {index}"


needs_notebooks = pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks yet")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_name_is_numbered_snake_case(path: Path) -> None:
    assert NAME_PATTERN.match(path.name), f"{path.name}: notebook names must look like NN_snake_case.ipynb"


@needs_notebooks
def test_notebook_numbers_are_unique() -> None:
    seen: dict[str, list[str]] = {}
    for path in NOTEBOOKS:
        match = NAME_PATTERN.match(path.name)
        if match:
            seen.setdefault(match.group(1), []).append(path.name)
    clashes = {number: names for number, names in seen.items() if len(names) > 1}
    assert not clashes, f"two notebooks share a chapter number: {clashes}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_installs_secrets_or_key_prompts(path: Path) -> None:
    nb = _read(path)
    problems: list[str] = []
    for index, cell in enumerate(nb.cells):
        for label, pattern in FORBIDDEN_IN_CELLS.items():
            if pattern.search(cell.source):
                problems.append(f"{_where(path, index)}: contains {label}")
        for label, pattern in SECRET_PATTERNS.items():
            for text in [cell.source, *_output_texts(cell)]:
                if pattern.search(text):
                    problems.append(f"{_where(path, index)}: contains what looks like a {label}")
        if cell.cell_type == "code" and KEY_ASSIGNMENT.search(cell.source):
            problems.append(f"{_where(path, index)}: sets an API key/token in code; set it in the shell instead")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_executed_top_to_bottom_once(path: Path) -> None:
    """Every code cell ran, in order, in one fresh kernel: execution counts are exactly 1..n."""
    cells = _code_cells(_read(path))
    unrun = [i for i, cell in enumerate(cells, start=1) if cell.execution_count is None]
    assert not unrun, (
        f"{path.name}: code cells number {unrun} were never executed; re-run with "
        "`jupyter nbconvert --to notebook --execute --inplace` from notebooks/"
    )
    counts = [cell.execution_count for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{path.name}: execution counts are {counts}, expected 1..{len(cells)}; the outputs are stale or "
        "were produced out of order. Restart the kernel and run all cells."
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_saved_errors(path: Path) -> None:
    nb = _read(path)
    for index, cell in enumerate(nb.cells):
        if "raises-exception" in cell.get("metadata", {}).get("tags", []):
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{_where(path, index)}: saved with an error ({errors[0].get('ename')})"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapter_shape(path: Path) -> None:
    """Title first, learning goals near the top, a recap after them, imports + seed in the first code cell."""
    nb = _read(path)
    markdown = [(i, cell.source) for i, cell in enumerate(nb.cells) if cell.cell_type == "markdown"]
    assert nb.cells and nb.cells[0].cell_type == "markdown" and nb.cells[0].source.lstrip().startswith("# "), (
        f"{path.name}: the first cell must be a markdown title ('# ...')"
    )
    goals = [i for i, text in markdown if re.search(r"learning goals", text, re.IGNORECASE) and i < 3]
    assert goals, f"{path.name}: needs a 'Learning goals' markdown cell among the first three cells"
    recaps = [i for i, text in markdown if re.search(r"^#+ .*\brecap\b", text, re.IGNORECASE | re.MULTILINE)]
    assert recaps and max(recaps) > goals[0], f"{path.name}: needs a '## Recap' markdown heading after the goals"
    code = _code_cells(nb)
    assert code and "seed_everything(" in code[0].source, (
        f"{path.name}: the first code cell should hold the imports and call seed_everything(0)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_runs_on_the_default_kernel(path: Path) -> None:
    """nbval starts the kernel named in the metadata; only `python3` exists on a fresh install and in CI."""
    kernel = _read(path).metadata.get("kernelspec", {}).get("name", "python3")
    assert kernel == "python3", f"{path.name}: kernelspec is {kernel!r}; save it with the 'python3' kernel"


# An output line longer than this wraps several times in JupyterLab (and mid-word when it has no spaces):
# wrap prose with ragkit.notebook.wrap, print JSON with show_json, and tables with show_table.
MAX_OUTPUT_LINE = 400


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_very_long_output_lines(path: Path) -> None:
    nb = _read(path)
    problems = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            texts = [output["text"]] if "text" in output else []
            plain = output.get("data", {}).get("text/plain")
            texts += [plain] if isinstance(plain, str) else []
            for text in texts:
                longest = max((len(line) for line in text.split("\n")), default=0)
                if longest > MAX_OUTPUT_LINE:
                    problems.append(f"{_where(path, index)}: an output line of {longest} characters (limit {MAX_OUTPUT_LINE})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_flaky_code_or_volatile_outputs(path: Path) -> None:
    nb = _read(path)
    problems: list[str] = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for label, pattern in FLAKY_CODE.items():
            if pattern.search(cell.source):
                problems.append(f"{_where(path, index)}: uses {label}")
        for text in _output_texts(cell):
            for label, pattern in VOLATILE_OUTPUT.items():
                if pattern.search(text):
                    problems.append(f"{_where(path, index)}: output shows a {label}, which changes every run")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------- exercises (STYLE.md, "Exercises")
MIN_EXERCISES = 2


def _tags(cell: nbformat.NotebookNode) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def exercise_problems(nb: nbformat.NotebookNode, name: str) -> list[str]:
    """What is wrong with a notebook's exercises: too few, one without a checker or solution, a solution
    that JupyterLab would show open. An exercise is four cells in a row, tagged ``exercise`` (the stub, with
    a ``# TODO``), ``checker``, ``solution`` (``"jupyter": {"source_hidden": true}``) and ``checker``."""
    cells = nb.cells
    problems: list[str] = []
    starts = [i for i, cell in enumerate(cells) if "exercise" in _tags(cell)]
    if len(starts) < MIN_EXERCISES:
        problems.append(f"{name}: {len(starts)} exercise(s); every notebook needs at least {MIN_EXERCISES} "
                        "(cells tagged 'exercise', 'checker', 'solution', 'checker')")
    for i in starts:
        following = [_tags(cells[j]) if j < len(cells) else [] for j in (i + 1, i + 2, i + 3)]
        if "# TODO" not in cells[i].source:
            problems.append(f"{name}, cell {i}: the exercise stub has no '# TODO' saying what to complete")
        if "checker" not in following[0] or "check_" not in cells[i + 1].source:
            problems.append(f"{name}, cell {i}: the exercise is not followed by a checker cell (tag 'checker', "
                            "a call to a ragkit.exercises checker)")
        if "solution" not in following[1]:
            problems.append(f"{name}, cell {i}: the checker is not followed by a solution cell (tag 'solution')")
        if "checker" not in following[2]:
            problems.append(f"{name}, cell {i}: the solution is not followed by a second checker cell")
    for i, cell in enumerate(cells):
        if "solution" in _tags(cell) and not cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"):
            problems.append(f"{name}, cell {i}: a solution cell must be collapsed: metadata "
                            '{"jupyter": {"source_hidden": true}}')
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_exercises_have_checkers_and_hidden_solutions(path: Path) -> None:
    problems = exercise_problems(_read(path), path.name)
    assert not problems, "\n".join(problems)


def test_the_exercise_rules_catch_each_problem() -> None:
    """The rules above, on small made-up notebooks: each broken one is reported."""
    from nbformat.v4 import new_code_cell, new_notebook

    def cell(tag: str, source: str = "x = 1", hidden: bool = False) -> nbformat.NotebookNode:
        c = new_code_cell(source)
        c.metadata["tags"] = [tag]
        if hidden:
            c.metadata["jupyter"] = {"source_hidden": True}
        return c

    def one() -> list[nbformat.NotebookNode]:
        return [cell("exercise", "def f(): pass  # TODO"), cell("checker", "check_f(f)"), cell("solution", hidden=True),
                cell("checker", "check_f(f)")]

    assert exercise_problems(new_notebook(cells=one() + one()), "ok") == []
    assert "1 exercise(s)" in exercise_problems(new_notebook(cells=one()), "few")[0]
    no_checker = one()
    del no_checker[1]
    assert any("not followed by a checker" in p for p in exercise_problems(new_notebook(cells=no_checker + one()), "nc"))
    shown = one()
    shown[2] = cell("solution")
    assert any("must be collapsed" in p for p in exercise_problems(new_notebook(cells=shown + one()), "open"))


# ---------------------------------------------------------------- helpers the notebooks rely on
def test_chapter_map_is_drawn_from_the_notebooks_that_exist() -> None:
    from ragkit.notebook import PLANNED_CHAPTERS, chapter_map, notebook_titles

    text = chapter_map(NOTEBOOK_DIR)
    titles = notebook_titles(NOTEBOOK_DIR)
    assert set(titles) == {p.name[:2] for p in NOTEBOOKS if NAME_PATTERN.match(p.name)}
    for number in titles:
        assert f"c{number}[" in text and "(coming)" not in text.split(f"c{number}[")[1].split("]")[0]
    for number, _ in PLANNED_CHAPTERS:
        if number not in titles:
            assert f"c{number}[" in text and "(coming)" in text.split(f"c{number}[")[1].split("]")[0]


def test_chapter_map_picture_shows_every_chapter_in_reading_order() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ragkit.notebook import chapter_rows
    from ragkit.plots import CHAPTER_MAP_SIZE, plot_chapter_map

    rows = chapter_rows(NOTEBOOK_DIR, planned=[("99", "A chapter to come")])
    fig = plot_chapter_map(rows)
    labels = [text.get_text() for text in fig.axes[0].texts if text.get_text()]  # the arrows are empty annotations
    assert [label.split("\n")[0] for label in labels] == [number for row in rows for number, _, _ in row]
    assert labels[-1].endswith("(coming)") and tuple(fig.get_size_inches()) == CHAPTER_MAP_SIZE
    plt.close("all")


def test_glossary_reads_every_tuned_default() -> None:
    import dataclasses

    from ragkit import defaults
    from ragkit.notebook import defaults_rows

    rows = {(group, name): (value, how) for group, name, value, how in defaults_rows()}
    for group in ("GRADER", "JUDGE", "ROUTER", "VERIFIER", "WRITER", "GRAPHS", "RETRIEVAL"):
        for f in dataclasses.fields(getattr(defaults, group)):
            value, how = rows[(group, f.name)]
            if not isinstance(getattr(getattr(defaults, group), f.name), dict):
                assert value == getattr(getattr(defaults, group), f.name)
            assert how.strip(), f"{group}.{f.name} has no note on how it was chosen"


def test_plots_have_fixed_sizes() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ragkit.plots import TIMELINE_SIZE, plot_route_scores, plot_timeline

    small = plot_timeline([("a", 0.01)])
    large = plot_timeline([(f"node{i}", 0.001 * i) for i in range(12)])
    scores = plot_route_scores({"menu": 0.4, "other": 0.2}, chosen="menu")
    assert tuple(small.get_size_inches()) == tuple(large.get_size_inches()) == TIMELINE_SIZE
    assert scores.get_size_inches()[0] > 0
    plt.close("all")
    with pytest.raises(ValueError, match="stream_timings"):
        plot_timeline({"path": ["a"]})


def test_node_latency_plot_reads_server_metrics() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ragkit.plots import LATENCY_SIZE, latency_rows, plot_node_latency

    summary = {"node_latency_seconds": {
        "crag/judge": {"count": 3, "mean": 0.2, "p50": 0.1, "p95": 0.5},
        "self_rag/retrieve": {"count": 2, "mean": 0.02, "p50": 0.02, "p95": 0.03}}}
    assert [r[0] for r in latency_rows(summary)] == ["crag/judge", "self_rag/retrieve"]  # slowest p95 first
    assert latency_rows(summary, graph="self_rag") == [("self_rag/retrieve", 20.0, 30.0, 2)]
    assert tuple(plot_node_latency(summary).get_size_inches()) == LATENCY_SIZE
    plt.close("all")
    with pytest.raises(ValueError, match="run a graph"):
        plot_node_latency({"node_latency_seconds": {}})


# ---------------------------------------------------------------- what a learner sees (issue 20)
GRAPH_NOTEBOOKS = [p for p in NOTEBOOKS if NAME_PATTERN.match(p.name) and 3 <= int(p.name[:2]) <= 12]
# Paths relative to the working directory break when a notebook is copied elsewhere: find files through ragkit.
RELATIVE_PATH = re.compile(r"""["']\.\./""")
# Words of the developers, not of the learner: branch names, commit hashes, machine paths.
JARGON = {
    "a branch name (\"main's\")": re.compile(r"\bmain's\b"),
    "a commit hash": re.compile(r"\b(?:commit|at|from)\s+[0-9a-f]{7,40}\b"),
    "a machine path": re.compile(r"(?:/work/|/home/\w+/|/tmp/[\w.-]+/|worktree|C:\\\\Users)"),
}


def figure_and_diagram_problems(nb: nbformat.NotebookNode, name: str) -> list[str]:
    """Outputs a learner cannot see: a figure that was never drawn (its ``<Figure size ...>`` text instead of
    the picture) and a mermaid diagram without a picture (GitHub, nbviewer and exported HTML show only text)."""
    problems = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = output.get("text", "") + "".join(v for k, v in data.items() if k.startswith("text/") and isinstance(v, str))
            if "<Figure size" in text and "image/png" not in data:
                problems.append(f"{name}, cell {index}: a figure shows as its text ('<Figure size ...>'): "
                                "display it (plt.show() or display(fig)) instead of leaving it as the cell's value")
            mermaid = "text/vnd.mermaid" in data or "<mermaid diagram>" in text
            if mermaid and not ({"image/png", "image/svg+xml"} & set(data)):
                problems.append(f"{name}, cell {index}: a mermaid diagram without a picture (use ragkit.notebook.show_graph)")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_and_diagram_is_a_picture(path: Path) -> None:
    problems = figure_and_diagram_problems(_read(path), path.name)
    assert not problems, "\n".join(problems)


def test_the_picture_rule_catches_a_figure_left_as_text_and_a_bare_diagram() -> None:
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    def with_output(data: dict) -> nbformat.NotebookNode:
        cell = new_code_cell("x")
        cell.outputs = [new_output("display_data", data=data)]
        return cell

    bad = new_notebook(cells=[with_output({"text/plain": "<Figure size 900x700 with 1 Axes>"}),
                              with_output({"text/vnd.mermaid": "graph TD;", "text/plain": "<mermaid diagram>"})])
    good = new_notebook(cells=[with_output({"text/plain": "<Figure size 9x7>", "image/png": "iVBOR"}),
                               with_output({"text/vnd.mermaid": "graph TD;", "image/png": "iVBOR"})])
    assert len(figure_and_diagram_problems(bad, "bad")) == 2 and figure_and_diagram_problems(good, "good") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_files_are_found_through_ragkit_and_no_developer_words_are_shown(path: Path) -> None:
    nb = _read(path)
    problems = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and RELATIVE_PATH.search(cell.source):
            problems.append(f"{_where(path, index)}: a path relative to the working directory ('../'); use "
                            "ragkit.data_dir() or ragkit.results_dir()")
        texts = [cell.source] if cell.cell_type == "markdown" else _output_texts(cell)
        for text in texts:
            for label, pattern in JARGON.items():
                if pattern.search(text):
                    problems.append(f"{_where(path, index)}: shows {label}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", GRAPH_NOTEBOOKS, ids=lambda p: p.name)
def test_each_graph_notebook_assembles_its_graph_and_has_a_wiring_exercise(path: Path) -> None:
    nb = _read(path)
    code = "\n".join(cell.source for cell in _code_cells(nb))
    assert "add_node(" in code and "same_shape(" in code, \
        f"{path.name}: assemble the graph cell by cell (add_node, add_edge, add_conditional_edges) and compare it " \
        "with the builder's (ragkit.notebook.same_shape)"
    checkers = [cell.source for cell in nb.cells if "checker" in _tags(cell)]
    assert any("wiring" in source for source in checkers), f"{path.name}: no wiring exercise (a checker built on check_wiring)"
