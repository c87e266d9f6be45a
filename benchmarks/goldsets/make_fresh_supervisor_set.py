"""Write the fresh held-out set of supervisor routing questions, ``data/eval/supervisor_routing_fresh.json``.

Written for ragkit issue 22 (the supervisor's one-agent questions) BEFORE any tuning of the new plan rule and
without running any supervisor on it; frozen in ``data/eval/MANIFEST.json``; reported once, aggregates only.
Same domain, labels and item shape as ``supervisor_routing.json`` (rules: ``make_agent_sets.py``'s docstring),
but none of its items paraphrased: before freezing, no question was within MiniLM cosine 0.85 of a dev or test
question (four were rewritten after that check, which reads no labels and no routing result), nor within 0.9
of a route example. On purpose about a third of the one-agent questions have a second clause or sentence that
the same agent serves ("..., and does it give a default value?"), the kind the old set had few of.

Run::

    .venv/bin/python benchmarks/goldsets/make_fresh_supervisor_set.py           # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_fresh_supervisor_set.py --write   # write it (refused once frozen)

Limits: one writer's labels; 63 questions give a binomial standard error of about 0.05 on an accuracy near 0.8.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
from common import routing_set, set_writer  # noqa: E402

PATH = ROOT / "data" / "eval" / "supervisor_routing_fresh.json"
R, C, A, T = "rag", "code", "analysis", "chitchat"
ITEMS: list[tuple[str, list[str], str]] = [
 ("What does the handbook say about chunk size, and does it give a default value?", [R], "one lookup with a follow-up the lookup answers"),
 ("How does HNSW build its graph, and what does the M parameter control?", [R], "two facts, one lookup"),
 ("Explain what gets saved at each super-step when a graph has persistence, and where it is kept.", [R], "concept explained in the handbook"),
 ("What is reciprocal rank fusion? Where in the handbook is it introduced?", [R], "two sentences, both lookups"),
 ("Which similarity metric does the handbook use for MiniLM embeddings, and does it normalise them first?", [R], "handbook facts"),
 ("In LangGraph, what is a node and what is an edge?", [R], "definitions"),
 ("Hi! Can you tell me what the handbook means by a grounded answer?", [R], "greeting is incidental; lookup"),
 ("What does the handbook's example of a Send fan-out do, step by step?", [R], "asks about a snippet, not to run it"),
 ("Define mean average precision and say which section of the handbook covers it.", [R], "definition and where it is"),
 ("What is a reducer in LangGraph, and how does operator.add act as one?", [R], "concept and its example"),
 ("Write a function that splits text into overlapping windows of 200 words, and make it return the start offsets too.", [C], "one piece of code with a detail"),
 ("Compute the Manhattan distance between (2, 7) and (5, 3), and give the result as an integer.", [C], "compute"),
 ("Implement BM25 scoring for a single query over a list of tokenised documents; use k1=1.2 and b=0.75.", [C], "write code from given parameters"),
 ("Run `sorted([3, 1, 2], reverse=True)` and show the output.", [C], "run a snippet"),
 ("Write a Python generator that yields batches of 32 items from a list, then add a type hint to it.", [C], "'then' inside one coding request"),
 ("Calculate the harmonic mean of precision 0.7 and recall 0.4.", [C], "compute"),
 ("simulate 1000 coin flips with seed 42 and print how many heads", [C], "simulate, terse"),
 ("Code a small cache decorator that stores embeddings in a dict and counts the hits.", [C], "write code"),
 ("Implement a function that deduplicates chunks by hash, and keep the first occurrence of each.", [C], "one piece of code with a detail"),
 ("Is a 512-token chunk too big for short factual questions, or about right?", [A], "judgement"),
 ("Should a classroom demo use FAISS or a plain numpy search, given only 300 documents? Explain your choice.", [A], "judgement for a case"),
 ("My nDCG rose from 0.42 to 0.45 on 40 queries. Is that a real improvement, and would you ship it?", [A], "interpret numbers"),
 ("Weigh the cost of an extra LLM grading call against the hallucinations it might catch for a medical FAQ.", [A], "trade-off"),
 ("Which matters more for a small team, a faster index or better evaluation data, and why?", [A], "judgement with reasons"),
 ("Tell me whether hybrid search is worth the extra complexity for a product catalogue with many model numbers.", [A], "is it worth it"),
 ("I have 20 labelled queries. Can I tune five hyperparameters on them without overfitting?", [A], "context, then a judgement"),
 ("Compare a flat index with IVF for 10,000 vectors, and say which you would choose.", [A], "compare and choose: one judgement"),
 ("hello, good morning!", [T], "greeting"),
 ("thanks a bunch, that was really useful", [T], "thanks"),
 ("ok bye for now, talk tomorrow", [T], "farewell"),
 ("do you ever get tired of answering questions?", [T], "about the bot"),
 ("haha nice one, you made my day", [T], "small talk"),
 ("I'm back from lunch", [T], "small talk"),
 ("Look up how the handbook defines MRR, then write a function that computes it.", [R, C], "lookup then code"),
 ("Find the handbook's formula for the BM25 idf and compute it for N=1000 and n=10.", [R, C], "lookup then compute"),
 ("What does the handbook say about z-score normalisation of retrieval scores? Implement it with numpy.", [R, C], "lookup then code"),
 ("Using the handbook's description of maximal marginal relevance, code a version with lambda=0.7.", [R, C], "implicit order: read, then write"),
 ("check the handbook on recursive character splitting and then write a splitter like that", [R, C], "lookup then code, lower case"),
 ("Hey there! Look up what the handbook says about streaming tokens and then write a small demo that prints them.", [R, C], "greeting incidental; lookup then code"),
 ("What does the handbook say about HyDE, and is it a good idea for a tiny FAQ bot?", [R, A], "lookup then judge"),
 ("Look up what the handbook says about rerankers and judge whether one is worth it with a 100 ms budget.", [R, A], "lookup then judge"),
 ("Based on the handbook's notes on evaluation, tell me whether my 15-question test set is enough.", [R, A], "'based on the handbook' puts lookup first"),
 ("Read the handbook section on query routing, then recommend a router for a two-collection app.", [R, A], "lookup then recommend"),
 ("Find the handbook's advice on chunk overlap -> would 50% overlap be wasteful for my wiki?", [R, A], "arrow notation"),
 ("Compute precision@3 and recall@3 for the ranking [1, 0, 1, 1, 0] with 4 relevant items, then tell me which number is more worrying.", [C, A], "compute then judge"),
 ("Simulate 500 queries hitting a cache with a 30% hit rate and assess whether caching pays off.", [C, A], "simulate then assess"),
 ("Benchmark sorting 100,000 integers with sorted() and interpret whether that speed is fine for a reranker.", [C, A], "measure then interpret"),
 ("Run a quick experiment comparing two random seeds for k-means on toy data, then summarise the difference.", [C, A], "run then summarise"),
 ("Write a function that counts tokens per chunk for my files, then weigh whether 256 or 512 tokens suits my questions.", [C, A], "code then weigh up"),
 ("Implement the exponential decay score 0.5 ** (age / 30) and tell me whether a 30-day half-life is sensible for news search.", [C, A], "code then judge"),
 ("Decide whether cosine or dot product fits normalised MiniLM vectors, then write the scoring function.", [A, C], "decide first, then code"),
 ("Compute the average of 0.61, 0.64 and 0.59, then look up in the handbook what a good recall@10 is.", [C, R], "compute first, then lookup"),
 ("First judge whether my use case needs streaming, then find the handbook's section on stream modes.", [A, R], "judge first, then lookup"),
 ("Look up the cross-encoder section, implement a toy scorer, and explain whether it beats cosine on my three pairs.", [R, C, A], "lookup, code, explain"),
 ("Find how the handbook defines nDCG, compute it for the relevance list [3, 2, 0, 1], then interpret the value.", [R, C, A], "lookup, compute, interpret"),
 ("Check the handbook's RRF formula, fuse my two rankings in Python, and tell me if the fused order makes sense.", [R, C, A], "lookup, code, judge"),
 ("Read about product quantisation in the handbook, simulate the memory saving for 1M vectors, then recommend a code size.", [R, C, A], "lookup, simulate, recommend"),
 ("What does the handbook say about epsilon-greedy exploration? Simulate it on three arms for 300 rounds and summarise which arm won.", [R, C, A], "lookup, simulate, summarise"),
 ("Using the handbook's definition of faithfulness, write a checker for it and judge whether it would catch a made-up number.", [R, C, A], "lookup, code, judge"),
 ("Look up the two fusion methods, pick the one that needs no tuning, then code it.", [R, A, C], "lookup, decide, code"),
 ("Run the tokenizer snippet on 'Running runners ran', look up how the handbook explains stemming, then say whether the output is right.", [C, R, A], "run, lookup, judge"),
 ("Tell me whether a latency budget of 1 s allows a reranker, then read the handbook's reranker section and write a function that reranks the top 20.", [A, R, C], "judge, lookup, code"),
 ("Find the handbook's example of a conditional edge, run it on a toy state, then look up what the handbook says happens when the router returns an unknown name.", [R, C, R], "lookup, run, lookup again"),
]


def build() -> str:
    return routing_set(ITEMS, "fresh", "svf")


def main(argv: list[str] | None = None) -> int:
    return set_writer(__doc__, build, PATH, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
