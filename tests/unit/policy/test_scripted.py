"""scripted backend: directory and list-file candidates, order, cycling, resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.policy import Policy, create_policy, preflight_policy

PROMPT = ({"role": "system", "content": "s"}, {"role": "user", "content": "u"})


def _write(d: Path, name: str, mod: str) -> Path:
    p = d / name
    p.write_text(f"module {mod}(input a, output y);\n  assign y = a;\nendmodule\n")
    return p


def test_directory_in_sorted_order_then_cycles(tmp_path: Path) -> None:
    for name, mod in [("c.v", "c"), ("a.v", "a"), ("b.sv", "b")]:
        _write(tmp_path, name, mod)
    (tmp_path / "notes.txt").write_text("module z; endmodule")
    pol = create_policy(
        PolicyConfig(backend="scripted", scripted_path=str(tmp_path)), TrainConfig(), seed=0
    )
    assert pol.name == "scripted" and pol.trainable is False
    assert isinstance(pol, Policy)
    out = pol.generate([PROMPT, PROMPT], 2, seed=1)
    names = [[c.verilog.split("(")[0] if c.verilog else None for c in g] for g in out]
    assert names == [["module a", "module b"], ["module c", "module a"]]
    assert all(c.text for g in out for c in g)
    stats = pol.update([])
    assert stats.loss is None and stats.n_samples == 0


def test_list_file_relative_paths_and_resume(tmp_path: Path) -> None:
    sub = tmp_path / "cands"
    sub.mkdir()
    _write(sub, "x.v", "x")
    _write(sub, "y.v", "y")
    lst = tmp_path / "list.txt"
    lst.write_text("# hand-written\ncands/y.v\n\ncands/x.v\n")
    cfg = PolicyConfig(backend="scripted", scripted_path=str(lst))
    pol = create_policy(cfg, TrainConfig(), seed=0)
    first = pol.generate([PROMPT], 1, seed=0)[0][0]
    assert first.verilog is not None and first.verilog.startswith("module y")
    pol.save(tmp_path / "state")
    again = create_policy(cfg, TrainConfig(), seed=0)
    again.load(tmp_path / "state")
    nxt = again.generate([PROMPT], 1, seed=0)[0][0]
    assert nxt.verilog is not None and nxt.verilog.startswith("module x")


def test_missing_paths_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        preflight_policy(PolicyConfig(backend="scripted", scripted_path=str(tmp_path / "no")))
    with pytest.raises(UsageError, match="needs candidates"):
        preflight_policy(PolicyConfig(backend="scripted"))
    with pytest.raises(UsageError, match="no candidates"):
        preflight_policy(PolicyConfig(backend="scripted", scripted_path=str(tmp_path)))
    lst = tmp_path / "l.txt"
    lst.write_text("gone.v\n")
    with pytest.raises(UsageError) as err:
        preflight_policy(PolicyConfig(backend="scripted", scripted_path=str(lst)))
    assert "l.txt:1" in str(err.value)
