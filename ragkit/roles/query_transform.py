"""Query transformers: more ways to ask the same question, searched together (multi-query + HyDE).

A transformer turns a question into a few *alternative queries* and one *hypothetical answer*; the graph
searches the question and each of them and fuses the result lists (:func:`ragkit.graphs.advanced_search.search_queries`).
The idea (multi-query / RAG-Fusion, and HyDE by Gao et al. 2022) is that a document missed by one
wording may be found by another, and that an answer-shaped text is closer to answer documents than the
question is.

``LLMQueryTransformer`` is the JSON prompt of the production system this workbook follows: three
alternative queries and one hypothetical answer. Output that does not parse (malformed JSON, a missing
field) is a visible fallback: no alternatives, no hypothetical answer, ``fallback=True`` and a note, so
the graph searches the question alone.

``LocalQueryTransformer`` has no model to imagine an answer with, so it is honest about what it does:

- **alternative queries from pseudo-relevance feedback.** It asks for a first-pass retrieval (the graph
  runs one: ``uses_first_pass``) and, for each of the first ``n_alternatives`` documents that share a key
  term with the question, expands the question with that document's strongest terms, using the RM3
  machinery of :class:`ragkit.offline.writing.LocalRewriter` with that one document as feedback. Each
  alternative therefore leans towards a different document the first pass found.
- **a "hypothetical document" that is not hypothetical**: the ``hypothetical_sentences`` sentences of
  the first-pass documents most relevant to the question, chosen as :class:`ragkit.offline.writing.LocalWriter`
  chooses what to quote (relevance, then MMR for variety), joined into one passage.

On a retry (the grader found nothing relevant) the graph passes ``tried`` (the queries already searched)
and a first pass without the documents the grader rejected, so the feedback, and therefore the new
formulation, comes from other documents.

What the local transformer cannot do: find vocabulary that no first-pass document contains (it can only
lean harder on what the first pass already nearly found, the known weakness of pseudo-relevance
feedback: a first pass that went wrong drags the alternatives with it); write an answer; or paraphrase.
On a strong first stage it may add little or hurt: ``benchmarks/advanced/scifact_transforms.py``
measures it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.contract import check_documents
from ragkit.core.embeddings import load_embedder
from ragkit.core.nlp import clean_query
from ragkit.defaults import ADVANCED
from ragkit.roles.llm import call_structured
from ragkit.offline.writing import LocalRewriter
from ragkit.offline.writing import LocalWriter

MAX_QUERY_CHARS = 500  # an alternative query longer than this is not a query
MAX_HYPOTHETICAL_CHARS = 2_000


@dataclass(frozen=True)
class QueryTransform:
    """Alternative queries (the question itself not included) and a hypothetical answer ("" for none)."""

    queries: tuple[str, ...] = ()
    hypothetical: str = ""
    note: str = ""
    fallback: bool = False


@runtime_checkable
class QueryTransformer(Protocol):
    uses_first_pass: bool  # True: transform() wants the documents of a first-pass search for the question

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform: ...


def new_queries(candidates: Sequence[str], question: str, tried: Sequence[str], limit: int) -> tuple[str, ...]:
    """Clean candidate queries: whitespace collapsed, empty, over-long, repeated or already tried ones dropped.

    >>> new_queries(["  bm25  idf ", "BM25 idf", "what is bm25", "", "tf-idf"], "What is BM25?", ["tf-idf"], 5)
    ('bm25 idf', 'what is bm25')
    """
    seen = {" ".join(q.split()).lower() for q in [question, *tried]}
    out: list[str] = []
    for candidate in candidates:
        query = " ".join(str(candidate).split())
        if query and len(query) <= MAX_QUERY_CHARS and query.lower() not in seen:
            seen.add(query.lower())
            out.append(query)
    return tuple(out[:limit])


class LocalQueryTransformer:
    """Pseudo-relevance-feedback alternatives and an extractive "hypothetical document" (see the module docs).

    >>> docs = [Document("Chablis is a dry white wine from Burgundy; it suits oysters."),
    ...         Document("Muscadet, a crisp white from the Loire, is the classic match for oysters.")]
    >>> t = LocalQueryTransformer(prf_terms=2, hypothetical_sentences=0)
    >>> t.transform("What goes with oysters?", docs).queries
    ('What goes with oysters? chablis dry', 'What goes with oysters? muscadet crisp')
    """

    uses_first_pass = True

    def __init__(self, embedder: Embeddings | None = None, n_alternatives: int = ADVANCED.n_alternatives,
                 prf_terms: int = ADVANCED.prf_terms, hypothetical_sentences: int = ADVANCED.hypothetical_sentences):
        for name, value in {"n_alternatives": n_alternatives, "prf_terms": prf_terms,
                            "hypothetical_sentences": hypothetical_sentences}.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        self.embedder = embedder
        self.n_alternatives, self.prf_terms, self.hypothetical_sentences = n_alternatives, prf_terms, hypothetical_sentences
        self._rm3 = LocalRewriter(max_terms=prf_terms, feedback_docs=1)
        self._writer: LocalWriter | None = None

    def alternatives(self, question: str, documents: Sequence[Document], tried: Sequence[str] = ()) -> tuple[str, ...]:
        """One RM3 expansion of the question per feedback document; without any, the question's keywords."""
        if self.n_alternatives == 0:
            return ()
        feedback = LocalRewriter(feedback_docs=len(documents)).feedback(question, documents)
        candidates = [self._rm3.rewrite(question, [doc]) for doc in feedback] or [self._rm3.rewrite(question)]
        return new_queries(candidates, question, tried, self.n_alternatives)

    def hypothetical(self, question: str, documents: Sequence[Document]) -> str:
        """The most relevant sentences of the documents (the writer's relevance and MMR), as one passage."""
        if self.hypothetical_sentences == 0 or not documents:
            return ""
        if self._writer is None:  # no bar: the best sentences, whatever their score
            self._writer = LocalWriter(self.embedder if self.embedder is not None else load_embedder(),
                                       max_sentences=self.hypothetical_sentences, support_bar=-1.0, relative_bar=2.0)
        units, relevance, vectors = self._writer.score_units(question, documents)
        return " ".join(units[i].text for i in self._writer.select(relevance, vectors))[:MAX_HYPOTHETICAL_CHARS]

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform:
        question = clean_query(question, what="question")
        documents = check_documents(documents)
        queries = self.alternatives(question, documents, tried)
        hypothetical = self.hypothetical(question, documents)
        if hypothetical and hypothetical.lower() in {q.lower() for q in tried}:
            hypothetical = ""
        note = (f"{len(queries)} feedback quer{'y' if len(queries) == 1 else 'ies'} and a "
                f"{len(hypothetical.split())}-word passage from {len(documents)} first-pass documents")
        return QueryTransform(queries, hypothetical, note)


class Expansion(BaseModel):
    """Alternative search queries and a hypothetical answer for one question."""

    queries: list[str] = Field(description="three alternative search queries, each worded differently")
    hypothetical_answer: str = Field(description="a short passage that would answer the question, written as a document would")


QUERY_TRANSFORM_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system",
         "You help a search engine find documents. For the user's question, write {n} alternative search "
         "queries that ask for the same information in different words or from different angles, and one "
         "short hypothetical answer: a passage, two to four sentences, written the way a document that "
         "answers the question would be. Keep every name, number and specific term of the question.\n"
         "Queries already tried, which found nothing relevant (write different ones): {tried}\n"
         'Return JSON: {{"queries": ["...", "...", "..."], "hypothetical_answer": "..."}}'),
        ("human", "Question: {question}"),
    ]
)


class LLMQueryTransformer:
    """A chat model writes the alternative queries and the hypothetical answer; unparsable output: none of them.

    >>> from ragkit.core.chat_models import scripted
    >>> reply = '{"queries": ["bm25 ranking function", "okapi bm25 formula", "bm25 term weighting"], '
    >>> reply += '"hypothetical_answer": "BM25 scores a document by term frequency and idf."}'
    >>> LLMQueryTransformer(scripted(reply)).transform("What is BM25?").queries
    ('bm25 ranking function', 'okapi bm25 formula', 'bm25 term weighting')
    >>> LLMQueryTransformer(scripted('{"queries": "oops"')).transform("What is BM25?").fallback
    True
    """

    uses_first_pass = False

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = QUERY_TRANSFORM_PROMPT,
                 n_alternatives: int = ADVANCED.n_alternatives):
        self.model, self.prompt, self.n_alternatives = model, prompt, n_alternatives

    def transform(self, question: str, documents: Sequence[Document] = (), tried: Sequence[str] = ()) -> QueryTransform:
        question = clean_query(question, what="question")
        shown = [t if len(t) <= 200 else t[:197] + "..." for t in tried]  # a tried passage is shown by its start
        inputs = {"question": question, "n": self.n_alternatives, "tried": "; ".join(shown) if shown else "(none)"}
        result = call_structured(self.model, self.prompt, Expansion, inputs)
        if not result.ok:  # visible fallback: the question is searched on its own
            return QueryTransform((), "", f"no transform, the question alone: {result.note}", fallback=True)
        queries = new_queries(result.value.queries, question, tried, self.n_alternatives)
        hypothetical = " ".join(result.value.hypothetical_answer.split())[:MAX_HYPOTHETICAL_CHARS]
        dropped = len(result.value.queries) - len(queries)
        note = f"{len(queries)} queries and a hypothetical answer" + (f" ({dropped} dropped: empty, repeated or tried)" if dropped else "")
        return QueryTransform(queries, hypothetical, note)


__all__ = ["Expansion", "LLMQueryTransformer", "LocalQueryTransformer", "QUERY_TRANSFORM_PROMPT", "QueryTransform",
           "QueryTransformer", "new_queries"]
