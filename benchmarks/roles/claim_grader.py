"""The hallucination grader on labelled claim sets: recall per error type, false alarms on faithful answers.

Sets (``--set``), each frozen with its hash in ``data/eval/MANIFEST.json`` and split into ``tune`` and
``report`` halves (the fresh set: ``report`` only):

- ``cases``: ``data/eval/claim_cases.json`` (402 cases written blind from SQuAD 2.0, SciFact and the
  bundled data; ``make_claim_cases.py``): copied and paraphrased faithful answers and six error types;
- ``paraphrases``: ``data/eval/claim_paraphrases.json`` (459 cases, written blind before the alignment
  grader; ``make_claim_paraphrases.py``): faithful paraphrases and reworded answers with one error;
- ``fresh``: ``data/eval/claim_paraphrases_fresh.json`` (92 cases over 10 new passages, written blind after the
  alignment grader's report runs; ``make_claim_paraphrases_fresh.py``): the same kinds, a report split only;
- ``fresh2``: ``data/eval/claim_paraphrases_fresh2.json`` (178 cases over 16 more passages, written blind on
  2026-12-04, before the round that reports on it; ``make_claim_paraphrases_fresh2.py``): a report split only;
- ``fresh3``: ``data/eval/claim_paraphrases_fresh3.json`` (196 cases over 16 more passages, written blind on
  2026-12-04 before the second round of that day; ``make_claim_paraphrases_fresh3.py``): a report split only;
- ``fresh4``: ``data/eval/claim_paraphrases_fresh4.json`` (213 cases over 16 more passages, written blind on
  2026-12-06 for the next round, never run yet; ``make_claim_paraphrases_fresh4.py``): a report split only.

Each case is one passage and one answer; the grader sees only ``[passage]`` and the answer.

- For the unsupported types (appended clause, negation flip, quantifier change, attribute swap, entity
  swap, changed number) the figure is **recall**: the share the grader flags as not grounded.
- For the faithful types (copied, paraphrased) it is the **false-alarm rate**: the share it flags anyway;
  for the paraphrase set also per rewording move (``false_alarms_by_move``).
- ``fired``: how often each check was the one that failed a case, per type (counts only, so a report run
  shows which checks work without showing any case).

Graders (``--grader``): ``claims`` (the default ``LocalHallucinationGrader``), ``sentence``
(``check_claims=False``: each sentence one claim), ``old`` (the claim grader this one replaced, loaded from
git at ``OLD_GRADER_REV``; ``--old-sentence`` for its sentence-level mode). ``--param name=value`` passes a
constructor argument (tuning on ``tune`` only). The selection rule is in ``benchmarks/roles/README.md``.

``--dev-pool ROUND`` pools every split of the sets a round reads as dev sets (``DEV_POOLS``) and prints the pooled
figures its rule compares (aggregates; ``--show-errors`` is for one set's tune split).

Run (from the project folder)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/claim_grader.py --set paraphrases --split report --save roles_paraphrases_report
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/claim_grader.py --set cases --split tune --show-errors   # tuning only

``--show-errors`` is refused on the report split: its per-case mistakes are never printed or written.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import module_from_git, write_result  # noqa: E402
from make_claim_cases import claim_cases_sha256, load_claim_cases  # noqa: E402
from make_claim_paraphrases import claim_paraphrases_sha256, load_claim_paraphrases  # noqa: E402
from make_claim_paraphrases_fresh import claim_paraphrases_fresh_sha256, load_claim_paraphrases_fresh  # noqa: E402
from make_claim_paraphrases_fresh2 import claim_paraphrases_fresh2_sha256, load_claim_paraphrases_fresh2  # noqa: E402
from make_claim_paraphrases_fresh3 import claim_paraphrases_fresh3_sha256, load_claim_paraphrases_fresh3  # noqa: E402
from make_claim_paraphrases_fresh4 import claim_paraphrases_fresh4_sha256, load_claim_paraphrases_fresh4  # noqa: E402

FAITHFUL = ("copied_faithful", "paraphrased_faithful")
SETS = {"cases": ("data/eval/claim_cases.json", load_claim_cases, claim_cases_sha256),
        "paraphrases": ("data/eval/claim_paraphrases.json", load_claim_paraphrases, claim_paraphrases_sha256),
        "fresh": ("data/eval/claim_paraphrases_fresh.json", load_claim_paraphrases_fresh, claim_paraphrases_fresh_sha256),
        "fresh2": ("data/eval/claim_paraphrases_fresh2.json", load_claim_paraphrases_fresh2,
                   claim_paraphrases_fresh2_sha256),
        "fresh3": ("data/eval/claim_paraphrases_fresh3.json", load_claim_paraphrases_fresh3,
                   claim_paraphrases_fresh3_sha256),
        "fresh4": ("data/eval/claim_paraphrases_fresh4.json", load_claim_paraphrases_fresh4,
                   claim_paraphrases_fresh4_sha256)}
OLD_GRADER_REV = "08dd4206ceab4a8bd11ba848d77f416ce369890e"  # main before the alignment grader
OLD_GRADER_BARS = {"claim_bar": 0.65, "coverage_bar": 0.7}  # ragkit.defaults.VERIFIER at OLD_GRADER_REV
SELECTION_RULE = ("choices made on the TUNE halves of both sets only: admissible when paraphrase false alarms <= 0.10 "
                  "on each tune half and no copied answer is flagged; best = highest mean recall over the six error "
                  "types averaged over the two tune halves (within 0.01: the simpler setting, then fewer false "
                  "alarms); each report half run once with the chosen setting (benchmarks/roles/README.md)")


def make_grader(kind: str, params: dict):
    """The grader to measure: ``claims`` (default), ``sentence`` (check_claims=False) or ``old`` (from git)."""
    if kind == "old":
        import dataclasses
        import types

        import ragkit.defaults as defaults

        current = defaults.VERIFIER  # the old grader read its own bars from the defaults of its day
        defaults.VERIFIER = types.SimpleNamespace(**{**dataclasses.asdict(current), **OLD_GRADER_BARS})
        nlp = sys.modules["ragkit.core.nlp"]  # and its own text helpers (core.nlp has changed since)
        sys.modules["ragkit.core.nlp"] = module_from_git(OLD_GRADER_REV, "ragkit/core/nlp.py", "ragkit_nlp_old")
        try:
            old = module_from_git(OLD_GRADER_REV, "ragkit/offline/claims.py", "ragkit_claims_old")
        finally:
            defaults.VERIFIER, sys.modules["ragkit.core.nlp"] = current, nlp
        return old.LocalHallucinationGrader(**params)
    from ragkit.offline.claims import LocalHallucinationGrader

    return LocalHallucinationGrader(**({"check_claims": False} if kind == "sentence" else {}), **params)


def score(cases: list[dict], flagged: list[bool]) -> dict:
    """Per type: n and the share flagged (recall for unsupported types, false alarms for faithful ones)."""
    by_type: dict[str, list[bool]] = defaultdict(list)
    by_move: dict[str, list[bool]] = defaultdict(list)
    for case, flag in zip(cases, flagged):
        by_type[case["type"]].append(flag)
        for move in case.get("moves", ()):
            by_move[move].append(flag)
    rows = {kind: {"n": len(v), ("false_alarms" if kind in FAITHFUL else "recall"): round(sum(v) / len(v), 4)}
            for kind, v in sorted(by_type.items())}
    unsupported = [f for c, f in zip(cases, flagged) if c["label"] == "unsupported"]
    faithful = [f for c, f in zip(cases, flagged) if c["type"] == "paraphrased_faithful"]
    recalls = [row["recall"] for row in rows.values() if "recall" in row]
    out = {"per_type": rows, "recall_all_unsupported": round(sum(unsupported) / max(len(unsupported), 1), 4),
           "mean_recall_over_types": round(sum(recalls) / max(len(recalls), 1), 4),
           "false_alarms_paraphrased": round(sum(faithful) / max(len(faithful), 1), 4)}
    if by_move:
        out["false_alarms_by_move"] = {m: {"n": len(v), "false_alarms": round(sum(v) / len(v), 4)}
                                       for m, v in sorted(by_move.items())}
    return out


def run(grader, cases: list[dict]) -> tuple[list[bool], dict[str, dict[str, int]]]:
    """Per case, True where the grader flags the answer as not grounded in its passage; and per type, how
    often each check was the first to fail a case."""
    flagged, fired = [], defaultdict(lambda: defaultdict(int))
    for case in cases:
        checks = [r.check for r in grader.explain([case["document"]], case["answer"]) if not r.supported]
        flagged.append(bool(checks))
        if checks:
            fired[case["type"]][checks[0]] += 1
    return flagged, {kind: dict(sorted(counts.items())) for kind, counts in sorted(fired.items())}


def _param(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value


# The dev pool of each round (benchmarks/roles/README.md): every split of the sets whose errors have been read.
DEV_POOLS = {"2026-12-04": ("paraphrases", "cases", "fresh"), "2026-12-04b": ("paraphrases", "cases", "fresh", "fresh2"),
             "2026-12-06": ("paraphrases", "cases", "fresh", "fresh2", "fresh3")}  # the next round's; fresh4 its report


def dev_pool(grader, names: Sequence[str]) -> dict:
    """The pooled figures of a round's dev sets (all their cases: a fresh set's report split, the others' both)."""
    cases = [case for name in names for split in (("report",) if name.startswith("fresh") else ("tune", "report"))
             for case in SETS[name][1](split)]
    flagged, fired = run(grader, cases)
    return {**score(cases, flagged), "fired": fired, "sets": list(names), "cases": len(cases)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="cases", dest="which")
    parser.add_argument("--split", choices=("tune", "report"))
    parser.add_argument("--dev-pool", choices=sorted(DEV_POOLS),
                        help="instead of one set: a round's dev pool, pooled (aggregates; the round's rule reads these)")
    parser.add_argument("--grader", choices=("claims", "sentence", "old"), default="claims")
    parser.add_argument("--param", action="append", default=[], type=_param, metavar="NAME=VALUE",
                        help="a grader constructor argument (repeatable)")
    parser.add_argument("--show-errors", action="store_true", help="print each missed case (tune split only)")
    parser.add_argument("--save", default="", help="write benchmarks/results/<NAME>.json")
    args = parser.parse_args(argv)
    if args.dev_pool:
        pooled = dev_pool(make_grader(args.grader, dict(args.param)), DEV_POOLS[args.dev_pool])
        print(f"dev pool {args.dev_pool} ({', '.join(pooled['sets'])}; {pooled['cases']} cases) {args.grader}: false alarms "
              f"on paraphrases {pooled['false_alarms_paraphrased']:.4f}, mean recall over types "
              f"{pooled['mean_recall_over_types']:.4f}")
        for kind, row in pooled["per_type"].items():
            print(f"    {kind:22} {row}  {pooled['fired'].get(kind, '')}")
        return 0
    if args.split is None:
        parser.error("--split is required (or --dev-pool)")
    if args.show_errors and args.split == "report":
        parser.error("--show-errors is for the tune split only: the report split's mistakes are never shown")

    path, load, sha256 = SETS[args.which]
    cases = load(args.split)
    params = dict(args.param)
    grader = make_grader(args.grader, params)
    flagged, fired = run(grader, cases)
    result = score(cases, flagged)
    result["fired"] = fired
    print(f"{args.which}/{args.split} {args.grader} {params or ''}: recall (all unsupported) "
          f"{result['recall_all_unsupported']:.3f}, mean recall over types {result['mean_recall_over_types']:.3f}, "
          f"false alarms on paraphrases {result['false_alarms_paraphrased']:.3f}")
    for kind, row in result["per_type"].items():
        print(f"    {kind:22} {row}  {fired.get(kind, '')}")
    for move, row in result.get("false_alarms_by_move", {}).items():
        print(f"    move {move:17} {row}")
    if args.show_errors:
        for case, flag in zip(cases, flagged):
            if flag == (case["label"] == "supported"):
                notes = [f"{r.check}: {r.reason}" for r in grader.explain([case["document"]], case["answer"])
                         if not r.supported]
                print(f"  MISS {case['id']} {case['type']}: {case['answer']}\n        {notes}")
    if args.save:
        settings = {n: getattr(grader, n) for n in ("support_bar", "check_claims", "claim_bar", "coverage_bar",
                                                    "synonym_bar", "checks") if hasattr(grader, n)}
        settings = {k: sorted(v) if isinstance(v, frozenset) else v for k, v in settings.items()}
        record = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/claim_grader.py " + " ".join(argv or sys.argv[1:]),
                  "set": path, "sha256": sha256(), "split": args.split, "grader": args.grader,
                  "old_grader_rev": OLD_GRADER_REV if args.grader == "old" else None, "params": params,
                  "cases": len(cases), "settings": settings, "selection_rule": SELECTION_RULE, "results": result}
        print("written", write_result(args.save, record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
