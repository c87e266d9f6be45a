"""Which language a question is written in, and whether ragkit's offline models can read it.

The packaged embedder, all-MiniLM-L6-v2, was trained on English; the local roles' vocabularies, stopwords
and stemmer are English too. A Korean question embedded by MiniLM lands near nothing useful, so without a
check it would be routed as "out of scope" or refused as if the knowledge base lacked the answer. Every
graph therefore asks :func:`offline_language_note` first: with local roles, a question in a language they
cannot read gets a plain message saying so (and how to ask instead); with a chat model, it goes through
unchanged.

Detection here is by Unicode script: the script of most of the question's letters (Hangul, Han, Kana,
Cyrillic, Arabic, Greek, Hebrew, Devanagari, Thai ...) names the language family. A few foreign words in
an English question ("What does 제12조 say?") do not change its language.

>>> detect_language("제12조는 무엇을 규정합니까?"), detect_language("What does 제12조 say?")
('ko', 'en')
>>> offline_language_note("Which desserts have no nuts?") is None
True

A Latin-script question is English unless it is clearly French, Spanish or German
(:func:`latin_language`): at least two of that language's function words ("les", "pas", "sans" ...; "los",
"qué", "hay" ...; "der", "keine", "gibt" ...) and more of them than English function words. Measured on
every English question of ``data/eval/*.json(l)`` and ``data/routing*.json`` (852 questions), this flags
none (tests/test_language.py keeps it so); ``langdetect`` 1.0.9, tried first, flagged 7 of them even at
0.999 confidence ("Hello!" is not reliably English to it), so no library is used.

>>> detect_language("Quels desserts ne contiennent pas de noix ?"), detect_language("Which desserts have no nuts?")
('fr', 'en')

Simplifications: only French, Spanish and German are told apart from English among Latin-script
languages (an Italian or Portuguese question is answered as English; MiniLM reads it poorly); a short
question with fewer than two function words ("¿Qué postres no llevan frutos secos?") is taken to be English; a Cyrillic question is reported as Russian
and an Arabic-script one as Arabic, though other languages share those scripts.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# Unicode character-name prefixes -> script. Kana before Han: Japanese text mixes both.
_SCRIPTS = (("HANGUL", "hangul"), ("HIRAGANA", "kana"), ("KATAKANA", "kana"), ("CJK", "han"), ("CYRILLIC", "cyrillic"),
            ("ARABIC", "arabic"), ("GREEK", "greek"), ("HEBREW", "hebrew"), ("DEVANAGARI", "devanagari"),
            ("THAI", "thai"), ("LATIN", "latin"))
SCRIPT_LANGUAGE = {"hangul": "ko", "kana": "ja", "han": "zh", "cyrillic": "ru", "arabic": "ar", "greek": "el",
                   "hebrew": "he", "devanagari": "hi", "thai": "th", "latin": "en"}
LANGUAGE_NAMES = {"en": "English", "ko": "Korean", "ja": "Japanese", "zh": "Chinese", "ru": "Russian", "ar": "Arabic",
                  "el": "Greek", "he": "Hebrew", "hi": "Hindi", "th": "Thai", "fr": "French", "es": "Spanish",
                  "de": "German"}
# Function words of the Latin-script languages told apart from English (none is also an English word).
FUNCTION_WORDS = {
    "fr": frozenset("le les des du une est sont pas ne avec sans pour qui que quel quels quelle quelles où combien "
                    "vous nous je il elle ce cette ces mon ma mes votre vos leur au aux".split()),
    "es": frozenset("el los las del una es son con sin para que qué cuál cuáles cuánto dónde usted nosotros yo este "
                    "esta estos mi mis su sus hay tiene tienen".split()),
    "de": frozenset("der die das den dem des ein eine einen ist sind nicht kein keine keinen mit ohne für welche "
                    "welcher welches wie wo ich wir sie es gibt haben hat und oder".split()),
}
ENGLISH_FUNCTION_WORDS = frozenset("the is are a an of to in for with without which what who how do does not no and or "
                                   "you your i my we our there any can".split())
OFFLINE_LANGUAGES = frozenset({"en"})  # what the packaged MiniLM and the local roles read


def script_of(char: str) -> str | None:
    """The script of one letter, or None for a digit, a mark or punctuation.

    >>> script_of("a"), script_of("한"), script_of("7")
    ('latin', 'hangul', None)
    """
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((script for prefix, script in _SCRIPTS if name.startswith(prefix)), "other")


def detect_language(text: str) -> str:
    """A language code for the script most of the text's letters are written in ("en" for Latin script).

    >>> detect_language("Какие десерты без орехов?"), detect_language("デザートは何ですか")
    ('ru', 'ja')
    """
    scripts = Counter(s for s in map(script_of, text) if s)
    if not scripts:
        return "en"  # digits and punctuation only: nothing to detect
    if scripts["kana"] and scripts["han"]:
        scripts["kana"] += scripts.pop("han")
    script = scripts.most_common(1)[0][0]
    if script == "latin":
        return latin_language(text)
    return SCRIPT_LANGUAGE.get(script, "und")


def latin_language(text: str) -> str:
    """"fr", "es" or "de" when the text has at least two of that language's function words and more of them
    than English ones; else "en".

    >>> latin_language("¿Cuál es el vino más caro?"), latin_language("Gibt es ein veganes Dessert?"), latin_language("Hello!")
    ('es', 'de', 'en')
    """
    tokens = re.findall(r"[^\W\d_]+", text.lower())
    english = sum(t in ENGLISH_FUNCTION_WORDS for t in tokens)
    counts = {lang: sum(t in words for t in tokens) for lang, words in FUNCTION_WORDS.items()}
    lang, n = max(counts.items(), key=lambda kv: kv[1])
    return lang if n >= 2 and n > english else "en"


def offline_language_note(question: str, chat_model_set: bool = False) -> str | None:
    """None when the graph can read the question; else the message to give instead of an answer.

    >>> print(offline_language_note("디저트 중에 견과류가 없는 것은?"))
    This question is in Korean, but the offline models read English only. Set GOOGLE_API_KEY (or pass chat_model=) to ask in Korean, or ask in English.
    >>> offline_language_note("디저트 중에 견과류가 없는 것은?", chat_model_set=True) is None
    True
    """
    if chat_model_set:
        return None
    language = detect_language(question)
    if language in OFFLINE_LANGUAGES:
        return None
    name = LANGUAGE_NAMES.get(language, "a language other than English")
    return (f"This question is in {name}, but the offline models read English only. Set GOOGLE_API_KEY "
            f"(or pass chat_model=) to ask in {name}, or ask in English.")


__all__ = ["FUNCTION_WORDS", "LANGUAGE_NAMES", "OFFLINE_LANGUAGES", "detect_language", "latin_language",
           "offline_language_note", "script_of"]
