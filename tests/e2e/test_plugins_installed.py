"""Plugins installed with pip, chosen by name from the CLI and from rtlopt.toml.

The three distributions under tests/plugins/ extend rtlopt through entry points only (a parent
sampler ``newest``, a PDK ``tinylib``, a policy ``echo``), as docs/plugins.md describes; the two
bundled PDK packages under plugins/ replace the built-in ``sky130hd`` and ``nangate45`` with
their own liberty files. They are installed with ``pip install --target`` into a temporary
folder that the command's ``PYTHONPATH`` adds, exactly as an installed distribution is found;
nothing in rtlopt names them.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.conftest import pdk_path, requires_shared
from tests.e2e.conftest import git

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
BUNDLED = Path(__file__).resolve().parents[2] / "plugins"
# md5 of the decompressed liberty files (shared pdk/README.md and the packages' READMEs)
MD5 = {
    "sky130hd": "f2bbb4fb2aecd79bb0bddd87166b20be",
    "nangate45": "fbd782231f674601393a42760f8f871c",
}
SKY130_LIB = "sky130_fd_sc_hd__tt_025C_1v80.lib.gz"
RUN_ARGS = ["rtl/prio_enc.v", "-m", "prio_enc", "--candidates", "alternatives", "--steps", "2",
            "--parents", "1", "--rollouts", "2", "--no-branch"]  # fmt: skip

pytestmark = [pytest.mark.tools, requires_shared("sky130hd", SKY130_LIB)]


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test distributions and the bundled PDK packages, installed by pip into a fresh
    folder."""
    src = tmp_path_factory.mktemp("plugin-src")
    site = tmp_path_factory.mktemp("plugin-site")
    dists = []
    for folder in (
        PLUGINS / "rtlopt-newest-sampler",
        PLUGINS / "rtlopt-tinylib-pdk",
        PLUGINS / "rtlopt-echo-policy",
        BUNDLED / "rtlopt-pdk-sky130hd",
        BUNDLED / "rtlopt-pdk-nangate45",
    ):
        # the build writes next to the sources (build/, *.egg-info): build a copy
        shutil.copytree(
            folder, src / folder.name, ignore=shutil.ignore_patterns("build", "*.egg-info")
        )
        dists.append(str(src / folder.name))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--no-cache-dir", "--disable-pip-version-check",
         "--target", str(site), *dists],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert sorted(p.name for p in site.glob("*.dist-info")) == [
        "rtlopt_echo_policy-0.1.0.dist-info",
        "rtlopt_newest_sampler-0.1.0.dist-info",
        "rtlopt_pdk_nangate45-0.1.0.dist-info",
        "rtlopt_pdk_sky130hd-0.1.0.dist-info",
        "rtlopt_tinylib_pdk-0.1.0.dist-info",
    ]
    return site


@pytest.fixture
def pdk_dir(tmp_path: Path) -> Path:
    """A PDK search-path folder holding tinylib's liberty (sky130hd's, linked)."""
    d = tmp_path / "pdk"
    (d / "tinylib").mkdir(parents=True)
    (d / "tinylib" / SKY130_LIB).symlink_to(pdk_path() / "sky130hd" / SKY130_LIB)
    return d


def _rtlopt(
    args: Sequence[str], cwd: Path, site: Path | None, pdk: Path, log: Path, shared: bool = True
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    paths = [str(site)] if site is not None else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")])
    env["RTLOPT_PDK_PATH"] = os.pathsep.join([str(pdk), *([str(pdk_path())] if shared else [])])
    env["ECHO_POLICY_LOG"] = str(log.with_name("echo.log"))
    env["NEWEST_SAMPLER_LOG"] = str(log)
    env["COLUMNS"] = "300"  # rich tables: one line per row
    return subprocess.run(
        [sys.executable, "-m", "rtlopt", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _run_dir(repo: Path) -> Path:
    (rd,) = [p for p in (repo / ".rtlopt" / "runs").iterdir() if p.is_dir()]
    return rd


def _assert_plugins_ran(rd: Path, log: Path) -> None:
    cfg = tomllib.loads((rd / "config.toml").read_text())
    assert cfg["search"]["sampler"] == "newest" and cfg["flow"]["pdk"] == "tinylib"
    flow = json.loads((rd / "provenance.json").read_text())["flow"]
    assert flow["pdk"] == "tinylib" and flow["corner"] == "tinylib-tt"
    assert "tinylib" in flow["liberty"]
    assert json.loads((rd / "run.json").read_text())["pdk"] == "tinylib"
    calls = log.read_text().splitlines()
    assert len(calls) == 2 and calls[0].startswith("pool 1 chose [0]"), calls  # one per step
    best = json.loads((rd / "best.json").read_text())
    assert best["accepted"] and best["ppa"]["area_um2"] > 0


def test_installed_plugins_are_listed(plugin_site: Path, pdk_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    r = _rtlopt(["pdk", "list"], tmp_path, plugin_site, pdk_dir, log)
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if "tinylib" in line)
    assert "entry point of rtlopt-tinylib-pdk" in row and "tinylib-tt" in row
    for name, alias in (("sky130hd", "sky130"), ("nangate45", "nangate")):
        row = next(line for line in r.stdout.splitlines() if f" {name} " in line)
        assert f"entry point of rtlopt-pdk-{name}" in row and f" {alias} " in row, row
        assert str(plugin_site / f"rtlopt_pdk_{name}" / "data") in row, row
    r = _rtlopt(["optimize", "--help"], tmp_path, plugin_site, pdk_dir, log)
    assert "[egreedy|greedy|igr|igr-batched|mcts|mcts-batched|newest|none|puct]" in " ".join(
        r.stdout.split()
    )
    assert "[echo|openai|scripted|transformers|vllm]" in " ".join(r.stdout.split())
    # a bundled PDK has nothing to download: the command says where its liberty is
    r = _rtlopt(
        ["pdk", "download", "sky130", "--dest", str(tmp_path / "dl")],
        tmp_path,
        plugin_site,
        pdk_dir,
        log,
    )
    assert r.returncode == 0, r.stderr
    assert "sky130hd: bundled, nothing to download; liberty " in r.stdout
    assert str(plugin_site / "rtlopt_pdk_sky130hd" / "data") in r.stdout
    assert not (tmp_path / "dl").exists()
    r = _rtlopt(["config", "show", "--toml"], tmp_path, plugin_site, pdk_dir, log)
    assert r.returncode == 0, r.stderr


def test_plugins_chosen_by_name_on_the_command_line(
    plugin_site: Path, pdk_dir: Path, example_repo: Path, tmp_path: Path
) -> None:
    log = tmp_path / "calls.log"
    r = _rtlopt(
        ["optimize", *RUN_ARGS, "--reuse", "newest", "--pdk", "tinylib"],
        example_repo,
        plugin_site,
        pdk_dir,
        log,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "(tinylib, policy scripted" in r.stdout
    _assert_plugins_ran(_run_dir(example_repo), log)


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_plugins_chosen_by_name_in_rtlopt_toml(
    plugin_site: Path, pdk_dir: Path, example_repo: Path, tmp_path: Path
) -> None:
    (example_repo / "rtlopt.toml").write_text(
        '[search]\nsampler = "newest"\n\n[flow]\npdk = "tinylib"\n'
    )
    git(example_repo, "add", "rtlopt.toml")
    git(example_repo, "commit", "-q", "-m", "use the plugins")
    log = tmp_path / "calls.log"
    r = _rtlopt(["optimize", *RUN_ARGS], example_repo, plugin_site, pdk_dir, log)
    assert r.returncode == 0, r.stdout + r.stderr
    _assert_plugins_ran(_run_dir(example_repo), log)


def test_without_the_distribution_the_names_are_unknown(
    pdk_dir: Path, example_repo: Path, tmp_path: Path
) -> None:
    log = tmp_path / "calls.log"
    r = _rtlopt(["optimize", *RUN_ARGS, "--reuse", "newest"], example_repo, None, pdk_dir, log)
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "error: --search: unknown search strategy 'newest' "
        "(known: egreedy, greedy, igr, igr-batched, mcts, mcts-batched, none, puct)"
    )
    (example_repo / "rtlopt.toml").write_text('[flow]\npdk = "tinylib"\n')
    r = _rtlopt(["optimize", *RUN_ARGS], example_repo, None, pdk_dir, log)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "flow.pdk = 'tinylib' is not a known PDK" in r.stderr and "rtlopt.toml" in r.stderr
    assert not log.exists()


def _installed_here(dist: str) -> bool:
    """Whether this interpreter already has ``dist`` (scripts/setup.sh installs the bundled
    PDK packages; a developer's machine may not have run it)."""
    try:
        importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_bundled_pdks_need_no_search_path(
    plugin_site: Path, pdk_dir: Path, example_repo: Path, tmp_path: Path
) -> None:
    """`--pdk sky130` with nothing on RTLOPT_PDK_PATH for it: the package's liberty, the same
    bytes and the same numbers as the built-in description with the shared file."""
    log = tmp_path / "calls.log"
    args = ["evaluate", "rtl/prio_enc.v", "--candidate", "alternatives/a_grouped.v", "--json"]
    r = _rtlopt([*args, "--pdk", "sky130"], example_repo, plugin_site, pdk_dir, log, shared=False)
    assert r.returncode == 0, r.stdout + r.stderr
    bundled = json.loads(r.stdout)
    flow = bundled["reference"]["provenance"]["flow"]
    assert flow["pdk"] == "sky130hd" and flow["liberty"].startswith(str(plugin_site))
    assert flow["liberty_md5"] == MD5["sky130hd"]
    # the shared file given as the liberty: the built-in's measurement, whatever is installed
    shared_lib = pdk_path() / "sky130hd" / SKY130_LIB
    r = _rtlopt(
        [*args, "--pdk", "sky130hd", "--liberty", str(shared_lib)], example_repo, None, pdk_dir, log
    )
    assert r.returncode == 0, r.stdout + r.stderr
    builtin = json.loads(r.stdout)
    assert builtin["reference"]["provenance"]["flow"]["liberty"] == str(shared_lib)
    for side in ("reference", "candidate"):
        assert bundled[side]["ppa"] == builtin[side]["ppa"], side
    # without the package and without the shared path: the error names the ways out
    if not _installed_here("rtlopt-pdk-nangate45"):
        r = _rtlopt([*args, "--pdk", "nangate"], example_repo, None, pdk_dir, log, shared=False)
        assert r.returncode == 2 and "no liberty file for PDK 'nangate45'" in r.stderr
        assert "install the bundled PDK packages" in r.stderr


def test_a_policy_plugin_runs_the_loop(
    plugin_site: Path, pdk_dir: Path, example_repo: Path, tmp_path: Path
) -> None:
    log = tmp_path / "calls.log"
    r = _rtlopt(
        [
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--policy",
            "echo",
            "--steps",
            "2",
            "--parents",
            "1",
            "--rollouts",
            "2",
            "--no-branch",
            "--pdk",
            "nangate45",
        ],
        example_repo,
        plugin_site,
        pdk_dir,
        log,
        shared=False,
    )
    assert r.returncode == 1, r.stdout + r.stderr  # the parent again: nothing better
    assert "policy echo" in r.stdout and "no equivalent design beat the reference" in r.stdout
    assert log.with_name("echo.log").read_text().splitlines() == [
        "generate 1 prompt(s) x 2",
        "generate 1 prompt(s) x 2",
    ]
    rd = _run_dir(example_repo)
    cands = [json.loads(p.read_text()) for p in (rd / "candidates").glob("*.json")]
    assert cands and all(c["accepted"] for c in cands)  # the echoed design is equivalent
    assert json.loads((rd / "provenance.json").read_text())["policy"]["backend"] == "echo"
