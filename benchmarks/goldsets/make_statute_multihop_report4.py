"""Write the fourth report set of multi-hop statute questions, ``data/eval/statute_multihop_report4.json``.

Written blind on 2026-12-04 for ragkit issue 22 (multi-hop statute questions) from the Coastal Waters Act
(``data/statute.md``) alone, BEFORE the round it reports on: the writer read only the statute, the shared builder
helpers ``statute_multihop_sets.py``, and of ``make_statute_multihop_report3.py`` only its docstring and the code
after its table (not its questions); no earlier statute gold set, the statute graph or its benchmarks were opened,
and no retriever, graph or model was run on these questions. Frozen in ``data/eval/MANIFEST.json`` before that
round and scored once, aggregates only. Each of the 18 questions needs two articles:

- **penalty -> offence** (9): the fine or sanction is in a penalty article (35, 36 or 37), the rule broken in the
  article the penalty paragraph cites; the question tells the conduct in the asker's own words (a bottom net with
  holes too small, a fibre line run to an island, a torn salmon pen, rubbish thrown off a ferry, a speedboat in a
  reserve, a seal shot at the nets, crude pumped overboard, ...) and names neither article nor paragraph;
- **defined term** (9): the rule is in one article and the answer turns on a word that Article 3 defines; the
  question uses an everyday description that falls under the defined term without naming it (a jet ski is a
  vessel, oyster cages are aquaculture, the figure on a tonnage certificate is gross tonnage, selling fish to the
  pub makes it commercial fishing, a split fuel hose is still a discharge, the person in charge of a boat is its
  master, a foreman running the works is an operator, ...), so answering needs the definition and the rule.

Gold fields, the checks run before every write and the within-set cosine check (``--check-near``, bar 0.9):
``statute_multihop_sets.py``. Being blind, the set was not compared with the earlier statute sets.

Run::

    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report4.py              # compare with the written file
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report4.py --check-near # the within-set check
    .venv/bin/python benchmarks/goldsets/make_statute_multihop_report4.py --write      # write it (refused once frozen)

Limits: one writer's questions and labels, no second reader; 18 questions give a binomial standard error of
about 0.11 near 0.7 (about 0.15 for each pattern's 9).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from statute_multihop_sets import DEFINED, NEAR, PENALTY, Item, builder_main, penalty_problem  # noqa: E402

NAME = "statute_multihop_report4.json"

ITEMS: list[Item] = [
    # penalty -> offence
    (
        "Heads up: my uncle's boat has been dragging along the bottom with a net whose holes are only about 6 cm "
        "across. If an inspector measures it, what fine is the captain facing?",
        [35, 17],
        ["35(2)", "17(1)"],
        PENALTY,
        "A bottom trawl net needs a mesh of at least 90 millimetres, and fishing with prohibited gear exposes the "
        "master to a fine of up to 80,000 crowns and forfeiture of the catch on board.",
    ),
    (
        "A telecom company ran a fibre line along the seabed out to the island without asking anyone for "
        "permission. What's the most they can be fined?",
        [35, 6],
        ["35(1)", "6(1)"],
        PENALTY,
        "Laying a cable in the coastal zone without a coastal zone permit is punishable by a fine of up to "
        "50,000 crowns.",
    ),
    (
        "A storm ripped open one of our salmon pens last week and a lot of fish swam off. We kept quiet, hoping to "
        "round them up ourselves. What are we looking at if this comes out?",
        [35, 20],
        ["35(4)", "20(1)"],
        PENALTY,
        "Failing to report an escape of farmed fish within 24 hours of discovering it is punishable by a fine of "
        "up to 60,000 crowns for the operator.",
    ),
    (
        "fine for bringing in about a quarter more herring than our boat's allocation for the year?",
        [35, 15],
        ["35(3)", "15(2)", "15(3)"],
        PENALTY,
        "Landing more than the vessel's quota by over 10 percent is a breach of the quota rule and exposes the "
        "master to a fine of up to 40,000 crowns.",
    ),
    (
        "Could you please tell me what penalty applies when the crew of a small ferry throws bags of rubbish over "
        "the side a few miles from the shore?",
        [36, 22],
        ["36(2)", "22(2)"],
        PENALTY,
        "Throwing garbage from a vessel in coastal waters breaks the garbage rule and is punishable by a fine of "
        "up to 75,000 crowns.",
    ),
    (
        "fish processing plant on the quay, wash water piped straight into the harbour, never had any sign-off "
        "for it. how big a fine?",
        [36, 24],
        ["36(2)", "24(1)"],
        PENALTY,
        "Releasing waste water into the sea from a pipe on land without a discharge permit is punishable by a "
        "fine of up to 75,000 crowns.",
    ),
    (
        "My brother got stopped doing about 20 knots in his speedboat straight across the marine reserve, nowhere "
        "near the shipping channel. How much trouble is he in, money-wise?",
        [36, 29],
        ["36(4)", "29(1)"],
        PENALTY,
        "Going faster than 8 knots outside the marked shipping lanes in a marine protected area is punishable by "
        "a fine of up to 25,000 crowns.",
    ),
    (
        "An old fisherman got fed up with a seal raiding his catch and shot it dead. What can he be made to pay?",
        [36, 30],
        ["36(4)", "30(1)", "30(2)"],
        PENALTY,
        "Seals, as marine mammals, are protected species, and deliberately killing one is punishable by a fine "
        "of up to 150,000 crowns.",
    ),
    (
        "Is it true a tanker captain could actually be locked up for deliberately pumping a few tonnes of crude "
        "into the sea to dodge disposal costs?",
        [37, 21],
        ["37(2)", "21(1)"],
        PENALTY,
        "Yes: deliberately discharging more than 1 tonne of oil into the sea is punishable by imprisonment for up "
        "to 2 years, in addition to or instead of a fine.",
    ),
    # defined term
    (
        "We'd like to put oyster cages in the estuary, but there's a salmon farm roughly 600 metres away. "
        "Is that too close?",
        [19, 3],
        ["19(2)", "3(10)"],
        DEFINED,
        "Yes: oyster cages and a salmon farm are both aquaculture, and a new aquaculture site must be at least "
        "1,000 metres from any other aquaculture site.",
    ),
    (
        "Out on my jet ski I like to get right up close to the dolphins. Is there some minimum distance I'm "
        "meant to keep?",
        [31, 3],
        ["31(1)", "3(5)", "3(6)"],
        DEFINED,
        "Yes: a jet ski is a craft on the water and so a vessel, and the person in command of it must keep at "
        "least 100 metres from any dolphin.",
    ),
    (
        "The tonnage certificate for our charter yacht says 140. Are we supposed to keep a log of the rubbish "
        "we produce on board?",
        [22, 3],
        ["22(3)", "3(16)"],
        DEFINED,
        "Yes: gross tonnage is the tonnage in the certificate, and every vessel of 100 gross tonnage or more must "
        "keep a garbage record book and deliver its garbage to port reception facilities.",
    ),
    (
        "I catch mackerel off my dinghy with a rod and sell a few to the local pub at weekends. Do I need any "
        "kind of licence for that?",
        [14, 3],
        ["14(1)", "14(3)", "3(11)"],
        DEFINED,
        "Yes: fishing whose catch is sold is commercial fishing, which needs a commercial fishing licence for the "
        "vessel, and a recreational fisher may not sell the catch.",
    ),
    (
        "A fuel hose on our trawler split and some diesel ran into the harbour. Nobody meant it to happen. Does "
        "that still count as breaking the pollution rules?",
        [21, 3],
        ["21(1)", "3(8)", "3(9)"],
        DEFINED,
        "Yes: a discharge is any release of a harmful substance such as oil however caused, and no one may "
        "discharge oil into coastal waters except a filtered machinery-space mixture of no more than 15 parts "
        "per million while under way.",
    ),
    (
        "I keep an 8-metre sailboat and want to sink a private mooring in the bit of the reserve where all "
        "fishing is banned. Moorings like that don't need a permit, right?",
        [13, 3],
        ["13(1)", "13(2)", "3(13)"],
        DEFINED,
        "Not there: the part of a marine protected area closed to all fishing is a no-take zone, and the permit "
        "exemptions, including a private mooring for a single vessel of less than 12 metres, do not apply "
        "within it.",
    ),
    (
        "My aunt wants to sell an old sea turtle shell she picked up at a market abroad last summer. "
        "Is she allowed to?",
        [30, 3],
        ["30(1)", "30(3)", "3(14)"],
        DEFINED,
        "No, unless it was lawfully obtained before the species was listed: every sea turtle is a protected "
        "species, and no one may possess, sell or transport a protected species or any part of it.",
    ),
    (
        "I'm the foreman running the new breakwater build, but the permit is in the developer's name, not mine. "
        "Do its conditions bind me too?",
        [10, 3],
        ["10(4)", "3(7)"],
        DEFINED,
        "Yes: whoever controls the activity is an operator, and the operator must comply with every condition of "
        "the permit and keep a copy of it available for inspection at the site.",
    ),
    (
        "I was the one in charge of our fishing boat when we passed an oil slick coming off another ship. "
        "Is it on me to tell the authorities, and how quickly?",
        [25, 3],
        ["25(1)", "3(6)"],
        DEFINED,
        "Yes: the person in command of a vessel is its master, and a master witnessing a discharge of oil must "
        "report it to the Authority without delay and in any case within 2 hours.",
    ),
]

ABOUT = (
    "Fourth report set of multi-hop statute questions for ragkit issue 22, written blind on 2026-12-04 from the "
    "Coastal Waters Act (data/statute.md) only, before the round it reports on; the writer read only the statute, "
    "the shared builder helpers and the docstring and post-table code of the third set's builder (not its "
    "questions), opened no earlier statute set and ran no statute graph, retriever or model on these questions. "
    "18 questions: 9 penalty->offence (a fine or sanction in Article 35, 36 or 37 and the offence article it cites, "
    "conduct described in the asker's own words) and 9 defined term (a rule's article and Article 3, whose defined "
    "word the question covers with an everyday description). No two questions within MiniLM cosine "
    f"{NEAR} of each other; not compared with earlier sets (blind). One writer's labels."
)




def main(argv: list[str] | None = None) -> int:
    return builder_main(__doc__, NAME, ITEMS, ABOUT, "mh4", penalty_problem, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
