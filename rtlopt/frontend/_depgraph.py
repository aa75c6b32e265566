"""The dependency graph of a design's files, read from their text (no elaboration).

For every Verilog/SystemVerilog file of a tree: the modules and packages it defines, the files
it includes (```include "name"``, matched by path suffix, so a header that several include
folders could supply counts for all of them), the macro names and packages it reads, and the
module names it instantiates. ``rtlopt check`` uses it to re-judge every module a changed
header, package or define can change, and to find instances of a deleted module. The graph
over-approximates (a name in a disabled ```ifdef`` branch still counts): a module it names
needlessly is judged and passes; one it missed would go unjudged.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.verilog import IDENTIFIER, blank_comments, line_of, module_name_sites, module_spans

VERILOG_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".vhd_inc", ".inc")
_INCLUDE = re.compile(r"`include\s*[\"<]([^\">\n]+)[\">]")
#: An ```include`` whose file name a macro gives (```include `CFG(cfg)``).
_MACRO_INCLUDE = re.compile(r"`include\s*`")
#: Stands, among a file's includes, for one whose name a macro gives: it may be any file.
ANY_FILE = "`"
_MACRO_USE = re.compile(rf"`({IDENTIFIER})")
_MACRO_TEST = re.compile(rf"`(?:ifdef|ifndef|elsif|undef)\s+({IDENTIFIER})")
_PACKAGE = re.compile(rf"\bpackage\s+(?:automatic\s+|static\s+)?({IDENTIFIER})")
_PACKAGE_USE = re.compile(rf"\b({IDENTIFIER})\s*::")
_WORD = re.compile(IDENTIFIER)
_DECLARED = re.compile(r"\b(?:macro)?module\s+$")


@dataclass(frozen=True)
class FileNode:
    """What one file declares and reads."""

    rel: str
    modules: tuple[str, ...]
    packages: tuple[str, ...]
    includes: tuple[str, ...]  # the names as written in `include
    macros: frozenset[str]  # macro names it uses or tests
    package_uses: frozenset[str]
    words: frozenset[str]  # every identifier (a define can be read through any of them)


@dataclass
class DesignGraph:
    """The files of a tree and how they depend on each other."""

    root: Path
    files: dict[str, FileNode] = field(default_factory=dict)

    def includers(self, rel: str) -> set[str]:
        """Files that include ``rel``, directly or through other headers."""
        out: set[str] = set()
        todo = [rel]
        while todo:
            target = todo.pop()
            for node in self.files.values():
                if node.rel in out:
                    continue
                if any(_names_file(inc, target) for inc in node.includes):
                    out.add(node.rel)
                    todo.append(node.rel)
        return out

    def closure(self, rel: str) -> list[FileNode]:
        """The file and every file it includes, transitively."""
        seen: dict[str, FileNode] = {}
        todo = [rel]
        while todo:
            cur = todo.pop()
            node = self.files.get(cur)
            if node is None or cur in seen:
                continue
            seen[cur] = node
            for inc in node.includes:
                todo += [f for f in self.files if _names_file(inc, f)]
        return list(seen.values())

    def reads_macros(self, rel: str, names: Iterable[str]) -> bool:
        """Whether ``rel`` or a file it includes uses, tests or spells one of ``names``."""
        wanted = set(names)
        return any(wanted & (n.macros | n.words) for n in self.closure(rel))

    def users_of_packages(self, names: Iterable[str]) -> set[str]:
        """Files that refer to one of the packages ``names`` (``pkg::`` or ``import pkg``)."""
        wanted = set(names)
        return {rel for rel, n in self.files.items() if wanted & n.package_uses}

    def has_includes(self, rel: str) -> bool:
        return any(n.includes for n in self.closure(rel))

    def instances_of(self, name: str) -> list[tuple[str, int]]:
        """``(file, line)`` of every instantiation of module ``name``."""
        out: list[tuple[str, int]] = []
        for rel, node in sorted(self.files.items()):
            if name not in node.words:
                continue
            text = (self.root / rel).read_text(errors="replace")
            code = blank_comments(text)
            for start, _end, _n in module_name_sites(code, [name]):
                before = code[max(0, start - 40) : start]
                if _DECLARED.search(before) or before.rstrip().endswith(":"):
                    continue  # its declaration, or an `endmodule : name` label
                out.append((rel, line_of(text, start)))
        return out

    def defines_module(self, name: str) -> bool:
        return any(name in n.modules for n in self.files.values())


def _names_file(include: str, rel: str) -> bool:
    """Whether ```include "include"`` can read the file ``rel`` (by path suffix; an include
    whose name a macro gives, :data:`ANY_FILE`, may read any)."""
    if include == ANY_FILE:
        return True
    inc = include.strip().lstrip("./")
    return rel == inc or rel.endswith("/" + inc)


def includes_file(include: str, rel: str) -> bool:
    """Whether ```include "include"`` can read the file ``rel`` (:func:`_names_file`; an
    include whose name a macro gives does not count here)."""
    return include != ANY_FILE and _names_file(include, rel)


def package_spans(text: str) -> dict[str, str]:
    """Each package a file defines: name -> its code (``package`` to ``endpackage``, comments
    out, white space collapsed: a reworded comment is no change)."""
    code = blank_comments(text, strings=False)
    out: dict[str, str] = {}
    for m in _PACKAGE.finditer(code):
        end = re.compile(r"\bendpackage\b").search(code, m.end())
        out[m.group(1)] = " ".join(code[m.start() : end.end() if end else len(code)].split())
    return out


def file_node(rel: str, text: str) -> FileNode:
    """What one file's text declares and reads."""
    code = blank_comments(text, strings=False)
    plain = blank_comments(text)
    return FileNode(
        rel=rel,
        modules=tuple(m.name for m in module_spans(text)),
        packages=tuple(_PACKAGE.findall(plain)),
        includes=tuple(_INCLUDE.findall(code))
        + ((ANY_FILE,) if _MACRO_INCLUDE.search(code) else ()),
        macros=frozenset(_MACRO_USE.findall(code)) | frozenset(_MACRO_TEST.findall(code)),
        package_uses=frozenset(_PACKAGE_USE.findall(plain))
        | frozenset(re.findall(rf"\bimport\s+({IDENTIFIER})", plain)),
        words=frozenset(_WORD.findall(code)),
    )


def design_graph(
    root: Path,
    exclude: Sequence[str] = (),
    texts: Mapping[str, str] | None = None,
    extra: Iterable[str] = (),
) -> DesignGraph:
    """The graph of every Verilog file under ``root`` (hidden folders and ``exclude`` glob
    patterns skipped) and of the files ``extra`` names whatever their suffix (a library
    folder's ``+libext+`` files); ``texts`` gives files' contents instead of reading them."""
    graph = DesignGraph(root)
    named = set(extra)
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel not in named or not path.is_file():  # a named file is read wherever it is
            if any(part.startswith(".") for part in Path(rel).parts):
                continue
            if not rel.endswith(VERILOG_SUFFIXES) or not path.is_file():
                continue
            if any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch("/" + rel, p) for p in exclude):
                continue
        text = (texts or {}).get(rel)
        if text is None:
            text = path.read_text(errors="replace")
        graph.files[rel] = file_node(rel, text)
    return graph
