"""A changed build, script or data text where a setting line of the repository is not fully
literal (a variable, a positional argument, a pattern stem, a command substitution) is a
finding: the gate cannot follow every path a value takes to it. A changed include line, and
a changed file an include line may read, is one too."""

import pytest

from rtlopt.check._computed_settings import (
    computed,
    computed_settings,
    fed_problems,
    include_lines,
)
from rtlopt.check._setting_variables import repository_texts


@pytest.mark.parametrize(
    ("rel", "line"),
    [
        ("run_sim.sh", 'iverilog -D"$1"_INV -o sim.vvp inv.v tb.v'),
        ("Makefile", "\tiverilog -D$*_INV -o sim.vvp inv.v tb.v"),
        ("Makefile", "\tiverilog -D$(shell cat variant.cfg)_INV inv.v"),
        ("run.sh", "iverilog `cat flags` inv.v"),
        ("sim.py", 'run(["iverilog", flags, "inv.v"])'),
        ("sim.py", 'run(["iverilog", f"-D{variant}_INV", "inv.v"])'),
        ("flow.tcl", "read_verilog -D [lindex $argv 0] inv.v"),
    ],
)
def test_computed_setting_lines(rel: str, line: str) -> None:
    assert computed(rel, line)


@pytest.mark.parametrize(
    ("rel", "line"),
    [
        ("run_sim.sh", "iverilog -DFAST_INV -o sim.vvp inv.v tb.v"),
        ("sim.py", 'run(["iverilog", "-DFAST_INV", "inv.v"])'),
    ],
)
def test_literal_setting_lines(rel: str, line: str) -> None:
    assert not computed(rel, line)


def _settings(files: dict[str, str]) -> list[tuple[str, int, str]]:
    return computed_settings(list(files.items()), {})


def test_only_setting_lines_count() -> None:
    assert _settings({"run.sh": "xvlog -d $1 inv.v\nvvp -n sim.vvp +V=$X\necho $1\n"}) == [
        ("run.sh", 1, "xvlog -d $1 inv.v"),
        ("run.sh", 2, "vvp -n sim.vvp +V=$X"),
    ]
    files = {
        "Makefile": "sim:\n\tsh run_sim.sh $(VARIANT)\n\tgcc $(CFLAGS) -Iinc x.c\n",
        "run_sim.sh": 'echo "$1"\niverilog -D"$1"_INV inv.v tb.v\n',
        "README.md": "iverilog -D$(X) inv.v\n",
    }
    assert [(r, n) for r, n, _ in _settings(files)] == [("run_sim.sh", 2)]


SETTINGS = [("run_sim.sh", 2, 'iverilog -D"$1"_INV inv.v tb.v')]


def test_define_block_body_change() -> None:
    old = "define VARIANT\nSLOW\nendef\nsim:\n\tsh run_sim.sh $(VARIANT)\n"
    found = fed_problems("Makefile", old, old.replace("SLOW", "FAST"), SETTINGS, [])
    assert [ln for ln, _ in found] == [2] and "run_sim.sh:2" in found[0][1]


def test_data_file_change_and_deletion() -> None:
    assert fed_problems("variant.cfg", "SLOW\n", "FAST\n", SETTINGS, [])
    assert fed_problems("variant.cfg", "SLOW\n", "", SETTINGS, [])


def test_comment_only_change_is_no_finding() -> None:
    old = "VARIANT := SLOW  # the variant\n"
    new = "VARIANT := SLOW   # the slow variant\n"
    assert not fed_problems("Makefile", old, new, SETTINGS, [])


def test_all_literal_settings_no_finding() -> None:
    assert not fed_problems("variant.cfg", "SLOW\n", "FAST\n", [], [])


def test_include_line_and_included_fragment() -> None:
    old = "VARIANT := slow\ninclude cfg/$(VARIANT).mk\n"
    new = old.replace("include cfg/", "-include cfg/")
    assert "include or source line" in fed_problems("Makefile", old, new, [], [])[0][1]
    incs = include_lines([("Makefile", old), ("run.sh", ". ./env.sh\n")])
    assert ("Makefile", 2, "cfg/*.mk") in incs
    found = fed_problems("cfg/fast.mk", "DEFS :=\n", "DEFS := $(X)\n", [], incs)
    assert found and "included by Makefile:2" in found[0][1]
    assert fed_problems("env.sh", "A=1\n", "A=2\n", [], incs)
    assert not fed_problems("other/x.cfg", "A=1\n", "A=2\n", [], incs)


def test_repository_texts_skip_verilog(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "inv.v").write_text("module inv; endmodule // $(X)\n")
    (tmp_path / "run.sh").write_text('echo "#"; iverilog -D$V inv.v\n')
    texts = repository_texts(tmp_path)
    assert [r for r, _ in texts] == ["run.sh"]
    assert [(r, n) for r, n, _ in computed_settings(texts, {})] == [("run.sh", 1)]


def test_emptied_and_deleted_data_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from rtlopt.check._screen_files import screen_changes

    (tmp_path / "Makefile").write_text("sim:\n\tiverilog -D$(shell cat variant.cfg)_INV inv.v\n")
    (tmp_path / "variant.cfg").write_text("")
    changes = {"variant.cfg": "M", "old.cfg": "D"}
    rows = screen_changes(
        changes,
        frozenset(),
        tmp_path,
        lambda rel: "SLOW\n",
        {},
        None,
        False,  # type: ignore[arg-type]
    )
    said = {m.file: " ".join(m.findings) for m in rows}
    assert "may feed Makefile:2" in said["variant.cfg"] and "emptying" in said["variant.cfg"]
    assert "the deletion of old.cfg" in said["old.cfg"]
    trusted = screen_changes(
        changes,
        frozenset(),
        tmp_path,
        lambda rel: "SLOW\n",
        {},
        None,
        False,
        trusted=True,  # type: ignore[arg-type]
    )
    assert trusted == []


def test_a_changed_script_computing_characters_is_a_finding_with_literal_settings() -> None:
    """Every setting line literal, and a changed script builds its option at run time
    (``chr`` arithmetic for ``-DFAST_INV``): no setting line shows it, so the change is a
    finding; the same script computing nothing, and a comment naming ``chr(``, are none."""
    old = 'import subprocess\nsubprocess.run(["iverilog", "inv.v", "tb.v"])\n'
    new = (
        'import subprocess\nflag = "".join(chr(c) for c in (45, 68, 70, 65, 83, 84))\n'
        'subprocess.run(["iverilog", flag + "_INV", "inv.v", "tb.v"])\n'
    )
    found = fed_problems("run_sim.py", old, new, [], [])
    assert found and "computes characters at run time (line 2" in found[0][1]
    plain = old.replace('"tb.v"', '"tb.v", "-Wall"')
    assert not fed_problems("run_sim.py", old, plain, [], [])
    noted = old + "# chr(45) is a dash\n"
    assert not fed_problems("run_sim.py", old, noted, [], [])
