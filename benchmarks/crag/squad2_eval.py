"""Measure the CRAG graph on SQuAD 2.0: answer, refuse, or ask back?

The index holds the paragraphs of the 16 articles of the CS224N labelled half of SQuAD 2.0 dev (one
Document per paragraph, titled by its article). Articles 0-7 are for tuning, 8-15 for the report. Three
categories of questions, each a seeded sample of ``--n`` questions from the chosen articles:

(a) answerable: does the graph answer, and does a gold answer appear in the answer (case-insensitive)?
(b) unanswerable (``is_impossible``): does it refuse or ask back (an ``ambiguous`` pause counts as asked
    back; the run is not resumed)?
(c) answerable questions whose article was removed from the index: does it refuse?

Two modes:
- ``--mode tune`` (articles 0-7) grid-searches LocalJudge's thresholds and its answerability checks (on or
  off; the related-word bar for rare terms; the polarity check) on the *first* judgement only (cheap:
  grades are computed once per question), picks the best setting by ``RULE`` and writes every grid row
  to ``benchmarks/results/crag_squad2_tuning.json``;
- ``--mode report`` (articles 8-15) runs the whole graph with the LocalJudge defaults (or ``--params``)
  and writes ``benchmarks/results/crag_squad2.json``.

Run from the project root:
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/crag/squad2_eval.py --mode tune
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/crag/squad2_eval.py --mode report
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from langchain_core.documents import Document

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.core.embeddings import load_embedder
from ragkit.core.hybrid import HybridRetriever, default_retriever
from ragkit.core.rerank import LocalReranker
from ragkit.domains.menu.vocabulary import menu_query_analyzer  # noqa: E402
from ragkit.graphs.crag import build_crag_graph, run_crag  # noqa: E402
from ragkit.offline.graders import LocalGrader
from ragkit.offline.judge import LocalJudge

# The judge as the graphs build it: with the query analyser (the bundled data's vocabulary, restricted to
# the fields the documents carry; SQuAD paragraphs carry none, so every question is read as plain text).
ANALYZER = menu_query_analyzer()  # the analyser CRAG had by default before its roles were passed in

# The shared datasets folder sits next to the project folder (../shared/datasets); from a git worktree it is
# found further up.
DATASETS = next((p / "shared" / "datasets" for p in ROOT.parents if (p / "shared" / "datasets").is_dir()),
                ROOT.parent / "shared" / "datasets")
DATA = DATASETS / "squad2" / "dev-v2.0_cs224n_half.json"
OUT = ROOT / "benchmarks" / "results" / "crag_squad2.json"
TUNING_OUT = ROOT / "benchmarks" / "results" / "crag_squad2_tuning.json"
TUNING_WORDING_OUT = ROOT / "benchmarks" / "results" / "crag_squad2_tuning_wording.json"
SPLITS = {"tune": range(0, 8), "report": range(8, 16)}
K, FETCH_K = 4, 12


def load_squad(path: Path = DATA) -> list[dict]:
    """The 16 articles in file order: title, paragraph Documents and questions (with their article index)."""
    articles = []
    for a, article in enumerate(json.loads(path.read_text(encoding="utf-8"))["data"]):
        title = article["title"].replace("_", " ")
        docs, questions = [], []
        for p, para in enumerate(article["paragraphs"]):
            docs.append(Document(para["context"], metadata={"id": f"{a}-{p}", "title": title, "source": "squad2"}))
            for qa in para["qas"]:
                questions.append({"article": a, "question": qa["question"], "impossible": qa["is_impossible"],
                                  "answers": sorted({x["text"] for x in qa["answers"]})})
        articles.append({"title": title, "docs": docs, "questions": questions})
    return articles


def hybrid(docs: list[Document], embedder) -> HybridRetriever:
    """The graphs' default retriever (:func:`ragkit.core.hybrid.default_retriever`: BM25 + MiniLM dense,
    weighted fusion as tuned on SciFact train). Results measured before issue 8 used RRF (k=60, equal weights)."""
    return default_retriever(docs, k=K, embeddings=embedder)


def samples(articles: list[dict], split: str, n: int, seed: int) -> dict[str, list[dict]]:
    """Seeded samples per category from the split's articles."""
    pool = [q for a in SPLITS[split] for q in articles[a]["questions"]]
    answerable = [q for q in pool if not q["impossible"]]
    rng = random.Random(seed)
    return {"answerable": rng.sample(answerable, min(n, len(answerable))),
            "unanswerable": rng.sample([q for q in pool if q["impossible"]], n),
            "removed": rng.sample(answerable, min(n, len(answerable)))}


def retrievers(articles: list[dict], embedder) -> tuple[HybridRetriever, dict[int, HybridRetriever]]:
    """One index of all 16 articles, and for each article one index without it (built lazily)."""
    everything = hybrid([d for a in articles for d in a["docs"]], embedder)
    cache: dict[int, HybridRetriever] = {}

    class Without(dict):
        def __missing__(self, a: int) -> HybridRetriever:
            cache[a] = hybrid([d for i, art in enumerate(articles) if i != a for d in art["docs"]], embedder)
            return cache[a]

    return everything, Without()


# ---------------------------------------------------------------- tune: first judgement only
class CachedGrader:
    """Grades each (question, document) once, whatever judge settings are tried."""

    def __init__(self, grader):
        self.grader, self.memo = grader, {}

    def grade_many(self, question, documents):
        key = (question, tuple(d.metadata["id"] for d in documents))
        if key not in self.memo:
            self.memo[key] = self.grader.grade_many(question, documents)
        return self.memo[key]

    def grade(self, question, document):
        return self.grade_many(question, [document])[0]


# The tuning grid: wide enough that the chosen values are not at its edge (the script checks).
GRID = {
    "relevant_above": [None, 0.02, 0.05, 0.08, 0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.35,
                       0.4, 0.5, 0.7],
    "irrelevant_below": [0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3],
    "ambiguity_margin": [0.0, 0.02, 0.05],
    "check_answerable": [False, True],
    "related_bar": [None, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9],  # only read when check_answerable is True
    "negation_check": [False, True],
}
RULE = ("maximise the mean of three first-judgement rates (answerable: 'sufficient' and a gold answer in a kept "
        "document; unanswerable: not 'sufficient'; removed: 'irrelevant' or 'insufficient'). The mean is flat near "
        "its maximum, so differences smaller than its standard error (from the best row's rates, "
        "sqrt(sum p(1-p)/n) / 3) are noise: among the settings within one standard error of the best mean, take the "
        "one that answers the most answerable questions (the one-standard-error rule, leaning towards answering); "
        "remaining ties: the highest mean, then the most informative refusals (removed judged 'irrelevant' minus "
        "answerable judged 'irrelevant'), then the lowest relevant_above, then the ambiguity_margin closest to 0.02")


def mean_standard_error(rates: dict[str, float], n: int) -> float:
    """Standard error of the mean of three independent rates, each measured on ``n`` questions.

    >>> round(mean_standard_error({"a": 0.5, "b": 0.5, "c": 1.0}, 100), 4)
    0.0236
    """
    return sum(p * (1 - p) / n for p in rates.values()) ** 0.5 / 3


def tie_key(row: dict) -> tuple:
    """Sort key for the ties left by RULE (smallest first)."""
    p, extra = row["params"], row["refusal_reasons"]
    bar = -1.0 if p["relevant_above"] is None else p["relevant_above"]
    simpler = (p.get("related_bar") is not None) + bool(p.get("negation_check"))  # fewer wording rules first
    return (-round(row["mean"], 4), -(extra["removed_irrelevant"] - extra["answerable_irrelevant"]), bar,
            abs(p["ambiguity_margin"] - 0.02), simpler)


def choose(rows: list[dict], n: int) -> tuple[list[dict], float]:
    """Order the rows by RULE: the chosen setting first, then the rest of the one-SE band, then the others."""
    best = min(rows, key=tie_key)
    se = mean_standard_error(best["rates"], n)
    band = [r for r in rows if r["mean"] >= best["mean"] - se]
    band.sort(key=lambda r: (-r["rates"]["answerable"], tie_key(r)))
    rest = sorted((r for r in rows if r["mean"] < best["mean"] - se), key=tie_key)
    return band + rest, se


class CachedJudge(LocalJudge):
    """LocalJudge with its analysis and answerability checks memoised (pure functions of their inputs)."""

    memo: dict = {}

    def analyse(self, question, documents):
        key = ("a", question, tuple(d.metadata["id"] for d in documents))
        if key not in self.memo:
            self.memo[key] = super().analyse(question, documents)
        return self.memo[key]

    def gap(self, question, document, analysis):
        key = ("g", question, document.metadata["id"], self.check_answerable, self.related_bar, self.negation_check)
        if key not in self.memo:
            self.memo[key] = super().gap(question, document, analysis)
        return self.memo[key]


def wording_grid() -> dict[str, list]:
    """``--grid wording``: the thresholds held at LocalJudge's defaults (tuned on these articles before issue 8),
    only the answerability settings vary (on/off, the related-word bar, the polarity check): 15 settings
    instead of the full grid's thousands, for a shared machine."""
    from ragkit.defaults import JUDGE

    return {**GRID, "relevant_above": [JUDGE.relevant_above], "irrelevant_below": [JUDGE.irrelevant_below],
            "ambiguity_margin": [JUDGE.ambiguity_margin]}


def grid_settings(grid: dict[str, list] | None = None) -> list[dict]:
    """Every setting of the grid; the wording checks' own settings only vary when the checks are on."""
    grid = GRID if grid is None else grid
    out = []
    for values in itertools.product(*grid.values()):
        params = dict(zip(grid, values))
        if not params["check_answerable"] and (params["related_bar"] is not None or params["negation_check"]):
            continue
        out.append(params)
    return out


def tune(articles: list[dict], n: int, seed: int, grid: dict[str, list] | None = None) -> dict:
    """Grid-search LocalJudge on the tune articles (first judgement only); return every row, best first."""
    embedder = load_embedder()
    everything, without = retrievers(articles, embedder)
    reranker, grader = LocalReranker(embeddings=embedder), CachedGrader(LocalGrader(embedder=embedder))
    cases = []
    for category, qs in samples(articles, "tune", n, seed).items():
        for q in qs:
            r = without[q["article"]] if category == "removed" else everything
            hits = reranker.rerank_with_scores(q["question"], [d for d, _ in r.search_with_scores(q["question"], FETCH_K)], K)
            cases.append((category, q, [d for d, _ in hits]))
    rows = []
    grid = GRID if grid is None else grid
    for params in grid_settings(grid):
        judge = CachedJudge(grader=grader, query_analyzer=ANALYZER, **params)
        good, irrelevant = Counter(), Counter()
        for category, q, docs in cases:
            j = judge.judge(q["question"], docs)
            irrelevant[category] += j.verdict == "irrelevant"
            if category == "answerable":
                kept = " ".join(docs[i].page_content.lower() for i in j.keep)
                good[category] += j.verdict == "sufficient" and any(a.lower() in kept for a in q["answers"])
            elif category == "unanswerable":
                good[category] += j.verdict != "sufficient"
            else:
                good[category] += j.verdict in ("irrelevant", "insufficient")
        rates = {c: round(good[c] / n, 4) for c in ("answerable", "unanswerable", "removed")}
        rows.append({"params": params, "rates": rates, "mean": round(sum(rates.values()) / 3, 4),
                     "refusal_reasons": {"answerable_irrelevant": round(irrelevant["answerable"] / n, 4),
                                         "removed_irrelevant": round(irrelevant["removed"] / n, 4)}})
    rows, se = choose(rows, n)
    print(f"best mean {max(r['mean'] for r in rows):.4f}, standard error {se:.4f}")
    for row in rows[:10]:
        print(f"{row['mean']:.3f}", row["rates"], row["params"])
    best = rows[0]["params"]
    for name in ("relevant_above", "irrelevant_below"):
        if len(grid[name]) > 1 and best[name] in (grid[name][0], grid[name][-1]):
            print(f"WARNING: the best {name} ({best[name]}) is at the edge of the grid: widen it")
    return {"rows": rows, "standard_error": round(se, 4), "best_mean_row": min(rows, key=tie_key)}


def tuning_summary(rows: list[dict], n: int) -> dict:
    """The chosen row, the row RULE chooses when the answerability check is off, and the previous defaults' row."""
    def first(pred) -> dict | None:
        return next((r for r in rows if pred(r["params"])), None)

    return {"chosen": rows[0],
            "chosen_without_answerability_check": choose([r for r in rows if not r["params"]["check_answerable"]], n)[0][0],
            "previous_defaults": first(lambda p: p == {"relevant_above": 0.08, "irrelevant_below": 0.02,
                                                       "ambiguity_margin": 0.02, "check_answerable": True,
                                                       "related_bar": None, "negation_check": True})}


# ---------------------------------------------------------------- report: the whole graph
def outcome(result: dict) -> str:
    if "__interrupt__" in result:
        return "asked"
    return "answered" if result.get("outcome") == "answered" else "refused"


def report(articles: list[dict], n: int, seed: int, params: dict, split: str = "report") -> dict:
    embedder = load_embedder()
    everything, without = retrievers(articles, embedder)
    reranker = LocalReranker(embeddings=embedder)
    judge = LocalJudge(grader=LocalGrader(embedder=embedder), query_analyzer=ANALYZER, **params)

    def graph_for(retriever):
        return build_crag_graph(retriever=retriever, judge=judge, reranker=reranker, k=K, fetch_k=FETCH_K)

    graphs = {"all": graph_for(everything)}
    results: dict[str, dict] = {}
    for category, qs in samples(articles, split, n, seed).items():
        counts, verdicts, fallbacks = Counter(), Counter(), 0
        for i, q in enumerate(qs):
            key = q["article"] if category == "removed" else "all"
            if key not in graphs:
                graphs[key] = graph_for(without[key])
            out = run_crag(graphs[key], q["question"], thread_id=f"{category}-{i}")
            kind = outcome(out)
            counts[kind] += 1
            verdicts[out.get("verdict", "?")] += 1
            fallbacks += bool(out.get("judge_fallback"))
            if kind == "answered" and not q["impossible"]:
                counts["gold_in_answer"] += any(a.lower() in out["answer"].lower() for a in q["answers"])
            if kind == "refused":
                counts[f"refusal_{out.get('refusal')}"] += 1
        results[category] = {"n": len(qs), "counts": dict(sorted(counts.items())),
                             "last_verdicts": dict(sorted(verdicts.items())),
                             "judge_fallbacks": fallbacks}  # aggregates only: never a reporting split's items
        print(category, results[category]["counts"])
    return results


def dump_rows(payload: dict) -> str:
    """JSON with the header indented and one grid row per line (readable, and small diffs on a re-run)."""
    head = json.dumps({k: v for k, v in payload.items() if k != "rows"}, indent=1)
    rows = ",\n  ".join(json.dumps(r) for r in payload["rows"])
    return f'{head[:-2]},\n "rows": [\n  {rows}\n ]\n}}\n'


def sha256_of(path: Path) -> str:
    """The dataset file's sha256 (recorded in every results file)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def commit() -> str:
    """The short commit the code was measured at (a dirty tree is marked)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "ragkit"], cwd=ROOT, capture_output=True, text=True).stdout
        return head + ("+dirty" if dirty.strip() else "")
    except OSError:
        return "unknown"


def judge_params(overrides: dict) -> dict:
    """The LocalJudge thresholds a report ran with (defaults plus overrides)."""
    judge = LocalJudge(grader=CachedGrader(None), **overrides)
    return {name: getattr(judge, name) for name in ("relevant_above", "irrelevant_below", "ambiguity_margin", "max_keep",
                                                    "check_answerable", "related_bar", "negation_check")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["tune", "report"], default="report")
    parser.add_argument("--n", type=int, default=150, help="questions per category")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--grid", choices=["full", "wording"], default="full",
                        help="tune: the full grid, or the answerability settings only at the default thresholds")
    parser.add_argument("--params", type=json.loads, default={}, help='LocalJudge overrides as JSON, e.g. {"irrelevant_below": 0.3}')
    parser.add_argument("--split", choices=list(SPLITS), default="report",
                        help="articles for --mode report (tune: whole-graph numbers on the tuning articles)")
    parser.add_argument("--out", type=Path, default=None, help=f"default: {OUT.relative_to(ROOT)} for the report split")
    args = parser.parse_args()
    articles = load_squad()
    if args.mode == "tune":
        grid = wording_grid() if args.grid == "wording" else GRID
        tuned = tune(articles, args.n, args.seed, grid)
        rows = tuned["rows"]
        payload = {
            "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/crag/squad2_eval.py --mode tune --n {args.n} --seed {args.seed}"
                       + (" --grid wording" if args.grid == "wording" else ""),
            "dataset": "SQuAD 2.0 dev, CS224N labelled half; questions from articles 0-7 only (the report uses 8-15)",
            "dataset_sha256": sha256_of(DATA), "commit": commit(),
            "grader": "LocalGrader with its packaged (SciFact TRAIN) weights",
            "measure": "the judge's FIRST judgement on the top 4 reranked documents (no correction, writer or verifier)",
            "rule": RULE, "grid": grid, "n_per_category": args.n, "seed": args.seed,
            "standard_error_of_best_mean": tuned["standard_error"],
            "summary": {**tuning_summary(rows, args.n), "highest_mean": tuned["best_mean_row"]}, "rows": rows,
        }
        tuning_out = TUNING_OUT if args.grid == "full" else TUNING_WORDING_OUT  # notebook 05 plots the full grid
        tuning_out.write_text(dump_rows(payload), encoding="utf-8")
        print("best:", json.dumps(rows[0]), "\nsaved", tuning_out.relative_to(ROOT))
        return
    if args.out is None and args.split != "report":
        parser.error("--split tune needs --out: the saved report is for the held-out articles 8-15")
    out_path = args.out or OUT
    results = report(articles, args.n, args.seed, args.params, split=args.split)
    a, u, r = results["answerable"]["counts"], results["unanswerable"]["counts"], results["removed"]["counts"]
    summary = {
        "answerable_answered": a.get("answered", 0) / results["answerable"]["n"],
        "answerable_gold_in_answer": a.get("gold_in_answer", 0) / results["answerable"]["n"],
        "unanswerable_refused_or_asked": (u.get("refused", 0) + u.get("asked", 0)) / results["unanswerable"]["n"],
        "removed_refused": r.get("refused", 0) / results["removed"]["n"],
        "removed_refused_or_asked": (r.get("refused", 0) + r.get("asked", 0)) / results["removed"]["n"],
    }
    payload = {
        "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/crag/squad2_eval.py --mode report --n {args.n} --seed {args.seed}"
        + (f" --params '{json.dumps(args.params)}'" if args.params else "") + (f" --split {args.split}" if args.split != "report" else ""),
        "dataset": "SQuAD 2.0 dev, CS224N labelled half (16 articles); index = paragraphs of all 16 articles",
        "split": ("report on articles 8-15 (thresholds tuned on articles 0-7 with --mode tune)" if args.split == "report"
                  else "articles 0-7, the tuning articles (NOT held out)"),
        "dataset_sha256": sha256_of(DATA), "commit": commit(),
        "grade": ("dev-grade: articles 8-15 were read item by item in an earlier session" if args.split == "report"
                  else "tuning articles"),
        "setup": {"retriever": "ragkit.core.hybrid.default_retriever (BM25 + MiniLM dense, weighted fusion), fetch 12, LocalReranker top 4",
                  "roles": "LocalJudge (with LocalQueryAnalyzer), LocalWriter, LocalHallucinationGrader, LocalRewriter", "judge_params": judge_params(args.params),
                  "n_per_category": args.n, "seed": args.seed},
        "summary": {k: round(v, 4) for k, v in summary.items()},
        "results": results,
    }
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(payload["summary"], indent=2))


if __name__ == "__main__":
    main()
