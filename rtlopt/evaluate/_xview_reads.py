"""What slang's procedural views (``read_slang --no-proc``) may still read otherwise than a
simulator reads the text, found in the SystemVerilog texts (comments blanked): each leaves
the candidate unchecked (:func:`rtlopt.evaluate._xview._text_refusal`).

Measured (round 58): slang lowers a write at a variable index to an and/or mask (x in every
bit where iverilog skips the write), a read at a variable index to a ``?:`` tree (which
merges x where iverilog gives x), ``$countones``/``$onehot`` to adders (x where iverilog
ignores x bits), and a ``type(...)`` cast or a loop variable written in the body to 4-state
logic (iverilog turns x into 0); a macro pasting tokens (`` `` ``) may build any of these, or
``casex``, out of the text the other checks read. So: a select whose index is not a
constant (a parameter, ``localparam``, ``genvar``, enum label or a ``for`` loop's own
variable), a system function other than the constant queries, ``type(``, a loop variable
written outside its ``for`` header, and token pasting in a used macro are refused.
"""

from __future__ import annotations

import re

__all__ = ["lowered_otherwise", "switched_off"]

#: System functions whose value is a constant of the elaboration, and reporting tasks.
_SAFE_SYSTEM = frozenset(
    {
        "signed", "unsigned", "bits", "size", "high", "low", "left", "right",
        "increment", "dimensions", "unpacked_dimensions", "display", "write", "error",
        "warning", "info", "fatal", "finish", "stop", "strobe", "monitor",
    }
)  # fmt: skip
_SYSTEM = re.compile(r"(?<![\w$])\$(\w+)")
_TYPE_OP = re.compile(r"\btype\s*\(")
_PARAM_STMT = re.compile(r"\b(?:parameter|localparam)\b([^;]*)")
_NAMED = re.compile(r"(\w+)\s*=(?!=)")
_GENVAR = re.compile(r"\bgenvar\s+([\w\s,]+);")
_FOR = re.compile(r"\bfor\s*\(")
#: A ``for`` header's variable: the last name before its first ``=`` (any type before it).
_LOOP_VAR = re.compile(r"([A-Za-z_][\w$]*)\s*(?:\[[^\]]*\]\s*)*=(?!=)")
_ENUM = re.compile(r"\benum\b[^{;]*\{([^}]*)\}")
_SELECT = re.compile(r"[\w$\])}]\s*\[")
_WORD = re.compile(r"(?<![\w$'.])(?<!::)([A-Za-z_][\w$]*)(?![\w$])(?!\s*::)")
_WRITE = r"(?:\+\+|--|\s*(?:<=|[-+*/%&|^]?=)(?!=))"
#: An escaped identifier (``\\name ``), after a separator (a string's ``\\n`` is not one).
_ESCAPED = re.compile(r"(?:^|(?<=[\s(\[{,.;=:?!~&|^+\-*/%<>@#]))\\\S")
_BRACKETS = re.compile(r"\[[^\[\]]*\]")
_DECL_WORDS = (
    "input|output|inout|ref|logic|reg|wire|bit|byte|int|integer|shortint|longint|var|tri|"
    "wand|wor|uwire|real|time"
)
_LOOP_DECL_WORDS = _DECL_WORDS.replace("int|integer|", "")


def lowered_otherwise(codes: list[str], macro_bodies: list[str]) -> str:
    """Why the texts ``codes`` (comments blanked, used macros' bodies among them) hold
    something slang's procedural view may read otherwise than a simulator, or ""."""
    if any("``" in b for b in macro_bodies):
        return "a macro pasting tokens (what it builds is not judged)"
    for code in codes:
        for m in _SYSTEM.finditer(code):
            if m.group(1) not in _SAFE_SYSTEM and m.group(1) != "clog2":  # clog2: below
                return f"${m.group(1)} (slang computes it otherwise on x than a simulator)"
        if _TYPE_OP.search(code):
            return "a type(...) operator (its type may be 2-state)"
    for code in codes:
        if _ESCAPED.search(code):
            return "an escaped identifier (what it names is not judged)"
    constants, loops = _constants(codes)
    written = _variables(codes, constants | loops, loops)
    constants -= written
    for code in codes:
        why = (
            _loop_written(code, loops)
            or _variable_select(code, constants | (loops - written))
            or _clog2_of_variable(code, constants | (loops - written))
        )
        if why:
            return why
    return ""


def _stripped(code: str) -> str:
    """``code`` with its parameter statements, ``for`` headers and bracket contents blanked
    (what declares or writes a variable is left)."""
    out = _blank_for_headers(code)
    out = _PARAM_STMT.sub(lambda m: " " * len(m.group(0)), out)
    out = _ENUM.sub(lambda m: " " * len(m.group(0)), out)
    while True:
        inner = _BRACKETS.sub(lambda m: " " * len(m.group(0)), out)
        if inner == out:
            return out
        out = inner


def _variables(codes: list[str], names: set[str], loops: set[str]) -> set[str]:
    """The ``names`` some text declares as a port, net or variable (a loop variable may be
    declared an ``integer`` or ``int`` beside its loop), writes (a select of it too) or
    connects to an instance's port: not constants, whatever else declares them."""
    out: set[str] = set()
    stripped = [_stripped(c) for c in codes]
    for name in names:
        n = re.escape(name)
        words = _LOOP_DECL_WORDS if name in loops else _DECL_WORDS
        decl = re.compile(rf"\b(?:{words})\b[^;]*?(?<![\w$.]){n}(?![\w$])")
        write = re.compile(rf"(?<![\w.$]){n}\s*{_WRITE}")
        conn = re.compile(rf"\.\w+\s*\(\s*{n}(?![\w$])")
        # a declaration by a type's name (``t2 ONE;``, an argument ``(t2 ONE)``), a block
        # label (``begin : ONE``), a hierarchical name (``ONE.idx``), a name an instance's
        # ordered connections or a call lists (an implicit net)
        typed = re.compile(rf"(?<![\w$.`])(?!genvar\b)[A-Za-z_][\w$]*\s+{n}\s*[;,=)]")
        other = re.compile(
            rf":\s*{n}(?![\w$])|(?<![\w$]){n}\s*\.|\([^;()]*(?<![\w$.]){n}(?![\w$])[^;()]*\)\s*;"
        )
        if any(
            decl.search(c)
            or write.search(c)
            or conn.search(c)
            or (name not in loops and (typed.search(c) or other.search(c)))
            for c in stripped
        ):
            out.add(name)
    return out


def _clog2_of_variable(code: str, constants: set[str]) -> str:
    """Why ``code`` takes ``$clog2`` of what is not a constant (slang lowers it to logic that
    reads x otherwise), or ""."""
    for m in re.finditer(r"\$clog2\s*\(", code):
        end = _close(code, m.end(), "(", ")")
        loose = sorted({w for w in _WORD.findall(code[m.end() : end])} - constants)
        if loose:
            return f"$clog2 of what is not a constant ({loose[0]})"
    return ""


def _constants(codes: list[str]) -> tuple[set[str], set[str]]:
    """The names ``codes`` declare constant (parameters, ``localparam``s, ``genvar``s, enum
    labels) and the ``for`` loops' variables."""
    consts: set[str] = set()
    loops: set[str] = set()
    for code in codes:
        for m in _PARAM_STMT.finditer(code):
            consts.update(_NAMED.findall(m.group(1)))
        for m in _GENVAR.finditer(code):
            consts.update(w.strip() for w in m.group(1).split(",") if w.strip())
        for m in _ENUM.finditer(code):
            consts.update(re.findall(r"(\w+)\s*(?:=[^,]*)?(?:,|$)", m.group(1)))
        for header in _for_headers(code):
            v = _LOOP_VAR.search(header.split(";", 1)[0])
            if v:
                loops.add(v.group(1))
    return consts, loops


def _for_headers(code: str) -> list[str]:
    """The text between the parentheses of every ``for (...)`` of ``code``."""
    out = []
    for m in _FOR.finditer(code):
        end = _close(code, m.end(), "(", ")")
        out.append(code[m.end() : end])
    return out


def _close(code: str, start: int, open_: str, close: str) -> int:
    """The index of the bracket closing the one opened just before ``start``."""
    depth = 1
    for i in range(start, len(code)):
        if code[i] == open_:
            depth += 1
        elif code[i] == close:
            depth -= 1
            if depth == 0:
                return i
    return len(code)


def _blank_for_headers(code: str) -> str:
    """``code`` with the text between the parentheses of every ``for (...)`` blanked."""
    plain = code
    for m in reversed(list(_FOR.finditer(code))):
        end = _close(code, m.end(), "(", ")")
        plain = plain[: m.end()] + " " * (end - m.end()) + plain[end:]
    return plain


def _loop_written(code: str, loops: set[str]) -> str:
    """Why ``code`` writes a ``for`` loop's variable outside the loop headers, or ""."""
    plain = _blank_for_headers(code)
    for name in sorted(loops):
        if re.search(rf"(?<![\w.$]){re.escape(name)}\s*(?:\[[^\]]*\]\s*)*{_WRITE}", plain):
            return f"a loop variable ({name}) written in its loop's body"
    return ""


def _variable_select(code: str, constants: set[str]) -> str:
    """Why ``code`` selects a bit or an element at an index that is not a constant, or ""."""
    for m in _SELECT.finditer(code):
        end = _close(code, m.end(), "[", "]")
        inner = code[m.end() : end]
        # every name of the brackets, a range's bounds and an indexed part-select's width
        # included (constants in SystemVerilog: a variable there is no range)
        names = {w for w in _WORD.findall(inner) if not w[0].isdigit()}
        loose = sorted(names - constants)
        if loose:
            return f"a select at an index that is not a constant ({loose[0]})"
    return ""


def switched_off(code: str, defined: set[str]) -> list[tuple[int, int]]:
    """The spans of ``code`` (comments blanked) a compilation in which ``defined`` are the
    macros defined at its start does not read; [] where the conditionals do not balance
    (everything counts)."""
    from rtlopt.evaluate._configs import switched_off_spans

    try:
        return switched_off_spans(code, defined)
    except ValueError:
        return []
