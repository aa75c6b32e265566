"""Red team, wave 9: candidates and staged edits that the verdict accepted wrongly.

Each case is a real run (the `rtlopt` command line in a git repository, real iverilog and Yosys)
of a fixture in ``tests/data/attack_w9``; the control beside it is an equivalent edit that must
still pass, so the fix cannot simply reject everything.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "attack_w9"


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "init", "-q", ".")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _evaluate(tmp_path: Path, case: str, cand: str) -> dict:
    repo = _repo(tmp_path, {"ref.v": (DATA / case / "ref.v").read_text()})
    shutil.copy(DATA / case / cand, repo / "cand.v")
    r = rtlopt(["evaluate", "ref.v", "--candidate", "cand.v", "--json"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return dict(json.loads(r.stdout)["candidate"])


def test_reordered_parameters_are_rejected(tmp_path: Path) -> None:
    """By name the same function, so simulation and the miter (both by name) pass it; an
    instance that sets parameters by position would set others."""
    res = _evaluate(tmp_path, "param_order", "cand.v")
    assert not res["accepted"], res
    assert (res["stage"], "parameters" in res["reason"]) == ("interface", True), res["reason"]


def test_reordered_ports_are_judged_as_written_by_evaluate(tmp_path: Path) -> None:
    """``rtlopt evaluate`` judges the text the user applies: its ports in another order would
    rewire an instance that connects them by position (written in the repository, by a
    generator, a macro or a port-list macro: no reading finds them all, round 79), so the
    order is refused as the gate refuses it; ``optimize`` writes back the reference's order."""
    res = _evaluate(tmp_path, "port_order", "cand.v")
    assert not res["accepted"] and "different order" in res["reason"], res["reason"]


def test_a_commit_that_reorders_ports_fails_the_gate(tmp_path: Path) -> None:
    """``check`` judges the commit's text as it is: its ports in another order would rewire
    every instance that connects them by position."""
    config = '[check]\noptimization_only = ["m"]\nppa = false\n'
    ref = (DATA / "port_order" / "ref.v").read_text()
    repo = _repo(tmp_path, {"ref.v": ref, "rtlopt.toml": config})
    shutil.copy(DATA / "port_order" / "cand.v", repo / "ref.v")
    git(repo, "add", "-A")
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "different order" in r.stdout, r.stdout[-2000:]


@pytest.mark.parametrize("case", ["port_order", "param_order"])
def test_equivalent_rewrite_in_the_same_order_is_proven(tmp_path: Path, case: str) -> None:
    res = _evaluate(tmp_path, case, "equiv.v")
    assert res["accepted"], res["reason"]
    assert res["formal"]["verdict"] == "proven"


def test_a_test_for_x_is_read_as_synthesis_builds_it(tmp_path: Path) -> None:
    """``r[0] === 1'bx`` (an out-of-range part-select) picks the reference's function in
    simulation and in an x-modelling miter, so the candidate was proven; its synthesized
    netlist computes ``a + b`` for every input. The miter now reads ``===`` as synthesis does."""
    res = _evaluate(tmp_path, "eqx_test", "cand.v")
    assert not res["accepted"], res
    assert res["stage"] == "formal" and res["formal"]["verdict"] == "refuted", res["reason"]


def test_case_equality_for_equality_is_judged_with_every_input_x(tmp_path: Path) -> None:
    """``i === 3`` for ``i == 3``: equal on 0/1, and for ``i`` x it picks ``a - b`` where the
    reference merges both: judged with every input x, it is refuted (wave 51, held-out trial
    51's ``rxd !== 1'b1``)."""
    res = _evaluate(tmp_path, "eqx_test", "equiv.v")
    assert not res["accepted"] and res["formal"]["verdict"] == "refuted", res["reason"]
    assert "reads x as a value otherwise" in res["reason"], res["reason"]


@pytest.mark.parametrize("cand", ["cand_assign.v", "cand_wor.v", "cand_instance.v"])
def test_a_driver_of_an_input_port_is_rejected(tmp_path: Path, cand: str) -> None:
    res = _evaluate(tmp_path, "input_driven", cand)
    assert not res["accepted"], res
    assert res["stage"] == "interface" and "input port 'a' is driven" in res["reason"], res


def test_a_driver_the_reference_has_itself_is_not_the_candidates(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, "input_driven_ref", "cand.v")
    assert res["stage"] != "interface", res["reason"]


def test_the_testbench_keeps_a_driven_input_port_off_the_reference(tmp_path: Path) -> None:
    """Defence in depth, below the interface stage: the simulation alone fails the candidate
    (its inputs are copies, so its own driver makes only its side x)."""
    from _harness_designs import design_from_files, run_harness

    src = tmp_path / "repo" / "m.v"
    src.parent.mkdir()
    src.write_text((DATA / "input_driven" / "ref.v").read_text())
    design = design_from_files([src], "m")
    cand = tmp_path / "cand" / "candidate.v"
    cand.parent.mkdir()
    cand.write_text((DATA / "input_driven" / "cand_assign.v").read_text())
    rep = run_harness(design, [cand], tmp_path / "scratch", timeout=30)
    assert not rep.result.passed, rep


HEAD16 = "module m(input [15:0] a, input [15:0] b, output [15:0] y);\n"


@pytest.mark.parametrize(
    "body, why",
    [
        # pyslang raised a bare RuntimeError in the screen: "internal error", exit 3, no JSON
        ("  assign y = " + "(" * 20_000 + "a" + ")" * 20_000 + ";\n", "nests deeper"),
        # a 40,000-operator chain: slang's binding recursion overflowed the stack, and rtlopt
        # itself died of a segmentation fault (exit 139) in the frontend's parse
        ("  assign y = a" + " + b" * 40_000 + ";\n", "40000 operators"),
    ],
    ids=["nesting", "operator_chain"],
)
def test_a_text_the_parser_cannot_take_is_rejected_not_a_crash(
    tmp_path: Path, body: str, why: str
) -> None:
    repo = _repo(tmp_path, {"ref.v": (DATA / "input_driven" / "ref.v").read_text()})
    (repo / "cand.v").write_text(HEAD16 + body + "endmodule\n")
    r = rtlopt(["evaluate", "ref.v", "--candidate", "cand.v", "--json"], repo)
    assert r.returncode == 1, (r.returncode, r.stderr[-2000:])
    res = json.loads(r.stdout)["candidate"]
    assert res["stage"] == "screen" and why in res["reason"], res["reason"]


def test_a_lone_carriage_return_cannot_hide_code_from_the_screen(tmp_path: Path) -> None:
    """iverilog and Yosys end a ``//`` comment at a lone carriage return; the screen's lexer
    ended it at the next line feed, so ``$random`` (or ``initial``, a delay, ``force``) after it
    was never screened. A CRLF line ending stays fine."""
    from rtlopt.config import ProjectConfig
    from rtlopt.frontend import load_design
    from rtlopt.harness import screen_candidate

    repo = _repo(tmp_path, {"ref.v": (DATA / "port_order" / "ref.v").read_text()})
    design = load_design(repo / "ref.v", None, ProjectConfig())
    head = "module m(input [3:0] a, input [3:0] b, output [3:0] y);\n  // note"
    rest = "  wire [3:0] r = $random;\n  assign y = a - b;\nendmodule\n"
    [problem] = screen_candidate(head + "\r" + rest, design)
    assert "carriage return" in problem and problem.startswith("line 2:"), problem
    crlf = screen_candidate(head + "\r\n" + rest, design)
    assert crlf == ["line 3: system task/function $random is not allowed"], crlf


@pytest.mark.slow  # a SAT proof over two dividers, with synthesis: about 30 s each
@pytest.mark.parametrize("case", ["div_zero", "mod_zero"])
def test_division_by_zero_is_compared_as_synthesized(tmp_path: Path, case: str) -> None:
    """``a / 0`` and ``a % 0`` are x in simulation and in Yosys's SAT model, so a candidate
    returning 0 there refined them under the X policy and was proven, while synthesis
    builds all ones (the remainder: the dividend). The miter maps division as synthesis
    does, on both sides."""
    res = _evaluate(tmp_path, case, "cand.v")
    assert not res["accepted"], res
    assert res["formal"]["verdict"] == "refuted", res["formal"]


@pytest.mark.slow
@pytest.mark.parametrize("case", ["div_zero", "mod_zero"])
def test_a_divider_rewrite_that_defines_the_zero_divisor_result_is_refuted(
    tmp_path: Path, case: str
) -> None:
    """The rewrite keeps the synthesized result of a zero divisor (all ones; the dividend),
    equal on 0/1 values as synthesis builds it; a simulation of the reference gives x there,
    which the repository reads: the internal-x proof compares outputs x-exactly."""
    res = _evaluate(tmp_path, case, "equiv.v")
    assert not res["accepted"], res
    assert res["formal"]["verdict"] == "refuted", res["formal"]
    assert "where the target makes x itself" in res["reason"], res["reason"]


def test_unclosed_attributes_are_screened_in_one_pass(tmp_path: Path) -> None:
    """A candidate of 987 kB of unclosed ``(*`` made the screen's lazy regex scan to the end
    from every one (quadratic: about 1,000 CPU s, with no timeout around the screen). Screened
    in one pass it takes well under a second; the subprocess limit is 100 times that."""
    repo = _repo(tmp_path, {"ref.v": (DATA / "port_order" / "ref.v").read_text()})
    body = "  wire w;\n  assign w = " + "(* " * 329_000 + ";\n"
    cand = (DATA / "port_order" / "ref.v").read_text().replace("endmodule", body + "endmodule")
    (tmp_path / "cand.v").write_text(cand)
    code = textwrap.dedent(
        f"""
        from pathlib import Path
        from rtlopt.config import ProjectConfig
        from rtlopt.frontend import load_design
        from rtlopt.harness import screen_candidate
        from rtlopt.harness._screen import attributes
        d = load_design(Path({str(repo / "ref.v")!r}), None, ProjectConfig())
        text = Path({str(tmp_path / "cand.v")!r}).read_text()
        problems = screen_candidate(text, d)
        assert not any("attribute" in p for p in problems), "unclosed (* is no attribute"
        assert attributes("(* a *) x (* b = 1 *) @(*) (* c") == [(0, "a"), (10, "b = 1")]
        print("screened")
        """
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=100, cwd=repo
    )
    assert r.stdout.strip() == "screened", r.stderr[-2000:]


# --------------------------------------------------------------------------- rtlopt check

REF = """`define K 4'd3
module m(input [3:0] a, output [3:0] y);
  assign y = a + `K;
endmodule
"""
CONFIG = '[check]\noptimization_only = ["*"]\nppa = false\n'


def _check(repo: Path) -> tuple[int, dict]:
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return r.returncode, json.loads(r.stdout)


def _staged(tmp_path: Path, change: str) -> Path:
    repo = _repo(tmp_path, {"m.v": REF, "rtlopt.toml": CONFIG})
    if change == "define":  # outside the module: the module's text is unchanged
        (repo / "m.v").write_text(REF.replace("4'd3", "4'd4"))
    elif change == "comment":
        (repo / "m.v").write_text("// a comment above\n" + REF)
    elif change in ("rename", "rename_edit"):
        git(repo, "mv", "m.v", "m2.v")
        if change == "rename_edit":
            (repo / "m2.v").write_text(REF.replace("a + ", "a - "))
    elif change == "move_edit":  # the module leaves m.v for a new file, changed
        (repo / "m.v").write_text("`define K 4'd3\n")
        (repo / "n.v").write_text(REF.split("\n", 1)[1].replace("a + ", "a - "))
    elif change == "duplicate":  # a second, different definition of m in a new file
        (repo / "z.v").write_text(REF.split("\n", 1)[1].replace("a + ", "a - "))
    elif change in ("symlink", "symlink_edit"):  # m.v becomes a link to a (changed) copy
        new = REF if change == "symlink" else REF.replace("a + ", "a - ")
        (repo / "lib").mkdir()
        (repo / "lib" / "m_copy.vh").write_text(new)
        (repo / "m.v").unlink()
        (repo / "m.v").symlink_to("lib/m_copy.vh")
    git(repo, "add", "-A")
    return repo


@pytest.mark.parametrize(
    "change", ["define", "rename_edit", "move_edit", "symlink_edit", "symlink", "duplicate"]
)
def test_check_fails_a_change_it_cannot_prove(tmp_path: Path, change: str) -> None:
    """Each passed the gate: a `define outside the module ("no Verilog module changed"), a
    renamed file ("added"), a module moved to another file ("removed" + "added"), a file
    replaced by a symlink to a changed copy (git's type change, "T", was not read), a second
    definition of a module in a new file ("added": which one a tool reads depends on the
    file order). A file replaced by a link to the same text fails too since round 79 (case
    10): a build may tell a link from a file."""
    rc, out = _check(_staged(tmp_path, change))
    assert rc == 1, out
    assert any(m["findings"] for m in out["modules"]), out


@pytest.mark.parametrize("change", ["comment", "rename"])
def test_check_passes_the_same_kinds_of_equivalent_change(tmp_path: Path, change: str) -> None:
    rc, out = _check(_staged(tmp_path, change))
    assert rc == 0, out
    if change == "comment":  # comments only, read alike by every tool: nothing to prove
        assert out["modules"] == [] and any("m.v" in n for n in out["notes"]), out
        return
    if change == "rename" and not out["modules"]:
        # the same bytes at another path: both sides of a judgement would read the one text
        # in the one context after the change, so an unchanged move is nothing to prove
        return
    [m] = out["modules"]
    assert (m["module"], m["equivalence"]) == ("m", "proven"), out


def test_check_reads_a_file_name_git_would_quote(tmp_path: Path) -> None:
    """``git diff --name-only`` quotes a name with a non-ASCII character
    (``"m\\303\\263dulo.v"``): the gate saw no Verilog file and passed a broken edit."""
    repo = _repo(tmp_path, {"m\u00f3dulo.v": REF, "rtlopt.toml": CONFIG})
    (repo / "m\u00f3dulo.v").write_text(REF.replace("a + ", "a - "))
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 1, out
    [m] = out["modules"]
    assert m["file"] == "m\u00f3dulo.v" and m["equivalence"] == "mismatch", out


def test_check_judges_a_changed_header(tmp_path: Path) -> None:
    """A header without modules changes what the modules that include it mean: the modules
    it reaches are judged, each side preprocessed with its own version of the header."""
    ref = '`include "defs.vh"\n' + REF.split("\n", 1)[1]
    repo = _repo(tmp_path, {"defs.vh": "`define K 4'd3\n", "m.v": ref, "rtlopt.toml": CONFIG})
    (repo / "defs.vh").write_text("`define K 4'd4\n")
    git(repo, "add", "-A")
    rc, out = _check(repo)
    assert rc == 1, out
