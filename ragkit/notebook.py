"""Helpers for the notebooks: show source code and render graphs with JupyterLab's own mermaid renderer.

Nothing here calls a web service: ``show_graph`` sends mermaid text with the MIME type
``text/vnd.mermaid``, which JupyterLab (4.1+) draws itself, and prints the same text so it can be read,
diffed and checked by nbval. Outside Jupyter only the text is printed.
"""

from __future__ import annotations

import inspect
import random
from typing import Any

MERMAID_MIME = "text/vnd.mermaid"


def show(obj: Any) -> None:
    """Print the source code of a function, class or module, so a notebook shows ragkit instead of copying it.

    >>> show(show)  # doctest: +ELLIPSIS
    def show(obj: Any) -> None:
    ...
    """
    print(inspect.getsource(obj).rstrip())


def mermaid(text: str, echo: bool = True) -> None:
    """Render mermaid text in JupyterLab (MIME ``text/vnd.mermaid``); print it too when ``echo``."""
    text = text.strip()
    try:
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is not None:
            display({MERMAID_MIME: text, "text/plain": "<mermaid diagram>"}, raw=True)
    except ImportError:  # pragma: no cover - IPython ships with jupyterlab
        pass
    if echo:
        print(text)


def graph_mermaid(graph: Any, xray: bool = False) -> str:
    """Mermaid text of a compiled LangGraph graph (or a ``StateGraph``), as LangGraph draws it."""
    if hasattr(graph, "get_graph"):
        drawable = graph.get_graph(xray=xray)
    elif hasattr(graph, "compile"):
        drawable = graph.compile().get_graph(xray=xray)
    else:
        drawable = graph
    return drawable.draw_mermaid()


def show_graph(graph: Any, xray: bool = False, echo: bool = True) -> None:
    """Render a LangGraph graph in JupyterLab and print its mermaid text. Never calls mermaid.ink."""
    mermaid(graph_mermaid(graph, xray=xray), echo=echo)


def seed_everything(seed: int = 0) -> None:
    """Seed Python's and NumPy's random generators (and torch's, when it is loaded) for repeatable cells."""
    import sys

    import numpy as np

    random.seed(seed)
    np.random.seed(seed)
    if "torch" in sys.modules:
        sys.modules["torch"].manual_seed(seed)
