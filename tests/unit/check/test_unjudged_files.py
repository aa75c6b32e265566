"""Changed files of other kinds the design may read (red team w30 F4: a ``$readmemh`` whose
file name the source builds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._reads import unjudged_files

ROM = "module m(input [1:0] a, output [7:0] y);\n  reg [7:0] rom [0:3];\n  {load}\n  assign y = rom[a];\nendmodule\n"


@pytest.mark.parametrize(
    ("load", "found"),
    [
        ('initial $readmemh("rom.hex", rom);', ["rom.hex"]),  # named: that file alone
        ('initial $readmemh({"rom", ".hex"}, rom);', ["notes.md", "rom.hex"]),
        ('initial $readmemh($sformatf("rom%0d.hex", 0), rom);', ["notes.md", "rom.hex"]),
        ("initial $readmemh(F, rom);", []),  # a parameter: its string values are named
        ('localparam F = "rom.hex";\n  initial $readmemh(F, rom);', ["rom.hex"]),
        # round 93 case 04: a parameter given a concatenation, a variable a task writes
        ('localparam F = {"ro", "m.hex"};\n  initial $readmemh(F, rom);', ["notes.md", "rom.hex"]),
        (
            'reg [80:1] F;\n  initial begin $sformat(F, "rom.hex"); $readmemh(F, rom); end',
            ["notes.md", "rom.hex"],
        ),
        # a name the simulator's command line gives: the build text holding it names it
        ('reg [80:1] F;\n  initial if ($value$plusargs("f=%s", F)) $readmemh(F, rom);', []),
        ("", []),
    ],
)
def test_a_file_the_design_opens_by_a_built_name_is_a_finding(
    tmp_path: Path, load: str, found: list[str]
) -> None:
    (tmp_path / "m.v").write_text(ROM.format(load=load))
    changes = {"rom.hex": "M", "notes.md": "M"}
    got = unjudged_files(changes, [], [tmp_path])
    assert [rel for rel, _ in got] == found
    if len(found) == 2:
        assert "by a name it builds" in got[0][1]


INC = "{define}\nmodule m(input [7:0] a, output [7:0] y);\n`include {name}\n  assign y = a + K;\nendmodule\n"


@pytest.mark.parametrize(
    ("define", "name", "found"),
    [
        # red team w36 F19: a name built by stringification or by pasting
        ('`define CFG(x) `"x.txt`"', "`CFG(cfg)", ["cfg.txt", "notes.md"]),
        ('`define CFG `"cfg.txt`"', "`CFG", ["cfg.txt", "notes.md"]),
        ("", "`CFG", ["cfg.txt", "notes.md"]),  # defined nowhere the gate reads
        # a macro whose body is the literal name, or the literal name: that file alone
        ('`define CFG "cfg.txt"', "`CFG", ["cfg.txt"]),
        ("", '"cfg.txt"', ["cfg.txt"]),
    ],
)
def test_a_file_the_design_includes_by_a_built_name_is_a_finding(
    tmp_path: Path, define: str, name: str, found: list[str]
) -> None:
    (tmp_path / "m.v").write_text(INC.format(define=define, name=name))
    got = unjudged_files({"cfg.txt": "M", "notes.md": "M"}, [], [tmp_path])
    assert [rel for rel, _ in got] == found


def test_a_file_that_includes_by_a_built_name_may_include_any_header(tmp_path: Path) -> None:
    # red team w36 F19: the gate's graph counts it among the includers of every file, so a
    # changed header re-judges it
    from rtlopt.frontend._depgraph import design_graph

    (tmp_path / "m.v").write_text(INC.format(define='`define CFG(x) `"x.vh`"', name="`CFG(cfg)"))
    (tmp_path / "top.v").write_text('`include "other.vh"\nmodule top;\nendmodule\n')
    (tmp_path / "cfg.vh").write_text("localparam [7:0] K = 8'd1;\n")
    graph = design_graph(tmp_path)
    assert graph.includers("cfg.vh") == {"m.v"}
    assert "m.v" in graph.includers("other.vh")
