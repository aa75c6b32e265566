"""The proof rule: a candidate whose formal verdict is "unknown" is rejected unless asked.

The design sums two products of 16-bit words (`a * b + a * c`, kept to 16 bits); the candidate
factors them (`a * (b + c)`: one multiplier instead of two). That rewrite is equivalent, but
distributivity of multiplication is a textbook case that bit-level proof engines (the SAT miter,
ABC's SAT sweeping, structural matching) cannot decide: there are no internal equivalences to
match and a SAT proof of 16-bit words grows beyond any practical limit (undecided within 60 s
too). With the tiny `formal.timeout_s` the fixture sets, its verdict is "unknown" whatever the
speed of the machine. By default (`formal.require_proof = true`) such a candidate is rejected
at the formal stage even though it passes simulation and is smaller; `rtlopt evaluate
--accept-unknown` / `formal.require_proof = false` accept it (reported as unknown). A
non-equivalent candidate is rejected either way. Checked through `rtlopt evaluate` and through
`rtlopt optimize` with the scripted policy.
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

_PORTS = """ (
  input  wire [15:0] a,
  input  wire [15:0] b,
  input  wire [15:0] c,
  output wire [15:0] y
);
"""

REFERENCE = f"""// The sum of two 16-bit products, kept to 16 bits.
module dsum{_PORTS}  assign y = a * b + a * c;
endmodule
"""
# Equivalent and smaller (the products factored: one multiplier), never proven in time.
FACTORED = f"""module dsum{_PORTS}  assign y = a * (b + c);
endmodule
"""
# Not equivalent: an OR where the sum was.
WRONG = f"""module dsum{_PORTS}  assign y = a * (b | c);
endmodule
"""

# The limit is far below what any of the engines would need for this rewrite.
TOML = """[project]
exclude = ["alt/**"]

[flow]
pdk = "nangate45"
metric = "adp"

[formal]
timeout_s = 3
"""


@pytest.fixture
def dsum_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "dsum"
    (repo / "rtl").mkdir(parents=True)
    (repo / "alt").mkdir()
    (repo / "rtl" / "dsum.v").write_text(REFERENCE)
    (repo / "alt" / "a_factored.v").write_text(FACTORED)
    (repo / "alt" / "b_wrong.v").write_text(WRONG)
    (repo / "rtlopt.toml").write_text(TOML)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "dsum")
    return repo


def _evaluate(repo: Path, candidate: str, *extra: str) -> tuple[int, dict[str, object]]:
    r = rtlopt(["evaluate", "rtl/dsum.v", "--candidate", candidate, "--json", *extra], repo)
    assert r.returncode in (0, 1), r.stdout + r.stderr
    return r.returncode, json.loads(r.stdout)


@pytest.mark.slow  # over 5 s (synthesis, the formal limit)
def test_evaluate_rejects_unknown_verdict_by_default(dsum_repo: Path) -> None:
    rc, out = _evaluate(dsum_repo, "alt/a_factored.v")
    cand = out["candidate"]
    assert isinstance(cand, dict)
    assert cand["sim"]["passed"] and cand["sim"]["mismatches"] == 0
    assert cand["formal"]["verdict"] == "unknown" and "timed out" in cand["formal"]["reason"]
    assert (cand["status"], cand["stage"]) == ("invalid", "formal")
    assert "not proven" in cand["reason"]
    assert cand["ppa"] is None and not out["accepted"] and rc == 1


@pytest.mark.slow  # over 5 s (synthesis, the formal limit)
def test_evaluate_accept_unknown_accepts_it_reported_as_unknown(dsum_repo: Path) -> None:
    rc, out = _evaluate(dsum_repo, "alt/a_factored.v", "--accept-unknown")
    cand, ref = out["candidate"], out["reference"]
    assert isinstance(cand, dict) and isinstance(ref, dict)
    assert out["accepted"] and rc == 0
    assert (cand["status"], cand["stage"]) == ("ok", "done")
    assert cand["formal"]["verdict"] == "unknown"  # never shown as proven
    assert cand["ppa"]["area_um2"] < ref["ppa"]["area_um2"]
    # The table says so too.
    r = rtlopt(
        ["evaluate", "rtl/dsum.v", "--candidate", "alt/a_factored.v", "--accept-unknown"], dsum_repo
    )
    assert r.returncode == 0 and "ACCEPTED" in r.stdout and "formal: unknown" in r.stdout


def test_accept_unknown_still_rejects_a_non_equivalent_candidate(dsum_repo: Path) -> None:
    rc, out = _evaluate(dsum_repo, "alt/b_wrong.v", "--accept-unknown")
    cand = out["candidate"]
    assert isinstance(cand, dict)
    assert (cand["status"], cand["stage"]) == ("invalid", "simulation") and rc == 1
    assert "y expected" in cand["reason"]


def _optimize(repo: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    r = rtlopt(
        [
            "optimize",
            "rtl/dsum.v",
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
        out["wrong" if "b | c" in code else "factored"] = json.loads(p.read_text())
    return out


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_optimizer_rejects_unknown_verdict_by_default(dsum_repo: Path) -> None:
    r, rd = _optimize(dsum_repo)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no equivalent design beat the reference" in r.stdout
    cands = _candidates(rd)
    assert set(cands) == {"factored", "wrong"}
    assert (cands["factored"]["status"], cands["factored"]["stage"]) == ("invalid", "formal")
    assert (cands["wrong"]["status"], cands["wrong"]["stage"]) == ("invalid", "simulation")
    assert not (rd / "best.json").exists()
    steps = [json.loads(x) for x in (rd / "steps.jsonl").read_text().splitlines()]
    assert [s["accepted"] for s in steps] == [0]


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_optimizer_with_require_proof_false_accepts_unknown(dsum_repo: Path) -> None:
    toml = dsum_repo / "rtlopt.toml"
    toml.write_text(toml.read_text() + "require_proof = false\n")  # in [formal]
    r, rd = _optimize(dsum_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "formal: unknown" in r.stdout
    cands = _candidates(rd)
    assert (cands["factored"]["status"], cands["factored"]["stage"]) == ("ok", "done")
    assert (cands["wrong"]["status"], cands["wrong"]["stage"]) == ("invalid", "simulation")
    best = json.loads((rd / "best.json").read_text())
    assert best["accepted"] and best["formal"]["verdict"] == "unknown"
    assert best["r_ppa"] > 1.0
