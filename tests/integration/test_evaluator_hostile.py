"""Hostile candidates through the whole evaluator: each rejected with the right status.

The candidates come from an LLM and are untrusted: they must not fake a pass, hang the run, read
or write outside their scratch directory, or change the interface.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import Stage, Status

pytestmark = pytest.mark.tools

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "priority_encoder" / "rtl" / "prio_enc.v"
)
HEAD = "module prio_enc(input wire [15:0] vec, input wire en, output wire [4:0] pos, output wire zero);\n"
CORRECT = (
    "  reg [4:0] p;\n  integer i;\n  always @(*) begin\n    p = 5'd16;\n"
    "    for (i = 0; i < 16; i = i + 1) if (vec[i] & en) p = 5'd15 - i[4:0];\n  end\n"
    "  assign pos = p;\n  assign zero = ~|(vec & {16{en}});\n"
)
OK_BODY = "  assign zero = ~|(vec & {16{en}});\n  assign pos = 5'd0;\n"

HOSTILE: list[tuple[str, str, Status, Stage]] = [
    (
        "prints the pass line",
        HEAD
        + OK_BODY
        + '  initial $display("RTLOPT_RESULT deadbeef PASS vectors=1300 mismatches=0");\nendmodule\n',
        Status.INVALID,
        Stage.SCREEN,
    ),
    (
        "early finish",
        HEAD + OK_BODY + "  initial #1 $finish;\nendmodule\n",
        Status.INVALID,
        Stage.SCREEN,
    ),
    (
        "fopen/fwrite",
        HEAD
        + OK_BODY
        + '  integer f;\n  initial begin f = $fopen("/tmp/rtlopt_pwned.txt", "w"); $fwrite(f, "x"); end\n'
        "endmodule\n",
        Status.INVALID,
        Stage.SCREEN,
    ),
    (
        "include of a system file",
        '`include "/etc/passwd"\n' + HEAD + OK_BODY + "endmodule\n",
        Status.INVALID,
        Stage.SCREEN,
    ),
    (
        "reference into the testbench",
        HEAD + "  assign zero = rtlopt_tb.ref_zero;\n  assign pos = 5'd0;\nendmodule\n",
        Status.INVALID,
        Stage.SCREEN,
    ),
    (
        "module named like the renamed reference",
        HEAD + OK_BODY + "endmodule\n"
        "module prio_enc__rtlopt_ref(input wire [15:0] vec, input wire en, output wire [4:0] pos, "
        "output wire zero);\n" + OK_BODY + "endmodule\n",
        Status.INVALID,
        Stage.SCREEN,
    ),
    (
        "changed port width",
        "module prio_enc(input wire [7:0] vec, input wire en, output wire [4:0] pos, "
        "output wire zero);\n  assign zero = ~|vec;\n  assign pos = 5'd0;\nendmodule\n",
        Status.INVALID,
        Stage.INTERFACE,
    ),
    (
        "missing port",
        "module prio_enc(input wire [15:0] vec, input wire en, output wire [4:0] pos);\n"
        "  assign pos = 5'd0;\nendmodule\n",
        Status.INVALID,
        Stage.INTERFACE,
    ),
    # Correct outputs, plus a zero-delay oscillation once vec[0] is set: the simulator never
    # advances time, so only the time limit stops it.
    (
        "combinational loop",
        HEAD + CORRECT + "  wire w;\n  assign w = vec[0] ? ~w : 1'b0;\nendmodule\n",
        Status.TIMEOUT,
        Stage.SIMULATION,
    ),
    (
        "force into the reference",
        HEAD + OK_BODY + "  initial force rtlopt_tb.u_ref.zero = 1'b0;\nendmodule\n",
        Status.INVALID,
        Stage.SCREEN,
    ),
    ("not equivalent", HEAD + OK_BODY + "endmodule\n", Status.INVALID, Stage.SIMULATION),
]


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory: pytest.TempPathFactory) -> Evaluator:
    import dataclasses

    from rtlopt.config import HarnessConfig, SandboxConfig

    cfg = dataclasses.replace(
        Config(),
        harness=HarnessConfig(sim_timeout_s=5.0),
        sandbox=SandboxConfig(timeout_s=20.0, memory_mb=1024),
    )
    # a repository of its own: the example inside rtlopt's checkout would make every text of
    # the checkout (this file's hostile lines too) a text of the repository
    import shutil

    repo = tmp_path_factory.mktemp("repo") / "priority_encoder"
    shutil.copytree(EXAMPLE.parents[1], repo)
    design = load_design(repo / "rtl" / EXAMPLE.name, "prio_enc", cfg.project)
    ev = Evaluator(design, cfg, tmp_path_factory.mktemp("scratch"), pdk=None)
    yield ev  # type: ignore[misc]
    ev.close()


def _listing(root: Path) -> set[str]:
    return {str(p) for p in root.rglob("*")} if root.exists() else set()


@pytest.mark.parametrize(("name", "text", "status", "stage"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_candidate_rejected(
    evaluator: Evaluator, tmp_path: Path, name: str, text: str, status: Status, stage: Stage
) -> None:
    watched = [Path("/tmp/rtlopt_pwned.txt"), EXAMPLE.parent]
    before = {str(w): _listing(w) if w.is_dir() else w.exists() for w in watched}
    res = evaluator.evaluate(text)
    assert (res.status, res.stage) == (status, stage), res.reason
    assert not res.accepted
    if status is Status.TIMEOUT:
        assert res.reward is None  # never scored
    else:
        assert res.reward is not None and res.reward < 1.0
    after = {str(w): _listing(w) if w.is_dir() else w.exists() for w in watched}
    assert after == before
    assert not os.path.exists("/tmp/rtlopt_pwned.txt")
