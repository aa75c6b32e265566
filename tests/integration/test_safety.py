"""Hostile inputs and a hostile environment, through the real command line and real tools.

Names and paths from the repository never run anything; signals end every tool and remove
scratch folders; concurrent processes share caches; bad input is one line and exit 2; write-back
never commits a branch that does not compile, and a late failure can be resumed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import bench_path
from tests.e2e.conftest import EXAMPLE, git
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

INV = (
    "module inv(input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = ~(a & b);\nendmodule\n"
)
INV_ALT = (
    "module inv(input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = ~a | ~b;\nendmodule\n"
)


@pytest.fixture
def tmp_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Scratch of every rtlopt subprocess under the test's own temp folder."""
    t = tmp_path / "tmpdir"
    t.mkdir()
    monkeypatch.setenv("TMPDIR", str(t))
    yield t


def run(args: Sequence[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return run_rtlopt(args, cwd=cwd, timeout=timeout)


def one_line_error(r: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert "internal error" not in lines[0] and "Traceback" not in r.stderr
    return lines[0]


def leftovers(tmpdir: Path) -> list[str]:
    return sorted(p.name for p in tmpdir.iterdir())


# ------------------------------------------------------------------------- names (injection)

EVIL_MODULES = [
    r"x};[{*}exec\x20touch\x20{M}];{",  # the issue's reproduction
    r"a}[exec\x20touch\x20{M}]",
    r"q\"[exec\x20touch\x20{M}]\"",
    r"s;$(touch\x20{M})",
    r"b\\[0]",
    r"semi;",
    r"'tick'`touch\x20{M}`",
    r"$dollar",
]
EVIL_PORTS = [r"c[l}k$\"", r"d;$(touch\x20{M})", r"{e}", r"f\\"]


@pytest.mark.parametrize("name", EVIL_MODULES)
def test_escaped_module_names_never_run_and_exit_2(
    tmp_path: Path, tmp_env: Path, name: str
) -> None:
    marker = tmp_path / f"PWNED-{uuid.uuid4().hex}"
    ident = name.replace("{M}", str(marker))
    src = (
        f"module \\{ident} (input clk, input [3:0] a, output reg [3:0] y);\n"
        "  always @(posedge clk) y <= ~a;\nendmodule\n"
    )
    (tmp_path / "evil.v").write_text(src)
    r = run(["evaluate", "evil.v", "--candidate", "evil.v", "--pdk", "nangate45"], tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "escaped identifier" in one_line_error(r) and "evil.v:1" in r.stderr
    assert not marker.exists() and leftovers(tmp_env) == []


@pytest.mark.parametrize("port", EVIL_PORTS)
def test_escaped_port_names_never_run_and_exit_2(tmp_path: Path, tmp_env: Path, port: str) -> None:
    marker = tmp_path / f"PWNED-{uuid.uuid4().hex}"
    p = port.replace("{M}", str(marker))
    src = (
        f"module m (input \\{p} , input [3:0] a, output reg [3:0] y);\n"
        f"  always @(posedge \\{p} ) y <= ~a;\nendmodule\n"
    )
    (tmp_path / "m.v").write_text(src)
    r = run(["evaluate", "m.v", "--candidate", "m.v", "--pdk", "nangate45"], tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "port name" in one_line_error(r)
    assert not marker.exists()


def test_eda_layer_measures_hostile_names_right(tmp_path: Path) -> None:
    """Below the frontend's check: synthesis and STA of a module and clock port with hostile
    names, in a folder with a hostile name, give the numbers of the plain design, and run
    nothing."""
    from rtlopt.config import FlowConfig, SandboxConfig
    from rtlopt.eda.flow import PpaFlow
    from rtlopt.pdk import resolve_pdk

    marker = tmp_path / f"PWNED-{uuid.uuid4().hex}"
    evil_top = f"x}};[{{*}}exec\\x20touch\\x20{marker}];{{"
    evil_clk = 'c}k$";{'  # OpenSTA 2.0.17 itself crashes on clock ports with [ ] / \\
    body = "  reg [7:0] r;\n  always @(posedge {c}) r <= a + r;\n  assign y = r;\nendmodule\n"
    plain = "module top(input clk, input [7:0] a, output [7:0] y);\n" + body.format(c="clk")
    evil = (
        f"module \\{evil_top} (input \\{evil_clk} , input [7:0] a, output [7:0] y);\n"
        + body.format(c=f"\\{evil_clk} ")
    )
    d = tmp_path / f'w $(touch {marker.name}) "q" [1]'
    d.mkdir()
    (d / "plain.v").write_text(plain)
    (d / "evil.v").write_text(evil)
    pdk = resolve_pdk("nangate45")
    for persistent in (True, False):
        cfg = FlowConfig(persistent=persistent)
        with PpaFlow(pdk, cfg, SandboxConfig()) as flow:
            a = flow.measure([d / "plain.v"], "top", ["clk"], d / f"p{persistent}")
            b = flow.measure([d / "evil.v"], evil_top, [evil_clk], d / f"e {persistent}")
        assert b.ppa == a.ppa and a.ppa.area_um2 > 0 and a.ppa.delay_ps > 0
        assert b.sta is not None and b.sta.clocks == (evil_clk,) and b.sta.registers == 8
    assert not marker.exists() and not (d / marker.name).exists()
    from rtlopt.eda.opensta import candidate_tcl
    from rtlopt.errors import UsageError

    with pytest.raises(UsageError, match="cannot time a clock port"):
        candidate_tcl(d / "n.v", "top", ["c[1]"], 1.0, power=False, token="t")


# ------------------------------------------------------------------------- paths


HOSTILE_DIRS = [
    "with space",
    "q\"u'o $(touch ~/PWNED1) `touch ~/PWNED2` ;{x}[y]",
    "nl\nname",
    "ünï #c \\",
]


@pytest.fixture(scope="module")
def plain_ppa() -> dict[str, object]:
    """The reference's PPA measured in a plain folder, by the first hostile-path test of the
    module (the same design and command in each: one measurement serves all four)."""
    return {}


@pytest.mark.parametrize("dirname", HOSTILE_DIRS)
def test_repository_paths_with_hostile_characters_work(
    tmp_path: Path, tmp_env: Path, dirname: str, plain_ppa: dict[str, object]
) -> None:
    repo = tmp_path / dirname
    (repo / "inc dir $(x)").mkdir(parents=True)
    (repo / "inc dir $(x)" / "w.vh").write_text("`define W 4\n")
    (repo / "inv.v").write_text('`include "w.vh"\n' + INV.replace("[3:0]", "[`W-1:0]"))
    # the candidate keeps the macro: a module nothing instantiates could be compiled with
    # another W, so a change through it would be unchecked
    (repo / "c.v").write_text(INV_ALT.replace("[3:0]", "[`W-1:0]"))
    (repo / "rtlopt.toml").write_text(
        '[project]\ninclude_dirs = ["inc dir $(x)"]\n'
        'defines = ["MSG=\\"a b\\" $(touch ~/PWNED3)", "W2=4"]\n'
    )
    r = run(["evaluate", "inv.v", "--candidate", "c.v", "--pdk", "nangate45", "--json"], repo)
    out = json.loads(r.stdout)
    if "\n" in dirname:
        # the second proof's WebAssembly Yosys cannot mount a folder whose name holds a line
        # break: no design there is accepted, and the reason says why (fail closed)
        assert r.returncode == 1 and not out["accepted"], r.stdout + r.stderr
        assert "WebAssembly Yosys can mount" in out["candidate"]["reason"]
    else:
        assert r.returncode == 0, r.stdout + r.stderr
        assert out["accepted"] and out["candidate"]["formal"]["verdict"] == "proven"
    ref = out["reference"]["ppa"]
    # the same design in a plain folder measures the same
    if "ref" not in plain_ppa:
        plain = tmp_path / "plain"
        plain.mkdir()
        (plain / "inv.v").write_text(INV)
        (plain / "c.v").write_text(INV_ALT)
        cmd = ["evaluate", "inv.v", "--candidate", "c.v", "--pdk", "nangate45", "--json"]
        r2 = run(cmd, plain)
        assert r2.returncode == 0, r2.stderr
        plain_ppa["ref"] = json.loads(r2.stdout)["reference"]["ppa"]
    assert plain_ppa["ref"] == ref
    # "~/PWNED1" in the folder name makes folders; a command would make files
    assert not [p for p in tmp_path.rglob("PWNED*") if p.is_file()]
    assert not list(Path(os.environ["HOME"]).glob("PWNED*"))
    assert leftovers(tmp_env) == []  # scratch, links and tool temp files removed


# ------------------------------------------------------------------------- bad input


def test_bad_liberty_files_are_input_errors(tmp_path: Path) -> None:
    (tmp_path / "inv.v").write_text(INV)
    # binary bytes, the same every run (random ones can begin with a printable first line)
    (tmp_path / "random.lib").write_bytes(bytes(range(256)) * 16)
    (tmp_path / "text.lib").write_text("hello world\n")
    (tmp_path / "nocell.lib").write_text('/* c */ library (x) {\n  time_unit : "1ns";\n}\n')
    full = subprocess.run(
        ["gzip", "-c", str(tmp_path / "text.lib")], capture_output=True, check=True
    ).stdout
    (tmp_path / "cut.lib.gz").write_bytes(full[: len(full) // 2])
    expect = {
        "random.lib": "binary data",
        "text.lib": "found 'hello world'",
        "nocell.lib": "no cell groups",
        "cut.lib.gz": "cannot decompress",
    }
    for name, words in expect.items():
        r = run(
            ["evaluate", "inv.v", "--candidate", "inv.v", "--pdk", "custom", "--liberty", name],
            tmp_path,
        )
        assert r.returncode == 2, (name, r.stderr)
        line = one_line_error(r)
        assert name in line and words in line, line


@pytest.mark.parametrize(
    "src,where",
    [
        ("module r(input a, output y);\n  r u(.a(a), .y(y));\nendmodule\n", "r.v:1"),
        (
            "module p(input a, output y);\n  q u(.a(a), .y(y));\nendmodule\n"
            "module q(input a, output y);\n  p u(.a(a), .y(y));\nendmodule\n",
            "r.v:4",
        ),
    ],
)
def test_recursive_instantiation_is_an_input_error(tmp_path: Path, src: str, where: str) -> None:
    (tmp_path / "r.v").write_text(src)
    top = "r" if "module r" in src else "p"
    r = run(["evaluate", "r.v", "-m", top, "--candidate", "r.v", "--pdk", "nangate45"], tmp_path)
    assert r.returncode == 2, r.stderr
    line = one_line_error(r)
    assert "instantiates itself" in line and where in line


def test_reference_yosys_cannot_read_is_an_input_error(
    tmp_path: Path, tmp_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # native tools only: on the default `auto` path slang reads this SystemVerilog port and
    # the design is evaluated (tests/integration/test_systemverilog.py)
    monkeypatch.setenv("RTLOPT_FLOW__SYSTEMVERILOG", "native")
    (tmp_path / "ua.v").write_text(
        "module ua(input [3:0] a [0:1], output [3:0] y);\n  assign y = a[0] ^ a[1];\nendmodule\n"
    )
    r = run(["evaluate", "ua.v", "--candidate", "ua.v", "--pdk", "nangate45"], tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line_error(r)
    assert "ua.v:1" in line and "Yosys" in line and "syntax error" in line
    assert leftovers(tmp_env) == []


# ------------------------------------------------------------------------- signals


def _lza_repo(tmp_path: Path) -> Path:
    lza = bench_path() / "c910" / "lza_simd_half"
    if not (lza / "ct_vfmau_lza_simd_half.v").exists():
        pytest.skip("C910 LZA benchmark not found (set RTLOPT_BENCH_PATH)")
    repo = tmp_path / "lza"
    repo.mkdir()
    for f in lza.glob("*.v"):
        shutil.copy(f, repo / f.name)
    return repo


def _procs_under(prefix: str, exclude: int) -> list[str]:
    """Processes whose working folder or command line points into ``prefix``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == exclude:
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (cwd.startswith(prefix) or prefix in cmd):
            found.append(f"{pid} {cmd}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)]
)
def test_signal_mid_synthesis_ends_every_tool_and_removes_scratch(
    tmp_path: Path, tmp_env: Path, sig: int, code: int
) -> None:
    repo = _lza_repo(tmp_path)
    f = "ct_vfmau_lza_simd_half.v"
    proc = subprocess.Popen(
        [sys.executable, "-m", "rtlopt", "evaluate", f, "--candidate", f, "--pdk", "sky130hd"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        seen: list[str] = []
        while time.monotonic() < deadline and proc.poll() is None:
            seen = [p for p in _procs_under(str(tmp_env), proc.pid) if "yosys" in p]
            if seen:
                break
            time.sleep(0.05)
        assert seen, "no synthesis was seen"
        time.sleep(0.3)  # inside the synthesis, ABC running or about to
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, err
    assert [ln for ln in err.splitlines() if ln.strip()] == (
        ["interrupted"] if sig == signal.SIGINT else [f"stopped by {signal.Signals(sig).name}"]
    )
    time.sleep(0.2)
    assert _procs_under(str(tmp_env), os.getpid()) == []
    assert _procs_under(str(repo), os.getpid()) == []
    assert leftovers(tmp_env) == []


# ------------------------------------------------------------------------- concurrency


@pytest.mark.slow
def test_four_concurrent_evaluations_on_a_cold_cache_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("RTLOPT_LIBERTY_CACHE", str(tmp_path / "cache" / "liberty"))
    repo = tmp_path / "ex"
    shutil.copytree(EXAMPLE, repo)
    args = [
        "evaluate",
        "rtl/prio_enc.v",
        "-m",
        "prio_enc",
        "--candidate",
        "alternatives/b_loop.v",
        "--json",
    ]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: run(args, repo), range(4)))
    outs = []
    for r in results:
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout))
    for o in outs:
        assert o["accepted"] and o["candidate"]["formal"]["verdict"] == "proven"
        assert o["candidate"]["ppa"] == outs[0]["candidate"]["ppa"]
        assert o["reference"]["ppa"] == outs[0]["reference"]["ppa"]
    libs = list((tmp_path / "cache" / "liberty").glob("*.lib"))
    assert len(libs) == 1  # one decompressed copy, no partial files left
    assert not [
        p
        for p in (tmp_path / "cache" / "liberty").iterdir()
        if p.name.endswith((".partial", ".tmp"))
    ]


def test_liberty_cache_prepared_by_many_threads_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtlopt.pdk._liberty import derive_liberties, plain_liberty

    monkeypatch.setenv("RTLOPT_LIBERTY_CACHE", str(tmp_path / "lib"))
    gz = Path(os.environ["RTLOPT_PDK_PATH"]) / "nangate45" / "NangateOpenCellLibrary_typical.lib.gz"
    if not gz.exists():
        pytest.skip("nangate45 liberty not found")
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: plain_liberty(gz), range(8)))
    assert len(set(got)) == 1
    plain, md5 = got[0]
    with ThreadPoolExecutor(4) as pool:
        derived = list(pool.map(lambda _: derive_liberties(plain, md5, ()), range(4)))
    assert len(set(derived)) == 1 and derived[0].abc.stat().st_size > 0
    assert sorted(p.name for p in (tmp_path / "lib").iterdir()) == sorted(
        [plain.name, f"gz-{_md5(gz)}.ref", "derived"]
    )


def _md5(p: Path) -> str:
    import hashlib

    return hashlib.md5(p.read_bytes()).hexdigest()


# ------------------------------------------------------------------------- write-back


def test_late_write_back_failure_keeps_results_and_resume_finishes(tmp_path: Path) -> None:
    """The best candidate uses a module of an uncommitted file: the branch (made from HEAD)
    would not compile, so no branch is made, the error says how to resume, and after the
    file is committed ``--resume`` writes the branch without running again."""
    repo = tmp_path / "ex"
    shutil.copytree(EXAMPLE, repo)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "example")
    (repo / "rtl" / "nor16.v").write_text(
        "module nor16(input [15:0] d, input en, output z);\n  assign z = ~|(d & {16{en}});\n"
        "endmodule\n"
    )
    cands = tmp_path / "cands"
    cands.mkdir()
    loop = (EXAMPLE / "alternatives" / "b_loop.v").read_text()
    (cands / "uses_helper.v").write_text(
        loop.replace("assign zero = ~|(vec & {16{en}});", "nor16 z0(.d(vec), .en(en), .z(zero));")
    )
    r = run(
        [
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidates",
            str(cands),
            "--steps",
            "1",
            "--parents",
            "1",
            "--rollouts",
            "2",
        ],
        repo,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line_error(r)
    m = re.search(r"results kept; rerun with --resume (\S+)\)$", line)
    assert m and "would not compile" in line and "nor16" in line, line
    run_dir = Path(m.group(1))
    assert (run_dir / "best.json").exists()
    assert "rtlopt/prio_enc" not in git(repo, "branch", "--list")
    git(repo, "add", "rtl/nor16.v")
    git(repo, "commit", "-q", "-m", "helper")
    r2 = run(["optimize", "--resume", str(run_dir)], repo)
    assert r2.returncode == 0, r2.stdout + r2.stderr
    branch = re.search(r"branch: (rtlopt/prio_enc/\S+)", r2.stdout)
    assert branch, r2.stdout
    text = git(repo, "show", f"{branch.group(1)}:rtl/prio_enc.v")
    assert "nor16 z0" in text and text.count("module prio_enc") == 1
