"""Find questions in a new set that (nearly) repeat questions of other sets, by MiniLM cosine.

A blind test set is only worth something if it does not re-ask the questions a component was tuned on.
This script embeds every question of NEW.json and of each OTHER file with ragkit's packaged MiniLM and
reports every pair whose cosine is at or above ``--bar`` (default 0.9), plus exact matches after
lower-casing and collapsing whitespace. Pairs inside NEW.json itself are checked too. It prints, for each
other set, the highest cosine any new question reaches, and exits with status 1 when a pair is flagged.

Usage (from the project folder)::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/roles/check_near_duplicates.py \
        data/eval/routing_blind.json data/routing_questions.json data/routing_dev.json /tmp/routes.json

Each file is a JSON list of ``{"question": ...}`` objects or a plain JSON list of strings.

Simplifications: cosine on one sentence embedding is a proxy. It flags rewordings that keep the words
("How much is the lamb?" / "What does the lamb cost?") but can miss a paraphrase with new words, and it
can flag two different questions about the same dish; the bar is a review threshold, not a proof.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np


def read_questions(path: str | Path) -> list[str]:
    """The questions of a JSON list of ``{"question": str}`` objects or of plain strings.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write('[{"question": "Hi?"}, "Bye?"]')
    >>> read_questions(f.name)
    ['Hi?', 'Bye?']
    >>> os.unlink(f.name)
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list")
    out: list[str] = []
    for i, item in enumerate(data):
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and isinstance(item.get("question"), str):
            out.append(item["question"])
        else:
            raise ValueError(f"{path}[{i}]: expected a string or an object with a 'question' string")
    return out


def normalise(text: str) -> str:
    """Lower-case and collapse whitespace: ``normalise(" Hi  There ")`` -> ``'hi there'``."""
    return " ".join(text.lower().split())


def near_pairs(new: list[str], other: list[str], sims: np.ndarray, bar: float,
               same_set: bool = False) -> list[tuple[float, int, int]]:
    """``(cosine, i, j)`` for every pair with cosine >= bar or equal normalised text, highest first.

    >>> near_pairs(["a", "b"], ["A", "c"], np.array([[0.5, 0.2], [0.1, 0.95]]), 0.9)
    [(0.95, 1, 1), (0.5, 0, 0)]
    """
    found = []
    for i in range(len(new)):
        for j in range(len(other)):
            if same_set and j <= i:
                continue
            cos = float(sims[i, j])
            if cos >= bar or normalise(new[i]) == normalise(other[j]):
                found.append((round(cos, 4), i, j))
    return sorted(found, reverse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path, help="the set being checked")
    parser.add_argument("others", type=Path, nargs="*", help="sets it must not repeat")
    parser.add_argument("--bar", type=float, default=0.9, help="flag pairs with cosine >= bar (default 0.9)")
    args = parser.parse_args(argv)

    from ragkit.core.embeddings import embed, load_embedder

    embedder = load_embedder()
    new = read_questions(args.new)
    new_vecs = embed(embedder, new)
    flagged = 0
    sets = [(args.new, new, new_vecs, True)]
    for path in args.others:
        questions = read_questions(path)
        sets.append((path, questions, embed(embedder, questions), False))
    for path, questions, vecs, same in sets:
        sims = new_vecs @ vecs.T
        if same:
            sims = sims.copy()
            np.fill_diagonal(sims, -1.0)
        best = float(sims.max()) if sims.size else float("nan")
        i, j = np.unravel_index(int(sims.argmax()), sims.shape) if sims.size else (0, 0)
        label = "itself" if same else str(path)
        print(f"{label}: {len(questions)} questions; highest cosine {best:.4f}")
        if sims.size:
            print(f"    {new[i]!r}\n    {questions[j]!r}")
        pairs = near_pairs(new, questions, sims, args.bar, same_set=same)
        for cos, i, j in pairs:
            print(f"  FLAG {cos:.4f}  {new[i]!r}  ~  {questions[j]!r}")
        flagged += len(pairs)
    print(f"{flagged} pair(s) at cosine >= {args.bar} or identical after lower-casing")
    return 1 if flagged else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
