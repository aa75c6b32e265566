"""A module's requirement does not depend on where the change puts it (held-out red team
round 72, ``check/_rules.py``: Required.why): a module moved with its file is required where
either its base path or its new path is."""

from __future__ import annotations

from rtlopt.check._rules import Required


def test_a_module_moved_out_of_the_pattern_stays_required() -> None:
    req = Required(patterns={"rtl/*": "optimization_only 'rtl/*'"})
    assert req.why("lib/a.v", "a") is None
    assert req.why("lib/a.v", "a", "rtl/a.v") == "optimization_only 'rtl/*', its base path rtl/a.v"
    assert req.why("rtl/b.v", "b", "lib/b.v") == "optimization_only 'rtl/*'"  # moved into it
    files = Required(files={"rtl/a.v": "Rtlopt-Equivalence trailer of abc"})
    assert files.why("lib/a.v", "a", "rtl/a.v") == "Rtlopt-Equivalence trailer of abc"
