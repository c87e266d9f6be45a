"""Articles cut into paragraph Documents, answers that cite them as "[Article 12(3)]", and checking those citations.

A statute answer should say *which paragraph* supports each sentence, in the statute's own form. The
writers of :mod:`ragkit.offline.writing` cite the documents they were given as ``[n]``; give them one
Document per numbered paragraph (:func:`split_paragraphs`) and :func:`cite_paragraphs` turns each ``[n]``
into the paragraph's label, ``[Article 12(3)]``. :func:`answer_citations` reads those bracketed labels
back (with :func:`ragkit.domains.statute.citations.parse_citations`), sentence by sentence, so a verifier can check
each one against the paragraph it names.

A paragraph Document holds the paragraph's text without its ``(3)`` marker (lettered points stay inside
it); metadata: ``id`` (``art-12(3)``), ``article``, ``paragraph`` (None for text before the first numbered
paragraph, such as "In this Act:"), ``title`` (the label, ``Article 12(3)``, which a prompt shows next to
the text), ``article_title`` and ``article_id`` (``art-12``, the article's own id).

Simplifications: only ``(n)`` at the start of a line opens a paragraph (the format of ``data/statute.md``
and of :func:`ragkit.domains.statute.corpus.load_statute`); a citation counts only inside square brackets, so the text a
writer quotes ("may be appealed under Article 38") is never mistaken for a citation; a bracket that names
several articles ("[Articles 35 and 36]") yields one citation per article.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from langchain_core.documents import Document

from ragkit.core.nlp import cited_numbers, split_sentences
from ragkit.core.search import doc_key
from ragkit.domains.statute.citations import Citation, parse_citations
from ragkit.roles.protocols import HallucinationGrader
from ragkit.roles.statute_protocols import CitationReport

_PARAGRAPH = re.compile(r"^\((\d{1,4})\)[ \t]*", re.MULTILINE)
_BRACKET = re.compile(r"\s*\[([^\[\]\n]{1,120})\]")
_NUMBER_MARKER = re.compile(r"\s*\[(\d+(?:\s*[,;-]\s*\d+)*)\]")


def split_paragraphs(article: Document) -> list[Document]:
    """One Document per numbered paragraph of an article (its heading dropped; see the module docstring).

    >>> doc = Document("Article 9. Assessment\\n\\n(1) It is needed for:\\n(a) a pier.\\n\\n(2) It is paid for.",
    ...                metadata={"id": "art-9", "article": 9, "title": "Assessment"})
    >>> [(d.metadata["title"], d.page_content) for d in split_paragraphs(doc)]
    [('Article 9(1)', 'It is needed for:\\n(a) a pier.'), ('Article 9(2)', 'It is paid for.')]
    """
    number = int(article.metadata["article"])
    body = article.page_content.split("\n\n", 1)[1] if article.page_content.startswith("Article ") and "\n\n" in article.page_content else article.page_content
    marks = list(_PARAGRAPH.finditer(body))
    pieces: list[tuple[int | None, str]] = []
    preface = body[: marks[0].start()] if marks else body
    if preface.strip():
        pieces.append((None, preface.strip()))
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        pieces.append((int(mark.group(1)), body[mark.end():end].strip()))
    out = []
    for paragraph, text in pieces:
        label = Citation(number, paragraph).label()
        key = f"art-{number}" + (f"({paragraph})" if paragraph is not None else "")
        out.append(Document(text, metadata={"id": key, "article": number, "paragraph": paragraph, "title": label,
                                            "article_title": article.metadata.get("title", ""), "article_id": doc_key(article)}))
    return out


def paragraphs_of(articles: Sequence[Document]) -> list[Document]:
    """The paragraph Documents of several articles, in the articles' order."""
    return [p for article in articles for p in split_paragraphs(article)]


def cited_first(paragraphs: Sequence[Document], question: str) -> list[Document]:
    """The paragraphs the question cites first, marked ``metadata["cited"]`` for the writer, then the others in
    their order: a question that cites a paragraph is answered from it first, and the paragraphs that merely
    mention its article come after. A citation of a whole article ("section 38") cites each of its paragraphs;
    one of a paragraph the article lacks cites nothing.

    >>> paras = [Document("x", metadata={"article": 12, "paragraph": p, "id": f"art-12({p})"}) for p in (3, 4)]
    >>> paras.insert(0, Document("y", metadata={"article": 8, "paragraph": 4, "id": "art-8(4)"}))
    >>> [(p.metadata["id"], p.metadata.get("cited", False)) for p in cited_first(paras, "What does Art. 12(4) say?")]
    [('art-12(4)', True), ('art-8(4)', False), ('art-12(3)', False)]
    """
    citations = parse_citations(question)

    def cited(p: Document) -> bool:
        return any(c.article == p.metadata.get("article") and c.paragraph in (None, p.metadata.get("paragraph")) for c in citations)

    first = [Document(p.page_content, metadata={**p.metadata, "cited": True}, id=p.id) for p in paragraphs if cited(p)]
    return first + [p for p in paragraphs if not cited(p)]


def cite_paragraphs(text: str, paragraphs: Sequence[Document]) -> str:
    """Replace each ``[n]`` marker (1-based, into ``paragraphs``) by the paragraph's ``[Article N(p)]``.

    Markers that point at no paragraph are dropped.

    >>> paras = [Document("x", metadata={"title": "Article 12(3)"}), Document("y", metadata={"title": "Article 38(1)"})]
    >>> cite_paragraphs("Notice is needed [1]. Appeal [2, 7].", paras)
    'Notice is needed [Article 12(3)]. Appeal [Article 38(1)].'
    """

    def label(match: re.Match[str]) -> str:
        kept = [paragraphs[n - 1].metadata["title"] for n in cited_numbers(match.group(0)) if 1 <= n <= len(paragraphs)]
        return " " + " ".join(f"[{k}]" for k in kept) if kept else ""

    return _NUMBER_MARKER.sub(label, text)


def bracket_citations(sentence: str) -> list[Citation]:
    """The citations written in square brackets in a sentence (text outside brackets is ignored).

    >>> [c.label() for c in bracket_citations("Appeal under Article 38 within 30 days [Article 38(1)].")]
    ['Article 38(1)']
    """
    found: list[Citation] = []
    for match in _BRACKET.finditer(sentence):
        found.extend(parse_citations(match.group(1)))
    return found


def strip_brackets(sentence: str) -> str:
    """The sentence without its bracketed citations.

    >>> strip_brackets("Notice of 14 days is needed [Article 12(3)].")
    'Notice of 14 days is needed.'
    """
    return _BRACKET.sub("", sentence).strip()


def answer_citations(text: str) -> list[tuple[str, list[Citation]]]:
    """Each cited passage of an answer (brackets removed) with the citations it carries.

    A citation after several sentences covers all of them (a quote of two sentences is cited once, at its
    end), so sentences without a citation of their own join the next cited one; sentences after the last
    citation stay uncited.

    >>> [(s, [c.label() for c in cs]) for s, cs in answer_citations("A holds [Article 1(1)]. B holds.")]
    [('A holds.', ['Article 1(1)']), ('B holds.', [])]
    >>> [(s, [c.label() for c in cs]) for s, cs in answer_citations("B holds. It lasts [Article 2(1)].")]
    [('B holds. It lasts.', ['Article 2(1)'])]
    """
    passages, pending = [], []
    for sentence in split_sentences(text):
        pending.append(strip_brackets(sentence))
        citations = bracket_citations(sentence)
        if citations:
            passages.append((" ".join(pending), citations))
            pending = []
    return passages + [(sentence, []) for sentence in pending]


def remove_citations(text: str, labels: set[str]) -> str:
    """The answer with the bracketed citations named in ``labels`` removed (others kept).

    >>> remove_citations("A [Article 1(1)] [Article 9(2)]. B [Article 9(2)].", {"Article 9(2)"})
    'A [Article 1(1)]. B.'
    """

    def keep(match: re.Match[str]) -> str:
        cites = parse_citations(match.group(1))
        return "" if cites and all(c.label() in labels for c in cites) else match.group(0)

    return _BRACKET.sub(keep, text)


# ---------------------------------------------------------------- checking an answer's citations (a CitationReport)
def cited_paragraphs(citation: Citation, articles: Mapping[int, Document]) -> list[Document]:
    """The paragraph Documents a citation names (every paragraph for a citation of a whole article)."""
    paragraphs = split_paragraphs(articles[citation.article])
    if citation.paragraph is None:
        return paragraphs
    return [p for p in paragraphs if p.metadata["paragraph"] == citation.paragraph]


def check_answer_citations(answer: str, retrieved: Mapping[int, Document], verifier: HallucinationGrader) -> CitationReport:
    """Check each bracketed citation of ``answer``: its article must be among ``retrieved`` (article number ->
    article), its paragraph must exist, and the hallucination grader must find that paragraph supports the
    sentence. A sentence left without a supporting citation is unsupported.

    >>> class Yes:
    ...     def check(self, documents, answer):
    ...         from ragkit.roles.protocols import Groundedness
    ...         return Groundedness(True)
    >>> art = {12: Document("Article 12. Revocation\\n\\n(1) A.\\n\\n(3) Notice of 14 days.", metadata={"article": 12, "id": "art-12"})}
    >>> r = check_answer_citations("Notice of 14 days [Article 12(3)] [Article 40(1)]. Also B [Article 12(7)].", art, Yes())
    >>> r.valid, r.invalid, r.unsupported
    (('Article 12(3)',), (('Article 40(1)', 'Article 40 was not retrieved'), ('Article 12(7)', 'Article 12 has no paragraph (7)')), ('Also B.',))
    """
    valid, invalid, unsupported, blamed, supported = [], [], [], [], []
    for sentence, citations in answer_citations(answer):
        kept = False
        for citation in citations:
            label = citation.label()
            if citation.article not in retrieved:
                invalid.append((label, f"Article {citation.article} was not retrieved"))
                continue
            paragraphs = cited_paragraphs(citation, retrieved)
            if not paragraphs:
                invalid.append((label, f"Article {citation.article} has no paragraph ({citation.paragraph})"))
                continue
            if verifier.check(paragraphs, sentence).grounded:
                kept = True
                supported.extend(doc_key(p) for p in paragraphs)
                if label not in valid:
                    valid.append(label)
            else:
                invalid.append((label, "does not support its sentence"))
                blamed.extend(doc_key(p) for p in paragraphs)
        if not kept:
            unsupported.append(sentence)
    return CitationReport(tuple(valid), tuple(invalid), tuple(unsupported), tuple(dict.fromkeys(blamed)),
                          tuple(dict.fromkeys(supported)))


__all__ = ["answer_citations", "bracket_citations", "check_answer_citations", "cite_paragraphs",
           "cited_first", "cited_paragraphs", "paragraphs_of", "remove_citations", "split_paragraphs", "strip_brackets"]
