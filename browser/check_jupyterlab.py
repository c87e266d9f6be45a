"""What a learner sees: open every notebook in JupyterLab in headless Chromium, run it, save it, reopen it.

    make browser                         # every notebook (slow: each one runs in the browser's kernel)
    make browser NB_PREFIX=03             # one notebook (a name prefix)

For each notebook, on a scratch copy of notebooks/ (the committed files are never touched), it checks:

1. *before running*: every committed widget output shows a widget (the saved widget state matches the
   outputs), not "Error displaying widget" and not a raw ``VBox(children=...)`` text;
2. *after Run All*: no cell is still running or raised an error, every mermaid output became an SVG diagram,
   and every widget output shows a live widget;
3. *after saving, shutting the kernel down and reopening* (what a learner does the next day): every widget is
   restored from the state saved in the file, and no "model not found" anywhere.

It saves a screenshot per step to build/screenshots/ and writes build/browser_check.json; the exit code is
the number of notebooks with a problem. Needs Debian's ``chromium`` and ``chromium-driver`` and the
``selenium`` package (``make browser`` installs them). JupyterLab runs from .venv with the project's
settings (jupyter/overrides.json), exactly as ``make lab`` starts it.

Simplification: it checks the DOM (classes JupyterLab 4 and ipywidgets 8 give their outputs), not pixels.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from ragkit.server.background import free_port

ROOT = Path(__file__).resolve().parents[1]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MERMAID_MIME = "text/vnd.mermaid"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# JavaScript run in the page: what the notebook panel shows right now.
SNAPSHOT_JS = """
const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
if (!panel) { return null; }
const text = panel.innerText || '';
const prompts = [...panel.querySelectorAll('.jp-InputArea-prompt')].map(p => p.innerText.trim());
// Execution counts from the notebook model (a collapsed solution cell shows no prompt in the DOM).
const current = window.jupyterapp && window.jupyterapp.shell.currentWidget;
const cellList = current && current.content && current.content.model ? current.content.model.cells : null;
const codeCells = [];
if (cellList) { for (let i = 0; i < cellList.length; i++) { const c = cellList.get(i); if (c.type === 'code') { codeCells.push(c); } } }
return {
  cells: panel.querySelectorAll('.jp-Cell').length,
  running: prompts.filter(p => p.includes('*')).length,
  code_cells: codeCells.length,
  executed: codeCells.filter(c => c.executionCount !== null && c.executionCount !== undefined).length,
  mermaid_outputs: panel.querySelectorAll('.jp-RenderedMermaid').length,
  mermaid_svgs: panel.querySelectorAll('.jp-RenderedMermaid svg, .jp-RenderedMermaid img[src^="data:image/svg"]').length,
  widgets: panel.querySelectorAll('.jp-OutputArea-output .widget-container, .jp-OutputArea-output .jupyter-widgets.widget-inline-hbox, .jp-OutputArea-output .lm-Widget.jupyter-widgets').length,
  widget_errors: (text.match(/Error displaying widget/g) || []).length,
  model_not_found: (text.match(/model not found/g) || []).length,
  raw_widget_text: (text.match(/VBox\\(children=|HBox\\(children=/g) || []).length,
  errors: panel.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]').length,
  kernel_idle: !!document.querySelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]') ||
               !!document.querySelector('[data-status="idle"]'),
};
"""


def expected(path: Path) -> dict[str, int]:
    """How many widget and mermaid outputs the committed notebook has."""
    nb = nbformat.read(path, as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if "data" in o]
    return {"widgets": sum(WIDGET_MIME in o["data"] for o in outputs),
            "mermaid": sum(MERMAID_MIME in o["data"] for o in outputs)}


def scratch_copy(workdir: Path) -> Path:
    """notebooks/ copied, with data/ and benchmarks/ linked beside it (notebooks read ../data, ../benchmarks)."""
    shutil.copytree(ROOT / "notebooks", workdir / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for name in ("data", "benchmarks", "ragkit"):
        (workdir / name).symlink_to(ROOT / name)
    # `make lab` trusts the workbook's notebooks (JupyterLab renders widgets only in trusted outputs).
    jupyter = Path(sys.executable).with_name("jupyter")
    subprocess.run([str(jupyter), "trust", *map(str, sorted((workdir / "notebooks").glob("[0-9][0-9]_*.ipynb")))],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return workdir / "notebooks"


def start_lab(notebook_dir: Path, port: int, token: str, settings_dir: Path) -> subprocess.Popen:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "RAGKIT_PROGRESS": "0",
           "JUPYTERLAB_SETTINGS_DIR": str(settings_dir), "JUPYTERLAB_WORKSPACES_DIR": str(settings_dir / "workspaces")}
    for key in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        env.pop(key, None)
    lab = Path(sys.executable).with_name("jupyter")
    cmd = [str(lab), "lab", f"--notebook-dir={notebook_dir}", f"--port={port}", "--no-browser",
           f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True", "--ServerApp.open_browser=False"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--disable-gpu", "--no-first-run"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def wait_for(driver, condition, seconds: float, step: float = 0.5):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        last = driver.execute_script(SNAPSHOT_JS)
        if last and condition(last):
            return last
        time.sleep(step)
    return last


def command(driver, name: str) -> None:
    driver.execute_script(f"return window.jupyterapp.commands.execute('{name}')")


def open_notebook(driver, base: str, token: str, name: str) -> dict:
    driver.get(f"{base}/lab/tree/{name}?token={token}&reset")
    return wait_for(driver, lambda s: s["cells"] > 0, 120)


def check_notebook(driver, base: str, token: str, path: Path, shots: Path, run_seconds: float) -> dict:
    want = expected(path)
    stem = path.stem
    report: dict = {"notebook": path.name, "expected": want, "problems": []}
    problems = report["problems"]

    def settled(s: dict) -> bool:  # kernel up, diagrams drawn, saved widgets restored (or failed visibly)
        widgets_done = not want["widgets"] or s["widgets"] > 0 or s["widget_errors"] or s["model_not_found"]
        return s["kernel_idle"] and s["mermaid_svgs"] >= want["mermaid"] and widgets_done

    open_notebook(driver, base, token, path.name)
    before = wait_for(driver, settled, 90)
    driver.save_screenshot(str(shots / f"{stem}-1-opened.png"))
    report["before"] = before
    if before["widget_errors"] or before["model_not_found"]:
        problems.append(f"before running: {before['widget_errors']} widget errors / model not found")
    if want["widgets"] and before["raw_widget_text"]:
        problems.append("before running: widgets show as raw text (no saved widget state)")

    # Run All in the browser's kernel, then wait until nothing is running.
    wait_for(driver, lambda s: s["kernel_idle"], 120)
    command(driver, "notebook:clear-all-cell-outputs")  # so every execution count below comes from this run
    time.sleep(1)
    cleared = driver.execute_script(SNAPSHOT_JS)
    if cleared["executed"]:
        problems.append(f"clearing the outputs left {cleared['executed']} execution counts")
    command(driver, "notebook:run-all-cells")
    time.sleep(2)
    after = wait_for(driver, lambda s: s["running"] == 0 and s["kernel_idle"] and s["executed"] == s["code_cells"],
                     run_seconds, step=2)
    time.sleep(2)
    after = driver.execute_script(SNAPSHOT_JS)
    driver.save_screenshot(str(shots / f"{stem}-2-ran.png"))
    report["after_run"] = after
    if after["running"] or after["executed"] < after["code_cells"]:
        problems.append(f"after {run_seconds:.0f} s, {after['executed']} of {after['code_cells']} code cells ran")
    if after["errors"]:
        problems.append(f"{after['errors']} cells raised an error")
    if after["mermaid_svgs"] < want["mermaid"]:
        problems.append(f"{after['mermaid_svgs']} mermaid diagrams drawn as SVG, {want['mermaid']} expected")
    if want["widgets"] and after["widgets"] < 1:
        problems.append("no live widget after running")
    if after["widget_errors"] or after["model_not_found"]:
        problems.append("after running: 'Error displaying widget' / 'model not found'")

    # Save (what autosave does), shut the kernel down, then reopen in a fresh page: a new kernel has no widget
    # models, so the widgets can only come from the state saved in the file.
    command(driver, "docmanager:save")
    time.sleep(3)
    command(driver, "kernelmenu:shutdown")
    time.sleep(3)
    open_notebook(driver, base, token, path.name)
    reopened = wait_for(driver, settled, 90)
    driver.save_screenshot(str(shots / f"{stem}-3-reopened.png"))
    report["reopened"] = reopened
    if want["widgets"] and not reopened["widgets"]:
        problems.append("after saving and reopening: no widget restored from the saved state")
    if reopened["model_not_found"] or reopened["widget_errors"]:
        problems.append("after saving and reopening: 'model not found' / 'Error displaying widget'")
    if reopened["mermaid_svgs"] < want["mermaid"]:
        problems.append("after reopening: mermaid outputs not drawn")
    command(driver, "kernelmenu:shutdown")
    time.sleep(2)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nb", default="", help="only notebooks whose name starts with this")
    parser.add_argument("--run-seconds", type=float, default=900, help="how long one notebook may run")
    parser.add_argument("--out", type=Path, default=ROOT / "build")
    args = parser.parse_args(argv)
    for tool in (CHROMIUM, DRIVER):
        if not Path(tool).exists():
            print(f"missing {tool}: apt-get install chromium chromium-driver (make browser does it)", file=sys.stderr)
            return 2
    shots = args.out / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="ragkit-browser-"))
    notebook_dir = scratch_copy(work)
    settings = work / "lab-settings"
    # Render every cell (JupyterLab 4 only renders the cells in view by default), so the DOM holds all outputs.
    tracker = settings / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}), encoding="utf-8")
    news = settings / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}), encoding="utf-8")
    port, token = free_port(), secrets.token_hex(16)
    lab = start_lab(notebook_dir, port, token, settings)
    base = f"http://127.0.0.1:{port}"
    reports = []
    driver = None
    try:
        import httpx

        for _ in range(120):
            try:
                if httpx.get(f"{base}/api/status?token={token}", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        driver = browser()
        for path in sorted(notebook_dir.glob("[0-9][0-9]_*.ipynb")):
            if args.nb and not path.name.startswith(args.nb):
                continue
            started = time.monotonic()
            report = check_notebook(driver, base, token, path, shots, args.run_seconds)
            report["seconds"] = round(time.monotonic() - started, 1)
            reports.append(report)
            status = "ok" if not report["problems"] else "PROBLEMS: " + "; ".join(report["problems"])
            print(f"{path.name:<32} {status}", flush=True)
    finally:
        if driver is not None:
            driver.quit()
        os.killpg(lab.pid, 15)
        lab.wait(timeout=30)
    (args.out / "browser_check.json").write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
    failed = sum(bool(r["problems"]) for r in reports)
    print(f"{len(reports) - failed}/{len(reports)} notebooks ok; screenshots in {shots}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
