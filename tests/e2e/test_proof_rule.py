"""The proof rule: a candidate whose formal verdict is "unknown" is rejected unless asked.

The design holds a latch (a zero flag transparent while clk_b is high), which the formal check
does not model: its verdict on any rewrite is "unknown" (never "proven"). By default (`formal.require_proof = true`) such a
candidate is rejected at the formal stage even though it passes simulation and is smaller;
`rtlopt evaluate --accept-unknown` / `formal.require_proof = false` accept it (reported as
unknown). A non-equivalent candidate is rejected either way. Checked through `rtlopt evaluate`
and through `rtlopt optimize` with the scripted policy.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

# the same design and candidates under each rule: one user cache for the module (a cached
# result is keyed by the configuration, so each rule is still applied to its own result)
pytestmark = [pytest.mark.tools, pytest.mark.usefixtures("module_user_cache")]

_ENCODER = "\n".join(f"      16'b{'0' * i}1{'?' * (15 - i)}: pos = 5'd{i};" for i in range(16))

REFERENCE = f"""// A registered leading-one position (clk_a) and a zero flag latched while clk_b is high.
module cdc_enc (
  input  wire        clk_a,
  input  wire        clk_b,
  input  wire        rst_n,
  input  wire [15:0] vec,
  output reg  [4:0]  pos_q,
  output reg         zero_q
);
  reg [4:0] pos;
  always @(*) begin
    casez (vec)
{_ENCODER}
      default: pos = 5'd16;
    endcase
  end
  always @(posedge clk_a or negedge rst_n)
    if (!rst_n) pos_q <= 5'd0; else pos_q <= pos;
  always @(*)
    if (clk_b) zero_q = ~|vec;
endmodule
"""

_HEAD = """module cdc_enc (
  input  wire        clk_a,
  input  wire        clk_b,
  input  wire        rst_n,
  input  wire [15:0] vec,
  output reg  [4:0]  pos_q,
  output reg         zero_q
);
  reg [4:0] p;
  integer i;
  always @(*) begin
    p = 5'd16;
    for (i = 0; i < 16; i = i + 1)
      if (vec[i]) p = 5'd15 - i[4:0];
  end
  always @(posedge clk_a or negedge rst_n)
    if (!rst_n) pos_q <= 5'd0; else pos_q <= p;
"""
# Equivalent and smaller (the loop form of the encoder).
LOOP = (
    _HEAD
    + """  always @(*)
    if (clk_b) zero_q = ~|vec;
endmodule
"""
)
# Not equivalent: the zero flag is an all-ones flag.
WRONG = (
    _HEAD
    + """  always @(*)
    if (clk_b) zero_q = &vec;
endmodule
"""
)

TOML = """[project]
exclude = ["alt/**"]

[flow]
pdk = "nangate45"
metric = "adp"
"""


@pytest.fixture
def cdc_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "cdc"
    (repo / "rtl").mkdir(parents=True)
    (repo / "alt").mkdir()
    (repo / "rtl" / "cdc_enc.v").write_text(REFERENCE)
    (repo / "alt" / "a_loop.v").write_text(LOOP)
    (repo / "alt" / "b_wrong.v").write_text(WRONG)
    (repo / "rtlopt.toml").write_text(TOML)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cdc")
    return repo


def _evaluate(repo: Path, candidate: str, *extra: str) -> tuple[int, dict[str, object]]:
    r = rtlopt(["evaluate", "rtl/cdc_enc.v", "--candidate", candidate, "--json", *extra], repo)
    assert r.returncode in (0, 1), r.stdout + r.stderr
    return r.returncode, json.loads(r.stdout)


def test_evaluate_rejects_unknown_verdict_by_default(cdc_repo: Path) -> None:
    rc, out = _evaluate(cdc_repo, "alt/a_loop.v")
    cand = out["candidate"]
    assert isinstance(cand, dict)
    assert cand["sim"]["passed"] and cand["sim"]["mismatches"] == 0
    assert cand["formal"]["verdict"] == "unknown" and "latch" in cand["formal"]["reason"]
    assert (cand["status"], cand["stage"]) == ("invalid", "formal")
    assert "not proven" in cand["reason"]
    assert cand["ppa"] is None and not out["accepted"] and rc == 1


def test_evaluate_accept_unknown_accepts_it_reported_as_unknown(cdc_repo: Path) -> None:
    rc, out = _evaluate(cdc_repo, "alt/a_loop.v", "--accept-unknown")
    cand, ref = out["candidate"], out["reference"]
    assert isinstance(cand, dict) and isinstance(ref, dict)
    assert out["accepted"] and rc == 0
    assert (cand["status"], cand["stage"]) == ("ok", "done")
    assert cand["formal"]["verdict"] == "unknown"  # never shown as proven
    assert cand["ppa"]["area_um2"] < ref["ppa"]["area_um2"]
    # The table says so too.
    r = rtlopt(
        ["evaluate", "rtl/cdc_enc.v", "--candidate", "alt/a_loop.v", "--accept-unknown"], cdc_repo
    )
    assert r.returncode == 0 and "ACCEPTED" in r.stdout and "formal: unknown" in r.stdout


def test_accept_unknown_still_rejects_a_non_equivalent_candidate(cdc_repo: Path) -> None:
    rc, out = _evaluate(cdc_repo, "alt/b_wrong.v", "--accept-unknown")
    cand = out["candidate"]
    assert isinstance(cand, dict)
    assert (cand["status"], cand["stage"]) == ("invalid", "simulation") and rc == 1
    assert "zero_q" in cand["reason"]


def _optimize(repo: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    r = rtlopt(
        [
            "optimize",
            "rtl/cdc_enc.v",
            "--candidates",
            "alt",
            "--steps",
            "1",
            "--parents",
            "1",
            "--rollouts",
            "2",
            "--no-branch",
        ],
        repo,
    )
    m = re.search(r"run directory: (\S+)", r.stdout)
    assert m, r.stdout + r.stderr
    return r, Path(m.group(1))


def _candidates(run_dir: Path) -> dict[str, dict[str, object]]:
    out = {}
    for p in (run_dir / "candidates").glob("*.json"):
        code = p.with_suffix(".v").read_text()
        out["wrong" if "&vec" in code else "loop"] = json.loads(p.read_text())
    return out


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_optimizer_rejects_unknown_verdict_by_default(cdc_repo: Path) -> None:
    r, rd = _optimize(cdc_repo)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no equivalent design beat the reference" in r.stdout
    cands = _candidates(rd)
    assert set(cands) == {"loop", "wrong"}
    assert (cands["loop"]["status"], cands["loop"]["stage"]) == ("invalid", "formal")
    assert (cands["wrong"]["status"], cands["wrong"]["stage"]) == ("invalid", "simulation")
    assert not (rd / "best.json").exists()
    steps = [json.loads(x) for x in (rd / "steps.jsonl").read_text().splitlines()]
    assert [s["accepted"] for s in steps] == [0]


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_optimizer_with_require_proof_false_accepts_unknown(cdc_repo: Path) -> None:
    toml = cdc_repo / "rtlopt.toml"
    toml.write_text(toml.read_text() + "\n[formal]\nrequire_proof = false\n")
    r, rd = _optimize(cdc_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "formal: unknown" in r.stdout
    cands = _candidates(rd)
    assert (cands["loop"]["status"], cands["loop"]["stage"]) == ("ok", "done")
    assert (cands["wrong"]["status"], cands["wrong"]["stage"]) == ("invalid", "simulation")
    best = json.loads((rd / "best.json").read_text())
    assert best["accepted"] and best["formal"]["verdict"] == "unknown"
    assert best["r_ppa"] > 1.0
