"""A filelist whose sources change (their set or their order) changes what every later file
means; the gate cannot re-judge that, so it stays a finding even with ``--trust-config``."""

from __future__ import annotations

from pathlib import Path

from rtlopt.check._gate import _config_check
from rtlopt.check._rules import Rules, _collect_files, _sources
from rtlopt.config import Config

BASE = "+incdir+inc\n+define+W=4\nrtl/defs.v\nrtl/top.v\n"


def _rules(tmp_path: Path, new_text: str, *, trusted: bool) -> Rules:
    (tmp_path / "files.f").write_text(new_text)
    cfg = Config()
    rules = Rules(cfg, cfg, cfg, trusted)
    _collect_files(rules, {"files.f": BASE}.get, tmp_path, ["files.f"])
    return rules


def test_reordered_sources_stay_a_finding_under_trust(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "+incdir+inc\n+define+W=4\nrtl/top.v\nrtl/defs.v\n", trusted=True)
    mc = _config_check(rules)
    assert any("order" in f for f in mc.findings), mc
    assert not mc.ok


def test_a_changed_define_alone_is_trusted(tmp_path: Path) -> None:
    # a define's effect is re-judged through the dependency graph: trust may take it
    rules = _rules(tmp_path, "+incdir+inc\n+define+W=8\nrtl/defs.v\nrtl/top.v\n", trusted=True)
    mc = _config_check(rules)
    assert mc.findings == [] and mc.rule == "trusted", mc
    untrusted = _config_check(
        _rules(tmp_path, "+define+W=8\nrtl/defs.v\nrtl/top.v\n", trusted=False)
    )
    assert untrusted.findings and not untrusted.ok


def test_sources_ignore_defines_include_folders_and_comments() -> None:
    assert _sources("// c\n+incdir+a\n-Ib\n+define+X\nx.v  // y\n\ny.v\n") == ["x.v", "y.v"]
