"""Record which nodes a run visited, and how long each took, inside the graph state.

Wrap a node with :func:`traced` and it appends its name to ``path`` and its wall-clock time to
``timings``. Both are state keys with reducers, so parallel branches and loops add up correctly. Timings
change from run to run, so notebooks print ``path`` (deterministic) and only plot timings, never print them.

>>> from typing import Annotated, TypedDict
>>> class S(TypedDict, total=False):
...     x: int
...     path: Annotated[list[str], add_path]
...     timings: Annotated[list[tuple[str, float]], add_path]
>>> node = traced("double")(lambda state: {"x": state["x"] * 2})
>>> update = node({"x": 3})
>>> update["x"], update["path"]
(6, ['double'])
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def add_path(left: list | None, right: list | None) -> list:
    """Reducer for ``path`` and ``timings``: concatenate; ``None`` counts as empty.

    >>> add_path(["a"], ["b"])
    ['a', 'b']
    """
    return list(left or []) + list(right or [])


def traced(name: str) -> Callable[[F], F]:
    """Decorator: the node's update also carries ``path: [name]`` and ``timings: [(name, seconds)]``."""

    def wrap(node: F) -> F:
        @functools.wraps(node)
        def run(state: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            update = node(state, *args, **kwargs)
            elapsed = time.perf_counter() - start
            if update is None:
                update = {}
            if isinstance(update, dict):
                update = {**update, "path": [name], "timings": [(name, round(elapsed, 6))]}
            return update

        return run  # type: ignore[return-value]

    return wrap


def timings_by_node(timings: list[tuple[str, float]]) -> dict[str, float]:
    """Total seconds per node name.

    >>> timings_by_node([("a", 0.5), ("b", 1.0), ("a", 0.25)])
    {'a': 0.75, 'b': 1.0}
    """
    totals: dict[str, float] = {}
    for name, seconds in timings:
        totals[name] = totals.get(name, 0.0) + seconds
    return totals
