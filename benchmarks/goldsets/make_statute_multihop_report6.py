"""Write the sixth report set of multi-hop statute questions, ``data/eval/statute_multihop_report6.json``.

Written blind on 2026-12-06 for ragkit issue 22 (multi-hop statute questions) from the Coastal Waters Act
(``data/statute.md``) alone, by a helper working while the lead made the round's one change (it saw neither the
change nor any result): the writer read only the statute, the shared builder helpers ``statute_multihop_sets.py``
(and, to see how ``builder_main`` reads its arguments, the top of ``benchmarks/roles/common.py``, which holds no
question), and of ``make_statute_multihop_report5.py`` only its docstring and the code after its ``ITEMS`` list
(not its questions, nor its imports); no earlier statute gold set, the statute graph or its benchmarks were opened,
and no retriever, graph or model was run on these questions (only this builder, whose ``--check-near`` and
``--write`` embed or check the questions, and the freeze command). Frozen in ``data/eval/MANIFEST.json`` before it
was first run, after the round's change was measured on the dev pool; scored once, aggregates only. Each of the 18 questions needs two
articles:

- **penalty -> offence** (9): the fine or sanction is in a penalty article (35, 36 or 37), the rule broken in the
  article the penalty paragraph cites; the question tells the conduct in the asker's own words (sand pumped off the
  seabed for a building firm, a bottom trawl towed two miles off the point, a landing form forgotten for six days,
  a storm escape from a salmon pen kept quiet, diesel-black bilge water pumped out in harbour from a small cruiser,
  a dairy's parlour washwater piped onto the beach, plastic bottles thrown from a hired holiday boat, a dolphin
  trip nosing within 20 metres of the pod, a sea turtle shot for raiding crab pots) and names neither article nor
  paragraph;
- **defined term** (9): the rule is in one article and the answer turns on a word that Article 3 defines; the
  question uses an everyday description that falls under the defined term without naming it (the skipper who is
  not the owner is the master who must carry the licence, the tenant running a plant's outfall is an operator who
  must sample it, diesel spilt by a split fuel hose is a discharge to report, kelp grown on ropes is aquaculture
  needing a permit, crabs sold to restaurants are commercial fishing needing a logbook, a ferry's certificate figure
  rather than its loaded weight is its gross tonnage for the garbage record book, a seal swimming alongside a RIB is
  a marine mammal to slow down for, a jet ski is a vessel under the reserve's speed limit, the cove where no fishing
  of any kind is allowed is a no-take zone where the small-mooring exemption fails), so answering needs the
  definition and the rule.

Gold fields, the checks run before every write and the within-set cosine check (``--check-near``, bar 0.9):
``statute_multihop_sets.py``. Being blind, the set was not compared with the earlier statute sets.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report6.py              # compare with the written file
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report6.py --check-near # the within-set check
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report6.py --write      # write it (refused once frozen)

Limits: one writer's questions and labels, no second reader; 18 questions give a binomial standard error of
about 0.11 near 0.7 (about 0.15 for each pattern's 9).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statute_multihop_sets import DEFINED, NEAR, PENALTY, Item, builder_main, penalty_problem  # noqa: E402

NAME = "statute_multihop_report6.json"


ITEMS: list[Item] = [
    # --- penalty -> offence -------------------------------------------------------------------------------------
    ("I run a small building firm on the island and good sand costs a fortune to ship in. A mate has a barge with a "
     "suction pump and we've been pulling sand up off the sea floor in the bay below the village, a few hundred "
     "loads so far. Nobody ever asked us for any paperwork. If the authorities find out, what are we looking at?",
     [35, 6], ["35(1)", "6(1)"], PENALTY,
     "Extracting sand from the seabed in the coastal zone needs a coastal zone permit from the Authority, and "
     "carrying out that activity without one makes a person liable to a fine of up to 50,000 crowns."),
    ("we been dragging our trawl along the bottom about 2 miles off the point cause thats where the flatfish are "
     "this month. skipper says its fine nobody checks. how bad is it if we get caught, do they take the fish too?",
     [35, 16], ["35(2)", "16(1)"], PENALTY,
     "Bottom trawling is prohibited within 3 nautical miles of the baseline, and a master who fishes in an area "
     "closed under that rule is liable to a fine of up to 80,000 crowns, with the catch on board forfeited."),
    ("Our boat came in last Tuesday and what with the engine trouble I completely forgot to send in the landing "
     "form. It's six days later now. Am I in trouble, and how much could it cost me?",
     [35, 18], ["35(3)", "18(2)"], PENALTY,
     "The master must send a landing declaration to the Authority within 48 hours of landing the catch, and a "
     "master who fails to send it is liable to a fine of up to 40,000 crowns."),
    ("Storm last weekend tore a hole in one of our salmon pens and I reckon a few thousand fish got out. Honestly "
     "we kept quiet, hoping to net most of them back before anyone noticed. My site manager is getting nervous. "
     "What's the worst fine for not saying anything?",
     [35, 20], ["35(4)", "20(1)"], PENALTY,
     "The operator of an aquaculture site must report any escape of farmed fish to the Authority within 24 hours of "
     "discovering it, and failing to report it is punishable by a fine of up to 60,000 crowns."),
    ("Quick one. I own a 9 m motor cruiser and a friend was skippering her while I was ashore. He pumped the bilge "
     "straight over the side while we were tied up in the harbour and it came out black with diesel. The harbour "
     "master saw the slick. Can they fine both of us, and up to what?",
     [36, 21], ["36(1)", "21(1)"], PENALTY,
     "Discharging oil or an oily mixture is prohibited unless it is machinery-space water of no more than 15 parts "
     "per million discharged under way through approved filtering equipment; for a vessel under 400 gross tonnage "
     "the owner and the master are each liable to a fine of up to 100,000 crowns."),
    ("hi, I have a dairy farm right by the shore and the washwater from the milking parlour has always run down a "
     "pipe straight onto the beach and into the sea. my dad did it that way and never had permission for it. now "
     "theres a new neighbour complaining. what could happen to me?",
     [36, 24], ["36(2)", "24(1)"], PENALTY,
     "No person may discharge waste water into coastal waters from a pipe or drain on land without a discharge "
     "permit from the Authority, and a breach is punishable by a fine of up to 75,000 crowns."),
    ("We hired a little motorboat on holiday and, I'm embarrassed to say, the kids were chucking their empty plastic "
     "bottles and crisp packets over the side all afternoon. Someone on another boat filmed it. Is that actually a "
     "big deal here? What's the fine?",
     [36, 22], ["36(2)", "22(2)"], PENALTY,
     "No garbage of any kind may be discharged from a vessel in coastal waters and plastics may not be discharged "
     "anywhere; a breach is punishable by a fine of up to 75,000 crowns."),
    ("I run dolphin-watching trips. Customers want close-ups, so I sometimes nose the boat in to 20 or 30 metres "
     "from the pod. A competitor is threatening to report me. Penalty?",
     [36, 31], ["36(4)", "31(1)"], PENALTY,
     "The master of a vessel must keep at least 100 metres from any dolphin, and a breach of that rule is "
     "punishable by a fine of up to 25,000 crowns."),
    ("My neighbour got fed up with a sea turtle that kept tearing into his crab pots, so he took his rifle out in "
     "the dinghy and shot it. He's laughing about it but I think he's in real bother. Is he, and how much?",
     [36, 30], ["36(4)", "30(2)", "30(1)"], PENALTY,
     "All sea turtles are on the list of protected species and no person may deliberately kill one; killing or "
     "injuring a protected species is punishable by a fine of up to 150,000 crowns."),
    # --- defined term -------------------------------------------------------------------------------------------
    ("My brother-in-law owns our fishing boat and the licence has his name on it, but I'm the one who takes her out "
     "and gives the orders on board. An inspector came alongside and got stroppy with me for not having the licence "
     "with us. Surely that's the owner's problem, not mine?",
     [14, 3], ["14(4)", "3(6)"], DEFINED,
     "The master is the person in command of a vessel, and the master shall carry the fishing licence on board and "
     "show it to a coastal inspector on request, so the duty falls on the skipper in command."),
    ("We lease an old fish-processing plant whose outfall pipe runs into the harbour. The discharge permit was "
     "issued to the landlord years ago, but it's our staff who run the plant and the pipe day to day. Who is meant "
     "to do the sampling the permit asks for, us or the landlord?",
     [24, 3], ["24(3)", "3(7)"], DEFINED,
     "An operator is the holder of a permit or whoever controls the activity, so the tenant running the outfall is "
     "an operator too, and the permit requires the operator to sample the discharge at least once every three months "
     "and send the results to the Authority within 30 days."),
    ("While we were refuelling at the marina the hose split and a few litres of diesel went into the water. Total "
     "accident, it's not like we dumped anything on purpose. Do I still need to tell anyone, and how quickly?",
     [25, 3], ["25(1)", "3(8)"], DEFINED,
     "Any release of a harmful substance into the sea, however caused, is a discharge, so the master of the vessel "
     "involved must report it to the Authority without delay and in any case within 2 hours."),
    ("Thinking of starting a small business growing kelp on long ropes strung between buoys out in the bay, to sell "
     "to restaurants. It's only seaweed, not fish, so I assume there's nothing I need to apply for?",
     [6, 3], ["6(1)", "3(10)"], DEFINED,
     "Rearing seaweed on lines is aquaculture, and operating an aquaculture site in the coastal zone requires a "
     "coastal zone permit granted by the Authority."),
    ("Retired, got a small boat, I put out a few crab pots and sell whatever I get to two restaurants in town. "
     "Nothing big. Someone at the pub told me I ought to be writing it all down in an official log. Does that "
     "really apply to somebody like me?",
     [18, 3], ["18(1)", "3(11)"], DEFINED,
     "Fishing where the catch is sold is commercial fishing, and the master of a vessel engaged in commercial "
     "fishing must keep a logbook recording each trip's dates, areas, gear and catch of each species in kilograms."),
    ("Our little island ferry's tonnage certificate says 85, though the yard reckons she weighs about 140 tonnes "
     "fully loaded. She's certified for 12 people including crew. Do we have to keep one of those garbage record "
     "books or not?",
     [22, 3], ["22(3)", "3(16)"], DEFINED,
     "Gross tonnage is the tonnage in the vessel's tonnage certificate, not her loaded weight, and the garbage "
     "record book is required only from 100 gross tonnage or for vessels certified to carry more than 15 persons, "
     "so this ferry need not keep one."),
    ("Out in the RIB yesterday a seal popped up and swam right alongside us for ages. My son wanted me to swing "
     "round and follow it. What are we actually supposed to do when that happens?",
     [31, 3], ["31(4)", "3(15)"], DEFINED,
     "A seal is a marine mammal, and where a marine mammal approaches a vessel the master shall reduce speed to no "
     "more than 5 knots and shall not change course towards it."),
    ("Does the speed limit in the marine protected area really cover jet skis? They're not boats, surely, more like "
     "motorbikes for the water.",
     [29, 3], ["29(1)", "3(5)"], DEFINED,
     "A vessel is any craft on or under the water, so a jet ski is a vessel and may not be navigated at more than 8 "
     "knots within a marine protected area except in marked shipping lanes."),
    ("I'd like to lay a simple mooring for my 8 metre sailing boat in the little cove inside the marine protected "
     "area, the bit where the signs say no fishing of any kind is allowed. A friend says small private moorings "
     "don't need a permit. Does that hold there too?",
     [13, 3], ["13(1)", "13(2)", "3(13)"], DEFINED,
     "The part of a marine protected area closed to all fishing is a no-take zone, and there the exemption for a "
     "private mooring for a single vessel of less than 12 metres does not apply, so a coastal zone permit is needed."),
]

ABOUT = (
    "Sixth report set of multi-hop statute questions for ragkit issue 22, written blind on 2026-12-06 from the "
    "Coastal Waters Act (data/statute.md) only, before the round it reports on; the writer read only the statute, "
    "the shared builder helpers and the docstring and post-table code of the fifth set's builder (not its "
    "questions), opened no earlier statute set and ran no statute graph, retriever or model on these questions. "
    "18 questions: 9 penalty->offence (a fine or sanction in Article 35, 36 or 37 and the offence article it cites, "
    "conduct described in the asker's own words) and 9 defined term (a rule's article and Article 3, whose defined "
    "word the question covers with an everyday description). No two questions within MiniLM cosine "
    f"{NEAR} of each other; not compared with earlier sets (blind). One writer's labels."
)




def main(argv: list[str] | None = None) -> int:
    return builder_main(__doc__, NAME, ITEMS, ABOUT, "mh6", penalty_problem, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
