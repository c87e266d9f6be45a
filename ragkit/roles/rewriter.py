"""Question rewriters: turn a question into a better search query, optionally using documents already found.

``LocalRewriter`` does pseudo-relevance feedback in the style of RM3 (Lavrenko & Croft's relevance model,
as used in Anserini): assume the top documents are relevant, estimate which words they are about, and add
the strongest of those words to the query.

- only documents that contain at least one of the question's key terms are used as feedback (the
  first ``feedback_docs`` of them): a document sharing no word with the question has a query
  likelihood of about zero in RM3, and its words would only drag the query off topic;
- each feedback document d gets a weight w(d): the share of the question's key terms it contains, a
  stand-in for the query likelihood RM3 uses;
- each word t gets P(t|R) = sum_d w(d) * tf(t, d) / |d|, normalised over words;
- the expanded query model interpolates the original query and the feedback model:
  P'(t) = lambda * P(t|Q) + (1 - lambda) * P(t|R);
- the query text is the original question (all its words, first) followed by the ``max_terms`` new words
  with the highest P'(t) (ties go to the word that appears first in the feedback documents).

Without (usable) documents there is nothing to learn from, and the rewrite is the question's content
words (question words and stopwords dropped), a shorter keyword query for BM25 and vector search.

Simplifications: words are compared by Porter stem and shown in their most frequent surface form; no IDF
(words common to every feedback document win, which is what "what these documents are about" means when
there are only three of them). Feedback from irrelevant documents that happen to share a word with the
question still drags the query off topic: that is the known failure of pseudo-relevance feedback, why a
graph should pass only the documents its grader kept, and why it should cap its rewrite loop.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Sequence

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.nlp import QUESTION_STOPWORDS, clean_query, key_terms, stem, words
from ragkit.roles.llm import call_structured
from ragkit.roles.prompts import REWRITER_PROMPT, format_documents


def _content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in QUESTION_STOPWORDS and len(w) > 2 and not w.isdigit()]


class LocalRewriter:
    """RM3-style pseudo-relevance feedback: the question first, then the strongest feedback terms.

    >>> docs = [Document(page_content="Chablis is a dry white wine from Burgundy, great with oysters."),
    ...         Document(page_content="Muscadet, a dry white wine, is the classic match for oysters.")]
    >>> LocalRewriter(max_terms=3).rewrite("What goes with oysters?", docs)
    'What goes with oysters? dry white wine'
    """

    def __init__(self, max_terms: int = 5, feedback_docs: int = 3, original_weight: float = 0.5):
        if not 0.0 <= original_weight <= 1.0:
            raise ValueError(f"original_weight must be between 0 and 1, got {original_weight}")
        self.max_terms = max_terms
        self.feedback_docs = feedback_docs
        self.original_weight = original_weight

    def feedback(self, question: str, documents: Sequence[Document]) -> list[Document]:
        """The feedback documents: the first ``feedback_docs`` that share a key term with the question."""
        q_terms = set(key_terms(question))
        usable = [d for d in documents if q_terms & {stem(w) for w in words(d.page_content)}]
        return usable[: self.feedback_docs]

    def term_weights(self, question: str, documents: Sequence[Document]) -> dict[str, float]:
        """The interpolated query model P'(t) over stems (original query terms included)."""
        q_terms = key_terms(question)
        query_model = {t: 1.0 / len(q_terms) for t in q_terms} if q_terms else {}
        feedback: dict[str, float] = defaultdict(float)
        total_weight = 0.0
        for doc in self.feedback(question, documents):
            stems = [stem(w) for w in _content_words(doc.page_content)]
            if not stems:
                continue
            present = set(stems)
            weight = sum(t in present for t in q_terms) / max(len(q_terms), 1)
            total_weight += weight
            for t, count in Counter(stems).items():
                feedback[t] += weight * count / len(stems)
        lam = self.original_weight
        model: dict[str, float] = {t: lam * p for t, p in query_model.items()}
        for t, p in feedback.items():
            model[t] = model.get(t, 0.0) + (1 - lam) * p / max(total_weight, 1e-12)
        return model

    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        question = clean_query(question, what="question")
        documents = self.feedback(question, check_documents(documents))
        if not documents:
            keywords = _content_words(question)
            return " ".join(dict.fromkeys(keywords)) if keywords else question
        model = self.term_weights(question, documents)
        original = set(key_terms(question)) | {stem(w) for w in words(question)}
        surface: dict[str, Counter] = defaultdict(Counter)
        first_seen: dict[str, int] = {}
        for doc in documents:
            for w in _content_words(doc.page_content):
                surface[stem(w)][w] += 1
                first_seen.setdefault(stem(w), len(first_seen))
        new = [t for t in model if t not in original and t in surface]
        new.sort(key=lambda t: (-round(model[t], 9), first_seen[t]))  # ties: the word met first
        added = [surface[t].most_common(1)[0][0] for t in new[: self.max_terms]]
        return f"{question} {' '.join(added)}".strip()


class RewrittenQuery(BaseModel):
    """A search query."""

    query: str = Field(description="the improved search query")


class LLMRewriter:
    """A chat model rewrites the question for search. On failure (or an empty query): the original question.

    Why: the original question is always a valid query; a failed rewrite should cost one wasted retrieval
    at most, never an exception in the middle of a graph.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMRewriter(scripted('{"query": "oyster wine pairing"}')).rewrite("What goes with oysters?")
    'oyster wine pairing'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = REWRITER_PROMPT, max_chars: int = 500):
        self.model = model
        self.prompt = prompt
        self.max_chars = max_chars
        self.last_note = ""  # why the last call fell back, for traces ("" when it did not)

    def rewrite(self, question: str, documents: Sequence[Document] = ()) -> str:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        inputs = {"question": question, "documents": format_documents(documents, max_chars=1_000)}
        result = call_structured(self.model, self.prompt, RewrittenQuery, inputs)
        query = " ".join(result.value.query.split()) if result.ok else ""
        if not query or len(query) > self.max_chars:
            self.last_note = result.note or f"unusable rewrite ({len(query)} characters); kept the question"
            return question
        self.last_note = ""
        return query
