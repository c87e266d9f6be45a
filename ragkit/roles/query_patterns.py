"""The patterns of the local query analyser: read a question with the data's vocabulary, step by step.

:func:`parse_question` reads a question with a :class:`ragkit.roles.query_vocabulary.Vocabulary` in steps,
each consuming the words it used:

1. **names**: a run of a title's words that only that title has ("lamb shoulder", "Calvera Rosso");
2. **comparison**: two names and a comparative ("than", "cheaper", "more expensive", "older" ...):
   "Is A more expensive than B?" compares A and B on a price field;
3. **superlative**: "cheapest", "most expensive", "oldest" ... -> a sort on a price or year field;
4. **numeric bounds**: "under 11 euros", "8 or less", "between 30 and 50", "over 60 a bottle";
5. **which price**: a word of a field's name picks it ("by the glass" -> ``price_glass``, "bottle" ->
   ``price_bottle``), else a field called ``price``, else the price field that is never empty; a nullable
   field named without a bound is a condition of its own ("can be ordered by the glass": it has a value);
6. **values**: a run of words that is a value ("gluten-free", "tree nuts", "Chardonnay"), else a word
   OF values ("nuts" -> "tree nuts" and "peanuts"; "cheese" -> every cheese), in the field with the
   fewest values when several have it. A field-name word nearby ("allergic" ~ ``allergens``) picks the
   field. An adjective that names a value ("Italian" -> Italy) is matched by embedding similarity when one
   value is clearly the closest;
7. **negation**: a value inside the scope of "no", "not", "without", "free of", "allergic to", "except"
   ... (up to the end of the clause), or just before "-free", "allergy", "intolerant", is excluded. A value
   that itself reads "X-free" turns around: excluding "dairy" keeps the items tagged "dairy-free";
8. **unresolved**: a word in a negation scope, or in a question that asks what is safe to eat ("can I eat",
   "safe", "okay"), that is no value and occurs nowhere in the documents ("coeliac", "lactose") is
   reported, so the answer can say it could not check it.

Limits: English only; one negation scope per trigger, cut at a comma or a new clause ("and" ends a "not"
scope); no arithmetic; no knowledge beyond the data (see :mod:`ragkit.roles.query_analysis`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from ragkit.core.nlp import POLAR_OPENERS, QUESTION_STOPWORDS, fold, stem
from ragkit.roles.query_vocabulary import Tok, Vocabulary, normalise, tokens

# English function words the patterns use (the data's values are never listed here).
WH_WORDS = frozenset("which what who whom whose where when how".split())
EXISTENTIAL = ("is there", "are there", "do you have", "do you serve", "do you sell", "have you got", "is anything",
               "can i get", "can i have", "can i order", "any ")
NEG_PRE = ("allergic to", "allergy to", "allergic", "intolerant to", "intolerant of", "free of", "free from",
           "react to", "sensitive to", "without", "except", "excluding", "avoid", "not", "no", "never", "none", "nothing")
LIST_LIKE_NEG = frozenset({"allergic to", "allergy to", "allergic", "intolerant to", "intolerant of", "free of",
                           "free from", "react to", "sensitive to", "without", "except", "excluding", "avoid", "no"})
NEG_POST = frozenset({"free", "allergy", "allergies", "intolerant", "intolerance"})
NEG_TRIGGER_WORDS = frozenset(w for phrase in NEG_PRE for w in phrase.split()) | {"react", "sensitive"}
CLAUSE_WORDS = frozenset({"which", "that", "who", "what", "but", "so", "where", "when", "while", "because"})
FILLER = frozenset(
    "contain contains containing have has having include includes including made make with from any the a an be been "
    "is are ordered order served sold come comes of in them it eat drink use used using cooked get allowed suitable "
    "for me my us our dish dishes item items food anything something on list menu there course courses can could "
    "am i by per whole i'm we're both either also here safe fine okay ok sell serve stock offer do every each".split())
SELF_DESCRIPTION = ("i'm", "i am", "we're", "we are", "i have", "we have")  # a clause where the user says what they are
MONEY_WORDS = frozenset("cheap cheaper cheapest expensive pricey pricier priciest cost costs costing price prices "
                        "priced dear dearer dearest euro euros eur costly costlier costliest".split())
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
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

@dataclasses.dataclass
class Parse:
    """What the patterns found (mutable while parsing; :func:`ragkit.roles.query_analysis.analysis_from_parse`
    turns it into a frozen ``QueryAnalysis``). ``conditions`` are ``(attribute, op, value)``; a tuple value
    means "any of these"."""

    conditions: list[tuple[str, str, Any]] = dataclasses.field(default_factory=list)
    sort: tuple[str, bool] | None = None
    limit: int = 1
    comparison: tuple[tuple[str, str], str, str, bool] | None = None
    subject: str | None = None
    polar: bool = False
    negated: list[str] = dataclasses.field(default_factory=list)
    unresolved: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    search_text: str = ""
    set_intent: bool = False  # "Which ...", "Show me ...", "What ... do you have"
    leftovers: list[str] = dataclasses.field(default_factory=list)  # content words no part of the structure explains
    used: list[str] = dataclasses.field(default_factory=list)  # the question's words the structure consumed


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
    """Token positions grouped by clause (cut at punctuation)."""
    out: list[list[int]] = [[]]
    for i, t in enumerate(toks):
        if t.punct:
            out.append([])
        else:
            out[-1].append(i)
    return [c for c in out if c]


def is_polar(toks: list[Tok]) -> bool:
    """A yes/no question: its first clause opener is an auxiliary ("Is", "Do", "Can"), not a wh-word."""
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


def parse_question(question: str, v: Vocabulary) -> Parse:
    """Read a question with a vocabulary (see the module docstring for the steps)."""
    toks = tokens(question)
    text = " ".join(t.text for t in toks)
    stems = {t.stem for t in toks}
    free = set(range(len(toks)))
    p = Parse(polar=is_polar(toks))
    capitalised = {fold(w) for w in re.findall(r"\w+", question)[1:] if w[:1].isupper() and w[1:].islower()}
    p.set_intent = bool(re.search(r"\bwhich\b", text) or re.match(r"(show|list|name|give|tell)\b", text)
                        or re.search(r"\bwhat\b.*\b(you|they) (have|serve|offer|sell|stock|do)\b", text))

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
        sup = _find(text, SUPERLATIVES)
        generic = re.search(r"\b(highest|lowest|most|least|largest|smallest|biggest)\s+(\w+)", text)
        if sup:
            field = v.field_for(sup[1], stems)
            if field:
                p.sort = (field, sup[2])
                free -= _token_span(toks, sup[0], text)
        elif generic:
            hit = next((f for f in v.numeric if stem(generic.group(2)) in v.field_parts(f) | {stem(f)}), None)
            if hit:
                p.sort = (hit, generic.group(1) in ("highest", "most", "largest", "biggest"))
                free -= _token_span(toks, generic, text)
        if p.sort:
            count = re.search(r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(cheapest|most|least|oldest|"
                              r"youngest|newest|priciest|dearest|highest|lowest|latest)", text)
            if count:
                p.limit = int(count.group(1)) if count.group(1).isdigit() else NUMBER_WORDS[count.group(1)]
            p.notes.append(f"sort by {p.sort[0]} {'descending' if p.sort[1] else 'ascending'}, keep {p.limit}")

    # 4-5. numeric bounds, and which price field
    used_fields = {p.sort[0]} if p.sort else set()
    if p.comparison:
        used_fields.add(p.comparison[1])
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
                year_like = t.number.is_integer() and 1800 <= t.number <= 2100 and bool(v.year_field()) and not (stems & MONEY_WORDS)
                field = v.year_field() if year_like else v.money_field(stems)
                if field:
                    p.conditions += [(field, "gte", t.number), (field, "lte", toks[k].number)]
                    used_fields.add(field)
                    free -= set(range(i - 1, k + 1))
                    p.notes.append(f"{field} between {t.number:g} and {toks[k].number:g}")
                continue
        if op is None:
            continue
        year_like = t.number.is_integer() and 1800 <= t.number <= 2100 and bool(v.year_field()) and not (stems & MONEY_WORDS)
        field = v.year_field() if year_like else v.money_field(stems)
        if field is None:
            continue
        p.conditions.append((field, op, t.number))
        used_fields.add(field)
        free -= span | {i}
        p.notes.append(f"{field} {op} {t.number:g}")

    # 6-7. values, negation scopes
    negated_at = negation_positions(toks)
    # a post-trigger that ends a value of the data ("gluten free" is a dietary tag) is part of that value, not a
    # negation ("Is the dessert gluten-free?" asks about desserts); and the word two before it is only in its scope when
    # the two words make one value ("tree nut allergy"), not when it is a value of its own ("desserts nut-free")
    everywhere = set(range(len(toks)))
    for k in [k for k, t in enumerate(toks) if t.text in NEG_POST and k > 1]:
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
    affinity = {i: fields for i, fields in field_affinity(toks, v).items()}
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
        if t.text in QUESTION_STOPWORDS or t.text in FILLER or t.text in NEG_POST or t.number is not None or len(t.text) < 3:
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

    # what the structure does not explain: a yes/no or a list is only answered when nothing is left over
    constraint = set()
    for clause in clauses(toks):
        words_ = " ".join(toks[j].text for j in clause)
        if words_.startswith(SELF_DESCRIPTION) or words_.endswith(" here") or any(
                toks[j].text in NEG_POST or toks[j].text in ("allergic", "react", "sensitive") for j in clause):
            constraint.update(clause)
    p.leftovers = [t.text for j, t in enumerate(toks) if j in free and j not in constraint and is_content(t, v)
                   and t.text not in p.unresolved]

    # 8. what the user says about themselves ("I'm coeliac", "Coeliac here") that the data does not know
    for clause in clauses(toks):
        words_ = " ".join(toks[j].text for j in clause)
        if not (words_.startswith(SELF_DESCRIPTION) or words_.endswith(" here") or words_ == "here"):
            continue
        for j in clause:
            t = toks[j]
            if (j in free and t.number is None and t.text not in QUESTION_STOPWORDS and t.text not in FILLER
                    and t.text not in NEG_POST and t.text not in NEG_TRIGGER_WORDS and len(t.text) > 3
                    and t.stem not in v.corpus_words
                    and t.text not in p.unresolved and (j == 0 or toks[j - 1].text not in ("my", "our", "a"))):
                p.unresolved.append(t.text)
    if p.unresolved:
        p.notes.append(f"not in the data, so not checked: {', '.join(p.unresolved)}")
    p.search_text = " ".join(t.text for j, t in enumerate(toks) if j not in negated_at and not t.punct) or question
    p.used = [t.text for j, t in enumerate(toks) if j not in free and not t.punct]
    return p


DEMONYM_ENDINGS = ("an", "ian", "ish", "ese", "ic", "ch", "i")


def proper_adjective(word: str, capitalised: set[str]) -> bool:
    """A word that may name a place's people or things: capitalised in the question ("Italian"), or with an
    English demonym ending ("italian", "spanish", "french")."""
    return word in capitalised or (len(word) > 4 and word.endswith(DEMONYM_ENDINGS))


def is_content(t: Tok, v: Vocabulary) -> bool:
    """A word that carries meaning the structure would have to explain (not a function word, not a word
    nearly every document has, like "wine" on a wine list)."""
    base = t.text.split("'")[0]
    return not (t.punct or t.number is not None or len(t.text) < 3 or base in QUESTION_STOPWORDS
                or t.text in QUESTION_STOPWORDS or t.text in FILLER or t.text in NEG_POST or t.text in WH_WORDS
                or t.text in MONEY_WORDS or t.text in YEAR_WORDS or t.stem in v.generic_words
                or any(t.text in ph.split() for ph in NEG_PRE) or t.text in ("react", "sensitive"))


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


def negation_positions(toks: list[Tok]) -> dict[int, int]:
    """Token position -> the position of the negation that covers it: after a trigger up to the end of its
    clause, or just before a post-trigger ("nut free", "fish allergy").

    >>> sorted(negation_positions(tokens("Which desserts do not contain nuts?")))
    [4, 5]
    """
    out: dict[int, int] = {}
    n = len(toks)
    i = 0
    while i < n:
        trigger = next((ph for ph in NEG_PRE if _phrase_at(toks, i, ph)), None)
        if trigger is None:
            i += 1
            continue
        j = i + len(trigger.split())
        list_like = trigger in LIST_LIKE_NEG
        while j < n and not toks[j].punct and toks[j].text not in CLAUSE_WORDS:
            if (toks[j].text == "and" and not list_like) or toks[j].number is not None:
                break
            out.setdefault(j, i)
            j += 1
        i = j
    for i, t in enumerate(toks):
        if t.text in NEG_POST and i > 0 and not toks[i - 1].punct:
            out.setdefault(i - 1, i)
            if i > 1 and not toks[i - 2].punct and toks[i - 2].text not in FILLER | QUESTION_STOPWORDS:
                out.setdefault(i - 2, i)  # "tree nut allergy"
    return out


def field_affinity(toks: list[Tok], v: Vocabulary) -> dict[int, list[str]]:
    """Tokens whose clause names a list field ("allergic" ~ allergens): value matching there uses that field."""
    fields = {f: stem(f) for f in v.list_fields}
    out: dict[int, list[str]] = {}
    clause: list[int] = []

    def flush() -> None:
        named = [f for f, s in fields.items() for i in clause if len(s) >= 5 and toks[i].stem[:5] == s[:5]]
        for i in clause:
            if named:
                out[i] = sorted(set(named))
        clause.clear()

    for i, t in enumerate(toks):
        if t.punct:
            flush()
        else:
            clause.append(i)
    flush()
    return out


__all__ = ["Parse", "clauses", "field_affinity", "is_polar", "negation_positions", "parse_question"]
