"""The one text module of ragkit: every retriever and local role cuts text with these functions.

Tokens (:func:`tokenize`, :func:`key_terms`), sentences (:func:`split_sentences`, :func:`prose_sentences`),
the language of a question (:func:`detect_language`), the answer it asks for (:func:`answer_type`,
:func:`has_answer`), one negation lexicon, WordNet's antonyms and synonyms (:func:`antonyms`, :func:`synonyms`), facts in a sentence
(:func:`numbers`, :func:`names`, ``[n]`` citations), Markdown code fences (:data:`FENCE`) and the clauses of a
request (:func:`split_clauses`).

What it cannot do: it reads English only (French, Spanish and German are recognised, not read); the
splitters and the name finder are regular expressions, not trained models, so unusual text is sometimes
cut wrongly, a name that opens a sentence is missed, and "twelve" is not "12".
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Sequence, get_args

import Stemmer
from langchain_core.documents import Document

LUCENE_STOPWORDS = frozenset(  # Lucene's EnglishAnalyzer stop set
    "a an and are as at be but by for if in into is it no not of on or such that the their then there "
    "these they this to was will with".split()
)
QUESTION_STOPWORDS = LUCENE_STOPWORDS | frozenset(  # for a question's key terms, never for BM25
    "what which who whom whose when where why how do does did can could should would may might must "
    "i me my we our you your he she him her his its them about from have has had been being were am "
    "any some all more most other than too very just also so up down out over under again only own same "
    "tell give show list please know want like get got one ones s t much many".split()
)
# The hard cap on one query handed to a retriever or a role; graphs set a lower limit (ragkit.core.contract).
MAX_QUERY_CHARS = 20_000

_WORD = re.compile(r"\w+", re.UNICODE)
_stemmer = Stemmer.Stemmer("porter")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter-stem one lower-case word (Snowball's C stemmer).

    >>> stem("running"), stem("studies")
    ('run', 'studi')
    """
    return _stemmer.stemWord(word)


def strip_accents(text: str) -> str:
    """Drop accents, keep everything else.

    >>> strip_accents("Café rosé, Xarel·lo")
    'Cafe rose, Xarel·lo'
    """
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def fold(text: str) -> str:
    """Lower-case and strip accents.

    >>> fold("Crème Brûlée")
    'creme brulee'
    """
    return strip_accents(text.lower())


def words(text: str) -> list[str]:
    """Folded word tokens, nothing removed.

    >>> words("Hello, World-2!")
    ['hello', 'world', '2']
    """
    return _WORD.findall(fold(text))


def tokenize(text: str, stopwords: frozenset[str] = LUCENE_STOPWORDS) -> list[str]:
    """The BM25 analyzer: fold, split, drop stopwords, Porter-stem.

    >>> tokenize("The wines are pairing well with oysters")
    ['wine', 'pair', 'well', 'oyster']
    """
    return [stem(w) for w in words(text) if w not in stopwords]


# How to answer, not what about: no key terms.
STYLE_REQUEST = re.compile(r"\b(?:in (?:plain|simple|layman'?s?|everyday|a few|one|two) (?:words?|terms|english|language|sentences?)"
                           r"|in a nutshell|briefly|in short|for (?:a )?beginners?|like i'?m five)\b", re.IGNORECASE)


def key_terms(text: str) -> list[str]:
    """A question's stemmed content words, in order, once each; a one-letter word only when it is a
    :func:`symbols` name, and a style request (:data:`STYLE_REQUEST`) is no content.

    >>> key_terms("Which wine goes with the grilled fish?"), key_terms("What does the b knob do, in plain words?")
    (['wine', 'goe', 'grill', 'fish'], ['b', 'knob'])
    """
    named = set(symbols(text))
    return list(dict.fromkeys(stem(w) for w in words(STYLE_REQUEST.sub(" ", text))
                              if w not in QUESTION_STOPWORDS and (len(w) > 1 or w in named)))


# ---------------------------------------------------------------- sentences and queries
# Abbreviations whose full stop ends no sentence ("12 High St.").
ABBREVIATIONS = frozenset("e.g i.e etc vs mr mrs ms dr st no art sec fig al approx rd ave nr apt co ltd inc bldg".split())
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9]|`)")
_TYPED_END = re.compile(r"[.!?]+(?=\s|$)|;|\n")


def _abbreviated(text: str) -> bool:
    last = text.rstrip(".").split()[-1:]
    return bool(last) and last[0].lower() in ABBREVIATIONS


def split_sentences(text: str, *, chat: bool = False) -> list[str]:
    """Sentences, cut by a regular expression that keeps decimals and :data:`ABBREVIATIONS` whole.

    Prose: a sentence ends at ``.``, ``!`` or ``?`` before a capital or a digit, at a blank line and before
    a list line; spacing is tidied. ``chat=True`` (typed messages): also before a lower-case word, at ``;``
    and at every line break; each piece is kept as written, its end mark left out.

    >>> split_sentences("It costs 12.50 euros. See Art. 4 for details! Is it ok? Yes.")
    ['It costs 12.50 euros.', 'See Art. 4 for details!', 'Is it ok?', 'Yes.']
    >>> split_sentences("cancel A1001. send A1002 to 1 High St. York; thanks", chat=True)
    ['cancel A1001', ' send A1002 to 1 High St. York', ' thanks']
    """
    sentences, start = [], 0
    if chat:
        for m in _TYPED_END.finditer(text):
            if not (m.group().startswith(".") and _abbreviated(text[start : m.start()])):
                sentences.append(text[start : m.start()])
                start = m.end()
        sentences.append(text[start:])
        return [s for s in sentences if s.strip()]
    for block in re.split(r"\n\s*\n|\n(?=\s*[-*#|]|\s*\d+\.\s)", text):
        pieces: list[str] = []
        for piece in _SENTENCE_END.split(" ".join(block.split())):
            piece = piece.strip()
            if piece and pieces and _abbreviated(pieces[-1]):
                pieces[-1] = f"{pieces[-1]} {piece}"
            elif piece:
                pieces.append(piece)
        sentences.extend(pieces)
    return sentences


def question_sentences(question: str) -> list[str]:
    """The sentences with a key term of a question told in several of them (``[]`` for a one-sentence question):
    read apart, so a story does not drown its ask.

    >>> question_sentences("My hose split. Diesel leaked out. Must I report it?"), question_sentences("Why? Is it legal?")
    (['My hose split.', 'Diesel leaked out.', 'Must I report it?'], [])
    """
    parts = [s for s in split_sentences(question) if key_terms(s)]
    return parts if len(parts) > 1 else []


def same_query(a: str, b: str) -> bool:
    """Queries that differ only in case, spacing or punctuation count as the same.

    >>> same_query("Who built it?", "who  built it"), same_query("who built it", "who built the abbey")
    (True, False)
    """
    def norm(q: str) -> str:
        return " ".join("".join(c if c.isalnum() else " " for c in q.lower()).split())

    return norm(a) == norm(b)


def clean_query(query: object, max_chars: int = MAX_QUERY_CHARS, what: str = "query", hint: str = "Shorten it.") -> str:
    """The query stripped; a clear error for a non-string, an empty one, or one over ``max_chars`` (then ``hint``).

    >>> clean_query("  red wine  ")
    'red wine'
    >>> clean_query("x" * 30, max_chars=10)
    Traceback (most recent call last):
    ...
    ValueError: query is 30 characters long; the limit is 10. Shorten it.
    """
    if not isinstance(query, str):
        raise TypeError(f"{what} must be a string, got {type(query).__name__}")
    query = query.strip()
    if not query:
        raise ValueError(f"{what} is empty: type a question or search words")
    if len(query) > max_chars:
        raise ValueError(f"{what} is {len(query):,} characters long; the limit is {max_chars:,}. {hint}")
    return query


def tidy(question: str) -> str:
    """A question with its white space normalised and wrapping quotes stripped (:func:`clean_query`'s errors).

    >>> tidy('  "When was   the  abbey founded?" ')
    'When was the abbey founded?'
    """
    question = " ".join(clean_query(question, what="question").split())
    return clean_query(question.strip("\"'`“”‘’ "), what="question")


# ---------------------------------------------------------------- language
# Unicode character-name prefixes -> script. Kana before Han: Japanese text mixes both.
_SCRIPTS = (("HANGUL", "hangul"), ("HIRAGANA", "kana"), ("KATAKANA", "kana"), ("CJK", "han"), ("CYRILLIC", "cyrillic"),
            ("ARABIC", "arabic"), ("GREEK", "greek"), ("HEBREW", "hebrew"), ("DEVANAGARI", "devanagari"),
            ("THAI", "thai"), ("LATIN", "latin"))
SCRIPT_LANGUAGE = {"hangul": "ko", "kana": "ja", "han": "zh", "cyrillic": "ru", "arabic": "ar", "greek": "el",
                   "hebrew": "he", "devanagari": "hi", "thai": "th", "latin": "en"}
LANGUAGE_NAMES = {"en": "English", "ko": "Korean", "ja": "Japanese", "zh": "Chinese", "ru": "Russian", "ar": "Arabic",
                  "el": "Greek", "he": "Hebrew", "hi": "Hindi", "th": "Thai", "fr": "French", "es": "Spanish",
                  "de": "German"}
# Function words of the Latin-script languages told apart from English (none is an English word).
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


def detect_language(text: str) -> str:
    """The language code of the script most letters are in; Latin script is "fr", "es" or "de" when the text
    has at least two of that language's :data:`FUNCTION_WORDS` and more than English ones, else "en".

    >>> detect_language("Какие десерты без орехов?"), detect_language("デザートは何ですか"), detect_language("¿Cuál es el vino?")
    ('ru', 'ja', 'es')
    """
    scripts = Counter(next((s for prefix, s in _SCRIPTS if unicodedata.name(c, "").startswith(prefix)), "other")
                      for c in text if c.isalpha())
    if not scripts:
        return "en"
    if scripts["kana"] and scripts["han"]:
        scripts["kana"] += scripts.pop("han")
    script = scripts.most_common(1)[0][0]
    if script != "latin":
        return SCRIPT_LANGUAGE.get(script, "und")
    tokens = re.findall(r"[^\W\d_]+", text.lower())
    english = sum(t in ENGLISH_FUNCTION_WORDS for t in tokens)
    lang, n = max(((lang, sum(t in ws for t in tokens)) for lang, ws in FUNCTION_WORDS.items()), key=lambda kv: kv[1])
    return lang if n >= 2 and n > english else "en"


def offline_language_note(question: str, chat_model_set: bool = False) -> str | None:
    """None when the graph can read the question; else the message to give instead of an answer.

    >>> print(offline_language_note("디저트 중에 견과류가 없는 것은?"))
    This question is in Korean, but the offline models read English only. Set GOOGLE_API_KEY (or pass chat_model=) to ask in Korean, or ask in English.
    """
    language = "en" if chat_model_set else detect_language(question)
    if language in OFFLINE_LANGUAGES:
        return None
    name = LANGUAGE_NAMES.get(language, "a language other than English")
    return (f"This question is in {name}, but the offline models read English only. Set GOOGLE_API_KEY "
            f"(or pass chat_model=) to ask in {name}, or ask in English.")


# ---------------------------------------------------------------- answer type
AnswerType = Literal["person", "time", "quantity", "yes/no", "other"]
ANSWER_TYPES: tuple[str, ...] = get_args(AnswerType)
_PATTERNS: dict[str, re.Pattern[str]] = {
    "time": re.compile(r"\b(when|what (year|date|time|century|decade|month|day)|which (year|century|decade|month|day|date)|"
                       r"how long ago|since when|until when)\b"),
    "quantity": re.compile(r"\b(how (much|many|long|old|far|big|large|often|tall|high|wide|deep|fast|expensive|cheap)|"
                           r"what (is the )?(price|cost|percentage|percent|number|amount|proportion|population))\b"),
    "person": re.compile(r"^(who|whom|whose)\b|\b(who|whom|whose) (is|was|were|did|does|had|has)\b"),
}
# English auxiliary verbs: a clause that has one has a verb; a question that opens with one (not "be"/"been") is yes/no.
AUXILIARIES = frozenset("is are was were be been do does did has have had can could will would shall should may might must".split())
POLAR_OPENERS = (AUXILIARIES - {"be", "been"}) | {"am"}
QUESTION_WORDS = {"what": "what", "how": "how", "why": "why",
                  **dict.fromkeys(("who", "whom", "whose", "which", "where", "when"), "wh_other")}
# Number words: the cardinals' values ("the three cheapest", "twelve euros"), fractions, and every word that says
# a quantity (a "how many" answer).
NUMBER_VALUES = {w: n for n, w in enumerate("one two three four five six seven eight nine ten eleven twelve thirteen "
                                             "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(), 1)}
NUMBER_VALUES |= {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
                  "hundred": 100, "thousand": 1000, "million": 1_000_000, "dozen": 12}
FRACTIONS = {"half": "1/2", "third": "1/3", "quarter": "1/4"}
NUMBER_WORDS = frozenset(NUMBER_VALUES) | frozenset("zero hundreds thousands millions billion half several".split())
TIME_WORDS = frozenset(
    "january february march april may june july august september october november december jan feb mar apr jun "
    "jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday "
    "morning afternoon evening night noon midnight daily weekly weekend weekends week month year century centuries "
    "decade decades spring summer autumn fall winter am pm".split()
)
_NOT_A_NAME = frozenset({"the", "a", "an", "in", "on", "at", "after", "before", "during", "this", "these", "there"})


def answer_type(question: str) -> AnswerType:
    """The kind of answer a question asks for (the earliest wh-phrase decides; an auxiliary first: yes/no).

    >>> [answer_type(q) for q in ["Who founded it?", "When does it open?", "How many rooms?", "Is it vegan?", "Why?"]]
    ['person', 'time', 'quantity', 'yes/no', 'other']
    """
    text = " ".join(words(question))
    found = [(m.start(), kind) for kind, pattern in _PATTERNS.items() if (m := pattern.search(text))]
    if found:
        return min(found)[1]  # type: ignore[return-value]
    return "yes/no" if text.split(" ", 1)[0] in POLAR_OPENERS else "other"


def has_answer(kind: str, text: str, question: str = "") -> bool:
    """Whether ``text`` holds an answer of this kind (a number, a time word, a name) that ``question`` lacks.

    >>> has_answer("time", "The abbey was founded in 1066.", "When was the abbey founded?")
    True
    >>> has_answer("time", "It was rebuilt after 1066.", "When was it rebuilt after 1066?")  # only the question's year
    False
    """
    if kind not in ANSWER_TYPES:
        raise ValueError(f"unknown answer type {kind!r}; one of {ANSWER_TYPES}")
    asked, said = set(words(question)), set(words(text))
    new_number = any(n not in asked for n in numbers(text))
    if kind == "quantity":
        return new_number or bool((NUMBER_WORDS & said) - asked)
    if kind == "time":
        return new_number or bool((TIME_WORDS & said) - asked)
    if kind == "person":  # "Hotel Scogliera" names the hotel asked about; "March" is a month
        own = asked_thing_names(text, question) | TIME_WORDS
        first = text.split()[0].strip("\"'(.,;:!?") if text.split() else ""
        opens_with_name = first[:1].isupper() and first.lower() not in asked | own | QUESTION_STOPWORDS | _NOT_A_NAME
        return any(n not in asked and n not in own for n in names(text)) or opens_with_name
    return True


CONDITION_OPENERS = ("if", "unless", "in case", "suppose", "supposing", "assuming", "provided that")
TYPED_ANSWERS: tuple[AnswerType, ...] = ("person", "time", "quantity")


def asked_part(question: str) -> str:
    """The question without the condition clauses cut off by punctuation (all condition: kept whole).

    >>> asked_part("If my permit is revoked, how long do I have to appeal and who decides?")
    'how long do I have to appeal and who decides?'
    """
    pattern = re.compile(rf"(?:{'|'.join(CONDITION_OPENERS)})\b", re.IGNORECASE)
    kept = [piece for piece in _clause_pieces(question) if not pattern.match(piece)]
    return " ".join(kept) if kept else question


def question_asks(question: str) -> list[tuple[str, list[str]]]:
    """The clauses of the :func:`asked_part` that ask for a person, a time or a quantity, with the key terms
    of each outside its wh-phrase.

    >>> question_asks("If my permit is revoked, how long do I have to appeal and who decides?")
    [('quantity', ['appeal']), ('person', ['decid'])]
    """
    asks = []
    for clause in split_clauses(asked_part(question)):
        kind = answer_type(clause.text)
        if kind in TYPED_ANSWERS:
            text = " ".join(words(clause.text))
            wh = _PATTERNS[kind].search(text)
            asks.append((kind, key_terms(text[: wh.start()] + text[wh.end():] if wh else text)))
    return asks


_CAPITALISED_RUN = re.compile(r"[A-Z\u00C0-\u00DE][\w'\u00C0-\u024F-]*(?:\s+[A-Z\u00C0-\u00DE][\w'\u00C0-\u024F-]*)*")


def asked_thing_names(text: str, question: str) -> set[str]:
    """The words of every capitalised name in ``text`` holding a common noun of the question: "Hotel
    Scogliera" is "the hotel", not who built it. A name only *described* as the thing is missed.

    >>> sorted(asked_thing_names("Hotel Scogliera opened in May. Lina Bo Bardi designed it.", "Who designed the hotel?"))
    ['hotel', 'scogliera']
    """
    common = {stem(w) for w in re.findall(r"\b[a-z][\w'-]*", question) if w not in QUESTION_STOPWORDS}
    found: set[str] = set()
    for run in _CAPITALISED_RUN.findall(strip_citations(text)):
        parts = [p.lower() for p in run.split()]
        if len(parts) > 1 and any(stem(p) in common for p in parts):
            found.update(parts)
    return found


# A single letter (not "a" or "I"), alone or with one digit: "the b knob", "k1", "vitamin C".
_SYMBOL = re.compile(r"(?<![\w.'`-])`?([b-hj-zB-HJ-Z]\d?)`?(?![\w'-]|\.\w)")
_ONE_LETTER = re.compile(r"(?<![\w'-])[A-Za-z]\d?(?![\w'-])")


def symbols(question: str) -> list[str]:
    """The one-letter names a question asks about (a parameter, a vitamin), lower-cased, in order.

    >>> symbols("What does the b knob do?"), symbols("What do k1 and `b` control?"), symbols("Do I need a U.S. visa?")
    (['b'], ['k1', 'b'], [])
    """
    return list(dict.fromkeys(m.lower() for m in _SYMBOL.findall(question)))


def names_symbol(text: str, symbol_list: Sequence[str]) -> bool:
    """Whether ``text`` names one of the symbols as a word of its own.

    >>> names_symbol("With `b = 0` length is ignored.", ["b"]), names_symbol("BM25 has two knobs.", ["b"])
    (True, False)
    """
    said = {t.lower() for t in _ONE_LETTER.findall(text)}
    return any(s in said for s in symbol_list)


# ---------------------------------------------------------------- negation
# One English negation lexicon for questions and statements (a request's cues, which decline an action or take
# a request back, are the request reader's own: ragkit.offline.tool_requests).
NEGATIONS = frozenset("not no never none nor neither nobody nothing nowhere without cannot".split())
# A question's exclusions: a list cue runs on across "and" ("without nuts and dairy"), a clause cue stops
# there ("not vegetarian and cheap"), a suffix excludes the word before it ("nut-free").
LIST_NEGATION_CUES = ("free of", "free from", "without", "except", "excluding", "avoid", "no")
CLAUSE_NEGATION_CUES = ("not", "never", "none", "nothing")
NEGATION_SUFFIXES = frozenset({"free"})
# Negation in statements (words, and verbs that forbid or stop what follows: "No person shall fish" is "fishing is
# prohibited"), and prefixes that negate the word they open ("unable", "non-profit", "dishonest").
STATEMENT_NEGATIONS = (*sorted(NEGATIONS), "non", "lack", "lacks", "lacking", "lacked", "fail", "fails", "failed",
                       "failing", "failure", "absence", "absent", "avoid", "avoids", "avoided", "ignore", "ignores",
                       "ignored", "refuse", "refuses", "refused", "prohibit", "prohibits", "prohibited", "forbid",
                       "forbids", "forbidden", "forbade", "ban", "bans", "banned", "prevent", "prevents", "prevented",
                       "preventing", "disqualified", "rather than", "instead of")
NEGATING_PREFIXES = ("un", "non", "in", "im", "il", "ir", "dis", "a")


def _wordnet_lines(name: str) -> list[list[str]]:
    from pathlib import Path

    path = Path(__file__).with_name(name)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from this ragkit install: reinstall ragkit (pip install "
                                "--force-reinstall ragkit), or in a checkout run benchmarks/roles/make_wordnet.py")
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


@lru_cache(maxsize=1)
def _antonym_table() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for a, b in _wordnet_lines("antonyms.tsv"):
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return {w: frozenset(v) for w, v in table.items()}


@lru_cache(maxsize=1)
def _synonym_table() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for synset in _wordnet_lines("synonyms.tsv"):
        for w in synset:
            table.setdefault(w, set()).update(synset)
    return {w: frozenset(v - {w}) for w, v in table.items()}


def antonyms(word: str) -> frozenset[str]:
    """WordNet 3.0's direct antonyms of an adjective or adverb (``antonyms.tsv``, its licence in the file).

    Only the word as given: "larger" has none, its lemma "large" has "small". Direct antonyms only, so
    many opposites are missing ("gentle"/"firm", "mean"/"maximum").

    >>> sorted(antonyms("dry")), sorted(antonyms("eastern")), antonyms("table")
    (['phlegmy', 'sweet', 'wet'], ['western'], frozenset())
    """
    return _antonym_table().get(word.lower(), frozenset())


def synonyms(word: str) -> frozenset[str]:
    """The words that share a WordNet 3.0 synonym set with this one, in any sense (``synonyms.tsv``).

    Any sense, so a rare sense links words a text would not swap ("form" and "strain"); only the word as
    given ("marked" has "pronounced", "marks" has none).

    >>> "pronounced" in synonyms("marked"), "example" in synonyms("case"), "sweet" in synonyms("dry")
    (True, True, False)
    """
    return _synonym_table().get(word.lower(), frozenset())


# ---------------------------------------------------------------- facts in a sentence, quotable sentences
_CITATION = re.compile(r"\s*\[(\d+(?:\s*[,;-]\s*\d+)*)\]")
_TOKEN = re.compile(r"[A-Za-z\u00C0-\u024F][\w'\u00C0-\u024F-]*|\d[\d,.:/-]*\d|\d")


def strip_citations(text: str) -> str:
    """Remove ``[n]`` / ``[1, 2]`` citation markers.

    >>> strip_citations("It costs 12 euros [2]. Served hot [1, 3].")
    'It costs 12 euros. Served hot.'
    """
    return _CITATION.sub("", text).strip()


def cited_numbers(text: str) -> list[int]:
    """The numbers cited with ``[n]`` markers, in order of first appearance (a range: at most 51 numbers).

    >>> cited_numbers("A [2]. B [1, 2]. C [3-4].")
    [2, 1, 3, 4]
    """
    found: dict[int, None] = {}
    for group in _CITATION.findall(text):
        for part in re.split(r"\s*[,;]\s*", group):
            lo, _, hi = part.partition("-")
            found.update(dict.fromkeys(range(int(lo), min(int(hi), int(lo) + 50) + 1) if hi else [int(lo)]))
    return list(found)


@dataclass(frozen=True)
class SourceSentence:
    """One sentence of one document: ``doc`` is the document's 0-based index, ``position`` the sentence's."""

    doc: int
    position: int
    text: str


def source_sentences(documents: Sequence[Document]) -> list[SourceSentence]:
    """Every sentence of every document (:func:`prose_sentences` keeps the quotable ones)."""
    return [SourceSentence(d, p, s) for d, doc in enumerate(documents) for p, s in enumerate(split_sentences(doc.page_content))]


_TERMINAL = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")
_ELLIPSIS = re.compile(r"(\.\.\.|\u2026)[\"'\u201d\u2019)\]]*$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")  # a line that opens or closes a Markdown code block
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*(```|~~~)[^\n]*$", re.MULTILINE | re.DOTALL)
_FENCED_PYTHON = re.compile(r"(`{3,})[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)\1", re.DOTALL | re.IGNORECASE)
_BACKTICKS = re.compile(r"`{3,}")


def code_blocks(text: str) -> list[str]:
    """The fenced (```, optionally ```python, or a longer fence: :func:`fenced`) code blocks of a text, stripped.

    >>> code_blocks("See:\\n```python\\nprint(1)\\n```\\nand\\n````\\nx = '```'\\n````")
    ['print(1)', "x = '```'"]
    """
    return [block.strip() for _, block in _FENCED_PYTHON.findall(text) if block.strip()]


def fenced(text: str, info: str = "") -> str:
    """``text`` as a Markdown code block whose fence is longer than any run of backticks in it, so nothing in
    the text (a program's output, say) can close the block early and pass for the prose around it.

    >>> print(fenced("print(1)", "python"))
    ```python
    print(1)
    ```
    >>> fenced("```\\nThe code ran successfully.").splitlines()[0]
    '````'
    """
    fence = "`" * max([3, *(len(run) + 1 for run in _BACKTICKS.findall(text))])
    return f"{fence}{info}\n{text}\n{fence}"


MAX_FRAGMENT_WORDS = 12  # an unpunctuated line this short is a heading or a label


def is_fragment(sentence: str, title: str | None = None) -> bool:
    """True for text that is no sentence to quote: it opens with ``#`` or ``|``, holds a code fence, repeats
    the ``title``, or is at most :data:`MAX_FRAGMENT_WORDS` words without a final ``.``/``!``/``?`` (an ellipsis
    is none).

    >>> is_fragment("Thompson sampling bandits"), is_fragment("## Setup"), is_fragment("It costs 12 euros.")
    (True, True, False)
    """
    text = " ".join(sentence.split())
    if not text or text.startswith(("#", "|")) or "```" in text or "~~~" in text:
        return True
    if title and text.lower().rstrip(".:") == " ".join(title.split()).lower().rstrip(".:"):
        return True
    ends_like_a_sentence = bool(_TERMINAL.search(text)) and not _ELLIPSIS.search(text)
    return not ends_like_a_sentence and len(text.split()) <= MAX_FRAGMENT_WORDS


def _title(doc: Document) -> str | None:
    title = doc.metadata.get("title") if isinstance(doc.metadata, dict) else None
    return title if isinstance(title, str) else None


def prose_sentences(documents: Sequence[Document]) -> list[SourceSentence]:
    """The sentences worth quoting: code blocks removed, fragments (:func:`is_fragment`) dropped;
    ``position`` counts kept sentences.

    >>> doc = Document(page_content="Oysters\\n\\nSix oysters cost 14 euros.\\n\\n```\\nprint(14)\\n```")
    >>> [s.text for s in prose_sentences([doc])]
    ['Six oysters cost 14 euros.']
    """
    out: list[SourceSentence] = []
    for d, doc in enumerate(documents):
        kept = [s for s in split_sentences(_FENCE.sub("\n\n", doc.page_content)) if not is_fragment(s, _title(doc))]
        out.extend(SourceSentence(d, p, s) for p, s in enumerate(kept))
    return out


MAX_SUBJECT_WORDS = 12  # a longer "title" is a sentence, not a name


def document_subject(doc: Document) -> str | None:
    """The document's ``title`` as spelt in its own text (case and spacing aside), or None when the text
    does not contain it: a writer that puts it before a quote still uses only the source's words.

    >>> document_subject(Document(page_content="Panna cotta with figs (dessert).", metadata={"title": "panna cotta  with figs"}))
    'Panna cotta with figs'
    """
    title = _title(doc)
    if not title or not title.split() or len(title.split()) > MAX_SUBJECT_WORDS:
        return None
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in title.split()) + r"(?!\w)"
    match = re.search(pattern, doc.page_content, flags=re.IGNORECASE)
    return match.group(0) if match else None


def mentions(sentence: str, subject: str) -> bool:
    """True when the sentence holds at least half of the subject's stemmed terms.

    >>> mentions("A dark chocolate mousse whipped with aquafaba.", "Chocolate and olive oil mousse")
    True
    """
    terms = set(tokenize(subject))
    return bool(terms) and 2 * len(terms & set(tokenize(sentence))) >= len(terms)


def mentions_term(text: str, term: str) -> bool:
    """True when a word of ``text`` starts with ``term`` (folded, thousands commas ignored).

    >>> mentions_term("North American colonies", "america"), mentions_term("In the 1970s", "1970"), mentions_term("The Americas", "merica")
    (True, True, False)
    """
    return re.search(r"(?<!\w)" + re.escape(term), fold(text).replace(",", "")) is not None


def numbers(text: str) -> set[str]:
    """Digit tokens, normalised (no thousands commas, no trailing decimal zeros).

    >>> sorted(numbers("Costs 12.50 euros for 1,000 g, since 2019."))
    ['1000', '12.5', '2019']
    """
    found = set()
    for token in _TOKEN.findall(strip_citations(text)):
        if any(c.isdigit() for c in token):
            token = token.lower().replace(",", "")
            found.add(token.rstrip("0").rstrip(".") if re.fullmatch(r"\d+\.\d+", token) else token)
    return found


def names(sentence: str) -> set[str]:
    """Capitalised words other than the first, lower-cased: a cheap named-entity finder ("I'd", "It's": a
    stopword with a contraction, not a name).

    >>> sorted(names("The Chablis comes from Burgundy, says Marie, and I'd agree."))
    ['burgundy', 'chablis', 'marie']
    """
    tokens = [t for t in _TOKEN.findall(strip_citations(sentence)) if not t[0].isdigit()]
    return {t.lower() for t in tokens[1:] if t[0].isupper() and t.lower().split("'")[0] not in QUESTION_STOPWORDS}


def term_coverage(question: str, text: str) -> float:
    """The share of the question's key terms found in the text (stemmed), 1.0 when it has none.

    >>> term_coverage("Which wine goes with grilled fish?", "A white wine for fish.")
    0.5
    """
    terms = key_terms(question)
    if not terms:
        return 1.0
    present = set(tokenize(text))
    return sum(t in present for t in terms) / len(terms)


def supporting_sentence(question: str, text: str) -> str:
    """The sentence of ``text`` with the highest :func:`term_coverage` (the first on ties).

    >>> supporting_sentence("When was the abbey founded?", "It is old. The abbey was founded in 1066. It has a bell.")
    'The abbey was founded in 1066.'
    """
    return max(split_sentences(text) or [text], key=lambda s: term_coverage(question, s))


def supporting_documents(draft: str, documents: Sequence[Document], unsupported: Sequence[str]) -> list[Document]:
    """The documents cited by the draft's supported sentences; if they cite none, all but those cited
    only by ``unsupported`` sentences.

    >>> docs = [Document("a"), Document("b"), Document("c")]
    >>> [d.page_content for d in supporting_documents("A is so [1]. B is so [2].", docs, ["B is so [2]."])]
    ['a']
    """
    bad = {strip_citations(s) for s in unsupported}
    sentences = split_sentences(draft)
    good = " ".join(s for s in sentences if strip_citations(s) not in bad)
    cited = [n for n in cited_numbers(good) if 1 <= n <= len(documents)]
    if cited:
        return [documents[n - 1] for n in cited]
    blamed = set(cited_numbers(" ".join(s for s in sentences if strip_citations(s) in bad)))
    return [d for i, d in enumerate(documents, start=1) if i not in blamed]


# ---------------------------------------------------------------- clauses
Order = Literal["", "first", "before_previous", "after_next"]
# Words that join steps (dropped from a clause's front), and openers of a clause naming a prerequisite.
SEQUENCE_WORDS = ("and then", "and finally", "and also", "after that", "after which", "afterwards", "and", "then",
                  "finally", "lastly", "next", "also", "so", "but", "plus")
PREREQUISITE_OPENERS = ("after", "once", "based on", "using", "given", "according to", "from")
_CUT_BEFORE = ("and", "then", "after", "afterwards", "before", "once", "finally", "lastly")
_CLAUSE_PUNCT = ".?!;:,"
_ARROWS = ("->", "=>", "\u2192")
# A list number that opens a step: "(1) ", "2) ", or "1. " in a text that also numbers a "2. ".
_ENUMERATOR = re.compile(r"\(\d{1,2}\)(?=\s)|\d{1,2}\)(?=\s)|\d{1,2}\.(?=\s+\S)")
# What the clause before produced, pointed back at: "based on that" is no prerequisite of its own.
_BACK_REFERENCE = re.compile(r"(?:that|this|it|them|these|those|the above|"
                             r"(?:the|that|this|these|those) (?:results?|answers?|outputs?|numbers?|findings?))", re.I)


@dataclass(frozen=True)
class Clause:
    """One step of a request: its text (connectives removed), the raw text, and its order mark:
    "first", "before_previous" (a prerequisite of the clause before it: "..., after reading it"),
    "after_next" ("Before you code it, ...") or "" (where it is written)."""

    text: str
    raw: str
    order: Order = ""


def _enumerators(question: str) -> dict[int, int]:
    """Where each list number opening a step starts and ends (after a space or at the start of the text)."""
    found = [m for m in _ENUMERATOR.finditer(question) if m.start() == 0 or question[m.start() - 1].isspace()]
    dotted = {m.group()[:-1] for m in found if m.group().endswith(".")}
    return {m.start(): m.end() for m in found if not m.group().endswith(".") or {"1", "2"} <= dotted}


def _clause_pieces(question: str) -> list[str]:
    """Cut at depth-0 punctuation followed by a space (or the end), at arrows and list numbers (both dropped),
    and before cut words; a piece of function words only ("with" of "with and without") joins the next."""
    spans, start, depth, quote = [], 0, 0, ""
    i, n = 0, len(question)
    numbered = _enumerators(question)
    while i < n:
        ch = question[i]
        if not quote and depth == 0 and i in numbered:
            spans.append((start, i))
            start = i = numbered[i]
            continue
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "`\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            arrow = next((a for a in _ARROWS if question.startswith(a, i)), None)
            if arrow:
                spans.append((start, i))
                start = i = i + len(arrow)
                continue
            if ch in _CLAUSE_PUNCT and (i + 1 == n or question[i + 1].isspace()):
                spans.append((start, i + 1))
                start = i + 1
            elif ch.isspace() and i > start and any(re.match(rf"{w}\b", question[i + 1:i + 12].lower()) for w in _CUT_BEFORE):
                spans.append((start, i))
                start = i + 1
        i += 1
    spans.append((start, n))
    kept: list[tuple[int, int]] = []
    for begin, end in spans:
        text = question[begin:end]
        if not text.strip(" \t\n" + _CLAUSE_PUNCT):
            continue
        if kept and question[kept[-1][1]:begin].isspace() and _function_words_only(question[slice(*kept[-1])]):
            begin = kept.pop()[0]  # "with" + "and without a cache": one piece
        kept.append((begin, end))
    return [question[begin:end].strip() for begin, end in kept]


def _function_words_only(piece: str) -> bool:
    """A piece with no word of its own ("with", "and the"), not a joiner or a sentence of its own."""
    found = words(piece)
    return bool(found) and all(w in LUCENE_STOPWORDS for w in found) and piece.strip().lower() not in SEQUENCE_WORDS \
        and piece.rstrip()[-1] not in _CLAUSE_PUNCT


def _strip_leading(text: str, words: Sequence[str]) -> tuple[str, str]:
    """Remove leading ``words`` (longest first, repeatedly); return (rest, the first word removed)."""
    first, changed = "", True
    while changed:
        changed = False
        for word in sorted(words, key=len, reverse=True):
            match = re.match(rf"{re.escape(word)}\b[\s,]*", text, flags=re.IGNORECASE)
            if match and match.end() < len(text):
                first, text, changed = first or word, text[match.end():], True
                break
    return text, first


def split_clauses(question: str) -> list[Clause]:
    """The clauses of a request, as written, each with its order mark (``offline.supervisor.reorder`` applies them).

    It cuts at ``. ? ! ; : ,`` before a space, at arrows (``->``) and before connectives that can open a
    step (``and``, ``then``, ``after``, ``before``, ``once``, ``finally`` ...), never inside brackets, quotes
    or backticks, and drops :data:`SEQUENCE_WORDS` from a clause's front. What it cannot do: it has no
    parser, so "after" as a preposition ("what happens after a crash?") is cut like the conjunction, and a
    cut inside a noun phrase ("BM25 and dense retrieval") is left for the caller to merge back.

    >>> [c.text for c in split_clauses("Look up BM25, implement it, and then compare it with [1, 2].")]
    ['Look up BM25', 'implement it', 'compare it with [1, 2]']
    >>> [(c.text, c.order) for c in split_clauses("Write the parser after checking the docs.")]
    [('Write the parser', ''), ('checking the docs', 'before_previous')]
    """
    clauses = []
    for raw in _clause_pieces(question):
        text, _ = _strip_leading(raw.strip().rstrip(_CLAUSE_PUNCT).strip(), SEQUENCE_WORDS)
        if text.lower().strip(" ,") in SEQUENCE_WORDS:  # a bare joiner
            continue
        order: Order = ""
        if re.match(r"first\b", text, re.IGNORECASE) or re.search(r"\bfirst$", text, re.IGNORECASE):
            order = "first"
            text = re.sub(r"^first\b[\s,]*|[\s,]*\bfirst$", "", text, flags=re.IGNORECASE).strip() or text
        elif re.match(r"before\b", text, re.IGNORECASE):
            order = "after_next"
            text = re.sub(r"^before\b\s*", "", text, flags=re.IGNORECASE) or text
        else:
            rest, opener = _strip_leading(text, PREREQUISITE_OPENERS)
            if opener and _BACK_REFERENCE.fullmatch(rest.strip(" ,")):  # "based on that": a joiner, as written
                continue
            if opener:
                order, text = "before_previous", (rest if opener in ("after", "once") else text)
        if text.strip():
            clauses.append(Clause(text.strip(), raw, order))
    return clauses
