"""The simulator's own reading of time 0 (``evaluate/_time_zero_sim.py``): once a candidate
passed everything else, it is simulated from a start where the inputs are held from time 0
by initializers (no event). With the text rules of ``evaluate/_time_zero.py`` switched off
(standing for a spelling they miss), the simulation still refuses a block an environment
leaves x; what is defined earlier at a top (a refinement) and an unchanged form pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.frontend import load_design
from rtlopt.harness import HeldStart, build_testbench
from tests.integration.test_redteam_w21 import _evaluate
from tests.unit.evaluate.test_time_zero_held import _HELD_TOP, ASSIGN, AT_STAR

pytestmark = pytest.mark.tools

#: the same function in another continuous form: nothing changes at time 0
XOR_NOT = ASSIGN.replace("assign y = i ^ j;", "assign y = ~(~i ^ j);")


@pytest.fixture
def no_text_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text rule of time 0 finds nothing (a spelling it misses)."""
    monkeypatch.setattr("rtlopt.evaluate._stages.time_zero_unchecked", lambda *a: "")


@pytest.mark.parametrize("top", ["", _HELD_TOP], ids=["target_is_top", "under_a_top"])
def test_a_block_left_x_by_held_inputs_is_refused_by_simulation(
    tmp_path: Path, top: str, no_text_rule: None
) -> None:
    files = {"m.v": ASSIGN, **({"top.v": top} if top else {})}
    res = _evaluate(tmp_path, files, "m.v", AT_STAR)
    assert not res.accepted
    assert "held from time 0" in res.reason and "before the first vector" in res.reason
    assert res.reason.startswith("not equivalent in simulation"), res.reason


def test_a_refinement_at_a_top_and_a_continuous_rewrite_pass(
    tmp_path: Path, no_text_rule: None
) -> None:
    res = _evaluate(tmp_path / "a", {"m.v": AT_STAR}, "m.v", ASSIGN)
    assert res.accepted, res.reason
    res = _evaluate(tmp_path / "b", {"m.v": ASSIGN}, "m.v", XOR_NOT)
    assert res.accepted, res.reason


def test_an_instantiated_target_is_compared_x_exactly_at_time_0(
    tmp_path: Path, no_text_rule: None
) -> None:
    # defined earlier where the reference is x: a parent's `if` may decide on that x
    res = _evaluate(tmp_path, {"m.v": AT_STAR, "top.v": _HELD_TOP}, "m.v", ASSIGN)
    assert not res.accepted and res.reason.startswith("unchecked: differs with the inputs held")
    assert "before the first vector" in res.reason, res.reason


def test_the_held_start_holds_evented_inputs_x_and_the_rest_at_their_value(
    tmp_path: Path,
) -> None:
    (tmp_path / "m.v").write_text(ASSIGN)
    design = load_design(tmp_path / "m.v", None, Config().project)
    start = HeldStart(value=0xA5, evented=frozenset({"j"}), strict=True)
    tb = build_testbench(design, Config().harness, "s3cret", held=start)
    plain = build_testbench(design, Config().harness, "s3cret")
    width = sum(f.width for f in tb.fields)
    bits = [
        "x" if f.name == "j" else str((0xA5 >> (f.offset + k)) & 1)
        for f in sorted(tb.fields, key=lambda f: f.offset)
        for k in range(f.width)
    ]
    assert f"reg [{width - 1}:0] vec_ = {width}'b{''.join(reversed(bits))};" in tb.text
    assert f"vec_ = {width}'ha5;\n    #1; check_(-1, 0, 1);" in tb.text
    assert "check_(-1" not in plain.text and "vec_ =" not in plain.text.split("initial")[0]
    assert tb.files == plain.files
    assert "for (i_ = 0; i_ < 64;" in tb.text and "for (i_ = 0; i_ < 512;" in plain.text
