"""Red team of wave 11 (issue 30): non-equivalent changes ``rtlopt evaluate`` or ``rtlopt check``
accepts today. Each test asserts the rejection the change deserves, so each FAILS until its
class is closed; the controls (a plainly equivalent change) must keep passing. Small
repositories in temporary folders, the real CLI (one rtlopt process at a time).

Classes: the switched-off comparison keeps only the dropped lines (active code can move across
a branch; a comment in a dropped branch is normalised away; a directive that does not start
its line is not seen, nor a second copy of the module under a conditional); macros and
defines outside the target module reach later files unjudged; the "unconditional define"
test of a library module's macros is fooled by a fake include guard or a mid-line define and
does not look at ``ifdef``-selected localparams; a nested filelist with another suffix is not
part of the rules.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import run_rtlopt

pytestmark = pytest.mark.tools

SOC = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""
TOML = '[project]\nexclude = ["cand/**"]\n[check]\noptimization_only = ["*"]\n'
LISTED = '[project]\nfilelists = ["files.f"]\n[check]\noptimization_only = ["*"]\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    files = {"rtlopt.toml": TOML, **files}
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    _git(repo.parent, "init", "-q", "-b", "main", str(repo))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return repo


def _evaluate(repo: Path, target: str, text: str, *extra: str) -> tuple[int, dict[str, object]]:
    cand = repo / "cand" / "c.v"
    cand.parent.mkdir(parents=True, exist_ok=True)
    cand.write_text(text)
    r = run_rtlopt(
        repo, "evaluate", target, *extra, "--candidate", "cand/c.v", "--pdk", "nangate45", "--json"
    )
    cand.unlink()  # not part of the change a later check judges
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def _accepted(rc: int, out: dict[str, object]) -> bool:
    return rc == 0 and bool(out.get("accepted"))


def _check(repo: Path, changes: dict[str, str]) -> tuple[int, dict[str, object]]:
    for rel, text in changes.items():
        (repo / rel).write_text(text)
    _git(repo, "add", "-A")
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


# --- 1. active code moved across a switched-off branch -----------------------------------

NARROWED = """module tgt (input [3:0] a, input [3:0] b, output reg [3:0] y);
  always @* begin
    y = a ^ b;
`ifdef NARROW
    y = y & 4'h7;
`endif
  end
endmodule
"""


def test_active_code_moved_across_a_switched_off_branch_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the switched-off lines are identical, but with NARROW defined the mask now comes first
    # and is overwritten: y = a ^ b instead of (a ^ b) & 7
    moved = NARROWED.replace(
        "    y = a ^ b;\n`ifdef NARROW\n    y = y & 4'h7;\n`endif\n",
        "`ifdef NARROW\n    y = y & 4'h7;\n`endif\n    y = a ^ b;\n",
    )
    assert moved != NARROWED
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": SOC, "rtl/top.v": NARROWED})
    in_place = NARROWED.replace("a ^ b", "(a | b) & ~(a & b)")
    # code both configurations share: proven in this one and in the one NARROW selects
    rc, out = _evaluate(repo, "rtl/top.v", in_place)
    assert _accepted(rc, out), out  # control
    rc, out = _evaluate(repo, "rtl/top.v", moved)
    assert not _accepted(rc, out), out
    assert "in the configuration NARROW defined" in out["candidate"]["reason"], out  # type: ignore[index]
    # the user may state that only this configuration is built
    monkeypatch.setenv("RTLOPT_HARNESS__OTHER_CONFIGURATIONS", "ignore")
    rc, out = _evaluate(repo, "rtl/top.v", moved)
    assert _accepted(rc, out), out
    monkeypatch.delenv("RTLOPT_HARNESS__OTHER_CONFIGURATIONS")
    rc, report = _check(repo, {"rtl/top.v": moved})
    assert rc == 1, report


# --- 2. a define outside the target module reaches a later file ---------------------------

DEFINING = """`ifdef FPGA
`define B_ALT
`endif
module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a ^ b;
endmodule
"""
USR = """module usr (input [3:0] a, input [3:0] b, output [3:0] y);
`ifdef B_ALT
  assign y = a & b;
`else
  assign y = a | b;
`endif
endmodule
"""
SOC2 = """module soc (input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);
  tgt u (.a(a), .b(b), .y(y));
  usr v (.a(a), .b(b), .y(z));
endmodule
"""


def _defining_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top: str = DEFINING) -> Path:
    return _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/top.v": top,
            "rtl/usr.v": USR,
            "rtl/soc.v": SOC2,
            "files.f": "rtl/top.v\nrtl/usr.v\nrtl/soc.v\n",
            "rtlopt.toml": '[project]\nfilelists = ["files.f"]\nexclude = ["cand/**"]\n'
            '[check]\noptimization_only = ["*"]\n',
        },
    )


TGT_ONLY = DEFINING[DEFINING.index("module") :]


@pytest.mark.parametrize(
    ("base", "new"),
    [
        (DEFINING, DEFINING + "`define B_ALT\n"),  # a define added after endmodule
        ("`define B_ALT\n" + TGT_ONLY, TGT_ONLY),  # an unconditional define removed
    ],
    ids=["added-after-endmodule", "removed-before-module"],
)
def test_a_define_outside_the_module_that_a_later_file_reads_fails_the_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: str, new: str
) -> None:
    repo = _defining_repo(tmp_path, monkeypatch, base)
    # usr (read after top.v) flips between a & b and a | b; nothing re-judges it (top.v holds
    # a module, so it is no "header"; tgt itself is unchanged and proven)
    rc, report = _check(repo, {"rtl/top.v": new})
    assert rc == 1, report


@pytest.mark.parametrize(
    "leak",
    [
        TGT_ONLY.replace("assign y = a ^ b;", "assign y = a ^ b; `define B_ALT"),
        # text after endmodule: the writeback keeps it (place_candidate's target_text)
        TGT_ONLY.replace("a ^ b", "b ^ a") + "`define B_ALT\n",
    ],
    ids=["mid-line-in-module", "after-endmodule"],
)
def test_a_candidate_that_defines_a_macro_a_later_file_reads_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leak: str
) -> None:
    repo = _defining_repo(tmp_path, monkeypatch)
    rc, out = _evaluate(repo, "rtl/top.v", leak)
    assert not _accepted(rc, out), out
    rc, report = _check(repo, {"rtl/top.v": DEFINING.replace(TGT_ONLY, leak)})
    assert rc == 1, report


# --- 3. a library module's macro seen as unconditional -----------------------------------

LIB = """`include "cfg.vh"
module lib (input [7:0] a, output [7:0] y);
  assign y = a << `SHIFT;
endmodule
"""
LIB_CAND = """module lib (input [7:0] a, output [7:0] y);
  assign y = {a[6:0], 1'b0};
endmodule
"""
CONDITIONAL = "`ifdef WIDE\n`define SHIFT 2\n`else\n`define SHIFT 1\n`endif\n"


@pytest.mark.parametrize(
    "cfg",
    [
        # not a guard: its `endif closes at once, the file does not end inside it
        "`ifndef CFG_VH\n`define CFG_VH\n`endif\n" + CONDITIONAL,
        # the conditional define does not start its line, so it is not seen
        "`define SHIFT 1\n`ifdef WIDE `define SHIFT 2\n`endif\n",
    ],
    ids=["fake-include-guard", "mid-line-define"],
)
def test_a_conditionally_defined_macro_of_a_library_module_leaves_it_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cfg: str
) -> None:
    # nothing instantiates lib (harness.unused_parameters = interface): with WIDE defined the
    # reference shifts by 2, the candidate by 1
    repo = _repo(tmp_path, monkeypatch, {"rtl/lib.v": LIB, "rtl/cfg.vh": cfg})
    rc, out = _evaluate(repo, "rtl/lib.v", LIB_CAND)
    assert not _accepted(rc, out), out


def test_a_library_module_whose_localparam_an_ifdef_selects_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = (
        "module lib (input [7:0] a, output [7:0] y);\n"
        "`ifdef WIDE\n  localparam S = 2;\n`else\n  localparam S = 1;\n`endif\n"
        "  assign y = a << S;\nendmodule\n"
    )
    repo = _repo(tmp_path, monkeypatch, {"rtl/lib.v": ref})
    # the switched-off lines are kept; the active use of S is replaced by its value here
    rc, out = _evaluate(repo, "rtl/lib.v", ref.replace("a << S", "{a[6:0], 1'b0}"))
    assert not _accepted(rc, out), out


# --- 4. a tool-directive comment added in a switched-off branch ----------------------------

DEBUG = "  // synopsys translate_off\n  wire [3:0] dbg = a;\n  // synopsys translate_on\n"
FPGA_REF = (
    "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n"
    "`ifdef FPGA\n  assign y = a & b;\n`else\n  assign y = (a | b) & ~(a & b);\n`endif\n"
    + DEBUG
    + "endmodule\n"
)


def test_a_translate_off_comment_added_in_a_switched_off_branch_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with FPGA defined, synthesis no longer sees the branch's driver of y
    cand = FPGA_REF.replace(
        "`ifdef FPGA\n  assign y = a & b;\n",
        "`ifdef FPGA\n  // synopsys translate_off\n  assign y = a & b;\n"
        "  // synopsys translate_on\n",
    ).replace("(a | b) & ~(a & b)", "a ^ b")
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": SOC, "rtl/top.v": FPGA_REF})
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    assert not _accepted(rc, out), out


# --- 5. a switched-off branch the line-start directive test does not see --------------------

PLAIN = """module tgt (input [3:0] a, input [3:0] b, output reg [3:0] y);
  always @* begin
    y = (a | b) & ~(a & b);
  end
endmodule
"""
HELPER = """
module helper (input [3:0] a, output [3:0] y);
`ifdef NARROW
  assign y = a & 4'h7;
`else
  assign y = a;
`endif
endmodule
"""
SOC3 = """module soc (input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);
  tgt u (.a(a), .b(b), .y(y));
  helper h (.a(a), .y(z));
endmodule
"""
MID_LINE = PLAIN.replace(
    "    y = (a | b) & ~(a & b);\n", "    y = a ^ b; `ifdef NARROW\n    y = 4'h0; `endif\n"
)
GUARDED_COPY = """`ifdef NARROW
module tgt (input [3:0] a, input [3:0] b, output reg [3:0] y);
  always @* y = a & b;
endmodule
`else
module tgt (input [3:0] a, input [3:0] b, output reg [3:0] y);
  always @* y = a ^ b;
endmodule
`endif
"""


@pytest.mark.parametrize(
    "cand", [MID_LINE, GUARDED_COPY], ids=["mid-line-ifdef", "module-copy-under-ifdef"]
)
def test_a_new_switched_off_branch_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str
) -> None:
    # the repository holds the lines `ifdef NARROW / `else / `endif (in helper), so the screen
    # lets the candidate use them; with NARROW defined the candidate's tgt differs
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": SOC3, "rtl/top.v": PLAIN + HELPER})
    right = PLAIN.replace("(a | b) & ~(a & b)", "a ^ b")
    rc, out = _evaluate(repo, "rtl/top.v", right, "--module", "tgt")
    assert _accepted(rc, out), out  # control
    rc, out = _evaluate(repo, "rtl/top.v", cand, "--module", "tgt")
    assert not _accepted(rc, out), out
    rc, report = _check(repo, {"rtl/top.v": cand + HELPER})
    assert rc == 1, report


# --- 6. the gate's rules: a nested filelist with another suffix -----------------------------


def test_a_nested_filelist_that_changes_the_defines_fails_the_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    soc = SOC.replace("tgt u", "usr v")
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/usr.v": USR,
            "rtl/soc.v": soc,
            "defs.txt": "+define+PLAIN\n",
            "files.f": "-f defs.txt\nrtl/usr.v\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
    )
    # usr now computes a & b instead of a | b (the same change in a nested *.f is a finding)
    rc, report = _check(repo, {"defs.txt": "+define+B_ALT\n"})
    assert rc == 1, report


# --- 7. a macro header whose suffix the gate does not take for Verilog ---------------------


@pytest.mark.parametrize("name", ["ops.inc", "ops.h"])
def test_a_listed_macro_header_with_another_suffix_re_judges_its_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # as test_redteam_w10's filelist-header case, which passes for ops.vh: the filelist
    # lists the header, so nothing includes it and only its macros link it to tgt
    ops = "`define OP(x, y) ((x) ^ (y))\n"
    tgt = (
        "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = `OP(a, b);\nendmodule\n"
    )
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            f"rtl/{name}": ops,
            "rtl/top.v": tgt,
            "rtl/soc.v": SOC,
            "files.f": f"rtl/{name}\nrtl/top.v\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
    )
    rc, report = _check(repo, {f"rtl/{name}": ops.replace("^", "|")})
    assert rc == 1, report


# --- 8. a library module's macro another configuration header of the repository sets -------


def test_a_macro_an_alternative_config_header_defines_otherwise_leaves_a_library_module_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the design reads cfg/asic/config.vh (SHIFT 1); the repository's other build reads
    # cfg/fpga/config.vh (SHIFT 2) through its include folder: SHIFT is not fixed
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/lib.v": LIB.replace("cfg.vh", "config.vh"),
            "cfg/asic/config.vh": "`define SHIFT 1\n",
            "cfg/fpga/config.vh": "`define SHIFT 2\n",
            "rtlopt.toml": '[project]\nexclude = ["cand/**"]\ninclude_dirs = ["cfg/asic"]\n',
        },
    )
    rc, out = _evaluate(repo, "rtl/lib.v", LIB_CAND)
    assert not _accepted(rc, out), out


# --- 9. a module in a listed source whose suffix the gate does not take for Verilog ---------


@pytest.mark.parametrize("name", ["tgt.verilog", "tgt.inc"])
def test_a_changed_module_in_a_listed_source_with_another_suffix_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    tgt = (
        "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = a ^ b;\nendmodule\n"
    )
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            f"rtl/{name}": tgt,
            "rtl/soc.v": SOC,
            "files.f": f"rtl/{name}\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
    )
    rc, report = _check(repo, {f"rtl/{name}": tgt.replace("a ^ b", "a | b")})
    assert rc == 1, report
