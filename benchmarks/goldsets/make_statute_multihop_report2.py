"""Write the second report set of multi-hop statute questions, ``data/eval/statute_multihop_report2.json``.

Written blind on 2026-12-03 for ragkit issue 22 (multi-hop statute questions) from the Coastal Waters Act
(``data/statute.md``) alone, BEFORE the round it reports on: the writer read only the statute, the freeze API and
the format of ``make_statute_multihop_held_out.py`` (its docstring and code, not its questions), and did not open
any earlier statute gold set, the statute graph or its benchmarks, nor run any retriever or graph on these
questions. Frozen in ``data/eval/MANIFEST.json`` before that round and scored once, aggregates only. Each of the
18 questions needs two articles:

- **penalty -> offence** (9): the fine or sanction is in Article 35 or 36, the rule broken in the article the
  penalty paragraph cites; the question describes the conduct in its own words (a skipper, a fish farm, a
  harbour master, a tourist) and names neither article nor paragraph ("what fine can I get for ...?");
- **defined term** (9): the rule is in one article and the answer turns on a word that Article 3 defines; the
  question uses an everyday description that falls under the defined term without naming it (a seal is a
  marine mammal, kelp on ropes is aquaculture, a floating platform is a vessel, selling the catch makes
  fishing commercial, ...), so answering needs the definition and the rule.

Gold fields, the checks run before every write and the within-set cosine check (``--check-near``, bar 0.9):
``statute_multihop_sets.py``. Being blind, the set was not compared with the earlier statute sets.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report2.py              # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report2.py --check-near # the within-set check
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report2.py --write      # write it (refused once frozen)

Limits: one writer's questions and labels, no second reader; 18 questions give a binomial standard error of
about 0.11 near 0.7 (about 0.15 for each pattern's 9).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statute_multihop_sets import DEFINED, NEAR, PENALTY, Item, builder_main  # noqa: E402

NAME = "statute_multihop_report2.json"
# (question, gold articles, gold paragraphs, pattern, answer)
ITEMS: list[Item] = [
    # --- penalty -> offence ---
    ("Our permit for building the new marina only allows work in daylight, but the contractor kept the pile "
     "driver going all night to catch up. What fine are we looking at?",
     [35, 10], ["35(1)", "10(1)", "10(4)"], PENALTY,
     "Breaching a condition of the permit, such as its limit on working hours, is punishable by a fine of up to "
     "50,000 crowns."),
    ("How much can I be fined for taking my trawler out after cod in the middle of April?",
     [35, 16], ["35(2)", "16(2)"], PENALTY,
     "Commercial fishing for cod is prohibited from 1 March to 30 April, and the master can be fined up to 80,000 "
     "crowns and have the catch on board forfeited."),
    ("I'm a trawlerman and the net I drag along the bottom has 80 mm meshes. What happens if an inspector "
     "catches me fishing with it?",
     [35, 17], ["35(2)", "17(1)"], PENALTY,
     "A bottom trawl net must have a mesh of at least 90 millimetres, and fishing with prohibited gear is "
     "punishable by a fine of up to 80,000 crowns plus forfeiture of the catch on board."),
    ("As skipper I only sent in the paperwork declaring what I'd brought ashore a full week after unloading at "
     "the harbour. What's the maximum penalty?",
     [35, 18], ["35(3)", "18(2)"], PENALTY,
     "The master must send the landing declaration within 48 hours of landing, and failing to do so is "
     "punishable by a fine of up to 40,000 crowns."),
    ("A storm ripped one of our salmon pens and thousands of fish got out, but the farm never told anyone. "
     "What fine could the farm get?",
     [35, 20], ["35(4)", "20(1)"], PENALTY,
     "An escape must be reported to the Authority within 24 hours, and an operator who fails to report it is "
     "liable to a fine of up to 60,000 crowns."),
    ("Our engineer pumped oily bilge water straight over the side of our 2,000-tonne cargo ship near the coast, "
     "without running it through the separator. What can the owner and I be fined?",
     [36, 21], ["36(1)", "21(1)"], PENALTY,
     "For a vessel of 400 gross tonnage or more the owner and the master are each liable to a fine of up to "
     "500,000 crowns."),
    ("Harbour master here: a bulk carrier in from overseas emptied its ballast tanks alongside the quay with no "
     "treatment and no mid-ocean exchange. How large a fine is possible?",
     [36, 23], ["36(2)", "23(1)"], PENALTY,
     "Discharging untreated and unexchanged ballast water in coastal waters is punishable by a fine of up to "
     "75,000 crowns."),
    ("I saw a big oil slick coming from another ship while I was out on my fishing boat and didn't call it in. "
     "Can I be fined for keeping quiet, and how much?",
     [36, 25], ["36(3)", "25(1)"], PENALTY,
     "A master who witnesses an oil discharge must report it within 2 hours, and failing to report is "
     "punishable by a fine of up to 30,000 crowns."),
    ("On holiday I rented a small sailing boat and dropped anchor right on a seagrass bed that was marked on the "
     "map of the marine reserve. How much could that cost me?",
     [36, 29], ["36(4)", "29(1)"], PENALTY,
     "Anchoring on a seagrass meadow shown on the designation map of a marine protected area is punishable by a "
     "fine of up to 25,000 crowns."),
    # --- defined term ---
    ("A grey seal came swimming right up to my motorboat. How fast am I allowed to go, and what should I do?",
     [31, 3], ["31(4)", "3(15)"], DEFINED,
     "A seal is a marine mammal, so the master must slow to no more than 5 knots and must not turn towards it."),
    ("I farm by the shore and want to knock down the old sea wall at the bottom of my field, about 70 metres "
     "above the high-tide line. Do I need permission for that?",
     [6, 3], ["6(1)", "3(4)"], DEFINED,
     "Yes: land within 100 metres of the high-water mark is part of the coastal zone, where demolishing a sea wall "
     "needs a coastal zone permit from the Authority."),
    ("I'd like to start growing kelp on ropes in the bay, about 600 metres from my neighbour's mussel lines. "
     "Can I put it there?",
     [19, 3], ["19(2)", "3(10)"], DEFINED,
     "No: growing seaweed or shellfish on lines is aquaculture, and a new aquaculture site must be at least 1,000 "
     "metres from any other aquaculture site."),
    ("I catch mackerel with a rod from my little boat and sell a few to the restaurant on the quay. Does that "
     "mean I need some kind of licence?",
     [14, 3], ["14(1)", "14(3)", "3(11)"], DEFINED,
     "Yes: fishing where the catch is sold is commercial fishing, which needs a commercial fishing licence for the "
     "vessel, and a recreational fisher may not sell the catch."),
    ("We tow a floating diving platform out into the bay for tourists. If a coastal inspector wants to climb "
     "aboard and look around, do we have to let them?",
     [33, 3], ["33(2)", "3(5)"], DEFINED,
     "Yes: a floating platform counts as a vessel, and an inspector may board and inspect any vessel in coastal "
     "waters."),
    ("Is it legal to run my bottom trawl 2 nautical miles out from the low-tide line marked on the official sea "
     "chart?",
     [16, 3], ["16(1)", "3(2)"], DEFINED,
     "No: the baseline is the low-water line on the official charts, and bottom trawling is prohibited within 3 "
     "nautical miles of it."),
    ("Could the government turn the reef about 10 nautical miles off our harbour into a marine reserve under this "
     "law?",
     [28, 3], ["28(1)", "3(3)"], DEFINED,
     "Yes: sea within 12 nautical miles of the baseline is coastal waters, and the Minister may, on the Authority's "
     "advice, designate an area of coastal waters as a marine protected area."),
    ("The overflow pipe from our campsite's septic tank sends raw sewage across the beach into the sea. Do we need "
     "a permit for that?",
     [24, 3], ["24(1)", "3(9)"], DEFINED,
     "Yes: untreated sewage is a harmful substance, and discharging it into coastal waters from a pipe or drain on "
     "land requires a discharge permit from the Authority."),
    ("The tonnage certificate of my fishing boat says 120 tonnes. Do we have to keep a log of our rubbish and hand "
     "it in at port?",
     [22, 3], ["22(3)", "3(16)"], DEFINED,
     "Yes: gross tonnage is the tonnage in the vessel's certificate, and every vessel of 100 gross tonnage or more "
     "must keep a garbage record book and deliver its garbage to port reception facilities."),
]

ABOUT = (
    "Second report set of multi-hop statute questions for ragkit issue 22, written blind on 2026-12-03 from the "
    "Coastal Waters Act (data/statute.md) only, before the round it reports on, without reading the earlier statute "
    "sets or running any statute graph or retriever on them; frozen first, then scored once, aggregates only. "
    "18 questions: 9 penalty->offence (a fine in Article 35 or 36 and the offence article it cites, conduct "
    "described in the asker's own words) and 9 defined term (a rule's article and Article 3, whose defined word "
    "the question covers with an everyday description). No two questions within MiniLM cosine "
    f"{NEAR} of each other; not compared with earlier sets (blind). One writer's labels.")

def penalty_problem(arts: list[int]) -> str:
    return "" if {35, 36} & set(arts) else "a penalty item needs Article 35 or 36"


def main(argv: list[str] | None = None) -> int:
    return builder_main(__doc__, NAME, ITEMS, ABOUT, "mh2", penalty_problem, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
