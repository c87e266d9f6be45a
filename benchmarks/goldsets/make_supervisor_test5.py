"""Write the fifth test set of supervisor routing questions, ``data/eval/supervisor_routing_test5.json``.

Written blind on 2026-12-04 for ragkit issue 22, BEFORE the supervisor round it reports on: the writer read only
lines 1-50 of ``benchmarks/goldsets/make_supervisor_test4.py`` (its docstring: the four agent descriptions, the
labelling rules and the shape of the set), that file's code after its question list (lines 547 to the end, for the
builder's shape, never its questions), ``benchmarks/roles/common.py`` (helpers only, no items) and
``data/handbook.md``, and saw no supervisor code, no other routing set's items, no route examples, no tests and no
routing result; nothing was run on these questions but the near-duplicate check below. Frozen in
``data/eval/MANIFEST.json`` before the round it reports on; run once, aggregates only.

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

Shape: 96 questions. 60 one-agent (16 rag, 16 code, 16 analysis, 12 chitchat; half of the rag, code and analysis
ones, 8 each, carry a second clause or sentence the same agent serves, which a good supervisor must not split) and
36 chains: 24 of two agents (rag>code 7, rag>analysis 6, code>analysis 6, analysis>code 2, code>rag 2, analysis>rag
1, several worded in the opposite order to the work) and 12 of three (rag>code>analysis 7, code>rag>analysis 2,
rag>analysis>code 2, analysis>rag>code 1). The rag topics are spread over the whole handbook (HB-01 to HB-40: 39
sections are the fixed topic of at least one question, and HB-34 is one of the two possible targets of the
analysis>rag item). Against shortcuts: four one-agent code questions are plain arithmetic with the numbers in words
or symbols ("seventeen times twenty-three", "2^10 + 3^5"), several one-agent code questions name a handbook topic
but give the formula or data so that nothing needs looking up, and several one-agent rag and analysis questions
contain numbers (scores, counts, defaults) but ask for no computation. Styles vary on purpose: typos, lower case,
terse, polite, long context first, arrows and numbered steps, greetings in front of requests, "also" / "and then" /
"once you have", requests phrased as needs ("I need ...", "can you ..."); where code must run, the user's data
(small lists of numbers, rankings, vectors, strings) is invented in the question. Before freezing, no two questions
of this set were within MiniLM cosine 0.9 of each other (``--near``, a check that reads only this file's questions).

Run::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_supervisor_test5.py        # compare
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_supervisor_test5.py --write  # write
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 .venv/bin/python benchmarks/goldsets/make_supervisor_test5.py --near   # near dups

Limits: one writer's labels and no second annotator, written without seeing how the supervisor behaves, so a few
borderline items (the reverse-order chains, analysis>rag, analysis>code, analysis>rag>code, and the one-agent code
items that name a handbook formula) encode this writer's reading of the rules. Binomial standard errors at an
accuracy near 0.8: about 0.04 on all 96 questions, 0.07 on the 36 chains, 0.10 on a one-agent class of 16 and 0.12
on the 12 chitchat items, and larger still on the small chain classes (1 to 7 items), so per-class differences of a
few points are noise.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.roles.common import near_within, routing_set, set_writer  # noqa: E402

PATH = ROOT / "data" / "eval" / "supervisor_routing_test5.json"

R, C, A, H = "rag", "code", "analysis", "chitchat"

ITEMS: list[tuple[str, tuple[str, ...], str]] = [
    # ---- one agent: rag (16; 8 with a second clause rag also serves) ----
    ("What does the handbook say a chunk's metadata should let you do, and why should ids never be random?",
     (R,), "HB-01 lookup; the ids clause is the same lookup"),
    ("langgraph routers: why annotate the return type as a Literal of node names?",
     (R,), "HB-26 explanation, terse"),
    ("How many dimensions do all-MiniLM-L6-v2 vectors have, and what is the model's maximum sequence length?",
     (R,), "HB-04 parameters; two facts from one section"),
    ("Hi there! Could you remind me what get_state(config) gives back once a checkpointer is attached, per the handbook?",
     (R,), "HB-28 lookup of a Python name; the greeting adds no chitchat"),
    ("What common forms of query rewriting does the handbook list, and what risk of rewriting does it warn about?",
     (R,), "HB-19 lookup; the risk clause is the same lookup"),
    ("With k1 = 0 and b = 0.75, what does the handbook say happens to term frequency in BM25?",
     (R,), "HB-11 says what k1 = 0 does; numbers but no computation"),
    ("are cross-encoder scores probablities or logits? and can u compare them across diffrent queries",
     (R,), "HB-14 lookup with typos; second clause same section"),
    ("Explain the three strategies that Adaptive RAG routes a query between.",
     (R,), "HB-31 explanation"),
    ("The handbook says SciFact's corpus has 5,183 abstracts. How many claims are in its BEIR test split, and who built the dataset?",
     (R,), "HB-17 facts; numbers in the question but nothing to compute"),
    ("In a ReAct loop, who actually executes the tool, the model or the program?",
     (R,), "HB-36 says the program runs the tool; a lookup, not a judgement"),
    ("I need the handbook's explanation of what happens when two nodes write the same plain state key in one super-step.",
     (R,), "HB-24 lookup phrased as a need"),
    ("What default recursion limit does LangGraph 1.2 use, and which environment variable changes it?",
     (R,), "HB-27 default and setting; one lookup"),
    ('what does stream_mode="updates" yield? and what about "custom"',
     (R,), "HB-30 lookup, lower case; two modes from one section"),
    ("In CRAG, what happens when the retrieval evaluator judges the documents Ambiguous?",
     (R,), "HB-33 lookup"),
    ("What does the handbook recommend doing when a dataset ships only a test split?",
     (R,), "HB-18 lookup"),
    ("Can you tell me what the Beta(1, 1) starting point means in the Thompson sampling section, and why the handbook "
     "insists on a seeded random.Random?",
     (R,), "HB-40 explanation; numbers but no computation; second clause same section"),
    # ---- one agent: code (16; 8 with a second clause code also serves; 4 plain arithmetic) ----
    ("whats seventeen times twenty-three, minus forty?",
     (C,), "arithmetic with the numbers in words"),
    ("Compute (3.5 ** 2 + 12) / 4 and round it to two decimals.",
     (C,), "arithmetic in symbols; rounding is the same agent"),
    ("Write a Python function that splits a string into 50-character chunks with 10 characters of overlap, and give it "
     "a docstring.",
     (C,), "implement; the docstring is part of the same code"),
    ("Calculate the cosine similarity between [2, 1, 0] and [1, 3, 1].",
     (C,), "compute on given vectors; nothing to look up"),
    ("Run rank_bm25's BM25Okapi over the tokenised docs ['red', 'apple'], ['green', 'apple', 'pie'], ['blue', 'sky'] for "
     "the query ['apple', 'pie'], print the scores and also the index of the best one.",
     (C,), "run on invented data; the argmax is the same run"),
    ("I need a script that computes MRR when the first relevant hit sits at ranks 1, 3, none, 2 and 5 for five queries.",
     (C,), "compute a metric on given ranks"),
    ("hey, quick one: 2^10 + 3^5 = ?",
     (C,), "arithmetic in symbols; the greeting adds no chitchat"),
    ("Simulate 1,000 rolls of a fair six-sided die with seed 7 and report the mean, and also the standard deviation.",
     (C,), "simulate; both statistics from the same run"),
    ("Implement reciprocal rank fusion with k = 60 for the rankings [d1, d2, d3] and [d3, d1, d4], and show the fused "
     "order.",
     (C,), "implement with the constant given; showing the output is the same agent"),
    ("Time how long Python takes to sort one million random floats, averaged over 5 runs.",
     (C,), "measure / benchmark"),
    ("write a min-max normaliser and run it on the scores 4, 9, 1, 9",
     (C,), "write and run on invented data"),
    ("What is one hundred and twenty divided by eight, plus the square root of eighty-one?",
     (C,), "arithmetic with the numbers in words, phrased as 'what is'"),
    ("Count the word frequencies in 'the cat sat on the mat and the dog sat too' and sort them by count, highest first.",
     (C,), "compute; sorting is the same code"),
    ("Please write a tiny LangGraph StateGraph with one node that reverses the question string, and run it on 'hello'.",
     (C,), "write and run; no request for what the handbook says"),
    ("Compute recal@5 when the relevant docs are {a, c, f} and the top five retrieved are [b, a, d, c, e].",
     (C,), "compute a metric on given data, with a typo"),
    ("Generate 20 random 8-dimensional vectors with numpy (seed 3), L2-normalise them, and find the nearest neighbour "
     "of the first one other than itself.",
     (C,), "simulate and compute; all steps are code"),
    # ---- one agent: analysis (16; 8 with a second clause analysis also serves) ----
    ("Our dev set gave nDCG@10 of 0.71 for hybrid and 0.69 for BM25 on 30 queries. Is that difference meaningful, and "
     "would you switch?",
     (A,), "interpret numbers and recommend; nothing to compute"),
    ("For a corpus of 3,000 short FAQ entries, would you pick a flat index or HNSW? Justify your choice.",
     (A,), "recommend for a case; justification is the same agent"),
    ("We index about 20,000 contracts full of identifiers like 'Art. 12(3)' and part numbers, and users often paste "
     "those ids straight in. Dense-only retrieval or hybrid, which should we go with?",
     (A,), "long context first, then a recommendation"),
    ("weigh up bigger vs smaller chunks for a chatbot over long technical manuals",
     (A,), "weigh trade-offs, terse lower case"),
    ("Here are my numbers: recall@10 = 0.92 but MRR@10 = 0.41. How do you read that, and is the problem in recall or "
     "in ranking?",
     (A,), "interpret given metrics; second clause same judgement"),
    ("Is a cross-encoder reranker worth it when our latency budget is 200 ms per query and we only have CPUs?",
     (A,), "is it worth it for a case; numbers but no computation"),
    ("Summarise the pros and cons of having an LLM rewrite every user query before retrieval, and give me a one-line "
     "verdict.",
     (A,), "summarise trade-offs and judge; no handbook request"),
    ("We're a small team running an internal wiki bot and we pay per model call. Would you recommend Self-RAG style "
     "grading loops or plain single-pass RAG for us?",
     (A,), "context first, then a recommendation"),
    ("Three retrievers scored 0.58, 0.61 and 0.60 nDCG@10 on the same 300 claims. Which would you ship, and what "
     "would you want to know before deciding?",
     (A,), "interpret scores and recommend; nothing to compute"),
    ("good morning! i'm torn between MMR and plain top-k for a corpus with lots of near-duplicate pages, which fits "
     "better?",
     (A,), "which is better; the greeting adds no chitchat"),
    ("Judge this plan: tune k1 and b on the test queries, then report the test score as our headline number. What's "
     "wrong with it?",
     (A,), "judge a plan; second sentence same judgement"),
    ("Compare HyDE and multi-query retrieval for a domain the LLM knows nothing about, and tell me which is riskier.",
     (A,), "compare for a case; no handbook request"),
    ("Thompson sampling picked hybrid 640 times and bm25 360 times over 1,000 rounds. What does that tell us about the "
     "two arms?",
     (A,), "interpret counts; nothing to compute"),
    ("Our agent has 12 tools and 3 of them write data. Should every tool call need human approval, or only the "
     "writing ones?",
     (A,), "recommend a policy; numbers but no computation"),
    ("Is it worth caching query embeddings for a public search site where almost every query is unique?",
     (A,), "is it worth it for a case"),
    ("Weigh an in-memory checkpointer against SQLite for a notebook demo students rerun every day, and say which "
     "you'd pick.",
     (A,), "weigh trade-offs and recommend"),
    # ---- one agent: chitchat (12) ----
    ("hi!", (H,), "greeting only"),
    ("Thanks a lot, that fixed it.", (H,), "thanks only"),
    ("good night, talk tomorrow", (H,), "farewell"),
    ("how's your day going?", (H,), "small talk"),
    ("cheers mate, much appreciated", (H,), "thanks"),
    ("Hello again :)", (H,), "greeting"),
    ("ok bye for now", (H,), "farewell"),
    ("You're a star, thank you so much for the help earlier!", (H,), "thanks"),
    ("Happy Friday! Got any fun plans for the weekend?", (H,), "small talk"),
    ("hey, hope you're doing well", (H,), "greeting"),
    ("merci! ttyl", (H,), "thanks and farewell"),
    ("Sorry for all the questions today, you've been very patient.", (H,), "small talk, no request"),
    # ---- two agents: rag > code (7) ----
    ("What formula does the handbook give for the Okapi IDF in BM25? Then compute it for N = 1000 documents of which "
     "n = 10 contain the term.",
     (R, C), "HB-10 formula, then compute"),
    ("Write a Python function for MMR selection, using the default lambda that the handbook says LangChain uses.",
     (R, C), "HB-08 default first, then implement; worded code first"),
    ("Look up how the handbook relates squared Euclidean distance to cosine for unit vectors, and then check it "
     "numerically for [0.6, 0.8] and [1, 0].",
     (R, C), "HB-03 relation, then verify in code"),
    ("What dtype and array shape does the handbook say FAISS expects? Build an IndexFlatIP that way over [[0.1, 0.9], "
     "[0.8, 0.2], [0.5, 0.5]] and search it for [1, 0].",
     (R, C), "HB-06 lookup, then build and run"),
    ("I need the handbook's Thompson sampling update rule, and once you have it, simulate 50 rounds with two arms "
     "whose true success rates are 0.3 and 0.6 (seed 1).",
     (R, C), "HB-40 rule, then simulate"),
    ("Following the StateGraph example in the handbook, build and run a graph whose single node counts the words in "
     "the question, on the input 'how many words is this'.",
     (R, C), "HB-23 example first, then write and run"),
    ("1) check what the handbook says a node should return when a key uses operator.add  2) write a small LangGraph "
     "demo showing the list doubling when a node returns the whole state instead",
     (R, C), "HB-25 lookup, then code; numbered steps"),
    # ---- two agents: rag > analysis (6) ----
    ("What weakness of min-max normalisation does the handbook point out? Given that, would you use it or z-scores to "
     "fuse our BM25 and dense lists?",
     (R, A), "HB-13 weakness, then recommend"),
    ("Based on how the handbok describes HyDE, is it a good idea for our training corpus of fictional legislation?",
     (R, A), "HB-20 description, then judge for the case; typo"),
    ("Recommend a chunk size for our 40-page policy PDFs, but first tell me what starting points the handbook "
     "suggests.",
     (R, A), "HB-02 starting points, then recommend; worded in reverse order"),
    ("What are the handbook's three rules for keeping a supervisor safe? Then judge whether our design, with no turn "
     "cap and free-text worker names, follows them.",
     (R, A), "HB-39 rules, then judge a design"),
    ("hello! what defences does the handbook recommend against prompt injection through tool results, and which of "
     "them matters most for a read-only search bot?",
     (R, A), "HB-38 defences, then weigh for the case; greeting adds nothing"),
    ("handbook: which actions need human approval? -> given that our bot only searches and answers, is adding an "
     "approval step worth it?",
     (R, A), "HB-37 policy, then is it worth it; arrow"),
    # ---- two agents: code > analysis (6) ----
    ("Compute the mean and standard deviation of these latencies in ms: 120, 135, 410, 128, 131, 125, then tell me "
     "whether the outlier is worth worrying about.",
     (C, A), "compute, then judge"),
    ("Benchmark sorted() against heapq.nlargest for picking the top 10 of 100,000 random floats, and recommend one for "
     "our reranker.",
     (C, A), "benchmark, then recommend"),
    ("Which retriever is better on these per-query reciprocal ranks? BM25: 1, 0.5, 0.33, 1, 0; dense: 0.5, 1, 1, 0.25, "
     "0.5. Compute each one's MRR first.",
     (C, A), "compute MRR, then compare; worded in reverse order"),
    ("Run a paired bootstrap (1,000 resamples, seed 0) on these per-query nDCG differences: 0.05, -0.02, 0.10, 0.00, "
     "0.03, -0.04, 0.07, and interpret whether the gain is real.",
     (C, A), "run, then interpret"),
    ("simulate thompson sampling with 3 arms (true rates .2, .5, .55) for 500 rounds -> is 500 rounds enough to tell "
     "the top two apart?",
     (C, A), "simulate, then judge; arrow, lower case"),
    ("I need precision@5 for two systems, A with relevance flags [1,0,1,1,0] and B with [1,1,0,0,0], and a verdict on "
     "which one to keep.",
     (C, A), "compute, then recommend"),
    # ---- two agents: analysis > code (2) ----
    ("Pick whichever fusion method you think suits lists whose score scales aren't comparable, and then implement it "
     "for the rankings [a, b, c] and [c, b, e].",
     (A, C), "choose a method, then implement the choice"),
    ("Decide which chunk size makes more sense for splitting tweets, 50 or 500 characters, and then write a splitter "
     "with your choice and run it on 'short tweets are short and sweet, mostly'.",
     (A, C), "decide, then write and run the chosen splitter"),
    # ---- two agents: code > rag (2) ----
    ("Compute 1/61 + 1/62 and 1/63 + 1/61 to five decimals, then look up which documents those two sums belong to in "
     "the handbook's RRF example.",
     (C, R), "compute, then find the HB-12 example they match"),
    ("Stem the words 'running' and 'studies' with PyStemmer's Porter stemmer, and then check in the handbook whether "
     "your output matches the stems it lists.",
     (C, R), "run the stemmer, then compare with HB-09"),
    # ---- two agents: analysis > rag (1) ----
    ("For a customer-facing bot over contracts, which is the bigger risk: a wrong number in an answer or a missing "
     "citation? Once you've decided, look up what the handbook says about catching that one.",
     (A, R), "judge first, then look up the chosen risk (HB-34 or HB-35)"),
    # ---- three agents: rag > code > analysis (7) ----
    ("Look up the k1 and b that rank-bm25 uses by default, run BM25Okapi with them and again with b = 0 on the docs "
     "'a short note', 'a very long report about notes and more notes and other things', 'notes' for the query "
     "'notes', and tell me which setting ranks more sensibly.",
     (R, C, A), "HB-11 defaults, run both settings, judge"),
    ("What does the handbook say recall@k measures? Compute it at k = 3 and k = 5 for relevant {d2, d4, d9} and "
     "ranking [d4, d1, d2, d7, d9], then interpret what the jump means for how many chunks we pass the model.",
     (R, C, A), "HB-15 definition, compute, interpret"),
    ("Look up how RAG-Fusion combines ranked lists, apply it in Python to the lists [s1, s2, s3], [s2, s4, s1] and "
     "[s5, s2, s3] from three query variants, and tell me whether s2 deserves the top spot.",
     (R, C, A), "HB-21 method, apply in code, judge"),
    ("hiya. step 1: find what the handbook says pseudo-relevance feedback does with the top documents. step 2: write "
     "code that picks the 3 most frequent non-stopword terms from these top docs: 'salmon pen farm', 'fish farm salmon "
     "lice', 'farm pen nets'. step 3: say whether adding them to the query 'fish farms' risks drift.",
     (R, C, A), "HB-22 lookup, code, judge; numbered steps after a greeting"),
    ("I need three things: the nDCG position discount from the handbook, nDCG@5 computed for graded results "
     "[2, 0, 1, 0, 2], and your judgement of whether that ranking is good enough for a production search page.",
     (R, C, A), "HB-16 discount, compute, judge"),
    ("Check the handbook's rule of thumb for IVF nlist, compute what it gives for our 250,000 vectors, and recommend "
     "whether IVF is even worth it over a flat index for us.",
     (R, C, A), "HB-07 rule, compute, recommend"),
    ("Before you judge whether keying our embedding cache by row number is safe, check how the handbook builds cache "
     "keys and then compute such a key with SHA-256 for the text 'hello world' and the model 'all-MiniLM-L6-v2'.",
     (R, C, A), "HB-05 lookup, compute the key, then judge; worded judgement first"),
    # ---- three agents: code > rag > analysis (2) ----
    ("Compute the Okapi IDF log((N - n + 0.5) / (n + 0.5)) for a term found in 600 of 1,000 documents, then check what "
     "the handbook says rank-bm25 does with negative values like that, and tell me whether that floor is a sensible "
     "design.",
     (C, R, A), "compute with the given formula, look up HB-10's floor, judge"),
    ("Take the sentence 'retrieval augmented generation combines search with a language model so answers can cite "
     "sources' repeated 20 times and count its words in Python. Then look up the input limit of all-MiniLM-L6-v2 in "
     "the handbook and tell me whether a chunk that long is a good idea.",
     (C, R, A), "count in code, look up HB-04's limit, judge"),
    # ---- three agents: rag > analysis > code (2) ----
    ("Read what the handbook says about citation formats, decide which one fits our model (it has no structured "
     "output), and then write a regex parser for it and test it on 'Appeals take 30 days [Article 38].'",
     (R, A, C), "HB-35 formats, choose, implement and test"),
    ("Get the loop caps the handbook says a Self-RAG graph needs, decide sensible values for a bot with a budget of 3 "
     "model calls per question, and then code the router that enforces them.",
     (R, A, C), "HB-32 caps, decide values, implement"),
    # ---- three agents: analysis > rag > code (1) ----
    ("Our approval step guards payments above 100 crowns. First decide whether it should pause the graph for a person "
     "or just log and carry on, then look up what the handbook says about implementing the option you chose, and "
     "write the node for it.",
     (A, R, C), "decide, look up the chosen pattern (HB-29 / HB-37), implement"),
]


def near_duplicates() -> int:
    """Print every pair of this set's questions with MiniLM cosine >= 0.9; exit status 1 if there is one."""
    return near_within([q for q, _, _ in ITEMS])


def build() -> str:
    return routing_set(ITEMS, "test5", "svt5")


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
