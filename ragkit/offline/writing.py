"""Writing offline, without a model: an extractive writer and an RM3 rewriter.

``LocalWriter`` writes nothing of its own: it quotes. Each prose sentence of the documents
(:func:`answer_units`) is scored ``w * cosine(question, sentence) + (1 - w) * key-term coverage`` (a question
told in several sentences, "We rented a boat ... Could we be fined?": the best cosine of the whole question and
of each of its sentences with a key term, so the story does not drown the ask); up to
``max_sentences`` that clear ``support_bar`` and come within ``relative_bar`` of the best
(:data:`ragkit.defaults.WRITER`) are picked by maximal marginal relevance and cited ``[n]``, so every word
is the source's; when none clears the bar it refuses with ``NOT_ENOUGH_INFORMATION``. The caller can mark
evidence chosen in code: ``metadata["cited"]`` (opens the answer) and ``metadata["required"]`` (quoted too).

``LocalRewriter`` does pseudo-relevance feedback in the style of RM3 (Lavrenko and Croft's relevance
model, as in Anserini): assume the top documents that share a key term with the question are relevant,
estimate which words they are about, interpolate that model with the question's own, and append the
strongest new words to the question. Without usable documents the rewrite is the question's content words.

What they cannot do: the writer picks by similarity, so it cannot tell a sentence that answers from one
that only shares the question's words, and a same-topic paragraph that lacks the answer is still quoted
(SQuAD 2.0 "impossible" questions are rarely refused); quoting cannot combine facts into a new sentence,
resolve "it", or compute anything (a total, a comparison:
:class:`ragkit.offline.structured_answers.StructuredWriter` decides those in code). Feedback from an
off-topic document that shares a word with the question drags the rewrite off topic, the known failure of
pseudo-relevance feedback: pass only the documents a grader kept, and cap the rewrite loop.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.contract import check_documents
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    QUESTION_STOPWORDS,
    SourceSentence,
    asked_part,
    clean_query,
    document_subject,
    has_answer,
    key_terms,
    mentions,
    names_symbol,
    prose_sentences,
    question_asks,
    question_sentences,
    stem,
    symbols,
    term_coverage,
    tokenize,
    words,
)
from ragkit.defaults import WRITER
from ragkit.roles.protocols import NOT_ENOUGH_INFORMATION, Answer

# ---------------------------------------------------------------- the extractive writer
MIN_UNIT_WORDS = 5
# A sentence that opens by pointing back ("With one attached, ...", "It ...") needs the sentence before it.
_BACK_REFERENCE = re.compile(r"(?:With|Without) (?:one|it|them)\b|(?:It|Its|They|Their|Them)\b")


def answer_units(documents: Sequence[Document]) -> list[SourceSentence]:
    """The quotable sentences of every document (no headings, table rows, code or labels: :func:`prose_sentences`).

    A short sentence ("12 euros.", or one that opens with "It") is glued to the previous sentence of its
    document, or, when it opens the document, to the next one ("Article 1." + "(1) This Act ...").

    >>> doc = Document(page_content="Oysters\\n\\nArticle 1. Oysters are served raw. Both cost 14 euros.")
    >>> [u.text for u in answer_units([doc])]
    ['Article 1. Oysters are served raw. Both cost 14 euros.']
    """
    units: list[SourceSentence] = []
    pending: SourceSentence | None = None  # a short sentence that opened its document, waiting for the next
    for s in prose_sentences(documents):
        if pending is not None and pending.doc != s.doc:
            units.append(pending)
            pending = None
        short = len(s.text.split()) < MIN_UNIT_WORDS or bool(_BACK_REFERENCE.match(s.text))
        if pending is not None:
            units.append(SourceSentence(s.doc, pending.position, f"{pending.text} {s.text}"))
            pending = None
        elif short and units and units[-1].doc == s.doc:
            units[-1] = SourceSentence(s.doc, units[-1].position, f"{units[-1].text} {s.text}")
        elif short:
            pending = s
        else:
            units.append(s)
    if pending is not None:
        units.append(pending)
    return units


def with_subject(unit: SourceSentence, document: Document) -> str:
    """The sentence to quote, "<title>: <sentence>" when it is not its document's first and does not name the title
    (a title the document's text contains: :func:`ragkit.core.nlp.document_subject`, so the answer stays a quote).

    >>> doc = Document(page_content="Panna cotta with figs (dessert, 8.00 EUR). Figs are roasted in honey. "
    ...                "Dietary: gluten-free, vegetarian, no nuts.", metadata={"title": "Panna cotta with figs"})
    >>> [with_subject(u, doc) for u in answer_units([doc])][1:]
    ['Panna cotta with figs: Figs are roasted in honey.', 'Panna cotta with figs: Dietary: gluten-free, vegetarian, no nuts.']
    """
    subject = document_subject(document)
    if subject is None or unit.position == 0 or mentions(unit.text, subject):
        return unit.text
    return f"{subject}: {unit.text}"


def cite(sentence: str, number: int) -> str:
    """Put a ``[n]`` marker before the sentence's final punctuation.

    >>> cite("Oysters cost 12 euros.", 2)
    'Oysters cost 12 euros [2].'
    """
    match = re.search(r"[.!?]+[\"')\]]*$", sentence)
    if match:
        return f"{sentence[: match.start()]} [{number}]{sentence[match.start():]}"
    return f"{sentence} [{number}]"


class LocalWriter:
    """Extractive answers: the best source sentences (MMR), each cited [n]; a refusal when none is good enough.

    >>> docs = [Document(page_content="Oysters from Brittany. Six oysters cost 14 euros."),
    ...         Document(page_content="The terrace opens in May.")]
    >>> LocalWriter().write("How much are the oysters?", docs).text  # doctest: +SKIP
    'Six oysters cost 14 euros [1].'
    """

    def __init__(
        self,
        embedder: Embeddings | None = None,
        max_sentences: int = WRITER.max_sentences,
        support_bar: float = WRITER.support_bar,
        relative_bar: float = WRITER.relative_bar,
        similarity_weight: float = WRITER.similarity_weight,
        diversity: float = WRITER.diversity,
    ):
        self.embedder = embedder if embedder is not None else load_embedder()
        self.max_sentences, self.support_bar, self.relative_bar = max_sentences, support_bar, relative_bar
        self.similarity_weight, self.diversity = similarity_weight, diversity

    def score_units(self, question: str, documents: Sequence[Document]) -> tuple[list[SourceSentence], np.ndarray, np.ndarray]:
        """Candidate sentences, their relevance to the question, and their embeddings."""
        question = clean_query(question, what="question")
        units = answer_units(check_documents(documents))
        if not units:
            return [], np.zeros(0), np.zeros((0, 1))
        asks = [question, *question_sentences(question)]  # a question told in several sentences: each read apart too
        vectors = embed(self.embedder, asks + [u.text for u in units])
        vectors, cosine = vectors[len(asks):], (vectors[len(asks):] @ vectors[:len(asks)].T).max(axis=1)
        asked = asked_part(question)  # a condition ("If my permit is revoked, ...") is left out of the coverage
        coverage = np.asarray([term_coverage(asked, u.text) for u in units])
        relevance = self.similarity_weight * cosine + (1 - self.similarity_weight) * coverage
        named = symbols(question)  # "what does the b knob do?": only sentences naming b can answer it
        naming = np.asarray([names_symbol(u.text, named) for u in units]) if named else np.zeros(0, bool)
        if naming.any():
            relevance = np.where(naming, relevance, -np.inf)
        return units, relevance, vectors

    def select(self, relevance: np.ndarray, vectors: np.ndarray) -> list[int]:
        """Indexes of the chosen sentences in answer order (MMR over those that clear both bars)."""
        if len(relevance) == 0 or relevance.max() < self.support_bar:
            return []
        floor = max(self.support_bar, float(relevance.max()) - self.relative_bar)
        candidates = [i for i in np.argsort(-relevance, kind="stable") if relevance[i] >= floor]
        chosen: list[int] = []
        while candidates and len(chosen) < self.max_sentences:
            def mmr(i: int) -> float:
                redundancy = max((float(vectors[i] @ vectors[j]) for j in chosen), default=0.0)
                return (1 - self.diversity) * relevance[i] - self.diversity * redundancy

            best = max(candidates, key=lambda i: (mmr(i), -i))
            candidates.remove(best)
            if chosen and max(float(vectors[best] @ vectors[j]) for j in chosen) > 0.9:
                continue  # a near-duplicate of a sentence already quoted
            chosen.append(best)
        return chosen

    def with_required(self, chosen: list[int], units: Sequence[SourceSentence], relevance: np.ndarray,
                      documents: Sequence[Document]) -> list[int]:
        """``chosen`` plus the best sentence of each ``metadata["required"]`` document none of them quotes, after
        them (even below the bars): no pick is displaced, so the answer may run past ``max_sentences``.

        >>> docs = [Document("Nets must be hauled daily."), Document("A breach costs 80 crowns.", metadata={"required": True})]
        >>> units = answer_units(docs)
        >>> LocalWriter(embedder=object(), max_sentences=1).with_required([0], units, np.array([0.9, 0.1]), docs)
        [0, 1]
        """
        quoted = {units[i].doc for i in chosen}
        extra = []
        for d, doc in enumerate(documents):
            own = [i for i, unit in enumerate(units) if unit.doc == d]
            if doc.metadata.get("required") and d not in quoted and own:
                extra.append(max(own, key=lambda i: relevance[i]))
        return chosen + extra

    def write(self, question: str, documents: Sequence[Document]) -> Answer:
        """A cited answer: the best source sentences, each followed by ``[n]`` (its document's place), or a refusal."""
        units, relevance, vectors = self.score_units(question, documents)
        chosen = self.select(relevance, vectors)
        chosen = self.lead_with_cited(chosen, units, relevance, vectors, documents)
        chosen = self.answer_each_ask(question, chosen, units, relevance, documents)
        if not chosen:
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        documents = check_documents(documents)
        chosen = self.with_required(chosen, units, relevance, documents)
        text = " ".join(cite(with_subject(units[i], documents[units[i].doc]), units[i].doc + 1) for i in chosen)
        return Answer(text, tuple(sorted({units[i].doc + 1 for i in chosen})))

    def lead_with_cited(self, chosen: list[int], units: Sequence[SourceSentence], relevance: np.ndarray,
                        vectors: np.ndarray, documents: Sequence[Document]) -> list[int]:
        """The sentences of the ``metadata["cited"]`` documents first (picked among themselves by :meth:`select`,
        the best counted as clearing ``support_bar`` whatever its score), then ``chosen`` while room is left.

        >>> docs = [Document("Nets must be hauled daily."), Document("A breach costs 80 crowns.", metadata={"cited": True})]
        >>> units, vectors = answer_units(docs), np.eye(2)
        >>> LocalWriter(embedder=object()).lead_with_cited([0], units, np.array([0.9, 0.1]), vectors, docs)
        [1, 0]
        """
        cited = {d for d, doc in enumerate(check_documents(documents)) if doc.metadata.get("cited")}
        own = [i for i, unit in enumerate(units) if unit.doc in cited]
        if not own:
            return chosen
        scores = relevance[own]
        # lifted so that the best clears support_bar by relative_bar: only the relative bar applies
        lifted = scores - scores.max() + max(self.support_bar + self.relative_bar, float(scores.max()))
        lead = [own[j] for j in self.select(lifted, vectors[own])]
        return lead + [i for i in chosen if i not in lead][: max(0, self.max_sentences - len(lead))]

    def answer_each_ask(self, question: str, chosen: list[int], units: Sequence[SourceSentence], relevance: np.ndarray,
                        documents: Sequence[Document]) -> list[int]:
        """For each ask of a question with several (:func:`ragkit.core.nlp.question_asks`) that no pick answers, the
        most relevant sentence that does (an answer of the ask's type and one of its key terms, relevance at least
        ``support_bar``), in place of the weakest pick that neither answers an ask nor comes from a cited document.

        >>> docs = [Document("Permits are revoked for breaches of their conditions."),
        ...         Document("An appeal is lodged within 30 days."), Document("The Board decides appeals.")]
        >>> LocalWriter(embedder=object(), max_sentences=2).answer_each_ask("If a permit is revoked, how long do I have "
        ...     "to appeal and who decides?", [0, 1], answer_units(docs), np.array([0.9, 0.5, 0.45]), docs)
        [1, 2]
        """
        asks = question_asks(question)
        if len(asks) < 2:
            return chosen
        docs = check_documents(documents)

        def answers(i: int, kind: str, terms: list[str]) -> bool:
            return has_answer(kind, units[i].text, question) and bool(set(terms) & set(tokenize(units[i].text)))

        def protected(i: int) -> bool:
            return bool(docs[units[i].doc].metadata.get("cited")) or any(answers(i, kind, terms) for kind, terms in asks)

        out = list(chosen)
        for kind, terms in asks:
            if any(answers(i, kind, terms) for i in out):
                continue
            found = [int(i) for i in np.argsort(-relevance, kind="stable")
                     if relevance[i] >= self.support_bar and answers(int(i), kind, terms)]
            spare = [i for i in out if not protected(i)]
            if not found or (len(out) >= self.max_sentences and not spare):
                continue
            if len(out) >= self.max_sentences:
                out.remove(spare[-1])
            out.append(found[0])
        return out


# ---------------------------------------------------------------- the RM3 rewriter
def _content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in QUESTION_STOPWORDS and len(w) > 2 and not w.isdigit()]


class LocalRewriter:
    """RM3-style pseudo-relevance feedback: the question first, then the strongest feedback terms.

    >>> docs = [Document(page_content="Chablis is a dry white wine from Burgundy, great with oysters."),
    ...         Document(page_content="Muscadet, a dry white wine, is the classic match for oysters.")]
    >>> LocalRewriter(max_terms=3).rewrite("What goes with oysters?", docs)
    'What goes with oysters? dry white wine'
    """

    def __init__(self, max_terms: int = 5, feedback_docs: int = 3, original_weight: float = 0.5):
        if not 0.0 <= original_weight <= 1.0:
            raise ValueError(f"original_weight must be between 0 and 1, got {original_weight}")
        self.max_terms, self.feedback_docs, self.original_weight = max_terms, feedback_docs, original_weight

    def feedback(self, question: str, documents: Sequence[Document]) -> list[Document]:
        """The feedback documents: the first ``feedback_docs`` that share a key term with the question."""
        q_terms = set(key_terms(question))
        usable = [d for d in documents if q_terms & {stem(w) for w in words(d.page_content)}]
        return usable[: self.feedback_docs]

    def term_weights(self, question: str, documents: Sequence[Document]) -> dict[str, float]:
        """The interpolated query model P'(t) over stems (original query terms included)."""
        q_terms = key_terms(question)
        query_model = {t: 1.0 / len(q_terms) for t in q_terms} if q_terms else {}
        feedback: dict[str, float] = defaultdict(float)
        total_weight = 0.0
        for doc in self.feedback(question, documents):
            stems = [stem(w) for w in _content_words(doc.page_content)]
            if not stems:
                continue
            present = set(stems)
            weight = sum(t in present for t in q_terms) / max(len(q_terms), 1)
            total_weight += weight
            for t, count in Counter(stems).items():
                feedback[t] += weight * count / len(stems)
        lam = self.original_weight
        model: dict[str, float] = {t: lam * p for t, p in query_model.items()}
        for t, p in feedback.items():
            model[t] = model.get(t, 0.0) + (1 - lam) * p / max(total_weight, 1e-12)
        return model

    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        question = clean_query(question, what="question")
        documents = self.feedback(question, check_documents(documents))
        if not documents:
            keywords = _content_words(question)
            return " ".join(dict.fromkeys(keywords)) if keywords else question
        model = self.term_weights(question, documents)
        original = set(key_terms(question)) | {stem(w) for w in words(question)}
        surface: dict[str, Counter] = defaultdict(Counter)
        first_seen: dict[str, int] = {}
        for doc in documents:
            for w in _content_words(doc.page_content):
                surface[stem(w)][w] += 1
                first_seen.setdefault(stem(w), len(first_seen))
        new = [t for t in model if t not in original and t in surface]
        new.sort(key=lambda t: (-round(model[t], 9), first_seen[t]))  # ties: the word met first
        added = [surface[t].most_common(1)[0][0] for t in new[: self.max_terms]]
        return f"{question} {' '.join(added)}".strip()


__all__ = ["LocalRewriter", "LocalWriter", "answer_units", "cite", "with_subject"]
