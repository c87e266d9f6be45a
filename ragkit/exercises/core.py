"""The machinery every exercise checker shares: a result object, safe calls, and naming a mistake.

A checker runs the learner's function and ragkit's own implementation on small generated cases (from a
seeded ``random.Random``, so a failure is the same on every run), and stops at the first case where they
differ. It then asks which *plausible wrong variant* of the reference the learner's outputs match on every
case (failing that, which variant gives the learner's answer on the first differing case) and names that
mistake; when none matches it describes the first difference concretely. A checker
never raises on a wrong answer: an exception from the learner's code is caught and reported too.

>>> result = CheckResult("demo", False, "your function returns 1; the reference returns 2")
>>> result.passed, str(result)
(False, 'Not yet (demo): your function returns 1; the reference returns 2')

A learner's function gets :data:`TIME_LIMIT` seconds for all of a checker's cases; a loop that never ends is
stopped and named. Its answers are copied as they come back, so a function that returns one shared object (a
mutable default argument) is caught rather than judged on what later calls did to it.

Simplifications: when a learner's code mixes two mistakes, only the one behind the first differing case
is named; cases are small, so a function that is right on them but slow or wrong on huge inputs still
passes; and the time limit needs a SIGALRM timer (Linux, macOS): on Windows a loop that never ends must be
stopped by hand (the kernel's stop button).
"""

from __future__ import annotations

import copy
import html
import inspect
import re
import signal
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

PASS_COLOUR, FAIL_COLOUR = "#2e7d32", "#b26a00"
TIME_LIMIT = 20.0  # seconds a learner's function may take over all of one checker's cases (ragkit's take milliseconds)


@dataclass
class CheckResult:
    """What a checker found: ``passed`` and a ``message`` a learner can act on.

    In Jupyter it renders as a coloured box (``text/html``) with the same words as plain text; elsewhere
    ``str(result)`` is the text.
    """

    exercise: str
    passed: bool
    message: str
    _shown_in: int | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        head = "Passed" if self.passed else "Not yet"
        return f"{head} ({self.exercise}): {self.message}"

    def plain(self, width: int = 100) -> str:
        """The message wrapped to ``width`` columns (paragraphs kept)."""
        return "\n".join(textwrap.fill(part, width, break_long_words=False, break_on_hyphens=False) if part else ""
                         for part in str(self).split("\n"))

    def _repr_html_(self) -> str:
        colour = PASS_COLOUR if self.passed else FAIL_COLOUR
        mark, head = ("&#10003;", "Passed") if self.passed else ("&#10007;", "Not yet")
        body = "<br>".join(html.escape(line) for line in self.message.split("\n"))
        return (f'<div style="border-left: 4px solid {colour}; padding: 4px 10px; margin: 2px 0;">'
                f'<b style="color: {colour}">{mark} {head}</b> <code>{html.escape(self.exercise)}</code>: {body}</div>')

    def _ipython_display_(self) -> None:
        """IPython's display hook: the checker already showed the result, so the cell's last-expression
        display of the same result does not show it twice."""
        self.show()

    def show(self) -> None:
        """Display in Jupyter (HTML with a plain-text twin), once per cell run."""
        from IPython import get_ipython
        from IPython.display import display

        shell = get_ipython()
        count = getattr(shell, "execution_count", None)
        if count is not None and self._shown_in == count:
            return
        self._shown_in = count
        display({"text/plain": self.plain(), "text/html": self._repr_html_()}, raw=True)


def report(result: CheckResult, quiet: bool = False) -> CheckResult:
    """Show ``result`` (rich in Jupyter, printed elsewhere) unless ``quiet``, and return it."""
    if quiet:
        return result
    try:
        from IPython import get_ipython

        in_kernel = get_ipython() is not None and hasattr(get_ipython(), "kernel")
    except ImportError:  # pragma: no cover - IPython ships with jupyterlab
        in_kernel = False
    if in_kernel:
        result.show()
    else:
        print(result.plain())
    return result


@dataclass(frozen=True)
class Outcome:
    """The result of calling a learner's function: a value, or the exception it raised (as text)."""

    value: Any = None
    error: str | None = None


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    """Call ``fn``; never raise. ``Outcome.error`` is ``"ZeroDivisionError: division by zero"`` style text.

    >>> attempt(lambda x: 1 / x, 0).error
    'ZeroDivisionError: division by zero'
    """
    try:
        return Outcome(fn(*args, **kwargs))
    except Exception as err:  # noqa: BLE001 - the learner's code may raise anything; report it
        return Outcome(error=f"{type(err).__name__}: {err}")


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # in a default repr: changes on every run, and tells a learner nothing


def short(value: Any, limit: int = 160) -> str:
    """``repr`` cut to ``limit`` characters, for messages. A value with no readable repr (a generator, a function,
    an object) is named in words, never by its memory address, which changes on every run.

    >>> short(list(range(100)), 20)
    '[0, 1, 2, 3, 4, 5, …'
    >>> short(n for n in range(3))
    'a generator, not its values ([... for ...] makes a list, (... for ...) or yield a generator)'
    """
    if inspect.isgenerator(value):
        text = "a generator, not its values ([... for ...] makes a list, (... for ...) or yield a generator)"
    elif isinstance(value, Iterator):
        text = f"a {type(value).__name__} iterator, not its values (list(...) collects them)"
    elif callable(value) and hasattr(value, "__name__") and not isinstance(value, type):
        text = f"the function {value.__name__} itself, not its result (a call needs its parentheses)"
    else:
        text = repr(value)
        if _ADDRESS.search(text) and text.startswith("<"):
            name = type(value).__name__
            text = f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} object"
        text = _ADDRESS.sub("", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def agrees(same: Callable[[Any, Any], Any], got: Any, expected: Any) -> bool:
    """``same(got, expected)`` as a bool; False when it cannot tell (an array has no single truth value, an
    ``__eq__`` raises), so an odd value is reported as different instead of crashing the checker.

    >>> import numpy as np
    >>> agrees(lambda a, b: a == b, np.array([1, 2]), [1, 2])
    False
    """
    try:
        return bool(same(got, expected))
    except Exception:  # noqa: BLE001 - whatever the learner returned, it is not the expected answer
        return False


class TimeUp(BaseException):
    """Raised inside the learner's code when a check runs out of time (a BaseException, as KeyboardInterrupt is,
    so an ``except Exception`` in that code does not swallow it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeUp` in the code run inside, once ``seconds`` have passed.

    A SIGALRM timer, so Unix only and the main thread only (where Jupyter runs a cell); elsewhere no limit.
    """
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def as_returned(outcome: Outcome) -> Outcome:
    """A copy of the value as it was returned, so a later call that changes a shared object does not change it."""
    try:
        return Outcome(copy.deepcopy(outcome.value), outcome.error)
    except Exception:  # noqa: BLE001 - a value that cannot be copied (a generator) is kept as it is
        return outcome


@dataclass(frozen=True)
class Variant:
    """A plausible wrong version of the reference, and the hint to give when the learner's code acts like it."""

    fn: Callable[..., Any]
    hint: str


def matching_variant(outputs: Sequence[Outcome], cases: Sequence[Any], variants: Iterable[Variant],
                     call: Callable[[Callable[..., Any], Any], Any], same: Callable[[Any, Any], bool]) -> Variant | None:
    """The first variant whose output equals the learner's on every case where the learner's code ran.

    Cases where the learner's function raised are skipped (a zero-based rank divides by zero when k=0),
    but at least half the cases must have run.
    """
    ran = [(out, case) for out, case in zip(outputs, cases) if out.error is None]
    if not ran or 2 * len(ran) < len(outputs):
        return None
    for variant in variants:
        try:
            if all(same(out.value, call(variant.fn, case)) for out, case in ran):
                return variant
        except Exception:  # noqa: BLE001 - a variant that cannot run on a case simply does not match
            continue
    return None


def raising_variant(outputs: Sequence[Outcome], cases: Sequence[Any], variants: Iterable[Variant],
                    call: Callable[[Callable[..., Any], Any], Any], same: Callable[[Any, Any], bool]) -> Variant | None:
    """The first variant that raises the same kind of exception on exactly the cases where the learner's code
    raised, and agrees with it everywhere else (a known mistake that crashes, such as json.loads('')).

    >>> cases = [1, 0, 2]
    >>> outputs = [attempt(lambda x: 1 / x, c) for c in cases]
    >>> raising_variant(outputs, cases, [Variant(lambda x: 1 / x, "guard against zero")], lambda f, c: f(c),
    ...                 lambda a, b: a == b).hint
    'guard against zero'
    """
    for variant in variants:
        fits = True
        for out, case in zip(outputs, cases):
            mine = attempt(call, variant.fn, case)
            if (out.error is None) != (mine.error is None):
                fits = False
            elif out.error is not None:
                fits = out.error.split(":")[0] == mine.error.split(":")[0]
            else:
                fits = agrees(same, out.value, mine.value)
            if not fits:
                break
        if fits:
            return variant
    return None


def closest_variant(outputs: Sequence[Outcome], cases: Sequence[Any], failing: Outcome, failing_case: Any,
                    variants: Iterable[Variant], call: Callable[[Callable[..., Any], Any], Any],
                    same: Callable[[Any, Any], bool]) -> Variant | None:
    """Among the variants that give the learner's answer on the failing case, the one that agrees with the
    learner on the most cases (ties: the first listed); None when no variant explains the failing case."""
    best, best_count = None, -1
    for variant in variants:
        if matching_variant([failing], [failing_case], [variant], call, same) is None:
            continue
        count = 0
        for out, case in zip(outputs, cases):
            mine = attempt(call, variant.fn, case)  # a variant that cannot run on a case does not agree there
            count += out.error is None and mine.error is None and agrees(same, out.value, mine.value)
        if count > best_count:
            best, best_count = variant, count
    return best


def run_checker(
    exercise: str,
    learner: Callable[..., Any],
    cases: Sequence[Any],
    reference: Callable[..., Any],
    call: Callable[[Callable[..., Any], Any], Any],
    same: Callable[[Any, Any], bool],
    describe: Callable[[Any, Any, Any], str],
    variants: Sequence[Variant] = (),
    passed_message: str = "",
    quiet: bool = False,
    equal: Callable[[Any, Any], bool] | None = None,
) -> CheckResult:
    """Compare ``learner`` with ``reference`` on ``cases`` and report the first difference, with a diagnosis.

    ``call(fn, case)`` runs a function on one case; ``same(got, expected)`` compares two outputs;
    ``describe(case, got, expected)`` says in words how the learner's output differs on one case;
    ``equal(got, variant_output)`` tells whether the learner's output is a variant's (default: ``same``;
    give it when ``same`` also checks properties of a correct answer, such as a sort order).

    >>> double = lambda x: 2 * x
    >>> run_checker("double", lambda x: x + x, [1, 2, 3], double, lambda f, c: f(c), lambda a, b: a == b,
    ...             lambda c, g, e: f"got {g}", quiet=True).passed
    True
    >>> result = run_checker("double", lambda x: x * x, [1, 2, 3], double, lambda f, c: f(c), lambda a, b: a == b,
    ...                      lambda c, g, e: f"for {c} you return {g}, the reference {e}",
    ...                      variants=[Variant(lambda x: x * x, "did you square instead of doubling?")], quiet=True)
    >>> result.message
    'for 1 you return 1, the reference 2: did you square instead of doubling?'
    """
    if not callable(learner):
        return report(CheckResult(exercise, False, f"expected a function, got {type(learner).__name__}: "
                                                   "pass the function itself, without calling it"), quiet)
    outputs: list[Outcome] = []
    returned: list[Any] = []  # the values themselves, to see one object come back from two calls
    try:
        with time_limit(TIME_LIMIT):
            for case in cases:
                out = attempt(call, learner, case)
                returned.append(out.value)
                outputs.append(as_returned(out))
    except TimeUp:
        return report(CheckResult(exercise, False, too_slow(cases, len(outputs))), quiet)
    for i, (case, out) in enumerate(zip(cases, outputs)):
        if out.error is not None:
            known = raising_variant(outputs, cases, variants, call, equal or same)
            if known is not None:
                expected = attempt(call, reference, case)
                return report(CheckResult(exercise, False, f"your function raised {out.error} on {describe_case(case)}"
                                                           f"; the reference returns {short(expected.value)}: {known.hint}"),
                              quiet)
            return report(CheckResult(exercise, False, f"your function raised {out.error} on {describe_case(case)}. "
                                                       "Fix that first; the checker catches it so you can see it."), quiet)
        expected = call(reference, case)
        if agrees(same, out.value, expected):
            continue
        try:
            difference = describe(case, out.value, expected)
        except Exception:  # noqa: BLE001 - a value the description cannot read is shown as it is
            difference = (f"for {describe_case(case)} you return {short(out.value)}; the reference returns "
                          f"{short(expected)}")
        if isinstance(returned[i], (list, dict, set)) and any(returned[i] is r for r in returned[:i]):
            hint = ": " + SHARED_HINT.format(kind=type(returned[i]).__name__)
        else:
            equal = equal or same
            variant = (matching_variant(outputs, cases, variants, call, equal)
                       or closest_variant(outputs, cases, out, case, variants, call, equal))
            hint = f": {variant.hint}" if variant else "."
        return report(CheckResult(exercise, False, difference + hint), quiet)
    message = passed_message or f"your function agrees with ragkit on all {len(cases)} generated cases."
    return report(CheckResult(exercise, True, message), quiet)


SHARED_HINT = ("your function returns the very same {kind} from more than one call, so what one call put in it is "
               "still there at the next. A default argument such as found={{}} or seen=[] is made once, when the def "
               "runs, and shared by every call: make a new one inside the function (found = {{}} in its body)")


def too_slow(cases: Sequence[Any], done: int) -> str:
    """What to say when the learner's function used up :data:`TIME_LIMIT` on case number ``done`` (from 0)."""
    return (f"your function was still running after {TIME_LIMIT:g} s, on {describe_case(cases[done])} (case {done + 1} "
            f"of {len(cases)}), so the checker stopped it; ragkit's own answers all {len(cases)} cases in "
            "milliseconds. Look for a loop that never ends (a while loop whose condition never changes, a walk that "
            "goes round a cycle because it does not remember what it has seen) or a sleep.")


def describe_case(case: Any) -> str:
    """A case in words for an error message: its ``label`` when it has one, else a short repr."""
    label = getattr(case, "label", None)
    return label() if callable(label) else f"the input {short(case)}"


def close(a: Any, b: Any, tol: float = 1e-6) -> bool:
    """Numbers (or equal-length sequences of numbers) equal within ``tol``; anything else with ``==``.

    >>> close(0.1 + 0.2, 0.3), close([1.0, 2.0], (1.0, 2.0000001)), close("a", "b")
    (True, True, False)
    """
    try:
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            return abs(float(a) - float(b)) <= tol * max(1.0, abs(float(b)))
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
        import numpy as np

        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return bool(np.shape(a) == np.shape(b) and np.allclose(a, b, atol=tol, rtol=tol))
        if isinstance(a, np.floating) or isinstance(b, np.floating):
            return close(float(a), float(b), tol)
        return a == b
    except (TypeError, ValueError):
        return False


# ---------------------------------------------------------------- wiring a graph by hand
def edge_words(edge: tuple[str, str, bool]) -> str:
    """An edge as a learner wrote it: ``judge -> write (a router's choice)``.

    >>> print(edge_words(("judge", "write", True)), "|", edge_words(("__start__", "refine", False)))
    judge -> write (a router's choice) | START -> refine
    """
    source, target, conditional = edge
    names = {"__start__": "START", "__end__": "END"}
    text = f"{names.get(source, source)} -> {names.get(target, target)}"
    return f"{text} (a router's choice)" if conditional else text


def check_wiring(build: Callable[[], Any], reference: Any, exercise: str, quiet: bool = False,
                 variants: Sequence[Variant] = ()) -> CheckResult:
    """Check that ``build()`` returns a graph (a ``StateGraph`` or a compiled one) with exactly the nodes and
    edges of ``reference``: the builder's graph. Names each missing or extra node and edge, and says when a
    fixed edge should be a router's choice (``add_conditional_edges``) or the other way round.

    ``variants`` are known wrong wirings (each ``Variant.fn`` builds one); when the learner's graph has the
    shape of one, its hint ends the message. A graph of the right shape must also route with the builder's
    routers: the wrong router given the right path map draws the same edges but sends the run elsewhere."""
    from ragkit.notebook import graph_shape

    if not callable(build):
        return report(CheckResult(exercise, False, f"expected the function that builds your graph, got "
                                                   f"{type(build).__name__}: pass the function itself, without "
                                                   "calling it"), quiet)
    outcome = attempt(build)
    if outcome.error is not None:
        return report(CheckResult(exercise, False, f"building your graph raised {outcome.error}"), quiet)
    if outcome.value is None:
        return report(CheckResult(exercise, False, "your function returned None, not a graph: end it with "
                                                   "return graph"), quiet)
    try:
        (nodes, edges), (want_nodes, want_edges) = graph_shape(outcome.value), graph_shape(reference)
    except Exception as err:  # noqa: BLE001 - a graph that cannot compile says why
        return report(CheckResult(exercise, False, f"your graph does not compile: {type(err).__name__}: {err}"), quiet)
    problems = []
    if set(want_nodes) - set(nodes):
        problems.append(f"add the node(s) {', '.join(sorted(set(want_nodes) - set(nodes)))}")
    if set(nodes) - set(want_nodes):
        problems.append(f"the builder has no node(s) {', '.join(sorted(set(nodes) - set(want_nodes)))}")
    plain = {(s, t): c for s, t, c in edges}
    reached = {t for _, t, _ in edges}
    for s, t, c in sorted(set(want_edges) - set(edges)):
        if (s, t) in plain:
            how = "comes from a router (add_conditional_edges)" if c else "is a fixed edge (add_edge)"
            problems.append(f"{edge_words((s, t, c))}: this edge {how}")
        elif s in nodes and s != "__start__" and s not in reached:  # a node no edge leads to is not drawn
            problems.append(f"missing edge {edge_words((s, t, c))} (no edge leads to {s}, so it is never reached)")
        else:
            problems.append(f"missing edge {edge_words((s, t, c))}")
    wanted = {(s, t) for s, t, _ in want_edges}
    problems += [f"extra edge {edge_words(e)}" for e in sorted(set(edges) - set(want_edges)) if (e[0], e[1]) not in wanted]
    if problems:
        known = next((v for v in variants if attempt(lambda v=v: graph_shape(v.fn())).value == (nodes, edges)), None)
        return report(CheckResult(exercise, False, "; ".join(problems) + (f": {known.hint}" if known else "")), quiet)
    mine, theirs = graph_routers(outcome.value), graph_routers(reference)
    wrong = [f"{node} is routed by {router_words(mine.get(node, {}))}, but ragkit's graph routes it with "
             f"{router_words(theirs[node])}" for node in sorted(theirs) if set(mine.get(node, {})) != set(theirs[node])]
    if wrong:
        return report(CheckResult(exercise, False, "; ".join(wrong) + ": the edges are right, but a router decides "
                                                   "where each run goes, so use the builder's"), quiet)
    inner = [n for n in want_nodes if n not in ("__start__", "__end__")]
    return report(CheckResult(exercise, True, f"your graph has the builder's {len(inner)} nodes (and START, END) "
                                               f"and {len(want_edges)} edges."), quiet)


def graph_routers(graph: Any) -> dict[str, dict[str, str]]:
    """``{node: {router name: its qualified name}}`` of a graph's conditional edges (of a compiled graph's builder)."""
    branches = getattr(getattr(graph, "builder", graph), "branches", {})
    return {node: {name: getattr(getattr(spec.path, "func", None), "__qualname__", name)
                   for name, spec in specs.items()} for node, specs in branches.items()}


def router_words(routers: dict[str, str]) -> str:
    """The routers after one node (:func:`graph_routers`), by name, and by the factory that made one that is a closure.

    >>> router_words({"route_after_search": "route_after_search_to.<locals>.route_after_search"})
    'route_after_search (the router route_after_search_to(...) returns)'
    """
    words = []
    for name, qualname in sorted(routers.items()):
        maker = qualname.split(".<locals>.")[0] if ".<locals>." in qualname else None
        words.append(f"{name} (the router {maker}(...) returns)" if maker and maker != "<lambda>" else name)
    return " and ".join(words) or "no router"


def rewired(graph: Any, drop: Iterable[tuple[str, str]] = (), routers: Iterable[str] = (),
            add: Iterable[tuple[str, str]] = ()) -> Any:
    """``graph`` (an uncompiled ``StateGraph``, changed in place) without the fixed edges ``drop`` and the routers
    after the nodes ``routers``, and with the fixed edges ``add``: a wrong wiring a checker can name.

    >>> from langgraph.graph import END, START, StateGraph
    >>> g = StateGraph(dict).add_node("a", lambda s: s).add_edge(START, "a").add_edge("a", END)
    >>> sorted(rewired(g, drop=[("a", END)], add=[("a", "a")]).edges)
    [('__start__', 'a'), ('a', 'a')]
    """
    graph.edges = set(graph.edges) - set(drop)
    for node in routers:
        graph.branches.pop(node, None)
    for source, target in add:
        graph.add_edge(source, target)
    return graph
