"""Text features shared by the local roles: embeddings, sentences with their source, numbers, names, coverage.

The local roles (grader, writer, hallucination grader, answer grader, router) are built from the same few
measurements: cosine similarity between MiniLM vectors, which key terms of a question a text contains,
and which numbers and capitalised names a sentence mentions. They live here once so every role measures
them the same way.

A source text is not all sentences: Markdown headings, table rows, code blocks and list labels come out
of the sentence splitter too. :func:`is_fragment` spots them, and :func:`prose_sentences` returns only
the sentences worth quoting (the writer quotes those; the hallucination grader still checks against
everything, since a heading can support a claim).

Simplifications: a "name" is any capitalised word that is not the first word of its sentence (so a name
that opens a sentence is missed, and a capitalised common word inside a title is counted); a "number" is
any token with a digit in it, compared after removing thousands separators and trailing zeros
("12.50" == "12.5", "1,000" == "1000"), so "twelve" and "12" are different numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.nlp import LUCENE_STOPWORDS, QUESTION_STOPWORDS, key_terms, split_sentences, tokenize

MAX_ANSWER_CHARS = 20_000  # an answer longer than this is not an answer to check sentence by sentence
MAX_DOCUMENT_CHARS = 100_000  # one Document above this is an unsplit corpus, not a retrieved passage
MAX_DOCUMENTS = 200

_CITATION = re.compile(r"\s*\[(\d+(?:\s*[,;-]\s*\d+)*)\]")
_TOKEN = re.compile(r"[A-Za-z\u00C0-\u024F][\w'\u00C0-\u024F-]*|\d[\d,.:/-]*\d|\d")


def load_embedder() -> Embeddings:
    """The packaged MiniLM (imported lazily so building a role with your own embedder loads no model)."""
    from ragkit.core.embeddings import load_embedder

    return load_embedder()


def check_documents(documents: Sequence[Document], what: str = "documents") -> list[Document]:
    """Check a list of Documents (type, count, size) and return it as a list; raise a clear error otherwise."""
    if isinstance(documents, (str, Document)):
        raise TypeError(f"{what} must be a list of Documents, not a single {type(documents).__name__}")
    documents = list(documents)
    if len(documents) > MAX_DOCUMENTS:
        raise ValueError(f"{what}: {len(documents)} documents given; the limit is {MAX_DOCUMENTS}")
    for i, doc in enumerate(documents):
        if not isinstance(doc, Document):
            raise TypeError(f"{what}[{i}] is a {type(doc).__name__}, not a langchain Document")
        if len(doc.page_content) > MAX_DOCUMENT_CHARS:
            raise ValueError(
                f"{what}[{i}] is {len(doc.page_content):,} characters long; the limit is {MAX_DOCUMENT_CHARS:,}. "
                "Split long texts into passages before grading or writing from them."
            )
    return documents


def check_answer(answer: object, max_chars: int = MAX_ANSWER_CHARS) -> str:
    """Check an answer string (type and size) and return it stripped; an empty answer is allowed."""
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a string, got {type(answer).__name__}")
    if len(answer) > max_chars:
        raise ValueError(f"answer is {len(answer):,} characters long; the limit is {max_chars:,}")
    return answer.strip()


def strip_citations(text: str) -> str:
    """Remove ``[n]`` / ``[1, 2]`` citation markers.

    >>> strip_citations("It costs 12 euros [2]. Served hot [1, 3].")
    'It costs 12 euros. Served hot.'
    """
    return _CITATION.sub("", text).strip()


def cited_numbers(text: str) -> list[int]:
    """The document numbers cited with ``[n]`` markers, in order of first appearance.

    >>> cited_numbers("A [2]. B [1, 2]. C [3-4].")
    [2, 1, 3, 4]
    """
    found: dict[int, None] = {}
    for group in _CITATION.findall(text):
        for part in re.split(r"\s*[,;]\s*", group):
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                for n in range(lo, min(hi, lo + 50) + 1):
                    found.setdefault(n, None)
            else:
                found.setdefault(int(part), None)
    return list(found)


@dataclass(frozen=True)
class SourceSentence:
    """One sentence of one document: ``doc`` is the 0-based index of the document it came from."""

    doc: int
    position: int
    text: str


def source_sentences(documents: Sequence[Document]) -> list[SourceSentence]:
    """Every sentence of every document, tagged with its document index and position."""
    out: list[SourceSentence] = []
    for d, doc in enumerate(documents):
        for p, sentence in enumerate(split_sentences(doc.page_content)):
            out.append(SourceSentence(d, p, sentence))
    return out


_TERMINAL = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")
_ELLIPSIS = re.compile(r"(\.\.\.|\u2026)[\"'\u201d\u2019)\]]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*(```|~~~)[^\n]*$", re.MULTILINE | re.DOTALL)
MAX_FRAGMENT_WORDS = 12  # an unpunctuated line this short is a heading or a label, not a sentence


def is_fragment(sentence: str, title: str | None = None) -> bool:
    """True for a piece of text that is not a sentence to quote: a heading, a table row, code, a short label.

    The rules: it starts with a Markdown heading or table mark (``#``, ``|``) or holds a code fence; or it
    repeats the document's ``title``; or it is at most ``MAX_FRAGMENT_WORDS`` words long and does not end
    like a sentence (``.``, ``!``, ``?``; an ellipsis does not count).

    >>> is_fragment("Thompson sampling bandits"), is_fragment("## Setup"), is_fragment("It costs 12 euros.")
    (True, True, False)
    >>> is_fragment("Harbour fish soup (starter, 11.50 EUR)."), is_fragment("See Command(resume=...)")
    (False, True)
    """
    text = " ".join(sentence.split())
    if not text or text.startswith(("#", "|")) or "```" in text or "~~~" in text:
        return True
    if title and text.lower().rstrip(".:") == " ".join(title.split()).lower().rstrip(".:"):
        return True
    ends_like_a_sentence = bool(_TERMINAL.search(text)) and not _ELLIPSIS.search(text)
    return not ends_like_a_sentence and len(text.split()) <= MAX_FRAGMENT_WORDS


def prose_sentences(documents: Sequence[Document]) -> list[SourceSentence]:
    """The sentences of every document that are worth quoting: code blocks removed, fragments dropped.

    ``position`` is the sentence's place among its document's kept sentences.

    >>> doc = Document(page_content="Oysters\\n\\nSix oysters cost 14 euros.\\n\\n```\\nprint(14)\\n```",
    ...                metadata={"title": "Oysters"})
    >>> [s.text for s in prose_sentences([doc])]
    ['Six oysters cost 14 euros.']
    """
    out: list[SourceSentence] = []
    for d, doc in enumerate(documents):
        title = doc.metadata.get("title") if isinstance(doc.metadata, dict) else None
        text = _FENCE.sub("\n\n", doc.page_content)
        kept = [s for s in split_sentences(text) if not is_fragment(s, title if isinstance(title, str) else None)]
        out.extend(SourceSentence(d, p, s) for p, s in enumerate(kept))
    return out


MAX_SUBJECT_WORDS = 12  # a longer "title" is a sentence, not a name to put in front of a quote


def document_subject(doc: Document) -> str | None:
    """The document's title (metadata ``title``) as written in its own text, or None.

    Only a title that occurs in ``page_content`` counts (case and spacing ignored), so a writer that
    puts it in front of a quoted sentence still uses only words of the source. The text's own spelling
    is returned.

    >>> document_subject(Document(page_content="Panna cotta with figs (dessert). Dietary: gluten-free.",
    ...                           metadata={"title": "panna cotta  with figs"}))
    'Panna cotta with figs'
    >>> document_subject(Document(page_content="A mousse.", metadata={"title": "Chocolate_mousse"})) is None
    True
    """
    title = doc.metadata.get("title") if isinstance(doc.metadata, dict) else None
    if not isinstance(title, str) or not title.split() or len(title.split()) > MAX_SUBJECT_WORDS:
        return None
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in title.split()) + r"(?!\w)"
    match = re.search(pattern, doc.page_content, flags=re.IGNORECASE)
    return match.group(0) if match else None


def mentions(sentence: str, subject: str) -> bool:
    """True when the sentence contains at least half of the subject's key terms (stemmed).

    Half, not all: "A dark chocolate mousse ..." is clearly about "Chocolate and olive oil mousse".

    >>> mentions("The gelatine means it is not vegetarian.", "Panna cotta with figs")
    False
    >>> mentions("A dark chocolate mousse whipped with aquafaba.", "Chocolate and olive oil mousse")
    True
    """
    terms = set(tokenize(subject))
    present = terms & set(tokenize(sentence))
    return bool(terms) and 2 * len(present) >= len(terms)


def _normalise_number(token: str) -> str:
    token = token.replace(",", "")
    if re.fullmatch(r"\d+\.\d+", token):
        token = token.rstrip("0").rstrip(".")
    return token


def numbers(text: str) -> set[str]:
    """Digit tokens in a text, normalised.

    >>> sorted(numbers("Costs 12.50 euros for 1,000 g, since 2019."))
    ['1000', '12.5', '2019']
    """
    return {_normalise_number(t.lower()) for t in _TOKEN.findall(strip_citations(text)) if any(c.isdigit() for c in t)}


def names(sentence: str) -> set[str]:
    """Capitalised words that are not the sentence's first word (lower-cased), a cheap named-entity finder.

    >>> sorted(names("The Chablis comes from Burgundy, says Marie."))
    ['burgundy', 'chablis', 'marie']
    """
    tokens = [t for t in _TOKEN.findall(strip_citations(sentence)) if not t[0].isdigit()]
    found = set()
    for i, token in enumerate(tokens):
        if i == 0 or not token[0].isupper():
            continue
        if token.lower() in LUCENE_STOPWORDS or token.lower() in QUESTION_STOPWORDS:
            continue
        found.add(token.lower())
    return found


def word_set(text: str) -> set[str]:
    """Lower-cased word and number tokens of a text, for checking that a name or number occurs in it."""
    return {_normalise_number(t.lower()) for t in _TOKEN.findall(text)}


def term_coverage(question: str, text: str) -> float:
    """Share of the question's key terms (stemmed) that occur in the text, 0..1 (1 when the question has none).

    >>> term_coverage("Which wine goes with grilled fish?", "A white wine for fish.")
    0.5
    """
    terms = key_terms(question)
    if not terms:
        return 1.0
    present = set(tokenize(text))
    return sum(t in present for t in terms) / len(terms)
