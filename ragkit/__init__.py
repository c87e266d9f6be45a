"""ragkit: the nodes, roles and graphs of the ragkit workbook (RAG and agents with LangGraph, offline by default)."""

from ragkit.core.bm25 import BM25Retriever
from ragkit.core.chat_models import ScriptedChatModel, describe_backend, load_chat_model, scripted
from ragkit.core.chunking import split_documents
from ragkit.core.contract import DataError, DataNotFound
from ragkit.core.dense import DenseRetriever
from ragkit.core.embeddings import MiniLMEmbeddings, load_embedder
from ragkit.core.files import data_dir, notebooks_dir, results_dir
from ragkit.core.hybrid import HybridRetriever
from ragkit.core.maxp import MaxChunkDenseRetriever
from ragkit.core.nlp import clean_query, split_sentences, tokenize
from ragkit.core.rerank import CrossEncoderReranker, LocalReranker, RerankRetriever
from ragkit.domains.corpora import load_corpus
from ragkit.domains.handbook.corpus import load_handbook
from ragkit.domains.menu.corpus import load_menu, load_wines
from ragkit.domains.shop.orders import OrderStore, load_order_store
from ragkit.domains.statute.corpus import load_statute
from ragkit.domains.web.corpus import OfflineWebSearch, load_web_snapshot
from ragkit.evaluation.beir import load_beir
from ragkit.graphs.adaptive_rag import build_adaptive_rag_graph
from ragkit.graphs.advanced_rag import build_advanced_rag_graph
from ragkit.graphs.crag import build_crag_graph, resume_crag, run_crag
from ragkit.graphs.self_rag import build_self_rag_graph
from ragkit.graphs.statute_qa import build_statute_qa_graph
from ragkit.graphs.supervisor import build_supervisor_graph
from ragkit.graphs.tool_agent import build_tool_agent_graph, resume_tool_agent
from ragkit.ingest import load_collection
from ragkit.notebook import mermaid, seed_everything, show, show_graph
from ragkit.offline.answer_grader import LocalAnswerGrader
from ragkit.offline.claims import LocalHallucinationGrader
from ragkit.offline.graders import LocalGrader
from ragkit.offline.judge import LocalJudge
from ragkit.offline.router import LocalRouter
from ragkit.offline.tool_planner import LocalToolPlanner
from ragkit.offline.writing import LocalRewriter, LocalWriter
from ragkit.roles.llm import (
    LLMGrader,
    LLMHallucinationGrader,
    LLMRewriter,
    LLMWriter,
)
from ragkit.roles.llm_answer_grader import LLMAnswerGrader
from ragkit.roles.llm_judge import LLMJudge
from ragkit.roles.llm_routing import LLMRouter
from ragkit.roles.protocols import NOT_ENOUGH_INFORMATION
from ragkit.roles.router_protocols import RouteSpec
from ragkit.sandbox import run_python

__version__ = "0.2.0"  # the one place: pyproject.toml reads it; the tag v0.2.0 marks it

__all__ = [
    "build_adaptive_rag_graph",
    "build_advanced_rag_graph",
    "build_statute_qa_graph",
    "build_supervisor_graph",
    "load_collection",
    "run_python",
    "build_crag_graph",
    "resume_crag",
    "run_crag",
    "build_self_rag_graph",
    "build_tool_agent_graph",
    "resume_tool_agent",
    "DataError",
    "DataNotFound",
    "data_dir",
    "notebooks_dir",
    "results_dir",
    "load_corpus",
    "load_handbook",
    "load_menu",
    "load_statute",
    "load_web_snapshot",
    "load_wines",
    "BM25Retriever",
    "CrossEncoderReranker",
    "DenseRetriever",
    "HybridRetriever",
    "LocalReranker",
    "MaxChunkDenseRetriever",
    "RerankRetriever",
    "load_beir",
    "split_documents",
    "NOT_ENOUGH_INFORMATION",
    "LLMAnswerGrader",
    "LLMGrader",
    "LLMHallucinationGrader",
    "LLMJudge",
    "LLMRewriter",
    "LLMRouter",
    "LLMWriter",
    "LocalAnswerGrader",
    "LocalGrader",
    "LocalHallucinationGrader",
    "LocalJudge",
    "LocalRewriter",
    "LocalRouter",
    "LocalToolPlanner",
    "LocalWriter",
    "RouteSpec",
    "MiniLMEmbeddings",
    "OfflineWebSearch",
    "ScriptedChatModel",
    "clean_query",
    "describe_backend",
    "load_chat_model",
    "load_embedder",
    "mermaid",
    "scripted",
    "seed_everything",
    "show",
    "show_graph",
    "split_sentences",
    "tokenize",
    "OrderStore",
    "load_order_store",
]
