"""Write ragkit/core/antonyms.tsv and synonyms.tsv: WordNet 3.0's direct antonyms and its synonym sets.

The claim grader reads a swapped attribute ("a dry finish" answered as "a sweet finish") from the antonyms and
a faithful rewording ("marked" for "pronounced", "a form of" for "a variant of") from the synonym sets
(``ragkit.core.nlp.antonyms``, ``synonyms``): MiniLM puts antonyms close together and leaves many synonyms far
apart, so word similarity alone cannot tell the two. WordNet is the standard lexicon for this, but its Python
readers (``nltk``, ``wn``) download the database at run time, which ragkit never does on a default path; so
the two tables are extracted once and shipped with the package (about 45 KB and 670 KB), under WordNet's
licence, which each file repeats.

- ``antonyms.tsv``: *direct* antonyms only (WordNet's "!" pointers between two words, such as large/small,
  dry/sweet, eastern/western) of adjectives and adverbs, one pair a line. Indirect antonyms through similar
  adjectives (a cluster's satellites) were tried on the claim grader's dev pool and added three catches and
  three false alarms (``benchmarks/roles/README.md``, round of 2026-12-04); nouns and verbs added nothing.
- ``synonyms.tsv``: every synonym set (nouns, verbs, adjectives, adverbs) with two or more single words, one
  set a line, words separated by tabs.

Single words only, lower case. Needs the WordNet 3.0 database files (``data.adj``, ``data.adv``, ``data.noun``,
``data.verb``): on Debian or Ubuntu ``apt-get install wordnet-base`` puts them in ``/usr/share/wordnet``; any
WordNet 3.0 ``dict`` folder works (``--wordnet DIR``).

Run from the project folder: ``.venv/bin/python benchmarks/roles/make_wordnet.py`` (writes both files;
``--check`` compares a rebuild with them).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "ragkit" / "core"
LICENCE = """\
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


def _records(folder: Path, pos: str):
    """(offset, words, pointers) of each synset of ``data.<pos>``: words lower case, pointers (symbol, target
    offset, source word number, target word number)."""
    for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):  # the licence header
            continue
        fields = line.split("|")[0].split()
        count = int(fields[3], 16)
        names = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count)]
        at = 4 + 2 * count
        pointers = []
        for i in range(int(fields[at])):
            symbol, target, _, source_target = fields[at + 1 + 4 * i:at + 5 + 4 * i]
            pointers.append((symbol, target, int(source_target[:2], 16), int(source_target[2:], 16)))
        yield fields[0], names, pointers


def direct_antonyms(folder: Path, pos: str) -> set[tuple[str, str]]:
    """(word, antonym) for every lexical "!" pointer in ``data.<pos>`` between two single words."""
    records = list(_records(folder, pos))
    synsets = {offset: names for offset, names, _ in records}
    pairs = set()
    for offset, names, pointers in records:
        for symbol, target, s, t in pointers:
            if symbol == "!" and s and t:
                a, b = names[s - 1], synsets[target][t - 1]
                if "_" not in a + b and a != b:
                    pairs.add((a, b))
    return pairs


def synonym_sets(folder: Path) -> list[tuple[str, ...]]:
    """Every synset's single words, when it has two or more."""
    sets = set()
    for pos in ("noun", "verb", "adj", "adv"):
        for _, names, _ in _records(folder, pos):
            single = tuple(sorted({w for w in names if "_" not in w}))
            if len(single) >= 2:
                sets.add(single)
    return sorted(sets)


def build(folder: Path) -> dict[str, str]:
    pairs = direct_antonyms(folder, "adj") | direct_antonyms(folder, "adv")
    pairs |= {(b, a) for a, b in pairs}
    antonyms = "# WordNet 3.0's direct antonyms of adjectives and adverbs (benchmarks/roles/make_wordnet.py).\n"
    synonyms = "# WordNet 3.0's synonym sets of two or more single words (benchmarks/roles/make_wordnet.py).\n"
    return {"antonyms.tsv": antonyms + LICENCE + "".join(f"{a}\t{b}\n" for a, b in sorted(pairs) if a < b),
            "synonyms.tsv": synonyms + LICENCE + "".join("\t".join(words) + "\n" for words in synonym_sets(folder))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"), help="a WordNet 3.0 dict folder")
    parser.add_argument("--check", action="store_true", help="compare a rebuild with the file")
    args = parser.parse_args(argv)
    if not (args.wordnet / "data.adj").is_file():
        parser.error(f"no WordNet 3.0 database in {args.wordnet}: apt-get install wordnet-base, or pass --wordnet DIR")
    status = 0
    for name, text in build(args.wordnet).items():
        path = CORE / name
        if args.check:
            same = path.is_file() and path.read_text(encoding="utf-8") == text
            print("matches" if same else "DIFFERS from", path)
            status |= not same
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}: {sum(not line.startswith('#') for line in text.splitlines())} lines")
    return status

if __name__ == "__main__":
    sys.exit(main())
