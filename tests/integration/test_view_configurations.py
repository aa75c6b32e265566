"""Other macro configurations on the SystemVerilog view path (``evaluate/_view_configs.py``).

A design the view path reads (here a streaming operator iverilog 11 cannot compile) whose
module tests a macro: a change to shared code was unchecked there whatever it was (every
pulp-platform module tests ``COMMON_CELLS_ASSERTS_OFF``). Now each configuration in which the
candidate reads differently is proven like the defaults: an equivalent change is accepted, one
equivalent only in the configuration the view reads is refuted in the other, and when a header
sets the macro (which configuration the view read is then not known) both are proven.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools, pytest.mark.slow]  # three evaluations through slang, ~20 s each

TOML = '[project]\nexclude = ["cand/**"]\n'
TGT = """{head}module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] r = {{<<{{a}}}};
  wire [3:0] t;
`ifdef FAST
  assign t = r & b;
`else
  assign t = r ^ b;
`endif
  assign y = t;
endmodule
"""


def _evaluate(tmp_path: Path, mp: pytest.MonkeyPatch, cand: str, head: str = "") -> dict[str, str]:
    files = {"rtlopt.toml": TOML, "rtl/top.sv": TGT.format(head=head)}
    if head:
        files["rtl/fast.svh"] = "`define FAST\n"
    repo = committed_repo(tmp_path / "repo", files, mp, tmp_path / "cache")
    (repo / "cand").mkdir()
    (repo / "cand" / "c.sv").write_text(cand)
    r = run_rtlopt(
        repo, "evaluate", "rtl/top.sv", "--candidate", "cand/c.sv", "--pdk", "nangate45", "--json"
    )
    assert r.returncode in (0, 1), r.stderr[-800:]
    import json

    out = json.loads(r.stdout)
    cand_out = out["candidate"]
    return {**cand_out, "rc": str(r.returncode), "accepted": str(out["accepted"])}


def test_a_shared_change_is_proven_in_the_other_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = TGT.format(head="").replace("assign y = t;", "assign y = ~(~t) | (t & b);")
    out = _evaluate(tmp_path, monkeypatch, cand)
    assert out["accepted"] == "True", out["reason"]
    assert "FAST defined" in str(out["configurations"])


def test_a_change_right_only_in_the_views_configuration_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = TGT.format(head="").replace("assign y = t;", "assign y = r ^ b;")
    out = _evaluate(tmp_path, monkeypatch, cand)
    assert out["accepted"] == "False", out
    assert "in the configuration FAST defined" in out["reason"], out["reason"]


def test_a_macro_a_header_sets_has_both_configurations_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the header defines FAST: the view reads t = r & b; a candidate right only there differs
    # when FAST is undefined, the configuration a guess from the project's defines would take
    # for the one the view proved
    head = '`include "fast.svh"\n'
    cand = TGT.format(head=head).replace("assign y = t;", "assign y = r & b;")
    out = _evaluate(tmp_path, monkeypatch, cand, head)
    assert out["accepted"] == "False", out
    assert "FAST undefined" in out["reason"], out["reason"]
