"""Language detection for Latin-script questions: French, Spanish and German are told apart, no English question is flagged."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

from ragkit.core.nlp import detect_language, offline_language_note

DATA = Path(__file__).resolve().parents[1] / "data"


def english_questions() -> list[str]:
    """Every question of the labelled sets (data/eval/*.json(l), data/routing*.json) that is written in Latin script."""
    found: list[str] = []

    def grab(x: object) -> None:
        if isinstance(x, dict):
            found.extend(x[k] for k in ("question", "message", "query") if isinstance(x.get(k), str))
            for v in x.values():
                if isinstance(v, (list, dict)):
                    grab(v)
        elif isinstance(x, list):
            for v in x:
                grab(v)

    for path in sorted(glob.glob(str(DATA / "eval" / "*.json*")) + glob.glob(str(DATA / "routing*.json"))):
        if path.endswith("MANIFEST.json"):
            continue
        text = Path(path).read_text(encoding="utf-8")
        grab([json.loads(line) for line in text.splitlines() if line.strip()] if path.endswith(".jsonl") else json.loads(text))
    latin = [q for q in dict.fromkeys(found) if all(not c.isalpha() or ord(c) < 0x250 for c in q)]
    return latin


def test_no_english_question_is_flagged() -> None:
    questions = english_questions()
    assert len(questions) > 800
    flagged = [q for q in questions if detect_language(q) != "en"]
    assert flagged == []


@pytest.mark.parametrize("question,lang", [
    ("Quels desserts ne contiennent pas de noix ?", "fr"), ("Quel est le plat principal le moins cher ?", "fr"),
    ("¿Qué postres no tienen frutos secos?", "es"), ("¿Qué postres no llevan frutos secos?", "en"),  # one Spanish function word is too few, ("¿Cuál es el vino más caro?", "es"),
    ("Welche Desserts enthalten keine Nüsse?", "de"), ("Gibt es ein veganes Dessert?", "de"),
    ("Is the Crème brûlée made with eggs?", "en"),
 ("Do you have Champagne Blanc de Blancs?", "en"),
])
def test_latin_script_languages(question: str, lang: str) -> None:
    assert detect_language(question) == lang


def test_a_french_question_is_told_what_the_offline_models_read() -> None:
    note = offline_language_note("Quels desserts ne contiennent pas de noix ?")
    assert note is not None and "French" in note and "English" in note
    assert offline_language_note("Quels desserts ne contiennent pas de noix ?", chat_model_set=True) is None
