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

__all__ = ["lowered_otherwise"]

#: System functions whose value is a constant of the elaboration, and reporting tasks.
_SAFE_SYSTEM = frozenset(
    {
        "signed", "unsigned", "clog2", "bits", "size", "high", "low", "left", "right",
        "increment", "dimensions", "unpacked_dimensions", "display", "write", "error",
        "warning", "info", "fatal", "finish", "stop", "strobe", "monitor",
    }
)  # fmt: skip
_SYSTEM = re.compile(r"\$(\w+)")
_TYPE_OP = re.compile(r"\btype\s*\(")
_PARAM_STMT = re.compile(r"\b(?:parameter|localparam)\b([^;]*)")
_NAMED = re.compile(r"(\w+)\s*=(?!=)")
_GENVAR = re.compile(r"\bgenvar\s+([\w\s,]+);")
_FOR = re.compile(r"\bfor\s*\(")
_LOOP_VAR = re.compile(
    r"^\s*(?:automatic\s+)?(?:genvar|integer|int|(?:int\s+)?unsigned|logic(?:\s*\[[^\]]*\])?)?"
    r"\s*(\w+)\s*=(?!=)"
)
_ENUM = re.compile(r"\benum\b[^{;]*\{([^}]*)\}")
_SELECT = re.compile(r"[\w\])]\s*\[")
_WORD = re.compile(r"(?<![\w$'.:])([A-Za-z_]\w*)\b(?!\s*::)")
_WRITE = r"(?:\+\+|--|\s*(?:<=|[-+*/%&|^]?=)(?!=))"


def lowered_otherwise(codes: list[str], macro_bodies: list[str]) -> str:
    """Why the texts ``codes`` (comments blanked, used macros' bodies among them) hold
    something slang's procedural view may read otherwise than a simulator, or ""."""
    if any("``" in b for b in macro_bodies):
        return "a macro pasting tokens (what it builds is not judged)"
    for code in codes:
        for m in _SYSTEM.finditer(code):
            if m.group(1) not in _SAFE_SYSTEM:
                return f"${m.group(1)} (slang computes it otherwise on x than a simulator)"
        if _TYPE_OP.search(code):
            return "a type(...) operator (its type may be 2-state)"
    constants, loops = _constants(codes)
    for code in codes:
        why = _loop_written(code, loops) or _variable_select(code, constants | loops)
        if why:
            return why
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
            v = _LOOP_VAR.match(header.split(";", 1)[0])
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


def _loop_written(code: str, loops: set[str]) -> str:
    """Why ``code`` writes a ``for`` loop's variable outside the loop headers, or ""."""
    plain = code
    for m in reversed(list(_FOR.finditer(code))):
        end = _close(code, m.end(), "(", ")")
        plain = plain[: m.end()] + " " * (end - m.end()) + plain[end:]
    for name in sorted(loops):
        if re.search(rf"(?<![\w.$]){re.escape(name)}{_WRITE}", plain):
            return f"a loop variable ({name}) written in its loop's body"
    return ""


def _variable_select(code: str, constants: set[str]) -> str:
    """Why ``code`` selects a bit or an element at an index that is not a constant, or ""."""
    for m in _SELECT.finditer(code):
        end = _close(code, m.end(), "[", "]")
        inner = code[m.end() : end]
        index = inner.split("+:", 1)[0].split("-:", 1)[0]
        if ":" in index.replace("::", ""):
            continue  # a range: constant in SystemVerilog
        names = {w for w in _WORD.findall(index) if not w[0].isdigit()}
        loose = sorted(names - constants)
        if loose:
            return f"a select at an index that is not a constant ({loose[0]})"
    return ""
