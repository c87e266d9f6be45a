"""RAGAS's LLM metrics (faithfulness, answer relevancy) on a ``ragkit eval --out`` results file.

``ragas`` 0.4.3 does not import alongside ``langchain-community`` 0.4 in ragkit's environment, so it is not a
ragkit dependency; run this file with the Python of a separate environment that has ``ragas`` and a chat model
integration (it imports nothing from ragkit)::

    python3 -m venv .venv-ragas && .venv-ragas/bin/pip install "ragas==0.4.3" langchain-google-genai
    GOOGLE_API_KEY=... RAGAS_DO_NOT_TRACK=true .venv-ragas/bin/python ragkit/evaluation/ragas_scores.py results.jsonl

It prints one line per metric (mean over the questions). Without ``ragas`` or a key it says so and exits 2.
"""

from __future__ import annotations

import json
import os
import sys


def read_rows(path: str) -> list[dict]:
    """The results JSONL of ``ragkit eval --out`` (rows that errored are skipped)."""
    with open(path, encoding="utf-8") as handle:
        return [row for row in (json.loads(line) for line in handle if line.strip()) if "error" not in row]


def main(argv: list[str]) -> int:
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")  # no usage analytics from ragas
    if len(argv) != 1:
        print("usage: ragas_scores.py RESULTS.jsonl", file=sys.stderr)
        return 2
    rows = read_rows(argv[0])
    try:
        from langchain_google_genai import ChatGoogleGenerativeAI, GoogleGenerativeAIEmbeddings
        from ragas import EvaluationDataset, evaluate
        from ragas.embeddings import LangchainEmbeddingsWrapper
        from ragas.llms import LangchainLLMWrapper
        from ragas.metrics import Faithfulness, ResponseRelevancy
    except ImportError as err:
        print(f"ragas_scores: {err}. Install ragas==0.4.3 and langchain-google-genai in a separate environment.",
              file=sys.stderr)
        return 2
    if not (os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")):
        print("ragas_scores: RAGAS's metrics need a chat model: set GOOGLE_API_KEY", file=sys.stderr)
        return 2
    dataset = EvaluationDataset.from_list([{"user_input": r["question"], "response": r["answer"],
                                            "retrieved_contexts": [c["text"] for c in r["contexts"]]} for r in rows])
    llm = LangchainLLMWrapper(ChatGoogleGenerativeAI(model="gemini-2.5-flash", temperature=0))
    embeddings = LangchainEmbeddingsWrapper(GoogleGenerativeAIEmbeddings(model="models/text-embedding-004"))
    result = evaluate(dataset, metrics=[Faithfulness(), ResponseRelevancy()], llm=llm, embeddings=embeddings)
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
