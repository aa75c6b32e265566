"""Changed texts the gate does not judge that still shape the design.

The gate proves the modules the configured build reads. Three kinds of changed text change
what another build of the same repository reads while no judged file changes:

- a file of any name the configured build does not read (``lib/inv.vg`` found by
  ``iverilog -y lib -Y .vg``, a ``.vt``, a file without a suffix) that defines a design unit
  the design has (a module, primitive, interface, package, program, config or checker; a VHDL
  entity, architecture, package or configuration of that name): a second definition, which a
  build that searches its folder may read in place of the judged one;
- a file the configured build does not read (nor includes) whose ```define`` / ```undef``
  lines change a macro the design reads: a build that compiles it first (one compilation
  unit) reads the design otherwise than the gate judged it;
- a changed text of a hardware language rtlopt cannot judge (VHDL, SystemC, a netlist
  format, Verilog in a file the build does not read): never passed silently.

Each is a finding (fail closed); documentation (``README``, ``.md``) is none of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from rtlopt.check._config_words import DOCUMENTATION
from rtlopt.errors import RtloptError
from rtlopt.verilog import blank_comments, directive_line_end, plain_name, scan

__all__ = [
    "configured_files",
    "define_changes",
    "foreign_findings",
    "foreign_rows",
    "hdl_kind",
    "merged_rows",
    "unit_definitions",
]

_VERILOG = (".v", ".sv", ".vh", ".svh")
#: A Verilog design unit's header on the lexer's view (comments, strings and attributes
#: blanked): its keyword then an optional lifetime then its name, white space of any kind
#: (newlines too) between them; ``virtual``, a backtick or a ``+``/``-`` before it aside
#: (``+module name`` of a coverage configuration).
_VERILOG_UNIT = re.compile(
    r"(?<![\w$`\\+\-])(?<!virtual )(module|macromodule|primitive|interface|package|program|"
    r"config|checker)\s+(?:(?:automatic|static)\s+)?(\\[^ \t\n\r\f]+|[A-Za-z_][\w$]*)"
)
_NAME_OR_ESCAPED = r"\\[^ \t\n\r\f]+|[A-Za-z_][\w$]*"
#: A one-line define whose body ends in a unit keyword (and lifetime).
_KEYWORD_MACRO = re.compile(
    r"`[ \t]*define[ \t]+([A-Za-z_][\w$]*)[ \t]+(?:[^\n]*\s)?(module|macromodule|primitive|"
    r"interface|package|program|config|checker)(?:[ \t]+(?:automatic|static))?[ \t]*$",
    re.M,
)
#: An attribute instance ``(* ... *)`` (not ``@(*)``, ``(*)``).
_ATTRIBUTE = re.compile(r"\(\*(?!\s*\))[\s\S]*?\*\)")
_VHDL_UNIT = re.compile(
    r"^[ \t]*(?:(entity)[ \t]+(\w+)[ \t\r\n]+is\b|(architecture)[ \t]+\w+[ \t\r\n]+of[ \t\r\n]+"
    r"(?:\w+\.)?(\w+)|(package)[ \t]+(?:body[ \t]+)?(\w+)[ \t\r\n]+is\b|(configuration)[ \t]+"
    r"\w+[ \t\r\n]+of[ \t\r\n]+(\w+))",
    re.M | re.I,
)
_VHDL_SUFFIX = (".vhd", ".vhdl", ".vho", ".vhi", ".vht")
_NETLIST_SUFFIX = (".edf", ".edif", ".edn", ".blif", ".eblif", ".sp", ".spi", ".cdl", ".cir")
_SYSTEMC = re.compile(r"\bSC_MODULE\b|\bsc_core::|\bsc_module\b|#\s*include\s*[<\"]systemc")
_DEFINE = re.compile(r"`[ \t]*(define|undef)[ \t]+([A-Za-z_][\w$]*)([^\n]*)")
_INCLUDE = re.compile(r"`[ \t]*include[ \t]*[\"<]([^\">\n]+)[\">]|`[ \t]*include[ \t]*(`\w+)")
_UNDEFINEALL = re.compile(r"`[ \t]*(?:undefineall|resetall)\b")


def configured_files(tree: Path, project: Any) -> set[str]:
    """The files (repository-relative) the configured build itself reads: its filelists'
    sources, ``-v`` files and ``-y`` folders' files; without a filelist, the scanned sources.
    A filelist that does not read: none (its rules' finding covers it)."""
    from rtlopt.frontend._sources import _scan, read_project_filelist

    root = tree.resolve()
    files: list[Path] = []
    try:
        for fl in project.filelists:
            lst = read_project_filelist(tree, fl, project)
            files += lst.units + lst.library_files
            exts = tuple(lst.library_ext) or _VERILOG
            for d in lst.library_dirs:
                if d.is_dir():
                    files += [p for p in d.iterdir() if p.name.endswith(exts) and p.is_file()]
        if not project.filelists:
            files += _scan(tree, project.exclude, project.max_file_bytes)[0]
    except RtloptError:
        return set()
    out: set[str] = set()
    for p in files:
        try:
            out.add(p.resolve().relative_to(root).as_posix())
        except (OSError, ValueError):
            continue
    return out


def unit_definitions(text: str) -> list[tuple[int, str, str]]:
    """``(line, kind, name)`` of each design unit ``text`` defines, in Verilog or VHDL."""
    out: list[tuple[int, str, str]] = []
    for line, kind, name in _verilog_units(text):
        out.append((line, kind, name))
    for m in _VHDL_UNIT.finditer(text):
        groups = [g for g in m.groups() if g is not None]
        kind, name = groups[0].lower(), groups[1]
        out.append((text.count("\n", 0, m.start()) + 1, f"VHDL {kind}", name))
    return sorted(out)


def _verilog_units(text: str) -> list[tuple[int, str, str]]:
    """``(line, kind, name)`` of each Verilog unit header, found on the Verilog lexer's view
    (:func:`rtlopt.verilog.blank_comments`: a comment or string never hides a header nor
    makes one) with attribute instances blanked, so that ``(* keep *) module inv`` and a
    name on the line after its keyword are read as the tools read them."""
    code = _ATTRIBUTE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), blank_comments(text))
    out: list[tuple[int, str, str]] = []
    for m in _VERILOG_UNIT.finditer(code):
        name = plain_name(m.group(2))
        if m.group(1) == "interface" and name == "class":
            continue
        out.append((code.count("\n", 0, m.start()) + 1, m.group(1), name))
    # a macro whose body ends in a unit keyword: its use starts a header (`MOD inv(...))
    for d in _KEYWORD_MACRO.finditer(code):
        for m in re.finditer(rf"`{re.escape(d.group(1))}\s+({_NAME_OR_ESCAPED})", code):
            out.append((code.count("\n", 0, m.start()) + 1, d.group(2), plain_name(m.group(1))))
    return out


def hdl_kind(rel: str, text: str) -> str:
    """The hardware language of ``text`` rtlopt cannot judge ("" for none): a VHDL unit, a
    SystemC model, a netlist format, Verilog units in a file of another suffix."""
    low = rel.lower()
    if low.endswith(_VHDL_SUFFIX) or _VHDL_UNIT.search(text):
        return "VHDL"
    if _SYSTEMC.search(text):
        return "SystemC"
    if low.endswith(_NETLIST_SUFFIX) or text.lstrip().startswith("(edif"):
        return "a netlist"
    if (
        not low.endswith(_VERILOG)
        and any(k != "package" for _, k, _ in unit_definitions(text))
        and re.search(r"\bend(?:module|primitive|interface|program|config|checker)\b", text)
    ):
        return "Verilog in a file of a suffix the configured build does not read"
    return ""


def _define_bodies(text: str) -> set[tuple[str, str, str]]:
    """``(name, define/undef, body)`` of each ```define`` / ```undef`` of ``text``: the whole
    body, its backslash-continued lines joined, as the preprocessor reads it (comments out,
    on the lexer's view); where a comment ends in a backslash or a block comment spans a
    line's end (a continuation a tool may follow or not) also read on to there: a change to
    any of these readings is a change."""
    code = blank_comments(text, strings=False)
    # a block comment over a line's end: a tool may read the body on past it, or not
    joined = list(code)
    for kind, a, b in scan(text) if "/*" in text else ():
        if kind == "comment":
            joined[a:b] = " " * (b - a)
    views = {code, "".join(joined), text}
    out: set[tuple[str, str, str]] = set()
    for m in _DEFINE.finditer(code):
        ends = sorted({directive_line_end(v, m.start()) for v in views})
        spans = [code[m.start(3) : ends[0]]]
        spans += [v[m.start(3) : e] for v in views for e in ends[1:] if e > ends[0]]
        bodies = sorted({" ".join(b.replace("\\\n", " ").split()) for b in spans})
        out.add((m.group(2), m.group(1), "\0".join(bodies)))
    return out


def define_changes(
    old: str, new: str, header: Callable[[str], str | None] | None = None, depth: int = 0
) -> set[str]:
    """The macro names whose ```define`` / ```undef`` lines differ between two texts, with
    those of a header an ```include`` the change adds or drops (``header``: its text, None
    where no file of the repository has that name); "*" where a ```undefineall`` /
    ```resetall`` count differs or such a header is unknown."""

    names = {n for n, _, _ in _define_bodies(old) ^ _define_bodies(new)}
    if len(_UNDEFINEALL.findall(old)) != len(_UNDEFINEALL.findall(new)):
        names |= {"*"}
    incs = [{a or b for a, b in _INCLUDE.findall(t)} for t in (old, new)]
    for inc in incs[0] ^ incs[1]:
        text = header(inc) if header is not None and depth < 4 else None
        names |= {"*"} if text is None else define_changes("", text, header, depth + 1)
    return names


def foreign_findings(
    changes: Mapping[str, str],
    judged: Iterable[str],
    texts: Callable[[str], tuple[str, str]],
    units: Iterable[str],
    macros: Mapping[str, str],
    header: Callable[[str], str | None] | None = None,
) -> list[tuple[str, str]]:
    """``(file, finding)`` for each changed file (``changes``: path -> git status) the gate
    does not judge (``judged``: the files the configured build reads, with what they
    include) that defines one of the design's ``units``, changes a define the design reads
    (``macros``: name -> who reads it) or holds a hardware language rtlopt cannot judge.
    ``texts(rel)``: its base and new text ("" where absent); ``header``: the text of the
    headers an include name can mean (None: none)."""
    seen = set(judged)
    wanted = set(units)
    out: list[tuple[str, str]] = []
    for rel in sorted(changes):
        if rel in seen or DOCUMENTATION.search(rel):
            continue
        old, new = texts(rel)  # "" where unreadable: judged by its name then
        for text, when in ((new, "the change"), (old, "the base")):
            found = [(ln, k, n) for ln, k, n in unit_definitions(text) if n in wanted]
            if found and not rel.endswith(_VERILOG):
                ln, kind, name = found[0]
                out.append(
                    (
                        rel,
                        f"{rel} at line {ln} ({when}) holds a second definition of {kind} "
                        f"{name}, which the configured build reads elsewhere: a build that "
                        f"searches {Path(rel).parent.as_posix() or '.'}/ may read it in place "
                        "of the judged one, and the gate does not judge it; remove it, list "
                        "it in the configured build, or review it in a commit of its own",
                    )
                )
                break
        names = define_changes(old, new, header)
        read = sorted(names & set(macros))
        what = f"the define of {read[0]} ({macros[read[0]]})" if read else ""
        if not read and "*" in names and macros:
            what = (
                "its `resetall / `undefineall or an include of a header the gate cannot find, "
                f"and the design reads macros ({', '.join(sorted(macros)[:3])})"
            )
        if what:
            out.append(
                (
                    rel,
                    f"{rel} changes {what}, but the "
                    "configured build does not read this file: a build that compiles it "
                    "before the design reads the design otherwise than the gate judged it; "
                    "put the define in rtlopt.toml ([project] defines) or list the file in "
                    "the configured build, or review it in a commit of its own",
                )
            )
        kind = hdl_kind(rel, new) or hdl_kind(rel, old)
        if kind and not any(r == rel for r, _ in out):
            out.append(
                (
                    rel,
                    f"{rel} changed and holds {kind}, which rtlopt does not judge (not "
                    "judged): it may be part of the design or its testbench; review it in a "
                    "commit of its own",
                )
            )
    return out


def foreign_rows(
    graph: Any,
    changes: Mapping[str, str],
    trees: Iterable[tuple[Path, Any]],
    read_base: Callable[[str], str | None],
    renames: Mapping[str, str],
) -> list[Any]:
    """The gate's rows of :func:`foreign_findings`: ``trees`` the base's and the change's
    tree each with its project rules, the configured build read in both."""
    from rtlopt.check._check import ModuleCheck
    from rtlopt.check._config_words import design_nodes, design_words
    from rtlopt.check._screen_files import screened_text

    trees = list(trees)
    built: set[str] = set()
    for tree, project in trees:
        built |= configured_files(tree, project)
    nodes = design_nodes(graph, built)
    units = {u for n in nodes.values() for u in (*n.modules, *n.packages)}
    new_tree = trees[-1][0]

    def texts(rel: str) -> tuple[str, str]:
        p = new_tree / rel
        new = (screened_text(p) or "") if changes[rel] != "D" and p.is_file() else ""
        return read_base(renames.get(rel, rel)) or "", new

    from rtlopt.check._screen_files import Resolver

    resolve = Resolver(new_tree)

    def header(name: str) -> str | None:
        found = resolve(name.lstrip("`"))
        return "\n".join(found.values()) if found and not name.startswith("`") else None

    macros = design_words(graph, built)
    found = foreign_findings(changes, built | set(nodes), texts, units, macros, header)
    return [ModuleCheck(rel, "(file)", "changed", findings=[f]) for rel, f in found]


def merged_rows(rows: list[Any], more: Iterable[Any], flagged: Iterable[str]) -> list[Any]:
    """``rows`` with the findings of ``more`` (rows of files): one row a file (a finding
    joins the file's row), none for a ``flagged`` file (a finding of its own already)."""
    by_file = {m.file: m for m in rows}
    skip = set(flagged)
    out = list(rows)
    for m in more:
        if m.file in by_file:
            by_file[m.file].findings += [f for f in m.findings if f not in by_file[m.file].findings]
        elif m.file not in skip:
            by_file[m.file] = m
            out.append(m)
    return out
