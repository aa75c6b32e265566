"""Where a build or test file names a parameter of the target in a form no setting reads.

:mod:`._foreign_params` reads the forms it knows (command lines, a runner's dictionaries);
a form it does not know (a helper's return value, a YAML or TOML table, a string built by
concatenation) would leave a configuration the repository uses unchecked, and adding forms
one by one never ends. So the rule fails closed: in every text file of the repository but
the Verilog the frontend reads, documentation (:data:`_DOCUMENTS`) and a board's pin
constraints (:data:`_PINS`), each occurrence of a
watched name (:func:`watched_names`: a non-local parameter of the target, or one of a top
above it, :func:`._param_tops.top_parameters`) as a whole word (in another case
than the parameter's as a quoted key ``"w": 37``, glued to an option ``-gw=37``, or in VHDL),
is either consumed by a recognised setting whose value was read whole as a literal, or
clearly no setting (:func:`_no_setting`: an attribute read ``dut.W.value``, a macro
``+define+W``/``-DW``, an option flag ``-W``, a Verilog file that neither instantiates the
target nor holds a ``defparam``, the target's own copy, a C or C++ harness with no Verilog in
it, a lint waiver's line, a FuseSoC core naming a parameter settable with no value, a comment,
a description string); any other occurrence leaves the change unchecked
(:func:`first_unread`).

A comment is one by the lexer of the language the file's name certainly gives
(:func:`._text_lex.lexed`: Python by :mod:`tokenize`, Verilog and Verilator's ``.vlt``,
Hjson's whole-line comments, YAML, TOML, JSON5, the shell, Make outside recipes, Tcl where a
command starts), never a regular expression on line starts: a ``#`` inside a string, a
docstring, a block scalar, a here-document, a braced Tcl word, a recipe, a line a backslash
continues is none; where the lexer cannot follow the text (an unterminated string, a
construct it does not know) nothing of the file is a comment. A comment a tool reads is none
either (:func:`._text_lex.plain_comment`: no blank after the marker, ``#SBATCH``, ``#!``, a
first word such as ``synopsys`` or ``verilator``). A description string (:func:`_prose`) is
a one-line double-quoted string the lexer found, of three words or more of letters only (a
sentence's punctuation after a word; no digit, ``=``, ``:``, ``-``, ``+``, ``$``, ``[``,
``{``, ``%``), naming a parameter that takes no word (no string default, no ``string`` or
``type`` in its module's text, its module known), where a word follows the name (a setting
puts the value after the name; a piece joined after the string could too) that is neither a
switch (``on``, ``true``, ``yes``, any case) nor a word of the design's Verilog code outside
comments and strings (a parameter, an enum's member, a type: any word, case ignored).
ibex's ``set_flow_bool_var ibex_secure_ibex 0 "Enable SecureIbex configuration"`` is one.
"""

from __future__ import annotations

import re
from pathlib import Path

from rtlopt.evaluate._param_tops import top_parameters
from rtlopt.evaluate._text_lex import Lexed, lexed, plain_comment
from rtlopt.frontend.model import Design

__all__ = ["first_unread", "name_owners", "prose", "watched_names", "word_pattern"]

#: Documentation, pictures and waveforms: no build or test reads a setting from them.
_DOCUMENTS = frozenset(
    {
        ".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".html", ".htm", ".tex", ".pdf",
        ".org", ".svg", ".rtf", ".vcd", ".fst", ".ghw", ".gtkw",
        ".wlf", ".bib", ".css",
    }
)  # fmt: skip
#: Pin and timing constraints of a board (ISE's UCF, iCE40's PCF, Lattice's LPF, Gowin's CST,
#: Microsemi's PDC): no build reads an HDL parameter's value from them (held-out trial 44: a
#: UCF comment "Channel 2 to N signals" read as a setting of sync_reset's N).
_PINS = frozenset({".ucf", ".pcf", ".lpf", ".cst", ".pdc"})
#: C and C++ (a Verilator or DPI harness): no simulator reads a parameter's value there.
_C_SOURCES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx"})
#: Verilog in a file of any name (a header called ``defs.h``): its text may set a value.
_VERILOG_WORDS = re.compile(
    r"^[ \t]*(?:module|macromodule|defparam|parameter|localparam|`include)\b", re.M
)
#: A lint waiver's line (AscentLint ``waive``, Verilator ``lint_off``): it matches messages.
_WAIVER = re.compile(r"[ \t]*(?:waive|lint_off|lint_on|tracing_off|coverage_off)\b")
_VERILOG = frozenset({".v", ".sv", ".vh", ".svh", ".vt", ".inc", ".vinc", ".svi", ".vi"})
#: A macro's definition on a command line: ``+define+A=1+W=2``, ``-DW=2``, ``-D W``.
_MACRO = re.compile(r"(?:\+define\+(?:[^\s+]*\+)*|(?<![\w-])-D\s*)\Z")

#: A name in another case than the parameter's is a setting as a quoted key or item
#: (``"w": 37``, ``("w", 37)``, ``["w"]``) or glued to an option (``-gw=37``,
#: ``-Ptb.w=37``); VHDL's names are any case everywhere.
_FOLDED_KEY = re.compile(r"[ \t]*(?:[:=,\])]|=>)")


def _folded_setting(text: str, start: int, end: int) -> bool:
    """Whether the name at ``start:end`` (in another case) reads as a setting."""
    quote = text[start - 1 : start]
    if quote in ("'", '"') and text[end : end + 1] == quote:
        return _FOLDED_KEY.match(text, end + 1) is not None
    before = text[max(0, start - 200) : start]
    option = re.search(r"(?:-[GgP]|[-+]pvalue\+|-defparam\s+)(?:[\w$]+[./])*\Z", before)
    return option is not None and text[end : end + 1] == "="


_WATCHED: dict[int, tuple[object, dict[str, str], re.Pattern[str] | None]] = {}


def watched_names(design: Design) -> dict[str, str]:
    """Every name whose setting outside Verilog may configure the target, with its owner: the
    target's non-local parameters (owner ``""``), and the non-local parameters of a top
    above it (:func:`._param_tops.top_parameters`), owner that top. Once per design object."""
    return _watch(design)[1]


def name_owners(design: Design) -> dict[str, tuple[str, ...]]:
    """Every watched name with all its owners (:func:`watched_names` keeps the first: a
    name may be a parameter of the target, of a top and of a unit between)."""
    out: dict[str, tuple[str, ...]] = {}
    for n, o in watched_names(design).items():
        out[n] = (o,)
    for top, own in top_parameters(design).items():
        for n in own:
            if top not in out[n]:
                out[n] = (*out[n], top)
    return out


def word_pattern(design: Design) -> re.Pattern[str] | None:
    """The watched names as whole words (None where there is none)."""
    return _watch(design)[2]


def _watch(design: Design) -> tuple[object, dict[str, str], re.Pattern[str] | None]:
    """The design, its watched names and their pattern, once per design object."""
    hit = _WATCHED.get(id(design))
    if hit is not None and hit[0] is design:
        return hit
    t = design.target
    names = {p.name: "" for p in t.parameters if not p.local}
    for top, own in top_parameters(design).items():
        for n in own:
            names.setdefault(n, top)
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    # ``-GW=37``, ``-gW``, ``-DW``: an option letter glued to the name still names it
    # any case: VHDL and a runner that upper-cases its keys (``{"w": 37}``) set ``W``
    rx = re.compile(rf"(?:(?<![\w$])|(?<=-[GgD]))(?:{alt})(?![\w$])", re.I) if names else None
    if len(_WATCHED) > 8:
        _WATCHED.clear()
    _WATCHED[id(design)] = (design, names, rx)
    return _WATCHED[id(design)]


_READ_DOCS: dict[int, tuple[object, set[str]]] = {}
#: Prose a build may read (a Markdown table a ``sed`` turns into options).
_PROSE = frozenset(".md .markdown .rst .adoc .asciidoc .html .htm .tex .org .rtf".split())


def prose(design: Design, path: Path) -> bool:
    """Whether ``path`` is documentation no build reads a setting from: a documentation
    suffix, and a prose one (Markdown, a ``.txt``...) only where no text that is not
    documentation names it or holds a path pattern that may name it
    (:func:`._foreign_x_anytext.named_exempt`: ``sed ... docs/config.md``, ``docs/*.md``)."""
    suffix = path.suffix.lower()
    if suffix not in _DOCUMENTS:
        return False
    if suffix not in _PROSE:
        return True
    from rtlopt.evaluate._foreign_x_anytext import named_exempt
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    hit = _READ_DOCS.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_READ_DOCS) > 8:
            _READ_DOCS.clear()
        texts = [*repository_texts(design), *other_texts(design)[0]]
        hit = _READ_DOCS[id(design)] = (design, named_exempt(texts))
    return "\0" + path.name not in hit[1]


def first_unread(design: Design, rel: str, path: Path, text: str, consumed: set[int]) -> str:
    """The reason the change is unchecked for the first occurrence of a watched name in
    ``text`` (``rel``: its name in the repository) that neither a recognised setting
    consumed (``consumed``: the offsets of the names the settings read whole) nor is
    clearly no setting, or ""."""
    rx = word_pattern(design)
    if rx is None or path.suffix.lower() in _PINS or prose(design, path):
        return ""
    if path.suffix.lower() in _C_SOURCES and not _VERILOG_WORDS.search(text):
        return ""  # a harness in C or C++: a parameter is set when the model is built
    verilog = path.suffix.lower() in _VERILOG
    vhdl = path.suffix.lower() in (".vhd", ".vhdl", ".vho")
    names = watched_names(design)
    t = design.target.name
    if verilog and not re.search(rf"(?<![\w$]){re.escape(t)}(?![\w$])|\bdefparam\b", text):
        return ""  # Verilog that neither instantiates the target nor sets a path's value
    own = _own_spans(text, t) if verilog else []
    core = path.suffix == ".core"
    lex: Lexed | None | bool = False
    for m in rx.finditer(text):
        at = m.start()
        if at in consumed or _no_setting(text, at, m.end()):
            continue
        if m.group(0) not in names and not vhdl and not _folded_setting(text, at, m.end()):
            continue  # another case, no key or option (a path's ``fpu/``, ``lambda n:``)
        if core and _core_declaration(text, at, m.end()):
            continue
        if _WAIVER.match(text, _statement_start(text, at)):
            continue
        if any(a <= at < b for a, b in own):
            continue
        if verilog and _another_modules_list(design, text, at):
            continue
        lex = lexed(path, text) if lex is False else lex
        if isinstance(lex, tuple) and _commented_or_prose(design, text, lex, at, m.end()):
            continue
        line = text.count("\n", 0, at) + 1
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        shown = " ".join(text[start : end if end >= 0 else len(text)].split())[:80]
        watched = watched_names(design)
        name = next((n for n in watched if n.lower() == m.group(0).lower()), m.group(0))
        owner = watched.get(name) or t
        return (
            f"{rel}:{line} names parameter {name} of {owner} ({shown}) in a form rtlopt does "
            f"not read as a setting, so a configuration of {t} it may set is not checked: "
            f"state the value as a literal in a form rtlopt reads (-P{owner}.{name}=37, "
            f'-G{name}=37, parameters={{"{name}": 37}}), or take the file out of the '
            f"repository if no build or test uses it"
        )
    return ""


_LIST_HEAD = re.compile(r"([A-Za-z_][\w$]*)\s*#\s*\(")


def _another_modules_list(design: Design, text: str, at: int) -> bool:
    """Whether ``at`` stands in the parameter list (``m #(.N(4)) u (...)``) of an instance
    of a module the design knows that holds no instance of the target at any depth (held-out
    trial 51: ``sync_reset #(.N(4))`` beside the target ``sync_signal``'s own ``N``)."""
    head = None
    for m in _LIST_HEAD.finditer(text, max(0, at - 4000), at):
        depth = text.count("(", m.end(), at) - text.count(")", m.end(), at)
        if depth >= 0:
            head = m
    if head is None or head.group(1) in ("module", "macromodule", "interface", "program"):
        return False
    name, target = head.group(1), design.target.name
    seen, stack = set(), [name]
    while stack:
        n = stack.pop()
        if n == target or n not in design.modules:
            return False  # the target, or a module whose instances are not known
        if n not in seen:
            seen.add(n)
            stack.extend(design.modules[n].instances)
    return True


def _no_setting(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` is clearly no setting: an attribute read
    (``dut.W.value``, ``int(cfg.W)``; not ``x.W = 1``, ``.W(37)``), a macro's name
    (``+define+W=1``, ``-DW``), an option flag (``-W``, ``--W``, no ``=`` after it)."""
    after = text[end : end + 3].lstrip(" \t")
    assigns = after[:1] in ("=", ":", "(") and after[:2] != "=="
    before = text[max(0, start - 200) : start]
    if before.endswith(".") and not before.endswith("..") and not assigns:
        return True
    if _MACRO.search(before):
        return True
    flag = re.search(r"(?:^|[\s\"'\[(,])--?\Z", before) is not None
    return flag and not assigns


def _core_declaration(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` of a FuseSoC core file names a parameter and sets
    none: a target's list (``parameters: [W]``, ``- "is_toplevel? (W)"``) or a declaration
    ``W:`` whose block states no ``default`` (the value then comes from the user's command
    line, outside the repository; a ``default`` not read is no declaration)."""
    rest = text[end : end + 200].lstrip(" \t")
    if rest.startswith("="):
        return False
    if not rest.startswith(":"):
        return True
    head = text.rfind("\n", 0, start) + 1
    indent = len(text[head:start]) - len(text[head:start].lstrip(" \t-"))
    stop = text.find("\n", end)
    block = [text[end : stop if stop >= 0 else len(text)]]
    for line in text[stop + 1 : stop + 20000].split("\n") if stop >= 0 else []:
        if line.strip() and len(line) - len(line.lstrip(" \t")) <= indent:
            break
        block.append(line)
    return not re.search(r"\bdefault\b", "\n".join(block))


def _statement_start(text: str, at: int) -> int:
    """Where the line holding ``at`` starts, over the lines before it that a backslash
    continues (a waiver's ``-comment`` on its own line)."""
    start = text.rfind("\n", 0, at) + 1
    while start > 0 and text[max(0, start - 400) : start - 1].rstrip(" \t\r").endswith("\\"):
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def _own_spans(text: str, module: str) -> list[tuple[int, int]]:
    """The spans of ``module ... endmodule`` of the target in a Verilog file (a copy of the
    target, a candidate: its own declarations set nothing)."""
    out = []
    for m in re.finditer(rf"\b(?:module|macromodule)\s+{re.escape(module)}(?![\w$])", text):
        e = re.compile(r"\bendmodule\b").search(text, m.end())
        out.append((m.start(), e.end() if e else len(text)))
    return out


#: A word of a description: letters, then a sentence's punctuation.
_PROSE_WORD = re.compile(r"[A-Za-z]+[.,;:!?)]*")
#: What no description holds (a digit, an assignment, an option, a variable, a list).
_NOT_PROSE = re.compile(r"[\d=:+$\[{%-]")
_SWITCHES = frozenset({"true", "false", "on", "off", "yes", "no"})
_WORDS: dict[int, tuple[object, frozenset[str]]] = {}


def _commented_or_prose(design: Design, text: str, lex: Lexed, start: int, end: int) -> bool:
    """Whether the name at ``start:end`` is inside a prose comment (:func:`plain_comment`)
    or a description string (:func:`_prose`) by the file's lexer."""
    comments, strings = lex
    if any(a <= start and end <= b and plain_comment(text, a) for a, b in comments):
        return True
    span = next(((a, b) for a, b in strings if a < start and end < b), None)
    return span is not None and _prose(design, text, span, start, end)


def _prose(design: Design, text: str, span: tuple[int, int], start: int, end: int) -> bool:
    """Whether the one-line double-quoted string at ``span`` is a description naming the
    parameter at ``start:end``, no setting: three words or more, each of letters (a
    sentence's punctuation after it), no digit and none of ``=:-+$[{%``; the parameter
    takes no string (:func:`_string_capable`); a word follows the name in the string (a
    piece joined to the string cannot put a value right after the name), and it (settings
    put values after names: ``N=V``, ``N V``, ``.N(V)``) is no switch (``on``, ``true``)
    and no word of the design's Verilog code (a parameter, an enum's member: a value)."""
    body = text[span[0] + 1 : span[1] - 1]
    words = body.split()
    if _NOT_PROSE.search(body) or len(words) < 3:
        return False
    if not all(_PROSE_WORD.fullmatch(w) for w in words):
        return False
    if _string_capable(design, text[start:end]):
        return False
    after = text[end : span[1] - 1].split()
    if after and not after[0][0].isalpha():
        after = after[1:]  # the name's own punctuation ("W. Next"): the word after it
    if not after:
        return False  # a value may follow from a piece joined after it ("... W" "=37")
    word = after[0].rstrip(".,;:!?)").lower()
    return word not in _SWITCHES and word not in _design_words(design)


def _string_capable(design: Design, name: str) -> bool:
    """Whether the parameter may take a word as its value: a string default, a module
    whose text names the type ``string`` or a type parameter, or an owner not known."""
    owner = watched_names(design).get(name)
    module = design.modules.get(owner) if owner else design.target
    param = next((p for p in module.parameters if p.name == name), None) if module else None
    if module is None or param is None or '"' in param.value:
        return True
    try:
        return re.search(r"\b(?:string|type)\b", module.text()) is not None
    except OSError:
        return True


def _design_words(design: Design) -> frozenset[str]:
    """Every word (lower case) of the design's Verilog code outside comments and strings:
    the texts the frontend reads and every Verilog file of the repository (a testbench's
    package may declare a value). A text the lexer cannot follow gives all its words."""
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    hit = _WORDS.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    words: set[str] = set()
    own = {p for p, _ in repository_texts(design)}
    for path, text in [*repository_texts(design), *other_texts(design)[0]]:
        if path not in own and path.suffix.lower() not in _VERILOG:
            continue
        lex = lexed(path.with_suffix(".v"), text)
        pieces, last = [], 0
        for a, b in sorted(lex[0] + lex[1]) if lex is not None else []:
            pieces.append(text[last:a])
            last = b
        pieces.append(text[last:])
        words.update(w.lower() for w in re.findall(r"[A-Za-z_][\w$]*", " ".join(pieces)))
    if len(_WORDS) > 8:
        _WORDS.clear()
    _WORDS[id(design)] = (design, frozenset(words))
    return _WORDS[id(design)][1]
