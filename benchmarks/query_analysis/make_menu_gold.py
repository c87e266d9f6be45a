"""Write data/eval/menu_structured.json: structured menu and wine questions whose answers are computed from the data.

Every question is a spec ``(question, category, note, answer)``: ``answer`` is a small function over the
records of ``data/menu.json`` and ``data/wines.json`` (read with the json module, not through ragkit), so
the gold answers come from the data and a test can recompute them. Categories: superlative, exclusion,
allergen, comparison, price_bound, combined.

Each item written::

    {"id": "mq-001", "question", "category", "corpus": "menu"|"wine",
     "kind": "set"|"single"|"yes_no"|"comparison",
     "required": [ids a correct answer must name], "excluded": [ids it must never offer as an answer],
     "answer_bool": true|false|null, "note": "how the answer was computed", "split": "dev"|"test"}

Conventions, decided once here and repeated in the notes:
- scope: a question about a course (or a wine style or country) scores only items of that scope;
  ``excluded`` is the rest of that scope (for a superlative: everything in scope but the winners).
- set/yes_no: ``required`` = every match; a yes/no question has ``answer_bool`` = "any match", so an empty
  ``required`` with ``answer_bool`` false is a question whose honest answer is "no, nothing". ``excluded``
  is every non-match in scope: an answer must not offer one as satisfying the question (a scorer that only
  checks names will also count a near miss mentioned as an alternative, so keep that in mind when scoring
  a "no" answer).
- comparison: ``required`` = the winner (both items when they tie); ``excluded`` is empty because a
  good answer names both items. ``answer_bool`` holds the truth of an "Is A ... than B?" question and is
  null for a "Which of A and B ...?" question.
- prices: "under X" / "less than X" is strictly below X, "X or less" / "at most X" includes X, "between
  X and Y" includes both ends, "over X" is strictly above X. Glass prices are per glass as listed; a wine
  with no glass price is sold by the bottle only and never matches a by-the-glass condition.
- allergens come from each dish's ``allergens`` list, diets from its ``dietary`` tags (see the vocabulary
  checks in :func:`check_vocabulary`, which fail loudly if the data stops matching these decisions).

Run from the project folder: ``.venv/bin/python benchmarks/query_analysis/make_menu_gold.py``.

Limits: the questions are hand-written, so they cover the conditions their author thought of; the
computed answers are exactly as good as the data's allergen and diet fields (a dish whose allergen list
is wrong gives a wrong gold answer). Seasonal availability (the tomato salad, the gnocchi) is ignored.
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

ROOT = Path(__file__).resolve().parents[2]
MENU_PATH = ROOT / "data" / "menu.json"
WINES_PATH = ROOT / "data" / "wines.json"
OUT_PATH = ROOT / "data" / "eval" / "menu_structured.json"

CATEGORIES = ("superlative", "exclusion", "allergen", "comparison", "price_bound", "combined")
KINDS = ("set", "single", "yes_no", "comparison")

# The allergen vocabulary the data uses (checked against it): the EU's major allergens as spelled there.
KNOWN_ALLERGENS = frozenset({"celery", "crustaceans", "eggs", "fish", "gluten", "milk", "molluscs", "mustard",
                             "sesame", "soya", "sulphites", "tree nuts", "peanuts", "lupin"})
NUTS = frozenset({"tree nuts", "peanuts"})  # "nuts" = tree nuts and peanuts; chestnuts are not listed as either
SHELLFISH = frozenset({"crustaceans", "molluscs"})
SEAFOOD = frozenset({"fish"}) | SHELLFISH
DAIRY = frozenset({"milk"})  # the data flags butter, cream and every cheese under "milk" (checked below)
DAIRY_WORDS = ("butter", "cream", "milk", "cheese", "ricotta", "burrata", "mozzarella", "parmesan", "crème fraîche")
DAIRY_NOTE = ("the 'milk' allergen, which the data uses for butter, cream and every cheese (checked against the "
              "ingredients and the 'dairy-free' tag)")
NUT_NOTE = ("neither 'tree nuts' nor 'peanuts' (the allergen values that mean nuts; no dish lists peanuts, and "
            "the chestnuts in the pie are not recorded as a nut allergen)")

Record = dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """A computed gold answer: what a correct reply names, what it must not offer, and a yes/no truth."""

    kind: str
    required: list[str]
    excluded: list[str]
    answer_bool: bool | None = None


class Data:
    """The menu's dishes and the wine list's wines, with small selectors used by the specs."""

    def __init__(self, menu: dict[str, Any], wines: dict[str, Any]):
        self.dishes: list[Record] = list(menu["dishes"])
        self.wines: list[Record] = list(wines["wines"])
        self.by_id: dict[str, Record] = {r["id"]: r for r in self.dishes + self.wines}

    def course(self, course: str) -> list[Record]:
        """Dishes of one course: ``starter``, ``main``, ``side`` or ``dessert``."""
        found = [d for d in self.dishes if d["course"] == course]
        if not found:
            raise ValueError(f"no dish of course {course!r}")
        return found

    def wine_list(self, style: str | None = None, country: str | None = None) -> list[Record]:
        """Wines, optionally of one style (sparkling, white, rosé, red, sweet) and one country."""
        found = [w for w in self.wines if (style is None or w["style"] == style)
                 and (country is None or w["country"] == country)]
        if not found:
            raise ValueError(f"no wine with style={style!r} country={country!r}")
        return found

    def named(self, name: str) -> Record:
        """The one record whose name is ``name`` (exact, as the data spells it)."""
        found = [r for r in self.dishes + self.wines if r["name"] == name]
        if len(found) != 1:
            raise ValueError(f"{len(found)} records named {name!r}")
        return found[0]


def load_data(menu_path: Path = MENU_PATH, wines_path: Path = WINES_PATH) -> Data:
    return Data(json.loads(Path(menu_path).read_text(encoding="utf-8")),
                json.loads(Path(wines_path).read_text(encoding="utf-8")))


def check_vocabulary(data: Data) -> None:
    """Fail if the data no longer supports the allergen and diet decisions this gold set relies on."""
    used = {a for d in data.dishes for a in d["allergens"]}
    unknown = used - KNOWN_ALLERGENS
    if unknown:
        raise ValueError(f"allergen values not covered by the gold set's decisions: {sorted(unknown)}")
    for d in data.dishes:
        has_milk = bool(DAIRY & set(d["allergens"]))
        dairy_ingredient = any(w in i.lower() for i in d["ingredients"] for w in DAIRY_WORDS)
        if dairy_ingredient != has_milk:
            raise ValueError(f"{d['id']}: dairy ingredients and the 'milk' allergen disagree")
        if ("dairy-free" in d["dietary"]) == has_milk:
            raise ValueError(f"{d['id']}: the 'dairy-free' tag and the 'milk' allergen disagree")
        if ("gluten-free" in d["dietary"]) == ("gluten" in d["allergens"]):
            raise ValueError(f"{d['id']}: the 'gluten-free' tag and the 'gluten' allergen disagree")
        if "vegan" in d["dietary"] and "vegetarian" not in d["dietary"]:
            raise ValueError(f"{d['id']}: vegan but not tagged vegetarian")


# ---- predicates over one record ------------------------------------------------------------------

def free_of(allergens: Iterable[str]) -> Callable[[Record], bool]:
    """A dish has none of these allergen values: ``free_of(NUTS)({"allergens": ["milk"]})`` -> True."""
    bad = frozenset(allergens)
    return lambda d: not bad & set(d["allergens"])


def tagged(tag: str) -> Callable[[Record], bool]:
    return lambda d: tag in d["dietary"]


def price_below(limit: float, field: str = "price") -> Callable[[Record], bool]:
    return lambda r: r[field] is not None and r[field] < limit


def price_at_most(limit: float, field: str = "price") -> Callable[[Record], bool]:
    return lambda r: r[field] is not None and r[field] <= limit


def price_between(low: float, high: float, field: str = "price") -> Callable[[Record], bool]:
    return lambda r: r[field] is not None and low <= r[field] <= high


def price_above(limit: float, field: str = "price") -> Callable[[Record], bool]:
    return lambda r: r[field] is not None and r[field] > limit


def both(*preds: Callable[[Record], bool]) -> Callable[[Record], bool]:
    return lambda r: all(p(r) for p in preds)


def negate(pred: Callable[[Record], bool]) -> Callable[[Record], bool]:
    return lambda r: not pred(r)


# ---- answer builders -----------------------------------------------------------------------------

def matching(scope: list[Record], pred: Callable[[Record], bool]) -> Answer:
    """A set answer: every record in scope that matches; the rest of the scope is excluded."""
    return Answer("set", [r["id"] for r in scope if pred(r)], [r["id"] for r in scope if not pred(r)])


def any_matching(scope: list[Record], pred: Callable[[Record], bool]) -> Answer:
    """A yes/no answer: yes when something in scope matches (those are required)."""
    found = matching(scope, pred)
    return Answer("yes_no", found.required, found.excluded, bool(found.required))


def best(scope: list[Record], field: str, highest: bool) -> Answer:
    """A superlative: the record(s) with the highest or lowest non-null ``field``; ties all win."""
    values = [r[field] for r in scope if r[field] is not None]
    top = max(values) if highest else min(values)
    winners = [r["id"] for r in scope if r[field] == top]
    return Answer("single", winners, [r["id"] for r in scope if r["id"] not in winners])


def compare(a: Record, b: Record, value: Callable[[Record], float], want: str,
            question_is_yes_no: bool) -> Answer:
    """Compare two records by ``value``. ``want`` is "higher" or "lower": the winner has that value.

    For "Is A more expensive than B?" pass a, b in the question's order and want="higher":
    ``answer_bool`` is True only when A strictly wins. A tie makes both records winners (and the answer
    to "Is A cheaper than B?" False).
    """
    va, vb = value(a), value(b)
    if va == vb:
        winners = [a["id"], b["id"]]
    elif (va > vb) == (want == "higher"):
        winners = [a["id"]]
    else:
        winners = [b["id"]]
    truth = (va > vb if want == "higher" else va < vb) if question_is_yes_no else None
    return Answer("comparison", winners, [], truth)


def glass(r: Record) -> float:
    if r["price_glass"] is None:
        raise ValueError(f"{r['id']} has no glass price")
    return r["price_glass"]


Spec = tuple[str, str, str, Callable[[Data], Answer]]

SPECS: list[Spec] = [
    # ---- superlative
    ("What's the cheapest main course?", "superlative",
     "lowest price among dishes with course 'main'",
     lambda d: best(d.course("main"), "price", highest=False)),
    ("Which is your most expensive main?", "superlative",
     "highest price among course 'main'",
     lambda d: best(d.course("main"), "price", highest=True)),
    ("What's the priciest sparkling wine by the bottle?", "superlative",
     "highest price_bottle among style 'sparkling' (the gently sparkling Moscato d'Asti is style 'sweet' and "
     "out of scope)",
     lambda d: best(d.wine_list("sparkling"), "price_bottle", highest=True)),
    ("What is the cheapest bottle on the whole wine list?", "superlative",
     "lowest price_bottle over all wines; ties all count as winners",
     lambda d: best(d.wine_list(), "price_bottle", highest=False)),
    ("Which starter costs the most?", "superlative",
     "highest price among course 'starter'",
     lambda d: best(d.course("starter"), "price", highest=True)),
    ("What's the least expensive dessert?", "superlative",
     "lowest price among course 'dessert'",
     lambda d: best(d.course("dessert"), "price", highest=False)),
    ("Which red wine is the most expensive by the glass?", "superlative",
     "highest price_glass among style 'red'; reds sold by the bottle only cannot win",
     lambda d: best(d.wine_list("red"), "price_glass", highest=True)),
    ("Which white wine is the cheapest by the bottle?", "superlative",
     "lowest price_bottle among style 'white'",
     lambda d: best(d.wine_list("white"), "price_bottle", highest=False)),
    ("What's the most expensive bottle of wine you sell?", "superlative",
     "highest price_bottle over all wines",
     lambda d: best(d.wine_list(), "price_bottle", highest=True)),
    ("What is the cheapest side dish?", "superlative",
     "lowest price among course 'side'",
     lambda d: best(d.course("side"), "price", highest=False)),
    ("Which wine on the list has the oldest vintage?", "superlative",
     "lowest vintage year over all wines; non-vintage wines (vintage null) cannot win; ties all win",
     lambda d: best(d.wine_list(), "vintage", highest=False)),
    ("Which of your Spanish wines is the most expensive bottle?", "superlative",
     "highest price_bottle among wines with country 'Spain'",
     lambda d: best(d.wine_list(country="Spain"), "price_bottle", highest=True)),
    # ---- exclusion
    ("Which desserts don't contain nuts?", "exclusion",
     "desserts whose allergens include " + NUT_NOTE,
     lambda d: matching(d.course("dessert"), free_of(NUTS))),
    ("Which main courses are not vegetarian?", "exclusion",
     "mains without the 'vegetarian' dietary tag",
     lambda d: matching(d.course("main"), negate(tagged("vegetarian")))),
    ("Which of your wines are not from Italy?", "exclusion",
     "wines whose country is not 'Italy'",
     lambda d: matching(d.wine_list(), lambda w: w["country"] != "Italy")),
    ("Which starters have no fish or seafood in them?", "exclusion",
     "starters whose allergens include none of 'fish', 'crustaceans', 'molluscs'",
     lambda d: matching(d.course("starter"), free_of(SEAFOOD))),
    ("Which red wines on the list aren't Italian?", "exclusion",
     "style 'red' with country not 'Italy'",
     lambda d: matching(d.wine_list("red"), lambda w: w["country"] != "Italy")),
    ("Which mains come without any celery?", "exclusion",
     "mains whose allergens do not include 'celery'",
     lambda d: matching(d.course("main"), free_of({"celery"}))),
    ("Which white wines are not made from Chardonnay?", "exclusion",
     "style 'white' whose grapes list does not contain 'Chardonnay'",
     lambda d: matching(d.wine_list("white"), lambda w: "Chardonnay" not in w["grapes"])),
    ("Which wines can't be ordered by the glass?", "exclusion",
     "wines whose price_glass is null (sold by the bottle only)",
     lambda d: matching(d.wine_list(), lambda w: w["price_glass"] is None)),
    ("Which of the side dishes are not vegan?", "exclusion",
     "sides without the 'vegan' tag (every side is tagged vegan, so the answer is empty)",
     lambda d: matching(d.course("side"), negate(tagged("vegan")))),
    ("Which desserts are made without eggs?", "exclusion",
     "desserts whose allergens do not include 'eggs'",
     lambda d: matching(d.course("dessert"), free_of({"eggs"}))),
    ("Which sparkling wines are not French?", "exclusion",
     "style 'sparkling' with country not 'France'",
     lambda d: matching(d.wine_list("sparkling"), lambda w: w["country"] != "France")),
    ("Is there a dessert that isn't vegetarian?", "exclusion",
     "yes if a dessert lacks the 'vegetarian' dietary tag; those desserts are required",
     lambda d: any_matching(d.course("dessert"), negate(tagged("vegetarian")))),
    # ---- allergen
    ("I'm coeliac, which mains can I eat?", "allergen",
     "mains with the 'gluten-free' tag (the data checks it equals having no 'gluten' allergen)",
     lambda d: matching(d.course("main"), tagged("gluten-free"))),
    ("I'm lactose intolerant - which desserts can I have?", "allergen",
     "desserts without " + DAIRY_NOTE,
     lambda d: matching(d.course("dessert"), free_of(DAIRY))),
    ("I'm allergic to nuts. Which starters are safe for me?", "allergen",
     "starters whose allergens include " + NUT_NOTE,
     lambda d: matching(d.course("starter"), free_of(NUTS))),
    ("I have a shellfish allergy. Which mains can I order?", "allergen",
     "mains whose allergens include neither 'crustaceans' nor 'molluscs' (shellfish = both; 'fish' is separate)",
     lambda d: matching(d.course("main"), free_of(SHELLFISH))),
    ("I'm allergic to eggs, which main courses are okay?", "allergen",
     "mains whose allergens do not include 'eggs'",
     lambda d: matching(d.course("main"), free_of({"eggs"}))),
    ("My son is allergic to sesame. Which starters can he have?", "allergen",
     "starters whose allergens do not include 'sesame'",
     lambda d: matching(d.course("starter"), free_of({"sesame"}))),
    ("I can't eat celery. Which starters are fine?", "allergen",
     "starters whose allergens do not include 'celery'",
     lambda d: matching(d.course("starter"), free_of({"celery"}))),
    ("I'm allergic to mustard, which sides can I order?", "allergen",
     "sides whose allergens do not include 'mustard'",
     lambda d: matching(d.course("side"), free_of({"mustard"}))),
    ("Is there any dessert I can eat with a soya allergy?", "allergen",
     "yes if a dessert's allergens do not include 'soya'; those desserts are required",
     lambda d: any_matching(d.course("dessert"), free_of({"soya"}))),
    ("Coeliac here: which sides are safe?", "allergen",
     "sides with the 'gluten-free' tag",
     lambda d: matching(d.course("side"), tagged("gluten-free"))),
    ("A guest has a fish allergy: which mains can she order?", "allergen",
     "mains whose allergens do not include 'fish' (crustaceans and molluscs are separate allergens in the data)",
     lambda d: matching(d.course("main"), free_of({"fish"}))),
    ("I'm lactose intolerant, which starters can I eat?", "allergen",
     "starters without " + DAIRY_NOTE,
     lambda d: matching(d.course("starter"), free_of(DAIRY))),
    ("I react to sulphites. Which mains are safe?", "allergen",
     "mains whose allergens do not include 'sulphites'",
     lambda d: matching(d.course("main"), free_of({"sulphites"}))),
    # ---- comparison
    ("Is the ribeye more expensive than the lamb shoulder?", "comparison",
     "price of 'Charcoal-grilled ribeye' vs 'Slow-roasted lamb shoulder'; the dearer one is required",
     lambda d: compare(d.named("Charcoal-grilled ribeye"), d.named("Slow-roasted lamb shoulder"),
                       lambda r: r["price"], "higher", True)),
    ("Which is cheaper, the sea bass or the seafood linguine?", "comparison",
     "price of 'Grilled sea bass with salsa verde' vs 'Seafood linguine'; the cheaper one is required",
     lambda d: compare(d.named("Grilled sea bass with salsa verde"), d.named("Seafood linguine"),
                       lambda r: r["price"], "lower", False)),
    ("Is a bottle of Barolo more expensive than a bottle of the Champagne?", "comparison",
     "price_bottle of 'Barolo' vs 'Champagne Blanc de Blancs Extra Brut'; the dearer one is required",
     lambda d: compare(d.named("Barolo"), d.named("Champagne Blanc de Blancs Extra Brut"),
                       lambda r: r["price_bottle"], "higher", True)),
    ("Which costs more by the glass, the Sancerre or the Etna Rosso?", "comparison",
     "price_glass of 'Sancerre' vs 'Etna Rosso'; equal prices make both required",
     lambda d: compare(d.named("Sancerre"), d.named("Etna Rosso"), glass, "higher", False)),
    ("Is the lemon tart cheaper than the panna cotta?", "comparison",
     "price of 'Lemon tart' vs 'Panna cotta with figs'; 'cheaper' must be strict, a tie is false and both are required",
     lambda d: compare(d.named("Lemon tart"), d.named("Panna cotta with figs"), lambda r: r["price"], "lower", True)),
    ("For the Albariño, do five glasses cost more than a whole bottle?", "comparison",
     "5 x price_glass vs price_bottle of 'Albariño Rías Baixas' (one wine, so it is the required item); true when "
     "five glasses cost strictly more",
     lambda d: (lambda w: Answer("comparison", [w["id"]], [], 5 * glass(w) > w["price_bottle"]))(
         d.named("Albariño Rías Baixas"))),
    ("Which is cheaper by the glass: the Franciacorta or the Cava?", "comparison",
     "price_glass of 'Franciacorta Brut' vs 'Cava Brut Nature Reserva'; the cheaper one is required",
     lambda d: compare(d.named("Franciacorta Brut"), d.named("Cava Brut Nature Reserva"), glass, "lower", False)),
    ("Is the burrata cheaper than the octopus?", "comparison",
     "price of 'Burrata with roasted peaches' vs 'Grilled octopus with chickpea purée'; the cheaper one is required",
     lambda d: compare(d.named("Burrata with roasted peaches"), d.named("Grilled octopus with chickpea purée"),
                       lambda r: r["price"], "lower", True)),
    ("Which dessert wine costs less per glass, the Passito or the Banyuls?", "comparison",
     "price_glass of 'Passito di Pantelleria' vs 'Banyuls Rimage'; the cheaper one is required",
     lambda d: compare(d.named("Passito di Pantelleria"), d.named("Banyuls Rimage"), glass, "lower", False)),
    ("Is the mushroom pie cheaper than the pumpkin gnocchi?", "comparison",
     "price of 'Mushroom and chestnut pie' vs 'Pumpkin gnocchi with sage butter'; the cheaper one is required",
     lambda d: compare(d.named("Mushroom and chestnut pie"), d.named("Pumpkin gnocchi with sage butter"),
                       lambda r: r["price"], "lower", True)),
    ("Which bottle costs more, the Chianti Classico Riserva or the Sancerre?", "comparison",
     "price_bottle of 'Chianti Classico Riserva' vs 'Sancerre'; the dearer one is required",
     lambda d: compare(d.named("Chianti Classico Riserva"), d.named("Sancerre"),
                       lambda r: r["price_bottle"], "higher", False)),
    ("Is a bottle of the Malbec cheaper than a bottle of the Rioja?", "comparison",
     "price_bottle of 'Malbec' vs 'Rioja Reserva'; the cheaper one is required",
     lambda d: compare(d.named("Malbec"), d.named("Rioja Reserva"), lambda r: r["price_bottle"], "lower", True)),
    # ---- price_bound
    ("Which starters are under 11 euros?", "price_bound",
     "starters with price strictly below 11 (a starter at exactly 11 does not count)",
     lambda d: matching(d.course("starter"), price_below(11))),
    ("Which bottles cost between 30 and 50 euros?", "price_bound",
     "wines with 30 <= price_bottle <= 50",
     lambda d: matching(d.wine_list(), price_between(30, 50, "price_bottle"))),
    ("Show me the mains under 20 euros.", "price_bound",
     "mains with price strictly below 20",
     lambda d: matching(d.course("main"), price_below(20))),
    ("Which wines can I get by the glass for 7 euros or less?", "price_bound",
     "wines with a price_glass and price_glass <= 7",
     lambda d: matching(d.wine_list(), price_at_most(7, "price_glass"))),
    ("Which desserts cost 8 euros or less?", "price_bound",
     "desserts with price <= 8",
     lambda d: matching(d.course("dessert"), price_at_most(8))),
    ("Which main courses cost more than 25 euros?", "price_bound",
     "mains with price strictly above 25",
     lambda d: matching(d.course("main"), price_above(25))),
    ("Do you have any bottle under 30 euros?", "price_bound",
     "yes if a wine has price_bottle strictly below 30; those wines are required",
     lambda d: any_matching(d.wine_list(), price_below(30, "price_bottle"))),
    ("Which wines are over 60 euros a bottle?", "price_bound",
     "wines with price_bottle strictly above 60",
     lambda d: matching(d.wine_list(), price_above(60, "price_bottle"))),
    ("Which sides cost at most 5 euros?", "price_bound",
     "sides with price <= 5",
     lambda d: matching(d.course("side"), price_at_most(5))),
    ("Which wines by the glass cost between 9 and 10 euros?", "price_bound",
     "wines with a price_glass and 9 <= price_glass <= 10",
     lambda d: matching(d.wine_list(), price_between(9, 10, "price_glass"))),
    ("Is there a starter for under 9 euros?", "price_bound",
     "yes if a starter's price is strictly below 9 (the cheapest starter costs exactly 9, so no)",
     lambda d: any_matching(d.course("starter"), price_below(9))),
    # ---- combined
    ("Is there a vegan dessert under 9 euros?", "combined",
     "desserts tagged 'vegan' with price strictly below 9",
     lambda d: any_matching(d.course("dessert"), both(tagged("vegan"), price_below(9)))),
    ("Which Italian red wines can I have by the glass for under 8 euros?", "combined",
     "style 'red', country 'Italy', price_glass strictly below 8",
     lambda d: matching(d.wine_list("red"), both(lambda w: w["country"] == "Italy", price_below(8, "price_glass")))),
    ("Which gluten-free starters have no fish or shellfish?", "combined",
     "starters tagged 'gluten-free' whose allergens include none of 'fish', 'crustaceans', 'molluscs'",
     lambda d: matching(d.course("starter"), both(tagged("gluten-free"), free_of(SEAFOOD)))),
    ("Is there a vegan main under 15 euros?", "combined",
     "mains tagged 'vegan' with price strictly below 15 (the only vegan main costs more, so no)",
     lambda d: any_matching(d.course("main"), both(tagged("vegan"), price_below(15)))),
    ("Which vegetarian mains cost less than 20 euros?", "combined",
     "mains tagged 'vegetarian' with price strictly below 20 (the parmigiana is cheap but not tagged vegetarian)",
     lambda d: matching(d.course("main"), both(tagged("vegetarian"), price_below(20)))),
    ("Which Italian white wines are under 40 euros a bottle?", "combined",
     "style 'white', country 'Italy', price_bottle strictly below 40",
     lambda d: matching(d.wine_list("white"), both(lambda w: w["country"] == "Italy",
                                                   price_below(40, "price_bottle")))),
    ("I'm coeliac and vegetarian - which starters can I have?", "combined",
     "starters tagged both 'gluten-free' and 'vegetarian'",
     lambda d: matching(d.course("starter"), both(tagged("gluten-free"), tagged("vegetarian")))),
    ("Which dairy-free mains cost under 25 euros?", "combined",
     "mains without " + DAIRY_NOTE + ", with price strictly below 25",
     lambda d: matching(d.course("main"), both(free_of(DAIRY), price_below(25)))),
    ("Which French wines can be ordered by the glass?", "combined",
     "country 'France' with a non-null price_glass",
     lambda d: matching(d.wine_list(country="France"), lambda w: w["price_glass"] is not None)),
    ("Is there a dessert that is both gluten-free and nut-free?", "combined",
     "desserts tagged 'gluten-free' whose allergens include " + NUT_NOTE,
     lambda d: any_matching(d.course("dessert"), both(tagged("gluten-free"), free_of(NUTS)))),
    ("Which sparkling wines by the glass cost less than 8 euros?", "combined",
     "style 'sparkling' with price_glass strictly below 8",
     lambda d: matching(d.wine_list("sparkling"), price_below(8, "price_glass"))),
    ("Is there a vegan starter without nuts?", "combined",
     "starters tagged 'vegan' whose allergens include " + NUT_NOTE + "; the only vegan starter has almonds, so no",
     lambda d: any_matching(d.course("starter"), both(tagged("vegan"), free_of(NUTS)))),
    ("Which red wines under 50 euros a bottle are not from Italy?", "combined",
     "style 'red', country not 'Italy', price_bottle strictly below 50",
     lambda d: matching(d.wine_list("red"), both(lambda w: w["country"] != "Italy",
                                                 price_below(50, "price_bottle")))),
]


def corpus_of(ids: Iterable[str]) -> str:
    """``"menu"`` or ``"wine"`` from record ids: ``corpus_of(["wine-03"])`` -> ``'wine'``."""
    kinds = {i.split("-")[0] for i in ids}
    if kinds == {"menu"}:
        return "menu"
    if kinds == {"wine"}:
        return "wine"
    raise ValueError(f"ids from no corpus or from both: {sorted(kinds)}")


def assign_splits(categories: list[str], seed: int = 0) -> list[str]:
    """``"dev"``/``"test"`` per item: within each category a seeded shuffle puts round(n/3) items in dev.

    >>> assign_splits(["a"] * 6).count("dev")
    2
    """
    rng = random.Random(seed)
    by_category: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(categories):
        by_category[c].append(i)
    splits = ["test"] * len(categories)
    for category in sorted(by_category):
        indices = list(by_category[category])
        rng.shuffle(indices)
        for i in indices[: round(len(indices) / 3)]:
            splits[i] = "dev"
    return splits


def build_items(data: Data | None = None) -> list[dict[str, Any]]:
    """Compute every gold item from the data (nothing is written)."""
    data = data or load_data()
    check_vocabulary(data)
    items = []
    for n, (question, category, note, answer_fn) in enumerate(SPECS, start=1):
        if category not in CATEGORIES:
            raise ValueError(f"{question!r}: unknown category {category!r}")
        answer = answer_fn(data)
        ids = answer.required + answer.excluded
        items.append({
            "id": f"mq-{n:03d}", "question": question, "category": category, "corpus": corpus_of(ids),
            "kind": answer.kind, "required": answer.required, "excluded": answer.excluded,
            "answer_bool": answer.answer_bool, "note": note,
        })
    for item, split in zip(items, assign_splits([i["category"] for i in items])):
        item["split"] = split
    return items


def main(argv: list[str] | None = None) -> int:
    items = build_items()
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(items, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for item in items:
        counts[item["category"], item["split"]] += 1
    for category in CATEGORIES:
        print(f"{category:12s} dev {counts[category, 'dev']:2d}  test {counts[category, 'test']:2d}")
    print(f"wrote {len(items)} items to {OUT_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
