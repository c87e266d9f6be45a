"""Build ``data/eval/statute_multihop_report7.json``: the seventh blind report set of multi-hop statute questions.

Written blind on 2026-12-06 for ragkit issue 22 (multi-hop statute questions) from the Coastal Waters Act
(``data/statute.md``) alone, for the NEXT statute round (the one after the 2026-12-06 round). The writer read only
the Act, the shared builder helpers (``statute_multihop_sets.py``), the part of ``benchmarks/roles/common.py`` that
shows how ``builder_main`` reads its arguments, and the code after the ``ITEMS`` list of
``make_statute_multihop_report5.py`` (its ``ABOUT``, ``penalty_problem`` and ``main``) to copy the structure; a grep
also showed that builder's import lines and five single lines of its docstring, none with question text. No other
report set's questions or docstring, no earlier statute gold set, no results file and no ragkit, test or notebook
file was opened, and no retriever, statute graph or model was run on these questions (only this builder's own
``--check-near``, which embeds the questions to compare them with each other).

Use: frozen in ``data/eval/MANIFEST.json`` before the round it reports on, scored once in that round, and reported
as aggregates only (never question by question, never tuned on).

Patterns (9 each):

* penalty->offence: a fine in Article 35 or 36 and the rule its paragraph cites, told in the asker's own words --
  a council's marina contractor working outside the permitted hours, a bottom trawl with too small a mesh, a late
  landing declaration, an unreported salmon escape, oily bilge water pumped out in harbour, farm yard washings piped
  into the bay, untreated ballast water pumped out by a ship from overseas, an oil slick seen and not reported, and
  teenagers injuring a sea turtle.
* defined term: a rule and the Article 3 definition its key word needs, the question describing the thing without
  the defined word -- a floating restaurant's toilets (vessel), a seal swimming up to a boat (marine mammal), mussel
  ropes near an oyster farm (aquaculture), herring sold at a market in March (commercial fishing), diesel spilt by
  accident while refuelling (discharge), a slipway and shed 80 metres above high tide (coastal zone), trawling two
  miles off the charted low-water line (baseline), a hired skipper and the licence left ashore (master), and
  stopping a boat for a swim in the part of a marine park closed to all fishing (no-take zone).

Gold fields, the checks run before every write and the within-set cosine check (``--check-near``, bar 0.9): see
``statute_multihop_sets.py``.

Run::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_statute_multihop_report7.py --check-near
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report7.py --write

Limits: one writer's questions and labels, no second reader; 18 questions give a binomial standard error of about
0.11 on an accuracy (0.12 at 50 percent), so only large differences between systems mean anything.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statute_multihop_sets import DEFINED, NEAR, PENALTY, Item, builder_main, penalty_problem  # noqa: E402

NAME = "statute_multihop_report7.json"

ITEMS: list[Item] = [
    # penalty -> offence
    (
        "I work in the harbour department of our town council. The council holds the permit for the marina "
        "extension, and the permit only allows work between seven in the morning and seven in the evening. The "
        "contractor has started running the pile driver at night to catch up. If this comes out, what is the "
        "council looking at?",
        [35, 10], ["35(1)", "10(1)", "10(4)"], PENALTY,
        "The operator must comply with every condition of the permit, including limits on working hours, and "
        "breaching a condition of a permit is liable to a fine of up to 50,000 crowns.",
    ),
    (
        "we tow a bottom trawl with 75 mm mesh because the bigger mesh lets too much go, and land it at the auction "
        "every week. inspector is due tuesday. how bad is it if they measure the net",
        [35, 17], ["35(2)", "17(1)"], PENALTY,
        "A bottom trawl net must have a mesh of at least 90 millimetres; a master fishing commercially with "
        "prohibited gear is liable to a fine of up to 80,000 crowns, and the catch on board is forfeited.",
    ),
    (
        "Honest mistake: after we came in on Friday I completely forgot to send in the landing paperwork for the "
        "catch and only did it the following Wednesday. Am I in trouble, and for how much?",
        [35, 18], ["35(3)", "18(2)"], PENALTY,
        "The master must send a landing declaration within 48 hours of landing the catch; failing to send it is "
        "liable to a fine of up to 40,000 crowns.",
    ),
    (
        "A storm tore one of the cages at our salmon farm last month and a few thousand fish got out. My site "
        "manager repaired the net but never told the coastal regulator, and I have only just found out. What is "
        "our exposure?",
        [35, 20], ["35(4)", "20(1)"], PENALTY,
        "An escape of farmed fish must be reported to the Authority within 24 hours of discovering it, and an "
        "operator who fails to report an escape is liable to a fine of up to 60,000 crowns.",
    ),
    (
        "I own a 9 metre fishing boat. Yesterday my skipper pumped the bilge out while we were tied up in the "
        "harbour and there was a rainbow sheen all over the water - we have no filter fitted at all. What fine could "
        "we get, and who pays, me or him?",
        [36, 21], ["36(1)", "21(1)"], PENALTY,
        "Oily bilge water may only go overboard at no more than 15 parts per million while under way with approved "
        "filtering equipment; for a vessel under 400 gross tonnage the owner and the master are each liable to a "
        "fine of up to 100,000 crowns.",
    ),
    (
        "On my dairy farm the yard washings run through an old pipe straight down into the bay. Never had any "
        "permission for it, it's been like that since my father's day. A neighbour is making noises now. What am I "
        "risking?",
        [36, 24], ["36(2)", "24(1)"], PENALTY,
        "Discharging waste water into coastal waters from a pipe on land needs a discharge permit from the "
        "Authority, and a breach is punishable by a fine of up to 75,000 crowns.",
    ),
    (
        "I'm chief officer on a bulk carrier coming in from overseas. Our ballast treatment unit has been broken for "
        "a week and we did no exchange on the crossing. The captain wants to pump ballast out in the bay tonight so "
        "we can load in the morning. What penalty would we be risking?",
        [36, 23], ["36(2)", "23(1)"], PENALTY,
        "A vessel arriving from outside the coastal waters may not discharge ballast water there unless it was "
        "treated by an approved system or exchanged at sea; a breach is punishable by a fine of up to 75,000 crowns.",
    ),
    (
        "Saw a big oily slick trailing behind a tanker while we were hauling pots on Monday. Didn't call anybody, "
        "figured it wasn't my business. Now my brother says skippers are supposed to report that sort of thing. "
        "Can they really fine me for keeping quiet?",
        [36, 25], ["36(3)", "25(1)"], PENALTY,
        "The master of a vessel witnessing a discharge of oil in coastal waters must report it to the Authority "
        "without delay and within 2 hours; failing to report is punishable by a fine of up to 30,000 crowns.",
    ),
    (
        "Two teenagers from next door threw rocks at a sea turtle that had come up on the beach and cracked its "
        "shell. I took photos. If I report them, what kind of fine are they looking at?",
        [36, 30], ["36(4)", "30(1)", "30(2)"], PENALTY,
        "All sea turtles are protected species, which no one may deliberately injure, and killing or injuring a "
        "protected species is punishable by a fine of up to 150,000 crowns.",
    ),
    # defined term
    (
        "We run a floating restaurant moored out in the bay. It's a big pontoon with no engine, and the toilets "
        "just empty straight into the water underneath. Is that allowed, seeing as it isn't really a boat?",
        [22, 3], ["22(1)", "3(5)"], DEFINED,
        "No: a vessel includes floating platforms, and untreated sewage must not be discharged from a vessel within "
        "12 nautical miles of the baseline; treated sewage only more than 3 nautical miles out with an approved system.",
    ),
    (
        "a seal keeps swimming right up to our little motorboat when we're out. what are we supposed to do",
        [31, 3], ["31(4)", "3(15)"], DEFINED,
        "A seal is a marine mammal, so when it approaches the vessel the master must slow to no more than 5 knots "
        "and must not change course towards it.",
    ),
    (
        "Hello, I would like to start growing mussels on hanging ropes in a sheltered inlet. There is already an "
        "oyster farm with cages about 600 metres along the shore from my spot. Can I set up there, or is that too "
        "close?",
        [19, 3], ["19(2)", "3(10)"], DEFINED,
        "Growing shellfish on lines is aquaculture, and a new aquaculture site must be at least 1,000 metres from "
        "any other aquaculture site, so the spot is too close.",
    ),
    (
        "I'm retired and go out in my dinghy for herring most mornings. Whatever we don't eat I sell at the Saturday "
        "market for a bit of pocket money. My friend says I have to stop in March and April. Is he right?",
        [16, 3], ["16(2)", "3(11)"], DEFINED,
        "Yes: fishing where the catch is sold is commercial fishing, and all commercial fishing for cod and herring "
        "is prohibited in coastal waters from 1 March to 30 April.",
    ),
    (
        "While I was refuelling this morning the nozzle slipped and maybe a couple of litres of diesel went into the "
        "marina. Total accident, nobody meant it. Do I actually have to tell anyone?",
        [25, 3], ["25(1)", "3(8)"], DEFINED,
        "Yes: any release of oil into the sea is a discharge however it was caused, so the master of the vessel "
        "involved must report it to the Authority without delay and in any case within 2 hours.",
    ),
    (
        "We're putting in a concrete slipway and a boat shed on our own land, roughly 80 metres up from where the "
        "high tide reaches. It's private property and nothing to do with the sea really. Do we need anybody's "
        "permission?",
        [6, 3], ["6(1)", "3(4)"], DEFINED,
        "Yes: the coastal zone includes the land within 100 metres of the high-water mark, and building a structure "
        "there requires a coastal zone permit from the Authority.",
    ),
    (
        "Our skipper reckons it's fine to drag the trawl along the bottom two miles off, because he measures from the "
        "high tide mark on the beach. The chart shows the low-water line further out than that. Who is right, and "
        "where does the limit actually lie?",
        [16, 3], ["16(1)", "3(2)"], DEFINED,
        "Distance is measured from the baseline, the low-water line on the official charts, and bottom trawling is "
        "prohibited within 3 nautical miles of it, so trawling two miles off is not allowed.",
    ),
    (
        "I've been hired to skipper somebody else's licensed fishing boat for the season. The owner keeps the "
        "fishing licence in a drawer at his house. If an inspector asks to see it, is that my problem or his?",
        [14, 3], ["14(4)", "3(6)"], DEFINED,
        "It is the skipper's: the master is the person in command of the vessel, and the master must carry the "
        "licence on board and show it to a coastal inspector on request.",
    ),
    (
        "Going on holiday near the marine park. The guide says one part of it is completely off limits to any kind "
        "of fishing. Can we stop the boat there for a swim and let the kids pick up a few live starfish to look at?",
        [29, 3], ["29(2)", "3(13)"], DEFINED,
        "No: in the part of a marine protected area closed to all fishing, no vessel may stop except in an "
        "emergency and no one may collect or disturb any living organism.",
    ),
]

ABOUT = (
    "Seventh report set of multi-hop statute questions for ragkit issue 22, written blind on 2026-12-06 from the "
    "Coastal Waters Act (data/statute.md) alone for the statute round after the 2026-12-06 round; the writer read "
    "only the statute, the shared builder helpers and the post-table code of the fifth set's builder (not its "
    "questions; a grep also showed its imports and five docstring lines), opened no earlier statute set and "
    "ran no statute graph, retriever or model on these questions. "
    "18 questions: 9 penalty->offence (a fine in Article 35 or 36 and the offence article it cites, conduct "
    "described in the asker's own words) and 9 defined term (a rule's article and Article 3, whose defined word "
    f"the question covers with an everyday description). No two questions within MiniLM cosine {NEAR} of each "
    "other; not compared with earlier sets (blind). One writer's labels; scored once, aggregates only."
)




def main(argv: list[str] | None = None) -> int:
    return builder_main(__doc__, NAME, ITEMS, ABOUT, "mh7", penalty_problem, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
