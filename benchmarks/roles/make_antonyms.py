"""Write ragkit/core/antonyms.tsv: WordNet 3.0's direct antonyms of adjectives and adverbs, one pair a line.

The claim grader reads a swapped attribute ("a dry finish" answered as "a sweet finish") from this table
(``ragkit.core.nlp.antonyms``): MiniLM puts antonyms close together, so word similarity cannot tell them from
synonyms. WordNet is the standard lexicon for this, but its Python readers (``nltk``, ``wn``) download the
database at run time, which ragkit never does on a default path; so the pairs are extracted once and shipped
with the package (about 60 KB), under WordNet's licence, which the file repeats.

Only *direct* antonyms (WordNet's "!" pointers between two words, such as large/small, dry/sweet, eastern/western)
of adjectives and adverbs, single words, lower case. Indirect antonyms through similar adjectives (the
satellites of a cluster) were tried on the claim grader's dev pool and added three catches and three false
alarms (``benchmarks/roles/README.md``, round of 2026-12-04); nouns and verbs added nothing there.

Needs the WordNet 3.0 database files (``data.adj``, ``data.adv``): on Debian or Ubuntu ``apt-get install
wordnet-base`` puts them in ``/usr/share/wordnet``; any WordNet 3.0 ``dict`` folder works (``--wordnet DIR``).

Run from the project folder: ``.venv/bin/python benchmarks/roles/make_antonyms.py`` (writes the file;
``--check`` compares a rebuild with it).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "ragkit" / "core" / "antonyms.tsv"
LICENCE = """\
# WordNet 3.0's direct antonyms of adjectives and adverbs (benchmarks/roles/make_antonyms.py), one pair a line.
#
# WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.
# Permission to use, copy, modify and distribute this software and database and its documentation for any
# purpose and without fee or royalty is hereby granted, provided that you agree to comply with the following
# copyright notice and statements, including the disclaimer, and that the same appear on ALL copies of the
# software, database and documentation, including modifications that you make for internal use or for
# distribution.
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR
# WARRANTIES, EXPRESS OR IMPLIED.  BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO
# REPRESENTATIONS OR WARRANTIES OF MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
# LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS
# OR OTHER RIGHTS.
# The name of Princeton University or Princeton may not be used in advertising or publicity pertaining to
# distribution of the software and/or database.  Title to copyright in this software, database and any
# associated documentation shall at all times remain with Princeton University and LICENSEE agrees to preserve
# same.
"""


def direct_antonyms(folder: Path, pos: str) -> set[tuple[str, str]]:
    """(word, antonym) for every lexical "!" pointer in ``data.<pos>`` between two single words."""
    synsets: dict[str, list[str]] = {}
    pointers: list[tuple[str, str, int, int]] = []
    for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):  # the licence header
            continue
        fields = line.split("|")[0].split()
        offset, count = fields[0], int(fields[3], 16)
        synsets[offset] = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count)]
        at = 4 + 2 * count
        for i in range(int(fields[at])):
            symbol, target, _, source_target = fields[at + 1 + 4 * i:at + 5 + 4 * i]
            if symbol == "!":
                pointers.append((offset, target, int(source_target[:2], 16), int(source_target[2:], 16)))
    pairs = set()
    for offset, target, s, t in pointers:
        if s and t:
            a, b = synsets[offset][s - 1], synsets[target][t - 1]
            if "_" not in a + b and a != b:
                pairs.add((a, b))
    return pairs


def build(folder: Path) -> str:
    pairs = direct_antonyms(folder, "adj") | direct_antonyms(folder, "adv")
    pairs |= {(b, a) for a, b in pairs}
    return LICENCE + "".join(f"{a}\t{b}\n" for a, b in sorted(pairs) if a < b)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"), help="a WordNet 3.0 dict folder")
    parser.add_argument("--check", action="store_true", help="compare a rebuild with the file")
    args = parser.parse_args(argv)
    if not (args.wordnet / "data.adj").is_file():
        parser.error(f"no WordNet 3.0 database in {args.wordnet}: apt-get install wordnet-base, or pass --wordnet DIR")
    text = build(args.wordnet)
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("matches" if same else "DIFFERS from", OUT)
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}: {text.count(chr(10)) - LICENCE.count(chr(10))} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
