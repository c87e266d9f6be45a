"""What the supervisor's team knows about the handbook: the agents' descriptions, the local supervisor's
labelled examples, the section titles of the merged answer, and the chitchat agent's small talk.

The examples were written for this module (none within MiniLM cosine 0.9 of a routing, tuning or fresh gold
question: checked by ``benchmarks/supervisor/routing_accuracy.py`` and the tests). Each agent has requests and
*steps* ("then code it up"), since the local supervisor scores every clause on its own, and their first words are
its heads. The last examples of rag, code and analysis are the follow-ups their descriptions cover that a question
adds to one request ("and what is its default", "round it to two decimals", "justify the choice"), so a follow-up
is scored as the work it is. To fix a systematic mistake, add an example here and re-measure on the dev and tune
sets. A new corpus is a new ``TeamDomain``.
"""

from __future__ import annotations

from ragkit.roles.agent_protocols import TeamDomain
from ragkit.roles.router_protocols import RouteSpec

DESCRIPTIONS: dict[str, str] = {
    "rag": "Looks things up in the technical handbook: definitions, formulas, parameters, defaults, what a "
           "section says or what its example shows, explanations of a concept or an API.",
    "code": "Writes, runs or computes with Python: implement a function, compute a number, run a snippet, "
            "simulate, measure or benchmark something.",
    "analysis": "Compares options, weighs trade-offs, judges or recommends for a given case, interprets "
                "numbers or results, summarises what was found.",
    "chitchat": "Greetings, thanks, farewells and small talk with no request for information or code.",
}
TITLES: dict[str, str] = {"rag": "From the handbook", "code": "Code, run in the sandbox", "analysis": "Analysis",
                          "chitchat": "Reply"}
CONTEXT = "context"  # the non-agent class of scene-setting clauses

SUPERVISOR_ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("rag", DESCRIPTIONS["rag"], (
        "What does the handbook say about stemming?", "Explain how a cross-encoder reranker scores a pair.",
        "How does product quantisation work?", "How many layers does the embedding model have?",
        "What kinds of metadata should a chunk carry, per the handbook?",
        "What is the default lambda_mult of max_marginal_relevance_search?", "Define nDCG.",
        "How do reducers combine state updates in LangGraph?",
        "What does the handbook recommend for evaluation splits?", "Where is the SQLite cache of the embedder kept?",
        "What is an interrupt in LangGraph used for?", "Show me the handbook's example of a conditional edge.",
        "What does efConstruction control in HNSW?", "Who introduced BM25 and what do its parameters mean?",
        "look up pseudo relevance feedback", "look up how the scores are normalised",
        "find the definition of that metric", "find the section on streaming modes",
        "check the handbook for the citation format", "read what the handbook says about it",
        "look up its definition in the handbook", "get the formula from the handbook", "find the relevant passage",
        "what does the documentation say about tool calling",
        "and why is it designed that way", "and what is its default", "and where does the number come from",
        "and what happens at the extreme values", "describe how each step works", "and what the handbook advises",
        "which parameter controls that",
    )),
    RouteSpec("code", DESCRIPTIONS["code"], (
        "Write a Python function that reverses the words of a sentence.",
        "Implement a tiny inverted index over three strings.", "Compute 37 * 91 - 4.",
        "Calculate the F1 score for these predictions.", "Compute average precision for this ranking of results.",
        "What is the square root of 2 to six decimals?", "Run this snippet and show me what it prints.",
        "Code a function that returns the top 3 keys of a dict by value.",
        "Calculate the mean and standard deviation of 3, 5, 8, 13.",
        "Simulate rolling two dice 10,000 times with seed 0.", "Benchmark a list comprehension against a for loop.",
        "Give me a regex that matches ISO dates.", "Write a dataclass for a search result with a score.",
        "Generate random unit vectors and print their norms.",
        "then code it up", "implement it in Python", "write the function", "run it on a small example",
        "extend the example with one more step", "change the snippet so it also prints the scores",
        "compute the score for my numbers", "turn that into code", "try it out in code", "verify it numerically",
        "and print the result", "round it to two decimals", "return the values as a list", "take the size as an argument",
        "print the intermediate steps too", "handle an empty input as well", "count the matches",
        "scale the inputs to unit length",
    ), serves=("compute", "execute")),
    RouteSpec("analysis", DESCRIPTIONS["analysis"], (
        "Which is the better choice for a tiny corpus, a flat index or an approximate one?",
        "Is it worth adding a reranker to a chatbot with a strict latency budget?",
        "Weigh up the two designs for a support FAQ.", "What are the pros and cons of using an LLM as the grader?",
        "Should I prefer precision or recall for a legal search tool?",
        "My recall went from 0.61 to 0.64. Does that matter?", "Interpret these results for me.",
        "Recommend an approach for my use case.", "Is a test set of 25 questions big enough to trust?",
        "Which option would you pick for a classroom laptop, and why?", "Argue for and against caching answers.",
        "then tell me which one is better", "and explain what the result means",
        "judge whether that is a sensible setting", "summarise what it shows", "compare the two outputs",
        "rank the points by importance", "say whether the value makes sense", "decide which one to use",
        "weigh up the trade-off", "tell me if it is a good idea", "assess whether it would help in my case",
        "choose the better one for my case", "work out whether it is enough", "discuss whether it matters",
        "explain when it would be a bad idea", "is it overkill for my case", "justify the choice",
    )),
    RouteSpec("chitchat", DESCRIPTIONS["chitchat"], (
        "hello there", "hey!", "good afternoon", "thanks, that helped", "many thanks", "see you later", "bye!",
        "how are you today?", "who are you?", "what can you do?", "you're great", "nice, cheers", "haha",
        "have a good weekend", "sorry for the late reply", "that makes sense, thanks", "glad that is sorted",
    )),
    # Not an agent: clauses that set the scene ("My index holds 50,000 vectors.") rather than ask for
    # work. A clause closest to these is never a step of its own; it joins the step next to it.
    RouteSpec(CONTEXT, "A statement of the user's situation, data or constraint, not a request.", (
        "My index holds 50,000 vectors.", "I have a laptop with 8 GB of RAM.", "for a small internal wiki",
        "given that the students have no GPU", "with only ten test queries", "in my case",
        "The latency budget is 200 ms.", "our users ask short questions", "the corpus is mostly legal text",
    )),
)

# The chitchat agent's kinds of small talk and its reply to each (offline: no chat model).
SMALL_TALK: tuple[RouteSpec, ...] = (
    RouteSpec("greeting", "a greeting", ("hello", "hi there", "good morning", "hey, how are you?")),
    RouteSpec("thanks", "thanks or praise", ("thank you", "thanks a lot", "great, that helped", "you're brilliant")),
    RouteSpec("farewell", "saying goodbye", ("bye", "see you tomorrow", "good night", "that's all for today")),
    RouteSpec("about", "a question about the assistant itself", ("who are you?", "what can you do?", "are you a bot?")),
    RouteSpec("small_talk", "other small talk", ("nice weather today", "haha", "I'm back", "happy holidays")),
)
REPLIES: dict[str, str] = {
    "greeting": "Hello! I can look things up in the ragkit handbook, run Python in a sandbox, and line up comparisons. "
                "What would you like to do?",
    "thanks": "You're welcome! Ask me about the handbook any time, or give me some code to run.",
    "farewell": "Goodbye, and good luck with your project!",
    "about": "I am ragkit's supervisor graph: a handbook lookup agent, a code agent with a sandbox, an analysis agent "
             "and me, the chitchat agent. Ask a question and the supervisor decides which of us should work on it.",
    "small_talk": "Nice to chat! When you are ready, ask me about the handbook or give me some code to run.",
}
SMALL_TALK_PROMPT = ("You are the friendly chitchat agent of a team that answers questions about a RAG handbook and "
                     "runs Python. Reply to the user's small talk in one or two sentences, without inventing facts.")

HANDBOOK_TEAM = TeamDomain(corpus="handbook", descriptions=DESCRIPTIONS, titles=TITLES, routes=SUPERVISOR_ROUTES,
                           small_talk=SMALL_TALK, replies=REPLIES, small_talk_prompt=SMALL_TALK_PROMPT,
                           small_talk_fallback="small_talk")

__all__ = ["CONTEXT", "DESCRIPTIONS", "HANDBOOK_TEAM", "REPLIES", "SMALL_TALK", "SMALL_TALK_PROMPT", "SUPERVISOR_ROUTES",
           "TITLES"]
