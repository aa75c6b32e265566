"""Unit tests: translate_off regions (Yosys drops them, simulation reads them) in screening."""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate
from rtlopt.harness._translate_off import regions

REPORT = (
    "  // synopsys translate_off\n"
    '  always @(a) if (a == 16\'hffff) $display("m: a all ones");\n'
    "  // synopsys translate_on\n"
)
NAME = (
    "  reg [8*4:1] name;\n"
    "  // synopsys translate_off\n"
    '  always @* name = a[0] ? "ODD " : "EVEN";\n'
    "  // synopsys translate_on\n"
)


def _module(body: str, extra: str = "") -> str:
    return (
        f"module m(input [15:0] a, b, output [15:0] y);\n{extra}  assign y = a ^ b;\n"
        f"{body}endmodule\n"
    )


def _design(tmp_path: Path, text: str, others: dict[str, str] | None = None) -> Design:
    tmp_path.mkdir(parents=True, exist_ok=True)
    f = tmp_path / "m.v"
    f.write_text(text)
    files = [f]
    for name, body in (others or {}).items():
        (tmp_path / name).write_text(body)
        files.append(tmp_path / name)
    start = text.index("module")
    end = text.index("endmodule") + len("endmodule")
    ports = (Port("a", "input", 16, 15, 0), Port("b", "input", 16, 15, 0))
    m = Module("m", f, 1, start, end, (*ports, Port("y", "output", 16, 15, 0)))
    return Design(tmp_path, m, SourceSet(tmp_path, tuple(files)), {"m": m}, tuple(files))


def _region_problems(found: list[str]) -> list[str]:
    return [p for p in found if "translate_off" in p]


def test_a_region_the_reference_carries_cannot_hide_other_content(tmp_path: Path) -> None:
    """The reference's report-only region licenses no second driver in a region of the same
    comments: Yosys drops it, every simulator reads it."""
    d = _design(tmp_path, _module(REPORT))
    hidden = REPORT.replace(
        'always @(a) if (a == 16\'hffff) $display("m: a all ones");',
        "assign y = (a == 16'h5a5a && b == 16'ha5a5) ? 16'h0000 : 16'hzzzz;",
    )
    found = screen_candidate(_module(hidden), d)
    assert any("line 3: translate_off region is not allowed" in p for p in found), found
    assert any("'y', which a translate_off region" in p for p in found), found
    # the block-comment and other tools' forms are regions too
    for off, on in [
        ("/* synthesis translate_off */", "/* synthesis translate_on */"),
        ("// pragma translate_off", "// pragma translate_on"),
        ("// rtl_synthesis off", "// rtl_synthesis on"),
        ("// synopsys synthesis_off", "// synopsys synthesis_on"),
    ]:

        def form(text: str, off: str = off, on: str = on) -> str:
            return text.replace("// synopsys translate_off", off).replace(
                "// synopsys translate_on", on
            )

        ref = _design(tmp_path / off.split()[1], _module(form(REPORT)))
        found = screen_candidate(_module(form(hidden)), ref)
        assert any("translate_off region is not allowed" in p for p in found), (off, found)


def test_a_region_of_the_reference_may_be_kept_once(tmp_path: Path) -> None:
    """The reference's own region, content unchanged, is what both sides read: kept (the
    logic around it rewritten) it passes; twice, or read outside, it does not."""
    d = _design(tmp_path, _module(NAME))
    kept = _module(NAME).replace("assign y = a ^ b;", "assign y = b ^ a;")
    assert screen_candidate(kept, d) == []
    twice = _module(NAME + NAME.replace("  reg [8*4:1] name;\n", ""))
    assert _region_problems(screen_candidate(twice, d))
    read = kept.replace("assign y = b ^ a;", "assign y = b ^ a ^ name[16:1];")
    found = screen_candidate(read, d)
    assert any("'name', which a translate_off region" in p for p in found), found


def test_yosys_region_ends_only_at_its_own_closing_comment() -> None:
    """Another tool's closing comment does not end the region Yosys drops."""
    text = (
        "// synopsys translate_off\nassign x = a;\n// pragma translate_on\nassign y = b;\n"
        "// synopsys translate_on\n"
    )
    found = regions(text)
    assert [c for _, _, c in found["Yosys"]] == ["assign x = a; assign y = b;"]
    assert [c for _, _, c in found["other tools"]] == ["assign x = a;"]
    # no closing comment: to the end of the text
    assert [c for _, _, c in regions("/*synthesis translate_off*/ wire w;")["Yosys"]] == ["wire w;"]


def test_a_header_the_candidate_includes_counts_with_its_regions(tmp_path: Path) -> None:
    """A repository header holding a region, included by the candidate and not by the
    reference, is a region the reference does not carry."""
    header = "// synopsys translate_off\nassign y = 16'hzzzz;\n// synopsys translate_on\n"
    other = 'module o(input i, output z);\n`include "sim.vh"\n  assign z = i;\nendmodule\n'
    d = _design(tmp_path, _module(""), {"sim.vh": header, "o.v": other})
    cand = _module("", '`include "sim.vh"\n')
    found = screen_candidate(cand, d)
    assert any("a header this text includes holds a translate_off region" in p for p in found)


def test_what_a_region_writes() -> None:
    """Assignments, increments, declarations and every name in a call's or an instance's
    parentheses (an output port, a task's output argument) count as written."""
    from rtlopt.harness._translate_off import _names

    region = (
        "sim_model u (.o(dbg), .i(a)); always @(posedge clk) ++cnt; reg [3:0] r, s;"
        ' always @(a) if (a == 1) $display("x", b); assign t[0] = 1;'
    )
    assert _names(region) == {"dbg", "a", "cnt", "r", "s", "t"}
