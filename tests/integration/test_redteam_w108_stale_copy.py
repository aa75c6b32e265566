"""Red-team round 108 (held out, /work/notes/rt108/, on e23cf46c): a stale copy of a parent
outside the build (``old/mid.v``, not in the filelist) instantiating the target at its
defaults, beside the build's parent instantiating it at W = 36. The configurations were read
from an elaboration of every file, which keeps the last of two definitions: W = 36 was never
a configuration, and a candidate wrong only there (round 107's one-bit predicate, which the
probes of an instantiated target do not reach) was proven. The configurations are now read
from each module's build definition, as the instance analysis reads them."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import repo_verdict

pytestmark = pytest.mark.tools

M = (
    "module m #(parameter W = 8) (input s, input [W-1:0] b, input [W-1:0] c, "
    "output [W-1:0] y);\n  assign y = s ? b : c;\nendmodule\n"
)
FILES = {
    "rtlopt.toml": '[project]\nfilelists = ["files.f"]\n',
    "files.f": "rtl/m.v\nrtl/mid.v\nrtl/top.v\n",
    "rtl/m.v": M,
    "rtl/top.v": (
        "module top (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  mid x (.b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "rtl/mid.v": (
        "module mid (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  m #(.W(36)) u (.s(1'b1), .b(b), .c(c), .y(y));\nendmodule\n"
    ),
    "old/mid.v": (
        "// an old copy of mid, not in the build (files.f)\n"
        "module mid (input [35:0] b, input [35:0] c, output [35:0] y);\n"
        "  m u (.s(b[8]), .b(b[7:0]), .c(c[7:0]), .y(y[7:0]));\n"
        "  assign y[35:8] = 28'd0;\nendmodule\n"
    ),
}
AT_36 = M.replace(
    "  assign y = s ? b : c;",
    "  wire t = b[0] | ~b[0];\n"
    + "".join(
        f"  wire [7:0] d{i} = t ? 8'd{v} : 8'd0;\n"
        for i, v in enumerate((189, 185, 247, 73, 109), 1)
    )
    + "  wire p = ({1'b0, {W{1'b1}}} == d1 * d2 * d3 * d4 * d5);\n"
    "  assign y = p ? ~(s ? b : c) : (s ? b : c);",
)


def test_a_configuration_only_the_builds_parent_makes_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = repo_verdict(tmp_path, monkeypatch, FILES, "rtl/m.v", AT_36)
    assert rc == 1 and "W=36" in reason, reason
