"""Write data/eval/claim_paraphrases_fresh2.json: a second fresh report set of faithful paraphrases and reworded
unsupported answers for the claim-level hallucination grader, over passages no earlier claim set uses.

``claim_paraphrases_fresh.json`` has now been run once per setting, so the next change of the grader needs
another set nobody has measured it on. This one is written the same way as the earlier two (same seven types,
same rows, same checks: ``make_claim_paraphrases.validate``) over passages that neither the claim cases, nor
``claim_paraphrases.json``, nor ``claim_paraphrases_fresh.json`` use, drawn by seed
(``draw_passages(N_PASSAGES, DRAW_SEED, exclude=...)``: SQuAD 2.0 dev, SciFact, the bundled corpora), so the
writer did not choose them. Every case is a report case: nothing is tuned on it, and a change of the grader is
reported on it once.

Written blind on 2026-12-04 by a writer who read only the set builders (``make_claim_paraphrases.py``,
``make_claim_paraphrases_fresh.py``, ``make_claim_cases.py``'s loaders, ``common.write_frozen_set``) and the
drawn passages; the writer ran no grader, graph, benchmark or model on these answers, and saw no grader code and
no grader results (checking its own script's format, it also saw most of ``make_claim_paraphrases_fresh.py``'s
answer rows, after its passages were read and its cases planned). The same limits as the earlier sets apply: one author wrote every answer (aware of how
graders fail, which may make some errors subtler and some paraphrases bolder than a chat model's); labels are
judged against the one passage alone; passages are short (one paragraph, one abstract, one wine or article), so
alignment is easier than over a retriever's top four. The set is small (16 passages, 82 paraphrases, 96
unsupported answers), so a rate measured on it carries a standard error of up to about 0.055 on the
paraphrases and 0.05 on the unsupported answers, more if errors cluster by passage.

Run from the project folder: ``.venv/bin/python benchmarks/roles/make_claim_paraphrases_fresh2.py`` (writes the
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
from make_claim_paraphrases_fresh import (
    CASES as FRESH_CASES,
)

from ragkit.goldsets import check_frozen  # noqa: E402

OUT_PATH = ROOT / "data" / "eval" / "claim_paraphrases_fresh2.json"
N_PASSAGES, DRAW_SEED = 16, 53
MINIMUM = {PARA: 60, APPEND: 10, NEG: 10, QUANT: 10, ATTR: 10, ENT: 10, NUM: 10}
UNSUPPORTED_MINIMUM = 70

# Written answers, keyed by passage in draw order (rows as in make_claim_paraphrases.CASES).
CASES: dict[str, list[tuple[str, str, str, str]]] = {
    "scifact:10641715": [
        (
            PARA,
            "Down syndrome (trisomy 21) is the most common viable chromosomal disorder with intellectual impairment and several other developmental abnormalities.",
            "Trisomy 21, better known as Down syndrome, is the most common viable chromosomal disorder that involves intellectual impairment, along with several other developmental abnormalities.",
            "synonym reorder",
        ),
        (
            PARA,
            "Here, we report the generation and characterization of induced pluripotent stem cells (iPSCs) derived from monozygotic twins discordant for trisomy 21 in order to eliminate the effects of the variability of genomic background.",
            "The researchers generated and characterised induced pluripotent stem cells from identical twins discordant for trisomy 21, so that variability in genomic background would have no effect.",
            "synonym nominal",
        ),
        (
            PARA,
            "Moreover, we observed an abnormal neural differentiation of Down syndrome iPSCs in vivo when formed teratoma in NOD-SCID mice, and in vitro when differentiated into neuroprogenitors and neurons.",
            "Down syndrome iPSCs differentiated abnormally into neural cells, both in vivo, when they formed teratomas in NOD-SCID mice, and in vitro, when they were turned into neuroprogenitors and neurons.",
            "nominal synonym",
        ),
        (
            PARA,
            "These defects were associated with changes in the architecture and density of neurons, astroglial and oligodendroglial cells together with misexpression of genes involved in neurogenesis, lineage specification and differentiation.",
            "The defects went along with altered architecture and density of neurons, astroglial cells and oligodendroglial cells, and with misexpressed genes involved in neurogenesis, lineage specification and differentiation.",
            "synonym nominal",
        ),
        (
            PARA,
            "Furthermore, we provide novel evidence that dual-specificity tyrosine-(Y)-phosphorylation regulated kinase 1A (DYRK1A) on chromosome 21 likely contributes to these defects. ... Importantly, we found that targeting DYRK1A pharmacologically or by shRNA results in a considerable correction of these defects.",
            "The study gives new evidence that DYRK1A, a kinase on chromosome 21, probably contributes to these defects, and targeting it with drugs or with shRNA corrected them considerably.",
            "merge pronoun synonym drop",
        ),
        (
            QUANT,
            "Furthermore, we provide novel evidence that dual-specificity tyrosine-(Y)-phosphorylation regulated kinase 1A (DYRK1A) on chromosome 21 likely contributes to these defects.",
            "The study establishes that DYRK1A on chromosome 21 definitely contributes to these neural defects.",
            "likely -> definitely",
        ),
        (
            ENT,
            "Moreover, we observed an abnormal neural differentiation of Down syndrome iPSCs in vivo when formed teratoma in NOD-SCID mice",
            "In vivo, the Down syndrome iPSCs differentiated abnormally along neural lines when they formed teratomas in rats.",
            "mice -> rats",
        ),
        (
            NEG,
            "Importantly, we found that targeting DYRK1A pharmacologically or by shRNA results in a considerable correction of these defects.",
            "Targeting DYRK1A with drugs or with shRNA did not noticeably correct these defects.",
            "results in a considerable correction -> did not noticeably correct",
        ),
        (
            APPEND,
            "Here, we report the generation and characterization of induced pluripotent stem cells (iPSCs) derived from monozygotic twins discordant for trisomy 21 in order to eliminate the effects of the variability of genomic background.",
            "The iPSCs came from monozygotic twins discordant for trisomy 21, which removed the effect of genomic background, and were reprogrammed from skin fibroblasts.",
            "reprogrammed from skin fibroblasts",
        ),
        (
            ATTR,
            "Down syndrome (trisomy 21) is the most common viable chromosomal disorder with intellectual impairment",
            "Down syndrome is the rarest viable chromosomal disorder associated with intellectual impairment.",
            "most common -> rarest",
        ),
        (
            NUM,
            "dual-specificity tyrosine-(Y)-phosphorylation regulated kinase 1A (DYRK1A) on chromosome 21 likely contributes to these defects.",
            "DYRK1A, a kinase that sits on chromosome 18, probably contributes to the defects.",
            "chromosome 21 -> chromosome 18",
        ),
    ],
    "scifact:28392393": [
        (
            PARA,
            "Local presentation of autoantigen by organ-resident cells inappropriately expressing Ia determinants has been implicated in organ-specific autoimmunity.",
            "Organ-specific autoimmunity has been linked to local autoantigen presentation by organ-resident cells that wrongly express Ia determinants.",
            "voice synonym reorder",
        ),
        (
            PARA,
            "Experimental autoimmune uveoretinitis, induced in rats by immunization with retinal soluble antigen, is used as a model of organ-specific autoimmunity.",
            "Experimental autoimmune uveoretinitis, which is induced in rats by immunising them with retinal soluble antigen, serves as a model of organ-specific autoimmunity.",
            "synonym pronoun nominal",
        ),
        (
            PARA,
            "In an in vitro system derived from this model, uveitogenic rat T-helper lymphocytes specific to the retinal soluble antigen, or control T-helper lymphocytes reactive to the purified protein derivative of tuberculin, were cocultured with Ia-expressing syngeneic retinal glial cells (Müller cells) in the presence of specific antigen.",
            "In an in vitro system based on this model, the researchers cocultured T-helper lymphocytes with Ia-expressing syngeneic retinal glial cells, the Müller cells, in the presence of specific antigen.",
            "voice drop synonym",
        ),
        (
            PARA,
            "Antigen presentation was not apparent under ordinary culture conditions, and the Müller cells profoundly suppressed the proliferative response of primed T-helper lymphocytes to antigen presented on conventional antigen-presenting cells, as well as their subsequent interleukin-2 (IL-2)-dependent expansion.",
            "Under ordinary culture conditions no antigen presentation was seen, and the Müller cells strongly suppressed how primed T-helper lymphocytes proliferated in response to antigen on conventional antigen-presenting cells, and also their later IL-2-dependent expansion.",
            "synonym nominal reorder",
        ),
        (
            PARA,
            "Suppression of proliferation was accompanied by inhibition of IL-2 production in response to antigen, as well as by reduction in high-affinity IL-2 receptor expression, and proceeded via a contact-dependent mechanism.",
            "Along with the suppressed proliferation, IL-2 production in response to antigen was inhibited and high-affinity IL-2 receptor expression fell, and the suppression worked through a mechanism that depended on contact.",
            "nominal synonym reorder",
        ),
        (
            PARA,
            "These results suggest a role for locally acting suppression mechanisms in immune regulation and maintenance of tissue homeostasis.",
            "The findings point to locally acting suppression mechanisms playing a part in regulating immunity and keeping tissues in homeostasis.",
            "synonym nominal",
        ),
        (
            NEG,
            "Antigen presentation was not apparent under ordinary culture conditions",
            "Under ordinary culture conditions, the Müller cells clearly presented the antigen to the T-helper lymphocytes.",
            "not apparent -> clearly presented",
        ),
        (
            ENT,
            "or control T-helper lymphocytes reactive to the purified protein derivative of tuberculin",
            "As a control, the study used T-helper lymphocytes reactive to ovalbumin.",
            "purified protein derivative of tuberculin -> ovalbumin",
        ),
        (
            ATTR,
            "were cocultured with Ia-expressing syngeneic retinal glial cells (Müller cells) in the presence of specific antigen.",
            "The T-helper lymphocytes were grown together with Ia-expressing allogeneic Müller cells in the presence of specific antigen.",
            "syngeneic -> allogeneic",
        ),
        (
            QUANT,
            "These results suggest a role for locally acting suppression mechanisms in immune regulation and maintenance of tissue homeostasis.",
            "The results show that locally acting suppression is always required for immune regulation and for keeping tissue homeostasis.",
            "suggest -> always required",
        ),
        (
            APPEND,
            "Experimental autoimmune uveoretinitis, induced in rats by immunization with retinal soluble antigen, is used as a model of organ-specific autoimmunity.",
            "Experimental autoimmune uveoretinitis is induced in rats through immunisation with retinal soluble antigen and serves as a model for organ-specific autoimmunity, including type 1 diabetes.",
            "including type 1 diabetes",
        ),
    ],
    "handbook:HB-20": [
        (
            PARA,
            "HyDE, for Hypothetical Document Embeddings (Gao and colleagues, 2022), addresses a mismatch between questions and documents.",
            "HyDE (Hypothetical Document Embeddings, from Gao and colleagues in 2022) tackles the mismatch between questions and documents.",
            "synonym reorder",
        ),
        (
            PARA,
            "HyDE asks a language model to write a hypothetical answer passage first, without retrieval, and then embeds that passage instead of, or averaged with, the question.",
            "With HyDE, a language model first writes a hypothetical answer passage without any retrieval, and that passage is embedded in place of the question or averaged with it.",
            "voice synonym reorder",
        ),
        (
            PARA,
            "The fake passage may contain wrong details, but it is written in the style and vocabulary of real documents, so its embedding tends to land near the real answer in vector space.",
            "Although the made-up passage may get details wrong, its style and vocabulary match those of real documents, so its embedding usually ends up close to the real answer in vector space.",
            "synonym nominal",
        ),
        (
            PARA,
            "The dense retriever does the rest: it finds real passages that resemble the hypothetical one, and only those real passages are shown to the generator. ... The fabricated text must never be presented as evidence or cited.",
            "The dense retriever then finds real passages similar to the hypothetical one, and only these go to the generator; the invented text itself must never be cited or presented as evidence.",
            "merge synonym pronoun reorder",
        ),
        (
            PARA,
            "Generating several hypothetical documents and averaging their embeddings reduces variance.",
            "Averaging the embeddings of several generated hypothetical documents lowers the variance.",
            "reorder synonym nominal",
        ),
        (
            PARA,
            "The cost is one extra LLM call per query before retrieval can start.",
            "Each query costs one additional LLM call, made before retrieval can begin.",
            "synonym reorder",
        ),
        (
            QUANT,
            "The fabricated text must never be presented as evidence or cited.",
            "The generated hypothetical passage may be cited as evidence when it looks reliable.",
            "must never -> may",
        ),
        (
            NEG,
            "and can hurt when the model knows nothing about the domain and writes a misleading passage",
            "HyDE does not hurt even when the model knows nothing about the domain and writes a misleading passage.",
            "can hurt -> does not hurt",
        ),
        (
            NUM,
            "The cost is one extra LLM call per query before retrieval can start.",
            "HyDE costs two extra LLM calls per query before retrieval can start.",
            "one extra LLM call -> two extra LLM calls",
        ),
        (
            ENT,
            "The dense retriever does the rest: it finds real passages that resemble the hypothetical one",
            "A BM25 retriever then looks for real passages that resemble the hypothetical one.",
            "dense retriever -> BM25 retriever",
        ),
        (
            ATTR,
            "Generating several hypothetical documents and averaging their embeddings reduces variance.",
            "Averaging the embeddings of several hypothetical documents cuts latency.",
            "variance -> latency",
        ),
        (
            APPEND,
            "HyDE helps most in zero-shot settings where no fine-tuned retriever exists",
            "HyDE works best in zero-shot settings without a fine-tuned retriever, where it typically doubles recall.",
            "typically doubles recall",
        ),
    ],
    "statute:art-23": [
        (
            PARA,
            "A vessel arriving from outside the coastal waters shall not discharge ballast water in coastal waters unless the ballast water has been treated by an approved system or exchanged at sea.",
            "Under Article 23, a vessel coming from outside the coastal waters may discharge ballast water there only if that water has been treated by an approved system or exchanged at sea.",
            "synonym reorder",
        ),
        (
            PARA,
            "An exchange under paragraph (1) shall take place at least 200 nautical miles from the nearest land and in water at least 200 metres deep, or, where that is not possible, at least 50 nautical miles from the nearest land.",
            "A ballast water exchange must be carried out at least 200 nautical miles from the nearest land in water at least 200 metres deep, or, if that cannot be done, at least 50 nautical miles from the nearest land.",
            "synonym voice",
        ),
        (
            PARA,
            "The master shall record every ballast water operation and shall notify the Authority at least 24 hours before arrival of the ballast water the vessel intends to discharge.",
            "The master must keep a record of every ballast water operation and tell the Authority, at least 24 hours before arriving, which ballast water the vessel intends to discharge.",
            "synonym nominal",
        ),
        (
            PARA,
            "The master shall record every ballast water operation",
            "Every ballast water operation has to be recorded by the master.",
            "voice drop synonym",
        ),
        (
            NUM,
            "and in water at least 200 metres deep",
            "The exchange has to happen in water that is at least 100 metres deep.",
            "200 metres -> 100 metres",
        ),
        (
            NUM,
            "shall notify the Authority at least 24 hours before arrival of the ballast water the vessel intends to discharge.",
            "The master has to notify the Authority at least 48 hours before arrival about the ballast water to be discharged.",
            "24 hours -> 48 hours",
        ),
        (
            QUANT,
            "The master shall record every ballast water operation",
            "The master needs to log most of the vessel's ballast water operations.",
            "every -> most",
        ),
        (
            NEG,
            "A vessel arriving from outside the coastal waters shall not discharge ballast water in coastal waters",
            "A vessel arriving from outside the coastal waters may discharge untreated ballast water in coastal waters.",
            "shall not discharge -> may discharge",
        ),
        (
            ENT,
            "shall notify the Authority at least 24 hours before arrival",
            "At least 24 hours before arrival, the master must tell the harbour master which ballast water the vessel plans to discharge.",
            "the Authority -> the harbour master",
        ),
        (
            APPEND,
            "A vessel arriving from outside the coastal waters shall not discharge ballast water in coastal waters unless the ballast water has been treated by an approved system or exchanged at sea.",
            "Ballast water from a vessel arriving from outside the coastal waters must be treated by an approved system or exchanged at sea before it is discharged there, and the treatment system must be inspected every year.",
            "inspected every year",
        ),
    ],
    "statute:art-30": [
        (
            PARA,
            "The Authority shall keep and publish a list of protected species. The list shall include all marine mammals, all sea turtles and every seabird species that nests in the coastal zone.",
            "The Authority has to maintain and publish a list of protected species covering all marine mammals, all sea turtles and every seabird species nesting in the coastal zone.",
            "merge synonym",
        ),
        (
            PARA,
            "No person shall deliberately kill, injure, capture or disturb a protected species, or damage its breeding or resting places.",
            "It is forbidden to deliberately kill, injure, capture or disturb a protected species, or to damage the places where it breeds or rests.",
            "synonym nominal",
        ),
        (
            PARA,
            "No person shall possess, sell or transport a protected species or any part of it, unless it was lawfully obtained before the species was listed.",
            "Possessing, selling or transporting a protected species, or any part of one, is prohibited unless it was obtained lawfully before the species was put on the list.",
            "nominal voice synonym",
        ),
        (
            PARA,
            "Paragraph (2) does not apply to action needed to help an injured or stranded animal, if the Authority is told within 24 hours.",
            "The ban in paragraph (2) does not cover action needed to help an injured or stranded animal, provided the Authority is informed within 24 hours.",
            "synonym",
        ),
        (
            PARA,
            "No person shall deliberately kill, injure, capture or disturb a protected species",
            "Nobody may deliberately kill or injure a protected species.",
            "synonym drop",
        ),
        (
            QUANT,
            "The list shall include all marine mammals, all sea turtles and every seabird species that nests in the coastal zone.",
            "The protected list covers all marine mammals and sea turtles, plus some of the seabird species nesting in the coastal zone.",
            "every -> some of the",
        ),
        (
            ATTR,
            "No person shall deliberately kill, injure, capture or disturb a protected species",
            "No one may kill, injure, capture or disturb a protected species, even accidentally.",
            "deliberately -> even accidentally",
        ),
        (
            NUM,
            "if the Authority is told within 24 hours.",
            "Helping an injured or stranded animal is allowed as long as the Authority is told within 72 hours.",
            "24 hours -> 72 hours",
        ),
        (
            NEG,
            "No person shall possess, sell or transport a protected species or any part of it, unless it was lawfully obtained before the species was listed.",
            "Possessing, selling or transporting a protected species is banned even if it was lawfully obtained before the species was listed.",
            "unless -> even if",
        ),
        (
            APPEND,
            "The Authority shall keep and publish a list of protected species.",
            "The Authority keeps and publishes the list of protected species and reviews it every five years.",
            "reviews it every five years",
        ),
        (
            ENT,
            "The list shall include all marine mammals, all sea turtles and every seabird species that nests in the coastal zone.",
            "Every marine mammal, every shark and every seabird species nesting in the coastal zone is on the list.",
            "sea turtles -> shark",
        ),
    ],
    "squad2:9:11": [
        (
            PARA,
            "Neutrophils and macrophages are phagocytes that travel throughout the body in pursuit of invading pathogens.",
            "Neutrophils and macrophages are both phagocytes, and they move throughout the body chasing invading pathogens.",
            "synonym pronoun",
        ),
        (
            PARA,
            "Neutrophils are normally found in the bloodstream and are the most abundant type of phagocyte, normally representing 50% to 60% of the total circulating leukocytes.",
            "Usually found in the bloodstream, neutrophils are the most plentiful phagocytes, typically making up 50% to 60% of all circulating leukocytes.",
            "synonym reorder",
        ),
        (
            PARA,
            "During the acute phase of inflammation, particularly as a result of bacterial infection, neutrophils migrate toward the site of inflammation in a process called chemotaxis, and are usually the first cells to arrive at the scene of infection.",
            "In the acute phase of inflammation, especially when it comes from a bacterial infection, neutrophils move toward the inflamed site by chemotaxis and are usually the first cells to reach the infection.",
            "synonym",
        ),
        (
            PARA,
            "Macrophages are versatile cells that reside within tissues and produce a wide array of chemicals including enzymes, complement proteins, and regulatory factors such as interleukin 1.",
            "Macrophages live in tissues and are versatile; they make many kinds of chemicals, among them enzymes, complement proteins and regulatory factors like interleukin 1.",
            "synonym reorder pronoun",
        ),
        (
            PARA,
            "Macrophages also act as scavengers, ridding the body of worn-out cells and other debris, and as antigen-presenting cells that activate the adaptive immune system.",
            "Besides clearing worn-out cells and other debris from the body as scavengers, macrophages act as antigen-presenting cells that switch on the adaptive immune system.",
            "reorder nominal synonym",
        ),
        (
            NUM,
            "normally representing 50% to 60% of the total circulating leukocytes.",
            "Neutrophils usually make up about 70% to 80% of the leukocytes circulating in the blood.",
            "50% to 60% -> 70% to 80%",
        ),
        (
            ENT,
            "neutrophils migrate toward the site of inflammation in a process called chemotaxis, and are usually the first cells to arrive at the scene of infection.",
            "During acute inflammation, macrophages are usually the first cells to get to the site of infection.",
            "neutrophils -> macrophages",
        ),
        (
            ATTR,
            "During the acute phase of inflammation, particularly as a result of bacterial infection, neutrophils migrate toward the site of inflammation in a process called chemotaxis",
            "Neutrophils head toward inflamed sites by chemotaxis, particularly in the acute phase of an inflammation caused by viral infection.",
            "bacterial -> viral",
        ),
        (
            QUANT,
            "and are usually the first cells to arrive at the scene of infection.",
            "Neutrophils are always the first cells to reach the site of an infection.",
            "usually -> always",
        ),
        (
            APPEND,
            "Macrophages are versatile cells that reside within tissues and produce a wide array of chemicals including enzymes, complement proteins, and regulatory factors such as interleukin 1.",
            "Macrophages reside in tissues and release a broad range of chemicals such as enzymes, complement proteins and interleukin 1, which causes fever.",
            "which causes fever",
        ),
        (
            NEG,
            "and as antigen-presenting cells that activate the adaptive immune system.",
            "Macrophages clean up worn-out cells and debris, but they do not present antigens to the adaptive immune system.",
            "antigen-presenting cells -> do not present antigens",
        ),
    ],
    "wine:wine-09": [
        (
            PARA,
            "Riesling Kabinett by Weingut Albrecht Kehl (Mosel, Germany), 2021, white wine. ... Grapes: Riesling.",
            "The Riesling Kabinett is a 2021 white wine from Weingut Albrecht Kehl in the Mosel, Germany, made from Riesling grapes.",
            "merge reorder",
        ),
        (
            PARA,
            "Price: 8.50 EUR a glass, 40.00 EUR a bottle.",
            "A glass of the Riesling Kabinett costs 8.50 EUR and a bottle costs 40.00 EUR.",
            "reorder",
        ),
        (
            PARA,
            "Tasting notes: Off-dry and light (8.5% alcohol); green apple, lime and slate, with a touch of sweetness balanced by high acidity.",
            "It is a light, off-dry wine at 8.5% alcohol, with notes of green apple, lime and slate and a slight sweetness that high acidity balances.",
            "pronoun synonym voice reorder",
        ),
        (
            PARA,
            "Pairing: The hint of sweetness calms the chilli in the Grilled broccoli with chilli and almonds and flatters the Pumpkin gnocchi with sage butter.",
            "Its hint of sweetness tames the chilli in the grilled broccoli with chilli and almonds, and it flatters the pumpkin gnocchi with sage butter.",
            "pronoun synonym",
        ),
        (NUM, "Off-dry and light (8.5% alcohol)", "The Kabinett is a light wine with 11.5% alcohol.", "8.5% -> 11.5%"),
        (
            NUM,
            "40.00 EUR a bottle.",
            "A bottle of the Albrecht Kehl Riesling costs 45.00 EUR.",
            "40.00 EUR -> 45.00 EUR",
        ),
        (
            ATTR,
            "Tasting notes: Off-dry and light (8.5% alcohol); green apple, lime and slate",
            "The Riesling Kabinett is bone-dry and light, with green apple, lime and slate on the palate.",
            "Off-dry -> bone-dry",
        ),
        (
            ENT,
            "Riesling Kabinett by Weingut Albrecht Kehl (Mosel, Germany), 2021, white wine.",
            "This 2021 Riesling Kabinett comes from Weingut Albrecht Kehl in the Rheingau.",
            "Mosel -> Rheingau",
        ),
        (
            APPEND,
            "The hint of sweetness calms the chilli in the Grilled broccoli with chilli and almonds",
            "Its slight sweetness calms the chilli in the grilled broccoli with chilli and almonds, and it also works well as an aperitif.",
            "works well as an aperitif",
        ),
        (
            NEG,
            "with a touch of sweetness balanced by high acidity.",
            "The wine has no sweetness at all, just green apple, lime and slate with high acidity.",
            "a touch of sweetness -> no sweetness",
        ),
    ],
    "squad2:9:27": [
        (
            PARA,
            "Unlike animals, plants lack phagocytic cells, but many plant immune responses involve systemic chemical signals that are sent through a plant.",
            "Plants, unlike animals, have no phagocytic cells, though many of their immune responses rely on systemic chemical signals sent through the plant.",
            "synonym reorder pronoun",
        ),
        (
            PARA,
            "Individual plant cells respond to molecules associated with pathogens known as Pathogen-associated molecular patterns or PAMPs.",
            "Plant cells respond individually to pathogen-associated molecular patterns, or PAMPs, which are molecules associated with pathogens.",
            "synonym reorder",
        ),
        (
            PARA,
            "When a part of a plant becomes infected, the plant produces a localized hypersensitive response, whereby cells at the site of infection undergo rapid apoptosis to prevent the spread of the disease to other parts of the plant.",
            "When part of a plant is infected, the plant mounts a localised hypersensitive response in which cells at the infection site quickly undergo apoptosis so that the disease cannot spread to other parts of the plant.",
            "synonym voice",
        ),
        (
            PARA,
            "Systemic acquired resistance (SAR) is a type of defensive response used by plants that renders the entire plant resistant to a particular infectious agent. RNA silencing mechanisms are particularly important in this systemic response as they can block virus replication.",
            "Plants also use systemic acquired resistance, a defensive response that makes the whole plant resistant to a particular infectious agent, and RNA silencing is especially important in it because it can block virus replication.",
            "merge synonym pronoun",
        ),
        (
            NEG,
            "Unlike animals, plants lack phagocytic cells",
            "Like animals, plants have phagocytic cells, and many of their immune responses use systemic chemical signals.",
            "lack phagocytic cells -> have phagocytic cells",
        ),
        (
            QUANT,
            "but many plant immune responses involve systemic chemical signals that are sent through a plant.",
            "All of a plant's immune responses depend on systemic chemical signals sent through the plant.",
            "many -> All",
        ),
        (
            ATTR,
            "whereby cells at the site of infection undergo rapid apoptosis to prevent the spread of the disease to other parts of the plant.",
            "In a plant's localised hypersensitive response, infected cells go through slow apoptosis to keep the disease from spreading.",
            "rapid -> slow",
        ),
        (
            ENT,
            "RNA silencing mechanisms are particularly important in this systemic response as they can block virus replication.",
            "RNA silencing matters especially in systemic acquired resistance because it can block the replication of bacteria.",
            "virus -> bacteria",
        ),
        (
            APPEND,
            "Systemic acquired resistance (SAR) is a type of defensive response used by plants that renders the entire plant resistant to a particular infectious agent.",
            "Systemic acquired resistance makes the whole plant resistant to a particular infectious agent and lasts for the rest of the plant's life.",
            "lasts for the rest of the plant's life",
        ),
    ],
    "squad2:5:1": [
        (
            PARA,
            "European Union law is applied by the courts of member states and the Court of Justice of the European Union.",
            "The courts of the member states and the Court of Justice of the European Union apply EU law.",
            "voice synonym",
        ),
        (
            PARA,
            "Where the laws of member states provide for lesser rights European Union law can be enforced by the courts of member states.",
            "If a member state's laws provide lesser rights, its courts can enforce European Union law.",
            "pronoun synonym reorder",
        ),
        (
            PARA,
            "In case of European Union law which should have been transposed into the laws of member states, such as Directives, the European Commission can take proceedings against the member state under the Treaty on the Functioning of the European Union.",
            "For EU law that member states should have transposed into their own laws, such as Directives, the European Commission can bring proceedings against a member state under the Treaty on the Functioning of the European Union.",
            "synonym voice",
        ),
        (
            PARA,
            "The European Court of Justice is the highest court able to interpret European Union law.",
            "No court ranks higher than the European Court of Justice when it comes to interpreting European Union law.",
            "synonym reorder",
        ),
        (
            PARA,
            "Supplementary sources of European Union law include case law by the Court of Justice, international law and general principles of European Union law.",
            "Case law of the Court of Justice, international law and the general principles of EU law are among the supplementary sources of European Union law.",
            "reorder synonym",
        ),
        (
            ENT,
            "the European Commission can take proceedings against the member state under the Treaty on the Functioning of the European Union.",
            "If a member state fails to transpose a Directive, the European Parliament can bring proceedings against it under the Treaty on the Functioning of the European Union.",
            "European Commission -> European Parliament",
        ),
        (
            ATTR,
            "Where the laws of member states provide for lesser rights European Union law can be enforced by the courts of member states.",
            "National courts can enforce EU law where the member state's own laws grant greater rights.",
            "lesser -> greater",
        ),
        (
            QUANT,
            "the European Commission can take proceedings against the member state",
            "Where a Directive has not been transposed into national law, the European Commission must take proceedings against the member state.",
            "can -> must",
        ),
        (
            NEG,
            "Where the laws of member states provide for lesser rights European Union law can be enforced by the courts of member states.",
            "Where member states' laws provide lesser rights, national courts cannot enforce European Union law.",
            "can be enforced -> cannot enforce",
        ),
        (
            APPEND,
            "Supplementary sources of European Union law include case law by the Court of Justice, international law and general principles of European Union law.",
            "Supplementary sources of EU law include Court of Justice case law, international law and general principles of EU law, which together outrank the treaties.",
            "which together outrank the treaties",
        ),
    ],
    "squad2:3:10": [
        (
            PARA,
            "The final major evolution of the steam engine design was the use of steam turbines starting in the late part of the 19th century.",
            "Steam turbines, used from the late 19th century onwards, were the last major evolution in steam engine design.",
            "reorder nominal synonym",
        ),
        (
            PARA,
            "Steam turbines are generally more efficient than reciprocating piston type steam engines (for outputs above several hundred horsepower), have fewer moving parts, and provide rotary power directly instead of through a connecting rod system or similar means.",
            "Above several hundred horsepower, steam turbines are generally more efficient than reciprocating piston steam engines; they also have fewer moving parts and deliver rotary power directly rather than through a connecting rod system.",
            "reorder synonym pronoun drop",
        ),
        (
            PARA,
            "Steam turbines virtually replaced reciprocating engines in electricity generating stations early in the 20th century, where their efficiency, higher speed appropriate to generator service, and smooth rotation were advantages.",
            "Early in the 20th century, steam turbines all but replaced reciprocating engines in power stations, where their efficiency, their higher speed suited to generators and their smooth rotation counted in their favour.",
            "synonym reorder",
        ),
        (
            PARA,
            "Today most electric power is provided by steam turbines. In the United States 90% of the electric power is produced in this way using a variety of heat sources.",
            "Most electricity today comes from steam turbines; in the United States, 90% of electric power is generated this way, from a variety of heat sources.",
            "merge synonym",
        ),
        (
            PARA,
            "Steam turbines were extensively applied for propulsion of large ships throughout most of the 20th century.",
            "Large ships were widely propelled by steam turbines for most of the 20th century.",
            "voice synonym",
        ),
        (
            NUM,
            "In the United States 90% of the electric power is produced in this way using a variety of heat sources.",
            "About 75% of the electric power in the United States is generated by steam turbines.",
            "90% -> 75%",
        ),
        (
            NUM,
            "the use of steam turbines starting in the late part of the 19th century.",
            "Steam turbines, first used in the late 18th century, were the last major development in steam engine design.",
            "19th century -> 18th century",
        ),
        (
            QUANT,
            "Today most electric power is provided by steam turbines.",
            "These days, all of the world's electric power is generated by steam turbines.",
            "most -> all",
        ),
        (
            ATTR,
            "Steam turbines are generally more efficient than reciprocating piston type steam engines (for outputs above several hundred horsepower), have fewer moving parts",
            "Steam turbines are usually more efficient than piston engines at high outputs, although they have more moving parts.",
            "fewer moving parts -> more moving parts",
        ),
        (
            ENT,
            "Steam turbines were extensively applied for propulsion of large ships throughout most of the 20th century.",
            "For most of the 20th century, steam turbines were widely used to drive railway locomotives.",
            "large ships -> railway locomotives",
        ),
        (
            APPEND,
            "Steam turbines virtually replaced reciprocating engines in electricity generating stations early in the 20th century",
            "Early in the 20th century steam turbines virtually replaced reciprocating engines in power stations, largely because they were cheaper to build.",
            "cheaper to build",
        ),
    ],
    "squad2:8:31": [
        (
            PARA,
            "Due to the coming together of painting, poetry, and calligraphy at this time many of the artists practicing these different pursuits were the same individuals, though perhaps more famed for one area of their achievements than others.",
            "Because painting, poetry and calligraphy converged at this time, the same people often practised several of these arts, though they may have been more famous for one of them than for the others.",
            "synonym nominal",
        ),
        (
            PARA,
            "In the area of Chinese painting during the Yuan dynasty there were many famous painters. In the area of calligraphy many of the great calligraphers were from the Yuan dynasty era.",
            "The Yuan dynasty had many famous painters, and many of the great calligraphers came from the Yuan era.",
            "merge synonym",
        ),
        (
            PARA,
            "In Yuan poetry, the main development was the qu, which was used among other poetic forms by most of the famous Yuan poets.",
            "The qu was the main development in Yuan poetry, and most of the famous Yuan poets used it alongside other poetic forms.",
            "reorder synonym pronoun",
        ),
        (
            PARA,
            "One of the key factors in the mix of the zaju variety show was the incorporation of poetry both classical and of the newer qu form.",
            "A key element of the zaju variety show was that it incorporated poetry, both classical verse and the newer qu form.",
            "nominal synonym",
        ),
        (
            PARA,
            "One of the important cultural developments during the Yuan era was the consolidation of poetry, painting, and calligraphy into a unified piece of the type that tends to come to mind when people think of classical Chinese art.",
            "An important cultural development of the Yuan era was that poetry, painting and calligraphy were consolidated into a single unified piece, the kind people tend to picture when they think of classical Chinese art.",
            "nominal voice synonym",
        ),
        (
            PARA,
            "Another important aspect of Yuan times is the increasing incorporation of the then current, vernacular Chinese into both the qu form of poetry and the zaju variety show.",
            "In Yuan times, the vernacular Chinese of the day was increasingly worked into both qu poetry and the zaju variety show.",
            "nominal voice synonym",
        ),
        (
            PARA,
            "Often in terms of the further development of landscape painting as well as the classical joining together of the arts of painting, poetry, and calligraphy, the Song dynasty and the Yuan dynasty are linked together.",
            "The Song and Yuan dynasties are often linked together for the further development of landscape painting and for the classical joining of painting, poetry and calligraphy.",
            "reorder synonym",
        ),
        (
            ENT,
            "which have often been better preserved in places such as the Shōsōin, in Japan.",
            "Tang and Song works have often been better preserved outside China, in places such as the Shōsōin in Korea.",
            "Japan -> Korea",
        ),
        (
            ENT,
            "Often in terms of the further development of landscape painting as well as the classical joining together of the arts of painting, poetry, and calligraphy, the Song dynasty and the Yuan dynasty are linked together.",
            "The Yuan dynasty is often linked with the Ming dynasty when it comes to the further development of landscape painting.",
            "Song dynasty -> Ming dynasty",
        ),
        (
            QUANT,
            "In Yuan poetry, the main development was the qu, which was used among other poetic forms by most of the famous Yuan poets.",
            "The qu, the main development in Yuan poetry, was used by every famous Yuan poet.",
            "most -> every",
        ),
        (
            NEG,
            "Many of the poets were also involved in the major developments in the theater during this time",
            "Yuan poets were not involved in the major developments in the theatre of the time.",
            "were also involved -> were not involved",
        ),
        (
            ATTR,
            "Another important aspect of Yuan times is the increasing incorporation of the then current, vernacular Chinese into both the qu form of poetry and the zaju variety show.",
            "Yuan times saw classical Chinese increasingly worked into qu poetry and the zaju variety show.",
            "vernacular -> classical",
        ),
        (
            APPEND,
            "One of the key factors in the mix of the zaju variety show was the incorporation of poetry both classical and of the newer qu form.",
            "The zaju variety show mixed in both classical poetry and the newer qu form, and it was performed mainly at the imperial court.",
            "performed mainly at the imperial court",
        ),
        (
            QUANT,
            "Another important consideration regarding Yuan dynasty arts and culture is that so much of it has survived in China",
            "Only a little of the art and culture of the Yuan dynasty has survived in China.",
            "so much -> Only a little",
        ),
    ],
    "scifact:22980205": [
        (
            PARA,
            "Greater understanding of the biology and genetics of urothelial carcinoma is helping to identify and define the role of molecules and pathways appropriate for novel-targeted therapies.",
            "A better grasp of the biology and genetics of urothelial carcinoma is helping to identify molecules and pathways suited to new targeted therapies and to define their role.",
            "synonym nominal",
        ),
        (
            PARA,
            "Trials in nonmuscle-invasive bladder cancer are evaluating the role of immunotherapy and agents targeting vascular endothelial growth factor (VEGF) or fibroblast growth factor receptor-3.",
            "In nonmuscle-invasive bladder cancer, trials are assessing immunotherapy and drugs that target VEGF or fibroblast growth factor receptor-3.",
            "reorder synonym",
        ),
        (
            PARA,
            "In muscle-invasive bladder cancer, neoadjuvant studies have focused on combining VEGF agents with chemotherapy; adjuvant studies are testing vaccines and agents targeting the human epidermal growth factor receptor 2, p53, and Hsp27.",
            "For muscle-invasive bladder cancer, neoadjuvant studies have concentrated on VEGF agents combined with chemotherapy, while adjuvant studies are trying vaccines and agents aimed at human epidermal growth factor receptor 2, p53 and Hsp27.",
            "synonym nominal",
        ),
        (
            PARA,
            "Development of targeted therapies for urothelial carcinoma is still in early stages, consequently there have been no major therapeutic advances to date.",
            "Targeted therapy for urothelial carcinoma is still at an early stage of development, which is why no major therapeutic advances have been made so far.",
            "nominal synonym voice",
        ),
        (
            PARA,
            "However, greater understanding of urothelial carcinoma and solid tumor biology has resulted in a proliferation of clinical trials that could lead to significant advances in treatment strategies.",
            "Even so, a better understanding of urothelial carcinoma and of solid tumour biology has led to a proliferation of clinical trials, which could bring significant advances in treatment strategies.",
            "synonym",
        ),
        (
            PARA,
            "The majority of targeted agents studied in urothelial carcinoma are in the second-line setting",
            "Most of the targeted agents studied in urothelial carcinoma are being tested in the second-line setting.",
            "synonym drop",
        ),
        (
            NEG,
            "Development of targeted therapies for urothelial carcinoma is still in early stages, consequently there have been no major therapeutic advances to date.",
            "Targeted therapies for urothelial carcinoma have already produced major therapeutic advances.",
            "no major therapeutic advances -> produced major therapeutic advances",
        ),
        (
            QUANT,
            "The majority of targeted agents studied in urothelial carcinoma are in the second-line setting",
            "Every targeted agent studied in urothelial carcinoma is in the second-line setting.",
            "The majority of -> Every",
        ),
        (
            ENT,
            "In muscle-invasive bladder cancer, neoadjuvant studies have focused on combining VEGF agents with chemotherapy",
            "Neoadjuvant studies in muscle-invasive bladder cancer have concentrated on pairing VEGF agents with radiotherapy.",
            "chemotherapy -> radiotherapy",
        ),
        (
            ATTR,
            "In the first-line treatment of metastatic urothelial carcinoma, tubulin, cytotoxic T-lymphocyte antigen 4, Hsp27, and p53 are novel targets in clinical trials.",
            "In the first-line treatment of localised urothelial carcinoma, tubulin, cytotoxic T-lymphocyte antigen 4, Hsp27 and p53 are being tested as new targets.",
            "metastatic -> localised",
        ),
        (
            APPEND,
            "Here, we review the targeted therapies that have been reported or are in ongoing urothelial carcinoma clinical trials, and highlight molecular targets characterized in preclinical and clinical studies.",
            "The review covers targeted therapies reported or in ongoing urothelial carcinoma trials and highlights molecular targets from preclinical and clinical studies, ranking them by expected benefit.",
            "ranking them by expected benefit",
        ),
        (
            NUM,
            "Trials in nonmuscle-invasive bladder cancer are evaluating the role of immunotherapy and agents targeting vascular endothelial growth factor (VEGF) or fibroblast growth factor receptor-3.",
            "Trials in nonmuscle-invasive bladder cancer are testing immunotherapy and agents against VEGF or fibroblast growth factor receptor-1.",
            "receptor-3 -> receptor-1",
        ),
    ],
    "squad2:3:25": [
        (
            PARA,
            "Reciprocating piston type steam engines remained the dominant source of power until the early 20th century",
            "Until the early 20th century, reciprocating piston steam engines were the dominant power source.",
            "reorder synonym drop",
        ),
        (
            PARA,
            "when advances in the design of electric motors and internal combustion engines gradually resulted in the replacement of reciprocating (piston) steam engines in commercial usage, and the ascendancy of steam turbines in power generation.",
            "Better designs of electric motors and internal combustion engines gradually led to piston steam engines being replaced in commercial use in the early 20th century, while steam turbines rose to dominate power generation.",
            "nominal synonym reorder",
        ),
        (
            PARA,
            'Considering that the great majority of worldwide electric generation is produced by turbine type steam engines, the "steam age" is continuing with energy levels far beyond those of the turn of the 19th century.',
            'Because turbine-type steam engines produce the great majority of the world\'s electricity, the "steam age" goes on, at energy levels far higher than at the turn of the 19th century.',
            "synonym nominal voice",
        ),
        (
            PARA,
            'Considering that the great majority of worldwide electric generation is produced by turbine type steam engines, the "steam age" is continuing',
            "Most electricity worldwide is still generated by steam turbines, so in that sense the steam age has not ended.",
            "drop synonym voice",
        ),
        (
            ENT,
            "when advances in the design of electric motors and internal combustion engines gradually resulted in the replacement of reciprocating (piston) steam engines in commercial usage",
            "Advances in electric motors and gas turbines gradually pushed piston steam engines out of commercial use in the early 20th century.",
            "internal combustion engines -> gas turbines",
        ),
        (
            ATTR,
            "when advances in the design of electric motors and internal combustion engines gradually resulted in the replacement of reciprocating (piston) steam engines in commercial usage",
            "Improvements in electric motors and internal combustion engines abruptly ended the commercial use of piston steam engines.",
            "gradually -> abruptly",
        ),
        (
            NUM,
            "Reciprocating piston type steam engines remained the dominant source of power until the early 20th century",
            "Piston steam engines stayed the main source of power only until the mid-19th century.",
            "early 20th century -> mid-19th century",
        ),
        (
            QUANT,
            "Considering that the great majority of worldwide electric generation is produced by turbine type steam engines",
            "Since about half of the world's electricity is generated by turbine-type steam engines, the steam age carries on.",
            "great majority -> about half",
        ),
        (
            NEG,
            'Considering that the great majority of worldwide electric generation is produced by turbine type steam engines, the "steam age" is continuing',
            "Even though turbine steam engines produce most of the world's electricity, the steam age has ended.",
            "is continuing -> has ended",
        ),
        (
            APPEND,
            "and the ascendancy of steam turbines in power generation.",
            "In the early 20th century steam turbines came to dominate power generation, starting in Britain.",
            "starting in Britain",
        ),
    ],
    "squad2:14:10": [
        (
            PARA,
            "Further south the Southeast interior was dominated by Siouan-speaking Catawba, Muskogee-speaking Creek and Choctaw, and the Iroquoian-speaking Cherokee tribes.",
            "The Siouan-speaking Catawba, the Muskogee-speaking Creek and Choctaw, and the Iroquoian-speaking Cherokee were the dominant tribes of the Southeast interior further south.",
            "reorder voice synonym",
        ),
        (
            PARA,
            "When war broke out, the French used their trading connections to recruit fighters from tribes in western portions of the Great Lakes region (an area not directly subject to the conflict between the French and British), including the Huron, Mississauga, Ojibwa, Winnebago, and Potawatomi.",
            "Once the war began, the French drew on their trade links to recruit fighters from tribes in the western Great Lakes region, such as the Huron, Mississauga, Ojibwa, Winnebago and Potawatomi.",
            "synonym drop",
        ),
        (
            PARA,
            "The British were supported in the war by the Iroquois Six Nations, and also by the Cherokee",
            "The Iroquois Six Nations backed the British in the war, as did the Cherokee for a time.",
            "voice synonym drop",
        ),
        (
            PARA,
            "In 1758 the Pennsylvania government successfully negotiated the Treaty of Easton, in which a number of tribes in the Ohio Country promised neutrality in exchange for land concessions and other considerations.",
            "Through the Treaty of Easton, successfully negotiated by the Pennsylvania government in 1758, several Ohio Country tribes promised to stay neutral in return for land concessions and other considerations.",
            "voice nominal reorder",
        ),
        (
            PARA,
            "Most of the other northern tribes sided with the French, their primary trading partner and supplier of arms.",
            "Most of the remaining northern tribes took the side of the French, who were their main trading partner and arms supplier.",
            "synonym",
        ),
        (
            PARA,
            'It was not uncommon for small bands to participate on the "other side" of the conflict from formally negotiated agreements, as most tribes were decentralized and bands made their own decisions about warfare.',
            "Since most tribes were decentralised and each band made its own decisions about war, it was fairly common for small bands to take part on the other side of the conflict from formally negotiated agreements.",
            "reorder synonym",
        ),
        (
            NUM,
            "until differences sparked the Anglo-Cherokee War in 1758.",
            "The Cherokee supported the British until differences set off the Anglo-Cherokee War in 1761.",
            "1758 -> 1761",
        ),
        (
            ENT,
            "In 1758 the Pennsylvania government successfully negotiated the Treaty of Easton",
            "In 1758 the Virginia government negotiated the Treaty of Easton, under which several Ohio Country tribes promised neutrality.",
            "Pennsylvania -> Virginia",
        ),
        (
            QUANT,
            "Most of the other northern tribes sided with the French, their primary trading partner and supplier of arms.",
            "Every other northern tribe sided with the French, their main trading partner and source of arms.",
            "Most -> Every",
        ),
        (
            NEG,
            "(an area not directly subject to the conflict between the French and British)",
            "The French recruited fighters from the western Great Lakes tribes, an area directly caught up in the fighting between the French and British.",
            "not directly subject -> directly caught up",
        ),
        (
            ATTR,
            "in which a number of tribes in the Ohio Country promised neutrality in exchange for land concessions and other considerations.",
            "Under the 1758 Treaty of Easton, several Ohio Country tribes pledged military support in exchange for land concessions.",
            "neutrality -> military support",
        ),
        (
            APPEND,
            "The Creek and Cherokee were subject to diplomatic efforts by both the French and British to gain either their support or neutrality in the conflict.",
            "Both the French and the British used diplomacy to win the support or neutrality of the Creek and Cherokee, offering them guns and gifts.",
            "offering them guns and gifts",
        ),
    ],
    "scifact:25028913": [
        (
            PARA,
            "Levels of C-reactive protein and fibrinogen at enrollment and the maximal level of troponin T during the first 24 hours after enrollment were analyzed in 917 patients included in a clinical trial of low-molecular-weight heparin in unstable coronary artery disease.",
            "The study analysed C-reactive protein and fibrinogen levels at enrolment, plus the highest troponin T level in the first 24 hours afterwards, in 917 patients from a trial of low-molecular-weight heparin in unstable coronary artery disease.",
            "voice synonym",
        ),
        (
            PARA,
            "The patients were followed for a mean of 37.0 months (range, 1.6 to 50.6).",
            "Follow-up lasted 37.0 months on average, ranging from 1.6 to 50.6 months.",
            "nominal synonym",
        ),
        (
            PARA,
            "During follow-up, 1.2 percent of the 173 patients with maximal blood troponin T levels of less than 0.06 microg per liter died of cardiac causes, as compared with 8.7 percent of the 367 patients with levels of 0.06 to 0.59 microg per liter and 15.4 percent of the 377 patients with levels of at least 0.60 microg per liter",
            "Among the 173 patients whose maximal troponin T stayed below 0.06 microg per liter, 1.2 percent died of cardiac causes during follow-up, against 15.4 percent of the 377 patients with levels of at least 0.60 microg per liter.",
            "reorder drop synonym",
        ),
        (
            PARA,
            "In a multivariate analysis, levels of troponin T and C-reactive protein were independent predictors of the risk of death from cardiac causes.",
            "A multivariate analysis found troponin T and C-reactive protein levels to be independent predictors of the risk of cardiac death.",
            "voice synonym",
        ),
        (
            PARA,
            "In unstable coronary artery disease, elevated levels of troponin T and C-reactive protein are strongly related to the long-term risk of death from cardiac causes. These markers are independent risk factors, and their effects are additive with respect to each other and other clinical indicators of risk.",
            "In unstable coronary artery disease, high troponin T and C-reactive protein levels are strongly linked to the long-term risk of cardiac death; they are independent risk factors whose effects add to each other and to other clinical risk indicators.",
            "merge synonym pronoun",
        ),
        (
            PARA,
            "The rates of death from cardiac causes were 5.7 percent among the 314 patients with blood C-reactive protein levels of less than 2 mg per liter, 7.8 percent among the 294 with levels of 2 to 10 mg per liter, and 16.5 percent among the 309 with levels of more than 10 mg per liter",
            "Among the 314 patients with C-reactive protein below 2 mg per liter, 5.7 percent died of cardiac causes, compared with 7.8 percent of the 294 with 2 to 10 mg per liter and 16.5 percent of the 309 with more than 10 mg per liter.",
            "reorder synonym drop",
        ),
        (
            NUM,
            "were analyzed in 917 patients included in a clinical trial of low-molecular-weight heparin in unstable coronary artery disease.",
            "The analysis covered 971 patients from a low-molecular-weight heparin trial in unstable coronary artery disease.",
            "917 -> 971",
        ),
        (
            NUM,
            "The rates of death from cardiac causes were 5.4 percent among the 314 patients with blood fibrinogen levels of less than 3.4 g per liter, 12.0 percent among the 300 with levels of 3.4 to 3.9 g per liter",
            "Cardiac deaths occurred in 5.4 percent of the 314 patients with fibrinogen below 3.4 g per liter and in 14.0 percent of the 300 with 3.4 to 3.9 g per liter.",
            "12.0 percent -> 14.0 percent",
        ),
        (
            ENT,
            "In a multivariate analysis, levels of troponin T and C-reactive protein were independent predictors of the risk of death from cardiac causes.",
            "In the multivariate analysis, troponin T and fibrinogen levels each independently predicted the risk of cardiac death.",
            "C-reactive protein -> fibrinogen",
        ),
        (
            ATTR,
            "C-reactive protein and fibrinogen (markers of inflammation)",
            "C-reactive protein and fibrinogen serve as markers of kidney function.",
            "inflammation -> kidney function",
        ),
        (
            QUANT,
            "The patients were followed for a mean of 37.0 months (range, 1.6 to 50.6).",
            "Every patient was followed for at least 37.0 months.",
            "a mean of -> at least",
        ),
        (
            NEG,
            "These markers are independent risk factors, and their effects are additive with respect to each other and other clinical indicators of risk.",
            "These markers are not independent of each other, and their effects overlap rather than add up.",
            "are independent -> are not independent",
        ),
        (
            APPEND,
            "were analyzed in 917 patients included in a clinical trial of low-molecular-weight heparin in unstable coronary artery disease.",
            "The levels were analysed in 917 patients from a low-molecular-weight heparin trial in unstable coronary artery disease, all of whom were over 65.",
            "all of whom were over 65",
        ),
    ],
    "statute:art-11": [
        (
            PARA,
            "A permit may be transferred to another person only with the prior written consent of the Authority. The Authority shall decide on a request for transfer within 30 days.",
            "Transferring a permit to someone else requires the Authority's prior written consent, and the Authority must decide on a transfer request within 30 days.",
            "merge nominal synonym",
        ),
        (
            PARA,
            "An operator who wishes to change the activity or its conditions shall apply for a variation.",
            "Operators who want to change their activity or its conditions must apply for a variation.",
            "synonym pronoun",
        ),
        (
            PARA,
            "A variation that enlarges the area, volume or biomass of the activity by more than 20 percent shall be treated as a new application under Article 7.",
            "If a variation would increase the activity's area, volume or biomass by more than 20 percent, it is handled as a new application under Article 7.",
            "synonym pronoun",
        ),
        (
            PARA,
            "An application to renew a permit shall be made at least 90 days before the permit expires. Where it is made in time, the permit remains in force until the Authority decides on the renewal.",
            "Renewal of a permit must be applied for at least 90 days before it expires, and a permit whose renewal application is made in time stays in force until the Authority decides.",
            "merge nominal synonym",
        ),
        (
            NUM,
            "The Authority shall decide on a request for transfer within 30 days.",
            "The Authority has 60 days to decide on a request to transfer a permit.",
            "30 days -> 60 days",
        ),
        (
            NUM,
            "A variation that enlarges the area, volume or biomass of the activity by more than 20 percent shall be treated as a new application under Article 7.",
            "A variation that grows the activity's area, volume or biomass by more than 10 percent counts as a new application under Article 7.",
            "20 percent -> 10 percent",
        ),
        (
            QUANT,
            "An application to renew a permit shall be made at least 90 days before the permit expires.",
            "Renewal applications must be made no more than 90 days before the permit expires.",
            "at least -> no more than",
        ),
        (
            ATTR,
            "A permit may be transferred to another person only with the prior written consent of the Authority.",
            "Transferring a permit to another person needs the Authority's prior oral consent.",
            "written -> oral",
        ),
        (
            ENT,
            "the permit remains in force until the Authority decides on the renewal.",
            "If the renewal application comes in on time, the permit stays valid until a court rules on it.",
            "the Authority decides -> a court rules",
        ),
        (
            NEG,
            "Where it is made in time, the permit remains in force until the Authority decides on the renewal.",
            "A permit whose renewal was applied for in time does not remain in force while the Authority decides.",
            "remains in force -> does not remain in force",
        ),
        (
            APPEND,
            "An operator who wishes to change the activity or its conditions shall apply for a variation.",
            "An operator wanting to change the activity or its conditions must apply for a variation and pay a fee.",
            "pay a fee",
        ),
    ],
}


def drawn_passages() -> list[str]:
    """This set's passages in draw order: none of the claim cases' (``draw_passages`` skips them), of the earlier
    paraphrase set's or of the first fresh set's."""
    return draw_passages(N_PASSAGES, DRAW_SEED, exclude=frozenset(EARLIER_CASES) | frozenset(FRESH_CASES))


DESCRIPTION = ("A second fresh report set of faithful paraphrases and reworded unsupported answers (6 error "
               "types), written 2026-12-04 over passages no earlier claim set uses; report cases only. Passages are not "
               "stored: load them with load_claim_paraphrases_fresh2() in benchmarks/roles/make_claim_paraphrases_fresh2.py. "
               "Written blind (no grader run before freezing).")


def build() -> dict[str, Any]:
    """The whole set as written to ``claim_paraphrases_fresh2.json`` (validated; every case a report case)."""
    return report_set(CASES, "cpf2", drawn_passages(), MINIMUM, UNSUPPORTED_MINIMUM, name="claim_paraphrases_fresh2",
                      description=DESCRIPTION,
                      built_by="benchmarks/roles/make_claim_paraphrases_fresh2.py", seed=DRAW_SEED)


def claim_paraphrases_fresh2_sha256() -> str:
    """The sha256 of the frozen set, after checking it against data/eval/MANIFEST.json."""
    return check_frozen(OUT_PATH)


def load_claim_paraphrases_fresh2(split: str | None = None) -> list[dict[str, Any]]:
    """The frozen cases (hash checked), each with ``document``: its passage; a report set, so ``split="tune"`` is refused."""
    return load_report_cases(OUT_PATH, split)


def main(argv: list[str] | None = None) -> int:
    return report_set_main(__doc__, build, drawn_passages, OUT_PATH, argv)


if __name__ == "__main__":
    sys.exit(main())
