"""What the blind multi-hop statute report builders share (``make_statute_multihop_report2.py``, ``..._report3.py``):
the statute's numbered paragraphs, the checks every item must pass before a write, the set's JSON, the
within-set near-duplicate check, and the command line. Each builder holds only its questions, its description
and which articles count as a penalty.

Gold per item: ``gold_articles`` (rule or penalty article first, then the other), ``gold_paragraphs`` (the
paragraphs that hold the answer) and a one-sentence ``answer``. :func:`validate` parses the statute's markdown
and checks that every gold article and paragraph exists and that every number in an answer occurs in that
item's gold paragraphs; it runs before every write.

Hygiene: no two questions of a set within MiniLM cosine 0.9 of each other (``--check-near``, questions
only). Being blind, the set was NOT compared with the earlier statute sets, so a question may happen to resemble
one of theirs; it was written from the statute only, never from those sets.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
sys.path.insert(0, str(ROOT))
from common import set_writer  # noqa: E402

NEAR = 0.9
PENALTY, DEFINED = "penalty->offence", "defined term"
Item = tuple[str, list[int], list[str], str, str]  # (question, gold articles, gold paragraphs, pattern, answer)

_ARTICLE = re.compile(r"^## Article (\d+)\.")
_PARAGRAPH = re.compile(r"^\((\d+)\)\s+(.*)")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def statute_paragraphs(path: Path = ROOT / "data" / "statute.md") -> dict[str, str]:
    """``{"35(2)": text}`` from the markdown: numbered paragraphs under ``## Article N.``, with their (a)-(e) lines."""
    paragraphs: dict[str, str] = {}
    article, key = None, None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            match = _ARTICLE.match(line)
            article, key = (int(match.group(1)) if match else None), None
            continue
        if article is None or not line:
            continue
        match = _PARAGRAPH.match(line)
        if match:
            key = f"{article}({match.group(1)})"
            paragraphs[key] = match.group(2)
        elif key is not None:
            paragraphs[key] += " " + line
    return paragraphs


def penalty_articles(path: Path = ROOT / "data" / "statute.md") -> frozenset[int]:
    """The articles whose heading speaks of penalties (35, 36 and 37 in the bundled Act)."""
    headings = re.findall(r"^## Article (\d+)\. (.*)$", path.read_text(encoding="utf-8"), re.M)
    return frozenset(int(number) for number, title in headings if "penalt" in title.lower())


PENALTY_ARTICLES = penalty_articles()


def penalty_problem(arts: list[int]) -> str:
    """Why a penalty -> offence item is wrong ("" when its first gold article is a penalty article)."""
    return "" if arts[0] in PENALTY_ARTICLES else f"a penalty item starts with a penalty article {sorted(PENALTY_ARTICLES)}"


def numbers(text: str) -> set[str]:
    return {n.rstrip(",.").replace(",", "") for n in _NUMBER.findall(text)}


def gold_problems(arts: Sequence[int], paras: Sequence[str], text: str, paragraphs: dict[str, str],
                  what: str = "answer") -> list[str]:
    """What is wrong with an item's gold paragraphs: one the Act lacks, paragraphs of other articles than ``arts``,
    or a number of ``text`` (its answer or reason) that none of them has.

    >>> gold_problems([35], ["35(2)"], "A fine of up to 80,000 crowns.", {"35(2)": "liable to a fine of up to 80,000 crowns"})
    []
    >>> gold_problems([35], ["35(9)"], "", {"35(2)": "..."})
    ["no paragraph ['35(9)'] in the Act"]
    """
    missing = [p for p in paras if p not in paragraphs]
    if missing:
        return [f"no paragraph {missing} in the Act"]
    problems = []
    if {int(p.split("(")[0]) for p in paras} != set(arts):
        problems.append(f"paragraphs {list(paras)} do not match articles {list(arts)}")
    stray = numbers(text) - set().union(*(numbers(paragraphs[p]) for p in paras))
    if stray:
        problems.append(f"{what} numbers {sorted(stray)} not in {list(paras)}")
    return problems


def validate(items: Sequence[Item], penalty_problem: Callable[[list[int]], str]) -> None:
    """Every gold article and paragraph exists; every number of an answer occurs in that item's gold paragraphs;
    9 items of each pattern; ``penalty_problem(articles)`` says what is wrong with a penalty item ("" if nothing)."""
    paragraphs = statute_paragraphs()
    articles = {int(key.split("(")[0]) for key in paragraphs}
    problems = []
    patterns = {PENALTY: 0, DEFINED: 0}
    for i, (question, arts, paras, pattern, answer) in enumerate(items, 1):
        patterns[pattern] += 1
        if re.search(r"\barticle\b|\bparagraph\b", question, re.I):
            problems.append(f"{i}: the question names an article or paragraph")
        if len(arts) != 2 or len(set(arts)) != 2 or any(a not in articles for a in arts):
            problems.append(f"{i}: gold articles {arts}")
        problems += [f"{i}: {problem}" for problem in gold_problems(arts, paras, answer, paragraphs)]
        if pattern == DEFINED and 3 not in arts:
            problems.append(f"{i}: a defined-term item needs Article 3")
        if pattern == PENALTY and penalty_problem(arts):
            problems.append(f"{i}: {penalty_problem(arts)}")
    if patterns != {PENALTY: 9, DEFINED: 9}:
        problems.append(f"pattern counts {patterns}")
    if len({q for q, *_ in items}) != len(items):
        problems.append("duplicate questions")
    if problems:
        raise SystemExit("invalid items:\n  " + "\n  ".join(problems))


def build(items: Sequence[Item], about: str, prefix: str, penalty_problem: Callable[[list[int]], str]) -> str:
    """The set's JSON (``{"about", "items"}``, ids ``<prefix>-01`` ...), after :func:`validate`."""
    validate(items, penalty_problem)
    rows = [{"id": f"{prefix}-{i:02d}", "question": q, "pattern": pattern, "gold_articles": arts,
             "gold_paragraphs": paras, "answer": answer}
            for i, (q, arts, paras, pattern, answer) in enumerate(items, 1)]
    return json.dumps({"about": about, "items": rows}, indent=1, ensure_ascii=False) + "\n"


def check_near(items: Sequence[Item], prefix: str) -> int:
    """Print each question's highest MiniLM cosine to another question of this set; 1 if any >= NEAR."""
    import numpy as np

    from ragkit.core.embeddings import embed, load_embedder

    mine = [q for q, *_ in items]
    vectors = embed(load_embedder(), mine)
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -1.0)
    for i, question in enumerate(mine):
        print(f"{float(np.max(sims[i])):.3f}  {prefix}-{i + 1:02d}")
    worst = float(np.max(sims))
    print(f"highest {worst:.3f} (bar {NEAR})")
    return int(worst >= NEAR)


def builder_main(doc: str, name: str, items: Sequence[Item], about: str, prefix: str,
                 penalty_problem: Callable[[list[int]], str], argv: list[str] | None = None) -> int:
    """The command line of a builder: compare with ``data/eval/<name>``, ``--write`` it, or ``--check-near``."""
    return set_writer(doc, lambda: build(items, about, prefix, penalty_problem), ROOT / "data" / "eval" / name, argv,
                      {"--check-near": ("no two questions of this set within cosine NEAR", lambda: check_near(items, prefix))})
