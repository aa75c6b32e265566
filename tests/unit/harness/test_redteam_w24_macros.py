"""Red team w24 F5 and F6: macro calls Yosys 0.23 and iverilog read differently, judged on
every text the reference's design reads (its submodules, headers and packages too), with no
exemption for a call the reference's file merely holds. By hand (a = 0): ```S(p  q)`` with
```define S(x) `"x`"`` is 70202071 to Yosys 0.23 on the written text, 702071 to iverilog;
```define S(x) "x"`` gives 78 to Yosys, 702071 to iverilog."""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate

PORTS = (Port("a", "input", 64, 63, 0), Port("y", "output", 64, 63, 0))
STRINGIFY = '`define S(x) `"x`"\n'
TARGET = (
    "module m(input [63:0] a, output [63:0] y);\n"
    "  wire [63:0] k;\n  sub u(.k(k));\n  assign y = a ^ k;\nendmodule\n"
)
CANDIDATE = 'module m(input [63:0] a, output [63:0] y);\n  assign y = a ^ "p q";\nendmodule\n'


def _module(f: Path, name: str, ports: tuple[Port, ...] = PORTS) -> Module:
    text = f.read_text()
    start = text.index(f"module {name}")
    end = text.index("endmodule", start) + len("endmodule")
    return Module(name, f, text.count("\n", 0, start) + 1, start, end, ports)


def _design(root: Path, files: dict[str, str], subs: tuple[str, ...] = ()) -> Design:
    """Target ``m`` in ``m.v`` and the modules ``subs`` (``sub`` in ``sub.v``) of ``files``
    written under ``root``; ``inc/`` is the include folder."""
    (root / "inc").mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        (root / rel).write_text(text)
    target = _module(root / "m.v", "m")
    mods = {"m": target}
    mods.update({s: _module(root / f"{s}.v", s, (Port("k", "output", 64, 63, 0),)) for s in subs})
    srcs = tuple(root / f for f in files if f.endswith(".v") or f.endswith(".sv"))
    closure = tuple(
        dict.fromkeys([*(m.file for m in mods.values() if m is not target), target.file])
    )
    sources = SourceSet(root, srcs, include_dirs=(root / "inc",))
    return Design(root, target, sources, mods, closure, subs)


def _unchecked(found: list[str]) -> str:
    hits = [f for f in found if "unchecked: the reference design" in f]
    assert hits, found
    return hits[0]


def test_an_odd_call_held_only_by_a_comment_of_the_references_file_is_screened(
    tmp_path: Path,
) -> None:
    """F5: ``call not in ref_file`` was a substring test on the raw file (a comment)."""
    ref = (
        STRINGIFY + "// house style: `S(p  q)\n"
        "module m(input [63:0] a, output [63:0] y);\n"
        "  localparam [63:0] K = `S(p q);\n  assign y = a ^ K;\nendmodule\n"
    )
    design = _design(tmp_path, {"m.v": ref})
    cand = ref.replace("`S(p q);", "`S(p  q);")
    found = screen_candidate(cand, design)
    assert any(f.startswith("line 4: a macro call whose stringified") for f in found), found
    assert not any("unchecked" in f for f in found), found  # the comment is no call
    assert screen_candidate(ref.replace("a ^ K", "K ^ a"), design) == []


def test_a_reference_making_an_odd_call_leaves_even_the_same_call_unchecked(
    tmp_path: Path,
) -> None:
    """F5's class: the same call, used otherwise, is another design to Yosys than to the
    proof (``K == "p q"`` holds for iverilog only), so no candidate of it is judged."""
    ref = (
        STRINGIFY + "module m(input [63:0] a, output [63:0] y);\n"
        "  localparam [63:0] K = `S(p  q);\n"
        '  assign y = (K == "p q") ? a : ~a;\nendmodule\n'
    )
    design = _design(tmp_path, {"m.v": ref})
    cand = ref.replace('(K == "p q") ? a : ~a', "a")
    found = screen_candidate(cand, design)
    assert "m.v line 3, makes the call '`S(p  q)'" in _unchecked(found), found
    assert any(f.startswith("line 3: a macro call whose stringified") for f in found), found


def test_a_submodule_calling_a_string_substituting_macro_leaves_the_reference_unchecked(
    tmp_path: Path,
) -> None:
    """F6: ``sub`` (another file, its header beside it) calls ```S(p q)``; the candidate
    inlines what iverilog reads."""
    sub = '`include "defs.vh"\nmodule sub(output [63:0] k);\n  assign k = `S(p q);\nendmodule\n'
    files = {"defs.vh": '`define S(x) "x"\n', "sub.v": sub, "m.v": TARGET}
    found = screen_candidate(CANDIDATE, _design(tmp_path, files, ("sub",)))
    assert "sub.v line 3, uses macro `S, which names its argument" in _unchecked(found), found
    # the odd variant (w21's second reference rule), through a macro whose body makes it
    odd = {
        "defs.vh": STRINGIFY + "`define K `S(p  q)\n",
        "sub.v": sub.replace("`S(p q)", "`K"),
        "m.v": TARGET,
    }
    found = screen_candidate(CANDIDATE, _design(tmp_path / "odd", odd, ("sub",)))
    assert "sub.v line 3, uses macro `K, whose body makes an odd call" in _unchecked(found)
    # nothing read differently: judged as usual
    plain = {**odd, "sub.v": sub.replace("`S(p q)", '"p q"')}
    assert screen_candidate(CANDIDATE, _design(tmp_path / "plain", plain, ("sub",))) == []


def test_a_header_or_package_the_design_reads_is_judged_too(tmp_path: Path) -> None:
    """F6's class: a header included in a submodule's body, a package the design imports,
    and an include named by a macro (not followed: unchecked)."""
    sub = "module sub(output [63:0] k);\n" + '`include "body.vh"\n' + "endmodule\n"
    files = {
        "inc/defs.vh": STRINGIFY,
        "inc/body.vh": "  assign k = `S(p\tq);\n",
        "sub.v": '`include "defs.vh"\n' + sub,
        "m.v": TARGET,
    }
    found = screen_candidate(CANDIDATE, _design(tmp_path, files, ("sub",)))
    assert "body.vh line 1, makes the call" in _unchecked(found), found
    pkg = "package k_pkg;\n  localparam logic [63:0] P = `S(p  q);\nendpackage\n"
    uses = {
        "inc/defs.vh": STRINGIFY,
        "pkg.sv": '`include "defs.vh"\n' + pkg,
        "m.v": TARGET.replace("sub u(.k(k));", "assign k = k_pkg::P;"),
    }
    found = screen_candidate(CANDIDATE, _design(tmp_path / "pkg", uses))
    assert "pkg.sv line 3, makes the call" in _unchecked(found), found
    hidden = {"m.v": '`define HDR "defs.vh"\n`include `HDR\n' + TARGET, "sub.v": sub}
    (tmp_path / "hid").mkdir()
    found = screen_candidate(CANDIDATE, _design(tmp_path / "hid", hidden, ("sub",)))
    assert "`include `HDR names its header by a macro" in _unchecked(found), found


def test_a_candidate_using_a_macro_whose_body_makes_an_odd_call_is_screened(
    tmp_path: Path,
) -> None:
    """```define K `S(p  q)``: Yosys 0.23 reads "p  q" where the proof reads "p q"."""
    ref = (
        STRINGIFY + "`define K `S(p  q)\n`define W 63\n"
        "module m(input [63:0] a, output [63:0] y);\n  assign y = ~a;\nendmodule\n"
    )
    design = _design(tmp_path, {"m.v": ref})
    found = screen_candidate(ref.replace("~a", "a ^ `K"), design)
    assert any(f.startswith("line 5: macro `K makes such a call") for f in found), found
    assert screen_candidate(ref.replace("[63:0] a", "[`W:0] a"), design) == []


def test_a_header_the_candidate_includes_is_judged_as_its_own_text(tmp_path: Path) -> None:
    """A header only a module outside the reference's hierarchy includes: the candidate may
    copy its include line, so the header's calls are the candidate's."""
    other = 'module other(output [63:0] k);\n`include "body.vh"\nendmodule\n'
    files = {"inc/body.vh": "  assign k = `S(p  q);\n", "m.v": STRINGIFY + other + TARGET}
    design = _design(tmp_path, files)
    assert not any("unchecked" in f for f in screen_candidate(CANDIDATE, design))
    cand = CANDIDATE.replace('  assign y = a ^ "p q";', '  wire [63:0] k;\n`include "body.vh"')
    cand = STRINGIFY + cand.replace("endmodule", "  assign y = a ^ k;\nendmodule")
    found = screen_candidate(cand, design)
    assert any(
        "line 1: the header body.vh the candidate includes, line 1: a macro" in f for f in found
    ), found


def test_a_candidates_own_macro_definition_is_judged_as_written(tmp_path: Path) -> None:
    """A directive line the candidate keeps is matched with its blanks collapsed: the
    definition it carries may make an odd call the repository's does not, and its macro
    reaches every file read after it."""
    ref = STRINGIFY + "`define K `S(p q)\n" + TARGET.replace("a ^ k", "a ^ `K")
    design = _design(
        tmp_path, {"m.v": ref, "sub.v": "module sub(output [63:0] k);\nendmodule\n"}, ("sub",)
    )
    assert screen_candidate(ref.replace("a ^ `K", "`K ^ a"), design) == []
    found = screen_candidate(ref.replace("`S(p q)", "`S(p  q)"), design)
    assert any(f.startswith("line 2: a macro call whose stringified") for f in found), found
