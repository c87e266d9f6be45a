"""Write the third report set of multi-hop statute questions, ``data/eval/statute_multihop_report3.json``.

Written blind on 2026-12-04 for ragkit issue 22 (multi-hop statute questions) from the Coastal Waters Act
(``data/statute.md``) alone, BEFORE the round it reports on: the writer read only the statute, the freeze API and
the format of ``make_statute_multihop_report2.py`` (its docstring and code, not its questions), and did not open
any earlier statute gold set, the statute graph or its benchmarks, nor run any retriever or graph on these
questions. Frozen in ``data/eval/MANIFEST.json`` before that round and scored once, aggregates only. Each of the
18 questions needs two articles:

- **penalty -> offence** (9): the fine or sanction is in a penalty article (35, 36 or 37), the rule broken in the
  article the penalty paragraph cites; the question describes the conduct in its own words (a kayak guide, a
  skipper, a port operator, a fish farm, a diver, a dredging contractor) and names neither article nor paragraph
  ("what fine can I get for ...?", "what's the penalty if ...");
- **defined term** (9): the rule is in one article and the answer turns on a word that Article 3 defines; the
  question uses an everyday description that falls under the defined term without naming it (a porpoise is a
  marine mammal, a moored pontoon is a vessel, mussels on ropes are aquaculture, land 60 metres from the high
  tide is in the coastal zone, the low-water line on the charts is the baseline, ...), so answering needs the
  definition and the rule.

Gold fields, the checks run before every write and the within-set cosine check (``--check-near``, bar 0.9):
``statute_multihop_sets.py``. Being blind, the set was not compared with the earlier statute sets.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report3.py              # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report3.py --check-near # the within-set check
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report3.py --write      # write it (refused once frozen)

Limits: one writer's questions and labels, no second reader; 18 questions give a binomial standard error of
about 0.11 near 0.7 (about 0.15 for each pattern's 9).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statute_multihop_sets import DEFINED, NEAR, PENALTY, Item, builder_main, penalty_problem  # noqa: E402

NAME = "statute_multihop_report3.json"
# (question, gold articles, gold paragraphs, pattern, answer)
ITEMS: list[Item] = [
    # penalty -> offence
    ("I guide sea-kayak tours, and one June morning I paddled my group to roughly 150 metres from a seal haul-out "
     "beach that has the Authority's markers on it, so they could take photos. What fine am I looking at?",
     [36, 31], ["36(4)", "31(2)"], PENALTY,
     "Up to 25,000 crowns, because from 1 May to 31 July no one may approach within 200 metres of a seal haul-out "
     "site marked by the Authority."),
    ("A bulk carrier in from an overseas port pumps out ballast it never treated or swapped at sea, right in our "
     "bay. What's the penalty?",
     [36, 23], ["36(2)", "23(1)"], PENALTY,
     "Up to 75,000 crowns, because a vessel arriving from outside the coastal waters may not discharge ballast "
     "water there unless it was treated by an approved system or exchanged at sea."),
    ("I landed my catch on a Monday but only sent the Authority my report of what I'd landed the following "
     "Saturday. How big a fine can that bring?",
     [35, 18], ["35(3)", "18(2)"], PENALTY,
     "Up to 40,000 crowns, because the master must send the landing declaration to the Authority within 48 hours "
     "of landing the catch."),
    ("A salmon farm's permit caps the tonnes of fish it may hold in its pens at any one time, but an inspection "
     "shows the company has been stocking well above that cap for months. What fine can it face?",
     [35, 19], ["35(4)", "19(3)"], PENALTY,
     "Up to 60,000 crowns, because the operator must not exceed the maximum standing biomass stated in the permit."),
    ("I skipper a licensed boat that longlines cod for the fish market, and this year we kept fishing right "
     "through the last week of March. What's the worst that can happen?",
     [35, 16], ["35(2)", "16(2)"], PENALTY,
     "A fine of up to 80,000 crowns and forfeiture of the catch on board, because all commercial fishing for cod "
     "is prohibited from 1 March to 30 April."),
    ("We run a small fishing port, and for years the washdown water from our boatyard has run straight into the "
     "harbour through an old drain, with no permit of any kind. What fine could we be hit with?",
     [36, 24], ["36(2)", "24(1)"], PENALTY,
     "Up to 75,000 crowns, because discharging waste water into coastal waters from a drain on land requires a "
     "discharge permit from the Authority."),
    ("Can a tanker captain who deliberately pumped about 3 tonnes of crude oil into the sea be sent to prison?",
     [37, 21], ["37(2)", "21(1)"], PENALTY,
     "Yes: deliberately discharging more than 1 tonne of oil in breach of the ban on oil discharges is punishable "
     "by imprisonment for up to 2 years, in addition to or instead of a fine."),
    ("Spearfishing on the reef, a diver deliberately speared a sea turtle. What fine is he facing?",
     [36, 30], ["36(4)", "30(2)", "30(1)"], PENALTY,
     "Up to 150,000 crowns, because all sea turtles are protected species and deliberately killing or injuring one "
     "is prohibited."),
    ("The contractor dredging our marina stopped measuring how cloudy the water gets and hasn't sent the "
     "Authority any results for two months. What fine could they get?",
     [35, 10], ["35(1)", "10(3)"], PENALTY,
     "Up to 50,000 crowns for breaching a permit condition, because every dredging permit requires the operator "
     "to monitor turbidity at least once a week and send the results to the Authority each month."),
    # defined term
    ("I own a beach house about 60 metres back from where the high tide reaches and want to put up a concrete sea "
     "wall in front of it. It's on my own land, not in the sea, so do I still need a permit?",
     [6, 3], ["6(1)", "3(4)"], DEFINED,
     "Yes: the coastal zone includes the land within 100 metres of the high-water mark, and building a sea wall "
     "in the coastal zone requires a coastal zone permit."),
    ("A porpoise has started swimming alongside our sailing yacht. What must the person at the helm do?",
     [31, 3], ["31(4)", "3(15)"], DEFINED,
     "A porpoise is a marine mammal, so the master must reduce speed to no more than 5 knots and must not change "
     "course towards it."),
    ("I'm a weekend angler with a rod, but lately I've been selling my mackerel to the fish shop in town. Do I "
     "need a licence for my boat?",
     [14, 3], ["14(1)", "14(3)", "3(11)"], DEFINED,
     "Yes: fishing where the catch is sold is commercial fishing, which needs a commercial fishing licence for the "
     "vessel used, since a recreational fisher may not sell the catch."),
    ("We run a floating restaurant on a moored pontoon in the bay. Can we pump our untreated toilet waste straight "
     "into the water?",
     [22, 3], ["22(1)", "3(5)"], DEFINED,
     "No: a floating platform counts as a vessel, and untreated sewage may not be discharged from a vessel within "
     "12 nautical miles of the baseline."),
    ("Our company wants to grow mussels on hanging ropes, with a permitted standing biomass of 1,200 tonnes. Does "
     "the application need an environmental impact assessment?",
     [9, 3], ["9(1)", "3(10)"], DEFINED,
     "Yes: rearing shellfish on lines is aquaculture, and an aquaculture site with a permitted maximum standing "
     "biomass above 1,000 tonnes needs an environmental impact assessment."),
    ("While I was skippering, a fuel hose on my boat split and diesel leaked into the harbour. It was a pure "
     "accident, so do I still have to report it, and how fast?",
     [25, 3], ["25(1)", "3(8)"], DEFINED,
     "Yes: a discharge is any release of a harmful substance however caused, so the master must report it to the "
     "Authority without delay and in any case within 2 hours."),
    ("In the part of the marine park where all fishing is banned, may I stop my boat for a swim?",
     [29, 3], ["29(2)", "3(13)"], DEFINED,
     "No: that part is a no-take zone, where no vessel may stop except in an emergency."),
    ("I'm not the permit holder, just the contractor who runs the salmon pens day to day. If some fish get out, is "
     "it on me to tell the Authority, and by when?",
     [20, 3], ["20(1)", "3(7)"], DEFINED,
     "Yes: whoever controls the activity is the operator, and the operator must report an escape to the Authority "
     "within 24 hours of discovering it."),
    ("Is a trawler allowed to drag its net along the seabed 2 nautical miles out from the low-water line on the "
     "official charts?",
     [16, 3], ["16(1)", "3(2)"], DEFINED,
     "No: the low-water line on the official charts is the baseline, and bottom trawling is prohibited within 3 "
     "nautical miles of the baseline."),
]

ABOUT = (
    "Third report set of multi-hop statute questions for ragkit issue 22, written blind on 2026-12-04 from the "
    "Coastal Waters Act (data/statute.md) only, before the round it reports on, without reading the earlier statute "
    "sets or running any statute graph or retriever on them; frozen first, then scored once, aggregates only. "
    "18 questions: 9 penalty->offence (a fine or sanction in Article 35, 36 or 37 and the offence article it cites, "
    "conduct described in the asker's own words) and 9 defined term (a rule's article and Article 3, whose defined "
    "word the question covers with an everyday description). No two questions within MiniLM cosine "
    f"{NEAR} of each other; not compared with earlier sets (blind). One writer's labels.")



def main(argv: list[str] | None = None) -> int:
    return builder_main(__doc__, NAME, ITEMS, ABOUT, "mh3", penalty_problem, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
