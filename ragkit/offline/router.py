"""Routers: send a question to one of a few labelled destinations (menu search, web search, ...).

``LocalRouter`` is a nearest-prototype classifier with extra evidence from the routes' documents and
from the question's form. Every route is described by its description and example questions; each of
those texts is embedded once (a "prototype"). A question gets one score per route, the sum of four parts:

1. **prototypes** (k-nearest-neighbour style): the mean cosine similarity of the route's ``k`` most
   similar prototypes. A mean over a few neighbours is steadier than the single best match, which one
   odd example can win on its own.
2. **passages** (only for routes given ``documents``): ``passage_weight * (best - passage_bar)``, where
   ``best`` is the question's cosine similarity to the closest passage (a paragraph or one of its
   sentences) of the route's documents. A question about a dish or a grape we have is close to some
   passage; "What is umami?" is close to none, so every search route loses score and the fallback wins.
3. **terms** (only when ``documents`` are given): ``term_weight`` times the share of the question's
   rare-term weight that the route's documents explain. Each key term is weighted by its BM25 idf over
   all passages (a word in half the passages weighs nothing) and split between the routes whose
   documents contain it; a term that no document contains counts for the fallback route, because a
   concept none of our sources mention is evidence of a general question.
4. **signals** (only for routes that declare them in ``RouteSpec.serves``): ``signal_weights[name]``
   times the strength of a question-level signal of :data:`SIGNALS`: ``"fresh"`` (it asks for time-bound
   information: now, today, latest, news, rates; :func:`time_sensitivity`), ``"general"`` (it asks about
   things in general, not a particular item: "What is burrata made from?"; :func:`general_question`) and
   ``"ours"`` (it asks the service about its own things: "Have you got a Nebbiolo?", "Is the lamb
   spicy?"; :func:`ours_question`) and ``"compute"`` (arithmetic on numbers it gives: "What's 2 to the power
   of 20?"; :func:`computation`) and ``"execute"`` (it opens with a verb of running or measuring: "Time the
   search on 50k vectors"; :func:`execution`): the supervisor's code agent serves both. Which route serves which signal is the route table's choice;
   in a table where no route declares one, that signal changes nothing.

   The words of **our own items** ground two of them: the terms of the documents of the routes that serve
   ``"ours"`` (the menu and the wine list, not the web). A determiner that points at one of them ("the
   lamb") makes a question particular (``ours``); one that points at anything else ("the fridge") no
   longer stops it being general. Without such routes both read the question alone.

A route with ``templates`` and documents also gets **examples read from its data**: each template is
filled from each document's metadata (:func:`field_examples`: "Does the {title} contain {allergens}?"
gives one question per dish and allergen), so a question naming a dish and one of its attributes is near
the menu's prototypes even when no hand-written example mentions that dish.

The question goes to the best-scoring route, unless the decision is unsafe, in which case it goes to the
fallback route: the best score is below ``min_similarity``, or it beats the runner-up by less than
``margin``. The decision carries every route's score and the margin between the best two.

Its LLM counterpart, :class:`ragkit.roles.llm_routing.LLMRouter`, asks a chat model to choose. Other offline
roles are built on this router: the small-talk roles (:mod:`ragkit.offline.small_talk`), the question
classifier (:mod:`ragkit.offline.question_classifier`) and the supervisor (:mod:`ragkit.offline.supervisor`).

The defaults (:data:`ragkit.defaults.ROUTER`) were tuned on a dev set of routing questions; how, and what
else was tried, is in ``benchmarks/roles/README.md``.

Simplifications: no training (nothing is learned beyond the few constants above); paragraphs are split
on blank lines and sentences by a regular expression; the scores are similarities, not probabilities;
MiniLM knows little about rare names (a wine called "Banyuls"), so for those the term evidence does
most of the work. The signals are English word lists and question forms: a fresh question without a time
word ("Who is playing at the stadium?") gets no push, "Do you have oysters tonight?" gets one (the menu's
evidence and its ``ours`` signal must outweigh it), and a general question whose "the" lands on a word of
our items ("Why do cooks salt the pasta water?" when the menu has pasta) is not recognised as general. A
word that is in no document ("spicy" when the menu says "chilli") counts for the fallback; only MiniLM's sense of the whole question links the two. Quality still
rests on how well the route examples cover what users ask: to fix a systematic mistake, add an example to
the right route, then re-measure on the dev set. The ``ours`` signal reads a few English phrases of address
("do you have", "would you recommend", "your"); a question naming one of our items with no determiner
and no address ("Is Nebbiolo a heavy grape?") is neither ours nor, by its words alone, general.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import string
from collections import Counter
from typing import Callable, Collection, Mapping, Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import LUCENE_STOPWORDS, clean_query, key_terms, split_sentences, stem, tokenize, words
from ragkit.defaults import ROUTER
from ragkit.roles.router_protocols import RouteDecision, RouteSpec, check_routes


def passages(documents: Sequence[Document | str], what: str = "documents") -> list[str]:
    """The passages of Documents or strings: each paragraph (split on blank lines), then its sentences.

    A long paragraph (a wine with its grapes, prices and pairings) is a blurred match for a short
    question; its single sentences are sharp ones, so a paragraph of several sentences adds them too.

    >>> passages([Document(page_content="Lamb. 27.50 EUR."), "Ferries run daily.\\n\\nTrains.\\n"])
    ['Lamb. 27.50 EUR.', 'Lamb.', '27.50 EUR.', 'Ferries run daily.', 'Trains.']
    """
    if isinstance(documents, (str, Document)):
        raise TypeError(f"{what} must be a list of Documents or strings, not a single {type(documents).__name__}")
    out: list[str] = []
    for i, doc in enumerate(documents):
        text = doc.page_content if isinstance(doc, Document) else doc
        if not isinstance(text, str):
            raise TypeError(f"{what}[{i}] is a {type(doc).__name__}, not a Document or a string")
        for paragraph in (p.strip() for p in text.split("\n\n")):
            if paragraph:
                sentences = split_sentences(paragraph)
                out.extend([paragraph, *sentences] if len(sentences) > 1 else [paragraph])
    return out


def term_shares(terms: Sequence[str], frequencies: Mapping[str, Counter[str]], sizes: Mapping[str, int],
                fallback: str) -> dict[str, float]:
    """Share of the terms' idf weight that each route's passages explain (terms found nowhere: ``fallback``).

    ``frequencies[route][term]`` is the number of the route's passages that contain the term and
    ``sizes[route]`` the route's passage count. A term is split between routes in proportion to the
    share of each route's passages that contain it.

    >>> freq = {"menu": Counter({"lamb": 1, "fish": 4}), "web": Counter({"fish": 2, "ferri": 3})}
    >>> sizes = {"menu": 4, "web": 6}
    >>> {r: round(s, 2) for r, s in term_shares(["lamb", "umami"], freq, sizes, "other").items()}
    {'menu': 0.38, 'web': 0.0, 'other': 0.62}
    """
    total_docs = sum(sizes.values())
    shares = {name: 0.0 for name in [*frequencies, fallback]}
    total = 0.0
    for term in terms:
        counts = {name: freq[term] for name, freq in frequencies.items()}
        df = sum(counts.values())
        idf = max(0.0, math.log((total_docs - df + 0.5) / (df + 0.5)))  # BM25's idf: common words weigh 0
        if df == 0:
            shares[fallback] += idf
        else:
            rates = {name: counts[name] / sizes[name] for name in counts}
            norm = sum(rates.values())
            for name, rate in rates.items():
                shares[name] += idf * rate / norm
        total += idf
    return {name: (value / total if total else 0.0) for name, value in shares.items()}


# ---------------------------------------------------------------- time-bound and general questions
NOW_WORDS = frozenset("now today tonight tomorrow yesterday currently current latest recent recently nowadays "
                      "upcoming live ongoing yet".split())
NOW_PHRASES = ("at the moment", "at present", "these days", "so far", "up to date", "as of", "last night",
               *(f"{when} {span}" for when in ("this", "last", "next")
                 for span in ("week", "weekend", "month", "year", "season", "spring", "summer", "autumn", "winter")),
               *(f"this {part}" for part in ("morning", "afternoon", "evening")))
CHANGING_WORDS = frozenset("news headline headlines forecast weather score scores result results standings rate rates "
                           "traffic delay delays strike strikes".split())  # their value changes day to day
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b")
_ASKS_FOR_HELP = re.compile(r"\b(?:can|could|would|will) you (?:tell|help|explain|give|find|check|look)\b|\bdo you know\b"
                            r"|\bthank you\b")


def time_sensitivity(question: str) -> float:
    """1.0 for a question tied to the present (now, today, latest, this week ...), 0.5 for one that names
    something changing (news, weather, scores, rates), else 0.0; 0.0 too for one that asks "you" (a
    service) about itself, asking for help aside.

    >>> [time_sensitivity(q) for q in ("What's the weather like today?", "Any news from the port?", "Who wrote Hamlet?")]
    [1.0, 0.5, 0.0]
    >>> time_sensitivity("Do you have oysters tonight?"), time_sensitivity("Can you tell me if it rains today?")
    (0.0, 1.0)
    """
    text = f" {' '.join(words(question))} "
    if _SECOND_PERSON.search(_ASKS_FOR_HELP.sub(" ", text)):
        return 0.0
    found = set(text.split())
    if found & NOW_WORDS or any(f" {phrase} " in text for phrase in NOW_PHRASES):
        return 1.0
    return 0.5 if found & CHANGING_WORDS else 0.0


# The forms of a question about things in general (on folded words, "what's" and "whats" read as "what s").
_GENERAL_FORMS = re.compile(
    r"^(?:what (?:s|is|are|was|were) (?:an? )?(?!the |there )|what (?:s|is|are) the (?:difference|origin|history|meaning|best way) "
    r"|what (?:does|do|did) (?!you |i |we |the |your |our )|what (?:causes|makes|happens) |why "
    r"|how (?:do|does|did|is|are|can|should|would) |how (?:long|often) (?:should|do|does|can) "
    r"|how (?:many|much) \w+ (?:is|are) in an? |where (?:does|do|did) .*come from|who (?:invented|discovered|created) "
    r"|(?:is|are) (?:it )?.*(?:good|bad|healthy|unhealthy|safe) (?:for|to) |(?:is|are|does|do) an? )")
_RUN_ON = re.compile(r"\b(what|how|who|where|why)s\b")  # "whats" typed for "what's"
_PARTICULAR = re.compile(r"\b(?:your|yours|our|ours|here|tonight)\b|^(?:is|are) there\b")
_DETERMINERS = re.compile(r"\b(?:the|this|these|those)\b")
_POINTED = re.compile(r"\b(?:the|this|that|these|those) (\w+(?: \w+){0,2})")  # a determiner and the next three words
_GENERIC_PHRASES = re.compile(r"\bthe (?:difference|origin|history|meaning|best way)\b|\b(?:good|bad) for your?\b|\bin the world\b")


def _folded(question: str) -> str:
    return _RUN_ON.sub(r"\1 s", " ".join(words(question)))


def points_at(question: str, terms: Collection[str]) -> bool:
    """Whether a determiner (the, this, that, these, those) in the question introduces one of ``terms`` (stemmed
    words, :func:`ragkit.core.nlp.tokenize`) in its noun phrase: the next three words, up to the first function
    word ("the capital of France" is about a capital, not France). "the lamb" points at a thing of a corpus that
    holds "lamb", "the fridge" does not. Set phrases ("the difference between") never point.

    >>> points_at("How long do you roast the lamb for?", {"lamb"}), points_at("Does it keep in the fridge?", {"lamb"})
    (True, False)
    >>> points_at("What is the capital of France?", {"franc"}), points_at("Is the grilled octopus fresh?", {"octopu"})
    (False, True)
    """
    text = _GENERIC_PHRASES.sub(" ", _folded(question))
    return any(stem(w) in terms for m in _POINTED.finditer(text) for w in _phrase_head(m.group(1).split()))


def _phrase_head(following: list[str]) -> list[str]:
    """The words of a determiner's noun phrase: those before the first function word."""
    out = []
    for word in following:
        if word in LUCENE_STOPWORDS:
            break
        out.append(word)
    return out


def general_question(question: str, terms: Collection[str] | None = None) -> bool:
    """Whether a question asks about things in general (what a kind of thing is, why or how something happens),
    read from its form and determiners, not about a particular item ("your", "here") or the present.

    Without ``terms`` every determiner marks a particular ("How do you cook the monkfish?"), so a general
    question that says "the" ("Why do cooks salt the pasta water?") is missed. With ``terms`` (the stemmed
    words of the documents of our own items; a :class:`LocalRouter` passes them), a determiner marks a
    particular only when it points at one of them (:func:`points_at`): "How long does wine keep in the
    fridge?" is general, "How long do you roast the lamb?" is not. It cannot tell a general question that
    names one of our items without a determiner ("Is Nebbiolo a heavy grape?") from one about ours.

    >>> [general_question(q) for q in ("Why do oysters make pearls?", "How do I poach an egg?", "Where does your lamb come from?")]
    [True, True, False]
    >>> general_question("How long does wine keep in the fridge?"), general_question("How long does wine keep in the fridge?", {"lamb"})
    (False, True)
    """
    text = _folded(question)
    if not _GENERAL_FORMS.match(text) or _PARTICULAR.search(_GENERIC_PHRASES.sub(" ", text)):
        return False
    particular = _DETERMINERS.search(_GENERIC_PHRASES.sub(" ", text)) if terms is None else points_at(question, terms)
    return not particular and time_sensitivity(question) < 1.0


# How a guest asks a service about its own things: what it holds, what it would choose, what one can have.
_ASKS_THE_SERVICE = re.compile(
    r"\b(?:your|yours|our|ours|here|tonight)\b|\b(?:do|does|did) you (?:have|serve|sell|offer|stock|carry)\b|\bhave you got\b"
    r"|\b(?:would|do|could|can) you (?:suggest|recommend|pick|choose)\b|\b(?:can|could|may) (?:i|we) (?:have|get|order|book)\b")


def ours_question(question: str, terms: Collection[str] = frozenset()) -> float:
    """1.0 for a question about the service's own things, else 0.0: it says your, our, here or tonight, asks
    what the service holds ("do you have", "have you got"), what it would pick ("would you recommend") or what
    one can have ("can I get"), or points with a determiner at one of ``terms`` (the stemmed words of the
    documents of the routes that serve this signal; a :class:`LocalRouter` passes them; :func:`points_at`).

    The impersonal "you" ("How do you peel a peach?") is not an address. It cannot see ownership that is only
    implied ("Is there a starter without gluten?") or a general question that says "the" before one of our
    items' words ("What is the origin of the panna cotta?"); the other evidence must carry those.

    >>> [ours_question(q) for q in ("Have you got a Nebbiolo?", "How do you peel a peach?", "Is Nebbiolo heavy?")]
    [1.0, 0.0, 0.0]
    >>> ours_question("Is the burrata creamy?"), ours_question("Is the burrata creamy?", {"burrata"})
    (0.0, 1.0)
    """
    return float(bool(_ASKS_THE_SERVICE.search(_folded(question))) or points_at(question, terms))


# Arithmetic on numbers the text gives: an expression ("37 * 91 - 4", "1/61 + 1/62", "2^10", "3 - 1", "7 / 2"; not
# "50/50", "30-40%" or a date), a number's factorial, root or power ("17!", "17 factorial", "2 to the power of 20").
_ARITHMETIC = re.compile(
    r"\d\s*(?:\*\*|[+*^\u00d7\u00f7])\s*\(?\s*[\d.]|\d\s+[-/]\s+\d|\b\d+\s*!|\b\d+\s+(?:factorial|squared|cubed)\b"
    r"|\b(?:square|cube) root of\s+\d|\b\d+(?:\.\d+)?\s+to the power of\s+\d", re.IGNORECASE)


def computation(question: str) -> float:
    """1.0 when the text asks for arithmetic on numbers it gives (an expression, or a number's factorial, root or
    power), else 0.0: work for a route that computes. It cannot see a computation said in words only ("the mean
    of my three scores") or as an unspaced fraction ("3/4 of 120": a ratio or a date to it), or tell a quoted
    formula from one to evaluate.

    >>> [computation(q) for q in ("What's 2 to the power of 20?", "How much is 17 factorial?", "what's 1/61 + 1/62",
    ...                           "Recall went from 0.61 to 0.64", "Lost 30-40% by 2026-12-04", "a 50/50 split")]
    [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    """
    return float(bool(_ARITHMETIC.search(question)))


# A request that opens with a verb of running or measuring, after a greeting, politeness or address ("Hey, can you
# time ...", "please run ..."); "time"/"measure"/"plot"/"run" followed by a word that makes them a noun do not count.
_EXECUTION = re.compile(
    r"^(?:(?:hey|hi|hello|hiya|ok|okay|so|now)\b[\s,:;!.)(-]*)?(?:(?:please|pls|plz|kindly)\s+)?"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?)?(?:just\s+|also\s+)?"
    r"(?:run|rerun|execute|time|measure|benchmark|profile|simulate|compute|calculate|calc|plot)\b"
    r"(?!\s+(?:of|is|was|are|were|to|for|per|complexity|budget|limit|limits|window|series|zone|through|out|time)\b)"
    r"(?![-'])", re.IGNORECASE)


def execution(question: str) -> float:
    """1.0 when the text opens with an imperative verb of running or measuring (run, execute, time, measure,
    benchmark, profile, simulate, compute, calculate, plot), after a greeting, "please" or "can you", else 0.0: work
    for a route that runs code. It reads the opening verb only, so a run asked for later in the text ("..., and
    measure recall") is not seen, nor one worded otherwise ("how long does X take on my laptop?"); a noun use at
    the front is excluded only when one of a few words follows ("time complexity", "measure of").

    >>> [execution(q) for q in ("Time IndexFlatIP on 50k vectors", "Hey, can you run this snippet?",
    ...                         "Time complexity of HNSW?", "Explain how to run a benchmark", "please measure it")]
    [1.0, 1.0, 0.0, 0.0, 1.0]
    """
    return float(bool(_EXECUTION.match(question.strip())))


SIGNALS: dict[str, Callable[[str], float]] = {"fresh": time_sensitivity, "general": general_question, "ours": ours_question,
                                              "compute": computation, "execute": execution}
# Signals that read our own items' words when a router has them (see LocalRouter): name -> its function.
GROUNDED_SIGNALS: dict[str, Callable[[str, Collection[str]], float]] = {"general": general_question, "ours": ours_question}


def field_examples(templates: Sequence[str], documents: Sequence[Document | str]) -> list[str]:
    """Example questions read from documents' metadata: each template filled with each document's fields.

    A list-valued field gives one question per value; a document without a field (or a plain string) skips
    the template; repeats are dropped.

    >>> dish = Document(page_content="", metadata={"title": "Fish soup", "allergens": ["fish", "celery"], "price": 9.5})
    >>> field_examples(["Does the {title} contain {allergens}?", "Is the {title} {dietary}?"], [dish])
    ['Does the Fish soup contain fish?', 'Does the Fish soup contain celery?']
    """
    out: dict[str, None] = {}
    for template in templates:
        fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        for doc in documents:
            meta = doc.metadata if isinstance(doc, Document) else {}
            values = [meta.get(name) for name in fields]
            if any(v is None or v == "" or v == [] for v in values):
                continue
            for combo in itertools.product(*(v if isinstance(v, list) else [v] for v in values)):
                out.setdefault(template.format(**dict(zip(fields, combo))), None)
    return list(out)


class LocalRouter:
    """k-nearest-prototype router with optional corpus evidence and a fallback margin (see module docs).

    >>> router = LocalRouter([RouteSpec("menu", "dishes, prices and allergens of the restaurant menu"),
    ...                       RouteSpec("other", "anything else")], fallback="other")  # doctest: +SKIP
    >>> router.route("How much is the lamb?").route  # doctest: +SKIP
    'menu'

    ``documents`` maps route names to the documents that route searches (for example the menu for
    ``search_menu``); without it the router uses the prototypes alone. ``confidence`` is the chosen
    route's score (a similarity, not a probability); ``scores`` holds every route's score and ``margin``
    the gap between the best and the runner-up (also in ``note``); ``fallback`` is true when a bar or the
    margin sent the question to the fallback route. ``signal_weights`` (default
    :data:`ragkit.defaults.ROUTER`) weigh the :data:`SIGNALS` that routes declare in ``serves``.
    """

    def __init__(
        self,
        routes: Sequence[RouteSpec],
        fallback: str | None = None,
        embedder: Embeddings | None = None,
        margin: float = ROUTER.margin,
        min_similarity: float = ROUTER.min_similarity,
        k: int = ROUTER.k,
        documents: Mapping[str, Sequence[Document | str]] | None = None,
        passage_weight: float = ROUTER.passage_weight,
        passage_bar: float = ROUTER.passage_bar,
        term_weight: float = ROUTER.term_weight,
        signal_weights: Mapping[str, float] | None = None,
        signals: Mapping[str, Callable[[str], float]] = SIGNALS,
    ):
        self.routes, self.fallback = check_routes(routes, fallback)
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        self.embedder = embedder if embedder is not None else load_embedder()
        self.margin, self.min_similarity, self.k = margin, min_similarity, k
        self.passage_weight, self.passage_bar, self.term_weight = passage_weight, passage_bar, term_weight
        self.signals = dict(signals)
        self.signal_weights = dict(ROUTER.signal_weights if signal_weights is None else signal_weights)
        for spec in self.routes:
            unknown = sorted(set(spec.serves) - set(self.signals))
            if unknown:
                raise ValueError(f"route {spec.name!r} serves {unknown}, which are not signals; use some of {sorted(self.signals)}")
        names = [spec.name for spec in self.routes]
        documents = documents or {}
        texts: list[str] = []
        owners: list[int] = []
        for i, spec in enumerate(self.routes):
            read = field_examples(spec.templates, documents.get(spec.name, ()))
            for text in ([spec.description] if spec.description.strip() else []) + list(spec.examples) + read:
                texts.append(text)
                owners.append(i)
        self._prototypes = embed(self.embedder, texts)
        self._owners = np.asarray(owners)
        # Corpus evidence: each route's passages, embedded once, and which terms they contain.
        self._passages: dict[str, np.ndarray] = {}
        self._frequencies: dict[str, Counter[str]] = {}
        self._sizes: dict[str, int] = {}
        for name, docs in documents.items():
            if name not in names:
                raise ValueError(f"documents were given for {name!r}, which is not one of the routes {names}")
            parts = passages(docs, what=f"documents[{name!r}]")
            if not parts:
                raise ValueError(f"documents[{name!r}] holds no text; give the route's documents or leave it out")
            self._passages[name] = embed(self.embedder, parts)
            self._frequencies[name] = Counter(term for part in parts for term in set(tokenize(part)))
            self._sizes[name] = len(parts)
        # Our own items' words: the terms of the documents of the routes that serve "ours". A grounded signal
        # (GROUNDED_SIGNALS) reads them to tell "the lamb" (one of ours) from "the fridge" (anything).
        own = frozenset(term for spec in self.routes if "ours" in spec.serves for term in self._frequencies.get(spec.name, ()))
        if own:
            self.signals = {name: (functools.partial(signal, terms=own) if GROUNDED_SIGNALS.get(name) is signal else signal)
                            for name, signal in self.signals.items()}

    def explain(self, question: str) -> dict[str, dict[str, float]]:
        """Each route's score and its parts (``prototypes``, ``passages``, ``terms``, ``signals``), by route name."""
        question = clean_query(question, what="question")
        vector = embed(self.embedder, [question])[0]
        sims = self._prototypes @ vector
        shares = (term_shares(key_terms(question), self._frequencies, self._sizes, self.fallback)
                  if self._frequencies else {})
        strengths = {name: float(signal(question)) for name, signal in self.signals.items()
                     if any(name in spec.serves for spec in self.routes)}
        out: dict[str, dict[str, float]] = {}
        for i, spec in enumerate(self.routes):
            mine = np.sort(sims[self._owners == i])[::-1]
            parts = {"prototypes": float(mine[: self.k].mean()), "passages": 0.0, "terms": 0.0}
            if spec.name in self._passages:
                best = float((self._passages[spec.name] @ vector).max())
                parts["passages"] = self.passage_weight * (best - self.passage_bar)
            parts["terms"] = self.term_weight * shares.get(spec.name, 0.0)
            parts["signals"] = float(sum(self.signal_weights.get(name, 0.0) * strengths[name] for name in spec.serves))
            parts["score"] = parts["prototypes"] + parts["passages"] + parts["terms"] + parts["signals"]
            out[spec.name] = parts
        return out

    def scores(self, question: str) -> dict[str, float]:
        """The score of each route for a question, by route name (what ``route`` compares)."""
        return {name: parts["score"] for name, parts in self.explain(question).items()}

    def route(self, question: str) -> RouteDecision:
        scores = self.scores(question)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        best, best_score = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
        gap = best_score - runner_up
        shown = {"scores": scores, "margin": gap}
        if best_score < self.min_similarity:
            return RouteDecision(self.fallback, best_score, f"no route is close (best {best} {best_score:.2f})",
                                 fallback=best != self.fallback, **shown)
        if gap < self.margin and best != self.fallback:
            return RouteDecision(self.fallback, best_score, f"{best} vs {ranked[1][0]} too close (gap {gap:.3f} < "
                                 f"{self.margin})", fallback=True, **shown)
        return RouteDecision(best, best_score, f"nearest route {best} ({best_score:.2f}, gap {gap:.2f})", **shown)
