"""The roles: small interfaces (:mod:`ragkit.roles.protocols`; a family's own in ``roles.<family>_protocols``)
with LLM implementations (:mod:`ragkit.roles.llm`, ``roles.llm_<family>``: a prompt plus structured output on any
LangChain chat model) and local ones (:mod:`ragkit.offline`).

| role                 | local (offline, deterministic)                          | LLM (prompt + structured output) |
|----------------------|---------------------------------------------------------|----------------------------------|
| router               | ``LocalRouter`` (nearest prototype), ``offline.router`` | ``LLMRouter``, ``roles.llm_routing`` |
| document grader      | ``LocalGrader`` (logistic mix), ``offline.graders``     | ``LLMGrader``                    |
| question rewriter    | ``LocalRewriter`` (RM3 feedback), ``offline.writing``   | ``LLMRewriter``                  |
| writer               | ``LocalWriter`` (extractive, MMR), ``offline.writing``  | ``LLMWriter``                    |
| hallucination grader | ``LocalHallucinationGrader`` (claims), ``offline.claims`` | ``LLMHallucinationGrader``     |
| answer grader (Self-RAG) | ``LocalAnswerGrader`` (type + coverage), ``offline.answer_grader`` | ``LLMAnswerGrader``, ``roles.llm_answer_grader`` |
| judge (CRAG)         | ``LocalJudge`` (grades + answerability), ``offline.judge`` | ``LLMJudge``, ``roles.llm_judge`` |
| query analyser       | ``LocalQueryAnalyzer`` (patterns + the data's vocabulary + a domain's words), ``offline.query_analysis`` | ``LLMQueryAnalyzer``, ``roles.llm_query_analysis`` |

The other roles (intent classifier and small talk, query transformer, question classifier, evidence
grader, supervisor, analyst, coder, aggregator, tool planner) follow the same pattern in their modules.
"""
