"""Direct citations in a question: "Article 12(3)", "Arts. 5 and 6", "s. 12", "§ 12", "제12조 제3항".

A question that names an article should be answered from that article, whatever a retriever thinks.
:func:`parse_citations` finds every direct citation and returns a :class:`Citation` (article number,
optional paragraph and point, the span in the text, and the act when one is named next to it);
:func:`check_citations` then says which cited articles or paragraphs the loaded statute does not have.
Numbers are never dropped for being out of range: the caller decides what an unknown article means.

Forms understood (keywords in any case unless noted):

- ``Article 12``, ``Art. 12``, ``Art 12`` (capital A without the dot), ``Article 12(3)``, ``Art. 12(3)(a)``;
- lists and ranges after a plural keyword: ``Articles 5 and 6``, ``Arts. 5, 6 or 7``, ``Articles 3 to 5``;
- ``section 12``, ``sec. 12``, ``s. 12`` and ``ss. 5 and 6`` (lower-case ``s.`` only, so "U.S. 12" is not
  one), ``§ 12`` and ``§§ 5 and 6``;
- an act named around it: ``Coastal Waters Act, Article 12`` or ``Article 12 of the Coastal Waters Act``;
- Korean: ``제12조`` and ``제12조 제3항`` (Article 12(3)).

Why the patterns cannot backtrack catastrophically: every quantifier in them is bounded by a small
constant (``\\d{1,6}``, ``[ \\t]{0,3}``, keyword literals of at most 8 characters), no quantified group
contains another quantifier that can match the same characters, and alternatives are fixed literals.
So a match attempt starting at one position reads at most a few dozen characters before it succeeds or
fails, and scanning ``n`` characters costs ``O(n)``. List items are read one at a time by an anchored
pattern that must consume a number each time, so lists are linear too; the act name is found by
splitting a 100-character window, not by a regular expression searching backwards.

Simplifications: no "paragraph 3 of Article 12" or "Article 12, paragraph 3" phrasing; a singular
keyword never starts a list ("Article 5 and 6" cites only 5); numbers longer than 6 digits are not
citations; Korean branch articles (제12조의2) and named Korean acts are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from langchain_core.documents import Document

# The graph's input policy caps questions at 2,000 characters (ragkit.core.nlp.MAX_QUERY_CHARS); this cap is
# for whole documents (data/statute.md is 28k characters) and is a guard, not a tuning knob.
MAX_CITATION_CHARS = 500_000

_NUMBER = r"(?P<{n}>\d{{1,6}})(?!\d)(?:[ ]?\((?P<{p}>\d{{1,4}})\))?(?:\((?P<{x}>[a-z])\))?"
_HEAD = re.compile(
    r"(?:(?<!\w)(?P<kw>(?i:articles?)|(?i:arts?)\.|Arts?(?![\w.])|(?i:sections?)|(?i:secs?)\.)"
    r"|(?<![\w.'’])(?P<kws>ss?\.)"
    r"|(?P<kwp>§§?))"
    r"[ \t\u00a0]{0,3}" + _NUMBER.format(n="num", p="para", x="point")
    + r"|(?P<ko>제[ ]?(?P<konum>\d{1,6})(?!\d)[ ]?조(?!의\d)(?:[ ]?제[ ]?(?P<kopara>\d{1,4})(?!\d)[ ]?항)?)"
)
_NEXT = re.compile(
    r"[ \t]{0,3}(?:(?P<range>to[ \t]{1,3}|[-\u2013\u2014][ \t]{0,3})|,[ \t]{0,3}(?:and[ \t]{1,3}|or[ \t]{1,3})?"
    r"|and[ \t]{1,3}|or[ \t]{1,3}|&[ \t]{0,3})" + _NUMBER.format(n="num", p="para", x="point")
)
_ACT_AFTER = re.compile(r"[ ]{1,3}of[ ]{1,3}(?:the[ ]{1,3})?(?P<act>(?:[A-Z][\w'’-]{0,30}[ ]{1,3}){1,8}Act)\b")
_PLURAL = frozenset({"articles", "arts.", "arts", "sections", "secs.", "ss.", "§§"})
_MAX_RANGE = 50  # "Articles 3 to 5" expands; a wider "range" is read as two separate numbers


@dataclass(frozen=True)
class Citation:
    """One cited article (and paragraph): ``text[start:end]`` is what was matched."""

    article: int
    paragraph: int | None = None
    point: str | None = None
    start: int = 0
    end: int = 0
    text: str = ""
    act: str | None = None

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    def label(self) -> str:
        """The citation in the statute's own form.

        >>> Citation(12, 3, "a").label()
        'Article 12(3)(a)'
        """
        para = f"({self.paragraph})" if self.paragraph is not None else ""
        point = f"({self.point})" if self.point else ""
        return f"Article {self.article}{para}{point}"


def _act_before(text: str, start: int) -> str | None:
    """The act named just before ``start`` ("Coastal Waters Act, Article 12"), read from a short window.

    >>> _act_before("Under the Coastal Waters Act, Article 12", 30)
    'Coastal Waters Act'
    """
    window = text[max(0, start - 100) : start].rstrip(" \t,")
    if not window.endswith("Act") or (len(window) > 3 and window[-4].isalnum()):
        return None
    words = window[:-3].split(" ")[:-1]  # the last item is "" (the space before "Act")
    name: list[str] = []
    for word in reversed(words[-8:]):
        if not word[:1].isupper() or not word.replace("-", "").replace("'", "").isalnum():
            break
        name.insert(0, word)
    return " ".join([*name, "Act"]) if name else None


def _check_length(text: str, max_chars: int) -> None:
    if not isinstance(text, str):
        raise TypeError(f"parse_citations needs a string, got {type(text).__name__}")
    if len(text) > max_chars:
        raise ValueError(
            f"text is {len(text):,} characters long; parse_citations reads at most {max_chars:,} "
            "(questions are capped at 2,000 by the graph's input policy). Split it, or pass a larger max_chars."
        )


def parse_citations(text: str, max_chars: int = MAX_CITATION_CHARS) -> list[Citation]:
    """Every direct citation in ``text``, in order of appearance (runs in time linear in ``len(text)``).

    >>> [c.label() for c in parse_citations("Compare Art. 12(3) with Articles 5 and 6.")]
    ['Article 12(3)', 'Article 5', 'Article 6']
    >>> [(c.article, c.paragraph, c.span) for c in parse_citations("제12조 제3항에 따르면")]
    [(12, 3, (0, 8))]
    >>> parse_citations("an article of clothing, 12 nautical miles")
    []
    """
    _check_length(text, max_chars)
    found: list[Citation] = []
    pos = 0
    while (m := _HEAD.search(text, pos)) is not None:
        if m.group("ko"):
            para = m.group("kopara")
            found.append(Citation(int(m.group("konum")), int(para) if para else None, None, m.start(), m.end(), m.group()))
            pos = m.end()
            continue
        group: list[Citation] = [_from_match(m, text, m.start())]
        keyword = (m.group("kw") or m.group("kws") or m.group("kwp")).lower()
        pos = m.end()
        while keyword in _PLURAL and (nxt := _NEXT.match(text, pos)) is not None:
            item = _from_match(nxt, text, nxt.start("num"))
            if nxt.group("range") and group[-1].article < item.article <= group[-1].article + _MAX_RANGE:
                group.extend(Citation(n, None, None, item.start, item.end, item.text) for n in range(group[-1].article + 1, item.article))
            group.append(item)
            pos = nxt.end()
        after = _ACT_AFTER.match(text, pos, min(len(text), pos + 120))
        act = after.group("act") if after else _act_before(text, m.start())
        if act:
            group = [Citation(c.article, c.paragraph, c.point, c.start, c.end, c.text, act) for c in group]
        found.extend(group)
    return found


def _from_match(m: re.Match[str], text: str, start: int) -> Citation:
    para = m.group("para")
    return Citation(int(m.group("num")), int(para) if para else None, m.group("point"), start, m.end(), text[start : m.end()])


def cited_articles(text: str, exclude: int | None = None) -> list[int]:
    """The distinct article numbers cited in ``text``, sorted (``exclude``: an article's own number).

    >>> cited_articles("Do Arts. 6 to 8 apply, or only § 6 and 제13조?")
    [6, 7, 8, 13]
    >>> cited_articles("See Article 12(3), Articles 4 and 6, and Articles 8 to 10 of this Act.", exclude=9)
    [4, 6, 8, 10, 12]
    """
    return sorted({c.article for c in parse_citations(text)} - {exclude})


def without_citations(text: str) -> str:
    """``text`` with its citations cut out (what is left for reading names, say).

    >>> without_citations("Does Article 15 apply in Norway?")
    'Does  apply in Norway?'
    """
    for citation in reversed(parse_citations(text)):
        text = text[: citation.start] + text[citation.end:]
    return text


class CitationCheck(NamedTuple):
    """A citation and what is wrong with it against the loaded statute (``problem`` is None when fine)."""

    citation: Citation
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_citations(citations: Iterable[Citation], docs: Iterable[Document]) -> list[CitationCheck]:
    """Flag citations of articles the statute lacks, or of paragraphs beyond an article's last one.

    ``docs`` are statute articles as :func:`ragkit.domains.statute.corpus.load_statute` returns them (metadata ``article``
    and ``paragraphs``; an article with 0 numbered paragraphs accepts no paragraph check).

    >>> docs = [Document("...", metadata={"article": 1, "paragraphs": 3})]
    >>> [c.problem for c in check_citations(parse_citations("Art. 1(2), Art. 1(5), Art. 9"), docs)]
    [None, 'Article 1 has 3 paragraphs; there is no paragraph (5)', 'there is no Article 9 in this statute (it has Articles 1-1)']
    """
    paragraphs = {int(d.metadata["article"]): int(d.metadata.get("paragraphs") or 0) for d in docs}
    if not paragraphs:
        raise ValueError("check_citations needs the statute's articles: the documents list is empty")
    span = f"{min(paragraphs)}-{max(paragraphs)}"
    checks = []
    for c in citations:
        problem = None
        if c.article not in paragraphs:
            problem = f"there is no Article {c.article} in this statute (it has Articles {span})"
        elif c.paragraph is not None and 0 < paragraphs[c.article] < c.paragraph:
            problem = f"Article {c.article} has {paragraphs[c.article]} paragraphs; there is no paragraph ({c.paragraph})"
        checks.append(CitationCheck(c, problem))
    return checks


def pinned_articles(question: str, numbers: Iterable[int]) -> tuple[list[int], list[str]]:
    """The cited articles the statute has (in the question's order) and the problems with the others.

    >>> pinned_articles("Compare Art. 12(3) with Article 99 and 제12조.", range(1, 41))
    ([12], ['there is no Article 99 in this statute (it has Articles 1-40)'])
    """
    have = {int(n) for n in numbers}
    docs = [Document("", metadata={"article": n, "paragraphs": 0}) for n in have]
    pinned, problems = [], []
    for check in check_citations(parse_citations(question), docs):
        if check.citation.article in have:
            if check.citation.article not in pinned:
                pinned.append(check.citation.article)
        elif check.problem not in problems:
            problems.append(check.problem)
    return pinned, problems


def with_titles(question: str, titles: Mapping[int, str]) -> str:
    """The question with each cited article's title written after the citation, for the local roles.

    "What is Article 16 about?" shares no word with the article's paragraphs; "What is Article 16 (Closed
    areas and seasons) about?" shares three.

    >>> with_titles("what is article 16 about", {16: "Closed areas and seasons"})
    'what is article 16 (Closed areas and seasons) about'
    """
    out, last = [], 0
    for citation in parse_citations(question):
        title = titles.get(citation.article)
        if title:
            out.extend([question[last:citation.end], f" ({title})"])
            last = citation.end
    return "".join(out) + question[last:]


__all__ = ["MAX_CITATION_CHARS", "Citation", "CitationCheck", "check_citations", "cited_articles", "parse_citations",
           "pinned_articles", "with_titles", "without_citations"]
