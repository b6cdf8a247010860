"""The embedded default corpus: the 13 rites of the 儀禮述註 shipped in the package, built once into a cache.

``yili-kg serve`` with no input serves every chapter of 李光坡's 儀禮述註 (四庫全書文淵閣本, from the
Kanseki Repository, ``KR1d0040``) that the package holds (``ingest/data/kanripo/KR1d0040/``, the 13
rites the shared corpus releases; the front and back matter, ``_000`` and ``_018``, are not shipped).
The first start builds them into an on-disk store in a cache folder; every later start finds that
store by its key (:func:`cache_key`: the SHA-256 of the texts and of the package's own files) and
opens it read-only, in seconds.  A changed text or a changed package gives another key, and so a
new build; the old build is then removed.

The cache folder is ``$YILI_KG_CACHE`` if set, else ``$XDG_CACHE_HOME/yili-kg``, else
``~/.cache/yili-kg`` (the XDG Base Directory convention).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from yili.ontology.errors import InputError

CACHE_ENVIRONMENT = "YILI_KG_CACHE"
"""The variable that chooses the cache folder (overrides ``$XDG_CACHE_HOME/yili-kg``)."""

SUMMARY = "summary.json"
"""The file a complete cached build holds beside its ``store/`` (written last: its presence means
the build finished)."""

_PACKAGE_SUFFIXES = (".py", ".ttl", ".tsv", ".jsonld", ".json")
"""The files of the package whose bytes decide what a build writes (the code, the vocabulary, and the
注疏 reader's models, ``ingest/data/zhushu_bigrams.json``)."""


def embedded_corpus() -> list[Path]:
    """The chapters of the 儀禮述註 shipped in the package, in file order (``KR1d0040_001.txt`` 士冠禮 …
    ``KR1d0040_017.txt`` 有司徹).

    Returns
    -------
    list[Path]
        13 files (Kanripo mandoku text, UTF-8).

    Raises
    ------
    InputError
        The package was installed without its data (the folder is missing or empty).
    """
    from importlib import resources

    folder = Path(str(resources.files("yili.ingest") / "data" / "kanripo" / "KR1d0040"))
    files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    if not files:
        raise InputError(f"{folder}: the embedded 儀禮述註 is missing from the installed package; reinstall yili-kg")
    return files


def embedded_stages() -> Path:
    """The folder of 楊復's 儀禮圖 shipped in the package (``ingest/data/reference/KR1d0032``): the 卷 of
    the 13 rites of :func:`embedded_corpus`, whose stages (節) the default build aligns with the 述註
    (:func:`yili.ingest.stages.align`).

    Raises
    ------
    InputError
        The package was installed without its data.
    """
    from importlib import resources

    folder = Path(str(resources.files("yili.ingest") / "data" / "reference" / "KR1d0032"))
    if not any(folder.glob("*.txt")):
        raise InputError(f"{folder}: the embedded 儀禮圖 is missing from the installed package; reinstall yili-kg")
    return folder


def cache_root() -> Path:
    """The cache folder: ``$YILI_KG_CACHE``, else ``$XDG_CACHE_HOME/yili-kg``, else ``~/.cache/yili-kg``."""
    given = os.environ.get(CACHE_ENVIRONMENT)
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "yili-kg"


def package_digest() -> str:
    """The SHA-256 (hex) of the files of the installed package that decide what a build writes:
    every ``.py``, ``.ttl``, ``.tsv``, ``.jsonld`` and ``.json`` file of ``yili.ingest``, ``yili.graph``,
    ``yili.ontology`` and ``yili.api`` (names and bytes, in path order), and the version."""
    from importlib import resources

    from yili.ontology.version import software_version

    h = hashlib.sha256(software_version().encode())
    for package in ("yili.ingest", "yili.graph", "yili.ontology", "yili.api"):
        root = Path(str(resources.files(package)))
        for f in sorted(p for p in root.rglob("*") if p.suffix in _PACKAGE_SUFFIXES and "static" not in p.parts):
            h.update(f"\0{package}/{f.relative_to(root).as_posix()}\0".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def cache_key(files: Sequence[str | Path], extra: str = "") -> str:
    """The key of a build of ``files``: the SHA-256 (hex, first 32 digits) of the package's digest
    (:func:`package_digest`), ``extra`` (the options that change the graph, e.g. the base IRI), and each
    file's name and SHA-256, in the order given.

    Raises
    ------
    InputError
        A file cannot be read (named).
    """
    h = hashlib.sha256(package_digest().encode())
    h.update(extra.encode())
    for f in files:
        try:
            data = Path(f).read_bytes()
        except OSError as exc:
            raise InputError(f"{f}: cannot read: {exc.strerror or exc}") from None
        h.update(f"\0{Path(f).name}\0{hashlib.sha256(data).hexdigest()}".encode())
    return h.hexdigest()[:32]


@dataclass(frozen=True)
class CachedBuild:
    """A build in the cache.

    Attributes
    ----------
    folder : Path
        ``<cache>/<key>``; the store is ``folder / "store"``.
    summary : dict
        ``{"key", "files": [name], "rites": [{"rite", "hant", "edition", "steps", "toasts"}], "steps",
        "toasts", "triples", "seconds"}`` (seconds: how long the build took).
    reused : bool
        Whether the build was found in the cache (True) or made now (False).
    """

    folder: Path
    summary: dict
    reused: bool

    @property
    def store(self) -> Path:
        """The on-disk Oxigraph store of the build."""
        return self.folder / "store"


def cached_build(
    files: Sequence[str | Path],
    *,
    base: str | None = None,
    vocab: Sequence[str] = (),
    rite: str | None = None,
    jobs: int | None = None,
    root: Path | None = None,
    stages: str | Path | None = None,
) -> CachedBuild:
    """The build of ``files`` from the cache, made first if the cache has none with its key.

    A build is made in a temporary folder beside the others and renamed into place when complete,
    so an interrupted build leaves nothing a later start would take for a build; once it is in
    place, the builds of other keys (older texts or an older package) are removed.

    Parameters
    ----------
    files : sequence of path
        The texts (a file that holds no ritual act among several, front matter, is left out with a note).
    base : str, optional
        The base IRI (part of the key).
    vocab : sequence of str
        Extra vocabulary files (``--vocab``; their bytes are part of the key).
    rite : str, optional
        Read every text as this rite (``--rite``; part of the key).
    jobs : int, optional
        Processes to read the chapters in (default: all cores).
    root : Path, optional
        The cache folder (default :func:`cache_root`).
    stages : path, optional
        A folder of 楊復's 儀禮圖 (``--stages``; its texts are part of the key): the editions of the
        rites it covers get their stages.

    Raises
    ------
    InputError
        A text cannot be read or holds no ritual act, or the cache folder cannot be written (named).
    """
    import time

    root = root or cache_root()
    books = sorted(Path(stages).glob("*.txt")) if stages is not None else []
    key = cache_key(
        [*files, *vocab, *books], extra=f"{base or ''}\0{rite or ''}\0{len(vocab)}" + (f"\0{len(books)}" if books else "")
    )
    folder = root / key
    if (folder / SUMMARY).is_file() and (folder / "store" / "CURRENT").is_file():
        try:
            return CachedBuild(folder, json.loads((folder / SUMMARY).read_text(encoding="utf-8")), True)
        except (OSError, ValueError):
            pass  # a damaged summary: built again below
    from yili.api.cli import extract_inputs, write_build

    t0 = time.perf_counter()
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{key}.", suffix=".tmp", dir=root))
    except OSError as exc:
        raise InputError(f"{root}: cannot write the cache: {exc.strerror or exc}") from None
    try:
        _extractor, extractions = extract_inputs(
            [str(f) for f in files], list(vocab), rite, jobs, stages=str(stages) if stages is not None else None
        )
        triples = write_build(extractions, tmp, base=base, vocab=list(vocab), files=False)
        summary = {
            "key": key,
            "files": [Path(f).name for f in files],
            "rites": [
                {
                    "rite": e.document.rite,
                    "hant": e.profile.hant or e.document.rite,
                    "edition": e.document.edition,
                    "steps": len(e.steps),
                    "toasts": len(e.toasts),
                }
                for e in extractions
            ],
            "steps": sum(len(e.steps) for e in extractions),
            "toasts": sum(len(e.toasts) for e in extractions),
            "triples": triples,
            "seconds": round(time.perf_counter() - t0, 2),
        }
        (tmp / SUMMARY).write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)  # an incomplete or damaged build of the same key
        tmp.rename(folder)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise InputError(f"{root}: cannot write the cache: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    for old in sorted(root.iterdir()):
        if old.is_dir() and old.name != key and not old.name.startswith("."):
            shutil.rmtree(old, ignore_errors=True)
    return CachedBuild(folder, summary, False)


def rite_table(summary: dict) -> str:
    """The rites of a cached build, one line each: ``  士冠禮 (shiguanli, shuzhu): 123 steps, 4 toasts``."""
    return "\n".join(
        f"  {r['hant']} ({r['rite']}, {r['edition']}): {r['steps']} steps, {r['toasts']} toasts" for r in summary["rites"]
    )
