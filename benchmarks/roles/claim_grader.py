"""The hallucination grader on labelled claim cases: recall per error type, false alarms on faithful answers.

Data: ``data/eval/claim_cases.json`` (402 cases written blind from SQuAD 2.0, SciFact and the bundled data,
frozen; see ``benchmarks/roles/make_claim_cases.py``), split into a ``tune`` half and a ``report`` half.
Each case is one passage and one answer; the grader sees only ``[passage]`` and the answer.

- For the unsupported types (appended clause, negation flip, quantifier change, attribute swap, entity
  swap, changed number) the figure is **recall**: the share the grader flags as not grounded.
- For the faithful types (copied, paraphrased) it is the **false-alarm rate**: the share it flags anyway.
  Verbatim copies are supported by construction; the paraphrases are the honest test.
- ``fired``: for the claim grader, how often each check was the one that failed a case, per type
  (counts only, so a report run shows which checks work without showing any case).

Graders: ``--grader claims`` (the default ``LocalHallucinationGrader``) or ``--grader sentence``
(``check_claims=False``, the sentence-level grader it replaced, kept as the baseline).

Selection rule, fixed before the report half was run: every choice of the claim checks (which source unit
each compares with, counting negations vs their parity, the appended-clause bars) is made on the TUNE half
only, taking the best mean recall over the six unsupported types subject to false alarms on paraphrased
faithful answers <= 0.10; the appended-clause bars are the lowest at which that check alone catches the
most appended clauses while flagging no faithful tune answer. The report half is then run once per final
setting (the claim grader with its defaults, and the sentence baseline).

Run (from the project folder)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/claim_grader.py --split report --save roles_claims_report
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/claim_grader.py --split tune --show-errors   # tuning only

``--show-errors`` is refused on the report split: its per-case mistakes are never printed or written.
``--bars`` scores several support bars at once (the grader's ``support_bar``), for tuning on ``tune``;
``--claim-bar`` and ``--coverage-bar`` set the appended-clause bars (claim grader only).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import write_result  # noqa: E402
from make_claim_cases import claim_cases_sha256, load_claim_cases  # noqa: E402

FAITHFUL = ("copied_faithful", "paraphrased_faithful")
SELECTION_RULE = ("choices made on the tune half only: best mean recall over the six unsupported types subject "
                  "to paraphrase false alarms <= 0.10; appended-clause bars: the lowest at which that check alone "
                  "catches the most appended clauses with no faithful tune answer flagged; report half run once "
                  "per final setting")


def _settings(grader) -> dict:
    """The grader's bars, as recorded in a results file."""
    names = ("support_bar", "check_claims", "claim_bar", "coverage_bar")
    return {n: getattr(grader, n) for n in names if hasattr(grader, n)}


def score(cases: list[dict], flagged: list[bool]) -> dict:
    """Per type: n and the share flagged (recall for unsupported types, false alarms for faithful ones)."""
    by_type: dict[str, list[bool]] = defaultdict(list)
    for case, flag in zip(cases, flagged):
        by_type[case["type"]].append(flag)
    rows = {kind: {"n": len(v), ("false_alarms" if kind in FAITHFUL else "recall"): round(sum(v) / len(v), 4)}
            for kind, v in sorted(by_type.items())}
    unsupported = [f for c, f in zip(cases, flagged) if c["label"] == "unsupported"]
    faithful = [f for c, f in zip(cases, flagged) if c["type"] == "paraphrased_faithful"]
    recalls = [row["recall"] for row in rows.values() if "recall" in row]
    return {"per_type": rows, "recall_all_unsupported": round(sum(unsupported) / max(len(unsupported), 1), 4),
            "mean_recall_over_types": round(sum(recalls) / max(len(recalls), 1), 4),
            "false_alarms_paraphrased": round(sum(faithful) / max(len(faithful), 1), 4)}


def run(grader, cases: list[dict]) -> tuple[list[bool], dict[str, dict[str, int]]]:
    """Per case, True where the grader flags the answer as not grounded in its passage; and per type, how
    often each claim check was the first to fail a case (empty for the sentence grader)."""
    flagged, fired = [], defaultdict(lambda: defaultdict(int))
    for case in cases:
        if getattr(grader, "check_claims", False):
            checks = [r.check for r in grader.explain([case["document"]], case["answer"]) if not r.supported]
            flagged.append(bool(checks))
            if checks:
                fired[case["type"]][checks[0]] += 1
        else:
            flagged.append(not grader.check([case["document"]], case["answer"]).grounded)
    return flagged, {kind: dict(sorted(counts.items())) for kind, counts in sorted(fired.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "report"), required=True)
    parser.add_argument("--grader", choices=("sentence", "claims"), default="claims",
                        help="sentence: LocalHallucinationGrader(check_claims=False); claims: the default")
    parser.add_argument("--bars", default="", help="comma-separated support bars to score (default: the grader's own)")
    parser.add_argument("--claim-bar", type=float, default=None, help="the appended-clause similarity bar")
    parser.add_argument("--coverage-bar", type=float, default=None, help="the appended-clause word-coverage bar")
    parser.add_argument("--show-errors", action="store_true", help="print each missed case (tune split only)")
    parser.add_argument("--save", default="", help="write benchmarks/results/<NAME>.json")
    args = parser.parse_args(argv)
    if args.show_errors and args.split == "report":
        parser.error("--show-errors is for the tune split only: the report split's mistakes are never shown")

    from ragkit.defaults import VERIFIER
    from ragkit.offline.claims import LocalHallucinationGrader

    cases = load_claim_cases(args.split)
    bars = [float(b) for b in args.bars.split(",") if b.strip()] or [VERIFIER.support_bar]
    kwargs = {"check_claims": False} if args.grader == "sentence" else {
        k: v for k, v in (("claim_bar", args.claim_bar), ("coverage_bar", args.coverage_bar)) if v is not None}
    results = {}
    for bar in bars:
        try:
            grader = LocalHallucinationGrader(support_bar=bar, **kwargs)
        except TypeError:  # a grader without claim checks (before they existed): sentence-level only
            grader = LocalHallucinationGrader(support_bar=bar)
        flagged, fired = run(grader, cases)
        results[str(bar)] = score(cases, flagged)
        if fired:
            results[str(bar)]["fired"] = fired
        print(f"bar {bar}: recall (all unsupported) {results[str(bar)]['recall_all_unsupported']:.3f}, "
              f"mean recall over types {results[str(bar)]['mean_recall_over_types']:.3f}, "
              f"false alarms on paraphrases {results[str(bar)]['false_alarms_paraphrased']:.3f}")
        for kind, row in results[str(bar)]["per_type"].items():
            print(f"    {kind:22} {row}  {fired.get(kind, '')}")
        if args.show_errors:
            for case, flag in zip(cases, flagged):
                if flag == (case["label"] == "supported"):
                    print(f"  MISS {case['id']} {case['type']}: {case['answer']}")
    if args.save:
        record = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/claim_grader.py " + " ".join(argv or sys.argv[1:]),
                  "set": "data/eval/claim_cases.json", "sha256": claim_cases_sha256(), "split": args.split,
                  "grader": args.grader, "cases": len(cases), "settings": _settings(grader),
                  "selection_rule": SELECTION_RULE, "results_by_bar": results}
        print("written", write_result(args.save, record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
