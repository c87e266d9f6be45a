"""The query analyser alone: does the structured query it writes, executed exactly on the data, give the gold answer?

The gold set (``data/eval/menu_structured.json``) holds computed answers, not filter specs, so the analyser
is scored by *execution*: its analysis runs through ``StructuredRetriever.search_analysed`` over the item's
corpus (no similarity involved in what passes), and

- ``set``: the documents returned are exactly ``required``;
- ``yes_no``: "any returned" equals ``answer_bool``, and when true the returned documents are ``required``;
- ``single``: the winners returned are exactly ``required``;
- ``comparison``: the analysis compares two items, and the winner its values give (both on a tie) is
  ``required``; for an "Is A ... than B?" question the truth it gives is ``answer_bool``.

This is stricter than a match of filter text (two different filters that select the same items both
count, which is what matters), and blind to the writer and the router. ``--split dev`` prints every item;
``--split test`` writes aggregates only.

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/query_analysis/analyser_eval.py --split test
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.domains.corpora import load_corpus  # noqa: E402
from ragkit.domains.menu.vocabulary import menu_query_analyzer  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.offline.structured import StructuredRetriever  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "query_analysis_analyser.json"
CATEGORIES = ("superlative", "exclusion", "allergen", "comparison", "price_bound", "combined")


def executed_right(item: dict, retriever: StructuredRetriever) -> tuple[bool, str]:
    analysis = retriever.analyze(item["question"])
    required = set(item["required"])
    if item["kind"] == "comparison":
        c = analysis.comparison
        if c is None:
            return False, f"no comparison ({analysis.kind})"
        by_id = {d.metadata["id"]: d.metadata for d in retriever.docs}
        va, vb = by_id[c.ids[0]].get(c.attribute), by_id[c.ids[1]].get(c.attribute)
        if va is None or vb is None:
            return False, "compared on a field one item lacks"
        if va == vb:
            winners, truth = set(c.ids), False
        else:
            a_wins = (va > vb) == (c.want == "higher")
            winners, truth = {c.ids[0] if a_wins else c.ids[1]}, a_wins
        if item["answer_bool"] is not None and truth != item["answer_bool"]:
            return False, "wrong truth"
        return winners == required, "ok" if winners == required else "wrong winner"
    got = {d.metadata["id"] for d, _ in retriever.search_analysed(analysis).hits} if analysis.structured else set()
    if not analysis.structured:
        return False, "no structure found"
    if item["kind"] == "yes_no":
        if bool(got) != item["answer_bool"]:
            return False, "wrong polarity"
        return (not got) or got == required, "ok" if (not got or got == required) else "wrong set"
    return got == required, "ok" if got == required else "wrong set"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    args = parser.parse_args(argv)
    items, digest = load_goldset("menu_structured.json")
    items = [i for i in items if i["split"] == args.split]
    retrievers = {c: StructuredRetriever.from_documents(docs, analyzer=menu_query_analyzer(docs))
                  for c in ("menu", "wine") for docs in [load_corpus(c)]}
    right, total, reasons = Counter(), Counter(), Counter()
    for item in items:
        ok, reason = executed_right(item, retrievers[item["corpus"]])
        right[item["category"]] += ok
        total[item["category"]] += 1
        reasons[reason] += 1
        if args.split == "dev":
            print(f"{item['id']} {'OK ' if ok else 'BAD'} {reason:28s} {item['question']}")
    n = sum(total.values())
    summary = {"share_executed_right": round(sum(right.values()) / n, 4), "right": sum(right.values()), "n": n,
               "per_category": {c: {"right": right[c], "n": total[c], "share": round(right[c] / total[c], 4)}
                                for c in CATEGORIES if total[c]},
               "reasons": dict(sorted(reasons.items()))}
    print(json.dumps(summary, indent=1))
    payload = json.loads(OUT.read_text()) if OUT.is_file() else {}
    payload.update({"gold_set": "data/eval/menu_structured.json", "sha256": digest,
                    "measure": __doc__.split("\n\n")[1].replace("\n", " ")})
    payload.setdefault("splits", {})[args.split] = {
        "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/query_analysis/analyser_eval.py --split {args.split}",
        "analyser": "menu_query_analyzer over the item's corpus (LocalQueryAnalyzer with MENU_WORDS; MiniLM for adjectives such as 'Italian')", **summary}
    OUT.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
