"""rtlopt.inputs: observations made again from bytes, and memos kept only for inputs that held
still (issue 31, a cache hit does no work; never for different inputs)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from rtlopt import inputs
from rtlopt.cli._fast import served
from rtlopt.frontend._sources import HEADER_SUFFIXES, SOURCE_SUFFIXES
from rtlopt.results import PPA, EvalResult, FormalResult, Stage, Status, Verdict


def _settled() -> None:
    time.sleep(inputs.MARGIN_NS / 1e9 + 0.02)


def test_the_scan_and_the_tree_look_at_the_same_names() -> None:
    assert set(inputs.SCANNED_SUFFIXES) == set(SOURCE_SUFFIXES + HEADER_SUFFIXES)


def test_a_fifo_is_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "x.v"
    os.mkfifo(fifo)
    value = inputs.observe("bytes", str(fifo))  # returns: a blocking open would hang here
    assert "mode" in value and value != inputs.observe("bytes", str(tmp_path / "none.v"))


def test_the_tree_sees_what_the_source_scan_sees(tmp_path: Path) -> None:
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "a.v").write_text("module a; endmodule\n")
    (tmp_path / "other.v").write_text("module o; endmodule\n")
    tree = inputs.observe("tree", str(tmp_path))
    (tmp_path / "notes.txt").write_text("not a source")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.v").write_text("module h; endmodule\n")
    assert inputs.observe("tree", str(tmp_path)) == tree  # nothing the scan looks at
    changes: list[Callable[[], object]] = [
        lambda: (tmp_path / "rtl" / "b.v").write_text("module b; endmodule\n"),
        lambda: (tmp_path / "rtl" / "a.v").write_text("module a; wire w; endmodule\n"),
        lambda: (tmp_path / "rtl" / "sub").mkdir(),
        lambda: (tmp_path / "rtl" / "inc.vh").symlink_to(tmp_path / "other.v"),
    ]
    seen = {tree}
    for change in changes:
        change()
        now = inputs.observe("tree", str(tmp_path))
        assert now not in seen
        seen.add(now)
    (tmp_path / "rtl" / "inc.vh").unlink()
    (tmp_path / "rtl" / "inc.vh").symlink_to(tmp_path / "rtl" / "a.v")  # retargeted
    assert inputs.observe("tree", str(tmp_path)) not in seen


def test_the_repository_observation_sees_every_file_the_rules_read(tmp_path: Path) -> None:
    """Any file of any name (a probe a Makefile compiles) counts, by its identity; git's and
    rtlopt's own state does not. The listing is the rules' (rglob's, as before)."""
    (tmp_path / "rtl").mkdir()
    (tmp_path / "rtl" / "a.v").write_text("module a; endmodule\n")
    (tmp_path / "probe.txt").write_text("module probe; endmodule\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".rtlopt").mkdir()
    os.symlink(tmp_path / "rtl", tmp_path / "linked")
    listed = inputs.repository_files(tmp_path)
    legacy = [
        f
        for f in sorted(tmp_path.rglob("*"))
        if not {".git", ".rtlopt"} & set(f.relative_to(tmp_path).parts) and f.is_file()
    ]
    assert listed == legacy == [tmp_path / "probe.txt", tmp_path / "rtl" / "a.v"]
    value = inputs.observe("repository", str(tmp_path))
    for state in (".git/index", ".rtlopt/cand.v"):
        (tmp_path / state).write_text("x")
    assert inputs.observe("repository", str(tmp_path)) == value
    (tmp_path / "probe.txt").write_text("module probe; initial $display(tb.u.s); endmodule\n")
    changed = inputs.observe("repository", str(tmp_path))
    assert changed != value
    (tmp_path / "Makefile").write_text("sim:\n\tiverilog probe.txt\n")
    assert inputs.observe("repository", str(tmp_path)) != changed


def test_bytes_follow_content_and_links(tmp_path: Path) -> None:
    a, b, link = tmp_path / "a.vh", tmp_path / "b.vh", tmp_path / "l.vh"
    a.write_text("`define X 1\n")
    b.write_text("`define X 1\n")
    link.symlink_to(a)
    first = inputs.observe("bytes", str(link))
    link.unlink()
    link.symlink_to(b)  # the same bytes elsewhere: another file
    assert inputs.observe("bytes", str(link)) != first
    again = inputs.observe("bytes", str(link))
    b.write_text("`define X 2\n")
    assert inputs.observe("bytes", str(link)) != again


def test_a_memo_is_served_only_while_its_observations_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = tmp_path / "rtlopt.toml"
    f.write_text("[harness]\nseed = 1\n")
    obs = [("bytes", str(f)), ("bytes", str(tmp_path / "absent.toml")), ("names", str(tmp_path))]
    _settled()
    started = time.time_ns()
    assert inputs.store_memo("k1", inputs.observe_all(obs), {"x": 1}, started)
    assert inputs.load_memo("k1") == {"x": 1}
    f.write_text("[harness]\nseed = 2\n")
    assert inputs.load_memo("k1") is None
    f.write_text("[harness]\nseed = 1\n")
    assert inputs.load_memo("k1") == {"x": 1}  # the same bytes again
    (tmp_path / "absent.toml").write_text("")
    assert inputs.load_memo("k1") is None


def test_no_memo_for_inputs_that_changed_while_the_command_ran(tmp_path: Path) -> None:
    f = tmp_path / "top.v"
    f.write_text("module top; endmodule\n")
    _settled()
    started = time.time_ns()
    early = inputs.observe_all([("bytes", str(f))])
    f.write_text("module top; wire w; endmodule\n")  # after the reads: values differ
    assert not inputs.store_memo("k2", early, {}, started)
    now = inputs.observe_all([("bytes", str(f))])  # the new bytes, but changed after start
    assert not inputs.store_memo("k2", now, {}, started)
    assert inputs.load_memo("k2") is None


def test_the_command_key_is_the_command_line_folder_and_environment() -> None:
    env = {"PATH": "/bin", "RTLOPT_FLOW__PDK": "nangate45"}
    key = inputs.command_key(["evaluate", "a.v"], "/w", env)
    assert inputs.command_key(["evaluate", "a.v"], "/w", {**env, "OLDPWD": "/x"}) == key
    others = [
        inputs.command_key(["evaluate", "b.v"], "/w", env),
        inputs.command_key(["evaluate", "a.v"], "/v", env),
        inputs.command_key(["evaluate", "a.v"], "/w", {**env, "RTLOPT_FLOW__PDK": "sky130hd"}),
        inputs.command_key(["evaluate", "a.v"], "/w", {**env, "PATH": "/usr/bin"}),
    ]
    assert key not in others


def test_rtlopts_own_files_and_loaded_modules_are_observed() -> None:
    import click

    import rtlopt

    pkg = Path(rtlopt.__file__).parent
    observed = {a: k for k, a in inputs.python_observations(pkg)}
    files = {str(p) for p in pkg.rglob("*.py") if "__pycache__" not in p.parts}
    assert all(observed.get(f) == "stat" for f in files)
    assert observed.get(click.__file__) == "stat"


def test_the_interpreters_cache_made_by_the_command_keeps_the_memo(tmp_path: Path) -> None:
    """The first import of a module makes ``__pycache__`` in its folder (in a fresh clone, the
    command itself does): that is no change of the code; a new module is."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    _settled()
    started = time.time_ns()
    obs = [o for o in inputs.python_observations(pkg) if str(pkg) in o[1]]
    assert ("code", str(pkg / "sub")) in obs
    early = inputs.observe_all(obs)
    for d in (pkg, pkg / "sub"):  # as the command's imports write them
        (d / "__pycache__").mkdir()
        (d / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0")
    assert inputs.store_memo("k3", early, {"x": 3}, started)
    assert inputs.load_memo("k3") == {"x": 3}
    (pkg / "sub" / "new.py").write_text("")
    assert inputs.load_memo("k3") is None


def test_a_stored_result_is_served_as_the_evaluator_serves_it() -> None:
    res = EvalResult(
        Status.INVALID,
        Stage.FORMAL,
        reason="refuted",
        ppa=PPA(area_um2=1.0, delay_ps=2.0, power_uw=3.0),
        formal=FormalResult(Verdict.REFUTED, method="sat"),
        source_hash="h",
        provenance={"binaries": {"yosys": "/old/yosys"}, "flow": {"liberty": "/old.lib"}},
        configurations=({"values": "W=8", "verdict": "proven"},),
    )
    entry = json.loads(json.dumps(res.to_json()))
    assert json.loads(json.dumps(EvalResult.from_json(entry).to_json())) == entry
    binaries = {"yosys": "/new/yosys", "sta": "/new/sta"}
    mine = json.loads(json.dumps(served(entry, binaries, "/new.lib")))
    theirs = json.loads(json.dumps(res.served_from_cache(binaries, "/new.lib").to_json()))
    assert mine == theirs and mine["cached"]
    assert mine["provenance"]["flow"]["liberty"] == "/new.lib"
