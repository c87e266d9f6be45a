"""Exercise checkers for the notebooks: each compares a learner's function with ragkit's own implementation.

A checker takes the learner's function, runs it and ragkit's reference on small generated cases (seeded,
so the same on every run), and returns a :class:`~ragkit.exercises.core.CheckResult` (``passed``,
``message``) which it also shows: a coloured box in Jupyter, plain text elsewhere. It never raises on a
wrong answer; it says what is still wrong, naming the mistake when the learner's outputs match a known
wrong variant ("did you add 1/(k + rank) with rank starting at 1?").

>>> from ragkit.core.hybrid import reciprocal_rank_fusion
>>> check_rrf(reciprocal_rank_fusion, quiet=True).passed
True

One module per notebook (``ch00``, ``ch01``, ...); ``EXERCISES`` lists each checker with its chapter.
"""

from ragkit.exercises.ch00 import check_cosine, check_keyword_overlap
from ragkit.exercises.ch01 import check_bm25, check_mmr, check_rrf
from ragkit.exercises.ch02 import check_capped_router, check_reducer
from ragkit.exercises.ch03 import check_adaptive_wiring, check_prototype_scores, check_route_table
from ragkit.exercises.ch04 import (
    check_can_rewrite,
    check_precision_recall,
    check_self_rag_wiring,
    check_threshold_for_recall,
)
from ragkit.exercises.ch05 import check_crag_wiring, check_same_query, check_verdict_router
from ragkit.exercises.ch06 import check_call_digest, check_invented_argument_guard, check_tool_loop_wiring
from ragkit.exercises.ch07 import check_cheapest_without, check_price_bounds, check_query_analysis_wiring
from ragkit.exercises.ch08 import check_advanced_wiring, check_fuse_queries, check_retry_router
from ragkit.exercises.ch09 import check_bandit_wiring, check_beta_update, check_cumulative_regret, check_thompson_choice
from ragkit.exercises.ch10 import check_hop_router, check_import_allowlist, check_plan_parser, check_supervisor_wiring
from ragkit.exercises.ch11 import check_articles_within, check_cited_articles, check_statute_qa_wiring
from ragkit.exercises.ch12 import check_percentile, check_read_ndjson, check_served_graph_wiring
from ragkit.exercises.core import CheckResult

EXERCISES: dict[str, tuple[str, ...]] = {
    "00": ("check_cosine", "check_keyword_overlap"),
    "01": ("check_bm25", "check_rrf", "check_mmr"),
    "02": ("check_capped_router", "check_reducer"),
    "03": ("check_route_table", "check_prototype_scores", "check_adaptive_wiring"),
    "04": ("check_self_rag_wiring", "check_threshold_for_recall", "check_precision_recall", "check_can_rewrite"),
    "05": ("check_verdict_router", "check_crag_wiring", "check_same_query"),
    "06": ("check_tool_loop_wiring", "check_call_digest", "check_invented_argument_guard"),
    "07": ("check_price_bounds", "check_cheapest_without", "check_query_analysis_wiring"),
    "08": ("check_retry_router", "check_advanced_wiring", "check_fuse_queries"),
    "09": ("check_beta_update", "check_thompson_choice", "check_bandit_wiring", "check_cumulative_regret"),
    "10": ("check_supervisor_wiring", "check_plan_parser", "check_hop_router", "check_import_allowlist"),
    "11": ("check_cited_articles", "check_articles_within", "check_statute_qa_wiring"),
    "12": ("check_served_graph_wiring", "check_read_ndjson", "check_percentile"),
}

__all__ = ["EXERCISES", "CheckResult", *sorted(name for names in EXERCISES.values() for name in names)]
