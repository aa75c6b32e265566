"""One elaboration context for every tool (issue 16, classes 2 and 3), through the real CLI.

The reference switches to a simulation model under iverilog's predefined ``__ICARUS__`` and
reads a project macro; its file holds directives outside the module. rtlopt evaluates under
synthesis semantics for every tool, so: self-evaluation is accepted (the file's own directives
are not the candidate's), a rewrite of the synthesized view is proven, and a rewrite that
matches only the simulation model is rejected by simulation.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

REF = """`timescale 1ns/1ps
`include "ctx_defs.vh"
`define CTX_XOR 4'b0101
module ctx (
  input  [`CTX_MSB:0] a,
  output [`CTX_MSB:0] y
);
`ifdef __ICARUS__
  // behavioural model used in simulation only: not what synthesis builds
  assign y = {(`CTX_MSB + 1){1'b0}};
`else
  assign y = a ^ `CTX_XOR;
`endif
endmodule
"""


def _keeping_the_model(synthesized: str) -> str:
    """A candidate ``ctx`` whose synthesized branch is ``synthesized``."""
    return (
        "module ctx (input [`CTX_MSB:0] a, output [`CTX_MSB:0] y);\n"
        "`ifdef __ICARUS__\n"
        "  // behavioural model used in simulation only: not what synthesis builds\n"
        "  assign y = {(`CTX_MSB + 1){1'b0}};\n"
        f"`else\n{synthesized}\n`endif\nendmodule\n"
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "ctx"
    (r / "rtl").mkdir(parents=True)
    (r / "rtl" / "ctx.v").write_text(REF)
    (r / "rtl" / "ctx_defs.vh").write_text("`define CTX_MSB 3\n")
    (r / "cand").mkdir()
    # uses the project's macro without the `include: the context provides it
    # (each keeps the simulation-only branch as it is: another build selects it)
    (r / "cand" / "equiv.v").write_text(
        _keeping_the_model("  assign y = {a[3], ~a[2], a[1], ~a[0]};")
    )
    (r / "cand" / "sim_model.v").write_text(_keeping_the_model("  assign y = 4'd0;"))
    # equivalent in the synthesized view, the simulation model dropped
    (r / "cand" / "flat.v").write_text(
        "module ctx (input [`CTX_MSB:0] a, output [`CTX_MSB:0] y);\n"
        "  assign y = {a[3], ~a[2], a[1], ~a[0]};\nendmodule\n"
    )
    (r / "rtlopt.toml").write_text('[project]\nexclude = ["cand/**"]\n')
    subprocess.run(["git", "init", "-q", "-b", "main", str(r)], check=True)
    return r


def _evaluate(repo: Path, cand: str) -> tuple[int, dict[str, object]]:
    args = ["evaluate", "rtl/ctx.v", "--candidate", cand, "--pdk", "nangate45", "--json"]
    r = run_rtlopt(args, cwd=repo, timeout=600)
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def test_self_and_rewrite_of_the_synthesized_view_are_proven(repo: Path) -> None:
    for cand in ("rtl/ctx.v", "cand/equiv.v"):
        rc, out = _evaluate(repo, cand)
        c = out["candidate"]
        assert rc == 0 and out["accepted"], (cand, c)
        assert c["formal"]["verdict"] == "proven", (cand, c)  # type: ignore[index]


def test_the_simulation_model_is_not_the_reference(repo: Path) -> None:
    rc, out = _evaluate(repo, "cand/sim_model.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert c["stage"] == "simulation", c  # type: ignore[index]


def test_a_rewrite_that_drops_the_simulation_model_is_not_accepted(repo: Path) -> None:
    # proven in the synthesized view, but the simulation build would lose its model
    rc, out = _evaluate(repo, "cand/flat.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert "switch off" in c["reason"], c  # type: ignore[index]
