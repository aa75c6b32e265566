"""Only a recognised binary format (by magic number) is binary: a text holding a NUL byte is
read by every rule, its NULs as spaces (bash and make run it); a text is judged as written and
with its escapes decoded (a value, path or name spelled at run time); an exempt file any
non-documentation text names is judged; a Python text that writes or prints is a generator
(``harness/_binary.py``, ``evaluate/_repo_texts.py``, ``evaluate/_foreign_x_anytext.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_x_anytext import x_texts
from rtlopt.evaluate._repo_texts import other_texts
from rtlopt.frontend import load_design
from rtlopt.harness._binary import as_text, decoded_lines, is_binary, with_decoded

INPUTS = ["s", "a", "b"]
ANCHORS = {"dut/s", "dut/a", "dut/b"}
MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"


def _fed(texts: dict[str, str]) -> list[tuple[str, ...]]:
    pairs = [(Path(n), t) for n, t in texts.items()]
    return [h.fed for h in x_texts(pairs, [], set(), INPUTS, ANCHORS, {"mux", "top"})]


def test_a_nul_byte_makes_no_binary_a_magic_number_does() -> None:
    assert not is_binary(b"all:\n# \0 a comment\n\tvsim -do x.do tb\n" * 4)
    assert not is_binary(b"\0" * 200)  # no magic number: text
    assert not is_binary(b"BZh91AY&SY\nvsim -c -do stim.do tb\n" * 3)  # a magic, all text
    png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256))
    assert is_binary(png) and is_binary(b"\x7fELF\2\1\1\0" + b"\0" * 64)
    assert as_text(b"a\0b") == "a b"


def test_a_text_with_a_nul_byte_is_read_by_the_repository_rules(tmp_path: Path) -> None:
    (tmp_path / "mux.v").write_text(MUX)
    (tmp_path / "run_sim.sh").write_bytes(
        b"#!/bin/bash\n# \0 note\nvsim -c -do 'force -freeze sim:/tb/dut/s X 0' tb\n"
    )
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    design = load_design(tmp_path / "mux.v", "mux", ProjectConfig())
    texts, _ = other_texts(design)
    names = {p.name: t for p, t in texts}
    assert "run_sim.sh" in names and "logo.png" not in names
    assert "force -freeze sim:/tb/dut/s X 0" in names["run_sim.sh"]


@pytest.mark.parametrize(
    ("line", "decoded"),
    [
        (r"printf 'force -freeze sim:/tb/dut/s \130 0\n'", "s X 0"),
        (r"eval force -freeze sim:/tb/dut/s \x58 0", "s X 0"),
        (r"printf '\164\142.\144\165\164.\143\156\164'", "tb.dut.cnt"),
        (r"echo $'\0130'", "X"),
        ('cmd = "fo" + "rce"', '"force"'),
        ("v = chr(88)", '"X"'),
        (r"s = '\u0058'", "X"),
        ('printf("%c", 88);', "X"),
    ],
)
def test_escapes_are_decoded(line: str, decoded: str) -> None:
    (out,) = decoded_lines(line + "\n")
    assert decoded in out, out


def test_an_x_spelled_through_escapes_feeds() -> None:
    script = "printf 'force -freeze sim:/tb/dut/s \\130 0\\n' > gen.do\n"
    assert _fed({"run_sim.sh": script}) == []  # as written: no x value
    assert _fed({"run_sim.sh": with_decoded(script)})  # as printf spells it: s X 0


def test_a_python_generator_counts_its_lone_x() -> None:
    gen = 'cmd = "fo" + "rce"\nprint(cmd, "-freeze", "sim:/tb/dut/s", "X", "0")\n'
    assert _fed({"gen_stim.py": gen})
    assert _fed({"gen_stim.py": 'import sys\nsys.stdout.write(" ".join(["X", "1"]))\n'})
    assert not _fed({"coords.py": 'AXES = ["X", "Y"]\n'})  # neither writes nor prints


@pytest.mark.parametrize("name", ["stim.sdc", "stim.md", "stim.waiver"])
def test_an_exempt_file_a_build_names_through_a_variable_is_judged(name: str) -> None:
    make = f"DO := {name}\nsim:\n\tvsim -c -do $(DO) tb\n"
    stim = "run 1; eval force -freeze sim:/tb/dut/s X 0; run 20\n"
    assert _fed({"Makefile": make, name: stim})
    assert not _fed({"Makefile": "sim:\n\tvsim -c tb\n", name: stim})


def test_packaging_naming_a_readme_and_a_lint_fileset_do_not_make_it_judged() -> None:
    readme = "Use `force -freeze sim:/tb/dut/s X 0` to see an x.\n"
    assert not _fed(
        {"setup.py": 'long_description=open("README.md").read()\n', "README.md": readme}
    )
    core = "filesets:\n  files_lint:\n    files:\n      - lint/p.waiver\n    file_type: waiver\n"
    waiver = "waive -rules {X} -msg {Constant with 'Z literal value '1'bz'}\n"
    assert not _fed({"p.core": core, "lint/p.waiver": waiver})
    untyped = "filesets:\n  files_sim:\n    files:\n      - lint/p.waiver\n"
    assert _fed({"p.core": untyped, "lint/p.waiver": waiver})


def test_a_compared_value_is_read_not_written() -> None:
    test = 'import unittest\nprint("ok")\nself.assertEqual(tok.text, "X")\nif v == "X":\n    pass\n'
    assert not _fed({"parser_test.py": test})
    assert _fed({"gen.py": test + 'print("X")\n'})
    own = 'def assertEqual(a, b):\n    print("force", a, b)\nself.assertEqual("s", "X")\n'
    assert _fed({"gen.py": own})
