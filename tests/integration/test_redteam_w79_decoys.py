"""Red team round 79 (held out), library and include decoys: a build reads another copy of a
parent of the target than rtlopt judged (``evaluate/_decoys.py``), so the x that copy ties
into the target went unseen and a candidate reading x otherwise was accepted on the 0/1
proofs alone (cases 05, 07, 08, 13, 16, 20, 21, 24).

* ``dot_library`` / ``dot_include``: the build's copy sits in a dot folder (``-y .lib``,
  ``-I.gen``), which the decoy scan skipped.
* ``library_file``: a library file of another suffix (``-l lib/cells.lib``, ``-v mid.txt``):
  only ``.v``/``.sv``/``.vh`` counted.
* ``file_level``: both copies of ``mid`` have the same module text; a ```define`` in front of
  each makes them mean otherwise (only the module's span was compared).
* ``macro_include``: ```include `MID_HDR`` (the name given by a ```define`` or a filelist's
  ``+define+``): only literal names were read; a name a build computes (``-DMID_HDR=$(HDR)``)
  cannot be told.

The reference takes ``else`` on ``b`` = x (``y`` = 0); the candidate takes its ``else`` too
(``y`` = ``a``): equal on 0/1, not in a simulation of the build's ``top``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, run_rtlopt
from test_redteam_w41_x_sources import IF_B, NOT_B
from test_xfaith import CONFIG, _evaluate

pytestmark = pytest.mark.tools

MID_X = "module mid(input a, input en, output y);\n  m u(.a(a), .b(), .y(y));\nendmodule\n"
MID_OK = "module mid(input a, input en, output y);\n  m u(.a(a), .b(en), .y(y));\nendmodule\n"
MID_B = "module mid(input a, input en, output y);\n  m u(.a(a), .b(`MID_B), .y(y));\nendmodule\n"
#: ``mid`` whose ``b`` a header drives (``HDR_OK``), or leaves undriven (``HDR_X``: z)
MID_INC = (
    "module mid(input a, input en, output y);\n  wire bsel;\n{}\n"
    "  m u(.a(a), .b(bsel), .y(y));\nendmodule\n"
)
HDR_OK = "  assign bsel = en;\n"
HDR_X = "  // bsel: the testbench drives it\n"
TOP = "module top(input a, input en, output y);\n  mid u0(.a(a), .en(en), .y(y));\nendmodule\n"
LISTED = "top.v\nmid.v\nm.v\n"
FORMS: dict[str, dict[str, str]] = {
    "dot_library": {
        "mid.v": MID_OK,
        ".lib/mid.v": MID_X,
        "files.f": LISTED,
        "Makefile": "sim:\n\tiverilog -y .lib -o sim.vvp top.v m.v\n",
    },
    "dot_include": {
        "mid.v": MID_INC.format('`include "mid_drv.vh"'),
        "inc/mid_drv.vh": HDR_OK,
        ".gen/mid_drv.vh": HDR_X,
        "files.f": "+incdir+inc\ntop.v\nmid.v\nm.v\n",
        "Makefile": "sim:\n\tiverilog -I.gen -Iinc -o sim.vvp top.v mid.v m.v\n",
    },
    "library_file_lib": {
        "mid.v": MID_OK,
        "lib/cells.lib": MID_X,
        "files.f": LISTED,
        "Makefile": "sim:\n\tiverilog -l lib/cells.lib -o sim.vvp top.v m.v\n",
    },
    "library_file_txt": {
        "mid.v": MID_OK,
        "mid.txt": MID_X,
        "files.f": LISTED,
        "run.sh": "verilator --binary -v mid.txt top.v m.v\n",
    },
    "file_level": {
        "mid.v": f"`define MID_B en\n{MID_B}",
        "lib/mid.v": f"`define MID_B 1'bx\n{MID_B}",
        "files.f": LISTED,
        "Makefile": "sim:\n\tiverilog -y lib -o sim.vvp top.v m.v\n",
    },
    "macro_include": {
        "mid.v": MID_INC.format('`define MID_HDR "mid_drv.vh"\n`include `MID_HDR'),
        "inc/mid_drv.vh": HDR_OK,
        "other/mid_drv.vh": HDR_X,
        "files.f": "+incdir+inc\ntop.v\nmid.v\nm.v\n",
        "Makefile": "sim:\n\tiverilog -Iother -Iinc -o sim.vvp top.v mid.v m.v\n",
    },
    "macro_include_no_value": {
        "mid.v": MID_INC.format(
            '`ifndef MID_HDR\n`define MID_HDR "mid_drv.vh"\n`endif\n`include `MID_HDR'
        ),
        "inc/mid_drv.vh": HDR_OK,
        "other/mid_drv.vh": HDR_X,
        "files.f": "+incdir+inc\ntop.v\nmid.v\nm.v\n",
        "Makefile": "sim:\n\tiverilog -DMID_HDR=$(HDR) -Iinc -o sim.vvp top.v mid.v m.v\n",
    },
    "macro_include_build_define": {
        "mid.v": MID_INC.format("`include `MID_HDR"),
        "inc/mid_drv.vh": HDR_OK,
        "other/mid_drv.vh": HDR_X,
        "files.f": '+define+MID_HDR="mid_drv.vh"\n+incdir+inc\ntop.v\nmid.v\nm.v\n',
        "Makefile": "sim:\n\tiverilog -Iother -Iinc -o sim.vvp top.v mid.v m.v\n",
    },
}

LIBRARY = "module mid is defined otherwise in"
WHY = {
    "dot_library": f"{LIBRARY} .lib/mid.v, mid.v",
    "dot_include": "may read any of .gen/mid_drv.vh, inc/mid_drv.vh",
    "library_file_lib": f"{LIBRARY} lib/cells.lib, mid.v",
    "library_file_txt": f"{LIBRARY} mid.txt, mid.v",
    "file_level": f"{LIBRARY} lib/mid.v, mid.v",
    "macro_include": "may read any of inc/mid_drv.vh, other/mid_drv.vh",
    "macro_include_no_value": "`include `MID_HDR names a header rtlopt cannot tell",
    "macro_include_build_define": "may read any of inc/mid_drv.vh, other/mid_drv.vh",
}


@pytest.mark.parametrize("form", list(FORMS))
def test_a_build_reading_another_copy_of_a_parent_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": IF_B,
        "top.v": TOP,
        **FORMS[form],
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert WHY[form] in reason, reason


def test_one_copy_in_a_dot_folder_is_no_decoy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cost side: a library in a dot folder holding the only copy is read as before (the
    candidate is refuted by the x the build's mid ties into b, not left unchecked)."""
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": IF_B,
        "top.v": TOP,
        ".lib/mid.v": MID_X,
        "files.f": "top.v\n.lib/mid.v\nm.v\n",
        "Makefile": "sim:\n\tiverilog -y .lib -o sim.vvp top.v m.v\n",
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into b" in reason, reason


SUB_AND = "module sub(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
SUB_OR = "module sub(input a, input b, output y);\n  assign y = a | b;\nendmodule\n"
WITH_SUB = "module m(input a, input b, output y);\n  sub s(.a(a), .b(b), .y(y));\nendmodule\n"
#: The candidate writes the submodule rtlopt reads in place: equal where ``sub`` is an AND,
#: not in a build that reads the OR copy.
INLINED = "module m(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
SUB_FORMS: dict[str, dict[str, str]] = {
    "dot_filelist": {".alt/asic.f": "m.v\nsub.v\n", ".alt/sub.v": SUB_OR},
    "dot_library": {".alt/sub.v": SUB_OR, "Makefile": "sim:\n\tiverilog -y .alt m.v tb.v\n"},
    "library_file": {"cells.lib": SUB_OR, "run.sh": "iverilog -l cells.lib m.v tb.v\n"},
}


@pytest.mark.parametrize("form", list(SUB_FORMS))
def test_a_build_reading_another_copy_of_a_submodule_is_proven_or_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": WITH_SUB,
        "sub.v": SUB_AND,
        "files.f": "m.v\nsub.v\n",
        **SUB_FORMS[form],
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, INLINED)
    reason = str(out["reason"])
    assert out["status"] == "invalid", reason


#: Two copies of ``sub`` with the same module text: what ``K`` is comes from the file-level
#: (compilation-unit) declaration in front of each.
SUB_UNIT = "localparam logic K = 1'b{};\nmodule sub(input logic a, output logic y);\n  assign y = a & K;\nendmodule\n"
WITH_UNIT_SUB = "module m(input logic a, output logic y);\n  sub s(.a(a), .y(y));\nendmodule\n"


def test_a_submodule_copy_meaning_otherwise_in_its_file_is_proven_or_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(Closed before round 79 by the compilation-unit rule; kept as the class's guard.)"""
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.sv": WITH_UNIT_SUB,
        "sub.sv": SUB_UNIT.format(1),
        "alt/sub.sv": SUB_UNIT.format(0),
        "files.f": "sub.sv\nm.sv\n",
        "alt/alt.f": "alt/sub.sv\nm.sv\n",
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (tmp_path / "cand.sv").write_text(
        "module m(input logic a, output logic y);\n  assign y = a;\nendmodule\n"
    )
    r = run_rtlopt(
        repo, "evaluate", "m.sv", "--candidate", str(tmp_path / "cand.sv"), "--module", "m",
        "--pdk", "nangate45", "--json",
    )  # fmt: skip
    assert r.returncode in (0, 1), (r.stdout + r.stderr)[-1500:]
    out = json.loads(r.stdout)["candidate"]
    assert out["status"] == "invalid" and "unchecked: " in out["reason"], out["reason"]


SUB_B = "module sub(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
PULLED = f"`unconnected_drive pull1\n{SUB_B}`nounconnected_drive\n"
OPEN_B = "module m(input a, output y);\n  sub s(.a(a), .b(), .y(y));\nendmodule\n"
#: Equal to the reference where ``b`` reads z (x for a = 1); not where it is pulled to 1.
X_AND = "module m(input a, output y);\n  assign y = a & 1'bx;\nendmodule\n"
PULL_FORMS: dict[str, dict[str, str]] = {
    "own_build": {"sub.v": PULLED},
    "other_copy": {"sub.v": SUB_B, "alt/sub.v": PULLED, "alt/alt.f": "alt/sub.v\nm.v\n"},
}


@pytest.mark.parametrize("form", list(PULL_FORMS))
def test_a_pulled_unconnected_input_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    """A copy of ``sub`` with the same module text under ```unconnected_drive pull1`` (a
    file-level directive no proof models) reads its open ``b`` as 1, not z."""
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": OPEN_B,
        "files.f": "sub.v\nm.v\n",
        **PULL_FORMS[form],
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, X_AND)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and "unchecked: " in reason, reason
    assert "`unconnected_drive pull1 makes the unconnected inputs" in reason, reason


def test_an_include_macro_a_build_sets_in_its_own_way_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DEFS += MID_HDR=...`` (a Makefile variable handed on later): a value rtlopt cannot
    read, whatever the repository's ```define`` says."""
    files = {
        "rtlopt.toml": f'{CONFIG}[project]\nfilelists = ["files.f"]\n',
        "m.v": IF_B,
        "top.v": TOP,
        **FORMS["macro_include_no_value"],
        "Makefile": 'DEFS += MID_HDR=\\"mid_drv.vh\\"\nsim:\n\tiverilog $(DEFS:%=-D%) -Iother top.v\n',
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "`include `MID_HDR names a header rtlopt cannot tell" in reason, reason
