"""The branches only a build defining FORMAL reads (harness/_verification_only.py): what the
hardware builds read of a text, and which repositories define FORMAL for another build."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.harness._verification_only import (
    NOT_JUDGED,
    formal_build,
    hardware_source,
    hardware_text,
    unjudged,
)


def _words(text: str) -> list[str]:
    return text.split()


#: Verification code alone: what a FORMAL branch may hold to be dropped.
P = "always @* assert (b);"
MOR1KX = (
    "reg f_past_valid; initial f_past_valid = 0;\n"
    "always @(posedge clk) f_past_valid <= 1;\n"
    "always @(posedge clk) if (f_past_valid && !$past(rst)) assert (q == $past(d));\n"
)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (f"a `ifdef FORMAL {P} `endif c", "a c"),
        (f"`ifdef A p `elsif FORMAL {P} `endif", "`ifdef A p `endif"),
        (f"`ifdef X\n`ifdef FORMAL\n{P}\n`endif\nw\n`endif", "`ifdef X w `endif"),
        (f"`ifdef FORMAL\n{MOR1KX}`endif\nm", "m"),
        # red team w36 F6: a build may define FORMAL where no text search sees it (a header of
        # any name, shell quoting): a branch that could change a value there is kept
        ("`ifdef FORMAL assign y = a + 3; `else assign y = a + 1; `endif", None),
        ("`ifdef FORMAL assign y = a + 3; `endif", None),
        ("`ifdef FORMAL initial u.c = 8'd7; `endif", None),
        ("`ifdef FORMAL always @(posedge c) x <= 1; `endif", None),
        ("`ifdef FORMAL reg r; always @(posedge c) {r, x} <= 1; `endif", None),
        ("`ifdef FORMAL initial $finish; `endif", None),
        ("`ifdef FORMAL initial t(x); `endif", None),
        ("`ifdef FORMAL sub u(.a(x)); `endif", None),
        ("`ifdef FORMAL always @* force y = 0; `endif", None),
        # a branch FORMAL switches off, or one after the FORMAL branch: another reading
        (f"`ifdef FORMAL {P} `else y `endif", None),
        ("`ifndef FORMAL x `else y `endif", None),
        ("`ifndef FORMAL x `endif", None),
        (f"`ifdef FORMAL {P} `elsif B r `endif", None),
        (f"`ifdef A p `elsif FORMAL {P} `else s `endif", None),
        # nested conditionals: each branch judged, a name declared in one is not the block's
        ("`ifdef FORMAL\nreg r;\n`ifdef T\nalways @* assume (!r);\n`endif\n`endif\nm", "m"),
        ("`ifdef FORMAL\n`ifdef X\nreg r;\n`endif\nalways @* r = 1;\n`endif", None),
        ("`ifdef FORMAL\n`ifdef LRU\nu\n`endif\n`endif", None),
        ("`ifdef FORMAL\n`define A 1\n`endif", None),
        # only the exact macro
        ("`ifdef RISCV_FORMAL x `endif `ifdef FORMAL_VERIFICATION y `endif", None),
        ("`ifdef FPGA x `else y `endif", None),
        # a text that defines FORMAL where it is read is left as written
        (f"`define FORMAL\n`ifdef FORMAL {P} `endif", None),
        (f"`ifdef A\n`define FORMAL\n`endif\n`ifdef FORMAL {P} `endif", None),
        # unbalanced: as written
        ("`ifdef FORMAL x", None),
        ("x `endif", None),
    ],
)
def test_the_hardware_reading_of_a_text(text: str, read: str | None) -> None:
    out = hardware_text(text)
    assert len(out) == len(text) and out.count("\n") == text.count("\n")
    assert _words(out) == _words(text if read is None else read), out


def test_a_define_inside_the_formal_branch_stays() -> None:
    # a build defining FORMAL reads the macro wherever it is used: not verification code alone
    text = "`ifdef FORMAL\n`define ASSUME assume\n`define FORMAL_VERIFIC\n`endif\nm\n"
    assert hardware_text(text) == text


def test_comments_of_a_removed_branch_go_with_it() -> None:
    text = "a\n`ifdef FORMAL\n// a property\nassert(x); /* why */\n`endif // FORMAL\nb\n"
    assert _words(hardware_source(text)) == ["a", "//", "FORMAL", "b"]


def _design(tmp_path: Path, files: dict[str, str]) -> object:
    base = {
        "rtl/t.v": "module t(input a, output y);\n  assign y = a;\n`ifdef FORMAL\n  always @* assert(y == a);\n`endif\nendmodule\n"
    }
    for rel, text in {**base, **files}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return load_design(tmp_path / "rtl/t.v", "t", ProjectConfig(), root=tmp_path)


def test_a_repository_whose_formal_is_built_by_symbiyosys_alone(tmp_path: Path) -> None:
    d = _design(
        tmp_path,
        {
            "bench/formal/t.sby": "[script]\nread -formal t.v\nprep -top t\n",
            "bench/formal/t.gtkw": "-FORMAL\n",
            "README.md": "run with +define+FORMAL\n",
            "rtl/other.v": "module other;\n// `define FORMAL\n`define FORMAL_VERIFIC\nendmodule\n",
        },
    )
    assert formal_build(d) == ""  # type: ignore[arg-type]
    text = (tmp_path / "rtl/t.v").read_text()
    assert unjudged(d, text) == NOT_JUDGED  # type: ignore[arg-type]
    assert unjudged(d, "module t(input a, output y);\n  assign y = a;\nendmodule\n") == ""  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("sim.f", "+define+FORMAL\nrtl/t.v\n"),
        ("sim.f", "+define+SIM+FORMAL=1\nrtl/t.v\n"),
        ("Makefile", "sim:\n\tiverilog -DFORMAL rtl/t.v\n"),
        ("rtlopt.toml", '[project]\ndefines = ["FORMAL"]\n'),
        ("rtl/defs.vh", "`define FORMAL\n"),
        ("rtl/top.v", "`define FORMAL 1\nmodule top;\nendmodule\n"),
        ("core.core", "parameters:\n  FORMAL:\n    datatype: bool\n    paramtype: vlogdefine\n"),
    ],
)
def test_a_repository_that_defines_formal_for_another_build(
    tmp_path: Path, rel: str, text: str
) -> None:
    d = _design(tmp_path, {rel: text})
    why = formal_build(d)  # type: ignore[arg-type]
    assert why and "FORMAL" in why, why
    assert unjudged(d, (tmp_path / "rtl/t.v").read_text()) == ""  # type: ignore[arg-type]


def test_a_macro_the_formal_branch_defines_reaches_every_build() -> None:
    """ZipCPU's ```ifdef FORMAL `define ASSUME assume``: a build that defines FORMAL where no
    text search sees it reads the macro, so a change that drops it changes a macro
    (``rtlopt check``'s changed-define reach)."""
    from rtlopt.check._headers import changed_headers

    old = "module t;\n`ifdef FORMAL\n`define ASSUME assume\n`endif\nendmodule\n"
    new = "module t;\nendmodule\n"
    assert changed_headers([("t.v", old, new)])[0] == {"t.v": {"ASSUME"}}
    # red team w36 F6: a build the scan does not see may define FORMAL: the define counts
    assert changed_headers([("t.v", old, new)], hardware=True)[0] == {"t.v": {"ASSUME"}}
    moved = "module t;\n`define ASSUME assume\nendmodule\n"
    assert changed_headers([("t.v", old, moved)], hardware=True)[0] == {"t.v": {"ASSUME"}}


def test_a_file_too_large_to_scan_may_define_formal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # red team w35 F4: a generated header over the scan limit whose first line defines FORMAL
    import rtlopt.harness._verification_only as vo

    monkeypatch.setattr(vo, "_SCANNED_BYTES", 64)
    d = _design(tmp_path, {"tb/stim.svh": "`define FORMAL\n" + "// padding\n" * 20})
    assert "too large" in formal_build(d)  # type: ignore[arg-type]


def test_a_branch_declaring_two_names_in_one_declaration_is_read() -> None:
    """``reg f_past_valid, f_x;`` lists its names with a comma between: the comma is a token,
    not a declarator (an internal error on ZipCPU's wb2axip, held-out trial 43)."""
    from rtlopt.harness._verification_content import verification_content

    code = (
        "reg f_past_valid, f_seen;\ninitial f_past_valid = 0;\n"
        "always @(posedge i_clk) begin f_past_valid <= 1; f_seen <= 1; end\n"
    )
    assert verification_content(code)
    assert not verification_content(code + "always @(posedge i_clk) o_data <= 0;\n")


@pytest.mark.parametrize(
    ("nested", "own"),
    [
        # held-out gate trial 53 (wbuart32's ufifo): state declared and written in the branch
        ("`ifdef UFIFO\nreg [1:0] s;\nalways @(posedge c) s <= s + 1;\n`endif\n", True),
        # a write outside the branch that declares the name: in the other reading it is the
        # module's
        ("`ifdef UFIFO\nreg [1:0] s;\n`endif\nalways @(posedge c) s <= s + 1;\n", False),
        ("`ifdef UFIFO\nreg [1:0] s;\n`else\nalways @(posedge c) s <= 1;\n`endif\n", False),
        ("`ifdef UFIFO\nreg [1:0] s;\nalways @(posedge c) q <= s + 1;\n`endif\n", False),
    ],
    ids=["declared-in-its-branch", "written-outside", "written-in-another-branch", "module-name"],
)
def test_a_name_a_nested_branch_declares_is_its_own_there(nested: str, own: bool) -> None:
    from rtlopt.harness._verification_content import verification_content

    base = "reg f;\ninitial f = 0;\nalways @(posedge c) f <= 1;\n"
    assert verification_content(base + nested) is own


def test_a_block_local_is_no_name_of_the_branch() -> None:
    """Red-team round 126 (05b): ``begin : blk reg y; ... end`` made a write of the module's
    ``y`` elsewhere in the branch the branch's own."""
    from rtlopt.harness._verification_content import verification_content

    code = "initial begin : blk\n  reg [3:0] y;\n  y = 0;\nend\nalways @(negedge c) y <= 0;\n"
    assert not verification_content(code)
    assert verification_content("initial begin : blk\n  reg [3:0] y;\n  y = 0;\nend\n")
