"""The README's two set-up commands on a fresh machine, and the demo never masking an error.

``bash scripts/setup.sh && bash scripts/demo.sh`` runs in a copy of the checkout's files (what a
fresh clone holds) with no ``../shared`` beside it, in a new virtual environment, with
``RTLOPT_PDK_PATH`` unset and HOME isolated: the liberty files must come from the bundled PDK
packages that setup installs. The virtual environment sees the machine's site-packages (torch,
transformers and the other heavy wheels are not downloaded again, and pip itself); rtlopt and
the PDK packages are installed into it by the script itself.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, TEST_CACHE

DROP = (
    "PYTHONPATH",
    "RTLOPT_PDK_PATH",
    "RTLOPT_BENCH_PATH",
    "RTLOPT_LIBERTY_CACHE",
    "VIRTUAL_ENV",
    "PYTHONHOME",
)


def _fresh_copy(dest: Path) -> Path:
    """The tracked files of the checkout, as they are in the work tree (a clone's content)."""
    files = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z"], check=True, capture_output=True, text=True
    ).stdout.split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def _env(venv: Path | None, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DROP}
    (tmp / "tmp").mkdir(exist_ok=True)
    env["TMPDIR"] = str(tmp / "tmp")  # the demo repository goes there
    # pip's download cache is kept between runs (a fresh machine downloads the same files; each
    # run still builds and installs rtlopt and the PDK packages itself)
    env["PIP_CACHE_DIR"] = str(TEST_CACHE / "pip")
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
        env["VIRTUAL_ENV"] = str(venv)
    return env


@pytest.mark.tools
@pytest.mark.model
@pytest.mark.slow
def test_readme_setup_and_demo_on_a_fresh_machine(tmp_path: Path, model_cpu_share: None) -> None:
    machine = tmp_path / "machine"
    checkout = _fresh_copy(machine / "rtlopt")
    assert not (machine / "shared").exists()
    venv = tmp_path / "venv"
    # without a pip of its own (ensurepip copies and installs one: 5-20 s): the machine's pip,
    # seen through the system site-packages, installs into the environment it runs in
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
        check=True,
        timeout=300,
    )
    r = subprocess.run(
        ["bash", "-c", "bash scripts/setup.sh && bash scripts/demo.sh"],
        cwd=checkout,
        env=_env(venv, tmp_path),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-6000:]
    assert "[setup] installing the bundled PDKs" in out and "no liberty file" not in out
    # the model step ran and ended as the tiny model does (nothing better: exit 1)
    assert "== rtlopt optimize with the CPU model" in out
    assert re.search(r"\(exit 1: as expected|\(the tiny model found a better design\)", out)
    # the scripted step: a report and a branch
    scripted = out.split("== rtlopt optimize over hand-written alternatives")[1]
    report = Path(re.search(r"^report: (\S+)", scripted, re.M).group(1))  # type: ignore[union-attr]
    assert report.name == "report.md" and report.is_file()
    branch = re.search(r"^branch: (rtlopt/prio_enc/\S+)", scripted, re.M).group(1)  # type: ignore[union-attr]
    demo = Path(re.search(r"^demo repository: (\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    assert demo.is_relative_to(tmp_path)
    listed = subprocess.run(
        ["git", "-C", str(demo), "branch", "--list", "rtlopt/*"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert branch in listed
    # the liberty was the bundled one, installed in the virtual environment
    prov = (report.parent / "provenance.json").read_text()
    assert str(venv) in prov and "NangateOpenCellLibrary_typical.lib" in prov
    listing = subprocess.run(
        [str(venv / "bin" / "rtlopt"), "pdk", "list"],
        env=dict(_env(venv, tmp_path), COLUMNS="250"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listing.returncode == 0, listing.stderr
    for name in ("sky130hd", "nangate45"):
        row = next(ln for ln in listing.stdout.splitlines() if f" {name} " in ln)
        assert f"entry point of rtlopt-pdk-{name}" in row and str(venv) in row, row


@pytest.mark.tools
def test_the_demo_does_not_mask_an_error(tmp_path: Path) -> None:
    """A real error in the model step (here: a model that does not exist) ends the demo with
    its exit code instead of "as expected, nothing better"."""
    env = _env(None, tmp_path)
    env["PYTHONPATH"] = str(REPO)
    env["RTLOPT_PDK_PATH"] = os.environ["RTLOPT_PDK_PATH"]  # the built-in PDKs' liberty
    env["RTLOPT_POLICY__MODEL"] = str(tmp_path / "no-such-model")
    r = subprocess.run(
        ["bash", str(REPO / "scripts" / "demo.sh")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no-such-model not found" in r.stderr
    assert "demo: rtlopt optimize failed with exit 2" in r.stderr
    assert "as expected" not in r.stdout and "hand-written alternatives" not in r.stdout
