"""Does a graph answer the same over an *ingested* copy of the handbook as over the bundled one?

The bundled handbook (``load_handbook()``) is one Document per ``## HB-NN`` section, searched by the
default hybrid retriever. Here each section is written out as its own Markdown file ``HB-NN.md``,
ingested with ``ragkit.ingest.ingest`` (so it is chunked with the shared 1,000/150 settings: every
section becomes two or three chunks) and searched as a collection. Two ways of writing the file:

- ``title``: ``# Title`` then the body, so the file's title and first line are the bundled document's;
- ``id_title``: ``# HB-NN Title`` then the body, as the heading reads in ``handbook.md``.

The Self-RAG graph of notebook 04, with its default local roles, answers the same questions over the
bundled handbook and over each copy. Reported, as agreement with the bundled run (never as accuracy):

- ``same_outcome``: both answered or both gave up;
- ``same_generation``: the exact same answer text (or both gave up);
- ``same_sentences``: the same set of answer sentences once citation markers (``[2]``) and the
  ``Title:`` prefixes the writer adds are removed (or both gave up);
- ``same_top_section``: the first retrieved section is the same (a chunk counts as its section);
- ``top4_section_jaccard``: overlap of the sections in the top 4 results (after collapsing chunks);
- ``same_reference_hit`` (golden set only): a reference section is in both top-4 lists, or in neither.

Question sets: the handbook questions notebooks 04 and 05 ask (listed below), and the 48 questions of
``data/eval/handbook_golden.jsonl`` (frozen; its sha256 is recorded). Only aggregate agreement is
written, per category for the golden set; no per-item results of the golden set are written or printed.
Nothing is tuned on either set.

Usage::

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/ingest/handbook_agreement.py
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "results" / "ingest_handbook_agreement.json"

# Notebook 04 (Self-RAG): its QUESTIONS list, plus the one it grades section by section; notebook 05: the
# handbook question of its judge cases (its other questions are about the menu, wines and web pages).
NOTEBOOK_QUESTIONS = [
    "What does a checkpointer give a LangGraph graph?", "How does reciprocal rank fusion combine rankings?",
    "What is HyDE?", "How is nDCG@10 computed?", "What does maximal marginal relevance trade off?",
    "What is an interrupt used for?", "How does a cross-encoder reranker differ from a bi-encoder?",
    "What is a reducer?", "Why does overlap help when chunking?", "What does Thompson sampling do?",
    "my loop never stops, what setting saves me?", "the thing with hypothetical documents",
    "Why do tool results need care?", "What is the capital of Peru?",
    "Who won the 2018 football world cup?", "How many legs does a spider have?",
    "What do the BM25 parameters k1 and b control?", "What does BM25 k1 control?",
]


def section_of(doc) -> str:
    """The handbook section a result belongs to: the bundled id, or the ingested file's stem."""
    source = doc.metadata.get("source", "")
    return Path(source).stem if source.startswith("HB-") else doc.metadata["id"]


def top_sections(retriever, question: str, k: int = 4) -> list[str]:
    """The distinct sections of the top results, best first, until ``k`` sections (chunks collapsed)."""
    seen: list[str] = []
    for doc, _ in retriever.search_with_scores(question, 3 * k):
        if section_of(doc) not in seen:
            seen.append(section_of(doc))
        if len(seen) == k:
            break
    return seen


VARIANTS = {"title": "# {title}", "id_title": "# {id} {title}"}


def write_sections(folder: Path, heading: str) -> int:
    from ragkit.domains.handbook.corpus import load_handbook

    folder.mkdir(parents=True, exist_ok=True)
    docs = load_handbook()
    for doc in docs:
        title, _, body = doc.page_content.partition("\n\n")
        first = heading.format(id=doc.metadata["id"], title=title)
        (folder / f"{doc.metadata['id']}.md").write_text(f"{first}\n\n{body}\n", encoding="utf-8")
    return len(docs)


def sentence_set(text: str, titles: list[str]) -> set[str]:
    """Answer sentences without citation markers or the writer's ``Title:`` prefixes."""
    import re

    from ragkit.core.nlp import split_sentences

    text = re.sub(r"\s*\[\d+\]", "", text)
    for title in sorted(titles, key=len, reverse=True):
        text = text.replace(f"{title}: ", "")
    return {s.strip() for s in split_sentences(text) if s.strip()}


def run_graph(graph, retriever, questions: list[str]) -> list[dict]:
    return [{"out": graph.invoke({"question": q}), "tops": top_sections(retriever, q)} for q in questions]


def compare(questions: list[str], bundled: list[dict], ingested: list[dict], titles: list[str]) -> list[dict]:
    rows = []
    for question, a_run, b_run in zip(questions, bundled, ingested):
        a, b = a_run["out"], b_run["out"]
        tops = {"bundled": a_run["tops"], "ingested": b_run["tops"]}
        union = set(tops["bundled"]) | set(tops["ingested"])
        both_gave_up = a["gave_up"] and b["gave_up"]
        answered = not a["gave_up"] and not b["gave_up"]
        rows.append({
            "question": question,
            "same_outcome": a["gave_up"] == b["gave_up"],
            "same_generation": both_gave_up or (answered and a["generation"] == b["generation"]),
            "same_sentences": both_gave_up or (answered and sentence_set(a["generation"], titles) == sentence_set(b["generation"], titles)),
            "same_top_section": tops["bundled"][:1] == tops["ingested"][:1],
            "top4_section_jaccard": len(set(tops["bundled"]) & set(tops["ingested"])) / len(union) if union else 1.0,
            "tops": tops,
            "answered": {"bundled": not a["gave_up"], "ingested": not b["gave_up"]},
            "generation": {"bundled": a["generation"], "ingested": b["generation"]},
        })
    return rows


def summary(rows: list[dict]) -> dict:
    keys = ["same_outcome", "same_generation", "same_sentences", "same_top_section", "top4_section_jaccard"]
    result = {key: round(sum(float(r[key]) for r in rows) / len(rows), 4) for key in keys}
    result["answered_bundled"] = sum(r["answered"]["bundled"] for r in rows)
    result["answered_ingested"] = sum(r["answered"]["ingested"] for r in rows)
    result["n"] = len(rows)
    return result


def main() -> int:
    from ragkit.core.hybrid import default_retriever
    from ragkit.domains.handbook.corpus import load_handbook
    from ragkit.goldsets import check_frozen, eval_dir
    from ragkit.graphs.self_rag import build_self_rag_graph
    from ragkit.ingest import ingest, load_collection

    work = Path(tempfile.mkdtemp(prefix="ragkit-handbook-ingest-"))
    try:
        golden_path = eval_dir() / "handbook_golden.jsonl"
        golden_sha = check_frozen(golden_path)
        golden = [json.loads(line) for line in golden_path.read_text(encoding="utf-8").splitlines() if line.strip()]
        golden_questions = [g["question"] for g in golden]
        handbook = load_handbook()
        titles = [d.metadata["title"] for d in handbook] + [f"{d.metadata['id']} {d.metadata['title']}" for d in handbook]
        bundled_retriever = default_retriever(handbook, k=4)
        bundled_graph = build_self_rag_graph(retriever=bundled_retriever)
        bundled = {"notebook": run_graph(bundled_graph, bundled_retriever, NOTEBOOK_QUESTIONS),
                   "golden": run_graph(bundled_graph, bundled_retriever, golden_questions)}

        def golden_summary(rows: list[dict]) -> dict:
            result = summary(rows)
            result["same_reference_hit"] = round(sum(r["same_reference_hit"] for r in rows) / len(rows), 4)
            return result

        variants, differing = {}, {}
        for variant, heading in VARIANTS.items():
            folder = work / variant
            write_sections(folder, heading)
            report = ingest(folder, collection=f"handbook-{variant}", root=work / "collections", progress=False)
            collection = load_collection(f"handbook-{variant}", root=work / "collections", k=4)
            graph = build_self_rag_graph(retriever=collection)
            notebook_rows = compare(NOTEBOOK_QUESTIONS, bundled["notebook"], run_graph(graph, collection, NOTEBOOK_QUESTIONS), titles)
            golden_rows = compare(golden_questions, bundled["golden"], run_graph(graph, collection, golden_questions), titles)
            for row, item in zip(golden_rows, golden):
                refs = set(item["reference_context_ids"])
                hits = {name: bool(refs & set(top)) for name, top in row["tops"].items()}
                row["same_reference_hit"] = hits["bundled"] == hits["ingested"]
                row["category"] = item["category"]
            by_category: dict[str, list[dict]] = defaultdict(list)
            for row in golden_rows:
                by_category[row["category"]].append(row)
            variants[variant] = {
                "file_heading": heading, "files": report.documents, "chunks": report.chunks,
                "notebook_questions": {"agreement": summary(notebook_rows),
                                       "per_question": [{k: r[k] for k in ("question", "same_outcome", "same_generation",
                                                                             "same_sentences", "same_top_section", "tops",
                                                                             "answered", "generation")}
                                                        for r in notebook_rows]},
                "golden": {"agreement": golden_summary(golden_rows),
                           "by_category": {c: golden_summary(rows) for c, rows in sorted(by_category.items())}},
            }
            differing[variant] = [r for r in notebook_rows if not r["same_sentences"]]

        record = {
            "command": "HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/ingest/handbook_agreement.py",
            "graph": "build_self_rag_graph with default local roles (notebook 04), k=4",
            "bundled": f"default_retriever(load_handbook()): {len(handbook)} whole sections",
            "chunking": "ragkit.defaults.RETRIEVAL chunk_size=1000, chunk_overlap=150 (ragkit.ingest)",
            "notebook_questions": NOTEBOOK_QUESTIONS,
            "golden": {"file": "data/eval/handbook_golden.jsonl", "sha256": golden_sha, "n": len(golden),
                       "note": "agreement only, aggregated; no per-item results written; not tuned on"},
            "variants": variants,
        }
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        for variant, data in variants.items():
            print(variant, json.dumps({"notebook": data["notebook_questions"]["agreement"], "golden": data["golden"]}, indent=1))
            for row in differing[variant]:
                print(f"  differs: {row['question']}\n    bundled : {row['generation']['bundled']}\n    ingested: {row['generation']['ingested']}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
