"""The target's parameter values set outside Verilog: configurations the repository uses.

A simulator's command line or a test runner sets a parameter of the toplevel it builds: a
Makefile running ``iverilog -Ptgt.W=37``, ``verilator -GW=37``, ``vcs -pvalue+tgt.W=37``,
``xrun -defparam tgt.W=37``, Questa's ``vsim -G/tgt/W=37``, a yosys ``chparam -set W 37``,
Vivado's ``set_property generic {DEPTH=4 W=37}`` (every entry of the list); a cocotb or pyuvm
runner's ``parameters={"W": 37}`` (``cocotb_test.simulator.run``, ``runner.build``), its
``parameters["W"] = 37``, ``dict(W=37)`` or ``.update(...)``. The target's verdict must hold
there too: :func:`foreign_overrides` finds them in every other text file of the repository
(``+define+`` sets a macro, no parameter). An override counts where it names a non-local
parameter of the target and its toplevel is the target, is not named (``-GW=37``, a runner
without ``toplevel``), or is not a module of the design that declares no parameter of that
name (another module's own ``W`` is not the target's). A top above the target that hands its
own parameter to the target's instance (``iverilog -Ptb.TW=37`` with ``inv #(.W(TW))``) is
elaborated with that value, and the target's values below it are the configuration. A value
that is no literal, or not all of one (a variable, a make variable, a computed string,
``32 + 5``), cannot be known: the change is unchecked.

The list of forms is never complete, so the rule fails closed (:mod:`._param_mentions`):
in every text file of the repository but documentation and the Verilog the frontend reads,
each whole-word occurrence of such a name (comments included) is consumed by a setting read
here, or is clearly no setting (an attribute read ``dut.W.value``, a macro's name); any other
(a helper's dictionary, a YAML or TOML table, ``["-G" "W=37"]``) leaves the change unchecked,
naming the file, the line and the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rtlopt.evaluate._param_lists import (
    ListSetting,
    computed_name,
    instance_lists,
    owners,
    package_copies,
    unelaborated,
)
from rtlopt.evaluate._param_mentions import (
    first_unread,
    name_owners,
    prose,
    watched_names,
    word_pattern,
)
from rtlopt.frontend._params import Elaborations, Parameterization
from rtlopt.frontend.model import Design

__all__ = ["Override", "foreign_overrides", "foreign_parameterizations", "unread_reason"]


@dataclass(frozen=True)
class Override:
    """One parameter setting found outside Verilog.

    Attributes:
        where: ``file:line`` (relative to the repository).
        form: The text that sets it (``-Ptgt.W=37``, ``parameters={"W": 37}``).
        values: ``(name, value)``: values as Verilog literals ("" where not a literal).
        exact: Whether its toplevel is surely the target (named so, or not named).
        top: The top above the target whose own parameter it sets (passed down to the
            target: ``iverilog -Ptb.TW=37`` with ``inv #(.W(TW))``), or "" (the target's).
    """

    where: str
    form: str
    values: tuple[tuple[str, str], ...]
    exact: bool
    top: str = ""


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
    # a ``hierarchy -top X`` before it on its line names the module it sets (held-out trial
    # 43: ``hierarchy -top axi3reorder -chparam DW 8`` is no setting of another DW)
    re.compile(
        rf"(?:\bhierarchy\b[^\n]*?-top\s+(?P<top>[A-Za-z_][\w$]*)[^\n]*?)?"
        rf"(?<![\w-])-chparam\s+(?P<name>[A-Za-z_][\w$]*)\s+(?P<v>{_ARG})"
    ),
    re.compile(
        rf"(?:-generic(?:_top)?|\bgeneric)\s*[\"'{{]?\s*(?P<name>[A-Za-z_][\w$]*)\s*=\s*"
        rf"(?P<v>{_ARG})"
    ),
    # round 72: Questa's path form ``vsim -G/inv/W=37`` (the path as the top, dotted)
    re.compile(
        rf"(?<![\w-])-[gG]\s*/(?P<top>[\w$/]*?)/?(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})"
    ),
    re.compile(rf"\bset_parameter\s+-name\s+(?P<name>[A-Za-z_][\w$]*)\s+(?P<v>{_ARG})"),
    re.compile(rf"\bparameters\s*:\s*\[[^\]\n]*?\b(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})"),
)
_COMMAND_SET = frozenset(_COMMAND_LINES)
#: A list of generics read whole: Vivado's ``generic {DEPTH=4 W=37}``, ``-generic_top "A=1 B=2"``.
_GENERIC_LIST = re.compile(
    r"(?:-generic(?:_top)?|\bgeneric)\s*(?:\{([^}\n]*)\}|\"([^\"\n]*)\"|'([^'\n]*)')"
)
_LIST_ENTRY = re.compile(rf"(?<![\w$.])(?P<name>[A-Za-z_][\w$]*)\s*=\s*(?P<v>{_ARG})")
#: An expression's text after the part of it a setting's value read.
_REST = re.compile(r"[^,)\]}\n]*")
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


_SCANS: dict[int, tuple[object, list[Override], str]] = {}


def foreign_overrides(design: Design) -> list[Override]:
    """Every setting of a parameter of the target outside Verilog (see the module's
    docstring), in file order."""
    return _scan(design)[1]


def unread_reason(design: Design) -> str:
    """Why a setting of a watched name cannot be read (a form no setting reads, a computed
    name; :func:`._param_mentions.first_unread`), or ""."""
    return _scan(design)[2]


def _scan(design: Design) -> tuple[object, list[Override], str]:
    """The overrides, and why the change is unchecked for the first occurrence of a watched
    name that no recognised setting reads (:func:`first_unread`), or "". Once per design."""
    from rtlopt.evaluate._repo_texts import other_texts

    hit = _SCANS.get(id(design))
    if hit is not None and hit[0] is design:
        return hit
    watched = watched_names(design)
    owners = name_owners(design)
    out: list[Override] = []
    why = ""
    if word_pattern(design) is not None:
        why = _elaborated_lists(design, out)
    for path, text in other_texts(design)[0] if word_pattern(design) is not None else []:
        rel = _rel(design, path)
        consumed: set[int] = set()
        low = text.lower()
        at, shown = computed_name(design, path, text) if not why else (-1, "")
        computed = _computed(rel, text, at, shown, design) if at >= 0 else ""
        for ls in _lists(design, path, text, low, elaborated=False):
            line = text.count("\n", 0, ls.at) + 1
            out.append(Override(f"{rel}:{line}", ls.form, ls.values, ls.exact, ls.top))
            if all(v for _, v in ls.values):  # the names it reads are settings, consumed
                rx = word_pattern(design)
                consumed |= {m.start() for m in rx.finditer(text, ls.at, ls.end)} if rx else set()
        if not any(n.lower() in low for n in watched):
            why = why or computed
            continue
        for m, top, name, value in _settings(path, text):
            at, end = _spans(m)
            if name not in watched or at in consumed:
                continue
            consumed.add(at)
            if m.re is _CORE_DEFAULT and _core_macro(design, text, m.start(), name):
                continue  # a FuseSoC ``vlogdefine`` sets a macro no text reads: no parameter
            command = m.re in _COMMAND_SET or m.re is _LIST_ENTRY
            whole = _complete(text, end, command, path.suffix == ".py")
            line = text.count("\n", 0, m.start()) + 1
            rest = None if whole else _REST.match(text, end)
            more = rest.group(0) if rest else ""
            form = " ".join((m.group(0) + more).split())[:80]
            literal = _literal(value) if whole else ""
            took = 0
            for owner in owners[name]:  # a top's, a unit's between: each it may set
                exact = _exact(design, top, name) if not owner else _passes(top, owner)
                if exact is not None:
                    out.append(Override(f"{rel}:{line}", form, ((name, literal),), exact, owner))
                    took += 1
            if not took and top is not None and "." in top:
                why = why or _below_top(design, f"{rel}:{line}", m.group(0), name, owners[name])
        why = why or first_unread(design, rel, path, text, consumed) or computed
    if word_pattern(design) is not None and not why:
        from rtlopt.evaluate._repo_texts import opaque_reason

        owner = design.target.name
        why = opaque_reason(design, None, f"set parameters of {owner} or a module above it")
    if len(_SCANS) > 8:
        _SCANS.clear()
    _SCANS[id(design)] = (design, out, why)
    return _SCANS[id(design)]


def _lists(
    design: Design, path: Path, text: str, low: str, *, elaborated: bool
) -> list[ListSetting]:
    """The parameter value lists of instances of the target (or of a module above it) and
    of ``config`` blocks in ``text`` (:func:`._param_lists.instance_lists`)."""
    if prose(design, path):
        return []  # documentation: no build reads a setting from it
    tops = sorted({o for os in name_owners(design).values() for o in os if o})
    if "endconfig" not in low and not any(o.lower() in low for o in owners(design, tops)):
        return []
    return instance_lists(design, path, text, tops, elaborated=elaborated)


def _elaborated_lists(design: Design, out: list[Override]) -> str:
    """Adds to ``out`` the lists in the texts slang elaborates that it does not read whole
    (a ``config`` block's, one holding a macro no text defines or a command line may set);
    why a package the target depends on has two definitions (:func:`package_copies`)."""
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    own = repository_texts(design)
    others = other_texts(design)[0]
    for path, text in own:
        for ls in _lists(design, path, text, text.lower(), elaborated=True):
            body = text[ls.at : ls.end]
            if ls.exact and all(_macro_fixed(m, own, others) for m in _MACROS.findall(body)):
                continue  # slang reads the macro as the repository defines it
            line = text.count("\n", 0, ls.at) + 1
            values = tuple((n, "") for n, _ in ls.values) if ls.exact else ls.values
            out.append(Override(f"{_rel(design, path)}:{line}", ls.form, values, ls.exact, ls.top))
    return unelaborated(design, own) or package_copies(design, [*own, *others])


_MACROS = re.compile(r"`([A-Za-z_][\w$]*)")


def _macro_fixed(name: str, own: list[tuple[Path, str]], others: list[tuple[Path, str]]) -> bool:
    """Whether macro ``name`` is defined by a Verilog text slang reads and no other text
    may define it on a command line (``-DNAME``, ``+define+NAME``)."""
    q = re.escape(name)
    if not any(re.search(rf"`define\s+{q}\b", t) for _, t in own):
        return False
    cmd = re.compile(rf"(?:(?<![\w-])-D\s*|\+define\+(?:[^\s+]*\+)*){q}(?![\w$])")
    return not any(cmd.search(t) for _, t in others)


def _core_macro(design: Design, text: str, at: int, name: str) -> bool:
    """Whether the FuseSoC parameter entry at ``at`` of a ``.core`` ``text`` is typed
    ``paramtype: vlogdefine`` (it defines the macro ```name``, no parameter) and no text of
    the repository uses that macro (a ``parameter RV32M = `RV32M`` would carry its value
    into one: then it stays a setting)."""
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    start = text.rfind("\n", 0, at) + 1
    indent = len(text[start:at]) - len(text[start:at].lstrip())
    lines = text[start:].split("\n")
    block = [lines[0]]
    for ln in lines[1:]:
        if ln.strip() and len(ln) - len(ln.lstrip()) <= indent:
            break
        block.append(ln)
    if not re.search(r"\bparamtype\s*:\s*[\"']?vlogdefine\b", "\n".join(block)):
        return False
    use = re.compile(rf"`{re.escape(name)}(?![\w$])")
    texts = [*repository_texts(design), *other_texts(design)[0]]
    return not any(use.search(t) for _, t in texts)


def _below_top(design: Design, where: str, form: str, name: str, owners: tuple[str, ...]) -> str:
    """The reason for a setting of ``name`` (a parameter of ``owners``, units above the
    target) through a hierarchical path (``-defparam tb.u_wrap.MODE=1``, ``-G/tb/u/MODE=1``)."""
    owner = " or ".join(o or design.target.name for o in owners)
    return (
        f"{where} sets parameter {name} of {owner} or of an instance below a top "
        f"({' '.join(form.split())[:80]}), a path rtlopt does not elaborate, so the "
        f"configuration of {design.target.name} it selects is not checked: set it on the "
        "top (-Ptop.NAME=value) or in Verilog, or take it out if no build uses it"
    )


def _computed(rel: str, text: str, at: int, shown: str, design: Design) -> str:
    """The reason for a setting form whose parameter name is computed at ``at``."""
    line = text.count("\n", 0, at) + 1
    return (
        f"{rel}:{line} sets parameters of a toplevel with names computed at run time "
        f"({shown}), so a configuration of {design.target.name} it may set is not checked: "
        f'name each parameter as a literal there (parameters={{"W": 37}}, -GW=37), or take '
        "the file out of the repository if no build or test uses it"
    )


def foreign_parameterizations(
    design: Design, ref: str, settings: list[Parameterization], elab: Elaborations
) -> tuple[list[Parameterization], str]:
    """The parameterizations of the target the overrides outside Verilog set beyond
    ``settings`` (the first: the defaults; the others follow by their defaults, as a probe's),
    each used by the repository (its ``where`` names the file, the line, the form and the
    parameter: a dotted name, as an instance's), and why the first that cannot be checked is
    not (a value that is no literal, a value the reference does not elaborate with), or
    why a watched name in a form no setting reads leaves the change unchecked, or ""."""
    from rtlopt.frontend._params import probe

    t = design.target
    out: list[Parameterization] = []
    for ov in foreign_overrides(design):
        names = ", ".join(f"{k}={v or '?'}" for k, v in ov.values)
        owner = ov.top or t.name
        if any(not v for _, v in ov.values):
            return out, (
                f"{ov.where} sets parameter {names} of {owner} ({ov.form}) to a value rtlopt "
                "cannot read as a literal, and the proof covers only the configurations it "
                f"can build: write the value as a literal there, or take the setting out if it "
                f"does not build {t.name}"
            )
        if ov.top:
            why = _handed_down(design, ov, settings, out)
            if why:
                return out, why
            continue
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
    return out, _combined(design, settings, out) or _scan(design)[2]


def _combined(design: Design, settings: list[Parameterization], out: list[Parameterization]) -> str:
    """Adds to ``out`` the target's parameterizations several settings of a top's parameters
    hand down together (one build may set them all: ``-Ptb.A=1 -Ptb.B=1``), or says why
    they are not checked (:func:`._param_tops.combinations`)."""
    from rtlopt.evaluate._param_tops import combinations

    got = combinations(foreign_overrides(design), least=2)
    if isinstance(got, str):
        return f"{got}, so the configurations of {design.target.name} they select are not checked"
    for top, values, where in got:
        form = " ".join(f"{top}.{k}={v}" for k, v in values)
        why = _handed_down(design, Override(where, form, values, False, top), settings, out)
        if why:
            return why
    return ""


def _handed_down(
    design: Design, ov: Override, settings: list[Parameterization], out: list[Parameterization]
) -> str:
    """Adds to ``out`` the target's parameterizations a setting of a top's own parameter
    (``ov.top``) hands down, or says why that configuration is not checked."""
    t = design.target
    names = ", ".join(f"{k}={v}" for k, v in ov.values)
    got = _passed_down(design, ov.top, ov.values)
    if got is None:
        return (
            f"{ov.where} builds {ov.top} with {names} outside Verilog ({ov.form}), and the "
            f"reference does not elaborate {t.name} below it with that value, so that "
            f"configuration is not checked: correct the setting, or take it out if it does not "
            f"build {t.name}"
        )
    for pz in got:
        if pz not in settings and pz not in out:
            where = f"{ov.where}: {ov.form}, setting {ov.top}.{names}, at {pz.where[0]}"
            out.append(Parameterization(pz.values, (where,)))
    return ""


def _passed_down(
    design: Design, top: str, values: tuple[tuple[str, str], ...]
) -> list[Parameterization] | None:
    """The parameterizations of the target below ``top`` elaborated with ``values`` set on
    ``top`` (a testbench's parameter it hands to the target's instance), each with its
    instance's name; none where the elaboration holds no instance of the target (a generate
    branch the values turn off, another core chosen: picosoc's icebreaker builds
    pcpi_fast_mul, not pcpi_mul), None where slang cannot elaborate it."""
    from rtlopt.frontend._params import _compile, _instances, _values

    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    sets = [f"{k}={v}" for k, v in values]
    try:
        comp = _compile(files, {}, design, tops=[top], overrides=sets)
        root = comp.getRoot()
        found = [
            (where, _values(inst))
            for first in root.topInstances
            for where, inst in _instances(first, "")
            if inst.body.definition.name == design.target.name
        ]
        unknown = {
            str(d.args[0]) for d in comp.getAllDiagnostics() if "UnknownModule" in str(d.code)
        }
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: nothing known
        return None
    if not found and (
        top not in {i.body.definition.name for i in root.topInstances}
        or _defined_elsewhere(design, unknown)
    ):
        return None  # a part of the hierarchy below the top not read: it may hold the target
    if any(pz is None for _, pz in found):
        return None
    return [Parameterization(pz.values, (w,)) for w, pz in found if pz is not None]


def _defined_elsewhere(design: Design, names: set[str]) -> bool:
    """Whether a text of the repository defines one of the modules ``names`` (instantiated
    below a top but outside the files the elaboration reads)."""
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    if not names:
        return False
    unit = re.compile(
        r"\b(?:module|macromodule|interface|program)\s+(?:automatic\s+|static\s+)?("
        + "|".join(re.escape(n) for n in sorted(names))
        + r")\b"
    )
    return any(unit.search(t) for _, t in [*repository_texts(design), *other_texts(design)[0]])


def _spans(m: re.Match[str]) -> tuple[int, int]:
    """Where a setting's name starts and its value ends."""
    if "name" in m.re.groupindex:
        return m.start("name"), m.end("v")
    return m.start(1), m.end(2)


def _complete(text: str, end: int, command: bool, python: bool) -> bool:
    """Whether the value that ends at ``end`` is all of it: on a command line the argument
    ends there (in Python, unless the string that holds it goes on: ``"-GW=" "7"``,
    ``"-GW=3" + "7"``); in a dictionary, a keyword or a YAML entry the next is a separator
    (``{"W": 32 + 5}`` is an expression, no literal)."""
    rest = text[end : end + 80]
    if command:
        if not python or rest[:1] not in ("'", '"'):
            return True
        return rest[1:].lstrip(" \t")[:1] not in ("+", '"', "'", "%", ".", "*", "\\")
    return rest.lstrip(" \t")[:1] in ("", "\n", "\r", ",", ")", "]", "}", ";", "#")


def _passes(top: str | None, owner: str) -> bool | None:
    """True where a setting of a parameter of ``owner`` (a top above the target) names that
    top or none, None where it names another."""
    return True if top is None or top.split(".")[-1] == owner else None


def _settings(path: Path, text: str) -> list[tuple[re.Match[str], str | None, str, str]]:
    """``(match, top, name, value)`` of every setting in ``text``: command lines anywhere,
    a runner's parameter dictionaries in Python (its ``toplevel`` as the top)."""
    out: list[tuple[re.Match[str], str | None, str, str]] = []
    for rx in _COMMAND_LINES:
        for m in rx.finditer(text):
            top = (m.groupdict().get("top") or "").replace("/", ".").strip(".") or None
            out.append((m, top, m.group("name"), m.group("v")))
    for g in _GENERIC_LIST.finditer(text):  # every entry of the list, not the first only
        k = next(i for i in (1, 2, 3) if g.group(i) is not None)
        for e in _LIST_ENTRY.finditer(text, g.start(k), g.end(k)):
            out.append((e, None, e.group("name"), e.group("v")))
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
