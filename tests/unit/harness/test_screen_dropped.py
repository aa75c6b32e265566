"""What the SystemVerilog view drops while a simulator runs it (red team w20 F1, F4, F6, F10):
timing controls inside a process, assertion actions that are logic, macros that hide either
from the raw-text screen, and ``unique``/``priority`` qualifiers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate
from rtlopt.harness._dropped import dropped_problems
from rtlopt.verilog import blank_comments
from rtlopt.verilog_plain import plain_case_qualifiers

HEAD = "module m(input clk, input [7:0] a, input [7:0] d, output logic [7:0] q);\n"


def _messages(body: str) -> list[str]:
    return [msg for _, _, msg in dropped_problems(blank_comments(HEAD + body + "\nendmodule\n"))]


@pytest.mark.parametrize(
    "body",
    [
        "always @(posedge clk) begin @(posedge clk); q <= d; end",  # F1: inner event control
        "always @(posedge clk) q <= @(posedge clk) d;",  # intra-assignment event control
        "always @(posedge clk) q <= repeat (2) @(posedge clk) d;",
        "always begin @(posedge clk); q <= d; end",  # a register in a simulator, a wire in the view
        "always @(posedge clk) begin q <= d; @(negedge clk); end",
        "always @(posedge clk) q <= #1 d;",  # intra-assignment delay
        "always @(posedge clk) @(negedge clk) q <= d;",  # a second control after the leading one
        "always begin wait (a[0]); q = d; end",
        "always_comb begin q = d; #1; end",
        "assign #1 q = d;",
        "task t; @(posedge clk); endtask",
        "initial begin #5 q = 0; end",
        "always @(posedge clk) expect (@(posedge clk) a[0]) q <= d;",
    ],
)
def test_a_timing_control_other_than_a_process_lead_is_found(body: str) -> None:
    found = _messages(body)
    assert found and all("timing control" in m for m in found), (body, found)


@pytest.mark.parametrize(
    "body",
    [
        "always @(posedge clk) q <= d;",
        "always_ff @(posedge clk or negedge a[0]) if (!a[0]) q <= 0; else q <= d;",
        "always @* q = d;",
        "always @(*) q = d;",
        "always @(d or a) q = d & a;",
        "always_comb q = d;",
        "always_latch if (clk) q = d;",
        "assign q = d;",
        'always @(posedge clk) begin q <= d; assert (a != 8\'hA5) else $error("bad %h", a); end',
        'always_comb begin q = d; assert final (a != 1) else begin $display("x"); end end',
        'assert property (@(posedge clk) a[0] |-> ##1 d[0]) else $error("x");',
        "cover property (@(posedge clk) a[0]);",
    ],
)
def test_what_the_view_and_a_simulator_read_alike_is_not_found(body: str) -> None:
    assert _messages(body) == [], body


@pytest.mark.parametrize(
    "assertion",
    [
        "assert (a != 8'hA5) else q = 8'h00;",  # F6: the fail action is logic
        'assert (a != 8\'hA5) q = d; else $error("x");',  # the pass action
        'assert (a != 8\'hA5) else begin $error("x"); q = 0; end',
        "assert (a != 8'hA5) else $display(f(a));",  # a function may write a module signal
        'assert (a != 8\'hA5) else $sscanf("1", "%d", q);',  # a system task that writes
        "assume (a != 8'hA5) else q++;",
        "assert (q++ != 8'hA5);",  # red team w21 F5: the condition writes
        'assert ((q = a) != 8\'hA5) else $error("x");',
        # red team w24 F4: a reporting task's argument writes through a system function
        'assert (a != 8\'hA5) else $display("bad %0d", $sscanf("0", "%d", q));',
        'assert (a != 8\'hA5) $info("ok %0d", $fscanf(1, "%d", q));',  # the pass action
        'assert (a != 8\'hA5) else begin $error("x"); $display("%0d", $random(q)); end',
        'assert (a != 8\'hA5) else $error("%0d", $countones($sscanf("0", "%d", q)));',  # nested
    ],
)
def test_an_assertion_action_that_is_logic_is_found(assertion: str) -> None:
    found = _messages(f"always_comb begin q = d; {assertion} end")
    assert any("assertion action" in m for m in found), (assertion, found)


def _design(tmp_path: Path, text: str, include_dirs: tuple[Path, ...] = ()) -> Design:
    f = tmp_path / "m.sv"
    f.write_text(text)
    start = text.index("module")
    end = text.index("endmodule") + len("endmodule")
    ports = (Port("clk", "input", 1, 0, 0), Port("d", "input", 8, 7, 0))
    line = text.count("\n", 0, start) + 1
    m = Module("m", f, line, start, end, (*ports, Port("q", "output", 8, 7, 0)))
    return Design(tmp_path, m, SourceSet(tmp_path, (f,), include_dirs=include_dirs), {"m": m}, (f,))


CLOCKED = (
    "module m(input clk, input [7:0] d, output logic [7:0] q);\n"
    "  always_ff @(posedge clk) q <= d;\nendmodule\n"
)


@pytest.mark.parametrize("view", [False, True])
def test_a_candidate_with_an_inner_event_control_is_screened(tmp_path: Path, view: bool) -> None:
    """F1: no macro, no ``#``: the old screen saw nothing, the view read a plain register."""
    design = _design(tmp_path, CLOCKED)
    cand = CLOCKED.replace(
        "always_ff @(posedge clk) q <= d;",
        "always @(posedge clk) begin @(posedge clk); q <= d; end",
    )
    found = screen_candidate(cand, design, dotted_names=view)
    assert any("line 2: a timing control" in f for f in found), found


def test_a_delay_behind_a_repository_macro_is_screened_on_the_view_path(tmp_path: Path) -> None:
    """F4: ```define DLY #1`` in a repository header hides ``#`` from the raw text."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.svh").write_text('`define DLY #1\n`define SAY $display("x")\n')
    head = '`include "defs.svh"\n'
    design = _design(tmp_path, head + CLOCKED, (tmp_path / "inc",))
    base = head + CLOCKED
    cand = base.replace("q <= d;", "q <= `DLY d;")
    found = screen_candidate(cand, design, dotted_names=True)
    assert any("delays (#)" in f and "macros expanded" in f for f in found), found
    assert any("timing control" in f and "macros expanded" in f for f in found), found
    # a system task behind a macro too
    task = base.replace("q <= d;", "begin q <= d; `SAY; end")
    found = screen_candidate(task, design, dotted_names=True)
    assert any("$display is not allowed" in f for f in found), found
    # a macro holding nothing of that kind is judged clean
    (tmp_path / "inc" / "defs.svh").write_text("`define DLY #1\n`define W 7\n")
    clean = base.replace("[7:0] q", "[`W:0] q")
    assert screen_candidate(clean, design, dotted_names=True) == []


def test_a_reference_the_view_reads_without_its_logic_leaves_candidates_unchecked(
    tmp_path: Path,
) -> None:
    """F6 (and F1 on the reference side): the view drops the assertion's action block, so a
    candidate proven against the view is not proven against what a simulator runs."""
    ref = (
        "module m(input clk, input [7:0] d, output logic [7:0] q);\n"
        "  always_comb begin q = d; assert (d != 8'hA5) else q = 8'h00; end\nendmodule\n"
    )
    design = _design(tmp_path, ref)
    cand = ref.replace(
        "always_comb begin q = d; assert (d != 8'hA5) else q = 8'h00; end", "assign q = d;"
    )
    found = screen_candidate(cand, design, dotted_names=True)
    # (the candidate drops the reference's assertion too: a problem of its own)
    assert any("unchecked: the reference module, line 2: an assertion action" in f for f in found)
    timed = CLOCKED.replace("q <= d;", "begin @(posedge clk); q <= d; end")
    design = _design(tmp_path, timed)
    found = screen_candidate(CLOCKED, design, dotted_names=True)
    assert found and "unchecked: the reference module, line 2: a timing control" in found[0]
    # a reference assertion that only reports is read alike
    quiet = ref.replace("else q = 8'h00;", 'else $error("bad");')
    design = _design(tmp_path, quiet)
    plain = quiet.replace(
        'always_comb begin q = d; assert (d != 8\'hA5) else $error("bad"); end', "assign q = d;"
    )
    # (no view problem; dropping the reference's check is one of its own: keep the check)
    found = screen_candidate(plain, design, dotted_names=True)
    assert plain != quiet and found and all("keep the reference's check" in f for f in found)


def test_case_qualifiers_are_blanked_for_every_tool() -> None:
    """F10: every tool reads the plain statement (a simulator's values where nothing
    matches); identifiers, comments and macros named alike are left alone."""
    text = (
        "always_comb begin y = 0; unique case (s) 0: y = a; endcase\n"
        "  priority  /* c */ if (a) y = b; unique0 casez (s) 1: y = 1; endcase end\n"
        "// unique case in a comment\nwire priority; `unique case\n"
    )
    plain = plain_case_qualifiers(text)
    assert len(plain) == len(text) and plain.count("\n") == text.count("\n")
    assert "unique case (s)" not in plain and "priority  /*" not in plain
    assert "unique0" not in plain and "casez (s)" in plain
    assert "// unique case in a comment" in plain and "wire priority;" in plain
    assert "`unique case" in plain


def test_case_attributes_are_read_as_a_simulator_reads_them() -> None:
    """Round 56: Yosys reads ``(* parallel_case *)`` and ``(* full_case *)`` as don't-cares
    (two items matching, no item matching) where simulation takes the first item or keeps the
    value: every attribute instance naming one is blanked; ``@(*)``, attributes that change
    nothing computed and text in strings are kept; round 66: comments naming one are blanked
    (Yosys reads ``// synopsys full_case``), and so is every other attribute
    (``no_rw_check``: a read at a written address x)."""
    text = (
        "always @(*) begin\n  (* parallel_case *)\n  case (1'b1) a: y = 1; endcase\n"
        "  (* full_case, keep *) case (s) 0: y = 0; endcase\n  (* keep *) z = a;\n"
        '  $display("(* full_case *)"); // (* parallel_case *)\nend\n'
    )
    plain = plain_case_qualifiers(text)
    assert len(plain) == len(text) and plain.count("\n") == text.count("\n")
    assert "parallel_case *)\n  case" not in plain and "full_case, keep" not in plain
    assert "always @(*) begin" in plain and "(* keep *) z = a;" in plain
    assert '"(* full_case *)"' in plain and "parallel_case" not in plain.split('"')[-1]
    # round 57: an escaped name is the same attribute to Yosys; init is a power-up value
    # iverilog does not give
    for form in ("(* \\parallel_case *) case", "(* init = 1'b1 *) reg q;", "(* \\init = 1 *) reg"):
        assert "case" not in plain_case_qualifiers(form)[
            :8
        ] and "init" not in plain_case_qualifiers(form), form
    assert plain_case_qualifiers("(* keep *) reg r;") == "(* keep *) reg r;"
    for form in ("(* initial_x *)", '(* ram_style = "no_rw_check" *)', "(* no_rw_check *)"):
        assert plain_case_qualifiers(f"{form} reg r;") == " " * len(form) + " reg r;", form
    for form in ("// synopsys full_case", "/* synthesis parallel_case */"):
        assert plain_case_qualifiers(f"case (s){form}\n") == "case (s)" + " " * len(form) + "\n"


def test_a_candidate_may_not_use_qualifiers_more_often_than_the_reference(tmp_path: Path) -> None:
    ref = (
        "module m(input clk, input [7:0] d, output logic [7:0] q);\n"
        "  always_comb begin q = 0; unique case (d[1:0]) 0: q = d; endcase end\nendmodule\n"
    )
    design = _design(tmp_path, ref)
    kept = ref.replace("q = d;", "q = d + 0;")
    assert screen_candidate(kept, design) == []
    more = kept.replace("q = 0;", "q = 0; priority if (d[2]) q = 1;")
    assert any("priority case/if" in f for f in screen_candidate(more, design))
    twice = kept.replace("endcase end", "endcase unique case (d[3:2]) 1: q = 1; endcase end")
    assert any("unique case/if" in f for f in screen_candidate(twice, design))


def test_the_view_reads_copies_without_qualifiers_and_names_the_originals(tmp_path: Path) -> None:
    """slang reads a copy of each file with a qualifier (never the repository's file, which
    stays as it is); a file without one is read where it is."""
    from rtlopt.eda._slang import _plain_copies

    plain = tmp_path / "a.sv"
    plain.write_text("module a; endmodule\n")
    qual = tmp_path / "b.sv"
    qual.write_text(
        "module b(input s, output logic y);\n  always_comb unique if (s) y = 1;\nendmodule\n"
    )
    files, copies = _plain_copies([plain, qual], tmp_path / "plain")
    assert files[0] == plain and files[1] != qual and copies == {files[1]: qual}
    assert "unique" not in files[1].read_text() and "unique if" in qual.read_text()


def test_a_qualifier_from_a_macro_or_include_is_screened_or_leaves_the_reference_unchecked(
    tmp_path: Path,
) -> None:
    """F10 behind a macro or an included file: the view's stripped copy still reads it."""
    from rtlopt.harness._qualified import view_qualifiers

    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.svh").write_text(
        "`define U unique\n`define PIF(c) priority if (c)\n`define W 7\n"
    )
    (tmp_path / "inc" / "body.svh").write_text("unique0 case (d[1:0]) 0: q = d; endcase\n")
    head = '`include "defs.svh"\n'
    plain = head + CLOCKED.replace("always_ff @(posedge clk) q <= d;", "always_comb q = d;")
    design = _design(tmp_path, plain, (tmp_path / "inc",))
    body = "always_comb begin q = 0; `U case (d[1:0]) 0: q = d; endcase end"
    cand = plain.replace("always_comb q = d;", body)
    assert view_qualifiers(cand, design) == [(3, "")]
    found = screen_candidate(cand, design, dotted_names=True)
    assert any(f.startswith("line 3: a unique/unique0/priority qualifier") for f in found), found
    pif = plain.replace("always_comb q = d;", "always_comb begin q = 0; `PIF(d[0]) q = d; end")
    included = plain.replace("q = d;", 'begin q = 0;\n`include "body.svh"\n end')
    assert view_qualifiers(pif, design) == [(3, "")]
    assert view_qualifiers(included, design) == [(4, "")]
    # written in the text (stripped in the copy) or a macro of another kind: nothing found
    own = cand.replace("`U case", "unique case").replace("[7:0] q", "[`W:0] q")
    assert view_qualifiers(own, design) == [] and view_qualifiers(plain, design) == []
    # the reference side: every candidate is unchecked
    ref_design = _design(tmp_path, cand, (tmp_path / "inc",))
    found = screen_candidate(plain, ref_design, dotted_names=True)
    assert found and found[0].startswith("line 1: unchecked: the reference module, line 3: a uni")
    assert not any("qualifier" in f for f in screen_candidate(plain, ref_design))  # Verilog path
    # a header the target's file includes outside the module, read by the view as it is
    (tmp_path / "inc" / "fn.svh").write_text(
        "function automatic logic f(logic [1:0] s); f = 0; unique case (s) 0: f = 1; endcase\n"
        "endfunction\n"
    )
    fn_design = _design(tmp_path, '`include "fn.svh"\n' + plain, (tmp_path / "inc",))
    assert view_qualifiers(plain, fn_design) == [(0, str((tmp_path / "inc" / "fn.svh").resolve()))]
    found = screen_candidate(plain, fn_design, dotted_names=True)
    assert found and "unchecked: the reference module, through fn.svh: a unique" in found[0]
    # the same text in a prelude file: slang reads its stripped copy
    pre = tmp_path / "pkg.sv"
    pre.write_text("package p;\n" + (tmp_path / "inc" / "fn.svh").read_text() + "endpackage\n")
    d = _design(tmp_path, plain, (tmp_path / "inc",))
    d = dataclasses.replace(d, sources=dataclasses.replace(d.sources, prelude=(pre,)))
    assert view_qualifiers(plain, d, context=True) == []


def test_a_qualifier_from_a_macro_or_header_in_a_package_file_is_found(tmp_path: Path) -> None:
    """F10 in a package file slang reads directly (not through the prelude or an include):
    its own qualifiers are stripped in the view's copy, one from a macro (of an earlier file
    too, or defined only under ``SYNTHESIS``) or a header beside it is still read."""
    from rtlopt.evaluate._view import _view_qualifiers
    from rtlopt.harness._qualified import file_qualifiers

    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.svh").write_text(
        "`ifdef SYNTHESIS\n`define U unique\n`else\n`define U\n`endif\n"
    )
    pkgs = tmp_path / "pkg"
    pkgs.mkdir()
    (pkgs / "body.svh").write_text("priority if (s) f = 1;\n")
    fn = "  function automatic logic f(logic s);\n    f = 0;\n"
    a = pkgs / "a_pkg.sv"
    a.write_text(
        f'`include "defs.svh"\npackage a;\n{fn}    `U if (s) f = 1;\n  endfunction\nendpackage\n'
    )
    b = pkgs / "b_pkg.sv"
    b.write_text(f'package b;\n{fn}`include "body.svh"\n  endfunction\nendpackage\n')
    c = pkgs / "c_pkg.sv"  # uses a's macro; its own qualifier is stripped in the copy
    c.write_text(
        f"package c;\n{fn}    `U if (s) f = 1;\n    unique if (s) f = 0;\n  endfunction\nendpackage\n"
    )
    design = _design(tmp_path, CLOCKED, (tmp_path / "inc",))
    assert file_qualifiers([a, b, c], design) == [(a, 5), (b, 4), (c, 4)]
    plain = pkgs / "p_pkg.sv"
    plain.write_text(
        f"package p;\n{fn}    unique0 case (s) 1'b1: f = 1; endcase\n  endfunction\nendpackage\n"
    )
    assert file_qualifiers([plain], design) == [] and file_qualifiers([], design) == []
    why = _view_qualifiers(design, (plain, b))
    assert (
        why.startswith("pkg/b_pkg.sv, line 4 (a file the SystemVerilog view")
        and "macro or an included" in why
    )
    assert _view_qualifiers(design, (plain,)) == ""


def test_a_qualifier_the_reference_does_not_carry_stays_only_where_its_claim_holds(
    tmp_path: Path,
) -> None:
    # red team w21 F3: `unique` moved from a full case to a partial one, or onto an if; the
    # claim decides (harness/_claims.py), not the reference's text: a full, parallel case may
    # carry one the reference writes elsewhere or on another expression
    from rtlopt.harness import claim_problems
    from tests.unit.harness.test_qualified_claims import _design

    ref = (
        "module m(input [1:0] s, input [7:0] a, b, output reg [7:0] y, z);\n"
        "always @* begin y = 0; unique case (s) 0: y = a; 1: y = b; 2, 3: y = 1; endcase end\n"
        "always @* begin z = 0; case (s) 0: z = a; 1: z = b; endcase end\nendmodule\n"
    )
    d = _design(tmp_path, {"m.sv": ref})

    def lines(text: str) -> list[int]:
        return [line for line, _ in claim_problems(text, d)]

    full = "unique case (s) 0: y"
    moved = ref.replace(full, "case (s) 0: y").replace("z = 0; case", "z = 0; unique case")
    assert lines(moved) == [3]
    onto_if = ref.replace(full, "case (s) 0: y").replace(
        "case (s) 0: z = a; 1: z = b; endcase", "unique if (s == 0) z = a; else if (s == 1) z = b;"
    )
    assert lines(onto_if) == [3]
    partial = ref.replace(
        "z = 0; case (s) 0: z = a; 1: z = b; endcase", "unique case (s) 0: y = a; endcase"
    )
    assert lines(partial) == [3]
    # a second full, parallel case, and the first one on a renamed expression: claims that hold
    second = ref.replace(
        "z = 0; case (s) 0: z = a; 1: z = b; endcase",
        "z = 0; unique case (s) 0: z = a; 1: z = b; 2, 3: z = 1; endcase",
    )
    assert lines(second) == []
    renamed = ref.replace("y, z);", "y, z);\nwire [1:0] t = s;").replace(
        full, "unique case (t) 0: y"
    )
    assert lines(renamed) == []


def test_a_qualifier_on_named_labels_is_judged_by_their_values(tmp_path: Path) -> None:
    # red team w22 F5: D = 3 becomes D = 2, and the full case is partial
    from rtlopt.harness import claim_problems
    from tests.unit.harness.test_qualified_claims import _design

    ref = (
        "module m(input [1:0] s, input [7:0] a, b, output reg [7:0] y);\n"
        "localparam [1:0] A = 0, B = 1, C = 2, D = 3;\n"
        "always @* begin y = 0; unique case (s) A: y = a; B: y = b; C: y = 1; D: y = 2; endcase"
        " end\nendmodule\n"
    )
    d = _design(tmp_path, {"m.sv": ref})
    assert [line for line, _ in claim_problems(ref.replace("D = 3", "D = 2"), d)] == [3]
    assert claim_problems(ref.replace("y = 1;", "y = 8'd1;"), d) == []


@pytest.mark.parametrize(
    "condition",
    ['assert ($sscanf("0", "%d", q) == 1);', "assert (f(a) != 8'hA5);"],
)
def test_an_assertion_condition_calling_what_may_write_is_found(condition: str) -> None:
    # red team w22 F3: $sscanf writes its argument; a user function may have outputs
    assert _messages(f"always_comb begin q = d; {condition} end")
    assert not _messages("always_comb begin q = d; assert ($onehot0(a) && $countones(a) < 2); end")


@pytest.mark.parametrize(
    "body",
    [
        # a function the text declares, called without parentheses (SystemVerilog allows it)
        "function automatic int f; q = 0; return 1; endfunction\n"
        'always_comb begin assert (a != 8\'hA5) else $display("%0d", f); end',
        "function automatic int f; q = 0; return 1; endfunction\nalways_comb assert (f == 1);",
        # a property or sequence declaration an assertion names, writing in its expression
        'property p; $sscanf("0", "%d", q) == 1; endproperty\nassert property (@(posedge clk) p);',
        'assert property (@(posedge clk) a[0]) else $error("%0d", $sscanf("0", "%d", q));',
    ],
)
def test_every_expression_of_an_assertion_is_judged_by_one_rule(body: str) -> None:
    """Red team w24 F4's class: condition, actions, their arguments, nested calls, named
    properties: anything that may write (or is not known pure) is logic the view drops."""
    found = _messages(body)
    assert any("assertion action" in m for m in found), (body, found)


@pytest.mark.parametrize(
    "action",
    [
        '$error("bad %0d at %0t", a, $time)',
        '$display("%0d %0d", $countones(a), $bits(q))',
        '$fatal(1, "bad %0d", $past(a))',
    ],
)
def test_an_action_reporting_pure_values_is_read_alike(action: str) -> None:
    assert _messages(f"always @(posedge clk) assert (a != 8'hA5) else {action};") == []


@pytest.mark.parametrize(
    "edit",
    [
        "q <= #(1) d;",
        "q <= # (1) d;",
        "#(2) q <= d;",
    ],
)
def test_a_parenthesised_delay_is_screened(tmp_path: Path, edit: str) -> None:
    """``#(5)`` is a delay as ``#5`` is (after a keyword, punctuation or an event control);
    ``sub #(8) u`` is a parameter list."""
    design = _design(tmp_path, CLOCKED, ())
    found = screen_candidate(CLOCKED.replace("q <= d;", edit), design, dotted_names=False)
    assert any("delays (#)" in f for f in found), found
