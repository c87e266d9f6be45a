"""Risk-coverage curves of the RAG graphs' refusal dials (``refuse_below``), tuned on one split, reported on another.

Each graph (CRAG, Self-RAG, the advanced pipeline, statute QA) runs every question ONCE with its dial at 0.0
(the behaviour before the dial) and records the run's ``confidence``; the outcome at any other bar follows
from it (:mod:`ragkit.evaluation.risk_coverage`), so the curve needs no run per bar. A question counts as
answered right when the graph answered and (SQuAD) a gold answer string is in the answer, or (statute) the
answer cites a gold article; an unanswerable question answered is always wrong.

Questions:
- SQuAD 2.0 (CS224N labelled half; the index holds the paragraphs of all 16 articles, the graphs' default
  retriever over it): ``--n`` answerable and ``--n`` unanswerable ("impossible") questions per split.
  TUNE: a seeded sample of articles 0-7 (the data set's tuning articles). REPORT: the frozen set of
  ``--freeze``, questions of articles 8-15 that no SQuAD sample of this repository's benchmarks draws
  (CRAG, Self-RAG, the advanced comparison, the writer refusal cases; see ``drawn_elsewhere``). There is no
  SQuAD article here that the repository does not use (the half has 16: 0-7 tune, 8-15 report), so the
  questions are fresh but their ARTICLES were read item by item in an earlier session: the report figures
  are fresh-question figures on dev-grade articles, and say so.
- statute QA: ``data/eval/statute_qa.json``, dev (tune) and test (report), every question.

Steps, in this order (each writes ``benchmarks/results/refusal_risk_coverage.json``, keeping the others):
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/risk_coverage.py --freeze
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/risk_coverage.py --split tune
    (set ragkit.defaults.REFUSAL_SQUAD to the chosen bars)
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/risk_coverage.py --split report
    .venv/bin/python benchmarks/refusal/risk_coverage.py --plot   # the report curves as a PNG, nothing run
The tune step chooses each graph's bar by ``RULE``; the report step scores the curves once at the module
defaults and writes aggregates only (curve points and rates, never a report question's outcome).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ragkit.bandit import ThompsonSampling  # noqa: E402
from ragkit.core.embeddings import load_embedder  # noqa: E402
from ragkit.core.hybrid import default_retriever  # noqa: E402
from ragkit.core.rerank import LocalReranker  # noqa: E402
from ragkit.defaults import REFUSAL_SQUAD  # noqa: E402
from ragkit.domains.statute.corpus import load_statute  # noqa: E402
from ragkit.domains.statute.domain import STATUTE  # noqa: E402
from ragkit.domains.statute.strategies import strategy_searches  # noqa: E402
from ragkit.evaluation.risk_coverage import Item, choose_threshold, curves_payload, point_at  # noqa: E402
from ragkit.graphs.advanced_rag import build_advanced_rag_graph, default_arms  # noqa: E402
from ragkit.graphs.crag import build_crag_graph, run_crag  # noqa: E402
from ragkit.graphs.self_rag import build_self_rag_graph  # noqa: E402
from ragkit.graphs.statute_qa import build_statute_qa_graph  # noqa: E402
from ragkit.offline.answer_grader import LocalAnswerGrader  # noqa: E402
from ragkit.offline.claims import LocalHallucinationGrader  # noqa: E402
from ragkit.offline.graders import LocalGrader  # noqa: E402
from ragkit.offline.judge import LocalJudge  # noqa: E402
from ragkit.offline.writing import LocalRewriter, LocalWriter  # noqa: E402


def load_module(name: str, relative: str) -> Any:
    """Another benchmark's module, imported from its file (its loaders, splits and seeded samples)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


CRAG_BENCH = load_module("crag_squad2_eval", "benchmarks/crag/squad2_eval.py")
commit, sha256_of = CRAG_BENCH.commit, CRAG_BENCH.sha256_of  # the commit measured at; a file's sha256
DATA = CRAG_BENCH.DATA
GOLD = ROOT / "data" / "eval" / "statute_qa.json"
OUT = ROOT / "benchmarks" / "results" / "refusal_risk_coverage.json"
PNG = OUT.with_suffix(".png")
SQUAD_GRAPHS = ("crag", "self_rag", "advanced_rag")
GRAPHS = (*SQUAD_GRAPHS, "statute_qa")
TUNE_ARTICLES, REPORT_ARTICLES = range(0, 8), range(8, 16)
K, FETCH_K = 4, 12
TUNE_SEED, REPORT_SEED = 1, 2020
RULE = ("per graph, over the bars at which the tune split's outcome changes (each recorded confidence, and 0.0): the "
        "highest balanced mean of two rates (answerable questions answered right; unanswerable questions refused), "
        "then the one-standard-error rule leaning towards answering: the LOWEST bar whose balanced mean is within one "
        "standard error of the best (so the bar rises above 0.0, today's behaviour, only when the split says a "
        "higher one is clearly better)")


# ---------------------------------------------------------------- the questions
def squad_questions() -> list[dict]:
    """Every question of the 16 articles: id, article, text, impossible, gold answers."""
    out = []
    for a, article in enumerate(json.loads(DATA.read_text(encoding="utf-8"))["data"]):
        for para in article["paragraphs"]:
            for qa in para["qas"]:
                out.append({"id": qa["id"], "article": a, "question": qa["question"], "impossible": qa["is_impossible"],
                            "answers": sorted({x["text"] for x in qa["answers"]})})
    return out


def drawn_elsewhere() -> set[tuple[int, str]]:
    """(article, question) of every question of articles 8-15 that this repository's SQuAD benchmarks sample:
    CRAG's seeded samples at every n its scripts and READMEs use (also the advanced comparison's), Self-RAG's,
    and the writer refusal cases."""
    articles = CRAG_BENCH.load_squad()
    drawn: set[tuple[int, str]] = set()
    for n in (15, 20, 30, 60, 100, 150):
        for questions in CRAG_BENCH.samples(articles, "report", n, 0).values():
            drawn |= {(q["article"], q["question"]) for q in questions}
        pool = [q for a in REPORT_ARTICLES for q in articles[a]["questions"]]  # Self-RAG's own draw order
        rng = random.Random(0)
        answerable = [q for q in pool if not q["impossible"]]
        for q in [*rng.sample(answerable, min(n, len(answerable))), *rng.sample(answerable, min(n, len(answerable))),
                  *rng.sample([q for q in pool if q["impossible"]], n)]:
            drawn.add((q["article"], q["question"]))
    writer = load_module("writer_refusal", "benchmarks/roles/writer_refusal.py")
    # the writer cases carry no article index: their questions are matched by text within articles 8-15
    texts = {case["question"] for case in writer.build_cases(random.Random(0)) if case["split"] == "held_out"}
    drawn |= {(q["article"], q["question"]) for q in squad_questions() if q["article"] in REPORT_ARTICLES and q["question"] in texts}
    return drawn


def sample(questions: list[dict], articles: range, n: int, seed: int, exclude: set[tuple[int, str]] = frozenset()) -> list[dict]:
    """``n`` answerable and ``n`` unanswerable questions of ``articles``, seeded, none of ``exclude``."""
    pool = [q for q in questions if q["article"] in articles and (q["article"], q["question"]) not in exclude]
    rng = random.Random(seed)
    return [*rng.sample([q for q in pool if not q["impossible"]], n), *rng.sample([q for q in pool if q["impossible"]], n)]


def ids_hash(ids: list[str]) -> str:
    """sha256 of the ids, one per line, in order (the frozen set's fingerprint)."""
    return hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- the graphs over SQuAD
class SquadGraphs:
    """CRAG, Self-RAG and the advanced pipeline over one index of all 16 articles, with the dial at 0.0."""

    def __init__(self) -> None:
        e = self.embedder = load_embedder()
        articles = CRAG_BENCH.load_squad()
        docs: list[Document] = [d for a in articles for d in a["docs"]]
        retriever = default_retriever(docs, k=K, embeddings=e)
        grader, writer = LocalGrader(embedder=e), LocalWriter(embedder=e)
        checker, rewriter = LocalHallucinationGrader(embedder=e), LocalRewriter()
        judge = LocalJudge(grader=grader, query_analyzer=CRAG_BENCH.ANALYZER)
        self.graphs = {
            "crag": build_crag_graph(retriever=retriever, judge=judge, reranker=LocalReranker(embeddings=e), writer=writer,
                                     hallucination_grader=checker, rewriter=rewriter, k=K, fetch_k=FETCH_K, refuse_below=0.0),
            "self_rag": build_self_rag_graph(retriever=retriever, grader=grader, writer=writer, hallucination_grader=checker,
                                             rewriter=rewriter, answer_grader=LocalAnswerGrader(embedder=e), k=K,
                                             refuse_below=0.0),
            "advanced_rag": build_advanced_rag_graph(arms=default_arms(docs, e), bandit=ThompsonSampling(["dense", "bm25", "hybrid"], seed=0),
                                                     grader=grader, writer=writer, hallucination_grader=checker, embeddings=e,
                                                     refuse_below=0.0),
        }

    def run(self, name: str, question: str, thread_id: str) -> dict:
        graph = self.graphs[name]
        out = run_crag(graph, question, thread_id=thread_id) if name == "crag" else graph.invoke({"question": question})
        answered = "__interrupt__" not in out and out.get("outcome") == "answered"
        return {"answered": answered, "answer": out.get("answer", "") if answered else "", "confidence": out.get("confidence")}


def item(run: dict, answerable: bool, correct: bool) -> Item:
    """A run as a curve item: its confidence if it answered (inf when it gave none), None when it refused."""
    if not run["answered"]:
        return Item(None, False, answerable)
    score = run["confidence"]
    return Item(float("inf") if score is None else float(score), correct and answerable, answerable)


def squad_items(graphs: SquadGraphs, names: tuple[str, ...], questions: list[dict], log) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = {name: [] for name in names}
    for name in names:
        start = time.perf_counter()
        for i, q in enumerate(questions):
            run = graphs.run(name, q["question"], f"{name}-{i}")
            right = any(a.lower() in run["answer"].lower() for a in q["answers"])
            out[name].append(item(run, not q["impossible"], right))
            if (i + 1) % 10 == 0:
                log(f"{name}: {i + 1}/{len(questions)} in {time.perf_counter() - start:.0f} s")
        log(f"{name}: {len(questions)} questions in {time.perf_counter() - start:.0f} s")
    return out


# ---------------------------------------------------------------- statute QA
def statute_items(split: str, log) -> list[Item]:
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    items = [q for q in (gold["questions"] if isinstance(gold, dict) else gold) if q["split"] == split]
    articles = load_statute()
    graph = build_statute_qa_graph(articles, strategies=strategy_searches(articles), domain=STATUTE, refuse_below=0.0)
    out, start = [], time.perf_counter()
    for q in items:
        state = graph.invoke({"question": q["question"]})
        answered = state.get("outcome") == "answered"
        cited = {int(c.split()[1].split("(")[0]) for c in state.get("cited_labels", [])}
        out.append(item({"answered": answered, "confidence": state.get("confidence")}, q["type"] != "unanswerable",
                        bool(cited & set(q["gold_articles"]))))
    log(f"statute_qa: {len(items)} {split} questions in {time.perf_counter() - start:.0f} s")
    return out


# ---------------------------------------------------------------- the results file
def load_results() -> dict:
    return json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}


def save_results(payload: dict) -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


def summary(items: list[Item], bar: float) -> dict:
    """The rates at one bar (aggregates only)."""
    p = point_at(items, bar)
    return {"threshold": bar, "coverage": p.coverage, "accuracy_of_answered": p.accuracy,
            "answerable_answered_right": p.answerable_right, "unanswerable_refused": p.unanswerable_refused}


def plot_report(payload: dict) -> Path:
    """The report split's risk-coverage curves with each graph's tuned bar (REFUSAL_SQUAD) marked, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    from ragkit.plots import plot_risk_coverage

    report = payload["splits"]["report"]
    curves = {g: c["points"] for g, c in report["curves"].items()}
    same = [g for g in curves if g != "self_rag" and curves[g] == curves.get("self_rag")]
    title = (f"refusal dial, report split ({report['n_squad_each']}+{report['n_squad_each']} frozen SQuAD; statute QA "
             f"test, {sum(report['n']['statute_qa'].values())})" if "statute_qa" in report["n"] else "refusal dial, report split")
    if same:
        title += "\nself_rag and " + ", ".join(same) + ": the same curve (the line drawn last hides the other)"
    fig = plot_risk_coverage(curves, {g: c["default"] for g, c in report["curves"].items()}, title=title,
                             mark_label="tuned bar")  # REFUSAL_SQUAD; the module default is 0.0 (full coverage)
    fig.savefig(PNG, dpi=120, bbox_inches="tight")
    return PNG


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freeze", action="store_true", help="write the frozen SQuAD report set (before any tuning)")
    parser.add_argument("--split", choices=["tune", "report"])
    parser.add_argument("--graphs", nargs="+", choices=GRAPHS, default=list(GRAPHS))
    parser.add_argument("--n", type=int, default=50, help="SQuAD answerable and unanswerable questions per split (each); "
                        "report: the first n of each in the frozen set")
    parser.add_argument("--plot", action="store_true", help=f"draw the report split's curves, defaults marked, to "
                        f"{PNG.relative_to(ROOT)} (from the results file: nothing is run)")
    args = parser.parse_args()
    log = lambda *a: print(*a, file=sys.stderr, flush=True)  # noqa: E731
    if args.plot:
        log(f"wrote {plot_report(load_results())}")
        return
    payload = load_results()
    payload.setdefault("about", {
        "what": "risk-coverage curves of the RAG graphs' refusal dials: coverage = share of questions answered; "
                "accuracy = share of the answers that are right (an unanswerable question answered is wrong)",
        "score": "RAGResult.confidence: the document grader's best relevance score among the documents the answer is "
                 "written from (statute QA: the evidence grader's score); not a probability that the answer is right",
        "rule": RULE, "squad": {"file": "shared/datasets/squad2/dev-v2.0_cs224n_half.json", "sha256": sha256_of(DATA)},
        "statute": {"file": "data/eval/statute_qa.json", "sha256": sha256_of(GOLD)}})
    questions = squad_questions()
    if args.freeze:
        if "report_set" in payload:
            parser.error("the report set is already frozen: it is written once, before tuning")
        drawn = drawn_elsewhere()
        chosen = sample(questions, REPORT_ARTICLES, args.n, REPORT_SEED, drawn)
        ids = [q["id"] for q in chosen]
        payload["report_set"] = {
            "command": f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/risk_coverage.py --freeze --n {args.n}",
            "commit": commit(), "articles": "8-15", "seed": REPORT_SEED, "n_answerable": args.n, "n_unanswerable": args.n,
            "excluded": f"{len(drawn)} questions of articles 8-15 that the repository's SQuAD benchmarks sample",
            "grade": "fresh questions (never sampled by a benchmark, never read) of articles read item by item in an earlier "
                     "session: not a fresh-article split (the data here has no SQuAD article the repository does not use)",
            "ids_sha256": ids_hash(ids), "ids": ids}
        save_results(payload)
        log(f"froze {len(ids)} questions (sha256 {payload['report_set']['ids_sha256'][:12]}), {len(drawn)} excluded")
        return
    if args.split is None:
        parser.error("give --freeze or --split")
    if "report_set" not in payload:
        parser.error("freeze the report set first (--freeze): it is written before any tuning")
    if args.split == "tune":
        squad_set = sample(questions, TUNE_ARTICLES, args.n, TUNE_SEED)
        described = f"SQuAD articles 0-7, seed {TUNE_SEED}, {args.n} answerable + {args.n} unanswerable; statute QA dev"
    else:
        frozen = payload["report_set"]
        by_id = {q["id"]: q for q in questions}
        if ids_hash(frozen["ids"]) != frozen["ids_sha256"]:
            raise SystemExit("the frozen report set's ids do not match their sha256")
        squad_set = [by_id[i] for i in frozen["ids"]]
        cap = min(args.n, frozen["n_answerable"])  # the first ``cap`` answerable and unanswerable ids, in frozen order
        squad_set = [q for q in squad_set if not q["impossible"]][:cap] + [q for q in squad_set if q["impossible"]][:cap]
        described = (f"the frozen SQuAD report set (sha256 {frozen['ids_sha256'][:12]}...): its first {cap} answerable and "
                     f"{cap} unanswerable questions; statute QA test (scored once)")
    named: dict[str, list[Item]] = {}
    squad_names = tuple(g for g in args.graphs if g in SQUAD_GRAPHS)
    if squad_names:
        named.update(squad_items(SquadGraphs(), squad_names, squad_set, log))
    if "statute_qa" in args.graphs:
        named["statute_qa"] = statute_items("dev" if args.split == "tune" else "test", log)
    defaults = {g: float(getattr(REFUSAL_SQUAD, g)) for g in named}
    command = (f"HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/refusal/risk_coverage.py --split {args.split} --n {args.n}"
               + ("" if args.graphs == list(GRAPHS) else " --graphs " + " ".join(args.graphs)))
    n_squad = len(squad_set) // 2
    entry: dict[str, Any] = {"command": command, "commit": commit(), "questions": described, "module_defaults": defaults,
                             "commands": {g: command for g in named},  # per graph: one process may run a few graphs
                             "n": {g: ({"answerable": sum(i.answerable for i in items),
                                        "unanswerable": sum(not i.answerable for i in items)})
                                   for g, items in named.items()},
                             "n_squad_each": n_squad,
                             "curves": curves_payload(named, defaults),
                             "at_0": {g: summary(items, 0.0) for g, items in named.items()},
                             "at_default": {g: summary(items, defaults[g]) for g, items in named.items()}}
    if args.split == "tune":
        entry["chosen"] = {}
        for g, items in named.items():
            bar, how = choose_threshold(items, floor=0.0)
            entry["chosen"][g] = {"threshold": bar, **how, "at_chosen": summary(items, bar)}
            log(f"{g}: chosen {bar} {how}")
    else:
        entry["grade"] = payload["report_set"]["grade"] + "; statute QA test: written blind, scored once here"
    payload = load_results()  # again: a run of other graphs may have written meanwhile (one process per graph)
    previous = payload.setdefault("splits", {}).get(args.split, {})
    for key in ("curves", "at_0", "at_default", "chosen", "module_defaults", "commands", "n"):  # keep other graphs' entries of a partial run
        if key in previous and key in entry:
            entry[key] = {**previous[key], **entry[key]}
    payload["splits"][args.split] = {**previous, **entry}
    save_results(payload)
    log(json.dumps({g: entry["at_default"][g] for g in named}, indent=1))


if __name__ == "__main__":
    main()
