#!/usr/bin/env python3
"""`rtlopt profile` time against the number of files, cold and warm (cached), in one run.

Generates C910-style trees (one module per file, a filelist in rtlopt.toml, an include folder
with a header of macros, a hierarchy of clusters under one top) of several sizes, and times
the whole command (`python -m rtlopt profile TOP --json`) on each, first with an empty cache
(cold), then again (warm: served from the profile cache). Prints seconds and the ratio of each
size to the smallest, so the growth is visible.

    python bench/profile_scaling.py [--sizes 50 150 500] [--pdk nangate45]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _leaf(i: int) -> str:
    kind = i % 3
    body = {
        0: "    always @(posedge clk) q <= rst ? {`W{1'b0}} : (a ^ b) + q;",
        1: "    always @(posedge clk) q <= rst ? {`W{1'b0}} : (a & b) | (q >> 1);",
        2: "    always @(posedge clk) q <= rst ? {`W{1'b0}} : a - b;",
    }[kind]
    return (
        '`include "defs.vh"\n'
        f"module leaf_{i} (input clk, input rst, input [`W-1:0] a, input [`W-1:0] b,\n"
        f"    output reg [`W-1:0] q);\n{body}\nendmodule\n"
    )


def _cluster(c: int, leaves: list[int]) -> str:
    lines = [
        '`include "defs.vh"',
        f"module cluster_{c} (input clk, input rst, input [`W-1:0] a, input [`W-1:0] b,",
        "    output [`W-1:0] y);",
    ]
    prev = "a"
    for i in leaves:
        lines.append(f"    wire [`W-1:0] w{i};")
        lines.append(f"    leaf_{i} u_{i} (.clk(clk), .rst(rst), .a({prev}), .b(b), .q(w{i}));")
        prev = f"w{i}"
    lines += [f"    assign y = {prev};", "endmodule", ""]
    return "\n".join(lines)


def make_tree(root: Path, files: int) -> str:
    """A tree of about ``files`` Verilog files; returns the top's name."""
    rtl = root / "rtl"
    (rtl / "include").mkdir(parents=True)
    (rtl / "include" / "defs.vh").write_text(
        "`ifndef DEFS_VH\n`define DEFS_VH\n`define W 8\n`endif\n"
    )
    clusters = max(1, files // 10)
    leaves = max(1, files - clusters - 1)
    names: list[str] = []
    for i in range(leaves):
        (rtl / f"leaf_{i}.v").write_text(_leaf(i))
        names.append(f"rtl/leaf_{i}.v")
    per = [list(range(c, leaves, clusters)) for c in range(clusters)]
    top = ['`include "defs.vh"', "module soc (input clk, input rst, input [`W-1:0] a,"]
    top.append("    input [`W-1:0] b, output [`W-1:0] y);")
    acc = "a"
    for c, members in enumerate(per):
        (rtl / f"cluster_{c}.v").write_text(_cluster(c, members))
        names.append(f"rtl/cluster_{c}.v")
        top.append(f"    wire [`W-1:0] y{c};")
        top.append(f"    cluster_{c} u_c{c} (.clk(clk), .rst(rst), .a({acc}), .b(b), .y(y{c}));")
        acc = f"y{c}"
    top += [f"    assign y = {acc};", "endmodule", ""]
    (rtl / "soc.v").write_text("\n".join(top))
    names.append("rtl/soc.v")
    (root / "files.f").write_text("+incdir+rtl/include\n" + "\n".join(names) + "\n")
    (root / "rtlopt.toml").write_text('[project]\nfilelists = ["files.f"]\n')
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "tree"]):
        subprocess.run(
            ["git", "-c", "user.name=b", "-c", "user.email=b@l", *cmd], cwd=root, check=True
        )
    return "soc"


def timed(root: Path, top: str, pdk: str, cache: Path) -> float:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(REPO)}
    argv = [sys.executable, "-m", "rtlopt", "profile", top, "--pdk", pdk, "--json"]
    t0 = time.monotonic()
    proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    if proc.returncode != 0:
        raise SystemExit(f"profile failed on {root}: {proc.stderr.strip()[-400:]}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 150, 500])
    ap.add_argument("--pdk", default="nangate45")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-profile-bench-") as tmp:
        for n in args.sizes:
            root = Path(tmp) / f"tree{n}"
            root.mkdir()
            top = make_tree(root, n)
            cache = Path(tmp) / f"cache{n}"
            cold = timed(root, top, args.pdk, cache)
            warm = timed(root, top, args.pdk, cache)
            rows.append((n, cold, warm))
    base = rows[0][1]
    print(f"{'files':>6} {'cold s':>8} {'warm s':>8} {'cold / smallest':>16}")
    for n, cold, warm in rows:
        print(f"{n:>6} {cold:>8.1f} {warm:>8.1f} {cold / base:>16.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
