"""What the fresh claim-paraphrase report sets share (``make_claim_paraphrases_fresh.py``, ``..._fresh2.py``,
``..._fresh3.py``): the set's record, its loader and the builder's command line. Each builder holds only its
drawn passages, its written answers (``CASES``), its minimum counts and its description.

Every case of these sets is a report case: the loader refuses a tune split, since nothing is tuned on them.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from common import write_frozen_set
from make_claim_cases import passage_document, render, source_of
from make_claim_paraphrases import MOVES, TYPES, case_records, validate

from ragkit.goldsets import load_goldset


def report_set(table: dict[str, list[tuple[str, str, str, str]]], prefix: str, drawn: Sequence[str],
               minimum: dict[str, int], unsupported_minimum: int, name: str, description: str, built_by: str,
               seed: int) -> dict[str, Any]:
    """The whole set as written to ``<name>.json``: ``table``'s rows validated against the ``drawn`` passages and
    the minimum counts, every case a report case, its ids ``<prefix>-0001`` on."""
    texts = {key: passage_document(source_of(key)).page_content for key in table}
    cases = case_records(table, prefix, dict.fromkeys(table, "report"))
    validate(cases, list(drawn), texts, table=table, minimum=minimum, unsupported_minimum=unsupported_minimum)
    for case in cases:
        del case["passage_key"]
    return {"name": name, "description": description, "built_by": built_by, "seeds": {"draw": seed},
            "passages": len(table), "types": list(TYPES), "moves": sorted(MOVES),
            "counts": dict(Counter(c["type"] for c in cases)), "cases": cases}


def load_report_cases(path: Path, split: str | None = None) -> list[dict[str, Any]]:
    """The frozen cases of the set at ``path`` (hash checked), each with ``document``: its passage; ``split="tune"``
    is refused."""
    if split == "tune":
        raise ValueError(f"{path.name} is a report set: there is no tune split")
    if split not in (None, "report"):
        raise ValueError(f"split must be 'report' or None, not {split!r}")
    data, _ = load_goldset(path.name)
    return [{**case, "document": passage_document(case["source"])} for case in data["cases"]]


def report_set_main(doc: str, build: Callable[[], dict[str, Any]], drawn: Callable[[], list[str]], path: Path,
                    argv: list[str] | None = None) -> int:
    """A fresh set builder's command line: write the set (refused once frozen with other content), ``--check``
    it against the file, or ``--show-passages`` to print the drawn passages its answers are written from."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="validate and compare with the file; write nothing")
    parser.add_argument("--show-passages", action="store_true", help="print the drawn passages (for writing CASES)")
    args = parser.parse_args(argv)
    if args.show_passages:
        for key in drawn():
            print(f"==== {key}\n{passage_document(source_of(key)).page_content}\n")
        return 0
    data = build()
    print(f"{len(data['cases'])} cases from {data['passages']} passages: {data['counts']}")
    return write_frozen_set(render(data), path, args.check)
