"""``rtlopt evaluate`` judges the candidate's text as written: its port order is the one an
instance of the repository connects by position (only ``optimize`` writes back the
reference's order, so only it evaluates in that order)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rtlopt import session


def test_evaluate_judges_the_candidates_own_port_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}

    class Stop(Exception):
        pass

    def fake(target: Any, workdir: Path, **kw: Any) -> Any:
        seen.update(kw)
        raise Stop

    monkeypatch.setattr(session, "open_evaluator", fake)
    with pytest.raises(Stop):
        session.evaluate(object(), "module m; endmodule\n", tmp_path)  # type: ignore[arg-type]
    assert seen.get("reorder_ports") is False


def test_the_evaluator_of_a_search_keeps_the_reference_order() -> None:
    import inspect

    sig = inspect.signature(session.open_evaluator)
    assert sig.parameters["reorder_ports"].default is True
