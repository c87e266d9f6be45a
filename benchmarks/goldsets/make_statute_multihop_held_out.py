"""Write the held-out multi-hop statute sets, ``data/eval/statute_multihop_{held_out,report}.json``.

Written for ragkit issue 22 (multi-hop statute questions) on 2026-12-03, after the second hop was built and
tuned (on dev and ``statute_multihop_dev.json``) and BEFORE any statute graph was run on these questions;
frozen in ``data/eval/MANIFEST.json`` and scored once by ``benchmarks/statute/multihop_held_out.py``,
aggregates only. Each question needs two articles of the Coastal Waters Act (``data/statute.md``):

- **penalty -> offence** (10): the fine is in Article 35 or 36, the rule broken in the article that one
  cites; the question describes the conduct in its own words and names neither article;
- **defined term** (4): the rule's article and Article 3, which defines a word the question turns on
  ("a seal" is a marine mammal, "60 metres inland" is in the coastal zone).

A second set, ``data/eval/statute_multihop_report.json`` (``REPORT_ITEMS``: 10 and 4 again, other conduct and
other definitions), was written the same day after the held-out set had been scored once and before anything was
changed for it, and frozen before that work began: the held-out set then served as a dev set, and the report set
is scored once on what that work produced.

Hygiene, checked before freezing by ``--check-near`` (which reads only questions, no labels and no run): no
question within MiniLM cosine 0.85 of a question of ``statute_qa.json``, ``statute_golden.jsonl`` or
``statute_multihop_dev.json`` (and, for the report set, of the held-out set). The writer knew the technique (the hop reads the found paragraph's
cross-references and defined terms), as the maintainers who wrote the dev set did, so this is our held-out
set, not an independent blind one.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_multihop_held_out.py              # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_held_out.py --check-near # the near-duplicate check
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_held_out.py --write      # write it (refused once frozen)

Limits: one writer's labels; 14 questions per set give a binomial standard error of about 0.12 near 0.7.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
sys.path.insert(0, str(ROOT))
from common import write_frozen_set  # noqa: E402

NEAR = 0.85
PENALTY, DEFINED = "penalty->offence", "defined term"
# (question, gold articles, gold paragraphs, pattern, answer)
ITEMS: list[tuple[str, list[int], list[str], str, str]] = [
 ("A trawler skipper never sends in a landing declaration after bringing his catch ashore. How big a fine is he "
  "looking at?", [35, 18], ["35(3)", "18(2)"], PENALTY,
  "Up to 40,000 crowns: a landing declaration is due within 48 hours of landing."),
 ("What is the most a chemical plant can be fined for piping its waste water into the sea with no discharge permit?",
  [36, 24], ["36(2)", "24(1)"], PENALTY, "Up to 75,000 crowns."),
 ("Someone drops anchor on a seagrass meadow shown on a protected area's map. What fine can they get?",
  [36, 29], ["36(4)", "29(1)"], PENALTY, "Up to 25,000 crowns."),
 ("In June a photographer walks to within 100 metres of a marked seal haul-out site. Can she be fined, and how much?",
  [36, 31], ["36(4)", "31(2)"], PENALTY,
  "Yes, up to 25,000 crowns: from 1 May to 31 July no one may come within 200 metres of a marked haul-out site."),
 ("How much can the master of a yacht be fined for pumping untreated sewage overboard five nautical miles off the coast?",
  [36, 22], ["36(2)", "22(1)"], PENALTY,
  "Up to 75,000 crowns: untreated sewage may not be discharged within 12 nautical miles of the baseline."),
 ("What penalty does a fisherman face for using dynamite to catch fish?", [35, 17], ["35(2)", "17(4)"], PENALTY,
  "A fine of up to 80,000 crowns, and the catch on board is forfeited: explosives are prohibited in all circumstances."),
 ("A salmon farm finds a notifiable disease among its fish and tells no one. What is the maximum fine?",
  [35, 20], ["35(4)", "20(3)"], PENALTY, "Up to 60,000 crowns: an outbreak must be reported within 24 hours."),
 ("What could a skipper be fined for dragging a bottom trawl two nautical miles from the low-water line?",
  [35, 16], ["35(2)", "16(1)"], PENALTY,
  "Up to 80,000 crowns and the catch forfeited: bottom trawling is banned within 3 nautical miles of the baseline."),
 ("A telecom company lays a cable across the seabed in the bay without asking anyone. How much can it be fined?",
  [35, 6], ["35(1)", "6(1)"], PENALTY, "Up to 50,000 crowns: laying a cable needs a coastal zone permit."),
 ("My neighbour sells the fish he catches from his boat but has never had a licence. What fine does he risk?",
  [35, 14], ["35(2)", "14(1)"], PENALTY,
  "Up to 80,000 crowns, and the catch on board is forfeited: commercial fishing needs a licence for the vessel."),
 ("Does the Act cover a beach cafe built 60 metres inland from the high-water mark?", [2, 3], ["2(1)", "3(4)"], DEFINED,
  "Yes: the Act applies to the coastal zone, which includes the land within 100 metres of the high-water mark."),
 ("A seal swims up to my motorboat. Do I have to slow down?", [31, 3], ["31(4)", "3(15)"], DEFINED,
  "Yes: a seal is a marine mammal, and when one approaches the master must slow to no more than 5 knots."),
 ("How far out to sea does the spring closure for cod and herring reach?", [16, 3], ["16(2)", "3(3)"], DEFINED,
  "It covers the coastal waters: the sea within 12 nautical miles of the baseline."),
 ("Is an accidental spill of a noxious liquid from a factory covered by the ban on discharges?", [21, 3],
  ["21(2)", "3(8)"], DEFINED,
  "Yes: a discharge is any release of a harmful substance however caused, and noxious liquids are harmful substances."),
]


REPORT_ITEMS: list[tuple[str, list[int], list[str], str, str]] = [
 ("A whale-watching boat takes its passengers to 150 metres from a humpback and her calf. Can the skipper be fined?",
  [36, 31], ["36(4)", "31(1)"], PENALTY, "Yes, up to 25,000 crowns: a whale with a calf must be given at least 300 metres."),
 ("Divers collect shells and stones from the seabed inside a marine protected area. How much could they be fined?",
  [36, 29], ["36(4)", "29(1)"], PENALTY, "Up to 25,000 crowns."),
 ("What fine does a skipper risk for fishing inside a no-take zone?", [35, 16], ["35(2)", "16(4)"], PENALTY,
  "Up to 80,000 crowns, and the catch on board is forfeited: all fishing is prohibited in a no-take zone."),
 ("The engine room of a 30-tonne fishing boat leaks oil into the harbour. What is the most its owner can be fined?",
  [36, 21], ["36(1)", "21(1)"], PENALTY, "Up to 100,000 crowns: the vessel is under 400 gross tonnage."),
 ("A contractor sucks sand off the seabed for a building site without any permit. What is the maximum fine?",
  [35, 6], ["35(1)", "6(1)"], PENALTY, "Up to 50,000 crowns: extracting sand from the seabed needs a coastal zone permit."),
 ("Lobster pots are left in the water with no buoys showing whose they are. What fine applies?",
  [35, 17], ["35(2)", "17(3)"], PENALTY, "Up to 80,000 crowns, and the catch on board is forfeited."),
 ("A commercial fisherman keeps no record of his trips or catches. What can he be fined?", [35, 18], ["35(3)", "18(1)"],
  PENALTY, "Up to 40,000 crowns: the master must keep a logbook."),
 ("The crew of a ferry throws its rubbish over the side in the bay. How big is the fine?", [36, 22], ["36(2)", "22(2)"],
  PENALTY, "Up to 75,000 crowns: no garbage of any kind may be discharged from a vessel in coastal waters."),
 ("A port keeps an oil leak at its quay to itself for half a day. What fine can the port operator get?",
  [36, 25], ["36(3)", "25(2)"], PENALTY, "Up to 30,000 crowns: the port had to report within 2 hours."),
 ("Someone fishes for cod with a licensed trawler in the middle of March. What is the penalty?", [35, 16],
  ["35(2)", "16(2)"], PENALTY, "Up to 80,000 crowns and the catch forfeited: cod fishing is closed from 1 March to 30 April."),
 ("I only fish to sell to two restaurants in town. Do I need a licence?", [14, 3], ["14(1)", "3(11)"], DEFINED,
  "Yes: fishing where the catch is sold is commercial fishing, which needs a licence for the vessel."),
 ("Does the Act still apply 10 nautical miles offshore?", [2, 3], ["2(1)", "3(3)"], DEFINED,
  "Yes: the coastal waters reach 12 nautical miles from the baseline."),
 ("A contractor runs the outfall for the town. Who has to report a discharge from it that breaks the permit?",
  [25, 3], ["25(2)", "3(7)"], DEFINED, "The operator, which includes whoever controls the activity, so the contractor too."),
 ("A kayaker paddles to within 30 metres of a dolphin. Does the distance rule for vessels apply to a kayak?",
  [31, 3], ["31(1)", "3(5)"], DEFINED, "Yes: a vessel is any craft on or under the water, so 100 metres applies."),
]
SETS = {
    "statute_multihop_held_out.json": (ITEMS, "mhh", (
        "Held-out multi-hop statute questions written by us (the ragkit maintainers) on 2026-12-03 for issue 22, "
        "after the second hop was tuned and before any statute graph was run on them; scored once "
        "(benchmarks/statute/multihop_held_out.py), aggregates only. Each needs two articles: a penalty article "
        "and the offence article it cites, or an article and the definitions article. Checked automatically "
        f"(questions only) to be no near-duplicate (MiniLM cosine < {NEAR}) of statute_qa.json, "
        "statute_golden.jsonl or statute_multihop_dev.json.")),
    "statute_multihop_report.json": (REPORT_ITEMS, "mhr", (
        "A second set of multi-hop statute questions written by us on 2026-12-03 for issue 22, after the held-out "
        "set was scored once and before anything was changed for it; frozen first, then reported once on the "
        "statute graph that the work after that run produces, aggregates only. Same patterns and rules as "
        "statute_multihop_held_out.json; checked automatically (questions only) to be no near-duplicate "
        f"(MiniLM cosine < {NEAR}) of statute_qa.json, statute_golden.jsonl, statute_multihop_dev.json or "
        "statute_multihop_held_out.json.")),
}


def build(name: str = "statute_multihop_held_out.json") -> str:
    rows, prefix, about = SETS[name]
    items = [{"id": f"{prefix}-{i:02d}", "question": q, "gold_articles": arts, "gold_paragraphs": paras, "pattern": pattern,
              "answer": answer} for i, (q, arts, paras, pattern, answer) in enumerate(rows, 1)]
    assert len({item["question"] for item in items}) == len(items)
    return json.dumps({"about": about, "items": items}, indent=1, ensure_ascii=False) + "\n"


def check_near(name: str) -> int:
    """Print each question's highest MiniLM cosine to an earlier statute question (questions only); 1 if any >= NEAR."""
    import numpy as np

    from ragkit.core.embeddings import embed, load_embedder

    eval_dir = ROOT / "data" / "eval"
    others = [i["question"] for i in json.loads((eval_dir / "statute_qa.json").read_text(encoding="utf-8"))]
    others += [json.loads(line)["question"] for line in (eval_dir / "statute_golden.jsonl").read_text(encoding="utf-8").splitlines() if line]
    others += [i["question"] for i in json.loads((eval_dir / "statute_multihop_dev.json").read_text(encoding="utf-8"))["items"]]
    earlier = list(SETS)[: list(SETS).index(name)]
    others += [q for set_name in earlier for q, *_ in SETS[set_name][0]]
    embedder = load_embedder()
    mine = [q for q, *_ in SETS[name][0]]
    sims = embed(embedder, mine) @ embed(embedder, others).T
    worst = 0.0
    for question, row in zip(mine, sims):
        best = float(np.max(row))
        worst = max(worst, best)
        print(f"{best:.3f}  {question}")
    print(f"highest {worst:.3f} (bar {NEAR})")
    return int(worst >= NEAR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the files (a frozen one is never overwritten)")
    parser.add_argument("--check-near", action="store_true", help="the near-duplicate check against earlier statute sets")
    args = parser.parse_args(argv)
    status = 0
    for name in SETS:
        status |= check_near(name) if args.check_near else write_frozen_set(build(name), ROOT / "data" / "eval" / name, check=not args.write)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
