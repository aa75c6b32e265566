"""The reference's simulation-only checks (a translate_off ``$error``, an assertion, an ibex-style
``ASSERT`` macro) must be kept by a candidate word for word, and what a kept check reads be shown
the same: signals proven equal as extra outputs, constants and imports kept, instances read
through kept (class: a reference's simulation-only check dropped or made vacuous)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rtlopt.evaluate._messages import interface_problem
from rtlopt.formal.scripts import expose_lines
from rtlopt.frontend.model import Design, Module, Parameter, Port, SourceSet
from rtlopt.harness import exposed_signals, screen_candidate
from rtlopt.harness._kept_checks import FIX, check_items, dropped_checks

REF = """module ctr(input clk, input rst, output wrap);
  reg [3:0] cnt;
  always @(posedge clk) if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;
  assign wrap = (cnt == 4'hf);
  // synopsys translate_off
  always @(posedge clk) if (!rst && cnt == 4'hf) $error("%m: counter wrapped");
  // synopsys translate_on
endmodule
"""
KNOWN = ({"clk", "rst", "wrap"}, set[str]())


def _where(offset: int) -> str:
    return f"ctr.v:{REF.count(chr(10), 0, offset) + 1}"


def _dropped(candidate: str, reference: str = REF, **kw: object) -> list[str]:
    return dropped_checks(reference, candidate, KNOWN, {}, _where, **kw)  # type: ignore[arg-type]


def _design(tmp_path: Path, text: str = REF) -> Design:
    f = tmp_path / "ctr.v"
    f.write_text(text)
    ports = (Port("clk", "input", 1), Port("rst", "input", 1), Port("wrap", "output", 1))
    m = Module("ctr", f, 1, 0, text.index("endmodule") + len("endmodule"), ports)
    return Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"ctr": m}, (f,))


def test_a_dropped_translate_off_error_is_named_with_its_line() -> None:
    cand = REF.split("  // synopsys translate_off")[0] + "endmodule\n"
    found = _dropped(cand)
    assert found and all(FIX in m and "missing" in m for m in found)
    assert any("ctr.v:6" in m for m in found)


def test_a_kept_check_beside_a_rewrite_passes_and_is_passed_over() -> None:
    cand = REF.replace(
        "if (rst) cnt <= 4'd0; else cnt <= cnt + 4'd1;", "cnt <= rst ? 4'd0 : cnt + 4'd1;"
    ).replace("(cnt == 4'hf);", "&cnt;  // the same")
    kept: set[str] = set()
    assert _dropped(cand, kept=kept) == []
    assert kept and all("$error" in k for k in kept)


def test_a_changed_check_is_missing() -> None:
    assert any("missing" in m for m in _dropped(REF.replace("4'hf) $error", "4'he) $error")))


def test_every_kind_of_check_counts_and_design_code_does_not() -> None:
    checks = [
        "always @(posedge clk) assert (q != 4'hf);",
        "A_q: assert property (@(posedge clk) rst |=> q == 0);",
        "cover property (@(posedge clk) q == 4'hf);",
        'always @(posedge clk) if (q == 2) $warning("two");',
        'final if (q) $fatal(1, "q");',
        '`ifndef SYNTHESIS\n  always @(posedge clk) if (q == 3) $error("x");\n  `endif',
    ]
    for line in checks:
        text = f"module m(input clk, input rst, output [3:0] q);\n  {line}\nendmodule\n"
        assert check_items(text, {}), line
    plain = [
        'always @(posedge clk) if (q == 1) $display("one");',  # a report that fails nothing
        "`ifdef FAST\n  assign q = 4'd1;\n  `else\n  assign q = 4'd2;\n  `endif",
        "wire assert_o = rst; // a port-like name",
        "`INCLUDED_MACRO_HEADER(q)",  # a macro the repository does not define
    ]
    for line in plain:
        text = f"module m(input clk, input rst, output [3:0] q);\n  {line}\nendmodule\n"
        assert check_items(text, {}) == [], line


def test_a_repository_macro_expanding_to_an_assertion_is_a_check() -> None:
    text = (
        "module m(input clk_i, input a, output q);\n  `ASSERT(A_a, a)\n  assign q = a;\nendmodule\n"
    )
    assert check_items(text, {"ASSERT": "`ASSERT_I(n, p)", "ASSERT_I": "n: assert property (p)"})
    assert check_items(text, {"ASSERT": "wire n = p;"}) == []


def test_a_check_in_a_generate_block_is_an_item_of_its_own() -> None:
    ref = REF.replace(
        "  // synopsys translate_off",
        "  if (1) begin : g_chk\n    wire x = cnt[0];\n"
        "    always @(posedge clk) assert (cnt != 4'he);\n  end\n  // synopsys translate_off",
    )
    cand = ref.replace("wire x = cnt[0];", "wire x = cnt[1];")
    assert dropped_checks(ref, cand, KNOWN, {}, _where) == []


def test_what_a_kept_check_reads_must_be_shown_the_same() -> None:
    # a constant it reads, declared otherwise
    ref = REF.replace("reg [3:0] cnt;", "reg [3:0] cnt;\n  localparam L = 4'hf;").replace(
        "cnt == 4'hf) $error", "cnt == L) $error"
    )
    found = dropped_checks(ref, ref.replace("L = 4'hf", "L = 4'h0"), KNOWN, {}, _where)
    assert found and "constants" in found[0] and FIX in found[0]
    # a signal the candidate does not have
    cand = REF.replace("cnt", "c").replace("c == 4'hf) $error", "cnt == 4'hf) $error")
    assert any("does not have" in m and "cnt" in m for m in _dropped(cand))
    # a name from outside the module, with other imports
    pkg = REF.replace("reg [3:0] cnt;", "import p::*;\n  reg [3:0] cnt;").replace(
        "cnt == 4'hf) $error", "cnt == LIMIT) $error"
    )
    found = dropped_checks(pkg, pkg.replace("p::*", "q::*"), KNOWN, {}, _where)
    assert found and "LIMIT" in found[0] and "imports" in found[0]
    assert dropped_checks(pkg, pkg.replace("4'd1;", "4'd1; // x"), KNOWN, {}, _where) == []


def test_a_check_read_through_an_instance_needs_the_instance_kept() -> None:
    ref = REF.replace(
        "  // synopsys translate_off",
        "  sub u_s (.a(cnt), .y());\n  always @(posedge clk) assert (u_s.st != 2'd3);\n"
        "  // synopsys translate_off",
    )
    same = ref.replace("4'd1;", "4'd1; // kept")
    assert dropped_checks(ref, same, KNOWN, {}, _where) == []
    moved = ref.replace(".a(cnt)", ".a(~cnt)")
    assert any("instance u_s" in m for m in dropped_checks(ref, moved, KNOWN, {}, _where))
    found = dropped_checks(ref, same, KNOWN, {}, _where, redefined={"sub"})
    assert any("instance u_s" in m for m in found)


def test_the_screen_refuses_a_dropped_check_and_passes_a_kept_one(tmp_path: Path) -> None:
    d = _design(tmp_path)
    cand = REF.split("  // synopsys translate_off")[0] + "endmodule\n"
    found = screen_candidate(cand, d)
    assert any("ctr.v:6" in p and FIX in p for p in found), found
    kept = REF.replace("assign wrap = (cnt == 4'hf);", "assign wrap = &cnt;")
    assert screen_candidate(kept, d) == []
    # a kept check ending the simulation is judged by the word rules as before
    fatal = REF.replace("$error(", "$fatal(1, ")
    found = screen_candidate(kept.replace("$error(", "$fatal(1, "), _design(tmp_path, fatal))
    assert any("$fatal is not allowed" in p for p in found), found


def test_the_proofs_expose_the_signals_a_check_reads(tmp_path: Path) -> None:
    d = _design(tmp_path)
    assert exposed_signals(d) == ("cnt",)
    lines = expose_lines(d, "\\gold", "\\gate")
    assert lines[-1] == "expose \\gold/w:cnt \\gate/w:cnt"
    (tmp_path / "p").mkdir()
    plain = _design(tmp_path / "p", "module ctr(input clk, input rst, output wrap);\nendmodule\n")
    assert exposed_signals(plain) == () and expose_lines(plain, "a", "b") == []


def test_a_parameter_default_is_part_of_the_interface(tmp_path: Path) -> None:
    def mod(value: str) -> Module:
        ports = (Port("clk", "input", 1),)
        return Module("acc", tmp_path / "a.v", 1, 0, 1, ports, (Parameter("MAXV", value),))

    assert "MAXV" in interface_problem(mod("4'd12"), {"acc": mod("4'd15")})
    assert interface_problem(mod("4'd12"), {"acc": mod(" 4'hc ")}) == ""
    assert "MAXV" in interface_problem(mod("4'd12"), {"acc": mod("12")})
    local = Module("acc", tmp_path / "a.v", 1, 0, 1, (), (Parameter("L", "1", local=True),))
    other = dataclasses.replace(local, parameters=(Parameter("L", "2", local=True),))
    assert interface_problem(local, {"acc": other}) == ""  # a localparam is no interface


def test_what_simulation_only_code_defines_for_a_check_is_kept() -> None:
    ref = REF.replace(
        "  // synopsys translate_off",
        "`ifndef SYNTHESIS\n  wire [3:0] shadow = cnt;\n`endif\n"
        "  always @(posedge clk) assert (shadow != 4'he);\n  // synopsys translate_off",
    )
    found = dropped_checks(ref, ref.replace("shadow = cnt", "shadow = ~cnt"), KNOWN, {}, _where)
    assert found and "simulation-only code" in found[0], found
    kept = ref.replace("4'd1;", "4'd1; // the same")
    assert dropped_checks(ref, kept, KNOWN, {}, _where) == []
    # what it reads is compared by the proofs: cnt, read by the simulation code
    f_ref = ref.replace("`ifndef SYNTHESIS", "`ifdef SYNTHESIS\n`else")
    assert dropped_checks(
        f_ref, f_ref.replace("shadow = cnt", "shadow = cnt ^ 4'd1"), KNOWN, {}, _where
    )
