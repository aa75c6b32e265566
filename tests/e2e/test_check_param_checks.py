"""`rtlopt check` of a module that checks its parameters at elaboration (an ``initial`` block
of ``if (...) $error(...); $finish;``, as libraries of parameterized modules hold): an
equivalent edit of it passes, a broken one is refuted with a failing input. Before, the
screen refused every edit of such a module ("system task/function $error is not allowed").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_check_gate_rules import STRICT, _check, _module, _repo
from tests.unit.harness.test_screen_param_checks import REF

pytestmark = pytest.mark.tools

EQUIVALENT = REF.replace("y <= a + 8'd1;", "y <= 8'd1 + a;")
BROKEN = REF.replace("y <= a + 8'd1;", "y <= a + 8'd2;")


@pytest.mark.parametrize("edit", ["equivalent", "broken"])
def test_an_edit_of_a_module_with_a_parameter_check_is_judged(tmp_path: Path, edit: str) -> None:
    from tests.e2e.conftest import git

    repo = _repo(tmp_path, {"m.v": REF, "rtlopt.toml": STRICT})
    (repo / "m.v").write_text(EQUIVALENT if edit == "equivalent" else BROKEN)
    git(repo, "add", "-A")
    rc, out = _check(repo)
    m = _module(out, "m")
    assert not any("screening" in f for f in m["findings"]), m
    if edit == "equivalent":
        assert rc == 0 and m["equivalence"] == "proven", m
    else:
        assert rc == 1 and m["equivalence"] in ("refuted", "mismatch"), m
        assert any("failing input" in n for n in m["notes"] + m["findings"]), m
