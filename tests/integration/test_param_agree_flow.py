"""The tools disagree on the parameter values a parent gives the target (red team 34, F6 and
F4c), end to end: ``rtlopt evaluate`` and the ``rtlopt check`` gate on a git repository. Each
candidate differs from the reference only at the value that slang's elaboration (the
repository's configurations, which rtlopt proves) does not give the target while iverilog or
Yosys builds it: each is rejected as unchecked for parameters, and an equivalent rewrite under
a parent the tools read alike is still accepted by both."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.integration._fixture_repo import GIT_ID, committed_repo, evaluate_text, run_rtlopt

# slow: each case runs evaluate and the gate (its second proof included) on real tools
pytestmark = [pytest.mark.tools, pytest.mark.slow]

TOML = '[project]\nexclude = ["cand/**"]\n[check]\nppa = false\noptimization_only = ["*"]\n'
M = """module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);
  assign y = a + K;
endmodule
"""
BODY = """module m #(parameter A = 1) (input [7:0] a, output [7:0] y);
  parameter [7:0] K = 8'd1;
  assign y = a + K;
endmodule
"""


def _wrong_at(module: str, k: int) -> str:
    """``module`` changed to add 0 instead of K where K == ``k`` only."""
    return module.replace(
        "assign y = a + K;",
        f"assign y = a + (((K ^ 8'h55) == 8'h{k ^ 0x55:02x}) ? 8'd0 : K);",
    )


#: form -> (the target, the parent's instance, the value only another tool builds)
FORMS = {
    "duplicate": (M, "m #(.K(8'd200), .K(8'd99)) u(.a(a), .y(y));", 99),
    "twodp": (M, "m u(.a(a), .y(y));\n  defparam u.K = 8'd200;\n  defparam u.K = 8'd99;", 99),
    "dpover": (M, "m #(.K(8'd200)) u(.a(a), .y(y));\n  defparam u.K = 8'd99;", 200),
    "bigdec": (M, "m #(.K(123456789012 >> 32)) u(.a(a), .y(y));", 28),
    "bodyparam": (BODY, "m #(.A(1), .K(8'd99)) u(.a(a), .y(y));", 99),
    "bodydp": (BODY, "m u(.a(a), .y(y));\n  defparam u.K = 8'd99;", 99),
    "f4c": (M, "m #(.K('sh8000_0000 >>> 27)) u(.a(a), .y(y));", 16),
}


def _top(inst: str) -> str:
    return f"module top(input [7:0] a, output [7:0] y);\n  {inst}\nendmodule\n"


def _gate(repo: Path, text: str) -> subprocess.CompletedProcess[str]:
    """``rtlopt check m.v`` with ``text`` staged over ``m.v`` (a pre-commit gate)."""
    (repo / "m.v").write_text(text)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "m.v"], check=True)
    return run_rtlopt(repo, "check", "m.v")


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_value_only_another_tool_builds_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    module, inst, k = FORMS[form]
    files = {"rtlopt.toml": TOML, "m.v": module, "top.v": _top(inst)}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    cand = _wrong_at(module, k)
    rc, out = evaluate_text(repo, "m.v", cand)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and not out.get("accepted"), out
    # a defparam on a body parameter (local under IEEE 1800) is no parameter of the target's
    # interface either: the tools' readings differ, and the repository reaches into the
    # instance by a hierarchical name (u.K); either rule leaves the change unchecked
    whys = (
        ("a defparam overrides K, a body parameter of m", "hierarchical name (u.K)")
        if form == "bodydp"
        else (
            "unchecked for parameters: the tools may give the target other",
            # iverilog's own values with the candidate in place (round 94), found first
            "the simulator computes a value at elaboration otherwise than the proofs",
        )
    )
    assert any(why in reason for why in whys), reason
    gate = _gate(repo, cand)
    assert gate.returncode == 1, gate.stdout[-2000:] + gate.stderr[-2000:]
    assert any(why.split(":")[0] in gate.stdout for why in whys), gate.stdout[-2000:]


def test_an_equivalent_rewrite_under_values_the_tools_agree_on_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inst = "m #(.K(8'd200)) u(.a(a), .y(y));\n  m #(.K(8'd3)) u3(.a(a), .y());"
    files = {"rtlopt.toml": TOML, "m.v": M, "top.v": _top(inst)}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    cand = M.replace("a + K", "K + a")
    rc, out = evaluate_text(repo, "m.v", cand)
    assert rc == 0 and out.get("accepted"), out
    gate = _gate(repo, cand)
    assert gate.returncode == 0, gate.stdout[-2000:] + gate.stderr[-2000:]
