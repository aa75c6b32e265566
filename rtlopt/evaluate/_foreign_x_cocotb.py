"""Whether a cocotb testbench may write any value into any input of the target by a way
:func:`._foreign_x._python_writes` does not read (round 73), for :mod:`._foreign_x`.

Recognising each write form has failed (``setattr(dut.s, "value", "x")``, a ``cocotb_bus``
``Bus.drive(txn)`` whose write happens inside the library), so a Python testbench counts as
one that may write x or z into every input of the target unless every way it can write is
read here (fail closed): :func:`unread_write` names the first of

- an import of a library beyond cocotb's basics (``cocotb_bus``, ``cocotbext``, ``pyuvm``,
  ``cocotb.drivers``, ``cocotb.simulator``, any ``cocotb`` module but the triggers, clock,
  handle, types, logging and runner ones), an import by name (``__import__``,
  ``import_module``), an attribute of ``cocotb`` beyond those (``cocotb.drivers.X``);
- a write by reflection (``setattr`` of anything but ``self``/``cls``, ``__setattr__``,
  ``_set_value``, ``__dict__``, ``getattr(h, "value")``, the simulator's ``set_signal_val``);
- a handle (a test's ``dut``, ``dut.s``, ``cocotb.top``, a name or field assigned from one)
  handed to a call that is neither a function or class of the repository's Python testbenches
  nor cocotb's ``Clock``/triggers/task starters, a builtin or a logger (``Bus(dut, ...)``,
  ``functools.partial(f, dut)``); what the repository's own functions do with it is read in
  their files;
- a write through a handle held in a field (``self.sig.value = v`` for ``self.sig = dut.s``)
  of a value that is not an integer or boolean literal.

A test that writes only integer literals (``dut.s.value = 1``) and starts a ``Clock`` on the
clock feeds no x.
"""

from __future__ import annotations

import re

__all__ = ["LITERAL", "WRITE", "own_callables", "unread_write"]

#: The modules of cocotb and its kin a test may import: no driver of the design's signals.
_BASICS = re.compile(
    r"cocotb(?:\.(?:triggers|clock|handle|types(?:\.\w+)*|binary|result|utils|log|logging|"
    r"queue|regression|task|runner|decorators|outcomes|simtime|_typing))?"
    r"|cocotb_tools(?:\.runner)?|cocotb_test(?:\.simulator)?"
)
#: A module of cocotb's kin (judged by :data:`_BASICS`); other packages drive no signal.
_KIN = re.compile(r"(?:cocotb\w*|pyuvm)(?:\.\w+)*")
#: ``cocotb.<name>`` a test may use.
_COCOTB_ATTRIBUTES = frozenset(
    """test top start_soon start fork create_task log triggers clock handle types binary
    result utils queue regression task runner decorators outcomes simtime SIM_NAME
    SIM_VERSION RANDOM_SEED plusargs argv logging external function coroutine parametrize
    pass_test is_simulation top_level __version__""".split()
)
_REFLECTION = re.compile(
    r"\b(?:__setattr__|_set_value|_setimmediatevalue|__dict__|set_signal_val\w*|"
    r"__import__|import_module)\b|\bsetattr\s*\(\s*(?!(?:self|cls)\s*,)"
)
#: A write through a handle (``.value =``, ``setimmediatevalue(``, ``.set(``, the old ``<=``).
WRITE = re.compile(
    r"\.\s*(?:value\s*(?P<op>=)(?!=)|setimmediatevalue\s*\(|set\s*\()"
    r"|\.\s*(?P<old>[A-Za-z_]\w*)\s*<=(?!=)"
)
#: A value that is a plain number or boolean (no x or z can be in it).
LITERAL = re.compile(
    r"[-+]?\s*(?:0[bB][01_]+|0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|\d[\d_]*|True|False)\s*,?\s*\)?"
)
_GETATTR_WRITE = re.compile(
    r"\bgetattr\s*\([^()]*,\s*[rbu]?[\"'](?:value|setimmediatevalue|set|_set_value)[\"']"
)
#: Calls a handle may be handed to: cocotb's clock, triggers and task starters, builtins,
#: loggers, a container's own methods (and Python's keywords before a parenthesis).
_ALLOWED_CALLS = frozenset(
    """Clock Timer RisingEdge FallingEdge Edge ValueChange ClockCycles ReadOnly ReadWrite
    NextTimeStep First Combine Join Event Lock with_timeout start_soon start fork create_task
    print str int bool float len repr hex bin oct format isinstance hasattr getattr type id
    hash sorted list tuple set dict enumerate zip iter next min max abs any all dir range
    reversed append extend insert add info debug warning warn error critical exception log
    super if elif while for in not and or is return yield await assert lambda with else
    del""".split()
)
#: What a handle's chain reads (a value, a name): no handle is handed on.
_READS = frozenset(
    """value integer binstr signed_integer is_resolvable n_bits _name _path _log _type
    _def_name _def_file""".split()
)
_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\(")
_CHAIN = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_IMPORT = re.compile(r"(?:^|;)[ \t]*(?:from[ \t]+([.\w]+)[ \t]+)?import[ \t]+([^\n#;]*)", re.M)


def own_callables(codes: list[str]) -> set[str]:
    """The functions and classes the repository's Python testbenches define."""
    return {
        n
        for c in codes
        for n in re.findall(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", c, re.M)
    }


def unread_write(text: str, code: str, own: set[str], ports: set[str]) -> tuple[int, str]:
    """The offset and a description of the first way ``text`` (``code``: its comments and
    strings blanked) may write the target otherwise than :mod:`._foreign_x` reads, or
    ``(-1, "")`` (see the module's docstring). ``own``: :func:`own_callables`; ``ports``:
    the target's ports."""
    from rtlopt.evaluate._reach_foreign import _handles

    found: list[tuple[int, str]] = []
    for m in _IMPORT.finditer(code):
        mods = (
            [m.group(1)] if m.group(1) else re.findall(r"[\w.]+(?=\s*(?:,|$|\bas\b))", m.group(2))
        )
        for mod in mods:
            if _KIN.fullmatch(mod) and not _BASICS.fullmatch(mod):
                found.append((m.start(), f"imports {mod}, a library that may drive signals"))
    for m in re.finditer(r"(?<![\w.])cocotb\s*\.\s*([A-Za-z_]\w*)", code):
        if m.group(1) not in _COCOTB_ATTRIBUTES:
            found.append((m.start(), f"uses cocotb.{m.group(1)}"))
    for m in _REFLECTION.finditer(code):
        found.append((m.start(), f"writes by reflection ({' '.join(m.group(0).split())})"))
    for m in _GETATTR_WRITE.finditer(text):
        found.append((m.start(), "writes by reflection (getattr of a write)"))
    handles = _handles(code, set(), set())
    found += _handed(code, handles, own)
    found += _field_writes(code, handles, ports)
    return min(found) if found else (-1, "")


def _held(expr: str, handles: set[str]) -> list[str] | None:
    from rtlopt.evaluate._reach_foreign import _held as held

    return held(expr, handles - {"self", "cls"})


def _handed(code: str, handles: set[str], own: set[str]) -> list[tuple[int, str]]:
    """The calls that take a handle (not a value read off one) and are none of ``own`` nor
    :data:`_ALLOWED_CALLS`."""
    out: list[tuple[int, str]] = []
    for m in _CALL.finditer(code):
        callee = re.sub(r"\s+", "", m.group(1))
        last = callee.rsplit(".", 1)[-1]
        before = code[max(0, m.start() - 12) : m.start()]
        if re.search(r"\b(?:def|class)\s+$", before) or last in own or last in _ALLOWED_CALLS:
            continue
        if _held(callee, handles) is not None:
            continue  # the handle's own API (a write by it is read by :mod:`._foreign_x`)
        args = _top_level(code, m.end())
        for a in _CHAIN.finditer(args):
            rest = _held(a.group(0), handles)
            if rest is None or any(p in _READS for p in rest):
                continue
            out.append((m.start(), f"hands the handle {a.group(0)} to {callee}()"))
            break
    return out


def _top_level(code: str, start: int) -> str:
    """The arguments of the call whose ``(`` ends at ``start``, each nested call blanked (it
    is judged as a call of its own); a tuple or list written there is kept."""
    out: list[str] = []
    i, depth = start, 0
    while i < len(code):
        ch = code[i]
        if ch == ")" and depth == 0:
            break
        if ch == "(" and re.search(r"[\w)\]]\s*$", code[max(0, i - 40) : i]):
            j, d = i + 1, 1
            while j < len(code) and d:
                d += {"(": 1, ")": -1}.get(code[j], 0)
                j += 1
            out.append(" " * (j - i))
            i = j
            continue
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        out.append(ch)
        i += 1
    return "".join(out)


def _field_writes(code: str, handles: set[str], ports: set[str]) -> list[tuple[int, str]]:
    """Writes through a handle held in a field (``self.sig.value = v`` for ``self.sig =
    dut.s``) of a value that is not an integer or boolean literal; a write at a port's name
    or through a bare name is :func:`._foreign_x._python_writes`'s."""
    from rtlopt.evaluate._reach_foreign import _chain

    out: list[tuple[int, str]] = []
    for m in WRITE.finditer(code):
        chain = _chain(code, m.start())
        if m.group("old") is not None:
            chain = [*chain, m.group("old")]
        if len(chain) < 2 or not chain[0] or chain[-1] in ports:
            continue
        if _held(".".join(chain), handles) is None:
            continue
        end = code.find("\n", m.end())
        value = code[m.end() : end if end >= 0 else len(code)].strip()
        if not LITERAL.fullmatch(value):
            out.append((m.start(), f"writes {'.'.join(chain)} with a value that may be x"))
    return out
