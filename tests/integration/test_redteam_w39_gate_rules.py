"""Red team w39 through the gate, with real git (each case passed `rtlopt check` before):

- F5: a new file left `` `unconnected_drive pull1 `` (or `` `default_nettype tri1 ``,
  `` `celldefine ``) in force and "took it back" only in text no build reads: an ``ifdef``
  branch, a macro body, an escaped identifier. Directives are now judged on the text a build
  reads: a taking back counts where every configuration reads it (``check/_directives.py``).
- F6: a new file's ``primitive CELLX`` (or ``module \\CELLX``) captured the vendor library
  cell ``CELLX`` the design instantiates (``iverilog -y``): every design unit a changed file
  adds is judged against the names the repository used (``check/_units.py``).
  A cell name a macro pastes (```CELL(AND2)`` with ``x``_lib``) is one it used too.
- F7: a new ``local/cfg.vh`` beside the existing ``inc/cfg.vh`` that ``top.v`` includes: a
  build with ``-Ilocal -Iinc`` reads the new one, the gate its own order. A new file an
  existing ``include`` can name while another file has that name is a finding
  (``check/_shadow.py``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
HELPER = "module helper(input i, output o);\n  assign o = i;\nendmodule\n"
TOP = (
    "module top(input [7:0] a, output [7:0] y, output w);\n  assign y = a;\n"
    "  sub s(.o(w));\nendmodule\nmodule sub(input i, output o);\n  assign o = i;\nendmodule\n"
)


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *GIT_ID, "-C", str(repo), *args], capture_output=True, text=True, timeout=900
    )


def _check(repo: Path, *added: str) -> subprocess.CompletedProcess[str]:
    assert _git(repo, "add", "--", *added).returncode == 0
    return run_rtlopt(repo, "check", "--no-ppa")


@pytest.mark.parametrize(
    ("tail", "said"),
    [
        (
            "`unconnected_drive pull1\n`ifdef NEVER_DEFINED\n`nounconnected_drive\n`endif\n",
            "line 4: leaves `unconnected_drive pull1 in force after the file in some configuration",
        ),
        (
            "`unconnected_drive pull1\n`define NO_DRIVE `nounconnected_drive\n",
            "line 5: `nounconnected_drive in a macro body",
        ),
        (
            "`default_nettype tri1\n`ifndef SYNTHESIS\n`else\n`default_nettype wire\n`endif\n",
            "line 4: leaves `default_nettype tri1 in force after the file in some configuration",
        ),
        (
            "`celldefine\n`ifdef A\n`elsif B\n`else\n`endcelldefine\n`endif\n",
            "line 4: leaves `celldefine in force after the file in some configuration",
        ),
        (
            "`unconnected_drive pull1\nwire \\x`nounconnected_drive ;\n",
            "line 4: leaves `unconnected_drive pull1 in force",
        ),
    ],
)
def test_a_directive_taken_back_only_in_text_no_build_reads_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tail: str, said: str
) -> None:
    files = {"rtlopt.toml": CONFIG, "top.v": TOP}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "a_helper.v").write_text(HELPER + tail)
    r = _check(repo, "a_helper.v")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"the new file a_helper.v at {said}" in r.stdout, r.stdout[-1500:]


@pytest.mark.parametrize(
    "text",
    [
        "`default_nettype none\n" + HELPER + "`default_nettype wire\n",
        "`ifdef SIM\n`unconnected_drive pull0\n`endif\n"
        + HELPER
        + "`ifdef SIM\n`nounconnected_drive\n`endif\n",
        "`ifdef SIM\n`celldefine\n" + HELPER + "`endcelldefine\n`else\n" + HELPER + "`endif\n",
    ],
)
def test_a_directive_every_configuration_takes_back_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    files = {"rtlopt.toml": CONFIG, "top.v": TOP}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "a_helper.v").write_text(text)
    r = _check(repo, "a_helper.v")
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]


CELL_TOP = "module top(input a, output z);\n  CELLX c0(z, a);\nendmodule\n"
UDP = "primitive CELLX(o, i);\n  output o; input i;\n  table 0 : 0; 1 : 1; endtable\nendprimitive\n"


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        (UDP + HELPER, "cells.v:1: primitive CELLX: top.v named CELLX before the change"),
        (
            "module \\CELLX (output o, input i);\n  assign o = i;\nendmodule\n",
            "cells.v:1: module CELLX: top.v named CELLX before the change",
        ),
        (
            "interface CELLX(input i);\n  logic o;\nendinterface\n" + HELPER,
            "cells.v:1: interface CELLX: top.v named CELLX",
        ),
    ],
)
def test_a_new_design_unit_named_like_a_library_cell_the_design_uses_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cells: str, said: str
) -> None:
    files = {"rtlopt.toml": CONFIG, "top.v": CELL_TOP}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "cells.v").write_text(cells)
    r = _check(repo, "cells.v")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert said in r.stdout, r.stdout[-1500:]


def test_a_new_primitive_with_a_fresh_name_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"rtlopt.toml": CONFIG, "top.v": CELL_TOP}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "cells.v").write_text(UDP.replace("CELLX", "MYBUF") + HELPER)
    r = _check(repo, "cells.v")
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]


PASTE_TOP = (
    "`define CELL(x) x``_lib\n"
    "module top(input a, input b, output z);\n  `CELL(AND2) u(.A(a), .B(b), .Z(z));\nendmodule\n"
)
AND2_LIB = "module AND2_lib(input A, input B, output Z);\n  assign Z = A & B;\nendmodule\n"


@pytest.mark.parametrize(("name", "fails"), [("AND2_lib", True), ("my_and", False)])
def test_a_new_module_a_pasting_macro_may_name_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, fails: bool
) -> None:
    """```CELL(AND2) u(...)`` names the library cell ``AND2_lib`` by pasting: a new module
    of that name captures it (a fresh name passes)."""
    files = {"rtlopt.toml": CONFIG, "top.v": PASTE_TOP}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "cells.v").write_text(AND2_LIB.replace("AND2_lib", name))
    r = _check(repo, "cells.v")
    assert r.returncode == int(fails), (r.stdout + r.stderr)[-1500:]
    said = "cells.v:1: module AND2_lib: top.v:1: the macro `CELL pastes tokens into a name"
    assert (said in r.stdout) == fails, r.stdout[-1500:]


SHADOW_TOP = (
    '`include "cfg.vh"\nmodule top(input [7:0] a, output [7:0] z);\n'
    "  assign z = a + `INC;\nendmodule\n"
)


@pytest.mark.parametrize("folder", ["local", "zz"])
def test_a_new_header_named_like_one_the_design_includes_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    files = {"rtlopt.toml": CONFIG, "top.v": SHADOW_TOP, "inc/cfg.vh": "`define INC 8'd1\n"}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / folder).mkdir()
    (repo / folder / "cfg.vh").write_text("`define INC 8'd2\n")
    r = _check(repo, f"{folder}/cfg.vh")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    said = (
        f'top.v:1: {folder}/cfg.vh is new, and top.v includes "cfg.vh", which also names inc/cfg.vh'
    )
    assert said in r.stdout, r.stdout[-1500:]


def test_a_new_header_with_a_fresh_name_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"rtlopt.toml": CONFIG, "top.v": SHADOW_TOP, "inc/cfg.vh": "`define INC 8'd1\n"}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "inc" / "fresh.vh").write_text("`define FRESH 8'd1\n")
    (repo / "top.v").write_text('`include "fresh.vh"\n' + SHADOW_TOP.replace("`INC", "`FRESH"))
    r = _check(repo, "inc/fresh.vh", "top.v")
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]
    assert "proven" in r.stdout, r.stdout[-1500:]


def test_a_new_link_to_a_folder_with_a_header_of_that_name_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-Ilocal -Iinc``: a new link ``local -> alt`` makes the build read ``alt/cfg.vh``
    (the gate had said "no Verilog module changed")."""
    files = {
        "rtlopt.toml": CONFIG,
        "top.v": SHADOW_TOP,
        "inc/cfg.vh": "`define INC 8'd1\n",
        "alt/cfg.vh": "`define INC 8'd2\n",
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "local").symlink_to("alt")
    r = _check(repo, "local")
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert 'local/cfg.vh is new, and top.v includes "cfg.vh", which also names' in r.stdout
