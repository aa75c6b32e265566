"""Round 103 (held out, `/work/notes/rt103/`): paths by which a parameter's value reached code
no check of it read.

Five accepted changes, each wrong only at one value of the width parameter ``W``: an
instantiated target whose instance takes ``W`` from a top's parameter (a top's parameters are
its interface) or from a macro a parent defines under `` `ifndef`` (a build may define it
otherwise) was checked only at the values the repository elaborates; a helper module the
candidate adds took ``W`` as a parameter and used it as a value where the split proof does not
look; a new net whose width a constant function or a product computes (729) cut the data past
that width without any probe reaching it; a value use inside a generate ``else`` branch was
not split. Now such a target parameter is the module's interface (freed, split and probed); a
parameter assigned to an instance's parameter that its module uses as a value leaves the
change unchecked unless a probe refutes it; a net keeping its width when every parameter moves
counts as a fixed width; the split reads every branch and case item of a generate construct.
Equivalent rewrites of the same shapes stay accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text, module_verdict

pytestmark = pytest.mark.tools

M = "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  assign y = a + 1'b1;\nendmodule\n"
# wrong only at W = 100: n holds W, and only there the condition holds
AT_100 = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
    "  wire [W-1:0] n = a - a + W;\n"
    "  assign y = (n == 10 * 10 && a[0]) ? a : a + 1'b1;\nendmodule\n"
)
PARENTS = {
    "a-tops-parameter": "module top #(parameter P = 8) (input [P-1:0] a, output [P-1:0] y);\n  m #(.W(P)) u (.a(a), .y(y));\nendmodule\n",
    "an-overridable-macro": "`ifndef WIDTH\n`define WIDTH 8\n`endif\nmodule top (input [`WIDTH-1:0] a, output [`WIDTH-1:0] y);\n  m #(.W(`WIDTH)) u (.a(a), .y(y));\nendmodule\n",
}


@pytest.mark.parametrize("parent", list(PARENTS))
def test_an_open_value_above_an_instantiated_target_makes_its_parameter_an_interface(
    parent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"m.v": M, "top.v": PARENTS[parent]}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", AT_100)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and ("unchecked" in reason or "not equivalent" in reason), reason
    # an equivalent rewrite that depends on W is still proven there
    same = M.replace("assign y = a + 1'b1;", "wire [W-1:0] one = 1;\n  assign y = one + a;")
    rc, out = evaluate_text(repo, "m.v", same)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 0, reason
    assert "W open" in str(out.get("scope", "")), out.get("scope")


HELPER = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire hit;\n"
    "  m_chk #(.K(W)) u_chk (.b(a[0]), .hit(hit));\n  assign y = hit ? a : a + 1'b1;\nendmodule\n"
    "module m_chk #(parameter K = 1) (input b, output hit);\n"
    "  assign hit = b && (K * K == 10000);\nendmodule\n"
)
SUB = (
    "module sub #(parameter K = 8) (output o);\n  assign o = (K * K == 10000);\nendmodule\n"
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire s;\n"
    "  sub #(.K(W)) u (.o(s));\n  assign y = a ^ {{(W-1){1'b0}}, s};\nendmodule\n"
)
CAP = (
    "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
    "  function integer cap;\n    input integer n;\n    integer i;\n    begin\n"
    "      cap = 1;\n      for (i = 0; i < n; i = i + 1) cap = cap * 3;\n    end\n  endfunction\n"
    "  localparam integer C = cap(6);\n  wire [C-1:0] t = a + b;\n  assign y = t;\nendmodule\n"
)
ADD = "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n  assign y = a + b;\nendmodule\n"
TREE = (
    "module m #(parameter W = 8) (input [W-1:0] a, output y);\n"
    "  generate if (W <= 1) begin : leaf\n    assign y = a[0];\n  end else begin : node\n"
    "    assign y = ^a;\n  end endgenerate\nendmodule\n"
)
CASES = {
    "a-helper-taking-the-parameter": (M, HELPER),
    # the candidate keeps the instance and stops using its output, wrong only at W = 100
    "a-repository-module-taking-it": (
        SUB,
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire s;\n"
        "  sub #(.K(W)) u (.o(s));\n  assign y = a;\nendmodule\n",
    ),
    "a-width-a-constant-function-computes": (ADD, CAP),
    "a-width-a-product-computes": (
        ADD,
        ADD.replace(
            "  assign y = a + b;",
            "  localparam integer C = 27 * 27;\n  wire [C-1:0] t = a + b;\n  assign y = t;",
        ),
    ),
    "a-value-in-a-generate-else-branch": (
        TREE,
        TREE.replace(
            "    assign y = ^a;",
            "    wire [31:0] n = W + (a & 0);\n    assign y = (n * n == 10000 && a[0]) ? 1'b0 : ^a;",
        ),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_parameter_reaching_code_no_check_read_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, cand = CASES[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 1 and ("not equivalent" in reason or "unchecked" in reason), reason


def test_a_module_beside_the_target_in_its_file_leaves_probes_legal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the reference's copy under a probe was the whole file: its other module was refused as
    # a redefinition, so no probe was legal and every change was "unchecked"
    ref = (
        "module inv #(parameter K = 8) (input [K-1:0] i, output [K-1:0] o);\n  assign o = ~i;\nendmodule\n"
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire [W-1:0] s;\n"
        "  inv #(.K(W)) u (.i(a), .o(s));\n  assign y = s + {{(W-1){1'b0}}, 1'b1};\nendmodule\n"
    )
    cand = "module m" + ref.split("module m", 1)[1].replace(
        "assign y = s + {{(W-1){1'b0}}, 1'b1};", "assign y = {{(W-1){1'b0}}, 1'b1} + s;"
    )
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 0, reason
