"""Retrieval pieces for statute QA: direct citations, the article graph, and graph retrieval (PPR).

- :mod:`ragkit.statute.citations`: "Article 12(3)", "Arts. 5 and 6", "§ 12", "제12조 제3항" in a question;
- :mod:`ragkit.statute.article_graph`: articles linked by cross-references and by defined terms;
- :mod:`ragkit.statute.graph_retriever`: seeds from any retriever, expanded by personalized PageRank;
- :mod:`ragkit.statute.entity_graph`: a title/shared-name graph for any titled paragraphs (MuSiQue);
- :mod:`ragkit.statute.paragraphs`: articles as paragraph Documents, answers citing "[Article 12(3)]";
- :mod:`ragkit.statute.strategies`: the vector, hybrid and graph strategies a question is routed to.
"""

from ragkit.statute.article_graph import STATUTE_GRAPH_DEFAULTS, build_article_graph, draw_article_graph, statute_graph_retriever
from ragkit.statute.citations import Citation, check_citations, cited_articles, parse_citations
from ragkit.statute.entity_graph import build_entity_graph
from ragkit.statute.graph_retriever import GraphRetriever, PageRankWalk
from ragkit.statute.paragraphs import answer_citations, cite_paragraphs, paragraphs_of, split_paragraphs
from ragkit.statute.strategies import STRATEGIES, StrategySet, strategy_searches

__all__ = [
    "STATUTE_GRAPH_DEFAULTS",
    "STRATEGIES",
    "Citation",
    "GraphRetriever",
    "PageRankWalk",
    "StrategySet",
    "answer_citations",
    "build_article_graph",
    "build_entity_graph",
    "check_citations",
    "cite_paragraphs",
    "cited_articles",
    "draw_article_graph",
    "paragraphs_of",
    "parse_citations",
    "split_paragraphs",
    "statute_graph_retriever",
    "strategy_searches",
]
