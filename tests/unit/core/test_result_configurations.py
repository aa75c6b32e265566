"""A cached verdict keeps what its parameter check covered."""

from __future__ import annotations

import json

from rtlopt.results import EvalResult, Stage, Status


def test_scope_and_configurations_survive_the_cache() -> None:
    row = {"values": "W=8", "kind": "repository", "where": "top.u8", "verdict": "proven"}
    res = EvalResult(
        Status.OK,
        Stage.DONE,
        scope="proven for the 2 configurations the repository uses",
        configurations=({**row, "reason": ""},),
    )
    back = EvalResult.from_json(json.loads(json.dumps(res.to_json())))
    assert back.scope == res.scope
    assert back.configurations == res.configurations
