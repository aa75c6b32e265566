"""One preprocessed text per side (issue 30): the reference is the repository's module as the
preprocessor reads it, a candidate is read in the macro state at the target's position, and
the screen judges the bytes every tool reads. Small repositories in temporary folders, through
the real CLI (``rtlopt evaluate`` / ``rtlopt check``) and, for the screen's many cases, one
evaluator.
"""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from _fixture_repo import evaluate_json, run_rtlopt

from rtlopt.config import Config, HarnessConfig, SandboxConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import Stage, Status

pytestmark = pytest.mark.tools


#: A top that instantiates the targets: their macro-dependent changes are then judged under the
#: repository's own definitions (a module nothing instantiates could be compiled with other
#: definitions, and a change through a macro there is unchecked: test_param_scope.py).
INSTANCES = {
    "opm": "  opm u_opm (.a(a), .b(b), .y(y));\n",
    "tgt": "  tgt u_tgt (.a(a), .y(z));\n",
}


def _soc(files: dict[str, str]) -> str:
    body = "".join(
        i for name, i in INSTANCES.items() if f"module {name} " in files.get("rtl/top.v", "")
    )
    return (
        "module soc (input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] z);\n"
        + body
        + "endmodule\n"
    )


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    r = tmp_path / "repo"
    if "rtl/top.v" in files:
        files = {"rtl/soc.v": _soc(files), **files}
    for rel, text in files.items():
        (r / rel).parent.mkdir(parents=True, exist_ok=True)
        (r / rel).write_text(text)
    (r / "rtlopt.toml").write_text('[project]\nexclude = ["cand/**"]\n')
    subprocess.run(["git", "init", "-q", "-b", "main", str(r)], check=True)
    subprocess.run(["git", "-C", str(r), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(r), "commit", "-q", "-m", "base"], check=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return r


def _only_this_build(repo: Path) -> None:
    """States that the repository is built in this configuration only (committed)."""
    with (repo / "rtlopt.toml").open("a") as f:
        f.write('[harness]\nother_configurations = "ignore"\n')
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "this build only"], check=True)


# --- 1. the reference computes what the repository computes -----------------------------

#: The operator is chosen by a conditional: a reconstruction that keeps both ```define``
#: lines (the last one wins) computes ``&`` where the repository computes ``^``.
ELSE_OP = """`ifndef OPM_AND
`define OPM_OP(a, b) ((a) ^ (b))
`else
`define OPM_OP(a, b) ((a) & (b))
`endif
module opm (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = `OPM_OP(a, b);
endmodule
"""

#: ``K`` is 3 for ``first`` and 5 for the target: the repository computes ``a + 8``.
UNDEF_OP = """`define K 4'd3
module first (input [3:0] a, output [3:0] y);
  assign y = a + `K;
endmodule
`undef K
`define K 4'd5
module tgt (input [3:0] a, output [3:0] y);
  wire [3:0] t;
  first u_first (.a(a), .y(t));
  assign y = t + `K;
endmodule
"""


@pytest.mark.parametrize(
    ("src", "target", "right", "wrong"),
    [
        (
            ELSE_OP,
            "opm",
            "module opm (input [3:0] a, input [3:0] b, output [3:0] y);\n"
            "  assign y = a ^ b;\nendmodule\n",
            "module opm (input [3:0] a, input [3:0] b, output [3:0] y);\n"
            "  assign y = a & b;\nendmodule\n",
        ),
        (
            UNDEF_OP,
            "tgt",
            "module tgt (input [3:0] a, output [3:0] y);\n  assign y = a + 4'd8;\nendmodule\n",
            "module tgt (input [3:0] a, output [3:0] y);\n  assign y = a + 4'd10;\nendmodule\n",
        ),
    ],
    ids=["ifndef-else", "undef-redefine"],
)
def test_the_reference_is_the_preprocessed_repository_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, src: str, target: str, right: str, wrong: str
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {"rtl/top.v": src, "cand/right.v": right, "cand/wrong.v": wrong},
    )
    # the right rewrite hard-wires this build's operator: OPM_AND selects another one, which
    # the change no longer reads (test_redteam_w13), so only this build is stated here
    _only_this_build(repo)
    rc, out = evaluate_json(repo, "rtl/top.v", "cand/right.v") if target == "opm" else (0, {})
    if target != "opm":
        r = run_rtlopt(
            repo,
            "evaluate",
            "rtl/top.v",
            "-m",
            target,
            "--candidate",
            "cand/right.v",
            "--pdk",
            "nangate45",
            "--json",
        )
        import json

        rc, out = r.returncode, json.loads(r.stdout)
    c = out["candidate"]
    assert rc == 0 and out["accepted"], c
    assert c["formal"]["verdict"] == "proven", c  # type: ignore[index]
    r = run_rtlopt(
        repo,
        "evaluate",
        "rtl/top.v",
        "-m",
        target,
        "--candidate",
        "cand/wrong.v",
        "--pdk",
        "nangate45",
        "--json",
    )
    assert r.returncode == 1, r.stderr[-600:]


def test_check_rejects_a_wrong_rewrite_against_the_reconstructed_operator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": ELSE_OP})
    _only_this_build(repo)
    with (repo / "rtlopt.toml").open("a") as f:
        f.write('[check]\noptimization_only = ["opm"]\n')
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "gate"], check=True)
    top = repo / "rtl" / "top.v"
    top.write_text(ELSE_OP.replace("`OPM_OP(a, b)", "a & b"))
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--pdk", "nangate45")
    assert r.returncode == 1, (r.stdout[-800:], r.stderr[-800:])
    top.write_text(ELSE_OP.replace("`OPM_OP(a, b)", "b ^ a"))
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--pdk", "nangate45")
    assert r.returncode == 0, (r.stdout[-800:], r.stderr[-800:])


# --- 2. macro state set inside the reference does not reach the candidate ---------------

#: An in-module guard: the reference's own text sets GUARD_T when it is read.
GUARDED = """module gt (input [31:0] a, output [31:0] y);
`ifndef GUARD_T
`define GUARD_T
`else
`endif
  assign y = a + 32'd1;
endmodule
"""

#: Read after the reference (GUARD_T set) it is the reference; read alone (as synthesis
#: reads it) it holds a rare-input trojan. Only directives the module itself holds.
TROJAN = """module gt (input [31:0] a, output [31:0] y);
`ifndef GUARD_T
`define GUARD_T
  assign y = (a == 32'hDEADBEEF) ? 32'd0 : a + 32'd1;
`else
  assign y = a + 32'd1;
`endif
endmodule
"""


def test_a_trojan_behind_the_references_own_guard_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/gt.v": GUARDED, "cand/trojan.v": TROJAN})
    rc, out = evaluate_json(repo, "rtl/gt.v", "cand/trojan.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"], c
    # its switched-off branch differs from the reference's (screen), and read as one text
    # the trojan is what every tool sees (simulation, formal)
    assert c["stage"] in ("screen", "simulation", "formal"), c  # type: ignore[index]
    # the repository's own module is still accepted, and what synthesis measured is the
    # candidate's preprocessed text alone (no prelude, no macro left to resolve)
    (repo / "cand" / "self.v").write_text(GUARDED.replace("a + 32'd1", "32'd1 + a"))
    wd = tmp_path / "wd"
    r = run_rtlopt(
        repo,
        "evaluate",
        "rtl/gt.v",
        "--candidate",
        "cand/self.v",
        "--pdk",
        "nangate45",
        "--json",
        "--workdir",
        str(wd),
    )
    assert r.returncode == 0, r.stdout[-800:]
    (synth,) = wd.glob("0*-*/ppa/synth.ys")
    reads = [ln for ln in synth.read_text().splitlines() if ln.startswith("read_verilog")]
    assert len(reads) == 1 and reads[0].endswith("candidate.pp.v"), reads
    measured = (synth.parent.parent / "candidate.pp.v").read_text()
    assert "`" not in measured and "32'd1 + a" in measured


# --- 3. the screen judges what the tools read -----------------------------------------

SCREENED = """`define SCR_ON
`define SCR_OPEN $fopen
module scr (input clk, input [3:0] a, output reg [3:0] y);
`ifdef SCR_ON
  always @(posedge clk) y <= a;
`endif
endmodule
`define SCR_LATE 4'd1
"""

_HEAD = "module scr (input clk, input [3:0] a, output reg [3:0] y);\n`ifdef SCR_ON\n"
_TAIL = "  always @(posedge clk) y <= a;\n`endif\nendmodule\n"
HOSTILE = {
    "initial": "  initial y = 4'd0;\n",
    "fopen": '  integer f; always @(posedge clk) f = $fopen("pwn.txt", "w");\n',
    "macro-fopen": '  integer f; always @(posedge clk) f = `SCR_OPEN("pwn.txt", "w");\n',
    "force": "  always @(posedge clk) force y = 4'd0;\n",
    "root": "  wire r = $root.scr.a[0];\n",
    "assume": "  always @(posedge clk) assume (a != 4'd3);\n",
    "attribute": "  (* keep *) wire k = a[0];\n",
}


@pytest.fixture(scope="module")
def screened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evaluator]:
    d = tmp_path_factory.mktemp("screened")
    (d / "scr.v").write_text(SCREENED)
    cfg = dataclasses.replace(
        Config(),
        harness=HarnessConfig(sim_timeout_s=5.0),
        sandbox=SandboxConfig(timeout_s=30.0, memory_mb=1024),
    )
    design = load_design(d / "scr.v", "scr", cfg.project)
    ev = Evaluator(design, cfg, d / "scratch", pdk=None)
    yield ev
    ev.close()


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_body_under_a_file_level_ifdef_is_screened(screened: Evaluator, kind: str) -> None:
    res = screened.evaluate(_HEAD + HOSTILE[kind] + _TAIL)
    assert res.status is Status.INVALID, (kind, res.reason)
    assert res.stage is Stage.SCREEN, (kind, res.stage, res.reason)
    assert "line 3" in res.reason, res.reason  # the candidate's own line


def test_the_same_body_without_the_hostile_line_is_accepted(screened: Evaluator) -> None:
    res = screened.evaluate(_HEAD + "  wire unused = a[1];\n" + _TAIL)
    assert res.status is Status.OK, res.reason


def test_a_macro_defined_after_the_target_is_not_in_its_state(screened: Evaluator) -> None:
    """The file defines SCR_LATE after the module: the target cannot see it, nor may the
    candidate (the preprocessor would read the unknown macro as nothing)."""
    res = screened.evaluate(_HEAD + _TAIL.replace("y <= a", "y <= a ^ `SCR_LATE"))
    assert res.status is Status.INVALID, res.reason
    assert "SCR_LATE" in res.reason, res.reason
