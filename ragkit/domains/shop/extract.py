"""Argument extractors for the shop's order tools: values taken only from what the user wrote, never made up.

Each order tool's spec names these functions (``UserArg.extract``), so the planner finds an order id or a
new address without knowing what an order is. An extractor reads one clause of the user's message and
returns what it found (a list for order ids, a string for the address) or nothing.

Simplifications: an order id is a letter and four digits (the shop's format: "1001" alone is not one); a
new address is the text after "address is"/"address:" or after the first "to" that follows the order id,
and it must look like an address (a digit or a comma in it), so "to my office" is asked about, not
guessed. The clause it reads has already been cut where the next request starts (see
:mod:`ragkit.offline.tool_requests`), so "1 High St, York and also track A1002" arrives here as
"1 High St, York"; an address written before the order id with no "to" ("5 Elm Road is my new
address") is not found.
"""

from __future__ import annotations

import re

ORDER_ID_IN_TEXT = re.compile(r"(?<![\w-])([A-Za-z]\d{4})(?![\w-])")

_ORDER_REF = r"(?:(?:my|the|this|that)\s+)?(?:order\s+)?[A-Za-z]\d{4}"
_AFTER_ADDRESS = re.compile(
    rf"\baddress(?:\s+(?:for|of|on)\s+{_ORDER_REF})?\s*(?:is|:|=|should\s+be|will\s+be|is\s+now)\s*([^\n]+)",
    re.IGNORECASE,
)
_AFTER_TO = re.compile(r"\bto\b\s*:?\s*([^\n]+)", re.IGNORECASE)  # an address is one line
_VERB_AFTER_TO = re.compile(r"(?:change|update|send|ship|deliver|move|redirect|have|get|be)\b", re.IGNORECASE)
_ORDER_SUFFIX = re.compile(rf"\s+(?:for|of|on)\s+{_ORDER_REF}\b.*$", re.IGNORECASE)
_TRAILING_WORDS = re.compile(
    r"[\s,.;:!?]*\b(?:and|also|then|instead|please|pls|plz|thanks|thank\s+you|too|as\s+well|to|now|asap|"
    r"for\s+me|if\s+possible|if\s+you\s+can)\s*$",
    re.IGNORECASE,
)
_EDGE = " \t\n.,;:!?\"'`()[]{}“”‘’"


def extract_order_ids(text: str) -> list[str]:
    """Order ids the user typed, in order, without repeats, exactly as typed (the store ignores case).

    >>> extract_order_ids("Is a1001 or A1002 (not A10033) shipped? a1001 again")
    ['a1001', 'A1002']
    """
    seen: dict[str, str] = {}
    for m in ORDER_ID_IN_TEXT.findall(text):
        seen.setdefault(m.upper(), m)
    return list(seen.values())


def clean_free_text(value: str) -> str:
    """Strip quotes, trailing punctuation and trailing joining words ("instead", "please") from a value.

    >>> clean_free_text('"12 High Street, Oxford" instead, please.')
    '12 High Street, Oxford'
    """
    value = value.strip(_EDGE)
    while True:
        shorter = _TRAILING_WORDS.sub("", value).strip(_EDGE)
        if shorter == value:
            return value
        value = shorter


def _looks_like_an_address(text: str) -> bool:
    return len(text) >= 5 and any(c.isalpha() for c in text) and (any(c.isdigit() for c in text) or "," in text)


def extract_address(text: str) -> str | None:
    """The new address: after "address is"/"address:", else after the first "to" that follows the order id.

    >>> extract_address("Please change the address of A1001 to 12 High Street, Oxford OX1 4AA.")
    '12 High Street, Oxford OX1 4AA'
    >>> extract_address("Ship a1003 to Marks and Spencer, 458 Oxford Street instead")
    'Marks and Spencer, 458 Oxford Street'
    >>> extract_address("change my address") is None, extract_address("send it to my office") is None
    (True, True)
    """
    m = _AFTER_ADDRESS.search(text)
    if not m:
        ids = list(ORDER_ID_IN_TEXT.finditer(text))
        anchor = re.search(r"\baddress\b", text, re.IGNORECASE)
        starts = sorted(x.end() for x in ids[:1] + ([anchor] if anchor else [])) + [0]
        for start in starts:
            m = _AFTER_TO.search(text, start)
            while m and _VERB_AFTER_TO.match(m.group(1)):  # "want to change ... to X": skip the infinitive
                m = _AFTER_TO.search(text, m.start(1))
            if m:
                break
    if not m:
        return None
    address = clean_free_text(_ORDER_SUFFIX.sub("", m.group(1).strip()))
    return address if _looks_like_an_address(address) else None
