"""Split a user's message into its requests, and tell which ones the user declines.

"Change the address of A1001 to 1 High St, York and also track A1002" holds two requests; "Please don't
cancel A1001, just tell me what is in it" holds a declined one and a wanted one. A planner that fills
arguments from the whole message gets both wrong, so :func:`split_requests` cuts the message first:

1. Sentences: :func:`ragkit.core.nlp.split_sentences` with ``chat=True`` (at ``.``/``!``/``?`` before a
   space, not after an abbreviation such as "St."; at ``;`` and at line breaks).
2. Inside a sentence, a candidate cut sits at a comma, a dash, a joining word ("and", "then", "also",
   "as well as", "but", "just", "please", "I"), after a number ("A1014 send it to ...") or at a negation
   cue. A candidate is cut only when what follows opens a new request: after skipping joining and
   politeness words ("and also could you ..."), the next word is an action word of one of the tools (read
   from their example phrases by the caller), an asking word ("where", "what", "has"), a request verb
   ("show", "tell") or a negation cue, written in lower case. So "Marks and Spencer, 458 Oxford Street"
   and "A1002 as well as A1004" stay whole, while "..., York and also track A1002" is cut before "track".
3. Each clause is read for negation (NegEx-style, with the cue groups below, :data:`NEGATORS` to
   :data:`RETRACTIONS`): a cue
   declines the clause's action when an action word follows within four words ("I no longer want to
   cancel"); "I don't know where it is" declines nothing ("know" names no action), nor does "it has not
   shipped" (a "not" after "has", "is", ... states a fact). A clause that is only a retraction ("never
   mind", "forget it") takes back the request before it; "it", "them", "too" refer back.

What it cannot do: it reads English cue words, not syntax, so negation written after the action
("cancelling it is not what I want"), double negatives, sarcasm, or a request that starts with a
capitalised verb in mid-sentence ("..., Track A1002") are missed; an address whose words look like a new
request in lower case ("to 1 high st, where lane") is cut there. A planner must still ask when unsure,
and the guards, not this module, are what keep a tool loop safe.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ragkit.core.nlp import split_sentences, stem
from ragkit.defaults import TOOL_PLANNER

# The negation cues of a request, in groups (English, matched with phrase_pattern).
NEGATORS = ("not", "without")  # negate the action or value after them
NEGATED_AUXILIARIES = ("don't", "doesn't", "didn't", "won't")
WITHDRAWALS = ("never mind", "nevermind", "no longer", "no need to", "instead of", "rather than", "forget",
               "forget about", "hold off", "hold off on", "skip", "scratch")  # set an action aside
RETRACTIONS = ("never mind", "nevermind", "forget it", "forget that", "forget about it", "forget about that",
               "scratch that", "don't", "didn't", "don't do it", "don't do that", "didn't do it",
               "didn't do that")  # a whole reply that takes back what was just asked
APOSTROPHE = "['\u2019]"  # straight or curly


def phrase_pattern(phrases: Sequence[str]) -> str:
    """A regular expression (no flags) for any of ``phrases``, longest first, words apart by any white space;
    a contraction in "n't" also matches written out, run together or with a curly apostrophe.

    >>> pattern = re.compile(rf"\\b(?:{phrase_pattern(NEGATED_AUXILIARIES)})\\b", re.IGNORECASE)
    >>> [bool(pattern.fullmatch(t)) for t in ("don't", "do not", "dont", "Don\u2019t", "do")]
    [True, True, True, True, False]
    """
    def one(phrase: str) -> str:
        return r"\s+".join(rf"{re.escape(w[:-3])}\s*n(?:o|{APOSTROPHE})?t" if w.endswith("n't") else re.escape(w)
                           for w in phrase.split())

    return "|".join(one(p) for p in sorted(dict.fromkeys(phrases), key=len, reverse=True))


NEGATION_CUE = re.compile(rf"\b(?:{phrase_pattern((*NEGATED_AUXILIARIES, *WITHDRAWALS, *NEGATORS))})\b", re.IGNORECASE)
_RETRACTION = re.compile(
    rf"^\W*(?:(?:oh|ok|okay|no|sorry|actually|wait|hmm|please|on\s+second\s+thought)\W+)*"
    rf"(?:{phrase_pattern(RETRACTIONS)})(?:\s+(?:it|that|this))?\W*(?:(?:then|after\s+all|please)\W*)*$",
    re.IGNORECASE,
)
_CANDIDATE = re.compile(
    rf",|\s[-\u2013\u2014]+\s|\b(?:and|then|also|plus|but|as\s+well\s+as|after\s+that|afterwards|just|please)\b|"
    rf"(?P<i>(?-i:\bI\b))|(?P<number>(?<=\d)\s+)|(?={NEGATION_CUE.pattern})",
    re.IGNORECASE,
)
_LEADING_JOINERS = re.compile(
    r"^(?:[\s,;:\-\u2013\u2014]+|(?:and|then|also|plus|but|so|or|as\s+well\s+as|after\s+that|afterwards)\b)+",
    re.IGNORECASE,
)
_WORD = re.compile(rf"[A-Za-z0-9]+(?:{APOSTROPHE}[A-Za-z]+)?")
# Words skipped when looking for the word that opens a request: politeness, pronouns, modals (English, closed-class).
SKIPPED = frozenset(
    "just please kindly now finally lastly additionally actually oh ok okay i i'd i'm i'll id im we we'd you can "
    "could would will me us know want wanna like need to do also then maybe perhaps hey hi hello thanks too really "
    "only simply instead rather so the a an my its your our".split()
)
# Words that open a request asked as a question ("where is ...", "has it shipped"); not core.nlp.QUESTION_WORDS.
ASKING_WORDS = frozenset("what what's whats where where's wheres when which how has have is are was does did".split())
REQUEST_VERBS = frozenset("show tell give list find check let".split())
_NEGATABLE_VERBS = frozenset(stem(w) for w in ("show", "tell", "give", "list"))
# "has not shipped", "is not here": a "not" after these states a fact, it declines nothing.
_STATIVE_BEFORE_NOT = frozenset("has have had is are was were been be am can could it's that's".split())
# "so I can check it", "because I moved": a clause these open explains the request, it is not a new one.
SUBORDINATORS = frozenset("so because since as if when while until that than".split())
_CONTRAST = re.compile(r"^(?:\S+\s+){0,2}?(?:just|but|instead|rather|only|simply)\b", re.IGNORECASE)
_REFERS_BACK = re.compile(
    rf"\b(?:it|its|it{APOSTROPHE}s|itself|them|they|their|both|same|too|either|that|this|those|these|as\s+well)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RequestClause:
    """One request-sized piece of a message and what its wording says about it."""

    text: str
    negated: bool = False  # a negation cue scopes over an action word: "don't cancel", "without tracking"
    retracts: bool = False  # only "never mind" / "forget it" / "don't": takes back the request before
    cue: bool = False  # holds a negation cue at all ("not A1004" rules out a value, not an action)
    contrast: bool = False  # opens with "just"/"but"/"instead": an alternative to what came before
    refers_back: bool = False  # "it", "them", "too", "that one": points at an earlier clause's values


def opens_request(text: str, action_words: Collection[str], capitals: bool = False, questions: bool = True) -> bool:
    """Does ``text`` begin a new request (after joining and politeness words)?

    Mid-sentence, a capitalised word starts a name or an address, not a request; ``capitals=True``
    is for text that starts a sentence. ``questions=False`` counts only action and request verbs in
    their plain form (after a number, "where my parcel A1004 is" and "has A1019 shipped" stay whole).

    >>> opens_request("and also could you track A1002", {"track"}), opens_request(", York and Co", {"track"})
    (True, False)
    >>> opens_request(" as well as A1004", {"track"}), opens_request(", not A1004", {"track"})
    (False, True)
    """
    rest = _LEADING_JOINERS.sub("", text)
    for i, m in enumerate(_WORD.finditer(rest)):
        if i >= 6:
            return False
        if NEGATION_CUE.match(rest, m.start()):
            return True
        word = m.group().replace("\u2019", "'")
        low = word.lower()
        if low in SKIPPED:
            continue
        if word[0].isupper() and not (capitals and i == 0):  # mid-sentence capitals start names, not requests
            return False
        if not questions:
            return (low in REQUEST_VERBS or stem(low) in action_words) and not re.search(r"(?:ed|ing)$", low)
        return low in ASKING_WORDS or low in REQUEST_VERBS or stem(low) in action_words
    return False


def request_core(text: str) -> str:
    """The request without the joining and politeness words it opens with.

    >>> request_core("and I just want to know where it is")
    'where it is'
    """
    rest = _LEADING_JOINERS.sub("", text)
    for m in _WORD.finditer(rest):
        if m.group().replace("\u2019", "'").lower() not in SKIPPED | {"tell", "let"}:
            return rest[m.start() :].strip()
    return ""


def _negated(text: str, action_words: Collection[str]) -> bool:
    for cue in NEGATION_CUE.finditer(text):
        before = _WORD.findall(text[: cue.start()])
        if cue.group().lower() == "not" and before and before[-1].lower().replace("\u2019", "'") in _STATIVE_BEFORE_NOT:
            continue
        after = re.split(r"[,;:.!?]", text[cue.end() :], maxsplit=1)[0]
        for word in _WORD.findall(after)[:TOOL_PLANNER.negation_window]:
            if any(c.isdigit() for c in word):
                break
            if stem(word.lower()) in action_words or stem(word.lower()) in _NEGATABLE_VERBS:
                return True
    return False


def rules_out(text: str, value: str, nouns: Collection[str] = ()) -> bool:
    """Does ``text`` rule this value out ("not A1004", "except order A1004")? ``nouns`` may stand before it.

    >>> rules_out("Cancel both, not order A1004", "A1004", {"order"}), rules_out("Do not cancel A1005", "A1005")
    (True, False)
    """
    before = "".join(rf"(?:{re.escape(w)}\s+)?" for w in ("the", "my", *nouns))
    return re.search(rf"\b(?:not|except|apart\s+from|other\s+than)\s+{before}{re.escape(value)}(?!\w)", text,
                     re.IGNORECASE) is not None


def read_clause(text: str, action_words: Collection[str]) -> RequestClause:
    """A ``RequestClause`` for one piece of text: its negation, retraction, contrast and back-reference marks.

    >>> c = read_clause("I no longer want to cancel it", {"cancel"})
    >>> c.negated, c.refers_back, read_clause("I don't know where it is", {"cancel", "track"}).negated
    (True, True, False)
    """
    return RequestClause(
        text=text,
        negated=_negated(text, action_words),
        retracts=bool(_RETRACTION.match(text)),
        cue=bool(NEGATION_CUE.search(text)),
        contrast=bool(_CONTRAST.match(text)),
        refers_back=bool(_REFERS_BACK.search(text)),
    )


def split_requests(text: str, action_words: Collection[str]) -> list[RequestClause]:
    """Cut a message into request-sized clauses (see the module docstring); ``action_words`` are stems.

    >>> [c.text for c in split_requests("Change A1001 to 1 High St, York and also track A1002", {"chang", "track"})]
    ['Change A1001 to 1 High St, York', 'track A1002']
    >>> [(c.text, c.negated) for c in split_requests("Please don't cancel A1001, just tell me what is in it", {"cancel"})]
    [('Please', False), ("don't cancel A1001", True), ('just tell me what is in it', False)]
    """
    clauses: list[RequestClause] = []
    for sentence in split_sentences(text, chat=True):
        cuts = [0]
        inside_cue = [(m.start(), m.end()) for m in NEGATION_CUE.finditer(sentence)]
        for m in _CANDIDATE.finditer(sentence):
            if any(a < m.start() < b for a, b in inside_cue):  # "do not": no cut before "not"
                continue
            before = _WORD.findall(sentence[: m.start()])
            if m.group("i") and before and before[-1].lower() in SUBORDINATORS:  # "so I can check"
                continue
            if m.start() > cuts[-1] and opens_request(sentence[m.start() :], action_words, questions=not m.group("number")):
                cuts.append(m.start())
        for a, b in zip(cuts, [*cuts[1:], len(sentence)]):
            piece = _LEADING_JOINERS.sub("", sentence[a:b]).strip(" ,;:")
            if _WORD.search(piece):
                clauses.append(read_clause(piece, action_words))
    return clauses
