"""Write the fourth test set of supervisor routing questions, ``data/eval/supervisor_routing_test4.json``.

Written blind on 2026-12-04 for ragkit issue 22, BEFORE the supervisor round it reports on: the writer read only
lines 1-37 of ``benchmarks/goldsets/make_supervisor_test2.py`` (its docstring: the four agent descriptions and the
labelling rules), ``benchmarks/roles/common.py`` (helpers only, no items) and ``data/handbook.md``, and saw no
supervisor code, no other routing set's items, no route examples, no tests and no routing result; nothing was run
on these questions but the near-duplicate check below. Frozen in ``data/eval/MANIFEST.json`` once the lead freezes
it; run once, aggregates only.

Agents: ``rag`` looks things up in the handbook (definitions, formulas, parameters, defaults, what a section says
or what its example shows, explanations); ``code`` writes, runs or computes with Python (implement, compute, run,
simulate, measure, benchmark); ``analysis`` compares, weighs trade-offs, judges or recommends for a given case,
interprets numbers, summarises; ``chitchat`` is greetings, thanks, farewells and small talk with no request.

Labelling rules: a greeting in front of a real request does not add ``chitchat``; a question that only asks what
the handbook says or shows (even about code, a snippet or a Python name) is ``rag`` alone; "write / implement /
compute / run" adds ``code``; "which is better / weigh up / is it worth it / interpret" adds ``analysis``; the
sequence is the order the work must happen in, whatever order the words come in; a follow-up clause the same
agent serves ("..., and what is its default?", "..., and round it to two decimals", "..., and justify your
choice") does not add a second agent, so the sequence has one entry per piece of work needing a different agent.

Shape: 96 questions. 60 one-agent (16 rag, 16 code, 16 analysis, 12 chitchat; about half of the rag, code and
analysis ones carry a second clause or sentence the same agent serves, which a good supervisor must not split) and
36 chains: 24 of two agents (rag>code 7, rag>analysis 6, code>analysis 6, analysis>code 2, code>rag 2,
analysis>rag 1, several worded in the opposite order to the work) and 12 of three (rag>code>analysis 7,
code>rag>analysis 2, rag>analysis>code 2, analysis>rag>code 1). The rag topics are spread over the whole handbook
(HB-01 to HB-40). Styles vary on purpose: typos, lower case, terse, polite, long context first, arrows and
numbered steps, greetings in front of requests, "also" / "and then" / "once you have", requests phrased as needs
("I need ...", "can you ..."); where code must run, the user's data (small lists of numbers, rankings, vectors,
strings) is invented in the question. Before freezing, no two questions of this set were within MiniLM cosine 0.9
of each other (``--near``, a check that reads only this file's questions).

Run::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_supervisor_test4.py           # compare with the file
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_supervisor_test4.py --write   # write it (refused once frozen)
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_supervisor_test4.py --near    # near-duplicate check

Limits: one writer's labels and no second annotator, written without seeing how the supervisor behaves, so a few
borderline items (the reverse-order chains, analysis>rag, analysis>code) encode this writer's reading of the rules.
Binomial standard errors at an accuracy near 0.8: about 0.04 on all 96 questions, 0.07 on the 36 chains, 0.10 on
a one-agent class of 16 and 0.12 on the 12 chitchat items, and larger still on the small chain classes (1 to 7
items), so per-class differences of a few points are noise.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
from common import near_within, routing_set, set_writer  # noqa: E402

PATH = ROOT / "data" / "eval" / "supervisor_routing_test4.json"
R, C, A, T = "rag", "code", "analysis", "chitchat"
ITEMS: list[tuple[str, list[str], str]] = [
    # one agent: rag (16; 8 with a second clause rag also serves)
    ("What three things does good document metadata pay off for, according to the handbook?", [R], "what HB-01 says"),
    (
        "how is the key of an embedding cache built, and why does the model name have to be part of it?",
        [R],
        "HB-05 explanation; the why is rag too",
    ),
    (
        "In an IVF index, what does nprobe do? And what's the rule of thumb for choosing nlist?",
        [R],
        "HB-07 parameter and rule of thumb, both lookups",
    ),
    ("whats the porter stemmer turn 'studies' into accordng to the handbook", [R], "what HB-09 shows; typos"),
    (
        "Why is a cross-encoder so much slower than a bi-encoder? Also, which cross-encoder model does the handbook "
        "give as the typical one?",
        [R],
        "HB-14 explanation plus a name, both rag",
    ),
    ("SciFact BEIR test split: how many claims?", [R], "HB-17 fact, terse"),
    (
        "Could you explain HyDE in plain words, please, and say what extra cost it adds per query?",
        [R],
        "HB-20 explanation; the cost clause is rag",
    ),
    ("RM3 defaults in Anserini?", [R], "HB-22 defaults, terse"),
    (
        "In a LangGraph state, what happens when two nodes write the same plain key in one super-step, and how does "
        "a reducer change that?",
        [R],
        "HB-24 behaviour and explanation, one lookup",
    ),
    (
        "what default recursion limit does the langgraph release ragkit uses have, and which environment variable "
        "changes it",
        [R],
        "HB-27 default and setting, lower case",
    ),
    ('Hello! What does the "updates" stream mode yield?', [R], "HB-30; greeting adds nothing"),
    (
        "I've been reading up on Corrective RAG for a course. What are the three actions its retrieval evaluator "
        "can take, and what gets used when the verdict is Ambiguous?",
        [R],
        "HB-33, context first; both clauses rag",
    ),
    ("Why does the handbook say citations shouldn't use list positions like [1]?", [R], "what HB-35 says"),
    (
        "In the tool-calling section, which field of a ToolMessage ties it back to the model's tool call?",
        [R],
        "HB-36 Python name; only asks what the handbook says",
    ),
    (
        "Per the handbook, which defences against indirect prompt injection live in code rather than in the "
        "prompt? And why shouldn't a phrase detector be the only guard?",
        [R],
        "HB-38 list and explanation, both rag",
    ),
    (
        "In the Thompson sampling example, how many successes and failures does the bm25 arm have on top of the prior?",
        [R],
        "what HB-40's example shows",
    ),
    # one agent: code (16; 8 with a second clause code also serves)
    (
        "Compute the cosine similarity between [2, 1, 0] and [1, 3, 1], and round it to three decimals.",
        [C],
        "compute; rounding is code too",
    ),
    (
        "write a python function for precision@k and run it on ranked=['d3','d1','d7','d2','d9'] with "
        "relevant={'d1','d2','d4'} and k=5",
        [C],
        "implement and run",
    ),
    (
        "Run BM25Okapi from rank_bm25 on the docs [['salmon','pen'], ['fish','farm','salmon','salmon'], "
        "['pen','ink']] for the query ['salmon'] and print the three scores.",
        [C],
        "run on given data",
    ),
    (
        "Write a function that splits an answer into sentences and returns, per sentence, the share of its content "
        "words found in a passage. Try it on the answer 'Appeals take 30 days. Fees are 5,000 crowns.' and the "
        "passage 'An appeal must be filed within 30 days of the decision.'",
        [C],
        "implement and run; the try-it sentence is code",
    ),
    (
        "nDCG@10 for the ranking ['b','x','a','y','c'] when the relevant set is {'a','b','c'}? just compute it",
        [C],
        "compute, no lookup asked",
    ),
    (
        "Implement reciprocal rank fusion with k=60 and fuse [['p','q','r'], ['r','s','p'], ['q','p']]. Break ties "
        "by id.",
        [C],
        "implement and run; tie rule is code too",
    ),
    (
        "pls min-max normalise these bm25 scores {d1: 12.4, d2: 3.1, d3: 7.7, d4: 3.1} and print them with 2 decimals",
        [C],
        "compute; formatting is code too",
    ),
    (
        "Write a recursive character splitter in plain Python (chunk_size 40, overlap 8) and test it on "
        "'Salmon farms use pens.\\n\\nPens hold fish.\\nFish eat feed daily.'",
        [C],
        "implement and run",
    ),
    (
        "Benchmark IndexFlatIP against IndexHNSWFlat on 20,000 random 384-d vectors: measure recall@10 and the "
        "mean query time of each.",
        [C],
        "benchmark and measure",
    ),
    (
        "Compute MRR@10 over three queries whose first relevant hit is at rank 2, at rank 1, and not found at all.",
        [C],
        "compute",
    ),
    (
        "hey! can you code up MMR with lambda 0.7 and run it on query sims [0.9, 0.85, 0.4, 0.6] with doc sims "
        "[[1, .9, .1, .2], [.9, 1, .2, .1], [.1, .2, 1, .3], [.2, .1, .3, 1]], picking k=2?",
        [C],
        "implement and run; greeting adds nothing",
    ),
    (
        "I need a tiny LangGraph StateGraph with two nodes, retrieve and answer, compiled and invoked on "
        "{'question': 'what is bm25?'}. Print the final state as well.",
        [C],
        "write and run; printing is code too",
    ),
    (
        "Tokenize 'The Running Studies of Water-based Permits' with lower-casing, stopword removal and PyStemmer's "
        "Porter stemmer, and show me the tokens.",
        [C],
        "run on a given string",
    ),
    (
        "count how many word pieces the MiniLM tokenizer makes of 'aquaculture licensing in Norwegian fjords'",
        [C],
        "run the tokenizer",
    ),
    (
        "Print a table of log((N - n + 0.5) / (n + 0.5)) for N = 1000 and n = 1, 10, 100, 500, 900.",
        [C],
        "compute a given formula",
    ),
    (
        "Write a regex that pulls citation ids like [HB-12] or [Article 38] out of a string, run it on "
        "'Appeals take 30 days [Article 38]. Fusion uses k=60 [HB-12].' and also return them deduplicated.",
        [C],
        "write and run; dedup clause is code too",
    ),
    # one agent: analysis (16; 8 with a second clause analysis also serves)
    (
        "Our corpus is 3 million chunks and the box has 16 GB of RAM. HNSW or IVF? Justify your choice.",
        [A],
        "recommend for a case; justification is analysis too",
    ),
    (
        "BM25 got nDCG@10 0.671 and our hybrid 0.684 on the 300 SciFact test queries. Real improvement or noise?",
        [A],
        "interpret numbers",
    ),
    (
        "Is it worth adding a cross-encoder reranker to a chatbot that must answer in under 200 ms on a CPU?",
        [A],
        "is it worth it",
    ),
    ("recall@10 = 0.92 but MRR@10 = 0.41 -- what does that tell me about my retriever?", [A], "interpret numbers"),
    (
        "Weigh up RRF against weighted score fusion for a team with no labelled queries at all, and recommend one.",
        [A],
        "weigh up and recommend, one agent",
    ),
    (
        "For legal contracts full of 'subject to clause 4' cross-references, should we chunk by clause or by fixed "
        "300-word windows?",
        [A],
        "judge for a case",
    ),
    (
        "Our Thompson sampler's arms stand at bm25 (40, 12), dense (22, 20), hybrid (3, 2). Which arm looks best "
        "right now, and is it too early to drop hybrid?",
        [A],
        "interpret numbers; second question is analysis too",
    ),
    (
        "i'm torn between HyDE and multi-query retrieval for a niche domain the model barely knows. which would you "
        "pick",
        [A],
        "recommend, lower case",
    ),
    (
        "Would you recommend Self-RAG style graders for a FAQ bot with 200 questions, given each grader is an extra "
        "model call? And what would you look at first to decide?",
        [A],
        "recommend; follow-up is analysis too",
    ),
    (
        "After we added query rewriting, p50 latency went from 120 ms to 340 ms and answer accuracy from 71% to 74%. "
        "Was it worth it?",
        [A],
        "context first; is it worth it",
    ),
    (
        "good morning! quick judgement call: should a payment tool above 100 crowns need human approval even in our "
        "internal test environment?",
        [A],
        "judge a case; greeting adds nothing",
    ),
    (
        "Compare BM25 and dense retrieval for a parts catalogue where people search by codes like XJ-2291-B.",
        [A],
        "compare for a case",
    ),
    (
        "Interpret these for me: recall@1 0.38, @5 0.71, @10 0.80, @50 0.93. What k should we pass to the "
        "generator, and why?",
        [A],
        "interpret numbers and recommend, one agent",
    ),
    (
        "For a 500-document internal wiki, is a flat FAISS index enough or should we go approximate?",
        [A],
        "judge for a case",
    ),
    (
        "Two routers on our labelled questions: rules 82% accuracy, an LLM router 88% at 40x the cost. Which one "
        "should we ship?",
        [A],
        "interpret numbers, recommend",
    ),
    (
        "Is min-max normalisation a bad idea when half our queries return weak result lists? Say what you'd use "
        "instead.",
        [A],
        "judge; the alternative is analysis too",
    ),
    # one agent: chitchat (12)
    ("hi there!", [T], "greeting"),
    ("Thanks a lot, that fixed it.", [T], "thanks"),
    ("good night, talk tomorrow", [T], "farewell"),
    ("How's your day going?", [T], "small talk"),
    ("lol ok cool", [T], "small talk"),
    ("Cheers mate, you're a star", [T], "thanks"),
    ("Happy Friday!! any plans for the weekend?", [T], "small talk"),
    ("morning :)", [T], "greeting"),
    ("bye for now", [T], "farewell"),
    ("I just wanted to say you've been really helpful this week.", [T], "thanks, no request"),
    ("Do you ever get bored answering questions all day?", [T], "small talk"),
    ("heyy whats up", [T], "greeting"),
    # two agents: rag > code (7)
    (
        "Look up the RRF formula in the handbook and use it to fuse ['a','b','c'] with ['b','d','a'] at k=60; print "
        "the fused order.",
        [R, C],
        "HB-12 formula, then compute",
    ),
    (
        "What are rank-bm25's default k1 and b? Then run BM25Okapi with those values on [['oil','spill'], "
        "['oil','price','oil'], ['spill','kit']] for the query ['oil'].",
        [R, C],
        "HB-11 defaults, then run",
    ),
    (
        "Compute nDCG@10 for the binary relevance list [1, 0, 0, 1, 0, 1], using exactly the discount the handbook "
        "defines.",
        [R, C],
        "reverse order: HB-16 discount first, then compute",
    ),
    (
        "1) find the handbook's definition of min-max normalisation, including what it does when all scores are "
        "equal 2) implement it and run it on [5, 5, 5] and [2, 8, 4]",
        [R, C],
        "numbered: HB-13 lookup, then implement",
    ),
    (
        "Using LangChain's default lambda_mult as given in the handbook, write MMR and pick 2 of 4 candidates with "
        "query sims [0.9, 0.8, 0.7, 0.3] and doc sims [[1, .95, .2, .1], [.95, 1, .3, .1], [.2, .3, 1, .4], "
        "[.1, .1, .4, 1]].",
        [R, C],
        "HB-08 default, then implement and run",
    ),
    (
        "Following the handbook's advice on what a LangGraph node should return, write a retrieve node for a state "
        "with keys question and documents and call it on {'question': 'bm25', 'documents': []}.",
        [R, C],
        "HB-25 contract, then write and run",
    ),
    (
        "hiya, can you implement recall@k the way HB-15 defines it and run it on ranked [d4, d2, d9, d1], relevant "
        "{d1, d2, d5}, k=3?",
        [R, C],
        "HB-15 definition, then implement; greeting adds nothing",
    ),
    # two agents: rag > analysis (6)
    (
        "How does the handbook say a router should be evaluated? Our router got 35 of 50 labelled questions right; "
        "is that good enough to launch?",
        [R, A],
        "HB-31 lookup, then judge",
    ),
    (
        "Given what the handbook says about MiniLM's maximum sequence length, are our 1,200-word chunks a problem?",
        [R, A],
        "HB-04 limit, then judge for the case",
    ),
    (
        "Is CRAG worth it in our fully offline setup? Before you answer, tell me what the handbook says CRAG does "
        "when retrieval is judged Incorrect.",
        [R, A],
        "reverse order: HB-33 lookup, then is it worth it",
    ),
    (
        "what does HB-18 say about choosing things by looking at test scores? we picked our fusion alpha on the test "
        "queries and reported that number - acceptable or not?",
        [R, A],
        "HB-18 lookup, then judge",
    ),
    (
        "Our grounding checker flags correct general knowledge that the passages don't mention. Does the handbook "
        "say that's expected, and should we relax it for our medical FAQ bot?",
        [R, A],
        "HB-34 lookup, then recommend",
    ),
    (
        "What failure mode of pseudo-relevance feedback does the handbook warn about? Our first-stage P@10 is only "
        "0.15, so should we switch RM3 on?",
        [R, A],
        "HB-22 lookup, then recommend",
    ),
    # two agents: code > analysis (6)
    (
        "Run BM25 and a MiniLM dense retriever over these docs for the query 'boat licence': 'Vessel permits cost "
        "200 crowns', 'Boat licence fees rose', 'Fishing quotas for 2025', 'How to renew a vessel permit'. Then "
        "tell me which ranking looks more sensible.",
        [C, A],
        "run, then compare",
    ),
    (
        "Compute P@5 and MRR for ranking A = [1, 0, 1, 1, 0] and ranking B = [1, 1, 0, 0, 0] (1 means relevant), "
        "then interpret which system a user would prefer.",
        [C, A],
        "compute, then interpret",
    ),
    (
        "Is 200 rounds enough for Thompson sampling to find the better of two arms with true rates 0.40 and 0.45? "
        "Simulate it over 500 seeds and tell me.",
        [C, A],
        "reverse order: simulate, then judge",
    ),
    (
        "time IndexFlatIP on 50k random 384-d vectors for 100 queries and then tell me if flat is fine for our "
        "50k-chunk corpus or we need IVF",
        [C, A],
        "measure, then recommend",
    ),
    (
        "Embed 'car insurance' vs 'automobile insurance' and 'Article 12' vs 'Article 21' with MiniLM, print both "
        "cosines, and interpret what they mean for choosing dense or hybrid search on our legal texts.",
        [C, A],
        "run, then interpret",
    ),
    (
        "Fuse bm25 {d1: 14.2, d2: 9.8, d3: 2.1} and dense {d2: 0.82, d3: 0.79, d4: 0.40} twice, with RRF (k=60) and "
        "with alpha=0.5 min-max fusion. Once you have both orders, compare them and recommend one for us.",
        [C, A],
        "compute both, then compare",
    ),
    # two agents: analysis > code (2)
    (
        "Our corpus is tweet-length posts. Decide whether to keep b=0.75 or go lower, and then write the rank_bm25 "
        "code that builds the index with your choice for [['late','bus'], ['bus','strike','today'], ['sunny']].",
        [A, C],
        "decide first, then write code with the choice",
    ),
    (
        "Write me a SQLite-backed embedding cache -- but first decide whether our FAQ bot, whose users rarely "
        "repeat questions, should cache query embeddings, document embeddings or both.",
        [A, C],
        "reverse order: decide, then write",
    ),
    # two agents: code > rag (2)
    (
        "can you run a small LangGraph node that calls interrupt() on a graph compiled without a checkpointer, show "
        "what happens, and then check what the handbook says interrupts need?",
        [C, R],
        "run first, then HB-29 lookup",
    ),
    (
        "Run faiss.IndexFlatIP(4) with nothing added, search it for 3 neighbours of a zero vector, and then tell me "
        "what the handbook says the -1 values in the output mean.",
        [C, R],
        "run, then HB-06 explains the output",
    ),
    # two agents: analysis > rag (1)
    (
        "Decide which of query rewriting, HyDE or RAG-Fusion best fits a bot whose users type two-word queries, and "
        "then tell me what the handbook says about the one you pick.",
        [A, R],
        "recommend first, then look the choice up",
    ),
    # three agents: rag > code > analysis (7)
    (
        "Get BM25's scoring formula from the handbook, implement it with k1=1.2 on docs [['oil','spill','oil'], "
        "['oil'], ['spill','kit','oil','tank','ship']] for the query 'oil' with b=0.75 and b=0, and interpret "
        "whether length normalisation matters here.",
        [R, C, A],
        "HB-10 formula, implement, interpret",
    ),
    (
        "1. look up the nDCG discount in HB-16\n2. compute nDCG@10 for A = [0, 1, 1, 0, 1] and B = [1, 0, 0, 1, 0]"
        "\n3. say which system is better and whether the gap means anything on five results",
        [R, C, A],
        "numbered steps in work order",
    ),
    (
        "What prior does the handbook's Thompson sampler start from? Simulate 300 rounds with it on arms whose true "
        "rates are 0.2, 0.25 and 0.6 (seed 3), then judge whether too many pulls went to the weak arms.",
        [R, C, A],
        "HB-40 prior, simulate, judge",
    ),
    (
        "Find how the handbook defines MMR, code it, run it with lambda 0.5 and 0.9 on query sims [0.8, 0.78, 0.5] "
        "and doc sims [[1, .97, .3], [.97, 1, .35], [.3, .35, 1]], and recommend a lambda for a corpus full of "
        "overlapping chunks.",
        [R, C, A],
        "HB-08 definition, run, recommend",
    ),
    (
        "I need: the handbook's two IDF forms (Okapi and Lucene) -> a script printing both for n = 1, 500, 999 out "
        "of N = 1000 -> your verdict on which form is safer for very common terms",
        [R, C, A],
        "arrows in work order",
    ),
    (
        "Which should we report, MRR or recall@5? Check how the handbook defines both, compute them for our three "
        "queries (first hits at ranks 3, 1 and none; relevant found in top 5: 1 of 2, 1 of 1, 0 of 3), and then "
        "decide.",
        [R, C, A],
        "reverse order: lookup, compute, then decide",
    ),
    (
        "Look up the overlap range the handbook suggests for chunking, then split this text into 300-character "
        "chunks at both ends of that range and compare the chunk counts and repeats, recommending one: "
        "'Permits are issued by the harbour office. Each permit names a vessel and an owner. Fees depend on "
        "length. Vessels under 12 metres pay a reduced fee. Appeals must be filed within 30 days.'",
        [R, C, A],
        "HB-02 range, run, compare",
    ),
    # three agents: code > rag > analysis (2)
    (
        "Build an IVF index with nprobe=1 on 10k random vectors and measure recall@10 against a flat index; then "
        "look up what the handbook says about nprobe, and judge whether our recall is acceptable for legal search.",
        [C, R, A],
        "measure, HB-07 lookup, judge",
    ),
    (
        "embed 'The permit costs 5,000 crowns' and 'The permit costs 50,000 crowns' with MiniLM and print the "
        "cosine, then tell me what the hallucination section says about numbers, and assess whether our "
        "embedding-only grounding check is safe",
        [C, R, A],
        "run, HB-34 lookup, assess",
    ),
    # three agents: rag > analysis > code (2)
    (
        "Check what the handbook says about HNSW's efSearch and IVF's nprobe, decide which index fits a 5M-vector "
        "corpus with a 20 ms budget, and then write the FAISS code that builds it.",
        [R, A, C],
        "HB-07 lookup, decide, write",
    ),
    (
        "What does HB-37 say about which actions need approval? Based on that, decide which of our tools "
        "(search_docs, send_email, delete_record, get_weather) need review, then implement the policy as a Python "
        "function.",
        [R, A, C],
        "HB-37 lookup, decide, implement",
    ),
    # three agents: analysis > rag > code (1)
    (
        "First pick the fusion method that suits us (no training labels, scores on wildly different scales), then "
        "pull that method's exact formula from the handbook, and finally code it and run it on ['x','y','z'] and "
        "['z','x','w'].",
        [A, R, C],
        "decide, look up the chosen formula, run",
    ),
]


def near_duplicates() -> int:
    """Print every pair of this set's questions with MiniLM cosine >= 0.9; exit status 1 if there is one."""
    return near_within([q for q, _, _ in ITEMS])


def build() -> str:
    return routing_set(ITEMS, "test4", "svt4")


def main(argv: list[str] | None = None) -> int:
    return set_writer(
        __doc__,
        build,
        PATH,
        argv,
        checks={"--near": ("fail if two questions are within MiniLM cosine 0.9", near_duplicates)},
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
