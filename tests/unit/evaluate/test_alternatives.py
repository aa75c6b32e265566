"""Other builds of a design (evaluate/_alternatives.py): which repository files define a
submodule otherwise, the builds they make, and the design one such build reads."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._alternatives import (
    alternative_files,
    other_builds,
    substituted_design,
    substitution_label,
    substitutions,
    unreadable,
)
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design

COMB = "module sub (input clk, input [3:0] d, output [3:0] q);\n  assign q = d;\nendmodule\n"
FF = (
    "module sub (input clk, input [3:0] d, output reg [3:0] q);\n"
    "  always @(posedge clk) q <= d;\nendmodule\n"
)
TOP = (
    "module tgt (input clk, input [3:0] a, output [3:0] y);\n"
    "  sub s (.clk(clk), .d(a), .q(y));\nendmodule\n"
)


def _design(tmp_path: Path, files: dict[str, str]) -> Design:
    for rel, text in {"rtl/top.v": TOP, **files}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "a.f").write_text("rtl/sub.v\nrtl/top.v\n")
    project = ProjectConfig(filelists=("a.f",))
    return load_design(tmp_path / "rtl/top.v", "tgt", project, root=tmp_path)


def test_another_file_defining_a_submodule_otherwise_is_another_build(tmp_path: Path) -> None:
    d = _design(
        tmp_path,
        {"rtl/sub.v": COMB, "rtl/ff/sub.v": FF, "rtl/copy/sub.v": "// same\n" + COMB},
    )
    sub_file = d.modules["sub"].file.resolve()
    # a copy that differs in comments only is the same definition
    assert alternative_files(d, [sub_file]) == {sub_file: ((tmp_path / "rtl/ff/sub.v").resolve(),)}
    builds = other_builds(d, [sub_file])
    assert builds.why == "" and len(builds.builds) == 1
    assert substitution_label(d, builds.builds[0]) == "with sub from rtl/ff/sub.v"


def test_every_choice_of_files_is_a_build() -> None:
    a, b, a2, b2, b3 = (Path(n) for n in ("a.v", "b.v", "a2.v", "b2.v", "b3.v"))
    builds = substitutions({a: (a2,), b: (b2, b3)})
    assert len(builds) == 2 * 3 - 1
    assert ((a, a2), (b, b3)) in builds and () not in builds


def test_the_other_build_reads_the_other_file_in_place_with_its_clock(tmp_path: Path) -> None:
    d = _design(tmp_path, {"rtl/sub.v": COMB, "rtl/ff/sub.v": FF})
    assert d.target.clocks == ()  # this build's submodule holds no register
    ff = (tmp_path / "rtl/ff/sub.v").resolve()
    other = substituted_design(d, ((d.modules["sub"].file.resolve(), ff),))
    assert [f.name for f in other.closure] == ["sub.v", "top.v"]
    assert other.closure[0].resolve() == ff and other.modules["sub"].file.resolve() == ff
    assert other.target.clocks == ("clk",)  # the flip-flop file's build is clocked


def test_an_other_file_that_also_defines_a_module_read_elsewhere_is_no_build(
    tmp_path: Path,
) -> None:
    helper = "module helper (input x, output y);\n  assign y = x;\nendmodule\n"
    top = TOP.replace("endmodule", "  wire h;\n  helper u (.x(clk), .y(h));\nendmodule")
    d = _design(
        tmp_path,
        {"rtl/top.v": top, "rtl/sub.v": COMB, "rtl/helper.v": helper, "rtl/ff/sub.v": FF + helper},
    )
    (tmp_path / "a.f").write_text("rtl/helper.v\nrtl/sub.v\nrtl/top.v\n")
    ff = (tmp_path / "rtl/ff/sub.v").resolve()
    why = unreadable(d, ((d.modules["sub"].file.resolve(), ff),))
    assert why == "rtl/ff/sub.v also defines helper, which this build reads from another file"
    assert other_builds(d, [d.modules["sub"].file]).why == why


def test_builds_and_configurations_count_against_one_limit(tmp_path: Path) -> None:
    from rtlopt.config import Config
    from rtlopt.evaluate._config_check import MAX_PROOFS, ConfigurationCheck
    from rtlopt.formal.budget import Deadline

    d = _design(tmp_path, {"rtl/sub.v": COMB, "rtl/ff/sub.v": FF})
    build = ((d.modules["sub"].file.resolve(), (tmp_path / "rtl/ff/sub.v").resolve()),)

    def factory(*_: object) -> object:
        raise AssertionError("nothing is evaluated past the limit")

    check = ConfigurationCheck(d, Config(), tmp_path / "w", factory)  # type: ignore[arg-type]
    # one build in this configuration and in each of two others, plus those two: 5 > 4
    configs = [frozenset({"A"}), frozenset({"B"})]
    out = check.check("", ["A", "B"], configs, Deadline.after(60), [build])
    assert out is not None and MAX_PROOFS == 4
    assert out[1].startswith("unchecked: the change reads differently in 5 other configurations")
    assert "with sub from rtl/ff/sub.v" in out[1]
