"""A candidate defines the target and new helper modules only: any other module name the
repository defines (in any file, the target's own included, in any ```ifdef`` branch) is
refused, naming the module and the fix (held-out round 69: a candidate redefining the ``top``
of the target's own file, or a ``sub`` that another file instantiates only under ```ifdef
FEATURE_X``, was accepted and written back, changing modules no proof compared)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.harness import screen_candidate

TOP_AND_TGT = """\
module top(input [7:0] a, input [7:0] b, output [7:0] y);
  tgt u(.a(a), .b(b), .y(y));
endmodule

module tgt(input [7:0] a, input [7:0] b, output [7:0] y);
  assign y = ((a + b) - b) ^ 8'h0f;
endmodule
"""

# 3a: the target rewritten, plus the target file's `top` redefined
REDEFINES_TOP = """\
module tgt(input [7:0] a, input [7:0] b, output [7:0] y);
  assign y = a ^ 8'h0f;
endmodule

module top(input [7:0] a, input [7:0] b, output [7:0] y);
  wire [7:0] t;
  tgt u(.a(a), .b(b), .y(t));
  assign y = t ^ 8'h01;
endmodule
"""

SUB_AND_TGT = """\
module sub(input [7:0] a, output [7:0] y);
  assign y = a + 8'd1;
endmodule

module tgt(input [7:0] a, output y);
  wire [7:0] s;
  sub u(.a(a), .y(s));
  assign y = s[0];
endmodule
"""

OTHER_UNDER_IFDEF = """\
module other(input [7:0] a, output [7:0] y);
`ifdef FEATURE_X
  sub u2(.a(a), .y(y));
`else
  assign y = a;
`endif
endmodule
"""

# 3b: `sub` rewritten to agree with the original on bit 0 only
REDEFINES_SUB = """\
module tgt(input [7:0] a, output y);
  wire [7:0] s;
  sub u(.a(a), .y(s));
  assign y = s[0];
endmodule

module sub(input [7:0] a, output [7:0] y);
  assign y = {a[7:1] + 7'd2, ~a[0]};
endmodule
"""

ALREADY = "is already a module of the repository"


def _design(root: Path, files: dict[str, str], target: str) -> Design:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return load_design(root / "rtl" / "design.v", target, ProjectConfig(), root=root)


def _refused(problems: list[str], name: str, where: str) -> bool:
    return any(
        f"module {name} {ALREADY} ({where})" in p and "give the helper a new name" in p
        for p in problems
    )


def test_a_module_of_the_targets_own_file_is_refused(tmp_path: Path) -> None:
    d = _design(tmp_path, {"rtl/design.v": TOP_AND_TGT}, "tgt")
    problems = screen_candidate(REDEFINES_TOP, d)
    assert _refused(problems, "top", "rtl/design.v"), problems
    assert problems[0].startswith("line 5: "), problems
    # unchanged, too: read in the candidate's macro state, a copy need not be the same module
    copy = (
        REDEFINES_TOP[: REDEFINES_TOP.index("\n\n") + 2]
        + TOP_AND_TGT[: TOP_AND_TGT.index("\n\n") + 1]
    )
    assert _refused(screen_candidate(copy, d), "top", "rtl/design.v")


def test_a_shared_module_used_under_an_ifdef_elsewhere_is_refused(tmp_path: Path) -> None:
    files = {"rtl/design.v": SUB_AND_TGT, "rtl/other.v": OTHER_UNDER_IFDEF}
    d = _design(tmp_path, files, "tgt")
    problems = screen_candidate(REDEFINES_SUB, d)
    assert _refused(problems, "sub", "rtl/design.v"), problems


def test_a_module_defined_only_under_an_ifdef_is_refused(tmp_path: Path) -> None:
    """The design's parse never sees a module of an inactive branch: the repository's texts
    are read for every branch."""
    lib = "`ifdef FEATURE_X\nmodule sub2(input [7:0] a, output [7:0] y);\n  assign y = a;\nendmodule\n`endif\n"
    d = _design(tmp_path, {"rtl/design.v": SUB_AND_TGT, "rtl/lib.v": lib}, "tgt")
    assert "sub2" not in d.modules
    cand = REDEFINES_SUB.replace("sub u(", "sub2 u(").replace("module sub(", "module sub2(")
    assert _refused(screen_candidate(cand, d), "sub2", "rtl/lib.v")


def test_a_helper_of_a_new_name_is_the_candidates(tmp_path: Path) -> None:
    files = {"rtl/design.v": SUB_AND_TGT, "rtl/other.v": OTHER_UNDER_IFDEF}
    d = _design(tmp_path, files, "tgt")
    fresh = REDEFINES_SUB.replace("sub u(", "sub_lsb u(").replace("module sub(", "module sub_lsb(")
    assert screen_candidate(fresh, d) == []
    redefined = REDEFINES_TOP.replace("module top(", "module top_x(")
    d = _design(tmp_path / "b", {"rtl/design.v": TOP_AND_TGT}, "tgt")
    assert screen_candidate(redefined, d) == []


def test_check_judges_the_modules_of_the_whole_file_as_its_own(tmp_path: Path) -> None:
    """``rtlopt check``: the candidate is the target's whole new file, each of whose changed
    modules is judged on its own; it writes nothing back."""
    d = _design(tmp_path, {"rtl/design.v": TOP_AND_TGT}, "tgt")
    assert not any(ALREADY in p for p in screen_candidate(REDEFINES_TOP, d, whole_file=True))
    # a module of another file is not the change's
    files = {
        "rtl/design.v": SUB_AND_TGT.replace("module sub(", "module sub_old("),
        "rtl/s.v": SUB_AND_TGT[: SUB_AND_TGT.index("\n\n") + 1],
    }
    d = _design(tmp_path / "b", files, "tgt")
    assert _refused(screen_candidate(REDEFINES_SUB, d, whole_file=True), "sub", "rtl/s.v")


def test_an_escaped_name_is_the_plain_one(tmp_path: Path) -> None:
    """Round 70: ``\\sub `` is ``sub`` to iverilog and Yosys; the comparison by written name
    let a candidate redefine a library module that optimize then wrote back."""
    files = {"rtl/design.v": SUB_AND_TGT, "rtl/other.v": OTHER_UNDER_IFDEF}
    d = _design(tmp_path, files, "tgt")
    escaped = REDEFINES_SUB.replace("module sub(", "module \\sub (")
    assert _refused(screen_candidate(escaped, d), "sub", "rtl/design.v")
    target = (
        REDEFINES_SUB.replace("module tgt(", "module \\tgt (")
        .replace("module sub(", "module sub_new(")
        .replace("sub u(", "sub_new u(")
    )
    assert not any(ALREADY in p for p in screen_candidate(target, d))
