"""Inputs of the target fed x where a build sets a parameter of a top above it (round 77).

rtlopt's instance analysis (:func:`rtlopt.frontend._open_inputs.open_inputs`) elaborates
every top above the target at its parameter defaults. A build that sets one of a top's
parameters outside Verilog (``iverilog -Ptb.XSTIM=1``, ``verilator -GXSTIM=1``, a cocotb
runner's ``parameters``, a FuseSoC core's: every form :mod:`._foreign_params` reads, for the
parameters :func:`._param_tops.top_parameters` watches) may turn on a generate branch that
writes x (``if (XSTIM) begin initial s = 1'bx; end``), take another branch of a conditional
on it, or hand a value with x bits. So each such top is elaborated again under the settings
the repository's builds give its parameters
(:func:`rtlopt.frontend._open_inputs.open_inputs` from that top): each parameter set there unset or
set to each value a setting gives it, over every combination (at most
:data:`._param_tops.MAX_COMBINATIONS`); the inputs found fed there are fed.

Fail closed, every input fed x and z (a generate condition rtlopt cannot evaluate makes every
branch live): a setting whose value is no literal, a watched name in a form no setting reads
(:func:`._param_mentions.first_unread`, the reason :mod:`._foreign_params` gives), more
combinations, an elaboration that fails. Each setting is elaborated in rtlopt's reading and in
each simulator's whose macros a repository text tests (``SYNTHESIS`` undefined, ``__ICARUS__``
or ``VERILATOR`` defined: the tool a build runs predefines them).
"""

from __future__ import annotations

import logging
from typing import Any

from rtlopt.evaluate._tb_x import TbX
from rtlopt.frontend.model import Design

__all__ = ["other_parameters", "param_x_inputs"]

log = logging.getLogger(__name__)

_CACHE: dict[Any, tuple[object, TbX]] = {}
#: Per design: ``(top, values, where, found)`` of each elaboration that found inputs fed.
_FED: dict[int, tuple[object, list[tuple[str, tuple[tuple[str, str], ...], str, list[Any]]]]] = {}


def param_x_inputs(design: Design) -> TbX:
    """The inputs of the target fed x or z under the builds' settings of the parameters of
    the tops above it (see the module's docstring), once per design."""
    from rtlopt.evaluate._memo import per_design

    return per_design(_CACHE, design, lambda: _judged(design))


def _judged(design: Design) -> TbX:
    from rtlopt.evaluate._foreign_params import foreign_overrides, unread_reason
    from rtlopt.evaluate._param_tops import combinations, top_parameters

    inputs = tuple(p.name for p in design.target.ports if p.direction != "output")
    if not inputs or not any(top_parameters(design).values()):
        return TbX()
    overrides = foreign_overrides(design)
    got = _unreadable(design, overrides) or unread_reason(design) or combinations(overrides)
    if isinstance(got, str):
        log.info("%s: inputs fed x: %s", design.target.name, got)
        return TbX(inputs, True, f"{got}; feeding every input x")
    found: list[Any] = []
    first = ""
    if len(_FED) > 8:
        _FED.clear()
    _FED[id(design)] = (design, [])
    readings = [("", design), *_tool_readings(design)]
    for top, values, where in got:
        sets = tuple(f"{k}={v}" for k, v in values)
        for label, reading in readings:
            try:
                more = _open_under(reading, top, sets)
            except RuntimeError as exc:
                why = f"{where}: {top} does not elaborate with {', '.join(sets)}{label} ({exc})"
                return TbX(inputs, True, f"{why}; feeding every input x")
            if more and not first:
                first = f"{where}: {top} elaborated with {', '.join(sets)}{label}"
            if more:
                _FED[id(design)][1].append((top, values, where, more))
            found += more
    return _fed(design, found, first)


def _tool_readings(design: Design) -> list[tuple[str, Design]]:
    """The simulators' readings (:func:`._tb_x_configs.tool_readings`) whose macros a
    repository text tests: a build setting a parameter runs a tool, which predefines its
    macros (``iverilog -P`` reads ```ifdef __ICARUS__`` branches: round 79 cases 17, 18)."""
    from rtlopt.evaluate._repo_texts import repository_texts
    from rtlopt.evaluate._tb_x_configs import tool_readings
    from rtlopt.evaluate._tb_x_forms import lexed

    return tool_readings(design, [lexed(t) for _, t in repository_texts(design)])


def other_parameters(design: Design) -> str:
    """Why the change is unchecked because an instance :func:`param_x_inputs` found fed x
    has other parameters than the target's defaults (the x-faithfulness proof reads the
    target with its defaults), or "" (read by elaborating the same setting again,
    :func:`._foreign_params._passed_down`; one that cannot be read is unchecked)."""
    from rtlopt.evaluate._foreign_params import _passed_down
    from rtlopt.frontend._params import parameterizations

    param_x_inputs(design)
    hit = _FED.get(id(design))
    if (
        hit is None
        or hit[0] is not design
        or not any(not p.local for p in design.target.parameters)
    ):
        return ""
    default = next((p for p in parameterizations(design) if "defaults" in p.where), None)
    t = design.target.name
    for top, values, where, found in hit[1]:
        fed = {o.reaches.rpartition(".")[0] if o.reaches else o.instance for o in found}
        got = _passed_down(design, top, values)
        ours = {w: pz for pz in got or [] for w in pz.where if w in fed}
        for inst in sorted(fed):
            pz = ours.get(inst)
            if default is None or pz is None or pz.values != default.values:
                shown = pz.label() if pz is not None else "not read"
                return (
                    f"{where}: the repository feeds x into inputs of its instance {inst} of "
                    f"{t} (with {', '.join(f'{k}={v}' for k, v in values)} on {top}), which "
                    f"has other parameters ({shown}) than the module's defaults, and the proof "
                    "that the change reads x as the reference does reads the module with its "
                    "defaults only"
                )
    return ""


def _open_under(design: Design, top: str, sets: tuple[str, ...]) -> list[Any]:
    """The inputs the instance analysis finds fed with the repository elaborated from
    ``top`` alone, its parameters set to ``sets`` (raises RuntimeError where it cannot)."""
    from rtlopt.frontend._open_inputs import _judged

    return _judged(design, (top,), sets)


def _fed(design: Design, found: list[Any], first: str) -> TbX:
    from rtlopt.frontend._open_inputs import fed_ports

    ports, z = fed_ports(found)
    if not ports:
        return TbX()
    source = found[0].source(design.target.name, design.root)
    log.info("%s: inputs fed x under a build's parameters: %s", design.target.name, first)
    return TbX(ports, z, f"{first} (a build's setting outside Verilog): {source}", tuple(found))


def _unreadable(design: Design, overrides: list[Any]) -> str:
    """Why a setting of a parameter of a unit above the target cannot be read (a value that
    is no literal), or ""."""
    for ov in overrides:
        if ov.top and any(not v for _, v in ov.values):
            names = ", ".join(k for k, _ in ov.values)
            return (
                f"{ov.where}: {ov.form} sets parameter {names} of {ov.top} (above "
                f"{design.target.name}) to a value rtlopt cannot read as a literal, so which "
                "of its generate branches a build elaborates is not known: write the value "
                "as a literal there"
            )
    return ""
