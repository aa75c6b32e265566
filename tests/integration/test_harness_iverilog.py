"""iverilog wrapper with the real compiler: error counting and the paper's syntax score."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import RewardConfig
from rtlopt.eda.iverilog import CompileResult, compile_sources, count_errors, syntax_score

pytestmark = pytest.mark.tools


def _compile(tmp_path: Path, text: str) -> CompileResult:
    f = tmp_path / "c.v"
    f.write_text(text)
    return compile_sources([f], tmp_path, top="m", out=tmp_path / "c.vvp", timeout=30)


def test_clean_compile(tmp_path: Path) -> None:
    r = _compile(tmp_path, "module m(input a, output y); assign y = ~a; endmodule\n")
    assert r.ok and r.n_errors == 0 and r.vvp.exists()
    assert syntax_score(r, RewardConfig()) == 1.0


def test_syntax_errors_counted(tmp_path: Path) -> None:
    r = _compile(
        tmp_path, "module m(input a, output y);\n assign y = a & ;\n assign z = ;\nendmodule\n"
    )
    assert not r.ok and r.n_errors >= 2
    assert not r.port_errors
    assert syntax_score(r, RewardConfig()) == pytest.approx(1 / (1 + r.n_errors))


def test_port_binding_errors_scaled(tmp_path: Path) -> None:
    r = _compile(
        tmp_path, "module m(input a, output y);\n nosuch u(.x(a));\n assign y = a;\nendmodule\n"
    )
    assert not r.ok and r.port_errors and r.n_errors >= 1
    cfg = RewardConfig()
    assert syntax_score(r, cfg) == pytest.approx(cfg.port_error_factor / (1 + r.n_errors))


def test_unparseable_log() -> None:
    assert count_errors("segmentation fault\n") == (0, False, [])
    r = CompileResult(False, 0, False, Path("x.log"), "segfault", Path("x.vvp"))
    assert syntax_score(r, RewardConfig(unparseable_syn=0.5)) == 0.5
