"""Write data/eval/claim_cases.json: claim-level cases for hallucination graders, with paraphrased faithful answers.

A hallucination grader (a verifier) decides whether an answer is supported by the passage it was written
from. The older set (``hallucination_set.py``) only has *copied* sentences as faithful answers, so a grader
that just looks for overlap scores no false alarms there. Here every case is one passage plus a short answer (1-2
sentences) about one or two of its sentences, written by hand in eight types:

| type                   | label       | what the answer does                                                   |
|------------------------|-------------|------------------------------------------------------------------------|
| copied_faithful        | supported   | repeats a sentence of the passage verbatim (the baseline)              |
| paraphrased_faithful   | supported   | the same facts in new words and order; no new fact, no lost negation   |
| appended_clause        | unsupported | a faithful sentence plus an "and"/", which"/"such as" clause the passage does not state |
| negation_flip          | unsupported | a statement of the passage negated ("is" -> "is not", "lacking" -> "now links")  |
| quantifier_change      | unsupported | "most" -> "all", "may" -> "must", "often" -> "always", "some of the best" -> "the best" |
| attribute_swap         | unsupported | an attribute the passage does not give the subject (vegan, sparkling, farmed, max pooling) |
| entity_swap            | unsupported | a name, place, dish, grape or article replaced, often by one from the same corpus |
| changed_number         | unsupported | a number, date, price or quantity changed to one the passage does not contain |

Sources, read at build time and never copied into the repository (only the short sentence each answer is
about is stored, so a benchmark can check it still occurs in the text it loads):
- SQuAD 2.0 dev (CS224N half, ``../shared/datasets/squad2``): a paragraph's ``context``; article and
  paragraph index in file order.
- SciFact (``../shared/datasets/scifact/corpus.jsonl``): an abstract's ``text`` (not its title), by ``_id``.
- ragkit's bundled data through its loaders: ``load_menu`` (menu-NN), ``load_wines`` (wine-NN),
  ``load_handbook`` (HB-NN), ``load_statute`` (art-N); the passage is the Document's ``page_content``.

How the set was made: :func:`draw_passages` picks 80 passages with ``random.Random(7)`` (each draw: SQuAD
with probability 0.4, SciFact 0.2, the bundled corpora 0.4; no passage twice), so the author did not
choose them; the author then wrote 2-7 answers for every drawn passage (the ``CASES`` table below, in
draw order; :func:`validate` refuses a table whose passages differ from the draw). The set was written
blind: no grader was run on it before it was frozen. The split is a seeded shuffle (``random.Random(11)``)
within each type, half "tune" and half "report" (an odd count gives "report" the extra case).

Run from the project folder: ``.venv/bin/python benchmarks/roles/make_claim_cases.py`` (writes the file;
``--check`` only validates and compares with the file on disk). Benchmarks read the set with
:func:`load_claim_cases`, which checks the frozen hash and attaches each case's full passage as a LangChain
``Document``.

Limits, said plainly:
- One author wrote every answer, so the set reflects that author's idea of a paraphrase and of a subtle
  error; the paraphrases are closer to a careful rewriter than to a sloppy one.
- Labels are judged against the one source passage alone. An unsupported answer may still be true in
  the world (Merit did run NSFNET with IBM and MCI); it is unsupported because the passage does not say it.
- Some answers resolve a pronoun from a neighbouring sentence of the passage ("It" -> "the Rankine
  cycle"); that neighbour is in the passage but not always in ``source_sentence``.
- The split is per case, not per passage: the same passage can appear in both halves with different
  answers, so "report" numbers are held out by answer, not by document.
- ``changed`` is a human note, checked only loosely (the new words occur in the answer, the old ones in
  the passage, a changed number does not occur in the passage).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATASETS, ROOT, write_frozen_set  # noqa: E402

from ragkit.core.nlp import split_sentences
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.statute.corpus import load_statute
from ragkit.goldsets import check_frozen, load_goldset  # noqa: E402

OUT_PATH = ROOT / "data" / "eval" / "claim_cases.json"
SQUAD_PATH = DATASETS / "squad2" / "dev-v2.0_cs224n_half.json"
SCIFACT_PATH = DATASETS / "scifact" / "corpus.jsonl"
N_PASSAGES = 80
DRAW_SEED, SPLIT_SEED = 7, 11
SHARES = (("squad2", 0.4), ("scifact", 0.2), ("bundled", 0.4))
BUNDLED = {"menu": load_menu, "wine": load_wines, "handbook": load_handbook, "statute": load_statute}

COPY, PARA = "copied_faithful", "paraphrased_faithful"
APPEND, NEG, QUANT = "appended_clause", "negation_flip", "quantifier_change"
ATTR, ENT, NUM = "attribute_swap", "entity_swap", "changed_number"
TYPES = (COPY, PARA, APPEND, NEG, QUANT, ATTR, ENT, NUM)
SUPPORTED = frozenset({COPY, PARA})
MINIMUM = {COPY: 15, PARA: 60, APPEND: 30, NEG: 30, QUANT: 30, ATTR: 30, ENT: 30, NUM: 30}

# Written answers, keyed by source passage in draw order. Each row: (type, source sentence(s), answer, changed).
# source sentence: copied from the passage (whitespace is normalised when it is checked); changed: for an
# unsupported answer, what makes it wrong ("old -> new" for a replacement, the added words otherwise).
CASES: dict[str, list[tuple[str, str, str, str]]] = {
    "squad2:3:23": [
        (COPY, "The Rankine cycle is the fundamental thermodynamic underpinning of the steam engine.",
         "The Rankine cycle is the fundamental thermodynamic underpinning of the steam engine.", ""),
        (PARA, "The Rankine cycle is used in virtually all steam power production applications.",
         "Virtually every application that produces power from steam relies on the Rankine cycle.", ""),
        (NUM, "In the 1990s, Rankine steam cycles generated about 90% of all electric power used throughout the world, including virtually all solar, biomass, coal and nuclear power plants.",
         "In the 1990s, Rankine steam cycles generated about 60% of all electric power used throughout the world.",
         "90% -> 60%"),
        (ENT, "It is named after William John Macquorn Rankine, a Scottish polymath.",
         "The Rankine cycle is named after James Watt, a Scottish polymath.",
         "William John Macquorn Rankine -> James Watt"),
        (NEG, "The heat is supplied externally to a closed loop with some of the heat added being converted to work and the waste heat being removed in a condenser.",
         "In the Rankine cycle the heat is not supplied externally to the closed loop.", "not"),
        (APPEND, 'It is named after William John Macquorn Rankine, a Scottish polymath.',
         'The Rankine cycle is named after William John Macquorn Rankine, a Scottish polymath, and it was first described in 1859.',
         'and it was first described in 1859'),
    ],
    "squad2:1:10": [
        (PARA, "Thus the time required to solve a problem (or the space required, or any measure of complexity) is calculated as a function of the size of the instance. This is usually taken to be the size of the input in bits.",
         "The time (or space, or any other complexity measure) needed to solve a problem is expressed as a function of the instance's size, which is usually taken to be the input size in bits.", ""),
        (QUANT, "This is usually taken to be the size of the input in bits.",
         "The size of an instance is always taken to be the size of the input in bits.", "usually -> always"),
        (NEG, "In particular, larger instances will require more time to solve.",
         "Larger instances will not require more time to solve.", "not"),
        (APPEND, "Complexity theory is interested in how algorithms scale with an increase in the input size.",
         "Complexity theory is interested in how algorithms scale as the input size grows, and it measures this scaling in seconds on a reference machine.",
         "and it measures this scaling in seconds on a reference machine"),
    ],
    "squad2:13:41": [
        (PARA, "From among Warsaw's 60 museums, the most prestigious ones are National Museum with a collection of works whose origin ranges in time from antiquity till the present epoch as well as one of the best collections of paintings in the country including some paintings from Adolf Hitler's private collection, and Museum of the Polish Army whose set portrays the history of arms.",
         "Warsaw has 60 museums, and the most prestigious of them are the National Museum and the Museum of the Polish Army, whose collection portrays the history of arms.", ""),
        (PARA, "As interesting examples of expositions the most notable are: the world's first Museum of Posters boasting one of the largest collections of art posters in the world, Museum of Hunting and Riding and the Railway Museum.",
         "Among Warsaw's notable expositions is the world's first Museum of Posters, which has one of the largest collections of art posters anywhere in the world.", ""),
        (NUM, "From among Warsaw's 60 museums, the most prestigious ones are National Museum",
         "Warsaw has 80 museums, the most prestigious being the National Museum and the Museum of the Polish Army.",
         "60 -> 80"),
        (ENT, "From among Warsaw's 60 museums, the most prestigious ones are National Museum with a collection of works whose origin ranges in time from antiquity till the present epoch as well as one of the best collections of paintings in the country including some paintings from Adolf Hitler's private collection, and Museum of the Polish Army whose set portrays the history of arms.",
         "The Museum of the Polish Army holds some paintings from Adolf Hitler's private collection.",
         "National Museum -> Museum of the Polish Army"),
    ],
    "squad2:14:40": [
        (PARA, "British victories continued in all theaters in the Annus Mirabilis of 1759, when they finally captured Ticonderoga, James Wolfe defeated Montcalm at Quebec (in a battle that claimed the lives of both commanders), and victory at Fort Niagara successfully cut off the French frontier forts further to the west and south.",
         "In 1759, the Annus Mirabilis, the British captured Ticonderoga, and at Quebec James Wolfe defeated Montcalm in a battle that killed both commanders.", ""),
        (NUM, "The victory was made complete in 1760 when, despite losing outside Quebec City in the Battle of Sainte-Foy, the British were able to prevent the arrival of French relief ships in the naval Battle of the Restigouche while armies marched on Montreal from three sides.",
         "The British victory was made complete in 1763, when they prevented French relief ships from arriving in the naval Battle of the Restigouche while armies marched on Montreal from three sides.",
         "1760 -> 1763"),
        (ENT, "James Wolfe defeated Montcalm at Quebec (in a battle that claimed the lives of both commanders)",
         "In 1759 James Wolfe defeated Montcalm at Montreal, in a battle that claimed the lives of both commanders.",
         "Quebec -> Montreal"),
        (NEG, "The victory was made complete in 1760 when, despite losing outside Quebec City in the Battle of Sainte-Foy, the British were able to prevent the arrival of French relief ships in the naval Battle of the Restigouche while armies marched on Montreal from three sides.",
         "In 1760 the British were unable to prevent the arrival of French relief ships in the naval Battle of the Restigouche.",
         "were able to -> were unable to"),
    ],
    "squad2:13:12": [
        (PARA, 'In 1979, less than a year after becoming pope, John Paul celebrated Mass in Victory Square in Warsaw and ended his sermon with a call to "renew the face" of Poland',
         'Less than a year after he became pope, John Paul II said Mass in Warsaw\'s Victory Square in 1979 and closed his sermon by calling for the "face" of Poland to be renewed.', ""),
        (NUM, "John Paul II's visits to his native country in 1979 and 1983 brought support to the budding solidarity movement and encouraged the growing anti-communist fervor there.",
         "John Paul II's visits to his native Poland in 1979 and 1987 brought support to the budding solidarity movement.",
         "1983 -> 1987"),
        (ENT, "In 1979, less than a year after becoming pope, John Paul celebrated Mass in Victory Square in Warsaw",
         "In 1979, less than a year after becoming pope, John Paul celebrated Mass in Castle Square in Warsaw.",
         "Victory Square -> Castle Square"),
        (NEG, "These words were very meaningful for the Polish citizens who understood them as the incentive for the democratic changes.",
         "The Polish citizens did not understand the pope's words as an incentive for the democratic changes.",
         "did not understand"),
        (APPEND, 'In 1979, less than a year after becoming pope, John Paul celebrated Mass in Victory Square in Warsaw',
         'In 1979, less than a year after becoming pope, John Paul celebrated Mass in Victory Square in Warsaw, and about a million people attended.',
         'and about a million people attended'),
    ],
    "squad2:2:1": [
        (COPY, "A term used originally in derision, Huguenot has unclear origins.",
         "A term used originally in derision, Huguenot has unclear origins.", ""),
        (PARA, "Geneva was John Calvin's adopted home and the centre of the Calvinist movement.",
         "The centre of the Calvinist movement was Geneva, the city John Calvin adopted as his home.", ""),
        (NEG, 'In Geneva, Hugues, though Catholic, was a leader of the "Confederate Party", so called because it favoured independence from the Duke of Savoy through an alliance between the city-state of Geneva and the Swiss Confederation.',
         'In Geneva, Hugues was a leader of the "Confederate Party", which did not favour independence from the Duke of Savoy.',
         "favoured -> did not favour"),
        (NUM, "The nickname may have been a combined reference to the Swiss politician Besançon Hugues (died 1532)",
         "The nickname may have referred in part to the Swiss politician Besançon Hugues, who died in 1552.",
         "1532 -> 1552"),
        (ENT, "The label Huguenot was purportedly first applied in France to those conspirators (all of them aristocratic members of the Reformed Church) involved in the Amboise plot of 1560: a foiled attempt to wrest power in France from the influential House of Guise.",
         "The label Huguenot was purportedly first applied to the conspirators of the Amboise plot of 1560, a foiled attempt to wrest power in France from the House of Savoy.",
         "House of Guise -> House of Savoy"),
    ],
    "scifact:3155374": [
        (PARA, "Receptor stimuli that hydrolyze PIP2 lowered adhesion energy",
         "When receptor stimuli hydrolyzed PIP2, the adhesion energy between the cytoskeleton and the plasma membrane went down.", ""),
        (NEG, "Here we use optical tweezers tether force measurements and show that plasma membrane phosphatidylinositol 4,5-bisphosphate (PIP2) acts as a second messenger that regulates the adhesion energy between the cytoskeleton and the plasma membrane.",
         "The study shows that plasma membrane PIP2 does not act as a second messenger regulating the adhesion energy between the cytoskeleton and the plasma membrane.",
         "does not act"),
        (ATTR, "Our study suggests that plasma membrane PIP2 controls dynamic membrane functions and cell shape by locally increasing and decreasing the adhesion between the actin-based cortical cytoskeleton and the plasma membrane.",
         "The study suggests that plasma membrane PIP2 controls cell shape by locally increasing and decreasing the adhesion between the microtubule-based cortical cytoskeleton and the plasma membrane.",
         "actin-based -> microtubule-based"),
        (APPEND, 'Here we use optical tweezers tether force measurements and show that plasma membrane phosphatidylinositol 4,5-bisphosphate (PIP2) acts as a second messenger that regulates the adhesion energy between the cytoskeleton and the plasma membrane.',
         'Plasma membrane PIP2 acts as a second messenger that regulates the adhesion energy between the cytoskeleton and the plasma membrane, and it does so mainly in neurons.',
         'and it does so mainly in neurons'),
    ],
    "squad2:14:8": [
        (NUM, "British settlers outnumbered the French 20 to 1 with a population of about 1.5 million ranged along the eastern coast of the continent",
         "British settlers outnumbered the French 10 to 1, with a population of about 1.5 million along the eastern coast of the continent.",
         "20 to 1 -> 10 to 1"),
        (PARA, "Nova Scotia, which had been captured from France in 1713, still had a significant French-speaking population.",
         "Although it had been taken from France in 1713, Nova Scotia still had a sizeable population of French speakers.", ""),
        (PARA, "While their population centers were along the coast, the settlements were growing into the interior.",
         "The British colonies' population centres lay along the coast, but their settlements were spreading into the interior.", ""),
        (QUANT, "Many of the older colonies had land claims that extended arbitrarily far to the west, as the extent of the continent was unknown at the time their provincial charters were granted.",
         "All of the older colonies had land claims that extended arbitrarily far to the west.", "Many -> All"),
        (ENT, "Britain also claimed Rupert's Land, where the Hudson's Bay Company traded for furs with local tribes.",
         "Britain also claimed Rupert's Land, where the Ohio Company traded for furs with local tribes.",
         "Hudson's Bay Company -> Ohio Company"),
        (ATTR, 'British settlers outnumbered the French 20 to 1 with a population of about 1.5 million ranged along the eastern coast of the continent',
         'The British settlers, about 1.5 million people, lived along the western coast of the continent.',
         'eastern -> western'),
    ],
    "scifact:38727075": [
        (PARA, "We have ablated Bmpr1a specifically in the neural crest, beginning at the five-somite stage. We find that most aspects of neural crest development occur normally; suggesting that BMPRIA is unnecessary for many aspects of early neural crest biology.",
         "After Bmpr1a was ablated in the neural crest from the five-somite stage, most aspects of neural crest development were normal, which suggests BMPRIA is not needed for many aspects of early neural crest biology.", ""),
        (QUANT, "We find that most aspects of neural crest development occur normally",
         "When Bmpr1a is ablated in the neural crest, all aspects of neural crest development occur normally.",
         "most -> all"),
        (NUM, "Mouse has three known BMP2/4 type I receptors, of which Bmpr1a is expressed in the neural tube sufficiently early to be involved in neural crest development from the outset",
         "Mouse has two known BMP2/4 type I receptors, of which Bmpr1a is expressed in the neural tube early enough to be involved in neural crest development from the outset.",
         "three -> two"),
        (ENT, "Bone morphogenetic proteins (BMPs), particularly BMP2 and BMP4, have been implicated as regulators of neural crest cell induction, maintenance, migration, differentiation and survival.",
         "Bone morphogenetic proteins, particularly BMP7, have been implicated as regulators of neural crest cell induction, maintenance, migration, differentiation and survival.",
         "BMP2 and BMP4 -> BMP7"),
        (NEG, "Surprisingly, these embryos die in mid-gestation from acute heart failure, with reduced proliferation of ventricular myocardium.",
         "The mutant embryos do not die in mid-gestation from acute heart failure.", "do not die"),
        (APPEND, 'However, mutant embryos display a shortened cardiac outflow tract with defective septation, a process known to require neural crest cells and to be essential for perinatal viability.',
         'The mutant embryos have a shortened cardiac outflow tract with defective septation, and their neural tube fails to close.',
         'and their neural tube fails to close'),
    ],
    "squad2:5:27": [
        (PARA, "EU Competition law has its origins in the European Coal and Steel Community (ECSC) agreement between France, Italy, Belgium, the Netherlands, Luxembourg and Germany in 1951 following the second World War.",
         "EU competition law goes back to the European Coal and Steel Community agreement of 1951, made after the Second World War between France, Italy, Belgium, the Netherlands, Luxembourg and Germany.", ""),
        (NUM, "Article 65 of the agreement banned cartels and article 66 made provisions for concentrations, or mergers, and the abuse of a dominant position by companies.",
         "Article 67 of the ECSC agreement banned cartels, and article 66 made provisions for mergers and the abuse of a dominant position.",
         "65 -> 67"),
        (NEG, "Regulations on mergers were not included as member states could not establish consensus on the issue at the time.",
         "Regulations on mergers were included in the treaty, because member states reached consensus on the issue at the time.",
         "were not included -> were included"),
        (ENT, "In 1957 competition rules were included in the Treaty of Rome, also known as the EC Treaty, which established the European Economic Community (EEC).",
         "In 1957 competition rules were included in the Treaty of Rome, which established the European Coal and Steel Community.",
         "European Economic Community -> European Coal and Steel Community"),
        (QUANT, "The two central provisions on EU competition law on companies were established in article 85, which prohibited anti-competitive agreements, subject to some exemptions, and article 86 prohibiting the abuse of dominant position.",
         "Article 85 of the Treaty of Rome prohibited all anti-competitive agreements without exception.",
         "subject to some exemptions -> without exception"),
    ],
    "handbook:HB-28": [
        (COPY, "A checkpointer saves the graph's state after every super-step.",
         "A checkpointer saves the graph's state after every super-step.", ""),
        (PARA, "Checkpoints are grouped by thread: every call passes a `thread_id` in the config, and calls with the same id continue the same conversation, while a new id starts fresh.",
         "Each call passes a `thread_id` in its config and checkpoints are grouped by that thread, so reusing an id continues the same conversation and a new id starts a fresh one.", ""),
        (ATTR, 'Thread ids should be deterministic in tests and notebooks, such as "demo-1", so that outputs do not change between runs.',
         "Thread ids in tests and notebooks should be random, so that outputs do not change between runs.",
         "deterministic -> random"),
        (NEG, "An in-memory saver forgets everything when the process ends.",
         "An in-memory saver does not forget its checkpoints when the process ends.", "does not forget"),
        (ENT, "`InMemorySaver`, from `langgraph.checkpoint.memory`, keeps checkpoints in a Python dictionary, which is ideal for notebooks and tests",
         "`InMemorySaver`, from `langgraph.checkpoint.memory`, keeps checkpoints in a SQLite database, which is ideal for notebooks and tests.",
         "Python dictionary -> SQLite database"),
    ],
    "handbook:HB-27": [
        (NUM, "Older LangGraph releases used a default of 25 steps.",
         "Older LangGraph releases used a default recursion limit of 50 steps.", "25 -> 50"),
        (PARA, "LangGraph guards against this with a recursion limit: the maximum number of super-steps in one run. When it is exceeded the run stops with a `GraphRecursionError`.",
         "LangGraph's recursion limit caps how many super-steps a single run may take, and a run that goes past it stops with a `GraphRecursionError`.", ""),
        (QUANT, "Graphs with loops, such as retrieve, grade, rewrite and retrieve again, can run forever if the exit condition is never met.",
         "Graphs with loops, such as retrieve, grade, rewrite and retrieve again, always run forever.",
         "can run forever if the exit condition is never met -> always run forever"),
        (APPEND, "The recursion limit is a safety net, not a design.",
         "The recursion limit is a safety net rather than a design, and LangGraph lowers it automatically when it detects a loop.",
         "and LangGraph lowers it automatically when it detects a loop"),
        (NEG, "The exit edge should lead to a sensible result, for example an answer that says the evidence was insufficient, rather than an exception.",
         "The exit edge should not lead to a sensible result such as an answer saying the evidence was insufficient; it should raise an exception.",
         "should not lead to a sensible result"),
        (ATTR, 'The LangGraph 1.2 release used by ragkit sets a much larger default (10,007 steps, changeable with the `LANGGRAPH_DEFAULT_RECURSION_LIMIT` environment variable)',
         'The LangGraph 1.2 release used by ragkit sets a much smaller default recursion limit than older releases did.',
         'larger -> smaller'),
    ],
    "scifact:2177022": [
        (PARA, "Both soluble CCR7 ligands triggered chemotactic movement, but not surface adhesion.",
         "The two soluble CCR7 ligands caused chemotactic movement without triggering surface adhesion.", ""),
        (NEG, "Soluble CCL21 functionally resembles the second CCR7 ligand, CCL19, which lacks anchoring residues and forms soluble gradients.",
         "CCL19, the second CCR7 ligand, does not form soluble gradients.", "does not form"),
        (ENT, "Upon direct contact with CCL21, DCs truncated the anchoring residues of CCL21, thereby releasing it from the solid phase.",
         "Upon direct contact with CCL19, dendritic cells truncated its anchoring residues, releasing it from the solid phase.",
         "CCL21 -> CCL19"),
        (ATTR, "The surface-immobilized form of the chemokine CCL21, the heparan sulfate-anchoring ligand of the CC-chemokine receptor 7 (CCR7), caused random movement of DCs that was confined to the chemokine-presenting surface because it triggered integrin-mediated adhesion.",
         "Surface-immobilized CCL21 caused directional movement of dendritic cells, confined to the chemokine-presenting surface.",
         "random -> directional"),
    ],
    "menu:menu-06": [
        (PARA, "Courgette flowers stuffed with ricotta, lemon zest and mint, dipped in a light batter and fried, finished with a drizzle of wildflower honey.",
         "The courgette flowers are filled with ricotta, lemon zest and mint, fried in a light batter and then drizzled with wildflower honey.", ""),
        (ATTR, "Dietary: vegetarian.", "The crispy courgette flowers are vegan.", "vegan"),
        (NUM, "Crispy courgette flowers (starter, 11.00 EUR).",
         "The crispy courgette flowers are a starter costing 13.00 EUR.", "11.00 -> 13.00"),
        (APPEND, "Allergens: gluten, milk.",
         "The crispy courgette flowers contain gluten and milk, and they are fried in peanut oil.",
         "and they are fried in peanut oil"),
        (NEG, "Allergens: gluten, milk.", "The crispy courgette flowers do not contain gluten.", "do not contain"),
    ],
    "scifact:5884524": [
        (NUM, "Overall, 1718 of 8013 registry patients (21%) had diabetes.",
         "Of the 8013 patients in the registry, 1718 (31%) had diabetes.", "21% -> 31%"),
        (PARA, "Diabetic patients had a higher rate of coronary bypass surgery than nondiabetic patients (23% versus 20%, P:<0.001) but had similar rates of catheterization and angioplasty.",
         "Compared with nondiabetic patients, diabetic patients underwent coronary bypass surgery more often (23% versus 20%), while their rates of catheterization and angioplasty were similar.", ""),
        (ENT, "Moreover, compared with their nondiabetic counterparts, women had a significantly higher risk than men",
         "Compared with their nondiabetic counterparts, diabetic men had a significantly higher risk than diabetic women.",
         "women had a significantly higher risk than men -> men had a significantly higher risk than diabetic women"),
        (NEG, "Interestingly, diabetic patients without prior cardiovascular disease had the same event rates for all outcomes as nondiabetic patients with previous vascular disease.",
         "Diabetic patients without prior cardiovascular disease did not have the same event rates as nondiabetic patients with previous vascular disease.",
         "did not have"),
        (QUANT, "Although unstable coronary artery disease is the most common reason for admission to a coronary care unit",
         "Unstable coronary artery disease is the only reason for admission to a coronary care unit.",
         "most common -> only"),
        (COPY, "Hospitalization for unstable angina or non-Q-wave myocardial infarction predicts a high 2-year morbidity and mortality; this is especially evident for patients with diabetes.",
         "Hospitalization for unstable angina or non-Q-wave myocardial infarction predicts a high 2-year morbidity and mortality; this is especially evident for patients with diabetes.", ""),
        (ATTR, 'METHODS AND RESULTS Prospectively collected data from 6 different countries in the Organization to Assess Strategies for Ischemic Syndromes (OASIS) registry were analyzed',
         'Retrospectively collected data from 6 countries in the OASIS registry were analyzed to determine the 2-year prognosis of diabetic and nondiabetic patients.',
         'Prospectively -> Retrospectively'),
    ],
    "squad2:3:16": [
        (PARA, "An oscillating cylinder steam engine is a variant of the simple expansion steam engine which does not require valves to direct steam into and out of the cylinder.",
         "An oscillating cylinder steam engine is a form of simple expansion engine that needs no valves to direct steam into and out of the cylinder.", ""),
        (NEG, "An oscillating cylinder steam engine is a variant of the simple expansion steam engine which does not require valves to direct steam into and out of the cylinder.",
         "An oscillating cylinder steam engine requires valves to direct steam into and out of the cylinder.",
         "does not require -> requires"),
        (QUANT, "These engines are mainly used in toys and models, because of their simplicity, but have also been used in full size working engines",
         "Oscillating cylinder engines are used only in toys and models, because of their simplicity.",
         "mainly -> only"),
        (ENT, "but have also been used in full size working engines, mainly on ships where their compactness is valued.",
         "Oscillating cylinder engines have also been used in full size working engines, mainly on locomotives, where their compactness is valued.",
         "ships -> locomotives"),
        (ATTR, 'These engines are mainly used in toys and models, because of their simplicity',
         'Oscillating cylinder engines are mainly used in toys and models because of their efficiency.',
         'simplicity -> efficiency'),
    ],
    "scifact:39426225": [
        (PARA, "Results show that, in adipose tissue, all of the α-SMA-GFP-positive cells congregate around the blood vessels.",
         "In adipose tissue, every α-SMA-GFP-positive cell was found gathered around the blood vessels.", ""),
        (QUANT, "Only the α-SMA-GFP-positive cells have multilineage differentiation ability, while the α-SMA-GFP-negative cells can only differentiate in an adipogenic direction.",
         "Both the α-SMA-GFP-positive and the α-SMA-GFP-negative cells have multilineage differentiation ability.",
         "Only the α-SMA-GFP-positive cells -> Both the α-SMA-GFP-positive and the α-SMA-GFP-negative cells"),
        (ATTR, "Recent research has shown that adipose tissues contain abundant MSCs (mesenchymal stem cells).",
         "Recent research has shown that adipose tissues contain abundant hematopoietic stem cells.",
         "mesenchymal -> hematopoietic"),
        (ENT, "We harvested ASCs (adipose stromal cells) from α-SMA-GFP (green fluorescent protein) transgenic mice and sorted them into GFP-positive and GFP-negative cells by FACS.",
         "Adipose stromal cells were harvested from α-SMA-GFP transgenic rats and sorted into GFP-positive and GFP-negative cells by FACS.",
         "mice -> rats"),
        (COPY, "We conclude that the adipose stem cells originate from perivascular cells and congregate around blood vessels.",
         "We conclude that the adipose stem cells originate from perivascular cells and congregate around blood vessels.", ""),
    ],
    "squad2:4:8": [
        (NUM, "Finding oil and developing new fields usually required five to ten years before significant production.",
         "Finding oil and developing new fields usually took two to three years before there was significant production.",
         "five to ten -> two to three"),
        (PARA, "The embargo left oil companies searching for new ways to increase oil supplies, even in rugged terrain such as the Arctic.",
         "Because of the embargo, oil companies looked for new ways to raise oil supplies, even in rugged places such as the Arctic.", ""),
        (QUANT, "On an international level, the price increases changed competitive positions in many industries, such as automobiles.",
         "Internationally, the price increases changed competitive positions in every industry.",
         "many industries -> every industry"),
        (ENT, "The embargo left oil companies searching for new ways to increase oil supplies, even in rugged terrain such as the Arctic.",
         "The embargo left oil companies searching for new ways to increase oil supplies, even in rugged terrain such as the Sahara.",
         "Arctic -> Sahara"),
        (NEG, "Macroeconomic problems consisted of both inflationary and deflationary impacts.",
         "The macroeconomic problems caused by the embargo did not include deflationary impacts.", "did not include"),
    ],
    "squad2:14:28": [
        (PARA, "The battle ended inconclusively, with both sides withdrawing from the field.",
         "The Battle of Lake George ended without a clear result, and both sides withdrew from the field.", ""),
        (ENT, "When Johnson was seen as the larger threat, Vaudreuil sent Dieskau to Fort St. Frédéric to meet that threat.",
         "When Johnson was seen as the larger threat, Vaudreuil sent Dieskau to Fort Niagara to meet it.",
         "Fort St. Frédéric -> Fort Niagara"),
        (NUM, "Johnson's advance stopped at Fort William Henry, and the French withdrew to Ticonderoga Point, where they began the construction of Fort Carillon (later renamed Fort Ticonderoga after British capture in 1759).",
         "The French began building Fort Carillon at Ticonderoga Point; it was renamed Fort Ticonderoga after the British captured it in 1758.",
         "1759 -> 1758"),
        (NEG, "Johnson's expedition was better organized than Shirley's, which was noticed by New France's governor, the Marquis de Vaudreuil.",
         "Johnson's expedition was not better organized than Shirley's.", "not"),
        (APPEND, "Dieskau planned to attack the British encampment at Fort Edward at the upper end of navigation on the Hudson River, but Johnson had strongly fortified it, and Dieskau's Indian support was reluctant to attack.",
         "Dieskau planned to attack the British encampment at Fort Edward on the Hudson River, but Johnson had strongly fortified it, and the reinforcements Dieskau expected from Montreal had not arrived.",
         "and the reinforcements Dieskau expected from Montreal had not arrived"),
    ],
    "handbook:HB-01": [
        (COPY, "A retrieval system never works on raw files.", "A retrieval system never works on raw files.", ""),
        (PARA, "In LangChain the class is `Document`, with two fields, `page_content` (the text) and `metadata` (a plain dict).",
         "LangChain's `Document` class has two fields: `page_content`, which holds the text, and `metadata`, a plain dict.", ""),
        (NEG, "Keep ids stable and human readable, never random, so that evaluation labels, caches and citations still match after you rebuild the index.",
         "Ids do not need to be stable or human readable; random ids work just as well when you rebuild the index.",
         "do not need to be stable"),
        (ATTR, "Keep ids stable and human readable, never random, so that evaluation labels, caches and citations still match after you rebuild the index.",
         "Keep ids numeric and short, so that evaluation labels, caches and citations still match after you rebuild the index.",
         "stable and human readable -> numeric and short"),
    ],
    "squad2:1:25": [
        (QUANT, "Many important complexity classes can be defined by bounding the time or space used by the algorithm.",
         "All important complexity classes can be defined by bounding the time or space used by the algorithm.",
         "Many -> All"),
        (PARA, "Many important complexity classes can be defined by bounding the time or space used by the algorithm.",
         "By putting a bound on the time or space an algorithm uses, one can define many important complexity classes.", ""),
    ],
    "scifact:69045262": [
        (NUM, "This streamlined new edition contains 13 instead of 15 chapters, an introduction, and updated features",
         "The new edition of Children's Exercise Physiology has 12 chapters instead of 15.", "13 -> 12"),
        (PARA, "In the eight years since the first edition of this book was published, much new information has surfaced.",
         "Much new information has come out in the eight years since the book's first edition was published.", ""),
        (NEG, "Children's exercise physiology is a fast-moving field.",
         "Children's exercise physiology is not a fast-moving field.", "not"),
        (ENT, "A new final chapter covers the role of the central nervous system.",
         "A new final chapter of the book covers the role of the endocrine system.",
         "central nervous system -> endocrine system"),
    ],
    "squad2:13:37": [
        (NUM, "The clinical section is located in a 10-floor building with 700 beds, 10 operating theatres, an intensive care unit, several diagnostic departments as well as an outpatient clinic.",
         "The oncology institute's clinical section is in a 10-floor building with 900 beds and 10 operating theatres.",
         "700 -> 900"),
        (PARA, "The city is home to the Children's Memorial Health Institute (CMHI), the highest-reference hospital in all of Poland, as well as an active research and education center.",
         "Warsaw's Children's Memorial Health Institute (CMHI) is the highest-reference hospital in the whole of Poland and also an active centre of research and education.", ""),
        (ENT, "While the Maria Skłodowska-Curie Institute of Oncology it is one of the largest and most modern oncological institutions in Europe.",
         "The Children's Memorial Health Institute is one of the largest and most modern oncological institutions in Europe.",
         "Maria Skłodowska-Curie Institute of Oncology -> Children's Memorial Health Institute"),
        (QUANT, "Today, Warsaw has some of the best medical facilities in Poland and East-Central Europe.",
         "Today Warsaw has the best medical facilities in Poland and East-Central Europe.",
         "some of the best -> the best"),
        (APPEND, "The city is home to the Children's Memorial Health Institute (CMHI), the highest-reference hospital in all of Poland, as well as an active research and education center.",
         "The Children's Memorial Health Institute in Warsaw is the highest-reference hospital in all of Poland, and it was founded in 1977.",
         'and it was founded in 1977'),
    ],
    "scifact:15969637": [
        (COPY, "MesoRD is a tool for stochastic simulation of chemical reactions and diffusion.",
         "MesoRD is a tool for stochastic simulation of chemical reactions and diffusion.", ""),
        (ENT, "MesoRD is free software, written in C++ and licensed under the GNU general public license (GPL).",
         "MesoRD is free software, written in Java and licensed under the GNU general public license.",
         "C++ -> Java"),
        (NEG, "In particular, it is an implementation of the next subvolume method, which is an exact method to simulate the Markov process corresponding to the reaction-diffusion master equation.",
         "The next subvolume method that MesoRD implements is not an exact method; it only approximates the Markov process of the reaction-diffusion master equation.",
         "is not an exact method"),
        (QUANT, "MesoRD runs on Linux, Mac OS X, NetBSD, Solaris and Windows XP.",
         "MesoRD runs only on Linux.", "Linux, Mac OS X, NetBSD, Solaris and Windows XP -> only on Linux"),
        (PARA, "MesoRD runs on Linux, Mac OS X, NetBSD, Solaris and Windows XP. It can be downloaded from http://mesord.sourceforge.net.",
         "MesoRD, which you can download from http://mesord.sourceforge.net, works on Linux, Mac OS X, NetBSD, Solaris and Windows XP.", ""),
    ],
    "scifact:25157790": [
        (NUM, "A total of 252 cases (90.3% response) and 637 controls (53.4% response) were enrolled.",
         "The study enrolled 252 cases and 736 controls.", "637 -> 736"),
        (PARA, "A significant inverse association between green tea consumption and leukemia risk was found in individuals aged 16–29 years, whereas no significant association was found in the younger age groups.",
         "Among people aged 16–29 years, green tea consumption was significantly and inversely associated with leukemia risk, but in the younger age groups no significant association was found.", ""),
        (NEG, "Controls were matched for cases on age and gender.",
         "Controls were not matched to cases on age and gender.", "not"),
        (QUANT, "Drinking sufficient amounts of tea, especially green tea, which contains more catechins than oolong tea and black tea, may reduce the risk of leukemia.",
         "Drinking sufficient amounts of tea, especially green tea, will prevent leukemia.",
         "may reduce the risk of leukemia -> will prevent leukemia"),
        (ENT, "green tea, which contains more catechins than oolong tea and black tea",
         "Black tea contains more catechins than green tea and oolong tea.",
         "green tea -> black tea"),
        (APPEND, "Green tea was used as a standard to estimate the total amount of individual catechin consumption.",
         "Green tea was used as the standard for estimating each participant's total catechin intake, and catechin levels were confirmed with blood tests.",
         "and catechin levels were confirmed with blood tests"),
    ],
    "squad2:6:13": [
        (PARA, "Merit Network, Inc., an independent non-profit 501(c)(3) corporation governed by Michigan's public universities, was formed in 1966 as the Michigan Educational Research Information Triad",
         "Merit Network, Inc., which began in 1966 as the Michigan Educational Research Information Triad, is an independent non-profit 501(c)(3) corporation governed by Michigan's public universities.", ""),
        (NUM, "With initial support from the State of Michigan and the National Science Foundation (NSF), the packet-switched network was first demonstrated in December 1971 when an interactive host to host connection was made between the IBM mainframe computer systems at the University of Michigan in Ann Arbor and Wayne State University in Detroit.",
         "The Merit packet-switched network was first demonstrated in December 1973, with a host to host connection between IBM mainframes at the University of Michigan and Wayne State University.",
         "1971 -> 1973"),
        (ENT, "In October 1972 connections to the CDC mainframe at Michigan State University in East Lansing completed the triad.",
         "In October 1972 connections to the CDC mainframe at Wayne State University in Detroit completed the triad.",
         "Michigan State University in East Lansing -> Wayne State University in Detroit"),
        (ATTR, "Merit Network, Inc., an independent non-profit 501(c)(3) corporation governed by Michigan's public universities",
         "Merit Network, Inc. is an independent for-profit corporation governed by Michigan's public universities.",
         "non-profit -> for-profit"),
        (APPEND, "All of this set the stage for Merit's role in the NSFNET project starting in the mid-1980s.",
         "This work set the stage for Merit's role in the NSFNET project from the mid-1980s, a project it ran together with IBM and MCI.",
         "a project it ran together with IBM and MCI"),
    ],
    "statute:art-3": [
        (NUM, '(3) "Coastal waters" means the sea and seabed within 12 nautical miles of the baseline.',
         'Under the Act, "coastal waters" means the sea and seabed within 24 nautical miles of the baseline.',
         "12 -> 24"),
        (PARA, '(13) "No-take zone" means a part of a marine protected area closed to all fishing.',
         "A no-take zone is a part of a marine protected area where no fishing of any kind is allowed.", ""),
        (QUANT, '(13) "No-take zone" means a part of a marine protected area closed to all fishing.',
         "A no-take zone is a part of a marine protected area that is closed only to commercial fishing.",
         "all fishing -> only to commercial fishing"),
        (ENT, '(1) "Authority" means the Coastal Waters Authority established by Article 4.',
         'In the Act, "Authority" means the Coastal Waters Authority established by Article 28.',
         "Article 4 -> Article 28"),
        (ATTR, '(4) "Coastal zone" means the coastal waters and the land within 100 metres of the high-water mark.',
         "The coastal zone is the coastal waters plus the land within 100 metres of the low-water mark.",
         "high-water -> low-water"),
        (NEG, '(5) "Vessel" means any craft on or under the water, including floating platforms.',
         "Under the Act, floating platforms are not vessels.", "not"),
    ],
    "menu:menu-11": [
        (PARA, "Lamb shoulder from the hill farms above the town, roasted for six hours with rosemary and garlic, on white beans stewed with tomato and red wine.",
         "The lamb shoulder comes from the hill farms above the town; it is roasted with rosemary and garlic for six hours and served on white beans stewed with tomato and red wine.", ""),
        (NUM, "Lamb shoulder from the hill farms above the town, roasted for six hours with rosemary and garlic",
         "The lamb shoulder is roasted for four hours with rosemary and garlic.", "six -> four"),
        (ATTR, "on white beans stewed with tomato and red wine.",
         "The slow-roasted lamb shoulder is served on white beans stewed with tomato and white wine.",
         "red wine -> white wine"),
        (ENT, "on white beans stewed with tomato and red wine.",
         "The slow-roasted lamb shoulder is served on chickpeas stewed with tomato and red wine.",
         "white beans -> chickpeas"),
        (NEG, "Allergens: sulphites, celery.", "The slow-roasted lamb shoulder contains no celery.", "no celery"),
        (APPEND, 'Lamb shoulder from the hill farms above the town, roasted for six hours with rosemary and garlic',
         'The lamb shoulder is roasted for six hours with rosemary and garlic, and it is finished with a mint sauce.',
         'and it is finished with a mint sauce'),
    ],
    "scifact:32776084": [
        (PARA, "Culture of cells with serum-depleted media (starvation) and at high cell density (confluence) increased the expression of both imprinted genes and led to aberrant methylation profiles of differentially methylated regions in key regulatory sites of Igf2 and H19.",
         "Growing the ES cells in serum-depleted media (starvation) and at high density (confluence) raised the expression of both imprinted genes and caused aberrant methylation of differentially methylated regions at key regulatory sites of Igf2 and H19.", ""),
        (NEG, "Culture of cells with serum-depleted media (starvation) and at high cell density (confluence) increased the expression of both imprinted genes",
         "Culturing mouse ES cells with serum-depleted media and at high cell density did not change the expression of Igf2 and H19.",
         "did not change"),
        (QUANT, "Embryonic stem (ES) cell-derived clones and chimeras are often associated with growth abnormalities during fetal development",
         "Embryonic stem cell-derived clones and chimeras are always associated with growth abnormalities during fetal development.",
         "often -> always"),
        (NUM, "We have analyzed the expression pattern of two growth regulatory imprinted genes, namely insulin like growth factor II (Igf2) and H19",
         "The study analyzed the expression of three growth regulatory imprinted genes, including Igf2 and H19, in mouse ES cells.",
         "two -> three"),
        (ENT, "We have analyzed the expression pattern of two growth regulatory imprinted genes, namely insulin like growth factor II (Igf2) and H19",
         "The study analyzed the expression pattern of two growth regulatory imprinted genes, Igf1 and H19, in mouse ES cells.",
         "Igf2 -> Igf1"),
    ],
    "scifact:18174210": [
        (PARA, "Individuals homozygous for alpha(+)-thalassaemia have microcytosis and an increased erythrocyte count.",
         "People who are homozygous for alpha(+)-thalassaemia show microcytosis and a raised erythrocyte count.", ""),
        (NEG, "Alpha(+)-thalassaemia homozygosity confers considerable protection against severe malaria, including severe malarial anaemia (SMA) (Hb concentration < 50 g/l), but does not influence parasite count.",
         "Alpha(+)-thalassaemia homozygosity does not confer protection against severe malarial anaemia.",
         "does not confer protection"),
        (NUM, "In addition, children homozygous for alpha(+)-thalassaemia require a 10% greater reduction in erythrocyte count than children of normal genotype (p = 0.02) for Hb concentration to fall to 50 g/l, the cutoff for SMA.",
         "Children homozygous for alpha(+)-thalassaemia need a 25% greater reduction in erythrocyte count than children of normal genotype for their Hb concentration to fall to 50 g/l.",
         "10% -> 25%"),
        (ENT, "Data from children living on the north coast of Papua New Guinea who had participated in a case-control study of the protection afforded by alpha(+)-thalassaemia against severe malaria were reanalysed",
         "The reanalysed data came from children living on the coast of Kenya who had taken part in a case-control study of alpha(+)-thalassaemia and severe malaria.",
         "north coast of Papua New Guinea -> coast of Kenya"),
        (QUANT, "Other host polymorphisms that induce an increased erythrocyte count and microcytosis may confer a similar advantage.",
         "Any other host polymorphism that induces an increased erythrocyte count and microcytosis will confer a similar advantage.",
         "may -> will"),
    ],
    "wine:wine-12": [
        (PARA, "Price: 6.00 EUR a glass, 26.00 EUR a bottle.",
         "A glass of the Calvera Rosato costs 6.00 EUR, and a bottle costs 26.00 EUR.", ""),
        (ATTR, "Calvera Rosato by Cantina del Faro (Calvera valley, Italy), 2024, rosé wine.",
         "The Calvera Rosato is a sparkling rosé from Cantina del Faro.", "sparkling"),
        (NUM, "Calvera Rosato by Cantina del Faro (Calvera valley, Italy), 2024, rosé wine.",
         "The Calvera Rosato is a 2022 rosé from Cantina del Faro in the Calvera valley.", "2024 -> 2022"),
        (ENT, "Grapes: Sangiovese.", "The Calvera Rosato is made from Nebbiolo grapes.", "Sangiovese -> Nebbiolo"),
        (APPEND, "Best served very cold on the terrace.",
         "The Calvera Rosato is best served very cold on the terrace, and it is only on the list in summer.",
         "and it is only on the list in summer"),
    ],
    "menu:menu-10": [
        (PARA, "Carnaroli rice cooked in a shellfish stock with saffron, finished with butter and parmesan and topped with raw red prawns from the deep water off Capo Nero.",
         "Raw red prawns from the deep water off Capo Nero top this saffron risotto, which is carnaroli rice cooked in a shellfish stock and finished with butter and parmesan.", ""),
        (ATTR, "topped with raw red prawns from the deep water off Capo Nero.",
         "The saffron risotto is topped with grilled red prawns from the deep water off Capo Nero.",
         "raw -> grilled"),
        (NEG, "Dietary: gluten-free.", "The saffron risotto with red prawns is not gluten-free.", "not gluten-free"),
        (ENT, "topped with raw red prawns from the deep water off Capo Nero.",
         "The risotto is topped with raw red prawns from the deep water off Porto Calvera.",
         "Capo Nero -> Porto Calvera"),
        (NUM, "Saffron risotto with red prawns (main course, 26.00 EUR).",
         "The saffron risotto with red prawns is a main course costing 28.00 EUR.", "26.00 -> 28.00"),
        (APPEND, 'Carnaroli rice cooked in a shellfish stock with saffron, finished with butter and parmesan and topped with raw red prawns from the deep water off Capo Nero.',
         'The risotto is carnaroli rice cooked in a shellfish stock with saffron and finished with butter and parmesan, but the raw red prawns are added only on request.',
         'but the raw red prawns are added only on request'),
    ],
    "squad2:10:38": [
        (PARA, "A procedural consequence of the establishment of the Scottish Parliament is that Scottish MPs sitting in the UK House of Commons are able to vote on domestic legislation that applies only to England, Wales and Northern Ireland – whilst English, Scottish, Welsh and Northern Irish Westminster MPs are unable to vote on the domestic legislation of the Scottish Parliament. This phenomenon is known as the West Lothian question and has led to criticism.",
         "Scottish MPs at Westminster can vote on domestic laws that apply only to England, Wales and Northern Ireland, while no Westminster MP can vote on the Scottish Parliament's domestic legislation; this is called the West Lothian question, and it has drawn criticism.", ""),
        (NUM, 'Following the Conservative victory in the 2015 UK election, standing orders of the House of Commons were changed to give MPs representing English constituencies a new "veto" over laws only affecting England.',
         'After the Conservative victory in the 2010 UK election, the House of Commons changed its standing orders to give MPs for English constituencies a new "veto" over laws affecting only England.',
         "2015 -> 2010"),
        (ENT, 'Following the Conservative victory in the 2015 UK election, standing orders of the House of Commons were changed to give MPs representing English constituencies a new "veto" over laws only affecting England.',
         'Following the Labour victory in the 2015 UK election, standing orders of the House of Commons were changed to give MPs representing English constituencies a new "veto" over laws only affecting England.',
         "Conservative -> Labour"),
        (NEG, "Scottish MPs sitting in the UK House of Commons are able to vote on domestic legislation that applies only to England, Wales and Northern Ireland",
         "Scottish MPs sitting in the UK House of Commons are unable to vote on domestic legislation that applies only to England, Wales and Northern Ireland.",
         "are able to -> are unable to"),
    ],
    "squad2:9:9": [
        (COPY, "Inflammation is one of the first responses of the immune system to infection.",
         "Inflammation is one of the first responses of the immune system to infection.", ""),
        (PARA, "The symptoms of inflammation are redness, swelling, heat, and pain, which are caused by increased blood flow into tissue.",
         "Increased blood flow into tissue causes the symptoms of inflammation: redness, swelling, heat and pain.", ""),
        (ENT, "Eicosanoids include prostaglandins that produce fever and the dilation of blood vessels associated with inflammation, and leukotrienes that attract certain white blood cells (leukocytes).",
         "Among the eicosanoids, leukotrienes produce fever and the dilation of blood vessels associated with inflammation.",
         "prostaglandins -> leukotrienes"),
        (APPEND, "Inflammation is produced by eicosanoids and cytokines, which are released by injured or infected cells.",
         "Inflammation is produced by eicosanoids and cytokines, which are released by injured or infected cells, and it usually subsides within 48 hours.",
         "and it usually subsides within 48 hours"),
        (QUANT, "Growth factors and cytotoxic factors may also be released.",
         "Growth factors and cytotoxic factors are always released as well.", "may -> always"),
    ],
    "squad2:12:32": [
        (NUM, "Its growth was reversed by the loss of the American colonies in 1776.",
         "The First British Empire's growth was reversed by the loss of the American colonies in 1783.", "1776 -> 1783"),
        (PARA, "The First British Empire was based on mercantilism, and involved colonies and holdings primarily in North America, the Caribbean, and India.",
         "Mercantilism was the basis of the First British Empire, whose colonies and holdings were mainly in North America, the Caribbean and India.", ""),
        (NEG, "By the 1840s, Britain had adopted a highly successful policy of free trade that gave it dominance in the trade of much of the world.",
         "By the 1840s, Britain had not yet adopted a policy of free trade.", "had adopted -> had not yet adopted"),
        (QUANT, "The First British Empire was based on mercantilism, and involved colonies and holdings primarily in North America, the Caribbean, and India.",
         "The First British Empire's colonies and holdings were only in North America, the Caribbean and India.",
         "primarily -> only"),
        (ENT, "Following the defeat of Napoleonic France in 1815, Britain enjoyed a century of almost unchallenged dominance and expanded its imperial holdings around the globe.",
         "Following the defeat of Napoleonic France in 1815, Spain enjoyed a century of almost unchallenged dominance and expanded its imperial holdings around the globe.",
         "Britain -> Spain"),
    ],
    "scifact:3583084": [
        (PARA, "Using loss-of-function and gain-of-function approaches, we found that one such lincRNA (lincRNA-RoR) modulates reprogramming, thus providing a first demonstration for critical functions of lincRNAs in the derivation of pluripotent stem cells.",
         "Loss-of-function and gain-of-function experiments showed that lincRNA-RoR modulates reprogramming, a first demonstration that lincRNAs have critical functions in deriving pluripotent stem cells.", ""),
        (NUM, "Among these, we defined ten lincRNAs whose expression was elevated in iPSCs compared with embryonic stem cells",
         "The authors defined twelve lincRNAs whose expression was elevated in iPSCs compared with embryonic stem cells.",
         "ten -> twelve"),
        (ENT, "Among these, we defined ten lincRNAs whose expression was elevated in iPSCs compared with embryonic stem cells",
         "The authors defined ten lincRNAs whose expression was higher in embryonic stem cells than in iPSCs.",
         "elevated in iPSCs compared with embryonic stem cells -> higher in embryonic stem cells than in iPSCs"),
        (APPEND, "Supporting this, our results indicate that these lincRNAs are direct targets of key pluripotency transcription factors.",
         "The results indicate that these lincRNAs are direct targets of key pluripotency transcription factors, such as OCT4, SOX2 and NANOG.",
         "such as OCT4, SOX2 and NANOG"),
        (COPY, "Supporting this, our results indicate that these lincRNAs are direct targets of key pluripotency transcription factors.",
         "Supporting this, our results indicate that these lincRNAs are direct targets of key pluripotency transcription factors.", ""),
    ],
    "statute:art-18": [
        (NUM, "(2) The master shall send a landing declaration to the Authority within 48 hours of landing the catch.",
         "The master must send a landing declaration to the Authority within 72 hours of landing the catch.", "48 -> 72"),
        (PARA, "(3) Logbooks and copies of landing declarations shall be kept for 3 years and shown to a coastal inspector on request.",
         "Logbooks and copies of landing declarations have to be kept for 3 years and shown to a coastal inspector who asks for them.", ""),
        (ATTR, "(1) The master of a vessel engaged in commercial fishing shall keep a logbook recording, for each fishing trip, the dates, the areas fished, the gear used, the catch of each species in kilograms, and any bycatch of protected species.",
         "The master of a vessel engaged in recreational fishing must keep a logbook for each fishing trip.",
         "commercial -> recreational"),
        (ENT, "(2) The master shall send a landing declaration to the Authority within 48 hours of landing the catch.",
         "The master must send a landing declaration to a coastal inspector within 48 hours of landing the catch.",
         "the Authority -> a coastal inspector"),
    ],
    "squad2:9:17": [
        (PARA, "Recognition of this MHC:antigen complex is aided by a co-receptor on the T cell, called CD8.",
         "A co-receptor on the T cell called CD8 helps it recognise the MHC:antigen complex.", ""),
        (ENT, "Recognition of this MHC:antigen complex is aided by a co-receptor on the T cell, called CD8.",
         "Recognition of the MHC:antigen complex is aided by a co-receptor on the T cell called CD4.", "CD8 -> CD4"),
        (NEG, "T cell killing of host cells is particularly important in preventing the replication of viruses.",
         "T cell killing of host cells is not important in preventing the replication of viruses.", "not important"),
        (QUANT, 'T cell activation is tightly controlled and generally requires a very strong MHC/antigen activation signal, or additional activation signals provided by "helper" T cells (see below).',
         'T cell activation always requires additional activation signals provided by "helper" T cells.',
         "generally requires -> always requires"),
        (NUM, "Killer T cells are activated when their T cell receptor (TCR) binds to this specific antigen in a complex with the MHC Class I receptor of another cell.",
         "Killer T cells are activated when their T cell receptor binds their specific antigen in a complex with the MHC Class II receptor of another cell.",
         "Class I -> Class II"),
        (APPEND, "When an activated T cell contacts such cells, it releases cytotoxins, such as perforin, which form pores in the target cell's plasma membrane, allowing ions, water and toxins to enter.",
         "When an activated T cell contacts such cells, it releases cytotoxins such as perforin, which form pores in the target cell's plasma membrane, and the pores close again within minutes.",
         'and the pores close again within minutes'),
    ],
    "scifact:40667577": [
        (PARA, "Notably, direct experimental evidence linking the formation of migratory membrane protrusions and the process of EMT and tumor metastasis is still lacking.",
         "There is still no direct experimental evidence that links the formation of migratory membrane protrusions to EMT and tumor metastasis.", ""),
        (NEG, "Notably, direct experimental evidence linking the formation of migratory membrane protrusions and the process of EMT and tumor metastasis is still lacking.",
         "Direct experimental evidence now links the formation of migratory membrane protrusions to EMT and tumor metastasis.",
         "is still lacking -> now links"),
        (COPY, "In this review, we have summarized recent novel insights into the molecular processes and players underlying EMT on one side and the formation of invasive membrane protrusions on the other side.",
         "In this review, we have summarized recent novel insights into the molecular processes and players underlying EMT on one side and the formation of invasive membrane protrusions on the other side.", ""),
        (APPEND, "The molecular processes underlying such cellular changes are still only poorly understood, and the various migratory organelles, including lamellipodia, filopodia, invadopodia and podosomes, still require a better functional and molecular characterization.",
         "The molecular processes underlying these cellular changes are still poorly understood, and podosomes have so far been found only in cancer cells.",
         "and podosomes have so far been found only in cancer cells"),
    ],
    "menu:menu-09": [
        (PARA, "The pasta is dried durum wheat pasta without egg.",
         "The linguine is a dried pasta made from durum wheat, with no egg in it.", ""),
        (ATTR, "The pasta is dried durum wheat pasta without egg.",
         "The seafood linguine is made with fresh egg pasta.", "fresh egg pasta"),
        (ENT, "Linguine tossed with clams, mussels and prawns in garlic, chilli, white wine and parsley.",
         "The seafood linguine is tossed with clams, mussels and octopus in garlic, chilli, white wine and parsley.",
         "prawns -> octopus"),
        (NUM, "Seafood linguine (main course, 22.00 EUR).",
         "The seafood linguine is a main course costing 24.00 EUR.", "22.00 -> 24.00"),
        (NEG, "Dietary: dairy-free.", "The seafood linguine is not dairy-free.", "not dairy-free"),
        (APPEND, 'The pasta is dried durum wheat pasta without egg.',
         'The pasta is dried durum wheat pasta without egg, and it comes from a small producer in Gragnano.',
         'and it comes from a small producer in Gragnano'),
    ],
    "statute:art-34": [
        (PARA, "(1) Where the Authority believes that a person is breaching this Act, a permit or a licence, it may serve a compliance notice stating the breach, the steps required to end it, and a deadline of not less than 14 days to take those steps.",
         "If the Authority believes someone is breaching this Act, a permit or a licence, it may serve a compliance notice that states the breach, the steps needed to end it, and a deadline of at least 14 days for taking them.", ""),
        (NUM, "(3) A person who does not comply with a compliance notice or a stop order commits an offence and is liable to a fine of up to 20,000 crowns, plus up to 2,000 crowns for every day on which the failure continues.",
         "A person who does not comply with a compliance notice or a stop order is liable to a fine of up to 50,000 crowns, plus up to 2,000 crowns for every day the failure continues.",
         "20,000 -> 50,000"),
        (QUANT, "(2) Where the breach is causing serious harm, the Authority may instead order the activity to stop immediately until the harm is addressed.",
         "Where the breach is causing serious harm, the Authority must order the activity to stop immediately until the harm is addressed.",
         "may -> must"),
        (NEG, "(3) A person who does not comply with a compliance notice or a stop order commits an offence",
         "Failing to comply with a compliance notice is not an offence under the Act.", "is not an offence"),
        (NUM, "it may serve a compliance notice stating the breach, the steps required to end it, and a deadline of not less than 14 days to take those steps.",
         "A compliance notice must give a deadline of not less than 7 days to take the required steps.",
         "14 -> 7"),
        (APPEND, '(3) A person who does not comply with a compliance notice or a stop order commits an offence',
         'A person who does not comply with a compliance notice or a stop order commits an offence, and a second offence doubles the maximum fine.',
         'and a second offence doubles the maximum fine'),
    ],
    "squad2:1:27": [
        (PARA, "For time and space requirements, the answer to such questions is given by the time and space hierarchy theorems respectively.",
         "Such questions are answered by the time hierarchy theorem for time requirements and by the space hierarchy theorem for space requirements.", ""),
        (NEG, "Thus there are pairs of complexity classes such that one is properly included in the other.",
         "There are no pairs of complexity classes such that one is properly included in the other.", "no pairs"),
        (ENT, "For time and space requirements, the answer to such questions is given by the time and space hierarchy theorems respectively.",
         "For time and space requirements, the answer to such questions is given by Blum's speedup theorem.",
         "the time and space hierarchy theorems -> Blum's speedup theorem"),
    ],
    "squad2:8:23": [
        (PARA, "Buddhism (especially Tibetan Buddhism) flourished, although Taoism endured certain persecutions in favor of Buddhism from the Yuan government.",
         "Under the Yuan, Buddhism, above all Tibetan Buddhism, flourished, while the Yuan government subjected Taoism to certain persecutions in favour of Buddhism.", ""),
        (ENT, "Buddhism (especially Tibetan Buddhism) flourished, although Taoism endured certain persecutions in favor of Buddhism from the Yuan government.",
         "Under the Yuan, Confucianism endured certain persecutions in favor of Buddhism from the Yuan government.",
         "Taoism -> Confucianism"),
        (NEG, "Nestorianism and Roman Catholicism also enjoyed a period of toleration.",
         "Nestorianism and Roman Catholicism did not enjoy a period of toleration.", "did not enjoy"),
        (APPEND, "Western musical instruments were introduced to enrich Chinese performing arts.",
         "Western musical instruments were introduced to enrich Chinese performing arts, and the Yuan court founded an imperial academy to teach them.",
         "and the Yuan court founded an imperial academy to teach them"),
        (QUANT, "Confucian governmental practices and examinations based on the Classics, which had fallen into disuse in north China during the period of disunity, were reinstated by the Yuan court, probably in the hope of maintaining order over Han society.",
         "The Yuan court reinstated Confucian governmental practices and examinations based on the Classics, certainly in order to maintain order over Han society.",
         "probably -> certainly"),
        (COPY, "Advances were realized in the fields of travel literature, cartography, geography, and scientific education.",
         "Advances were realized in the fields of travel literature, cartography, geography, and scientific education.", ""),
        (ATTR, 'Confucian governmental practices and examinations based on the Classics, which had fallen into disuse in north China during the period of disunity, were reinstated by the Yuan court',
         'Confucian governmental practices and examinations based on the Classics, which had fallen into disuse in south China during the period of disunity, were reinstated by the Yuan court.',
         'north China -> south China'),
    ],
    "statute:art-1": [
        (COPY, "(1) This Act may be cited as the Coastal Waters Act.",
         "This Act may be cited as the Coastal Waters Act.", ""),
        (PARA, "(2) The purpose of this Act is to protect the coastal waters of the Republic of Talvora, to keep their fish stocks and wildlife healthy for future generations, to prevent and reduce pollution of the sea, and to ensure that the use of the coast is planned, permitted and supervised in a fair and open way.",
         "The Act aims to protect Talvora's coastal waters, keep their fish stocks and wildlife healthy for future generations, prevent and reduce pollution of the sea, and make sure the coast's use is planned, permitted and supervised fairly and openly.", ""),
        (NEG, "where there is a risk of serious or lasting harm to the marine environment, a lack of full scientific certainty shall not be a reason for postponing measures to prevent that harm.",
         "Where there is a risk of serious or lasting harm to the marine environment, a lack of full scientific certainty is a valid reason for postponing measures to prevent that harm.",
         "shall not be a reason -> is a valid reason"),
        (ENT, "(1) This Act may be cited as the Coastal Waters Act.",
         "This Act may be cited as the Marine Protected Areas Act.", "Coastal Waters Act -> Marine Protected Areas Act"),
        (QUANT, "(3) Every public body exercising a power under this Act shall take account of the precautionary principle",
         "Only the Coastal Waters Authority has to take account of the precautionary principle when exercising a power under this Act.",
         "Every public body -> Only the Coastal Waters Authority"),
    ],
    "statute:art-27": [
        (NUM, "(2) No single permit shall authorise the disposal of more than 50,000 tonnes of dredged material in any calendar year.",
         "No single permit may authorise the disposal of more than 20,000 tonnes of dredged material in a calendar year.",
         "50,000 -> 20,000"),
        (PARA, "(3) Material that is contaminated above the limits published by the Authority shall not be disposed of at sea and shall be treated on land.",
         "Dredged material contaminated above the Authority's published limits may not be disposed of at sea; it has to be treated on land.", ""),
        (NEG, "(4) The disposal of any material other than dredged material is prohibited.",
         "The disposal of material other than dredged material is allowed.", "prohibited -> allowed"),
        (QUANT, "(1) Dredged material may be disposed of at sea only at a disposal site designated by the Authority and only under a coastal zone permit that covers disposal.",
         "Dredged material may be disposed of at sea at any site, as long as a coastal zone permit covers the disposal.",
         "only at a disposal site designated by the Authority -> at any site"),
        (APPEND, "(1) Dredged material may be disposed of at sea only at a disposal site designated by the Authority and only under a coastal zone permit that covers disposal.",
         "Dredged material may be disposed of at sea only at a disposal site designated by the Authority and only under a coastal zone permit that covers disposal, and each disposal must be reported to the Authority within 7 days.",
         "and each disposal must be reported to the Authority within 7 days"),
        (ATTR, '(1) Dredged material may be disposed of at sea only at a disposal site designated by the Authority and only under a coastal zone permit that covers disposal.',
         'Dredged material may be disposed of at sea only at a disposal site designated by the Authority and only under an annual coastal zone permit.',
         'annual'),
    ],
    "menu:menu-03": [
        (PARA, "A whole burrata from a dairy in the Calvera valley, with peaches roasted in honey, torn basil and toasted hazelnuts.",
         "The dish is a whole burrata from a Calvera valley dairy, served with honey-roasted peaches, torn basil and toasted hazelnuts.", ""),
        (ATTR, "Dietary: vegetarian, gluten-free.", "The burrata with roasted peaches is vegan.", "vegan"),
        (ENT, "A whole burrata from a dairy in the Calvera valley, with peaches roasted in honey, torn basil and toasted hazelnuts.",
         "The burrata comes with peaches roasted in honey, torn basil and toasted almonds.", "hazelnuts -> almonds"),
        (NUM, "Burrata with roasted peaches (starter, 12.00 EUR).",
         "The burrata with roasted peaches is a starter costing 9.50 EUR.", "12.00 -> 9.50"),
    ],
    "wine:wine-21": [
        (PARA, "Tasting notes: A dessert wine from grapes dried in the sun; apricot jam, fig, honey and orange peel.",
         "The Passito di Pantelleria is a dessert wine made from sun-dried grapes, tasting of apricot jam, fig, honey and orange peel.", ""),
        (NUM, "Served in 7.5 cl glasses; 50 cl bottle.",
         "The Passito di Pantelleria is served in 7.5 cl glasses and comes in a 75 cl bottle.", "50 cl -> 75 cl"),
        (ENT, "Grapes: Zibibbo.", "The Passito di Pantelleria is made from Moscato Bianco grapes.", "Zibibbo -> Moscato Bianco"),
        (ATTR, "Passito di Pantelleria by Cantina Scirocco (Sicily, Italy), 2020, sweet wine.",
         "The Passito di Pantelleria from Cantina Scirocco is a dry wine.", "sweet -> dry"),
        (ENT, "Pairing: Figs and honey on both sides: pour it with the Panna cotta with figs.",
         "The Passito di Pantelleria is the wine to pour with the Lemon tart.", "Panna cotta with figs -> Lemon tart"),
    ],
    "squad2:2:32": [
        (NUM, "Prince Louis de Condé, along with his sons Daniel and Osias,[citation needed] arranged with Count Ludwig von Nassau-Saarbrücken to establish a Huguenot community in present-day Saarland in 1604.",
         "Prince Louis de Condé arranged with Count Ludwig von Nassau-Saarbrücken to establish a Huguenot community in present-day Saarland in 1614.",
         "1604 -> 1614"),
        (PARA, "The Condés established a thriving glass-making works, which provided wealth to the principality for many years.",
         "The glass-making works founded by the Condés thrived and brought the principality wealth for many years.", ""),
        (QUANT, "Some members of this community emigrated to the United States in the 1890s.",
         "In the 1890s the whole community emigrated to the United States.", "Some members -> the whole community"),
        (NEG, "The Count supported mercantilism and welcomed technically skilled immigrants into his lands, regardless of their religion.",
         "The Count did not welcome technically skilled immigrants into his lands.", "did not welcome"),
        (ENT, "Prince Louis de Condé, along with his sons Daniel and Osias,[citation needed] arranged with Count Ludwig von Nassau-Saarbrücken to establish a Huguenot community in present-day Saarland in 1604.",
         "Prince Louis de Condé arranged with the Duke of Savoy to establish a Huguenot community in present-day Saarland.",
         "Count Ludwig von Nassau-Saarbrücken -> the Duke of Savoy"),
    ],
    "scifact:10491220": [
        (NUM, "We show here that approximately 1000 transcripts are significantly affected by phenobarbital treatment in Drosophila.",
         "About 100 transcripts are significantly affected by phenobarbital treatment in Drosophila.", "1000 -> 100"),
        (PARA, "We also demonstrate that the Drosophila ortholog of the human SXR and CAR xenobiotic receptors, DHR96, plays a role in this response.",
         "DHR96, the Drosophila counterpart of the human SXR and CAR xenobiotic receptors, has a role in the response to phenobarbital.", ""),
        (ENT, "A DHR96 null mutant displays increased sensitivity to the sedative effects of phenobarbital and the pesticide DDT",
         "A DHR96 null mutant is more sensitive to the sedative effects of phenobarbital and the pesticide paraquat.",
         "DDT -> paraquat"),
        (NEG, "Metabolic and stress-response genes are also controlled by DHR96, implicating its role in coordinating multiple response pathways.",
         "Metabolic and stress-response genes are not controlled by DHR96.", "are not controlled"),
        (APPEND, "This work establishes a new model system for defining the genetic control of xenobiotic stress responses.",
         "This work establishes a new model system for defining the genetic control of xenobiotic stress responses, and it shows that DHR96 mutants live longer than wild-type flies.",
         "and it shows that DHR96 mutants live longer than wild-type flies"),
    ],
    "menu:menu-17": [
        (PARA, "Served from October to March.",
         "The pumpkin gnocchi with sage butter are available from October through March.", ""),
        (PARA, "Soft gnocchi of roasted pumpkin and potato in brown butter with crisp sage and a hard sheep's cheese made with vegetarian rennet.",
         "The gnocchi are made of roasted pumpkin and potato and come in brown butter with crisp sage and a hard sheep's cheese that uses vegetarian rennet.", ""),
        (ATTR, "Allergens: gluten, eggs, milk.", "The pumpkin gnocchi with sage butter are gluten-free.", "gluten-free"),
        (QUANT, "Served from October to March.", "The pumpkin gnocchi are served all year round.", "from October to March -> all year round"),
        (ENT, "Soft gnocchi of roasted pumpkin and potato in brown butter with crisp sage and a hard sheep's cheese made with vegetarian rennet.",
         "The pumpkin gnocchi come in brown butter with crisp sage and parmesan.", "sheep's cheese -> parmesan"),
    ],
    "handbook:HB-04": [
        (NUM, "ragkit uses all-MiniLM-L6-v2, a small and popular model: six transformer layers, about 22 million parameters, and 384-dimensional output vectors.",
         "all-MiniLM-L6-v2, the model ragkit uses, has six transformer layers, about 22 million parameters and 768-dimensional output vectors.",
         "384 -> 768"),
        (PARA, "The model's maximum sequence length is 256 word pieces; anything longer is truncated without warning, so a 2,000-word chunk is embedded from roughly its first 180 words only.",
         "all-MiniLM-L6-v2 reads at most 256 word pieces and silently truncates the rest, so only roughly the first 180 words of a 2,000-word chunk are embedded.", ""),
        (NEG, "The model runs comfortably on a laptop CPU, encoding hundreds of short passages per second.",
         "The model does not run comfortably on a laptop CPU.", "does not run comfortably"),
        (ATTR, "The sentence vector is the mean of the token vectors (mean pooling), then normalised to unit length.",
         "The sentence vector is the maximum of the token vectors (max pooling), then normalised to unit length.",
         "mean pooling -> max pooling"),
        (QUANT, 'Word pieces are sub-word units from a WordPiece vocabulary of about 30,000 entries: a rare word such as "aquaculture" may be split into several pieces.',
         "Every word is split into several word pieces from a WordPiece vocabulary of about 30,000 entries.",
         "a rare word such as \"aquaculture\" may be split -> Every word is split"),
    ],
    "squad2:13:1": [
        (NUM, "In 2012 the Economist Intelligence Unit ranked Warsaw as the 32nd most liveable city in the world.",
         "In 2012 the Economist Intelligence Unit ranked Warsaw the 22nd most liveable city in the world.", "32nd -> 22nd"),
        (PARA, "Frontex, the European Union agency for external border security, has its headquarters in Warsaw.",
         "Warsaw hosts the headquarters of Frontex, the EU agency for external border security.", ""),
        (ENT, "Frontex, the European Union agency for external border security, has its headquarters in Warsaw.",
         "Frontex, the European Union agency for external border security, has its headquarters in Frankfurt.",
         "Warsaw -> Frankfurt"),
        (QUANT, "The Warsaw Stock Exchange is one of the largest and most important in Central and Eastern Europe.",
         "The Warsaw Stock Exchange is the largest in Central and Eastern Europe.", "one of the largest -> the largest"),
        (APPEND, 'Today Warsaw is considered an "Alpha–" global city, a major international tourist destination and a significant cultural, political and economic hub.',
         'Today Warsaw is considered an "Alpha–" global city and a significant cultural, political and economic hub, and it is the seat of Poland\'s central bank.',
         "and it is the seat of Poland's central bank"),
    ],
    "squad2:11:30": [
        (NUM, "In 1996, a more conservative and anti-democratic Islamist movement known as the Taliban rose to power, defeated most of the warlords and took over roughly 80% of Afghanistan.",
         "The Taliban rose to power in 1996, defeated most of the warlords and took over roughly 60% of Afghanistan.",
         "80% -> 60%"),
        (PARA, "In 1992, the Democratic Republic of Afghanistan ruled by communist forces collapsed, and democratic Islamist elements of mujahdeen founded the Islamic State of Afghanistan.",
         "When the communist-ruled Democratic Republic of Afghanistan collapsed in 1992, democratic Islamist elements of the mujahideen founded the Islamic State of Afghanistan.", ""),
        (ATTR, "In 1996, a more conservative and anti-democratic Islamist movement known as the Taliban rose to power",
         "In 1996 a more liberal Islamist movement known as the Taliban rose to power in Afghanistan.",
         "conservative -> liberal"),
        (NEG, "In Afghanistan, the mujahideen's victory against the Soviet Union in the 1980s did not lead to justice and prosperity",
         "In Afghanistan, the mujahideen's victory against the Soviet Union in the 1980s led to justice and prosperity.",
         "did not lead -> led"),
        (QUANT, "defeated most of the warlords and took over roughly 80% of Afghanistan.",
         "The Taliban defeated all of the warlords after rising to power in 1996.", "most -> all"),
    ],
    "scifact:13905670": [
        (PARA, "Minor allele carriage is shown to limit inflammatory responses in monocytes via a FOXO3-driven pathway, which through TGFβ1 reduces production of proinflammatory cytokines, including TNFα, and increases production of anti-inflammatory cytokines, including IL-10.",
         "Carrying the minor allele limits inflammatory responses in monocytes through a FOXO3-driven pathway that, via TGFβ1, lowers the production of proinflammatory cytokines such as TNFα and raises the production of anti-inflammatory cytokines such as IL-10.", ""),
        (NEG, "the minor (G) allele, despite not being associated with disease susceptibility, is associated with a milder course of Crohn's disease and rheumatoid arthritis",
         "The minor (G) allele of the FOXO3A polymorphism rs12212067 is associated with susceptibility to Crohn's disease and rheumatoid arthritis.",
         "not being associated with disease susceptibility -> associated with susceptibility"),
        (ENT, "is associated with a milder course of Crohn's disease and rheumatoid arthritis and with increased risk of severe malaria.",
         "The minor allele is associated with a milder course of Crohn's disease and multiple sclerosis.",
         "rheumatoid arthritis -> multiple sclerosis"),
        (QUANT, "which through TGFβ1 reduces production of proinflammatory cytokines, including TNFα, and increases production of anti-inflammatory cytokines, including IL-10.",
         "Through TGFβ1, the FOXO3-driven pathway reduces the production of all cytokines in monocytes.",
         "reduces production of proinflammatory cytokines -> reduces the production of all cytokines"),
    ],
    "scifact:36464673": [
        (NUM, "We show that, in vitro, Ca2+-dependent protein kinase C (PKC) phosphorylates recombinant murine p53 protein on several residues contained within a conserved basic region of 25 amino acids, located in the C-terminal part of the protein.",
         "In vitro, Ca2+-dependent PKC phosphorylates recombinant murine p53 on several residues within a conserved basic region of 35 amino acids in the C-terminal part of the protein.",
         "25 -> 35"),
        (PARA, "We also establish that p53-(357-381)-peptide at micromolar concentrations has the ability to stimulate sequence-specific DNA binding by p53. That stimulation is lost upon phosphorylation by PKC.",
         "At micromolar concentrations, p53-(357-381)-peptide can stimulate p53's sequence-specific DNA binding, and phosphorylation by PKC abolishes that stimulation.", ""),
        (ATTR, "The Ca2+-independent PKC delta was much less sensitive to inhibition.",
         "The Ca2+-dependent PKC delta was much less sensitive to inhibition.", "Ca2+-independent -> Ca2+-dependent"),
        (QUANT, "Conventional Ca2+-dependent PKC alpha, beta and gamma and the catalytic fragment of PKC (PKM) were nearly equally susceptible to inhibition by p53-(320-346)-peptide.",
         "All PKC isoforms were equally susceptible to inhibition by p53-(320-346)-peptide.",
         "Conventional Ca2+-dependent PKC alpha, beta and gamma -> All PKC isoforms"),
        (NEG, "Accordingly, we have identified a conserved 27-amino-acid peptide, p53-(320-346)-peptide, within the C-terminal region of p53 and adjacent to residues 357-381 that interacts with PKC in vitro.",
         "The conserved 27-amino-acid peptide p53-(320-346)-peptide does not interact with PKC in vitro.",
         "does not interact"),
    ],
    "squad2:10:35": [
        (NUM, "Specifically, members must be over the age of 18",
         "Members of the Scottish Parliament must be over the age of 21.", "18 -> 21"),
        (PARA, "Members of the police and the armed forces are disqualified from sitting in the Scottish Parliament as elected MSPs, and similarly, civil servants and members of foreign legislatures are disqualified.",
         "Police officers and members of the armed forces cannot sit as elected MSPs, and the same disqualification applies to civil servants and to members of foreign legislatures.", ""),
        (ENT, "Such qualifications were introduced under the House of Commons Disqualification Act 1975 and the British Nationality Act 1981.",
         "The qualifications for MSPs were introduced under the House of Commons Disqualification Act 1975 and the Scotland Act 1998.",
         "British Nationality Act 1981 -> Scotland Act 1998"),
        (NEG, "Members of the police and the armed forces are disqualified from sitting in the Scottish Parliament as elected MSPs",
         "Members of the police and the armed forces are allowed to sit in the Scottish Parliament as elected MSPs.",
         "are disqualified -> are allowed"),
        (QUANT, "must be a citizen of the United Kingdom, the Republic of Ireland, one of the countries in the Commonwealth of Nations, a citizen of a British overseas territory, or a European Union citizen resident in the UK.",
         "Only citizens of the United Kingdom may become MSPs.",
         "a citizen of the United Kingdom, the Republic of Ireland, one of the countries in the Commonwealth of Nations -> Only citizens of the United Kingdom"),
        (APPEND, 'An individual may not sit in the Scottish Parliament if he or she is judged to be insane under the terms of the Mental Health (Care and Treatment) (Scotland) Act 2003.',
         'An individual may not sit in the Scottish Parliament if judged to be insane under the Mental Health (Care and Treatment) (Scotland) Act 2003, and the Presiding Officer decides whether this applies.',
         'and the Presiding Officer decides whether this applies'),
    ],
    "statute:art-36": [
        (NUM, "(3) Failure to report a discharge as required by Article 25 is punishable by a fine of up to 30,000 crowns.",
         "Failing to report a discharge as Article 25 requires is punishable by a fine of up to 50,000 crowns.",
         "30,000 -> 50,000"),
        (PARA, "(1) Where oil or an oily mixture is discharged in breach of Article 21, the owner and the master are each liable to a fine of up to 500,000 crowns for a vessel of 400 gross tonnage or more, and up to 100,000 crowns for any smaller vessel or for a discharge from land.",
         "For a discharge of oil or an oily mixture in breach of Article 21, the owner and the master can each be fined up to 500,000 crowns if the vessel is of 400 gross tonnage or more, and up to 100,000 crowns for a smaller vessel or a discharge from land.", ""),
        (ENT, "(2) A breach of Article 22, Article 23 or Article 24 is punishable by a fine of up to 75,000 crowns.",
         "A breach of Article 29 is punishable by a fine of up to 75,000 crowns.",
         "Article 22, Article 23 or Article 24 -> Article 29"),
        (QUANT, "the owner and the master are each liable to a fine of up to 500,000 crowns for a vessel of 400 gross tonnage or more",
         "When oil is discharged in breach of Article 21, only the master is liable to a fine.",
         "the owner and the master are each -> only the master"),
        (NEG, "Killing or injuring a protected species in breach of Article 30(2) is punishable by a fine of up to 150,000 crowns.",
         "Killing or injuring a protected species in breach of Article 30(2) is not punishable by a fine.",
         "is not punishable"),
        (ATTR, '(1) Where oil or an oily mixture is discharged in breach of Article 21, the owner and the master are each liable to a fine of up to 500,000 crowns for a vessel of 400 gross tonnage or more',
         'For an oil discharge in breach of Article 21 from a vessel of 400 gross tonnage or more, the owner and the master each face a mandatory fine of 500,000 crowns.',
         'mandatory'),
    ],
    "squad2:1:45": [
        (NUM, "Somewhat earlier, Boris Trakhtenbrot (1956), a pioneer in the field from the USSR, studied another specific complexity measure.",
         "Boris Trakhtenbrot, a pioneer in the field from the USSR, studied another specific complexity measure in 1966.",
         "1956 -> 1966"),
        (ENT, "Earlier papers studying problems solvable by Turing machines with specific bounded resources include John Myhill's definition of linear bounded automata (Myhill 1960)",
         "Raymond Smullyan's definition of linear bounded automata is among the earlier papers on problems solvable by Turing machines with bounded resources.",
         "John Myhill's -> Raymond Smullyan's"),
        (PARA, "Earlier papers studying problems solvable by Turing machines with specific bounded resources include John Myhill's definition of linear bounded automata (Myhill 1960), Raymond Smullyan's study of rudimentary sets (1961), as well as Hisao Yamada's paper on real-time computations (1962).",
         "Among the earlier papers on problems solvable by Turing machines with specific bounded resources are Myhill's 1960 definition of linear bounded automata, Smullyan's 1961 study of rudimentary sets and Yamada's 1962 paper on real-time computations.", ""),
        (APPEND, "Somewhat earlier, Boris Trakhtenbrot (1956), a pioneer in the field from the USSR, studied another specific complexity measure.",
         "Somewhat earlier, in 1956, Boris Trakhtenbrot, a pioneer in the field from the USSR, studied another specific complexity measure, and he later received the Turing Award for this work.",
         "and he later received the Turing Award for this work"),
    ],
    "squad2:5:36": [
        (PARA, 'As well as creating rights for "workers" who generally lack bargaining power in the market, the Treaty on the Functioning of the European Union also protects the "freedom of establishment" in article 49, and "freedom to provide services" in article 56.',
         'Besides creating rights for "workers", who generally lack bargaining power in the market, the Treaty on the Functioning of the European Union protects the freedom of establishment in article 49 and the freedom to provide services in article 56.', ""),
        (NUM, 'the Treaty on the Functioning of the European Union also protects the "freedom of establishment" in article 49, and "freedom to provide services" in article 56.',
         "The Treaty on the Functioning of the European Union protects the freedom of establishment in article 49 and the freedom to provide services in article 58.",
         "article 56 -> article 58"),
        (ENT, "In Reyners v Belgium the Court of Justice held that a refusal to admit a lawyer to the Belgian bar because he lacked Belgian nationality was unjustified.",
         "In Commission v Italy the Court of Justice held that a refusal to admit a lawyer to the Belgian bar because he lacked Belgian nationality was unjustified.",
         "Reyners v Belgium -> Commission v Italy"),
        (NEG, "In Reyners v Belgium the Court of Justice held that a refusal to admit a lawyer to the Belgian bar because he lacked Belgian nationality was unjustified.",
         "In Reyners v Belgium the Court of Justice held that refusing to admit a lawyer to the Belgian bar because he lacked Belgian nationality was justified.",
         "was unjustified -> was justified"),
        (QUANT, 'All people or entities that engage in economic activity, particularly the self-employed, or "undertakings" such as companies or firms, have a right to set up an enterprise without unjustified restrictions.',
         "All people or entities that engage in economic activity have a right to set up an enterprise without any restrictions.",
         "without unjustified restrictions -> without any restrictions"),
    ],
    "menu:menu-02": [
        (PARA, "Tender octopus, first braised and then charred over the grill, on a warm chickpea and tahini purée with smoked paprika oil and lemon.",
         "The octopus is braised first and then charred on the grill, and it is served on a warm purée of chickpeas and tahini with smoked paprika oil and lemon.", ""),
        (ATTR, "Tender octopus, first braised and then charred over the grill",
         "The octopus is deep-fried and served on a warm chickpea and tahini purée.", "deep-fried"),
        (NEG, "Allergens: molluscs, sesame.", "The grilled octopus with chickpea purée contains no sesame.", "no sesame"),
        (NUM, "Grilled octopus with chickpea purée (starter, 14.00 EUR).",
         "The grilled octopus with chickpea purée is a starter costing 16.00 EUR.", "14.00 -> 16.00"),
        (ENT, "on a warm chickpea and tahini purée with smoked paprika oil and lemon.",
         "The octopus is served on a warm white bean and tahini purée with smoked paprika oil and lemon.",
         "chickpea -> white bean"),
    ],
    "scifact:41976370": [
        (NUM, "Jobs in the fish processing industry had the highest risk for both tendinitis of the biceps tendon as well as SIS (OR 2.28 and 3.38, respectively).",
         "Fish processing jobs carried the highest risk of both biceps tendinitis and SIS, with odds ratios of 2.28 and 3.83 respectively.",
         "3.38 -> 3.83"),
        (ENT, "Jobs in the fish processing industry had the highest risk for both tendinitis of the biceps tendon as well as SIS",
         "Jobs in slaughterhouses had the highest risk for both tendinitis of the biceps tendon and SIS.",
         "fish processing industry -> slaughterhouses"),
        (PARA, "None of the included articles described the association between job title/risk factors and the occurrence of rotator cuff tears or suprascapular nerve compression.",
         "No included article reported how job title or risk factors relate to the occurrence of rotator cuff tears or suprascapular nerve compression.", ""),
        (QUANT, "None of the included articles described the association between job title/risk factors and the occurrence of rotator cuff tears or suprascapular nerve compression.",
         "Several of the included articles described the association between job title or risk factors and rotator cuff tears.",
         "None -> Several"),
        (APPEND, 'High psychosocial job demand was also associated with SIS (OR 1.5-3.19).',
         'High psychosocial job demand was also associated with SIS, but only among women.',
         'but only among women'),
    ],
    "squad2:7:24": [
        (NUM, 'Harvard\'s athletic rivalry with Yale is intense in every sport in which they meet, coming to a climax each fall in the annual football meeting, which dates back to 1875 and is usually called simply "The Game".',
         'The annual Harvard-Yale football meeting, usually called simply "The Game", dates back to 1885.',
         "1875 -> 1885"),
        (PARA, "In 1903, Harvard Stadium introduced a new era into football with the first-ever permanent reinforced concrete stadium of its kind in the country.",
         "In 1903 Harvard Stadium brought a new era to football as the country's first permanent reinforced concrete stadium of its kind.", ""),
        (ENT, "Seeking to reduce the alarming number of deaths and serious injuries in the sport, Walter Camp (former captain of the Yale football team), suggested widening the field to open up the game.",
         "Walter Camp, a former captain of the Harvard football team, suggested widening the field to reduce deaths and serious injuries.",
         "Yale -> Harvard"),
        (NEG, "But the stadium was too narrow to accommodate a wider playing surface.",
         "Harvard Stadium was not too narrow to accommodate a wider playing surface.", "was not too narrow"),
        (ATTR, 'coming to a climax each fall in the annual football meeting, which dates back to 1875 and is usually called simply "The Game".',
         'The rivalry comes to a climax in the biennial football meeting, which dates back to 1875 and is usually called "The Game".',
         "annual -> biennial"),
        (COPY, "The stadium's structure actually played a role in the evolution of the college game.",
         "The stadium's structure actually played a role in the evolution of the college game.", ""),
    ],
    "squad2:11:0": [
        (QUANT, "is an Islamic revival movement often characterized by moral conservatism, literalism, and the attempt",
         "Islamism, also known as Political Islam, is an Islamic revival movement always characterized by moral conservatism and literalism.",
         "often -> always"),
        (PARA, "Islamism favors the reordering of government and society in accordance with the Shari'a.",
         "Islamism wants government and society to be reordered according to the Shari'a.", ""),
        (ENT, 'redefining "politics and even borders" according to one journalist (Robin Wright).',
         'According to the journalist Olivier Roy, the Islamist movements have redefined "politics and even borders".',
         "Robin Wright -> Olivier Roy"),
        (APPEND, "Islamism favors the reordering of government and society in accordance with the Shari'a.",
         "Islamism favors the reordering of government and society in accordance with the Shari'a, and it rejects any role for elected parliaments.",
         "and it rejects any role for elected parliaments"),
    ],
    "scifact:46517055": [
        (PARA, "Treating CF sputum with DNase dramatically increases its elastase activity, which can then be stoichiometrically inhibited by exogenous elastase inhibitors.",
         "DNase treatment of CF sputum sharply raises its elastase activity, which exogenous elastase inhibitors can then inhibit stoichiometrically.", ""),
        (NEG, "However, DNase treatment does not increase the activities of protease 3 and cathepsin G, indicating their different distribution and/or binding in CF sputum.",
         "DNase treatment of CF sputum increases the activities of protease 3 and cathepsin G.",
         "does not increase -> increases"),
        (QUANT, "We have shown that the active neutrophil elastase, protease 3, and cathepsin G in CF sputum resist inhibition in part by exogenous protease inhibitors.",
         "The active neutrophil elastase, protease 3 and cathepsin G in CF sputum completely resist inhibition by exogenous protease inhibitors.",
         "in part -> completely"),
        (ENT, "Purified blood neutrophils secrete NETs when stimulated by the opportunistic CF bacteria Pseudomonas aeruginosa and Staphylococcus aureus.",
         "Purified blood neutrophils secrete NETs when stimulated by the opportunistic CF bacteria Pseudomonas aeruginosa and Escherichia coli.",
         "Staphylococcus aureus -> Escherichia coli"),
        (APPEND, "We conclude that NETs are reservoirs of active proteases that protect them from inhibition and maintain them in a rapidly mobilizable status.",
         "NETs are reservoirs of active proteases that protect them from inhibition and keep them rapidly mobilizable, and they are the main cause of lung function decline in CF.",
         "and they are the main cause of lung function decline in CF"),
    ],
    "scifact:5483793": [
        (PARA, "This process makes CD8-expressing T cells unable to bind pMHC and to respond to the specific peptide, although they retain their ability to respond to nonspecific stimulation.",
         "After this process, CD8-expressing T cells can no longer bind pMHC or respond to the specific peptide, but they can still respond to nonspecific stimulation.", ""),
        (NEG, "This process makes CD8-expressing T cells unable to bind pMHC and to respond to the specific peptide, although they retain their ability to respond to nonspecific stimulation.",
         "This process makes CD8-expressing T cells unable to bind pMHC, and they do not retain their ability to respond to nonspecific stimulation.",
         "retain -> do not retain"),
        (ENT, "MDSCs directly disrupt the binding of specific peptide–major histocompatibility complex (pMHC) dimers to CD8-expressing T cells through nitration of tyrosines in a T-cell receptor (TCR)-CD8 complex.",
         "MDSCs disrupt the binding of pMHC dimers to CD8-expressing T cells through nitration of cysteines in the TCR-CD8 complex.",
         "tyrosines -> cysteines"),
        (QUANT, "These data identify a previously unknown mechanism of T-cell tolerance in cancer that is also pertinent to many pathological conditions associated with accumulation of MDSCs.",
         "The newly identified mechanism of T-cell tolerance in cancer is pertinent to all pathological conditions.",
         "many pathological conditions associated with accumulation of MDSCs -> all pathological conditions"),
    ],
    "handbook:HB-19": [
        (PARA, "An LLM rewriter is given the original question and asked for a structured output, for example a list of strings, rather than free text that must be parsed.",
         "An LLM rewriter receives the original question and is asked for structured output, such as a list of strings, instead of free text that would have to be parsed.", ""),
        (NEG, "Rewriting is not free.", "Query rewriting is free.", "is not free -> is free"),
        (QUANT, "It adds latency, and a bad rewrite can drift away from the user's intent, for instance by dropping a negation or a number.",
         "Every rewrite drifts away from the user's intent, for instance by dropping a negation or a number.",
         "a bad rewrite can drift -> Every rewrite drifts"),
        (APPEND, "A local rewriter can do useful work without a model: strip stopwords and question words, keep the key content terms, and add terms from the top retrieved documents (see pseudo-relevance feedback).",
         "A local rewriter can do useful work without a model by stripping stopwords and keeping the key content terms, and it usually beats an LLM rewriter on recall.",
         "and it usually beats an LLM rewriter on recall"),
        (COPY, "Query rewriting transforms the user's question into one or more queries that retrieve better.",
         "Query rewriting transforms the user's question into one or more queries that retrieve better.", ""),
    ],
    "handbook:HB-37": [
        (COPY, "Human-in-the-loop approval puts a person between the proposal and the action.",
         "Human-in-the-loop approval puts a person between the proposal and the action.", ""),
        (PARA, "The person resumes the thread with `Command(resume=...)`, carrying a decision: approve, reject, or edit the arguments.",
         "To resume the thread, the person sends `Command(resume=...)` with a decision to approve, reject or edit the arguments.", ""),
        (NEG, "The decision value should be validated like any input: an unknown decision must not be treated as approval.",
         "An unknown decision value should be treated as approval.", "must not be treated -> should be treated"),
        (NUM, 'for instance "every tool marked as writing data" or "any payment above 100 crowns".',
         'Which actions need approval is a policy set in code, for instance "any payment above 500 crowns".',
         "100 crowns -> 500 crowns"),
        (QUANT, "Read-only tools such as search can run without review.",
         "Every tool, including read-only tools such as search, must go through review before it runs.",
         "can run without review -> must go through review"),
        (ENT, "The review node calls `interrupt()` with a clear description of the proposed action, for example the tool name and its arguments, and the graph pauses with its state saved by the checkpointer.",
         "The review node calls `Command(resume=...)` with a clear description of the proposed action, and the graph pauses with its state saved by the checkpointer.",
         "`interrupt()` -> `Command(resume=...)` with a clear description"),
    ],
    "menu:menu-07": [
        (PARA, "A chilled white soup of blanched almonds, garlic, bread and olive oil, sharpened with sherry vinegar and served with green grapes.",
         "Ajo blanco is a cold white soup made from blanched almonds, garlic, bread and olive oil, given an edge with sherry vinegar and served with green grapes.", ""),
        (ATTR, "A chilled white soup of blanched almonds, garlic, bread and olive oil",
         "Ajo blanco is a hot white soup of blanched almonds, garlic, bread and olive oil.", "chilled -> hot"),
        (ENT, "sharpened with sherry vinegar and served with green grapes.",
         "Ajo blanco is sharpened with sherry vinegar and served with roasted peaches.", "green grapes -> roasted peaches"),
        (NEG, "Dietary: vegan, vegetarian, dairy-free.", "Ajo blanco is not vegan.", "not vegan"),
        (NUM, "Ajo blanco (starter, 9.00 EUR).", "Ajo blanco is a starter costing 7.00 EUR.", "9.00 -> 7.00"),
        (APPEND, 'A chilled white soup of blanched almonds, garlic, bread and olive oil, sharpened with sherry vinegar and served with green grapes.',
         'Ajo blanco is a chilled white soup of blanched almonds, garlic, bread and olive oil, and it is served only at lunch.',
         'and it is served only at lunch'),
    ],
    "scifact:37677954": [
        (NUM, "The complete genome of this virus was determined to comprise 7424 nucleotides",
         "The complete genome of the virus comprises 7244 nucleotides.", "7424 -> 7244"),
        (PARA, "The genome encodes five open reading frames (ORFs) on the plus strand, which includes three conserved badnaviral ORFs.",
         "Five open reading frames are encoded on the plus strand of the genome, and three of them are conserved badnaviral ORFs.", ""),
        (ENT, "A new badnavirus was discovered from pagoda trees showing yellow mosaic symptoms on the leaves by high throughput sequencing of small RNAs.",
         "The new badnavirus was discovered in gooseberry plants showing yellow mosaic symptoms on the leaves, by high throughput sequencing of small RNAs.",
         "pagoda trees -> gooseberry plants"),
        (QUANT, "Results showed that the most abundant PYMAV vsRNAs were 21-nt, whereas other viruses in the same family have a predominance of 22- or 24-nt vsRNA.",
         "All PYMAV vsRNAs were 21-nt long.", "the most abundant -> All"),
        (NEG, "Furthermore, PYMAV vsRNAs were symmetrically distributed along the genome with no obvious vsRNA generating hotspots.",
         "PYMAV vsRNAs were distributed along the genome with obvious vsRNA generating hotspots.",
         "with no obvious -> with obvious"),
        (ATTR, 'The genome encodes five open reading frames (ORFs) on the plus strand, which includes three conserved badnaviral ORFs.',
         'The genome encodes five open reading frames on the minus strand, three of them conserved badnaviral ORFs.',
         'plus strand -> minus strand'),
    ],
    "squad2:10:18": [
        (PARA, "The principal role of committees in the Scottish Parliament is to take evidence from witnesses, conduct inquiries and scrutinise legislation.",
         "In the Scottish Parliament, committees chiefly exist to take evidence from witnesses, carry out inquiries and scrutinise legislation.", ""),
        (ENT, "Committee meetings take place on Tuesday, Wednesday and Thursday morning when Parliament is sitting.",
         "Committee meetings take place on Tuesday, Wednesday and Friday morning when Parliament is sitting.",
         "Thursday -> Friday"),
        (NEG, "partly to compensate for the fact that there is no revising chamber.",
         "The Scottish Parliament has a revising chamber.", "there is no revising chamber -> has a revising chamber"),
        (QUANT, "Much of the work of the Scottish Parliament is done in committee.",
         "All of the work of the Scottish Parliament is done in committee.", "Much -> All"),
    ],
    "squad2:12:25": [
        (NUM, "Whereas they won the war in Algeria, the French leader at the time, Charles de Gaulle, decided to grant Algeria independence anyway in 1962.",
         "Although France won the war in Algeria, Charles de Gaulle decided to grant Algeria independence anyway in 1958.",
         "1962 -> 1958"),
        (PARA, "Nearly all of France's colonies gained independence by 1960, but France retained great financial and diplomatic influence.",
         "By 1960 almost all French colonies had become independent, although France kept great financial and diplomatic influence.", ""),
        (QUANT, "Nearly all of France's colonies gained independence by 1960",
         "All of France's colonies gained independence by 1960.", "Nearly all -> All"),
        (NEG, "Whereas they won the war in Algeria, the French leader at the time, Charles de Gaulle, decided to grant Algeria independence anyway in 1962.",
         "The French did not win the war in Algeria, and in 1962 Charles de Gaulle granted Algeria independence.",
         "won -> did not win"),
        (ENT, "France fought and lost a bitter war in Vietnam in the 1950s.",
         "In the 1950s France fought and lost a bitter war in Algeria.", "Vietnam -> Algeria"),
        (COPY, "France fought and lost a bitter war in Vietnam in the 1950s.",
         "France fought and lost a bitter war in Vietnam in the 1950s.", ""),
    ],
    "menu:menu-08": [
        (PARA, "A fillet of line-caught sea bass grilled skin side down until crisp, with a sharp salsa verde and crushed new potatoes.",
         "The sea bass is a line-caught fillet, grilled skin side down until crisp and served with a sharp salsa verde and crushed new potatoes.", ""),
        (ATTR, "A fillet of line-caught sea bass grilled skin side down until crisp",
         "The grilled sea bass is a farmed fillet served with salsa verde and crushed new potatoes.",
         "line-caught -> farmed"),
        (NEG, "Dietary: gluten-free, dairy-free.", "The grilled sea bass with salsa verde is not gluten-free.", "not gluten-free"),
        (ENT, "with a sharp salsa verde and crushed new potatoes.",
         "The sea bass comes with a sharp salsa verde and hand-cut chips.", "crushed new potatoes -> hand-cut chips"),
        (NUM, "Grilled sea bass with salsa verde (main course, 24.50 EUR).",
         "The grilled sea bass with salsa verde is a main course costing 22.50 EUR.", "24.50 -> 22.50"),
    ],
    "squad2:5:12": [
        (PARA, "Most other member states have expressed similar reservations.",
         "Similar reservations have been voiced by most of the other member states.", ""),
        (QUANT, "Most other member states have expressed similar reservations.",
         "All other member states have expressed similar reservations.", "Most -> All"),
        (NUM, 'It was held in R (Factortame Ltd) v Secretary of State for Transport that "whatever limitation of its sovereignty Parliament accepted when it enacted the European Communities Act 1972 was entirely voluntary"',
         "In the Factortame case it was held that whatever limitation of its sovereignty Parliament accepted when it enacted the European Communities Act 1975 was entirely voluntary.",
         "1972 -> 1975"),
        (ENT, "The view of the German Constitutional Court from the Solange I and Solange II decisions is that if the EU does not comply with its basic constitutional rights and principles (particularly democracy, the rule of law and the social state principles) then it cannot override German law.",
         "In the Solange I and Solange II decisions, the Italian Constitutional Court took the view that if the EU does not comply with its basic constitutional rights and principles, it cannot override national law.",
         "German Constitutional Court -> Italian Constitutional Court"),
        (NEG, "Generally speaking, while all member states recognise that EU law takes primacy over national law where this agreed in the Treaties, they do not accept that the Court of Justice has the final say on foundational constitutional questions affecting democracy and human rights.",
         "All member states accept that the Court of Justice has the final say on foundational constitutional questions affecting democracy and human rights.",
         "do not accept -> accept"),
    ],
    "scifact:4641348": [
        (NUM, "Animals were divided into three groups (n = 7): normal diet group (ND), WD group, and WD plus 1% EAF group.",
         "The animals were divided into a normal diet group, a Western diet group and a Western diet plus 5% EAF group.",
         "1% -> 5%"),
        (PARA, "In comparison to the ND controls, the WD-fed mice exhibited increases in body weight, liver weight, epididymal fat weight, and accumulation of fat in hepatocytes, and these effects were significantly attenuated by EAF supplementation.",
         "Compared with the normal-diet controls, mice fed the Western diet gained body weight, liver weight and epididymal fat weight and accumulated fat in their hepatocytes, and EAF supplementation significantly attenuated these effects.", ""),
        (NEG, "RESULTS EAF reduced OA-stimulated lipid accumulation in HepG2 cells in the absence of cellular cytotoxicity",
         "EAF did not reduce OA-stimulated lipid accumulation in HepG2 cells.", "did not reduce"),
        (ENT, "Non-alcoholic fatty liver disease (NAFLD) is a leading cause of chronic liver disease and is closely associated with metabolic syndrome.",
         "Non-alcoholic fatty liver disease is a leading cause of chronic liver disease and is closely associated with hepatitis C infection.",
         "metabolic syndrome -> hepatitis C infection"),
        (ATTR, "a Western diet (high-fat high-sucrose; WD)-induced obese mouse model.",
         "The in vivo model used obese mice fed a low-fat, high-sucrose Western diet.", "high-fat -> low-fat"),
    ],
    "squad2:1:14": [
        (PARA, "They are all equally powerful in principle, but when resources (such as time or space) are bounded, some of these may be more powerful than others.",
         "In principle these kinds of Turing machine are all equally powerful, but once resources such as time or space are bounded, some of them may be more powerful than others.", ""),
        (QUANT, "Many types of Turing machines are used to define complexity classes, such as deterministic Turing machines, probabilistic Turing machines, non-deterministic Turing machines, quantum Turing machines, symmetric Turing machines and alternating Turing machines.",
         "Only deterministic Turing machines are used to define complexity classes.",
         "Many types of Turing machines -> Only deterministic Turing machines"),
        (NEG, "They are all equally powerful in principle",
         "The different types of Turing machine are not equally powerful in principle.", "not equally powerful"),
        (ENT, "Many types of Turing machines are used to define complexity classes, such as deterministic Turing machines, probabilistic Turing machines, non-deterministic Turing machines, quantum Turing machines, symmetric Turing machines and alternating Turing machines.",
         "Types of Turing machines used to define complexity classes include deterministic, probabilistic, non-deterministic, quantum, symmetric and linear bounded Turing machines.",
         "alternating -> linear bounded"),
    ],
    "squad2:14:24": [
        (NUM, "In response, King Louis XV dispatched six regiments to New France under the command of Baron Dieskau in 1755.",
         "In response, King Louis XV sent four regiments to New France under the command of Baron Dieskau in 1755.",
         "six -> four"),
        (PARA, "After several months of negotiations, the government of the Duke of Newcastle decided to send an army expedition the following year to dislodge the French. They chose Major General Edward Braddock to lead the expedition.",
         "After months of negotiation, the Duke of Newcastle's government decided to send an army expedition the following year to dislodge the French, and it chose Major General Edward Braddock to lead it.", ""),
        (ENT, "Admiral Edward Hawke detached a fast squadron to North America in an attempt to intercept the French.",
         "Jeffery Amherst detached a fast squadron to North America in an attempt to intercept the French.",
         "Admiral Edward Hawke -> Jeffery Amherst"),
        (NEG, "Word of the British military plans leaked to France well before Braddock's departure for North America.",
         "Word of the British military plans did not reach France before Braddock's departure for North America.",
         "leaked -> did not reach"),
        (APPEND, "News of the two battles reached England in August.",
         "News of the two battles reached England in August, and it set off riots in London.",
         "and it set off riots in London"),
    ],
    "squad2:2:16": [
        (NUM, "A French church in Portarlington dates back to 1696, and was built to serve the significant new Huguenot community in the town.",
         "A French church in Portarlington dates back to 1669 and was built to serve the town's significant new Huguenot community.",
         "1696 -> 1669"),
        (PARA, "A number of Huguenots served as mayors in Dublin, Cork, Youghal and Waterford in the 17th and 18th centuries.",
         "In the 17th and 18th centuries, several Huguenots were mayors in Dublin, Cork, Youghal and Waterford.", ""),
        (ENT, "Examples include the Huguenot District and French Church Street in Cork City",
         "Examples of Huguenot names still in use include the Huguenot District and French Church Street in Waterford.",
         "Cork City -> Waterford"),
        (QUANT, "At the time, they constituted the majority of the townspeople.",
         "At the time, the Huguenots made up all of the townspeople of Portarlington.", "the majority -> all"),
        (NEG, "A French church in Portarlington dates back to 1696, and was built to serve the significant new Huguenot community in the town.",
         "The French church in Portarlington was not built to serve the Huguenot community.", "was not built"),
    ],
    "handbook:HB-32": [
        (ENT, "Self-RAG, from Asai and colleagues (2023), trains a model to emit special reflection tokens",
         "Self-RAG, from Yan and colleagues (2023), trains a model to emit special reflection tokens that decide when to retrieve.",
         "Asai -> Yan"),
        (NUM, "Self-RAG, from Asai and colleagues (2023), trains a model to emit special reflection tokens",
         "Self-RAG was published by Asai and colleagues in 2021.", "2023 -> 2021"),
        (PARA, "Second, after generation, a hallucination grader checks whether the answer is grounded in the kept passages; if not, the graph regenerates.",
         "After generation, a hallucination grader checks that the answer is grounded in the passages that were kept, and the graph regenerates the answer when it is not.", ""),
        (NEG, 'Each grader should return a typed decision, a boolean or a `Literal`, through structured output, never a free-text "yes" that code then compares as a string.',
         'Each grader should return a free-text "yes" that code then compares as a string, not a typed decision.',
         'never a free-text "yes" -> should return a free-text "yes"'),
        (APPEND, "Grading adds several model calls per question, so measure whether it improves answer quality on your data before paying that cost.",
         "Grading adds several model calls per question, which roughly doubles latency, so measure whether it improves answer quality before paying that cost.",
         "which roughly doubles latency"),
        (QUANT, "First, a document grader checks each retrieved passage for relevance and drops the irrelevant ones; if none survive, the query is rewritten and retrieval runs again.",
         "A document grader drops irrelevant passages, and the query is rewritten as soon as any passage is dropped.",
         "if none survive -> as soon as any passage is dropped"),
    ],
    "squad2:5:11": [
        (NUM, "In the first major case in 1964, Costa v ENEL",
         "The first major case on the primacy of EU law was Costa v ENEL in 1966.", "1964 -> 1966"),
        (PARA, "Within the EU itself, the Court of Justice's view is that if EU law conflicts with a provision of national law, then EU law has primacy.",
         "According to the Court of Justice, when EU law and a provision of national law conflict, EU law takes precedence.", ""),
        (ENT, "The Italian Constitutional Court gave an opinion that because the nationalisation law was from 1962, and the treaty was in force from 1958, Costa had no claim.",
         "The Court of Justice gave an opinion that because the nationalisation law was from 1962 and the treaty was in force from 1958, Costa had no claim.",
         "Italian Constitutional Court -> Court of Justice"),
        (NEG, "But despite the views of the Court of Justice, the national courts of member states have not accepted the same analysis.",
         "The national courts of member states have accepted the same analysis as the Court of Justice.",
         "have not accepted -> have accepted"),
        (COPY, "Since its founding, the EU has operated among an increasing plurality of national and globalising legal systems.",
         "Since its founding, the EU has operated among an increasing plurality of national and globalising legal systems.", ""),
    ],
    "menu:menu-20": [
        (PARA, "Tenderstem broccoli charred on the grill with chilli, garlic and toasted flaked almonds.",
         "This side dish combines grill-charred tenderstem broccoli with chilli, garlic and toasted flaked almonds.", ""),
        (ATTR, "Tenderstem broccoli charred on the grill with chilli, garlic and toasted flaked almonds.",
         "The tenderstem broccoli is steamed and served with chilli, garlic and toasted flaked almonds.", "steamed"),
        (NUM, "Grilled broccoli with chilli and almonds (side, 6.50 EUR).",
         "The grilled broccoli with chilli and almonds is a side costing 5.50 EUR.", "6.50 -> 5.50"),
        (NEG, "Allergens: tree nuts.", "The grilled broccoli with chilli and almonds contains no tree nuts.", "no tree nuts"),
        (COPY, "Tenderstem broccoli charred on the grill with chilli, garlic and toasted flaked almonds.",
         "Tenderstem broccoli charred on the grill with chilli, garlic and toasted flaked almonds.", ""),
    ],
}


# ---------------------------------------------------------------- sources and the seeded draw

def normalise(text: str) -> str:
    """Collapse every run of whitespace to one space.

    >>> normalise("  a\\n\\n b  c ")
    'a b c'
    """
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _squad() -> list[dict[str, Any]]:
    return json.loads(SQUAD_PATH.read_text(encoding="utf-8"))["data"]


@lru_cache(maxsize=1)
def _scifact() -> dict[str, dict[str, str]]:
    with open(SCIFACT_PATH, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {row["_id"]: row for row in rows}


@lru_cache(maxsize=1)
def _bundled() -> dict[str, list[Document]]:
    return {name: loader() for name, loader in BUNDLED.items()}


def source_of(key: str) -> dict[str, Any]:
    """The ``source`` record of a passage key ("squad2:3:23", "scifact:4983", "menu:menu-06").

    >>> source_of("squad2:3:23"), source_of("wine:wine-12")
    ({'dataset': 'squad2', 'article': 3, 'paragraph': 23}, {'dataset': 'wine', 'id': 'wine-12'})
    """
    dataset, _, rest = key.partition(":")
    if dataset == "squad2":
        article, paragraph = rest.split(":")
        return {"dataset": "squad2", "article": int(article), "paragraph": int(paragraph)}
    if dataset == "scifact":
        return {"dataset": "scifact", "doc_id": rest}
    return {"dataset": dataset, "id": rest}


def passage_document(source: dict[str, Any]) -> Document:
    """The full passage a case is about, as a Document with metadata ``id`` (and dataset, title)."""
    dataset = source["dataset"]
    if dataset == "squad2":
        article = _squad()[source["article"]]
        text = article["paragraphs"][source["paragraph"]]["context"]
        pid = f"squad2-{source['article']}-{source['paragraph']}"
        return Document(page_content=text, metadata={"id": pid, "dataset": dataset, "title": article["title"],
                                                     "source": f"squad2/{SQUAD_PATH.name}"})
    if dataset == "scifact":
        row = _scifact()[source["doc_id"]]
        return Document(page_content=row["text"], metadata={"id": f"scifact-{row['_id']}", "dataset": dataset,
                                                            "title": row["title"], "source": "scifact/corpus.jsonl"})
    for doc in _bundled()[dataset]:
        if doc.metadata["id"] == source["id"]:
            return Document(page_content=doc.page_content, metadata={**doc.metadata, "dataset": dataset})
    raise KeyError(f"no {dataset} document with id {source['id']!r}")


def draw_passages(n: int = N_PASSAGES, seed: int = DRAW_SEED) -> list[str]:
    """Passage keys in draw order: each draw picks a dataset by ``SHARES``, then a passage not drawn before."""
    squad = [f"squad2:{i}:{j}" for i, article in enumerate(_squad()) for j in range(len(article["paragraphs"]))]
    scifact = [doc_id for doc_id, row in _scifact().items() if row["text"].strip()]
    scifact = [f"scifact:{doc_id}" for doc_id in scifact]
    bundled = [f"{name}:{doc.metadata['id']}" for name, docs in _bundled().items() for doc in docs]
    pools = {"squad2": squad, "scifact": scifact, "bundled": bundled}
    rng, drawn, seen = random.Random(seed), [], set()
    while len(drawn) < n:
        r, edge = rng.random(), 0.0
        for name, share in SHARES:
            edge += share
            if r < edge:
                break
        key = rng.choice(pools[name])
        if key not in seen:
            seen.add(key)
            drawn.append(key)
    return drawn


# ---------------------------------------------------------------- build, validate, split

def _contains(haystack: str, needle: str) -> bool:
    """Case-insensitive whole-word containment after whitespace normalisation."""
    pattern = r"(?<!\w)" + re.escape(normalise(needle).lower()) + r"(?!\w)"
    return re.search(pattern, normalise(haystack).lower()) is not None


def validate(cases: list[dict[str, Any]], drawn: list[str], texts: dict[str, str]) -> None:
    """Raise ValueError listing every problem: draw order, types, sentences, labels, ``changed``, counts, ids."""
    problems = []
    if list(CASES) != drawn:
        problems.append(f"CASES keys differ from the seeded draw: missing {sorted(set(drawn) - set(CASES))}, "
                        f"extra {sorted(set(CASES) - set(drawn))}, or a different order")
    for case in cases:
        cid, kind, text = case["id"], case["type"], texts[case["passage_key"]]
        answer, changed = case["answer"], case["changed"]
        if kind not in TYPES:
            problems.append(f"{cid}: unknown type {kind!r}")
            continue
        if normalise(case["source_sentence"]) not in normalise(text):
            problems.append(f"{cid}: source_sentence not found in the passage")
        if case["label"] != ("supported" if kind in SUPPORTED else "unsupported"):
            problems.append(f"{cid}: label {case['label']!r} does not match type {kind}")
        if not 1 <= len(split_sentences(answer)) <= 2:
            problems.append(f"{cid}: answer has {len(split_sentences(answer))} sentences (want 1-2)")
        verbatim = normalise(answer) in normalise(text)
        if kind == COPY and not verbatim:
            problems.append(f"{cid}: a copied answer must occur verbatim in the passage")
        if kind != COPY and verbatim:
            problems.append(f"{cid}: answer is a verbatim copy but typed {kind}")
        if kind in SUPPORTED:
            if changed:
                problems.append(f"{cid}: a faithful answer has changed={changed!r}")
            continue
        if not changed:
            problems.append(f"{cid}: an unsupported answer needs `changed`")
            continue
        old, arrow, new = (part.strip() for part in changed.partition("->"))
        if not arrow:
            old, new = "", old
        if not _contains(answer, new):
            problems.append(f"{cid}: changed {new!r} does not occur in the answer")
        if old and not _contains(text, old):
            problems.append(f"{cid}: changed {old!r} does not occur in the passage")
        if kind in (NUM, APPEND) and _contains(text, new):
            problems.append(f"{cid}: the {kind} text {new!r} already occurs in the passage")
        if kind == NUM and not re.search(r"\d|\b(?:[IVX]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", new):
            problems.append(f"{cid}: changed_number {new!r} has no number in it")
    ids = [case["id"] for case in cases]
    if len(set(ids)) != len(ids):
        problems.append("case ids are not unique")
    counts = Counter(case["type"] for case in cases)
    for kind, least in MINIMUM.items():
        if counts[kind] < least:
            problems.append(f"only {counts[kind]} {kind} cases (want >= {least})")
    if problems:
        raise ValueError("claim cases do not validate:\n- " + "\n- ".join(problems))


def assign_splits(cases: list[dict[str, Any]], seed: int = SPLIT_SEED) -> None:
    """Stratified by type: shuffle each type's cases (in id order) with one seeded rng; first half "tune"."""
    rng = random.Random(seed)
    for kind in TYPES:
        group = [case for case in cases if case["type"] == kind]
        rng.shuffle(group)
        for i, case in enumerate(group):
            case["split"] = "tune" if i < len(group) // 2 else "report"


def build() -> dict[str, Any]:
    """The whole set as written to ``claim_cases.json`` (validated, split)."""
    drawn = draw_passages()
    texts = {key: passage_document(source_of(key)).page_content for key in CASES}
    cases: list[dict[str, Any]] = []
    for key, rows in CASES.items():
        for kind, sentence, answer, changed in rows:
            cases.append({
                "id": f"hc-{len(cases) + 1:04d}", "type": kind, "source": source_of(key),
                "source_sentence": sentence, "answer": answer,
                "label": "supported" if kind in SUPPORTED else "unsupported", "changed": changed,
                "passage_key": key,
            })
    validate(cases, drawn, texts)
    assign_splits(cases)
    for case in cases:
        del case["passage_key"]
    counts = {kind: {split: sum(c["type"] == kind and c["split"] == split for c in cases)
                     for split in ("tune", "report")} for kind in TYPES}
    return {
        "name": "claim_cases",
        "description": "Claim-level hallucination cases: a source passage and a 1-2 sentence answer about it, "
                       "labelled supported/unsupported, in 8 types (copied and paraphrased faithful; appended "
                       "clause, negation flip, quantifier change, attribute swap, entity swap, changed number). "
                       "Passages are not stored: load them with load_claim_cases() in "
                       "benchmarks/roles/make_claim_cases.py. Written blind (no grader run before freezing).",
        "built_by": "benchmarks/roles/make_claim_cases.py",
        "sources": {"squad2": f"../shared/datasets/squad2/{SQUAD_PATH.name} (context of data[article].paragraphs[paragraph])",
                    "scifact": "../shared/datasets/scifact/corpus.jsonl (text of the abstract with this _id)",
                    "menu": "ragkit.data.load_menu()", "wine": "ragkit.data.load_wines()",  # as recorded when frozen
                    "handbook": "ragkit.data.load_handbook()", "statute": "ragkit.data.load_statute()"},
        "seeds": {"draw": DRAW_SEED, "split": SPLIT_SEED}, "passages": len(CASES),
        "types": list(TYPES), "counts": counts, "cases": cases,
    }


def render(data: dict[str, Any]) -> str:
    """The exact text written to disk (so a test can compare a rebuild with the frozen bytes)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- for benchmarks

def claim_cases_sha256() -> str:
    """The sha256 of the frozen set, after checking it against data/eval/MANIFEST.json."""
    return check_frozen(OUT_PATH)


def load_claim_cases(split: str | None = None) -> list[dict[str, Any]]:
    """The frozen cases (hash checked), each with ``document``: its full passage as a Document (metadata id).

    ``split`` is "tune", "report" or None (all). Raises DataError when the file changed after freezing, and
    FileNotFoundError when a source data set is missing.
    """
    if split not in (None, "tune", "report"):
        raise ValueError(f"split must be 'tune', 'report' or None, not {split!r}")
    data, _ = load_goldset(OUT_PATH.name)
    return [{**case, "document": passage_document(case["source"])}
            for case in data["cases"] if split is None or case["split"] == split]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="validate and compare with the file; write nothing")
    args = parser.parse_args(argv)
    data = build()
    text = render(data)
    for kind, split in data["counts"].items():
        print(f"{kind:22s} tune {split['tune']:3d}  report {split['report']:3d}")
    print(f"{len(data['cases'])} cases from {data['passages']} passages")
    return write_frozen_set(text, OUT_PATH, args.check)


if __name__ == "__main__":
    sys.exit(main())
