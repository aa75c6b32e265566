"""A cached `rtlopt evaluate` does no work (issue 31): the full command keeps a memo of what its
answer was made from (rtlopt.inputs); the same command again is answered from the evaluation
cache before any configuration, parse, harness or tool, and never when anything it read
changed. Fake tools (tests/fake_tools) make the first evaluation cheap; what is checked here is
which work the second one does."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from rtlopt.cli._fast import answer_evaluate, note_command
from tests.cli_run import run_main
from tests.conftest import REPO, FakeTools

ADDER = (
    '`include "defs.vh"\n'
    "module top(input [3:0] a, input [3:0] b, output [4:0] y);\n  assign y = a + b;\nendmodule\n"
)
CONFIG = '[flow]\npersistent = false\npower = false\n[eval]\nnetlist_check = "never"\n'
#: What the full command does and a cache hit must not, where the full command calls it: read
#: the configuration, parse, resolve the PDK, look for included files, make the fingerprint,
#: build the view, the harness or the testbench.
NO_WORK = (
    ("rtlopt.session", "load_config"),
    ("rtlopt.session", "load_design"),
    ("rtlopt.session", "_resolve_pdk_name"),
    ("rtlopt.config", "load_config"),
    ("rtlopt.frontend", "load_design"),
    ("rtlopt.frontend._pyslang", "PyslangFrontend.parse"),
    ("rtlopt.pdk", "resolve_pdk"),
    ("rtlopt.evaluate._sources", "files_read"),
    ("rtlopt.evaluate._sources", "_preprocessor_reads"),
    ("rtlopt.evaluate._evaluator", "make_fingerprint"),
    ("rtlopt.evaluate._evaluator", "view_reason"),
    ("rtlopt.evaluate._evaluator", "open_setup"),
    ("rtlopt.harness", "build_testbench"),
)


class _Work(Exception):
    """Raised by every piece of work a cache hit must not do."""


@pytest.fixture
def case(tmp_path: Path, fake_tools: FakeTools, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository (a module with an include and a configuration), a liberty and a
    candidate, in a working folder the commands run in."""
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "top.v").write_text(ADDER)
    (repo / "rtl" / "defs.vh").write_text(
        "// shared definitions (the fake preprocessor inlines the text)\n"
    )
    (repo / "rtlopt.toml").write_text(CONFIG)
    (tmp_path / "fake.lib").write_text("library (fake) { }\n")
    (tmp_path / "cand.v").write_text(ADDER.replace("a + b", "b + a"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    time.sleep(0.1)  # a memo is kept only for inputs that did not change just before
    return tmp_path


ARGV = ["evaluate", "repo/rtl/top.v", "-c", "cand.v", "--liberty", "fake.lib", "--pdk", "custom"]


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``rtlopt ARGV`` in this process (its environment and signal handlers restored)."""
    return run_main(argv, capsys)


def _hit(argv: list[str]) -> bool:
    note_command(argv)
    return answer_evaluate(argv) is not None


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Make every piece of :data:`NO_WORK` raise."""
    import importlib

    def arm() -> None:
        for module, dotted in NO_WORK:
            owner: object = importlib.import_module(module)
            *path, name = dotted.split(".")
            for part in path:
                owner = getattr(owner, part)

            def boom(*_a: object, _n: str = dotted, **_k: object) -> None:
                raise _Work(_n)

            monkeypatch.setattr(owner, name, boom)

    return arm


def _plain(out: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(out)
    for side in ("reference", "candidate"):
        res = data[side]
        assert isinstance(res, dict)
        res.pop("duration_s")
        res.pop("cached")
    return data


def test_a_cache_hit_builds_no_harness_and_parses_nothing(
    case: Path,
    fake_tools: FakeTools,
    capsys: pytest.CaptureFixture[str],
    no_work: Callable[[], None],
) -> None:
    code, first = _main([*ARGV, "--json"], capsys)
    assert code == 0, first
    assert fake_tools.calls(), "the first evaluation runs the tools"
    code, table = _main(ARGV, capsys)  # another command line: the full command (cached)
    assert code == 0 and "ACCEPTED" in table, table
    fake_tools.clear()
    no_work()
    code, second = _main([*ARGV, "--json"], capsys)
    assert code == 0, second
    assert fake_tools.calls() == []
    data = json.loads(second)
    assert data["candidate"]["cached"] and data["reference"]["cached"]
    assert _plain(second) == _plain(first)  # the full command's answer, word for word
    assert _main(ARGV, capsys) == (0, table)
    # the check can fail: without its memo the same command does the work, and meets the
    # first piece of it, which raises (an internal error)
    for memo in (Path(os.environ["XDG_CACHE_HOME"]) / "rtlopt" / "commands").iterdir():
        memo.unlink()
    assert _main([*ARGV, "--json"], capsys)[0] == 3


def _append(path: str, text: str) -> Callable[[Path], Callable[[], None]]:
    """Append ``text`` to ``path``; returns what puts the old bytes back."""

    def change(root: Path) -> Callable[[], None]:
        f = root / path
        old = f.read_text()
        f.write_text(old + text)

        def undo() -> None:
            f.write_text(old)

        return undo

    return change


def _create(path: Callable[[Path], Path], text: str) -> Callable[[Path], Callable[[], None]]:
    """Create a file; returns what removes it."""

    def change(root: Path) -> Callable[[], None]:
        f = path(root)
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
        return f.unlink

    return change


def _user_config(_: Path) -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "rtlopt" / "config.toml"


#: Inputs of the verdict, each changed and put back in turn (the liberty last: an installed
#: file is known by its identity, which putting the bytes back does not restore).
CHANGES: dict[str, Callable[[Path], Callable[[], None]]] = {
    "the target's bytes": _append("repo/rtl/top.v", "// a comment\n"),
    "an included header": _append("repo/rtl/defs.vh", "// one more line\n"),
    "the project configuration": _append("repo/rtlopt.toml", "[harness]\nseed = 5\n"),
    "a new source file": _create(lambda r: r / "repo/rtl/other.v", "module other; endmodule\n"),
    "a new header folder": _create(lambda r: r / "repo/rtl/inc/x.vh", "`define X\n"),
    "a configuration above": _create(lambda r: r / "rtlopt.toml", CONFIG),
    "the user configuration": _create(_user_config, "[harness]\nseed = 3\n"),
    "the candidate (another cache key)": _append("cand.v", "// another candidate\n"),
    "the liberty": _append("fake.lib", "// other cells\n"),
}


def test_a_changed_input_is_never_answered_from_the_memo(
    case: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [*ARGV, "--json"]
    assert _main(argv, capsys)[0] == 0
    assert _hit(argv)
    missed = []
    for name, change in CHANGES.items():
        undo = change(case)
        if _hit(argv):
            missed.append(name)
        undo()
    assert not missed, f"answered from the memo after a change of {missed}"
    # another command line or environment has its own memo (none yet)
    assert not _hit([*argv, "-D", "X=1"])
    monkeypatch.setenv("RTLOPT_HARNESS__RANDOM_VECTORS", "77")
    assert not _hit(argv)
    monkeypatch.delenv("RTLOPT_HARNESS__RANDOM_VECTORS")
    # the liberty's new identity: the full command runs and keeps the memo again
    assert not _hit(argv)
    time.sleep(0.1)  # a memo is kept only for inputs that did not change just before
    assert _main(argv, capsys)[0] == 0
    assert _hit(argv)
    capsys.readouterr()
