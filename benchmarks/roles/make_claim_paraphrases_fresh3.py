"""Write data/eval/claim_paraphrases_fresh3.json: a third fresh report set of faithful paraphrases and reworded
unsupported answers for the claim-level hallucination grader, over passages no earlier claim set uses.

The first two fresh sets have each been measured on, so the next change of the grader needs a set nobody has
measured it on. This one is written the same way as the earlier three (same seven types, same rows, same checks:
``make_claim_paraphrases.validate``) over passages that neither the claim cases, nor ``claim_paraphrases.json``,
nor ``claim_paraphrases_fresh.json``, nor ``claim_paraphrases_fresh2.json`` use, drawn by seed
(``draw_passages(N_PASSAGES, DRAW_SEED, exclude=...)``: SQuAD 2.0 dev, SciFact, the bundled corpora), so the
writer did not choose them. Every case is a report case: nothing is tuned on it, and a change of the grader is
reported on it once.

Written blind on 2026-12-04 by a writer who read only parts of the set builders (the docstring, constants and
helpers of ``make_claim_paraphrases.py``; the docstring, imports and the code after the answer table of
``make_claim_paraphrases_fresh2.py``) and the drawn passages; the writer ran no grader, graph, benchmark or model
on these answers, and saw no grader code, no earlier set's answers and no grader results (except, by a slip while
locating the table's bounds, the last string of ``make_claim_paraphrases_fresh2.py``'s last row and the first
few dozen characters of its first row, after this set's passages were drawn and before any answer was written).
The same limits as the earlier sets apply: one author wrote every answer (aware of how graders fail, which may
make some errors subtler and some paraphrases bolder than a chat model's); labels are judged against the one
passage alone; passages are short (one paragraph, one abstract, one wine or article), so alignment is easier than
over a retriever's top four. The set is small (16 passages, 96 paraphrases, 100 unsupported answers), so a rate
measured on it carries a standard error of up to about 0.05 on the paraphrases and on the unsupported answers,
more if errors cluster by passage.

Run from the project folder: ``.venv/bin/python benchmarks/roles/make_claim_paraphrases_fresh3.py`` (writes the
file, refused once frozen with other content; ``--check`` compares a rebuild with the file on disk;
``--show-passages`` prints the drawn passages).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from claim_report_sets import load_report_cases, report_set, report_set_main  # noqa: E402
from common import ROOT  # noqa: E402
from make_claim_paraphrases import (  # noqa: E402
    APPEND,
    ATTR,
    ENT,
    NEG,
    NUM,
    PARA,
    QUANT,
    draw_passages,
)
from make_claim_paraphrases import (
    CASES as EARLIER_CASES,
)
from make_claim_paraphrases_fresh import (
    CASES as FRESH_CASES,
)
from make_claim_paraphrases_fresh2 import (
    CASES as FRESH2_CASES,
)

from ragkit.goldsets import check_frozen  # noqa: E402

OUT_PATH = ROOT / "data" / "eval" / "claim_paraphrases_fresh3.json"
N_PASSAGES, DRAW_SEED = 16, 71
MINIMUM = {PARA: 80, APPEND: 14, NEG: 14, QUANT: 14, ATTR: 14, ENT: 14, NUM: 14}
UNSUPPORTED_MINIMUM = 90

# Written answers, keyed by passage in draw order (rows as in make_claim_paraphrases.CASES).
CASES: dict[str, list[tuple[str, str, str, str]]] = {
    "statute:art-19": [
        (
            PARA,
            "An aquaculture site requires a coastal zone permit under Article 6(1)(d).",
            "Any aquaculture site needs a coastal zone permit under Article 6(1)(d).",
            "synonym",
        ),
        (
            PARA,
            "The permit shall state the species farmed and the maximum standing biomass in tonnes.",
            "The species being farmed and the maximum standing biomass, in tonnes, must both be stated in the permit.",
            "voice reorder synonym",
        ),
        (
            PARA,
            "A new aquaculture site shall be located at least 1,000 metres from any other aquaculture site and at least 1 nautical mile from any marine protected area.",
            "New aquaculture sites must be at least 1,000 metres away from other aquaculture sites and no closer than 1 nautical mile to a marine protected area.",
            "synonym",
        ),
        (
            PARA,
            "The operator shall not exceed the maximum standing biomass stated in the permit and shall report the standing biomass to the Authority at the end of each month.",
            "Operators have to stay within the permit's maximum standing biomass and send the Authority a standing biomass report at the end of every month.",
            "synonym nominal",
        ),
        (
            PARA,
            "The operator shall monitor the seabed beneath and around the site at least once a year and shall leave the site fallow for at least 2 months between production cycles.",
            "Between production cycles, the site has to lie fallow for a minimum of two months.",
            "reorder synonym drop",
        ),
        (
            PARA,
            "An aquaculture site requires a coastal zone permit under Article 6(1)(d). ... The permit shall state the species farmed and the maximum standing biomass in tonnes.",
            "A coastal zone permit under Article 6(1)(d) is required for an aquaculture site, and it must specify the farmed species and the maximum standing biomass in tonnes.",
            "voice merge pronoun synonym",
        ),
        (
            APPEND,
            "The operator shall not exceed the maximum standing biomass stated in the permit and shall report the standing biomass to the Authority at the end of each month.",
            "Operators must keep within the maximum standing biomass in their permit and report the standing biomass to the Authority at the end of every month, using a form the Authority publishes.",
            "using a form the Authority publishes",
        ),
        (
            NEG,
            "The operator shall monitor the seabed beneath and around the site at least once a year and shall leave the site fallow for at least 2 months between production cycles.",
            "Operators must check the seabed beneath and around the site at least yearly, but they do not have to leave the site fallow between production cycles.",
            "shall leave -> do not have to leave",
        ),
        (
            QUANT,
            "The permit shall state the species farmed and the maximum standing biomass in tonnes.",
            "The permit may specify the farmed species and the maximum standing biomass in tonnes.",
            "shall state -> may specify",
        ),
        (
            ATTR,
            "The operator shall not exceed the maximum standing biomass stated in the permit and shall report the standing biomass to the Authority at the end of each month.",
            "Operators must not go over the permit's maximum standing biomass, and they must report their standing biomass to the Authority at the start of each month.",
            "end -> start",
        ),
        (
            ENT,
            "A new aquaculture site shall be located at least 1,000 metres from any other aquaculture site and at least 1 nautical mile from any marine protected area.",
            "A new aquaculture site has to be at least 1,000 metres from other aquaculture sites and at least 1 nautical mile from any shipping lane.",
            "marine protected area -> shipping lane",
        ),
        (
            NUM,
            "A new aquaculture site shall be located at least 1,000 metres from any other aquaculture site and at least 1 nautical mile from any marine protected area.",
            "New sites must sit 500 metres or more from any other aquaculture site and at least one nautical mile from a marine protected area.",
            "1,000 metres -> 500 metres",
        ),
        (
            NUM,
            "The operator shall monitor the seabed beneath and around the site at least once a year and shall leave the site fallow for at least 2 months between production cycles.",
            "The seabed under and around the site has to be monitored at least annually, and the site must be left fallow for at least 3 months between production cycles.",
            "2 months -> 3 months",
        ),
    ],
    "wine:wine-01": [
        (
            PARA,
            "Franciacorta Brut by Tenuta Corte Alta (Lombardy, Italy), non-vintage, sparkling wine.",
            "The Franciacorta Brut from Tenuta Corte Alta is a non-vintage sparkling wine from Lombardy in Italy.",
            "synonym reorder",
        ),
        (
            PARA,
            "Grapes: Chardonnay, Pinot Nero.",
            "It's made from Chardonnay and Pinot Nero grapes.",
            "pronoun synonym",
        ),
        (
            PARA,
            "Price: 9.00 EUR a glass, 48.00 EUR a bottle.",
            "A glass costs 9.00 EUR and a whole bottle is 48.00 EUR.",
            "synonym",
        ),
        (
            PARA,
            "Tasting notes: Fine, persistent bubbles; green apple, brioche and a chalky, dry finish after thirty months on the lees.",
            "Expect fine, long-lasting bubbles with green apple and brioche and a dry, chalky finish.",
            "synonym reorder drop",
        ),
        (
            PARA,
            "Pairing: Its acidity cuts through fried batter, so it is our first choice for the Crispy courgette flowers, and it is lovely with the Calvera oysters, half dozen.",
            "Because its acidity cuts through fried batter, it's the first wine we'd recommend with the Crispy courgette flowers.",
            "synonym drop pronoun",
        ),
        (
            PARA,
            "Pairing: Its acidity cuts through fried batter, so it is our first choice for the Crispy courgette flowers, and it is lovely with the Calvera oysters, half dozen.",
            "It also goes beautifully with the half dozen Calvera oysters.",
            "synonym drop pronoun",
        ),
        (
            APPEND,
            "Pairing: Its acidity cuts through fried batter, so it is our first choice for the Crispy courgette flowers, and it is lovely with the Calvera oysters, half dozen.",
            "Its acidity cuts through fried batter, which makes it our top pick for the Crispy courgette flowers, and it should be served well chilled.",
            "served well chilled",
        ),
        (
            NEG,
            "Pairing: Its acidity cuts through fried batter, so it is our first choice for the Crispy courgette flowers, and it is lovely with the Calvera oysters, half dozen.",
            "Its acidity cuts through fried batter, so it's our first pick for the Crispy courgette flowers, though it doesn't go well with the Calvera oysters.",
            "doesn't go well",
        ),
        (
            QUANT,
            "Pairing: Its acidity cuts through fried batter, so it is our first choice for the Crispy courgette flowers, and it is lovely with the Calvera oysters, half dozen.",
            "It's the only wine we'd pair with the Crispy courgette flowers, because its acidity cuts through fried batter.",
            "first choice -> only wine",
        ),
        (
            ATTR,
            "Tasting notes: Fine, persistent bubbles; green apple, brioche and a chalky, dry finish after thirty months on the lees.",
            "Fine, persistent bubbles, green apple and brioche lead to a chalky, sweet finish after thirty months on the lees.",
            "dry -> sweet",
        ),
        (
            ENT,
            "Grapes: Chardonnay, Pinot Nero.",
            "It's a blend of Chardonnay and Pinot Bianco grapes.",
            "Pinot Nero -> Pinot Bianco",
        ),
        (
            NUM,
            "Price: 9.00 EUR a glass, 48.00 EUR a bottle.",
            "It's 9.00 EUR by the glass or 52.00 EUR for the bottle.",
            "48.00 EUR -> 52.00 EUR",
        ),
        (
            NUM,
            "Tasting notes: Fine, persistent bubbles; green apple, brioche and a chalky, dry finish after thirty months on the lees.",
            "After twenty-four months on the lees it shows fine, persistent bubbles, green apple, brioche and a chalky, dry finish.",
            "thirty months -> twenty-four months",
        ),
    ],
    "squad2:5:3": [
        (
            PARA,
            'The primary law of the EU consists mainly of the founding treaties, the "core" treaties being the Treaty on European Union (TEU) and the Treaty on the Functioning of the European Union (TFEU).',
            "EU primary law is made up mostly of the founding treaties, of which the TEU and the TFEU are the core ones.",
            "synonym reorder",
        ),
        (
            PARA,
            "The Treaties contain formal and substantive provisions, which frame policies of the European Union institutions and determine the division of competences between the European Union and its member states.",
            "The Treaties' formal and substantive provisions shape the policies of the EU institutions and set out how competences are divided between the EU and its member states.",
            "synonym reorder",
        ),
        (
            PARA,
            "European Union law also applies in territories where a member state is responsible for external relations, for example Gibraltar and the Åland islands.",
            "Territories whose external relations are handled by a member state, such as Gibraltar and the Åland islands, are covered by EU law as well.",
            "voice synonym reorder",
        ),
        (
            PARA,
            "The TEU specifically excludes certain regions, for example the Faroe Islands, from the jurisdiction of European Union law.",
            "Some regions, the Faroe Islands among them, are expressly excluded from EU law's jurisdiction by the TEU.",
            "voice synonym reorder",
        ),
        (
            PARA,
            "Treaties apply as soon as they enter into force, unless stated otherwise, and are generally concluded for an unlimited period.",
            "Unless they say otherwise, treaties take effect the moment they enter into force, and they're usually concluded without a time limit.",
            "reorder synonym",
        ),
        (
            PARA,
            "The Court of Justice of the European Union can interpret the Treaties, but it cannot rule on their validity, which is subject to international law.",
            "While the EU's Court of Justice is able to interpret the Treaties, ruling on their validity is beyond its power; their validity is governed by international law.",
            "synonym nominal reorder",
        ),
        (
            PARA,
            "Individuals may rely on primary law in the Court of Justice of the European Union if the Treaty provisions have a direct effect and they are sufficiently clear, precise and unconditional.",
            "Individuals can invoke primary law before the EU's Court of Justice provided the Treaty provisions have direct effect and are sufficiently clear, precise and unconditional.",
            "synonym",
        ),
        (
            APPEND,
            "The TEU establishes that European Union law applies to the metropolitan territories of the member states, as well as certain islands and overseas territories, including Madeira, the Canary Islands and the French overseas departments.",
            "Under the TEU, EU law covers the member states' metropolitan territories and also some islands and overseas territories such as Madeira, the Canary Islands and the French overseas departments, and it applies there with no transitional period.",
            "with no transitional period",
        ),
        (
            NEG,
            "The Court of Justice of the European Union can interpret the Treaties, but it cannot rule on their validity, which is subject to international law.",
            "The EU's Court of Justice can both interpret the Treaties and rule on whether they are valid.",
            "cannot rule on their validity -> rule on whether they are valid",
        ),
        (
            QUANT,
            "All EU member states are regarded as subject to the general obligation of the principle of cooperation, as stated in the TEU, whereby member states are obliged not to take measure which could jeopardise the attainment of the TEU objectives.",
            "Most EU member states are considered bound by the TEU's general duty of cooperation, which obliges them not to take measures that could jeopardise the TEU's objectives.",
            "All -> Most",
        ),
        (
            ATTR,
            "Treaties apply as soon as they enter into force, unless stated otherwise, and are generally concluded for an unlimited period.",
            "Unless stated otherwise, treaties apply once they enter into force and are generally concluded for a fixed period.",
            "unlimited -> fixed",
        ),
        (
            ENT,
            "The TEU allows the European Council to make specific provisions for regions, as for example done for customs matters in Gibraltar and Saint-Pierre-et-Miquelon.",
            "The TEU lets the European Commission make specific provisions for regions, as it did for customs matters in Gibraltar and Saint-Pierre-et-Miquelon.",
            "European Council -> European Commission",
        ),
        (
            NUM,
            'The primary law of the EU consists mainly of the founding treaties, the "core" treaties being the Treaty on European Union (TEU) and the Treaty on the Functioning of the European Union (TFEU).',
            "EU primary law consists mainly of the founding treaties, with three core treaties at its heart, among them the Treaty on European Union and the Treaty on the Functioning of the European Union.",
            "three core treaties",
        ),
    ],
    "scifact:46565968": [
        (
            PARA,
            "Quantitative assessment of metastatic disease in bone is often considered immeasurable and, as such, patients with skeletal metastases are often excluded from clinical trials.",
            "Because metastatic bone disease is often seen as impossible to measure quantitatively, patients with skeletal metastases frequently get left out of clinical trials.",
            "synonym reorder",
        ),
        (
            PARA,
            "In order to effectively quantify the impact of metastatic tumor involvement in the spine, accurate segmentation of the vertebra is required.",
            "Effectively quantifying the impact of metastatic tumour involvement in the spine depends on segmenting the vertebra accurately.",
            "synonym voice nominal",
        ),
        (
            PARA,
            "Manual segmentation can be accurate but involves extensive and time-consuming user interaction.",
            "Segmenting by hand can give accurate results, but it takes a lot of time-consuming interaction from the user.",
            "synonym",
        ),
        (
            PARA,
            "Potential solutions to automating segmentation of metastatically involved vertebrae are demons deformable image registration and level set methods. ... The purpose of this study was to develop a semiautomated method to accurately segment tumor-bearing vertebrae using the aforementioned techniques.",
            "The study set out to build a semiautomated way of accurately segmenting tumour-bearing vertebrae with demons deformable image registration and level set methods, two candidate approaches to automating this segmentation.",
            "merge reorder synonym",
        ),
        (
            PARA,
            "By maintaining morphology of an atlas, the demons-level set composite algorithm was able to accurately differentiate between trans-cortical tumors and surrounding soft tissue of identical intensity.",
            "The combined demons-level set algorithm kept the atlas's morphology intact, which let it accurately tell trans-cortical tumours apart from surrounding soft tissue of the same intensity.",
            "synonym reorder",
        ),
        (
            PARA,
            "The algorithm successfully segmented both the vertebral body and trabecular centrum of tumor-involved and healthy vertebrae.",
            "Both the vertebral body and the trabecular centrum were segmented successfully by the algorithm, in healthy vertebrae as well as tumour-involved ones.",
            "voice reorder",
        ),
        (
            PARA,
            "This work validates our approach as equivalent in accuracy to an experienced user.",
            "The work shows the method is as accurate as an experienced user.",
            "synonym nominal",
        ),
        (
            APPEND,
            "Manual segmentation can be accurate but involves extensive and time-consuming user interaction.",
            "Manual segmentation can be accurate, but it demands extensive, time-consuming user interaction and varies between readers.",
            "varies between readers",
        ),
        (
            NEG,
            "The algorithm successfully segmented both the vertebral body and trabecular centrum of tumor-involved and healthy vertebrae.",
            "The algorithm segmented the vertebral body of tumour-involved and healthy vertebrae successfully, but it could not segment the trabecular centrum.",
            "could not segment",
        ),
        (
            QUANT,
            "Quantitative assessment of metastatic disease in bone is often considered immeasurable and, as such, patients with skeletal metastases are often excluded from clinical trials.",
            "Since metastatic bone disease is often seen as immeasurable, patients with skeletal metastases are always excluded from clinical trials.",
            "often excluded -> always excluded",
        ),
        (
            ATTR,
            "The purpose of this study was to develop a semiautomated method to accurately segment tumor-bearing vertebrae using the aforementioned techniques.",
            "The study aimed to develop a fully automated method for accurately segmenting tumour-bearing vertebrae using those techniques.",
            "semiautomated -> fully automated",
        ),
        (
            ATTR,
            "By maintaining morphology of an atlas, the demons-level set composite algorithm was able to accurately differentiate between trans-cortical tumors and surrounding soft tissue of identical intensity.",
            "Because it preserved atlas morphology, the composite demons-level set algorithm could accurately separate trans-cortical tumours from surrounding soft tissue of higher intensity.",
            "identical -> higher",
        ),
        (
            ENT,
            "This work validates our approach as equivalent in accuracy to an experienced user.",
            "The work shows the approach matches commercial software in accuracy.",
            "an experienced user -> commercial software",
        ),
    ],
    "squad2:0:24": [
        (
            PARA,
            "In 1096, Crusaders passing by the siege of Amalfi were joined by Bohemond of Taranto and his nephew Tancred with an army of Italo-Normans.",
            "Bohemond of Taranto and his nephew Tancred, along with an army of Italo-Normans, joined the Crusaders who passed by the siege of Amalfi in 1096.",
            "voice reorder",
        ),
        (
            PARA,
            "Bohemond was the de facto leader of the Crusade during its passage through Asia Minor.",
            "While the Crusade was crossing Asia Minor, it was effectively led by Bohemond.",
            "voice synonym reorder",
        ),
        (
            PARA,
            "After the successful Siege of Antioch in 1097, Bohemond began carving out an independent principality around that city.",
            "Once the Siege of Antioch had succeeded in 1097, Bohemond started to carve out an independent principality around Antioch.",
            "synonym reorder",
        ),
        (
            PARA,
            "Bohemond was the de facto leader of the Crusade during its passage through Asia Minor. ... After the successful Siege of Antioch in 1097, Bohemond began carving out an independent principality around that city.",
            "Bohemond, the de facto leader of the Crusade through Asia Minor, began building an independent principality around Antioch after the city's successful siege in 1097.",
            "merge nominal synonym",
        ),
        (
            PARA,
            "Tancred was instrumental in the conquest of Jerusalem and he worked for the expansion of the Crusader kingdom in Transjordan and the region of Galilee.",
            "Tancred was key to the conquest of Jerusalem, and he also pushed to expand the Crusader kingdom in Transjordan and the Galilee region.",
            "synonym nominal",
        ),
        (
            APPEND,
            "After the successful Siege of Antioch in 1097, Bohemond began carving out an independent principality around that city.",
            "After the Siege of Antioch succeeded in 1097, Bohemond set about carving out an independent principality around the city, against the wishes of the Byzantine emperor.",
            "against the wishes of the Byzantine emperor",
        ),
        (
            NEG,
            "Bohemond was the de facto leader of the Crusade during its passage through Asia Minor.",
            "Bohemond wasn't the de facto leader of the Crusade as it made its way through Asia Minor.",
            "wasn't",
        ),
        (
            QUANT,
            "Tancred was instrumental in the conquest of Jerusalem and he worked for the expansion of the Crusader kingdom in Transjordan and the region of Galilee.",
            "Tancred was solely responsible for the conquest of Jerusalem and also worked to expand the Crusader kingdom in Transjordan and Galilee.",
            "instrumental -> solely responsible",
        ),
        (
            ATTR,
            "Bohemond was the de facto leader of the Crusade during its passage through Asia Minor.",
            "During its passage through Asia Minor, Bohemond was the Crusade's official leader.",
            "de facto -> official",
        ),
        (
            ENT,
            "In 1096, Crusaders passing by the siege of Amalfi were joined by Bohemond of Taranto and his nephew Tancred with an army of Italo-Normans.",
            "In 1096 Bohemond of Taranto and his son Tancred joined the Crusaders passing the siege of Amalfi, bringing an army of Italo-Normans.",
            "nephew -> son",
        ),
        (
            NUM,
            "After the successful Siege of Antioch in 1097, Bohemond began carving out an independent principality around that city.",
            "Following the successful Siege of Antioch in 1099, Bohemond began to carve out an independent principality around the city.",
            "1097 -> 1099",
        ),
    ],
    "handbook:HB-21": [
        (
            PARA,
            "One phrasing of a question reaches only part of the relevant evidence.",
            "A single wording of a question only gets at some of the relevant evidence.",
            "synonym",
        ),
        (
            PARA,
            "Multi-query retrieval asks a model to produce several alternative versions of the question, retrieves for each version, and merges the results.",
            "In multi-query retrieval, a model is asked to write several alternative versions of the question; retrieval is run for each one and the results are merged.",
            "voice synonym",
        ),
        (
            PARA,
            "LangChain's `MultiQueryRetriever` takes the union of the retrieved documents, removing duplicates.",
            "LangChain's MultiQueryRetriever combines the retrieved documents as a union and drops the duplicates.",
            "synonym",
        ),
        (
            PARA,
            "The original question is normally kept as one of the queries, which protects against generated queries that drift.",
            "Keeping the original question among the queries, as is normally done, guards against generated queries drifting off.",
            "nominal reorder synonym",
        ),
        (
            PARA,
            "The number of generated queries is usually three to five; beyond that, cost rises and gains flatten.",
            "Typically three to five queries are generated; going beyond that raises the cost while the gains flatten out.",
            "synonym voice",
        ),
        (
            PARA,
            "Multi-query methods raise recall, which matters for RAG, but multiply retrieval cost by the number of queries, and fusion results depend on every retriever being deterministic.",
            "Multi-query methods increase recall, which is important for RAG, but retrieval cost is multiplied by however many queries there are.",
            "synonym voice drop",
        ),
        (
            PARA,
            "RAG-Fusion, described by Adrian Raudaschl in 2023, takes the same idea further: it generates several queries, retrieves a ranked list for each, and combines the lists with reciprocal rank fusion, so documents that rank well for many phrasings rise to the top.",
            "RAG-Fusion, which Adrian Raudaschl described in 2023, generates several queries, gets a ranked list for each and merges those lists using reciprocal rank fusion.",
            "synonym drop",
        ),
        (
            APPEND,
            "A local version can create variants without any model, for instance the original question, its key terms only, and a version expanded with feedback terms.",
            "A local variant can build query variants without a model, such as the original question, just its key terms, and a version expanded with feedback terms, and it runs in under a millisecond.",
            "runs in under a millisecond",
        ),
        (
            NEG,
            "Multi-query methods raise recall, which matters for RAG, but multiply retrieval cost by the number of queries, and fusion results depend on every retriever being deterministic.",
            "Multi-query methods boost recall, which matters for RAG, and although they multiply retrieval cost by the number of queries, fusion results don't depend on the retrievers being deterministic.",
            "don't depend",
        ),
        (
            QUANT,
            "The original question is normally kept as one of the queries, which protects against generated queries that drift.",
            "The original question is always kept as one of the queries, protecting against drifting generated queries.",
            "normally -> always",
        ),
        (
            ATTR,
            "Multi-query methods raise recall, which matters for RAG, but multiply retrieval cost by the number of queries, and fusion results depend on every retriever being deterministic.",
            "Multi-query methods improve precision, which matters for RAG, but they multiply the retrieval cost by the number of queries.",
            "recall -> precision",
        ),
        (
            ENT,
            "RAG-Fusion, described by Adrian Raudaschl in 2023, takes the same idea further: it generates several queries, retrieves a ranked list for each, and combines the lists with reciprocal rank fusion, so documents that rank well for many phrasings rise to the top.",
            "RAG-Fusion, which Gordon Cormack described in 2023, pushes the idea further by generating several queries, retrieving a ranked list for each and fusing the lists with reciprocal rank fusion.",
            "Adrian Raudaschl -> Gordon Cormack",
        ),
        (
            NUM,
            "The number of generated queries is usually three to five; beyond that, cost rises and gains flatten.",
            "Usually between five and ten queries are generated; beyond that, cost rises and the gains flatten.",
            "three to five -> between five and ten",
        ),
        (
            NUM,
            "RAG-Fusion, described by Adrian Raudaschl in 2023, takes the same idea further: it generates several queries, retrieves a ranked list for each, and combines the lists with reciprocal rank fusion, so documents that rank well for many phrasings rise to the top.",
            "Adrian Raudaschl described RAG-Fusion in 2021 as a further step on the same idea, fusing the ranked lists of several generated queries with reciprocal rank fusion.",
            "2023 -> 2021",
        ),
    ],
    "squad2:12:0": [
        (
            PARA,
            'Its name originated from the Latin word "imperium", which means to rule over large territories.',
            'The word comes from the Latin "imperium", meaning to rule over large territories.',
            "synonym",
        ),
        (
            PARA,
            "Imperialism has greatly shaped the contemporary world. ... It has also allowed for the rapid spread of technologies and ideas.",
            "Imperialism has had a great influence on today's world, and it also enabled technologies and ideas to spread rapidly.",
            "merge synonym pronoun",
        ),
        (
            PARA,
            "The term imperialism has been applied to Western (and Japanese) political and economic dominance especially in Asia and Africa in the 19th and 20th centuries.",
            "The term has been used for the political and economic dominance of the West, and of Japan, particularly in Asia and Africa during the 19th and 20th centuries.",
            "synonym reorder",
        ),
        (
            PARA,
            "Its precise meaning continues to be debated by scholars.",
            "Scholars are still debating exactly what it means.",
            "voice synonym pronoun",
        ),
        (
            PARA,
            "Some writers, such as Edward Said, use the term more broadly to describe any system of domination and subordination organised with an imperial center and a periphery.",
            "Writers like Edward Said apply the term more broadly, to any system of domination and subordination built around an imperial center and a periphery.",
            "synonym drop",
        ),
        (
            PARA,
            'Imperialism is "a policy of extending a country\'s power and influence through colonization, use of military force, or other means".',
            "It is defined as a policy by which a country extends its power and influence through colonization, military force or other means.",
            "pronoun voice synonym",
        ),
        (
            APPEND,
            "Imperialism is a type of advocacy of empire.",
            "Imperialism is a form of advocacy of empire, first used as a term in the 16th century.",
            "first used as a term in the 16th century",
        ),
        (
            NEG,
            "Its precise meaning continues to be debated by scholars.",
            "Scholars now largely agree on its precise meaning.",
            "largely agree",
        ),
        (
            QUANT,
            "Some writers, such as Edward Said, use the term more broadly to describe any system of domination and subordination organised with an imperial center and a periphery.",
            "Most writers, Edward Said among them, use the term more broadly for any system of domination and subordination organised around an imperial center and a periphery.",
            "Some writers -> Most writers",
        ),
        (
            ATTR,
            'Its name originated from the Latin word "imperium", which means to rule over large territories.',
            'The name goes back to the Latin "imperium", meaning to rule over distant territories.',
            "large -> distant",
        ),
        (
            ENT,
            "The term imperialism has been applied to Western (and Japanese) political and economic dominance especially in Asia and Africa in the 19th and 20th centuries.",
            "The term has been applied to Western, and Japanese, political and economic dominance, above all in Asia and Latin America in the 19th and 20th centuries.",
            "Africa -> Latin America",
        ),
        (
            NUM,
            "The term imperialism has been applied to Western (and Japanese) political and economic dominance especially in Asia and Africa in the 19th and 20th centuries.",
            "Imperialism as a term has been used for Western (and Japanese) political and economic dominance, especially in Asia and Africa, during the 18th and 19th centuries.",
            "19th and 20th -> 18th and 19th",
        ),
    ],
    "scifact:1727493": [
        (
            PARA,
            "Advanced ovarian cancer usually spreads to the visceral adipose tissue of the omentum.",
            "When ovarian cancer is advanced, it typically spreads to the omentum's visceral adipose tissue.",
            "synonym pronoun reorder",
        ),
        (
            PARA,
            "However, the omental stromal cell-derived molecular determinants that modulate ovarian cancer growth have not been characterized.",
            "However, the molecular factors from omental stromal cells that modulate ovarian cancer growth remain uncharacterised.",
            "synonym",
        ),
        (
            PARA,
            "Here, using next-generation sequencing technology, we identify significantly higher levels of microRNA-21 (miR21) isomiRNAs in exosomes and tissue lysates isolated from cancer-associated adipocytes (CAAs) and fibroblasts (CAFs) than in those from ovarian cancer cells.",
            "Using next-generation sequencing, the authors found significantly higher levels of miR21 isomiRNAs in exosomes and tissue lysates from cancer-associated adipocytes and fibroblasts than in those from ovarian cancer cells.",
            "synonym drop",
        ),
        (
            PARA,
            "Functional studies reveal that miR21 is transferred from CAAs or CAFs to the cancer cells, where it suppresses ovarian cancer apoptosis and confers chemoresistance by binding to its direct novel target, APAF1.",
            "Functional studies show miR21 moves from CAAs or CAFs into the cancer cells.",
            "synonym drop voice",
        ),
        (
            PARA,
            "Functional studies reveal that miR21 is transferred from CAAs or CAFs to the cancer cells, where it suppresses ovarian cancer apoptosis and confers chemoresistance by binding to its direct novel target, APAF1.",
            "Once in the cancer cells, miR21 binds its direct novel target APAF1, which is how it suppresses ovarian cancer apoptosis and confers chemoresistance.",
            "reorder synonym drop",
        ),
        (
            PARA,
            "These data suggest that the malignant phenotype of metastatic ovarian cancer cells can be altered by miR21 delivered by exosomes derived from neighbouring stromal cells in the omental tumour microenvironment, and that inhibiting the transfer of stromal-derived miR21 is an alternative modality in the treatment of metastatic and recurrent ovarian cancer.",
            "The findings point to blocking the transfer of stromal-derived miR21 as an alternative way to treat metastatic and recurrent ovarian cancer.",
            "synonym nominal drop",
        ),
        (
            APPEND,
            "Here, using next-generation sequencing technology, we identify significantly higher levels of microRNA-21 (miR21) isomiRNAs in exosomes and tissue lysates isolated from cancer-associated adipocytes (CAAs) and fibroblasts (CAFs) than in those from ovarian cancer cells.",
            "Next-generation sequencing showed significantly higher miR21 isomiRNA levels in exosomes and tissue lysates from CAAs and CAFs than from ovarian cancer cells, a pattern also seen in breast cancer.",
            "a pattern also seen in breast cancer",
        ),
        (
            NEG,
            "However, the omental stromal cell-derived molecular determinants that modulate ovarian cancer growth have not been characterized.",
            "The molecular determinants from omental stromal cells that modulate ovarian cancer growth have already been well characterised.",
            "have already been well characterised",
        ),
        (
            QUANT,
            "These data suggest that the malignant phenotype of metastatic ovarian cancer cells can be altered by miR21 delivered by exosomes derived from neighbouring stromal cells in the omental tumour microenvironment, and that inhibiting the transfer of stromal-derived miR21 is an alternative modality in the treatment of metastatic and recurrent ovarian cancer.",
            "These data show that miR21 delivered in exosomes from neighbouring stromal cells always alters the malignant phenotype of metastatic ovarian cancer cells.",
            "can be altered -> always alters",
        ),
        (
            QUANT,
            "Advanced ovarian cancer usually spreads to the visceral adipose tissue of the omentum.",
            "Once ovarian cancer is advanced, it always spreads to the omentum's visceral adipose tissue.",
            "usually spreads -> always spreads",
        ),
        (
            ATTR,
            "Functional studies reveal that miR21 is transferred from CAAs or CAFs to the cancer cells, where it suppresses ovarian cancer apoptosis and confers chemoresistance by binding to its direct novel target, APAF1.",
            "Functional studies show that miR21 passes from CAAs or CAFs to the cancer cells, where it promotes apoptosis and confers chemoresistance by binding its direct novel target, APAF1.",
            "suppresses -> promotes",
        ),
        (
            ENT,
            "Functional studies reveal that miR21 is transferred from CAAs or CAFs to the cancer cells, where it suppresses ovarian cancer apoptosis and confers chemoresistance by binding to its direct novel target, APAF1.",
            "Once transferred from CAAs or CAFs into the cancer cells, miR21 suppresses apoptosis and confers chemoresistance by binding its direct target, PTEN.",
            "APAF1 -> PTEN",
        ),
    ],
    "squad2:0:31": [
        (
            PARA,
            "Norman architecture typically stands out as a new stage in the architectural history of the regions they subdued.",
            "In the regions the Normans conquered, their architecture usually marks a distinct new stage in architectural history.",
            "synonym reorder pronoun",
        ),
        (
            PARA,
            "They spread a unique Romanesque idiom to England and Italy, and the encastellation of these regions with keeps in their north French style fundamentally altered the military landscape.",
            "The Normans brought a distinctive Romanesque idiom to England and Italy.",
            "synonym pronoun drop",
        ),
        (
            PARA,
            "They spread a unique Romanesque idiom to England and Italy, and the encastellation of these regions with keeps in their north French style fundamentally altered the military landscape.",
            "By fortifying England and Italy with keeps built in their north French style, the Normans fundamentally changed the military landscape.",
            "nominal synonym drop",
        ),
        (
            PARA,
            "Their style was characterised by rounded arches, particularly over windows and doorways, and massive proportions.",
            "Rounded arches, especially above windows and doorways, together with massive proportions, were the hallmarks of their style.",
            "reorder synonym voice",
        ),
        (
            PARA,
            "They spread a unique Romanesque idiom to England and Italy, and the encastellation of these regions with keeps in their north French style fundamentally altered the military landscape. ... Their style was characterised by rounded arches, particularly over windows and doorways, and massive proportions.",
            "Norman building, with its rounded arches, particularly over windows and doorways, and its massive proportions, carried a unique Romanesque idiom to England and Italy.",
            "merge reorder synonym drop",
        ),
        (
            APPEND,
            "Their style was characterised by rounded arches, particularly over windows and doorways, and massive proportions.",
            "Their style featured rounded arches, above all over windows and doorways, and massive proportions, usually built in imported Caen stone.",
            "usually built in imported Caen stone",
        ),
        (
            NEG,
            "They spread a unique Romanesque idiom to England and Italy, and the encastellation of these regions with keeps in their north French style fundamentally altered the military landscape.",
            "They carried a unique Romanesque idiom to England and Italy, though fortifying those regions with north French-style keeps did not change the military landscape.",
            "did not change",
        ),
        (
            QUANT,
            "Norman architecture typically stands out as a new stage in the architectural history of the regions they subdued.",
            "Norman architecture invariably stands out as a new stage in the architectural history of the lands they conquered.",
            "typically -> invariably",
        ),
        (
            ATTR,
            "Their style was characterised by rounded arches, particularly over windows and doorways, and massive proportions.",
            "Their style was marked by pointed arches, especially over windows and doorways, and by massive proportions.",
            "rounded -> pointed",
        ),
        (
            ENT,
            "They spread a unique Romanesque idiom to England and Italy, and the encastellation of these regions with keeps in their north French style fundamentally altered the military landscape.",
            "The Normans spread a unique Romanesque idiom to England and Spain.",
            "Italy -> Spain",
        ),
        (
            ENT,
            "They spread a unique Romanesque idiom to England and Italy, and the encastellation of these regions with keeps in their north French style fundamentally altered the military landscape.",
            "Fortifying England and Italy with keeps in a Flemish style, the Normans fundamentally altered the military landscape there.",
            "north French -> Flemish",
        ),
    ],
    "squad2:14:41": [
        (
            PARA,
            "In September 1760, and before any hostilities erupted, Governor Vaudreuil negotiated from Montreal a capitulation with General Amherst.",
            "Before any fighting broke out, in September 1760, Governor Vaudreuil negotiated a capitulation with General Amherst from Montreal.",
            "synonym reorder",
        ),
        (
            PARA,
            "In September 1760, and before any hostilities erupted, Governor Vaudreuil negotiated from Montreal a capitulation with General Amherst.",
            "A capitulation was negotiated from Montreal by Governor Vaudreuil with General Amherst in September 1760, ahead of any hostilities.",
            "voice reorder synonym",
        ),
        (
            PARA,
            "Amherst granted Vaudreuil's request that any French residents who chose to remain in the colony would be given freedom to continue worshiping in their Roman Catholic tradition, continued ownership of their property, and the right to remain undisturbed in their homes.",
            "At Vaudreuil's request, Amherst agreed that French residents who stayed in the colony could keep practising their Roman Catholic faith.",
            "synonym reorder drop",
        ),
        (
            PARA,
            "Amherst granted Vaudreuil's request that any French residents who chose to remain in the colony would be given freedom to continue worshiping in their Roman Catholic tradition, continued ownership of their property, and the right to remain undisturbed in their homes.",
            "Amherst accepted Vaudreuil's request: French residents choosing to stay in the colony would keep their freedom of Roman Catholic worship, their property and the right to be left undisturbed in their homes.",
            "synonym nominal",
        ),
        (
            PARA,
            "The British provided medical treatment for the sick and wounded French soldiers and French regular troops were returned to France aboard British ships with an agreement that they were not to serve again in the present war.",
            "Sick and wounded French soldiers received medical treatment from the British.",
            "voice drop",
        ),
        (
            PARA,
            "The British provided medical treatment for the sick and wounded French soldiers and French regular troops were returned to France aboard British ships with an agreement that they were not to serve again in the present war.",
            "French regulars were sent back to France on British ships, on the condition that they would not fight again in the current war.",
            "synonym drop",
        ),
        (
            APPEND,
            "The British provided medical treatment for the sick and wounded French soldiers and French regular troops were returned to France aboard British ships with an agreement that they were not to serve again in the present war.",
            "French regular troops were shipped home to France aboard British vessels, landing at La Rochelle, on the understanding that they would not serve again in the present war.",
            "landing at La Rochelle",
        ),
        (
            NEG,
            "Amherst granted Vaudreuil's request that any French residents who chose to remain in the colony would be given freedom to continue worshiping in their Roman Catholic tradition, continued ownership of their property, and the right to remain undisturbed in their homes.",
            "Amherst turned down Vaudreuil's request that French residents staying in the colony be free to continue worshipping as Roman Catholics.",
            "granted -> turned down",
        ),
        (
            QUANT,
            "The British provided medical treatment for the sick and wounded French soldiers and French regular troops were returned to France aboard British ships with an agreement that they were not to serve again in the present war.",
            "The British gave medical treatment to some of the sick and wounded French soldiers, and sent French regulars back to France on British ships on condition they not serve again in the present war.",
            "some of the sick",
        ),
        (
            ATTR,
            "Amherst granted Vaudreuil's request that any French residents who chose to remain in the colony would be given freedom to continue worshiping in their Roman Catholic tradition, continued ownership of their property, and the right to remain undisturbed in their homes.",
            "Amherst granted Vaudreuil's request that French residents choosing to leave the colony would retain ownership of their property.",
            "remain -> leave",
        ),
        (
            ENT,
            "In September 1760, and before any hostilities erupted, Governor Vaudreuil negotiated from Montreal a capitulation with General Amherst.",
            "In September 1760, before any hostilities broke out, Governor Vaudreuil negotiated a capitulation with General Amherst from Quebec.",
            "Montreal -> Quebec",
        ),
        (
            NUM,
            "In September 1760, and before any hostilities erupted, Governor Vaudreuil negotiated from Montreal a capitulation with General Amherst.",
            "Governor Vaudreuil negotiated his capitulation to General Amherst from Montreal in September 1759, before any hostilities had begun.",
            "1760 -> 1759",
        ),
    ],
    "squad2:3:21": [
        (
            PARA,
            "A method to lessen the magnitude of this heating and cooling was invented in 1804 by British engineer Arthur Woolf, who patented his Woolf high-pressure compound engine in 1805.",
            "British engineer Arthur Woolf invented a way to reduce this heating and cooling in 1804, and in 1805 he patented the Woolf high-pressure compound engine.",
            "voice synonym",
        ),
        (
            PARA,
            "In the compound engine, high-pressure steam from the boiler expands in a high-pressure (HP) cylinder and then enters one or more subsequent lower-pressure (LP) cylinders.",
            "A compound engine lets the boiler's high-pressure steam expand first in a high-pressure cylinder, after which it passes into one or more lower-pressure cylinders.",
            "synonym reorder",
        ),
        (
            PARA,
            "The complete expansion of the steam now occurs across multiple cylinders and as less expansion now occurs in each cylinder less heat is lost by the steam in each.",
            "Because the steam's full expansion is now spread over several cylinders, each cylinder sees less expansion and so the steam loses less heat in each.",
            "synonym reorder voice",
        ),
        (
            PARA,
            "This reduces the magnitude of cylinder heating and cooling, increasing the efficiency of the engine.",
            "Cylinder heating and cooling are reduced as a result, which makes the engine more efficient.",
            "voice synonym",
        ),
        (
            PARA,
            "By staging the expansion in multiple cylinders, torque variability can be reduced.",
            "Torque variability can be reduced by staging the expansion over multiple cylinders.",
            "reorder",
        ),
        (
            PARA,
            "To derive equal work from lower-pressure steam requires a larger cylinder volume as this steam occupies a greater volume. ... Therefore, the bore, and often the stroke, are increased in low-pressure cylinders resulting in larger cylinders.",
            "Since lower-pressure steam takes up more volume, getting the same work out of it needs a bigger cylinder, so low-pressure cylinders have a larger bore and often a longer stroke.",
            "merge reorder synonym",
        ),
        (
            APPEND,
            "This reduces the magnitude of cylinder heating and cooling, increasing the efficiency of the engine.",
            "That cuts the magnitude of cylinder heating and cooling and raises the engine's efficiency, while also making the engine quieter.",
            "making the engine quieter",
        ),
        (
            NEG,
            "The complete expansion of the steam now occurs across multiple cylinders and as less expansion now occurs in each cylinder less heat is lost by the steam in each.",
            "As the full expansion now happens across several cylinders, each cylinder sees less expansion, yet the steam loses no less heat in each.",
            "loses no less heat",
        ),
        (
            QUANT,
            "Therefore, the bore, and often the stroke, are increased in low-pressure cylinders resulting in larger cylinders.",
            "So in low-pressure cylinders the bore, and always the stroke, are enlarged, giving larger cylinders.",
            "often -> always",
        ),
        (
            ATTR,
            "To derive equal work from lower-pressure steam requires a larger cylinder volume as this steam occupies a greater volume.",
            "Getting equal work from lower-pressure steam takes a smaller cylinder volume, because that steam occupies a greater volume.",
            "larger -> smaller",
        ),
        (
            ENT,
            "A method to lessen the magnitude of this heating and cooling was invented in 1804 by British engineer Arthur Woolf, who patented his Woolf high-pressure compound engine in 1805.",
            "A method to reduce this heating and cooling was devised in 1804 by the British engineer Richard Trevithick, who patented a high-pressure compound engine in 1805.",
            "Arthur Woolf -> Richard Trevithick",
        ),
        (
            NUM,
            "A method to lessen the magnitude of this heating and cooling was invented in 1804 by British engineer Arthur Woolf, who patented his Woolf high-pressure compound engine in 1805.",
            "Arthur Woolf, a British engineer, came up with a way to lessen this heating and cooling in 1804 and patented his high-pressure compound engine in 1812.",
            "1805 -> 1812",
        ),
        (
            NUM,
            "In the compound engine, high-pressure steam from the boiler expands in a high-pressure (HP) cylinder and then enters one or more subsequent lower-pressure (LP) cylinders.",
            "In a compound engine, steam at high pressure from the boiler expands in an HP cylinder and then passes into exactly two lower-pressure cylinders.",
            "one or more -> exactly two",
        ),
    ],
    "squad2:11:18": [
        (
            PARA,
            "The Islamic Republic has also maintained its hold on power in Iran in spite of US economic sanctions, and has created or assisted like-minded Shia terrorist groups in Iraq, Egypt, Syria, Jordan (SCIRI) and Lebanon (Hezbollah) (two Muslim countries that also have large Shiite populations).",
            "Despite US economic sanctions, the Islamic Republic has kept its grip on power in Iran.",
            "synonym reorder drop",
        ),
        (
            PARA,
            "The Islamic Republic has also maintained its hold on power in Iran in spite of US economic sanctions, and has created or assisted like-minded Shia terrorist groups in Iraq, Egypt, Syria, Jordan (SCIRI) and Lebanon (Hezbollah) (two Muslim countries that also have large Shiite populations).",
            "It has also set up or backed like-minded Shia terrorist groups across Iraq, Egypt, Syria, Jordan and Lebanon.",
            "synonym pronoun drop",
        ),
        (
            PARA,
            'During the 2006 Israel-Lebanon conflict, the Iranian government enjoyed something of a resurgence in popularity amongst the predominantly Sunni "Arab street," due to its support for Hezbollah and to President Mahmoud Ahmadinejad\'s vehement opposition to the United States and his call that Israel shall vanish.',
            "In the 2006 Israel-Lebanon conflict, Iran's government saw its popularity revive somewhat on the largely Sunni Arab street.",
            "synonym nominal drop",
        ),
        (
            PARA,
            'During the 2006 Israel-Lebanon conflict, the Iranian government enjoyed something of a resurgence in popularity amongst the predominantly Sunni "Arab street," due to its support for Hezbollah and to President Mahmoud Ahmadinejad\'s vehement opposition to the United States and his call that Israel shall vanish.',
            "Iran's backing of Hezbollah and President Mahmoud Ahmadinejad's fierce opposition to the US, along with his call for Israel to vanish, won the Iranian government a degree of renewed popularity among the mostly Sunni Arab street during the 2006 Israel-Lebanon conflict.",
            "reorder nominal synonym",
        ),
        (
            PARA,
            "The Islamic Republic has also maintained its hold on power in Iran in spite of US economic sanctions, and has created or assisted like-minded Shia terrorist groups in Iraq, Egypt, Syria, Jordan (SCIRI) and Lebanon (Hezbollah) (two Muslim countries that also have large Shiite populations).",
            "US economic sanctions have not stopped the Islamic Republic from holding on to power in Iran.",
            "reorder synonym drop",
        ),
        (
            APPEND,
            "The Islamic Republic has also maintained its hold on power in Iran in spite of US economic sanctions, and has created or assisted like-minded Shia terrorist groups in Iraq, Egypt, Syria, Jordan (SCIRI) and Lebanon (Hezbollah) (two Muslim countries that also have large Shiite populations).",
            "In spite of US economic sanctions the Islamic Republic has held on to power in Iran, helped by record oil revenues.",
            "helped by record oil revenues",
        ),
        (
            NEG,
            "The Islamic Republic has also maintained its hold on power in Iran in spite of US economic sanctions, and has created or assisted like-minded Shia terrorist groups in Iraq, Egypt, Syria, Jordan (SCIRI) and Lebanon (Hezbollah) (two Muslim countries that also have large Shiite populations).",
            "Under US economic sanctions, the Islamic Republic has not managed to keep its hold on power in Iran.",
            "has not managed",
        ),
        (
            QUANT,
            'During the 2006 Israel-Lebanon conflict, the Iranian government enjoyed something of a resurgence in popularity amongst the predominantly Sunni "Arab street," due to its support for Hezbollah and to President Mahmoud Ahmadinejad\'s vehement opposition to the United States and his call that Israel shall vanish.',
            "During the 2006 Israel-Lebanon war, the Iranian government regained some popularity on the entirely Sunni Arab street because of its support for Hezbollah.",
            "predominantly -> entirely",
        ),
        (
            ATTR,
            'During the 2006 Israel-Lebanon conflict, the Iranian government enjoyed something of a resurgence in popularity amongst the predominantly Sunni "Arab street," due to its support for Hezbollah and to President Mahmoud Ahmadinejad\'s vehement opposition to the United States and his call that Israel shall vanish.',
            "The Iranian government's support for Hezbollah and President Mahmoud Ahmadinejad's cautious opposition to the United States brought it something of a popularity revival among the mostly Sunni Arab street in the 2006 Israel-Lebanon conflict.",
            "vehement -> cautious",
        ),
        (
            ENT,
            'During the 2006 Israel-Lebanon conflict, the Iranian government enjoyed something of a resurgence in popularity amongst the predominantly Sunni "Arab street," due to its support for Hezbollah and to President Mahmoud Ahmadinejad\'s vehement opposition to the United States and his call that Israel shall vanish.',
            "In the 2006 Israel-Lebanon conflict, Iran's government became somewhat more popular on the mostly Sunni Arab street, thanks to its support for Hezbollah and President Mohammad Khatami's vehement opposition to the United States.",
            "Mahmoud Ahmadinejad -> Mohammad Khatami",
        ),
        (
            NUM,
            'During the 2006 Israel-Lebanon conflict, the Iranian government enjoyed something of a resurgence in popularity amongst the predominantly Sunni "Arab street," due to its support for Hezbollah and to President Mahmoud Ahmadinejad\'s vehement opposition to the United States and his call that Israel shall vanish.',
            "In the 2008 Israel-Lebanon conflict, the Iranian government's support for Hezbollah won it something of a comeback in popularity on the predominantly Sunni Arab street.",
            "2006 -> 2008",
        ),
    ],
    "scifact:4417177": [
        (
            PARA,
            "As is the case for embryo-derived stem cells, application of reprogrammed human induced pluripotent stem cells is limited by our understanding of lineage specification.",
            "Just as with embryo-derived stem cells, how far reprogrammed human induced pluripotent stem cells can be applied is limited by how well we understand lineage specification.",
            "synonym nominal",
        ),
        (
            PARA,
            "Here we demonstrate the ability to generate progenitors and mature cells of the haematopoietic fate directly from human dermal fibroblasts without establishing pluripotency.",
            "The study shows that haematopoietic progenitors and mature haematopoietic cells can be made directly from human dermal fibroblasts, without establishing pluripotency.",
            "synonym voice",
        ),
        (
            PARA,
            "Ectopic expression of OCT4 (also called POU5F1)-activated haematopoietic transcription factors, together with specific cytokine treatment, allowed generation of cells expressing the pan-leukocyte marker CD45.",
            "Ectopically expressing OCT4 (POU5F1), which activated haematopoietic transcription factors, combined with specific cytokine treatment, made it possible to generate cells expressing the pan-leukocyte marker CD45.",
            "nominal synonym",
        ),
        (
            PARA,
            "These unique fibroblast-derived cells gave rise to granulocytic, monocytic, megakaryocytic and erythroid lineages, and demonstrated in vivo engraftment capacity.",
            "The fibroblast-derived cells produced granulocytic, monocytic, megakaryocytic and erythroid lineages and were able to engraft in vivo.",
            "synonym nominal drop",
        ),
        (
            PARA,
            "We note that adult haematopoietic programs are activated, consistent with bypassing the pluripotent state to generate blood fate: this is distinct from haematopoiesis involving pluripotent stem cells, where embryonic programs are activated.",
            "Adult haematopoietic programs are switched on, which fits with blood fate being reached by bypassing the pluripotent state.",
            "synonym drop voice",
        ),
        (
            PARA,
            "These findings demonstrate restoration of multipotency from human fibroblasts, and suggest an alternative approach to cellular reprogramming for autologous cell-replacement therapies that avoids complications associated with the use of human pluripotent stem cells.",
            "The results show that multipotency can be restored from human fibroblasts.",
            "nominal synonym drop",
        ),
        (
            APPEND,
            "These unique fibroblast-derived cells gave rise to granulocytic, monocytic, megakaryocytic and erythroid lineages, and demonstrated in vivo engraftment capacity.",
            "These fibroblast-derived cells gave rise to granulocytic, monocytic, megakaryocytic and erythroid lineages and engrafted in vivo, surviving in mice for six months.",
            "surviving in mice for six months",
        ),
        (
            NEG,
            "We note that adult haematopoietic programs are activated, consistent with bypassing the pluripotent state to generate blood fate: this is distinct from haematopoiesis involving pluripotent stem cells, where embryonic programs are activated.",
            "The authors note that adult haematopoietic programs are not activated, so the cells reach blood fate without passing through the pluripotent state.",
            "are not activated",
        ),
        (
            QUANT,
            "These unique fibroblast-derived cells gave rise to granulocytic, monocytic, megakaryocytic and erythroid lineages, and demonstrated in vivo engraftment capacity.",
            "These fibroblast-derived cells gave rise to every blood lineage and showed in vivo engraftment capacity.",
            "every blood lineage",
        ),
        (
            ATTR,
            "We note that adult haematopoietic programs are activated, consistent with bypassing the pluripotent state to generate blood fate: this is distinct from haematopoiesis involving pluripotent stem cells, where embryonic programs are activated.",
            "The authors observe that embryonic haematopoietic programs are activated, in line with bypassing the pluripotent state to produce blood fate.",
            "adult -> embryonic",
        ),
        (
            ENT,
            "Here we demonstrate the ability to generate progenitors and mature cells of the haematopoietic fate directly from human dermal fibroblasts without establishing pluripotency.",
            "The authors show that progenitors and mature haematopoietic cells can be produced directly from human keratinocytes without establishing pluripotency.",
            "dermal fibroblasts -> keratinocytes",
        ),
        (
            NUM,
            "These unique fibroblast-derived cells gave rise to granulocytic, monocytic, megakaryocytic and erythroid lineages, and demonstrated in vivo engraftment capacity.",
            "These fibroblast-derived cells produced five blood lineages, among them granulocytic, monocytic, megakaryocytic and erythroid cells, and could engraft in vivo.",
            "five",
        ),
    ],
    "squad2:15:16": [
        (
            PARA,
            "Dynamic equilibrium was first described by Galileo who noticed that certain assumptions of Aristotelian physics were contradicted by observations and logic.",
            "Galileo was the first to describe dynamic equilibrium, having noticed that observation and logic contradicted some assumptions of Aristotelian physics.",
            "voice synonym",
        ),
        (
            PARA,
            "Galileo concluded that motion in a constant velocity was completely equivalent to rest.",
            "Galileo's conclusion was that motion at a constant velocity is no different from rest.",
            "nominal synonym",
        ),
        (
            PARA,
            'This was contrary to Aristotle\'s notion of a "natural state" of rest that objects with mass naturally approached.',
            "That went against Aristotle's idea of a natural state of rest toward which objects with mass naturally tend.",
            "synonym pronoun",
        ),
        (
            PARA,
            "For example, if a mariner dropped a cannonball from the crow's nest of a ship moving at a constant velocity, Aristotelian physics would have the cannonball fall straight down while the ship moved beneath it. ... Thus, in an Aristotelian universe, the falling cannonball would land behind the foot of the mast of a moving ship.",
            "According to Aristotelian physics, a cannonball dropped from the crow's nest of a ship moving at constant velocity would fall straight down as the ship moved under it, landing behind the foot of the mast.",
            "merge reorder drop",
        ),
        (
            PARA,
            "However, when this experiment is actually conducted, the cannonball always falls at the foot of the mast, as if the cannonball knows to travel with the ship despite being separated from it.",
            "In real trials, though, the cannonball always lands at the foot of the mast, as though it knew to travel with the ship even though it is separated from it.",
            "synonym pronoun",
        ),
        (
            PARA,
            "Since there is no forward horizontal force being applied on the cannonball as it falls, the only conclusion left is that the cannonball continues to move with the same velocity as the boat as it falls. ... Thus, no force is required to keep the cannonball moving at the constant forward velocity.",
            "With no forward horizontal force acting on the falling cannonball, it must keep moving at the boat's velocity, so no force is needed to keep it going at that constant forward velocity.",
            "merge synonym pronoun",
        ),
        (
            PARA,
            "Simple experiments showed that Galileo's understanding of the equivalence of constant velocity and rest were correct.",
            "Galileo's view that constant velocity and rest are equivalent was borne out by simple experiments.",
            "voice synonym nominal",
        ),
        (
            APPEND,
            'Galileo realized that simple velocity addition demands that the concept of an "absolute rest frame" did not exist.',
            "Galileo realised that simple velocity addition requires that there be no absolute rest frame, an idea Newton later built on.",
            "an idea Newton later built on",
        ),
        (
            NEG,
            "However, when this experiment is actually conducted, the cannonball always falls at the foot of the mast, as if the cannonball knows to travel with the ship despite being separated from it.",
            "When the experiment is actually done, the cannonball does not land at the foot of the mast.",
            "does not land at the foot of the mast",
        ),
        (
            QUANT,
            "Dynamic equilibrium was first described by Galileo who noticed that certain assumptions of Aristotelian physics were contradicted by observations and logic.",
            "Galileo first described dynamic equilibrium after noticing that observations and logic contradicted all the assumptions of Aristotelian physics.",
            "certain -> all the",
        ),
        (
            ATTR,
            "Thus, in an Aristotelian universe, the falling cannonball would land behind the foot of the mast of a moving ship.",
            "So in an Aristotelian universe the falling cannonball would land in front of the foot of a moving ship's mast.",
            "behind -> in front of",
        ),
        (
            ENT,
            "Dynamic equilibrium was first described by Galileo who noticed that certain assumptions of Aristotelian physics were contradicted by observations and logic.",
            "Dynamic equilibrium was first described by Kepler, who saw that observations and logic contradicted certain assumptions of Aristotelian physics.",
            "Galileo -> Kepler",
        ),
    ],
    "squad2:6:11": [
        (
            PARA,
            "DECnet is a suite of network protocols created by Digital Equipment Corporation, originally released in 1975 in order to connect two PDP-11 minicomputers.",
            "Digital Equipment Corporation created DECnet, a suite of network protocols first released in 1975 to link two PDP-11 minicomputers.",
            "voice synonym",
        ),
        (
            PARA,
            "It evolved into one of the first peer-to-peer network architectures, thus transforming DEC into a networking powerhouse in the 1980s.",
            "DECnet grew into one of the earliest peer-to-peer network architectures, which turned DEC into a networking powerhouse during the 1980s.",
            "synonym pronoun",
        ),
        (
            PARA,
            "Initially built with three layers, it later (1982) evolved into a seven-layer OSI-compliant networking protocol.",
            "It started out with three layers and, in 1982, became a seven-layer networking protocol compliant with OSI.",
            "synonym reorder",
        ),
        (
            PARA,
            "The DECnet protocols were designed entirely by Digital Equipment Corporation.",
            "Digital Equipment Corporation designed the DECnet protocols entirely by itself.",
            "voice",
        ),
        (
            PARA,
            "However, DECnet Phase II (and later) were open standards with published specifications, and several implementations were developed outside DEC, including one for Linux.",
            "From Phase II on, though, DECnet was an open standard with published specifications, and a number of implementations, one of them for Linux, were built outside DEC.",
            "synonym reorder",
        ),
        (
            PARA,
            "The DECnet protocols were designed entirely by Digital Equipment Corporation. ... However, DECnet Phase II (and later) were open standards with published specifications, and several implementations were developed outside DEC, including one for Linux.",
            "Although DEC alone designed the DECnet protocols, Phase II and later versions were open standards with published specifications.",
            "merge voice synonym drop",
        ),
        (
            APPEND,
            "However, DECnet Phase II (and later) were open standards with published specifications, and several implementations were developed outside DEC, including one for Linux.",
            "DECnet Phase II and later were open standards with published specifications, and several implementations were written outside DEC, including one for Linux that is still maintained today.",
            "still maintained today",
        ),
        (
            NEG,
            "The DECnet protocols were designed entirely by Digital Equipment Corporation.",
            "DEC did not design the DECnet protocols on its own.",
            "did not design",
        ),
        (
            QUANT,
            "However, DECnet Phase II (and later) were open standards with published specifications, and several implementations were developed outside DEC, including one for Linux.",
            "Phase II and later versions were open standards with published specifications, yet only one implementation, for Linux, was ever built outside DEC.",
            "several -> only one",
        ),
        (
            ATTR,
            "It evolved into one of the first peer-to-peer network architectures, thus transforming DEC into a networking powerhouse in the 1980s.",
            "It developed into one of the first client-server network architectures, making DEC a networking powerhouse in the 1980s.",
            "peer-to-peer -> client-server",
        ),
        (
            ENT,
            "DECnet is a suite of network protocols created by Digital Equipment Corporation, originally released in 1975 in order to connect two PDP-11 minicomputers.",
            "Digital Equipment Corporation's DECnet protocol suite first came out in 1975 as a way to connect two VAX minicomputers.",
            "PDP-11 -> VAX",
        ),
        (
            NUM,
            "Initially built with three layers, it later (1982) evolved into a seven-layer OSI-compliant networking protocol.",
            "DECnet began with three layers and in 1982 grew into a five-layer OSI-compliant networking protocol.",
            "seven-layer -> five-layer",
        ),
        (
            NUM,
            "DECnet is a suite of network protocols created by Digital Equipment Corporation, originally released in 1975 in order to connect two PDP-11 minicomputers.",
            "DECnet, a set of network protocols from Digital Equipment Corporation, first came out in 1977 to connect two PDP-11 minicomputers.",
            "1975 -> 1977",
        ),
    ],
    "statute:art-25": [
        (
            PARA,
            "The master of a vessel involved in or witnessing a discharge of oil or another harmful substance in coastal waters shall report it to the Authority without delay and in any case within 2 hours.",
            "If a vessel is involved in or witnesses a discharge of oil or another harmful substance in coastal waters, its master must report it to the Authority immediately, and within 2 hours at the latest.",
            "synonym reorder pronoun",
        ),
        (
            PARA,
            "The operator of a port, an installation or a land-based outfall shall report any discharge in breach of this Act or of a discharge permit within the same period.",
            "Operators of ports, installations and land-based outfalls must report, within the same period, any discharge that breaches this Act or a discharge permit.",
            "synonym reorder",
        ),
        (
            PARA,
            "A report shall state the time and position of the discharge, the substance and the estimated quantity, and the measures taken.",
            "Each report has to give the time and position of the discharge, the substance involved and its estimated quantity, and what measures were taken.",
            "synonym",
        ),
        (
            PARA,
            "A person who reports a discharge under this Article in good faith shall not be penalised for making the report.",
            "Nobody who reports a discharge under this Article in good faith may be penalised for doing so.",
            "synonym",
        ),
        (
            PARA,
            "A person who reports a discharge under this Article in good faith shall not be penalised for making the report.",
            "Making a good-faith report of a discharge under this Article cannot lead to a penalty for the person who reports it.",
            "nominal voice",
        ),
        (
            APPEND,
            "A report shall state the time and position of the discharge, the substance and the estimated quantity, and the measures taken.",
            "A report must give the time and position of the discharge, the substance, its estimated quantity and the measures taken, and must be submitted in writing.",
            "must be submitted in writing",
        ),
        (
            NEG,
            "A person who reports a discharge under this Article in good faith shall not be penalised for making the report.",
            "Someone who reports a discharge under this Article in good faith can still be penalised for the report.",
            "can still be penalised",
        ),
        (
            QUANT,
            "The master of a vessel involved in or witnessing a discharge of oil or another harmful substance in coastal waters shall report it to the Authority without delay and in any case within 2 hours.",
            "A vessel's master who is involved in or sees a discharge of oil or another harmful substance in coastal waters may report it to the Authority within 2 hours.",
            "shall report -> may report",
        ),
        (
            ATTR,
            "A report shall state the time and position of the discharge, the substance and the estimated quantity, and the measures taken.",
            "Reports must state when and where the discharge happened, which substance it was and the measured quantity, along with the measures taken.",
            "estimated -> measured",
        ),
        (
            ENT,
            "The master of a vessel involved in or witnessing a discharge of oil or another harmful substance in coastal waters shall report it to the Authority without delay and in any case within 2 hours.",
            "A vessel's master who is involved in or witnesses a discharge of oil or another harmful substance in coastal waters must report it to the coastguard without delay, within 2 hours at most.",
            "the Authority -> the coastguard",
        ),
        (
            NUM,
            "The master of a vessel involved in or witnessing a discharge of oil or another harmful substance in coastal waters shall report it to the Authority without delay and in any case within 2 hours.",
            "Any master whose vessel is involved in or witnesses an oil or harmful-substance discharge in coastal waters has to tell the Authority without delay, and in any case within 24 hours.",
            "2 hours -> 24 hours",
        ),
    ],
}


def drawn_passages() -> list[str]:
    """This set's passages in draw order: none of the claim cases' (``draw_passages`` skips them), of the earlier
    paraphrase set's, of the first fresh set's or of the second fresh set's."""
    return draw_passages(
        N_PASSAGES,
        DRAW_SEED,
        exclude=frozenset(EARLIER_CASES) | frozenset(FRESH_CASES) | frozenset(FRESH2_CASES),
    )


DESCRIPTION = ("A third fresh report set of faithful paraphrases and reworded unsupported answers (6 error "
               "types), written 2026-12-04 over passages no earlier claim set uses; report cases only. Passages are not "
               "stored: load them with load_claim_paraphrases_fresh3() in benchmarks/roles/make_claim_paraphrases_fresh3.py. "
               "Written blind (no grader run before freezing).")


def build() -> dict[str, Any]:
    """The whole set as written to ``claim_paraphrases_fresh3.json`` (validated; every case a report case)."""
    return report_set(CASES, "cpf3", drawn_passages(), MINIMUM, UNSUPPORTED_MINIMUM, name="claim_paraphrases_fresh3",
                      description=DESCRIPTION,
                      built_by="benchmarks/roles/make_claim_paraphrases_fresh3.py", seed=DRAW_SEED)


def claim_paraphrases_fresh3_sha256() -> str:
    """The sha256 of the frozen set, after checking it against data/eval/MANIFEST.json."""
    return check_frozen(OUT_PATH)


def load_claim_paraphrases_fresh3(split: str | None = None) -> list[dict[str, Any]]:
    """The frozen cases (hash checked), each with ``document``: its passage; a report set, so ``split="tune"`` is refused."""
    return load_report_cases(OUT_PATH, split)


def main(argv: list[str] | None = None) -> int:
    return report_set_main(__doc__, build, drawn_passages, OUT_PATH, argv)


if __name__ == "__main__":
    sys.exit(main())
