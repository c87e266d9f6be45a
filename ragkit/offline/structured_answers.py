"""Answers that a question's structure decides: lists, winners, yes/no, comparisons, and what to leave out.

Given documents with metadata and a query analysis (:class:`ragkit.roles.structured_query.QueryAnalysis`), the answer is
decided by code, and the words are quoted from the documents:

- **exclusions**: a document that fails the filter is never quoted, and a quoted sentence that names an
  excluded item is dropped (:func:`drop_excluded`), so "which desserts have no nuts?" cannot list a nut
  dessert, whatever the sentences say;
- **set**: every document that passes, each with its first sentence and the sentence that shows the
  field asked about ("Allergens: ...", "Price: ...");
- **single** (a superlative): the winners only (ties all win);
- **yes_no**: "Yes: " and the matches, or "No: " and what nothing matched;
- **comparison**: the two items' values, the winner named first, each with its quoted sentence; a winner
  compared with a named item ("the cheapest red, and is it cheaper than the Barolo?") gets the same sentence;
- **what was not used**: a part of the question the analysis did not apply (``unused``) is said first.

Every quoted sentence carries ``[n]``, the number of its document. The connecting words ("Yes:", "has the
lower price than") are the writer's own; everything else is the documents'.

>>> docs = [Document("Lemon tart (dessert, 8.00 EUR). Allergens: gluten.", metadata={"id": "a", "title": "Lemon tart",
...                  "course": "dessert", "price": 8.0}),
...         Document("Almond cake (dessert, 7.50 EUR). Allergens: tree nuts.", metadata={"id": "b", "title": "Almond cake",
...                  "course": "dessert", "price": 7.5})]
>>> drop_excluded("Lemon tart is lovely [1]. Almond cake too [2].", ["Almond cake"], ["Lemon tart"])
'Lemon tart is lovely [1].'

Simplifications: an item is "named" when its title occurs as written (case and accents ignored) or cut
before " with " or a comma, so a sentence that calls it "the cake" is not caught (it is quoted from a
document that passed, so it is about a passing item); values are printed as stored (a price without its
currency in the comparison's verdict).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.documents import Document

from ragkit.core.nlp import answer_type, cited_numbers, fold, mentions, split_sentences, stem, words
from ragkit.offline.writing import cite
from ragkit.roles.protocols import NOT_ENOUGH_INFORMATION, Answer, Writer
from ragkit.roles.structured_query import ItemComparison, QueryAnalysis, QueryAnalyzer, describe


def name_forms(title: str) -> list[str]:
    """How a text may name an item: its title, and the title cut before " with " or a comma (folded).

    >>> name_forms("Panna cotta with figs")
    ['panna cotta with figs', 'panna cotta']
    """
    full = " ".join(fold(title).split())
    short = re.split(r"\s+with\s+|,", full)[0].strip()
    return [full] + ([short] if short and short != full else [])


def _pattern(form: str) -> str:
    return r"(?<!\w)" + r"\s+".join(re.escape(w) for w in form.split()) + r"(?!\w)"


def names_any(text: str, titles: Sequence[str], allowed: Sequence[str] = ()) -> bool:
    """True when ``text`` names one of ``titles``, outside any mention of an ``allowed`` title.

    >>> names_any("Lemon tart with cream.", ["Lemon tart"], allowed=["Lemon tart with cream"])
    False
    """
    folded = " ".join(fold(text).split())
    for title in sorted(allowed, key=len, reverse=True):
        for form in name_forms(title):
            folded = re.sub(_pattern(form), " ", folded)
    return any(re.search(_pattern(form), folded) for t in titles for form in name_forms(t))


def drop_excluded(text: str, excluded: Sequence[str], allowed: Sequence[str] = ()) -> str:
    """The text without the sentences that name an excluded item (an allowed title may contain its name)."""
    if not excluded:
        return text
    kept = [s for s in split_sentences(text) if not names_any(s, excluded, allowed)]
    return " ".join(kept)


def title_of(doc: Document) -> str:
    title = doc.metadata.get("title")
    return title if isinstance(title, str) and title.strip() else ""


def split_by_filter(documents: Sequence[Document], analysis: QueryAnalysis) -> tuple[list[int], list[int]]:
    """Indexes of the documents that pass the analysis's filter, and of those that fail it."""
    passing = [i for i, d in enumerate(documents) if analysis.passes(d.metadata)]
    return passing, [i for i in range(len(documents)) if i not in passing]


def _formatted(value: Any) -> list[str]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, float):
        return [f"{value:.2f}", f"{value:g}"] if not value.is_integer() else [f"{value:.2f}", str(int(value))]
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, list):
        return [x for v in value for x in _formatted(v)]
    return [str(value)]


def _field_words(field: str) -> list[str]:
    return [w for w in re.split(r"[_\W]+", field.lower()) if len(w) > 2]


def evidence(doc: Document, fields: Sequence[str], max_sentences: int = 2) -> list[str]:
    """The document's first sentence, plus the sentences that show the given fields (their value or name).

    >>> d = Document("Sancerre (Loire, France), 2022, white wine. Grapes: Sauvignon Blanc. Price: 10.00 EUR a glass.",
    ...              metadata={"title": "Sancerre", "price_glass": 10.0})
    >>> evidence(d, ["price_glass"])
    ['Sancerre (Loire, France), 2022, white wine.', 'Sancerre: Price: 10.00 EUR a glass.']
    """
    sentences = split_sentences(doc.page_content) or [doc.page_content]
    chosen = [0]
    for field in fields:
        value = doc.metadata.get(field)
        forms = [f for f in _formatted(value) if f]
        words = _field_words(field)
        hit = next((i for i, s in enumerate(sentences) if any(w in s.lower() for w in words)), None)
        if hit is None:  # no sentence names the field: the first that shows its value
            hit = next((i for i, s in enumerate(sentences) if any(f.lower() in s.lower() for f in forms)), None)
        if hit is not None and hit not in chosen and len(chosen) < 1 + max_sentences:
            chosen.append(hit)
    title = title_of(doc)
    out = []
    for i in sorted(chosen):
        s = sentences[i]
        out.append(s if i == 0 or not title or mentions(s, title) else f"{title}: {s}")
    return out


def quote(doc: Document, number: int, fields: Sequence[str]) -> str:
    """The evidence sentences of one document, each cited ``[number]``."""
    return " ".join(cite(s, number) for s in evidence(doc, fields))


def structured_answer(documents: Sequence[Document], analysis: QueryAnalysis) -> Answer | None:
    """The answer the analysis decides, or None when it decides none (a lookup: quote the best sentences).

    ``documents`` are all the writer has; with ``analysis.searched_all`` they are everything that passed the
    filter over the whole corpus, so an empty list means "no" and is said so.
    """
    fields = analysis.attributes
    passing, failing = split_by_filter(documents, analysis)
    excluded = [title_of(documents[i]) for i in failing if title_of(documents[i])]
    allowed = [title_of(documents[i]) for i in passing if title_of(documents[i])]
    what = describe(analysis.filter)
    everything = analysis.searched_all

    def listing(indexes: Sequence[int]) -> str:
        return drop_excluded(" ".join(quote(documents[i], i + 1, fields) for i in indexes), excluded, allowed)

    def cites(indexes: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted({i + 1 for i in indexes}))

    if analysis.comparison is not None:
        return comparison_answer(documents, analysis)
    if analysis.subject is not None and analysis.kind == "yes_no":
        at = next((i for i, d in enumerate(documents) if str(d.metadata.get("id")) == analysis.subject), None)
        if at is None:
            return None
        yes = at in passing
        return Answer(f"{'Yes' if yes else 'No'}: {quote(documents[at], at + 1, fields)}", cites([at]))
    if analysis.kind == "single":
        field = analysis.sort.attribute
        valued = [i for i in passing if isinstance(documents[i].metadata.get(field), (int, float))]
        if not valued:
            return Answer(f"None of the items {'on the list ' if everything else 'I found '}that match ({what}) has a "
                          f"{field} value.", (), answered=everything)
        sign = -1.0 if analysis.sort.descending else 1.0
        order = sorted(valued, key=lambda i: sign * documents[i].metadata[field])
        limit = analysis.query.limit or 1
        cut = sign * documents[order[min(limit, len(order)) - 1]].metadata[field]
        winners = [i for i in order if sign * documents[i].metadata[field] <= cut]
        losers = [title_of(documents[i]) for i in range(len(documents)) if i not in winners and title_of(documents[i])]
        text = drop_excluded(" ".join(quote(documents[i], i + 1, fields) for i in winners), losers,
                             [title_of(documents[i]) for i in winners])
        if analysis.versus is not None:
            versus = versus_answer(documents, winners[0], analysis)
            return Answer(f"{text} {versus.text}", tuple(sorted(set(cites(winners)) | set(versus.citations))))
        return Answer(text, cites(winners))
    if analysis.kind in ("set", "yes_no"):
        if passing:
            prefix = "Yes: " if analysis.kind == "yes_no" else ""
            return Answer(prefix + listing(passing), cites(passing))
        where = "on the list" if everything else "among the items I found"
        if analysis.kind == "yes_no":
            return Answer(f"No: nothing {where} matches ({what}).", (), answered=everything)
        return Answer(f"None: nothing {where} matches ({what}).", (), answered=everything)
    return None


def field_words(field: str) -> str:
    """A field name to print: ``price_bottle`` -> ``price (bottle)``.

    >>> field_words("price_bottle"), field_words("vintage")
    ('price (bottle)', 'vintage')
    """
    parts = [w for w in re.split(r"[_\s]+", field) if w]
    return f"{parts[0]} ({' '.join(parts[1:])})" if len(parts) > 1 else field


def _bare(sentence: str) -> str:
    return re.sub(r"[.!?]+[\"')\]]*$", "", sentence.strip())


def comparison_answer(documents: Sequence[Document], analysis: QueryAnalysis) -> Answer | None:
    """Compare the two named items on the analysis's field; None when one of them is not among the documents.

    One sentence, the winner first, each item in its document's own words with its citation:
    "Yes: Mushroom and chestnut pie (main course, 18.50 EUR) [1] has a lower price than Pumpkin gnocchi ... [2]."
    """
    c = analysis.comparison
    at = {str(d.metadata.get("id")): i for i, d in enumerate(documents)}
    if c.ids[0] not in at or c.ids[1] not in at:
        return None
    ia, ib = at[c.ids[0]], at[c.ids[1]]
    a, b = documents[ia], documents[ib]
    va, vb = a.metadata.get(c.attribute), b.metadata.get(c.attribute)
    field = field_words(c.attribute)

    def shown(doc: Document, i: int) -> str:
        sentences = evidence(doc, [c.attribute], max_sentences=1)
        return f"{_bare(sentences[-1])} [{i + 1}]"

    missing = [title_of(d) for d, v in ((a, va), (b, vb)) if not isinstance(v, (int, float)) or isinstance(v, bool)]
    if missing:
        return Answer(f"I cannot compare them: {' and '.join(missing)} has no {field}. {quote(a, ia + 1, [c.attribute])} "
                      f"{quote(b, ib + 1, [c.attribute])}", (min(ia, ib) + 1, max(ia, ib) + 1))
    if va == vb:
        body, truth = f"{shown(a, ia)} has the same {field} as {shown(b, ib)}.", False
    else:
        a_wins = (va > vb) == (c.want == "higher")
        (w, iw), (lo, il) = ((a, ia), (b, ib)) if a_wins else ((b, ib), (a, ia))
        body, truth = f"{shown(w, iw)} has a {c.want} {field} than {shown(lo, il)}.", a_wins
    prefix = ("Yes: " if truth else "No: ") if c.asks_yes_no else ""
    return Answer(prefix + body, (min(ia, ib) + 1, max(ia, ib) + 1))


def versus_answer(documents: Sequence[Document], winner: int, analysis: QueryAnalysis) -> Answer:
    """The superlative's winner (``documents[winner]``) compared with the item the question names
    (``analysis.versus``): a comparison sentence, or what stops one (the item is the winner, or is missing)."""
    versus = analysis.versus
    at = next((i for i, d in enumerate(documents) if str(d.metadata.get("id")) == versus.against), None)
    if at is None:
        return Answer("I could not find the item you compare it with, so I did not compare them.", ())
    if at == winner:
        return Answer(f"It is {title_of(documents[at]) or 'the item you named'} itself: the two are the same item.",
                      (at + 1,))
    pair = ItemComparison((str(documents[winner].metadata.get("id")), versus.against), versus.attribute, versus.want, True)
    return comparison_answer(documents, dataclasses.replace(analysis, comparison=pair))  # type: ignore[return-value]


def analyse(analyzer: QueryAnalyzer | None, question: str, documents: Sequence[Document],
            query: QueryAnalysis | None) -> QueryAnalysis | None:
    """The question's analysis: the one passed in, else the analyser's over the fields these documents carry."""
    if query is not None or analyzer is None or not documents:
        return query
    restricted = getattr(analyzer, "restricted", None)
    return (restricted(documents) if restricted else analyzer).analyze(question)


def with_caveat(answer: Answer, analysis: Any) -> Answer:
    """Say first what the question excluded that the data does not know, so the answer promises nothing about it.

    >>> from types import SimpleNamespace
    >>> with_caveat(Answer("Lemon tart [1].", (1,)), SimpleNamespace(unresolved=("lactose",))).text
    "I could not check 'lactose': it is not in the data, so nothing was left out for it. Lemon tart [1]."
    """
    words = [w for w in getattr(analysis, "unresolved", ()) if w]
    unused = [w for w in getattr(analysis, "unused", ()) if w and w not in words]
    notes = []
    if words:
        listed = " or ".join(f"'{w}'" for w in words)
        notes.append(f"I could not check {listed}: {'it is' if len(words) == 1 else 'they are'} not in the data, so "
                     f"nothing was left out for {'it' if len(words) == 1 else 'them'}.")
    if unused:
        notes.append(f"I did not use this part of your question: {', '.join(repr(w) for w in unused)}; the answer "
                     "does not take it into account.")
    if not notes:
        return answer
    return Answer(f"{' '.join(notes)} {answer.text}", answer.citations, answer.answered, answer.fallback)


def unmentioned_caveat(answer: Answer, analysis: QueryAnalysis | None, documents: Sequence[Document]) -> Answer:
    """A yes/no question the structure did not read ("Do you serve sushi?") whose words left over (``ignored``)
    no document mentions: say so first, so the nearest documents are not read as a "yes".

    What it cannot do: it compares words (Porter stems), so a word the documents say differently ("coeliac"
    for "gluten-free") is reported as not mentioned too; that is still true of the documents' wording.

    >>> from types import SimpleNamespace
    >>> asked = SimpleNamespace(question="Do you serve sushi?", ignored=("sushi",))
    >>> unmentioned_caveat(Answer("Six raw oysters [1].", (1,)), asked, [Document("Six raw oysters.")]).text
    "None of the documents I found mentions 'sushi', so I cannot say yes; this is what comes closest. Six raw oysters [1]."
    """
    if analysis is None or not answer.answered or answer_type(analysis.question) != "yes/no":
        return answer
    said = {stem(w) for d in documents for w in words(f"{title_of(d) or ''} {d.page_content}")}
    missing = [w for w in analysis.ignored if stem(w) not in said]
    if not missing:
        return answer
    listed = " or ".join(f"'{w}'" for w in missing)
    return dataclasses.replace(answer, text=f"None of the documents I found mentions {listed}, so I cannot say yes; "
                                            f"this is what comes closest. {answer.text}")


def constraints(documents: Sequence[Document], analysis: QueryAnalysis, excluded: Sequence[str]) -> str:
    """The analysis as instructions for a chat model: what qualifies, what to leave out, what code computed."""
    lines = ["Constraints decided from the data (follow them exactly):"]
    if analysis.filter is not None:
        lines.append(f"- Every document shown matches: {analysis.describe()}. Mention only these items.")
    if excluded:
        lines.append(f"- Never name these items, they do not qualify: {', '.join(excluded)}.")
    decided = structured_answer(documents, analysis)
    if decided is not None and analysis.kind in ("single", "comparison", "yes_no"):
        lines.append(f"- The computed answer is: {decided.text} Say it in your own words, with the citations.")
    if analysis.unresolved:
        lines.append(f"- These words could not be checked against the data; say so: {', '.join(analysis.unresolved)}.")
    if analysis.unused:
        lines.append(f"- This part of the question was not applied to the data; say so: {'; '.join(analysis.unused)}.")
    return "\n".join(lines)


class StructuredWriter:
    """Any writer, with the question's structure decided in code first (see the module docstring).

    ``analyzer`` reads the question (``analyze(question)``; ``restricted(documents)`` when it has one, to
    the fields the documents carry); a graph that analysed the question already passes ``query=``. When the
    analysis is structured: a local writer gets the decided answer (a list, a winner, yes/no, a comparison)
    or quotes only the documents that pass the filter; a writer that reads instructions (``LLMWriter``) gets
    the passing documents and the constraints in its question. Either way a sentence naming an excluded item
    is dropped, citations are renumbered to the documents given, and a word the data does not know is said
    first. A question with no structure goes to the writer unchanged.
    """

    def __init__(self, writer: Writer, analyzer: QueryAnalyzer | None):
        self.writer, self.analyzer = writer, analyzer

    def write(self, question: str, documents: Sequence[Document], query: QueryAnalysis | None = None) -> Answer:
        documents = list(documents)
        analysis = analyse(self.analyzer, question, documents, query)
        if analysis is None or not analysis.structured:
            return unmentioned_caveat(self.writer.write(question, documents), analysis, documents)
        passing, failing = split_by_filter(documents, analysis)
        excluded = [title_of(documents[i]) for i in failing if title_of(documents[i])]
        allowed = [title_of(documents[i]) for i in passing if title_of(documents[i])]
        if getattr(self.writer, "reads_instructions", False):
            shown = passing if analysis.comparison is None else list(range(len(documents)))
            asked = f"{question}\n\n{constraints([documents[i] for i in shown], analysis, excluded)}"
        else:
            decided = structured_answer(documents, analysis)
            if decided is not None:
                return with_caveat(decided, analysis)
            if analysis.subject is not None:
                passing = [i for i in passing if str(documents[i].metadata.get("id")) == analysis.subject] or passing
            shown, asked = passing, question
        if not shown:
            return Answer(f"None of the documents matches ({analysis.describe()}).", (), answered=False)
        answer = self.writer.write(asked, [documents[i] for i in shown])
        if not answer.answered:
            return answer
        text = drop_excluded(renumber(answer.text, [i + 1 for i in shown]), excluded, allowed)
        if not text.strip():
            return Answer(NOT_ENOUGH_INFORMATION, (), answered=False)
        cited = tuple(sorted({n for n in cited_numbers(text) if 1 <= n <= len(documents)}))
        return with_caveat(Answer(text, cited, answer.answered, answer.fallback), analysis)


def renumber(text: str, numbers: Sequence[int]) -> str:
    """Citation markers ``[k]`` (1-based into a subset) turned into the subset's own numbers.

    >>> renumber("Tart [1]. Cake [2].", [3, 5])
    'Tart [3]. Cake [5].'
    """
    return re.sub(r"\[(\d+)\]", lambda m: f"[{numbers[int(m.group(1)) - 1]}]" if 0 < int(m.group(1)) <= len(numbers)
                  else m.group(0), text)


__all__ = ["StructuredWriter", "analyse", "comparison_answer", "versus_answer", "constraints", "renumber", "with_caveat", "drop_excluded", "field_words", "evidence", "name_forms", "names_any", "quote", "split_by_filter",
           "structured_answer", "title_of"]
