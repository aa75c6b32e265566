"""Every plugin table is the only list of its names: pyproject, config and the CLI ask it."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from rtlopt.cli._common import OneLineUsageError, PluginChoice
from rtlopt.config import Config, FlowConfig, SearchConfig, load_config, plugin_settings
from rtlopt.errors import ConfigError, PluginError
from rtlopt.plugins import PDKS, REGISTRIES, SAMPLERS
from rtlopt.registry import Registry
from rtlopt.search import make_sampler

REPO = Path(__file__).resolve().parents[3]


def test_pyproject_declares_exactly_the_registries_entry_point_groups() -> None:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    declared = set(data["project"]["entry-points"])
    assert declared == {r.group for r in REGISTRIES}


def test_every_registry_is_asked_by_one_configuration_setting() -> None:
    settings = plugin_settings()
    assert sorted(r.group for r in settings.values()) == sorted(r.group for r in REGISTRIES)
    defaults = Config()
    for dotted, reg in settings.items():
        section, key = dotted.split(".")
        assert getattr(getattr(defaults, section), key) in reg.choices(), dotted


def test_every_built_in_loads_as_a_factory() -> None:
    for reg in REGISTRIES:
        for name in reg.names():
            if reg.source(name) == "built-in":
                assert callable(reg.get(name)), (reg.group, name)


def test_config_rejects_an_unknown_plugin_name_with_the_known_ones() -> None:
    with pytest.raises(
        ConfigError,
        match=r"search\.sampler.*known: egreedy, greedy, igr, igr-batched, mcts, mcts-batched, none, puct",
    ):
        Config(search=SearchConfig(sampler="newest"))
    with pytest.raises(ConfigError, match=r"flow\.pdk = 'tsmc3'.*from command line.*custom"):
        load_config(None, overrides={"flow.pdk": "tsmc3"}, env={})
    assert Config(flow=FlowConfig(pdk="custom")).flow.pdk == "custom"  # reserved, not a plugin
    with pytest.raises(PluginError, match="not a plugin"):
        PDKS.get("custom")


@pytest.fixture
def newest_sampler_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A distribution on sys.path whose entry point adds the sampler ``newest``."""
    site = tmp_path / "site"
    pkg = site / "newest_sampler_dist"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "class Newest:\n"
        "    def __init__(self, cfg):\n"
        "        self.cfg = cfg\n"
        "    def select(self, pool, k, rng):\n"
        "        return sorted(pool.states, key=lambda s: -s.id)[:k]\n"
    )
    info = site / "newest_sampler_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: newest-sampler-dist\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[rtlopt.samplers]\nnewest = newest_sampler_dist:Newest\n"
    )
    monkeypatch.syspath_prepend(str(site))
    SAMPLERS.reload()
    yield
    sys.modules.pop("newest_sampler_dist", None)
    SAMPLERS.reload()  # read again once monkeypatch has taken the folder off sys.path


@pytest.mark.usefixtures("newest_sampler_installed")
def test_an_entry_point_name_is_valid_in_config_cli_and_the_factory() -> None:
    assert (
        "newest" in SAMPLERS and SAMPLERS.source("newest") == "entry point of newest-sampler-dist"
    )
    cfg = load_config(None, overrides={"search.sampler": "newest"}, env={}).config
    sampler = make_sampler(cfg.search)
    assert type(sampler).__name__ == "Newest"
    choice = PluginChoice(SAMPLERS)
    assert choice.convert("newest", None, None) == "newest"
    param = click.Option(["--search"], type=choice)
    ctx = click.Context(click.Command("x"))
    assert [c.value for c in choice.shell_complete(ctx, param, "n")] == ["newest", "none"]
    assert "newest" in choice.get_metavar(param, ctx)
    with pytest.raises(OneLineUsageError, match="--search: unknown search strategy 'old'.*newest"):
        choice.convert("old", param, ctx)


def test_a_plugin_may_not_take_a_built_in_name(tmp_path: Path) -> None:
    info = tmp_path / "dup-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dup\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[rtlopt.test-dup]\npuct = math:sqrt\n")
    reg: Registry[object] = Registry("sampler", "rtlopt.test-dup", {"puct": "math:floor"})
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(PluginError, match="'puct' is defined twice: by built-in and by entry"):
            reg.names()
    finally:
        sys.path.remove(str(tmp_path))
