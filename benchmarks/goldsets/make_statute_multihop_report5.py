"""Write the fifth report set of multi-hop statute questions, ``data/eval/statute_multihop_report5.json``.

Written blind on 2026-12-04 for ragkit issue 22 (multi-hop statute questions) from the Coastal Waters Act
(``data/statute.md``) alone, BEFORE the round it reports on: the writer read only the statute, the shared builder
helpers ``statute_multihop_sets.py``, and of ``make_statute_multihop_report4.py`` only its docstring and the code
after its ``ITEMS`` list (not its questions, nor its imports); no earlier statute gold set, the statute graph or
its benchmarks were opened, and no retriever, graph or model was run on these questions (only this builder, whose
``--check-near`` embeds the questions, and the freeze command). Frozen in ``data/eval/MANIFEST.json`` before that
round and scored once, aggregates only. Each of the 18 questions needs two articles:

- **penalty -> offence** (9): the fine or sanction is in a penalty article (35, 36 or 37), the rule broken in the
  article the penalty paragraph cites; the question tells the conduct in the asker's own words (cod caught in the
  spawning closure, fish stunned with a battery, a quota overshot by a quarter, an overstocked trout farm, piling
  at night against the permit's hours, a yacht's toilet tank pumped out near the beach, an oil sheen seen and not
  reported, a picnic on a marked nesting island, tonnes of waste oil drained into a harbour on purpose) and names
  neither article nor paragraph;
- **defined term** (9): the rule is in one article and the answer turns on a word that Article 3 defines; the
  question uses an everyday description that falls under the defined term without naming it (the charted
  low-water line is the baseline, 8 miles out is inside the coastal waters, a garden 60 metres above high tide is in
  the coastal zone, a chip shop's bin bags are a harmful substance, the Minister's seagrass bay is a marine
  protected area, the part of the reserve closed to all fishing is a no-take zone, a turtle shell is a protected
  species, a seal is a marine mammal, a floating dive platform is a vessel), so answering needs the definition
  and the rule.

Gold fields, the checks run before every write and the within-set cosine check (``--check-near``, bar 0.9):
``statute_multihop_sets.py``. Being blind, the set was not compared with the earlier statute sets.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report5.py              # compare with the written file
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report5.py --check-near # the within-set check
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report5.py --write      # write it (refused once frozen)

Limits: one writer's questions and labels, no second reader; 18 questions give a binomial standard error of
about 0.11 near 0.7 (about 0.15 for each pattern's 9).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statute_multihop_sets import DEFINED, NEAR, PENALTY, Item, builder_main, penalty_problem  # noqa: E402

NAME = "statute_multihop_report5.json"

ITEMS: list[Item] = [
    # ---- penalty -> offence ----
    (
        "me and my brother have a licenced boat and with cod prices through the roof we went out the first week of "
        "april and filled the hold with cod just inside the bay. an inspector was waiting on the quay when we came "
        "in. how bad is this going to be for us??",
        [35, 16], ["35(2)", "16(2)"], PENALTY,
        "All commercial fishing for cod and herring is prohibited in coastal waters from 1 March to 30 April; a "
        "master who fishes commercially in a season closed under Article 16 is liable to a fine of up to 80,000 "
        "crowns, and the catch on board shall be forfeited.",
    ),
    (
        "Saw a bloke in a dinghy off the point stunning fish with some gadget wired to a car battery, then scooping "
        "them up for the fish van. If he's caught, what's the most he can be fined, and does he get to keep the fish?",
        [35, 17], ["35(2)", "17(4)"], PENALTY,
        "Using explosives, poisons or electric current to catch fish is prohibited in all circumstances; a master "
        "who fishes commercially with gear prohibited by Article 17 is liable to a fine of up to 80,000 crowns, and "
        "the catch on board shall be forfeited.",
    ),
    (
        "Long season for us. The mackerel just kept coming and by October our boat had landed roughly a quarter more "
        "than its quota for the year - does the rule about small overshoots just being knocked off next year's "
        "allocation cover us, or are we in real trouble? Skipper's asking because he's the one who'd carry the fine.",
        [35, 15], ["35(3)", "15(2)", "15(3)"], PENALTY,
        "No: only an excess of no more than 10 percent is deducted from the following year's quota; a larger "
        "excess breaches the rule that no vessel may land more than its quota, and the master is liable to a fine "
        "of up to 40,000 crowns.",
    ),
    (
        "I look after the day-to-day running of a rainbow trout farm in the fjord. Our permit sets a maximum tonnage "
        "of fish that can be in the pens at once, but the harvest boat broke down for three weeks and the fish kept "
        "growing, so at the month-end count we were well over the figure in the permit. The owners want to know the "
        "worst-case fine if the regulator acts on our monthly report.",
        [35, 19], ["35(4)", "19(3)"], PENALTY,
        "The operator shall not exceed the maximum standing biomass stated in the permit; an operator who exceeds "
        "it is liable to a fine of up to 60,000 crowns.",
    ),
    (
        "workin on a marina extension, our permit says no piling before 7am or after 7pm but the site boss has us "
        "driving piles till midnight to catch up on the schedule. neighbours are furious. whats the fine if it "
        "comes out",
        [35, 10], ["35(1)", "10(4)", "10(1)"], PENALTY,
        "A permit may limit working hours and the operator shall comply with every condition of the permit; a "
        "person who breaches a condition of a permit is liable to a fine of up to 50,000 crowns.",
    ),
    (
        "My husband insists it's no big deal: when the holding tank on our little yacht fills up and we're anchored "
        "about a mile off the beach, he just pumps the toilet tank straight over the side. There's no treatment "
        "system on board. I say we could get a hefty fine for it. Who's right, and how much?",
        [36, 22], ["36(2)", "22(1)"], PENALTY,
        "Untreated sewage shall not be discharged from a vessel within 12 nautical miles of the baseline, and a "
        "breach of that rule is punishable by a fine of up to 75,000 crowns.",
    ),
    (
        "Skipper of a crab boat. Passed a big oily sheen in the channel last Tuesday, not from us, didn't phone "
        "anyone about it. Am I in trouble for keeping quiet, and for how much?",
        [36, 25], ["36(3)", "25(1)"], PENALTY,
        "Yes: the master of a vessel witnessing a discharge of oil in coastal waters shall report it to the "
        "Authority without delay and in any case within 2 hours; failure to report as required by Article 25 is "
        "punishable by a fine of up to 30,000 crowns.",
    ),
    (
        "Our scout group paddled kayaks out to the little rock with the Authority's marker post on it, the one white "
        "with nesting terns and gulls - was it actually illegal for the kids to land and eat lunch there in "
        "mid-June, and what fine could the leaders face? One parent is threatening to report it.",
        [36, 31], ["36(4)", "31(3)"], PENALTY,
        "From 15 April to 15 August no person shall land on, or bring a vessel within 50 metres of, a seabird "
        "nesting island marked by the Authority; a breach is punishable by a fine of up to 25,000 crowns.",
    ),
    (
        "A boatyard owner, sick of paying for disposal, deliberately drained roughly three tonnes of used engine oil "
        "from his storage tank down the slipway drain into the harbour. The neighbours have photos. Is this only "
        "ever a fine, or could he actually be sent to prison?",
        [37, 21], ["37(2)", "21(1)"], PENALTY,
        "No person shall discharge oil into coastal waters, and a person who deliberately discharges more than 1 "
        "tonne of oil in breach of Article 21 is liable to imprisonment for up to 2 years, in addition to or instead "
        "of a fine.",
    ),
    # ---- defined term ----
    (
        "The sand flats here dry out a long way at low tide. Our skipper reckons we can drag the bottom trawl just "
        "over three miles out from the beach at high water, but measured from the low-water line printed on the "
        "official chart we'd only be about 2.5 nautical miles out. Which line is the distance counted from, and can "
        "we trawl there?",
        [16, 3], ["16(1)", "3(2)"], DEFINED,
        "The distance is counted from the baseline, which is the low-water line on the official charts, and bottom "
        "trawling is prohibited within 3 nautical miles of the baseline, so trawling there is not allowed.",
    ),
    (
        "Bulk carrier inbound from overseas. Chief engineer wants to deballast roughly 8 nm off the coast before the "
        "pilot boards - no treatment plant on board, no mid-ocean exchange done on the way over. His view: that far "
        "out isn't Talvora's business. Correct?",
        [23, 3], ["23(1)", "3(3)"], DEFINED,
        "Not correct: coastal waters are the sea and seabed within 12 nautical miles of the baseline, and a vessel "
        "arriving from outside them shall not discharge ballast water in coastal waters unless it has been treated "
        "by an approved system or exchanged at sea.",
    ),
    (
        "Quick one. I'm building a new concrete sea wall at the bottom of my garden, about 60 metres inland from "
        "where the high tide reaches. It's my own land and not in the water, so surely I don't need any permit from "
        "the coastal people?",
        [6, 3], ["6(1)", "3(4)"], DEFINED,
        "You do: the coastal zone includes the land within 100 metres of the high-water mark, and building a sea "
        "wall or other structure in the coastal zone requires a coastal zone permit granted by the Authority.",
    ),
    (
        "The chip shop on the harbour wall tips its bin bags - food scraps, cartons, bottles - over the railing into "
        "the water every night at closing time. It isn't oil or chemicals, so my neighbour says the Act doesn't "
        "cover it. Does it?",
        [21, 3], ["21(2)", "3(9)"], DEFINED,
        "It does: harmful substances include garbage, and no person shall discharge any harmful substance other "
        "than oil into coastal waters except as authorised by a discharge permit under Article 24 or as allowed by "
        "Article 22.",
    ),
    (
        "We're a small sailing club drafting an application for a marina. The site is about half a nautical mile "
        "from the bay the Minister designated last year, after a public consultation, to conserve its seagrass and "
        "seahorses. Do we have to include an environmental impact assessment with the application?",
        [9, 3], ["9(1)", "3(12)"], DEFINED,
        "Yes: an area designated under Article 28 is a marine protected area, and an environmental impact "
        "assessment must accompany an application for any activity within 1 nautical mile of a marine protected "
        "area.",
    ),
    (
        "i want to lay a mooring for my 7 metre dinghy in the inner part of the marine protected area, the bit where "
        "all fishing is banned. my mates say small private moorings never need a permit, are they right",
        [13, 3], ["13(2)", "13(1)", "3(13)"], DEFINED,
        "Not there: a private mooring for a single vessel of less than 12 metres is normally exempt, but the "
        "exemptions do not apply within a no-take zone (the part of a marine protected area closed to all "
        "fishing), where every activity listed in Article 6(1) requires a permit.",
    ),
    (
        "On holiday I saw a stall at the harbour market selling polished sea turtle shells as souvenirs. Is that "
        "legal for them to sell, and would I be breaking the law by buying one and carrying it home?",
        [30, 3], ["30(3)", "30(1)", "3(14)"], DEFINED,
        "Sea turtles are protected species, since the Authority's list must include all sea turtles, and no person "
        "shall possess, sell or transport a protected species or any part of it unless it was lawfully obtained "
        "before the species was listed.",
    ),
    (
        "We were out in the RIB doing a fair lick when a seal popped up and started swimming right up alongside us, "
        "following the boat. I'm the skipper - what am I legally supposed to do?",
        [31, 3], ["31(4)", "3(15)"], DEFINED,
        "A seal is a marine mammal, and where a marine mammal approaches a vessel the master shall reduce speed to "
        "no more than 5 knots and shall not change course towards it.",
    ),
    (
        "Our dive school works from a big floating platform - a deck on pontoons, no engine, no hull to speak of. "
        "Since it's a raft rather than a boat, we drop its anchor straight onto the seagrass meadow inside the marine "
        "protected area, the patch marked on the designation map. That's fine, isn't it?",
        [29, 3], ["29(1)", "3(5)"], DEFINED,
        "No: a vessel means any craft on or under the water, including floating platforms, and within a marine "
        "protected area no person shall anchor a vessel on seagrass meadows or reefs shown on the designation map.",
    ),
]

ABOUT = (
    "Fifth report set of multi-hop statute questions for ragkit issue 22, written blind on 2026-12-04 from the "
    "Coastal Waters Act (data/statute.md) only, before the round it reports on; the writer read only the statute, "
    "the shared builder helpers and the docstring and post-table code of the fourth set's builder (not its "
    "questions), opened no earlier statute set and ran no statute graph, retriever or model on these questions. "
    "18 questions: 9 penalty->offence (a fine or sanction in Article 35, 36 or 37 and the offence article it cites, "
    "conduct described in the asker's own words) and 9 defined term (a rule's article and Article 3, whose defined "
    "word the question covers with an everyday description). No two questions within MiniLM cosine "
    f"{NEAR} of each other; not compared with earlier sets (blind). One writer's labels."
)




def main(argv: list[str] | None = None) -> int:
    return builder_main(__doc__, NAME, ITEMS, ABOUT, "mh5", penalty_problem, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
