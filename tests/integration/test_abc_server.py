"""The long-lived ABC processes of the persistent flow (real Yosys 0.23 and ABC).

The promise is byte-identical results to the fresh ABC Yosys starts itself, design after design,
and never a verdict that depends on the server being healthy.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda._abcserver import AbcServer
from rtlopt.eda.flow import PpaFlow
from rtlopt.errors import PluginError, UsageError
from rtlopt.pdk import PdkInfo, resolve_pdk

pytestmark = pytest.mark.tools

BENCH = Path(os.environ.get("RTLOPT_BENCH_PATH", Path(__file__).parents[3] / "shared" / "bench"))
C910 = BENCH / "c910" / "lza_simd_half"
RTLLM = BENCH / "rtllm"
Job = tuple[list[Path], str, list[str]]
LZA: Job = (
    [C910 / "ct_vfmau_lza_42.v", C910 / "ct_vfmau_lza_simd_half.v"],
    "ct_vfmau_lza_simd_half",
    [],
)
COUNTER: Job = ([RTLLM / "counter_12" / "verified_counter_12.v"], "verified_counter_12", ["clk"])
TRAFFIC: Job = (
    [RTLLM / "traffic_light" / "verified_traffic_light.v"],
    "verified_traffic_light",
    ["clk"],
)
ADDER: Job = ([RTLLM / "adder_16bit" / "verified_adder_16bit.v"], "verified_adder_16bit", [])


def _pdk(name: str) -> PdkInfo:
    try:
        return resolve_pdk(name)
    except PluginError:
        raise
    except UsageError as exc:
        pytest.skip(f"PDK {name} not available: {exc}")


def _need(*paths: Path) -> None:
    for p in paths:
        if not p.exists():
            pytest.skip(f"benchmark data not found: {p} (set RTLOPT_BENCH_PATH)")


def _abc_commands(log: Path) -> list[str]:
    return [
        line.split('"')[1]
        for line in log.read_text().splitlines()
        if line.startswith("Running ABC command:")
    ]


@pytest.mark.slow  # tens of seconds: its module is scheduled first
@pytest.mark.parametrize("pdk_name", ["sky130hd", "nangate45"])
def test_long_lived_abc_gives_the_fresh_netlists(pdk_name: str, tmp_path: Path) -> None:
    """Designs interleaved through one persistent flow: after the first synthesis both ABC calls
    go to the long-lived processes, and every netlist, stat report and PPA is byte-identical to
    a naive flow's (fresh Yosys ABC each time)."""
    _need(C910, RTLLM / "counter_12", RTLLM / "traffic_light", RTLLM / "adder_16bit")
    pdk = _pdk(pdk_name)
    jobs = [LZA, COUNTER, ADDER, TRAFFIC, LZA, COUNTER]
    with (
        PpaFlow(pdk, FlowConfig(persistent=True), SandboxConfig()) as warm,
        PpaFlow(pdk, FlowConfig(persistent=False), SandboxConfig()) as fresh,
    ):
        for i, (files, top, clocks) in enumerate(jobs):
            a = warm.measure(files, top, clocks, tmp_path / f"w{i}")
            b = fresh.measure(files, top, clocks, tmp_path / f"f{i}")
            assert a.netlist.read_text() == b.netlist.read_text(), top
            assert (a.ppa.area_um2, a.ppa.cells) == (b.ppa.area_um2, b.ppa.cells), top
            assert a.ppa == b.ppa, top
            served = _abc_commands(Path(a.logs["synth"]))
            if i == 0:
                assert len(served) == 2 and not any("abc-client" in c for c in served)
            else:  # the generic mapping and the liberty mapping, each through its client
                assert len(served) == 2 and all(c.endswith("abc-client.sh") for c in served)
            assert not any("abc-client" in c for c in _abc_commands(Path(b.logs["synth"])))
        assert warm._abc is not None and warm._abc.fallbacks == 0 and warm._abc.starts == 1
        prov = warm.provenance()
        assert prov["long_lived_abc"] is True and fresh.provenance()["long_lived_abc"] is False


def test_killed_abc_restarts_and_a_failed_job_reruns_fresh(tmp_path: Path) -> None:
    """ABC killed between jobs: the next job starts a new one (same numbers). A synthesis that
    fails through the server is run again with fresh ABC processes, so a server problem can
    never decide a verdict."""
    _need(C910)
    pdk = _pdk("nangate45")
    with PpaFlow(pdk, FlowConfig(persistent=True), SandboxConfig()) as flow:
        first = flow.measure(*LZA, tmp_path / "a")
        flow.measure(*LZA, tmp_path / "b")
        server = flow._abc
        assert server is not None and server._proc is not None
        os.killpg(server._proc.pid, signal.SIGKILL)
        server._proc.wait()
        again = flow.measure(*LZA, tmp_path / "c")
        assert again.ppa == first.ppa and server.starts == 2
        # a client that cannot reach its server: Yosys fails, the flow reruns fresh
        (flow._abc_generic.client).write_text("#!/bin/sh\nexit 1\n")  # type: ignore[union-attr]
        rerun = flow.measure(*LZA, tmp_path / "d")
        assert rerun.ppa == first.ppa
        assert flow._abc is None and flow._abc_generic is None  # fresh ABC from now on
        assert not any("abc-client" in c for c in _abc_commands(Path(rerun.logs["synth"])))


def test_script_reading_another_library_runs_in_a_fresh_abc(tmp_path: Path) -> None:
    """The server only leaves out the read of its own liberty; any other library command makes
    the job run in a fresh ABC exactly as written (so the warm ABC's library never changes)."""
    pdk = _pdk("nangate45")
    blif = tmp_path / "in.blif"
    blif.write_text(".model m\n.inputs a b\n.outputs y\n.names a b y\n11 1\n.end\n")
    server = AbcServer("yosys-abc", pdk.liberty_plain, tmp_path / "srv", timeout=60)
    try:
        job = tmp_path / "job"
        job.mkdir()
        script = job / "abc.script"
        out = job / "output.blif"
        script.write_text(
            f'read_blif "{blif}";\nread_lib -w "{pdk.liberty_plain}";\nstrash;\n&get -n;\n'
            f"&nf ;\n&put;\nwrite_blif {out}\n"
        )
        run = subprocess.run([str(server.client), "-s", "-f", str(script)], capture_output=True)
        assert run.returncode == 0 and out.is_file() and server.fallbacks == 0
        assert not (job / "rtlopt-abc-reply").exists()  # Yosys removes only plain files
        out.unlink()
        script.write_text(script.read_text().replace("read_lib -w", "read_lib -v -w"))
        run = subprocess.run([str(server.client), "-s", "-f", str(script)], capture_output=True)
        assert run.returncode == 0 and out.is_file() and server.fallbacks == 1
    finally:
        server.close()
    assert not (tmp_path / "srv" / "requests").exists()
    run = subprocess.run([str(server.client), "-s", "-f", str(script)], capture_output=True)
    assert run.returncode != 0  # no server: the client fails at once instead of waiting
