"""Retrieval bandits: learn, query by query, which retrieval arm (dense, bm25, hybrid...) to use.

A policy picks an arm (``select``), the caller runs it and reports a reward in [0, 1] (``update``), for
example the document grader's relevant share of the top documents. Context-free policies
(``ThompsonSampling``; ``EpsilonGreedy`` and ``UCB1``, the baselines it is compared with) learn one best
arm; contextual ones (``LinUCB``, ``LinearThompsonSampling``) learn which arm suits which query from
``query_features``. ``SharedBandit`` and ``save``/``load`` make one bandit safe to share between threads
and keep it across restarts.
"""

from ragkit.bandit.baselines import UCB1, EpsilonGreedy
from ragkit.bandit.contextual import FEATURE_NAMES, LinearThompsonSampling, LinUCB, check_context, query_features
from ragkit.bandit.policies import (
    BanditStateError,
    Policy,
    ThompsonSampling,
    check_arms,
    check_reward,
    make_rng,
)
from ragkit.bandit.store import POLICIES, SharedBandit, load, save

__all__ = [
    "FEATURE_NAMES",
    "POLICIES",
    "UCB1",
    "BanditStateError",
    "EpsilonGreedy",
    "LinUCB",
    "LinearThompsonSampling",
    "Policy",
    "SharedBandit",
    "ThompsonSampling",
    "check_arms",
    "check_context",
    "check_reward",
    "load",
    "make_rng",
    "query_features",
    "save",
]
