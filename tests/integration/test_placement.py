"""What a candidate does where it is written back (``evaluate._placement``), on the
SystemVerilog view path (a streaming operator iverilog 11 cannot compile); the Verilog path's
cases are in tests/unit/evaluate/test_preprocess.py and test_redteam_w13.py.

- Its ```include`` reads the header the repository's module reads (beside the target's file,
  then the include folders, as ``-grelative-include``), although rtlopt reads it from a
  scratch folder: the include folder holds a header of the same name that computes ``a & b``
  where the repository's computes ``a ^ b``.
- A pass-through directive it leaves for the files after it (```default_nettype none`` after
  ``endmodule``) is unchecked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import run_rtlopt

# three CLI evaluations on the slang view path: about 10 s each on a loaded machine
pytestmark = [pytest.mark.tools, pytest.mark.slow]

BODY = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] k;
  wire [3:0] r = {<<{a}};
`include "op.vh"
  assign y = k ^ r ^ r;
endmodule
"""
SOC = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""


@pytest.mark.parametrize(
    ("change", "verdict"),
    [
        # proven only against the include folder's header: written back it is a & b
        ("k ^ r ^ r ^ (a & b) ^ (a ^ b);", "not equivalent"),
        ("k ^ r ^ r ^ 4'd0;", ""),
        ("k ^ r ^ r ^ 4'd0;", "`default_nettype none\n"),
    ],
)
def test_the_view_path_reads_a_candidate_as_it_is_written_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str, verdict: str
) -> None:
    # verdict: the first version's expectation ("": accepted); a directive verdict is also written
    # after the candidate's endmodule
    repo = tmp_path / "repo"
    files = {
        "rtl/top.sv": BODY,
        "rtl/soc.v": SOC,
        "rtl/op.vh": "  assign k = a ^ b;\n",
        "include/op.vh": "  assign k = a & b;\n",
        "rtlopt.toml": '[project]\nexclude = ["cand/**"]\ninclude_dirs = ["include"]\n',
        "cand/c.sv": BODY.replace("k ^ r ^ r;", change)
        + (verdict if verdict.startswith("`") else ""),
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    r = run_rtlopt(
        repo, "evaluate", "rtl/top.sv", "--module", "tgt", "--candidate", "cand/c.sv",
        "--pdk", "nangate45", "--json",
    )  # fmt: skip
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    reason = str(out["candidate"].get("reason", ""))
    # op.vh names two files of other bytes (beside the target, in the include folder): which
    # one a tool reading the written text takes first is not known, so since wave 16 every
    # candidate of this design is refused, the equivalent ones too (fail closed; the view
    # path's screen and reference readings, harness/_powered.py)
    assert not out.get("accepted"), out.get("candidate")
    assert "names files of other contents" in reason, reason
