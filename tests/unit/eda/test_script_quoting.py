"""Escaping of names and paths for Yosys and Tcl, checked against the real interpreters; the
process-group registry and scratch folders of ``rtlopt.tools``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rtlopt.errors import ToolFailed, UsageError
from rtlopt.tools import (
    Limits,
    _process,
    _runner,
    argv_path,
    is_safe_word,
    original_path,
    script_path,
    sta_cell_name,
    tcl_word,
    yosys_id,
    yosys_read_lines,
)

HOSTILE = [
    "x};[{*}exec touch /tmp/PWNED];{",
    'a"b',
    "a'b",
    "a;b",
    "a$b",
    "$(touch x)",
    "`touch x`",
    "a\\b",
    "a\\",
    "{",
    "}",
    "[",
    "]",
    "a b",
    "a\nb",
    "a\tb",
    "#c",
    "-rf",
    "~root",
    "é\u4e2d\u00ff",
    "\\x20",
    "a\rb",
    "\\u0041",
    "\\n",
]


@pytest.mark.tools
def test_tcl_word_is_read_back_verbatim_by_opensta_tcl(tmp_path: Path) -> None:
    """Each hostile string, written as tcl_word, equals its raw bytes in OpenSTA's Tcl."""
    if shutil.which("sta") is None:
        pytest.skip("sta not installed")
    marker = tmp_path / f"PWNED-{uuid.uuid4().hex}"
    strings = [*HOSTILE, f"[exec touch {marker}]", f"$env(HOME)[exec touch {marker}]"]
    lines = []
    for i, s in enumerate(strings):
        raw = tmp_path / f"raw{i}.txt"
        raw.write_bytes(s.encode())
        lines.append(
            f"set f [open {tcl_word(str(raw))} rb]; set want [read $f]; close $f\n"
            f"set got [encoding convertto utf-8 {tcl_word(s)}]\n"
            f'puts "CASE {i} [expr {{$got eq $want}}]"\n'
        )
    script = tmp_path / "t.tcl"
    script.write_text("".join(lines) + "exit\n")
    out = subprocess.run(
        ["sta", "-no_init", "-no_splash", "-exit", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    for i in range(len(strings)):
        assert f"CASE {i} 1" in out, (strings[i], out)
    assert not marker.exists()
    with pytest.raises(UsageError, match="cannot represent"):
        tcl_word("\U0001f600")


def test_yosys_id_and_sta_names() -> None:
    assert yosys_id("top") == "top" and yosys_id("a$b") == "a$b"
    assert yosys_id("x};[{*}exec") == "\\x};[{*}exec"
    for bad in ("a;", "a b", "a\nb", ""):
        with pytest.raises(UsageError, match="cannot be passed to Yosys"):
            yosys_id(bad)
    assert sta_cell_name("top") == "top"
    assert sta_cell_name("a[1]/b\\c") == "a\\[1\\]\\/b\\\\c"


def test_script_path_links_unsafe_paths_to_the_same_file(tmp_path: Path) -> None:
    for name in ["a b", 'q"u', "$(touch x)", "x;y", "nl\nx", "é", "{z}", "[1]"]:
        d = tmp_path / name
        d.mkdir()
        f = d / "m.v"
        f.write_text(name)
        word = script_path(f)
        assert is_safe_word(word), word
        assert Path(word).read_text() == name
        assert original_path(word) == str(f)
        odd = d / f"o {name}.v"
        odd.write_text("odd")
        w2 = script_path(odd)
        assert is_safe_word(w2) and Path(w2).read_text() == "odd"
        assert is_safe_word(script_path(d)) and Path(script_path(d)).samefile(d)
    plain = tmp_path / "plain" / "m.v"
    assert script_path(plain) == str(plain)  # safe paths stay as they are
    assert argv_path(tmp_path / "a b" / "m.v") == str(tmp_path / "a b" / "m.v")
    assert argv_path(tmp_path / 'q"u' / "m.v") != str(tmp_path / 'q"u' / "m.v")


@pytest.mark.tools
def test_yosys_reads_through_links_with_includes_and_spaced_defines(tmp_path: Path) -> None:
    if shutil.which("yosys") is None:
        pytest.skip("yosys not installed")
    marker = tmp_path / f"PWNED-{uuid.uuid4().hex}"
    src = tmp_path / f'src $(touch {marker.name}) ;"x"'
    inc = tmp_path / "inc dir [1]"
    src.mkdir()
    inc.mkdir()
    (inc / "w.vh").write_text("`define W 4\n")
    (src / "local.vh").write_text("`define ONE 1'b1\n")
    (src / "m.v").write_text(
        '`include "w.vh"\n`include "local.vh"\n'
        "module m(output [`W-1:0] y, output o); assign y = `VAL; "
        "assign o = `ONE; endmodule\n"
    )
    lines = yosys_read_lines(
        [src / "m.v"], [inc], {"VAL": f"(4'd3 + 4'd2) /* $(touch {marker.name}) */", "FLAG": ""}
    )
    script = tmp_path / "r.ys"
    script.write_text(
        "\n".join(
            [*lines, "hierarchy -top m", "proc", "opt", "sat -prove y 5 -prove o 1 -verify m"]
        )
        + "\n"
    )
    run = subprocess.run(
        ["yosys", "-q", "-s", str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert not marker.exists()
    with pytest.raises(UsageError, match="line break"):
        yosys_read_lines([], [], {"X": "1\n2"})
    with pytest.raises(UsageError, match="not an identifier"):
        yosys_read_lines([], [], {"X Y": "1"})


def test_run_tool_registers_and_releases_process_groups(tmp_path: Path) -> None:
    run = _runner.run_tool(
        [sys.executable, "-c", "import os; print(os.getpgrp() == os.getpid())"],
        cwd=tmp_path,
        log_path=tmp_path / "l.log",
        limits=Limits(30),
        sandbox=False,  # in the sandbox, bubblewrap leads the group
    )
    assert run.returncode == 0 and "True" in run.output()
    assert not _process.live_groups()


def test_kill_live_groups_ends_a_running_tool_and_its_children(tmp_path: Path) -> None:
    """A tool (and a grandchild in its group) started by run_tool on another thread dies when
    the registry is killed, and no new tool may start afterwards."""
    import threading

    pidfile = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
        "time.sleep(60)\n"
    )
    result: dict[str, object] = {}

    def job() -> None:
        try:
            result["run"] = _runner.run_tool(
                [sys.executable, "-c", code],
                cwd=tmp_path,
                log_path=tmp_path / "k.log",
                limits=Limits(120),
            )
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            result["exc"] = exc

    t = threading.Thread(target=job)
    t.start()
    try:
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        child = int(pidfile.read_text())
        assert len(_process.live_groups()) == 1
        assert _process.kill_live_groups() == 1
        t.join(30)
        assert not t.is_alive()
        # what a tool killed by rtlopt's own stop printed is no result: a tool failure
        exc = result.get("exc")
        assert isinstance(exc, ToolFailed) and "stopping" in str(exc), result
        for _ in range(100):
            if not _alive(child):
                break
            time.sleep(0.05)
        assert not _alive(child)
        with pytest.raises(ToolFailed, match="stopping"):
            _runner.run_tool(["true"], cwd=tmp_path, log_path=tmp_path / "n.log", limits=Limits(5))
    finally:
        _process._stopping.clear()
        t.join(5)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


def test_scratch_dir_removed_unless_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    with _process.scratch_dir(None, "rtlopt-eval-") as d:
        (d / "x").write_text("1")
    assert not d.exists()
    with pytest.raises(UsageError), _process.scratch_dir(None, "rtlopt-eval-") as d2:
        raise UsageError("bad input")
    assert not d2.exists()
    with pytest.raises(ToolFailed), _process.scratch_dir(None, "rtlopt-eval-") as d3:
        raise ToolFailed("crash")  # a tool error: logs kept for inspection
    assert d3.exists()
    with _process.scratch_dir(None, "rtlopt-eval-", keep=True) as d4:
        pass
    assert d4.exists()
    given = tmp_path / "mine"
    with _process.scratch_dir(given, "rtlopt-eval-") as d5:
        pass
    assert d5 == given and given.exists()
