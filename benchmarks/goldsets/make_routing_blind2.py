"""Write the second blind set of guest questions for the restaurant router, ``data/eval/routing_blind2.json``.

Written blind on 2026-12-03 for ragkit issue 22, BEFORE the router round it reports on: the writer read only the
four route descriptions, the corpora (``data/menu.json``, ``data/wines.json``, ``data/web/*.md``), the freeze API
and this script's format model; not the router, its route examples, any other routing set, the routing benchmarks
or the tests, and no router, graph or benchmark was run on these questions. Frozen in ``data/eval/MANIFEST.json``;
run once per router change, aggregates only.

80 questions, 20 per route (``search_menu``, ``search_wine``, ``search_web``, ``llm_fallback``), each
``{"question", "route", "why"}``. Labelling rule: the route whose description covers what the guest needs, read
from the descriptions alone. Asking whether we serve something is a menu or wine question even when we do not
serve it; a food or wine word inside a general-knowledge, maths or writing question is fallback; wine-making and
cooking in general are fallback, but the town's wine cooperative, the fish market, and anything fresh or
time-bound (today's weather, what is open now, this week's prices, results, rates) are web. Questions whose
answer the descriptions would split (e.g. a definition that one of the web articles also covers, such as orange
wine or peppery olive oil) were left out rather than labelled by taste; the remaining borderline ones say in
``why`` which words of the descriptions decided them. On purpose varied: short and long, lower case, typos,
context first, polite and blunt, topic words that belong to another route.

Hygiene before freezing: no two questions within MiniLM cosine 0.9 of each other (reads only these questions).

Run::

    .venv/bin/python benchmarks/goldsets/make_routing_blind2.py           # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_routing_blind2.py --write   # write it (refused once frozen)

Limits: one writer's labels, no second annotator; 80 questions give a binomial standard error of about 0.045 on
an accuracy near 0.8 (about 0.09 per route of 20), so differences of a few questions are noise.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
from common import set_writer  # noqa: E402

PATH = ROOT / "data" / "eval" / "routing_blind2.json"
M, W, S, F = "search_menu", "search_wine", "search_web", "llm_fallback"
ROUTES = (M, W, S, F)
ITEMS: list[tuple[str, str, str]] = [
 # --- search_menu: our dishes, prices, portions, ingredients, cooking, allergens, diets (served or not)
 ("do you have anything vegan for a main course?", M, "vegan options on our menu"),
 ("Hi, my daughter has a severe tree nut allergy. Which of your desserts are safe for her?", M, "allergens of our desserts"),
 ("how much is the ribeye and how big is it", M, "price and portion of our dish"),
 ("Is the fish soup gluten free? I'm coeliac", M, "allergen of our dish"),
 ("Do you serve pizza?", M, "whether we serve a dish (we do not)"),
 ("what comes with the sea bass", M, "sides of our dish"),
 ("How is the lamb shoulder cooked, and for how long?", M, "cooking method of our dish"),
 ("We're a table of six and two of us can't eat eggs. Is the black rice with cuttlefish ok, and what makes it black?", M, "context first; ingredients and allergens of our dish"),
 ("any kids menu? like chicken nuggets or plain pasta with butter", M, "whether we serve a children's option"),
 ("Can I still order the heirloom tomato salad in winter?", M, "season of our dish"),
 ("do u do burgers", M, "whether we serve a dish, blunt"),
 ("what's in the rouille that comes with the soup?", M, "ingredients of our dish"),
 ("I'm vegetarian - is the panna cotta okay for me or is there gelatin in it?", M, "vegetarian status of our dessert"),
 ("how many oysters do you get in a portion and where do they come from", M, "portion and sourcing of our dish, not the oyster farm tours"),
 ("Which is your cheapest side?", M, "prices of our sides"),
 ("does the aubergine parmigiana have meat in it or is it veggie", M, "ingredients and diet of our dish"),
 ("Could the kitchen make the seafood linguine without chilli? My son can't handle spicy food.", M, "how our dish is made"),
 ("Do you have a set lunch or a tasting menu?", M, "whether we offer a set menu"),
 ("severe sesame allergy here, which dishes should I avoid", M, "allergens across our dishes"),
 ("wht deserts do you hav tonight", M, "our dessert list, typos"),
 # --- search_wine: our bottles and glasses, grapes, producers, regions, vintages, styles, notes, prices, pairing
 ("which of your reds goes best with the lamb?", W, "pairing one of our wines with a dish"),
 ("Can I get the Barolo by the glass?", W, "glass price of our wine"),
 ("how much for a bottle of sancerre", W, "bottle price of our wine"),
 ("What vintage is the Rioja you pour?", W, "vintage of our wine"),
 ("Do you have any orange wines on the list?", W, "whether our list has a style (it does not); not what orange wine is"),
 ("do you have prosecco", W, "whether we pour a wine (we do not)"),
 ("It's our anniversary tonight and we'd like to splash out - what's the best champagne you have, and what does it cost?", W, "context first; our sparkling wines and prices"),
 ("cheapest white by the glass?", W, "glass prices of our whites"),
 ("I'm having the chocolate mousse for dessert. Is there a sweet wine that works with it?", W, "pairing our dessert wine with a dish"),
 ("Who makes your Calvera Rosso and what grapes are in it?", W, "producer and grapes of a wine on our list, not a visit to the cooperative"),
 ("Is the Riesling dry or a bit sweet?", W, "style of our wine"),
 ("any wines from new zealand?", W, "regions on our list"),
 ("tasting notes for the etna rosso pls", W, "tasting notes of our wine"),
 ("I know it's unusual but I'd like a red with the octopus. What would you pour?", W, "pairing our red with a seafood dish"),
 ("Do you have an alcohol-free wine?", W, "whether our list has one"),
 ("anything spanish under 40 euros a bottle", W, "country and price on our list"),
 ("Is the Chablis a premier cru, and which year is it?", W, "classification and vintage of our wine"),
 ("What wine would you recommend with the seafood linguine?", W, "which of our wines with a dish"),
 ("Do you have a Pinot Grigio?", W, "whether we pour a grape (we do not)"),
 ("is the malbec a big tannic one? my husband likes heavy reds", W, "style of our wine"),
 # --- search_web: the town and coast, local news and articles, and fresh, time-bound information
 ("is the ferry to isola verde running today", S, "ferry, today"),
 ("When is the harbour festival this year?", S, "local event"),
 ("We've come by car. Where can we park near the old town without getting fined?", S, "parking rules in town"),
 ("any beaches near here that are good for small kids?", S, "local beaches"),
 ("We're here for the weekend and we both dive. Can we dive the reef at Capo Nero on our own or do we need a dive centre?", S, "context first; diving off the coast"),
 ("where's the saturday market now, and what time does it start?", S, "the town market"),
 ("Is there a storm warning for tomorrow? We've booked a boat trip.", S, "storm warning, time-bound"),
 ("weather in porto calvera this weekend?", S, "weather, time-bound"),
 ("Can you visit Cantina del Faro for a tasting? Do they do tours?", S, "the valley's wine cooperative, not our list"),
 ("how did the grape harvest in the valley go this year", S, "the valley's harvest"),
 ("Is there a good bakery in town for breakfast pastries?", S, "bakeries in town"),
 ("Is the lighthouse open to visitors, and on which days?", S, "local sight's opening; not our restaurant"),
 ("how long does the cliff walk to capo nero take, and is it hard?", S, "walks on the coast"),
 ("are there any concerts on the pier this month", S, "concerts, time-bound"),
 ("How do I get from the train station down to the harbour?", S, "trains and buses to town"),
 ("what are red prawns going for at the fish market this week?", S, "the fish market and latest prices, not our risotto's price"),
 ("Is there a vegan café around here? We're looking for somewhere for breakfast tomorrow.", S, "new cafes in town, not our menu"),
 ("what's the euro to dollar rate today", S, "rates, fresh information"),
 ("who won the champions league match last night", S, "results, fresh information"),
 ("is any pharmacy open right now? my wife has a migraine", S, "what is open now"),
 # --- llm_fallback: needs none of our documents
 ("hi there!", F, "greeting"),
 ("thank you, that was a lovely evening, goodnight!", F, "chit-chat"),
 ("What's the difference between baking soda and baking powder?", F, "general cooking knowledge"),
 ("how is champagne made? the second fermentation in the bottle thing", F, "wine-making in general, not our list"),
 ("How do you say 'the bill, please' in Italian?", F, "translation"),
 ("Dinner came to 137 euros for 4 of us and we want to add 10% tip. How much does each person pay?", F, "maths with a restaurant bill"),
 ("write a python function that splits a bill evenly and rounds up to the next 50 cents", F, "coding"),
 ("Who painted The Birth of Venus?", F, "general knowledge"),
 ("Could you write a short poem about the sea for my wife's birthday card?", F, "writing task; the sea is not the town"),
 ("roughly how many calories are in an avocado", F, "general nutrition"),
 ("what does al dente actually mean", F, "cooking definition"),
 ("Why does salted water boil at a higher temperature?", F, "science with a kitchen word"),
 ("is a tomato a fruit or a vegetable", F, "general knowledge with a food word"),
 ("tell me a joke about fish", F, "chit-chat with a food word"),
 ("What are tannins in wine, chemically speaking?", F, "general wine knowledge, not our wines"),
 ("Explain the Maillard reaction like I'm five.", F, "food science"),
 ("are you a real person or a bot?", F, "chit-chat about the assistant"),
 ("When did the Western Roman Empire fall?", F, "history"),
 ("how do i make a risotto at home, just the basic steps", F, "general cooking technique, not our risotto"),
 ("convert 180 degrees celsius to fahrenheit for my oven", F, "maths"),
]


def build() -> str:
    counts = Counter(route for _, route, _ in ITEMS)
    assert len(ITEMS) == 80 and all(counts[r] == 20 for r in ROUTES), counts
    assert len({q for q, _, _ in ITEMS}) == len(ITEMS)
    items = [{"question": q, "route": route, "why": why} for q, route, why in ITEMS]
    return json.dumps(items, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    return set_writer(__doc__, build, PATH, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
