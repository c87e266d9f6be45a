"""How guests ask about the menu and the wine list: the restaurant's words a query analyser must know.

English grammar (negation cues, comparatives, superlatives, price bounds) belongs to the analyser
(:mod:`ragkit.offline.query_analysis`); the data's fields and values are read from the documents. What is
left is this domain's own phrasing, passed to the analyser as :data:`MENU_WORDS`: words that name no
condition on a menu ("dish", "course", "served"), the currency, how a guest states an allergy ("allergic
to nuts", "a fish allergy", "I'm coeliac") and what a restaurant does ("do you serve ..."). An LLM analyser
is told what the data is with :data:`MENU_DESCRIPTION`.

>>> menu_query_analyzer(embedder=False).analyze("I'm allergic to nuts, which desserts can I eat?").describe()
'allergens do not include tree nuts and course is dessert'
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.domains.menu.corpus import menu_and_wines
from ragkit.offline.query_analysis import LocalQueryAnalyzer, QueryWords

MENU_WORDS = QueryWords(
    filler=frozenset("dish dishes food menu course courses eat drink cooked served serve sold sell order ordered "
                     "stock offer allowed suitable safe fine okay ok".split()),
    currency=frozenset("euro euros eur".split()),
    exclusion_cues=("allergic to", "allergy to", "allergic", "intolerant to", "intolerant of", "react to", "sensitive to"),
    exclusion_suffixes=frozenset({"allergy", "allergies", "intolerant", "intolerance"}),
    constraint_words=frozenset({"allergic", "react", "sensitive"}),
    self_description=("i'm", "i am", "we're", "we are", "i have", "we have"),
    offer_verbs=("serve", "offer", "sell", "stock"),
)
MENU_DESCRIPTION = ("a restaurant's data, its menu and its wine list (prices in euros); a guest 'allergic to X' or "
                    "'intolerant of X' wants the items whose allergens do not contain X")


def menu_query_analyzer(documents: Sequence[Document] | None = None,
                        embedder: Embeddings | None | bool = None) -> LocalQueryAnalyzer:
    """The local query analyser with the menu's words, over ``documents`` (default: every dish and wine)."""
    return LocalQueryAnalyzer(menu_and_wines() if documents is None else documents, MENU_WORDS, embedder=embedder)


__all__ = ["MENU_DESCRIPTION", "MENU_WORDS", "menu_query_analyzer"]
