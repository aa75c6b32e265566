"""Where a ``defparam`` lands: the module its path names, and whether that reaches the target.

A ``defparam`` in a branch another build reads (```ifdef ALTERA_RESERVED_QIS``) sets a
parameter in a configuration rtlopt does not prove. It changes the target only if

- its path passes through an instance of the target (``u.K``, ``u.sub.W``);
- it lands on a module that is the target or holds an instance of it, in any reading
  (``mu.P`` where ``mid`` passes ``P`` on by ``m #(.K(P)) u``);
- or it stands in the target or in a module below it.

:func:`defparam_reach` reads every assignment of every ``defparam`` of a file in every reading
of its holder's conditionals (the keyword may stand outside the branch that holds the
assignment), and walks each path from the module that holds it through the instances the
repository's modules declare in any reading (escaped names equal plain ones; every instance of
a statement; arrays of instances). A first name that is a module's (``top.mu.P``) or ``$root``
starts at that module. A path it cannot walk reaches the target (fail closed): a name no
instance of the scope declares (a generate scope ``g[0].u``, an upward reference), a name or a
module a macro writes, a scope read through an ```include``, anything it does not parse.

A module no file of the repository defines (a vendor primitive such as ``altlvds_tx``; any
Verilog file under the root counts, listed in the sources or not) is taken to hold no instance
of the target: a tool's library is written without the repository's module names, so it
instantiates the target only if it is written for this repository, and then it is part of the
repository. The rules read no text outside the repository anyway (a file outside could name
the target directly, ``defparam top.u.K``). A path that goes on below such a module is not
walked, and one that lands on it reaches the target when the target's hierarchy names it or
has an ``interface`` port (an interface's parameter is read through the port), when a module
definition of the repository cannot be read (a macro writes its header), or when a ``bind``
names the target or a module that holds it (it may put an instance anywhere): fail closed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.evaluate._repo_texts import repository_texts
from rtlopt.frontend.model import Design

__all__ = ["defparam_reach"]

#: At most this many tested macros are enumerated per module (2**n readings).
_MAX_MACROS = 10
_WORD = re.compile(r"(?<![\w$`\\])[A-Za-z_][\w$]*|\\\S+")
_MACRO_USE = re.compile(r"`([A-Za-z_][\w$]*)")
_DEFINE = re.compile(
    r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)(\([^)\n]*\))?((?:[^\n]*\\\n)*[^\n]*)", re.M
)
_PLAIN = re.compile(r"[A-Za-z_][\w$]*")
#: Words before a name and a parenthesis that declare no instance.
_KEYWORDS = frozenset(
    "module macromodule interface program primitive function task class package checker "
    "property sequence covergroup config automatic static virtual extern pure import export "
    "return new void assert assume cover restrict".split()
)
#: A ``bind`` statement (it puts an instance into another module).
_BIND = re.compile(r"(?<![\w$`\\])bind\s[^;]*;")
#: Marks an instance whose module a macro writes in an instance table.
_BUILT = "`"


class _Unread(Exception):
    """A path or a scope that cannot be read here (the reason)."""


def _norm(tok: str) -> str:
    """A name without its escape when the escape only spells a plain identifier (``\\u``)."""
    rest = tok[1:] if tok.startswith("\\") else tok
    return rest if _PLAIN.fullmatch(rest) else tok


@dataclass
class _Repo:
    """Every module definition of the repository's texts, read on demand."""

    design: Design
    spans: dict[str, list[str]] = field(default_factory=dict)  # name -> each definition's text
    macros: dict[str, list[tuple[set[str], str]]] = field(default_factory=dict)  # formals, body
    tables: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    writes: dict[str, bool] = field(default_factory=dict)  # macro -> may write names
    words: dict[str, set[str]] = field(default_factory=dict)  # module -> its names
    holders: set[str] = field(default_factory=set)  # may hold an instance of the target
    below: set[str] = field(default_factory=set)  # may stand below the target
    seen: set[str] = field(default_factory=set)  # every name of the target's hierarchy
    bind: str = ""  # a bind statement that names the target or a module that holds it
    unread: str = ""  # a module definition the spans miss (a macro writes its header, ...)
    tree: list[str] = field(default_factory=list)  # every Verilog text under the root

    @classmethod
    def read(cls, design: Design) -> _Repo:
        from rtlopt.verilog import blank_comments, module_spans

        repo = cls(design)
        for _path, text in repository_texts(design):
            code = blank_comments(text)
            for span in module_spans(code):
                repo.spans.setdefault(_norm(span.name), []).append(code[span.start : span.end])
            for d in _DEFINE.finditer(code):
                formals = {f.split("=")[0].strip() for f in (d.group(2) or "()")[1:-1].split(",")}
                repo.macros.setdefault(d.group(1), []).append((formals - {""}, d.group(3)))
        for k, v in design.defines.items():
            repo.macros.setdefault(k, []).append((set(), str(v)))
        words = repo.words = {n: repo._words(n) for n in repo.spans}
        target = design.target.name
        repo.holders = _closure({target}, lambda held: {n for n, w in words.items() if w & held})
        repo.below = _closure(
            {target},
            lambda above: {x for n in above for x in words.get(n, set()) if x in repo.spans},
        )
        repo.seen = {w for n in repo.below for w in words.get(n, set())}
        for path, text in repository_texts(design):
            code = blank_comments(text)
            ends = len(re.findall(r"(?<![\w$`\\])endmodule\b", code))
            if ends > len(module_spans(code)) or re.search(
                r"^[ \t]*`define\b(?:[^\n]*\\\n)*[^\n]*\b(?:macro)?module\b", code, re.M
            ):
                repo.unread = repo.unread or f"{path.name} defines a module this rule cannot read"
            if "bind" in text:
                for b in _BIND.finditer(blank_comments(text)):
                    if {_norm(w) for w in _WORD.findall(b.group(0))} & repo.holders:
                        repo.bind = " ".join(b.group(0).split())[:80]
        return repo

    def elsewhere(self, name: str) -> str:
        """Why module ``name``, which no scanned text defines, may still be a repository's
        module ("": it is none; a vendor primitive)."""
        if self.unread:
            return self.unread
        if name in self.design.modules:
            return f"the repository defines {name}"
        if not self.tree:
            from rtlopt.frontend._depgraph import VERILOG_SUFFIXES
            from rtlopt.inputs import STATE_NAMES

            # a dot folder's files are the repository's (a build may name ``-y .lib``)
            root = Path(self.design.root)
            for f in sorted(root.rglob("*")):
                rel = f.relative_to(root).parts
                if f.suffix in VERILOG_SUFFIXES and not set(rel) & STATE_NAMES:
                    try:
                        if f.is_file() and f.stat().st_size <= 4_000_000:
                            self.tree.append(f.read_text(errors="replace"))
                    except OSError:
                        continue
            self.tree.append("")  # read once
        head = re.compile(rf"(?<![\w$`\\])(?:macro)?module\s+\\?{re.escape(name)}(?![\w$])")
        if any(head.search(t) for t in self.tree):
            return f"a file of the repository the sources do not list defines {name}"
        return ""

    def _words(self, module: str) -> set[str]:
        """Every name of the module's definitions in any reading and every name its macros
        write; every module's name when a macro or an ```include`` may write any."""
        from rtlopt.verilog import DIRECTIVES

        out: set[str] = set()
        for text in self.spans[module]:
            out |= {_norm(w) for w in _WORD.findall(text)}
            for use in _MACRO_USE.finditer(text):
                word = use.group(1)
                if word == "include" or (word not in DIRECTIVES and self._writes_names(word)):
                    return out | set(self.spans)
                out |= {_norm(w) for _f, b in self.macros.get(word, []) for w in _WORD.findall(b)}
        return out

    def _writes_names(self, name: str) -> bool:
        """Whether macro ``name`` may write an instance's declaration or a statement: defined
        nowhere here, or a body that uses macros or pastes, holds two names in a row, a
        ``#``, ``;``, ``,``, unbalanced brackets, a ``defparam``, or a formal argument."""
        if name not in self.writes:
            self.writes[name] = self._writes(name)
        return self.writes[name]

    def _writes(self, name: str) -> bool:
        from rtlopt.evaluate._configs import _TOKEN

        bodies = self.macros.get(name)
        if not bodies:
            return True
        for formals, body in bodies:
            toks = _TOKEN.findall(body)
            names = [bool(_PLAIN.fullmatch(x) or x.startswith("\\")) for x in toks]
            if (
                any(x in ("`", "#", ";", ",", "defparam") for x in toks)
                or any(a and b for a, b in zip(names, names[1:], strict=False))
                or any(x in formals for x in toks)
                or sum({"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(x, 0) for x in toks)
                != 0
            ):
                return True
        return False

    def table(self, module: str) -> dict[str, set[str]]:
        """Instance name -> the modules it is an instance of, over every definition and every
        reading of ``module``.

        Raises:
            _Unread: a reading that cannot be read for its instances.
        """
        if module not in self.tables:
            out: dict[str, set[str]] = {}
            for text in self.spans[module]:
                for tokens in _readings(text, f"module {module}"):
                    self._scan(tokens, module, out)
            self.tables[module] = out
        return self.tables[module]

    def _scan(self, t: list[str], module: str, out: dict[str, set[str]]) -> None:
        """Add the instances of one reading of ``module`` (tokens) to ``out``: a module name,
        its parameters, then each instance's name, array ranges and ports."""
        from rtlopt.verilog import DIRECTIVES

        for tok in t:
            if tok.startswith("`include"):
                raise _Unread(f"module {module} reads an `include")
        for i, tok in enumerate(t):
            if tok == "`" and i + 1 < len(t):
                word = t[i + 1]
                if word not in DIRECTIVES and self._writes_names(word):
                    raise _Unread(f"module {module} uses `{word}, a macro that may write names")
            if tok in _KEYWORDS or not (_PLAIN.fullmatch(tok) or tok.startswith("\\")):
                continue
            j = i + 1
            if j < len(t) and t[j] == "#":
                j = _skip(t, j + 1) if j + 1 < len(t) and t[j + 1] == "(" else j + 2
            while j < len(t):
                if t[j] == "`":
                    raise _Unread(f"module {module} has an instance whose name a macro writes")
                if not (_PLAIN.fullmatch(t[j]) or t[j].startswith("\\")):
                    break
                k = j + 1
                while k < len(t) and t[k] == "[":
                    k = _skip(t, k)
                if k >= len(t) or t[k] != "(":
                    break
                built = i > 0 and t[i - 1] == "`"
                out.setdefault(_norm(t[j]), set()).add(_BUILT if built else _norm(tok))
                k = _skip(t, k)
                if k >= len(t) or t[k] != ",":
                    break
                j = k + 1


def _closure(start: set[str], step: Callable[[set[str]], set[str]]) -> set[str]:
    """``start`` and every name ``step`` adds, until it adds none."""
    out = set(start)
    while True:
        more = step(out) - out
        if not more:
            return out
        out |= more


def _skip(t: list[str], at: int) -> int:
    """The index after the bracket that closes the one at ``t[at]``."""
    depth = 0
    for i in range(at, len(t)):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t[i], 0)
        if depth == 0:
            return i + 1
    return len(t)


def _readings(text: str, what: str) -> Iterator[list[str]]:
    """The tokens of ``text`` in every assignment of the macros its conditionals test."""
    from rtlopt.evaluate._configs import active_tokens, tested_macros

    tested = sorted(tested_macros(text))
    if len(tested) > _MAX_MACROS:
        raise _Unread(f"{what} tests more than {_MAX_MACROS} macros")
    for bits in itertools.product((False, True), repeat=len(tested)):
        try:
            yield active_tokens(text, {m for m, b in zip(tested, bits, strict=True) if b})
        except ValueError as e:
            raise _Unread(f"the conditionals of {what} do not balance") from e


def _assignments(tokens: list[str], holder: str) -> Iterator[list[str]]:
    """The left sides of every ``defparam`` assignment of a reading (tokens).

    Raises:
        _Unread: a statement that does not parse.
    """
    for i, tok in enumerate(tokens):
        if tok.startswith("`define") and re.search(r"\bdefparam\b", tok):
            raise _Unread(f"a macro of {holder} writes a defparam")
        if tok != "defparam":
            continue
        j, depth = i + 1, 0
        lhs: list[str] | None = []
        while True:
            if j >= len(tokens) or (lhs is not None and tokens[j].startswith("`")):
                raise _Unread(f"a defparam statement of {holder} does not parse")
            s = tokens[j]
            if s.startswith("`define") or s.startswith("`include"):
                raise _Unread(f"a defparam statement of {holder} does not parse")
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(s, 0)
            if depth == 0 and s in (",", ";"):
                if lhs is not None:
                    raise _Unread(f"a defparam statement of {holder} does not parse")
                if s == ";":
                    break
                lhs = []
            elif depth == 0 and s == "=" and lhs is not None:
                yield lhs
                lhs = None  # the value
            elif lhs is not None:
                lhs.append(s)
            j += 1


def _path(lhs: list[str], holder: str) -> list[str]:
    """The names of a ``defparam``'s path, the parameter's last, selects dropped
    (``$root`` first when written).

    Raises:
        _Unread: anything but names, selects and dots.
    """
    shown = " ".join(lhs)
    out: list[str] = []
    i = 0
    while i < len(lhs):
        tok = lhs[i]
        if tok == "$" and i + 1 < len(lhs) and lhs[i + 1] == "root" and not out:
            out.append("$root")
            i += 2
        elif _PLAIN.fullmatch(tok) or tok.startswith("\\"):
            out.append(_norm(tok))
            i += 1
        else:
            raise _Unread(f"{shown} in {holder} does not parse")
        while i < len(lhs) and lhs[i] == "[":
            i = _skip(lhs, i)
        if i < len(lhs):
            if lhs[i] != "." or i + 1 == len(lhs):
                raise _Unread(f"{shown} in {holder} does not parse")
            i += 1
    return out


def _walk(repo: _Repo, holder: str, path: list[str]) -> tuple[set[str], set[str]]:
    """(every module the path passes through, the modules it lands on).

    Raises:
        _Unread: a name no instance of its scope declares, a module not defined here with
            names after it.
    """
    scopes = path[:-1]
    if not scopes:
        return set(), {holder}
    shown = ".".join(path)
    states: set[tuple[str, int]] = set()
    if scopes[0] == "$root":
        if len(scopes) < 2 or scopes[1] not in repo.spans:
            raise _Unread(f"{shown} starts at no module of the repository")
        states.add((scopes[1], 2))
    else:
        states |= {(t, 1) for t in repo.table(holder).get(scopes[0], set())}
        if scopes[0] in repo.spans:
            states.add((scopes[0], 1))  # a module's name: an instance of it upward, or a top
            # or an upward name: an instance of that name in a module above
            for n, w in repo.words.items():
                if scopes[0] in w and n != holder:
                    states |= {(t, 1) for t in repo.table(n).get(scopes[0], set())}
        if not states:
            raise _Unread(
                f"{scopes[0]} in {shown} is no instance {holder} declares "
                "(a generate scope or an upward name)"
            )
    passed: set[str] = set()
    landed: set[str] = set()
    while states:
        module, i = states.pop()
        if module == _BUILT:
            raise _Unread(f"{shown} passes through an instance whose module a macro writes")
        passed.add(module)
        if i == len(scopes):
            landed.add(module)
            continue
        if module not in repo.spans:
            raise _Unread(f"{shown} goes on below {module}, which the repository does not define")
        types = repo.table(module).get(scopes[i])
        if not types:
            raise _Unread(f"{scopes[i]} in {shown} is no instance {module} declares")
        states |= {(t, i + 1) for t in types}
    return passed, landed


def defparam_reach(design: Design, code: str) -> tuple[int, str] | None:
    """Where (line) and how a ``defparam`` of ``code`` (a file's text, comments blanked) may
    set a parameter of the target or of a module below it (``"(mu.P) on mid, which ..."``),
    or None (see the module)."""
    from rtlopt.verilog import line_of, module_spans

    name = design.target.name
    spans = module_spans(code)
    repo: _Repo | None = None
    read: set[int] = set()
    for kw in re.finditer(r"(?<![\w$`\\])defparam\b", code):
        inside = [s for s in spans if s.start <= kw.start() < s.end]
        line = line_of(code, kw.start())
        if not inside:
            return line, "outside every module"
        span = max(inside, key=lambda s: s.start)
        if span.start in read:
            continue
        read.add(span.start)
        holder = _norm(span.name)
        repo = repo or _Repo.read(design)
        if holder in repo.below:
            where = "itself" if holder == name else f"{holder}, which may stand below it"
            return line, f"in {name} {where}" if holder == name else f"in {where}"
        try:
            for tokens in _readings(code[span.start : span.end], f"module {holder}"):
                for lhs in _assignments(tokens, holder):
                    path = _path(lhs, holder)
                    passed, landed = _walk(repo, holder, path)
                    shown = ".".join(path)
                    if name in passed:
                        return line, f"({shown}) whose path passes through an instance of {name}"
                    if landed & repo.holders:
                        on = " or ".join(sorted(landed & repo.holders))
                        return (
                            line,
                            f"({shown}) on {on}, which is or may hold an instance of " + name,
                        )
                    for x in sorted(landed - set(repo.spans)):
                        why = repo.elsewhere(x)
                        if why:
                            raise _Unread(f"{shown} lands on {x}: {why}")
                    if repo.bind and landed:
                        return line, f"({shown}), and {repo.bind} may put {name} anywhere"
                    # an interface's parameter reaches the target through a port of its type
                    port = {x for x in landed - set(repo.spans) if x in repo.seen}
                    if port or (landed - set(repo.spans) and "interface" in repo.seen):
                        on = " or ".join(sorted(port or landed - set(repo.spans)))
                        return line, (
                            f"({shown}) on {on}, which {name}'s hierarchy may read through an "
                            "interface port"
                        )
        except _Unread as e:
            return line, f"whose path cannot be read here ({e})"
    return None
