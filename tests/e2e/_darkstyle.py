"""A repository in the darkriscv style, written for the gate's tests.

Macros come from ``rtl/config.vh``, which ``rtl/darkuart.v`` includes by name and which the
tools find through the include folder (the folder holds headers); the core's files are listed in
a filelist named in ``rtlopt.toml``. Unrelated board files under ``boards/`` do not parse.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

CONFIG_VH = """\
// darkriscv-style configuration: every module includes this
`ifndef __CONFIG_VH__
`define __CONFIG_VH__
`define __BAUD__ 8'd13
`define __WIDTH__ 8
`ifdef MODEL_TECH
  `define __SIMULATION__
`endif
`endif
"""

DARKUART = """\
// darkuart: a baud-rate divider and a shift register
// (header comment lines before the module: line numbers must count from the file's top)

`timescale 1ns / 1ps
`include "config.vh"

module darkuart (
    input                    CLK,
    input                    RES,
    input                    LOAD,
    input  [`__WIDTH__-1:0]  DATA,
    output                   TXD,
    output                   TICK
);

    reg [7:0] BAUD;
    reg [`__WIDTH__:0] SHIFT;

    always @(posedge CLK) begin
        if (RES) begin
            BAUD  <= 0;
            SHIFT <= {(`__WIDTH__+1){1'b1}};
        end else begin
            BAUD <= (BAUD == `__BAUD__) ? 8'd0 : BAUD + 8'd1;
            if (LOAD)
                SHIFT <= {DATA, 1'b0};
            else if (BAUD == `__BAUD__)
                SHIFT <= {1'b1, SHIFT[`__WIDTH__:1]};
        end
    end

    assign TXD  = SHIFT[0];
    assign TICK = (BAUD == `__BAUD__);

endmodule
"""

RTLOPT_TOML = """\
[project]
filelists = ["rtl/rtl.f"]
exclude = ["boards/**"]

[check]
optimization_only = ["*"]
ppa = false
"""


def write_darkstyle(repo: Path, *, commit_context: bool = True) -> Path:
    """Write and commit the repository; with ``commit_context=False`` the filelist and
    ``rtlopt.toml`` stay untracked (a user trying rtlopt before committing its setup)."""
    rtl = repo / "rtl"
    rtl.mkdir(parents=True)
    (rtl / "config.vh").write_text(CONFIG_VH)
    (rtl / "darkuart.v").write_text(DARKUART)
    (rtl / "rtl.f").write_text("+incdir+rtl\nrtl/darkuart.v\n")
    (repo / "rtlopt.toml").write_text(RTLOPT_TOML)
    (repo / "boards").mkdir()
    (repo / "boards" / "top_board.v").write_text("module board(input x; endmodule\n")
    run = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True)  # noqa: E731
    run("init", "-q", "-b", "main")
    run("config", "user.email", "t@localhost")
    run("config", "user.name", "t")
    if commit_context:
        run("add", "-A")
    else:
        run("add", "rtl/config.vh", "rtl/darkuart.v", "boards")
    run("commit", "-q", "-m", "darkstyle")
    return repo


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


#: An equivalent edit: the increment written as an adder with a carry-in, a compare reordered.
EQUIVALENT = (
    (
        "BAUD <= (BAUD == `__BAUD__) ? 8'd0 : BAUD + 8'd1;",
        "BAUD <= (`__BAUD__ == BAUD) ? 8'd0 : BAUD + 8'd0 + 1'b1;",
    ),
)
#: A broken edit: the shift register shifts in a 0 instead of the stop bit.
BROKEN = (("SHIFT <= {1'b1, SHIFT[`__WIDTH__:1]};", "SHIFT <= {1'b0, SHIFT[`__WIDTH__:1]};"),)
