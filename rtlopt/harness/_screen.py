"""Screening of untrusted candidate text before any tool sees it."""

from __future__ import annotations

import re
from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.harness._text import blank_comments, line_of

REF_SUFFIX = "__rtlopt_ref"
DEFAULT_TB_TOP = "rtlopt_tb"

#: System functions a synthesizable candidate may call: pure, no side effects, no simulator state.
ALLOWED_SYSTEM_FUNCTIONS = frozenset({
    "$clog2", "$signed", "$unsigned", "$bits", "$countones", "$onehot", "$onehot0",
    "$isunknown", "$size", "$left", "$right", "$high", "$low", "$increment", "$dimensions",
    "$unpacked_dimensions", "$countbits", "$ln", "$log10", "$exp", "$sqrt", "$pow", "$floor",
    "$ceil", "$sin", "$cos", "$tan", "$asin", "$acos", "$atan", "$atan2", "$hypot", "$sinh",
    "$cosh", "$tanh", "$asinh", "$acosh", "$atanh", "$rtoi", "$itor", "$realtobits",
    "$bitstoreal", "$shortrealtobits", "$bitstoshortreal",
})

#: Compiler directives a candidate may use; every other directive (`include, `define, ...)
#: is rejected. Macro *uses* are allowed only for macros the repository defines.
ALLOWED_DIRECTIVES = frozenset({"timescale", "default_nettype", "resetall", "celldefine",
                                "endcelldefine"})
_DIRECTIVES = frozenset({
    "include", "define", "undef", "undefineall", "ifdef", "ifndef", "elsif", "else", "endif",
    "line", "pragma", "begin_keywords", "end_keywords", "uselib", "unconnected_drive",
    "nounconnected_drive", "__FILE__", "__LINE__", "protect", "endprotect", "protected",
    "endprotected", "delay_mode_zero", "delay_mode_unit", "delay_mode_path",
    "delay_mode_distributed", "default_decay_time", "default_trireg_strength",
    "accelerate", "noaccelerate", "expand_vectornets", "noexpand_vectornets",
    "suppress_faults", "nosuppress_faults", "enable_portfaults", "disable_portfaults",
    "remove_gatenames", "noremove_gatenames", "remove_netnames", "noremove_netnames",
}) | ALLOWED_DIRECTIVES

#: Keywords that have no place in a synthesizable rewrite and could reach the simulator.
_FORBIDDEN_KEYWORDS: dict[str, str] = {
    "initial": "initial blocks are not allowed (they run once in simulation only)",
    "final": "final blocks are not allowed",
    "force": "force is not allowed",
    "release": "release is not allowed",
    "bind": "bind is not allowed",
    "program": "program blocks are not allowed",
    "class": "classes are not allowed",
    "checker": "checkers are not allowed",
    "config": "configurations are not allowed",
    "library": "library declarations are not allowed",
    "wait": "wait statements are not allowed",
    "fork": "fork/join is not allowed",
    "deassign": "procedural assign/deassign is not allowed",
}

_DIRECTIVE_RE = re.compile(r"`\s*([A-Za-z_][A-Za-z0-9_]*)")
_SYSTASK_RE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_$]*")
_WORD_RE = re.compile(r"(?<![\w$`.\\'])([A-Za-z_][A-Za-z0-9_]*)\b")
_DPI_RE = re.compile(r"\b(import|export)\s*\"\s*DPI", re.I)
_MODULE_DECL_RE = re.compile(r"\b(?:module|macromodule|primitive|interface|package)\s+"
                             r"(?:automatic\s+|static\s+)?([A-Za-z_\\][^\s#(;]*)")
# a dotted name: ident . ident, not a port connection ``.name(`` and not a real number
_HIER_RE = re.compile(r"(?<![\w$.'\\])([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[[^\]]*\]\s*)*\.\s*"
                      r"([A-Za-z_][A-Za-z0-9_$]*)")
_DELAY_RE = re.compile(r"#\s*#|#\s*(?=[0-9A-Za-z_`.])")
_DEFINE_RE = re.compile(r"`define\s+([A-Za-z_][A-Za-z0-9_]*)")


def _repo_macros(design: Design) -> set[str]:
    """Macro names the repository defines (command line, defines, `define in its sources)."""
    names = {d.split("=", 1)[0] for d in design.defines}
    files: list[Path] = list(design.closure) + list(design.sources.files)
    for inc in design.include_dirs:
        for pattern in ("*.vh", "*.svh", "*.v", "*.sv", "*.h", "*.inc"):
            files.extend(sorted(inc.glob(pattern)))
    for f in dict.fromkeys(files):
        try:
            names.update(_DEFINE_RE.findall(f.read_text(errors="replace")))
        except OSError:
            continue
    return names


def _reference_uses_initial(design: Design) -> bool:
    """The reference itself initializes memories or registers with ``initial`` blocks."""
    mods = [design.target, *(design.modules[n] for n in design.submodules if n in design.modules)]
    for m in mods:
        try:
            if re.search(r"\binitial\b", blank_comments(m.text())):
                return True
        except OSError:
            continue
    return False


def screen_candidate(text: str, design: Design, *, tb_top: str = DEFAULT_TB_TOP,
                     max_bytes: int | None = None) -> list[str]:
    """Check untrusted candidate text before any tool reads it.

    Rejects: compiler directives other than `timescale-like ones (`include, `define, ...),
    macros the repository does not define, system tasks and functions other than pure ones
    such as $clog2 (so no $display, $finish, $fopen, $random, ...), ``initial`` (unless the
    reference itself uses initial blocks, e.g. for ROM contents; they still cannot call system
    tasks or wait, and a hanging one times out), ``force``,
    ``bind``, DPI imports, delays, references to the testbench or the renamed reference
    (``rtlopt_tb``, ``$root``, ``*__rtlopt_ref``), hierarchical names, and module definitions
    that would clash with the testbench or the renamed reference. Comments and strings are
    blanked before scanning, so a comment mentioning $finish is fine.

    Args:
        text: The candidate source.
        design: The design the candidate replaces.
        tb_top: Name of the testbench top module.
        max_bytes: Reject larger candidates.

    Returns:
        Violations as ``"line N: message"`` strings; empty when the candidate is clean.
    """
    problems: list[tuple[int, str]] = []
    if max_bytes is not None and len(text.encode(errors="replace")) > max_bytes:
        return [f"line 1: candidate is larger than {max_bytes} bytes"]
    if "\x00" in text:
        problems.append((line_of(text, text.index("\x00")), "NUL character in source"))
    code = blank_comments(text)
    code_with_strings = blank_comments(text, strings=False)

    macros: set[str] | None = None
    for m in _DIRECTIVE_RE.finditer(code):
        name = m.group(1)
        line = line_of(code, m.start())
        if name in ALLOWED_DIRECTIVES:
            continue
        if name in _DIRECTIVES:
            problems.append((line, f"compiler directive `{name} is not allowed"))
            continue
        if macros is None:
            macros = _repo_macros(design)
        if name not in macros:
            problems.append((line, f"macro `{name} is not defined by the repository"))

    for m in _SYSTASK_RE.finditer(code):
        name = m.group(0)
        if name not in ALLOWED_SYSTEM_FUNCTIONS:
            problems.append((line_of(code, m.start()),
                             f"system task/function {name} is not allowed"))

    for m in _DPI_RE.finditer(code_with_strings):
        problems.append((line_of(code, m.start()), "DPI import/export is not allowed"))

    allow_initial = _reference_uses_initial(design)
    for m in _WORD_RE.finditer(code):
        word = m.group(1)
        line = line_of(code, m.start())
        if word == "initial" and allow_initial:
            continue
        if word in _FORBIDDEN_KEYWORDS:
            problems.append((line, _FORBIDDEN_KEYWORDS[word]))
        elif word == tb_top:
            problems.append((line, f"reference to the testbench '{tb_top}' is not allowed"))
        elif word.endswith(REF_SUFFIX):
            problems.append((line, f"reference to the renamed reference '{word}' is not allowed"))

    if "$root" in code:
        problems.append((line_of(code, code.index("$root")), "$root is not allowed"))

    for m in _DELAY_RE.finditer(code):
        rest = code[m.end():m.end() + 1]
        if m.group(0).replace(" ", "") == "#" and rest == "(":
            continue  # parameter override #( ... )
        problems.append((line_of(code, m.start()), "delays (#) are not allowed"))

    for m in _HIER_RE.finditer(code):
        problems.append((line_of(code, m.start()),
                         f"hierarchical reference '{m.group(1)}.{m.group(2)}' is not allowed"))

    reserved = {tb_top}
    for m in _MODULE_DECL_RE.finditer(code):
        name = m.group(1).lstrip("\\")
        if name in reserved or name.endswith(REF_SUFFIX) or name.startswith("rtlopt_"):
            problems.append((line_of(code, m.start()),
                             f"module name '{name}' is reserved for the equivalence harness"))

    seen: set[tuple[int, str]] = set()
    out: list[str] = []
    for line, msg in sorted(problems):
        if (line, msg) not in seen:
            seen.add((line, msg))
            out.append(f"line {line}: {msg}")
    return out
