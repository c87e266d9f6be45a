"""How far the SQuAD-tuned refusal bars carry: the share of the handbook golden set each default graph answers
at 0.0 and at the bar tuned on SQuAD (``ragkit.defaults.REFUSAL_SQUAD``, the default before it became 0.0),
per category. Answered counts only (no grading): it says what that bar would change on the handbook, not
whether the answers are right.

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/handbook_answered.py

The golden set (``data/eval/handbook_golden.jsonl``, 48 questions, frozen) is not tuned on; no bar is chosen
from this run. Writes ``benchmarks/results/refusal_handbook_answered.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.defaults import REFUSAL_SQUAD  # noqa: E402
from ragkit.domains.handbook.corpus import handbook_search  # noqa: E402
from ragkit.graphs.crag import build_crag_graph, run_crag  # noqa: E402
from ragkit.graphs.self_rag import build_self_rag_graph  # noqa: E402

GOLDEN = ROOT / "data" / "eval" / "handbook_golden.jsonl"
OUT = ROOT / "benchmarks" / "results" / "refusal_handbook_answered.json"


def main() -> None:
    rows = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    search = handbook_search()
    graphs = {"self_rag": build_self_rag_graph(search, refuse_below=0.0), "crag": build_crag_graph(search, refuse_below=0.0)}
    out: dict = {"command": "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/handbook_answered.py",
                 "questions": f"{GOLDEN.relative_to(ROOT)}, {len(rows)} questions", "graphs": {}}
    for name, graph in graphs.items():
        bar = float(getattr(REFUSAL_SQUAD, name))
        runs = []
        for i, row in enumerate(rows):
            o = run_crag(graph, row["question"], thread_id=f"hb-{i}") if name == "crag" else graph.invoke({"question": row["question"]})
            answered = "__interrupt__" not in o and o.get("outcome") == "answered"
            score = o.get("confidence")
            runs.append((row["category"], answered, answered and (score is None or score >= bar)))
        out["graphs"][name] = {"squad_bar": bar, "answered": {
            cat: {"questions": sum(c == cat for c, _, _ in runs), "at_0": sum(a for c, a, _ in runs if c == cat),
                  "at_squad_bar": sum(d for c, _, d in runs if c == cat)}
            for cat in dict.fromkeys(c for c, _, _ in runs)}}
        print(name, json.dumps(out["graphs"][name]), file=sys.stderr, flush=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
