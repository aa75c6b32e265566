"""`rtlopt check` refutes a broken edit of registers without reset with a failing input
(issue 33): the change starts in the power-up state it shares with the reference, and no
power-up state of the reference follows it through the input the search found. A change that
differs only by its initial value (which a chip does not have) is no refutation from unknown
registers, but every simulator reading the written text keeps the value: the proof from the
stated power-up values refutes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

TOGGLE = """module toggle (input clk, input en, output y);
    reg q = 1'b0;
    always @(posedge clk) if (en) q <= ~q;
    assign y = q;
endmodule
"""


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "toggle.v").write_text(TOGGLE)
    (repo / "rtlopt.toml").write_text('[check]\noptimization_only = ["*"]\nppa = false\n')
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _check(repo: Path, text: str) -> tuple[int, dict]:
    (repo / "toggle.v").write_text(text)
    git(repo, "add", "toggle.v")
    r = rtlopt(["check", "toggle.v", "--json"], repo)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    [m] = json.loads(r.stdout)["modules"]
    return r.returncode, m


def test_a_broken_edit_of_a_register_without_reset_is_refuted_with_a_failing_input(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    rc, m = _check(repo, TOGGLE.replace("q <= ~q;", "q <= q;"))
    assert rc == 1 and m["equivalence"] == "refuted", m
    assert "toggle.v is not equivalent" in m["findings"][0], m
    assert m["notes"][0].startswith("failing input (a refutation)"), m
    assert any(n.startswith("cycle 0: en=") for n in m["notes"]), m
    assert any("outputs differ: y: reference" in n for n in m["notes"]), m
    vcd = Path(m["notes"][-1].removeprefix("waveform: "))
    assert vcd.is_file() and "trigger" in vcd.read_text(), m


def test_another_initial_value_is_refuted_from_the_stated_values(tmp_path: Path) -> None:
    """The change differs from the shared power-up state only: no refutation from unknown
    registers (the reference powered up at 1 is the change), but every simulator and FPGA
    flow reading the written text keeps the initial value, and from the stated power-up
    values y differs in the first cycle (red team w20 F5): refuted, not proven."""
    repo = _repo(tmp_path)
    rc, m = _check(repo, TOGGLE.replace("reg q = 1'b0;", "reg q = 1'b1;"))
    assert rc == 1 and m["equivalence"] == "refuted", m
    assert "expected y=0, got y=1" in m["findings"][0], m
