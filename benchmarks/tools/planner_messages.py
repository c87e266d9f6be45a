"""Score the local tool planner on messages with negation and several requests (issue 8, part 3).

Each message goes through the planner's public chat-model interface only (``bind_tools`` on the four order
tools, then ``invoke``), so the same script measures any version of the code: run it once with
``PYTHONPATH`` pointing at the old tree ("before") and once at the new one ("after").

Per category and overall:

- ``no_declined_proposed``: share of messages that decline a tool (``declined`` non-empty) where no proposed
  call uses a declined tool;
- ``args_from_own_clause``: share of messages with at least one proposed call of a tool the gold also calls,
  where every such call's user arguments equal those of one gold call of that tool (so no value leaked in
  from another clause);
- ``exact_call_match``: the proposed calls equal the gold calls, in order (names + user arguments; order ids
  compared case-insensitively, addresses after folding case, spaces and trailing punctuation);
  ``exact_call_set``: the same, ignoring the order;
- ``ask_accuracy``: the planner asked for a missing argument exactly when the gold says it must
  (``response_metadata["awaiting_argument_for"]`` is set on the reply).

Sets: ``--set dev`` is ``benchmarks/tools/planner_dev_messages.json`` (written by the planner engineer to
tune on; ``--errors`` prints its misses). ``--set frozen`` is ``data/eval/planner_messages.json``, the
reporting set, loaded through ``load_goldset`` (hash checked and recorded); its per-message results are
never printed or written.

Run (from the project folder)::

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/tools/planner_messages.py --set dev --label after --errors
    PYTHONPATH=/tmp/old_tree HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/tools/planner_messages.py --set frozen --label before

Limits: a proposal is scored, not what the guards then allow; the reply text is not scored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEV = HERE / "planner_dev_messages.json"
RESULTS = ROOT / "benchmarks" / "results" / "planner_messages.json"
CATEGORIES = ("negation", "multi_request", "negation_and_multi", "missing_argument", "plain")
USER_ARGS = ("order_id", "new_address")


def norm(value: Any) -> str:
    """Fold case and spaces and drop trailing punctuation, so '12 High St.' equals '12 high st'."""
    text = " ".join(str(value).casefold().split())
    return re.sub(r"\s+([,.;:])", r"\1", text).strip(" .,;:!?\"'")


def call_key(call: dict) -> tuple:
    args = call.get("args") or {}
    return (call.get("name"), tuple((a, norm(args[a])) for a in USER_ARGS if a in args))


def score_item(item: dict, calls: list[dict], asked: bool) -> dict[str, bool | None]:
    """The four measures for one message (``None`` where a measure does not apply)."""
    gold, got = [call_key(c) for c in item["calls"]], [call_key(c) for c in calls]
    declined = set(item["declined"])
    gold_tools = {g[0] for g in gold}
    relevant = [g for g in got if g[0] in gold_tools]
    return {
        "no_declined_proposed": (not any(g[0] in declined for g in got)) if declined else None,
        "args_from_own_clause": all(g in gold for g in relevant) if relevant else None,
        "exact_call_match": got == gold,
        "exact_call_set": sorted(got, key=repr) == sorted(gold, key=repr),
        "ask_accuracy": asked == item["ask"],
    }


def summarise(rows: list[tuple[str, dict]]) -> dict[str, Any]:
    """Shares per measure, overall and per category, with the number of messages each share is over."""

    def block(scores: list[dict]) -> dict[str, Any]:
        out: dict[str, Any] = {"messages": len(scores)}
        for measure in ("no_declined_proposed", "args_from_own_clause", "exact_call_match", "exact_call_set", "ask_accuracy"):
            vals = [s[measure] for s in scores if s[measure] is not None]
            out[measure] = {"share": round(sum(vals) / len(vals), 4) if vals else None, "n": len(vals)}
        return out

    return {"overall": block([s for _, s in rows]),
            "per_category": {c: block([s for cat, s in rows if cat == c]) for c in CATEGORIES if any(cat == c for cat, _ in rows)}}


def load(which: str) -> tuple[list[dict], str, str]:
    if which == "dev":
        data = json.loads(DEV.read_text(encoding="utf-8"))
        return data["items"], hashlib.sha256(DEV.read_bytes()).hexdigest(), str(DEV.relative_to(ROOT))
    from ragkit.goldsets import load_goldset

    items, digest = load_goldset("planner_messages.json")
    return items, digest, "data/eval/planner_messages.json"


def run(items: list[dict]) -> list[tuple[dict, list[dict], bool, str]]:
    from ragkit.domains.shop.orders import load_order_store
    from ragkit.domains.shop.tools import make_order_tools
    from ragkit.offline.tool_planner import LocalToolPlanner

    planner = LocalToolPlanner().bind_tools(make_order_tools(load_order_store()))
    out = []
    for item in items:
        reply = planner.invoke(item["message"])
        calls = [{"name": c["name"], "args": c["args"]} for c in reply.tool_calls]
        out.append((item, calls, bool(reply.response_metadata.get("awaiting_argument_for")), str(reply.content)))
    return out


def code_version() -> dict[str, str]:
    """Which ragkit was measured: its folder and, when it is a git checkout, its commit."""
    import ragkit

    folder = Path(ragkit.__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown (not a git checkout)"
    return {"ragkit": str(folder), "commit": commit}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("dev", "frozen"), required=True)
    parser.add_argument("--label", choices=("before", "after", "unseen"), required=True,
                        help="'unseen': the dev items from --from-id on, scored once before tuning on them")
    parser.add_argument("--from-id", default=None, help="dev set only: score the items with this id and later")
    parser.add_argument("--errors", action="store_true", help="print the misses (dev set only)")
    parser.add_argument("--commit", default=None, help="the commit measured, when the tree is not a git checkout")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    if args.errors and args.set != "dev":
        parser.error("--errors is for the dev set only: the frozen set's per-message errors are never shown")
    items, digest, path = load(args.set)
    if args.from_id:
        if args.set != "dev":
            parser.error("--from-id is for the dev set only")
        items = [i for i in items if i["id"] >= args.from_id]
    results = run(items)
    rows = [(item["category"], score_item(item, calls, asked)) for item, calls, asked, _ in results]
    summary = {"set": path, "sha256": digest, **({"items_from": args.from_id} if args.from_id else {}), "code": {**code_version(), **({"commit": args.commit} if args.commit else {})},
               **summarise(rows)}
    print(json.dumps({k: summary[k] for k in ("set", "sha256", "overall")}, indent=1))
    for cat, block in summary["per_category"].items():
        print(f"{cat:<20}", "  ".join(f"{m}={v['share']}" for m, v in block.items() if isinstance(v, dict)))
    if args.errors:
        for (item, calls, asked, content), (_, s) in zip(results, rows):
            if not all(v in (True, None) for k, v in s.items() if k != "exact_call_set"):
                print(f"\n{item['id']} {item['message']!r}\n  gold {item['calls']} declined={item['declined']} ask={item['ask']}"
                      f"\n  got  {calls} ask={asked}\n  said {content[:160]!r}")
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        saved = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
        saved.setdefault("about", "LocalToolPlanner on messages with negation and several requests; see "
                                  "benchmarks/tools/planner_messages.py for the measures. 'frozen' is the reporting set "
                                  "(aggregates only), 'dev' the tuning set.")
        saved.setdefault(args.set, {})[args.label] = summary
        RESULTS.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
