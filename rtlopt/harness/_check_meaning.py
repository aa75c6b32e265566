"""Whether what a kept check reads means the same in the candidate.

The proofs show the module's outputs equal; an inner signal of the same name may hold another
encoding in the candidate (``cnt`` counting down), so a check the candidate keeps word for word
would fire on other cycles. A name a check reads means the same when the candidate defines it
by the same items as the reference: every module item that may write or declare it
(:func:`writes`) appears in both texts equally often (white space and comments aside), and so,
transitively, does every name those items read. Ports and parameters need no definition (the
ports are proven equal; the parameters are the configuration); a name neither text defines
(a package's constant, an enum value of a package) is the same outside text on both sides.

:func:`writes` over-approximates, failing closed: the names left of an assignment in a
process or a continuous assignment, every name in a call's or instance's parentheses, and
every name an item of any other kind mentions (a declaration, an instance, a typedef, a
generate block, a function, a macro use).
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["KEYWORDS", "changed_reads", "writes"]

KEYWORDS = frozenset(
    "always always_comb always_ff always_latch initial final assign begin end if else case "
    "casex casez endcase for foreach while repeat forever do posedge negedge edge or and not "
    "iff default assert assume cover restrict expect property endproperty sequence "
    "endsequence disable fork join join_any join_none reg wire logic bit int integer "
    "genvar generate endgenerate signed unsigned unique unique0 priority within throughout "
    "intersect first_match s_eventually eventually nexttime s_nexttime until s_until "
    "until_with s_until_with implies accept_on reject_on sync_accept_on sync_reject_on "
    "strong weak clocking endclocking local localparam parameter const automatic static "
    "var string byte shortint longint time real event return void function endfunction "
    "task endtask inside dist with matches tagged null this super endmodule endgenerate "
    "endfunction endtask endproperty endsequence endcase module input output inout "
    "typedef enum struct packed union assign".split()
)

_PROCESS = frozenset(
    {"always", "always_ff", "always_comb", "always_latch", "initial", "final", "assign"}
)
_NAME = re.compile(r"(?<![\w$`'.\\])[A-Za-z_][\w$]*")
#: An assignment's target: a name with selects or members, then the operator.
_TARGET = re.compile(
    r"(?<![\w$`'.\\])([A-Za-z_][\w$]*)\s*(?:(?:\[[^\]=;]*\]|\.\s*[A-Za-z_][\w$]*)\s*)*"
    r"(?:<=|=(?!=)|\+\+|--|[-+*/%&|^]=|<<<?=|>>>?=)"
)
_PREFIX = re.compile(r"(?:\+\+|--)\s*([A-Za-z_][\w$]*)")
#: A concatenation assigned to: every name in it.
_CONCAT_TARGET = re.compile(r"\{([^{}]*)\}\s*(?:<=|=(?!=))")
_CALL = re.compile(r"(?<![\w$`'.\\])([A-Za-z_][\w$]*)\s*(?:#\s*\([^;]*?\)\s*)?\(")
_NOT_CALLS = frozenset(
    "if case casez casex for while repeat foreach unique unique0 priority posedge negedge "
    "always always_comb always_ff always_latch initial final begin assert assume cover wait "
    "return or and not edge iff property sequence".split()
)


def _words(text: str) -> set[str]:
    return set(_NAME.findall(re.sub(r'"(?:\\.|[^"\\\n])*"', " ", text))) - KEYWORDS


def writes(item: str) -> set[str]:
    """The names module item ``item`` (normalised tokens) may write or declare."""
    words = _words(item)
    first = item.split(" ", 1)[0] if item else ""
    if first not in _PROCESS:
        return words
    plain = re.sub(r'"(?:\\.|[^"\\\n])*"', " ", item)
    found = {m.group(1) for m in _TARGET.finditer(plain)}
    found |= {m.group(1) for m in _PREFIX.finditer(plain)}
    for m in _CONCAT_TARGET.finditer(plain):
        found |= _words(m.group(1))
    for m in _CALL.finditer(plain):
        if m.group(1) in _NOT_CALLS:
            continue
        depth, end = 1, m.end()
        while end < len(plain) and depth:
            depth += {"(": 1, ")": -1}.get(plain[end], 0)
            end += 1
        found |= _words(plain[m.end() : end])
    return found & words


def changed_reads(
    check: str,
    reference: list[str],
    candidate: list[str],
    known: set[str],
    limit: int = 20_000,
) -> list[str]:
    """The names ``check`` reads (transitively through their definitions) that the
    ``candidate`` items define otherwise than the ``reference`` items (both normalised module
    items); ``known`` names (ports, parameters) need no definition. Past ``limit`` names
    followed, ``["(too many names to follow)"]`` (fail closed)."""
    ref_writes = [(item, writes(item)) for item in reference]
    cand_writes = [(item, writes(item)) for item in candidate]
    todo = sorted(_words(check) - known)
    seen = set(todo)
    out: list[str] = []
    while todo:
        name = todo.pop()
        if len(seen) > limit:
            return ["(too many names to follow)"]
        mine = Counter(i for i, w in ref_writes if name in w and i != check)
        theirs = Counter(i for i, w in cand_writes if name in w and i != check)
        if mine != theirs:
            out.append(name)
            continue
        for item in mine:
            for word in _words(item) - known - seen:
                seen.add(word)
                todo.append(word)
    return sorted(out)
