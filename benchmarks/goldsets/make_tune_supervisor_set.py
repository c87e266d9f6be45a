"""Write the supervisor's tuning set of multi-clause questions, ``data/eval/supervisor_routing_tune.json``.

Written for ragkit issue 22 from the agents' descriptions (``ragkit.domains.handbook.agents.DESCRIPTIONS``) and
the handbook's sections, BEFORE any supervisor was run on it, and frozen in ``data/eval/MANIFEST.json`` before
the first tuning run; it is a TUNING set (looked at, tuned on), not a report. Neither the test split of
``supervisor_routing.json`` nor the fresh set was read to write it (only dev items, for the format). Same item
shape and labels as ``supervisor_routing.json`` (rules: ``make_agent_sets.py``'s docstring), written to fill
what dev lacks: about half are one-agent questions with a second clause that the same agent serves (two facets
of one fact, "..., and why?", a purpose or condition clause, "and print / show / round it" in a code request),
half are chains, many joined only by a comma or a bare "and" and some with a weakly worded second step. 92
questions: 49 one-agent (21 rag, 15 code, 10 analysis, 3 chitchat), 43 chains (34 of two agents, 9 of three).

``--near`` checks, before freezing, that no question is within MiniLM cosine 0.85 of a dev, test or fresh question,
nor 0.9 of a route example, printing only this set's questions and the highest cosines (it reads no labels of the
other sets and runs no supervisor). Ten questions were rewritten after that check (nine near a test or fresh
question, one near another question of this set), by their own text only, and four chains of three added.

Run::

    .venv/bin/python benchmarks/goldsets/make_tune_supervisor_set.py           # compare with the frozen file
    .venv/bin/python benchmarks/goldsets/make_tune_supervisor_set.py --near    # the near-duplicate check
    .venv/bin/python benchmarks/goldsets/make_tune_supervisor_set.py --write   # write it (refused once frozen)

Limits: one writer's labels (a few could take another reading; their ``why`` says which reading was chosen); the
writer knew how the supervisor fails ("a follow-up that buys a hop"), so the set leans towards that failure.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this tree's ragkit, not an installed copy
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
from common import routing_set, set_writer  # noqa: E402

PATH = ROOT / "data" / "eval" / "supervisor_routing_tune.json"
R, C, A, T = "rag", "code", "analysis", "chitchat"
NEAR_SETS, NEAR_BAR, EXAMPLE_BAR = 0.85, 0.85, 0.9

ITEMS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    # ---- one agent, with a second clause the same agent serves: rag
    ("What chunk size does the handbook suggest as a starting point, and how much overlap goes with it?", (R,),
     "two facets of one handbook fact"),
    ("Explain how IVF assigns vectors to lists, and why it has to be trained first.", (R,),
     "'and why' is part of the explanation"),
    ("What does nprobe control in an IVF index, and what happens when it is set to 1?", (R,), "two facets, lookup"),
    ("Which k1 value does rank-bm25 use, and which one does Elasticsearch use?", (R,), "two facts of one kind"),
    ("What does the handbook say about stopword lists, and why can a long list hurt?", (R,),
     "the handbook gives the reason"),
    ("How does HyDE embed a question, and what can the fake passage get wrong?", (R,), "two facets, lookup"),
    ("What does the b parameter of BM25 do, and what does b = 0 mean?", (R,), "two facets, lookup"),
    ("What is RM3 and how does it weight the feedback terms?", (R,), "definition and mechanism"),
    ("What does the handbook recommend for citation ids, so that they survive a change in retrieval?", (R,),
     "purpose clause; the handbook's advice is a lookup"),
    ("If a cross-encoder is that accurate, why does the handbook still use a bi-encoder for the first stage?", (R,),
     "condition clause; the handbook gives the reason"),
    ("When a LangGraph run hits its recursion limit, which error is raised and how do I set the limit per run?",
     (R,), "condition clause, two facts"),
    ("Describe the three actions CRAG takes and say when it falls back to web search.", (R,), "two facets, lookup"),
    ("What does stream_mode='updates' yield, and what does 'values' yield instead?", (R,), "two facts of one kind"),
    ("Where must a thread_id be passed, and what happens to calls that share one?", (R,), "two facets, lookup"),
    ("Why do interrupts need a checkpointer, and what does the result contain when the graph pauses?", (R,),
     "two facets, lookup"),
    ("Who proposed reciprocal rank fusion, and where does the constant 60 come from?", (R,), "two facts"),
    ("How does Thompson sampling update its Beta posterior after a failure, and which prior does it start from?",
     (R,), "two facets, lookup"),
    ("What does a cross-encoder read at once, and why is it too slow to run over a whole corpus?", (R,),
     "the handbook gives the reason"),
    ("Tell me what the handbook says about prompt injection in retrieved pages and what it advises doing about it.",
     (R,), "the handbook's advice is a lookup"),
    ("What files does a BEIR dataset ship with, and which columns do its qrels have?", (R,), "two facts"),
    ("What does add_conditional_edges take as arguments, and what changes when the router has no Literal "
     "annotation?", (R,), "two facets, lookup"),
    # ---- one agent: code
    ("Write a sliding-window generator over a list of tokens, with the window and the step as arguments, and yield "
     "tuples.", (C,), "one piece of code, described in two clauses"),
    ("Compute the Euclidean norms of [2, 3, 6] and [1, 4, 8], and print both as integers.", (C,),
     "compute and format"),
    ("Implement z-score normalisation so that a list with zero spread comes back as all zeros.", (C,),
     "purpose clause inside one request"),
    ("Run a quick timing of sorted() on 100,000 random floats and print the milliseconds.", (C,), "run and print"),
    ("Write a Python function for recall@k, and make it return 0 when a query has no relevant documents.", (C,),
     "a second requirement of the same function"),
    ("Calculate nDCG@3 for the grades [2, 0, 1], and show the DCG and IDCG along the way.", (C,),
     "compute, showing the steps"),
    ("Code a reciprocal rank fusion function that takes k as a parameter, defaulting to 60.", (C,),
     "one function, a detail"),
    ("Simulate 1,000 Thompson sampling rounds with two arms of success rates 0.3 and 0.5 and print how many times "
     "each arm was pulled.", (C,), "printing the counts is part of the run, no interpretation"),
    ("Write a TypedDict state whose messages list uses operator.add, so that updates append instead of replace.",
     (C,), "purpose clause"),
    ("How much is 17 factorial, and how many digits does it have?", (C,), "two computations"),
    ("Implement a tiny BM25 scorer in pure Python, with k1 and b as keyword arguments.", (C,), "one function"),
    ("Generate 500 random 384-dimensional vectors, normalise them, and check that every norm is 1.", (C,),
     "a numeric check is code"),
    ("Give me a regex that finds citations like [HB-12] in an answer, and test it on two sentences.", (C,),
     "write and run"),
    ("Write a LangGraph node that returns only the documents key, since a node should not return the whole state.",
     (C,), "reason clause"),
    ("Write a function that deduplicates retrieved chunks by their metadata id, and keep the highest-scoring copy "
     "of each.", (C,), "a second requirement of the same function"),
    # ---- one agent: analysis
    ("For a corpus of 800 short FAQ entries, would you bother with an approximate index, and why or why not?",
     (A,), "judgement with its reason"),
    ("My hit rate went from 72% to 75% after adding RM3, measured on 40 queries; is the gain convincing, and would "
     "you keep RM3?", (A,), "interpret and decide"),
    ("Weigh HyDE against multi-query retrieval for a bot that must answer in under a second, and tell me which risk "
     "is bigger.", (A,), "trade-off"),
    ("Is a reranker worth it when only three chunks reach the prompt, considering that each call costs 40 ms?",
     (A,), "trade-off with a condition"),
    ("Should a teaching workbook use BM25 or dense retrieval as its first example, given that students read the "
     "scores by hand?", (A,), "judgement for a case"),
    ("Judge whether a grader threshold picked on the test set can be trusted, and say what the number overstates.",
     (A,), "judgement with its reason"),
    ("Which is safer for a medical FAQ, answering without retrieval or always retrieving, and what would you give "
     "up?", (A,), "trade-off"),
    ("Recommend a chunk overlap for contracts with long numbered clauses, and explain the reasoning.", (A,),
     "recommendation with its reason"),
    ("My grader passes 95% of answers but users still report errors. What could explain that, and what should I "
     "check first?", (A,), "diagnosis by reasoning"),
    ("Compare a single ReAct agent with a supervisor of three agents for a two-tool app, in terms of cost and "
     "debugging effort.", (A,), "comparison by reasoning"),
    # ---- one agent: chitchat
    ("thanks a lot, that really cleared things up", (T,), "thanks in two clauses"),
    ("Good morning! Hope your week is going well.", (T,), "greeting, two sentences"),
    ("ok bye for now, and thanks for the help", (T,), "farewell and thanks"),
    # ---- chains: rag -> code
    ("Look up the min-max normalisation formula and write it as a function that handles equal scores.", (R, C),
     "lookup then code, bare 'and'"),
    ("What is the RRF formula according to the handbook? Fuse the lists [a, b, c] and [c, a, d] with it.", (R, C),
     "lookup then compute"),
    ("Find how the handbook computes the nDCG discount and compute it for positions 1 to 5.", (R, C),
     "lookup then compute"),
    ("Read the handbook's note on caching embeddings and implement a cache keyed by model name and text hash.",
     (R, C), "lookup then code"),
    ("Get the MMR selection rule from the handbook, then code it for a 4 x 4 similarity matrix.", (R, C),
     "lookup then code"),
    ("Using the handbook's BM25 IDF formula, calculate the IDF of a term found in 3 of 1,000 documents.", (R, C),
     "implicit order: read, then compute"),
    ("What does the handbook's cosine example print? Change it to use [1, 2] and [2, 1] and run it.", (R, C),
     "lookup the snippet, then change and run it"),
    ("What does the handbook say about reducers? Write a reducer that keeps only the last five messages.", (R, C),
     "lookup then code"),
    ("Define nDCG as the handbook does and calculate it for the grades [0, 2, 1].", (R, C), "lookup then compute"),
    ("hi! could you look up what efSearch does in HNSW and then test two values of it in code?", (R, C),
     "greeting is incidental; lookup then code"),
    ("Get the handbook's guidance on citation formats and write a checker that flags citations to ids not in the "
     "sources.", (R, C), "lookup then code"),
    ("Check the handbook on tool calling, then write a fake tool call dict with a name, args and id.", (R, C),
     "lookup then code"),
    # ---- chains: rag -> analysis
    ("What does the handbook say about k1 saturation, and is 2.0 a sensible value for very long documents?",
     (R, A), "lookup then judge, bare 'and'"),
    ("Look up how CRAG's evaluator works and tell me whether it would suit a bot with no web access.", (R, A),
     "lookup then judge"),
    ("Summarise what the handbook says about evaluation splits, then judge whether my 20-question test set is "
     "enough.", (R, A), "lookup then judge"),
    ("Check the handbook on HNSW parameters and recommend settings for a 5-million-vector index on one server.",
     (R, A), "lookup then recommend"),
    ("According to the handbook, how does RAG-Fusion merge its lists? Is that overkill for a corpus of 300 "
     "documents?", (R, A), "lookup then judge"),
    ("Find the handbook's section on human-in-the-loop approval and decide whether my email-sending agent needs it.",
     (R, A), "lookup then decide"),
    ("Based on the handbook's explanation of prompt injection, assess the risk of letting my agent read arbitrary "
     "web pages.", (R, A), "'based on the handbook' puts lookup first"),
    ("Explain the recursion limit in LangGraph and whether 25 steps is enough for my retry loop with three retries.",
     (R, A), "lookup then judge, weakly worded second step"),
    ("Summarise the handbook's section on Self-RAG and rank its graders by how much latency they add.", (R, A),
     "lookup then rank"),
    # ---- chains: code -> analysis
    ("Count the words of three sample chunks in code and tell me whether any would be cut by a 256-word-piece "
     "window.", (C, A), "compute then judge"),
    ("Benchmark IndexFlatIP on 50,000 random vectors and say whether I need an approximate index at that size.",
     (C, A), "measure then judge"),
    ("Simulate 300 rounds of a two-armed bandit, then interpret whether the better arm was found early enough.",
     (C, A), "simulate then interpret"),
    ("Run min-max normalisation on [3, 3, 3] and [1, 5, 9], and explain whether the equal-score case is handled "
     "sensibly.", (C, A), "run then judge"),
    ("Calculate MRR for rankings whose first relevant hits are at 1, 3 and 10, and judge whether that system is "
     "usable.", (C, A), "compute then judge"),
    ("Implement cosine similarity in numpy and tell me if it is worth normalising first.", (C, A),
     "code then judge, bare 'and'"),
    ("Measure how long a loop of 100 calls of 5 ms each takes, and decide whether it fits a 300 ms budget.",
     (C, A), "measure then decide"),
    ("After computing the squared distance between [1, 1] and [0, 2], tell me whether cosine would rank them "
     "differently.", (C, A), "'after' puts the computation first"),
    # ---- chains: other orders
    ("Decide whether stemming helps for a corpus of product codes, then write the analyzer you settled on.", (A, C),
     "decide first, then code"),
    ("Work out which stopword list size is safer for legal text, then code a tokenizer that uses it.", (A, C),
     "decide first, then code"),
    ("Print 1 / log2(4), then look up which rank position of the nDCG discount gives that weight.",
     (C, R), "compute first, then lookup"),
    ("Tell me whether a nightly batch job or a live chat needs a reranker more, then look up how the handbook "
     "describes cross-encoders.", (A, R), "judge first, then lookup"),
    ("Write a function for MMR, then look up which lambda the handbook uses in its example.", (C, R),
     "code first, then lookup"),
    # ---- chains of three
    ("Look up the weighted fusion formula, implement it for alpha 0.3 and 0.7, and tell me which alpha favours "
     "exact identifiers.", (R, C, A), "lookup, code, judge"),
    ("Find what the handbook says about chunk overlap, split a 1,000-word sample text with it in code, and assess "
     "whether the duplicated text matters.", (R, C, A), "lookup, code, assess"),
    ("Read the Thompson sampling section, simulate it for three arms, then summarise what the posterior means "
     "show.", (R, C, A), "lookup, simulate, summarise"),
    ("Check the handbook's definition of recall@k, compute it for my two systems, and say which one I should "
     "deploy.", (R, C, A), "lookup, compute, decide"),
    ("Look up HyDE and multi-query retrieval, decide which one fits my short queries, then write a prompt template "
     "for that one.", (R, A, C), "lookup, decide, code"),
    ("Look up the BM25 b parameter, compute scores for a short and a long document with b = 0 and b = 0.75, and "
     "interpret the difference.", (R, C, A), "lookup, compute, interpret"),
    ("Find the handbook's advice on caching embeddings, decide whether my nightly re-index needs a cache, then code "
     "the cache if it does.", (R, A, C), "lookup, decide, code"),
    ("Run the cosine formula on two example vectors, look up what the handbook says about normalising before "
     "search, and judge whether my vectors need it.", (C, R, A), "code, lookup, judge"),
    ("Read what the handbook says about RRF, fuse three toy lists with it, and summarise which document wins and "
     "why.", (R, C, A), "lookup, code, summarise"),
)


def build() -> str:
    return routing_set(ITEMS, "tune", "svt")


def near_check() -> int:
    """Print this set's questions within the bars of another set's question or a route example (only this set's
    text and the cosine), and the highest cosine per set; 1 when any is flagged."""
    from check_near_duplicates import near_pairs

    from ragkit.core.embeddings import embed, load_embedder
    from ragkit.domains.handbook.agents import SUPERVISOR_ROUTES

    questions = [q for q, _, _ in ITEMS]
    data = json.loads((ROOT / "data" / "eval" / "supervisor_routing.json").read_text(encoding="utf-8"))
    fresh = json.loads((ROOT / "data" / "eval" / "supervisor_routing_fresh.json").read_text(encoding="utf-8"))
    others = {"dev": [i["question"] for i in data["dev"]], "test": [i["question"] for i in data["test"]],
              "fresh": [i["question"] for i in fresh["fresh"]],
              "route example": [t for s in SUPERVISOR_ROUTES for t in (s.description, *s.examples) if t.strip()]}
    embedder = load_embedder()
    mine = embed(embedder, questions)
    flagged = 0
    for name, texts in others.items():
        bar = EXAMPLE_BAR if name == "route example" else NEAR_SETS
        sims = mine @ embed(embedder, texts).T
        pairs = near_pairs(questions, texts, sims, bar)
        for cos, i, _ in pairs:
            print(f"  NEAR {name} {cos:.3f}: {questions[i]!r}")
        flagged += len(pairs)
        print(f"highest cosine to a {name}: {sims.max():.3f} (bar {bar})")
    inner = near_pairs(questions, questions, mine @ mine.T, NEAR_BAR, same_set=True)
    for cos, i, j in inner:
        print(f"  NEAR inside {cos:.3f}: {questions[i]!r} ~ {questions[j]!r}")
    return 1 if flagged or inner else 0


def main(argv: list[str] | None = None) -> int:
    return set_writer(__doc__, build, PATH, argv, {"--near": ("check for near-duplicates of the other sets", near_check)})


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
