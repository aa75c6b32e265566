"""Module names a repository's scripts build at run time (``harness._generated_names``): a
candidate's new module under such a name may replace a generated cell (``iverilog -y
build``), so it is unchecked."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.harness._generated_names import generated_module_names

GEN = 'cell = "helper"\nopen(f"build/{cell}.v", "w").write(%s)\n'


def _matches(tmp_path: Path, name: str, files: dict[str, str]) -> bool:
    root = tmp_path / "r"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return any(rx.fullmatch(name) for rx, _ in generated_module_names(root))


@pytest.mark.parametrize(
    ("rel", "body"),
    [
        ("gen.py", GEN % 'f"module {cell}(input a, output y);\\nendmodule\\n"'),
        ("gen.py", GEN % '"module %s(input a);\\nendmodule\\n" % cell'),
        ("gen.py", GEN % '"module " + cell + "(input a);\\nendmodule\\n"'),
        ("gen.py", GEN % '"module {}(input a);".format(cell)'),
        ("gen.sh", "cat > build/$C.v <<EOF\nmodule ${C} (input a);\nendmodule\nEOF\n"),
        ("gen.tcl", 'puts $f "module $cell (input a);"\nputs $f "endmodule"\n'),
        ("cell.v.j2", "module {{ name }} (input a);\nendmodule\n"),
        ("cells.v", "module `CELL_NAME (input a);\nendmodule\n"),
        ("gen.py", GEN % '"mod" + "ule " + cell + "(input a);\\nendmodule\\n"'),
        ("gen.py", GEN % 'f"module {cell}_x(input a);\\nendmodule\\n"'.replace("_x", "")),
    ],
)
def test_a_module_name_a_script_builds_may_be_any_new_name(
    tmp_path: Path, rel: str, body: str
) -> None:
    assert _matches(tmp_path, "helper", {rel: body})


def test_the_literal_pieces_of_a_built_name_are_kept(tmp_path: Path) -> None:
    files = {"gen.py": 'w(f"module {p}_fifo #(parameter W = 8) (input a);")\n'}
    assert _matches(tmp_path, "my_fifo", files)
    assert not _matches(tmp_path / "b", "helper", files)


@pytest.mark.parametrize(
    ("rel", "body"),
    [
        ("gen.py", 'open("build/helper.v", "w").write("module helper(input a);\\nendmodule\\n")\n'),
        ("run.py", 'p.add_argument("top", help="Name of the top-level module")\n'),
        ("lint.vlt", 'lint_off -rule UNUSED -module "prim_arbiter"\n'),
        ("x.waiver", "waive -msg {in module 'prim_fifo'}\n"),
        ("map.v", "module \\$_DLATCH_P_ (input E, D, output Q);\nendmodule\n"),
        ("docs/gen.md", "Write `module {name}` per cell.\n"),
        ("t.py", 'parse("endmodule X(); module;")\nparse("module X(); endmodule;")\n'),
    ],
)
def test_a_literal_name_or_prose_builds_no_name(tmp_path: Path, rel: str, body: str) -> None:
    assert not _matches(tmp_path, "helper", {rel: body})


@pytest.mark.parametrize(
    ("line", "any_name"),
    [
        ("\tiverilog -y build -o sim.vvp acc.v tb.v\n", True),  # build/ is written at run time
        ("\tiverilog -ybuild acc.v\n", True),
        ("\tverilator +libdir+gen acc.v\n", True),
        ("\tiverilog -v gen/cells.v acc.v\n", True),
        ("\tiverilog -y $(LIB) acc.v\n", True),  # a variable: any folder
        ("\tiverilog -y lib acc.v\n", False),  # in the repository: its names are read
        ("\tsudo apt-get install -y iverilog\n", False),
    ],
)
def test_a_library_the_repository_does_not_hold_may_define_any_name(
    tmp_path: Path, line: str, any_name: bool
) -> None:
    files = {"Makefile": "sim:\n" + line, "lib/cell.v": "module cell; endmodule\n"}
    assert _matches(tmp_path, "helper", files) is any_name


@pytest.mark.parametrize(
    ("script", "name"),
    [
        ("\tsed 's/TEMPLATE/helper/g' cell.v.in > build/helper.v\n", "helper"),
        ("\tsed -e s/TEMPLATE/$(CELL)/ cell.v.in > build/x.v\n", "anything"),
        ('open("b/x.v", "w").write(t.replace("TEMPLATE", cell))\n', "anything"),
        ('open("b/x.v", "w").write(re.sub("TEMPLATE", "helper", t))\n', "helper"),
        ("puts $f [string map {TEMPLATE helper} $t]\n", "helper"),
    ],
)
def test_a_template_module_a_script_renames_may_take_the_new_name(
    tmp_path: Path, script: str, name: str
) -> None:
    files = {"cell.v.in": "module TEMPLATE (input a);\nendmodule\n", "gen": script}
    assert _matches(tmp_path, name, files)
    assert not _matches(tmp_path / "b", name, {**files, "cell.v.in": "// no module\n"})


def test_a_variable_in_a_scripts_module_name_builds_names() -> None:
    """Red-team round 126 (15g): ``module cell_$N`` in a shell script is ``cell_1``,
    ``cell_2``... (a `$` starts a variable there); in a Verilog file it is a literal name."""
    from pathlib import Path

    from rtlopt.harness._generated_names import _scan

    script = 'for N in 1 2 3; do echo "module cell_$N(input a);" > build/cell_$N.v; done\n'
    found = _scan(Path("gen.sh"), script)
    assert found and found[0][0].fullmatch("cell_3"), found
    assert _scan(Path("lib.v"), "module cell_$N(input a);\nendmodule\n") == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("gen.py", 'f.write("module cell_%i(input a);" % n)\n'),
        ("gen.tcl", 'puts $f "module cell_[set n](input a);"\n'),
    ],
    ids=["printf-i", "tcl-command"],
)
def test_other_spellings_of_a_built_name(name: str, text: str) -> None:
    """Red-team round 127 (04, 21): `%i` and a Tcl `[set n]` build names too."""
    from pathlib import Path

    from rtlopt.harness._generated_names import _scan

    found = _scan(Path(name), text)
    assert found and found[0][0].fullmatch("cell_3"), found
