"""Regression tests on made-up passages: a question's slot (who, a named symbol) must be filled by the evidence.

Three wrong answers a learner met, each fixed in the technique, not in the example:
- "Who designed the hotel?" was judged answerable from a passage that names only the hotel ("Hotel
  Scogliera"): a capitalised name that contains the thing asked about is not the person asked for;
- "what does the b knob do, in plain words" was answered with the sentence about ``k1`` and checked as
  useful: a one-letter name is a key term, a request about style is not, and an answer must name it;
- two sentences, the second opening with a code span, were checked as one ("all 1 claims supported").
"""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from ragkit.core.nlp import has_answer, key_terms, split_sentences, symbols
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.judge import answerability_gap
from ragkit.offline.writing import LocalWriter, answer_units

NO_DESIGNER = ("Villa Aurora, on the hill above the harbour, reopened in March after a long restoration. It has twelve "
               "rooms and a garden with lemon trees.")
WITH_DESIGNER = NO_DESIGNER + " The architect Teresa Lund designed the villa in 1931."


@pytest.mark.parametrize("question, passage, answerable", [
    ("Who designed the villa?", NO_DESIGNER, False),  # only the villa's own name is capitalised
    ("Who designed the villa?", WITH_DESIGNER, True),
    ("Who founded the abbey?", "Kelso Abbey stands by the river. It was rebuilt twice.", False),
    ("Who founded the abbey?", "Kelso Abbey was founded by King David in 1128.", True),
    ("Who built the Eiffel Tower?", "Gustave Eiffel's company built the Eiffel Tower.", True),  # a name in both
    ("Who runs the bakery?", "Forno Marina opened in April, run by Giulia Serra.", True),
])
def test_a_who_question_needs_a_person_not_the_name_of_the_thing_asked_about(question: str, passage: str,
                                                                             answerable: bool) -> None:
    gap = answerability_gap(question, passage, related_bar=None)
    assert (gap is None) == answerable, gap
    if not answerable:
        assert gap == "the passage has no name where the question asks for one"


def test_has_answer_person_ignores_names_that_contain_a_noun_of_the_question() -> None:
    assert not has_answer("person", "Hotel Miramare opened its doors on 1 May.", "Who designed the hotel?")
    assert has_answer("person", "Hotel Miramare was designed by Paolo Ferri.", "Who designed the hotel?")


@pytest.mark.parametrize("question, expected", [
    ("what does the b knob do, in plain words", ["b"]), ("What do k1 and `b` control?", ["k1", "b"]),
    ("Is vitamin C soluble?", ["c"]), ("Do I need a U.S. visa, e.g. for work?", []), ("What's a grader?", []),
])
def test_symbols_are_one_letter_names(question: str, expected: list[str]) -> None:
    assert symbols(question) == expected


def test_key_terms_keep_a_symbol_and_drop_a_request_about_style() -> None:
    assert key_terms("what does the b knob do, in plain words") == ["b", "knob"]
    assert key_terms("Explain the x axis briefly") == ["explain", "x", "axi"]


GADGET = Document(page_content="Mixer settings. The mixer has two dials. `p` sets the pressure of the pump. "
                               "`q` sets the flow rate, from 1 to 9 litres a minute. Most cooks leave `q` at 5.",
                  metadata={"title": "Mixer settings"})


def test_the_writer_quotes_the_sentence_about_the_symbol_asked() -> None:
    answer = LocalWriter().write("what does the q dial do, in plain words", [GADGET])
    assert answer.answered and "`q` sets the flow rate" in answer.text and "`p` sets" not in answer.text


def test_an_answer_that_never_names_the_symbol_asked_about_is_not_useful() -> None:
    grader = LocalAnswerGrader()
    wrong = grader.grade("What does the q dial do?", "`p` sets the pressure of the pump [1].")
    assert not wrong.useful and "never names it" in wrong.note
    assert grader.grade("What does the q dial do?", "`q` sets the flow rate of the pump [1].").useful


def test_a_sentence_may_open_with_a_code_span() -> None:
    text = "With `k1 = 0` term frequency is ignored. `b` controls length normalisation, between 0 and 1."
    assert split_sentences(text) == ["With `k1 = 0` term frequency is ignored.",
                                     "`b` controls length normalisation, between 0 and 1."]


def test_a_sentence_that_points_back_is_quoted_with_the_one_before() -> None:
    doc = Document(page_content="A checkpointer saves the state after every step. With one attached, a graph can "
                                "pause and resume. Checkpoints are grouped by thread, one thread per conversation.")
    assert [u.text for u in answer_units([doc])] == [
        "A checkpointer saves the state after every step. With one attached, a graph can pause and resume.",
        "Checkpoints are grouped by thread, one thread per conversation."]
