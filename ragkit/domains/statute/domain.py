"""The bundled statute, as the statute QA graph needs to know it: :data:`STATUTE` (a
:class:`ragkit.roles.statute_protocols.StatuteDomain`), passed to ``build_statute_qa_graph(..., domain=STATUTE)``.

It gathers what this folder knows about the Coastal Waters Act: the question kinds, routing table and
refusals (:mod:`ragkit.domains.statute.questions`), how a question cites an article
(:mod:`ragkit.domains.statute.citations`), how an answer cites a paragraph and how those citations are checked
(:mod:`ragkit.domains.statute.paragraphs`), and the links between paragraphs
(:mod:`ragkit.domains.statute.article_graph`). What the graph searches is not in it: pass
``strategy_searches(articles)`` (:mod:`ragkit.domains.statute.strategies`).
"""

from __future__ import annotations

from ragkit.domains.statute.article_graph import statute_reference_index
from ragkit.domains.statute.citations import pinned_articles, with_titles
from ragkit.domains.statute.paragraphs import (
    check_answer_citations,
    cite_paragraphs,
    cited_first,
    paragraphs_of,
    remove_citations,
)
from ragkit.domains.statute.questions import (
    CITATION_KIND,
    MULTIHOP_KIND,
    REFUSALS,
    REFUSE_KIND,
    ROUTED_KINDS,
    ROUTING_TABLE,
    SAFE_KIND,
    llm_evidence_grader,
    llm_question_classifier,
    local_evidence_grader,
    local_question_classifier,
)
from ragkit.roles.statute_protocols import StatuteDomain

STATUTE = StatuteDomain(
    routed_kinds=ROUTED_KINDS, routing_table=ROUTING_TABLE, citation_kind=CITATION_KIND, refuse_kind=REFUSE_KIND,
    safe_kind=SAFE_KIND, multihop_kind=MULTIHOP_KIND, refusals=REFUSALS,
    local_question_classifier=local_question_classifier, llm_question_classifier=llm_question_classifier,
    local_evidence_grader=local_evidence_grader, llm_evidence_grader=llm_evidence_grader,
    pinned_articles=pinned_articles, with_titles=with_titles, paragraphs_of=paragraphs_of, cited_first=cited_first,
    cite_paragraphs=cite_paragraphs, check_answer_citations=check_answer_citations, remove_citations=remove_citations,
    reference_index=statute_reference_index,
)

__all__ = ["STATUTE"]
