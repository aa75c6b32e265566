"""Names users type: aliases (built-in and declared by a distribution), "did you mean", and the
built-ins that rtlopt's own PDK packages replace."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rtlopt.cli._common import OneLineUsageError, PluginChoice
from rtlopt.config import load_config
from rtlopt.errors import ConfigError, PluginError
from rtlopt.plugins import PDKS
from rtlopt.registry import Registry


def _dist(site: Path, name: str, entry_points: str) -> None:
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """A folder on sys.path for fake distributions (metadata only; targets are stdlib)."""
    folder = tmp_path / "site"
    folder.mkdir()
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


def _reg(group: str, **kw: object) -> Registry[object]:
    return Registry("widget", group, {"alpha": "math:floor", "beta": "math:ceil"}, **kw)  # type: ignore[arg-type]


def test_builtin_alias_resolves_everywhere() -> None:
    reg = _reg("rtlopt.test-alias-a", aliases={"a": "alpha"})
    assert reg.canonical("a") == "alpha" and reg.canonical("beta") == "beta"
    assert reg.canonical("nope") == "nope"
    reg.check("a")
    assert reg.get("a")(2.5) == 2 and reg.source("a") == "built-in"
    assert reg.names() == ["alpha", "beta"] and reg.choices() == ["a", "alpha", "beta"]
    assert reg.aliases("alpha") == ["a"] and "a" in reg and "nope" not in reg


def test_unknown_name_gets_did_you_mean() -> None:
    reg = _reg("rtlopt.test-alias-b")
    with pytest.raises(PluginError) as info:
        reg.check("alpah")
    assert info.value.one_line() == (
        "unknown widget 'alpah' (did you mean 'alpha'? known: alpha, beta)"
    )
    with pytest.raises(PluginError) as info:
        reg.check("be")  # a prefix
    assert "did you mean 'beta'?" in info.value.one_line()
    with pytest.raises(PluginError) as info:
        reg.check("zzzzzz")
    assert info.value.one_line() == "unknown widget 'zzzzzz' (known: alpha, beta)"


def test_pdk_names_users_type() -> None:
    assert PDKS.canonical("sky130") == "sky130hd"
    with pytest.raises(PluginError, match=r"unknown PDK 'sky130h' \(did you mean 'sky130hd'\?"):
        PDKS.check("sky130h")
    with pytest.raises(PluginError, match=r"did you mean 'nangate45'\?"):
        PDKS.check("nangate46")
    # the configuration stores the plugin's name, whatever the user typed
    cfg = load_config(None, overrides={"flow.pdk": "sky130"}, env={}).config
    assert cfg.flow.pdk == "sky130hd"
    with pytest.raises(ConfigError, match=r"flow\.pdk = 'skywater'.*known: custom"):
        load_config(None, overrides={"flow.pdk": "skywater"}, env={})
    choice = PluginChoice(PDKS)  # type: ignore[arg-type]
    assert choice.convert("sky130", None, None) == "sky130hd"
    with pytest.raises(OneLineUsageError, match="did you mean 'sky130hd'"):
        choice.convert("sky130hdd", None, None)


def test_a_distribution_declares_aliases(site: Path) -> None:
    _dist(
        site,
        "widget-x",
        "[rtlopt.test-alias-c]\ngamma = math:sqrt\n\n"
        "[rtlopt.test-alias-c.aliases]\ng = gamma\nb = beta\n",
    )
    reg = _reg("rtlopt.test-alias-c")
    assert reg.canonical("g") == "gamma" and reg.get("g")(9.0) == 3.0
    assert reg.canonical("b") == "beta"  # an alias for a built-in
    assert reg.aliases("gamma") == ["g"] and reg.choices() == ["alpha", "b", "beta", "g", "gamma"]


@pytest.mark.parametrize(
    ("aliases", "message"),
    [
        ("alpha = beta\n", "alias 'alpha' .* is also the name of a widget"),
        ("x = nowhere\n", "alias 'x' .* names no widget: 'nowhere'"),
        ("a = beta\n", "alias 'a' means 'alpha' \\(built-in\\) and 'beta'"),
    ],
)
def test_bad_aliases_are_errors(site: Path, aliases: str, message: str) -> None:
    _dist(site, "widget-y", f"[rtlopt.test-alias-d.aliases]\n{aliases}")
    reg = _reg("rtlopt.test-alias-d", aliases={"a": "alpha"})
    with pytest.raises(PluginError, match=message):
        reg.names()


def test_the_same_alias_twice_for_one_name_agrees(site: Path) -> None:
    _dist(site, "widget-z", "[rtlopt.test-alias-e.aliases]\na = alpha\n")
    reg = _reg("rtlopt.test-alias-e", aliases={"a": "alpha"})
    assert reg.canonical("a") == "alpha"


def test_only_the_named_distribution_replaces_a_builtin(site: Path) -> None:
    _dist(site, "widget_alpha", "[rtlopt.test-alias-f]\nalpha = math:sqrt\n")
    reg = _reg("rtlopt.test-alias-f", replaceable={"alpha": "widget-alpha"})
    assert reg.source("alpha") == "entry point of widget_alpha" and reg.get("alpha")(4.0) == 2.0
    # the same distribution may not take a name that is not marked replaceable ...
    reg = _reg("rtlopt.test-alias-f", replaceable={"beta": "widget-alpha"})
    with pytest.raises(PluginError, match="'alpha' is defined twice: by built-in and by entry"):
        reg.names()
    # ... nor may another distribution take the replaceable one
    reg = _reg("rtlopt.test-alias-f", replaceable={"alpha": "widget-other"})
    with pytest.raises(PluginError, match="'alpha' is defined twice"):
        reg.names()
