"""A build's output folder (``yili-kg build --out DIR``), written so that it always holds one build.

A build writes ``graph.trig``, ``graph.ttl``, ``steps.jsonl``, ``toasts.jsonl`` and ``store/`` (the
Oxigraph store).  :class:`BuildFolder` writes each under a temporary name in the folder
(``.graph.trig.XXXX.tmp``, ``.store.XXXX.tmp/``); once all are complete it writes a *journal*
(:data:`JOURNAL`, JSON: the temporary names and the names they take), renames the four files into
place, then swaps the store in last (the old store is moved to ``.store.old`` and removed), and
removes the journal.  A process killed at any moment leaves either the last build's files and
temporary files with no journal (the next build removes the temporary files: the folder is the
last build), or a journal (the next build finishes the renames it lists: the folder is the killed
build, whole), before it writes its own (:func:`recover`).

For tests, :data:`STOP_AT_ENVIRONMENT` names a stage (:data:`STAGES`) at which the process kills
itself with SIGKILL, as an operator's ``kill -9`` would.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph
from yili.ontology.errors import InputError

if TYPE_CHECKING:
    from yili.graph.loader import StoreLoader

__all__ = ["BUILD_FILES", "JOURNAL", "STAGES", "STOP_AT_ENVIRONMENT", "BuildFolder", "recover"]

BUILD_FILES = ("graph.trig", "graph.ttl", "steps.jsonl", "toasts.jsonl")
"""The files a build writes, in the order they are renamed into place (the store comes after them)."""
STORE = "store"
JOURNAL = ".yili-kg-build.json"
"""The journal of a build whose renames have begun: ``{"renames": [[temporary, final], ...]}``,
names relative to the folder, the store last."""
STOP_AT_ENVIRONMENT = "YILI_KG_TEST_STOP_AT"
"""A test hook: when this environment variable names one of :data:`STAGES`, the build kills itself
(SIGKILL) on reaching it."""
STAGES = ("temporaries", "journal", "renaming", "files", "store-aside", "store")
"""Where a build can be stopped by :data:`STOP_AT_ENVIRONMENT`: every temporary written (no journal
yet); journal written (nothing renamed); the first file renamed; the four files renamed; the old
store moved aside (no store in place); the new store in place (the journal not yet removed)."""


def _stage(name: str) -> None:
    """Kill this process (SIGKILL) if :data:`STOP_AT_ENVIRONMENT` names the stage ``name`` (tests only)."""
    if os.environ.get(STOP_AT_ENVIRONMENT) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _leftovers(folder: Path) -> list[Path]:
    """The temporary files and folders a build leaves in ``folder`` while it runs, in name order."""
    prefixes = tuple(f".{name}." for name in (*BUILD_FILES, STORE))
    return sorted(p for p in folder.iterdir() if p.name.startswith(prefixes) and p.name.endswith(".tmp")) + (
        [folder / f".{STORE}.old"] if (folder / f".{STORE}.old").exists() else []
    )


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def recover(folder: str | Path) -> None:
    """Leave ``folder`` holding one build, whatever a killed build left in it: finish the renames of
    its journal if it wrote one (each temporary still there takes its final name, the store last),
    then remove every temporary file and folder of a build (and ``.store.old``).

    A store moved aside with no journal to finish (a build killed by an older yili-kg) is put back.

    Raises
    ------
    InputError
        ``<folder>: cannot finish the build that was stopped: <reason>`` (the folder cannot be written).
    """
    folder = Path(folder)
    if not folder.is_dir():
        return
    journal = folder / JOURNAL
    try:
        if journal.exists():
            try:
                renames = json.loads(journal.read_text(encoding="utf-8"))["renames"]
            except (ValueError, KeyError, TypeError):
                renames = []  # written in part: the renames had not begun
            for temporary, final in renames:
                source, target = folder / Path(temporary).name, folder / Path(final).name
                if source.exists():
                    if target.is_dir() and not target.is_symlink():
                        shutil.rmtree(target)
                    os.replace(source, target)
            journal.unlink()
        aside = folder / f".{STORE}.old"
        if aside.exists() and not (folder / STORE).exists():
            aside.rename(folder / STORE)
        for path in _leftovers(folder):
            _remove(path)
    except OSError as exc:
        raise InputError(f"{folder}: cannot finish the build that was stopped: {exc.strerror or exc}") from None


class BuildFolder:
    """Write one build into ``folder`` (see the module): ``with BuildFolder(out) as build:`` then
    :meth:`writing` for each file and :meth:`write_store`; the renames happen when the block ends
    without an error.  On an error every temporary goes and the last build stays as it was.

    Raises
    ------
    InputError
        ``<folder>/<file>: cannot write: <reason>`` naming the file being written (a full disk, a
        read-only folder), or ``<folder>/store: cannot write the store: <reason>``.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._temporaries: dict[str, Path] = {}

    def __enter__(self) -> BuildFolder:
        recover(self.folder)
        return self

    @contextlib.contextmanager
    def writing(self, name: str) -> Iterator[Path]:
        """The temporary path to write the file ``name`` (one of :data:`BUILD_FILES`) to; an
        :class:`OSError` inside the block (a full disk) becomes an :class:`InputError` naming the
        file (by its final name)."""
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{name}.", suffix=".tmp")
            os.close(fd)
            self._temporaries[name] = Path(tmp)
            yield Path(tmp)
        except OSError as exc:
            raise InputError(f"{self.folder / name}: cannot write: {exc.strerror or exc}") from None

    def write_store(self, store: pyoxigraph.Store) -> int:
        """Write ``store`` as an on-disk Oxigraph store under a temporary name; it is swapped in
        last.  Returns the number of quads written."""
        from yili.graph import store as stores

        target = self.folder / STORE
        if target.exists() and not (target.is_dir() and (target / stores.STORE_MARKER).exists() or stores.is_empty_dir(target)):
            raise InputError(f"{target}: exists and is not an Oxigraph store; remove it or choose another --out")
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{STORE}.", suffix=".tmp", dir=self.folder))
            self._temporaries[STORE] = tmp
            return stores.fill_store(store, tmp)
        except OSError as exc:
            raise InputError(f"{target}: cannot write the store: {exc.strerror or exc}") from None

    def store_loader(self) -> StoreLoader:
        """A :class:`~yili.graph.loader.StoreLoader` making the store under a temporary name (swapped in
        last, like :meth:`write_store`): ``put`` batches of quads while the build goes on, then
        :meth:`close_store`.

        Raises
        ------
        InputError
            ``<folder>/store: cannot write the store: <reason>``.
        """
        from yili.graph import store as stores
        from yili.graph.loader import StoreLoader

        target = self.folder / STORE
        if target.exists() and not (target.is_dir() and (target / stores.STORE_MARKER).exists() or stores.is_empty_dir(target)):
            raise InputError(f"{target}: exists and is not an Oxigraph store; remove it or choose another --out")
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{STORE}.", suffix=".tmp", dir=self.folder))
            self._temporaries[STORE] = tmp
            return StoreLoader(tmp, name=target)
        except OSError as exc:
            raise InputError(f"{target}: cannot write the store: {exc.strerror or exc}") from None

    def close_store(self, loader: StoreLoader) -> int:
        """Finish the store of :meth:`store_loader` (:meth:`~yili.graph.loader.StoreLoader.close`); the
        number of quads written.

        Raises
        ------
        InputError
            ``<folder>/store: cannot write the store: <reason>`` (a batch failed to load: a full disk).
        """
        try:
            return loader.close()
        except OSError as exc:
            raise InputError(f"{self.folder / STORE}: cannot write the store: {exc.strerror or exc}") from None

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is not None:
            for path in self._temporaries.values():
                _remove(path)
            return
        self._commit()

    def _commit(self) -> None:
        """Rename every temporary into place, the store last, under a journal (see the module)."""
        folder = self.folder
        order = [name for name in (*BUILD_FILES, STORE) if name in self._temporaries]
        umask = os.umask(0)
        os.umask(umask)
        try:
            for name in order:
                if name != STORE:
                    os.chmod(self._temporaries[name], 0o666 & ~umask)  # as an ordinary file would be (mkstemp makes it 0600)
            _stage("temporaries")
            journal = folder / JOURNAL
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{JOURNAL}.", suffix=".part")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"renames": [[self._temporaries[n].name, n] for n in order]}, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, journal)  # whole or absent
        except OSError as exc:
            for path in self._temporaries.values():
                _remove(path)
            (folder / JOURNAL).unlink(missing_ok=True)
            raise InputError(f"{folder / JOURNAL}: cannot write: {exc.strerror or exc}") from None
        _stage("journal")
        try:
            for k, name in enumerate(n for n in order if n != STORE):
                os.replace(self._temporaries[name], folder / name)
                if k == 0:
                    _stage("renaming")
            _stage("files")
            if STORE in self._temporaries:
                target, aside = folder / STORE, folder / f".{STORE}.old"
                if target.exists():
                    _remove(aside)
                    target.rename(aside)
                    _stage("store-aside")
                self._temporaries[STORE].rename(target)
                _remove(aside)
            _stage("store")
            journal.unlink()
        except OSError as exc:
            # the journal stays: the next build finishes these renames
            raise InputError(f"{folder}: cannot rename the new files into place: {exc.strerror or exc}") from None


def leftovers(folder: str | Path) -> Sequence[str]:
    """The names of a build's temporary files and folders, and of its journal, in ``folder`` (for
    checks and tests)."""
    folder = Path(folder)
    names = [p.name for p in _leftovers(folder)]
    return names + ([JOURNAL] if (folder / JOURNAL).exists() else [])
