"""Which Verilog texts reach the target is read per module body (``evaluate/_tb_x_bodies.py``):
a unit is an ancestor of the target only where its own body (its includes and macros
followed) instantiates one; a Verilog text whose x values only its units' instances carry is
judged through the bodies instantiating them, not as opaque text (picorv32_axi_adapter was
refused for picosoc's testbench and flash model, which never instantiate picorv32_axi)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _tb_x_bodies as tb
from rtlopt.evaluate import _tb_x_forms as tf
from rtlopt.evaluate._foreign_x import foreign_x_inputs
from rtlopt.evaluate._tb_x import tb_x_inputs
from rtlopt.frontend import load_design

#: The target beside a core in one file (picorv32.v: picorv32_axi_adapter beside picorv32).
LIB = (
    "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
    "module core(input c, output [3:0] q);\n  assign q = {4{c}};\nendmodule\n"
    "module wrap(input s, input [3:0] a, output [3:0] y);\n"
    "  mux u(.s(s), .a(a), .y(y));\nendmodule\n"
)
SOC = "module soc(input c, output [3:0] q);\n  core u_core(.c(c), .q(q));\nendmodule\n"
BENCH = "module testbench;\n  reg c;\n  wire [3:0] q;\n  {inst}\n  initial #5 $finish;\nendmodule\n"
FLASH = "module flash(inout io, input oe);\n  assign io = oe ? 1'b0 : 1'bz;\nendmodule\n"


def _design(tmp: Path, files: dict[str, str]) -> object:
    for name, text in {"lib.v": LIB, "soc.v": SOC, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return load_design(tmp / "lib.v", "mux", ProjectConfig(), root=tmp)


def test_a_testbench_of_a_module_beside_the_target_feeds_nothing(tmp_path: Path) -> None:
    """The testbench reaches ``core``, whose file holds the target, not the target."""
    files = {"sim/tb.vt": BENCH.format(inst="soc u_soc(.c(c), .q(q));")}
    assert tb_x_inputs(_design(tmp_path, files)).ports == ()


def test_a_testbench_whose_body_reaches_the_target_is_elaborated(tmp_path: Path) -> None:
    """Outside the build, it is its own build: ``c`` never written, ``q`` nothing drives."""
    files = {"sim/tb.vt": BENCH.format(inst="wrap u(.s(c), .a(q), .y());")}
    got = tb_x_inputs(_design(tmp_path, files))
    assert got.ports == ("s", "a") and got.source.startswith("sim/tb.vt as its own build:")


def test_bodies_of_one_name_are_judged_each_by_its_own_text(tmp_path: Path) -> None:
    """Two ``module testbench``: the one the build compiles instantiates the target's parent;
    the other one, outside the build, a flash model only."""
    files = {
        "tb_top.v": BENCH.format(inst="wrap u(.s(c), .a(q), .y());"),
        "sim/tb_flash.vt": BENCH.format(inst="flash f(.io(), .oe(c));"),
    }
    assert tb_x_inputs(_design(tmp_path, files)).ports == ()


def test_a_flash_model_no_build_body_instantiates_is_judged_by_its_instances(
    tmp_path: Path,
) -> None:
    """Its ``1'bz`` reaches nothing the build holds: no opaque reading (picosoc's spiflash.v)."""
    files = {"sim/flash.vt": FLASH, "sim/tb.vt": BENCH.format(inst="flash f(.io(), .oe(c));")}
    d = _design(tmp_path, files)
    assert foreign_x_inputs(d).ports == ()
    assert tb_x_inputs(d).ports == ()


def test_a_flash_model_is_read_as_text_where_it_may_reach_the_target(tmp_path: Path) -> None:
    """Fail closed: an x outside a unit's body (a macro's definition), a unit a compiled body
    names, units whose keywords do not pair up, a unit a ``bind`` puts into a module keep the
    opaque reading (every input)."""
    cases = [
        ("`define FLOAT 1'bz\n" + FLASH.replace("1'bz", "`FLOAT"), {}),
        (FLASH, {"soc.v": SOC.replace("endmodule", "  flash f(.io(), .oe(c));\nendmodule")}),
        ("typedef class h;\n" + FLASH, {}),
        (FLASH, {"sim/bind.sv": "bind core flash f_in_core(.io(), .oe(c));\n"}),
    ]
    for i, (flash, extra) in enumerate(cases):
        root = tmp_path / str(i)
        root.mkdir()
        d = _design(root, {"sim/flash.vt": flash, **extra})
        assert foreign_x_inputs(d).ports == ("s", "a"), flash


def _bodies(texts: dict[str, str]) -> tuple[dict[Path, list[tb.Body]], dict[Path, str]]:
    every = {Path(n): tf.lexed(t) for n, t in texts.items()}
    codes = {p: c for p, c in every.items() if tf.units(c)}
    return tb.all_bodies(codes, every, {Path(n): t for n, t in texts.items()}), every


def test_ancestors_follow_bodies_macros_includes_and_binds() -> None:
    per_file, every = _bodies(
        {
            "lib.v": LIB,
            "soc.v": SOC,
            "inc.vh": "  wrap u(.s(1'b0), .a(4'd0), .y());\n",
            "top.v": 'module top;\n`include "inc.vh"\nendmodule\n',
            "defs.vh": "`define DUT wrap\n",
            "mtop.v": "module mtop;\n  `DUT u();\nendmodule\n",
            "binder.sv": "bind soc spy u_spy();\nmodule spy;\n  mux m();\nendmodule\n",
        }
    )
    got = tb.ancestors(per_file, every, "mux")
    assert {"mux", "wrap", "top", "`DUT", "mtop", "spy", "soc"} <= got
    assert "core" not in got


def test_the_targets_hierarchy_reaches_siblings_only_through_bodies() -> None:
    per_file, every = _bodies({"lib.v": LIB, "soc.v": SOC})
    held = tb.hierarchy(per_file, every, tb.ancestors(per_file, every, "mux"))
    assert {"mux", "wrap"} <= held and not {"core", "soc"} & held
    outside = tb.outside(per_file, held)
    assert len(outside[Path("lib.v")]) == 1 and Path("soc.v") in outside
