"""Keep a bandit's learning: save and load its state as JSON, and share one bandit between threads.

A state file is one JSON object: ``{"format": "ragkit.bandit", "version": 1, "kind": ..., "arms": [...],
"params": {...}, "state": {...}, "rng": {...}}``. ``save`` writes a temporary file beside the target and
swaps it in with ``os.replace``, so a crash mid-write leaves the old file whole. ``load`` names the file
and what is wrong with it (not JSON, not a bandit state, another policy kind, other arms, damaged).

A file that is there but cannot be read is never overwritten silently: ``save`` refuses to replace
anything that is not a state of the same kind and arms unless told ``force=True``, and
``SharedBandit.open`` raises instead of starting afresh over it (that would throw away what the bandit
had learned because of, say, a half-copied file).

``SharedBandit`` puts one lock around a policy so a server's threads can call ``select`` and ``update``
concurrently without losing updates. Simplifications: one process only (two processes writing one file
still race: the last save wins), and the lock is held during a save, so saving on every update
(``save_every=1``) serialises requests behind a disk write.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ragkit.bandit.baselines import UCB1, EpsilonGreedy
from ragkit.bandit.contextual import LinearThompsonSampling, LinUCB
from ragkit.bandit.policies import BanditStateError, Policy, ThompsonSampling

FORMAT = "ragkit.bandit"
VERSION = 1
POLICIES: dict[str, type[Policy]] = {cls.kind: cls for cls in (ThompsonSampling, EpsilonGreedy, UCB1, LinUCB, LinearThompsonSampling)}


def save(policy: Policy, path: str | Path, force: bool = False) -> Path:
    """Write ``policy`` to ``path`` atomically; refuse to replace a file that is not a compatible state.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "bandit.json"
    >>> _ = save(ThompsonSampling(["bm25", "dense"], seed=1), target)
    >>> load(target).arms
    ('bm25', 'dense')
    """
    path = Path(path)
    if path.exists() and not force:
        load(path, kind=policy.kind, arms=policy.arms)  # raises BanditStateError: we do not overwrite what we cannot read
    payload = {"format": FORMAT, "version": VERSION, **policy.to_dict()}
    text = json.dumps(payload, indent=1, sort_keys=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(path: str | Path, kind: str | None = None, arms: Sequence[str] | None = None) -> Policy:
    """Read a state file written by ``save``; with ``kind``/``arms``, also check it is the bandit expected."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"bandit state file not found: {path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise BanditStateError(path, f"is not valid JSON ({err}); it was not overwritten") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise BanditStateError(path, f"is not a ragkit bandit state (format is {found!r}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise BanditStateError(path, f"has format version {data.get('version')!r}; this ragkit reads version {VERSION}")
    if data.get("kind") not in POLICIES:
        raise BanditStateError(path, f"holds an unknown policy kind {data.get('kind')!r} (known: {sorted(POLICIES)})")
    if kind is not None and data["kind"] != kind:
        raise BanditStateError(path, f"holds a {data['kind']} policy, expected {kind}")
    if arms is not None and list(data.get("arms", [])) != list(arms):
        raise BanditStateError(path, f"holds arms {data.get('arms')}, expected {list(arms)} (same names, same order)")
    try:
        return POLICIES[data["kind"]].from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise BanditStateError(path, f"is damaged: {type(err).__name__}: {err}") from err


class SharedBandit:
    """A policy behind one lock, optionally saved to ``path`` every ``save_every`` updates.

    >>> shared = SharedBandit(ThompsonSampling(["bm25", "dense"], seed=0))
    >>> arm = shared.select(); shared.update(arm, 1.0)
    >>> shared.stats()["total_pulls"]
    1
    """

    def __init__(self, policy: Policy, path: str | Path | None = None, save_every: int | None = None):
        if save_every is not None and (save_every < 1 or path is None):
            raise ValueError("save_every must be a positive int and needs a path to save to")
        self.policy, self.path, self.save_every = policy, Path(path) if path is not None else None, save_every
        self._lock = threading.Lock()
        self._since_save = 0

    @classmethod
    def open(cls, path: str | Path, create: Callable[[], Policy], save_every: int | None = None) -> SharedBandit:
        """Load the state at ``path`` if it exists (it must match ``create()``'s kind and arms), else start fresh.

        An existing file that cannot be read raises ``BanditStateError``; it is never replaced by a new bandit.
        """
        fresh = create()
        path = Path(path)
        policy = load(path, kind=fresh.kind, arms=fresh.arms) if path.exists() else fresh
        return cls(policy, path, save_every)

    @property
    def arms(self) -> tuple[str, ...]:
        return self.policy.arms

    @property
    def contextual(self) -> bool:
        return self.policy.contextual

    def default_context(self, arms: Any) -> Callable[[str], Any]:
        return self.policy.default_context(arms)

    def select(self, context: Any = None) -> str:
        with self._lock:
            return self.policy.select(context)

    def update(self, arm: str, reward: float, context: Any = None) -> None:
        with self._lock:
            self.policy.update(arm, reward, context)
            self._since_save += 1
            if self.save_every is not None and self._since_save >= self.save_every:
                self._save()

    def stats(self, **kwargs: Any) -> dict[str, Any]:
        with self._lock:
            return self.policy.stats(**kwargs)

    def save(self, path: str | Path | None = None) -> Path:
        """Save now (to ``path``, or the path the bandit was opened with)."""
        with self._lock:
            return self._save(path)

    def _save(self, path: str | Path | None = None) -> Path:
        target = path if path is not None else self.path
        if target is None:
            raise ValueError("no path to save to: pass save(path) or build SharedBandit(policy, path=...)")
        written = save(self.policy, target)
        self._since_save = 0
        return written
