"""Write the statute refusal sets, ``data/eval/statute_refusal_dev.json`` and ``data/eval/statute_refusal_report.json``.

Written blind on 2026-12-06 for ragkit issue 22 (the statute graph's refusals) from the Coastal Waters Act
(``data/statute.md``) alone, by a helper. The writer read only the statute; the shared builder helpers
``statute_multihop_sets.py`` (for the conventions: paragraph parsing, the checks, the JSON, the freeze check); to see
how a builder calls them, the docstring, the first three questions and the code after the ``ITEMS`` list of
``make_statute_multihop_report6.py``; and of ``benchmarks/roles/common.py`` its top and the helpers ``set_writer``,
``write_frozen_set`` and ``near_within`` (no question there). Nothing under ``ragkit/``, ``tests/``, ``notebooks/``,
``benchmarks/statute/`` or ``benchmarks/results/`` was opened, nor any other file of ``data/eval/`` (no earlier
statute gold set), and no retriever, graph or model was run on these questions (only this builder, whose
``--check-near`` embeds the questions with MiniLM to compare them with each other).

The task: the statute QA graph must decide whether the Act answers a question. Each set has 40 questions written
the way people write (stories, informal one-liners, lower case with typos, polite requests):

- **unanswerable** (20), 5 of each kind:
  ``near_miss`` (the topic is in the Act but the asked fact is not: a figure left to the Authority or the Minister,
  a fee the Act never sets, office hours, a number of staff, how a procedure the Act only names is done);
  ``other_law`` (tax, road traffic, employment, customs, food hygiene, building, another country's fishing rules,
  EU law); ``practical`` (tides, weather, bait, insurance, prices, berths, repairs); ``outside_law`` (a thing the Act
  regulates, asked about history, science, opinion or whether it is worth it);
- **answerable** (20): one or two articles answer it; ``gold_articles`` and the exact ``gold_paragraphs`` are
  given; no question names an article or paragraph; 8 are stories (a fisher, a farmer, a boat owner, a tourist, a
  contractor ...).

Registers are balanced by construction: each item carries a register (``story``, ``lower``, ``polite``,
``oneliner``) and in each set the answerable half has exactly as many items of each register as the unanswerable
half (8 stories, 4 lower-case, 4 polite, 4 one-liners each), so that the wording does not give the label away. The
register is a builder field only; it is not written to the JSON. Several answerable items are deliberately close
to an unanswerable one of the same set (the permit application fee, which the Act sets, against the fishing
licence fee, which it does not; the appeal period against an appeal fee).

The dev and report sets were written as separate batches with different situations. So that labels do not come in
blocks, the JSON order of each set is a fixed shuffle of its list below (``random.Random(SEED)`` for dev,
``SEED + 1`` for report, so the two sets do not share a label pattern by position); ids follow the JSON order
(``srd-01`` ... for dev, ``srr-01`` ... for report).

Use: the dev set is for tuning. The report set is frozen in ``data/eval/MANIFEST.json`` before any round that
reports on it, scored once per round, aggregates only.

Checks before every write (fail loudly): every gold article and gold paragraph exists in the Act (its
``## Article N.`` headings and ``(k)`` paragraphs, parsed by ``statute_multihop_sets.statute_paragraphs``); an item is
answerable iff it has gold articles, an answerable item has one or two articles and its paragraphs are exactly in
those articles; every number in an answerable item's ``why`` occurs in its gold paragraphs; every article an
unanswerable ``why`` names exists; counts per category and per register as designed; unique ids and questions
(within and across the two sets); no question names an article or paragraph.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_refusal_sets.py              # compare with the written files
    .venv/bin/python benchmarks/goldsets/make_statute_refusal_sets.py --check-near # MiniLM cosine, both sets
    .venv/bin/python benchmarks/goldsets/make_statute_refusal_sets.py --write      # write both (refused once frozen)

Limits: one writer's questions and labels, no second reader. Whether the Act "answers" a near miss is a judgement:
for a near miss the Act says something about the topic (the ``why`` names the nearest article) and a grader may
argue that its silence is an answer; the labels here count a question as answered only when a paragraph states
the asked fact. 40 questions per set give a binomial standard error of about 0.07 near 0.7 (about 0.1 per half,
about 0.2 per unanswerable category of 5).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "roles"))
from common import write_frozen_set  # noqa: E402
from statute_multihop_sets import NEAR, ROOT, gold_problems, statute_paragraphs  # noqa: E402

DEV_NAME, REPORT_NAME = "statute_refusal_dev.json", "statute_refusal_report.json"
SEED = 22
NEAR_MISS, OTHER_LAW, PRACTICAL, OUTSIDE_LAW, ANSWERABLE = (
    "near_miss", "other_law", "practical", "outside_law", "answerable")
CATEGORY_COUNTS = {NEAR_MISS: 5, OTHER_LAW: 5, PRACTICAL: 5, OUTSIDE_LAW: 5, ANSWERABLE: 20}
REGISTERS = {"story": 8, "lower": 4, "polite": 4, "oneliner": 4}  # per half (answerable / unanswerable) of a set

# (register, category, question, gold articles, gold paragraphs, why)
Item = tuple[str, str, str, list[int], list[str], str]

DEV_ITEMS: list[Item] = [
    # --- unanswerable: near misses -------------------------------------------------------------------------------
    ("story", NEAR_MISS,
     "My son and I took the boat out past the lighthouse on Saturday and had a good morning on the cod. A couple of "
     "them were tiny, maybe a hand long, and a man on the pier told me there's a legal minimum size and I should "
     "have thrown them back. What is the actual minimum size for a cod you're allowed to keep?",
     [], [],
     "Article 15(4) says fish below the minimum landing size go back to the sea, but the size is set by the "
     "Authority and no figure for cod is in the Act."),
    ("polite", NEAR_MISS,
     "Good afternoon. I am hoping to get my first commercial fishing licence for a small crab boat next spring. "
     "Could you please tell me how much the licence costs each year?",
     [], [],
     "Article 14 creates the commercial fishing licence and makes it valid for a calendar year but sets no fee; the "
     "only fees in the Act are the coastal zone permit application fees of Article 7(2)."),
    ("lower", NEAR_MISS,
     "what time does the coastal waters authority open on saturday mornings, i need to drop off some forms",
     [], [],
     "Article 4 establishes the Authority and lists its tasks but says nothing about office hours."),
    ("oneliner", NEAR_MISS,
     "How many coastal inspectors does the Authority have?",
     [], [],
     "Article 33(1) says the Authority appoints coastal inspectors but not how many."),
    ("story", NEAR_MISS,
     "We run a small sea trout farm in the north fjord. The vet found sores on a few fish last week and thinks it "
     "might be something serious, but she wasn't sure. I know some diseases have to be reported straight away. "
     "Which diseases are actually on the notifiable list?",
     [], [],
     "Article 20(3) requires an outbreak of a notifiable fish disease to be reported within 24 hours but the Act "
     "never lists which diseases are notifiable."),
    # --- unanswerable: other law or another country --------------------------------------------------------------
    ("story", OTHER_LAW,
     "I've been selling my catch to the fish shop in town for two years now, nothing huge, maybe 30,000 crowns a "
     "year. My accountant retired and I've never been sure about this. Do I have to pay income tax on that, and is "
     "there a tax-free amount for small fishers?",
     [], [],
     "Income tax is a matter for tax law; the Act only defines commercial fishing (Article 3(11)) and licenses it "
     "(Article 14), and says nothing about tax."),
    ("lower", OTHER_LAW,
     "whats the speed limit when your towing a boat trailer on the motorway? got a 5m boat on a braked trailer",
     [], [],
     "Speed on the road is road traffic law; the Act applies only in the coastal zone (Article 2(1))."),
    ("polite", OTHER_LAW,
     "Hello, we are going on a fishing holiday to Norway in the summer. Could you kindly tell me how many kilos of "
     "fish we may take back home from Norway?",
     [], [],
     "Norway's export limit is Norwegian law; the Act covers only Talvora's coastal zone (Article 2(1)), and its "
     "10 kg daily limit for recreational fishers (Article 14(3)) is not Norway's rule."),
    ("oneliner", OTHER_LAW,
     "Does EU fisheries law apply to boats fishing in Talvora?",
     [], [],
     "The Act never mentions the European Union; Article 2(3) only says which of two laws regulating the same "
     "activity prevails, not whether EU law applies."),
    ("story", OTHER_LAW,
     "I'm taking on a deckhand for the herring season, a lad from the village who's just turned seventeen. He'll be "
     "working nights with me on the boat. What's the minimum wage I have to pay him, and is he even allowed to work "
     "nights at his age?",
     [], [],
     "Wages and young workers are employment law; the Act names the master on a fishing licence (Article 14(2)) but "
     "says nothing about crew, pay or working hours."),
    # --- unanswerable: practical matters on the coast ------------------------------------------------------------
    ("lower", PRACTICAL,
     "when is hight tide at the harbour in vessby tomorow? want to launch the dinghy",
     [], [],
     "Tide times are not in the Act; it uses the low-water line and the high-water mark only as reference lines "
     "(Article 3(2) and 3(4))."),
    ("story", PRACTICAL,
     "We're here on holiday for a week, staying in a cottage near the old harbour. My husband has brought his rods "
     "and wants to go fishing off the breakwater in the evenings, but we forgot to bring bait. Is there anywhere "
     "near the harbour where we can buy worms or frozen bait?",
     [], [],
     "Where to buy bait is not regulated; the nearest rule, Article 14(3), only says rod and line fishing needs no "
     "licence."),
    ("polite", PRACTICAL,
     "Dear sir or madam, I have just bought a seven-metre motorboat. Would you be able to tell me roughly what it "
     "costs to insure a boat like that for a year?",
     [], [],
     "Insurance prices are not in the Act, which sets no insurance requirement for boats."),
    ("oneliner", PRACTICAL,
     "What does a kilo of fresh herring go for at the quay these days?",
     [], [],
     "Market prices are not in the Act; it deals with herring only through quotas and the spawning closure "
     "(Articles 15 and 16(2))."),
    ("story", PRACTICAL,
     "A few of us from the sailing club are planning to sail across to the outer islands on Saturday and camp "
     "overnight. One of the boats is quite small and tips easily. Is the wind supposed to pick up at the weekend, or "
     "should we be fine?",
     [], [],
     "Weather forecasts are not in the Act."),
    # --- unanswerable: outside law -------------------------------------------------------------------------------
    ("polite", OUTSIDE_LAW,
     "Hello! I'm writing a school project about the Coastal Waters Act. Could you tell me what the arguments were in "
     "parliament before it was passed, and which parties voted against it?",
     [], [],
     "The Act says only that the National Assembly adopted it; the debate and the votes are history, not in its "
     "text."),
    ("story", OUTSIDE_LAW,
     "I farm sheep on the headland and the land isn't paying much anymore. A friend says growing seaweed on ropes in "
     "the bay is the next big thing and I could make good money. Honestly, is it worth it? Would I make more from "
     "seaweed than from the sheep?",
     [], [],
     "Whether seaweed farming pays is economics; the Act only makes seaweed on lines aquaculture that needs a "
     "coastal zone permit (Articles 3(10) and 6(1))."),
    ("lower", OUTSIDE_LAW,
     "is it true seals can bite? the kids want to know if the ones lying around in the harbour are dangerus",
     [], [],
     "Whether seals are dangerous is animal behaviour, not law; the nearest rules, Articles 30 and 31(2), protect "
     "seals and their haul-out sites."),
    ("oneliner", OUTSIDE_LAW,
     "Has the ban on trawling close to shore actually brought the fish back?",
     [], [],
     "Article 16(1) bans bottom trawling within 3 nautical miles of the baseline; whether stocks recovered is an "
     "empirical question the Act cannot answer."),
    ("story", OUTSIDE_LAW,
     "My partner and I are thinking of selling the house and buying a boat to run whale-watching trips for tourists. "
     "We've seen minke whales off the point most summers. Do enough tourists come to Talvora to make a living from "
     "it, and how much do people usually pay for a trip?",
     [], [],
     "Business prospects and prices are outside law; the Act only sets how close a vessel may go to whales "
     "(Article 31(1))."),
    # --- answerable ----------------------------------------------------------------------------------------------
    ("story", ANSWERABLE,
     "My farm runs right down to the beach and every winter the sea takes another metre of my bottom field. I want "
     "to get a digger in this summer and build a proper stone sea wall along the shoreline. It's my own land, so can "
     "I just go ahead, or do I need some kind of permission?",
     [6, 3], ["6(1)", "3(4)"],
     "Building a sea wall or other structure in the coastal zone, which includes the land within 100 metres of the "
     "high-water mark, needs a coastal zone permit from the Authority."),
    ("story", ANSWERABLE,
     "I'm on holiday in Talvora and had an unreal morning off the rocks with my rod, about 14 kilos of mackerel on my own. The "
     "restaurant at our hotel said they'd buy some off me. Do I need a licence for any of this, and can I keep it "
     "all and sell them the extra?",
     [14], ["14(3)"],
     "Recreational fishing with rod and line needs no licence, but a recreational fisher may keep no more than 10 "
     "kilograms of fish per day and may not sell the catch."),
    ("story", ANSWERABLE,
     "We bought a little holiday cottage on the bay and I'd like to put down a mooring block out front for our "
     "9-metre sailing boat, just for us. The bay isn't part of any nature reserve. Do I need to apply for a permit "
     "for the mooring?",
     [13], ["13(1)"],
     "No coastal zone permit is required for a private mooring for a single vessel of less than 12 metres in "
     "length."),
    ("story", ANSWERABLE,
     "I'm a builder and a sailing club has asked us to put in a new timber jetty, about 300 square metres over the "
     "water, miles away from any protected area. They want to know when they'll hear back from the Authority once "
     "the application is in and complete. How long can it take?",
     [8, 9], ["8(1)", "8(2)", "9(1)"],
     "A structure covering no more than 500 square metres of seabed and not within 1 nautical mile of a marine "
     "protected area needs no impact assessment, so the Authority must decide within 60 days, which it may extend "
     "once by no more than 30 days."),
    ("story", ANSWERABLE,
     "A seal chewed a hole through the net of one of our trout cages overnight. We don't know yet how many fish got "
     "out, could be none, could be thousands. What do I have to do now, and is it on us to get them back?",
     [20], ["20(1)", "20(2)"],
     "The operator must report an escape, or any reason to suspect one, to the Authority within 24 hours of "
     "discovering it, and must take all reasonable steps to recapture the fish as the Authority directs, at the "
     "operator's cost."),
    ("story", ANSWERABLE,
     "Hauling the gillnet this morning and there was a porpoise tangled up in it, still alive. We cut it free and it "
     "swam off, but my crewman is worried we've broken the law. Do we have to do anything now, tell anyone?",
     [32], ["32(1)", "32(2)", "32(3)"],
     "A protected species caught by accident must be released at once, alive where possible; the master must record "
     "it in the logbook and report it to the Authority within 7 days, and a recorded and reported bycatch with "
     "permitted gear is no breach."),
    ("story", ANSWERABLE,
     "I've run a small dredging outfit for twenty years and I'm selling up to a younger firm. Our permit for keeping "
     "the harbour channel clear still has six years to run. Can the buyers just carry on under our permit, or is "
     "there a catch?",
     [11], ["11(1)"],
     "A permit may be transferred to another person only with the Authority's prior written consent, and the "
     "Authority decides on a transfer request within 30 days."),
    ("story", ANSWERABLE,
     "We're on holiday and at the market there's a stall selling polished sea turtle shells, really beautiful. The "
     "seller says they're old. I'd love to bring one home as a souvenir. Am I allowed to buy one?",
     [30], ["30(1)", "30(3)"],
     "All sea turtles are on the list of protected species, and no one may possess, sell or transport a protected "
     "species or any part of it unless it was lawfully obtained before the species was listed."),
    ("lower", ANSWERABLE,
     "can i take the kayak over to the seal rocks in june? how close am i allowed to get",
     [31], ["31(2)"],
     "From 1 May to 31 July no one may approach within 200 metres of a seal haul-out site marked by the "
     "Authority."),
    ("lower", ANSWERABLE,
     "we went over our haddock quota by about 6 percent this year, whats gonna happen? first time its happend",
     [15], ["15(3)"],
     "A vessel that exceeds its quota by no more than 10 percent has the excess deducted from its quota for the "
     "following year."),
    ("lower", ANSWERABLE,
     "do i have to haul my gillnets every day or can i leave them out over the weekend til monday",
     [17], ["17(2)"],
     "A gillnet may not be left in the water for more than 24 hours without being hauled."),
    ("lower", ANSWERABLE,
     "is it ok to throw food scraps over the side of the sailboat when were in the bay? its all biodegradeable anyway",
     [22], ["22(2)"],
     "No garbage of any kind may be discharged from a vessel in coastal waters."),
    ("polite", ANSWERABLE,
     "Good morning. My neighbours and I would like to build a small wooden fishing pier at the end of our lane. "
     "Could you please tell me what the application fee for the permit is?",
     [7], ["7(2)"],
     "The application fee for a coastal zone permit is 1,500 crowns, or 6,000 crowns where an environmental impact "
     "assessment is required."),
    ("polite", ANSWERABLE,
     "Hello, the Authority has just refused my application to extend our marina. Would you kindly tell me how long I "
     "have to appeal, and to whom?",
     [38], ["38(1)"],
     "A person directly affected by a decision of the Authority may appeal to the Coastal Appeals Board within 30 "
     "days of being notified of it."),
    ("polite", ANSWERABLE,
     "Good morning. We have just started running wildlife trips from the harbour. I'd be grateful if you could tell "
     "me how close our boat may go to a whale that has a calf with her.",
     [31], ["31(1)"],
     "The master must keep at least 300 metres from a whale accompanied by a calf (100 metres from other whales, "
     "dolphins and porpoises)."),
    ("polite", ANSWERABLE,
     "Could you please let me know how many years a fishing skipper has to hold on to old logbooks? My father has "
     "kept boxes of them in the shed.",
     [18], ["18(3)"],
     "Logbooks and copies of landing declarations must be kept for 3 years."),
    ("oneliner", ANSWERABLE,
     "Can our trawler go after herring in the middle of April?",
     [16], ["16(2)"],
     "All commercial fishing for cod and herring is prohibited in coastal waters from 1 March to 30 April."),
    ("oneliner", ANSWERABLE,
     "Does the Coastal Waters Act apply to a German yacht anchored off our beach?",
     [2], ["2(1)"],
     "The Act applies to every person, vessel and installation in the coastal zone, whatever the flag of the "
     "vessel."),
    ("oneliner", ANSWERABLE,
     "Is fishing with electricity allowed anywhere in Talvora?",
     [17], ["17(4)"],
     "Catching fish with explosives, poisons or electric current is prohibited in all circumstances."),
    ("oneliner", ANSWERABLE,
     "How far out does a ship have to be to swap its ballast water?",
     [23], ["23(2)"],
     "A ballast water exchange must take place at least 200 nautical miles from the nearest land in water at least "
     "200 metres deep, or where that is not possible at least 50 nautical miles from land."),
]

REPORT_ITEMS: list[Item] = [
    # --- unanswerable: near misses -------------------------------------------------------------------------------
    ("story", NEAR_MISS,
     "I've just finished my master's in marine ecology and a consultancy wants to hire me to write environmental "
     "impact assessments for harbour projects. They say I first need to be accredited by the Authority. What do I "
     "have to do to get accredited? Is there an exam, and how long does it take?",
     [], [],
     "Article 9(3) requires an assessment to be prepared by a person accredited by the Authority but does not say "
     "how accreditation is obtained."),
    ("polite", NEAR_MISS,
     "Good evening. I intend to appeal against a penalty decision I received last week. Could you tell me whether "
     "there is a fee to lodge the appeal, and if so how much it is?",
     [], [],
     "Article 38 sets the appeal to the Coastal Appeals Board and its 30-day period but no fee for appealing."),
    ("lower", NEAR_MISS,
     "hows much herring are we allowed to catch in total next year, has the number come out yet?",
     [], [],
     "Article 15(1) has the Authority set each total allowable catch by 1 December; the figure itself is not in the "
     "Act."),
    ("oneliner", NEAR_MISS,
     "Where exactly are the marine protected areas?",
     [], [],
     "Article 28 lets the Minister designate marine protected areas by orders that define their boundaries; the Act "
     "names or locates none."),
    ("story", NEAR_MISS,
     "The Authority shut the whole of Kessel Bank to fishing last month because the plaice are in trouble, and it's "
     "meant to last six months. That's where I make most of my living. Am I entitled to any compensation for the "
     "lost income while it's closed?",
     [], [],
     "Article 16(3) lets the Authority close an area for up to 6 months where a stock is at serious risk but the Act "
     "says nothing about compensation."),
    # --- unanswerable: other law or another country --------------------------------------------------------------
    ("story", OTHER_LAW,
     "I've just bought a second-hand motor cruiser from a dealer in Sweden and I'm going to sail it home to Talvora "
     "next month. She's ten years old and I paid about 400,000 crowns for her. Will I have to pay import duty or VAT when I bring it in, and how much?",
     [], [],
     "Import duty and VAT are customs and tax law; Article 2(1) applies the Act to vessels whatever their flag but "
     "the Act says nothing about import taxes."),
    ("lower", OTHER_LAW,
     "do i need some kind of licence to drive a rib? its only got a 60hp engine",
     [], [],
     "The Act sets no licence for handling a boat; its only licence is the commercial fishing licence (Article 14), "
     "and boat-handling competence is for another law."),
    ("polite", OTHER_LAW,
     "Hello, we will be in Brittany in September. Could you kindly tell me how many sea bass a day an angler may "
     "keep in France?",
     [], [],
     "France's rules are French law; the Act covers only Talvora's coastal zone (Article 2(1))."),
    ("oneliner", OTHER_LAW,
     "Do I need planning permission for a garden shed at my house in town, two kilometres from the sea?",
     [], [],
     "Planning permission is building law; the Act's permit for structures (Article 6(1)) reaches only the coastal "
     "zone, which on land ends 100 metres from the high-water mark (Article 3(4))."),
    ("story", OTHER_LAW,
     "I'm opening a little seafood bar on the harbour front this summer and want to serve raw oysters from the farm "
     "down the coast. It's my first time running a food business. What are the hygiene rules for keeping and serving them, like temperatures and how long they "
     "can be kept?",
     [], [],
     "Food hygiene is another law; the Act deals with oysters only as farmed shellfish, that is aquaculture "
     "(Article 3(10))."),
    # --- unanswerable: practical matters on the coast ------------------------------------------------------------
    ("lower", PRACTICAL,
     "whats the water temperture like in august, is it warm enough to swim in the bay without a wetsuit",
     [], [],
     "Sea temperatures are not in the Act."),
    ("story", PRACTICAL,
     "We're coming to the coast with our two small children for a week in July. We'd like to rent kayaks for a "
     "morning and find a beach with calm, shallow water for the little one. Which beach would you recommend, and "
     "where can we hire kayaks?",
     [], [],
     "Beaches and kayak hire are tourist information, not in the Act."),
    ("polite", PRACTICAL,
     "Hi there, would you happen to know which marina along the south coast has a free berth for a 10-metre boat "
     "next week?",
     [], [],
     "Free berths are not in the Act; the nearest rule is the coastal zone permit needed to build a marina "
     "(Article 6(1))."),
    ("oneliner", PRACTICAL,
     "How much does a used 20-foot fishing boat cost?",
     [], [],
     "Boat prices are not in the Act."),
    ("story", PRACTICAL,
     "Out on the boat this afternoon the outboard started overheating and cutting out, and the little stream of "
     "water that normally comes out of the side had stopped. I got her back to the harbour on the oars. What's "
     "likely wrong, and can I fix it myself?",
     [], [],
     "Engine repair is not in the Act."),
    # --- unanswerable: outside law -------------------------------------------------------------------------------
    ("polite", OUTSIDE_LAW,
     "I'm curious about the history. Before the Coastal Waters Act came in, did Talvora have an older fishing law, "
     "and what did it allow?",
     [], [],
     "Article 39 refers to permits, licences and applications under earlier law but says nothing about what that "
     "law was or allowed."),
    ("story", OUTSIDE_LAW,
     "My uncle has offered me a share in his crab boat when he retires. I'm twenty-two and I'd have to take out a big "
     "loan. Honestly, can you still make a decent living from fishing in Talvora these days, or am I mad?",
     [], [],
     "Whether fishing pays is economics and opinion; the Act only licenses commercial fishing (Article 14)."),
    ("lower", OUTSIDE_LAW,
     "do dolphins actually get stressed out by the tour boats or is that just a myth",
     [], [],
     "Whether boats stress dolphins is a scientific question; the nearest rule, Article 31(1), only sets the "
     "distance a vessel must keep."),
    ("oneliner", OUTSIDE_LAW,
     "Who was the minister for the marine environment when the Coastal Waters Act was passed?",
     [], [],
     "The Act speaks of the Minister responsible for the marine environment (Article 28(1)) but names no one."),
    ("story", OUTSIDE_LAW,
     "We've lived on the cliff road for thirty years and now the bay below us has been made a marine reserve. My "
     "wife thinks it will put up the value of our house because of the tourists; I think the restrictions will put "
     "buyers off. Which of us is right?",
     [], [],
     "House prices are outside law and opinion; the Act covers only how a marine protected area is designated and "
     "what is restricted in it (Articles 28 and 29)."),
    # --- answerable ----------------------------------------------------------------------------------------------
    ("story", ANSWERABLE,
     "My brother and I have a two-boat family business and we've been offered a cheap secondhand bottom trawl net "
     "with an 80 mm mesh. It would save us a lot of money this season. Is that mesh legal to use in Talvora?",
     [17], ["17(1)"],
     "The mesh of a bottom trawl net must be at least 90 millimetres."),
    ("story", ANSWERABLE,
     "Last night the wall of our slurry lagoon gave way and a lot of it ran down the stream into the bay. This "
     "morning there are dead fish along the shore. My husband wants to keep quiet and clean up ourselves. Do we "
     "legally have to tell anyone, and how fast?",
     [5], ["5(3)"],
     "A person aware of serious harm to the marine environment arising from an activity under their control must "
     "take immediate reasonable steps to limit it and inform the Authority within 24 hours."),
    ("story", ANSWERABLE,
     "I run harbour tours on a boat certified for 20 passengers. A new deckhand asked whether we need to keep some "
     "sort of record of our rubbish and what we're meant to do with it. Do we?",
     [22], ["22(3)"],
     "Every vessel certified to carry more than 15 persons must keep a garbage record book and deliver its garbage "
     "to port reception facilities."),
    ("story", ANSWERABLE,
     "Our company got a permit three years ago to lay a power cable out to the island, but the project stalled over "
     "money and we never started. Now we've heard the permit may be cancelled. Can they do that, and do they have to "
     "warn us first?",
     [12], ["12(2)", "12(3)"],
     "The Authority may revoke a permit where the activity has not started within 2 years of the grant, but must "
     "first give at least 14 days' written notice and an opportunity to respond."),
    ("story", ANSWERABLE,
     "We're in Talvora for a week in June and want to take the rented motorboat out to a little island covered in "
     "puffins for a picnic. There's a sign from the Authority on the rocks there. Are we allowed to land?",
     [31], ["31(3)"],
     "From 15 April to 15 August no one may land on, or bring a vessel within 50 metres of, a seabird nesting island "
     "marked by the Authority."),
    ("story", ANSWERABLE,
     "Inspectors came aboard my boat yesterday, went through the logbook and now say they're keeping the boat in "
     "port while they look into it. I've got a crew to pay. How long can they hold my boat?",
     [33], ["33(3)"],
     "An inspector may detain a vessel in port for up to 72 hours on reasonable grounds to believe an offence was "
     "committed, and for longer only with a court order."),
    ("story", ANSWERABLE,
     "We farm mussels on long lines in the sound. We'll finish harvesting in March and my business partner wants to "
     "put new seed out straight away in April. Is there anything stopping us?",
     [19], ["19(4)"],
     "The operator of an aquaculture site must leave it fallow for at least 2 months between production cycles."),
    ("story", ANSWERABLE,
     "We applied for a permit for a new marina nearly six months ago. The Authority confirmed the application was "
     "complete at the time, and because it needed an environmental impact assessment we expected a longer wait, but "
     "we've heard nothing since. Can we take it that it's been approved and start work?",
     [8], ["8(1)", "8(2)", "8(3)"],
     "With an impact assessment the Authority must decide within 120 days, extendable once by no more than 30 days; "
     "a permit is never granted by silence, so the applicant may treat the application as refused and appeal."),
    ("lower", ANSWERABLE,
     "got a letter from the authority saying i have to fix my outfall pipe by next tuesday, thats 5 days. isnt there "
     "a minimum time they have to give you",
     [34], ["34(1)", "34(2)"],
     "A compliance notice must give a deadline of not less than 14 days, unless the breach is causing serious harm "
     "and the Authority orders the activity to stop immediately instead."),
    ("lower", ANSWERABLE,
     "dolphins came right up to the boat today, are we supposed to do something? slow down or what",
     [31], ["31(4)"],
     "Where a marine mammal approaches a vessel, the master must reduce speed to no more than 5 knots and must not "
     "change course towards it."),
    ("lower", ANSWERABLE,
     "my 30 days to apeal run out on a sunday. do i lose my chance or do i get till monday?",
     [2, 38], ["2(4)", "38(1)"],
     "The appeal period is 30 days from notification, and a period in days that would end on a Sunday ends on the "
     "next working day instead."),
    ("lower", ANSWERABLE,
     "can we drop anchor on the seagrass in the reserve for a swim and lunch? its only for an hour",
     [29], ["29(1)"],
     "Within a marine protected area no one may anchor a vessel on seagrass meadows or reefs shown on the "
     "designation map."),
    ("polite", ANSWERABLE,
     "Hello. We are thinking of starting an oyster farm in the bay where my cousin already has one. Could you "
     "please tell me how far a new oyster farm has to be from one that is already there?",
     [19], ["19(2)"],
     "A new aquaculture site must be at least 1,000 metres from any other aquaculture site (and at least 1 nautical "
     "mile from any marine protected area)."),
    ("polite", ANSWERABLE,
     "Would you mind telling me whether, if I appeal a fine, I have to pay it while the appeal is going on?",
     [38], ["38(3)"],
     "An appeal against a fine suspends the duty to pay the fine."),
    ("polite", ANSWERABLE,
     "May I ask how long members of the public have to comment once an application for a new marina is published?",
     [7], ["7(4)"],
     "The Authority publishes every complete application and allows any person 21 days to submit written "
     "comments."),
    ("polite", ANSWERABLE,
     "Good morning. Could you kindly explain for how many years a permit for a salmon farm can be granted? We need "
     "to know before we talk to the bank.",
     [10], ["10(2)"],
     "A permit may be granted for up to 15 years for an aquaculture site (up to 10 years otherwise)."),
    ("oneliner", ANSWERABLE,
     "Do navy ships have to follow the Coastal Waters Act?",
     [2], ["2(2)"],
     "The Act does not apply to warships and other State vessels on government non-commercial service, though they "
     "shall act consistently with it so far as reasonable and practicable."),
    ("oneliner", ANSWERABLE,
     "Can a ship pump oily bilge water into the sea off our coast?",
     [21], ["21(1)"],
     "Only an oily mixture from the machinery spaces with no more than 15 parts per million of oil may be "
     "discharged, while the vessel is under way and using approved filtering equipment."),
    ("oneliner", ANSWERABLE,
     "What's the fine for speeding through a marine reserve?",
     [36, 29], ["36(4)", "29(1)"],
     "Navigating at more than 8 knots in a marine protected area outside marked shipping lanes is forbidden, and "
     "the breach is punishable by a fine of up to 25,000 crowns."),
    ("oneliner", ANSWERABLE,
     "Is it legal to dump old concrete blocks at sea off Talvora?",
     [27], ["27(4)"],
     "The disposal at sea of any material other than dredged material is prohibited."),
]

ABOUT = {
    "dev": "statute refusal dev set (ragkit issue 22): 40 everyday questions about the Coastal Waters Act "
           "(data/statute.md), 20 it answers (gold articles and paragraphs) and 20 it does not (5 near misses, 5 "
           "other law or another country, 5 practical coast matters, 5 outside law), the same registers in both "
           "halves; written blind 2026-12-06 from the Act alone by "
           "benchmarks/goldsets/make_statute_refusal_sets.py; for tuning",
    "report": "statute refusal report set (ragkit issue 22): 40 everyday questions about the Coastal Waters Act "
              "(data/statute.md), 20 it answers (gold articles and paragraphs) and 20 it does not (5 near misses, 5 "
              "other law or another country, 5 practical coast matters, 5 outside law), the same registers in both "
              "halves, other situations than the dev set; written blind 2026-12-06 from the Act alone by "
              "benchmarks/goldsets/make_statute_refusal_sets.py; frozen before any round that reports on it, scored "
              "once per round, aggregates only",
}

_NAMES_ARTICLE = re.compile(r"\barticles?\b|\bparagraphs?\b|\bsection\b|§", re.I)
_CITED = re.compile(r"Articles? (\d+)((?:\(\d+\))?)(?:(?: and |, )(\d+)((?:\(\d+\))?))?")


def problems_of(items: list[Item], label: str) -> list[str]:
    """What is wrong with one set's items (empty if nothing)."""
    paragraphs = statute_paragraphs()
    articles = {int(key.split("(")[0]) for key in paragraphs}
    problems = []
    categories: Counter[str] = Counter()
    registers: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    for i, (register, category, question, arts, paras, why) in enumerate(items, 1):
        where = f"{label} item {i}"
        categories[category] += 1
        answerable = category == ANSWERABLE
        registers[answerable][register] += 1
        if register not in REGISTERS:
            problems.append(f"{where}: register {register!r}")
        if _NAMES_ARTICLE.search(question):
            problems.append(f"{where}: the question names an article or paragraph")
        if answerable != bool(arts) or bool(arts) != bool(paras):
            problems.append(f"{where}: answerable={answerable} but gold {arts} {paras}")
        if not why.endswith(".") or re.search(r"[.?!]\s+[A-Z]", why):
            problems.append(f"{where}: why should be one sentence")
        if register == "story" and len(re.findall(r"[.?!](?:\s|$)", question)) < 3:
            problems.append(f"{where}: a story needs several sentences")
        if register == "lower" and question != question.lower():
            problems.append(f"{where}: a lower-case item has capitals")
        if answerable:
            if not 1 <= len(arts) <= 2 or len(set(arts)) != len(arts) or any(a not in articles for a in arts):
                problems.append(f"{where}: gold articles {arts}")
            problems += [f"{where}: {problem}" for problem in gold_problems(arts, paras, why, paragraphs, what="why")]
        else:
            for match in _CITED.finditer(why):
                for number, para in ((match.group(1), match.group(2)), (match.group(3), match.group(4))):
                    if number is None:
                        continue
                    if int(number) not in articles:
                        problems.append(f"{where}: why names Article {number}, not in the Act")
                    elif para and f"{number}{para}" not in paragraphs:
                        problems.append(f"{where}: why names {number}{para}, not in the Act")
    if dict(categories) != CATEGORY_COUNTS:
        problems.append(f"{label}: category counts {dict(categories)} (want {CATEGORY_COUNTS})")
    for answerable, counts in registers.items():
        if dict(counts) != REGISTERS:
            problems.append(f"{label}: registers of the {'answerable' if answerable else 'unanswerable'} half "
                            f"{dict(counts)} (want {REGISTERS})")
    if len({q for _, _, q, *_ in items}) != len(items):
        problems.append(f"{label}: duplicate questions")
    return problems


def validate() -> None:
    problems = problems_of(DEV_ITEMS, "dev") + problems_of(REPORT_ITEMS, "report")
    shared = {q for _, _, q, *_ in DEV_ITEMS} & {q for _, _, q, *_ in REPORT_ITEMS}
    if shared:
        problems.append(f"{len(shared)} question(s) in both sets")
    if problems:
        raise SystemExit("invalid items:\n  " + "\n  ".join(problems))


def rows(items: list[Item], prefix: str, seed: int) -> list[dict]:
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    out = []
    for n, index in enumerate(order, 1):
        _, category, question, arts, paras, why = items[index]
        out.append({"id": f"{prefix}-{n:02d}", "question": question, "answerable": category == ANSWERABLE,
                    "gold_articles": arts, "gold_paragraphs": paras, "why": why, "category": category})
    ids = [row["id"] for row in out]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"duplicate ids in {prefix}")
    return out


def build(items: list[Item], about: str, prefix: str, seed: int) -> str:
    """A set's JSON (``{"about", "items"}``), after :func:`validate` has checked both sets."""
    validate()
    return json.dumps({"about": about, "items": rows(items, prefix, seed)}, indent=1, ensure_ascii=False) + "\n"


def check_near() -> int:
    """Print each question's highest MiniLM cosine to another question of either set; 1 if any >= NEAR."""
    import numpy as np

    from ragkit.core.embeddings import embed, load_embedder

    labelled = [(f"dev {i:02d}", q) for i, (_, _, q, *_) in enumerate(DEV_ITEMS, 1)]
    labelled += [(f"report {i:02d}", q) for i, (_, _, q, *_) in enumerate(REPORT_ITEMS, 1)]
    vectors = embed(load_embedder(), [q for _, q in labelled])
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -1.0)
    for i, (name, _) in enumerate(labelled):
        j = int(np.argmax(sims[i]))
        print(f"{float(sims[i, j]):.3f}  {name}  ~  {labelled[j][0]}")
    worst = float(np.max(sims))
    print(f"highest {worst:.3f} (bar {NEAR}; list positions, not JSON ids)")
    return int(worst >= NEAR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write both files (refused for a frozen file)")
    parser.add_argument("--check-near", action="store_true", help="no two questions of the sets within cosine NEAR")
    args = parser.parse_args(argv)
    if args.check_near:
        return check_near()
    status = 0
    for items, name, about, prefix, seed in ((DEV_ITEMS, DEV_NAME, ABOUT["dev"], "srd", SEED),
                                             (REPORT_ITEMS, REPORT_NAME, ABOUT["report"], "srr", SEED + 1)):
        text = build(items, about, prefix, seed)
        status |= write_frozen_set(text, ROOT / "data" / "eval" / name, check=not args.write)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
