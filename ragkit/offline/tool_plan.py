"""From a message's clauses to tool calls: which values each request gets, which are declined, which are asked for.

The local tool planner (:mod:`ragkit.offline.tool_planner`) decides each clause's tool; this module does the
bookkeeping after that, reading only the offered tools' specs (``ToolHints``):

- ``attach_orphans``: a clause with no action ("It is A1001", "Please") joins the request next to it;
- ``fill``: each request's values come from its own clause, by the spec's extractors; a clause that
  names none takes the previous clause's only when it refers back ("it", "them", "too") or follows a
  declined action ("don't cancel A1001, just track it"), unless it says "other"/"another"; a retraction
  ("never mind") declines the request before it, "not A1004" drops a value (in its own clause or the one
  before), and a negated clause ("don't cancel it") declines earlier requests of the same tool; a clause
  with values but no single action ("I no longer need A1001, ...") is context a later "it" may point at;
  a required value still missing is recorded, to be asked for, never invented;
- ``calls_for``: one call per complete, wanted request (one per value of a ``one_call_each`` argument),
  repeats dropped.

Simplifications: "the previous clause" is the newest one that named a value, so "cancel A1001 and track
A1002, then look it up" looks up A1002; several values of two arguments in one clause are not paired up
(only one argument fans out, the others take their first value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from ragkit.core.nlp import QUESTION_STOPWORDS, stem, words
from ragkit.core.tools import ToolSpec, UserArg
from ragkit.offline.tool_requests import RequestClause, request_core, rules_out

IGNORED_WORDS = QUESTION_STOPWORDS | {"thanks", "thank", "hi", "hello", "hey"}
Read = tuple[RequestClause, str | None, tuple[str, ...]]  # a clause, its tool (or None) and the tools tied for it


@dataclass(frozen=True)
class ToolHints:
    """What the planner knows about one offered tool: from its ``ToolSpec``, else from its JSON schema."""

    name: str
    title: str
    examples: tuple[str, ...]
    required: tuple[str, ...]
    properties: tuple[str, ...]
    user_args: tuple[UserArg, ...] = ()

    @classmethod
    def of(cls, tool: dict, spec: ToolSpec | None) -> "ToolHints":
        fn = tool["function"]
        params = fn.get("parameters", {})
        return cls(
            name=fn["name"], title=spec.human_title if spec else fn["name"].replace("_", " "),
            examples=(spec.examples if spec and spec.examples else ()) or (fn.get("description") or fn["name"],),
            required=tuple(params.get("required", [])), properties=tuple(params.get("properties", {})),
            user_args=spec.user_args if spec else (),
        )

    def arg(self, name: str) -> UserArg | None:
        return next((a for a in self.user_args if a.name == name), None)

    def ask_for(self, missing: Sequence[str]) -> str:
        """The question for missing arguments, in the spec's words (never the tool's name).

        >>> ticket = UserArg("ticket", str.split, "its number (for example T12)")
        >>> ToolHints("close_ticket", "close a ticket", (), ("ticket",), ("ticket",), (ticket,)).ask_for(["ticket"])
        'To close a ticket I need its number (for example T12).'
        """
        asks = [a.ask if (a := self.arg(m)) else f"the {m.replace('_', ' ')}" for m in missing]
        return f"To {self.title} I need {' and '.join(asks)}."


@dataclass(frozen=True)
class Request:
    """One clause of the user's message, read: its tool, the values found in it, and what became of it."""

    clause: str
    tool: str | None
    values: dict[str, list[str]] = field(default_factory=dict)
    declined: bool = False
    missing: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()  # tools tied for this clause (the planner asks which one)


@dataclass(frozen=True)
class Plan:
    """The planner's reading of one message: its requests and the calls they make."""

    requests: tuple[Request, ...]
    calls: tuple[dict, ...]

    @property
    def declined(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.tool for r in self.requests if r.declined and r.tool))

    @property
    def asks(self) -> tuple[Request, ...]:
        return tuple(r for r in self.requests if r.missing and not r.declined)


def values_of(extracted: Any) -> list[str]:
    """An extractor's result as a list of non-blank strings.

    >>> values_of(None), values_of("5 Elm Road"), values_of(["A1001", " "])
    ([], ['5 Elm Road'], ['A1001'])
    """
    if extracted is None:
        return []
    return [str(v) for v in ([extracted] if isinstance(extracted, str) else extracted) if str(v).strip()]


_OTHER = re.compile(r"\b(?:other|another)\b", re.IGNORECASE)


def _decline(request: Request, own: dict[str, list[str]], h: ToolHints) -> Request:
    """Decline an earlier request: all of it, or only the values a negated clause names ("don't cancel A1002")."""
    keys = [a.name for a in h.user_args if a.refers_back and own.get(a.name)]
    if not keys:
        return replace(request, declined=True)
    values = dict(request.values)
    for k in keys:
        named = {v.upper() for v in own[k]}
        values[k] = [v for v in values.get(k, []) if v.upper() not in named]
    if any(not values.get(k) for k in keys):
        return replace(request, declined=True)
    return replace(request, values=values)


def action_words(hints: Sequence[ToolHints]) -> set[str]:
    """Stems that name an action: the first word of each example phrase and of each tool name.

    Words of argument names ("order" in ``order_id``) and stopwords are left out: they name the thing
    acted on, not the action.
    """
    out: set[str] = set()
    for h in hints:
        arg_words = {stem(w) for a in (*h.properties, *h.required) for w in a.lower().split("_")}
        for phrase in (h.name.replace("_", " "), *h.examples):
            first = words(phrase)[:1]
            if first and first[0] not in IGNORED_WORDS and stem(first[0]) not in arg_words:
                out.add(stem(first[0]))
    return out


def placeholders(text: str, hints: Sequence[ToolHints]) -> str:
    """The text with each argument value replaced by its argument's name ("track A1002" -> "track order")."""
    for h in hints:
        for a in h.user_args:
            for v in values_of(a.extract(text)):
                text = text.replace(v, " ".join(_nouns(a.name)))
    return " ".join(text.split())


def attach_orphans(read: Sequence[Read]) -> list[Read]:
    """A clause with no action and no cue ("It is A1001", "Please") joins the request before it (or after)."""
    out: list[list] = []
    pending = ""
    for clause, tool, tied in read:
        if tool is None and not tied and not clause.cue:
            if not request_core(clause.text):  # "Please", "I", "Actually": nothing to keep
                continue
            if out:  # joined on a new line: a free-text value (an address) never runs on into it
                prev = out[-1][0]
                out[-1][0] = replace(prev, text=f"{prev.text}\n{clause.text}",
                                     refers_back=prev.refers_back or clause.refers_back)
            else:
                pending = f"{pending}\n{clause.text}".strip()
            continue
        if pending:
            clause = replace(clause, text=f"{pending}\n{clause.text}")
            pending = ""
        out.append([clause, tool, tied])
    return [tuple(x) for x in out]

def _nouns(arg: str) -> list[str]:
    """The words of an argument's name, which may stand before its value ("order" for ``order_id``)."""
    return [w for w in arg.lower().split("_") if w != "id"]


def _context_values(clause: RequestClause, tools: Sequence[str], by_name: dict[str, ToolHints]) -> dict[str, list[str]]:
    """Values a clause with no single action names, read with the first candidate tool's extractors."""
    h = by_name.get(tools[0]) if tools else next(iter(by_name.values()), None)
    return {a.name: v for a in (h.user_args if h else ()) if a.refers_back and (v := values_of(a.extract(clause.text)))}


def fill(read: Sequence[Read], by_name: dict[str, ToolHints]) -> list[Request]:
    """The requests of a message, in order, with their values, declines and missing arguments."""
    requests: list[Request] = []
    last: dict[str, tuple[list[str], int]] = {}  # newest values a later clause may refer back to, and whose they are
    used: set[int] = set()  # requests whose values a later request took
    for clause, tool, tied in read:
        if tool is None:
            if clause.retracts:  # "never mind": take back the newest request still wanted
                for i in range(len(requests) - 1, -1, -1):
                    if requests[i].tool and not requests[i].declined:
                        requests[i] = replace(requests[i], declined=True)
                        break
                continue
            context = _context_values(clause, tied, by_name)
            if context and all(rules_out(clause.text, v, _nouns(k)) for k, vs in context.items() for v in vs):
                if requests and requests[-1].tool:  # "not A1004": drop that value from the request before
                    out = {v.upper() for vs in context.values() for v in vs}
                    prev = requests[-1]
                    requests[-1] = replace(prev, values={k: [v for v in vs if v.upper() not in out] or vs
                                                         for k, vs in prev.values.items()})
                continue
            if tied or context:  # "I no longer need A1001": a question, or context a later "it" may point at
                requests.append(Request(clause.text, None, context, tied=tied))
                last.update({k: (v, len(requests) - 1) for k, v in context.items()})
            continue
        h = by_name[tool]
        values = {a.name: [v for v in values_of(a.extract(clause.text)) if not rules_out(clause.text, v, _nouns(a.name))]
                  for a in h.user_args}
        own = {k: list(v) for k, v in values.items() if v}
        # right after a declined action, a request naming no other object is about the same one
        after_declined = bool(requests) and requests[-1].declined and not _OTHER.search(clause.text)
        for a in h.user_args:
            if not values[a.name] and a.refers_back and (clause.refers_back or after_declined) and a.name in last:
                values[a.name], source = list(last[a.name][0]), last[a.name][1]
                used.add(source)
            if values[a.name] and a.refers_back:
                last[a.name] = (values[a.name], len(requests))
        if clause.negated:  # "don't cancel it / anything": also takes back an earlier request of this tool
            requests = [_decline(r, own, by_name[tool]) if r.tool == tool and not r.declined else r for r in requests]
        missing = tuple(r for r in h.required if not values.get(r))
        requests.append(Request(clause.text, tool, values, declined=clause.negated, missing=missing))
    for i, r in enumerate(requests[:-1]):  # "track and cancel A1025": a bare verb shares the next clause's values
        nxt = requests[i + 1]
        if r.tool and r.missing and len(words(r.clause)) <= 2 and nxt.tool:
            shared = {k: nxt.values.get(k, []) for k in r.missing if by_name[r.tool].arg(k) and by_name[r.tool].arg(k).refers_back}
            if all(shared.values()) and len(shared) == len(r.missing):
                requests[i] = replace(r, values={**r.values, **shared}, missing=())
    # a tie whose values a later, clear request took needs no question: that request says what to do
    return [replace(r, tied=()) if r.tool is None and i in used else r for i, r in enumerate(requests)]


def calls_for(requests: Sequence[Request], by_name: dict[str, ToolHints]) -> list[dict]:
    """``{"name", "args"}`` for every complete request the user wants, without repeats."""
    calls, seen = [], set()
    for r in requests:
        if r.tool is None or r.declined or r.missing:
            continue
        h = by_name[r.tool]
        values = {k: v for k, v in r.values.items() if v and k in h.properties}
        fan = next((a.name for a in h.user_args if a.one_call_each and len(values.get(a.name, [])) > 1), None)
        for value in values.get(fan, [None]) if fan else [None]:
            args = {k: (value if k == fan else vs[0]) for k, vs in values.items()}
            key = (r.tool, tuple(sorted((k, str(v).upper()) for k, v in args.items())))
            if key not in seen:
                seen.add(key)
                calls.append({"name": r.tool, "args": args})
    return calls
