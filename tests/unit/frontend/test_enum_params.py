"""Enum parameters (``frontend/_enum_params.py``): an override writes the value cast to the
enum (``-G RV32M=2`` does not elaborate), a probe that leaves a parameter it sets unset is no
probe, and the members are an enum parameter's legal values."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design, parameterizations
from rtlopt.frontend._enum_params import typed_overrides
from rtlopt.frontend._params import enum_members, never_elaborated, probe
from rtlopt.frontend.model import Design
from tests.enum_design import PKG, TOP, leaf

LEAF = leaf(width_parameter=True)


def _design(tmp_path: Path) -> Design:
    (tmp_path / "mode_pkg.sv").write_text(PKG)
    (tmp_path / "leaf.sv").write_text(LEAF)
    (tmp_path / "top.sv").write_text(TOP)
    return load_design(tmp_path / "leaf.sv", "leaf", ProjectConfig())


def test_typed_overrides_cast_only_an_enums_integer_value() -> None:
    enums = {"MODE": ("mode_pkg::mode_e", ("0", "2", "3"))}
    assert typed_overrides(["MODE=3", "W=8", "MODE=ModeFast"], enums) == [
        "MODE=mode_pkg::mode_e'(3)",
        "W=8",
        "MODE=ModeFast",
    ]


def test_an_enum_parameter_is_probed_through_its_members(tmp_path: Path) -> None:
    d = _design(tmp_path)
    assert enum_members(LEAF, "leaf", d) == {"MODE": ("0", "2", "3")}
    settings = parameterizations(d)
    assert {p.label() for p in settings} == {"MODE=2, W=4", "MODE=3, W=4"}
    # each repository setting elaborates through its override: no block is left unbuilt
    assert never_elaborated(LEAF, "leaf", d, settings) == []
    pz = probe(LEAF, "leaf", d, settings[0], {"MODE": "0"})
    assert pz is not None and dict(pz.values)["MODE"] == "0"


def test_a_probe_that_leaves_its_parameter_unset_is_no_probe(tmp_path: Path) -> None:
    d = _design(tmp_path)
    settings = parameterizations(d)
    # a string is no value of the enum: slang leaves MODE unset (was a "probe" without MODE)
    assert probe(LEAF, "leaf", d, settings[0], {"MODE": '"fast"'}) is None


def test_the_unused_blocks_probes_of_an_enum_are_members(tmp_path: Path) -> None:
    from rtlopt.frontend._params import probe_parameterizations

    d = _design(tmp_path)
    defaults = parameterizations(d)[:1]  # g_slow is then unused
    # a guard MODE > ModeFast: 4 (tried first, no member) would elaborate it too
    above = LEAF.replace("MODE == ModeSlow", "MODE > ModeFast")
    found = probe_parameterizations(above, "leaf", d, defaults, 4)
    assert found and {dict(p.values)["MODE"] for p in found} <= {"0", "3"}, found
