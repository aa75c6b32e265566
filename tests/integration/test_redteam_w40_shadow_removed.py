"""Red team w40 through the gate, with real git: a removed header that shadowed another.

G5: ``z_local/h.vh`` (INC 2) shadows ``inc/h.vh`` (INC 1) under a Makefile's ``-Iz_local
-Iinc``; rtlopt.toml states no include folders. A commit deleting or renaming away
``z_local/h.vh`` changes what every includer reads in that build, while the gate, resolving
the include in its own folder order, read ``inc/h.vh`` on both sides ("m (reached) proven").
A removed file an include can name while another file of that name remains is now a finding
naming the header, its includers and the other file.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
M = '`include "h.vh"\nmodule m(input [7:0] a, output [7:0] y);\n  assign y = a + `INC;\nendmodule\n'
TOP = "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
TB = (
    "module tb; reg [7:0] a = 8'h10; wire [7:0] y; top t(.a(a), .y(y));\n"
    '  initial #1 $display("y=%h", y); endmodule\n'
)
MAKE = "sim:\n\tiverilog -g2012 -Iz_local -Iinc -o sim.vvp *.v tb/tb.v\n"
BASE = {
    "rtlopt.toml": CONFIG,
    "m.v": M,
    "top.v": TOP,
    "tb/tb.v": TB,
    "Makefile": MAKE,
    "inc/h.vh": "`define INC 8'd1\n",
    "z_local/h.vh": "`define INC 8'd2\n",
    "z_local/README.vh": "// local headers\n",
}


def _checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: dict[str, str], *git: str
) -> subprocess.CompletedProcess[str]:
    """``rtlopt check`` of the staged result of ``git *git`` over a repository of ``base``."""
    repo = committed_repo(tmp_path / "repo", base, monkeypatch, tmp_path / "cache")
    if git[0] == "mv":
        (repo / git[-1]).parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), *git], check=True, timeout=60)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True, timeout=60)
    return run_rtlopt(repo, "check", "--no-ppa")


@pytest.mark.parametrize(
    ("git", "other"),
    [
        (("rm", "-q", "z_local/h.vh"), "inc/h.vh"),
        (("mv", "z_local/h.vh", "z_local/h_old.vh"), "inc/h.vh"),
        (("mv", "z_local/h.vh", "old/h.vh"), "inc/h.vh"),
    ],
    ids=["delete", "rename", "move"],
)
def test_removing_a_header_that_shadowed_another_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, git: tuple[str, ...], other: str
) -> None:
    """G5 ``delete`` / ``rename``, and a move to another folder under the same name."""
    r = _checked(tmp_path, monkeypatch, BASE, *git)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    said = f'z_local/h.vh is removed, and m.v includes "h.vh", which also names {other}'
    assert said in r.stdout, r.stdout[-1500:]
    assert "state the include folders in rtlopt.toml" in r.stdout, r.stdout[-1500:]


def test_an_include_of_any_file_names_the_removed_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The includer is a header, not a module's file, and the include is written ``<h.vh>``."""
    base = BASE | {
        "m.v": M.replace('`include "h.vh"', '`include "cfg.svh"'),
        "inc/cfg.svh": "`include <h.vh>\n",
    }
    r = _checked(tmp_path, monkeypatch, base, "rm", "-q", "z_local/h.vh")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    said = 'z_local/h.vh is removed, and inc/cfg.svh includes "h.vh", which also names inc/h.vh'
    assert said in r.stdout, r.stdout[-1500:]


def test_removing_a_link_to_a_folder_of_headers_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build's first include folder is a link to a folder; the commit removes the link."""
    base = {k: v for k, v in BASE.items() if not k.startswith("z_local/")}
    base["hdrs/h.vh"] = "`define INC 8'd2\n"
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "z_local").symlink_to("hdrs", target_is_directory=True)
    r = _checked(tmp_path, monkeypatch, base, "rm", "-q", "z_local")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    said = 'z_local/h.vh is removed, and m.v includes "h.vh", which also names hdrs/h.vh, inc/h.vh'
    assert said in r.stdout, r.stdout[-1500:]


def test_removing_the_only_header_of_its_name_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No other file to fall through to: the include names nothing, which fails on its own."""
    base = {k: v for k, v in BASE.items() if k != "inc/h.vh"}
    r = _checked(tmp_path, monkeypatch, base, "rm", "-q", "z_local/h.vh")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "is removed, and" not in r.stdout, r.stdout[-1500:]


def test_moving_the_only_header_of_its_name_is_not_this_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Control: inc/h.vh moves to hdr/h.vh; no other file of that name was there to read."""
    base = {k: v for k, v in BASE.items() if k != "z_local/h.vh"}
    r = _checked(tmp_path, monkeypatch, base, "mv", "inc/h.vh", "hdr/h.vh")
    assert "is removed, and" not in r.stdout, r.stdout[-1500:]


def test_removing_a_header_no_include_names_is_not_this_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Control: z_local/README.vh is included by nothing (the gate's finding for a header no
    file includes stands; the removal's does not)."""
    r = _checked(tmp_path, monkeypatch, BASE, "rm", "-q", "z_local/README.vh")
    assert "is removed, and" not in r.stdout, r.stdout[-1500:]
    assert "the gate found no file that includes it" in r.stdout, r.stdout[-1500:]


def test_stated_include_folders_judge_the_removal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Control: rtlopt.toml states the build's order: the gate reads z_local/h.vh on the base
    side and refutes the change (no finding of the removal itself is needed)."""
    config = CONFIG + '[project]\ninclude_dirs = ["z_local", "inc"]\n'
    r = _checked(tmp_path, monkeypatch, BASE | {"rtlopt.toml": config}, "rm", "-q", "z_local/h.vh")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "is removed, and" not in r.stdout, r.stdout[-1500:]
    assert "mismatch" in r.stdout or "refuted" in r.stdout, r.stdout[-1500:]
