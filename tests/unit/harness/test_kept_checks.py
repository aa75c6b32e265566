"""The reference's verification content (a translate_off ``$error``, an assertion, a check a
macro writes) must be kept by a candidate, reading what means the same (class: a reference's
simulation-only check dropped)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate
from rtlopt.harness._check_meaning import changed_reads, writes
from rtlopt.harness._kept_checks import FIX, check_items, dropped_checks

REF = """module ctr(input clk, input rst, output [3:0] q);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;
  assign q = cnt;
  // synopsys translate_off
  always @(posedge clk) if (!rst && cnt == 4'hf) $error("%m: counter wrapped");
  // synopsys translate_on
endmodule
"""
PORTS = {"clk", "rst", "q"}


def _where(offset: int) -> str:
    return f"ctr.v:{REF.count(chr(10), 0, offset) + 1}"


def _dropped(
    candidate: str, reference: str = REF, macros: dict[str, str] | None = None
) -> list[str]:
    return dropped_checks(reference, candidate, PORTS, macros or {}, _where)


def test_a_dropped_translate_off_error_is_named_with_its_line() -> None:
    cand = REF.split("  // synopsys translate_off")[0] + "endmodule\n"
    found = _dropped(cand)
    assert found and all(FIX in m for m in found)
    assert any("ctr.v:5" in m for m in found) and any("ctr.v:6" in m for m in found)


def test_a_check_kept_word_for_word_with_its_definitions_passes() -> None:
    cand = REF.replace("assign q = cnt;", "assign q   =   cnt; // the same").replace(
        "cnt == 4'hf", "cnt==4'hf"
    )
    assert _dropped(cand) == []


def test_a_kept_check_reading_a_re_encoded_register_is_unchecked() -> None:
    cand = REF.replace(
        "if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;", "cnt <= rst ? 4'd0 : cnt + 4'd1;"
    )
    found = _dropped(cand)
    assert len(found) == 1 and "reads cnt" in found[0] and "unchecked" in found[0]


def test_a_second_driver_of_what_the_check_reads_is_unchecked() -> None:
    cand = REF.replace("assign q = cnt;", "assign q = cnt;\n  initial cnt = 4'd3;")
    assert any("reads cnt" in m for m in _dropped(cand))


def test_a_check_moved_out_of_its_region_is_missing() -> None:
    cand = REF.replace("// synopsys translate_off", "").replace("// synopsys translate_on", "")
    found = _dropped(cand)
    assert len(found) == 1 and "translate_off" in found[0] and "ctr.v:5" in found[0]


def test_a_check_reading_ports_only_may_sit_beside_any_rewrite() -> None:
    ref = REF.replace("cnt == 4'hf", "q == 4'hf")
    cand = ref.replace(
        "if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;", "cnt <= rst ? 4'd0 : cnt + 4'd1;"
    )
    assert _dropped(cand, ref) == []


def test_every_kind_of_check_is_verification_content() -> None:
    body = [
        "always @(posedge clk) assert (q != 4'hf);",
        "assert property (@(posedge clk) rst |=> q == 0);",
        'always @(posedge clk) if (q == 1) $display("one");',
        "initial $dumpvars(0, ctr);",
        'final $fwrite(fd, "%d", q);',
        "cover property (@(posedge clk) q == 4'hf);",
        'always @(posedge clk) if (q == 2) $warning("two");',
    ]
    for line in body:
        text = f"module m(input clk, input rst, output [3:0] q);\n  {line}\nendmodule\n"
        assert check_items(text, {}), line


def test_a_check_under_a_simulation_only_branch_counts() -> None:
    text = (
        "module m(input clk, output q);\n`ifndef SYNTHESIS\n"
        '  always @(posedge clk) if (q) $info("q");\n`endif\nendmodule\n'
    )
    assert check_items(text, {})


def test_a_macro_counts_unless_its_definition_holds_no_check() -> None:
    text = "module m(input clk, input a, output q);\n  `CHK(a)\n  assign q = a;\nendmodule\n"
    assert check_items(text, {})  # not found: it may expand to a check
    assert check_items(text, {"CHK": "assert (x)"})
    assert check_items(text, {"CHK": "`OTHER(x)"})  # another macro: not followed
    assert not check_items(text, {"CHK": "wire w_x = x;"})


def test_plain_logic_is_no_verification_content() -> None:
    text = (
        "module m(input clk, input a, output reg q);\n  always @(posedge clk) q <= a;\nendmodule\n"
    )
    assert check_items(text, {}) == []


def test_writes_over_approximate_what_an_item_defines() -> None:
    assert writes("always @ ( posedge clk ) { a , b } <= c ;") >= {"a", "b"}
    assert "s" in writes("always @ ( posedge clk ) s . f <= c ;")
    assert "x" in writes("always @ * t ( x ) ;")  # a task's argument may be its output
    assert writes("foo u ( . y ( w ) ) ;") >= {"foo", "u", "y", "w"}


def test_changed_reads_follows_definitions_transitively() -> None:
    ref = ["assign a = b ;", "assign b = c ;", "check a ;"]
    assert changed_reads("check a ;", ref, ["assign a = b ;", "assign b = ~ c ;"], set()) == ["b"]
    assert changed_reads("check a ;", ref, ref, set()) == []


def test_the_screen_rejects_a_candidate_without_the_reference_check(tmp_path: Path) -> None:
    f = tmp_path / "ctr.v"
    f.write_text(REF)
    ports = (Port("clk", "input", 1), Port("rst", "input", 1), Port("q", "output", 4, 3, 0))
    m = Module("ctr", f, 1, 0, REF.index("endmodule") + len("endmodule"), ports)
    d = Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"ctr": m}, (f,))
    cand = REF.split("  // synopsys translate_off")[0] + "endmodule\n"
    found = screen_candidate(cand, d)
    assert any("ctr.v:6" in p and FIX in p for p in found), found


def test_the_screen_passes_a_kept_check_reading_ports_only(tmp_path: Path) -> None:
    ref = REF.replace("cnt == 4'hf", "q == 4'hf")
    f = tmp_path / "ctr.v"
    f.write_text(ref)
    ports = (Port("clk", "input", 1), Port("rst", "input", 1), Port("q", "output", 4, 3, 0))
    m = Module("ctr", f, 1, 0, ref.index("endmodule") + len("endmodule"), ports)
    d = Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"ctr": m}, (f,))
    cand = ref.replace(
        "if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;", "cnt <= rst ? 4'd0 : cnt + 4'd1;"
    )
    assert screen_candidate(cand, d) == []
    # the same check ending the simulation is not passed over (the old rule judges it)
    fatal = ref.replace("$error(", "$fatal(1, ")
    f.write_text(fatal)
    found = screen_candidate(cand.replace("$error(", "$fatal(1, "), d)
    assert any("$fatal is not allowed" in p for p in found), found
