"""The labelled examples the local supervisor classifies against: one ``RouteSpec`` per agent.

Each agent is described the way a prompt would describe it, plus example requests and example *steps*
(short clauses such as "then code it up"), because :class:`ragkit.roles.supervisor.LocalSupervisor`
classifies every clause of a question on its own. The examples were written for this module; none copies
a question of the routing gold set (``benchmarks/supervisor/routing_accuracy.py`` checks that none comes
within MiniLM cosine 0.9 of a dev or test question). To fix a systematic mistake, add an example to the
right agent here, then re-measure on the dev split.
"""

from __future__ import annotations

from ragkit.roles.protocols import RouteSpec
from ragkit.roles.supervisor_types import AGENT_DESCRIPTIONS

CONTEXT = "context"  # the non-agent class of scene-setting clauses

SUPERVISOR_ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("rag", AGENT_DESCRIPTIONS["rag"], (
        "What does the handbook say about stemming?",
        "Explain how a cross-encoder reranker scores a pair.",
        "How does product quantisation work?",
        "How many layers does the embedding model have?",
        "What kinds of metadata should a chunk carry, per the handbook?",
        "What is the default lambda_mult of max_marginal_relevance_search?",
        "Define nDCG.",
        "How do reducers combine state updates in LangGraph?",
        "What does the handbook recommend for evaluation splits?",
        "Where is the SQLite cache of the embedder kept?",
        "What is an interrupt in LangGraph used for?",
        "Show me the handbook's example of a conditional edge.",
        "What does efConstruction control in HNSW?",
        "Who introduced BM25 and what do its parameters mean?",
        "look up pseudo relevance feedback",
        "look up how the scores are normalised",
        "find the definition of that metric",
        "find the section on streaming modes",
        "check the handbook for the citation format",
        "read what the handbook says about it",
        "look up its definition in the handbook",
        "get the formula from the handbook",
        "find the relevant passage",
        "what does the documentation say about tool calling",
    )),
    RouteSpec("code", AGENT_DESCRIPTIONS["code"], (
        "Write a Python function that reverses the words of a sentence.",
        "Implement a tiny inverted index over three strings.",
        "Compute 37 * 91 - 4.",
        "Calculate the F1 score for these predictions.",
        "Compute average precision for this ranking of results.",
        "What is the square root of 2 to six decimals?",
        "Run this snippet and show me what it prints.",
        "Code a function that returns the top 3 keys of a dict by value.",
        "Calculate the mean and standard deviation of 3, 5, 8, 13.",
        "Simulate rolling two dice 10,000 times with seed 0.",
        "Benchmark a list comprehension against a for loop.",
        "Give me a regex that matches ISO dates.",
        "Write a dataclass for a search result with a score.",
        "Generate random unit vectors and print their norms.",
        "then code it up",
        "implement it in Python",
        "write the function",
        "run it on a small example",
        "extend the example with one more step",
        "change the snippet so it also prints the scores",
        "compute the score for my numbers",
        "turn that into code",
        "try it out in code",
        "verify it numerically",
    )),
    RouteSpec("analysis", AGENT_DESCRIPTIONS["analysis"], (
        "Which is the better choice for a tiny corpus, a flat index or an approximate one?",
        "Is it worth adding a reranker to a chatbot with a strict latency budget?",
        "Weigh up the two designs for a support FAQ.",
        "What are the pros and cons of using an LLM as the grader?",
        "Should I prefer precision or recall for a legal search tool?",
        "My recall went from 0.61 to 0.64. Does that matter?",
        "Interpret these results for me.",
        "Recommend an approach for my use case.",
        "Is a test set of 25 questions big enough to trust?",
        "Which option would you pick for a classroom laptop, and why?",
        "Argue for and against caching answers.",
        "then tell me which one is better",
        "and explain what the result means",
        "judge whether that is a sensible setting",
        "summarise what it shows",
        "compare the two outputs",
        "rank the points by importance",
        "say whether the value makes sense",
        "decide which one to use",
        "weigh up the trade-off",
        "tell me if it is a good idea",
        "assess whether it would help in my case",
    )),
    RouteSpec("chitchat", AGENT_DESCRIPTIONS["chitchat"], (
        "hello there",
        "hey!",
        "good afternoon",
        "thanks, that helped",
        "many thanks",
        "see you later",
        "bye!",
        "how are you today?",
        "who are you?",
        "what can you do?",
        "you're great",
        "nice, cheers",
        "haha",
        "have a good weekend",
        "sorry for the late reply",
    )),
    # Not an agent: clauses that set the scene ("My index holds 50,000 vectors.") rather than ask for
    # work. A clause closest to these is never a step of its own; it joins the step next to it.
    RouteSpec(CONTEXT, "A statement of the user's situation, data or constraint, not a request.", (
        "My index holds 50,000 vectors.",
        "I have a laptop with 8 GB of RAM.",
        "for a small internal wiki",
        "given that the students have no GPU",
        "with only ten test queries",
        "in my case",
        "The latency budget is 200 ms.",
        "our users ask short questions",
        "the corpus is mostly legal text",
    )),
)

__all__ = ["CONTEXT", "SUPERVISOR_ROUTES"]
