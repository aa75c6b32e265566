"""Hostile repository files (issue 20, item 11): a symlink to /dev/zero, FIFOs, symlinks out
of the repository, oversized files. Scanning reads regular files only, bounded and without
blocking; what the user named (the target, a filelist entry, an include) is refused with its
file and line. Every test would hang or run out of memory if a file were opened naively, so
the FIFO tests run the real command line in a subprocess with a timeout."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.errors import ConfigError, DesignError
from rtlopt.frontend import load_design, read_source, source_problem

TOP = "module top(input a, output y);\nassign y = ~a;\nendmodule\n"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "top.v").write_text(TOP)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def _hostile(repo: Path) -> None:
    rtl = repo / "rtl"
    os.symlink("/dev/zero", rtl / "zero.v")
    os.mkfifo(rtl / "pipe.v")
    os.mkfifo(rtl / "pipe.vh")
    os.symlink("/etc/hostname", rtl / "outside.v")
    os.symlink("missing.v", rtl / "broken.v")


def test_scan_skips_devices_fifos_and_links_out_of_the_repository(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo = _repo(tmp_path)
    _hostile(repo)
    (repo / "rtl" / "sub.v").write_text("module sub; endmodule\n")
    os.symlink("sub.v", repo / "rtl" / "alias.v")  # inside the repository: read
    with caplog.at_level(logging.WARNING):
        d = load_design(repo / "rtl" / "top.v", None, ProjectConfig())
    assert d.target.name == "top"
    names = {f.name for f in d.sources.files}
    assert {"top.v", "sub.v"} <= names
    assert not names & {"zero.v", "pipe.v", "outside.v", "broken.v"}
    text = caplog.text
    for name, why in [
        ("rtl/zero.v", "symlink to /dev/zero, outside the repository"),
        ("rtl/pipe.v", "named pipe"),
        ("rtl/pipe.vh", "named pipe"),
        ("rtl/outside.v", "outside the repository"),
        ("rtl/broken.v", "broken"),
    ]:
        assert f"{name}: skipped: the file" in text and why in text, (name, text)
    assert "project.exclude" in text


def test_device_inside_the_repository_and_size_limit(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    big = repo / "rtl" / "big.v"
    big.write_text("// " + "x" * 5000 + "\nmodule big; endmodule\n")
    assert source_problem(big, repo, limit=1000) is not None
    assert "size limit" in (source_problem(big, repo, limit=1000) or "")
    with pytest.raises(DesignError, match="size limit"):
        read_source(big, repo, limit=1000)
    d = load_design(repo / "rtl" / "top.v", None, ProjectConfig(max_file_bytes=1000))
    assert big not in d.sources.files
    with pytest.raises(DesignError, match="character device"):
        read_source(Path("/dev/zero"))


def test_target_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _hostile(repo)
    with pytest.raises(DesignError, match="symlink to /dev/zero") as e:
        load_design(repo / "rtl" / "zero.v", None, ProjectConfig())
    assert "zero.v" in e.value.one_line()
    with pytest.raises(DesignError, match="named pipe"):
        load_design(repo / "rtl" / "pipe.v", None, ProjectConfig())


def test_filelist_entry_that_is_a_fifo_names_the_line(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _hostile(repo)
    (repo / "rtl.f").write_text("rtl/top.v\nrtl/pipe.v\n")
    with pytest.raises(ConfigError) as e:
        load_design(repo / "rtl" / "top.v", None, ProjectConfig(filelists=("rtl.f",)))
    assert "rtl.f:2" in e.value.one_line() and "named pipe" in e.value.one_line()
    os.mkfifo(repo / "fifo.f")
    with pytest.raises(ConfigError, match="filelist not read"):
        load_design(repo / "rtl" / "top.v", None, ProjectConfig(filelists=("fifo.f",)))


def test_include_of_a_fifo_is_refused_before_the_parser_opens_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo = _repo(tmp_path)
    _hostile(repo)
    inc = '`include "pipe.vh"\n'
    (repo / "rtl" / "top.v").write_text(inc + TOP)
    with pytest.raises(DesignError) as e:
        load_design(repo / "rtl" / "top.v", None, ProjectConfig())
    assert "top.v:1" in e.value.one_line() and "named pipe" in e.value.one_line()
    # in a file the target does not need: that file is skipped with a warning
    (repo / "rtl" / "top.v").write_text(TOP)
    (repo / "rtl" / "other.v").write_text(inc + "module other; endmodule\n")
    d = load_design(repo / "rtl" / "top.v", None, ProjectConfig())  # lazy: never read
    assert "other" not in d.modules
    with caplog.at_level(logging.WARNING):
        d = load_design(repo / "rtl" / "top.v", None, ProjectConfig(lazy_parse=False))
    assert "other" not in d.modules
    assert "other.v:1" in caplog.text and "skipped" in caplog.text


@pytest.mark.tools
def test_inspect_with_committed_zero_symlink_and_fifo_finishes(tmp_path: Path) -> None:
    """The real command line on a committed ``zero.v -> /dev/zero`` and a FIFO ``pipe.v``:
    it finishes (no MemoryError, no blocking) with a warning per file; SIGTERM still stops a
    run (the FIFO is never opened, so the process never blocks where signals cannot reach)."""
    repo = _repo(tmp_path)
    _hostile(repo)
    subprocess.run(["git", "-C", str(repo), "add", "rtl/top.v", "rtl/zero.v"], check=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@l"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@l"}
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "x"], check=True, env=env)
    r = subprocess.run(
        [sys.executable, "-m", "rtlopt", "inspect", "rtl/top.v"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "top" in r.stdout
    assert "rtl/zero.v: skipped" in r.stderr and "rtl/pipe.v: skipped" in r.stderr
    assert "MemoryError" not in r.stderr and "Traceback" not in r.stderr
