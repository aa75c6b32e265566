from __future__ import annotations

import math
from pathlib import Path

import pytest

from rtlopt.config import Config, describe, load_config, to_toml
from rtlopt.errors import ConfigError


def test_defaults_carry_the_paper_constants() -> None:
    cfg = Config()
    assert (cfg.reward.w_syn, cfg.reward.w_func, cfg.reward.w_ppa) == (0.1, 1.0, 10.0)
    assert cfg.search.puct_c == 1.0 and cfg.search.top_k == 2 and cfg.search.pool_cap == 500
    assert math.isclose(cfg.train.delta_fixed, math.log(2))
    assert math.isclose(cfg.train.adaptive.delta_min, 0.25 * math.log(2))
    assert cfg.train.adaptive.t_warm == 20 and cfg.train.adaptive.rho_plus == 1.2


def test_every_field_has_help() -> None:
    rows = describe()
    assert len(rows) > 60
    assert all(help_text for _key, help_text, _default in rows), [k for k, h, _ in rows if not h]


def test_project_file_env_and_cli_precedence(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "rtlopt.toml").write_text(
        "[run]\nsteps = 7\nrollouts = 3\n[flow]\npdk = 'nangate45'\n"
    )
    target = tmp_path / "rtl" / "a.v"
    target.parent.mkdir()
    target.write_text("module a; endmodule\n")
    rc = load_config(target, overrides={"run.rollouts": 5}, env={"RTLOPT_RUN__STEPS": "9"})
    assert rc.config.run.steps == 9 and rc.sources["run.steps"].startswith("environment")
    assert rc.config.run.rollouts == 5 and rc.sources["run.rollouts"] == "command line"
    assert rc.config.flow.pdk == "nangate45" and rc.sources["flow.pdk"].endswith("rtlopt.toml")
    assert rc.project_file == tmp_path / "rtlopt.toml"


def test_pyproject_tool_section(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.rtlopt.search]\nparents = 2\n")
    rc = load_config(tmp_path, env={})
    assert rc.config.search.parents == 2


def test_unknown_key_is_an_error_with_suggestion(tmp_path: Path) -> None:
    (tmp_path / "rtlopt.toml").write_text("[run]\nstpes = 3\n")
    with pytest.raises(ConfigError, match="did you mean 'run.steps'"):
        load_config(tmp_path, env={})


def test_bad_values_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="train.delta"):
        load_config(tmp_path, overrides={"train.delta": "sometimes"}, env={})
    with pytest.raises(ConfigError, match="integer"):
        load_config(tmp_path, overrides={"run.steps": "many"}, env={})
    with pytest.raises(ConfigError, match="rollouts"):
        load_config(tmp_path, overrides={"run.rollouts": 1}, env={})


def test_toml_round_trip(tmp_path: Path) -> None:
    rc = load_config(tmp_path, overrides={"run.steps": 3, "project.defines": "A=1,B"}, env={})
    f = tmp_path / "resolved.toml"
    f.write_text(to_toml(rc.config))
    again = load_config(config_file=f, env={})
    assert again.config == rc.config


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[]", ()),  # a TOML array: empty, not the one pattern "[]"
        ('["rtl/*", "lib/*"]', ("rtl/*", "lib/*")),
        ("rtl/*, lib/*", ("rtl/*", "lib/*")),  # comma-separated
    ],
)
def test_a_list_from_the_environment_is_a_toml_array_or_comma_separated(
    tmp_path: Path, text: str, expected: tuple[str, ...]
) -> None:
    rc = load_config(tmp_path, env={"RTLOPT_CHECK__OPTIMIZATION_ONLY": text})
    assert rc.config.check.optimization_only == expected


def test_a_broken_array_from_the_environment_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a TOML array"):
        load_config(tmp_path, env={"RTLOPT_CHECK__OPTIMIZATION_ONLY": '["rtl/*" "lib/*"]'})
