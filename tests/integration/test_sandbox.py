"""Tools on candidate-derived text run in a bubblewrap sandbox (real bwrap, iverilog, vvp, Yosys).

A candidate that passed the screen by whatever route is simulated here directly: it must not be
able to write outside its scratch folder, nor reach the network. The same runs with the sandbox
off do write (so the tests can fail). The fake-bwrap tests pin the exact command line and the
policy (refuse or warn once) when bubblewrap cannot start.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import stat
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import rtlopt.tools._sandbox as sb
from rtlopt.eda.iverilog import compile_sources, run_vvp
from rtlopt.evaluate._evaluator import apply_sandbox
from rtlopt.tools import Limits, SandboxUnavailable, configure_sandbox, run_tool, sandbox_available

pytestmark = pytest.mark.tools


@pytest.fixture(autouse=True)
def _policy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test sets its own policy; the process's one is restored after."""
    monkeypatch.setattr(sb, "_policy", None)
    monkeypatch.setattr(sb, "_warned", False)
    monkeypatch.delenv(sb.POLICY_ENV, raising=False)
    monkeypatch.delenv("RTLOPT_BWRAP", raising=False)
    yield
    sb._probe.cache_clear()


def _need_bwrap() -> None:
    why = sandbox_available()
    if why is not None:
        pytest.skip(f"bubblewrap cannot run here: {why}")


def _hostile(victim: Path, dump: Path) -> str:
    """A candidate-derived module that writes two files outside its scratch folder."""
    return textwrap.dedent(
        f"""\
        module evil;
          reg [7:0] mem [0:1];
          integer fd;
          initial begin
            mem[0] = 8'h41; mem[1] = 8'h42;
            fd = $fopen("{victim}", "w");
            $fdisplay(fd, "owned");
            $fclose(fd);
            $writememh("{dump}", mem);
            fd = $fopen("inside.txt", "w");
            $fdisplay(fd, "scratch is writable");
            $fclose(fd);
            $finish;
          end
        endmodule
        """
    )


def _simulate(tmp_path: Path, name: str) -> tuple[Path, Path, Path]:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    victim, dump = outside / f"{name}.txt", outside / f"{name}.hex"
    work = tmp_path / f"scratch-{name}"
    work.mkdir()
    src = work / "evil.v"
    src.write_text(_hostile(victim, dump))
    comp = compile_sources([src], work, top="evil", out=work / "evil.vvp")
    assert comp.ok, comp.output
    run_vvp(work / "evil.vvp", work, limits=Limits(30.0), log_name="sim.log")
    return victim, dump, work / "inside.txt"


def test_simulated_candidate_cannot_write_outside_its_scratch(tmp_path: Path) -> None:
    _need_bwrap()
    configure_sandbox(True, require=True)
    victim, dump, inside = _simulate(tmp_path, "sandboxed")
    assert not victim.exists() and not dump.exists()
    assert inside.read_text().strip() == "scratch is writable"
    configure_sandbox(False, require=False)  # the same run without the sandbox does write
    victim, dump, inside = _simulate(tmp_path, "plain")
    assert victim.read_text().strip() == "owned" and dump.is_file()


def test_yosys_run_cannot_write_outside_its_folder(tmp_path: Path) -> None:
    _need_bwrap()
    configure_sandbox(True, require=True)
    work, outside = tmp_path / "w", tmp_path / "o"
    work.mkdir()
    outside.mkdir()
    (work / "m.v").write_text("module m(input a, output y); assign y = ~a; endmodule\n")
    script = f"read_verilog m.v\nwrite_verilog inside.v\nwrite_verilog {outside / 'x.v'}\n"
    (work / "s.ys").write_text(script)
    run = run_tool(
        ["yosys", "-q", "-s", "s.ys"], cwd=work, log_path=work / "y.log", limits=Limits(60)
    )
    assert run.returncode != 0
    assert (work / "inside.v").is_file() and not (outside / "x.v").exists()


def _connect_argv(port: int) -> list[str]:
    code = (
        "import socket,sys\n"
        "s=socket.socket()\ns.settimeout(5)\n"
        f"sys.exit(0 if s.connect_ex(('127.0.0.1',{port}))==0 else 7)\n"
    )
    return [sys.executable, "-c", code]


def test_network_is_unshared(tmp_path: Path) -> None:
    _need_bwrap()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]
    try:
        configure_sandbox(True, require=True)
        run = run_tool(
            _connect_argv(port), cwd=tmp_path, log_path=tmp_path / "n.log", limits=Limits(30)
        )
        assert run.returncode == 7, run.output()
        configure_sandbox(False, require=False)
        run = run_tool(
            _connect_argv(port), cwd=tmp_path, log_path=tmp_path / "p.log", limits=Limits(30)
        )
        assert run.returncode == 0, run.output()
    finally:
        server.close()


def test_a_sandboxed_tool_past_its_limit_is_killed(tmp_path: Path) -> None:
    _need_bwrap()
    configure_sandbox(True, require=True)
    src = tmp_path / "spin.v"
    src.write_text("module spin; reg c = 0; always #1 c = ~c; endmodule\n")
    assert compile_sources([src], tmp_path, top="spin", out=tmp_path / "spin.vvp").ok
    run = run_vvp(tmp_path / "spin.vvp", tmp_path, limits=Limits(1.0), log_name="spin.log")
    assert run.timed_out
    assert run.argv[0].endswith("bwrap")


# ------------------------------------------------------------------ fake bubblewrap


def _fake_bwrap(tmp_path: Path, *, works: bool = True) -> tuple[Path, Path]:
    """A fake bwrap recording its argv (JSON lines) and running the command after ``--``."""
    log = tmp_path / "bwrap-calls.jsonl"
    fake = tmp_path / "fake-bwrap"
    body = (
        "import json,os,sys\n"
        f"open({str(log)!r},'a').write(json.dumps(sys.argv[1:])+'\\n')\n"
        + ("a=sys.argv[1:]; c=a[a.index('--')+1:]; os.execvp(c[0], c)\n" if works else "")
        + (
            ""
            if works
            else "sys.stderr.write('bwrap: No permissions to create new namespace\\n'); sys.exit(1)\n"
        )
    )
    fake.write_text(f"#!{sys.executable}\n{body}")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return fake, log


def test_fake_bwrap_gets_the_exact_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, log = _fake_bwrap(tmp_path)
    monkeypatch.setenv("RTLOPT_BWRAP", str(fake))
    configure_sandbox(True, require=True)
    work, out = tmp_path / "work", tmp_path / "out dir"
    work.mkdir()
    run = run_tool(["true"], cwd=work, log_path=work / "t.log", limits=Limits(30), writable=[out])
    assert run.returncode == 0
    calls = [json.loads(x) for x in log.read_text().splitlines()]
    assert calls[0][-2] == "--" and Path(calls[0][-1]).name == "true"  # the probe
    true = calls[-1][-1]
    assert calls[-1] == [
        "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
        "--unshare-net", "--unshare-ipc", "--die-with-parent",
        "--bind", os.path.realpath(work), os.path.realpath(work),
        "--bind", os.path.realpath(out), os.path.realpath(out),
        "--", true,
    ]  # fmt: skip
    assert os.path.isabs(true) and out.is_dir()
    assert list(run.argv) == [str(fake), *calls[-1]]


def test_opted_out_runs_are_not_wrapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake, log = _fake_bwrap(tmp_path)
    monkeypatch.setenv("RTLOPT_BWRAP", str(fake))
    configure_sandbox(True, require=True)
    run = run_tool(
        ["true"], cwd=tmp_path, log_path=tmp_path / "t.log", limits=Limits(30), sandbox=False
    )
    assert run.argv == ("true",) and not log.exists()


def test_fake_bwrap_that_cannot_start_is_refused_when_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, _ = _fake_bwrap(tmp_path, works=False)
    monkeypatch.setenv("RTLOPT_BWRAP", str(fake))
    configure_sandbox(True, require=True)
    victim = tmp_path / "ran"
    with pytest.raises(SandboxUnavailable, match="No permissions to create new namespace"):
        run_tool(
            ["touch", str(victim)], cwd=tmp_path, log_path=tmp_path / "t.log", limits=Limits(30)
        )
    assert not victim.exists()


def test_fake_bwrap_that_cannot_start_warns_once_when_optional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake, _ = _fake_bwrap(tmp_path, works=False)
    monkeypatch.setenv("RTLOPT_BWRAP", str(fake))
    configure_sandbox(True, require=False)
    with caplog.at_level(logging.WARNING, logger="rtlopt.tools._sandbox"):
        for i in range(2):
            run = run_tool(
                ["touch", f"f{i}"], cwd=tmp_path, log_path=tmp_path / "t.log", limits=Limits(30)
            )
            assert run.returncode == 0 and Path(run.argv[0]).name == "touch"
    warnings = [r for r in caplog.records if "WITHOUT a sandbox" in r.getMessage()]
    assert len(warnings) == 1


def test_require_auto_refuses_under_ci_and_warns_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(var, raising=False)
    apply_sandbox(True, "auto")
    assert sb.sandbox_policy() == "warn" and os.environ[sb.POLICY_ENV] == "warn"
    monkeypatch.setenv("CI", "true")
    apply_sandbox(True, "auto")
    assert sb.sandbox_policy() == "require"
    apply_sandbox(True, "never")
    assert sb.sandbox_policy() == "warn"
    apply_sandbox(False, "always")
    assert sb.sandbox_policy() == "off"


# ------------------------------------------------------------------ long-lived workers


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return out


def _tool_namespaces(pid: int, names: tuple[str, ...]) -> set[str]:
    """The network namespaces of the processes named ``names`` in ``pid``'s tree."""
    found = set()
    for p in _tree(pid):
        try:
            with open(f"/proc/{p}/comm") as f:
                comm = f.read().strip()
            if comm in names:
                found.add(os.readlink(f"/proc/{p}/ns/net"))
        except OSError:
            continue
    return found


def test_long_lived_abc_and_opensta_run_sandboxed(tmp_path: Path) -> None:
    """The warm ABC processes and the OpenSTA worker read candidate netlists for many
    candidates: each runs in a network namespace of its own (bubblewrap), not in ours."""
    from rtlopt.config import FlowConfig, SandboxConfig
    from rtlopt.eda.flow import PpaFlow
    from rtlopt.errors import UsageError
    from rtlopt.pdk import resolve_pdk

    _need_bwrap()
    bench = Path(os.environ.get("RTLOPT_BENCH_PATH", "/nonexistent"))
    counter = bench / "rtllm" / "counter_12" / "verified_counter_12.v"
    if not counter.is_file():
        pytest.skip(f"benchmark data not found: {counter}")
    try:
        pdk = resolve_pdk("nangate45")
    except UsageError as exc:
        pytest.skip(str(exc))
    configure_sandbox(True, require=True)
    ours = os.readlink("/proc/self/ns/net")
    with PpaFlow(pdk, FlowConfig(persistent=True), SandboxConfig()) as flow:
        for i in range(2):
            flow.measure([counter], "verified_counter_12", ["clk"], tmp_path / f"c{i}")
        procs = {"sta": flow._worker}
        for key, server in (("abc", flow._abc), ("abc-generic", flow._abc_generic)):
            procs[key] = server  # type: ignore[assignment]
        for key, holder in procs.items():
            proc = getattr(holder, "_proc", None)
            if key == "sta":  # recycled after a design with registers: wait for its start
                holder._finish_start()  # type: ignore[union-attr]
            assert proc is not None and proc.poll() is None, key
            names = ("sta",) if key == "sta" else ("yosys-abc", "berkeley-abc", "abc")
            spaces = _tool_namespaces(proc.pid, names)
            assert spaces and ours not in spaces, (key, spaces)
