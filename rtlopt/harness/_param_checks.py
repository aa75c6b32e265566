"""Parameter checks the reference holds, kept word for word by a candidate.

Libraries check their parameters at elaboration in an ``initial`` block that tests only
parameters and reports::

    initial begin
        if (PIPELINE_OUTPUT < 1) begin
            $error("Error: PIPELINE_OUTPUT must be at least 1 (instance %m)");
            $finish;
        end
    end

The screen allows no system task but pure functions in a candidate, so every edit of such a
module was rejected although the block is the reference's own. :func:`kept_check_spans`
finds the blocks of a candidate the screen may pass over, failing closed on anything else:

* the block is ``initial begin ... end`` holding only (named) ``begin``/``end`` blocks,
  ``if``/``else`` and calls of the reporting tasks :data:`REPORTING` (their arguments
  strings, parameters and constants);
* every name in it is a parameter or localparam the candidate's text declares, a pure system
  function (``$clog2``) or a reporting task: it reads no signal and writes nothing;
* the reference's target module holds the same block (white space, comments and the text of
  strings aside).

Such a block runs at time 0 on both sides under the same parameters. Should a candidate's
change of a localparam make it end the simulation, the testbench prints no result line, which
fails the simulation (fail closed); synthesis and the formal tools read no ``initial`` block
of this kind as logic.
"""

from __future__ import annotations

import re

from rtlopt.harness._vocabulary import ALLOWED_SYSTEM_FUNCTIONS
from rtlopt.verilog import blank_comments

__all__ = ["REPORTING", "kept_check_spans"]

#: The system tasks a kept parameter check may call.
REPORTING = frozenset({"$error", "$fatal", "$warning", "$info", "$display", "$finish", "$stop"})
_KEYWORDS = frozenset({"initial", "begin", "end", "if", "else"})
_INITIAL_RE = re.compile(r"\binitial\s+begin\b")
_TOKEN_RE = re.compile(r"\$?[A-Za-z_][A-Za-z0-9_$]*|\S")
_PARAM_DECL_RE = re.compile(r"\b(?:parameter|localparam)\b")
_PARAM_NAME_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[[^\]]*\]\s*)*=(?!=)")
#: Characters outside names a check's condition and arguments may hold (no assignment: ``=``
#: is only part of a comparison, which :func:`_only_checks` verifies).
_OPERATORS = set("()[]{}+-*/%<>=!&|^~?:,;'\"") | set("0123456789")


def _blocks(code: str) -> list[tuple[int, int]]:
    """Spans of ``initial begin ... end`` blocks in ``code`` (comments and strings blanked),
    the ``end`` matching the first ``begin``."""
    out = []
    for m in _INITIAL_RE.finditer(code):
        depth = 0
        for t in re.finditer(r"\b(begin|end)\b", code[m.start() :]):
            depth += 1 if t.group(1) == "begin" else -1
            if depth == 0:
                out.append((m.start(), m.start() + t.end()))
                break
    return out


def _parameters(code: str) -> set[str]:
    """Names the text declares as ``parameter`` or ``localparam`` (port list or body): each
    declaration up to its ``;``, or to the ``)`` that closes a parameter port list."""
    names: set[str] = set()
    for m in _PARAM_DECL_RE.finditer(code):
        depth, end = 0, len(code)
        for i in range(m.end(), len(code)):
            ch = code[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                if depth == 0:
                    end = i
                    break
                depth -= 1
            elif ch == ";" and depth == 0:
                end = i
                break
        names.update(_PARAM_NAME_RE.findall(code[m.end() : end]))
    return names


def _only_checks(block: str, params: set[str]) -> bool:
    """Whether ``block`` tests only ``params`` and calls only reporting tasks."""
    tokens = _TOKEN_RE.findall(block)
    for i, tok in enumerate(tokens):
        if tok in _KEYWORDS or tok in params:
            continue
        if tok.startswith("$"):
            if tok in REPORTING or tok in ALLOWED_SYSTEM_FUNCTIONS:
                continue
            return False
        if tok[0].isalpha() or tok[0] == "_":
            if re.fullmatch(r"[bodhBODH][0-9a-fA-FxXzZ_]*", tok) and i and tokens[i - 1] == "'":
                continue  # the base and digits of a based number (4'd3, 8'hFF)
            if i and tokens[i - 1] == ":" and i > 1 and tokens[i - 2] == "begin":
                continue  # a block's label
            return False
        if tok not in _OPERATORS:
            return False
        if tok == "=":  # only in ==, !=, <=, >=, ===, !==
            prev = tokens[i - 1] if i else ""
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if prev not in ("=", "!", "<", ">") and nxt != "=":
                return False
    return True


def _normal(text: str) -> str:
    return " ".join(_TOKEN_RE.findall(text))


def kept_check_spans(code: str, reference: str) -> list[tuple[int, int]]:
    """The spans of ``code`` (the candidate, comments and strings blanked) that are parameter
    checks the ``reference`` target's text holds too (see the module's text)."""
    blocks = _blocks(code)
    if not blocks:
        return []
    ref = blank_comments(reference)
    ref_params = _parameters(ref)
    held = {_normal(ref[a:b]) for a, b in _blocks(ref) if _only_checks(ref[a:b], ref_params)}
    params = _parameters(code)
    return [
        (a, b) for a, b in blocks if _only_checks(code[a:b], params) and _normal(code[a:b]) in held
    ]
