"""The local query analyser: English patterns + the data's own vocabulary + a domain's words -> a structured query.

:class:`LocalQueryAnalyzer` reads a question as a :class:`ragkit.roles.structured_query.QueryAnalysis`
(a filter, a sort, a comparison) from three kinds of knowledge, kept apart:

- **the data's vocabulary** (:class:`Vocabulary`), read from the documents' metadata when it is first
  needed: every text or list field's values (courses, allergens, styles, countries, grapes ...), the
  numeric fields (prices, vintages) and the items' names. No value is typed into the code;
- **English grammar** (this module and :mod:`ragkit.core.nlp`): negation cues ("no", "not", "without",
  "-free"), comparatives ("than", "cheaper"), superlatives ("cheapest", "oldest"), bounds ("under",
  "at most", "between");
- **a domain's words** (:class:`QueryWords`, passed in, empty by default): what one domain's questions say
  that grammar does not ("dish" and "menu" name no condition on a menu, "allergic to" excludes, "euros" is
  money). The menu's are :data:`ragkit.domains.menu.vocabulary.MENU_WORDS`.

:func:`parse_question` reads a question in steps, each consuming the words it used:

1. **names**: a run of a title's words that only that title has ("lamb shoulder", "Calvera Rosso");
2. **comparison**: two names and a comparative: "Is A more expensive than B?" compares A and B on a price;
   a superlative, then a comparative and one name after it ("What's the cheapest red, and is it cheaper
   than the Barolo?") compares the superlative's winner with that item (``versus``), never "about" it;
3. **superlative**: "cheapest", "most expensive", "oldest" ... -> a sort on a price or year field;
4. **numeric bounds**: "under 11 euros", "8 or less", "between 30 and 50", "over 60 a bottle";
5. **which price**: a word of a field's name picks it ("by the glass" -> ``price_glass``), else a field
   called ``price``, else the price field that is never empty; a nullable field named without a bound is a
   condition of its own ("can be ordered by the glass": it has a value);
6. **values**: a run of words that is a value ("gluten-free", "tree nuts"), else a word OF values ("nuts" ->
   "tree nuts" and "peanuts"), in the field with the fewest values; a field-name word in the clause
   ("allergic" ~ ``allergens``) picks the field; an adjective that names a value ("Italian" -> Italy) is
   matched by embedding similarity when one value is clearly the closest;
7. **negation**: a value inside the scope of a cue (up to the end of its clause), or just before a suffix
   ("nut-free"), is excluded; a value that itself reads "X-free" turns around ("no dairy" keeps the items
   tagged "dairy-free");
8. **unresolved**: an excluded word, or one in a clause where the user describes themselves ("I'm
   coeliac"), that is no value and occurs nowhere in the documents is reported, so the answer can say it
   could not check it;
9. **unused**: a comparison "X-er than ..." that no step applied ("Which reds are cheaper than the
   Barolo?": a bound relative to an item is not read), a superlative over a field the data lacks, and the
   words a superlative's winner does not explain ("the cheapest spicy dish") are reported in ``unused``;
   the analysis then does not cover the question, and the writer says first what it did not use.

>>> docs = [Document("Lemon tart", metadata={"id": "d1", "title": "Lemon tart", "course": "dessert", "price": 8.0,
...                                          "allergens": ["gluten", "eggs"]}),
...         Document("Almond cake", metadata={"id": "d2", "title": "Almond cake", "course": "dessert", "price": 7.5,
...                                           "allergens": ["tree nuts", "eggs"]}),
...         Document("Chips", metadata={"id": "m1", "title": "Chips", "course": "side", "price": 4.0, "allergens": []})]
>>> LocalQueryAnalyzer(docs, embedder=False).analyze("Which desserts have no nuts?").describe()
'course is dessert and allergens do not include tree nuts'
>>> LocalQueryAnalyzer(docs, embedder=False).analyze("What is the cheapest dessert?").sort
Sort(attribute='price', descending=False)

What it cannot do: knowledge outside the data ("coeliac" means gluten-free, "shellfish" means crustaceans
and molluscs: such a word is listed in ``unresolved``, never guessed; mapping it by embedding similarity
was tried and rejected, ``benchmarks/query_analysis/README.md``); arithmetic; nested conditions beyond
"A or B" of one field; a negation whose scope runs past a comma; relations between items ("the red that
goes with the lamb": the words are left to similarity, listed in ``ignored``); values in another spelling
("aubergine" vs "eggplant"); questions that are not English. Everything it did is in ``notes``.
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

from ragkit.core.nlp import (
    CLAUSE_NEGATION_CUES,
    LIST_NEGATION_CUES,
    NEGATION_SUFFIXES,
    NUMBER_VALUES,
    POLAR_OPENERS,
    QUESTION_STOPWORDS,
    QUESTION_WORDS,
    clean_query,
    fold,
    stem,
)
from ragkit.defaults import QUERY_ANALYSIS
from ragkit.roles.query_parse import Parse, analysis_from_parse
from ragkit.roles.structured_query import QueryAnalysis

# ---------------------------------------------------------------- tokens
PUNCTUATION = frozenset(",.;:?!")  # a token of its own; it ends a clause, and a negation's scope with it


@dataclasses.dataclass(frozen=True)
class Tok:
    text: str
    stem: str
    number: float | None = None

    @property
    def punct(self) -> bool:
        return self.text in PUNCTUATION


_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[a-z]+(?:'[a-z]+)?|[,.;:?!]")


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


def content_stems(text: str) -> set[str]:
    return {t.stem for t in tokens(text) if not t.punct and t.text not in QUESTION_STOPWORDS and len(t.text) > 1}


# ---------------------------------------------------------------- the data's vocabulary
NOT_FIELDS = frozenset({"id", "source", "title", "score"})


class Vocabulary:
    """Fields, values, numeric fields and item names, read from documents' metadata (nothing is typed in).

    Every text field and list field with its values, every numeric field (whether it can be empty, whether
    its values look like years, whether its name says it is a price), and every item's name
    (``metadata["title"]`` when it is unique). ``id``, ``source``, ``title`` and ``score`` are not fields, and
    a field with one value everywhere is none. Values are matched by their words' Porter stems, so
    "desserts" finds "dessert" and "nuts" the word of "tree nuts".

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

    # ------------------------------------------------------------ for the patterns
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

    # ------------------------------------------------------------ for checking what a chat model proposes
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


# ---------------------------------------------------------------- English: the words the patterns know
WH_WORDS = frozenset(QUESTION_WORDS)  # which, what, who, whom, whose, where, when, how, why
CLAUSE_WORDS = frozenset({"which", "that", "who", "what", "but", "so", "where", "when", "while", "because"})  # end a scope
FILLER = frozenset(  # function words and catalogue words that name no condition
    "contain contains containing have has having include includes including made make with from any the a an be been "
    "is are come comes of in them it use used using get for me my us our item items anything something on list there "
    "can could am i by per whole i'm we're both either also here do every each".split())
MONEY_WORDS = frozenset("cheap cheaper cheapest expensive pricey pricier priciest cost costs costing price prices "
                        "priced dear dearer dearest costly costlier costliest".split())
YEAR_WORDS = frozenset("old older oldest young younger youngest new newer newest recent latest year years".split())
SUPERLATIVES = (  # (pattern, family, descending)
    (r"\b(cheapest|least expensive|lowest[ ]priced|least costly|costs? the least|lowest price)\b", "money", False),
    (r"\b(most expensive|priciest|dearest|costliest|most costly|costs? the most|highest[ ]priced|highest price)\b",
     "money", True),
    (r"\b(oldest)\b", "year", False),
    (r"\b(youngest|newest|most recent|latest)\b", "year", True),
)
COMPARATIVES = (  # (pattern, family, want)
    (r"\b(cheaper|less expensive|less costly|costs? less|lower[ ]priced|less)\b", "money", "lower"),
    (r"\b(more expensive|dearer|pricier|costlier|more costly|costs? more|higher[ ]priced|more)\b", "money", "higher"),
    (r"\b(older)\b", "year", "lower"),
    (r"\b(younger|newer|more recent)\b", "year", "higher"),
)
BOUNDS_BEFORE = (  # phrase right before a number -> comparator
    ("less than", "lt"), ("cheaper than", "lt"), ("lower than", "lt"), ("under", "lt"), ("below", "lt"),
    ("beneath", "lt"), ("at most", "lte"), ("up to", "lte"), ("no more than", "lte"), ("not more than", "lte"),
    ("maximum", "lte"), ("max", "lte"), ("more than", "gt"), ("greater than", "gt"), ("dearer than", "gt"),
    ("more expensive than", "gt"), ("pricier than", "gt"), ("higher than", "gt"), ("over", "gt"), ("above", "gt"),
    ("at least", "gte"), ("minimum", "gte"), ("before", "lt"), ("older than", "lt"), ("after", "gt"),
    ("newer than", "gt"), ("younger than", "gt"), ("since", "gte"),
)
BOUNDS_AFTER = (("or less", "lte"), ("or under", "lte"), ("or cheaper", "lte"), ("or below", "lte"),
                ("or more", "gte"), ("or over", "gte"), ("or above", "gte"), ("or older", "lte"), ("or newer", "gte"))
COUNT = re.compile(rf"\b(\d+|{'|'.join(NUMBER_VALUES)})\s+(cheapest|most|least|oldest|youngest|newest|priciest|"
                   r"dearest|highest|lowest|latest)")  # "the two cheapest"
DEMONYM_ENDINGS = ("an", "ian", "ish", "ese", "ic", "ch", "i")


# ---------------------------------------------------------------- a domain's words
@dataclasses.dataclass(frozen=True)
class QueryWords:
    """What one domain's questions say that English grammar does not; the default reads no domain.

    ``filler``: words that name no condition in this domain ("dish", "menu", "eat"); ``currency``: its
    money words ("euros": a number next to one is a price, not a year); ``exclusion_cues`` /
    ``exclusion_suffixes``: phrases before and words after what they exclude ("allergic to X", "X
    intolerance"); ``constraint_words``: a clause holding one states the user's own constraint ("allergic",
    "sensitive"), so its words are not asked about; ``self_description``: openers of a clause where the user
    says what they are ("I'm coeliac": a word there the data lacks is reported as unchecked);
    ``offer_verbs``: what "What do you ...?" asks of a list ("serve", "sell").
    """

    filler: frozenset[str] = frozenset()
    currency: frozenset[str] = frozenset()
    exclusion_cues: tuple[str, ...] = ()
    exclusion_suffixes: frozenset[str] = frozenset()
    constraint_words: frozenset[str] = frozenset()
    self_description: tuple[str, ...] = ()
    offer_verbs: tuple[str, ...] = ()

    # what the patterns read: English's words and the domain's together
    @cached_property
    def negation_cues(self) -> tuple[str, ...]:
        """Every cue before what it excludes, longest first (so "allergic to" wins over "allergic")."""
        cues = (*self.exclusion_cues, *LIST_NEGATION_CUES, *CLAUSE_NEGATION_CUES)
        return tuple(sorted(cues, key=lambda c: -len(c.split())))

    @cached_property
    def list_cues(self) -> frozenset[str]:
        """The cues whose scope runs on across "and" (every one but "not", "never", "none", "nothing")."""
        return frozenset(self.exclusion_cues) | frozenset(LIST_NEGATION_CUES)

    @cached_property
    def suffixes(self) -> frozenset[str]:
        return NEGATION_SUFFIXES | self.exclusion_suffixes

    @cached_property
    def cue_words(self) -> frozenset[str]:
        return frozenset(w for cue in self.negation_cues for w in cue.split())

    @cached_property
    def fillers(self) -> frozenset[str]:
        return FILLER | self.filler

    @cached_property
    def money(self) -> frozenset[str]:
        return MONEY_WORDS | self.currency

    @cached_property
    def set_question(self) -> re.Pattern[str]:
        """"Which ...", "Show me ...", "What ... do you have": a question that asks for a list."""
        verbs = "|".join(("have", *self.offer_verbs, "do"))
        return re.compile(rf"\bwhich\b|^(show|list|name|give|tell)\b|\bwhat\b.*\b(you|they) ({verbs})\b")


NO_WORDS = QueryWords()


# ---------------------------------------------------------------- reading a question
def _phrase_at(toks: list[Tok], i: int, phrase: str) -> bool:
    words = phrase.split()
    return i + len(words) <= len(toks) and all(toks[i + j].text == w for j, w in enumerate(words))


def _find(text: str, patterns: Sequence[tuple[str, str, Any]]) -> tuple[re.Match, str, Any] | None:
    hits = [(m, fam, x) for p, fam, x in patterns for m in [re.search(p, text)] if m]
    return min(hits, key=lambda h: h[0].start()) if hits else None


def _token_span(toks: list[Tok], match: re.Match, text: str) -> set[int]:
    """Token positions covered by a regex match on ``" ".join(token texts)``."""
    out, pos = set(), 0
    for i, t in enumerate(toks):
        start = text.index(t.text, pos)
        pos = start + len(t.text)
        if start < match.end() and pos > match.start():
            out.add(i)
    return out


def clauses(toks: list[Tok]) -> list[list[int]]:
    """Token positions grouped by clause, cut at punctuation: the reach of a negation or a self-description.

    Not :func:`ragkit.core.nlp.split_clauses`, which cuts a request's text into the steps it asks for (also
    before "and", "then", "after"): "without nuts and dairy" is one scope here, two steps there.

    >>> clauses(tokens("Coeliac here, which sides?"))
    [[0, 1], [3, 4]]
    """
    out: list[list[int]] = [[]]
    for i, t in enumerate(toks):
        if t.punct:
            out.append([])
        else:
            out[-1].append(i)
    return [c for c in out if c]


def is_polar(toks: list[Tok]) -> bool:
    """A yes/no question: its first clause opener is an auxiliary ("Is", "Do", "Can"), not a wh-word.

    Unlike :func:`ragkit.bandit.contextual.question_form`, every clause counts: "Coeliac here, is the tart
    safe?" is polar.
    """
    start = True
    for t in toks:
        if t.punct:
            start = True
            continue
        if t.text in WH_WORDS:
            return False
        if start and t.text in POLAR_OPENERS:
            return True
        start = False
    return False


def describes_self(clause_text: str, words: QueryWords) -> bool:
    """A clause where the user says what they are: "I'm coeliac", "coeliac here"."""
    return clause_text.startswith(words.self_description) or clause_text.endswith(" here") or clause_text == "here"


def parse_question(question: str, v: Vocabulary, words: QueryWords = NO_WORDS) -> Parse:
    """Read a question with the data's vocabulary and a domain's words (see the module docstring for the steps)."""
    toks = tokens(question)
    text = " ".join(t.text for t in toks)
    stems = {t.stem for t in toks}
    free = set(range(len(toks)))
    p = Parse(polar=is_polar(toks))
    capitalised = {fold(w) for w in re.findall(r"\w+", question)[1:] if w[:1].isupper() and w[1:].islower()}
    p.set_intent = bool(words.set_question.search(text))

    # 1-2. names and comparison
    names = v.name_matches(toks, free)
    comparative = _find(text, COMPARATIVES)
    if comparative and len(names) >= 2 and ("than" in stems or " or " in f" {text} "):
        (a, _, pa), (b, _, pb) = sorted(names[:2], key=lambda x: min(x[2]))
        family, want = comparative[1], comparative[2]
        field = v.field_for(family, stems)
        if field:
            p.comparison = ((a, b), field, want, p.polar)
            free -= set(pa) | set(pb) | _token_span(toks, comparative[0], text)
            p.notes.append(f"compare {v.names[a]!r} and {v.names[b]!r} on {field} ({want} wins)")
    sup = _find(text, SUPERLATIVES)
    if (p.comparison is None and comparative and sup and "than" in stems and len(names) == 1
            and sup[0].start() < comparative[0].start()
            and min(names[0][2]) > max(_token_span(toks, comparative[0], text), default=len(toks))):
        # "What's the cheapest red, and is it cheaper than the Barolo?": the winner, compared with the named item
        item, _, pos = names[0]
        field = v.field_for(comparative[1], stems)
        if field:
            p.versus = (item, field, comparative[2])
            free -= set(pos) | _token_span(toks, comparative[0], text)
            p.notes.append(f"compare the winner with {v.names[item]!r} on {field} ({comparative[2]} wins)")
            names = []
    if p.comparison is None and not p.set_intent and names:
        item, strength, pos = names[0]
        referred = min(pos) > 0 and toks[min(pos) - 1].text in ("the", "your", "our")  # "the burrata": an item
        word_is_value = strength == 1 and v.is_value_word(toks[pos[0]].stem)
        if (strength >= 2 or not word_is_value or referred) and (len(names) == 1 or names[1][1] < strength):
            p.subject = item
            free -= set(pos)
            p.notes.append(f"about {v.names[item]!r}")

    # 3. superlative
    if p.comparison is None:
        generic = re.search(r"\b(highest|lowest|most|least|largest|smallest|biggest)\s+(\w+)", text)
        if sup:
            field = v.field_for(sup[1], stems)
            if field:
                p.sort = (field, sup[2])
                free -= _token_span(toks, sup[0], text)
            else:
                p.unapplied.append(sup[0].group(0))  # "cheapest" over data with no price
        elif generic:
            hit = next((f for f in v.numeric if stem(generic.group(2)) in v.field_parts(f) | {stem(f)}), None)
            if hit:
                p.sort = (hit, generic.group(1) in ("highest", "most", "largest", "biggest"))
                free -= _token_span(toks, generic, text)
        if p.sort:
            count = COUNT.search(text)
            if count:
                p.limit = int(count.group(1)) if count.group(1).isdigit() else NUMBER_VALUES[count.group(1)]
            p.notes.append(f"sort by {p.sort[0]} {'descending' if p.sort[1] else 'ascending'}, keep {p.limit}")

    # 4-5. numeric bounds, and which price field
    used_fields = {p.sort[0]} if p.sort else set()
    if p.comparison:
        used_fields.add(p.comparison[1])
    money_asked = bool(stems & words.money)  # "2020 euros" is a price, not a year
    for i, t in enumerate(toks):
        if t.number is None or i not in free:
            continue
        op = None
        for phrase, comparator in BOUNDS_BEFORE:
            n = len(phrase.split())
            for skip in (0, 1):  # "for under 9", "under € 9"
                j = i - n - skip
                if j >= 0 and _phrase_at(toks, j, phrase):
                    op, span = comparator, set(range(j, i))
                    break
            if op:
                break
        for phrase, comparator in BOUNDS_AFTER:
            for skip in (0, 1):  # "8 euros or less"
                if _phrase_at(toks, i + 1 + skip, phrase):
                    op, span = comparator, set(range(i + 1, i + 1 + skip + len(phrase.split())))
        if i >= 1 and toks[i - 1].text in ("between", "from"):
            k = next((k for k in (i + 2, i + 3) if k < len(toks) and toks[k].number is not None
                      and toks[k - 1].text in ("and", "to")), None)
            if k is not None:
                year_like = t.number.is_integer() and 1800 <= t.number <= 2100 and bool(v.year_field()) and not money_asked
                field = v.year_field() if year_like else v.money_field(stems)
                if field:
                    p.conditions += [(field, "gte", t.number), (field, "lte", toks[k].number)]
                    used_fields.add(field)
                    free -= set(range(i - 1, k + 1))
                    p.notes.append(f"{field} between {t.number:g} and {toks[k].number:g}")
                continue
        if op is None:
            continue
        year_like = t.number.is_integer() and 1800 <= t.number <= 2100 and bool(v.year_field()) and not money_asked
        field = v.year_field() if year_like else v.money_field(stems)
        if field is None:
            continue
        p.conditions.append((field, op, t.number))
        used_fields.add(field)
        free -= span | {i}
        p.notes.append(f"{field} {op} {t.number:g}")

    # 6-7. values, negation scopes
    negated_at = negation_positions(toks, words)
    # a suffix that ends a value of the data ("gluten free" is a dietary tag) is part of that value, not a
    # negation ("Is the dessert gluten-free?" asks about desserts); and the word two before it is only in its scope when
    # the two words make one value ("tree nut allergy"), not when it is a value of its own ("desserts nut-free")
    everywhere = set(range(len(toks)))
    for k in [k for k, t in enumerate(toks) if t.text in words.suffixes and k > 1]:
        if any(n == j + 1 for j in (1, 2) for _, _, n in v.matches_at(toks, k - j, everywhere)):
            negated_at = {pos: trig for pos, trig in negated_at.items() if not (trig == k and pos < k - 1)}
        elif any(n == 1 for _, _, n in v.matches_at(toks, k - 2, everywhere)):
            negated_at = {pos: trig for pos, trig in negated_at.items() if not (trig == k and pos == k - 2)}
    for field in v.nullable:
        parts = v.field_parts(field)
        hit = [i for i in free if toks[i].stem in parts]
        if hit and field not in used_fields:
            negative = any(i in negated_at for i in hit)
            p.conditions.append((field, "is_null" if negative else "not_null", None))
            p.notes.append(f"{field} {'is empty' if negative else 'has a value'}")
            free -= set(hit)
    for field in v.numeric:
        free -= {i for i in free if toks[i].stem in v.field_parts(field)}
    affinity = field_affinity(toks, v)
    spans: list[tuple[int, int, int]] = []  # (condition index, first token, last token) of value conditions
    i = 0
    while i < len(toks):
        if i not in free or toks[i].punct:
            i += 1
            continue
        exact = v.matches_at(toks, i, free)
        scope_fields = affinity.get(i)
        if scope_fields:
            exact = [m for m in exact if m[0] in scope_fields] or exact
        if exact:
            field, value, n = exact[0]
            negative = any(j in negated_at and not i <= negated_at[j] < i + n for j in range(i, i + n))
            spans.append((len(p.conditions), i, i + n - 1))
            add_condition(p, v, field, value, negative, " ".join(t.text for t in toks[i:i + n]))
            free -= set(range(i, i + n))
            i += n
            continue
        t = toks[i]
        negative = i in negated_at
        if (t.text in QUESTION_STOPWORDS or t.text in words.fillers or t.text in words.suffixes or t.number is not None
                or len(t.text) < 3):
            i += 1
            continue
        part = v.partial(t, scope_fields)
        if part is not None:
            field, values = part
            spans.append((len(p.conditions), i, i))
            add_condition(p, v, field, tuple(values) if len(values) > 1 else values[0], negative, t.text)
            free.discard(i)
        elif proper_adjective(t.text, capitalised) and (found := v.nearest_proper_value(t.text)) is not None:
            field, value, sim = found
            spans.append((len(p.conditions), i, i))
            add_condition(p, v, field, value, negative, t.text)
            p.notes.append(f"read {t.text!r} as {field} {value} (similarity {sim:.2f})")
            free.discard(i)
        elif negative:  # excluded, but no value of the data: the answer must say it could not check it
            p.unresolved.append(t.text)
            p.negated.append(t.text)
        i += 1

    merge_alternatives(p, toks, spans)
    if p.versus and p.sort is None:  # no superlative after all: the comparison has no winner to start from
        p.unapplied.append(f"{comparative[0].group(0)} than {v.names[p.versus[0]]}")  # type: ignore[index]
        p.versus = None
    p.unapplied += unapplied_comparisons(toks, text, free)

    # what the structure does not explain: a yes/no or a list is only answered when nothing is left over
    constraint = set()
    for clause in clauses(toks):
        if describes_self(" ".join(toks[j].text for j in clause), words) or any(
                toks[j].text in words.suffixes or toks[j].text in words.constraint_words for j in clause):
            constraint.update(clause)
    p.leftovers = [t.text for j, t in enumerate(toks) if j in free and j not in constraint and is_content(t, v, words)
                   and t.text not in p.unresolved]

    # 8. what the user says about themselves ("I'm coeliac", "Coeliac here") that the data does not know
    for clause in clauses(toks):
        if not describes_self(" ".join(toks[j].text for j in clause), words):
            continue
        for j in clause:
            t = toks[j]
            if (j in free and t.number is None and t.text not in QUESTION_STOPWORDS and t.text not in words.fillers
                    and t.text not in words.suffixes and t.text not in words.cue_words and len(t.text) > 3
                    and t.stem not in v.corpus_words
                    and t.text not in p.unresolved and (j == 0 or toks[j - 1].text not in ("my", "our", "a"))):
                p.unresolved.append(t.text)
    if p.unresolved:
        p.notes.append(f"not in the data, so not checked: {', '.join(p.unresolved)}")
    p.search_text = " ".join(t.text for j, t in enumerate(toks) if j not in negated_at and not t.punct) or question
    p.used = [t.text for j, t in enumerate(toks) if j not in free and not t.punct]
    return p


def unapplied_comparisons(toks: list[Tok], text: str, free: set[int]) -> list[str]:
    """A comparison "X-er than ..." that no step used (no bound, no two items, no winner): the words from the
    comparative to the end of its clause, so the answer can say it did not use them.

    >>> toks = tokens("Which reds are cheaper than the Barolo?")
    >>> unapplied_comparisons(toks, " ".join(t.text for t in toks), set(range(len(toks))))
    ['cheaper than the barolo']
    """
    out = []
    for pattern, _, _ in COMPARATIVES:
        for match in re.finditer(pattern, text):
            span = _token_span(toks, match, text)
            if not span or not span <= free:
                continue
            end = max(span) + 1
            while end < len(toks) and not toks[end].punct:
                end += 1
            words = [t.text for t in toks[min(span):end]]
            if "than" in words[len(span):len(span) + 2] and not any(" ".join(words) in o for o in out):
                out.append(" ".join(words))
    return out


def proper_adjective(word: str, capitalised: set[str]) -> bool:
    """A word that may name a place's people or things: capitalised in the question ("Italian"), or with an
    English demonym ending ("italian", "spanish", "french")."""
    return word in capitalised or (len(word) > 4 and word.endswith(DEMONYM_ENDINGS))


def is_content(t: Tok, v: Vocabulary, words: QueryWords = NO_WORDS) -> bool:
    """A word that carries meaning the structure would have to explain (not a function word, not a word
    nearly every document has, like "wine" on a wine list)."""
    base = t.text.split("'")[0]
    return not (t.punct or t.number is not None or len(t.text) < 3 or base in QUESTION_STOPWORDS
                or t.text in QUESTION_STOPWORDS or t.text in words.fillers or t.text in words.suffixes
                or t.text in WH_WORDS or t.text in words.money or t.text in YEAR_WORDS or t.stem in v.generic_words
                or t.text in words.cue_words)


def merge_alternatives(p: Parse, toks: list[Tok], spans: list[tuple[int, int, int]]) -> None:
    """"celery or mustard": two values of one field joined by "or" become one any-of condition."""
    for (a, _, end_a), (b, start_b, _) in reversed(list(zip(spans, spans[1:]))):
        between = [t.text for t in toks[end_a + 1:start_b]]
        fa, oa, va = p.conditions[a]
        fb, ob, vb = p.conditions[b]
        if between in (["or"], [",", "or"]) and fa == fb and oa == ob and oa in ("contain", "not_contain"):
            merged = tuple(dict.fromkeys((va if isinstance(va, tuple) else (va,)) + (vb if isinstance(vb, tuple) else (vb,))))
            p.conditions[a] = (fa, oa, merged)
            del p.conditions[b]


def add_condition(p: Parse, v: Vocabulary, field: str, value: Any, negative: bool, written: str) -> None:
    """Add one value condition; a value reading "X-free" turns an exclusion of X into "has the tag"."""
    values = value if isinstance(value, tuple) else (value,)
    free_tags = [x for x in values if normalise(x).endswith(" free")]
    if free_tags and len(free_tags) == len(values) and not normalise(written).endswith(" free"):
        negative = not negative  # "no dairy" -> tagged "dairy-free"; "contains dairy" -> not tagged "dairy-free"
    listy = field in v.list_fields
    if negative:
        p.negated.append(written)
    op = ("not_contain" if negative else "contain") if listy else ("ne" if negative else "eq")
    p.conditions.append((field, op, value))
    p.notes.append(f"{field} {op} {value if not isinstance(value, tuple) else ' | '.join(value)} (from {written!r})")


def negation_positions(toks: list[Tok], words: QueryWords = NO_WORDS) -> dict[int, int]:
    """Token position -> the position of the negation that covers it: after a cue up to the end of its
    clause, or just before a suffix ("nut free"; with a domain's words also "fish allergy").

    >>> sorted(negation_positions(tokens("Which desserts do not contain nuts?")))
    [4, 5]
    """
    out: dict[int, int] = {}
    n = len(toks)
    i = 0
    while i < n:
        cue = next((c for c in words.negation_cues if _phrase_at(toks, i, c)), None)
        if cue is None:
            i += 1
            continue
        j = i + len(cue.split())
        list_like = cue in words.list_cues
        while j < n and not toks[j].punct and toks[j].text not in CLAUSE_WORDS:
            if (toks[j].text == "and" and not list_like) or toks[j].number is not None:
                break
            out.setdefault(j, i)
            j += 1
        i = j
    for i, t in enumerate(toks):
        if t.text in words.suffixes and i > 0 and not toks[i - 1].punct:
            out.setdefault(i - 1, i)
            if i > 1 and not toks[i - 2].punct and toks[i - 2].text not in words.fillers | QUESTION_STOPWORDS:
                out.setdefault(i - 2, i)  # "tree nut allergy"
    return out


def field_affinity(toks: list[Tok], v: Vocabulary) -> dict[int, list[str]]:
    """Tokens whose clause names a list field ("allergic" ~ allergens): value matching there uses that field."""
    fields = {f: stem(f) for f in v.list_fields}
    out: dict[int, list[str]] = {}
    for clause in clauses(toks):
        named = [f for f, s in fields.items() for i in clause if len(s) >= 5 and toks[i].stem[:5] == s[:5]]
        for i in clause:
            if named:
                out[i] = sorted(set(named))
    return out


# ---------------------------------------------------------------- the analyser
class LocalQueryAnalyzer:
    """Patterns + the documents' own vocabulary + a domain's words (:class:`QueryWords`, default none).

    ``embedder``: used for one thing only, reported in ``notes``: an adjective that names a value
    ("Italian" -> country Italy), only when one value is clearly the closest (the ``QUERY_ANALYSIS`` bars
    in :mod:`ragkit.defaults`). ``embedder=False`` turns it off. The vocabulary is read on first use.
    """

    def __init__(self, documents: Sequence[Document], words: QueryWords = NO_WORDS,
                 embedder: Embeddings | None | bool = None, vocabulary: Vocabulary | None = None):
        self._documents = list(documents)
        self.words = words
        self._embedder = embedder
        self._vocabulary = vocabulary

    @property
    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            self._vocabulary = Vocabulary.from_documents(self._documents, embedder=self._embedder)
        return self._vocabulary

    def for_documents(self, documents: Sequence[Document]) -> "LocalQueryAnalyzer":
        """An analyser with the vocabulary of these documents (same words, same embedder)."""
        return LocalQueryAnalyzer(documents, self.words, embedder=self._embedder)

    def restricted(self, documents: Sequence[Document]) -> "LocalQueryAnalyzer":
        """This analyser limited to the fields and items the given documents carry (for a writer or a judge
        that sees a few retrieved documents but knows the whole corpus's values)."""
        return LocalQueryAnalyzer(documents, self.words, vocabulary=self.vocabulary.restricted(documents))

    def analyze(self, question: str) -> QueryAnalysis:
        question = clean_query(question, what="question")
        v = self.vocabulary
        return analysis_from_parse(question, parse_question(question, v, self.words), v.list_fields)


__all__ = ["BOUNDS_AFTER", "BOUNDS_BEFORE", "COMPARATIVES", "FILLER", "LocalQueryAnalyzer", "NOT_FIELDS", "QueryWords",
           "SUPERLATIVES", "Tok", "Vocabulary", "clauses", "content_stems", "field_affinity", "is_content", "is_polar",
           "negation_positions", "normalise", "parse_question", "tokens", "value_stems"]
