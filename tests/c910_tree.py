"""A generated C910-style source tree: hundreds of files behind one filelist (test fixture).

Laid out like the XuanTie C910 RTL: ``gen_rtl/<unit>/rtl/*.v`` per unit, a header listed as a
source first in the filelist (``cpu_cfig.h``: macros every later file uses without
```include``), one configuration header per unit included by name through ``+incdir+``, nested
``-f`` lists per unit, and modules that instantiate each other across units. The target,
``ct_lza_top`` in ``gen_rtl/lza/rtl/ct_lza_top.v``, needs three of the files.

    write_tree(root, n_files=500) -> Tree
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Tree", "write_tree"]

UNITS = ("ifu", "idu", "iu", "lsu", "mmu", "biu", "vfpu", "cp0", "rtu", "had", "pmp", "clint")


@dataclass(frozen=True)
class Tree:
    root: Path
    filelist: str  # relative to root
    target: Path
    module: str
    files: int


CFIG = """\
// cpu_cfig.h: listed first in the filelist; every later file sees these macros
`define CT_XLEN 64
`define CT_W 16
`define CT_MSB 15
`define CT_PA_WIDTH 40
`define CT_FLUSH 1'b1
`define CT_IDLE 2'b00
`define CT_BUSY 2'b01
`define CT_DONE 2'b10
"""

LZA_TOP = """\
// ct_lza_top: leading-zero anticipation over two encoders
`include "lza_cfg.vh"
module ct_lza_top (
  input  [`CT_MSB:0] a,
  input  [`CT_MSB:0] b,
  output [4:0]       pos,
  output             zero
);
  wire [`CT_MSB:0] t = a ^ b;
  wire [3:0] hi_pos, lo_pos;
  wire hi_zero, lo_zero;
  ct_lza_enc u_hi (.v(t[15:8]), .pos(hi_pos), .zero(hi_zero));
  ct_lza_enc u_lo (.v(t[7:0]),  .pos(lo_pos), .zero(lo_zero));
  assign pos  = hi_zero ? {1'b0, lo_pos} + `LZA_BIAS : {1'b0, hi_pos};
  assign zero = hi_zero & lo_zero;
endmodule
"""

LZA_ENC = """\
// ct_lza_enc: 8-bit leading-one position
module ct_lza_enc (
  input  [7:0] v,
  output [3:0] pos,
  output       zero
);
  assign pos = v[7] ? 4'd0 : v[6] ? 4'd1 : v[5] ? 4'd2 : v[4] ? 4'd3 :
               v[3] ? 4'd4 : v[2] ? 4'd5 : v[1] ? 4'd6 : v[0] ? 4'd7 : 4'd8;
  assign zero = ~|v;
endmodule
"""


def _module(name: str, unit: str, subs: list[str], rng: random.Random) -> str:
    n_regs = rng.randint(3, 8)
    lines = [
        f"// {name}: generated {unit} logic",
        f'`include "{unit}_cfg.vh"',
        f"module {name} (",
        "  input              clk,",
        "  input              rst_b,",
        "  input  [`CT_MSB:0] din,",
        "  input  [1:0]       op,",
        "  output [`CT_MSB:0] dout",
        ");",
    ]
    for r in range(n_regs):
        lines.append(f"  reg [`CT_MSB:0] r{r};")
    lines.append("  reg [1:0] st;")
    for k, sub in enumerate(subs):
        lines.append(f"  wire [`CT_MSB:0] s{k};")
        lines.append(
            f"  {sub} u_{k} (.clk(clk), .rst_b(rst_b), .din(r{k % n_regs}), .op(op), .dout(s{k}));"
        )
    lines.append("  always @(posedge clk or negedge rst_b) begin")
    lines.append("    if (!rst_b) begin")
    for r in range(n_regs):
        lines.append(f"      r{r} <= {{`CT_W{{1'b0}}}};")
    lines.append("      st <= `CT_IDLE;")
    lines.append("    end else begin")
    lines.append("      case (op)")
    for r in range(n_regs):
        src = f"s{r % len(subs)}" if subs else "din"
        expr = rng.choice(
            [
                f"{src} + r{(r + 1) % n_regs}",
                f"{src} ^ (din << {r % 4})",
                f"~{src} & din",
                f"r{(r + 2) % n_regs} - {src}",
                f"{{{src}[`CT_MSB-1:0], {src}[`CT_MSB]}}",
            ]
        )
        lines.append(f"        2'd{r % 4}: r{r} <= {expr} ^ `{unit.upper()}_SALT;")
    lines.append("        default: st <= (st == `CT_BUSY) ? `CT_DONE : `CT_BUSY;")
    lines.append("      endcase")
    lines.append("    end")
    lines.append("  end")
    # bulk combinational logic, as in C910's decoders: files of a few hundred lines
    n_wires = rng.randint(40, 400)
    for w in range(n_wires):
        a, b = f"r{w % n_regs}", (f"w{w - 1}" if w else "din")
        op_ = rng.choice(["^", "&", "|", "+"])
        lines.append(f"  wire [`CT_MSB:0] w{w} = ({a} {op_} {b}) ^ {{{rng.randrange(1 << 16)}}};")
    acc = " ^ ".join(f"r{r}" for r in range(n_regs))
    lines.append(f"  assign dout = {acc} ^ w{n_wires - 1};")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def write_tree(root: Path, n_files: int = 500, seed: int = 910) -> Tree:
    """Write the tree under ``root`` (created) and return where its parts are.

    ``n_files`` counts the Verilog files (headers and filelists come on top).
    """
    rng = random.Random(seed)
    gen = root / "gen_rtl"
    lists = gen / "filelists"
    lists.mkdir(parents=True, exist_ok=True)
    (gen / "cpu" / "rtl").mkdir(parents=True, exist_ok=True)
    (gen / "cpu" / "rtl" / "cpu_cfig.h").write_text(CFIG)
    lza = gen / "lza" / "rtl"
    lza.mkdir(parents=True, exist_ok=True)
    (lza / "lza_cfg.vh").write_text("`define LZA_BIAS 5'd8\n")
    (lza / "ct_lza_top.v").write_text(LZA_TOP)
    (lza / "ct_lza_enc.v").write_text(LZA_ENC)
    (lza / "ct_lza_dummy.v").write_text(
        "module ct_lza_dummy(input a, output y);\nassign y = a;\nendmodule\n"
    )
    top_list = ["gen_rtl/cpu/rtl/cpu_cfig.h", "+incdir+gen_rtl/lza/rtl"]
    per_unit = max(1, (n_files - 3) // len(UNITS))
    names = [f"ct_{u}_m{i:03d}" for u in UNITS for i in range(per_unit)]
    for u_idx, unit in enumerate(UNITS):
        d = gen / unit / "rtl"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{unit}_cfg.vh").write_text(
            f"`ifndef {unit.upper()}_CFG\n`define {unit.upper()}_CFG\n"
            f"`define {unit.upper()}_SALT {{`CT_W{{1'b{u_idx % 2}}}}}\n`endif\n"
        )
        unit_list = [f"+incdir+gen_rtl/{unit}/rtl"]
        for i in range(per_unit):
            idx = u_idx * per_unit + i
            later = names[idx + 1 :]
            subs = rng.sample(later, k=min(len(later), rng.choice([0, 1, 1, 2]))) if later else []
            name = names[idx]
            (d / f"{name}.v").write_text(_module(name, unit, subs, rng))
            unit_list.append(f"gen_rtl/{unit}/rtl/{name}.v")
        (lists / f"{unit}.fl").write_text("\n".join(unit_list) + "\n")
        top_list.append(f"-f gen_rtl/filelists/{unit}.fl")
    top_list += [f"gen_rtl/lza/rtl/{n}" for n in ("ct_lza_enc.v", "ct_lza_dummy.v", "ct_lza_top.v")]
    (lists / "c910.fl").write_text("\n".join(top_list) + "\n")
    (root / "rtlopt.toml").write_text('[project]\nfilelists = ["gen_rtl/filelists/c910.fl"]\n')
    return Tree(
        root=root,
        filelist="gen_rtl/filelists/c910.fl",
        target=lza / "ct_lza_top.v",
        module="ct_lza_top",
        files=len(names) + 3,
    )
