"""Write data/eval/claim_paraphrases_fresh.json: a fresh report set of faithful paraphrases and reworded
unsupported answers, written after the alignment grader's report runs and frozen before any change to it.

Issue 22 asks for the claim grader's paraphrase figures "on a freshly written, frozen report set": the report
half of ``claim_paraphrases.json`` has been read by its author and run once per setting, so it no longer
measures what the next change does. This set is written the same way (same types, same rows, same checks:
``make_claim_paraphrases.validate``) over passages that neither earlier set uses, drawn by seed
(``draw_passages(N_PASSAGES, DRAW_SEED, exclude=...)``: SQuAD 2.0 dev, SciFact, the bundled corpora). Every
case is a report case: nothing is tuned on it, its per-case errors are never shown or written
(``claim_grader.py --set fresh --split report``), and a change of the grader is reported on it once.

Written blind on 2026-12-03: no grader of any kind was run on these answers before the file was frozen. The
same limits as the earlier set (one author, who knows how graders fail; one short passage per case) apply,
and the set is smaller (10 passages, 92 cases), so its figures carry a standard error of about 0.06.

Run from the project folder: ``.venv/bin/python benchmarks/roles/make_claim_paraphrases_fresh.py`` (writes the
file, refused once frozen with other content; ``--check`` compares a rebuild with the file on disk).
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

from ragkit.goldsets import check_frozen  # noqa: E402

OUT_PATH = ROOT / "data" / "eval" / "claim_paraphrases_fresh.json"
N_PASSAGES, DRAW_SEED = 10, 31
MINIMUM = {PARA: 35, APPEND: 7, NEG: 7, QUANT: 7, ATTR: 7, ENT: 7, NUM: 7}
UNSUPPORTED_MINIMUM = 50

# Written answers, keyed by passage in draw order (rows as in make_claim_paraphrases.CASES).
CASES: dict[str, list[tuple[str, str, str, str]]] = {
    "squad2:2:28": [
        (PARA, "In 1700 several hundred French Huguenots migrated from England to the colony of Virginia, where the English Crown had promised them land grants in Lower Norfolk County.",
         "Several hundred French Huguenots moved from England to colonial Virginia in 1700, having been promised land grants in Lower Norfolk County by the English Crown.",
         "synonym reorder voice"),
        (PARA, "When they arrived, colonial authorities offered them instead land 20 miles above the falls of the James River, at the abandoned Monacan village known as Manakin Town, now in Powhatan County.",
         "On their arrival, colonial authorities instead offered them land 20 miles above the falls of the James River, at Manakin Town, an abandoned Monacan village now in Powhatan County.",
         "nominal reorder"),
        (PARA, "On 12 May 1705, the Virginia General Assembly passed an act to naturalise the 148 Huguenots still resident at Manakintown.",
         "An act passed by the Virginia General Assembly on 12 May 1705 naturalised the 148 Huguenots who still lived at Manakintown.",
         "voice synonym"),
        (PARA, "Gradually they intermarried with their English neighbors.",
         "Over time, the Huguenots married into the families of their English neighbours.",
         "synonym"),
        (NUM, "On 12 May 1705, the Virginia General Assembly passed an act to naturalise the 148 Huguenots still resident at Manakintown.",
         "In May 1705 the Virginia General Assembly naturalised the 184 Huguenots still living at Manakintown.",
         "148 -> 184"),
        (ENT, "In the Manakintown area, the Huguenot Memorial Bridge across the James River and Huguenot Road were named in their honor",
         "In the Manakintown area, the Huguenot Memorial Bridge across the Potomac River was named in their honour.",
         "James River -> Potomac River"),
        (NEG, "Gradually they intermarried with their English neighbors.",
         "The Huguenots never intermarried with their English neighbours.",
         "Gradually -> never"),
        (QUANT, "Of the original 390 settlers in the isolated settlement, many had died",
         "Of the 390 original settlers in the isolated settlement, only a few had died.",
         "many -> only a few"),
        (APPEND, "Through the 18th and 19th centuries, descendants of the French migrated west into the Piedmont, and across the Appalachian Mountains",
         "Descendants of the French settlers later moved west into the Piedmont and across the Appalachians, where they founded the city of Lexington.",
         "where they founded the city of Lexington"),
        (ATTR, "at the abandoned Monacan village known as Manakin Town",
         "Colonial authorities offered them land at Manakin Town, a thriving Monacan village 20 miles above the falls of the James River.",
         "abandoned -> thriving"),
    ],
    "menu:menu-19": [
        (PARA, "Green salad (side, 5.50 EUR). Garden leaves with a mustard and white wine vinegar dressing.",
         "The green salad is a side dish of garden leaves dressed with mustard and white wine vinegar, and it costs 5.50 EUR.",
         "merge synonym reorder"),
        (PARA, "Dietary: vegan, vegetarian, gluten-free, dairy-free.",
         "The green salad is suitable for vegans and vegetarians and contains neither gluten nor dairy.",
         "synonym nominal"),
        (PARA, "Allergens: mustard, sulphites.",
         "Its allergens are mustard and sulphites.",
         "pronoun synonym"),
        (NUM, "Green salad (side, 5.50 EUR).",
         "The green salad is a side that costs 6.50 EUR.",
         "5.50 -> 6.50"),
        (ATTR, "Garden leaves with a mustard and white wine vinegar dressing.",
         "The green salad's dressing is made with mustard and red wine vinegar.",
         "white -> red"),
        (NEG, "Dietary: vegan, vegetarian, gluten-free, dairy-free.",
         "The green salad is not vegan.",
         "vegan -> not vegan"),
        (APPEND, "Garden leaves with a mustard and white wine vinegar dressing.",
         "The green salad, garden leaves with a mustard and white wine vinegar dressing, is topped with toasted walnuts.",
         "topped with toasted walnuts"),
        (ENT, "Ingredients: mixed leaves, Dijon mustard, white wine vinegar, olive oil.",
         "The green salad is dressed with Dijon mustard, white wine vinegar and sunflower oil.",
         "olive oil -> sunflower oil"),
    ],
    "menu:menu-18": [
        (PARA, "Thick chips cooked twice in sunflower oil in a fryer used only for potatoes, with rosemary salt.",
         "The thick chips are fried twice in sunflower oil, in a fryer kept just for potatoes, and come with rosemary salt.",
         "synonym voice"),
        (PARA, "Hand-cut chips (side, 5.00 EUR).",
         "A side of hand-cut chips costs 5.00 EUR.",
         "reorder synonym"),
        (PARA, "Allergens: none listed.",
         "No allergens are listed for the hand-cut chips.",
         "reorder voice"),
        (PARA, "Dietary: vegan, vegetarian, gluten-free, dairy-free.",
         "The chips are vegan and vegetarian and free of gluten and dairy.",
         "synonym"),
        (NUM, "Thick chips cooked twice in sunflower oil",
         "The hand-cut chips are cooked three times in sunflower oil.",
         "twice -> three times"),
        (QUANT, "in a fryer used only for potatoes",
         "The chips are cooked in a fryer that is sometimes used for fish as well as potatoes.",
         "only -> sometimes"),
        (ENT, "with rosemary salt.",
         "The chips are seasoned with thyme salt.",
         "rosemary -> thyme"),
        (APPEND, "Hand-cut chips (side, 5.00 EUR).",
         "The hand-cut chips are a 5.00 EUR side and are served with garlic mayonnaise.",
         "served with garlic mayonnaise"),
        (NEG, "Dietary: vegan, vegetarian, gluten-free, dairy-free.",
         "The hand-cut chips are not gluten-free.",
         "gluten-free -> not gluten-free"),
    ],
    "handbook:HB-22": [
        (PARA, "Pseudo-relevance feedback (PRF) improves a query using the results of a first search, assuming that the top few documents are relevant even though nobody has checked.",
         "PRF uses the results of an initial search to improve a query, on the unchecked assumption that the first few documents are relevant.",
         "synonym nominal reorder"),
        (PARA, "It keeps the top terms, typically 10, and then interpolates with the original query, commonly giving the original terms weight 0.5, so that the expanded query still reflects what the user asked.",
         "RM3 keeps the top terms, usually 10, and mixes them with the original query, often with weight 0.5 on the original terms, so the expanded query still reflects the user's question.",
         "synonym pronoun nominal"),
        (PARA, "PRF usually raises recall on BM25, for example adding \"salmon\" and \"pen\" to a query about \"fish farms\".",
         "On BM25, pseudo-relevance feedback usually improves recall; a query about fish farms, for instance, gains the terms salmon and pen.",
         "reorder synonym voice"),
        (PARA, "Its failure mode is query drift: if the first results are off-topic, the expansion pulls the second search further off-topic.",
         "PRF fails through query drift: off-topic first results make the expansion drag the second search even further off-topic.",
         "nominal synonym"),
        (NUM, "The Anserini toolkit's defaults (10 feedback documents, 10 feedback terms, original weight 0.5) are a sensible start.",
         "The Anserini toolkit's defaults are 20 feedback documents, 10 feedback terms and an original weight of 0.5.",
         "10 feedback documents -> 20 feedback documents"),
        (QUANT, "PRF usually raises recall on BM25",
         "PRF always raises recall on BM25.",
         "usually -> always"),
        (NEG, "assuming that the top few documents are relevant even though nobody has checked.",
         "PRF assumes the top documents are relevant only after someone has checked them.",
         "even though nobody has checked -> only after someone has checked them"),
        (ATTR, "It therefore helps most when first-stage precision is already reasonable",
         "PRF helps most when first-stage precision is poor.",
         "already reasonable -> poor"),
        (APPEND, "It builds a relevance model: a probability distribution over terms, estimated from the feedback documents and weighted by each document's retrieval score.",
         "RM3 builds a relevance model from the feedback documents, weighted by each document's retrieval score, and was introduced in 2004.",
         "was introduced in 2004"),
        (ENT, "The Anserini toolkit's defaults (10 feedback documents, 10 feedback terms, original weight 0.5) are a sensible start.",
         "The Lucene toolkit's defaults (10 feedback documents, 10 feedback terms, original weight 0.5) are a sensible place to start.",
         "Anserini -> Lucene"),
    ],
    "squad2:3:11": [
        (PARA, "The heat required for boiling the water and supplying the steam can be derived from various sources, most commonly from burning combustible materials with an appropriate supply of air in a closed space (called variously combustion chamber, firebox).",
         "The heat that boils the water and supplies the steam can come from various sources, most often from burning combustible materials with a suitable air supply in a closed space such as a firebox.",
         "synonym drop"),
        (PARA, "In some cases the heat source is a nuclear reactor, geothermal energy, solar energy or waste heat from an internal combustion engine or industrial process.",
         "Sometimes a nuclear reactor, geothermal or solar energy, or waste heat from an internal combustion engine or an industrial process supplies the heat.",
         "voice synonym reorder"),
        (PARA, "In the case of model or toy steam engines, the heat source can be an electric heating element.",
         "Model and toy steam engines can be heated by an electric heating element.",
         "voice nominal"),
        (QUANT, "most commonly from burning combustible materials with an appropriate supply of air in a closed space",
         "The heat always comes from burning combustible materials in a closed space.",
         "most commonly -> always"),
        (ENT, "In the case of model or toy steam engines, the heat source can be an electric heating element.",
         "In model or toy steam engines, the heat source can be a gas burner.",
         "electric heating element -> gas burner"),
        (APPEND, "In some cases the heat source is a nuclear reactor, geothermal energy, solar energy or waste heat from an internal combustion engine or industrial process.",
         "In some cases the heat comes from a nuclear reactor or from solar energy, which is the most efficient option.",
         "which is the most efficient option"),
        (NEG, "In some cases the heat source is a nuclear reactor, geothermal energy, solar energy or waste heat from an internal combustion engine or industrial process.",
         "Steam engines cannot use waste heat from an industrial process as a heat source.",
         "In some cases -> cannot"),
    ],
    "squad2:0:33": [
        (PARA, "In the visual arts, the Normans did not have the rich and distinctive traditions of the cultures they conquered.",
         "The Normans lacked the rich, distinctive visual-arts traditions of the cultures they conquered.",
         "synonym nominal"),
        (PARA, "The church was utilised by the dukes as a unifying force for their disparate duchy.",
         "The dukes used the church to unify their disparate duchy.",
         "voice nominal synonym"),
        (PARA, "These centres were in contact with the so-called \"Winchester school\", which channeled a pure Carolingian artistic tradition to Normandy.",
         "The centres were in touch with the \"Winchester school\", through which a pure Carolingian artistic tradition reached Normandy.",
         "synonym voice"),
        (PARA, "In the final decade of the 11th and first of the 12th century, Normandy experienced a golden age of illustrated manuscripts, but it was brief and the major scriptoria of Normandy ceased to function after the midpoint of the century.",
         "Normandy had a brief golden age of illustrated manuscripts around the turn of the 12th century, and its major scriptoria stopped working after the middle of that century.",
         "synonym drop"),
        (NEG, "In the visual arts, the Normans did not have the rich and distinctive traditions of the cultures they conquered.",
         "In the visual arts, the Normans had rich and distinctive traditions of their own.",
         "did not have -> had"),
        (ENT, "encouraging the Cluniac reform of monasteries",
         "The dukes encouraged the Cistercian reform of monasteries in the early 11th century.",
         "Cluniac -> Cistercian"),
        (NUM, "However, in the early 11th century the dukes began a programme of church reform",
         "In the early 13th century the dukes began a programme of church reform.",
         "11th century -> 13th century"),
        (ATTR, "Normandy experienced a golden age of illustrated manuscripts, but it was brief",
         "Normandy's golden age of illustrated manuscripts was long, lasting well beyond the midpoint of the century.",
         "brief -> long"),
        (APPEND, "The chief monasteries taking part in this \"renaissance\" of Norman art and scholarship were Mont-Saint-Michel, Fécamp, Jumièges, Bec, Saint-Ouen, Saint-Evroul, and Saint-Wandrille.",
         "Mont-Saint-Michel, Fécamp and Jumièges took part in the renaissance of Norman art, which was funded by the English king.",
         "funded by the English king"),
    ],
    "squad2:11:29": [
        (PARA, "Founded as a broad Islamist coalition in 1989 it was led by Abbassi Madani, and a charismatic Islamist young preacher, Ali Belhadj.",
         "The FIS, founded in 1989 as a broad Islamist coalition, was led by Abbassi Madani and by Ali Belhadj, a young and charismatic Islamist preacher.",
         "reorder pronoun"),
        (PARA, "The FIS won sweeping victories in local elections and it was going to win national elections in 1991 when voting was canceled by a military coup d'état.",
         "After sweeping wins in local elections, the FIS was on course to win the 1991 national elections when a military coup cancelled the vote.",
         "nominal synonym"),
        (PARA, "it used its preaching to advocate the establishment of a legal system following Sharia law, economic liberalization and development program, education in Arabic rather than French, and gender segregation",
         "Through its preaching the FIS called for a Sharia-based legal system, economic liberalisation and development, education in Arabic instead of French, and gender segregation.",
         "synonym nominal drop"),
        (NUM, "Founded as a broad Islamist coalition in 1989 it was led by Abbassi Madani",
         "Founded in 1987 as a broad Islamist coalition, the FIS was led by Abbassi Madani and Ali Belhadj.",
         "1989 -> 1987"),
        (ENT, "education in Arabic rather than French",
         "The FIS advocated education in French rather than Arabic.",
         "Arabic rather than French -> French rather than Arabic"),
        (NEG, "The FIS won sweeping victories in local elections",
         "The FIS did not win local elections.",
         "won sweeping victories -> did not win"),
        (ATTR, "Taking advantage of economic failure and unpopular social liberalization and secularization by the ruling leftist-nationalist FLN government",
         "The FIS took advantage of the FLN government's economic success and its unpopular social liberalization.",
         "failure -> success"),
        (APPEND, "An Islamist movement influenced by Salafism and the jihad in Afghanistan, as well as the Muslim Brotherhood, was the FIS or Front Islamique de Salut (the Islamic Salvation Front) in Algeria.",
         "The FIS was influenced by Salafism and by the Muslim Brotherhood, and it was banned by the courts in 1992.",
         "banned by the courts in 1992"),
        (QUANT, "The FIS won sweeping victories in local elections",
         "The FIS won every local election it contested.",
         "sweeping victories -> every local election"),
    ],
    "scifact:9967265": [
        (PARA, "Early closure of the ductus arteriosus may be achieved pharmacologically using cyclooxygenase inhibitors or by surgery.",
         "The ductus arteriosus can be closed early either with drugs, namely cyclooxygenase inhibitors, or surgically.",
         "voice synonym"),
        (PARA, "Only one study, trial B in the report of Gersony 1983, was found eligible.",
         "Just one study was eligible: trial B of Gersony's 1983 report.",
         "synonym reorder"),
        (PARA, "Trial B of Gersony 1983 enrolled 154 infants.",
         "A total of 154 infants took part in trial B of Gersony 1983.",
         "voice synonym"),
        (PARA, "There was a statistically significant increase in the surgical group in incidence of pneumothorax",
         "Pneumothorax occurred significantly more often in the surgical group.",
         "nominal reorder drop"),
        (PARA, "The data regarding net benefit/harm are insufficient to make a conclusion as to whether surgical ligation or medical treatment with indomethacin is preferred as initial treatment for symptomatic PDA in preterm infants.",
         "There is not enough data on net benefit or harm to conclude whether surgical ligation or indomethacin should be preferred as the first treatment for symptomatic PDA in preterm infants.",
         "synonym nominal"),
        (NUM, "Trial B of Gersony 1983 enrolled 154 infants.",
         "Trial B of Gersony 1983 included 145 infants.",
         "154 -> 145"),
        (NEG, "The study found no statistically significant difference between surgical closure and indomethacin treatment in mortality during hospital stay",
         "The study found a statistically significant difference between surgical closure and indomethacin treatment in mortality during the hospital stay.",
         "no statistically significant difference -> a statistically significant difference"),
        (ENT, "There was a statistically significant increase in the surgical group in incidence of pneumothorax",
         "Pneumothorax was significantly more frequent in the indomethacin group.",
         "surgical group -> indomethacin group"),
        (QUANT, "whether surgical ligation or medical treatment with indomethacin is preferred as initial treatment for symptomatic PDA in preterm infants.",
         "Surgical ligation is always preferred as the initial treatment for symptomatic PDA in preterm infants.",
         "is preferred -> is always preferred"),
        (APPEND, "Only one study, trial B in the report of Gersony 1983, was found eligible.",
         "Only trial B of Gersony 1983 was found eligible, and it was conducted in Canada.",
         "conducted in Canada"),
        (ATTR, "The efficacy of both treatment modalities is well established.",
         "The efficacy of both treatments is poorly established.",
         "well established -> poorly established"),
    ],
    "menu:menu-12": [
        (PARA, "A 300 g ribeye of grass-fed beef, aged for 35 days and grilled over charcoal, with a green peppercorn and brandy cream sauce.",
         "The charcoal-grilled ribeye is 300 g of grass-fed beef aged 35 days, served with a cream sauce of green peppercorns and brandy.",
         "synonym reorder"),
        (PARA, "Comes with hand-cut chips.",
         "The ribeye is served with hand-cut chips.",
         "synonym"),
        (PARA, "Charcoal-grilled ribeye (main course, 34.00 EUR).",
         "The charcoal-grilled ribeye is a main course priced at 34.00 EUR.",
         "synonym"),
        (PARA, "Allergens: milk, mustard, sulphites. Dietary: gluten-free.",
         "The ribeye contains milk, mustard and sulphites but no gluten.",
         "merge synonym"),
        (NUM, "aged for 35 days and grilled over charcoal",
         "The ribeye is aged for 28 days before it is grilled over charcoal.",
         "35 -> 28"),
        (ATTR, "A 300 g ribeye of grass-fed beef",
         "The ribeye is cut from grain-fed beef.",
         "grass-fed -> grain-fed"),
        (ENT, "with a green peppercorn and brandy cream sauce.",
         "The ribeye comes with a green peppercorn and whisky cream sauce.",
         "brandy -> whisky"),
        (NEG, "Dietary: gluten-free.",
         "The charcoal-grilled ribeye is not gluten-free.",
         "gluten-free -> not gluten-free"),
        (APPEND, "aged for 35 days and grilled over charcoal",
         "The ribeye is grilled over charcoal and served medium-rare unless you ask otherwise.",
         "served medium-rare unless you ask otherwise"),
    ],
    "squad2:10:22": [
        (PARA, "The Scotland Act 1998, which was passed by the Parliament of the United Kingdom and given royal assent by Queen Elizabeth II on 19 November 1998, governs the functions and role of the Scottish Parliament and delimits its legislative competence.",
         "Passed by the UK Parliament and given royal assent by Queen Elizabeth II on 19 November 1998, the Scotland Act 1998 sets out the Scottish Parliament's role and functions and the limits of its legislative competence.",
         "reorder synonym nominal"),
        (PARA, "Such \"devolved matters\" include education, health, agriculture and justice.",
         "Education, health, agriculture and justice are among the devolved matters.",
         "reorder"),
        (PARA, "A degree of domestic authority, and all foreign policy, remain with the UK Parliament in Westminster.",
         "The UK Parliament at Westminster keeps all foreign policy and some domestic authority.",
         "reorder synonym"),
        (PARA, "The Scottish Parliament has the power to pass laws and has limited tax-varying capability.",
         "The Scottish Parliament can make laws and has a limited ability to vary taxes.",
         "synonym nominal"),
        (NUM, "given royal assent by Queen Elizabeth II on 19 November 1998",
         "Queen Elizabeth II gave the Scotland Act royal assent on 19 November 1997.",
         "1998 -> 1997"),
        (QUANT, "A degree of domestic authority, and all foreign policy, remain with the UK Parliament in Westminster.",
         "All domestic authority remains with the UK Parliament in Westminster.",
         "A degree of -> All"),
        (ENT, "The Scotland Act 1998, which was passed by the Parliament of the United Kingdom",
         "The Scotland Act 1998 was passed by the Scottish Parliament and given royal assent by Queen Elizabeth II.",
         "Parliament of the United Kingdom -> Scottish Parliament"),
        (NEG, "Westminster agreed to devolve some of its responsibilities over Scottish domestic policy to the Scottish Parliament.",
         "Westminster did not devolve any of its responsibilities over Scottish domestic policy.",
         "agreed to devolve some -> did not devolve any"),
        (ATTR, "The Scottish Parliament has the power to pass laws and has limited tax-varying capability.",
         "The Scottish Parliament has unlimited tax-varying capability.",
         "limited -> unlimited"),
        (APPEND, "The Scotland Act 2012 extends the devolved competencies.",
         "The Scotland Act 2012 extends the devolved competencies, including control over broadcasting.",
         "including control over broadcasting"),
    ],
}


def drawn_passages() -> list[str]:
    """This set's passages in draw order: none of the claim cases' (``draw_passages`` skips them) or of the earlier
    paraphrase set's."""
    return draw_passages(N_PASSAGES, DRAW_SEED, exclude=frozenset(EARLIER_CASES))


DESCRIPTION = ("A fresh report set of faithful paraphrases and reworded unsupported answers (6 error types), "
               "written 2026-12-03 over passages neither earlier claim set uses; report cases only. Passages are "
               "not stored: load them with load_claim_paraphrases_fresh() in "
               "benchmarks/roles/make_claim_paraphrases_fresh.py. Written blind (no grader run before freezing).")


def build() -> dict[str, Any]:
    """The whole set as written to ``claim_paraphrases_fresh.json`` (validated; every case a report case)."""
    return report_set(CASES, "cpf", drawn_passages(), MINIMUM, UNSUPPORTED_MINIMUM, name="claim_paraphrases_fresh",
                      description=DESCRIPTION,
                      built_by="benchmarks/roles/make_claim_paraphrases_fresh.py", seed=DRAW_SEED)


def claim_paraphrases_fresh_sha256() -> str:
    """The sha256 of the frozen set, after checking it against data/eval/MANIFEST.json."""
    return check_frozen(OUT_PATH)


def load_claim_paraphrases_fresh(split: str | None = None) -> list[dict[str, Any]]:
    """The frozen cases (hash checked), each with ``document``: its passage; a report set, so ``split="tune"`` is refused."""
    return load_report_cases(OUT_PATH, split)


def main(argv: list[str] | None = None) -> int:
    return report_set_main(__doc__, build, drawn_passages, OUT_PATH, argv)


if __name__ == "__main__":
    sys.exit(main())
