"""A document graph from titles and shared rare names, for graph retrieval over any titled paragraphs.

Wikipedia-style corpora (MuSiQue, HotpotQA) link their paragraphs through names: the paragraph about a
song names its singer, and the singer's paragraph holds the next fact. Without an LLM to extract
entities (as HippoRAG does), a simple general heuristic finds the names:

- a *name* is a maximal run of capitalised words (split on spaces; a run breaks at punctuation, except
  the dot of a one-letter initial, so "G. Stanley Hall" is one run), with leading *common* words
  dropped ("The Beatles" -> "Beatles"). A word is common when the corpus has it in lower case at least
  as often as capitalised ("However", "During", "The"); a one-word name that is common is no name;
- every document's title (without a trailing "(disambiguation)" in brackets) is a name too;
- a document *mentions* a name when the name's words occur in it as consecutive words (case-sensitive),
  so "Stanley Hall" in "G. Stanley Hall" counts if "Stanley Hall" is a name somewhere in the corpus;
- a name is *rare* when 2 <= df <= ``max_df`` documents mention it (default ``sqrt(N)``, N the corpus
  size): a name in every tenth document links nothing in particular.

Edges:

- ``"entity"`` (both directions): every pair of documents mentioning the same rare name, weighted by the
  sum over shared names of ``log(N / df)``; the edge lists the shared ``names``;
- ``"title"`` (one direction): from a document to every document whose title it mentions, weighted
  ``title_weight * log(N / df)`` of that title; titles are capped by ``title_max_df`` (default: no cap,
  so a frequently mentioned page such as a country is still reachable, with a small weight).

An edge of both kinds adds the two weights.

Simplifications: no coreference ("he", "the band"), no aliases ("NYC"), no names in lower case
("the beatles") and lower-case connectors split names ("University of Copenhagen" gives "University"
and "Copenhagen"); a name made of several shorter names also counts as each of them; the rarity cap
drops hubs, including a frequent name that was the needed link.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

import networkx as nx
from langchain_core.documents import Document

from ragkit.core.graph_retriever import document_graph
from ragkit.core.search import doc_key

_WORD = re.compile(r"\S+")
_STRIP = "\"'“”‘’`()[]{},;:!?.«»"
_BRACKET = re.compile(r"\s*\([^()]{0,80}\)\s*$")
MAX_NAME_WORDS = 8


def split_words(text: str) -> list[tuple[str, bool]]:
    """Words stripped of punctuation, each with whether a name may continue after it.

    >>> split_words("G. Stanley Hall, a psychologist.")
    [('G', True), ('Stanley', True), ('Hall', False), ('a', True), ('psychologist', False)]
    """
    out = []
    for raw in _WORD.findall(text):
        word = raw.strip(_STRIP)
        if not word:
            continue
        tail = raw[len(raw.rstrip(_STRIP)):]
        initial = len(word) == 1 and word.isalpha() and tail == "."
        out.append((word, not tail or initial))
    return out


def common_words(texts: Iterable[str]) -> set[str]:
    """Lower-cased words the texts use in lower case at least as often as capitalised.

    >>> sorted(common_words(["However it rained. It rained, however, in Paris.", "paris"]))
    ['however', 'in', 'it', 'paris', 'rained']
    """
    lower: Counter[str] = Counter()
    upper: Counter[str] = Counter()
    for text in texts:
        for word, _ in split_words(text):
            if word[:1].isupper():
                upper[word.lower()] += 1
            elif word[:1].isalpha():
                lower[word] += 1
    return {w for w in set(lower) | set(upper) if lower[w] >= upper[w]}


def capitalised_names(text: str, common: set[str]) -> list[str]:
    """Maximal runs of capitalised words, leading common words dropped (see the module docstring).

    >>> capitalised_names("The Beatles met G. Stanley Hall in Paris. However, Hall left.", {"the", "however", "in"})
    ['Beatles', 'G Stanley Hall', 'Paris', 'Hall']
    """
    names, run = [], []

    def close() -> None:
        while run and run[0].lower() in common:
            run.pop(0)
        if run and not (len(run) == 1 and run[0].lower() in common):
            names.append(" ".join(run[:MAX_NAME_WORDS]))
        run.clear()

    for word, continues in split_words(text):
        if word[:1].isupper():
            run.append(word)
            if not continues:
                close()
        else:
            close()
    close()
    return names


def title_name(title: str) -> str:
    """A title as a name: its words, without a final bracketed qualifier.

    >>> title_name("Hello Love (song)")
    'Hello Love'
    """
    return " ".join(w for w, _ in split_words(_BRACKET.sub("", title)))


def names_in(text: str, names: set[tuple[str, ...]], longest: int) -> set[tuple[str, ...]]:
    """The names (word tuples) whose words occur consecutively in ``text``.

    >>> sorted(names_in("Snow moved to Nashville, Tennessee.", {("Tennessee",), ("Hank", "Snow")}, 2))
    [('Tennessee',)]
    """
    words = [w for w, _ in split_words(text)]
    found = set()
    for i in range(len(words)):
        for n in range(1, min(longest, len(words) - i) + 1):
            gram = tuple(words[i : i + n])
            if gram in names:
                found.add(gram)
    return found


def build_entity_graph(docs: Sequence[Document], title_field: str = "title", max_df: int | None = None,
                       title_weight: float = 1.0, title_max_df: int | None = None) -> nx.DiGraph:
    """The title-and-shared-name graph of ``docs`` (see the module docstring for the rules)."""
    docs = list(docs)
    graph = document_graph(docs)
    n_docs = len(docs)
    cap = max(2, round(math.sqrt(n_docs))) if max_df is None else max_df
    title_cap = n_docs if title_max_df is None else title_max_df
    common = common_words(d.page_content for d in docs)
    titles = [tuple(title_name(str(d.metadata.get(title_field) or "")).split()) for d in docs]
    vocabulary: set[tuple[str, ...]] = {t for t in titles if t}
    for doc in docs:
        vocabulary.update(tuple(name.split()) for name in capitalised_names(doc.page_content, common))
    longest = max((len(v) for v in vocabulary), default=1)
    mentioned = []
    for doc, title in zip(docs, titles):
        found = names_in(doc.page_content, vocabulary, longest)
        if title:
            found.add(title)
        mentioned.append(found)
    df = Counter(name for found in mentioned for name in found)
    edges: dict[tuple[int, int], dict] = defaultdict(lambda: {"kinds": set(), "names": [], "weight": 0.0})
    holders: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, found in enumerate(mentioned):
        for name in found:
            if 2 <= df[name] <= cap:
                holders[name].append(i)
    for name in sorted(holders):
        idf = math.log(n_docs / df[name])
        for a, b in itertools.permutations(holders[name], 2):
            edge = edges[(a, b)]
            edge["kinds"].add("entity")
            edge["names"].append(" ".join(name))
            edge["weight"] += idf
    by_title: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for j, title in enumerate(titles):
        if title:
            by_title[title].append(j)
    for a, found in enumerate(mentioned):
        for title in sorted(found & by_title.keys()):
            if title == titles[a] or df[title] > title_cap:
                continue
            for b in by_title[title]:
                edge = edges[(a, b)]
                edge["kinds"].add("title")
                edge["weight"] += title_weight * math.log(n_docs / df[title])
    keys = [doc_key(d) for d in docs]
    for (a, b), edge in sorted(edges.items()):
        if edge["weight"] > 0:
            kinds = tuple(k for k in ("entity", "title") if k in edge["kinds"])
            graph.add_edge(keys[a], keys[b], kinds=kinds, names=tuple(edge["names"]), weight=edge["weight"])
    graph.graph.update(max_df=cap, title_max_df=title_cap, names=len(vocabulary), rare_names=len(holders))
    return graph


__all__ = ["build_entity_graph", "capitalised_names", "common_words", "names_in", "split_words", "title_name"]
