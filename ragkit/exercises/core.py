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

Simplifications: when a learner's code mixes two mistakes, only the one behind the first differing case
is named; and cases are small, so a function that is right on them but slow or wrong on huge inputs still
passes.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

PASS_COLOUR, FAIL_COLOUR = "#2e7d32", "#b26a00"


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


def short(value: Any, limit: int = 160) -> str:
    """``repr`` cut to ``limit`` characters, for messages.

    >>> short(list(range(100)), 20)
    '[0, 1, 2, 3, 4, 5, …'
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
        agrees = True
        for out, case in zip(outputs, cases):
            mine = attempt(call, variant.fn, case)
            if (out.error is None) != (mine.error is None):
                agrees = False
            elif out.error is not None:
                agrees = out.error.split(":")[0] == mine.error.split(":")[0]
            else:
                agrees = bool(same(out.value, mine.value))
            if not agrees:
                break
        if agrees:
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
            try:
                count += out.error is None and same(out.value, call(variant.fn, case))
            except Exception:  # noqa: BLE001 - a variant that cannot run on a case does not agree there
                pass
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
    outputs = [attempt(call, learner, case) for case in cases]
    for case, out in zip(cases, outputs):
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
        if same(out.value, expected):
            continue
        difference = describe(case, out.value, expected)
        equal = equal or same
        variant = (matching_variant(outputs, cases, variants, call, equal)
                   or closest_variant(outputs, cases, out, case, variants, call, equal))
        hint = f": {variant.hint}" if variant else "."
        return report(CheckResult(exercise, False, difference + hint), quiet)
    message = passed_message or f"your function agrees with ragkit on all {len(cases)} generated cases."
    return report(CheckResult(exercise, True, message), quiet)


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


def check_wiring(build: Callable[[], Any], reference: Any, exercise: str, quiet: bool = False) -> CheckResult:
    """Check that ``build()`` returns a graph (a ``StateGraph`` or a compiled one) with exactly the nodes and
    edges of ``reference``: the builder's graph. Names each missing or extra node and edge, and says when a
    fixed edge should be a router's choice (``add_conditional_edges``) or the other way round."""
    from ragkit.notebook import graph_shape

    outcome = attempt(build)
    if outcome.error is not None:
        return report(CheckResult(exercise, False, f"building your graph raised {outcome.error}"), quiet)
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
    for s, t, c in sorted(set(want_edges) - set(edges)):
        if (s, t) in plain:
            how = "comes from a router (add_conditional_edges)" if c else "is a fixed edge (add_edge)"
            problems.append(f"{edge_words((s, t, c))}: this edge {how}")
        else:
            problems.append(f"missing edge {edge_words((s, t, c))}")
    wanted = {(s, t) for s, t, _ in want_edges}
    problems += [f"extra edge {edge_words(e)}" for e in sorted(set(edges) - set(want_edges)) if (e[0], e[1]) not in wanted]
    if problems:
        return report(CheckResult(exercise, False, "; ".join(problems)), quiet)
    return report(CheckResult(exercise, True, f"your graph has the builder's {len(want_nodes)} nodes and "
                                               f"{len(want_edges)} edges."), quiet)
