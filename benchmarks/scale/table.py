"""Print the scaling results (``benchmarks/results/scale.json``) as the Markdown table of the READMEs.

    .venv/bin/python benchmarks/scale/table.py benchmarks/results/scale.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def table(record: dict) -> str:
    lines = ["| documents | system | build s | query p50 ms | p95 ms | index MB (peak) | nDCG@10 | load avg (1 min) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in record["rows"]:
        if "error" in r:
            lines.append(f"| {r['size']:,} | {r['system']} | failed: {r['error']} | | | | | |")
            continue
        notes = [f"recall@10 vs exact {r['recall@10_vs_exact']:.4f}"] if "recall@10_vs_exact" in r else []
        if "query_embedding_ms_p50" in r:
            notes.append(f"query embedding alone p50 {r['query_embedding_ms_p50']:.1f} ms")
        extra = f" ({'; '.join(notes)})" if notes else ""
        lines.append(f"| {r['size']:,} | {r['system']}{extra} | {r['build_s']:.1f} | {r['query_ms_p50']:.1f} | "
                     f"{r['query_ms_p95']:.1f} | {r['index_mb']:,} ({r['peak_mb']:,}) | {r['ndcg@10']:.4f} | "
                     f"{r['load_average_start'][0]:.1f}-{r['load_average'][0]:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results/scale.json").read_text())))
