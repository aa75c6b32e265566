"""Red team of wave 12: non-equivalent changes the "other configurations" check
(``evaluate/_configs.py``, ``evaluate/_config_check.py``) lets ``rtlopt evaluate`` accept today.
Each test asserts the rejection the change deserves, so each FAILS until its class is closed.
Small repositories in temporary folders, the real CLI (one rtlopt process at a time).

Classes: a configuration whose reference "does not build" in the sub-evaluation is skipped,
though the repository builds it (a tested macro whose value matters is defined empty; a module
only that configuration instantiates lives in a file outside the defaults' closure); a header
included inside the module resets a tested macro, so the configuration written in front of
the module is not the one checked.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import evaluate_text

pytestmark = pytest.mark.tools

SOC = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""
TOML = '[project]\nexclude = ["cand/**"]\n[check]\noptimization_only = ["*"]\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    files = {"rtlopt.toml": TOML, "rtl/soc.v": SOC, **files}
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    _git(repo.parent, "init", "-q", "-b", "main", str(repo))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return repo


def _evaluate(repo: Path, target: str, text: str) -> tuple[int, dict[str, object]]:
    return evaluate_text(repo, target, text)


def _accepted(rc: int, out: dict[str, object]) -> bool:
    return rc == 0 and bool(out.get("accepted"))


# --- 1. a tested macro whose value matters: the sub-evaluation defines it empty -------------

# with FAST (a build option) OFFSET = 3 and y = (a ^ b) + 3; the candidate drops the offset:
# equivalent with OFFSET undefined (k = 0), different with it defined. The sub-evaluation of
# "OFFSET defined" writes `define OFFSET (empty), the reference reads `wire [3:0] k = ;`,
# "does not build", and the configuration is skipped.
VALUED = """`ifdef FAST
`define OFFSET 4'd3
`endif
module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
`ifdef OFFSET
  wire [3:0] k = `OFFSET;
`else
  wire [3:0] k = 4'd0;
`endif
  assign y = (a ^ b) + k;
endmodule
"""


def test_a_valued_macro_defined_empty_does_not_skip_its_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": VALUED})
    module = VALUED[VALUED.index("module") :]
    dropped = module.replace("assign y = (a ^ b) + k;", "assign y = a ^ b;")
    assert dropped != module
    rc, out = _evaluate(repo, "rtl/top.v", dropped)
    assert not _accepted(rc, out), out


# the classic override default: `ifndef BIAS `define BIAS 0 `endif, then `BIAS in shared code.
# A build with +define+TGT_BIAS=3 reads (a ^ b) + 3; the candidate hard-codes the default 0.
# "TGT_BIAS defined" is sub-evaluated with an empty `define, the reference reads
# `(a ^ b) + ;`, and the configuration is skipped.
OVERRIDABLE = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
`ifndef TGT_BIAS
`define TGT_BIAS 4'd0
`endif
  assign y = (a ^ b) + `TGT_BIAS;
endmodule
"""


def test_an_overridable_default_macro_is_not_skipped_when_defined_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": OVERRIDABLE})
    folded = OVERRIDABLE.replace("assign y = (a ^ b) + `TGT_BIAS;", "assign y = a ^ b;")
    assert folded != OVERRIDABLE
    rc, out = _evaluate(repo, "rtl/top.v", folded)
    assert not _accepted(rc, out), out


# --- 2. a module only the other configuration instantiates lives in its own file ------------

FAST_OP = """module fast_op (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a & b;
endmodule
"""
INSTANTIATING = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
`ifdef FAST
  fast_op f (.a(a), .b(b), .y(k));
`else
  assign k = a ^ b;
`endif
  assign y = k;
endmodule
"""


@pytest.mark.slow
def test_a_configuration_instantiating_a_module_outside_the_closure_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with FAST, y = a & b (fast_op, rtl/fast_op.v: in the repository, not in the defaults'
    # closure); the candidate hard-wires the defaults' a ^ b. The sub-evaluation of "FAST
    # defined" reads only the defaults' closure files, cannot find fast_op, and skips.
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": INSTANTIATING, "rtl/fast_op.v": FAST_OP})
    wired = INSTANTIATING.replace("assign y = k;", "assign y = a ^ b;")
    assert wired != INSTANTIATING
    rc, out = _evaluate(repo, "rtl/top.v", wired)
    assert not _accepted(rc, out), out


# --- 3. a header included inside the module sets the tested macro itself --------------------

TGT_CFG = """`undef WIDE_OUT
`ifdef FAST
`define WIDE_OUT
`endif
"""
INCLUDING = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
`include "tgt_cfg.vh"
`ifdef WIDE_OUT
  wire [3:0] k = a & b;
`else
  wire [3:0] k = a ^ b;
`endif
  assign y = k;
endmodule
"""


def test_a_tested_macro_reset_by_an_included_header_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with FAST, tgt_cfg.vh defines WIDE_OUT and y = a & b; the candidate hard-wires a ^ b.
    # The sub-evaluation of "WIDE_OUT defined" writes `define WIDE_OUT in front of the module,
    # the header undefines it again, and that "configuration" is the defaults once more.
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": INCLUDING, "rtl/tgt_cfg.vh": TGT_CFG})
    wired = INCLUDING.replace("assign y = k;", "assign y = a ^ b;")
    assert wired != INCLUDING
    rc, out = _evaluate(repo, "rtl/top.v", wired)
    assert not _accepted(rc, out), out


# --- 4. the conditionals sit in a header the module includes ---------------------------------

TGT_OP = """`ifdef FAST
  assign k = a & b;
`else
  assign k = a ^ b;
`endif
"""
BODY_INCLUDED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
`include "tgt_op.vh"
  assign y = k;
endmodule
"""


def test_a_macro_tested_in_a_header_included_in_the_module_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the module's body, once the header is read, tests FAST (y = a & b with it); only the
    # module's own text is searched for tested macros, so FAST is never enumerated and the
    # candidate that hard-wires the defaults' a ^ b is accepted.
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": BODY_INCLUDED, "rtl/tgt_op.vh": TGT_OP})
    wired = BODY_INCLUDED.replace("assign y = k;", "assign y = a ^ b;")
    assert wired != BODY_INCLUDED
    rc, out = _evaluate(repo, "rtl/top.v", wired)
    assert not _accepted(rc, out), out


# --- 5. the conditionals sit in a submodule the candidate folds away -------------------------

OP = """module op (input [3:0] a, input [3:0] b, output [3:0] y);
`ifdef FAST
  assign y = a & b;
`else
  assign y = a ^ b;
`endif
endmodule
"""
USING_OP = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
  op o (.a(a), .b(b), .y(k));
`ifdef DBG
  wire dbg = 1'b1;
`endif
  assign y = k;
endmodule
"""


def test_a_macro_tested_in_a_submodule_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tgt's own conditional (DBG) is enumerated and proven; the submodule's FAST, which
    # decides tgt's output, is not: the candidate inlines op's defaults (a ^ b).
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": USING_OP, "rtl/op.v": OP})
    wired = USING_OP.replace("assign y = k;", "assign y = a ^ b;")
    assert wired != USING_OP
    rc, out = _evaluate(repo, "rtl/top.v", wired)
    assert not _accepted(rc, out), out


# --- 6. the SystemVerilog view path enumerates no configuration ------------------------------

SOC_SV = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""
STREAMED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] r = {<<{a}};
`ifdef FAST
  wire [3:0] k = r & b;
`else
  wire [3:0] k = r ^ b;
`endif
  assign y = k;
endmodule
"""


@pytest.mark.slow
def test_the_view_path_checks_other_configurations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # iverilog 11 cannot compile the streaming operator, so the module is read through the
    # slang view; preprocess_stage returns early (no unit) and the FAST configuration, where
    # y = r & b, is never compared: the candidate hard-wiring the defaults' r ^ b is accepted.
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": SOC_SV, "rtl/top.sv": STREAMED})
    (repo / "rtl" / "soc.v").rename(repo / "rtl" / "soc.sv")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "sv")
    wired = STREAMED.replace("assign y = k;", "assign y = r ^ b;")
    assert wired != STREAMED
    rc, out = _evaluate(repo, "rtl/top.sv", wired)
    assert not _accepted(rc, out), out
    # the control: the repository's own bytes read the same in every configuration (self was
    # "unchecked" on this path for any design that tests a macro)
    rc, out = _evaluate(repo, "rtl/top.sv", STREAMED)
    assert _accepted(rc, out), out


# --- 7. a submodule in the target's file under a file-level conditional ------------------------

SUB_TGT = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  sub s (.a(a), .b(b), .y(y));
endmodule
"""
FOLDED = (
    "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = a ^ b;\nendmodule\n"
)


def test_a_submodule_defined_under_a_file_level_ifdef_is_a_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    both = (
        "`ifdef FAST\nmodule sub (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = a + b;\nendmodule\n`else\n"
        "module sub (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = a ^ b;\nendmodule\n`endif\n"
    )
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": SUB_TGT + both})
    rc, out = _evaluate(repo, "rtl/top.v", FOLDED)
    assert not _accepted(rc, out), out


def test_a_header_included_through_a_macro_name_is_not_followed_and_fails_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sub = (
        '`define HDR "k.vh"\n`include `HDR\n'
        "module sub (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  assign y = (a ^ b) + `K;\nendmodule\n"
    )
    k = "`ifdef FAST\n`define K 4'd3\n`else\n`define K 4'd0\n`endif\n"
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": SUB_TGT, "rtl/sub.v": sub, "rtl/k.vh": k})
    rc, out = _evaluate(repo, "rtl/top.v", FOLDED)
    assert not _accepted(rc, out), out
