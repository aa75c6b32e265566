"""Red team w39 F8, end to end with real git and the real CLI: the repository's instance feeds
the target's input an x that an operator makes at run time from defined operands (a select
past the end, ``.b(v[s])`` with ``v`` 6 bits and ``s`` 3 bits; a table index past the end; a
division by 0; two drivers that disagree; a ``$readmemh`` memory the file may not fill; a
function leaving its result unassigned on some path; ``default: r = 1'bx;``), and the
candidate turns ``if (b) y = a; else y = 0;`` into ``y = b ? a : 0`` (iverilog: ``y=00``
against ``y=X0``). ``rtlopt evaluate`` and ``rtlopt check`` proved it equivalent (the proofs
drive 0/1 only); the walk of ``frontend/_open_inputs.py`` now counts such a value as x
(``frontend/_run_x.py``, ``frontend/_two_drivers.py``, ``frontend/_sys_x.py``,
``frontend/_assigned.py``), and the change is proven x-faithful there
(``formal/xfaith.py``): this candidate is refuted with the counterexample (``b`` x), where
it used to be unchecked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
MUX = (
    "module m(input [7:0] a, input b, output reg [7:0] y);\n"
    "  always @* begin\n    if (b) y = a;\n    else y = 8'd0;\n  end\nendmodule\n"
)
CAND = "module m(input [7:0] a, input b, output reg [7:0] y);\n  always @* y = b ? a : 8'd0;\nendmodule\n"
TBL = "wire tbl [0:5]; " + " ".join(f"assign tbl[{i}] = 1'b{(i + 1) % 2};" for i in range(6))
FORMS = {
    "sel": ("v[s]", "wire [5:0] v = 6'b101010;", "selects with an index s that can reach 0..7"),
    "mem": ("tbl[s]", TBL, "outside the declared range [0:5]"),
    "div": ("|(a / d)", "wire [7:0] d = {5'd0, s};", "divides by d, which is not a nonzero"),
    "two": ("w", "wire w; assign w = s[0]; assign w = s[1];", "2 drivers (top.v, line 2)"),
    "load": (
        "tbl[s]",
        'reg tbl [0:7]; initial $readmemh("t.hex", tbl);',
        "may leave entries it does not load x",
    ),
    "fun": (
        "f(s)",
        "function f(input [2:0] i); if (i[0]) f = 1'b1; endfunction",
        "calls f, whose body may give x: a path through its body (top.v, line 2) leaves",
    ),
    "cone": (
        "w",
        "wire w, q; wire [5:0] v = 6'b101010; assign q = v[s]; assign w = q;",
        "to 'w', which reads 'q'",
    ),
    "dfx": (
        "r",
        "reg r; always @* case (s) 3'd0: r = a[0]; default: r = 1'bx; endcase",
        "writes a value with x/z bits (1'bx)",
    ),
}


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, conn: str, decl: str) -> Path:
    top = (
        "module top(input [7:0] a, input [2:0] s, output [7:0] y);\n"
        f"  {decl}\n  m u(.a(a), .b({conn}), .y(y));\nendmodule\n"
    )
    files = {"rtlopt.toml": CONFIG, "m.v": MUX, "top.v": top}
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


@pytest.mark.parametrize("form", sorted(FORMS))
def test_an_x_made_at_run_time_refutes_a_change_that_reads_it_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    conn, decl, why = FORMS[form]
    # what a file holds may spell z too (a z digit)
    xz = "may be z at run time" if form == "load" else "may be x at run time"
    repo = _repo(tmp_path, monkeypatch, conn, decl)
    (tmp_path / "cand.v").write_text(CAND)
    r = run_rtlopt(
        repo, "evaluate", "m.v", "--candidate", str(tmp_path / "cand.v"), "--module", "m",
        "--pdk", "nangate45", "--json",
    )  # fmt: skip
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    out = json.loads(r.stdout)
    reason = str(out["candidate"]["reason"])  # type: ignore[index]
    assert not out["accepted"], reason
    assert "not where the repository feeds x into b" in reason, reason
    assert "the repository's instance top.u of m (top.v, line 3)" in reason, reason
    assert xz in reason and why in reason, reason
    assert "b=x" in reason and "expected y=00000000" in reason, reason
    (repo / "m.v").write_text(CAND)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    g = run_rtlopt(repo, "check")
    out = g.stdout + g.stderr
    assert g.returncode != 0 and xz in out and "b=x" in out, out[-1500:]


def test_an_index_within_the_range_still_lets_the_gate_prove_the_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, "v[s[1:0]] ^ (a[0] % 8'd3 == 0)", "wire [5:0] v = a[5:0];")
    (repo / "m.v").write_text(CAND)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    g = run_rtlopt(repo, "check")
    out = g.stdout + g.stderr
    assert g.returncode == 0 and "proven" in out, out[-1500:]


#: Equal to MUX on 0/1 and where b is x (a case on x takes its default, as MUX its else).
FAITHFUL = (
    "module m(input [7:0] a, input b, output reg [7:0] y);\n"
    "  always @* case (b) 1'b1: y = a; default: y = 8'd0; endcase\nendmodule\n"
)


@pytest.mark.parametrize("form", ["sel", "dfx"])
def test_a_change_that_reads_the_x_as_the_reference_does_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    conn, decl, _ = FORMS[form]
    repo = _repo(tmp_path, monkeypatch, conn, decl)
    (repo / "m.v").write_text(FAITHFUL)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    g = run_rtlopt(repo, "check")
    out = g.stdout + g.stderr
    assert g.returncode == 0, out[-1500:]
    assert "proven, also where the repository feeds x into b" in out, out[-1500:]
