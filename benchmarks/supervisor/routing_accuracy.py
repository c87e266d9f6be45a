"""Routing accuracy of LocalSupervisor: tuned on the DEV split, reported once on the TEST split.

The set is ``data/eval/supervisor_routing.json`` (frozen before any tuning; its sha256 is checked by
``load_goldset`` and written into the results): ``{"dev": [80 items], "test": [102 items]}``, each
``{"id", "question", "sequence", "why"}``, labelled by the rules in
``benchmarks/goldsets/make_agent_sets.py``'s docstring.

Before anything is scored the script checks that no description or example of
``ragkit.domains.handbook.agents.SUPERVISOR_ROUTES`` copies a dev or test question (identical after
lower-casing, or MiniLM cosine >= 0.9, with ``benchmarks/roles/check_near_duplicates.py``'s functions)
and drops from the test split any question within cosine 0.9 of a dev question (reported as a count).

1. Tuning, on dev only: every question's clauses (and the whole question) are scored once per ``k``
   (prototype part), once for the term part and once for the head part, so the grid over ``k``,
   ``term_weight``, ``head_weight``, ``hop_cost`` and ``earn_margin`` is arithmetic through the supervisor's
   own ``choose_plan``. The selection rule (written before the test split was run with it): (a) keep the
   settings whose dev accuracy on one-agent questions is at least the one-agent baseline's on dev; (b) score
   each by its *neighbourhood* dev accuracy (its own and its grid neighbours' mean), so a broad plateau beats
   a lucky spike; (c) parsimony, the one-standard-error rule: among the settings within one binomial standard
   error of the best neighbourhood accuracy, take the highest ``earn_margin``, then the highest ``hop_cost``
   (the plan that must earn its hops most), then the best neighbourhood, then the best own accuracy, then
   grid order. It is re-run through the real ``LocalSupervisor`` to prove the
   arithmetic. The whole procedure is cross-validated on dev (5 folds, 10 shuffles) to say how well it
   generalises. Dev mistakes are printed (dev is for looking at).
2. Report (skipped with ``--dev-only``): exact-sequence accuracy, on one-agent questions and on chains,
   per-agent precision and recall (agent counts in the sequence), accuracy by gold chain length, the
   hop-by-hop confusion table and the predicted-vs-gold length table, for the tuned supervisor and two
   baselines (always ``rag``; one agent per question from the same prototypes, no clauses). Only
   aggregates are written for the test split, never its per-item errors. ``--set fresh`` reports instead on
   ``data/eval/supervisor_routing_fresh.json`` (63 questions written and frozen before the earned-hop tuning;
   ``benchmarks/goldsets/make_fresh_supervisor_set.py``), aggregates only, keeping the test block of the same
   setting in the results file.

Run:  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/supervisor/routing_accuracy.py   (about a minute)
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "roles"))
from check_near_duplicates import near_pairs, normalise  # noqa: E402

from ragkit.core.embeddings import embed, load_embedder
from ragkit.defaults import SUPERVISOR  # noqa: E402
from ragkit.domains.handbook.agents import SUPERVISOR_ROUTES  # noqa: E402
from ragkit.goldsets import load_goldset  # noqa: E402
from ragkit.offline.router import LocalRouter
from ragkit.offline.supervisor import LocalSupervisor, choose_plan, mix_evidence  # noqa: E402
from ragkit.roles.agent_protocols import AGENTS  # noqa: E402

COMMAND = "HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/supervisor/routing_accuracy.py"
RESULTS = HERE / "routing_results.json"
SET = "supervisor_routing.json"
FRESH = "supervisor_routing_fresh.json"  # a second held-out set, written and frozen before the earned-hop tuning
BAR = 0.9
GRID = {
    "k": [2, 3, 4, 5, 6],
    "term_weight": [0.2, 0.3, 0.5, 0.8, 1.2],
    "head_weight": [0.0, 0.1, 0.2, 0.3, 0.5, 0.8],
    "hop_cost": [0.0, 0.1, 0.2, 0.3, 0.5],
    "earn_margin": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5],
}
PARSIMONY = ("earn_margin", "hop_cost")  # (c): within one standard error, the plan that must earn its hops most
NONE = "(none)"


# ---------------------------------------------------------------- checks
def example_texts() -> list[str]:
    return [t for spec in SUPERVISOR_ROUTES for t in [spec.description, *spec.examples] if t.strip()]


def check_examples(embedder: Any, dev: list[dict], test: list[dict], held_name: str = "test") -> dict[str, Any]:
    """Fail when a route example (nearly) copies a gold question; report the highest cosines."""
    examples = example_texts()
    ex_vecs = embed(embedder, examples)
    report: dict[str, Any] = {}
    for name, items in (("dev", dev), (held_name, test)):
        questions = [item["question"] for item in items]
        sims = ex_vecs @ embed(embedder, questions).T
        flagged = near_pairs(examples, questions, sims, BAR)
        if flagged:
            for cos, i, j in flagged:
                print(f"  FLAG {cos:.3f} example {examples[i]!r} ~ a {name} question")
            raise SystemExit(f"{len(flagged)} route example(s) nearly copy {name} questions; rewrite them")
        report[f"max_cosine_example_vs_{name}"] = round(float(sims.max()), 4)
    return report


def drop_test_near_dev(embedder: Any, dev: list[dict], test: list[dict]) -> tuple[list[dict], int]:
    sims = embed(embedder, [t["question"] for t in test]) @ embed(embedder, [d["question"] for d in dev]).T
    keep = [t for i, t in enumerate(test)
            if sims[i].max() < BAR and all(normalise(t["question"]) != normalise(d["question"]) for d in dev)]
    return keep, len(test) - len(keep)


# ---------------------------------------------------------------- scoring
def precompute(items: list[dict], supervisors: dict[int, LocalSupervisor]) -> list[dict]:
    """Per question: its clauses, their prototype scores for each k, their term and head evidence."""
    out = []
    any_sup = next(iter(supervisors.values()))
    for item in items:
        q = item["question"]
        protos = {k: sup.evidence(q) for k, sup in supervisors.items()}
        clauses = [c for c, _ in protos[next(iter(protos))]]
        out.append({"question": q, "gold": tuple(item["sequence"]), "clauses": clauses,
                    "protos": {k: [s for _, s in ev] for k, ev in protos.items()},
                    "terms": [any_sup.term_evidence(c.text) for c in clauses],
                    "heads": [any_sup.head_evidence(c.text) for c in clauses],
                    "whole": ({k: sup.router.scores(q) for k, sup in supervisors.items()},
                              any_sup.term_evidence(q), any_sup.head_evidence(q))})
    return out


def predict(pre: dict, setting: dict) -> tuple[str, ...]:
    mixed = functools.partial(mix_evidence, term_weight=setting["term_weight"], head_weight=setting["head_weight"])
    scores = [mixed(p, t, h) for p, t, h in zip(pre["protos"][setting["k"]], pre["terms"], pre["heads"])]
    protos, terms, heads = pre["whole"]
    return choose_plan(pre["question"], pre["clauses"], scores, setting["hop_cost"], SUPERVISOR.max_hops,
                       whole=mixed(protos[setting["k"]], terms, heads),
                       earn_margin=setting["earn_margin"]).sequence


def settings() -> list[dict]:
    keys = list(GRID)
    return [dict(zip(keys, values)) for values in itertools.product(*(GRID[k] for k in keys))]


def correctness(pres: Sequence[dict]) -> dict[tuple, np.ndarray]:
    """Per setting: whether each question's predicted sequence is exact (computed once, indexed by folds)."""
    return {tuple(s.values()): np.array([predict(p, s) == p["gold"] for p in pres]) for s in settings()}


def neighbourhood(scores: dict[tuple, float]) -> dict[tuple, float]:
    """Each setting's mean accuracy over itself and the settings one grid step away on one axis."""
    keys = list(GRID)
    out = {}
    for point, value in scores.items():
        values = [value]
        for axis, key in enumerate(keys):
            idx = GRID[key].index(point[axis])
            for step in (-1, 1):
                if 0 <= idx + step < len(GRID[key]):
                    neighbour = list(point)
                    neighbour[axis] = GRID[key][idx + step]
                    values.append(scores[tuple(neighbour)])
        out[point] = float(np.mean(values))
    return out


def tune(correct: dict[tuple, np.ndarray], single: np.ndarray, baseline: dict[int, np.ndarray],
         rows: np.ndarray) -> tuple[dict, float, float]:
    """The selection rule of the module docstring, on the questions ``rows``: (a) one-agent accuracy at least
    the one-agent baseline's, (b) neighbourhood accuracy, (c) the highest ``hop_cost`` within one standard
    error of the best neighbourhood. Returns (setting, its accuracy, its neighbourhood accuracy)."""
    keys, axis = list(GRID), list(GRID).index("k")
    scores = {point: float(hits[rows].mean()) for point, hits in correct.items()}
    smooth = neighbourhood(scores)
    ones = rows[single[rows]]
    allowed = [point for point, hits in correct.items()
               if not len(ones) or hits[ones].mean() >= baseline[point[axis]][ones].mean()] or list(correct)
    top = max(smooth[point] for point in allowed)
    bar = top - float(np.sqrt(top * (1 - top) / len(rows)))
    order = [keys.index(key) for key in PARSIMONY]
    best = max((point for point in allowed if smooth[point] >= bar),
               key=lambda point: (*(point[i] for i in order), smooth[point], scores[point]))
    return dict(zip(keys, best)), scores[best], smooth[best]


def cross_validate(correct: dict[tuple, np.ndarray], single: np.ndarray, baseline: dict[int, np.ndarray],
                   folds: int = 5, shuffles: int = 10, seed: int = 0) -> dict[str, float]:
    rng = random.Random(seed)
    accs = []
    n = len(single)
    for _ in range(shuffles):
        order = list(range(n))
        rng.shuffle(order)
        for f in range(folds):
            held = np.array(sorted(order[f::folds]))
            setting, _, _ = tune(correct, single, baseline, np.array([i for i in range(n) if i not in set(held)]))
            accs.append(float(correct[tuple(setting.values())][held].mean()))
    return {"mean": round(float(np.mean(accs)), 4), "std": round(float(np.std(accs)), 4), "runs": len(accs)}


# ---------------------------------------------------------------- metrics (aggregates only)
def metrics(gold: Sequence[tuple[str, ...]], pred: Sequence[tuple[str, ...]]) -> dict[str, Any]:
    n = len(gold)
    out: dict[str, Any] = {"n": n, "exact_sequence_accuracy": round(sum(g == p for g, p in zip(gold, pred)) / n, 4)}
    per_agent = {}
    for agent in AGENTS:
        tp = sum(min(g.count(agent), p.count(agent)) for g, p in zip(gold, pred))
        fp = sum(p.count(agent) for p in pred) - tp
        fn = sum(g.count(agent) for g in gold) - tp
        per_agent[agent] = {"precision": round(tp / (tp + fp), 4) if tp + fp else None,
                            "recall": round(tp / (tp + fn), 4) if tp + fn else None, "tp": tp, "fp": fp, "fn": fn}
    out["per_agent"] = per_agent
    by_len: dict[str, dict[str, Any]] = {}
    for length in sorted({len(g) for g in gold}):
        pairs = [(g, p) for g, p in zip(gold, pred) if len(g) == length]
        by_len[str(length)] = {"n": len(pairs), "accuracy": round(sum(g == p for g, p in pairs) / len(pairs), 4)}
    out["by_chain_length"] = by_len
    for name, keep in (("one_agent", lambda g: len(g) == 1), ("chains", lambda g: len(g) > 1)):
        pairs = [(g, p) for g, p in zip(gold, pred) if keep(g)]
        out[name] = {"n": len(pairs), "accuracy": round(sum(g == p for g, p in pairs) / len(pairs), 4) if pairs else None}
    labels = [*AGENTS, NONE]
    table = {g: {p: 0 for p in labels} for g in labels}
    for g, p in zip(gold, pred):
        for i in range(max(len(g), len(p))):
            table[g[i] if i < len(g) else NONE][p[i] if i < len(p) else NONE] += 1
    out["hop_confusion"] = {"rows": "gold agent at hop i", "columns": "predicted agent at hop i", "table": table}
    lengths = {str(a): {str(b): 0 for b in range(1, SUPERVISOR.max_hops + 1)} for a in range(1, SUPERVISOR.max_hops + 1)}
    for g, p in zip(gold, pred):
        lengths[str(len(g))][str(len(p))] += 1
    out["length_confusion"] = {"rows": "gold length", "columns": "predicted length", "table": lengths}
    return out


def whole_question_baseline(router: LocalRouter, items: Sequence[dict]) -> list[tuple[str, ...]]:
    """One agent per question: the best prototype score of the whole question (no clauses, no terms)."""
    out = []
    for item in items:
        scores = {a: s for a, s in router.scores(item["question"]).items() if a in AGENTS}  # not "context"
        out.append((max(scores.items(), key=lambda kv: (kv[1], kv[0]))[0],))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev-only", action="store_true", help="tune and print dev numbers; do not touch test")
    parser.add_argument("--no-cv", action="store_true", help="skip the cross-validation (faster while editing)")
    parser.add_argument("--set", choices=("test", "fresh"), default="test",
                        help="the held-out set to report on once: the test split, or the fresh set (%(default)s)")
    args = parser.parse_args(argv)

    data, sha = load_goldset(SET)
    dev, test = data["dev"], data["test"]
    embedder = load_embedder()
    checks = check_examples(embedder, dev, test)
    test, dropped = drop_test_near_dev(embedder, dev, test)
    print(f"{SET} sha256 {sha[:12]}; dev {len(dev)}, test {len(test)} (dropped {dropped} near dev); {checks}")

    supervisors = {k: LocalSupervisor(SUPERVISOR_ROUTES, embedder, k=k, term_weight=0.0, head_weight=0.0)
                   for k in GRID["k"]}
    dev_pre = precompute(dev, supervisors)
    correct = correctness(dev_pre)
    single = np.array([len(item["sequence"]) == 1 for item in dev])
    baseline = {k: np.array([p == tuple(i["sequence"]) for p, i in zip(whole_question_baseline(
        LocalRouter(SUPERVISOR_ROUTES, fallback="rag", embedder=embedder, k=k), dev), dev)]) for k in GRID["k"]}
    setting, dev_acc, smooth = tune(correct, single, baseline, np.arange(len(dev)))
    print(f"chosen on dev: {setting}  dev accuracy {dev_acc:.4f} (neighbourhood {smooth:.4f})")
    defaults = {key: getattr(SUPERVISOR, key) for key in GRID}
    if setting != defaults:
        print(f"NOTE: ragkit.defaults.SUPERVISOR holds {defaults}; update it to the chosen setting")
    real = LocalSupervisor(SUPERVISOR_ROUTES, embedder, **setting)
    dev_pred = [real.plan(item["question"]).sequence for item in dev]
    assert [predict(p, setting) for p in dev_pre] == dev_pred, "the grid arithmetic disagrees with LocalSupervisor"
    for item, pred in zip(dev, dev_pred):
        if tuple(item["sequence"]) != pred:
            print(f"  dev miss {item['id']}: gold {item['sequence']} got {list(pred)}  {item['question']!r}")
    cv = None if args.no_cv else cross_validate(correct, single, baseline)
    if cv:
        print(f"5-fold cross-validated dev accuracy of the tuning procedure: {cv}")

    whole = LocalRouter(SUPERVISOR_ROUTES, fallback="rag", embedder=embedder, k=setting["k"])
    result: dict[str, Any] = {
        "command": COMMAND, "set": f"data/eval/{SET}", "sha256": sha, "checks": checks,
        "test_dropped_near_dev": dropped, "grid": GRID, "chosen": setting,
        "dev": {"n": len(dev), "accuracy": round(dev_acc, 4), "neighbourhood_accuracy": round(smooth, 4),
                "cross_validated": cv, "metrics": metrics([tuple(i["sequence"]) for i in dev], dev_pred),
                "baseline_whole_question_one_agent": metrics([tuple(i["sequence"]) for i in dev],
                                                             whole_question_baseline(whole, dev))},
        "note": "dev: tuned here, mistakes printed; test: reported once, aggregates only (no per-item errors)",
    }
    for name, m in (("LocalSupervisor", result["dev"]["metrics"]),
                    ("one agent per whole question", result["dev"]["baseline_whole_question_one_agent"])):
        print(f"dev {name}: exact {m['exact_sequence_accuracy']:.4f}  one-agent {m['one_agent']['accuracy']:.4f}  "
              f"chains {m['chains']['accuracy']:.4f}")
    if args.dev_only:
        print(json.dumps(result["dev"]["metrics"]["per_agent"], indent=1))
        return 0
    held = test
    if args.set == "fresh":
        fresh, fresh_sha = load_goldset(FRESH)
        held, near = drop_test_near_dev(embedder, dev, fresh["fresh"])
        result.update({"fresh_set": f"data/eval/{FRESH}", "fresh_sha256": fresh_sha, "fresh_dropped_near_dev": near,
                       "checks": {**checks, **check_examples(embedder, dev, held, "fresh")}})
        previous = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
        if previous.get("chosen") == setting and "test" in previous:
            result["test"] = previous["test"]  # the test run of the same setting, kept next to the fresh one
    gold = [tuple(i["sequence"]) for i in held]
    result[args.set] = {
        "local_supervisor": metrics(gold, [real.plan(i["question"]).sequence for i in held]),
        "baseline_always_rag": metrics(gold, [("rag",)] * len(held)),
        "baseline_whole_question_one_agent": metrics(gold, whole_question_baseline(whole, held)),
    }
    RESULTS.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    for name, m in result[args.set].items():
        print(f"{args.set} {name}: exact {m['exact_sequence_accuracy']:.4f}  one-agent {m['one_agent']['accuracy']:.4f}  "
              f"chains {m['chains']['accuracy']:.4f}  by length {({k: v['accuracy'] for k, v in m['by_chain_length'].items()})}")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
