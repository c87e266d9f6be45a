"""Find the files to ingest under what was asked, refusing anything that would reach outside it.

:func:`discover` walks the folders (and takes the files) it is given and returns one :class:`FileEntry`
per regular file of a supported type, with its path relative to a common base (the key of the
manifest and the ``source`` of its chunks), plus one :class:`Skipped` per file it will not read, each
with a reason a person can act on:

- a symbolic link whose target lies outside the folders asked for, or that is broken or loops back on
  itself, is refused (the walk never follows directory links, so a link loop cannot trap it; a link to a
  file or folder inside what was asked is read once, under its real path);
- a file larger than ``max_file_bytes`` (default :data:`MAX_FILE_BYTES`, 50 MB) is refused before a
  single byte of it is read;
- a file whose suffix has no reader is skipped; hidden files and folders (``.git``, ``.DS_Store``) are
  passed over and only counted;
- a folder that cannot be listed, or an entry that cannot be looked at (no permission), is named with
  the error instead of vanishing from the walk.

Simplifications: the limit is on bytes on disk, not on extracted text; a folder that changes while it
is being walked gives whatever the walk saw; names are compared as the file system stores them (no
Unicode normalisation).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ragkit.ingest.readers import READERS, reader_for

MAX_FILE_BYTES = 50 * 1024 * 1024  # larger files are refused (pass max_file_bytes= to change it)


@dataclass(frozen=True)
class FileEntry:
    """A file to read: its real path, its key (path relative to the base, ``/``-separated), size and mtime."""

    path: Path
    key: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class Skipped:
    """A file (or link) that was not ingested, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass
class Discovery:
    """What :func:`discover` found: files to read, files refused, hidden entries passed over, the base."""

    files: list[FileEntry]
    skipped: list[Skipped]
    hidden: int
    base: Path


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _base(roots: Sequence[Path]) -> Path:
    folders = [r if r.is_dir() else r.parent for r in roots]
    return Path(os.path.commonpath([str(f) for f in folders]))


def discover(paths: str | Path | Sequence[str | Path], max_file_bytes: int = MAX_FILE_BYTES) -> Discovery:
    """The supported files under ``paths`` (folders are walked recursively), sorted by key.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "a.md").write_text("# A"); _ = (root / "b.png").write_bytes(b"x"); _ = (root / ".git").mkdir()
    >>> found = discover(root)
    >>> [f.key for f in found.files], [s.reason[:21] for s in found.skipped], found.hidden
    (['a.md'], ['unsupported file type'], 1)
    """
    if max_file_bytes < 1:
        raise ValueError(f"max_file_bytes must be at least 1, got {max_file_bytes}")
    asked = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not asked:
        raise ValueError("nothing to ingest: give at least one folder or file")
    roots: list[Path] = []
    for path in asked:
        try:
            roots.append(path.resolve(strict=True))
        except FileNotFoundError:
            raise FileNotFoundError(f"nothing to ingest at {path}: no such file or folder") from None
        except (OSError, RuntimeError) as err:  # RuntimeError: a link loop, on Python before 3.13
            why = getattr(err, "strerror", None) or err
            raise OSError(f"nothing to ingest at {path}: cannot open it ({why})") from None
    base = _base(roots)
    files: dict[Path, FileEntry] = {}
    skipped: list[Skipped] = []
    hidden = 0

    def shown(path: Path) -> str:
        try:
            return path.relative_to(base).as_posix() if path != base else str(path)
        except ValueError:
            return str(path)

    def cannot(path: Path, err: OSError, what: str = "the file") -> None:
        skipped.append(Skipped(shown(path), f"cannot read {what} ({err.strerror or err}): check its permissions"))

    def consider(path: Path, real: Path) -> None:
        if reader_for(real) is None:
            skipped.append(Skipped(shown(path), f"unsupported file type {real.suffix or '(no suffix)'!r}; "
                                                f"ragkit reads {', '.join(sorted(READERS))}"))
            return
        try:
            info = real.stat()
        except OSError as err:
            cannot(path, err)
            return
        if info.st_size > max_file_bytes:
            skipped.append(Skipped(shown(path), f"too large: {info.st_size / 2**20:.1f} MB is over the "
                                                f"{max_file_bytes / 2**20:.1f} MB limit (max_file_bytes / --max-file-mb)"))
            return
        if real not in files:
            files[real] = FileEntry(real, shown(real), info.st_size, info.st_mtime_ns)

    def link(path: Path) -> None:
        """A symbolic link met during the walk: follow it only if it stays inside what was asked."""
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            skipped.append(Skipped(shown(path), "broken symbolic link, or a link loop: not followed"))
            return
        if not _inside(real, roots):
            skipped.append(Skipped(shown(path), f"symbolic link to {real}, outside what was asked: refused"))
        elif real.is_file():
            consider(path, real)
        # a link to a folder inside the roots: that folder is walked under its real path anyway

    for root in roots:
        if root.is_file():
            consider(root, root)
            continue
        # os.walk drops a folder it cannot list unless told: name it (and so what was in it) as skipped
        for folder, dirs, names in os.walk(root, onerror=lambda err: cannot(Path(err.filename), err, "the folder"),
                                           followlinks=False):
            here = Path(folder)
            hidden += sum(d.startswith(".") for d in dirs) + sum(n.startswith(".") for n in names)
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(dirs):
                if (here / name).is_symlink():
                    link(here / name)
            for name in sorted(n for n in names if not n.startswith(".")):
                path = here / name
                try:
                    mode = path.lstat().st_mode
                except OSError as err:  # a folder that can be listed but not entered (r--)
                    cannot(path, err, "the file's folder")
                    continue
                if stat.S_ISLNK(mode):
                    link(path)
                elif stat.S_ISREG(mode):
                    consider(path, path)
                else:
                    skipped.append(Skipped(shown(path), "not a regular file (a device, socket or pipe)"))
    return Discovery(sorted(files.values(), key=lambda f: f.key), skipped, hidden, base)


__all__ = ["MAX_FILE_BYTES", "Discovery", "FileEntry", "Skipped", "discover"]
