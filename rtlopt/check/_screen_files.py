"""The gate's screen of every added or edited text file, whatever its name.

A build may compile any file (a Makefile's glob hands the simulator ``verif/poke.sva`` or a
``.md``), and a file brings in every header it includes. So each added or edited text file
(binary files and files over 4 MB aside, as the repository rules skip them) is screened by
the rules that need no base (:mod:`rtlopt.check._file_screen`), on its text with its headers
inlined and its own macros expanded (:mod:`rtlopt.check._closure`); a file that is no Verilog
source on what a Verilog tool could read in it (:func:`rtlopt.check._closure.verilog_view`).
A file the gate judges no other way is also screened for changed build options
(:mod:`rtlopt.check._build_options`). For an edited file only what its base version does not
already have counts. In a design whose filelists fix no order of its files, a renamed, moved
or deleted file that defines a macro another file reads without including it, or a renamed
file that reads such a macro, is a finding too (:mod:`rtlopt.check._order`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rtlopt.check._build_options import option_problems
from rtlopt.check._check import ModuleCheck
from rtlopt.check._closure import Inlined, expansions, inline_headers, verilog_view
from rtlopt.check._file_screen import file_problems, macro_problems
from rtlopt.frontend._depgraph import DesignGraph
from rtlopt.harness._binary import as_text, is_binary, with_decoded
from rtlopt.harness._opaque import source_text
from rtlopt.harness._unpacked import CAP, is_packed, unpacked
from rtlopt.verilog import blank_comments

__all__ = ["Resolver", "screen_changes", "screened_text", "text_problems"]

VERILOG = (".v", ".sv", ".vh", ".svh")

#: Larger files are no design text (the repository rules' limit).
SCANNED_BYTES = 4_000_000


def screened_text(path: Path) -> str | None:
    """The text of ``path`` the screen reads, or None: a binary file (a recognised binary
    format) or one over 4 MB that holds no Verilog keyword (one that does is read whole)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(8192)
        if is_binary(head):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if size > SCANNED_BYTES and not any(
        w in data for w in (b"module", b"`define", b"`include", b"bind", b"force", b"defparam")
    ):
        return None
    return as_text(data)


#: A changed text over this size is not judged (a finding says so).
JUDGED_BYTES = 64_000_000


def changed_text(path: Path) -> tuple[str | None, str]:
    """The text the gate judges of a changed file that is no Verilog source (any size up to
    64 MB, a compressed file or an archive by the texts it holds, its escapes decoded), or
    None for a binary format; and why it cannot be judged ("" where it can)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(8192)
        if size > (CAP if is_packed(head) else JUDGED_BYTES):
            return None, f"it is too large to be judged ({size:,} bytes)"
        data = path.read_bytes()
    except OSError as e:
        return None, f"it cannot be read ({e.strerror or e})"
    text, why = packed_text(path, data)
    if text is None and not why and not is_binary(head):
        text = source_text(data)[0]
    return (with_decoded(text) if text is not None else None), why


def packed_text(path: Path, data: bytes) -> tuple[str | None, str]:
    """The texts a compressed file or an archive holds, one after another (None where
    ``data`` is none), and why some cannot be read."""
    found = unpacked(path, data)
    if found is None:
        return None, ""
    if found.why:
        return None, f"it is compressed or an archive and {found.why}"
    texts = [source_text(d)[0] for _, d in found.members if not is_binary(d[:8192])]
    return "\n".join(texts), ""


@dataclass
class Resolver:
    """Header names to the repository's files (by path suffix: every file a name can mean,
    in whichever include folder a build searches)."""

    root: Path

    def __post_init__(self) -> None:
        from rtlopt.inputs import repository_files

        try:
            self._files = [p.relative_to(self.root).as_posix() for p in repository_files(self.root)]
        except OSError:
            self._files = []
        self._texts: dict[str, str | None] = {}

    def __call__(self, name: str) -> dict[str, str]:
        inc = name.strip().lstrip("./")
        if not inc:
            return {}
        out: dict[str, str] = {}
        for rel in self._files:
            if rel == inc or rel.endswith("/" + inc):
                if rel not in self._texts:
                    self._texts[rel] = screened_text(self.root / rel)
                text = self._texts[rel]
                if text is not None:
                    out[rel] = text
        return out


def _found(
    rel: str, text: str, graph: DesignGraph, resolve: Callable[[str], dict[str, str]], verilog: bool
) -> tuple[Inlined, dict[str, int]]:
    """The findings of one version of a file: message -> the file's line."""
    inl = inline_headers(text, resolve)
    full = inl.text if verilog else verilog_view(inl.text)
    out: dict[str, int] = {}
    for variant in expansions(full):
        for ln, msg in file_problems(rel, variant, graph):
            at, header, hl = inl.where(ln)
            shown = f"{msg} (in {header} at line {hl}, which it includes)" if header else msg
            out.setdefault(shown, at)
    for ln, why in inl.unresolved:
        out.setdefault(
            f"{why}: the gate cannot screen what it brings into the build; include a header "
            "of the repository by its path, or review this change in a commit of its own",
            ln,
        )
    return inl, out


def _included_elsewhere(
    header: str, graph: DesignGraph, changed: frozenset[str], depth: int = 0
) -> bool:
    """Whether a file the change leaves alone, which a build compiles (it holds a module, or
    is such a header itself), includes ``header`` outside every conditional: a build that
    compiles that file read the header's macros before the change."""
    from rtlopt.frontend._depgraph import includes_file

    if depth > 4:
        return False
    for rel, node in graph.files.items():
        if rel in changed or not any(includes_file(inc, header) for inc in node.includes):
            continue
        try:
            text = (graph.root / rel).read_text(errors="replace")
        except OSError:
            continue
        if not _unconditional_include(blank_comments(text, strings=False), header):
            continue
        if node.modules or _included_elsewhere(rel, graph, changed | {rel}, depth + 1):
            return True
    return False


def _unconditional_include(code: str, header: str) -> bool:
    """Whether ``code`` includes ``header`` (by name) outside every ```ifdef`` block."""
    from rtlopt.frontend._depgraph import includes_file

    level = 0
    for m in _CONDITIONAL.finditer(code):
        if m.group(1) in ("ifdef", "ifndef"):
            level += 1
        elif m.group(1) == "endif":
            level = max(0, level - 1)
        elif level == 0 and m.group(2) is not None and includes_file(m.group(2), header):
            return True
    return False


_CONDITIONAL = re.compile(r"`(ifdef|ifndef|endif|include)\b(?:\s*\"([^\"\n]*)\")?")


def text_problems(
    rel: str,
    old: str | None,
    new: str,
    graph: DesignGraph,
    resolve: Callable[[str], dict[str, str]],
    *,
    verilog: bool,
    ordered: bool = False,
    options: bool = False,
    changed: frozenset[str] = frozenset(),
) -> list[tuple[int, str]]:
    """The findings of ``new`` (with its headers and own macros) that ``old`` (the file at
    the base; None when added) does not already have, by message; its macros and its
    headers' that other files read (its own only where it is new or the filelists fix no
    order: :func:`rtlopt.check._file_screen.new_problems`; a header's only where no file
    outside ``changed`` includes it: it enters the build through this file); ``options``:
    its changed build options."""
    old_inl, before = _found(rel, old, graph, resolve, verilog) if old is not None else (None, {})
    inl, now = _found(rel, new, graph, resolve, verilog)
    found = [(ln, msg) for msg, ln in now.items() if msg not in before]
    if old is None or not ordered:
        view = new if verilog else verilog_view(new)
        old_view = old if old is None or verilog else verilog_view(old)
        found += macro_problems(rel, view, graph, old_view)
    # a header new to the build, whatever the order (its readers are not judged with it)
    known = set(old_inl.headers) if old_inl is not None else set()
    for header, text in sorted(inl.headers.items()):
        if header in known or _included_elsewhere(header, graph, changed | {rel}):
            continue  # its macros were in the build before (one order for them all)
        line = next((a for a, h, _ in inl.origin if h == header), 1)
        found += [
            (line, f"{msg} (in {header}, which it includes)")
            for _, msg in macro_problems(header, text, graph)
        ]
    if options:
        found += option_problems(rel, old, new)
    return sorted(set(found))


def screen_changes(
    changes: dict[str, str],
    read: frozenset[str],
    new_tree: Path,
    read_base: Callable[[str], str | None],
    renames: dict[str, str],
    graph: DesignGraph,
    ordered: bool,
    words: Mapping[str, str] | None = None,
    lists: frozenset[str] = frozenset(),
    trusted: bool = False,
    base_tree: Path | None = None,
) -> list[ModuleCheck]:
    """A row with the findings of each added or edited text file (see the module's doc):
    Verilog sources and the files the design reads whole, any other text by its Verilog
    view and its build options (a filelist and the configuration are judged as rules), and
    by the design's configuration ``words`` (:mod:`rtlopt.check._config_words`; ``lists``:
    the filelists the rules name, judged as rules); unless ``trusted``, by the setting lines
    it may feed (:mod:`rtlopt.check._computed_settings`)."""
    from rtlopt.check._config_words import word_problems
    from rtlopt.check._rules import CONFIG_FILES, FILELIST_SUFFIXES
    from rtlopt.check._setting_variables import variable_problems

    settings: dict[str, str] | None = None
    fed = _Fed(new_tree, words or {}, trusted, lists)

    resolve = Resolver(new_tree)
    out = []
    for rel, status in sorted(changes.items()):
        path = new_tree / rel
        if status == "D" or not path.is_file():
            if status == "D" and not rel.endswith(VERILOG) and rel not in read:
                found = fed.emptied(rel, read_base(rel), "", "the deletion of")
                out += [ModuleCheck(rel, "(file)", "deleted", findings=found)] if found else []
            continue
        verilog = rel.endswith(VERILOG) or rel in read
        why = ""
        if verilog:
            new: str | None = path.read_text(errors="replace")
        else:
            new, why = changed_text(path)
        base = renames.get(rel, rel)
        if why:
            what = "the change to" if read_base(base) is not None else "the new file"
            msg = f"{what} {rel} is not judged: {why}; review it in a commit of its own"
            out.append(ModuleCheck(rel, "(file)", "changed", findings=[msg]))
            continue
        if not new:  # an emptied text (what read it reads nothing now), or a binary (None)
            found = [] if verilog else fed.emptied(rel, read_base(base), new, "")
            out += [ModuleCheck(rel, "(file)", "changed", findings=found)] if found else []
            continue
        old = read_base(base)  # None: a new file
        if not verilog and old is not None:
            old = _base_text(base_tree, base, old)
        judged = rel.endswith(FILELIST_SUFFIXES) or Path(rel).name in CONFIG_FILES
        what = "the change to" if old is not None else "the new file"
        found = [
            f"{what} {rel} at line {ln}: {msg}"
            for ln, msg in text_problems(
                rel,
                old,
                new,
                graph,
                resolve,
                verilog=verilog,
                ordered=ordered,
                options=not verilog and not judged,
                changed=frozenset(changes),
            )
        ]
        if not verilog and Path(rel).name not in CONFIG_FILES and rel not in lists:
            found += [
                f"{what} {rel} at line {ln}: {msg}"
                for ln, msg in word_problems(rel, old, new, words or {})
            ]
            if settings is None:
                settings = _settings(new_tree, words or {}, fed.texts())
            found += [
                f"{what} {rel} at line {ln}: {msg}"
                for ln, msg in variable_problems(rel, old, new, settings)
            ]
        if not verilog:
            found += fed.interpreters(rel, old, new, what)
        if not found and not verilog:
            found = fed.problems(rel, old, new, what)
        if found:
            change = "changed" if old is not None else "added"
            out.append(ModuleCheck(rel, "(file)", change, findings=found))
    if not ordered:
        out += _order_rows(changes, read, new_tree, read_base, renames, graph, out)
    return out


def _base_text(tree: Path | None, rel: str, text: str) -> str:
    """The base version of a changed text as :func:`changed_text` reads the new one: a
    compressed file's content (read from the base ``tree``), escapes decoded."""
    if tree is not None and (tree / rel).is_file():
        try:
            packed, _ = packed_text(tree / rel, (tree / rel).read_bytes())
        except OSError:
            packed = None
        text = packed if packed is not None else text
    return with_decoded(text)


class _Fed:
    """The findings of :func:`rtlopt.check._computed_settings.fed_problems`, the
    repository's computed setting and include lines read once, when first needed."""

    def __init__(
        self, tree: Path, words: Mapping[str, str], trusted: bool, lists: frozenset[str]
    ) -> None:
        self.tree, self.words, self.trusted, self.lists = tree, words, trusted, lists
        self._lines: tuple[list[tuple[str, int, str]], list[tuple[str, int, str]]] | None = None
        self._texts: list[tuple[str, str]] | None = None
        self._paths: list[tuple[str, int, str, bool]] | None = None

    def texts(self) -> list[tuple[str, str]]:
        """The repository's texts, read once (:func:`repository_texts`)."""
        from rtlopt.check._setting_variables import repository_texts

        if self._texts is None:
            self._texts = repository_texts(self.tree)
        return self._texts

    def interpreters(self, rel: str, old: str | None, new: str, what: str) -> list[str]:
        """The findings of :func:`rtlopt.check._interpreters.interpreter_problems` (not
        turned off by ``--trust-config``: no configuration sets an interpreter)."""
        from rtlopt.check._interpreters import interpreter_paths, interpreter_problems
        from rtlopt.check._rules import CONFIG_FILES, FILELIST_SUFFIXES

        if rel.endswith(FILELIST_SUFFIXES) or Path(rel).name in CONFIG_FILES or rel in self.lists:
            return []  # judged as rules
        if self._paths is None:
            self._paths = interpreter_paths(self.texts())
        found = interpreter_problems(rel, old, new, self._paths)
        what = what or ("the change to" if new else "the emptying of")
        return [f"{what} {rel} at line {ln}: {msg}" for ln, msg in found]

    def emptied(self, rel: str, old: str | None, new: str | None, what: str) -> list[str]:
        """The findings of a deleted or emptied text (``new`` ""), or of a binary (None) at
        a path a line naming an interpreter names (a changed program)."""
        found = self.interpreters(rel, old, "(binary)" if new is None else "", what)
        return found or ([] if new is None else self.problems(rel, old, "", what))

    def problems(self, rel: str, old: str | None, new: str, what: str) -> list[str]:
        from rtlopt.check._computed_settings import computed_settings, fed_problems, include_lines
        from rtlopt.check._rules import CONFIG_FILES, FILELIST_SUFFIXES

        judged = rel.endswith(FILELIST_SUFFIXES) or Path(rel).name in CONFIG_FILES
        if self.trusted or judged or rel in self.lists:
            return []
        if self._lines is None:
            texts = self.texts()
            self._lines = computed_settings(texts, self.words), include_lines(texts)
        found = fed_problems(rel, old, new, *self._lines)
        what = what or ("the change to" if new else "the emptying of")
        return [f"{what} {rel} at line {ln}: {msg}" for ln, msg in found]


def _settings(tree: Path, words: Mapping[str, str], texts: list[tuple[str, str]]) -> dict[str, str]:
    """The variables the setting lines of the texts of ``tree`` read."""
    from rtlopt.check._setting_variables import read_by_settings, repository_lines

    return read_by_settings(repository_lines(tree, texts), words)


def _order_rows(
    changes: dict[str, str],
    read: frozenset[str],
    new_tree: Path,
    read_base: Callable[[str], str | None],
    renames: dict[str, str],
    graph: DesignGraph,
    rows: list[ModuleCheck],
) -> list[ModuleCheck]:
    """The findings of renamed, moved and deleted files in a build that fixes no order of its
    files (:mod:`rtlopt.check._order`): added to the file's row, or a row of their own."""
    from rtlopt.check._order import order_problems

    def new_text(rel: str) -> str | None:
        path = new_tree / rel
        return path.read_text(errors="replace") if path.is_file() else None

    by_file = {m.file: m for m in rows}
    out = []
    found = order_problems(changes, renames, read, graph, read_base, new_text)
    for rel, problems in sorted(found.items()):
        if rel in renames:
            what, change = f"the rename of {renames[rel]} to {rel} at line", "renamed"
        elif changes.get(rel) == "D":
            what, change = f"the deletion of {rel} (its line", "deleted"
        else:
            what, change = f"the new file {rel} at line", "added"
        close = ")" if change == "deleted" else ""
        texts = [f"{what} {ln}{close}: {msg}" for ln, msg in problems]
        row = by_file.get(rel)
        if row is None:
            row = ModuleCheck(rel, "(file)", change)
            out.append(row)
        row.findings += [t for t in texts if t not in row.findings]
    return out
