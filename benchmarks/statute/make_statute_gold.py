"""Write the blind gold sets for strategy-routed QA over the Coastal Waters Act (``data/statute.md``).

Two files, both written by hand from the statute text BEFORE any retriever, classifier or graph was run
on it, then frozen with ``python -m ragkit.goldsets freeze``:

- ``data/eval/statute_qa.json``: questions of five types (``single``, ``definition``, ``multihop``,
  ``citation``, ``unanswerable``), each with gold articles (most important first), the exact gold
  paragraphs (``"12(3)"``), a short gold answer, and a dev/test split. The split is a seeded shuffle
  (``random.Random(12)``) stratified by type: about 40% dev, 60% test.
- ``data/eval/statute_golden.jsonl``: 40 further questions for evaluation replay (``question``,
  ``reference_answer``, ``reference_context_ids`` as ``art-N`` ids, ``category``), 10 per category
  (``factual``, ``procedural``, ``comparison``, ``unanswerable``), none repeated from the QA set.

Run (from the project folder)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/statute/make_statute_gold.py          # validate, write
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/statute/make_statute_gold.py --check  # validate only

What the checks cannot do: they prove every gold article and paragraph exists and every citation question
starts its gold list with the articles it cites, but whether an answer is *right*, or an "unanswerable"
question is truly not answered by the Act, rests on a careful human reading (each unanswerable item's
``note`` says why). Writing a frozen file with different bytes is refused: a changed set needs a new name.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

from ragkit.domains.statute.corpus import load_statute
from ragkit.goldsets import eval_dir, read_manifest

SEED = 12
DEV_FRACTION = 0.4
TYPES = ("single", "definition", "multihop", "citation", "unanswerable")
MIN_COUNTS = {"single": 40, "definition": 25, "multihop": 30, "citation": 25, "unanswerable": 30}
CATEGORIES = ("factual", "procedural", "comparison", "unanswerable")
QA_FILE, GOLDEN_FILE = "statute_qa.json", "statute_golden.jsonl"

# Citation forms a question may use: "Article 12", "Art. 12(3)", "article 12", "section 12", "s. 12",
# "Articles 5 and 6", and the Korean "제12조".
_CITE = re.compile(r"\b(?:articles?|art\.|sections?|s\.)\s*(\d+)(?:\s*\(\d+\))*(?:\s+and\s+(\d+))?|제\s*(\d+)\s*조",
                   re.IGNORECASE)
_PARAGRAPH = re.compile(r"^(\d+)(?:\((\d+)\))?$")

# ---------------------------------------------------------------------------------------------------------
# The questions. ids and splits are assigned by build(); the order here is the id order.
# ---------------------------------------------------------------------------------------------------------
QUESTIONS: list[dict] = [
    # ----- single: the answer is in one article, asked without naming it --------------------------------
    {"type": "single", "question": "How long is a commercial fishing licnece valid for?",
     "gold_articles": [14], "gold_paragraphs": ["14(2)"], "answer": "One calendar year.", "note": "typo"},
    {"type": "single", "question": "What application fee has to be paid for a coastal zone permit?",
     "gold_articles": [7], "gold_paragraphs": ["7(2)"],
     "answer": "1,500 crowns, or 6,000 crowns where an environmental impact assessment is required."},
    {"type": "single", "question": "How many days does the public get to send written comments on a complete permit application?",
     "gold_articles": [7], "gold_paragraphs": ["7(4)"],
     "answer": "21 days; the Authority publishes every complete application."},
    {"type": "single", "question": "how fast does the authority have to tell me whether my permit application is complete",
     "gold_articles": [7], "gold_paragraphs": ["7(3)"],
     "answer": "Within 10 days of receiving it; if it is incomplete the Authority must say what is missing, and the decision period starts only when the missing information arrives.",
     "note": "lower case, no question mark"},
    {"type": "single", "question": "How long does the Authority have to decide on a complete permit application when no environmental impact assessment is needed?",
     "gold_articles": [8], "gold_paragraphs": ["8(1)"],
     "answer": "60 days (120 days where an environmental impact assessment is required)."},
    {"type": "single", "question": "Can the deadline for deciding a permit application be pushed back, and by how much?",
     "gold_articles": [8], "gold_paragraphs": ["8(2)"],
     "answer": "Yes, once, by no more than 30 days, if the Authority tells the applicant the reasons in writing before the original period ends."},
    {"type": "single", "question": "If the regulator simply never answers my permit application, do I get the permit automatically?",
     "gold_articles": [8], "gold_paragraphs": ["8(3)"],
     "answer": "No. A permit is never granted by silence; the applicant may treat the application as refused and appeal, the 30-day appeal period running from the day after the decision period ended.",
     "note": "synonym: regulator for Authority"},
    {"type": "single", "question": "Who pays for the environmental impact assessment, and who is allowed to prepare it?",
     "gold_articles": [9], "gold_paragraphs": ["9(3)"],
     "answer": "The applicant pays; it must be prepared by a person accredited by the Authority."},
    {"type": "single", "question": "What effects must an environmental impact study look at?",
     "gold_articles": [9], "gold_paragraphs": ["9(2)"],
     "answer": "The likely effects of the activity on water quality, the seabed, fish stocks, protected species and other users, and the alternatives considered.",
     "note": "synonym: study for assessment"},
    {"type": "single", "question": "Hi, I run a small dredging outfit and we just got our permit. My foreman keeps asking how often we actually have to check how cloudy the water is and send the numbers in - can you tell me?",
     "gold_articles": [10], "gold_paragraphs": ["10(3)"],
     "answer": "Turbidity must be monitored at least once a week while work is in progress, and the results sent to the Authority each month.",
     "note": "conversational; synonym: how cloudy the water is for turbidity"},
    {"type": "single", "question": "What is the longest term for which an ordinary coastal zone permit (not for aquaculture) can be granted?",
     "gold_articles": [10], "gold_paragraphs": ["10(2)"],
     "answer": "Up to 10 years; every permit states its expiry date."},
    {"type": "single", "question": "how far ahead do i have to apply to renew my permit, and what happens if the old one runs out while i'm waiting for an answer?",
     "gold_articles": [11], "gold_paragraphs": ["11(3)"],
     "answer": "At least 90 days before it expires; if the application is made in time, the permit remains in force until the Authority decides on the renewal.",
     "note": "lower case"},
    {"type": "single", "question": "For how long can the Authority suspend a permit, and on what grounds?",
     "gold_articles": [12], "gold_paragraphs": ["12(1)"],
     "answer": "Up to 90 days, where the operator has breached a permit condition or the activity is causing unforeseen serious harm to the marine environment."},
    {"type": "single", "question": "Can a permit be cancelled if the project still hasn't begun a couple of years after it was granted?",
     "gold_articles": [12], "gold_paragraphs": ["12(2)"],
     "answer": "Yes; the Authority may revoke a permit where the activity has not started within 2 years of the grant.",
     "note": "synonym: cancelled for revoked"},
    {"type": "single", "question": "Do I need a permit for a private mooring for my 9-metre sailing boat?",
     "gold_articles": [13], "gold_paragraphs": ["13(1)", "13(2)"],
     "answer": "No; a private mooring for a single vessel of less than 12 metres is exempt, except within a no-take zone."},
    {"type": "single", "question": "Is taking seabed samples for scientific research exempt from the permit requirement?",
     "gold_articles": [13], "gold_paragraphs": ["13(1)", "13(2)"],
     "answer": "Yes, if the sampling removes less than 1 cubic metre of seabed material in total, and not within a no-take zone."},
    {"type": "single", "question": "How many kilos of fish can a hobby angler keep in a day?",
     "gold_articles": [14], "gold_paragraphs": ["14(3)"],
     "answer": "No more than 10 kilograms of fish per day, and the catch may not be sold.",
     "note": "synonym: hobby angler for recreational fisher"},
    {"type": "single", "question": "Does the skipper have to keep the fishing licence on the boat?",
     "gold_articles": [14], "gold_paragraphs": ["14(4)"],
     "answer": "Yes; the master must carry the licence on board and show it to a coastal inspector on request.",
     "note": "synonym: skipper for master"},
    {"type": "single", "question": "By what date each year must the total allowable catch for the following year be set?",
     "gold_articles": [15], "gold_paragraphs": ["15(1)"],
     "answer": "By 1 December, for the following calendar year, based on the best available scientific advice."},
    {"type": "single", "question": "What happens if a boat lands 5 percent more than its quota?",
     "gold_articles": [15], "gold_paragraphs": ["15(3)"],
     "answer": "An excess of no more than 10 percent is deducted from the vessel's quota for the following year; only a larger excess is a breach."},
    {"type": "single", "question": "What must fishers do with fish that are below the minimum landing size?",
     "gold_articles": [15], "gold_paragraphs": ["15(4)"],
     "answer": "Return them to the sea alive where possible; they must not be landed or sold."},
    {"type": "single", "question": "During which months is fishing for cod and herring banned?",
     "gold_articles": [16], "gold_paragraphs": ["16(2)"],
     "answer": "From 1 March to 30 April each year all commercial fishing for cod and herring in coastal waters is prohibited, to protect spawning stocks."},
    {"type": "single", "question": "How close to the shore are bottom trawlers allowed to work?",
     "gold_articles": [16], "gold_paragraphs": ["16(1)"],
     "answer": "Not within 3 nautical miles of the baseline: bottom trawling is prohibited there."},
    {"type": "single", "question": "whats the minimum mesh size for a bottom trawl net",
     "gold_articles": [17], "gold_paragraphs": ["17(1)"], "answer": "90 millimetres.",
     "note": "lower case, no apostrophe"},
    {"type": "single", "question": "How long may a gillnet be, and how long can it stay in the water without being hauled?",
     "gold_articles": [17], "gold_paragraphs": ["17(2)"],
     "answer": "At most 2,500 metres long, and not left in the water for more than 24 hours without being hauled."},
    {"type": "single", "question": "Is fishing with dynamite ever allowed?",
     "gold_articles": [17], "gold_paragraphs": ["17(4)"],
     "answer": "No; using explosives, poisons or electric current to catch fish is prohibited in all circumstances.",
     "note": "synonym: dynamite for explosives"},
    {"type": "single", "question": "How do pots and longlines left in the water have to be marked?",
     "gold_articles": [17], "gold_paragraphs": ["17(3)"],
     "answer": "With a buoy at each end showing the licence number of the vessel."},
    {"type": "single", "question": "How long does a fishing boat have to keep its logbooks?",
     "gold_articles": [18], "gold_paragraphs": ["18(3)"],
     "answer": "3 years (copies of landing declarations too), and they must be shown to a coastal inspector on request."},
    {"type": "single", "question": "Within how many hours after landing the catch must the landing declaration go to the Authority?",
     "gold_articles": [18], "gold_paragraphs": ["18(2)"], "answer": "Within 48 hours of landing."},
    {"type": "single", "question": "How far apart do two fish farms have to be?",
     "gold_articles": [19], "gold_paragraphs": ["19(2)"],
     "answer": "A new aquaculture site must be at least 1,000 metres from any other aquaculture site (and at least 1 nautical mile from any marine protected area).",
     "note": "synonym: fish farm for aquaculture site"},
    {"type": "single", "question": "Who has to pay for catching escaped farmed fish again?",
     "gold_articles": [20], "gold_paragraphs": ["20(2)"],
     "answer": "The operator, who must take all reasonable steps to recapture them in the manner the Authority directs and bear the cost."},
    {"type": "single", "question": "How much oil may engine-room bilge water contain if a ship pumps it overboard?",
     "gold_articles": [21], "gold_paragraphs": ["21(1)"],
     "answer": "No more than 15 parts per million, and only while the vessel is under way using approved filtering equipment.",
     "note": "synonym: engine-room bilge water for oily mixture from machinery spaces"},
    {"type": "single", "question": "If oil leaks from a ship, is the owner responsible too or only the captain?",
     "gold_articles": [21], "gold_paragraphs": ["21(3)"],
     "answer": "Both: the master and the owner of a vessel are each responsible for a discharge from it."},
    {"type": "single", "question": "Is it ever OK to throw plastic overboard?",
     "gold_articles": [22], "gold_paragraphs": ["22(2)"],
     "answer": "No; plastics shall not be discharged anywhere (and no garbage of any kind in coastal waters)."},
    {"type": "single", "question": "Where may a yacht release treated sewage?",
     "gold_articles": [22], "gold_paragraphs": ["22(1)"],
     "answer": "More than 3 nautical miles from the baseline, using a treatment system approved by the Authority."},
    {"type": "single", "question": "How far from land must a ship exchange its ballast water?",
     "gold_articles": [23], "gold_paragraphs": ["23(2)"],
     "answer": "At least 200 nautical miles from the nearest land in water at least 200 metres deep, or where that is not possible at least 50 nautical miles from the nearest land."},
    {"type": "single", "question": "How often does a factory with a permitted outfall have to sample what it discharges?",
     "gold_articles": [24], "gold_paragraphs": ["24(3)"],
     "answer": "At least once every three months, sending the results to the Authority within 30 days of sampling."},
    {"type": "single", "question": "What is the longest a discharge permit can be granted for?",
     "gold_articles": [24], "gold_paragraphs": ["24(4)"], "answer": "Up to 5 years."},
    {"type": "single", "question": "How quickly must a ship's captain report an oil spill they witness?",
     "gold_articles": [25], "gold_paragraphs": ["25(1)"],
     "answer": "Without delay, and in any case within 2 hours.", "note": "synonym: captain for master"},
    {"type": "single", "question": "Could I get in trouble for reporting a pollution incident?",
     "gold_articles": [25], "gold_paragraphs": ["25(4)"],
     "answer": "No; a person who reports a discharge in good faith shall not be penalised for making the report."},
    {"type": "single", "question": "What is the most dredged material that a single permit can allow to be dumped at sea in a year?",
     "gold_articles": [27], "gold_paragraphs": ["27(2)"], "answer": "50,000 tonnes in any calendar year."},
    {"type": "single", "question": "How long is the public consultation before a new marine protected area is designated?",
     "gold_articles": [28], "gold_paragraphs": ["28(3)"],
     "answer": "At least 60 days for comments on a published draft, and the affected fishing organisations and communities must be consulted."},
    {"type": "single", "question": "How often do marine protected areas have to be reviewed?",
     "gold_articles": [28], "gold_paragraphs": ["28(4)"], "answer": "At least every 6 years, by the Authority."},
    {"type": "single", "question": "What's the speed limit for boats inside a marine reserve?",
     "gold_articles": [29], "gold_paragraphs": ["29(1)"],
     "answer": "8 knots, except in marked shipping lanes.", "note": "synonym: marine reserve for marine protected area"},
    {"type": "single", "question": "Can I drop anchor on a seagrass meadow in a marine protected area?",
     "gold_articles": [29], "gold_paragraphs": ["29(1)"],
     "answer": "No, not on seagrass meadows or reefs shown on the designation map."},
    {"type": "single", "question": "When are seal haul-out sites off limits, and how far away do I have to stay?",
     "gold_articles": [31], "gold_paragraphs": ["31(2)"],
     "answer": "From 1 May to 31 July no one may approach within 200 metres of a seal haul-out site marked by the Authority."},
    {"type": "single", "question": "What is a coastal inspector allowed to do when they come aboard a boat?",
     "gold_articles": [33], "gold_paragraphs": ["33(2)"],
     "answer": "Board and inspect the vessel, take samples, measure gear, examine and copy logbooks and records, and require any person to give their name and address."},
    {"type": "single", "question": "What is the shortest deadline the Authority may set in a compliance notice?",
     "gold_articles": [34], "gold_paragraphs": ["34(1)"], "answer": "Not less than 14 days."},
    {"type": "single", "question": "How long does the appeals board have to decide an appeal?",
     "gold_articles": [38], "gold_paragraphs": ["38(2)"],
     "answer": "90 days; it may confirm, vary or set aside the decision."},
    {"type": "single", "question": "If I appeal a fine, do I have to pay it in the meantime?",
     "gold_articles": [38], "gold_paragraphs": ["38(3)"],
     "answer": "No; an appeal against a fine suspends the duty to pay it (other decisions are not suspended unless the Board orders otherwise)."},
    {"type": "single", "question": "When did the Coastal Waters Act take effect?",
     "gold_articles": [40], "gold_paragraphs": ["40(1)"],
     "answer": "On 1 January 2024, except Part V, which entered into force on 1 July 2024."},
    {"type": "single", "question": "By what date does the Authority have to publish its yearly report on the state of the coastal waters?",
     "gold_articles": [4], "gold_paragraphs": ["4(2)"], "answer": "By 30 June of each year."},
    {"type": "single", "question": "How soon after a decision must it appear on the Authority's public register online?",
     "gold_articles": [4], "gold_paragraphs": ["4(3)"], "answer": "Within 14 days of the decision."},
    {"type": "single", "question": "I seriously damaged a reef with my boat by accident. How soon do I have to tell the authorities?",
     "gold_articles": [5], "gold_paragraphs": ["5(3)"],
     "answer": "Take immediate reasonable steps to limit the harm and inform the Authority within 24 hours."},
    {"type": "single", "question": "Does the law apply to navy ships?",
     "gold_articles": [2], "gold_paragraphs": ["2(2)"],
     "answer": "No; it does not apply to warships and other State vessels on government non-commercial service, though they should act consistently with it so far as is reasonable and practicable.",
     "note": "synonym: navy ships for warships"},
    {"type": "single", "question": "If a deadline under the Act ends on a Sunday, when does it actually end?",
     "gold_articles": [2], "gold_paragraphs": ["2(4)"],
     "answer": "On the next working day (periods in days are calendar days)."},
    {"type": "single", "question": "Do these rules apply to fishing boats flying a foreign flag?",
     "gold_articles": [2], "gold_paragraphs": ["2(1)"],
     "answer": "Yes; the Act applies to every person, vessel and installation in the coastal zone, whatever the flag of the vessel."},
    {"type": "single", "question": "Does holding a permit excuse me from the general duty of care?",
     "gold_articles": [5], "gold_paragraphs": ["5(2)"],
     "answer": "No; holding a permit or licence does not relieve a person of the duty of reasonable care."},
    {"type": "single", "question": "Within how long must the Authority be told about emergency works carried out without a permit?",
     "gold_articles": [13], "gold_paragraphs": ["13(1)"], "answer": "Within 48 hours of the works starting."},
    {"type": "single", "question": "Can a fish farm move live fish off the site during a disease outbreak?",
     "gold_articles": [20], "gold_paragraphs": ["20(3)"],
     "answer": "No; after an outbreak of a notifiable fish disease (reported within 24 hours) no live fish may be moved to or from the site until the Authority allows it."},

    # ----- definition: what a term means or covers ------------------------------------------------------
    {"type": "definition", "question": "What does the Act mean by 'coastal waters'? Does it include the seabed?",
     "gold_articles": [3], "gold_paragraphs": ["3(3)"],
     "answer": "The sea and seabed within 12 nautical miles of the baseline; yes, the seabed is included."},
    {"type": "definition", "question": "Is a beach café 50 metres from the high-water mark inside the coastal zone?",
     "gold_articles": [3], "gold_paragraphs": ["3(4)"],
     "answer": "Yes; the coastal zone is the coastal waters plus the land within 100 metres of the high-water mark."},
    {"type": "definition", "question": "Does a floating platform count as a vessel?",
     "gold_articles": [3], "gold_paragraphs": ["3(5)"],
     "answer": "Yes; 'vessel' means any craft on or under the water, including floating platforms."},
    {"type": "definition", "question": "Is a small research submersible that works underwater a 'vessel' under the Act?",
     "gold_articles": [3], "gold_paragraphs": ["3(5)"],
     "answer": "Yes; a vessel is any craft on or under the water."},
    {"type": "definition", "question": "who counts as the master of a vessel",
     "gold_articles": [3], "gold_paragraphs": ["3(6)"], "answer": "The person in command of the vessel.",
     "note": "lower case"},
    {"type": "definition", "question": "Can the person who actually runs a fish farm day to day be its 'operator' even if someone else holds the permit?",
     "gold_articles": [3], "gold_paragraphs": ["3(7)"],
     "answer": "Yes; 'operator' means the holder of a permit or licence, or whoever controls the activity."},
    {"type": "definition", "question": "Does an accidental leak count as a 'discharge' under the Act?",
     "gold_articles": [3], "gold_paragraphs": ["3(8)"],
     "answer": "Yes; a discharge is any release of a harmful substance into the sea, however caused."},
    {"type": "definition", "question": "Which substances are 'harmful substances' under the Act?",
     "gold_articles": [3], "gold_paragraphs": ["3(9)"],
     "answer": "Oil, oily mixtures, noxious liquids, untreated sewage, garbage, and substances listed by the Authority."},
    {"type": "definition", "question": "Does growing seaweed on lines in the sea count as aquaculture?",
     "gold_articles": [3], "gold_paragraphs": ["3(10)"],
     "answer": "Yes; aquaculture means rearing fish, shellfish or seaweed in pens, cages or lines."},
    {"type": "definition", "question": "If I go fishing and give all the fish to my neighbours for free, is that commercial fishing?",
     "gold_articles": [3], "gold_paragraphs": ["3(11)"],
     "answer": "No; commercial fishing is fishing where the catch is sold or meant for sale."},
    {"type": "definition", "question": "What is a no-take zone?",
     "gold_articles": [3, 29], "gold_paragraphs": ["3(13)", "29(2)"],
     "answer": "A part of a marine protected area closed to all fishing; no one may fish, collect or disturb any living organism there, and no vessel may stop except in an emergency."},
    {"type": "definition", "question": "Is a seal a marine mammal under the Act?",
     "gold_articles": [3], "gold_paragraphs": ["3(15)"],
     "answer": "Yes; marine mammal means any whale, dolphin, porpoise or seal."},
    {"type": "definition", "question": "Does a sea otter count as a 'marine mammal' under the Act's definition?",
     "gold_articles": [3], "gold_paragraphs": ["3(15)"],
     "answer": "No; the definition covers only whales, dolphins, porpoises and seals.",
     "note": "hard: the definition is a closed list; whether the Authority lists otters as protected is a different question"},
    {"type": "definition", "question": "How is a ship's gross tonnage determined for the purposes of the Act?",
     "gold_articles": [3], "gold_paragraphs": ["3(16)"],
     "answer": "It is the tonnage shown in the vessel's tonnage certificate."},
    {"type": "definition", "question": "what is the baseline that distances are measured from",
     "gold_articles": [3], "gold_paragraphs": ["3(2)"], "answer": "The low-water line on the official charts.",
     "note": "lower case"},
    {"type": "definition", "question": "What is 'the Authority' that the Act keeps referring to?",
     "gold_articles": [3, 4], "gold_paragraphs": ["3(1)", "4(1)"],
     "answer": "The Coastal Waters Authority, an independent public body established by the Act and responsible for its administration and enforcement."},
    {"type": "definition", "question": "What is a 'protected species' under the Act?",
     "gold_articles": [3, 30], "gold_paragraphs": ["3(14)", "30(1)"],
     "answer": "A species on the list the Authority keeps and publishes, which must include all marine mammals, all sea turtles and every seabird species that nests in the coastal zone."},
    {"type": "definition", "question": "Do sea turtles count as protected species?",
     "gold_articles": [30, 3], "gold_paragraphs": ["30(1)", "3(14)"],
     "answer": "Yes; the list of protected species must include all sea turtles."},
    {"type": "definition", "question": "What is a marine protected area?",
     "gold_articles": [3, 28], "gold_paragraphs": ["3(12)", "28(1)"],
     "answer": "An area of coastal waters designated by the Minister responsible for the marine environment, on the Authority's advice, to conserve habitats, species or features of special value."},
    {"type": "definition", "question": "What does the precautionary principle mean in this Act?",
     "gold_articles": [1], "gold_paragraphs": ["1(3)"],
     "answer": "Where there is a risk of serious or lasting harm to the marine environment, a lack of full scientific certainty is not a reason for postponing measures to prevent that harm."},
    {"type": "definition", "question": "What counts as recreational fishing that needs no licence?",
     "gold_articles": [14], "gold_paragraphs": ["14(3)"],
     "answer": "Fishing with rod and line or with no more than two hand lines; the catch may not be sold and no more than 10 kilograms of fish may be kept per day."},
    {"type": "definition", "question": "What is a compliance notice?",
     "gold_articles": [34], "gold_paragraphs": ["34(1)"],
     "answer": "A notice the Authority serves on a person it believes is breaching the Act, a permit or a licence, stating the breach, the steps required to end it, and a deadline of not less than 14 days."},
    {"type": "definition", "question": "What is a stop order under the Act?",
     "gold_articles": [34], "gold_paragraphs": ["34(2)", "34(3)"],
     "answer": "An order by the Authority, used instead of a compliance notice where a breach is causing serious harm, to stop the activity immediately until the harm is addressed; not complying is an offence."},
    {"type": "definition", "question": "What is meant by bycatch of a protected species?",
     "gold_articles": [32], "gold_paragraphs": ["32(1)"],
     "answer": "A protected species caught unintentionally during fishing."},
    {"type": "definition", "question": "What counts as 'emergency works' that can go ahead without a permit?",
     "gold_articles": [13], "gold_paragraphs": ["13(1)"],
     "answer": "Works needed to protect human life or to prevent imminent serious damage to property, provided the Authority is notified within 48 hours of the works starting."},
    {"type": "definition", "question": "What is a penalty decision?",
     "gold_articles": [37], "gold_paragraphs": ["37(5)"],
     "answer": "The Authority's written decision imposing a fine under the compliance-notice or penalty provisions (Articles 34, 35 and 36)."},
    {"type": "definition", "question": "A fish farm sits 15 nautical miles out from the low-water line. Is it in 'coastal waters'?",
     "gold_articles": [3], "gold_paragraphs": ["3(3)", "3(2)"],
     "answer": "No; coastal waters extend only 12 nautical miles from the baseline, which is the low-water line."},
    {"type": "definition", "question": "What is the total allowable catch?",
     "gold_articles": [15], "gold_paragraphs": ["15(1)", "15(2)"],
     "answer": "The limit the Authority sets by 1 December for each commercially fished stock for the following calendar year, based on the best available scientific advice, and divides into individual quotas for licensed vessels."},
    {"type": "definition", "question": "Which activities does the Act treat as needing a coastal zone permit?",
     "gold_articles": [6], "gold_paragraphs": ["6(1)"],
     "answer": "Building, extending or demolishing a pier, breakwater, marina, sea wall or other structure; dredging or extracting seabed material; laying a cable or pipeline; operating an aquaculture site; disposing of dredged material at sea."},

    # ----- multihop: two or three articles joined by a cross-reference or a defined term ------------------
    {"type": "multihop", "question": "What is the maximum fine for fishing commercially with a bottom trawl whose mesh is only 80 millimetres?",
     "gold_articles": [35, 17], "gold_paragraphs": ["35(2)", "17(1)"],
     "answer": "Up to 80,000 crowns, and the catch on board is forfeited, because a bottom trawl net must have a mesh of at least 90 millimetres."},
    {"type": "multihop", "question": "A trawler is caught fishing for herring in coastal waters in mid-March. What penalty does the master face?",
     "gold_articles": [35, 16], "gold_paragraphs": ["35(2)", "16(2)"],
     "answer": "Herring fishing is closed from 1 March to 30 April, so the master is liable to a fine of up to 80,000 crowns and the catch on board is forfeited."},
    {"type": "multihop", "question": "What fine does a fish farm operator risk for not reporting an escape of farmed fish?",
     "gold_articles": [35, 20], "gold_paragraphs": ["35(4)", "20(1)"],
     "answer": "Up to 60,000 crowns; escapes must be reported within 24 hours of discovery."},
    {"type": "multihop", "question": "What's the penalty for keeping more fish in a fish farm than the maximum standing biomass in its permit?",
     "gold_articles": [35, 19], "gold_paragraphs": ["35(4)", "19(3)"], "answer": "A fine of up to 60,000 crowns."},
    {"type": "multihop", "question": "A passenger ferry certified to carry 200 people has no garbage record book. What fine can apply?",
     "gold_articles": [36, 22], "gold_paragraphs": ["36(2)", "22(3)"],
     "answer": "Up to 75,000 crowns: every vessel certified to carry more than 15 persons must keep a garbage record book, and a breach of that rule is punishable by a fine of up to 75,000 crowns."},
    {"type": "multihop", "question": "What fine applies for racing a speedboat at 20 knots through a marine protected area outside the marked shipping lanes?",
     "gold_articles": [36, 29], "gold_paragraphs": ["36(4)", "29(1)"],
     "answer": "Up to 25,000 crowns; vessels may not exceed 8 knots in a marine protected area outside marked shipping lanes."},
    {"type": "multihop", "question": "how much can i be fined for taking my boat 50 metres from a dolphin",
     "gold_articles": [36, 31], "gold_paragraphs": ["36(4)", "31(1)"],
     "answer": "Up to 25,000 crowns; a master must keep at least 100 metres from any whale, dolphin or porpoise.",
     "note": "lower case, no question mark"},
    {"type": "multihop", "question": "What is the fine for a master who sees an oil spill and does not report it?",
     "gold_articles": [36, 25], "gold_paragraphs": ["36(3)", "25(1)"],
     "answer": "Up to 30,000 crowns; the master must report it to the Authority without delay and in any case within 2 hours."},
    {"type": "multihop", "question": "A 500 gross-tonnage tanker pumps out bilge water containing 100 ppm of oil inside coastal waters. Who can be fined, and up to how much?",
     "gold_articles": [36, 21], "gold_paragraphs": ["36(1)", "21(1)", "21(3)"],
     "answer": "Only oily mixtures of at most 15 ppm may be discharged, so this is a prohibited discharge; the owner and the master are each liable to a fine of up to 500,000 crowns, the vessel being of 400 gross tonnage or more.",
     "note": "assumes no life-saving defence under Article 21(4)"},
    {"type": "multihop", "question": "A skipper received a final penalty decision in 2024 for fishing commercially without a licence and does it again in 2026. What is the maximum fine now?",
     "gold_articles": [37, 35], "gold_paragraphs": ["37(1)", "35(2)"],
     "answer": "160,000 crowns: the maximum of 80,000 crowns is doubled for an offence under the same Article within 5 years of a final penalty decision (and the catch on board is forfeited)."},
    {"type": "multihop", "question": "Can someone go to prison for deliberately dumping 3 tonnes of oil from a ship?",
     "gold_articles": [37, 21], "gold_paragraphs": ["37(2)", "37(5)", "21(1)"],
     "answer": "Yes; deliberately discharging more than 1 tonne of oil in breach of the discharge ban is punishable by up to 2 years' imprisonment, in addition to or instead of a fine, imposed only by a criminal court."},
    {"type": "multihop", "question": "A licensed master is caught fishing for cod in April. Apart from the fine, what can happen to his catch, his nets and his licence?",
     "gold_articles": [37, 35, 16], "gold_paragraphs": ["37(3)", "35(2)", "16(2)"],
     "answer": "Cod fishing is closed from 1 March to 30 April; besides a fine of up to 80,000 crowns the catch on board is forfeited, and a court may order forfeiture of the gear and suspend his fishing licence for up to 12 months."},
    {"type": "multihop", "question": "The owner of a 300 gross-tonnage fishing vessel ignored the Authority's direction to clean up an oil spill from it, so the Authority did the clean-up itself. What can the owner be made to pay?",
     "gold_articles": [26, 36], "gold_paragraphs": ["26(3)", "26(2)", "36(1)"],
     "answer": "The reasonable costs of the Authority's clean-up measures, in addition to a fine of up to 100,000 crowns (the vessel is under 400 gross tonnage)."},
    {"type": "multihop", "question": "What is the maximum fine for shooting a seal?",
     "gold_articles": [36, 30, 3], "gold_paragraphs": ["36(4)", "30(2)", "30(1)", "3(15)"],
     "answer": "Up to 150,000 crowns: a seal is a marine mammal, all marine mammals are protected species, and killing a protected species is punishable by up to 150,000 crowns."},
    {"type": "multihop", "question": "A fishing boat accidentally nets a porpoise. Has the master committed an offence, and what must he do?",
     "gold_articles": [32, 30, 3], "gold_paragraphs": ["32(1)", "32(2)", "32(3)", "30(2)", "30(1)", "3(15)"],
     "answer": "A porpoise is a marine mammal and so a protected species. The master must release it immediately (alive where possible), record it in the logbook and report it to the Authority within 7 days; a recorded and reported bycatch is not a breach of the ban on killing or capturing protected species, provided the vessel was fishing lawfully with permitted gear."},
    {"type": "multihop", "question": "A trawler is suspected of landing 30 percent more cod than its quota. Can an inspector keep the boat in port, and for how long?",
     "gold_articles": [33, 35, 15], "gold_paragraphs": ["33(3)", "35(3)", "15(3)"],
     "answer": "Yes: an excess above 10 percent breaches the quota rule, which is an offence under the fishing penalties, so an inspector may detain the vessel in port for up to 72 hours, and longer only with a court order."},
    {"type": "multihop", "question": "An application for a pier filed under the old law in late 2023 was still undecided when the new Act took effect. How is it decided and from when does the decision period run?",
     "gold_articles": [39, 8, 40], "gold_paragraphs": ["39(3)", "8(1)", "40(1)"],
     "answer": "It is decided under the new Act, and the decision period (60 days, or 120 with an environmental impact assessment) starts on 1 January 2024, the date the Act entered into force."},
    {"type": "multihop", "question": "Since when have boats had to keep 100 metres away from dolphins?",
     "gold_articles": [40, 31], "gold_paragraphs": ["40(1)", "31(1)"],
     "answer": "Since 1 July 2024: the wildlife rules are in Part V, which entered into force later than the rest of the Act."},
    {"type": "multihop", "question": "A municipal bylaw lets anglers keep 20 kilograms of fish a day. Which limit applies, the bylaw or the Coastal Waters Act?",
     "gold_articles": [2, 14], "gold_paragraphs": ["2(3)", "14(3)"],
     "answer": "The stricter requirement for protecting the marine environment applies, so the Act's limit of 10 kilograms per day.",
     "note": "assumes the bylaw regulates the same recreational fishing in the coastal zone"},
    {"type": "multihop", "question": "I received a written penalty decision fining me for a late landing declaration. How long do I have to appeal, and must I pay in the meantime?",
     "gold_articles": [38, 37], "gold_paragraphs": ["38(1)", "38(3)", "37(5)"],
     "answer": "The fine is a decision of the Authority, so you may appeal to the Coastal Appeals Board within 30 days of being notified; an appeal against a fine suspends the duty to pay it."},
    {"type": "multihop", "question": "If I ignore a compliance notice, how much can I be fined and who imposes the fine?",
     "gold_articles": [34, 37], "gold_paragraphs": ["34(3)", "37(5)"],
     "answer": "Up to 20,000 crowns plus up to 2,000 crowns for every day the failure continues, imposed by the Authority in a written penalty decision."},
    {"type": "multihop", "question": "I want to increase the volume of sand I extract under my permit by 30 percent. What do I have to do?",
     "gold_articles": [11, 7], "gold_paragraphs": ["11(2)", "7(1)", "7(2)"],
     "answer": "Apply for a variation; because it enlarges the volume by more than 20 percent it is treated as a new application, with the full contents (description, map, start date and duration, harm-limiting measures) and the application fee."},
    {"type": "multihop", "question": "My permit was suspended. Where can I appeal and how long do I have?",
     "gold_articles": [12, 38], "gold_paragraphs": ["12(4)", "38(1)"],
     "answer": "To the Coastal Appeals Board, within 30 days of being notified of the decision."},
    {"type": "multihop", "question": "The 60 days for deciding my permit application have passed without any decision or extension. What can I do, and by when?",
     "gold_articles": [8, 38], "gold_paragraphs": ["8(3)", "38(1)"],
     "answer": "Treat the application as refused and appeal to the Coastal Appeals Board; the 30-day appeal period runs from the day after the decision period ended."},
    {"type": "multihop", "question": "Can neighbours comment on a factory's application for a permit to discharge waste water into the sea, and how long do they have?",
     "gold_articles": [24, 7], "gold_paragraphs": ["24(2)", "7(4)"],
     "answer": "Yes; the ordinary permit application procedure applies, so the complete application is published and any person has 21 days to submit written comments."},
    {"type": "multihop", "question": "On what grounds can a discharge permit for a land outfall be revoked?",
     "gold_articles": [24, 12], "gold_paragraphs": ["24(4)", "12(2)"],
     "answer": "On the grounds for revoking permits: a serious or repeated breach of its conditions, having been obtained by false or misleading information, or the activity not starting within 2 years of the grant."},
    {"type": "multihop", "question": "How long does the Authority have to decide a complete application for a discharge permit?",
     "gold_articles": [24, 8], "gold_paragraphs": ["24(2)", "8(1)", "8(2)"],
     "answer": "60 days, or 120 days where an environmental impact assessment is required; the period may be extended once by up to 30 days."},
    {"type": "multihop", "question": "How long can the Authority take to decide on a permit for a salmon farm with a permitted maximum standing biomass of 1,200 tonnes?",
     "gold_articles": [8, 9], "gold_paragraphs": ["8(1)", "9(1)", "8(2)"],
     "answer": "120 days, because an aquaculture site above 1,000 tonnes needs an environmental impact assessment (the period may be extended once by up to 30 days)."},
    {"type": "multihop", "question": "What is the application fee for laying a 7-kilometre pipeline?",
     "gold_articles": [7, 9], "gold_paragraphs": ["7(2)", "9(1)"],
     "answer": "6,000 crowns, because a pipeline longer than 5 kilometres requires an environmental impact assessment."},
    {"type": "multihop", "question": "I plan to build a small jetty about half a nautical mile from a marine protected area. Do I need an environmental impact assessment, and what fee will I pay?",
     "gold_articles": [9, 7], "gold_paragraphs": ["9(1)", "7(2)"],
     "answer": "Yes, any activity within 1 nautical mile of a marine protected area needs one, so the application fee is 6,000 crowns."},
    {"type": "multihop", "question": "After a storm, a town wants to build an emergency breakwater inside a no-take zone to protect houses. Does it need a coastal zone permit?",
     "gold_articles": [13, 6], "gold_paragraphs": ["13(2)", "13(1)", "6(1)"],
     "answer": "Yes; the emergency-works exemption does not apply within a no-take zone, where every listed activity, including building a breakwater, requires a permit."},
    {"type": "multihop", "question": "What's the maximum fine for building a marina without a permit?",
     "gold_articles": [35, 6], "gold_paragraphs": ["35(1)", "6(1)"],
     "answer": "Up to 50,000 crowns: building a marina needs a coastal zone permit."},
    {"type": "multihop", "question": "Does an activity that is exempt from the permit requirement still come with any obligations?",
     "gold_articles": [13, 5], "gold_paragraphs": ["13(3)", "5(1)"],
     "answer": "Yes; it remains subject to the general duty of care to take reasonable care to avoid harm to the marine environment, wildlife and other lawful users of the sea."},
    {"type": "multihop", "question": "What rules apply to dumping dredged spoil at sea?",
     "gold_articles": [27, 6], "gold_paragraphs": ["27(1)", "27(2)", "27(3)", "6(1)"],
     "answer": "It needs a coastal zone permit that covers disposal, only at a disposal site designated by the Authority, no more than 50,000 tonnes per permit in a calendar year, and never if contaminated above the Authority's limits (such material is treated on land)."},
    {"type": "multihop", "question": "A fish farm that has operated lawfully since 2015 sits only 600 metres from another farm. Can it keep operating, and can it expand its stock?",
     "gold_articles": [39, 19], "gold_paragraphs": ["39(2)", "19(2)"],
     "answer": "It may continue to operate although it is closer than the 1,000 metres required of new sites, but its maximum standing biomass may not be increased."},
    {"type": "multihop", "question": "Can I catch fish with a rod and sell them at the market without a licence?",
     "gold_articles": [14, 3], "gold_paragraphs": ["14(3)", "14(1)", "3(11)"],
     "answer": "No; selling the catch makes it commercial fishing, which needs a commercial fishing licence, and recreational fishers may not sell their catch."},
    {"type": "multihop", "question": "What's the longest a permit for a mussel farm can be granted for?",
     "gold_articles": [10, 3], "gold_paragraphs": ["10(2)", "3(10)"],
     "answer": "Up to 15 years: rearing shellfish is aquaculture, and permits for aquaculture sites may run up to 15 years."},
    {"type": "multihop", "question": "We want to dredge 15,000 cubic metres from a harbour this year. Besides the permit itself, what assessment and monitoring do we need?",
     "gold_articles": [9, 10], "gold_paragraphs": ["9(1)", "10(3)"],
     "answer": "An environmental impact assessment (more than 10,000 cubic metres in 12 months), and turbidity monitoring at least once a week while work is in progress, with results sent to the Authority each month."},
    {"type": "multihop", "question": "Does a company with a coastal zone permit for an aquaculture site also need a fishing licence to catch wild fish for sale?",
     "gold_articles": [6, 14], "gold_paragraphs": ["6(3)", "14(1)"],
     "answer": "Yes; a coastal zone permit does not authorise commercial fishing, which needs a commercial fishing licence for the vessel used."},

    # ----- citation: the question names the article -----------------------------------------------------
    {"type": "citation", "question": "What does Article 9 require an environmental impact assessment to describe?",
     "gold_articles": [9], "gold_paragraphs": ["9(2)"],
     "answer": "The likely effects of the activity on water quality, the seabed, fish stocks, protected species and other users, and the alternatives considered."},
    {"type": "citation", "question": "Under Art. 12(3), how much notice must the Authority give before revoking a permit?",
     "gold_articles": [12], "gold_paragraphs": ["12(3)"],
     "answer": "At least 14 days' written notice and an opportunity to respond (no notice is needed only for an immediate suspension to prevent serious harm)."},
    {"type": "citation", "question": "what is article 16 about",
     "gold_articles": [16], "gold_paragraphs": ["16(1)", "16(2)", "16(3)", "16(4)"],
     "answer": "Closed areas and seasons: no bottom trawling within 3 nautical miles of the baseline, no commercial cod and herring fishing from 1 March to 30 April, Authority closures of up to 6 months where a stock is at serious risk, and no fishing at all in a no-take zone.",
     "note": "lower case"},
    {"type": "citation", "question": "Coastal Waters Act, Article 22: can plastics be thrown overboard outside coastal waters?",
     "gold_articles": [22], "gold_paragraphs": ["22(2)"], "answer": "No; plastics shall not be discharged anywhere."},
    {"type": "citation", "question": "What does section 37 say about imprisonment?",
     "gold_articles": [37], "gold_paragraphs": ["37(2)", "37(5)"],
     "answer": "A person who deliberately discharges more than 1 tonne of oil in breach of Article 21 is liable to imprisonment for up to 2 years, in addition to or instead of a fine; imprisonment is imposed only by a criminal court."},
    {"type": "citation", "question": "s. 38(4) - where can a decision of the Coastal Appeals Board be challenged, and within what time?",
     "gold_articles": [38], "gold_paragraphs": ["38(4)"],
     "answer": "On a point of law, before the Administrative Court, within 60 days."},
    {"type": "citation", "question": "Articles 5 and 6: how does the general duty of care relate to the permit requirement?",
     "gold_articles": [5, 6], "gold_paragraphs": ["5(1)", "5(2)", "6(1)"],
     "answer": "Article 5 puts a duty of reasonable care on every user of the coastal zone, in addition to the specific duties and not lifted by holding a permit; Article 6 lists the activities that need a coastal zone permit."},
    {"type": "citation", "question": "제14조는 무엇을 규정합니까?",
     "gold_articles": [14], "gold_paragraphs": ["14(1)", "14(2)", "14(3)", "14(4)"],
     "answer": "Fishing licences: commercial fishing needs a licence for the vessel, valid for one calendar year and stating the vessel, master, gear and species; recreational rod-and-line fishing needs none but may not sell and may keep at most 10 kg of fish a day; the master carries the licence on board.",
     "note": "Korean form: 'What does Article 14 provide?'"},
    {"type": "citation", "question": "제21조에 따르면 기름 배출이 허용되는 경우는 언제입니까?",
     "gold_articles": [21], "gold_paragraphs": ["21(1)", "21(4)"],
     "answer": "Only an oily mixture from a vessel's machinery spaces with no more than 15 ppm of oil, discharged while under way with approved filtering equipment; it is also a defence that the discharge was needed to save life or secure the vessel and was minimised.",
     "note": "Korean form: 'According to Article 21, when is discharging oil allowed?'"},
    {"type": "citation", "question": "제38조에 따른 이의 제기 기한은 며칠입니까?",
     "gold_articles": [38], "gold_paragraphs": ["38(1)"],
     "answer": "30 days from being notified of the decision, to the Coastal Appeals Board.",
     "note": "Korean form: 'What is the deadline for an appeal under Article 38?'"},
    {"type": "citation", "question": "제3조에서 '선박'은 어떻게 정의됩니까?",
     "gold_articles": [3], "gold_paragraphs": ["3(5)"],
     "answer": "Any craft on or under the water, including floating platforms.",
     "note": "Korean form: 'How does Article 3 define a vessel?'"},
    {"type": "citation", "question": "Art. 17(2): what are the limits on gillnets?",
     "gold_articles": [17], "gold_paragraphs": ["17(2)"],
     "answer": "A gillnet may not exceed 2,500 metres in length or be left in the water for more than 24 hours without being hauled."},
    {"type": "citation", "question": "What must the list kept under Article 30(1) include?",
     "gold_articles": [30], "gold_paragraphs": ["30(1)"],
     "answer": "All marine mammals, all sea turtles and every seabird species that nests in the coastal zone."},
    {"type": "citation", "question": "article 24(2) - what procedure applies to applying for a discharge permit?",
     "gold_articles": [24, 7, 8], "gold_paragraphs": ["24(2)"],
     "answer": "The procedure in Article 7 (application) and Article 8 (decision period).", "note": "lower case"},
    {"type": "citation", "question": "section 8(4): what must every decision on a permit application contain?",
     "gold_articles": [8], "gold_paragraphs": ["8(4)"],
     "answer": "It must be in writing, state its reasons, and inform the applicant of the right of appeal under Article 38."},
    {"type": "citation", "question": "Coastal Waters Act, Article 40(3): what report is due and when?",
     "gold_articles": [40], "gold_paragraphs": ["40(3)"],
     "answer": "The Authority must report to the National Assembly on the effects of the Act within 5 years of its entry into force."},
    {"type": "citation", "question": "Which offences have their maximum fine doubled under Article 37(1)?",
     "gold_articles": [37, 35, 36], "gold_paragraphs": ["37(1)"],
     "answer": "Offences under Article 35 or 36 committed within 5 years of a final conviction or final penalty decision for an offence under the same Article."},
    {"type": "citation", "question": "What does Art. 36(4) punish, and how severely?",
     "gold_articles": [36], "gold_paragraphs": ["36(4)"],
     "answer": "Breaches of Article 29 or 31 (up to 25,000 crowns) and killing or injuring a protected species in breach of Article 30(2) (up to 150,000 crowns)."},
    {"type": "citation", "question": "Articles 35 and 36: which one sets the fine for a ballast water breach, and how much is it?",
     "gold_articles": [36, 35], "gold_paragraphs": ["36(2)"],
     "answer": "Article 36(2): a breach of Article 23 is punishable by a fine of up to 75,000 crowns."},
    {"type": "citation", "question": "s. 13(2): where do the permit exemptions not apply?",
     "gold_articles": [13, 6], "gold_paragraphs": ["13(2)"],
     "answer": "Within a no-take zone, where every activity listed in Article 6(1) requires a permit."},
    {"type": "citation", "question": "Article 2(3): which rule applies when this Act and another law regulate the same activity?",
     "gold_articles": [2], "gold_paragraphs": ["2(3)"],
     "answer": "The stricter requirement for the protection of the marine environment."},
    {"type": "citation", "question": "section 19(4) - what does it require of fish farm operators?",
     "gold_articles": [19], "gold_paragraphs": ["19(4)"],
     "answer": "Monitor the seabed beneath and around the site at least once a year, and leave the site fallow for at least 2 months between production cycles."},
    {"type": "citation", "question": "Art. 33(3): how long can a vessel be detained?",
     "gold_articles": [33], "gold_paragraphs": ["33(3)"],
     "answer": "Up to 72 hours in port where there are reasonable grounds to believe an offence under Article 35 or 36 was committed; longer only with a court order."},
    {"type": "citation", "question": "What information does article 25(3) require in a pollution report?",
     "gold_articles": [25], "gold_paragraphs": ["25(3)"],
     "answer": "The time and position of the discharge, the substance and the estimated quantity, and the measures taken."},
    {"type": "citation", "question": "Coastal Waters Act, Article 10(4): what must an operator keep at the site?",
     "gold_articles": [10], "gold_paragraphs": ["10(4)"],
     "answer": "A copy of the permit, available for inspection (and the operator must comply with every condition of the permit)."},
    {"type": "citation", "question": "What does Article 27(4) prohibit?",
     "gold_articles": [27], "gold_paragraphs": ["27(4)"],
     "answer": "The disposal of any material other than dredged material."},
    {"type": "citation", "question": "Article 31(3) — when and how are seabird nesting islands protected?",
     "gold_articles": [31], "gold_paragraphs": ["31(3)"],
     "answer": "From 15 April to 15 August no one may land on, or bring a vessel within 50 metres of, a seabird nesting island marked by the Authority."},
    {"type": "citation", "question": "Under Article 26(1), what can the Authority direct a polluter to do?",
     "gold_articles": [26], "gold_paragraphs": ["26(1)"],
     "answer": "Take measures to prevent, contain or clean up the pollution within the time the Authority specifies."},
    {"type": "citation", "question": "Articles 7 and 8 — what time limits bind the Authority when it handles a permit application?",
     "gold_articles": [7, 8], "gold_paragraphs": ["7(3)", "7(4)", "8(1)", "8(2)"],
     "answer": "Confirm completeness within 10 days; allow 21 days for public comments; decide within 60 days (120 with an environmental impact assessment), extendable once by up to 30 days."},
    {"type": "citation", "question": "s. 4(3): what is left out of the public register?",
     "gold_articles": [4], "gold_paragraphs": ["4(3)"],
     "answer": "Information that would reveal personal data or a trade secret."},
    {"type": "citation", "question": "article 20(3): what must a fish farm do when a notifiable disease breaks out?",
     "gold_articles": [20], "gold_paragraphs": ["20(3)"],
     "answer": "Report the outbreak within 24 hours and move no live fish to or from the site until the Authority allows it.",
     "note": "lower case"},

    # ----- unanswerable: plausible questions the Act does not answer ------------------------------------
    {"type": "unanswerable", "question": "How much does a commercial fishing licence cost?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act sets no fee for fishing licences; the only fee it states is the coastal zone permit application fee.",
     "note": "hard near-miss: Article 7(2) gives a permit application fee; Article 14 gives no licence fee"},
    {"type": "unanswerable", "question": "How many days does the Authority have to decide on an application for a commercial fishing licence?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act sets no decision period for fishing licences; its decision periods are for coastal zone permit (and discharge permit) applications.",
     "note": "hard near-miss: Article 8 times permit applications (extended to discharge permits by Article 24(2)); Article 14 sets no time limit"},
    {"type": "unanswerable", "question": "What is the minimum landing size for cod?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act leaves minimum landing sizes to the Authority and states none.",
     "note": "hard near-miss: Article 15(4) refers to a size 'set by the Authority'"},
    {"type": "unanswerable", "question": "What is the total allowable catch for herring next year?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act only says the Authority sets total allowable catches each year; it gives no figures.",
     "note": "hard near-miss: Article 15(1)"},
    {"type": "unanswerable", "question": "Is there a fee for appealing to the Coastal Appeals Board?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act says nothing about appeal fees.",
     "note": "hard near-miss: Article 38 sets deadlines but no fee"},
    {"type": "unanswerable", "question": "What is the fine for obstructing a coastal inspector or giving one false information?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act forbids obstructing or misleading an inspector but sets no fine for it.",
     "note": "hard near-miss: Article 33(4) prohibits it; Articles 34-37 attach no penalty to Article 33"},
    {"type": "unanswerable", "question": "What fine applies to selling a product made from a protected species?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act prohibits selling a protected species or any part of it (unless lawfully obtained before listing) but sets a fine only for killing or injuring one, not for selling.",
     "note": "hard near-miss: Article 30(3) prohibits possession/sale; Article 36(4) fines only breaches of Articles 29, 31 and killing/injuring under 30(2)"},
    {"type": "unanswerable", "question": "What is the penalty for a recreational angler who keeps 15 kilograms of fish in one day?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act sets the 10-kilogram daily limit but no penalty for exceeding it.",
     "note": "hard near-miss: Article 14(3) sets the limit; Article 35(2) fines only commercial fishing without a licence, closures and prohibited gear"},
    {"type": "unanswerable", "question": "What contamination limits decide whether dredged material may be dumped at sea?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The limits are published by the Authority; the Act does not state them.",
     "note": "hard near-miss: Article 27(3)"},
    {"type": "unanswerable", "question": "Where are the designated disposal sites for dredged material?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act says the Authority designates disposal sites but names none.",
     "note": "hard near-miss: Article 27(1)"},
    {"type": "unanswerable", "question": "What qualifications does a consultant need to be accredited to prepare environmental impact assessments?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act requires accreditation by the Authority but gives no criteria for it.",
     "note": "hard near-miss: Article 9(3)"},
    {"type": "unanswerable", "question": "How long does the Administrative Court have to rule on an appeal on a point of law?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act gives 60 days to lodge such an appeal but sets no time for the Court's ruling.",
     "note": "hard near-miss: Article 38(4) times only the lodging; 38(2) times the Board, not the Court"},
    {"type": "unanswerable", "question": "Within how many days must the Authority answer a request for permission to do scientific research in a no-take zone?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act allows written research permission but sets no deadline for deciding a request.",
     "note": "hard near-miss: Article 29(3) has no time limit; Article 8 is for coastal zone permit applications"},
    {"type": "unanswerable", "question": "Can fishermen claim compensation from a polluter for catches lost after an oil spill?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act provides only for the Authority's cost recovery and fines, not for compensation to third parties.",
     "note": "hard near-miss: Article 26(3) covers only the Authority's own costs"},
    {"type": "unanswerable", "question": "Is the Atlantic bluefin tuna a protected species in Talvora?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act requires the list to include marine mammals, sea turtles and nesting seabirds; whether any fish is listed depends on the Authority's list, which the Act does not reproduce.",
     "note": "hard near-miss: Article 30(1) names only mandatory categories, none of them fish"},
    {"type": "unanswerable", "question": "Do fishermen get compensation when the Authority closes an area to fishing because a stock is at risk?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act allows closures but says nothing about compensation.",
     "note": "hard near-miss: Article 16(3)"},
    {"type": "unanswerable", "question": "How many members sit on the Coastal Appeals Board and who appoints them?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act names the Board and its powers but not its composition or appointment.",
     "note": "hard near-miss: Article 38 only"},
    {"type": "unanswerable", "question": "What is the fine for failing to inform the Authority within 24 hours after causing serious harm to the marine environment?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act sets the 24-hour duty but attaches no fine to breaking it.",
     "note": "hard near-miss: Article 5(3); no penalty article refers to Article 5"},
    {"type": "unanswerable", "question": "What is the maximum standing biomass allowed on a single fish farm?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act sets no general cap; each permit states its own maximum standing biomass.",
     "note": "hard near-miss: Article 19(1) leaves it to the permit; 1,000 tonnes in Article 9(1)(d) is only the assessment threshold"},
    {"type": "unanswerable", "question": "What working hours are allowed for construction work under a coastal zone permit?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act lets the Authority limit working hours as a permit condition but states no hours.",
     "note": "hard near-miss: Article 10(1)"},
    {"type": "unanswerable", "question": "How long does a garbage record book have to be kept?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act requires the book but sets no retention period for it.",
     "note": "hard near-miss: Article 22(3); the 3-year period in Article 18(3) is for fishing logbooks only"},
    {"type": "unanswerable", "question": "What is the minimum size of a marine protected area?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act sets no minimum size; boundaries are defined in each designation order.",
     "note": "hard near-miss: Article 28(2)"},
    {"type": "unanswerable", "question": "What income tax rate do fishermen pay in Talvora?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act does not deal with taxation.", "note": "off-topic: tax law"},
    {"type": "unanswerable", "question": "What is the minimum wage for deckhands on Talvoran fishing boats?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act does not deal with employment or wages.", "note": "off-topic: employment law"},
    {"type": "unanswerable", "question": "What are the rules for getting a commercial fishing licence in Norway?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act is a law of the Republic of Talvora and says nothing about other countries' licences.",
     "note": "other country"},
    {"type": "unanswerable", "question": "What does Talvora's Ports Act say about harbour dues?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "Harbour dues and any Ports Act are outside the Coastal Waters Act.", "note": "other law"},
    {"type": "unanswerable", "question": "What certificate do I need before I am allowed to skipper a boat?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act defines the master of a vessel but sets no qualifications or certificates for one.",
     "note": "near-miss on the defined term 'master' (Article 3(6))"},
    {"type": "unanswerable", "question": "What is the blood alcohol limit for people driving a boat?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act does not deal with alcohol or fitness to navigate.", "note": "off-topic"},
    {"type": "unanswerable", "question": "Who is the current director of the Coastal Waters Authority?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act establishes the Authority but names no office-holders.", "note": "fact outside the statute"},
    {"type": "unanswerable", "question": "How many coastal inspectors does the Authority employ?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act requires the Authority to appoint inspectors but sets no number.",
     "note": "near-miss: Article 33(1)"},
    {"type": "unanswerable", "question": "Has Talvora ratified the MARPOL convention?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act does not mention any international convention.", "note": "other law / treaty"},
    {"type": "unanswerable", "question": "Can foreigners buy beachfront property in Talvora?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act does not deal with land ownership.", "note": "off-topic: property law"},
    {"type": "unanswerable", "question": "How far does Talvora's exclusive economic zone extend?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act defines only coastal waters (12 nautical miles from the baseline) and says nothing of an exclusive economic zone.",
     "note": "near-miss on the definition of coastal waters"},
    {"type": "unanswerable", "question": "hey so what are the rules for fishing in lakes and rivers in talvora, do i need a permit to catch trout in a river?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act covers only the coastal zone and says nothing about fishing in lakes and rivers.",
     "note": "conversational, lower case; inland waters are outside the coastal zone"},
    {"type": "unanswerable", "question": "What budget does the Coastal Waters Authority receive from the state each year?",
     "gold_articles": [], "gold_paragraphs": [],
     "answer": "The Act says nothing about the Authority's funding.", "note": "fact outside the statute"},
]

# ---------------------------------------------------------------------------------------------------------
# Evaluation-replay set: 40 new questions, 10 per category.
# ---------------------------------------------------------------------------------------------------------
GOLDEN: list[dict] = [
    # factual
    {"category": "factual", "question": "What is the maximum fine for breaching a condition of a coastal zone permit?",
     "reference_answer": "Up to 50,000 crowns.", "reference_context_ids": ["art-35", "art-10"]},
    {"category": "factual", "question": "How far must a vessel stay from a whale accompanied by a calf?",
     "reference_answer": "At least 300 metres.", "reference_context_ids": ["art-31"]},
    {"category": "factual", "question": "To what speed must a master slow down when a marine mammal approaches the vessel?",
     "reference_answer": "No more than 5 knots, and the master must not change course towards it.",
     "reference_context_ids": ["art-31"]},
    {"category": "factual", "question": "How often must an aquaculture operator report the standing biomass to the Authority?",
     "reference_answer": "At the end of each month.", "reference_context_ids": ["art-19"]},
    {"category": "factual", "question": "What must the permit for an aquaculture site state?",
     "reference_answer": "The species farmed and the maximum standing biomass in tonnes.",
     "reference_context_ids": ["art-19"]},
    {"category": "factual", "question": "Within how many days must a master report the bycatch of a protected species to the Authority?",
     "reference_answer": "Within 7 days; the bycatch must also be recorded in the logbook.",
     "reference_context_ids": ["art-32"]},
    {"category": "factual", "question": "What is the minimum mesh size for towed nets other than bottom trawls?",
     "reference_answer": "70 millimetres.", "reference_context_ids": ["art-17"]},
    {"category": "factual", "question": "How long do permits and licences granted under the earlier law remain valid?",
     "reference_answer": "Until their own expiry date, or for 2 years after the Act enters into force, whichever is earlier.",
     "reference_context_ids": ["art-39"]},
    {"category": "factual", "question": "What is the maximum fine for an aquaculture operator who fails to report a fish disease outbreak?",
     "reference_answer": "Up to 60,000 crowns.", "reference_context_ids": ["art-35", "art-20"]},
    {"category": "factual", "question": "How often must the fines in the Coastal Waters Act be reviewed?",
     "reference_answer": "Every 3 years, by the Minister; they may be adjusted for inflation by regulation.",
     "reference_context_ids": ["art-40"]},
    # procedural
    {"category": "procedural", "question": "How do I apply for a coastal zone permit, and what happens after I submit the application?",
     "reference_answer": "Apply to the Authority on the official form with a description of the activity, a location map, the start date and duration and the harm-limiting measures, plus the fee (1,500 crowns, or 6,000 with an environmental impact assessment); the Authority confirms completeness within 10 days, publishes the application for 21 days of comments, and decides within 60 days (120 with an assessment).",
     "reference_context_ids": ["art-7", "art-8"]},
    {"category": "procedural", "question": "What steps must a ship's master take after witnessing an oil spill at sea?",
     "reference_answer": "Report it to the Authority without delay and in any case within 2 hours, stating the time and position, the substance, the estimated quantity and the measures taken.",
     "reference_context_ids": ["art-25"]},
    {"category": "procedural", "question": "What does a fish farm operator have to do when farmed fish escape?",
     "reference_answer": "Report the escape, or any reason to suspect one, to the Authority within 24 hours of discovering it, and take all reasonable steps to recapture the fish as the Authority directs, at the operator's cost.",
     "reference_context_ids": ["art-20"]},
    {"category": "procedural", "question": "How do I challenge a decision of the Coastal Waters Authority?",
     "reference_answer": "Appeal to the Coastal Appeals Board within 30 days of being notified; the Board decides within 90 days and may confirm, vary or set aside the decision; its decision may be appealed on a point of law to the Administrative Court within 60 days.",
     "reference_context_ids": ["art-38"]},
    {"category": "procedural", "question": "What is the procedure for designating a marine protected area?",
     "reference_answer": "The Minister, on the Authority's advice, publishes a draft, allows at least 60 days for public comments and consults the fishing organisations and communities affected, then makes a designation order defining the boundaries, any no-take zone and the restricted activities.",
     "reference_context_ids": ["art-28"]},
    {"category": "procedural", "question": "What must a ship arriving from abroad do before it may discharge ballast water in coastal waters?",
     "reference_answer": "Treat the ballast water with an approved system or exchange it at sea (at least 200 nautical miles from land in water at least 200 metres deep, or at least 50 nautical miles if that is not possible), record every ballast operation, and notify the Authority at least 24 hours before arrival of the ballast water it intends to discharge.",
     "reference_context_ids": ["art-23"]},
    {"category": "procedural", "question": "What are the steps a fisher must follow after accidentally catching a protected species?",
     "reference_answer": "Release it immediately, alive where possible, with the least possible harm; record the bycatch in the logbook; report it to the Authority within 7 days.",
     "reference_context_ids": ["art-32", "art-18"]},
    {"category": "procedural", "question": "How can I transfer my marina permit to the buyer of my business?",
     "reference_answer": "Obtain the Authority's prior written consent to the transfer; the Authority decides on the request within 30 days.",
     "reference_context_ids": ["art-11"]},
    {"category": "procedural", "question": "What does the Authority do when it finds that someone is breaking the Act?",
     "reference_answer": "It may serve a compliance notice stating the breach, the steps needed to end it and a deadline of at least 14 days, or, where the breach causes serious harm, order the activity to stop immediately; failing to comply is an offence with a fine of up to 20,000 crowns plus up to 2,000 crowns a day.",
     "reference_context_ids": ["art-34"]},
    {"category": "procedural", "question": "What records and reports must the master of a commercial fishing vessel keep after each trip?",
     "reference_answer": "Keep a logbook for each trip (dates, areas fished, gear, catch of each species in kilograms, any bycatch of protected species), send a landing declaration within 48 hours of landing, and keep the logbooks and declaration copies for 3 years.",
     "reference_context_ids": ["art-18"]},
    # comparison
    {"category": "comparison", "question": "How do the maximum durations of an ordinary coastal zone permit, an aquaculture site permit and a discharge permit compare?",
     "reference_answer": "Up to 10 years, up to 15 years and up to 5 years respectively.",
     "reference_context_ids": ["art-10", "art-24"]},
    {"category": "comparison", "question": "What changes for a permit application when an environmental impact assessment is required compared with when it is not?",
     "reference_answer": "The fee rises from 1,500 to 6,000 crowns and the decision period from 60 to 120 days, and the application must be accompanied by an assessment prepared by an accredited person and paid for by the applicant.",
     "reference_context_ids": ["art-7", "art-8", "art-9"]},
    {"category": "comparison", "question": "How does a no-take zone differ from the rest of a marine protected area?",
     "reference_answer": "In the rest of a marine protected area anchoring on seagrass or reefs, speeds over 8 knots outside shipping lanes, bottom trawls and shellfish dredges and removing stones, shells, plants or animals are banned, but lawful fishing is allowed; in a no-take zone all fishing and any collecting or disturbing of living organisms is banned, vessels may not stop except in an emergency, and the permit exemptions do not apply.",
     "reference_context_ids": ["art-29", "art-3", "art-16", "art-13"]},
    {"category": "comparison", "question": "What is the difference between commercial and recreational fishing under the Act?",
     "reference_answer": "Commercial fishing (the catch is sold or meant for sale) needs a commercial fishing licence for the vessel; recreational fishing with rod and line or at most two hand lines needs no licence, but the catch may not be sold and at most 10 kilograms of fish may be kept per day.",
     "reference_context_ids": ["art-3", "art-14"]},
    {"category": "comparison", "question": "How does suspending a permit differ from revoking it?",
     "reference_answer": "Suspension lasts up to 90 days and is allowed for a breach of a condition or unforeseen serious harm; revocation needs a serious or repeated breach, false or misleading information, or no start within 2 years. Both require 14 days' written notice and a chance to respond, except an immediate suspension to prevent serious harm, and both can be appealed.",
     "reference_context_ids": ["art-12"]},
    {"category": "comparison", "question": "Which penalties does the Authority impose itself, and which are left to a court?",
     "reference_answer": "The Authority imposes the fines of Articles 34, 35 and 36 in written penalty decisions; imprisonment and forfeiture by court order are imposed only by a criminal court, which may also suspend a fishing licence for up to 12 months.",
     "reference_context_ids": ["art-37"]},
    {"category": "comparison", "question": "How do the distance rules for whales and dolphins, seal haul-out sites and seabird nesting islands differ?",
     "reference_answer": "Whales, dolphins and porpoises: at least 100 metres all year, 300 metres from a whale with a calf; seal haul-out sites: no approach within 200 metres from 1 May to 31 July; seabird nesting islands: no landing and no vessel within 50 metres from 15 April to 15 August.",
     "reference_context_ids": ["art-31"]},
    {"category": "comparison", "question": "How do the reporting deadlines differ for an oil spill seen by a master, an escape from a fish farm, and serious harm someone has caused to the marine environment?",
     "reference_answer": "Oil spill: without delay and in any case within 2 hours; fish escape: within 24 hours of discovering it; serious harm one has caused: within 24 hours, after taking immediate steps to limit it.",
     "reference_context_ids": ["art-25", "art-20", "art-5"]},
    {"category": "comparison", "question": "How does a coastal zone permit differ from a commercial fishing licence in what it authorises and how long it lasts?",
     "reference_answer": "A coastal zone permit authorises listed works (structures, dredging, cables and pipelines, aquaculture sites, disposal of dredged material) for up to 10 years, or 15 for aquaculture, but never commercial fishing; a commercial fishing licence is issued for a vessel, valid for one calendar year, and states the vessel, master, permitted gear and species.",
     "reference_context_ids": ["art-6", "art-10", "art-14"]},
    {"category": "comparison", "question": "How does the fixed cod and herring closure differ from the fishing closures the Authority can order?",
     "reference_answer": "The cod and herring closure is set by the Act: all commercial fishing for them is prohibited every year from 1 March to 30 April to protect spawning stocks; the Authority may close any area to fishing for up to 6 months where a stock is at serious risk, taking effect 7 days after publication or immediately in an emergency.",
     "reference_context_ids": ["art-16"]},
    # unanswerable
    {"category": "unanswerable", "question": "How many votes in the National Assembly are needed to amend the Coastal Waters Act?",
     "reference_answer": "The Act says nothing about how it may be amended.", "reference_context_ids": []},
    {"category": "unanswerable", "question": "What are the EU rules on discarding undersized fish?",
     "reference_answer": "The Act is a Talvoran statute and does not describe European Union law.", "reference_context_ids": []},
    {"category": "unanswerable", "question": "Is there a minimum age for recreational anglers?",
     "reference_answer": "The Act sets no age limit for recreational fishing.", "reference_context_ids": []},
    {"category": "unanswerable", "question": "How long does the Authority take to approve a sewage treatment system for a yacht?",
     "reference_answer": "The Act requires treatment systems to be approved by the Authority but sets no time or procedure for approval.",
     "reference_context_ids": []},
    {"category": "unanswerable", "question": "What salary do coastal inspectors earn?",
     "reference_answer": "The Act says nothing about inspectors' pay.", "reference_context_ids": []},
    {"category": "unanswerable", "question": "Which ballast water treatment systems are approved?",
     "reference_answer": "The Act refers to approved treatment systems but names none.", "reference_context_ids": []},
    {"category": "unanswerable", "question": "What fine does a master face for failing to show the fishing licence to a coastal inspector?",
     "reference_answer": "The Act requires the master to show the licence on request but sets no fine for failing to do so.",
     "reference_context_ids": []},
    {"category": "unanswerable", "question": "How much does an environmental impact assessment typically cost?",
     "reference_answer": "The Act says only that the applicant pays for the assessment; it gives no cost.", "reference_context_ids": []},
    {"category": "unanswerable", "question": "Which ministry is responsible for the marine environment in Talvora?",
     "reference_answer": "The Act refers only to 'the Minister responsible for the marine environment' and names no ministry.",
     "reference_context_ids": []},
    {"category": "unanswerable", "question": "What VAT rate applies to fish sold at the market?",
     "reference_answer": "The Act does not deal with taxation.", "reference_context_ids": []},
]


# ---------------------------------------------------------------------------------------------------------
def cited_articles(question: str) -> list[int]:
    """Article numbers a question cites, in order of first mention.

    >>> cited_articles("Articles 35 and 36: which one ...? see also s. 13(2) and 제21조")
    [35, 36, 13, 21]
    >>> cited_articles("How long is a licence valid?")
    []
    """
    found: list[int] = []
    for match in _CITE.finditer(question):
        for group in match.groups():
            if group and int(group) not in found:
                found.append(int(group))
    return found


def normalise(question: str) -> str:
    """Lower case, spaces collapsed, punctuation at the ends dropped: the key for 'the same question'."""
    return " ".join(question.lower().split()).strip(" ?.!")


def assign(questions: list[dict], seed: int = SEED) -> list[dict]:
    """Ids ``sq-001...`` in list order, and a dev/test split shuffled with ``random.Random(seed)`` per type.

    One generator walks the types in the fixed order of ``TYPES``; within a type, the first
    ``round(0.4 * n)`` shuffled positions are dev, the rest test.
    """
    rng = random.Random(seed)
    split: dict[int, str] = {}
    for kind in TYPES:
        positions = [i for i, q in enumerate(questions) if q["type"] == kind]
        rng.shuffle(positions)
        n_dev = round(DEV_FRACTION * len(positions))
        split.update({i: ("dev" if rank < n_dev else "test") for rank, i in enumerate(positions)})
    items = []
    for i, q in enumerate(questions):
        item = {"id": f"sq-{i + 1:03d}", "question": q["question"], "type": q["type"],
                "gold_articles": list(q["gold_articles"]), "gold_paragraphs": list(q["gold_paragraphs"]),
                "answer": q["answer"], "split": split[i]}
        if q.get("note"):
            item["note"] = q["note"]
        items.append(item)
    return items


def build() -> tuple[list[dict], list[dict]]:
    """``(statute_qa items, statute_golden rows)``, exactly as written to disk (no file is touched)."""
    golden = [{"question": g["question"], "reference_answer": g["reference_answer"],
               "reference_context_ids": list(g["reference_context_ids"]), "category": g["category"]}
              for g in GOLDEN]
    return assign(QUESTIONS), golden


def validate(items: list[dict], golden: list[dict]) -> None:
    """Raise ``ValueError`` listing every problem: schema, counts, articles, paragraphs, citations, overlap.

    Gold paragraphs are the ones that hold the answer; the first gold article must have one, later gold
    articles may be articles the answer only points to (a citation question on Article 24(2) lists
    Articles 7 and 8, which it refers to, without paragraphs of theirs).
    """
    docs = {d.metadata["article"]: d for d in load_statute()}
    problems: list[str] = []
    counts = Counter(it["type"] for it in items)
    for kind, minimum in MIN_COUNTS.items():
        if counts[kind] < minimum:
            problems.append(f"type {kind}: {counts[kind]} questions, need >= {minimum}")
    seen: dict[str, str] = {}
    for it in items:
        where = f"{it['id']} ({it['question'][:50]!r})"
        if it["type"] not in TYPES or it["split"] not in ("dev", "test") or not it["answer"].strip():
            problems.append(f"{where}: bad type, split or empty answer")
        key = normalise(it["question"])
        if key in seen:
            problems.append(f"{where}: same question as {seen[key]}")
        seen[key] = it["id"]
        arts, paras = it["gold_articles"], it["gold_paragraphs"]
        if it["type"] == "unanswerable":
            if arts or paras or not it.get("note"):
                problems.append(f"{where}: unanswerable needs no gold and a note saying why")
            continue
        if not arts or not paras or len(set(arts)) != len(arts):
            problems.append(f"{where}: needs distinct gold articles and gold paragraphs")
        for n in arts:
            if n not in docs:
                problems.append(f"{where}: Article {n} is not in the statute")
        for p in paras:
            m = _PARAGRAPH.match(p)
            if not m or int(m.group(1)) not in arts:
                problems.append(f"{where}: paragraph {p!r} malformed or its article not in gold_articles")
                continue
            doc = docs.get(int(m.group(1)))
            if doc is None:
                continue
            if m.group(2) is None and doc.metadata["paragraphs"]:
                problems.append(f"{where}: {p!r} names no paragraph but Article {m.group(1)} has numbered ones")
            if m.group(2) is not None and not re.search(rf"^\({m.group(2)}\)", doc.page_content, re.MULTILINE):
                problems.append(f"{where}: Article {m.group(1)} has no paragraph ({m.group(2)})")
        if arts and not any(p.split("(")[0] == str(arts[0]) for p in paras):
            problems.append(f"{where}: the first gold Article {arts[0]} has no gold paragraph")
        cited = cited_articles(it["question"])
        if it["type"] == "citation":
            if not cited or set(arts[:len(cited)]) != set(cited):
                problems.append(f"{where}: cites {cited} but gold articles start {arts[:len(cited)]}")
        elif cited:
            problems.append(f"{where}: a {it['type']} question must not cite an article ({cited})")
        if it["type"] == "single" and len(arts) != 1:
            problems.append(f"{where}: single needs exactly one article")
        if it["type"] == "multihop" and len(arts) < 2:
            problems.append(f"{where}: multihop needs two or more articles")
    for kind in TYPES:
        splits = {it["split"] for it in items if it["type"] == kind}
        if splits != {"dev", "test"}:
            problems.append(f"type {kind}: splits {sorted(splits)}, need both dev and test")
    cats = Counter(g["category"] for g in golden)
    if dict(cats) != {c: 10 for c in CATEGORIES}:
        problems.append(f"golden categories {dict(cats)}, need 10 each of {CATEGORIES}")
    for g in golden:
        key = normalise(g["question"])
        if key in seen:
            problems.append(f"golden {g['question'][:50]!r}: already asked as {seen[key]}")
        seen[key] = "golden"
        ids = g["reference_context_ids"]
        if (g["category"] == "unanswerable") != (not ids) or not g["reference_answer"].strip():
            problems.append(f"golden {g['question'][:50]!r}: context ids must be empty exactly when unanswerable")
        for doc_id in ids:
            if not re.fullmatch(r"art-\d+", doc_id) or int(doc_id[4:]) not in docs:
                problems.append(f"golden {g['question'][:50]!r}: unknown context id {doc_id!r}")
    if problems:
        raise ValueError("statute gold set is invalid:\n  " + "\n  ".join(problems))


def qa_bytes(items: list[dict]) -> bytes:
    return (json.dumps(items, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def golden_bytes(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` unless the file is frozen with other bytes (a frozen set is never edited)."""
    if path.is_file() and path.read_bytes() == data:
        return
    if path.name in read_manifest():
        raise ValueError(f"{path} is frozen; refusing to overwrite it with different content (use a new name)")
    path.write_bytes(data)


def summary(items: list[dict], golden: list[dict]) -> str:
    lines = [f"{'type':<13} {'dev':>4} {'test':>5} {'total':>6}"]
    for kind in TYPES:
        c = Counter(it["split"] for it in items if it["type"] == kind)
        lines.append(f"{kind:<13} {c['dev']:>4} {c['test']:>5} {c['dev'] + c['test']:>6}")
    c = Counter(it["split"] for it in items)
    lines.append(f"{'all':<13} {c['dev']:>4} {c['test']:>5} {len(items):>6}")
    lines.append("golden: " + ", ".join(f"{k} {v}" for k, v in Counter(g["category"] for g in golden).items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="validate only; write nothing")
    args = parser.parse_args(argv)
    items, golden = build()
    validate(items, golden)
    if not args.check:
        _write(eval_dir() / QA_FILE, qa_bytes(items))
        _write(eval_dir() / GOLDEN_FILE, golden_bytes(golden))
    print(summary(items, golden))
    return 0


if __name__ == "__main__":
    sys.exit(main())
