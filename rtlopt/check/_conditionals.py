"""Conditionals of build texts, for the gate.

A build can choose between two fully literal setting lines (``ifeq ($(VARIANT),fast)``
``iverilog -DFAST_INV ...`` ``else`` ``iverilog ...`` ``endif``; a shell ``if``/``case``, a
Tcl ``if``, a Python ``if``, a CI ``if:``): the changed line then only assigns the variable
the condition reads, and neither setting line holds it. Which lines a conditional governs
is not followed language by language (blocks, indentation, a recipe running another script):
a conditional line of a build text is a setting itself. So its words are settings
(:mod:`rtlopt.check._build_options`: a changed conditional is a finding), the variables it
reads are read by a setting (:mod:`rtlopt.check._setting_variables`: a changed assignment
of one is a finding) and one that reads a variable is a setting that is not fully literal
(:mod:`rtlopt.check._computed_settings`: then a changed build text is a finding).
"""

from __future__ import annotations

import re

__all__ = ["CONDITIONAL", "condition_names"]

_KEYWORDS = (
    "ifeq|ifneq|ifdef|ifndef|else|elif|elsif|elseif|endif|fi|if|case|esac|switch|match|when|"
    "unless|while|until|for|foreach|done|endforeach|endwhile"
)
#: A line that opens, continues or closes a conditional or a loop in any build language:
#: Make, shell (``if``, ``case``, ``[ ... ] &&``), Tcl (``} else {``), CMake (``if(``),
#: Python (``elif x:``), a CI key (``if:``); a Make recipe's ``@``/``-`` prefix aside.
CONDITIONAL = re.compile(
    rf"^[ \t]*[@+\-]*[ \t]*(?:\}}[ \t]*)?(?:(?:{_KEYWORDS})(?![\w\-.=])|\[\[?(?=\s)|;;)"
    # a shell case arm on its own line (``fast)``, ``slow|*)``)
    r"|^[ \t]*\(?[\w.*?\-\"'|]+\)[ \t]*(?:;;)?[ \t]*$"
)
_MAKE_DEFINED = re.compile(r"^[ \t]*[@+\-]*[ \t]*(?:ifdef|ifndef)\s+(.*)")
_MAKE_EQUAL = re.compile(r"^[ \t]*(?:else\s+)?(?:ifeq|ifneq)\b")
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
_BARE = re.compile(r"(?<![\w$.\-])[A-Za-z_]\w*(?![\w(])")
_NOT_NAMES = frozenset(
    _KEYWORDS.split("|")
    + "then do in not and or is None True False elseif EQUAL STREQUAL DEFINED".split()
)


def condition_names(line: str) -> set[str]:
    """The names a conditional line reads without a ``$`` form: Make ``ifdef NAME``, and
    outside Make's ``ifeq``/``ifneq`` (whose operands are literal but for ``$`` forms) every
    bare name outside strings (Python, CMake, a CI expression read names so)."""
    if not CONDITIONAL.match(line):
        return set()
    m = _MAKE_DEFINED.match(line)
    if m is not None:
        return set(re.findall(r"[A-Za-z_][\w.-]*", m.group(1).split("#")[0]))
    if _MAKE_EQUAL.match(line):
        return set()
    return set(_BARE.findall(_STRING.sub('""', line))) - _NOT_NAMES
