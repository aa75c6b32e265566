"""Compared constants from the elaborated design and the biased stimulus class (pyslang, no tools)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from rtlopt.config import ConfigError, HarnessConfig, ProjectConfig, load_config
from rtlopt.frontend import FieldConstant, compare_constants, load_design
from rtlopt.frontend.model import Design
from rtlopt.harness import VECTOR_FILE, build_testbench

DATA = Path(__file__).resolve().parents[2] / "data" / "stimulus"


def _copro(tmp_path: Path) -> Design:
    shutil.copy(DATA / "copro.v", tmp_path / "copro.v")
    return load_design(tmp_path / "copro.v", "copro", ProjectConfig())


def _const(bits: str, port: str, lsb: int) -> FieldConstant:
    """A constant written MSB first with ``?`` for don't-care bits."""
    w = len(bits)
    value = sum(1 << (w - 1 - i) for i, c in enumerate(bits) if c == "1")
    care = sum(1 << (w - 1 - i) for i, c in enumerate(bits) if c != "?")
    return FieldConstant(port, lsb, w, value, care)


def test_constants_through_slices_wires_concatenations_and_submodule_ports(
    tmp_path: Path,
) -> None:
    found = set(compare_constants(_copro(tmp_path)))
    # opcode through `wire [6:0] opcode = insn[6:0]`
    assert _const("0001011", "insn", 0) in found
    # funct7 through `assign funct = {insn[31:25], insn[14:12]}` and funct[9:3]
    assert _const("0100000", "insn", 25) in found
    # funct3 through the port of the instantiated decoder
    assert _const("101", "insn", 12) in found
    # `valid` enables the compare in `valid && opcode == ...`: the value that lets it fire
    assert _const("1", "valid", 0) in found
    # internal state and counters are not inputs: nothing for `state`, `cnt`
    assert {c.port for c in found} == {"insn", "valid"}
    assert len(found) == 4


def test_case_items_casez_masks_and_bit_order(tmp_path: Path) -> None:
    f = tmp_path / "dec.v"
    f.write_text(
        "module dec(input [15:0] i, input [0:7] r, input [3:0] k, output reg y);\n"
        "  localparam [3:0] K = 4'b0110;\n"
        "  always @* begin\n"
        "    y = 1'b0;\n"
        "    casez (i[11:8]) 4'b1?0?: y = 1'b1; 4'b0011: y = 1'b0; endcase\n"
        "    casex (k) 4'b1x0x: y = 1'b1; endcase\n"
        "    if (r[0:1] == 2'b10) y = 1'b1;\n"
        "    if (i[4 +: 2] !== 2'b11) y = ~y;\n"
        "    if (k ==? 4'b01zz) y = 1'b0;\n"
        "    case (1'b1) i[15]: y = 1'b0; endcase\n"
        "    if (k == K) y = 1'b1;\n"
        "    if (i[0] == 1'b0 && r[7]) y = 1'b0;\n"
        "  end\n"
        "endmodule\n"
    )
    d = load_design(f, "dec", ProjectConfig())
    found = set(compare_constants(d))
    assert found == {
        _const("1?0", "i", 9),  # casez: ? bits are don't-care (bit 8 drops out entirely)
        _const("0011", "i", 8),
        _const("1?0", "k", 1),  # casex
        _const("10", "r", 6),  # r[0:1]: index 0 is the MSB (bit position 7)
        _const("11", "i", 4),
        _const("01", "k", 2),  # ==? with z bits
        _const("1", "i", 15),  # case (1'b1): the item is the compared side
        _const("0110", "k", 0),  # a parameter
        _const("0", "i", 0),  # a one-bit test: both values, so neither branch starves
        _const("1", "i", 0),
        _const("1", "r", 0),  # r[7] enables a compare in the same conjunction
    }


def test_unelaboratable_design_gives_no_constants(tmp_path: Path) -> None:
    d = _copro(tmp_path)
    broken = dataclasses.replace(d, closure=(tmp_path / "missing.v",))
    assert compare_constants(broken) == ()


def _vectors(tb: object) -> list[int]:
    return [int(v, 16) for v in tb.extra_files[VECTOR_FILE].split()]  # type: ignore[attr-defined]


def test_biased_class_drives_the_constants_and_holds_them(tmp_path: Path) -> None:
    d = _copro(tmp_path)
    tb = build_testbench(d, HarnessConfig(seed=3), "s1")
    assert tb.classes["biased"] == HarnessConfig().bias_vectors
    assert {(c.port, c.to_dict()["slice"]) for c in tb.constants} == {
        ("insn", "[6:0]"),
        ("insn", "[31:25]"),
        ("insn", "[14:12]"),
        ("valid", "[0:0]"),
    }
    rec = tb.stimulus_record()
    assert rec["seed"] == 3 and rec["constants"]
    insn = next(f for f in tb.fields if f.name == "insn")
    valid = next(f for f in tb.fields if f.name == "valid")
    vecs = _vectors(tb)
    start = tb.total - tb.classes["biased"]

    def hit(v: int) -> bool:
        i = (v >> insn.offset) & insn.mask
        return (v >> valid.offset) & 1 == 1 and i & 0x7F == 0b0001011 and i >> 25 == 0b0100000

    # the opcode that starts the FSM, held long enough to finish it (7+ cycles)
    runs, run = 0, 0
    for v in vecs[start:]:
        run = run + 1 if hit(v) else 0
        runs += run == 8
    assert runs >= 5
    # never in the plain classes (2^-14 per cycle)
    assert not any(hit(v) for v in vecs[:start])


def test_testbench_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    d = _copro(tmp_path)
    cfg = HarnessConfig(seed=11)
    a, b = build_testbench(d, cfg, "s1"), build_testbench(d, cfg, "s2")
    assert a.digest == b.digest and a.extra_files == b.extra_files
    assert a.constants == b.constants
    other = build_testbench(d, HarnessConfig(seed=12), "s1")
    assert other.digest != a.digest
    # the biased class comes last and draws from its own stream: the other classes do not
    # change when it is turned off
    plain = build_testbench(d, dataclasses.replace(cfg, bias_constants=False), "s1")
    assert "biased" not in plain.classes and plain.constants == ()
    assert _vectors(a)[: plain.total] == _vectors(plain)


def test_bias_keys_are_checked(tmp_path: Path) -> None:
    (tmp_path / "rtlopt.toml").write_text("[harness]\nbias_probability = 1.5\n")
    with pytest.raises(ConfigError, match="bias_probability"):
        load_config(tmp_path, env={})
    (tmp_path / "rtlopt.toml").write_text("[harness]\nbias_vectors = 500\nbias_hold_max = 64\n")
    cfg = load_config(tmp_path, env={}).config
    assert cfg.harness.bias_vectors == 500 and cfg.harness.bias_hold_max == 64


def test_constants_from_a_package_in_another_file(tmp_path: Path) -> None:
    (tmp_path / "pkg.sv").write_text(
        "package op_pkg;\n  localparam logic [6:0] OP_MUL = 7'b0110011;\nendpackage\n"
    )
    (tmp_path / "dec.sv").write_text(
        "module dec import op_pkg::*; (input logic [31:0] insn, output logic y);\n"
        "  assign y = insn[6:0] == OP_MUL;\n"
        "endmodule\n"
    )
    d = load_design(tmp_path / "dec.sv", "dec", ProjectConfig())
    assert compare_constants(d) == (_const("0110011", "insn", 0),)
