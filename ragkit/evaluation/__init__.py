"""Evaluation by golden-set replay: ``ragkit eval`` runs a golden set through a graph and scores it offline."""

from ragkit.evaluation.metrics import context_precision, context_recall, exact_match, token_f1
from ragkit.evaluation.replay import GoldenItem, InProcessRunner, ServerRunner, load_golden, replay, summarise

__all__ = ["GoldenItem", "InProcessRunner", "ServerRunner", "context_precision", "context_recall", "exact_match",
           "load_golden", "replay", "summarise", "token_f1"]
