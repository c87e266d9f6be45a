"""Write the second test set of supervisor routing questions, ``data/eval/supervisor_routing_test2.json``.

Written blind on 2026-12-03 for ragkit issue 22, BEFORE the supervisor round it reports on: the writer read only
the four agent descriptions, the labelling rules below, ``data/handbook.md`` and one format example, and saw no
supervisor code, no other routing set's items, no route examples, no tests and no routing result; no supervisor,
graph or benchmark was run on these questions. Frozen in ``data/eval/MANIFEST.json``; run once, aggregates only.

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
analysis ones carry a second clause or sentence the same agent serves) and 36 chains: 24 of two agents (rag>code
7, rag>analysis 6, code>analysis 6, analysis>code 2, code>rag 2, analysis>rag 1, several worded in the opposite
order to the work) and 12 of three (rag>code>analysis 7, code>rag>analysis 2, rag>analysis>code 2,
analysis>rag>code 1). Styles vary on purpose: typos, lower case, terse, polite, context first, arrows and
numbered steps, greetings in front of requests. Before freezing, no two questions of this set were within MiniLM
cosine 0.9 of each other (a check that reads only this file's questions).

Run::

    .venv/bin/python benchmarks/goldsets/make_supervisor_test2.py           # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_supervisor_test2.py --write   # write it (refused once frozen)

Limits: one writer's labels, written without seeing how the supervisor behaves, so a few borderline items (the
reverse-order chains, analysis>rag) encode this writer's reading of the rules; 96 questions give a binomial
standard error of about 0.04 on an accuracy near 0.8, the 36 chains about 0.07, each one-agent class of 12-16
about 0.1, so per-class differences of a few points are noise.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
from common import routing_set, set_writer  # noqa: E402

PATH = ROOT / "data" / "eval" / "supervisor_routing_test2.json"
R, C, A, T = "rag", "code", "analysis", "chitchat"
ITEMS: list[tuple[str, list[str], str]] = [
 # --- one agent: rag (16) ---
 ("what is the default k in reciprocal rank fusion", [R], "terse lookup of a default"),
 ("Hi! What does the handbook say about the maximum sequence length of all-MiniLM-L6-v2, and what happens to text beyond it?", [R], "greeting plus a lookup with a follow-up the lookup answers"),
 ("How does an IVF index decide which lists to scan at query time? Also, does it have to be trained first?", [R], "explanation plus a second question from the same section"),
 ("whats the differnce between IndexFlatIP and IndexFlatL2", [R], "typos; two handbook definitions"),
 ("In the MMR section, what does the example function return, and what is lam set to by default there?", [R], "what a handbook snippet shows, even though it is code"),
 ("Explain min-max normalisation the way the handbook does, including what happens when every score in the list is equal.", [R], "explanation with a follow-up the same section answers"),
 ("What exactly does stream_mode=\"updates\" yield?", [R], "a Python name, but only asks what the handbook says"),
 ("I'm reading about checkpointers. What does get_state return, and how is that different from get_state_history?", [R], "context first; two facts of one section"),
 ("What does the Porter stemmer turn 'studies' into in the handbook's example?", [R], "what a handbook example shows"),
 ("What are Anserini's default RM3 settings?", [R], "parameters and defaults"),
 ("Define a hallucination in the RAG sense. Does the handbook say a grounding check can detect passages that are themselves wrong?", [R], "definition plus a second sentence the lookup answers"),
 ("whats InvalidUpdateError and when does langgraph raise it", [R], "lower case, no punctuation; one lookup, two parts"),
 ("What does the Self-RAG section say the answer grader checks, and which caps should the state hold?", [R], "one section, two facts"),
 ("How many claims are in the BEIR test split of SciFact?", [R], "a number the handbook states"),
 ("Quick one: in the Thompson sampling example, how many failures does bm25 have on top of the prior?", [R], "what an example shows; no computation asked"),
 ("According to HB-38, which defences against indirect prompt injection live in code rather than in the prompt?", [R], "what a named section says"),
 # --- one agent: code (16) ---
 ("write a python function that computes precision@k from a ranked list and a set of relevant ids", [C], "implement"),
 ("Compute the cosine similarity between [1, 2, 3] and [2, 4, 7]; round it to 3 decimals.", [C], "compute with a rounding follow-up"),
 ("Run a quick simulation: 1000 rounds of Thompson sampling over three arms with true success rates 0.3, 0.5 and 0.6, seed 42, and report how often each arm was picked.", [C], "simulate; reporting the counts is the same work"),
 ("implement idf = log(1 + (N - n + 0.5) / (n + 0.5)) and evaluate it for N=1000, n=10", [C], "formula given; implement plus evaluate, one agent"),
 ("Benchmark IndexFlatIP search on 50k random 384-d vectors with k=10 and tell me the average milliseconds per query.", [C], "benchmark; the number reported is the same work"),
 ("Can you code up reciprocal rank fusion for any number of ranked lists? Ties should be broken by id.", [C], "implement with a requirement the same agent serves"),
 ("what's 1/61 + 1/62 to 5 decimals", [C], "terse arithmetic"),
 ("Write a min-max normaliser for a dict of scores that doesn't crash when all values are equal, plus a couple of asserts to test it.", [C], "implement plus tests, one agent"),
 ("pls implement nDCG@k with graded relevance using gain 2^rel - 1", [C], "implement, informal"),
 ("Hello there, could you write me a LangGraph StateGraph with two nodes, retrieve then answer, and run it once on a toy question?", [C], "greeting does not add chitchat; write and run are one agent"),
 ("Measure how long all-MiniLM-L6-v2 takes to encode 500 short sentences on this machine.", [C], "measure"),
 ("Simulate MMR with lambda 0.3 for k=2: query_sims = [0.9, 0.85, 0.5], docs 0 and 1 have similarity 0.95 with each other, every other pair 0.1. Which two get picked?", [C], "compute a selection from given numbers"),
 ("Write a regex that pulls citation ids like [HB-12] or [Article 38] out of an answer string.", [C], "write code"),
 ("Generate 10k random unit vectors in 384 dims and check numerically that squared L2 distance equals 2 - 2*cos for random pairs.", [C], "numeric check; formula given in the question"),
 ("Build a tiny TypedDict state with an operator.add documents channel, have two nodes each return one doc, and actually run it so I can see the final list.", [C], "build and run, one agent"),
 ("compute recall@10 for a query with relevant = {d1, d4, d9} when the top 10 contains only d4 and d9. then precision@10 too", [C], "compute with a second computation"),
 # --- one agent: analysis (16) ---
 ("I'm building a FAQ bot over 300 pages of product docs. Is a cross-encoder reranker worth the extra latency for me?", [A], "context first; is it worth it"),
 ("Which is better for queries full of exact article numbers, BM25 or dense retrieval? Justify briefly.", [A], "which is better, with a justify follow-up"),
 ("My recall@10 went from 0.61 to 0.64 on 30 queries after tuning k1. Is that a real improvement, and should I report it?", [A], "interpret a number, with a second judgement"),
 ("Weigh up HNSW against IVF for a corpus of 5 million vectors where we delete documents every night.", [A], "weigh up for a given case"),
 ("we got nDCG@10 0.67 with bm25 and 0.65 with dense on scifact - how should I read that, and would hybrid likely help?", [A], "interpret results plus a recommendation, one agent"),
 ("Should I turn on HyDE for a chatbot about our company's own internal regulations that no public model has seen? Give me a yes/no and the main risk.", [A], "judge for a case with a follow-up"),
 ("Summarise these results for my report: flat 0.71 recall@10 at 40 ms, HNSW 0.69 at 3 ms, IVF with nprobe=1 0.52 at 1 ms.", [A], "summarise given numbers"),
 ("is it worth caching query embeddings across users in my app, or only the document ones?", [A], "is it worth it"),
 ("For a supervisor with 4 workers, would you route with rules or with an LLM router? pros and cons please", [A], "trade-offs with a pros/cons follow-up"),
 ("Compare RRF and weighted score fusion for a case where BM25 score ranges vary wildly from one query to the next.", [A], "compare for a case"),
 ("My chunks are 2000 words each and I embed them with MiniLM. Good or bad idea? And what would you change first?", [A], "judge a setup, with a follow-up the same agent serves"),
 ("A teammate tuned the fusion alpha on the test set and got +3 nDCG. Interpret that for me, and tell me whether we can publish it.", [A], "interpret, plus a judgement"),
 ("Thompson sampling or a fixed 50/50 A/B split for choosing between bm25 and hybrid on live traffic - which would you pick for a small site with ~200 queries a day?", [A], "recommend for a case"),
 ("hmm, MMR or plain top-k for a legal corpus full of near-duplicate versions of the same act?", [A], "which is better, casual"),
 ("Given P@5 = 0.4 and MRR = 0.9 on my FAQ set, what does that tell me about the system? Which of the two should I trust for single-answer questions?", [A], "interpret numbers with a second question for the same agent"),
 ("Is a Self-RAG grading loop worth 3 extra model calls per question when my answers are already grounded 95% of the time?", [A], "is it worth it"),
 # --- one agent: chitchat (12) ---
 ("hi", [T], "bare greeting"),
 ("Good morning! How's your day going?", [T], "greeting and small talk"),
 ("thanks, that helped a lot", [T], "thanks"),
 ("ok bye for now 👋", [T], "farewell with emoji"),
 ("You're a lot more patient than my last tutor haha", [T], "small talk"),
 ("hey there, just saying hello before my exam tomorrow", [T], "greeting, no request"),
 ("Cheers mate, see you next week.", [T], "thanks and farewell"),
 ("lol that's fair", [T], "reaction only"),
 ("Thank you so much for the explanation earlier, have a great weekend!", [T], "thanks and farewell"),
 ("what's up", [T], "greeting phrased as a question"),
 ("Sorry, I was away for a bit. I'm back now.", [T], "small talk"),
 ("Nice to meet you! I'm Priya, new to the course.", [T], "introduction"),
 # --- two agents (24) ---
 ("Look up the BM25 formula in the handbook, then write it as a Python function that scores one term.", [R, C], "lookup then implement, word order = work order"),
 ("Implement reciprocal rank fusion exactly as the handbook defines it - check its formula and default k first.", [R, C], "code named first but the lookup comes first"),
 ("run the nDCG snippet from the handbook and tell me if you get the value it prints", [R, C], "the snippet must be read from the handbook before it can run"),
 ("what chunk overlap does the handbook suggest? then compute how many chunks a 10,000-word doc gives with 400-word chunks at that overlap", [R, C], "lookup a number, then compute with it"),
 ("1) find the MMR defaults in the handbook (lambda_mult, fetch_k) 2) write an mmr() that uses them as keyword defaults", [R, C], "numbered steps"),
 ("Compute the IDF of a term that appears in 5 of SciFact's 5,183 abstracts, using whichever IDF form the handbook says rank-bm25's BM25Okapi uses.", [R, C], "compute worded first; the form must be looked up first"),
 ("hey! what's the Thompson sampling update rule in HB-40? after that simulate 200 pulls of one arm with p=0.7 and print the posterior mean", [R, C], "greeting does not add chitchat; lookup then simulate"),
 ("What does the handbook say about the size of Lucene's stop list, and based on that, is a 400-word stoplist a good idea for my legal search where 'not' matters?", [R, A], "lookup then judge for a case"),
 ("Should I use HNSW for my 20k-chunk corpus? Check what the handbook says about flat indexes and when approximate ones pay off before you recommend.", [R, A], "recommendation worded first; lookup comes first"),
 ("Explain CRAG's three actions, then judge which of them my offline tutoring app could realistically implement without web access.", [R, A], "explain then judge"),
 ("pull up the handbook's numbers on SciFact (bm25 nDCG@10, test split size) -> tell me if a 0.02 gain on that split is meaningful", [R, A], "arrow; lookup then interpret"),
 ("Recommend k1 and b for a corpus of tweets, grounding the advice in what HB-11 says about defaults and short texts.", [R, A], "recommend worded first; the grounding lookup comes first"),
 ("What are the three supervisor safety rules in the handbook? Then weigh which one matters most for a two-worker setup that keeps bouncing a task back and forth.", [R, A], "lookup then weigh"),
 ("Run BM25Okapi on these three docs with k1 = 0, 1.2 and 2.0: ['vessel permit permit permit'], ['permit'], ['fish quota permit'], query 'permit', and tell me which setting ranks them most sensibly.", [C, A], "run then judge"),
 ("Which index is faster for me, flat or HNSW? Decide from actual timings: benchmark both on 100k random 384-d vectors.", [C, A], "decision worded first; the benchmark comes first"),
 ("compute mrr for these 4 queries (first relevant at ranks 1, 3, none, 2) and interpret whether that's good for an faq bot", [C, A], "compute then interpret"),
 ("Simulate Thompson sampling vs epsilon-greedy (eps 0.1) over 2000 rounds with arms 0.4/0.45/0.6, then compare their total regret and tell me which one to ship.", [C, A], "simulate then compare and recommend"),
 ("Before you tell me whether MMR is worth it for my corpus, measure it: run top-k vs MMR (lambda 0.5) on my similarity matrix and count how many near-duplicates each returns.", [C, A], "is it worth it worded first; measuring comes first"),
 ("Time it: encode 1,000 texts twice, with and without a SQLite embedding cache, then judge whether caching is worth it for notebook reruns.", [C, A], "measure then judge"),
 ("Pick the better fusion method for mixing BM25 and cosine scores in my case (score ranges vary a lot per query), then implement the one you pick.", [A, C], "choose then implement"),
 ("decide a sensible cap for my rewrite loop given each rewrite costs ~2s and users wait at most 10s, then write the router function that enforces it", [A, C], "decide then code"),
 ("Compute 1/log2(i+1) for positions 1 to 10, then check whether the handbook's figure for position 10 matches mine.", [C, R], "compute then look up"),
 ("Tokenize a 2,000-word text with MiniLM's tokenizer and count the word pieces, then tell me what the handbook says happens past the model's limit.", [C, R], "run then look up"),
 ("First decide whether my 3-million-vector index should be IVF or HNSW, given we never delete anything; then, for whichever you pick, tell me what the handbook says its tuning parameters do.", [A, R], "the lookup depends on the decision"),
 # --- three agents (12) ---
 ("Get the RRF definition from the handbook, implement it, run it on my two rankings (bm25: a b c d, dense: c a e b), and tell me whether fusion changed the top result in a meaningful way.", [R, C, A], "lookup, implement and run, interpret"),
 ("I'm building a FAQ bot for 300 pages. Check the handbook's chunk size guidance, write a splitter that follows it, run it on a sample page, and tell me if the chunks look too small for my case.", [R, C, A], "context first; three pieces of work"),
 ("Which k1 is best for my data? Use the handbook's BM25 formula, code it, score my 5 docs at k1 = 0.5, 1.2 and 2, then recommend one.", [R, C, A], "question worded first; the recommendation comes last"),
 ("look up hnsw params -> write a script sweeping efSearch 16/64/256 on random data, measuring recall@10 against flat -> tell me which efSearch to use", [R, C, A], "arrows"),
 ("What does the handbook say recall@k means? Then compute it for my 3 queries and interpret the numbers for a RAG system that passes 5 chunks to the model.", [R, C, A], "define, compute, interpret"),
 ("Hey, quick project: (1) check how the handbook defines min-max normalisation (2) implement weighted fusion with alpha 0.5 (3) tell me whether the fused ranking beats either input on my example.", [R, C, A], "greeting plus numbered steps"),
 ("Interpret my result after you compute it: first read the handbook's cosine section, then compute cosine and L2 distance for u=[0.6, 0.8] and v=[1, 0], then explain whether ranking by either would differ.", [R, C, A], "interpretation worded first; it comes last"),
 ("Run my tokenizer (lower-case, split on spaces, no stemming) on 'The permits are not valid for vessels' and list the tokens, see what the handbook's analyzer recipe is, and judge whether mine does it right.", [C, R, A], "run, look up, judge"),
 ("Benchmark MiniLM encoding speed here, compare it with what the handbook claims about laptop CPU speed, and judge whether it's fast enough to re-embed 50k chunks every night.", [C, R, A], "measure, look up the claim, judge"),
 ("Read what the handbook says about IVF and HNSW, pick the one that fits a 2M-vector corpus with frequent deletes, then write the FAISS code to build it.", [R, A, C], "lookup, choose, implement"),
 ("Check the handbook on human-in-the-loop approval, decide which of my tools (search, send_email, delete_record, lookup_price) need review, and write the review node.", [R, A, C], "lookup, decide, implement"),
 ("Decide whether MMR or plain top-k suits my near-duplicate-heavy corpus, then look up the handbook's defaults for the one you choose and code it with those defaults.", [A, R, C], "decide, look up defaults of the choice, implement"),
]


def build() -> str:
    return routing_set(ITEMS, "test2", "svt2")


def main(argv: list[str] | None = None) -> int:
    return set_writer(__doc__, build, PATH, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
