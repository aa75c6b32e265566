"""High impedance (z) in either design is no value the proof models (real tools, the CLI).

Yosys 0.23's SAT and ``equiv_*`` read a constant z as a defined 0, the second proof's
``setundef -zero`` as well, synthesis as don't-care and simulators as z. A candidate that
drives z where the reference drives 0 at one rare input was "proven" and accepted in
``evaluate``, ``check`` and ``optimize`` (``c | 1'bz``, ``bufif1``, a register loaded with
``8'bz``), and a reference that releases its output with ``8'dz`` left every change checked
(the former text pattern missed the ``d`` base and ``?`` digits). Now a z anywhere in the
candidate (a submodule too) rejects it, and a z in the reference leaves it unchecked, decided
on both designs' netlists before any optimization; in the SystemVerilog view, where slang
reads a procedural z as x, from slang's own warning."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = [pytest.mark.tools, pytest.mark.slow]

CONFIG = '[check]\noptimization_only = ["*"]\nppa = false\n'

HEAD = "module s(input [23:0] a, input [23:0] b, output [1:0] y);\n"
RARE = "(((a * 24'd12345) ^ 24'h6a5b3c) == b) && (a[7:0] == 8'hc3)"
#: y[0] is 0 only at the rare input a = 0000c3, b = 4ee057; y[1] keeps the netlist alive.
REF = HEAD + f"  assign y = {{a[9] ^ b[3], !({RARE})}};\nendmodule\n"
WIRE = f"  wire c = !({RARE});\n  assign y[1] = a[9] ^ b[3];\n"

#: Candidates that drive z (or release the net) where the reference drives 0.
Z_FORMS = {
    "or": HEAD + WIRE + "  assign y[0] = c | 1'bz;\nendmodule\n",
    "bufif": HEAD + WIRE + "  bufif1 b0(y[0], 1'b1, c);\nendmodule\n",
    "decimal_z": HEAD + WIRE + "  assign y[0] = c ? 1'b1 : 1'dz;\nendmodule\n",
    "question_digit": HEAD + WIRE + "  assign y[0] = c ? 1'b1 : 1'b?;\nendmodule\n",
    "submodule": "module zsub(input c, output y);\n  assign y = c ? 1'b1 : 1'bz;\nendmodule\n"
    + HEAD
    + WIRE
    + "  zsub u(.c(c), .y(y[0]));\nendmodule\n",
}

#: The sequential form: the reference clears its counter at the rare input, the candidate
#: loads z there (iverilog: z, then x for ever; the synthesized netlist keeps counting).
SEQ_REF = (
    "module s(input clk, input rst, input [23:0] a, input [23:0] b, output [7:0] y);\n"
    "  reg [7:0] c;\n"
    f"  wire rare = {RARE};\n"
    "  always @(posedge clk)\n"
    "    if (rst) c <= 8'd0;\n    else if (rare) c <= 8'd0;\n    else c <= c + 8'd1;\n"
    "  assign y = c;\nendmodule\n"
)
SEQ_Z = SEQ_REF.replace("else if (rare) c <= 8'd0;", "else if (rare) c <= 8'bz;")

#: A reference that releases its output at the rare input (``8'dz``).
REF_Z = (
    "module s(input [23:0] a, input [23:0] b, output [7:0] y);\n"
    f"  wire rare = {RARE};\n"
    "  assign y = rare ? 8'dz : a[15:8];\nendmodule\n"
)

#: An equivalent rewrite without z (the control).
EQUIVALENT = (
    HEAD + f"  wire hit = {RARE.replace('&&', '&')};\n  assign y = {{a[9] ^ b[3], ~hit}};\n"
    "endmodule\n"
)


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in files.items():
        (repo / name).write_text(text)
    (repo / "rtlopt.toml").write_text(CONFIG)
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _evaluate(tmp_path: Path, ref: str, cand: str, target: str = "s.v") -> dict:
    repo = _repo(tmp_path, {target: ref})
    (repo / f"cand{Path(target).suffix}").write_text(cand)
    args = ["evaluate", target, "--candidate", f"cand{Path(target).suffix}", "--json"]
    r = rtlopt([*args, "--pdk", "nangate45"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return dict(json.loads(r.stdout)["candidate"])


@pytest.mark.parametrize("form", sorted(Z_FORMS))
def test_evaluate_rejects_a_candidate_that_drives_z(tmp_path: Path, form: str) -> None:
    res = _evaluate(tmp_path, REF, Z_FORMS[form])
    assert not res["accepted"], res
    assert res["stage"] == "formal", res
    assert "the candidate holds high impedance" in res["reason"], res["reason"]
    assert "two-valued logic" in res["reason"], res["reason"]


def test_evaluate_rejects_a_register_loaded_with_z(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, SEQ_REF, SEQ_Z)
    assert not res["accepted"], res
    assert "the candidate holds high impedance" in res["reason"], res["reason"]


def test_a_reference_that_releases_its_output_leaves_every_change_unchecked(
    tmp_path: Path,
) -> None:
    res = _evaluate(tmp_path, REF_Z, REF_Z.replace("8'dz", "8'd0"))
    assert not res["accepted"], res
    assert res["reason"].startswith("unchecked: the reference holds high impedance"), res
    assert "so no change to it is checked" in res["reason"], res["reason"]


def test_an_equivalent_rewrite_without_z_is_accepted(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, REF, EQUIVALENT)
    assert res["accepted"], res["reason"]
    assert res["formal"]["verdict"] == "proven", res["formal"]


def test_check_fails_a_staged_z(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"s.v": REF})
    (repo / "s.v").write_text(Z_FORMS["or"])
    git(repo, "add", "-A")
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode == 1, r.stdout + r.stderr[-2000:]
    [m] = json.loads(r.stdout)["modules"]
    assert m["module"] == "s" and m["equivalence"] != "proven", m
    assert "high impedance" in json.dumps(m), m


def test_optimize_writes_no_branch_for_a_z(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"s.v": REF})
    alts = tmp_path / "alternatives"
    alts.mkdir()
    (alts / "a_bufif.v").write_text(Z_FORMS["bufif"])
    args = ["optimize", "s.v", "-m", "s", "--candidates", str(alts), "--steps", "1"]
    r = rtlopt([*args, "--parents", "1", "--rollouts", "2", "--pdk", "nangate45"], repo)
    assert r.returncode == 1, r.stdout + r.stderr[-2000:]
    assert "rtlopt/" not in git(repo, "branch", "--list")
    run_dir = Path(re.search(r"run directory: (\S+)", r.stdout).group(1))  # type: ignore[union-attr]
    cands = [json.loads(p.read_text()) for p in (run_dir / "candidates").glob("*.json")]
    assert cands and all(not c["accepted"] for c in cands), cands
    assert any("high impedance" in c["reason"] for c in cands), [c["reason"] for c in cands]


SV_PKG = "package zp;\n  typedef logic [23:0] w_t;\nendpackage\n"
SV_HEAD = "module s import zp::*; (input w_t a, input w_t b, output logic [7:0] y);\n"


def _evaluate_sv(tmp_path: Path, ref_body: str, cand_body: str) -> dict:
    repo = _repo(tmp_path, {"pkg.sv": SV_PKG, "s.sv": SV_HEAD + ref_body + "endmodule\n"})
    (repo / "cand.sv").write_text(SV_HEAD + cand_body + "endmodule\n")
    r = rtlopt(["evaluate", "s.sv", "--candidate", "cand.sv", "--json", "--pdk", "nangate45"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return dict(json.loads(r.stdout)["candidate"])


SV_REF = f"  wire rare = {RARE};\n  always_comb y = rare ? 8'd0 : a[15:8];\n"


def test_sv_view_rejects_a_procedural_z_slang_reads_as_x(tmp_path: Path) -> None:
    res = _evaluate_sv(tmp_path, SV_REF, SV_REF.replace("8'd0", "'z"))
    assert not res["accepted"], res
    assert "the candidate holds high impedance" in res["reason"], res["reason"]


def test_sv_view_reference_with_a_procedural_z_is_unchecked(tmp_path: Path) -> None:
    """slang's view reads the reference's ``'z`` as x, which the X policy let the candidate
    refine to 0: it was "proven" and accepted (iverilog: z, on a tri1 bus ff against 00)."""
    res = _evaluate_sv(tmp_path, SV_REF.replace("8'd0", "'z"), SV_REF)
    assert not res["accepted"], res
    assert res["reason"].startswith("unchecked: the reference holds high impedance"), res


def _second(tmp_path: Path, ref: str, cand: str) -> tuple[bool, str]:
    """The second proof alone, handed a first proof that says "proven" (the fault it must
    survive: the first path lies)."""
    from rtlopt.config import FormalConfig, ProjectConfig
    from rtlopt.formal.second import confirm_proof
    from rtlopt.frontend import load_design
    from rtlopt.results import FormalResult, Verdict

    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "s.v").write_text(ref)
    d = load_design(tmp_path / "d" / "s.v", "s", ProjectConfig(), root=tmp_path / "d")
    (tmp_path / "c.v").write_text(cand)
    first = FormalResult(Verdict.PROVEN, "sat miter (combinational)", "")
    cfg = FormalConfig(timeout_s=60)
    second = confirm_proof(d, [tmp_path / "c.v"], tmp_path / "second", cfg, first)
    return second.agrees, second.reason


@pytest.mark.parametrize("form", ["or", "submodule"])
def test_the_second_proof_alone_fails_closed_on_a_candidate_z(tmp_path: Path, form: str) -> None:
    agrees, why = _second(tmp_path, REF, Z_FORMS[form])
    assert not agrees
    # slang reads "c | 1'bz" as "c | x" and warns; the submodule's z stays a tri-state buffer
    start = "a design holds high impedance (at c.v:4)" if form == "or" else "the candidate holds"
    assert why.startswith(f"unchecked: {start}"), why


def test_the_second_proof_alone_fails_closed_on_a_reference_z(tmp_path: Path) -> None:
    agrees, why = _second(tmp_path, REF_Z, REF_Z.replace("8'dz", "8'd0"))
    assert not agrees
    assert why.startswith("unchecked: the reference holds high impedance"), why


def test_the_second_proof_still_proves_a_rewrite_without_z(tmp_path: Path) -> None:
    agrees, why = _second(tmp_path, REF, EQUIVALENT)
    assert agrees, why
