"""Answer graders: does this answer actually resolve the question (whether or not it is grounded)?

``LocalAnswerGrader`` checks four things, in order:

1. the answer is not a refusal ("not enough information", "I don't know", an empty string);
2. the answer says something the question did not: at least one word (stopwords aside) or number
   that is not already in the question, unless the question is a yes/no question ("Is the soup vegan?" may be
   answered "The soup is vegan."). "HyDE." does not answer "What is HyDE?", however similar they are;
3. the answer has what the question's type asks for, as :mod:`ragkit.core.nlp` decides it
   (the same module the CRAG judge uses): "how much / how many / what price ..." needs a number; "when /
   what year / what time" needs a date or time; "who" needs a capitalised name;
4. the answer is about the question: ``relevance = similarity_weight * cosine + (1 - w) * coverage`` of
   the question's key terms reaches ``bar``.

``score`` is that relevance (0 when check 1, 2 or 3 fails). ``LLMAnswerGrader`` asks a chat model; on
failure it falls back to check 1 alone (a refusal is not useful, anything else is accepted), because
the answer reaching this grader has usually already passed the groundedness check, and rejecting it
for a failed call would loop the graph until its cap for nothing.

Simplifications: the question type comes from question words (English only); "where" and "why" have no
specific check; check 2 compares stems, so a synonym of a question word counts as new; a number anywhere
in the answer satisfies "how much", even if it is the wrong number.
"""

from __future__ import annotations

import re

from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_answer
from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import answer_type, clean_query, has_answer, numbers, strip_citations, term_coverage, tokenize
from ragkit.defaults import VERIFIER
from ragkit.roles.base import Usefulness
from ragkit.roles.hallucination import is_refusal
from ragkit.roles.llm import call_structured
from ragkit.roles.prompts import ANSWER_GRADER_PROMPT

REFUSALS = re.compile(
    r"\b(not enough information|don't know|do not know|cannot answer|can't answer|no information|unable to answer)\b",
    re.IGNORECASE,
)


def new_terms(question: str, answer: str) -> list[str]:
    """Words (stemmed, stopwords dropped) and numbers of the answer that the question does not contain.

    >>> new_terms("What is HyDE?", "HyDE [1]"), new_terms("What is HyDE?", "HyDE embeds a fake answer [1].")
    ([], ['emb', 'fake', 'answer'])
    >>> new_terms("How many legs does a spider have?", "8.")
    ['8']
    """
    asked = set(tokenize(question, frozenset())) | numbers(question)
    said = dict.fromkeys([*tokenize(strip_citations(answer)), *sorted(numbers(answer))])
    return [t for t in said if t not in asked]


class LocalAnswerGrader:
    """Useful = not a refusal, has what the question type needs, and is about the question's key terms.

    >>> grader = LocalAnswerGrader()  # doctest: +SKIP
    >>> grader.grade("How much are the oysters?", "Oysters are served raw.").useful  # doctest: +SKIP
    False
    """

    def __init__(self, embedder: Embeddings | None = None, bar: float = VERIFIER.answer_bar,
                 similarity_weight: float = VERIFIER.answer_similarity_weight):
        self.embedder = embedder if embedder is not None else load_embedder()
        self.bar = bar
        self.similarity_weight = similarity_weight

    def grade(self, question: str, answer: str) -> Usefulness:
        question = clean_query(question, what="question")
        answer = check_answer(answer)
        if is_refusal(answer) or REFUSALS.search(answer):
            return Usefulness(False, 0.0, "the answer is a refusal")
        kind = answer_type(question)
        if kind != "yes/no" and not new_terms(question, answer):
            return Usefulness(False, 0.0, "the answer only repeats words of the question")
        if not has_answer(kind, strip_citations(answer), question):
            return Usefulness(False, 0.0, f"a {kind} question, but the answer has no {kind}")
        q, a = embed(self.embedder, [question, strip_citations(answer)])
        cosine, coverage = float(q @ a), term_coverage(question, answer)
        w = self.similarity_weight
        relevance = w * cosine + (1 - w) * coverage
        note = f"{kind} question; cosine {cosine:.2f}, key-term coverage {coverage:.2f}"
        return Usefulness(relevance >= self.bar, round(relevance, 4), note)


class UsefulnessVerdict(BaseModel):
    """Does the answer resolve the question?"""

    useful: bool = Field(description="true if the answer addresses and resolves the question")


class LLMAnswerGrader:
    """A chat model judges usefulness; on failure: useful unless the answer is a refusal (see module doc).

    >>> from ragkit.core.chat_models import scripted
    >>> LLMAnswerGrader(scripted("not json")).grade("How much?", "12 euros.").useful
    True
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = ANSWER_GRADER_PROMPT):
        self.model = model
        self.prompt = prompt

    def grade(self, question: str, answer: str) -> Usefulness:
        question = clean_query(question, what="question")
        answer = check_answer(answer)
        refusal = is_refusal(answer) or bool(REFUSALS.search(answer))
        if refusal:
            return Usefulness(False, 0.0, "the answer is a refusal")
        result = call_structured(self.model, self.prompt, UsefulnessVerdict, {"question": question, "answer": answer})
        if not result.ok:
            return Usefulness(True, 0.5, f"accepted by default: {result.note}", fallback=True)
        return Usefulness(result.value.useful, 1.0 if result.value.useful else 0.0)
