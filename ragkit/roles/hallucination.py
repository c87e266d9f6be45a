"""Hallucination graders: is every claim of an answer supported by the documents it was written from?

``LocalHallucinationGrader`` first checks each answer sentence (citation markers ``[n]`` removed) as a
whole, then, by default (``check_claims=True``), each claim in it. A sentence is supported when BOTH hold:

1. meaning: some source passage (a sentence, or two neighbouring sentences, since an answer may merge
   them) has MiniLM cosine similarity of at least ``support_bar`` with it;
2. facts: every number and every capitalised name in it occurs in a document that supplied such a
   supporting passage. Similarity alone is blind to "14 euros" vs "12 euros"; this check is not.

Then each claim (a clause, :func:`ragkit.roles.claims.split_claims`) is compared with the source unit
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

What the claim checks cannot do is listed in :mod:`ragkit.roles.claims` (synonyms look like swaps,
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

from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_answer, check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import names, numbers, source_sentences, split_sentences, stem, strip_citations, word_set, words
from ragkit.defaults import VERIFIER
from ragkit.roles import claims as C
from ragkit.roles.base import NOT_ENOUGH_INFORMATION, Groundedness
from ragkit.roles.llm import call_structured
from ragkit.roles.prompts import HALLUCINATION_PROMPT, format_documents


def is_refusal(answer: str) -> bool:
    """True for an empty answer or the writers' explicit "not enough information"."""
    text = strip_citations(answer).strip()
    return not text or text.startswith(NOT_ENOUGH_INFORMATION.rstrip("."))


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
    if not colon or not rest or len(head.split()) > C.MAX_SUBJECT_WORDS:
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
        claims = [C.split_claims(s) if self.check_claims else [C.Claim(s, s)] for s in sentences]
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
                       for c in C.source_clauses(s.text) if c != s.text]
            if clauses:
                claim_sims = np.hstack([claim_sims, claim_v @ embed(self.embedder, [u.text for u in clauses]).T])
                units += clauses
        doc_words = [word_set(d.page_content) for d in documents]
        doc_stems = [set(C.content_words(d.page_content)) for d in documents]

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
            vocabulary |= {C.strip_possessive(w) for w in vocabulary}
            stems = {stem(w) for w in vocabulary}
            capitals = {w for w in sentence.replace("'", " ").split() if w.isupper()}
            facts = {f if f in nums else C.strip_possessive(f) for f in facts}
            facts = {f for f in facts if f in nums or not (stem(f) in stems or
                                                           (f.upper() in capitals and C.acronym_in(f.upper(), text)))}
        missing = sorted(f for f in facts if f not in vocabulary)
        if missing:
            check = "number" if set(missing) & nums else "name"
            return check, f"not in the supporting source: {', '.join(missing)}", tuple(missing)
        return None

    def _blame(self, claims: list[C.Claim], rows: np.ndarray, fail: tuple | None) -> list[bool]:
        """Which claims of a sentence that failed the sentence-level test carry the failure: those holding
        a missing number or name, or those below ``support_bar`` themselves (all, when none is)."""
        if fail is None:
            return [False] * len(claims)
        if fail[0] == "similarity":
            low = [float(r.max()) < self.support_bar for r in rows]
            return low if any(low) else [True] * len(claims)
        holds = [bool(set(fail[2]) & ({C.strip_possessive(w) for w in word_set(c.own)} | numbers(c.own)))
                 for c in claims]
        return holds if any(holds) else [True] * len(claims)

    def _claim_checks(self, claim: C.Claim, sentence: str, row: np.ndarray, units: list[_Unit],
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
            dropped = C.dropped_qualifier(before)
            return dropped if dropped and dropped[0] in self.checks else ("", "copied from the source")
        vocabulary |= {stem(w.lower()) for w in claim.own.split() if C.acronym_in(w.strip(",.;:()"), text)}
        own = C.content_words(claim.own)
        if "appended" in self.checks and len(own) >= C.MIN_CLAUSE_WORDS:
            covered = sum(C.contains(vocabulary, w) for w in own) / len(own)
            if covered < self.coverage_bar and float(row[best]) < self.claim_bar:
                return "appended", (f"no source sentence supports it (best similarity {float(row[best]):.2f}, "
                                    f"{covered:.0%} of its words in the source)")
        in_doc = [j for j, u in enumerate(units) if u.doc == units[best].doc]
        clause = max((j for j in in_doc if units[j].kind != "pair"), key=lambda j: row[j])
        sent = max((j for j in in_doc if units[j].kind != "clause"), key=lambda j: row[j])
        lexicon = set(words(text))
        flips = [C.negation_flip(claim.text, units[j].text, lexicon) for j in (clause, sent)]
        if "negation" in self.checks and all(flips):
            return "negation", f"{flips[0]}: {units[clause].text!r}"
        stronger = C.stronger_quantifiers(claim.own, units[best].text) if "quantifier" in self.checks else None
        if stronger:
            return "quantifier", stronger
        for phrase in C.name_phrases(sentence) if "name" in self.checks else ():
            if phrase in claim.own and not C.phrase_in(phrase, text):
                return "name", f"the name {phrase!r} is not in the source"
        swaps = C.substitutions(claim.text, units[best].text, vocabulary) if "attribute" in self.checks else []
        if swaps:
            new, old = swaps[0]
            return "attribute", f"{new!r} where the source says {old!r}, and the document never says {new!r}"
        return "", "supported"


class GroundednessVerdict(BaseModel):
    """Is the answer supported by the documents, claim by claim?"""

    grounded: bool = Field(description="true only if every claim of the answer is supported by the documents")
    unsupported: list[str] = Field(default_factory=list,
                                   description="each unsupported claim, copied verbatim from the answer")


class LLMHallucinationGrader:
    """A chat model checks groundedness claim by claim; on failure the answer counts as NOT grounded.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMHallucinationGrader(scripted(RuntimeError("quota"))).check([Document(page_content="x")], "y").grounded
    False
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = HALLUCINATION_PROMPT):
        self.model = model
        self.prompt = prompt

    def check(self, documents: Sequence[Document], answer: str) -> Groundedness:
        documents = check_documents(documents)
        answer = check_answer(answer)
        if is_refusal(answer):
            return Groundedness(True, (), 1.0, "a refusal makes no claim")
        inputs = {"documents": format_documents(documents), "answer": answer}
        result = call_structured(self.model, self.prompt, GroundednessVerdict, inputs)
        if not result.ok:
            return Groundedness(False, (), 0.0, f"not verified: {result.note}", fallback=True)
        verdict = result.value
        unsupported = tuple(s for s in verdict.unsupported if s.strip())
        if verdict.grounded and unsupported:  # contradictory output: trust the specific list
            return Groundedness(False, unsupported, 0.0, "model said grounded but listed unsupported claims")
        return Groundedness(verdict.grounded, unsupported, 1.0 if verdict.grounded else 0.0)
