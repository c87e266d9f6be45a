"""Write three blind evaluation sets (supervisor routing, tool-planner messages, handbook golden answers).

The items are plain Python data below; ``build()`` turns them into the exact bytes of the three files under
``data/eval/`` and ``validate()`` checks them against the project's real data, so the frozen files can be
reproduced and re-checked at any time. The sets were written BLIND: no router, supervisor, planner, graph
or role was run on them before they were frozen.

1. ``supervisor_routing.json`` -- ``{"dev": [...], "test": [...]}``; an item is
   ``{"id", "question", "sequence", "why"}``, ``sequence`` an ordered list of agents from
   ``rag`` (look up the handbook), ``code`` (write or run Python), ``analysis`` (compare, weigh up, judge
   or summarise; on its own when the question needs reasoning but no lookup or code) and ``chitchat``.
   Labelling rules: a greeting in front of a real request does not add ``chitchat``; a question that only
   asks what the handbook says or shows (even about code, a snippet or a Python name) is ``rag`` alone;
   "write/implement/compute/run" adds ``code``; "which is better / weigh up / is it worth it / interpret"
   adds ``analysis``; the order is the order the work must happen in, whatever order the words come in.
   Dev is for tuning a local classifier; test is for reporting. No question appears in both.

2. ``planner_messages.json`` -- a list of ``{"id", "message", "calls", "declined", "ask", "category"}``.
   ``calls`` are the calls a correct planner proposes, in the order the user asked for them, with
   arguments taken only from the message. Conventions a scorer must know:
   - args hold the REQUIRED arguments only (``order_id``, and ``new_address`` for a change); the optional
     ``reason`` of ``cancel_order`` is never in the gold, even when the user gives a reason;
   - ``order_id`` is written as the user typed it (``a1025`` stays lower case, as the spec asks); the
     store treats ids case-insensitively, so compare them case-insensitively;
   - ``new_address`` is the address as written, without quotes, trailing punctuation or a trailing
     joining word ("instead", "please"); an ``and`` or ``to`` INSIDE an address is kept when what follows is
     still address (a business name: "Unit 4 Mill Lane and Co, Leeds", "Marks and Spencer, 458 Oxford
     Street"), and the address ends where a new request starts ("... LS1 4AP and cancel A1010");
   - "status", "details", "what is in it" -> ``lookup_order``; "where is it", "when will it arrive",
     "tracking number", "carrier" -> ``track_shipment``;
   - ``declined`` lists TOOLS the user explicitly refuses; "not A1004" rules out an order, not a tool, so
     it leaves ``declined`` empty; a declined tool never appears in ``calls``;
   - ``ask`` is true when a request lacks a required argument (no order id, no new address, or an id not
     in the shop's format such as "1001"); the planner must ask instead of guessing, though it still
     proposes the calls of the other, complete requests in the same message.

3. ``handbook_golden.jsonl`` -- one ``{"id", "question", "reference_answer", "reference_context_ids",
   "category"}`` per line; 12 factual, 12 procedural, 12 comparison, 12 unanswerable (empty ids). Every
   answer was checked against the section text; ``validate`` also checks that every number in an answer
   occurs in the sections it cites.

Run (from the project folder)::

    .venv/bin/python benchmarks/goldsets/make_agent_sets.py           # validate and print counts
    .venv/bin/python benchmarks/goldsets/make_agent_sets.py --write   # also write the files

``--write`` refuses to change a file that is already frozen in ``data/eval/MANIFEST.json``.

Limits: the labels are one careful writer's judgement; a few supervisor items could defensibly take a
different chain (they are marked by their ``why``), and the planner gold says what should be proposed,
not what the shop's rules would then allow (cancelling a shipped order is proposed, then refused).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

AGENTS = ("rag", "code", "analysis", "chitchat")
R, C, A, T = AGENTS
PLANNER_CATEGORIES = ("negation", "multi_request", "negation_and_multi", "missing_argument", "plain")
GOLDEN_CATEGORIES = ("factual", "procedural", "comparison", "unanswerable")
FILES = ("supervisor_routing.json", "planner_messages.json", "handbook_golden.jsonl")
NOTES = {
    "supervisor_routing.json": "supervisor routing set (dev for tuning, test for reporting), written blind before any tuning",
    "planner_messages.json": "tool planner messages with negation and several requests; written blind",
    "handbook_golden.jsonl": "handbook golden set for ragkit eval, written blind",
}
MINIMUM = {"supervisor_dev": 70, "supervisor_test": 90, "planner": 50, "golden_per_category": 12}

# ---------------------------------------------------------------------------------------------------
# 1. Supervisor routing: (question, sequence, why)
# ---------------------------------------------------------------------------------------------------

SUPERVISOR_DEV: list[tuple[str, tuple[str, ...], str]] = [
    # single: rag
    ("What does the handbook say about Python's bisect?", (R,), "code word, but only a lookup"),
    ("How does IVF indexing work?", (R,), "concept explained in the handbook"),
    ("What k1 value does Lucene use for BM25?", (R,), "handbook fact"),
    ("whats a checkpointer in langgraph", (R,), "lookup, lower case, no punctuation"),
    ("Which dataset does the handbook use for teaching retrieval, and how many abstracts does it hold?", (R,), "handbook fact"),
    ("What does the add_messages reducer do?", (R,), "API name, but a lookup"),
    ("Explain prompt injection through tool results.", (R,), "concept explained in the handbook"),
    ("How does the rrf function in the handbook break ties?", (R,), "asks about a snippet, not to run it"),
    ("According to the handbook, what does interrupt() need in order to work?", (R,), "handbook fact"),
    ("Hey, what's RM3?", (R,), "greeting is incidental; lookup"),
    # single: code
    ("Write a function that computes mean reciprocal rank over a list of queries.", (C,), "write a function"),
    ("What's 2 to the power of 20?", (C,), "compute"),
    ("Run `import math; print(math.log2(3))` for me.", (C,), "run a snippet"),
    ("Give me a Python snippet that L2-normalises a numpy matrix row by row.", (C,), "write code"),
    ("Compute the squared Euclidean distance between [0.6, 0.8] and [1, 0].", (C,), "compute"),
    ("Write a tokenizer that lower-cases, splits on non-word characters and Porter-stems with PyStemmer.", (C,), "write code from a given recipe"),
    ("Generate a deterministic thread id from a user name with sha256 in Python.", (C,), "write code"),
    ("code a func that merges 2 ranked lists by alternating items, no dups", (C,), "write code, terse"),
    ("Write a LangGraph router function that returns a Literal of 'generate' or 'rewrite'.", (C,), "write code"),
    # single: analysis
    ("For a 10-document corpus, is BM25 or dense retrieval the better pick, and why?", (A,), "judgement, no lookup"),
    ("My reranker adds 300 ms per query. Is that acceptable for a batch report that runs overnight?", (A,), "weigh up a case"),
    ("Is 30 test questions enough to claim a 2-point nDCG gain? Reason it through.", (A,), "reasoning only"),
    ("Which would you trust more: a grader that is right 90% of the time on 20 examples or 85% on 500?", (A,), "reasoning only"),
    ("pros and cons of caching query embeddings for a public search site?", (A,), "pros and cons"),
    ("Should my teaching notebook use an LLM router or a rule-based one, given students have no API key?", (A,), "judgement for a case"),
    ("Is it smarter to spend my time on better chunking or on a reranker for a legal QA bot?", (A,), "trade-off"),
    ("compare one big prompt with several small specialised agents for maintainability", (A,), "comparison by reasoning"),
    # single: chitchat
    ("hi", (T,), "greeting"),
    ("Thank you so much!", (T,), "thanks"),
    ("how's it going?", (T,), "small talk"),
    ("good night!", (T,), "farewell"),
    ("lol that's funny", (T,), "small talk"),
    ("Are you a robot?", (T,), "small talk about the bot"),
    ("Happy Friday everyone", (T,), "small talk"),
    ("sorry, I was away for a bit", (T,), "small talk"),
    ("great job, appreciate it", (T,), "thanks"),
    # two: rag -> code
    ("Look up the cosine formula in the handbook and then code it with numpy.", (R, C), "lookup then code"),
    ("Find the precision@k definition and write a function for it.", (R, C), "lookup then code"),
    ("check what the handbook says about mean pooling, then implement mean pooling over a token matrix", (R, C), "lookup then code"),
    ("Using the handbook's description of Thompson sampling, write a Beta posterior update function.", (R, C), "implicit order: read, then write"),
    ("What's the Okapi IDF formula? Calculate it for N=100 and n=5 afterwards.", (R, C), "lookup then compute"),
    ("After reading up on min-max normalisation in the handbook, write it in pure Python.", (R, C), "'after' puts lookup first"),
    ("Find the StateGraph example in the handbook and extend it with a second node.", (R, C), "lookup then code"),
    ("Look up how nDCG discounts positions, then compute the discount for position 7.", (R, C), "lookup then compute"),
    ("Grab the RRF description from the handbook and implement a version that also returns the scores.", (R, C), "lookup then code"),
    ("read the handbook part about citation parsing, then write the regex", (R, C), "lookup then code"),
    # two: rag -> analysis
    ("What does the handbook say about BM25 and dense retrieval? Which suits a corpus full of legal article numbers?", (R, A), "lookup then judge"),
    ("Look up Self-RAG in the handbook and tell me if it's worth it for a low-budget project.", (R, A), "lookup then weigh up"),
    ("Compare IVF and HNSW on memory use, based on the handbook.", (R, A), "'based on the handbook' puts lookup first"),
    ("Find what the handbook says about query rewriting, then weigh its risks for queries that contain negations.", (R, A), "lookup then weigh up"),
    ("Check the handbook on loop caps, then judge whether relying on the default recursion limit is acceptable.", (R, A), "lookup then judge"),
    ("From the handbook's sections on supervisors and ReAct loops, which design fits an app with a single tool?", (R, A), "lookup then judge"),
    ("Summarise the handbook's advice on evaluation hygiene and rank the three most important points.", (R, A), "lookup then summarise and rank"),
    ("What does the handbook say about PRF? Would it help a query like 'fish farms'? weigh it up", (R, A), "lookup then weigh up"),
    ("handbook on caching embeddings -> should I cache query embeddings in my multi-user app?", (R, A), "arrow notation"),
    # two: code -> analysis
    ("Compute RRF for two lists with k=60 and tell me what the fused ranking means.", (C, A), "compute then interpret"),
    ("Run a 200-round Thompson sampling simulation and summarise how often each arm was chosen.", (C, A), "simulate then summarise"),
    ("Compute MRR for my two systems' rankings and interpret whether the difference matters with only 5 queries.", (C, A), "compute then interpret"),
    ("Measure how long sorting a million floats takes in Python and tell me whether that would be a bottleneck for reranking 100 candidates.", (C, A), "measure then judge"),
    ("Calculate nDCG@10 for rankings A and B and then compare them.", (C, A), "compute then compare"),
    ("Simulate chunking a 5,000-word document at 300 words with 15% overlap, then assess how many near-duplicate passages that creates.", (C, A), "simulate then assess"),
    # two: other orders
    ("Pick a sensible overlap for 400-word chunks and then write the splitter with it.", (A, C), "decide first, then code"),
    ("Compute 1/61 + 1/62 and then find where the handbook uses that number.", (C, R), "compute first, then lookup"),
    ("Decide which of HyDE or PRF fits short vague queries better, then pull up the handbook section on the one you picked.", (A, R), "judge first, then lookup"),
    # three: rag -> code -> analysis
    ("Look up BM25, implement it, then tell me whether it beats simple term counting on a toy example.", (R, C, A), "lookup, code, judge"),
    ("Read the MMR section, code MMR, and then explain when it hurts on my toy data.", (R, C, A), "lookup, code, explain"),
    ("Find the nDCG formula in the handbook, compute it for my ranking, and interpret the number.", (R, C, A), "lookup, compute, interpret"),
    ("Check how RRF is defined, fuse two example lists in code, then judge whether k=60 makes sense for lists of length 3.", (R, C, A), "lookup, code, judge"),
    ("First the handbook's take on Thompson sampling, then a simulation, then a summary of what it shows.", (R, C, A), "terse list of steps"),
    ("handbook says something about min-max and equal scores? code it and tell me if thats a sane choice", (R, C, A), "lookup, code, judge; typos"),
    ("Get the cosine definition, compute it for two vectors, and discuss whether the dot product would give the same ranking.", (R, C, A), "lookup, compute, discuss"),
    ("Find the handbook's recall@k definition, compute recall@5 for three queries, then summarise how the system is doing.", (R, C, A), "lookup, compute, summarise"),
    ("What does the handbook say about IVF nprobe? Write an experiment varying it, then weigh speed against recall.", (R, C, A), "lookup, code, weigh up"),
    ("Look up weighted score fusion, implement it with alpha=0.5, and compare its ordering with RRF's.", (R, C, A), "lookup, code, compare"),
    ("Using the chunking guidance, split a sample text two ways in code, then recommend one.", (R, C, A), "lookup, code, recommend"),
    # three: other orders
    ("Read about RRF and weighted fusion, decide which one needs no score calibration, then implement that one.", (R, A, C), "lookup, decide, code"),
    ("Run the MMR code on a toy matrix, look up what the handbook says lambda=0 does, and explain whether my output matches.", (C, R, A), "code, lookup, compare"),
    ("Work out whether my 2,000-vector corpus needs an approximate index, then look up the right FAISS index and write code for it.", (A, R, C), "judge, lookup, code"),
    ("Look up the FAISS example, run it, then find what a -1 in the results means according to the handbook.", (R, C, R), "lookup, run, lookup again"),
    ("Compute precision@5 for three thresholds, choose the best one, then write a function that applies it.", (C, A, C), "code, decide, code"),
]

SUPERVISOR_TEST: list[tuple[str, tuple[str, ...], str]] = [
    # single: rag
    ("Which default value of k does reciprocal rank fusion use, according to the handbook?", (R,), "handbook fact"),
    ("How many dimensions do all-MiniLM-L6-v2 vectors have?", (R,), "handbook fact"),
    ("What does the RRF code snippet in the handbook print?", (R,), "asks what a bundled snippet prints; the handbook says"),
    ("Which Python class does LangChain use for a document, and what are its two fields?", (R,), "code words, but a lookup"),
    ("In the handbook, which reducer is used for chat histories?", (R,), "lookup"),
    ("explain what HNSW's efSearch parameter does", (R,), "concept in the handbook"),
    ("what is the recursion limit default in langgraph 1.2", (R,), "handbook fact, no punctuation"),
    ("Where does ragkit's MiniLMEmbeddings keep its cached vectors?", (R,), "handbook fact"),
    ("Tell me about the three actions CRAG can take.", (R,), "concept in the handbook"),
    ("how does the handbok define precison@k and recall@k?", (R,), "definitions; typos"),
    ("Who proposed maximal marginal relevance, and when?", (R,), "handbook fact"),
    ("Which stream mode should tests compare, per the handbook?", (R,), "handbook advice"),
    ("What FAISS index does the handbook recommend as the default for a few thousand chunks?", (R,), "handbook advice"),
    ("Hi there! Quick one: what does HyDE stand for?", (R,), "greeting is incidental; lookup"),
    # single: code
    ("Write a Python function that returns precision@k given a ranked list and a set of relevant ids.", (C,), "write a function"),
    ("What is 0.75 * 384 + 12? Please compute it.", (C,), "compute"),
    ("Run print(sorted({'b': 2, 'a': 1})) and tell me the output.", (C,), "run a snippet"),
    ("compute the cosine similarity between [1, 2, 3] and [3, 2, 1]", (C,), "compute"),
    ("Can you write a regex that pulls ids like [HB-12] out of an answer string?", (C,), "write code"),
    ("Give me a function that splits a text into 200-character chunks with 20 characters of overlap.", (C,), "write code"),
    ("Calculate log2(11) to four decimals.", (C,), "compute"),
    ("Write a small TypedDict for a graph state with a question, a list of documents and a rewrite counter.", (C,), "write code"),
    ("Implement min-max normalisation for a dict of scores, handling the case where all scores are equal.", (C,), "write code; no lookup asked for"),
    ("plz write a python func to dedupe a list of strings ignoring case n whitespace", (C,), "write code; typos"),
    ("How many seconds are there in 17 days? Work it out with code.", (C,), "compute"),
    ("Draw 5 samples from Beta(2, 3) with seed 7 and print them.", (C,), "run code"),
    # single: analysis
    ("Which is better for a corpus of 12 short FAQ entries, BM25 or a dense retriever, and why?", (A,), "judgement, no lookup"),
    ("System A scored nDCG@10 0.712 and system B 0.719 on 30 queries. Is B really better?", (A,), "reasoning over given numbers"),
    ("Should a hospital chatbot favour recall or precision when it retrieves dosage information? Argue both sides briefly.", (A,), "weigh up"),
    ("Weigh up running a cross-encoder on 100 candidates versus 20 for an app with a 200 ms latency budget.", (A,), "trade-off"),
    ("I'd rather not pay for an extra LLM call per query. Is query rewriting still worth it for a tiny internal wiki?", (A,), "judgement for a case"),
    ("Give me the pros and cons of keeping checkpoints in memory versus in SQLite for a classroom demo.", (A,), "pros and cons"),
    ("For a product catalogue full of part numbers, would you lean on lexical or semantic search?", (A,), "judgement for a case"),
    ("Is it a good idea to tune BM25's b on the same 50 questions I report results on?", (A,), "methodology judgement"),
    ("Trade-off question: more chunk overlap means fewer split facts but more duplicates. Where would you set it for legal articles?", (A,), "trade-off"),
    ("which wud u pick for a small laptop demo, HNSW or a flat index? just reasoning pls", (A,), "judgement; typos"),
    ("Between a supervisor with three workers and one big agent holding every tool, which is easier to test and why?", (A,), "comparison by reasoning"),
    # single: chitchat
    ("Hello!", (T,), "greeting"),
    ("thanks a lot, that was really helpful", (T,), "thanks"),
    ("Good morning, how's your day going?", (T,), "small talk"),
    ("You're a lot friendlier than the last bot I used :)", (T,), "compliment"),
    ("ok bye for now", (T,), "farewell"),
    ("what's your name?", (T,), "small talk about the bot"),
    ("Tell me a joke about search engines.", (T,), "small talk, topic word only"),
    ("ugh, mondays. anyway, how are you?", (T,), "small talk"),
    ("Cheers, I'll try that tomorrow.", (T,), "thanks"),
    ("nice one 👍", (T,), "small talk with emoji"),
    # two: rag -> code
    ("Look up how reciprocal rank fusion works in the handbook, then write code that fuses three ranked lists with it.", (R, C), "lookup then code"),
    ("First find the BM25 formula in the handbook; after that, implement it in plain Python without rank-bm25.", (R, C), "'first ... after that'"),
    ("Using the nDCG definition from the handbook, compute nDCG@10 for the ranking [x, a, y, b] with relevant {a, b}.", (R, C), "implicit order: definition, then compute"),
    ("What MMR formula does the handbook give? Code it up for me afterwards.", (R, C), "'afterwards'"),
    ("Check the handbook for the IDF formula Lucene uses and then calculate it for N=1000, n=10.", (R, C), "lookup then compute"),
    ("Write a Thompson sampling chooser that follows exactly what the handbook describes.", (R, C), "implicit order: read, then write"),
    ("Get me the handbook's definition of min-max normalisation and turn it into a numpy function.", (R, C), "lookup then code"),
    ("look up what the handbok says about L2 distance vs cosine for unit vectors and verify it numerically with code", (R, C), "lookup then verify in code; typo"),
    ("Find the HNSW parameters in the handbook and then write a faiss snippet that sets them.", (R, C), "lookup then code"),
    ("According to the handbook, how does recursive splitting choose its separators? Implement a tiny version.", (R, C), "lookup then code"),
    ("Read up on the citation format the handbook recommends and write a parser for it.", (R, C), "lookup then code"),
    ("Pull the recall@k definition from the handbook, then compute recall@10 when 2 of 3 relevant documents are retrieved.", (R, C), "lookup then compute"),
    ("Implement the loop-cap pattern the handbook describes for LangGraph, after checking what it says.", (R, C), "words in reverse order; lookup first"),
    # two: rag -> analysis
    ("What do the handbook's sections say about BM25 and dense embeddings, and which suits product codes better?", (R, A), "lookup then judge"),
    ("Look up IVF and HNSW in the handbook, then compare them for a corpus of 50 million vectors.", (R, A), "lookup then compare"),
    ("Summarise what the handbook says about Self-RAG and CRAG and tell me which is cheaper to run.", (R, A), "lookup then judge"),
    ("According to the handbook, when does MMR hurt? Based on that, should I enable it for a FAQ bot?", (R, A), "lookup then judge"),
    ("Find the handbook's advice on chunk size and weigh it up for a collection of 300-page manuals.", (R, A), "lookup then weigh up"),
    ("Check what the handbook says about HyDE, then give me the pros and cons for a corpus of fictional statutes.", (R, A), "lookup then pros and cons"),
    ("Retrieve the handbook's sections on RRF and weighted score fusion and tell me which to choose when I have no validation queries.", (R, A), "lookup then judge"),
    ("what does the handbook say about human approval? then judge whether a read-only search tool in my app needs it", (R, A), "lookup then judge"),
    ("Given what the handbook says about multi-query retrieval, is it worth the cost for a chatbot with strict latency limits?", (R, A), "'given what the handbook says'"),
    ("Pull up the pseudo-relevance feedback section and assess whether RM3 would help when first-stage precision is poor.", (R, A), "lookup then assess"),
    ("Is the 'values' or the 'updates' stream mode the better choice for a debug panel? Check the handbook first.", (R, A), "words in reverse order; lookup first"),
    # two: code -> analysis
    ("Compute BM25 scores for a three-document toy corpus with k1=0 and k1=1.5, and tell me how the ranking changes and why.", (C, A), "compute then explain"),
    ("Run a quick simulation of Thompson sampling for 1000 rounds with two arms (success rates 0.4 and 0.6, seed 1) and interpret the results.", (C, A), "simulate then interpret"),
    ("Time a flat numpy dot-product search over 10,000 random 384-d vectors, then judge whether an approximate index would be worth it.", (C, A), "measure then judge"),
    ("Compute precision@5 and recall@5 for A=[1,4,2,9,7] and B=[4,1,8,3,5] with relevant {1,2,3}, then tell me which system looks better.", (C, A), "compute then compare"),
    ("Write code to count how many chunks a 12,000-character text yields at size 500 vs 1000 with 10% overlap, and then weigh up which setting you'd pick.", (C, A), "code then weigh up"),
    ("calculate the RRF scores for lists [a,b,c] and [c,b,a] with k=60 and k=1, then explain wich k is more sensible", (C, A), "compute then judge; typo"),
    ("Simulate MMR with lambda 0.2 and 0.8 on a toy similarity matrix and summarise what changes.", (C, A), "simulate then summarise"),
    ("Benchmark two ways of deduplicating a list in Python and tell me which is preferable, readability versus speed.", (C, A), "measure then weigh up"),
    # two: other orders
    ("Decide which of RRF or weighted fusion suits uncalibrated scores, then write the one you chose.", (A, C), "decide first, then code"),
    ("First compute 2 - 2*cos(45 degrees) in Python, then find the handbook passage explaining why that equals the squared Euclidean distance of unit vectors.", (C, R), "compute first, then lookup"),
    ("Which should I study first, reranking or fusion? After you decide, pull up the handbook section on it.", (A, R), "decide first, then lookup"),
    # three: rag -> code -> analysis
    ("Look up RRF in the handbook, implement it, then compare its output with a plain score sum on two toy lists.", (R, C, A), "lookup, code, compare"),
    ("Find the BM25 formula, code it, and tell me whether k1=1.2 or k1=2.0 ranks my toy corpus more sensibly.", (R, C, A), "lookup, code, judge"),
    ("Check the handbook's MMR description, write an implementation, and analyse how lambda changes the picks when there are near-duplicates.", (R, C, A), "lookup, code, analyse"),
    ("Using the handbook's nDCG definition, compute nDCG@10 for two rankings and explain which is better and why.", (R, C, A), "lookup, compute, explain"),
    ("What does the handbook say about min-max normalisation? Code it, run it on a list where every score is equal, and discuss whether the behaviour is sensible.", (R, C, A), "lookup, run, discuss"),
    ("First read how Thompson sampling is described, then simulate it over 500 rounds, and finally weigh up whether it beats always picking the best-known arm.", (R, C, A), "'first ... then ... finally'"),
    ("Get the IVF nprobe explanation from the handbook, write a FAISS experiment that varies nprobe, then summarise the recall/speed trade-off.", (R, C, A), "lookup, code, summarise"),
    ("look up the chunking advice, write code that chunks a sample text at 200 and 500 words, then tell me which looks better for citations", (R, C, A), "lookup, code, judge"),
    ("handbook -> precision/recall definitions, then code to compute both for my ranking, then a verdict on which metric matters for my RAG app", (R, C, A), "arrow notation"),
    ("Check how the handbook defines Lucene's IDF and Okapi's IDF, calculate both for a term found in 600 of 1000 docs, and explain why one goes negative.", (R, C, A), "lookup, compute, explain"),
    ("Research what the handbook says about cosine and L2, verify the equivalence numerically, and summarise whether I can swap IndexFlatL2 for IndexFlatIP.", (R, C, A), "lookup, verify, summarise"),
    ("pls find the hybrid fusion stuff in the handbok, code weighted fusion with alpha 0.3 and 0.7, and then tell me which alpha seems better for exact-id queries", (R, C, A), "lookup, code, judge; typos"),
    ("Based on the handbook's citation rules, write a checker for [HB-xx] citations, run it on a sample answer, and assess whether the answer is properly cited.", (R, C, A), "lookup, code, assess"),
    ("Which is better on my toy data, BM25 with k1=1.2 or 1.8? Use the handbook's formula, compute both rankings, and tell me.", (R, C, A), "question first, steps after; implicit order"),
    ("I want a verdict on whether RRF's k=60 is too large for two short lists: read the handbook, try a few k values in code, then decide.", (R, C, A), "verdict asked first, done last"),
    # three: other orders
    ("Look up MMR, decide which lambda suits a corpus full of near-copies, then write code that uses that lambda.", (R, A, C), "lookup, decide, code"),
    ("Read the handbook on RRF and weighted fusion, pick the one that needs no calibration, and implement it.", (R, A, C), "lookup, decide, code"),
    ("Run this: the cosine of [1,0] and [1,1]. Then see what the handbook's cosine example prints, and tell me whether they agree.", (C, R, A), "code, lookup, compare"),
    ("Decide whether my 8,000-chunk corpus needs an approximate index; then look up the matching FAISS index in the handbook and write the code to build it.", (A, R, C), "judge, lookup, code"),
    ("Look up the BM25 example in the handbook, run it, then find what the handbook says about the floor for negative IDF values.", (R, C, R), "lookup, run, lookup again"),
]

# ---------------------------------------------------------------------------------------------------
# 2. Tool-planner messages
# ---------------------------------------------------------------------------------------------------


def look(order_id: str) -> dict[str, Any]:
    return {"name": "lookup_order", "args": {"order_id": order_id}}


def track(order_id: str) -> dict[str, Any]:
    return {"name": "track_shipment", "args": {"order_id": order_id}}


def cancel(order_id: str) -> dict[str, Any]:
    return {"name": "cancel_order", "args": {"order_id": order_id}}


def move(order_id: str, new_address: str) -> dict[str, Any]:
    return {"name": "change_delivery_address", "args": {"order_id": order_id, "new_address": new_address}}


CANCEL, CHANGE, LOOKUP, TRACK = "cancel_order", "change_delivery_address", "lookup_order", "track_shipment"

# (category, message, calls, declined, ask)
PLANNER: list[tuple[str, str, list[dict[str, Any]], tuple[str, ...], bool]] = [
    # negation
    ("negation", "Don't cancel A1001, just tell me what is in it.", [look("A1001")], (CANCEL,), False),
    ("negation", "Do not change the address of A1005; I only want to know where the parcel is.", [track("A1005")], (CHANGE,), False),
    ("negation", "Never mind cancelling A1007 - can you track it instead?", [track("A1007")], (CANCEL,), False),
    ("negation", "I no longer want to change the address for A1010, just track it.", [track("A1010")], (CHANGE,), False),
    ("negation", "Track A1009, not A1002.", [track("A1009")], (), False),
    ("negation", "Please don't touch the delivery address of A1020. Cancel it.", [cancel("A1020")], (CHANGE,), False),
    ("negation", "I don't want to cancel A1015 after all.", [], (CANCEL,), False),
    ("negation", "Do NOT cancel A1022. Look it up for me.", [look("A1022")], (CANCEL,), False),
    ("negation", "Stop, don't change the address on A1024 to 9 Elm Grove, Bristol BS8 1QU, I've changed my mind.", [], (CHANGE,), False),
    ("negation", "Not A1003, I meant A1019. Where is it now?", [track("A1019")], (), False),
    ("negation", "Forget the cancellation for A1005; what items are in it?", [look("A1005")], (CANCEL,), False),
    ("negation", "Rather than cancelling A1010, change its delivery address to 18 Pembroke Road, Clifton, Bristol BS8 3BA.",
     [move("A1010", "18 Pembroke Road, Clifton, Bristol BS8 3BA")], (CANCEL,), False),
    ("negation", "No need to track A1011, I just want it cancelled.", [cancel("A1011")], (TRACK,), False),
    ("negation", "I'm not asking you to cancel anything: which carrier has A1021 and when does it arrive?", [track("A1021")], (CANCEL,), False),
    ("negation", "Leave A1013's address as it is and don't cancel it either; only tell me the tracking info.", [track("A1013")], (CHANGE, CANCEL), False),
    ("negation", "Can you look up A1024? Please don't cancel or change anything.", [look("A1024")], (CANCEL, CHANGE), False),
    ("negation", "instead of tracking A1025 can u just show me the order details", [look("A1025")], (TRACK,), False),
    ("negation", "Without cancelling it, tell me the status of A1013.", [look("A1013")], (CANCEL,), False),
    # multi_request
    ("multi_request", "Change the address of A1001 to 1 High St, York and also track A1002.",
     [move("A1001", "1 High St, York"), track("A1002")], (), False),
    ("multi_request", "Track A1002 and A1004.", [track("A1002"), track("A1004")], (), False),
    ("multi_request", "Cancel A1005, and what's the status of A1006?", [cancel("A1005"), look("A1006")], (), False),
    ("multi_request", "Look up A1009 and A1011, then track A1019.", [look("A1009"), look("A1011"), track("A1019")], (), False),
    ("multi_request", "Please cancel A1007 and A1013.", [cancel("A1007"), cancel("A1013")], (), False),
    ("multi_request", "Where are A1021, A1025 and A1004?", [track("A1021"), track("A1025"), track("A1004")], (), False),
    ("multi_request", "Send A1020 to Flat 2, 10 Bridge Road, Bath BA1 1AA, then tell me what's in A1012.",
     [move("A1020", "Flat 2, 10 Bridge Road, Bath BA1 1AA"), look("A1012")], (), False),
    ("multi_request", "Track A1009. Also cancel A1015.", [track("A1009"), cancel("A1015")], (), False),
    ("multi_request", "What's in order A1017 and where is A1019?", [look("A1017"), track("A1019")], (), False),
    ("multi_request", "Change the delivery address for A1022 to Marks and Spencer, 458 Oxford Street, London W1C 1AP and track A1011.",
     [move("A1022", "Marks and Spencer, 458 Oxford Street, London W1C 1AP"), track("A1011")], (), False),
    ("multi_request", "First cancel A1024, then look up A1016.", [cancel("A1024"), look("A1016")], (), False),
    ("multi_request", "A1001: new address 221B Baker Street, London NW1 6XE. A1005: cancel please.",
     [move("A1001", "221B Baker Street, London NW1 6XE"), cancel("A1005")], (), False),
    ("multi_request", "could you track A1002 & look up A1003", [track("A1002"), look("A1003")], (), False),
    ("multi_request", "Please change A1007's address to Unit 4 Mill Lane and Co, Leeds LS1 4AP and cancel A1010.",
     [move("A1007", "Unit 4 Mill Lane and Co, Leeds LS1 4AP"), cancel("A1010")], (), False),
    ("multi_request", "Track A1008, A1012 and A1016 please.", [track("A1008"), track("A1012"), track("A1016")], (), False),
    ("multi_request", "Look up A1014 and also tell me when A1009 will arrive.", [look("A1014"), track("A1009")], (), False),
    ("multi_request", "Change A1013 to Ship-to-Shore House, 3 Quay Street, Bristol BS1 4DB; also change A1015 to 500 5th Avenue, Apt 9, New York NY 10110.",
     [move("A1013", "Ship-to-Shore House, 3 Quay Street, Bristol BS1 4DB"), move("A1015", "500 5th Avenue, Apt 9, New York NY 10110")], (), False),
    ("multi_request", "Cancel A1020. What's the status of A1010 and A1022?", [cancel("A1020"), look("A1010"), look("A1022")], (), False),
    ("multi_request", "Track A1004 and then look it up too.", [track("A1004"), look("A1004")], (), False),
    ("multi_request", "Please move A1005 to 9 Elm Grove, Bristol BS8 1QU, and also track A1002.",
     [move("A1005", "9 Elm Grove, Bristol BS8 1QU"), track("A1002")], (), False),
    # negation_and_multi
    ("negation_and_multi", "Track A1002 and A1004, but don't cancel either of them.", [track("A1002"), track("A1004")], (CANCEL,), False),
    ("negation_and_multi", "Don't cancel A1005; change its address to 7 Rose Court, Flat 3, Oxford OX1 2JD and track A1009.",
     [move("A1005", "7 Rose Court, Flat 3, Oxford OX1 2JD"), track("A1009")], (CANCEL,), False),
    ("negation_and_multi", "Look up A1001 and A1007 but not A1004.", [look("A1001"), look("A1007")], (), False),
    ("negation_and_multi", "Cancel A1010 (not A1001, that one stays) and track A1019.", [cancel("A1010"), track("A1019")], (), False),
    ("negation_and_multi", "I no longer want to change the address on A1013. Instead, cancel A1015 and tell me the status of A1013.",
     [cancel("A1015"), look("A1013")], (CHANGE,), False),
    ("negation_and_multi", "Without changing anything, track A1021 and look up A1023.", [track("A1021"), look("A1023")], (CANCEL, CHANGE), False),
    ("negation_and_multi", "Never mind cancelling A1020; please send it to Road to the Isles Cottage, Mallaig PH41 4PY instead, and look up A1005 as well.",
     [move("A1020", "Road to the Isles Cottage, Mallaig PH41 4PY"), look("A1005")], (CANCEL,), False),
    ("negation_and_multi", "Don't track A1002 or A1004; just cancel A1007 and A1022.", [cancel("A1007"), cancel("A1022")], (TRACK,), False),
    ("negation_and_multi", "Don't look anything up, just change the address of A1024 to 3 Castle Street, Edinburgh EH2 3AH and cancel A1015.",
     [move("A1024", "3 Castle Street, Edinburgh EH2 3AH"), cancel("A1015")], (LOOKUP,), False),
    ("negation_and_multi", "track A1011 and A1019 pls, dont cancel or change anything", [track("A1011"), track("A1019")], (CANCEL, CHANGE), False),
    # missing_argument
    ("missing_argument", "Change my address to 5 Elm Road, Cambridge CB1 2AB.", [], (), True),
    ("missing_argument", "Cancel my order please.", [], (), True),
    ("missing_argument", "Where is my parcel?", [], (), True),
    ("missing_argument", "Please change the delivery address of A1005.", [], (), True),
    ("missing_argument", "Track A1009, and change the address on my other order to 12 Park Lane, Leeds LS1 1AA.", [track("A1009")], (), True),
    ("missing_argument", "I want to cancel an order, it's the one with the desk lamp.", [], (), True),
    ("missing_argument", "Update the delivery address for A1020, I'll send you the new one in a minute.", [], (), True),
    ("missing_argument", "What's the status of order 1001?", [], (), True),
    # plain
    ("plain", "What's in order A1003?", [look("A1003")], (), False),
    ("plain", "Track A1009 please.", [track("A1009")], (), False),
    ("plain", "Cancel A1013.", [cancel("A1013")], (), False),
    ("plain", "Please change the delivery address of A1022 to 32 Vassar Street, Apt 5, Cambridge MA 02139.",
     [move("A1022", "32 Vassar Street, Apt 5, Cambridge MA 02139")], (), False),
    ("plain", "when will a1025 arrive?", [track("a1025")], (), False),
    ("plain", "Show me the details of order A1018.", [look("A1018")], (), False),
    ("plain", "I'd like to cancel A1005 because I ordered the wrong model.", [cancel("A1005")], (), False),
    ("plain", "Change the shipping address on A1010 to 'Flat 9, 2 Princes Street, Edinburgh EH2 2BY'.",
     [move("A1010", "Flat 9, 2 Princes Street, Edinburgh EH2 2BY")], (), False),
    ("plain", "Deliver A1015 to Unit 4 Mill Lane and Co, Leeds instead.", [move("A1015", "Unit 4 Mill Lane and Co, Leeds")], (), False),
]

# ---------------------------------------------------------------------------------------------------
# 3. Handbook golden set: (category, question, reference answer, section ids)
# ---------------------------------------------------------------------------------------------------

GOLDEN: list[tuple[str, str, str, tuple[str, ...]]] = [
    # factual
    ("factual", "How many dimensions do all-MiniLM-L6-v2 embeddings have?",
     "all-MiniLM-L6-v2 outputs 384-dimensional vectors; it has six transformer layers and about 22 million parameters.", ("HB-04",)),
    ("factual", "What value of the constant k does reciprocal rank fusion use by default?",
     "k = 60, the value from the original 2009 paper by Cormack, Clarke and Büttcher; each list adds 1 / (k + rank).", ("HB-12",)),
    ("factual", "What is the maximum sequence length of all-MiniLM-L6-v2, and what happens to longer text?",
     "256 word pieces; anything longer is truncated silently, without a warning.", ("HB-04", "HB-02")),
    ("factual", "What default values does LangChain's max_marginal_relevance_search use?",
     "lambda_mult = 0.5, and it first fetches fetch_k = 20 candidates before choosing k of them.", ("HB-08",)),
    ("factual", "Which k1 value do Lucene and Elasticsearch use for BM25, and which does rank-bm25 use?",
     "Lucene and Elasticsearch use k1 = 1.2, while rank-bm25 uses 1.5.", ("HB-11",)),
    ("factual", "How many abstracts are in the SciFact corpus, and how many claims are in its BEIR test split?",
     "The corpus holds 5,183 abstracts; the BEIR test split has 300 claims with 339 relevant claim-abstract pairs.", ("HB-17",)),
    ("factual", "What default recursion limit does the LangGraph 1.2 release set?",
     "10,007 steps, changeable with the LANGGRAPH_DEFAULT_RECURSION_LIMIT environment variable; older releases used 25.", ("HB-27",)),
    ("factual", "How many words are in Lucene's default English stopword set?",
     "33 words.", ("HB-09",)),
    ("factual", "What error does LangGraph raise when two nodes write the same plain state key in one super-step?",
     "An InvalidUpdateError.", ("HB-24",)),
    ("factual", "What prior does Thompson sampling start each arm from?",
     "Beta(1, 1), the uniform prior, which says every success rate is equally likely.", ("HB-40",)),
    ("factual", "Where does ragkit's MiniLMEmbeddings store its cached vectors?",
     "In a single SQLite file under ~/.cache/ragkit, or under $RAGKIT_CACHE_DIR.", ("HB-05",)),
    ("factual", "What does a position of -1 mean in FAISS search results?",
     "It means fewer than k results existed.", ("HB-06",)),
    # procedural
    ("procedural", "How do you resume a LangGraph graph that paused at an interrupt?",
     "Invoke the graph again on the same thread (same thread_id, with a checkpointer) with Command(resume=...); the node restarts from its beginning and interrupt returns the resume value.", ("HB-29",)),
    ("procedural", "How does recursive character splitting cut a long document into chunks?",
     "It tries separators in order (paragraph breaks, then line breaks, spaces and single characters), splits any piece still over the limit with the next separator, and merges small neighbouring pieces back up to the limit with overlap between chunks.", ("HB-02",)),
    ("procedural", "How do you compute a document's reciprocal rank fusion score?",
     "Sum 1 / (k + rank) over the input lists, with rank starting at 1 and k usually 60; a list that does not contain the document contributes nothing.", ("HB-12",)),
    ("procedural", "What are the steps of pseudo-relevance feedback?",
     "Retrieve the top documents (say 10), collect terms frequent in them but not common everywhere, add the best of those terms to the query and search again; RM3 also interpolates with the original query, commonly at weight 0.5.", ("HB-22",)),
    ("procedural", "How should code check the citations in a generated answer?",
     "Parse every citation with a regular expression and check that each cited id is among the passages given to the model, that each factual sentence has at least one citation, and that the cited passage supports the sentence.", ("HB-35",)),
    ("procedural", "How do you give a LangGraph graph memory across calls?",
     "Compile it with a checkpointer such as InMemorySaver and pass a thread_id in the config; calls with the same thread_id continue the same conversation, while a new id starts fresh.", ("HB-28",)),
    ("procedural", "How does Thompson sampling choose an arm and update it after an outcome?",
     "Draw one sample from each arm's Beta posterior and pick the largest; after a success the arm's alpha grows by one, after a failure its beta grows by one.", ("HB-40",)),
    ("procedural", "How do you stop a retrieve-grade-rewrite loop in LangGraph from running forever?",
     "Keep an explicit counter such as rewrites in the state, increment it in the looping node, and have a router take an exit edge to a sensible fallback once it reaches a cap; the recursion limit is only a safety net.", ("HB-27",)),
    ("procedural", "How is a Self-RAG grading loop organised in LangGraph?",
     "A document grader drops irrelevant passages and triggers a query rewrite if none survive; a hallucination grader triggers regeneration when the answer is not grounded; an answer grader triggers a rewrite when the answer does not address the question; each loop has its own cap.", ("HB-32",)),
    ("procedural", "How is a ReAct tool-calling loop built in LangGraph?",
     "An agent node calls the model; a router sends the flow to a tools node that executes the requested calls when the last message has tool calls, and to END otherwise, with the tools node leading back to the agent (ToolNode and tools_condition implement the two parts).", ("HB-36",)),
    ("procedural", "How do you build a cache for embeddings?",
     "Store each vector under a hash (such as SHA-256) of the model name and the exact text; on lookup return cached vectors at once, send only the missing texts to the model in one batch, and write them back.", ("HB-05",)),
    ("procedural", "How do you add human approval before a tool runs in LangGraph?",
     "Place a review node before the acting node that calls interrupt() with the proposed action; the person resumes with Command(resume=...) carrying approve, reject or edit, and code routes accordingly, never treating an unknown decision as approval.", ("HB-37",)),
    # comparison
    ("comparison", "How does an IVF index differ from HNSW?",
     "IVF learns nlist k-means centroids, so it needs training, and scans only the nprobe nearest lists; HNSW builds a layered neighbour graph, needs no training and gives excellent recall, but uses more memory and does not support removing vectors easily.", ("HB-07",)),
    ("comparison", "What is the difference between a bi-encoder and a cross-encoder?",
     "A bi-encoder encodes query and document separately, so document vectors can be precomputed and indexed; a cross-encoder reads query and document together, which is more accurate but needs one model call per pair and allows no precomputation.", ("HB-14",)),
    ("comparison", "How does reciprocal rank fusion differ from weighted score fusion?",
     "RRF uses only ranks, summing 1 / (k + rank), so it needs no score calibration; weighted fusion keeps the raw scores, so each list must be normalised (for example min-max) and the weight alpha tuned on validation queries.", ("HB-12", "HB-13")),
    ("comparison", "How does LangChain's MultiQueryRetriever differ from RAG-Fusion?",
     "MultiQueryRetriever takes the deduplicated union of the documents retrieved for each generated query, while RAG-Fusion retrieves a ranked list per query and combines the lists with reciprocal rank fusion.", ("HB-21",)),
    ("comparison", "What is the difference between precision@k and recall@k?",
     "Precision@k is the fraction of the top k results that are relevant; recall@k is the fraction of all relevant documents that appear in the top k.", ("HB-15",)),
    ("comparison", "How does Lucene's IDF differ from the Okapi IDF used by BM25Okapi?",
     "Okapi IDF is log((N - n + 0.5) / (n + 0.5)), which can be negative; Lucene uses log(1 + (N - n + 0.5) / (n + 0.5)), which is never negative.", ("HB-10",)),
    ("comparison", "How do the 'values' and 'updates' stream modes of LangGraph differ?",
     "'values' yields the full state after each super-step, while 'updates' yields only what each node returned, keyed by node name.", ("HB-30",)),
    ("comparison", "How does Corrective RAG differ from Self-RAG?",
     "CRAG uses a lightweight retrieval evaluator that judges retrieval Correct, Incorrect or Ambiguous and then refines the documents or searches another source; Self-RAG trains a model to emit reflection tokens that decide when to retrieve and critique relevance, support and usefulness.", ("HB-32", "HB-33")),
    ("comparison", "What is the difference between FAISS's IndexFlatIP and IndexFlatL2?",
     "IndexFlatIP ranks by inner product and IndexFlatL2 by Euclidean distance; both are exact, and for unit-length vectors they give the same order.", ("HB-06", "HB-03")),
    ("comparison", "How does BM25's k1 parameter differ from b?",
     "k1 controls term-frequency saturation (k1 = 0 ignores term frequency), while b, between 0 and 1, controls document-length normalisation (b = 0 ignores length) and is usually 0.75.", ("HB-11",)),
    ("comparison", "How does HyDE differ from ordinary query rewriting?",
     "Query rewriting turns the question into one or more better queries, for example by expansion, removing filler or decomposition; HyDE has a model write a hypothetical answer passage and embeds that instead, and the fake passage is never shown as evidence.", ("HB-19", "HB-20")),
    ("comparison", "What is the difference between MRR and nDCG@10?",
     "MRR looks only at the rank of the first relevant result, while nDCG@10 rewards every relevant document in the top 10 with a log2(i + 1) discount, handles graded labels and is normalised by the ideal ranking.", ("HB-15", "HB-16")),
    # unanswerable
    ("unanswerable", "What embedding dimension does OpenAI's text-embedding-3-large produce?",
     "The handbook does not say; it only describes all-MiniLM-L6-v2.", ()),
    ("unanswerable", "What is the default efSearch value of FAISS's IndexHNSWFlat?",
     "The handbook does not say; it explains what efSearch controls but gives no default value.", ()),
    ("unanswerable", "What nDCG@10 does cross-encoder reranking reach on SciFact?",
     "The handbook does not give a reranking score on SciFact; it only gives BM25's nDCG@10 from the BEIR paper.", ()),
    ("unanswerable", "How many parameters does cross-encoder/ms-marco-MiniLM-L-6-v2 have?",
     "The handbook does not say; it names the model and its training data but not its size.", ()),
    ("unanswerable", "Which product quantization settings does the handbook recommend for an IndexIVFPQ?",
     "The handbook does not cover product quantization; it describes flat, IVF and HNSW indexes only.", ()),
    ("unanswerable", "What is the default chunk_size of LangChain's RecursiveCharacterTextSplitter?",
     "The handbook does not give the library default; it only suggests starting points of 200 to 500 words and notes that chunk_size counts characters.", ()),
    ("unanswerable", "When was the Snowball successor of the Porter stemmer released?",
     "The handbook does not say; it only dates the Porter stemmer to 1980.", ()),
    ("unanswerable", "How does ColBERT's late interaction score a document?",
     "The handbook does not cover ColBERT or late interaction.", ()),
    ("unanswerable", "What Recall@100 did BM25 reach on SciFact in the BEIR paper?",
     "The handbook does not say; it gives only BM25's nDCG@10 of around 0.67.", ()),
    ("unanswerable", "What learning rate was all-MiniLM-L6-v2 fine-tuned with?",
     "The handbook does not say; it only says the model was fine-tuned contrastively on over a billion sentence pairs.", ()),
    ("unanswerable", "What is the class name of LangGraph's Postgres checkpointer?",
     "The handbook does not name it; it only mentions that SQLite and Postgres savers exist besides InMemorySaver.", ()),
    ("unanswerable", "Which of the eighteen BEIR datasets has the largest corpus?",
     "The handbook does not say; among the BEIR datasets it describes only SciFact.", ()),
]

# ---------------------------------------------------------------------------------------------------
# Building, validating, writing
# ---------------------------------------------------------------------------------------------------


def supervisor_items() -> dict[str, list[dict[str, Any]]]:
    """``{"dev": [...], "test": [...]}`` with ids sv-001... numbered through dev, then test."""
    out: dict[str, list[dict[str, Any]]] = {"dev": [], "test": []}
    n = 0
    for split, rows in (("dev", SUPERVISOR_DEV), ("test", SUPERVISOR_TEST)):
        for question, sequence, why in rows:
            n += 1
            out[split].append({"id": f"sv-{n:03d}", "question": question, "sequence": list(sequence), "why": why})
    return out


def planner_items() -> list[dict[str, Any]]:
    """The planner messages with ids pm-001... in the order written."""
    return [
        {"id": f"pm-{i:03d}", "message": message, "calls": [dict(c, args=dict(c["args"])) for c in calls],
         "declined": list(declined), "ask": ask, "category": category}
        for i, (category, message, calls, declined, ask) in enumerate(PLANNER, start=1)
    ]


def golden_items() -> list[dict[str, Any]]:
    """The golden handbook questions with ids hg-01..."""
    return [
        {"id": f"hg-{i:02d}", "question": q, "reference_answer": a, "reference_context_ids": list(ids), "category": cat}
        for i, (cat, q, a, ids) in enumerate(GOLDEN, start=1)
    ]


def build() -> dict[str, str]:
    """File name -> exact text of the three files (what ``--write`` saves and what was frozen)."""
    dump = lambda obj: json.dumps(obj, ensure_ascii=False, indent=2) + "\n"  # noqa: E731
    return {
        "supervisor_routing.json": dump(supervisor_items()),
        "planner_messages.json": dump(planner_items()),
        "handbook_golden.jsonl": "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in golden_items()),
    }


def order_ids(path: Path | None = None) -> set[str]:
    """The order ids in data/orders.csv (upper case)."""
    with open(path or ROOT / "data" / "orders.csv", newline="", encoding="utf-8") as f:
        return {row["order_id"].strip().upper() for row in csv.DictReader(f)}


def _norm_question(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def validate_supervisor(sets: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Problems with the supervisor set (empty when it is valid)."""
    errors: list[str] = []
    seen: dict[str, str] = {}
    ids: set[str] = set()
    for split in ("dev", "test"):
        items = sets.get(split, [])
        if len(items) < MINIMUM[f"supervisor_{split}"]:
            errors.append(f"{split}: {len(items)} items, need at least {MINIMUM[f'supervisor_{split}']}")
        for item in items:
            where = f"{split} {item.get('id')}"
            if set(item) != {"id", "question", "sequence", "why"}:
                errors.append(f"{where}: keys {sorted(item)}")
                continue
            if item["id"] in ids:
                errors.append(f"{where}: duplicate id")
            ids.add(item["id"])
            seq = item["sequence"]
            if not 1 <= len(seq) <= 3:
                errors.append(f"{where}: sequence length {len(seq)}")
            if any(agent not in AGENTS for agent in seq):
                errors.append(f"{where}: unknown agent in {seq}")
            if any(a == b for a, b in zip(seq, seq[1:])):
                errors.append(f"{where}: immediate repeat in {seq}")
            if "chitchat" in seq and len(seq) > 1:
                errors.append(f"{where}: chitchat never starts or joins a chain")
            if not item["question"].strip() or not item["why"].strip():
                errors.append(f"{where}: empty question or why")
            key = _norm_question(item["question"])
            if key in seen:
                errors.append(f"{where}: same question as {seen[key]}")
            seen[key] = where
        singles = Counter(item["sequence"][0] for item in items if len(item["sequence"]) == 1)
        for agent in AGENTS:
            if singles[agent] == 0:
                errors.append(f"{split}: no single-agent item for {agent}")
        if singles["chitchat"] < 8:
            errors.append(f"{split}: {singles['chitchat']} chitchat items, need at least 8")
    return errors


_TRAILING_WORDS = ("and", "also", "then", "instead", "please", "pls", "to")


def validate_planner(items: list[dict[str, Any]], known_ids: set[str] | None = None) -> list[str]:
    """Problems with the planner messages (empty when they are valid)."""
    from ragkit.domains.shop.tools import ORDER_TOOL_SPECS

    specs = {spec.name: spec for spec in ORDER_TOOL_SPECS}
    known_ids = order_ids() if known_ids is None else known_ids
    errors: list[str] = []
    if len(items) < MINIMUM["planner"]:
        errors.append(f"{len(items)} planner messages, need at least {MINIMUM['planner']}")
    seen_ids, seen_messages = set(), set()
    for item in items:
        where = str(item.get("id"))
        if set(item) != {"id", "message", "calls", "declined", "ask", "category"}:
            errors.append(f"{where}: keys {sorted(item)}")
            continue
        if item["id"] in seen_ids or item["message"] in seen_messages:
            errors.append(f"{where}: duplicate id or message")
        seen_ids.add(item["id"])
        seen_messages.add(item["message"])
        message, calls, declined, cat = item["message"], item["calls"], item["declined"], item["category"]
        if cat not in PLANNER_CATEGORIES:
            errors.append(f"{where}: unknown category {cat!r}")
        if not isinstance(item["ask"], bool):
            errors.append(f"{where}: ask must be a bool")
        for call in calls:
            spec = specs.get(call.get("name"))
            if spec is None or set(call) != {"name", "args"}:
                errors.append(f"{where}: unknown tool or bad call {call}")
                continue
            args = call["args"]
            if set(args) != set(spec.required):
                errors.append(f"{where}: {spec.name} args {sorted(args)} != required {sorted(spec.required)}")
            try:
                spec.args_schema.model_validate(args)
            except Exception as err:  # pydantic.ValidationError
                errors.append(f"{where}: {spec.name} args do not validate: {err}")
            oid = str(args.get("order_id", ""))
            if oid.upper() not in known_ids:
                errors.append(f"{where}: order id {oid!r} is not in orders.csv")
            if oid not in message:
                errors.append(f"{where}: order id {oid!r} is not written in the message")
            if "new_address" in args:
                address = args["new_address"]
                if address not in message:
                    errors.append(f"{where}: new_address {address!r} is not a substring of the message")
                if address != address.strip() or address[-1] in ".,;:!?'\"" or address[0] in "'\"":
                    errors.append(f"{where}: new_address {address!r} keeps quotes, spaces or trailing punctuation")
                words = address.lower().split()
                if words[0] in _TRAILING_WORDS or words[-1] in _TRAILING_WORDS:
                    errors.append(f"{where}: new_address {address!r} starts or ends with a joining word")
        for name in declined:
            if name not in specs:
                errors.append(f"{where}: unknown declined tool {name!r}")
            if any(c.get("name") == name for c in calls):
                errors.append(f"{where}: {name} is both declined and called")
        if len(set(declined)) != len(declined):
            errors.append(f"{where}: repeated declined tool")
        n = len(calls)
        rules = {
            "plain": n == 1 and not declined and not item["ask"],
            "multi_request": n >= 2 and not declined and not item["ask"],
            "negation": n <= 1 and not item["ask"],
            "negation_and_multi": n >= 2 and not item["ask"],
            "missing_argument": item["ask"] is True,
        }
        if cat in rules and not rules[cat]:
            errors.append(f"{where}: calls/declined/ask do not fit category {cat}")
    counts = Counter(item.get("category") for item in items)
    for cat, least in (("negation", 15), ("multi_request", 15), ("negation_and_multi", 8), ("missing_argument", 3), ("plain", 3)):
        if counts[cat] < least:
            errors.append(f"{counts[cat]} {cat} messages, need at least {least}")
    return errors


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def validate_golden(items: list[dict[str, Any]], sections: dict[str, str] | None = None) -> list[str]:
    """Problems with the golden set (empty when it is valid); ``sections`` maps HB id -> section text."""
    if sections is None:
        from ragkit.domains.handbook.corpus import load_handbook

        sections = {doc.metadata["id"]: doc.page_content for doc in load_handbook()}
    errors: list[str] = []
    seen_q, seen_ids = set(), set()
    for item in items:
        where = str(item.get("id"))
        if set(item) != {"id", "question", "reference_answer", "reference_context_ids", "category"}:
            errors.append(f"{where}: keys {sorted(item)}")
            continue
        if item["id"] in seen_ids or _norm_question(item["question"]) in seen_q:
            errors.append(f"{where}: duplicate id or question")
        seen_ids.add(item["id"])
        seen_q.add(_norm_question(item["question"]))
        cat, ids = item["category"], item["reference_context_ids"]
        if cat not in GOLDEN_CATEGORIES:
            errors.append(f"{where}: unknown category {cat!r}")
        if not item["reference_answer"].strip():
            errors.append(f"{where}: empty reference answer")
        if (cat == "unanswerable") != (not ids):
            errors.append(f"{where}: unanswerable items have no ids and the others have some")
        for sid in ids:
            if sid not in sections:
                errors.append(f"{where}: {sid} is not a handbook section")
        if ids and all(sid in sections for sid in ids):
            cited = " ".join(sections[sid] for sid in ids)
            for number in _NUMBER.findall(item["reference_answer"]):
                if number not in cited:
                    errors.append(f"{where}: number {number} is not in {', '.join(ids)}")
    counts = Counter(item.get("category") for item in items)
    for cat in GOLDEN_CATEGORIES:
        if counts[cat] != MINIMUM["golden_per_category"]:
            errors.append(f"{counts[cat]} {cat} items, expected {MINIMUM['golden_per_category']}")
    return errors


def validate() -> list[str]:
    """Every problem found in the three sets as built from the data above."""
    return (
        [f"supervisor: {e}" for e in validate_supervisor(supervisor_items())]
        + [f"planner: {e}" for e in validate_planner(planner_items())]
        + [f"golden: {e}" for e in validate_golden(golden_items())]
    )


def counts() -> dict[str, Any]:
    """The counts the report prints: per split, sequence length and agent; per category."""
    out: dict[str, Any] = {}
    for split, items in supervisor_items().items():
        seqs = [tuple(i["sequence"]) for i in items]
        out[f"supervisor_{split}"] = {
            "items": len(items),
            "by_length": dict(sorted(Counter(len(s) for s in seqs).items())),
            "single_agent": {a: sum(1 for s in seqs if s == (a,)) for a in AGENTS},
            "agent_appears_in": {a: sum(1 for s in seqs if a in s) for a in AGENTS},
            "by_sequence": {">".join(k): v for k, v in sorted(Counter(seqs).items(), key=lambda kv: (len(kv[0]), kv[0]))},
        }
    planner = planner_items()
    out["planner"] = {
        "items": len(planner),
        "by_category": {c: sum(1 for i in planner if i["category"] == c) for c in PLANNER_CATEGORIES},
        "ask": sum(1 for i in planner if i["ask"]),
        "with_declined": sum(1 for i in planner if i["declined"]),
        "by_number_of_calls": dict(sorted(Counter(len(i["calls"]) for i in planner).items())),
        "calls_per_tool": dict(sorted(Counter(c["name"] for i in planner for c in i["calls"]).items())),
    }
    golden = golden_items()
    out["golden"] = {"items": len(golden), "by_category": {c: sum(1 for i in golden if i["category"] == c) for c in GOLDEN_CATEGORIES}}
    return out


def write(eval_dir: Path | None = None) -> list[Path]:
    """Write the three files; refuse to change one whose frozen hash differs from the new bytes."""
    import hashlib

    folder = eval_dir or ROOT / "data" / "eval"
    manifest_file = folder / "MANIFEST.json"
    manifest = json.loads(manifest_file.read_text(encoding="utf-8")) if manifest_file.is_file() else {}
    written = []
    for name, text in build().items():
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if name in manifest and manifest[name]["sha256"] != digest:
            raise SystemExit(f"{name} is frozen with a different hash; write a new file name instead of editing it")
        path = folder / name
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the three files to data/eval/")
    args = parser.parse_args(argv)
    errors = validate()
    for error in errors:
        print("INVALID", error)
    print(json.dumps(counts(), indent=2, ensure_ascii=False))
    if errors:
        return 1
    if args.write:
        for path in write():
            print("wrote", path.relative_to(ROOT))
        print("freeze each with: .venv/bin/python -m ragkit.goldsets freeze data/eval/<file> --note '<note>'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
