"""A setting form whose parameter name is no literal (``evaluate/_param_lists.py``
:func:`computed_name`), and a name written in another case (``_param_mentions.py``): a
runner's ``parameters=`` from a comprehension, an environment, ``**``; an option
``-G$(N)=``, ``f"-G{n}={v}"``, ``"-G" + n``; ``{"w": 37}`` for ``W``. Each leaves the
change unchecked; a dictionary display of quoted names does not. Real frontend and slang,
no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_params import foreign_parameterizations
from rtlopt.evaluate._param_lists import computed_name
from rtlopt.frontend import load_design
from rtlopt.frontend._params import parameterizations

TGT = """module tgt #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);
  assign y = ~a;
endmodule
"""


def _run(tmp: Path, files: dict[str, str]) -> tuple[list[str], str]:
    for rel, text in {"tgt.v": TGT, **files}.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text)
    design = load_design(tmp / "tgt.v", "tgt", ProjectConfig())
    extra, why = foreign_parameterizations(design, TGT, parameterizations(design), {})
    return [p.label() for p in extra], why


ENV = (
    "import os\nfrom cocotb_tools.runner import get_runner\n"
    "params = {k[6:]: int(v) for k, v in os.environ.items() if k.startswith('PARAM_')}\n"
    "get_runner('icarus').build(sources=['tgt.v'], hdl_toplevel='tgt', parameters=params)\n"
)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("test_env.py", ENV),
        ("test_up.py", "p = {k.upper(): v for k, v in CFG.items()}\nrun(parameters=p)\n"),
        ("test_kw.py", "run(toplevel='tgt', parameters={**base, 'X': 1})\n"),
        ("test_call.py", "run(toplevel='tgt', parameters=load_params())\n"),
        ("test_mut.py", "p = {}\np[name] = 37\nrun(parameters=p)\n"),
        ("Makefile", "sim:\n\tverilator -G$(PNAME)=37 tgt.v\n"),
        ("run.py", 'args = [f"-G{n}={v}" for n, v in cfg]\n'),
        ("run2.py", "args = ['-G' + name + '=37']\n"),
        ("run.tcl", "vsim -G${pname}=37 work.tgt\n"),
    ],
)
def test_computed_name_unchecked(tmp_path: Path, name: str, text: str) -> None:
    _, why = _run(tmp_path, {name: text})
    assert "names computed at run time" in why and name in why


def test_case_folded_name_unchecked(tmp_path: Path) -> None:
    _, why = _run(tmp_path, {"sim_config.json": '{"toplevel": "tgt", "params": {"w": 37}}\n'})
    assert "sim_config.json:1 names parameter W of tgt" in why


@pytest.mark.parametrize(
    "text",
    [
        "run(toplevel='tgt', parameters={'W': 37})\n",
        "p = {'W': 37}\np['W'] = 9\nrun(toplevel='tgt', parameters=p)\n",
        "run(toplevel='tgt', parameters=dict(W=37))\n",
    ],
)
def test_literal_names_read(tmp_path: Path, text: str) -> None:
    extra, why = _run(tmp_path, {"test_lit.py": text})
    assert why == "" and extra and extra[0].startswith("W=37")


@pytest.mark.parametrize(
    "text",
    [
        "iverilog -g2012 -o x tgt.v\n",
        "CFLAGS = ['-g', '-O2']\n",
        "run(parameters=None)\n",
        "cmake -G Ninja ..\n",
    ],
)
def test_no_computed_name(text: str) -> None:
    assert computed_name(None, Path("x.py"), text) == (-1, "")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "unchecked"),
    [
        ("p = [('w', 37)]\n", True),
        ("run(args=['-gw=37'])\n", True),
        ("f = lambda w: True\n", False),
        ("path = 'rtl/w/x.sv'\n", False),
        ("w = 3\n", False),
    ],
)
def test_another_case_only_as_a_key_or_option(tmp_path: Path, text: str, unchecked: bool) -> None:
    _, why = _run(tmp_path, {"helper.py": text})
    assert ("helper.py:1 names parameter W" in why) is unchecked, why
