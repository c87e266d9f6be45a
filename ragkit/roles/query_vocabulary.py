"""The data's own vocabulary for query analysis: fields, values, numeric fields and item names, read from metadata.

:class:`Vocabulary` is read from documents' metadata (nothing is typed in): every text field and list
field with its values, every numeric field (whether it can be empty; whether its values look like years;
whether its name says it is a price), and every item's name (``metadata["title"]`` when it is unique).
``id``, ``source``, ``title`` and ``score`` are not fields, and a field with one value everywhere is none.
The patterns that read a question with it are in :mod:`ragkit.roles.query_patterns`.

Simplifications: values are matched by their words' Porter stems, so "desserts" finds "dessert" and
"nuts" the word of "tree nuts"; a value in another language or spelling ("aubergine" vs "eggplant") is
not found; an adjective is matched to a capitalised value by MiniLM similarity only.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.nlp import QUESTION_STOPWORDS, fold, stem
from ragkit.defaults import QUERY_ANALYSIS

NOT_FIELDS = frozenset({"id", "source", "title", "score"})
_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[a-z]+(?:'[a-z]+)?|[,.;:?!]")


@dataclasses.dataclass(frozen=True)
class Tok:
    text: str
    stem: str
    number: float | None = None

    @property
    def punct(self) -> bool:
        return self.text in ",.;:?!"


def normalise(text: str) -> str:
    """Folded text with contractions opened and hyphens as spaces.

    >>> normalise("Which desserts don't contain nuts? Nut-free, I can't eat them.")
    'which desserts do not contain nuts? nut free, i can not eat them.'
    """
    text = fold(text).replace("’", "'").replace("‘", "'")
    text = re.sub(r"\bcan't\b|\bcannot\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"n't\b", " not", text)
    text = re.sub(r"(\d)\s*[-–]\s*(\d)", r"\1 to \2", text)
    text = re.sub(r"[-–_/]", " ", text)
    return re.sub(r"[ \t]+", " ", text).strip()


def tokens(text: str) -> list[Tok]:
    """The question's tokens: folded words with their Porter stems, numbers with their value, punctuation.

    >>> [(t.text, t.stem) for t in tokens("Desserts under 8.50 euros?")]
    [('desserts', 'dessert'), ('under', 'under'), ('8.50', '8.50'), ('euros', 'euro'), ('?', '?')]
    """
    out = []
    for match in _TOKEN.finditer(normalise(text)):
        word = match.group(0)
        if word[0].isdigit():
            out.append(Tok(word, word, float(word.replace(",", "."))))
        else:
            out.append(Tok(word, stem(word.replace("'s", "").replace("'", ""))))
    return out


def value_stems(value: str) -> tuple[str, ...]:
    return tuple(t.stem for t in tokens(value) if not t.punct)


class Vocabulary:
    """Fields, values, numeric fields and item names, read from documents' metadata.

    >>> v = Vocabulary.from_documents([Document("a", metadata={"id": "1", "title": "Tart", "course": "dessert",
    ...                                "allergens": ["eggs"], "price": 8.0}),
    ...                                Document("b", metadata={"id": "2", "title": "Soup", "course": "starter",
    ...                                "allergens": ["fish"], "price": 9.5})])
    >>> sorted(v.values), v.list_fields, v.numeric, v.names
    (['allergens', 'course'], frozenset({'allergens'}), {'price': (8.0, 9.5)}, {'1': 'Tart', '2': 'Soup'})
    """

    def __init__(self, values: dict[str, list[str]], list_fields: frozenset[str], numeric: dict[str, tuple[float, float]],
                 nullable: frozenset[str], years: frozenset[str], names: dict[str, str], corpus_words: frozenset[str],
                 embedder: Embeddings | None | bool = None, generic_words: frozenset[str] = frozenset()):
        self.values, self.list_fields, self.numeric = values, list_fields, numeric
        self.generic_words = generic_words  # stems in at least half the documents ("wine" on a wine list)
        self.nullable, self.years, self.names, self.corpus_words = nullable, years, names, corpus_words
        self._embedder = embedder
        self._stems = {f: [(v, value_stems(v)) for v in vs] for f, vs in values.items()}
        self._title_stems = {i: content_stems(n) for i, n in names.items()}

    @classmethod
    def from_documents(cls, documents: Sequence[Document], embedder: Embeddings | None | bool = None) -> "Vocabulary":
        texts: dict[str, dict[str, None]] = {}
        lists: set[str] = set()
        nums: dict[str, list[float]] = {}
        nulls: set[str] = set()
        bad: set[str] = set()
        titles: dict[str, list[str]] = {}
        words: set[str] = set()
        df: dict[str, int] = {}
        for doc in documents:
            doc_words = {t.stem for t in tokens(doc.page_content) if not t.punct}
            words.update(doc_words)
            for w in doc_words:
                df[w] = df.get(w, 0) + 1
            meta = doc.metadata or {}
            if isinstance(meta.get("title"), str) and meta.get("id") is not None:
                titles.setdefault(fold(meta["title"]).strip(), []).append(str(meta["id"]))
            for key, value in meta.items():
                if key in NOT_FIELDS or key in bad:
                    continue
                if value is None:
                    nulls.add(key)
                elif isinstance(value, bool):
                    bad.add(key)
                elif isinstance(value, (int, float)):
                    nums.setdefault(key, []).append(float(value))
                elif isinstance(value, str):
                    texts.setdefault(key, {})[value] = None
                elif isinstance(value, list) and all(isinstance(x, str) for x in value):
                    lists.add(key)
                    texts.setdefault(key, {}).update(dict.fromkeys(value))
                else:
                    bad.add(key)
        mixed = (set(texts) & set(nums)) | bad
        values = {k: list(v) for k, v in texts.items() if k not in mixed and len(v) > 1 and k not in nums}
        values = {k: [x for x in v if len(fold(x).strip()) > 1] for k, v in values.items()}
        numeric = {k: (min(v), max(v)) for k, v in nums.items() if k not in mixed and len(set(v)) > 1}
        years = frozenset(k for k, v in nums.items() if k in numeric and all(x.is_integer() and 1800 <= x <= 2100 for x in v))
        by_id = {}
        for doc in documents:
            meta = doc.metadata or {}
            title = meta.get("title")
            if isinstance(title, str) and len(titles.get(fold(title).strip(), [])) == 1:
                by_id[str(meta["id"])] = title
        generic = frozenset(w for w, n in df.items() if len(documents) >= 4 and n >= len(documents) / 2)
        return cls(values, frozenset(lists & set(values)), numeric, frozenset(nulls & set(numeric)), years, by_id,
                   frozenset(words), embedder, generic)

    def restricted(self, documents: Sequence[Document]) -> "Vocabulary":
        """The same values, limited to the fields and the items these documents have."""
        keys = {k for d in documents for k in (d.metadata or {})}
        ids = {str((d.metadata or {}).get("id")) for d in documents}
        return Vocabulary({k: v for k, v in self.values.items() if k in keys}, self.list_fields & keys,
                          {k: v for k, v in self.numeric.items() if k in keys}, self.nullable & keys, self.years & keys,
                          {i: n for i, n in self.names.items() if i in ids}, self.corpus_words, self._embedder,
                          self.generic_words)

    # ------------------------------------------------------------ helpers for the patterns
    @property
    def embedder(self) -> Embeddings | None:
        if self._embedder is False:
            return None
        if self._embedder is None:
            from ragkit.core.embeddings import load_embedder

            self._embedder = load_embedder()
        return self._embedder  # type: ignore[return-value]

    @property
    def price_fields(self) -> list[str]:
        return [f for f in self.numeric if "price" in f.lower() or "cost" in f.lower()]

    def field_parts(self, field: str) -> set[str]:
        """The stems of a field's name, less the word that says what kind of field it is: price_glass -> {glass}."""
        return {stem(p) for p in re.split(r"[_\W]+", field.lower()) if p and p not in ("price", "cost")}

    def money_field(self, stems: set[str]) -> str | None:
        fields = self.price_fields
        named = [f for f in fields if self.field_parts(f) & stems]
        if named:
            return named[0]
        if "price" in fields:
            return "price"
        never_empty = [f for f in fields if f not in self.nullable]
        return (never_empty or fields or [None])[0]

    def year_field(self) -> str | None:
        return next(iter(sorted(self.years)), None)

    def field_for(self, family: str, stems: set[str]) -> str | None:
        return self.money_field(stems) if family == "money" else self.year_field()

    def cardinality(self, field: str) -> int:
        return len(self.values.get(field, ()))

    @cached_property
    def _value_vectors(self) -> tuple[list[tuple[str, str]], np.ndarray] | None:
        embedder = self.embedder
        pairs = [(f, v) for f, vs in self.values.items() for v in vs if v[:1].isupper()]
        if embedder is None or not pairs:
            return None
        from ragkit.core.embeddings import embed

        return pairs, embed(embedder, [v for _, v in pairs])

    def nearest_proper_value(self, word: str) -> tuple[str, str, float] | None:
        """The capitalised value an adjective names ("italian" -> country Italy): within each field the closest
        value must clear ``adjective_bar`` and beat that field's next value by ``adjective_margin``; of the
        fields where one does, the closest wins."""
        table = self._value_vectors
        if table is None:
            return None
        from ragkit.core.embeddings import embed

        pairs, vectors = table
        sims = vectors @ embed(self.embedder, [word.capitalize()])[0]  # type: ignore[arg-type]
        best: tuple[float, str, str] | None = None
        for field in {f for f, _ in pairs}:
            idx = sorted((i for i, (f, _) in enumerate(pairs) if f == field), key=lambda i: -sims[i])
            top = float(sims[idx[0]])
            second = float(sims[idx[1]]) if len(idx) > 1 else 0.0
            if top >= QUERY_ANALYSIS.adjective_bar and top - second >= QUERY_ANALYSIS.adjective_margin:
                if best is None or top > best[0]:
                    best = (top, field, pairs[idx[0]][1])
        return (best[1], best[2], best[0]) if best else None

    def matches_at(self, toks: list[Tok], i: int, free: set[int]) -> list[tuple[str, str, int]]:
        """Exact value phrases starting at token ``i``: ``(field, value, length)``, longest first."""
        found = []
        for field, entries in self._stems.items():
            for value, stems in entries:
                n = len(stems)
                if n and all(i + j in free for j in range(n)) and tuple(t.stem for t in toks[i:i + n]) == stems:
                    found.append((field, value, n))
        return sorted(found, key=lambda x: (-x[2], self.cardinality(x[0]), x[0]))

    def partial(self, word: Tok, fields: Sequence[str] | None = None) -> tuple[str, list[str]] | None:
        """Values that contain the word (or end with it: "nuts" in "peanuts"), in the best field."""
        best: tuple[int, int, str, list[str]] | None = None
        for field, entries in self._stems.items():
            if fields is not None and field not in fields:
                continue
            hits, quality = [], 0
            for value, stems in entries:
                if word.stem in stems:
                    hits.append(value)
                    quality = max(quality, 2)
                elif len(word.text) >= 4 and any(w.endswith(word.text) or w.endswith(word.stem) for w in normalise(value).split()):
                    hits.append(value)
                    quality = max(quality, 1)
            if hits:
                key = (-quality, self.cardinality(field), field, hits)
                if best is None or key[:3] < best[:3]:
                    best = key
        return (best[2], best[3]) if best else None

    def name_matches(self, toks: list[Tok], free: set[int]) -> list[tuple[str, int, list[int]]]:
        """Items named in the question: ``(id, strength, token positions)``, strongest first.

        Strength 3: the whole title; 2: two or more of its words that only it has; 1: one word only it has."""
        stems = {i: t.stem for i, t in enumerate(toks) if i in free and not t.punct}
        found = []
        for item, title in self._title_stems.items():
            present = [i for i, s in stems.items() if s in title]
            words = {stems[i] for i in present}
            if not words:
                continue
            if any(words <= other for j, other in self._title_stems.items() if j != item):
                continue
            strength = 3 if words == set(title) else (2 if len(words) >= 2 else 1)
            found.append((item, strength, present))
        return sorted(found, key=lambda x: (-x[1], min(x[2])))

    def is_value_word(self, stem_: str) -> bool:
        return any(stem_ in stems for entries in self._stems.values() for _, stems in entries)

    # ------------------------------------------------------------ for the LLM analyser
    def canonical(self, field: str, value: Any) -> str | None:
        if not isinstance(value, str):
            return None
        return next((v for v in self.values.get(field, ()) if fold(v).strip() == fold(value).strip()), None)

    def check_condition(self, attribute: str, op: str, value: Any) -> tuple[str, str, Any] | str:
        """A condition proposed by a model, in the data's own spelling, or a note saying why it was dropped."""
        if attribute not in self.values and attribute not in self.numeric:
            return f"dropped condition on unknown field {attribute!r}"
        if op in ("lt", "lte", "gt", "gte"):
            if attribute not in self.numeric or isinstance(value, bool) or not isinstance(value, (int, float)):
                return f"dropped {attribute} {op} {value!r}: needs a numeric field and a number"
            return (attribute, op, float(value))
        if op in ("is_null", "not_null"):
            if attribute not in self.numeric:
                return f"dropped {attribute} {op}: only a numeric field can be empty"
            return (attribute, op, None)
        if attribute not in self.values:
            return f"dropped {attribute} {op} {value!r}: {attribute} is numeric"
        canon = self.canonical(attribute, value)
        if canon is None:
            return f"dropped {attribute} {op} {value!r}: not a value of {attribute}"
        if attribute in self.list_fields and op in ("eq", "ne"):
            op = "contain" if op == "eq" else "not_contain"
        if attribute not in self.list_fields and op in ("contain", "not_contain"):
            op = "eq" if op == "contain" else "ne"
        return (attribute, op, canon)

    def resolve_name(self, name: str | None) -> str | None:
        """The id of the item a name denotes (its title, or words only its title has), or None."""
        if not name:
            return None
        exact = [i for i, n in self.names.items() if fold(n).strip() == fold(name).strip()]
        if len(exact) == 1:
            return exact[0]
        toks = tokens(name)
        found = self.name_matches(toks, set(range(len(toks))))
        return found[0][0] if found and (len(found) == 1 or found[0][1] > found[1][1]) else None

    def prompt_text(self, max_values: int = 60) -> str:
        lines = []
        for field, values in self.values.items():
            kind = "list field (use contain / not_contain)" if field in self.list_fields else "one value per item (eq / ne)"
            shown = ", ".join(values[:max_values]) + (" ..." if len(values) > max_values else "")
            lines.append(f"- {field}: {kind}; values: {shown}")
        for field, (low, high) in self.numeric.items():
            empty = ", may be empty" if field in self.nullable else ""
            lines.append(f"- {field}: number from {low:g} to {high:g}{empty}")
        lines.append("- items: " + "; ".join(self.names.values()))
        return "\n".join(lines)


def content_stems(text: str) -> set[str]:
    return {t.stem for t in tokens(text) if not t.punct and t.text not in QUESTION_STOPWORDS and len(t.text) > 1}


__all__ = ["NOT_FIELDS", "Tok", "Vocabulary", "content_stems", "normalise", "tokens", "value_stems"]
