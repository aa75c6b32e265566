"""Every word of a Verilog tool's line, and every conditional of a build file, is a setting
(``check._build_options``, ``check._conditionals``): the gate names only some options, so a
changed word it does not know to be harmless is a finding (fail closed)."""

import pytest

from rtlopt.check._build_options import option_problems
from rtlopt.check._computed_settings import computed, computed_settings

MAKE = "sim:\n\tiverilog -o sim.vvp inv.v tb.v\n\tvvp sim.vvp\n"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("iverilog -o", "iverilog -gspecify -o"),  # specify path delays now apply
        ("iverilog -o", "iverilog -Tmax -o"),  # other delays of min:typ:max
        ("vvp sim.vvp", "vvp sim.vvp +XSTIM"),  # what the testbench reads
        ("vvp sim.vvp", "vvp -M. -mdump sim.vvp"),  # a VPI module
        ("iverilog -o", "$(IVERILOG) -gno-specify -o"),  # the tool through a variable
        ("\tvvp sim.vvp\n", "\tvvp sim.vvp \\\n\t  -none\n"),  # a continued line
    ],
)
def test_a_changed_word_of_a_tool_line_is_a_finding(old: str, new: str) -> None:
    found = option_problems("Makefile", MAKE, MAKE.replace(old, new))
    assert found and "the build options" in found[0][1], found


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("iverilog -o", "iverilog -Wall -o"),  # a warning option
        ("iverilog -o sim.vvp", "iverilog  -o  sim.vvp"),  # white space
        ("\tvvp sim.vvp\n", "\tvvp sim.vvp\nclean:\n\trm -f sim.vvp\n"),  # no tool on it
    ],
)
def test_what_a_tool_line_does_not_change_is_no_finding(old: str, new: str) -> None:
    assert option_problems("Makefile", MAKE, MAKE.replace(old, new)) == []


def test_documentation_counts_a_tool_lines_option_words_only() -> None:
    doc = "Run `iverilog -o sim.vvp inv.v` as the simulator says.\n"
    assert option_problems("README.md", doc, doc.replace("-o", "-gspecify -o"))
    assert option_problems("README.md", doc, doc.replace("as the", "as a")) == []


@pytest.mark.parametrize(
    ("rel", "old", "new"),
    [
        ("Makefile", "ifeq (slow,fast)\n", "ifeq (fast,fast)\n"),
        ("Makefile", "ifdef SLOW\n", "ifndef SLOW\n"),
        ("Makefile", "\tiverilog t.v\nendif\n", "endif\n\tiverilog t.v\n"),
        ("run.sh", 'if [ "$V" = a ]; then\n', 'if [ "$V" = b ]; then\n'),
        ("flow.tcl", "} else {\n", "} elseif {$x} {\n"),
        ("sim.py", "if variant == 'a':\n", "if variant != 'a':\n"),
        (".github/workflows/ci.yml", "    if: matrix.v == 'a'\n", "    if: matrix.v == 'b'\n"),
    ],
)
def test_a_changed_conditional_of_a_build_file_is_a_finding(rel: str, old: str, new: str) -> None:
    assert option_problems(rel, "x\n" + old, "x\n" + new)


@pytest.mark.parametrize(
    ("rel", "line"),
    [
        ("Makefile", "ifeq ($(VARIANT),fast)"),
        ("Makefile", "ifdef VARIANT"),
        ("Makefile", "else ifneq ($(V),a)"),
        ("sim.py", "if variant == 'fast':"),
        ("run.sh", 'case "$V" in'),
        ("flow.tcl", "if {$v eq {fast}} {"),
    ],
)
def test_a_conditional_reading_a_variable_is_a_computed_setting(rel: str, line: str) -> None:
    assert computed(rel, line)
    assert computed_settings([(rel, f"x\n{line}\n")], {}) == [(rel, 2, line)]


@pytest.mark.parametrize("line", ["ifeq (a,b)", "else", "endif", "fi", "esac"])
def test_a_literal_conditional_is_no_computed_setting(line: str) -> None:
    assert computed_settings([("Makefile", line + "\n")], {}) == []


@pytest.mark.parametrize(
    ("rel", "old", "new"),
    [
        # an argument list over lines: the option stands on a line of its own
        (
            "sim.py",
            'cmd = [\n    "iverilog",\n    "-o", "s"]\n',
            'cmd = [\n    "iverilog",\n    "-gspecify",\n    "-o", "s"]\n',
        ),
        ("ci.yml", "args:\n  - -o\n  - s\n", "args:\n  - -gspecify\n  - -o\n  - s\n"),
        # a setting moved out of an if block by its indentation
        ("sim.py", "if fast:\n    args += ['-DF']\n", "if fast:\n    pass\nargs += ['-DF']\n"),
        # a shell case arm on a line of its own
        (
            "run.sh",
            "case $V in\nslow)\n  iverilog -DS t.v ;;\n",
            "case $V in\nfast)\n  iverilog -DS t.v ;;\n",
        ),
    ],
)
def test_other_spellings_of_a_setting_are_findings(rel: str, old: str, new: str) -> None:
    assert option_problems(rel, old, new)
