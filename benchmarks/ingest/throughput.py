"""Ingest throughput: files, PDF pages and chunks per second, cold and on re-ingest, on a generated folder.

The folder (default 240 files: 90 Markdown, 60 text, 50 HTML, 40 PDF of 2-4 pages) is written from the
sentences of the bundled corpora (handbook, statute, web snapshot, menu, wines), shuffled with a fixed
seed, so every chunk is new text (the embedding cache cannot shortcut the cold run by repeated text).

Runs, in order, each timed wall-clock (a shared 2-core machine: expect run-to-run noise):

1. cold: empty embedding cache, no collection (the model is loaded before the clock starts, and timed apart);
2. re-ingest, nothing changed (median of 3): size and mtime match, nothing is read or rewritten;
3. re-ingest with ``rehash=True``, nothing changed (median of 3): every file read and hashed;
4. re-ingest after editing 10 files, deleting 2 and adding 2;
5. warm rebuild: a new collection over the same folder, embedding cache warm: reading, chunking,
   indexing and saving everything, i.e. the cold run's cost less the embedding.

``embedding_only_texts_per_s`` embeds 256 other sentences without any cache just before the cold run,
so a reader can tell how much of the cold time is the model (and how loaded the machine was:
``load_average_1min`` is recorded before and after).

Usage::

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/ingest/throughput.py \
        [--files 240] [--out benchmarks/results/ingest_throughput.json]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KINDS = (("md", 90), ("txt", 60), ("html", 50), ("pdf", 40))


def sentence_pool() -> list[str]:
    """Every sentence of the bundled corpora, deduplicated, in a fixed order."""
    from ragkit.core.nlp import split_sentences
    from ragkit.domains.corpora import load_corpus

    seen: dict[str, None] = {}
    for name in ("handbook", "statute", "web", "menu", "wine"):
        for doc in load_corpus(name):
            for sentence in split_sentences(doc.page_content.replace("\n", " ")):
                if len(sentence) > 30 and "```" not in sentence:
                    seen.setdefault(sentence.strip(), None)
    return list(seen)


def paragraphs(rng: random.Random, pool: list[str], n: int) -> list[str]:
    return [" ".join(rng.sample(pool, rng.randint(3, 7))) for _ in range(n)]


def write_folder(folder: Path, n_files: int, seed: int = 0) -> dict[str, int]:
    """Write ``n_files`` files (the KINDS mix, scaled) under ``folder``; returns counts by kind and PDF pages."""
    from ragkit.ingest.samples import write_text_pdf

    rng, pool = random.Random(seed), sentence_pool()
    total = sum(n for _, n in KINDS)
    counts = {kind: round(n * n_files / total) for kind, n in KINDS}
    counts["md"] += n_files - sum(counts.values())
    pages = 0
    for kind, count in counts.items():
        for i in range(count):
            sub = folder / f"topic-{i % 6}"
            sub.mkdir(parents=True, exist_ok=True)
            name = f"{kind}-{i:03d}"
            if kind == "md":
                sections = [f"## Section {s + 1}\n\n" + "\n\n".join(paragraphs(rng, pool, rng.randint(1, 3))) for s in range(rng.randint(1, 4))]
                (sub / f"{name}.md").write_text(f"# Notes {name}\n\n" + "\n\n".join(sections) + "\n", encoding="utf-8")
            elif kind == "txt":
                (sub / f"{name}.txt").write_text("\n\n".join(paragraphs(rng, pool, rng.randint(2, 6))) + "\n", encoding="utf-8")
            elif kind == "html":
                body = "".join(f"<h2>Part {s + 1}</h2>" + "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs(rng, pool, 2))
                               for s in range(rng.randint(1, 3)))
                (sub / f"{name}.html").write_text(f"<html><head><title>Page {name}</title><script>track()</script></head>"
                                                  f"<body><h1>Page {name}</h1>{body}</body></html>\n", encoding="utf-8")
            else:
                texts = ["\n\n".join(paragraphs(rng, pool, 3)) for _ in range(rng.randint(2, 4))]
                write_text_pdf(sub / f"{name}.pdf", texts, title=f"Report {name}")
                pages += len(texts)
    return {**counts, "pdf_pages": pages}


def rates(report, seconds: float) -> dict[str, float]:
    return {"seconds": round(seconds, 3), "files_per_s": round(report.documents / seconds, 1),
            "chunks_per_s": round(report.chunks / seconds, 1), "pages_per_s": round(report.pages / seconds, 1),
            "files_read": len(report.read), "files_reused": report.reused, "files_removed": len(report.removed),
            "new_chunks": report.new_chunks, "up_to_date": report.up_to_date}


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=240)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "ingest_throughput.json")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="ragkit-ingest-bench-"))
    os.environ["RAGKIT_PROGRESS"] = "0"
    try:
        import bs4
        import pypdf

        from ragkit.core.embeddings import EmbeddingCache, MiniLMEmbeddings
        from ragkit.ingest import ingest, load_collection

        folder = work / "docs"
        layout = write_folder(folder, args.files)
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        embedder = MiniLMEmbeddings(cache=EmbeddingCache(work / "embeddings.sqlite"))  # an empty cache: a cold run
        _, model_s = timed(lambda: embedder.embed_query("warm up the model"))
        probe = [f"{p} (probe {n})" for n, p in enumerate(sentence_pool()[:256])]  # texts no run embeds
        _, probe_s = timed(lambda: MiniLMEmbeddings(cache=None).embed_array(probe))
        load_before = os.getloadavg()
        root = work / "collections"
        run = lambda **kw: ingest(folder, collection=kw.pop("name", "bench"), root=root, embeddings=embedder, **kw)
        cold, cold_s = timed(run)
        results = {"cold": rates(cold, cold_s)}
        for label, kwargs in (("reingest_unchanged", {}), ("reingest_unchanged_rehash", {"rehash": True})):
            times = []
            for _ in range(3):
                report, seconds = timed(lambda: run(**kwargs))
                times.append(seconds)
            results[label] = {**rates(report, statistics.median(times)), "runs_s": [round(t, 3) for t in times]}
        rng = random.Random(1)
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".txt", ".html"))
        for n, path in enumerate(rng.sample(files, 10)):
            edit = f"Edit number {n} made for the benchmark."
            text = path.read_text(encoding="utf-8")
            text = text.replace("</body>", f"<p>{edit}</p></body>") if path.suffix == ".html" else f"{text}\n{edit}\n"
            path.write_text(text, encoding="utf-8")
        for path in rng.sample([p for p in files if p.suffix == ".txt"], 2):
            path.unlink()
        for n in range(2):
            (folder / f"added-{n}.md").write_text(f"# Added {n}\n\nA new file added after the first ingest, number {n}.\n")
        changed, changed_s = timed(run)
        results["reingest_10_changed_2_deleted_2_added"] = rates(changed, changed_s)
        warm, warm_s = timed(lambda: run(name="bench-warm"))
        results["rebuild_warm_embedding_cache"] = rates(warm, warm_s)
        collection, load_s = timed(lambda: load_collection("bench", root=root, embeddings=embedder))
        queries = ["How does reciprocal rank fusion combine rankings?", "When is the harbour festival?",
                   "What must an operator notify within 72 hours?", "Which wine goes with fish?"]
        query_times = [timed(lambda q=q: collection.search_with_scores(q, 4))[1] * 1000 for q in queries * 3]
        record = {
            "command": "HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/ingest/throughput.py" + (f" --files {args.files}" if args.files != 240 else ""),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores shared with other jobs; wall-clock, expect noise",
            "versions": {"pypdf": pypdf.__version__, "beautifulsoup4": bs4.__version__, "python": platform.python_version()},
            "folder": {"files": args.files, "by_kind": {k: layout[k] for k, _ in KINDS}, "pdf_pages": layout["pdf_pages"],
                       "bytes": size, "chunks": cold.chunks, "seed": 0},
            "settings": cold_settings(root),
            "model_load_s": round(model_s, 2),
            "embedding_only_texts_per_s": round(len(probe) / probe_s, 1),
            "load_average_1min": {"before": round(load_before[0], 1), "after": round(os.getloadavg()[0], 1)},
            "cold_seconds_not_embedding": round(warm_s, 3),
            "runs": results,
            "load_collection_s": round(load_s, 3),
            "query_ms_p50": round(statistics.median(query_times), 1),
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(json.dumps(record, indent=2, sort_keys=True))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def cold_settings(root: Path) -> dict:
    return json.loads((root / "bench" / "collection.json").read_text())["settings"]


if __name__ == "__main__":
    sys.exit(main())
