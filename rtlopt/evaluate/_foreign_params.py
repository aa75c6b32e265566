"""The target's parameter values set outside Verilog: configurations the repository uses.

A simulator's command line or a test runner sets a parameter of the toplevel it builds: a
Makefile running ``iverilog -Ptgt.W=37``, ``verilator -GW=37``, ``vcs -pvalue+tgt.W=37``,
``xrun -defparam tgt.W=37``, a yosys ``chparam -set W 37``; a cocotb or pyuvm runner's
``parameters={"W": 37}`` (``cocotb_test.simulator.run``, ``runner.build``), its
``parameters["W"] = 37``, ``dict(W=37)`` or ``.update(...)``. The target's verdict must hold
there too: :func:`foreign_overrides` finds them in every other text file of the repository
(``+define+`` sets a macro, no parameter). An override counts where it names a non-local
parameter of the target and its toplevel is the target, is not named (``-GW=37``, a runner
without ``toplevel``), or is not a module of the design that declares no parameter of that
name (another module's own ``W`` is not the target's). A value that is no literal (a
variable, a make variable, a computed string) cannot be known: the change is unchecked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend._params import Elaborations, Parameterization
from rtlopt.frontend.model import Design

__all__ = ["Override", "foreign_overrides", "foreign_parameterizations"]


@dataclass(frozen=True)
class Override:
    """One parameter setting found outside Verilog.

    Attributes:
        where: ``file:line`` (relative to the repository).
        form: The text that sets it (``-Ptgt.W=37``, ``parameters={"W": 37}``).
        values: ``(name, value)``: values as Verilog literals ("" where not a literal).
        exact: Whether its toplevel is surely the target (named so, or not named).
    """

    where: str
    form: str
    values: tuple[tuple[str, str], ...]
    exact: bool


_ARG = r"""(?:\d*\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ?_]+|"[^"\n]*"|'[^'\n]*'|[^\s"',;)\]}]+)"""
#: Command-line forms: (regex, top group, name group, value group).
_COMMAND_LINES = (
    re.compile(rf"(?<![\w-])-P\s*(?P<top>[^\s.=]+)\.(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})"),
    re.compile(
        rf"(?<![\w-])-G\s*(?:(?P<top>[\w$.]+)\.)?(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})"
    ),
    re.compile(
        rf"(?<![\w-])[-+]pvalue\+(?:(?P<top>[\w$.]+)\.)?(?P<name>[A-Za-z_][\w$]*)\s*=\s*"
        rf"(?P<v>{_ARG})"
    ),
    re.compile(
        rf"(?<![\w-])-defparam\s+(?:(?P<top>[\w$.]+)\.)?(?P<name>[A-Za-z_][\w$]*)\s*=\s*"
        rf"(?P<v>{_ARG})"
    ),
    re.compile(rf"\bchparam\b[^\n]*?-set\s+(?P<name>[A-Za-z_][\w$]*)\s+(?P<v>{_ARG})"),
    # round 71: Questa's ``vsim -gW=37``, Yosys's ``hierarchy -chparam W 37``, Vivado's
    # ``-generic W=37`` / ``set_property generic {W=37}``, xelab's ``-generic_top "W=37"``,
    # Quartus's ``set_parameter -name W 37``, FuseSoC's ``parameters: [W=37]``
    re.compile(
        rf"(?<![\w-])-g\s*(?:(?P<top>[\w$.]+)\.)?(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})"
    ),
    re.compile(rf"(?<![\w-])-chparam\s+(?P<name>[A-Za-z_][\w$]*)\s+(?P<v>{_ARG})"),
    re.compile(
        rf"(?:-generic(?:_top)?|\bgeneric)\s*[\"'{{]?\s*(?P<name>[A-Za-z_][\w$]*)\s*=\s*"
        rf"(?P<v>{_ARG})"
    ),
    re.compile(rf"\bset_parameter\s+-name\s+(?P<name>[A-Za-z_][\w$]*)\s+(?P<v>{_ARG})"),
    re.compile(rf"\bparameters\s*:\s*\[[^\]\n]*?\b(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})"),
)
_VERILOG_NUMBER = re.compile(r"\d[\d_]*|\d*\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ?_]+|-?\d+\.\d+")
_BASED = re.compile(r"(\d*)\s*'([sS]?)([bBoOdDhH])\s*([0-9a-fA-F_]+)")
_TOPLEVEL = re.compile(r"\b(?:hdl_)?toplevel\s*=\s*[rbuf]?[\"']([^\"'\n]*)[\"']")
_DICT_ENTRY = re.compile(rf"""[\"']([A-Za-z_][\w$]*)[\"']\s*:\s*({_ARG})""")
#: ``dict([("W", 37)])``: a name and value pair.
_PAIR = re.compile(rf"""\(\s*[\"']([A-Za-z_][\w$]*)[\"']\s*,\s*({_ARG})\s*\)""")
#: FuseSoC: ``W: {datatype: int, default: 37, ...}`` or the block form.
_CORE_DEFAULT = re.compile(
    rf"(?P<name>[A-Za-z_][\w$]*)[ \t]*:[ \t]*"
    rf"(?:\{{[^}}]*?|\n(?:[ \t]+[\w-]+[ \t]*:[ \t]*\S[^\n]*\n)*?[ \t]+)"
    rf"\bdefault\s*:\s*(?P<v>{_ARG})"
)
_KWARG = re.compile(rf"(?<![\w.])([A-Za-z_][\w$]*)\s*=(?!=)\s*({_ARG})")


def foreign_overrides(design: Design) -> list[Override]:
    """Every setting of a parameter of the target outside Verilog (see the module's
    docstring), in file order."""
    from rtlopt.evaluate._repo_texts import other_texts

    params = {p.name for p in design.target.parameters if not p.local}
    if not params:
        return []
    texts, _ = other_texts(design)
    out: list[Override] = []
    for path, text in texts:
        if not any(p in text for p in params):
            continue
        rel = _rel(design, path)
        for m, top, name, value in _settings(path, text):
            if name not in params:
                continue
            exact = _exact(design, top, name)
            if exact is None:
                continue
            line = text.count("\n", 0, m.start()) + 1
            form = " ".join(m.group(0).split())[:80]
            out.append(Override(f"{rel}:{line}", form, ((name, _literal(value)),), exact))
    return out


def foreign_parameterizations(
    design: Design, ref: str, settings: list[Parameterization], elab: Elaborations
) -> tuple[list[Parameterization], str]:
    """The parameterizations of the target the overrides outside Verilog set beyond
    ``settings`` (the first: the defaults; the others follow by their defaults, as a probe's),
    each used by the repository (its ``where`` names the file, the line, the form and the
    parameter: a dotted name, as an instance's), and why the first that cannot be checked is
    not (a value that is no literal, a value the reference does not elaborate with), or ""."""
    from rtlopt.frontend._params import probe

    t = design.target
    out: list[Parameterization] = []
    for ov in foreign_overrides(design):
        names = ", ".join(f"{k}={v or '?'}" for k, v in ov.values)
        if any(not v for _, v in ov.values):
            return out, (
                f"{ov.where} sets parameter {names} of {t.name} outside Verilog ({ov.form}) to a "
                "value that is no literal, and the proof covers only the configurations it "
                f"can build: write the value as a literal there, or take the setting out if it "
                f"does not build {t.name}"
            )
        pz = probe(ref, t.name, design, settings[0], dict(ov.values), elab)
        if pz is None:
            if not ov.exact:
                continue  # another toplevel's own parameter, not the target's
            return out, (
                f"{ov.where} builds {t.name} with {names} outside Verilog ({ov.form}), and the "
                f"reference does not elaborate with it, so that configuration is not checked: "
                f"correct the setting, or take it out if it does not build {t.name}"
            )
        if pz in settings or pz in out:
            continue
        where = f"{ov.where}: {ov.form}, setting {t.name}.{ov.values[0][0]}"
        out.append(Parameterization(pz.values, (where,)))
    return out, ""


def _settings(path: Path, text: str) -> list[tuple[re.Match[str], str | None, str, str]]:
    """``(match, top, name, value)`` of every setting in ``text``: command lines anywhere,
    a runner's parameter dictionaries in Python (its ``toplevel`` as the top)."""
    out: list[tuple[re.Match[str], str | None, str, str]] = []
    for rx in _COMMAND_LINES:
        for m in rx.finditer(text):
            top = m.groupdict().get("top")
            out.append((m, top, m.group("name"), m.group("v")))
    if path.suffix == ".core":  # FuseSoC: a parameter's ``default:`` is the value it sets
        out += [(m, None, m.group("name"), m.group("v")) for m in _CORE_DEFAULT.finditer(text)]
    if path.suffix != ".py" and "parameters" not in text:
        return out
    tops = {t for t in _TOPLEVEL.findall(text) if t}
    top = next(iter(tops)) if len(tops) == 1 else None
    names = {"parameters", *re.findall(r"\bparameters\s*=\s*([A-Za-z_]\w*)\b(?!\s*\()", text)}
    names.discard("dict")
    for n in sorted(names):
        q = re.escape(n)
        # ``parameters = {...}``, ``parameters=dict(...)``, a key ``"parameters": {...}`` (JSON,
        # a runner's keyword dictionary unpacked with ``**``)
        key = rf"(?<![\w.]){q}\s*(?::[^=\n]*)?=\s*(\{{|dict\s*\()|[\"']{q}[\"']\s*:\s*(\{{)"
        for m in re.finditer(key, text):
            a = m.end() - 1
            b = a + len(_balanced(text, a))
            rx = _DICT_ENTRY if (m.group(1) or m.group(2)) == "{" else _KWARG
            out += [(e, top, e.group(1), e.group(2)) for e in rx.finditer(text, a, b)]
            out += [(e, top, e.group(1), e.group(2)) for e in _PAIR.finditer(text, a, b)]
        for m in re.finditer(rf"(?<![\w.]){q}\s*\.\s*update\s*\(", text):
            a = m.end() - 1
            b = a + len(_balanced(text, a))
            for rx in (_DICT_ENTRY, _KWARG):
                out += [(e, top, e.group(1), e.group(2)) for e in rx.finditer(text, a, b)]
        item = rf"(?<![\w.]){q}\s*\[\s*[\"']([A-Za-z_][\w$]*)[\"']\s*\]\s*=(?!=)\s*({_ARG})"
        out += [(m, top, m.group(1), m.group(2)) for m in re.finditer(item, text)]
    return out


def _exact(design: Design, top: str | None, name: str) -> bool | None:
    """True where ``top`` is surely the target (it, or not named, or not known), False where
    it is a module above that may pass ``name`` down, None where it is another module of
    the design that declares no parameter ``name`` (not the target's setting)."""
    if top is None or not re.fullmatch(r"[A-Za-z_][\w$]*", top):
        return True
    last = top.split(".")[-1]
    if last == design.target.name:
        return True
    mod = design.modules.get(last)
    if mod is None:
        return False  # a toplevel the design does not define (a testbench's): it may be
    if any(p.name == name for p in mod.parameters):
        return False
    return None


def _literal(value: str) -> str:
    """``value`` as a Verilog literal ("" where it is none: a name, an expression)."""
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        v = v[1:-1].strip()
    if v in ("True", "False"):
        return "1" if v == "True" else "0"
    try:
        return str(int(v.replace("_", ""), 0))
    except ValueError:
        pass
    based = _BASED.fullmatch(v)
    if based:  # a sized or based literal (``32'h25``, ``6'd37``) by its value
        size, signed, base, digits = based.groups()
        number = int(digits.replace("_", ""), {"b": 2, "o": 8, "d": 10, "h": 16}[base.lower()])
        if size:
            number &= (1 << int(size)) - 1
            if signed and number >> (int(size) - 1):
                number -= 1 << int(size)
        return str(number)
    return v if _VERILOG_NUMBER.fullmatch(v) else ""


def _balanced(text: str, at: int) -> str:
    """The bracketed text that opens at ``at``."""
    depth = 0
    for i in range(at, min(len(text), at + 20000)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return text[at : i + 1]
    return text[at : at + 20000]


def _rel(design: Design, f: Path) -> str:
    try:
        return f.resolve().relative_to(Path(design.root).resolve()).as_posix()
    except ValueError:
        return f.name
