"""The word lists of the classical language (文言, ``lzh``) that the grammar reads, from ``ontology/lzh/``.

The function words and single-word idioms the rules of the extractor read (adverbs, negators, the
prepositions 于 and 自, the pronoun 之, 若…則, set phrases that close a speech …) are data, kept apart from
the code as spaCy keeps a language's data in its ``lang/`` folders.  Each file of ``ontology/lzh/`` is a
table of tab-separated columns ``name  word  reading  gloss  source``, with ``#`` comment lines and one
header line: ``name`` is the list the word belongs to (the name :mod:`yili.ingest.grammar` gives it:
``THEIR``, ``ELDEST``), ``reading`` what the word makes of what follows (only in a table such as
``IDIOMS``; empty in a plain list), ``gloss`` its English, ``source`` a text that shows it.

The lists are compiled once into immutable values: :func:`words` (a frozenset), :func:`sequence` (a
tuple in file order, where order matters), :func:`table` (a read-only mapping word → reading, in file
order).  The variant spellings (``ontology/variants.tsv``) are added by the grammar, not here.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from yili.ontology.errors import VocabularyError

FOLDER = "lzh"
"""The folder of ``yili.ontology`` that holds the word lists (``ontology/lzh/*.tsv``)."""

COLUMNS = ("name", "word", "reading", "gloss", "source")
"""The columns of every file, in order (its header line)."""


@dataclass(frozen=True)
class Entry:
    """One word of one list.

    Attributes
    ----------
    name : str
        The list (``ADVERBS``, ``THEIR``), an upper-case identifier.
    word : str
        The word as the grammar matches it (one or more characters).
    reading : str
        In a table, what the word makes of what follows (``tail``, ``chooser``); else "".
    gloss : str
        Its English meaning in this use.
    source : str
        A text that shows it (the classic or its commentary), or "" if the grammar cites none.
    file : str
        The file it is read from (``function_words.tsv``), and ``line`` its line number (1-based).
    line : int
    """

    name: str
    word: str
    reading: str
    gloss: str
    source: str
    file: str
    line: int


@functools.cache
def entries() -> Mapping[str, tuple[Entry, ...]]:
    """Every list of ``ontology/lzh/``, by name, each list's entries in file order (the files read in
    name order): :func:`read_lists` of the package's files.

    Raises
    ------
    VocabularyError
        As :func:`read_lists`; or a file is not UTF-8 or cannot be read (the message names the file).
    """
    folder = resources.files("yili.ontology") / FOLDER
    texts: list[tuple[str, str]] = []
    for f in sorted((f for f in folder.iterdir() if f.name.endswith(".tsv")), key=lambda f: f.name):
        try:
            texts.append((f.name, f.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            raise VocabularyError(f"ontology/{FOLDER}/{f.name}: cannot read the word list: {exc}") from None
    return read_lists(texts)


def read_lists(files: Iterable[tuple[str, str]]) -> Mapping[str, tuple[Entry, ...]]:
    """The word lists of ``files`` (pairs of a file name and its text, in the order given), by name.

    Raises
    ------
    VocabularyError
        A file has no header line (:data:`COLUMNS`); a line has not the five columns, a list name that is
        not an upper-case identifier, an empty word or an empty gloss; a word stands twice in one list; a
        list is spread over two files.  The message names the file and the line.
    """
    found: dict[str, list[Entry]] = {}
    home: dict[str, str] = {}
    for fname, text in files:
        where = f"ontology/{FOLDER}/{fname}"
        header_seen = False
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if not header_seen:
                if tuple(cells) != COLUMNS:
                    raise VocabularyError(f"{where}, line {number}: expected the header {' '.join(COLUMNS)} (tab-separated)")
                header_seen = True
                continue
            if len(cells) != len(COLUMNS):
                raise VocabularyError(f"{where}, line {number}: expected {len(COLUMNS)} tab-separated columns, got {len(cells)}")
            name, word, reading, gloss, source = (c.strip() for c in cells)
            if not name.isidentifier() or not name.isupper():
                raise VocabularyError(f"{where}, line {number}: {name!r} is no list name (an upper-case identifier)")
            if not word or any(ch.isspace() for ch in word):
                raise VocabularyError(f"{where}, line {number}: list {name} has an empty or spaced word")
            if not gloss:
                raise VocabularyError(f"{where}, line {number}: {name} {word} has no English gloss")
            if home.setdefault(name, fname) != fname:
                raise VocabularyError(f"{where}, line {number}: list {name} is already in {home[name]}")
            listed = found.setdefault(name, [])
            if any(e.word == word for e in listed):
                raise VocabularyError(f"{where}, line {number}: {word} is twice in list {name}")
            listed.append(Entry(name, word, reading, gloss, source, fname, number))
        if not header_seen:
            raise VocabularyError(f"{where}: no header line ({' '.join(COLUMNS)})")
    return MappingProxyType({name: tuple(es) for name, es in found.items()})


def _list(name: str) -> tuple[Entry, ...]:
    try:
        return entries()[name]
    except KeyError:
        raise VocabularyError(f"ontology/{FOLDER}: no word list named {name}") from None


def words(name: str) -> frozenset[str]:
    """The words of list ``name``, as a set.  Raises :class:`VocabularyError` if there is no such list."""
    return frozenset(e.word for e in _list(name))


def sequence(name: str) -> tuple[str, ...]:
    """The words of list ``name`` in file order (where order decides: the first that matches).  Raises
    :class:`VocabularyError` if there is no such list."""
    return tuple(e.word for e in _list(name))


def table(name: str) -> Mapping[str, str]:
    """List ``name`` as a read-only table word → reading, in file order.  Raises :class:`VocabularyError`
    if there is no such list, or a word of it has no reading."""
    out: dict[str, str] = {}
    for e in _list(name):
        if not e.reading:
            raise VocabularyError(f"ontology/{FOLDER}/{e.file}, line {e.line}: {name} {e.word} has no reading")
        out[e.word] = e.reading
    return MappingProxyType(out)
