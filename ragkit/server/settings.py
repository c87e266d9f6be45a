"""The server's settings, read from environment variables (so a container or a Makefile can set them).

| variable | default | what it is |
|---|---|---|
| ``RAGKIT_STATE_DIR`` | ``~/.cache/ragkit/server`` | SQLite checkpoints (paused threads), thread owners, the bandit's counts |
| ``RAGKIT_CHECKPOINT_URL`` | (empty) | ``postgresql://...``: keep all of that in PostgreSQL instead |
| ``RAGKIT_SERVER_TOKEN`` | (empty) | bearer token for graphs that change data; empty: those graphs are off |
| ``RAGKIT_MAX_BODY_BYTES`` | 65536 | request bodies above this are refused (413) |
| ``RAGKIT_INGEST_ROOT`` | (empty) | folders ``POST /collections/{name}/ingest`` may read (inside this one); empty: ingest is off |
| ``RAGKIT_COLLECTIONS_DIR`` | ``~/.cache/ragkit/collections`` | where collections are saved |
| ``RAGKIT_SERVER_SPECS`` | (empty) | ``module:function`` returning ``{name: GraphSpec}``: serve your own graphs |
| ``GOOGLE_API_KEY`` | (empty) | set: the graphs run on Gemini (``load_chat_model``); empty: local roles |
| ``PROMETHEUS_MULTIPROC_DIR`` | set by ``ragkit serve`` | the folder where every worker's metrics are kept and summed |

>>> ServerSettings.from_env({"RAGKIT_MAX_BODY_BYTES": "2000"}).max_body_bytes
2000
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragkit.server.database import is_postgres

MULTIPROC_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"  # prometheus-client's multiprocess mode (see ragkit.server.metrics)


@dataclass(frozen=True)
class ServerSettings:
    state_dir: Path
    checkpoint_url: str | None = None
    token: str | None = None
    max_body_bytes: int = 65_536
    use_chat_model: bool = True  # use Gemini when a key is set (False: always local roles)
    specs: str | None = None  # "module:function" returning {name: GraphSpec}; None: ragkit's graphs
    ingest_root: Path | None = None  # the only folder tree the server may ingest from

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServerSettings:
        env = os.environ if env is None else env
        from ragkit.core.embeddings import default_cache_dir

        state = env.get("RAGKIT_STATE_DIR") or str(default_cache_dir() / "server")
        limit = env.get("RAGKIT_MAX_BODY_BYTES", "65536")
        if not limit.isdigit() or int(limit) < 1_024:
            raise ValueError(f"RAGKIT_MAX_BODY_BYTES must be a whole number of at least 1024, got {limit!r}")
        url, specs = env.get("RAGKIT_CHECKPOINT_URL") or None, env.get("RAGKIT_SERVER_SPECS") or None
        if url and not is_postgres(url):
            raise ValueError(f"RAGKIT_CHECKPOINT_URL must be a postgresql://... URL (or unset, for SQLite), got {url!r}")
        if specs:
            module, _ = specs_target(specs)
            try:
                found = importlib.util.find_spec(module)
            except (ImportError, ValueError):
                found = None
            if found is None:
                raise ValueError(f"RAGKIT_SERVER_SPECS names {module!r}, which Python cannot find from here")
        return cls(state_dir=Path(state).expanduser(), checkpoint_url=url,
                   token=env.get("RAGKIT_SERVER_TOKEN") or None, max_body_bytes=int(limit), specs=specs,
                   ingest_root=Path(env["RAGKIT_INGEST_ROOT"]).expanduser().resolve() if env.get("RAGKIT_INGEST_ROOT") else None)

    def graph_specs(self, database: Any = None) -> dict[str, Any]:
        """The graphs to serve: ``RAGKIT_SERVER_SPECS``'s function, else ragkit's own (registry.default_specs).

        ``database`` is the server's :class:`ragkit.server.database.StateDatabase` (where the advanced
        pipeline's bandit keeps its counts). A function that takes a ``state_dir`` or ``database`` argument
        gets them, as ``default_specs`` does.
        """
        if not self.specs:
            from ragkit.server.registry import default_specs

            return default_specs(self.state_dir, database)
        import inspect

        module, function = specs_target(self.specs)
        make = getattr(importlib.import_module(module), function)
        offered = {"state_dir": self.state_dir, "database": database}
        taken = inspect.signature(make).parameters
        return make(**{name: value for name, value in offered.items() if name in taken})

    def chat_model(self) -> Any:
        """Gemini when a key is set (and allowed), else None: the graphs then use their local roles."""
        if not self.use_chat_model:
            return None
        from ragkit.core.chat_models import load_chat_model

        return load_chat_model("strong")


def specs_target(specs: str) -> tuple[str, str]:
    """``(module, function)`` of a ``RAGKIT_SERVER_SPECS`` value, or a ValueError saying the form it needs.

    >>> specs_target("my_graphs:specs")
    ('my_graphs', 'specs')
    """
    module, _, function = specs.partition(":")
    if not module or not function.isidentifier():
        raise ValueError(f"RAGKIT_SERVER_SPECS must look like 'package.module:function', got {specs!r}")
    return module, function


__all__ = ["ServerSettings", "specs_target"]
