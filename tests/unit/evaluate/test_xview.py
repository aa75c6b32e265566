"""The procedural views of the x-exact proof on the SystemVerilog view path: the slang script
keeps the processes, the files slang read come from its log, and what the views read
otherwise than the text is refused (``evaluate/_xview.py``)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.eda._slang import SlangResult, _files_read, _Mounts, _view_script
from rtlopt.evaluate._xview import _refusal, _text_refusal, _two_state_enum

#: The macros slang reads defined.
ON = {"SYNTHESIS"}
DEFS = {"SYNTHESIS": "1"}


def test_the_procedural_script_keeps_the_processes() -> None:
    assert "--no-proc" in _view_script("a.f", "m", "v.v", processes=True)
    assert "--no-proc" not in _view_script("a.f", "m", "v.v")


def test_the_files_read_are_the_hosts_of_the_parsed_ones(tmp_path: Path) -> None:
    mounts = _Mounts(tmp_path / "w")
    mounts.add(tmp_path / "repo")
    copy = tmp_path / "w" / "plain" / "0" / "a.sv"
    log = tmp_path / "slang.out"
    log.write_text(
        "Parsing design file '/rtlopt_w/plain/0/a.sv'.\n"
        "Parsing include file '/rtlopt_m1/inc/h.svh'.\nBack to file '/rtlopt_w/plain/0/a.sv'.\n"
        "Parsing design file '/elsewhere/b.sv'.\n"
    )
    read = _files_read(log, mounts, {copy: tmp_path / "repo" / "a.sv"})
    assert read == (tmp_path / "repo" / "a.sv", tmp_path / "repo" / "inc" / "h.svh")
    assert _files_read(tmp_path / "none", mounts, {}) == ()


def _result(tmp: Path, text: str, *, ok: bool = True) -> SlangResult:
    f = tmp / "m.sv"
    f.write_text(text)
    return SlangResult(ok, tmp / "view.v", tmp / "log", 0.0, read=(f,) if ok else ())


def test_casex_two_state_and_a_missing_view_are_refused(tmp_path: Path) -> None:
    plain = (
        "module m(input a, output reg y);\n  always @* case (a) 1'b1: y = 1; endcase\nendmodule\n"
    )
    assert _refusal(_result(tmp_path, plain), "candidate", DEFS) == ""
    casex = plain.replace("case (a)", "casex (a)")
    assert "casex" in _refusal(_result(tmp_path, casex), "candidate", DEFS)
    cast = plain.replace("y = 1;", "y = bit'(a);")
    assert "2-state" in _refusal(_result(tmp_path, cast), "reference", DEFS)
    assert "could not be made" in _refusal(_result(tmp_path, plain, ok=False), "candidate", DEFS)


def test_an_enum_without_a_base_type_is_two_state() -> None:
    assert _text_refusal(["typedef enum {A, B} s_t;"], ON)
    assert not _text_refusal(["typedef enum logic [1:0] {A, B} s_t; // enum {"], ON)
    assert not _two_state_enum(["typedef enum logic [1:0] {A, B} s_t;"])


def test_a_macro_body_counts_where_the_texts_use_the_macro() -> None:
    header = "`define TO_BIT(v) \\\n  bit'(v)\n`define VIA(v) `TO_BIT(v)\n"
    assert _text_refusal([header, "module m; endmodule\n"], ON) == ""
    assert "2-state" in _text_refusal([header, "module m(input a, output y);\n"
                                       "  assign y = `TO_BIT(a);\nendmodule\n"], ON)  # fmt: skip
    assert "2-state" in _text_refusal([header, "module m(input a, output y);\n"
                                       "  assign y = `VIA(a);\nendmodule\n"], ON)  # fmt: skip


def test_a_branch_slang_does_not_read_is_not_judged() -> None:
    """A ``ifdef FORMAL`` block of assertions (``$past``) is no logic of the view; the same
    call in a branch slang reads (``ifdef SYNTHESIS``, ``ifndef FORMAL``) is refused."""
    past = "always @(posedge c) y <= $past(a);\n"
    assert _text_refusal([f"`ifdef FORMAL\n{past}`endif\n"], ON) == ""
    assert "$past" in _text_refusal([f"`ifdef SYNTHESIS\n{past}`endif\n"], ON)
    assert "$past" in _text_refusal([f"`ifndef FORMAL\n{past}`endif\n"], ON)
    # a macro a text defines may be defined where slang reads the branch: judged
    assert "$past" in _text_refusal([f"`define F\n`ifdef F\n{past}`endif\n"], ON)


def test_a_build_macro_undefined_by_a_header_and_its_value_are_judged() -> None:
    """Round 60: a header may ``undef`` a macro of the build before a branch that tests it
    (the branch is judged), and a build macro's value is code wherever a text uses it."""
    lut = "assign t = {HI[idx], LO[idx]};\n"
    assert "idx" in _text_refusal([f"`ifndef USE_X\n{lut}`endif\n"], {"SYNTHESIS", "USE_X"})
    assert "idx" in _text_refusal(["assign t = `LUT;\n", "{HI[idx], LO[idx]}"], ON)
