"""Retrieval: chunking, BM25, dense (FAISS; whole documents or best chunk, MaxP), hybrid fusion, rerankers,
BEIR loading and IR metrics.

Every retriever is a LangChain ``BaseRetriever`` with an extra ``search_with_scores(query, k)``.
"""

from ragkit.retrieval.base import ScoredRetriever, doc_key
from ragkit.retrieval.beir import BeirData, load_beir
from ragkit.retrieval.bm25 import BM25Retriever
from ragkit.retrieval.chunking import split_documents
from ragkit.retrieval.dense import DenseRetriever, mmr_select
from ragkit.retrieval.hybrid import HybridRetriever, reciprocal_rank_fusion, weighted_score_fusion
from ragkit.retrieval.maxp import MaxChunkDenseRetriever, make_passages
from ragkit.retrieval.metrics import evaluate, ndcg_at_k, recall_at_k
from ragkit.retrieval.rerank import CrossEncoderReranker, LocalReranker, Reranker, RerankRetriever
from ragkit.retrieval.structured import StructuredRetriever

__all__ = [
    "BM25Retriever",
    "BeirData",
    "CrossEncoderReranker",
    "DenseRetriever",
    "HybridRetriever",
    "LocalReranker",
    "MaxChunkDenseRetriever",
    "RerankRetriever",
    "Reranker",
    "ScoredRetriever",
    "StructuredRetriever",
    "doc_key",
    "evaluate",
    "load_beir",
    "make_passages",
    "mmr_select",
    "ndcg_at_k",
    "recall_at_k",
    "reciprocal_rank_fusion",
    "split_documents",
    "weighted_score_fusion",
]
