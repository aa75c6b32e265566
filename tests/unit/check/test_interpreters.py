"""A changed text that changes how a build's lines are run (``check._interpreters``): Make's
``SHELL``, a search path, an exported variable, an alias, a function named like a tool, an
env file, a file such a line names. Fail closed: the gate reads setting lines as text."""

import pytest

from rtlopt.check._interpreters import interpreter_paths, interpreter_problems

MAKE = "SHELL := /bin/sh\nsim:\n\tiverilog -DSLOW_INV -o sim.vvp inv.v tb.v\n"


@pytest.mark.parametrize(
    ("rel", "old", "new"),
    [
        ("Makefile", MAKE, MAKE.replace("/bin/sh", "tools/simsh")),
        ("Makefile", MAKE, ".SHELLFLAGS := -ec\n" + MAKE),
        ("Makefile", MAKE, ".ONESHELL:\n" + MAKE),
        ("Makefile", MAKE, "export BASH_ENV := tools/env.sh\n" + MAKE),
        ("Makefile", MAKE, "PATH := $(CURDIR)/bin:$(PATH)\n" + MAKE),
        ("Makefile", MAKE, "export IVERILOG_DUMPER = lxt\n" + MAKE),
        ("Makefile", MAKE, "vpath %.v impl_b\n" + MAKE),
        ("Makefile", MAKE, "export LC_ALL = C\n" + MAKE),
        ("run.sh", "iverilog t.v\n", "alias iverilog='iverilog -DFAST'\niverilog t.v\n"),
        ("run.sh", "iverilog t.v\n", 'iverilog() { command iverilog -DF "$@"; }\niverilog t.v\n'),
        ("run.sh", "iverilog t.v\n", "set -f\niverilog t.v\n"),
        ("run.sh", "iverilog t.v\n", "export FAST=1\niverilog t.v\n"),
        ("run.sh", "#!/bin/sh\niverilog t.v\n", "#!tools/simsh\niverilog t.v\n"),
        ("sim.py", "run(cmd)\n", "os.environ['PATH'] = 'bin'\nrun(cmd)\n"),
        ("sim.py", "run(cmd)\n", "run(cmd, env=dict(FAST='1'))\n"),
        ("flow.tcl", "vlog t.v\n", "proc vlog {args} { exec vlog -DF {*}$args }\nvlog t.v\n"),
        (".env", "A=1\n", "A=2\n"),
        ("sim/modelsim.ini", "[Library]\nwork = a\n", "[Library]\nwork = b\n"),
    ],
)
def test_a_line_setting_how_lines_run_is_a_finding(rel: str, old: str, new: str) -> None:
    found = interpreter_problems(rel, old, new, [])
    assert found, (rel, new)


def test_a_file_such_a_line_names_is_a_finding() -> None:
    texts = [("Makefile", "SHELL := tools/simsh\nPATH := $(CURDIR)/bin:$(PATH)\n")]
    paths = interpreter_paths(texts)
    script = '#!/bin/sh\nexec /bin/sh -c "$(printf \'%s\' "$1" | sed s/SLOW/FAST/g)"\n'
    found = interpreter_problems("tools/simsh", script, script.replace("FAST", "MED"), paths)
    assert found and "Makefile:1" in found[0][1]
    found = interpreter_problems("bin/iverilog", "a\n", "b\n", paths)  # a folder on PATH
    assert found and "Makefile:2" in found[0][1]
    assert interpreter_problems("tools/other.sh", "a\n", "b\n", paths) == []


@pytest.mark.parametrize(
    ("rel", "old", "new"),
    [
        ("Makefile", MAKE, MAKE + "clean:\n\trm -f sim.vvp\n"),
        ("Makefile", MAKE, MAKE.replace("SHELL := /bin/sh", "SHELL := /bin/sh # the shell")),
        ("run.sh", "echo a\n", "echo b\n"),
        ("README.md", "Set PATH=bin first.\n", "Set PATH=tools first.\n"),
        ("sim.py", "x = os.environ.get('A')\n", "x = os.environ.get('B')\n"),
    ],
)
def test_other_changed_lines_are_no_finding(rel: str, old: str, new: str) -> None:
    assert interpreter_problems(rel, old, new, []) == []


@pytest.mark.parametrize(
    "line",
    [
        "sim: SHELL := tools/simsh",
        "\tmake SHELL=tools/simsh sim",
        "PATH=bin:$PATH iverilog t.v",
        "$(eval SHELL := tools/simsh)",
        "define SHELL",
    ],
)
def test_other_spellings_of_an_interpreter_setting(line: str) -> None:
    assert interpreter_problems("Makefile", "all:\n", f"all:\n{line}\n", [])


def test_a_file_a_tool_line_runs_by_its_path_is_a_finding() -> None:
    paths = interpreter_paths([("Makefile", "sim:\n\ttools/iverilog -o s.vvp t.v\n")])
    assert interpreter_problems("tools/iverilog", "exec a\n", "exec b\n", paths)
    assert interpreter_problems("tools/other", "exec a\n", "exec b\n", paths) == []


def test_the_screen_of_changed_files_runs_the_rule(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from rtlopt.check._screen_files import screen_changes
    from rtlopt.frontend._depgraph import DesignGraph

    (tmp_path / "tools").mkdir()
    (tmp_path / "Makefile").write_text(MAKE.replace("/bin/sh", "tools/simsh"))
    (tmp_path / "tools/simsh").write_text('exec /bin/sh -c "$(echo "$1" | sed s/A/B/)"\n')
    (tmp_path / "tools/helper").write_bytes(b"\x7fELF\x00\x00\x00\x00" * 64)
    changes = {"tools/simsh": "M", ".env": "D", "tools/helper": "A"}
    base = {"tools/simsh": 'exec /bin/sh -c "$1"\n', ".env": "A=1\n"}
    rows = screen_changes(
        changes,
        frozenset(),
        tmp_path,
        base.get,
        {},
        DesignGraph(tmp_path),
        False,
        trusted=True,  # no configuration sets an interpreter
    )
    said = {m.file: " ".join(m.findings) for m in rows}
    assert "may be run or read as 'tools/simsh' by Makefile:1" in said["tools/simsh"], said
    assert "the deletion of .env" in said[".env"], said
    assert "tools/helper" not in said  # a binary no such line names
    (tmp_path / "Makefile").write_text("PATH := tools:$(PATH)\n" + MAKE)
    rows = screen_changes(
        changes, frozenset(), tmp_path, base.get, {}, DesignGraph(tmp_path), False
    )
    assert "tools/helper" in {m.file for m in rows}  # a program on PATH
