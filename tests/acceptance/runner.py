"""The acceptance cases over real repositories and the runner both their tests and
``bench/repos.py`` use.

For every case under ``tests/acceptance/cases/<repo>/<module>/`` (``meta.toml``, ``equiv.edit``,
``broken.edit``: the rewrites as edits of the upstream file, applied at run time by
``tests/acceptance/edits.py``, so no third-party code is shipped) the module's repository is
copied into a fresh git repository whose only addition is ``examples/repos/<repo>/rtlopt.toml``
(what a user writes from the repository's own filelist or build files), and these commands run
with default settings (proof required):

1. ``rtlopt inspect TARGET --module M --json``
2. ``rtlopt evaluate TARGET --module M --candidate TARGET`` (self-evaluation: must be accepted)
3. ``... --candidate equiv.v`` (a hand-written equivalent rewrite: must be accepted, proven)
4. ``... --candidate broken.v`` (a one-operator/one-constant change: must be rejected)
5. ``rtlopt check TARGET --no-ppa --json`` in a clone whose ``rtlopt.toml`` lists the module
   under ``check.optimization_only`` (the gate a user sets up), with the equivalent rewrite
   staged (``git add``): must pass (exit 0)
6. the same with the broken rewrite staged: must fail (exit 1) with a counterexample; a tool
   failure is exit 3 ("could not check"), never a verdict

Each case gets a fresh ``XDG_CACHE_HOME`` and ``XDG_CONFIG_HOME`` so that nothing is served from
a cache or a user's settings. Each command's CPU seconds (user + system of the command and the
tools it waited for) are recorded beside its wall time.

The ``fx_*`` repositories (``tests/acceptance/repos/``) are written for rtlopt in the styles
found in real ones and ship with the checkout; the others (picorv32, serv, ibex, cv32e40p) are
read from ``$RTLOPT_BENCH_PATH/repos`` (default ``../shared/bench/repos``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = HERE / "cases"
TOMLS = REPO / "examples" / "repos"
#: Repositories written for rtlopt in the styles found in real ones (include folders, in-module
#: includes, vendor cells behind parameters, clock gates between clock domains, registers
#: without reset, a generated core); they ship with the checkout and need no --repos-path.
FIXTURES = HERE / "repos"
REPOS = ("picorv32", "serv", "ibex", "cv32e40p")
EVAL_STEPS = ("inspect", "self", "equiv", "broken")
CHECK_STEPS = ("check_equiv", "check_broken")
STEPS = EVAL_STEPS + CHECK_STEPS
#: Bumped when the result format or the commands change; older results are rerun.
FORMAT = 1


@dataclass(frozen=True)
class Case:
    """One target module and its two rewrites."""

    repo: str
    module: str
    target: str  # path of the module's file, relative to the repository root
    kind: str
    equiv: str  # one line: what the equivalent rewrite changes
    broken: str  # one line: the one change that breaks it
    rare: bool  # the broken change is reached only by rare stimuli
    folder: Path
    notes: str = ""
    #: commands that take minutes (measured): slow tests, run with RTLOPT_ACCEPTANCE_FULL=1
    long: tuple[str, ...] = ()
    #: commands whose broken rewrite is rejected for a missing proof, not refuted (why: notes)
    unknown: tuple[str, ...] = ()
    #: why the "equivalent" rewrite is equivalent only under some parameters (rtlopt must then
    #: reject it, naming the parameters under which it differs); "" for a rewrite equivalent
    #: under every parameterization
    equiv_differs: str = ""
    #: Every rewrite is rejected as unchecked for this reason (a known false rejection).
    unchecked: str = ""
    #: The equivalent rewrite alone is rejected as unchecked for this reason (a known false
    #: rejection: a proof that does not decide it; the broken one is still refuted).
    equiv_unchecked: str = ""

    @property
    def name(self) -> str:
        return f"{self.repo}/{self.module}"

    @property
    def fixture(self) -> bool:
        """A repository written for rtlopt that ships with the checkout (small, fast)."""
        return (FIXTURES / self.repo).is_dir()


@dataclass
class Step:
    """One CLI command of a case."""

    rc: int | None = None  # None: the benchmark's own timeout killed it
    seconds: float = 0.0
    cpu: float = 0.0  # user + system seconds of the command and the tools it waited for
    error: str = ""  # the first error line on stderr
    data: dict[str, Any] = field(default_factory=dict)  # the --json output, when there is one
    outcome: str = ""  # ok / accepted / rejected / error
    cls: str = ""  # failure class, "" on success
    detail: str = ""  # the line that shows the class


def load_cases(folder: Path = CASES) -> list[Case]:
    cases: list[Case] = []
    for meta in sorted(folder.glob("*/*/meta.toml")):
        with meta.open("rb") as fh:
            m = tomllib.load(fh)
        for need in ("target", "module", "kind", "equiv", "broken"):
            if need not in m:
                raise SystemExit(f"{meta}: missing key '{need}'")
        for f in ("equiv.edit", "broken.edit"):
            if not (meta.parent / f).is_file():
                raise SystemExit(f"{meta.parent}: missing {f}")
        cases.append(
            Case(
                repo=meta.parent.parent.name,
                module=m["module"],
                target=m["target"],
                kind=m["kind"],
                equiv=m["equiv"],
                broken=m["broken"],
                rare=bool(m.get("rare", False)),
                folder=meta.parent,
                notes=m.get("notes", ""),
                long=_steps(meta, m.get("long", [])),
                unknown=_steps(meta, m.get("unknown", [])),
                equiv_differs=m.get("equiv_differs", ""),
                unchecked=m.get("unchecked", ""),
                equiv_unchecked=m.get("equiv_unchecked", ""),
            )
        )
    return cases


def _steps(meta: Path, names: Any) -> tuple[str, ...]:
    bad = [n for n in names if n not in STEPS]
    if not isinstance(names, list) or bad:
        raise SystemExit(f"{meta}: unknown commands {bad or names} (known: {', '.join(STEPS)})")
    return tuple(names)


def candidate_text(case: Case, name: str, upstream: Path) -> str:
    """The ``equiv``/``broken`` rewrite: its edit file applied to the upstream target file.

    Raises:
        SystemExit: the upstream file is not the one the edit was made from.
    """
    from tests.acceptance.edits import EditError, apply_edit

    edit = case.folder / f"{name}.edit"
    try:
        return apply_edit(edit.read_text(), upstream.read_bytes(), str(edit))
    except EditError as exc:
        raise SystemExit(str(exc)) from None


def fixture_file(repo: str, name: str, dest: Path) -> Path:
    """A fixture repository's target file (``name`` "original") or one of its case's
    rewrites ("equiv", "broken"), written to ``dest``: the one copy other tests use too."""
    case = next(c for c in load_cases() if c.repo == repo)
    src = FIXTURES / repo / case.target
    dest.write_text(src.read_text() if name == "original" else candidate_text(case, name, src))
    return dest


def repo_env(repo: str, root: Path) -> dict[str, str]:
    """Environment the repository's own build expects (``repo.toml`` ``[env]``; ``{root}`` is
    the copy's root); none needs one now (cv32e40p states its manifest's ``DESIGN_RTL_DIR`` in
    ``project.filelist_vars``)."""
    f = CASES / repo / "repo.toml"
    if not f.is_file():
        return {}
    with f.open("rb") as fh:
        data = tomllib.load(fh)
    return {k: str(v).replace("{root}", str(root)) for k, v in data.get("env", {}).items()}


def repo_source(src_root: Path, repo: str) -> Path:
    """Where a case's repository is copied from: the fixtures of the checkout, else the data."""
    return FIXTURES / repo if (FIXTURES / repo).is_dir() else src_root / repo


def default_repos_path() -> Path:
    base = os.environ.get("RTLOPT_BENCH_PATH")
    return Path(base) / "repos" if base else REPO.parent / "shared" / "bench" / "repos"


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    }
    return subprocess.run(
        [
            "git",
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@localhost",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def prepare_repo(src: Path, dst: Path) -> Path:
    """A git repository holding a copy of ``src`` plus its example ``rtlopt.toml``."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    toml = TOMLS / src.name / "rtlopt.toml"
    if toml.is_file():
        shutil.copy(toml, dst / "rtlopt.toml")
    _git(dst, "init", "-q")
    _git(dst, "add", "-A")
    _git(dst, "commit", "-q", "-m", "copy")
    return dst


def _first_error(stderr: str) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith(("error:", "internal error:")):
            return ln
    for ln in lines:
        if "error" in ln.lower() and not ln.startswith(("WARNING", "warning")):
            return ln
    return lines[-1] if lines else ""


def _wait(proc: subprocess.Popen[str], timeout: float) -> tuple[int | None, float]:
    """(exit code or None when killed at ``timeout``, CPU seconds of the process and of the
    children it waited for): ``os.wait4`` of this one child, so parallel cases do not mix."""
    deadline = time.monotonic() + timeout
    killed = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            cpu = round(usage.ru_utime + usage.ru_stime, 2)
            return (None if killed else proc.returncode), cpu
        if not killed and time.monotonic() > deadline:
            os.killpg(proc.pid, 9)
            killed = True
        time.sleep(0.05)


def run_cli(
    args: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float, log: Path
) -> Step:
    """Run ``python -m rtlopt ARGS``; keep stdout/stderr in ``log``."""
    cmd = [sys.executable, "-m", "rtlopt", *args]
    start = time.monotonic()
    step = Step()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=dict(env), stdout=out, stderr=err, start_new_session=True
        )
        step.rc, step.cpu = _wait(proc, timeout)
        step.seconds = round(time.monotonic() - start, 1)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    log.write_text(
        f"$ cd {cwd} && {' '.join(cmd)}\n# rc={step.rc} {step.seconds}s, {step.cpu} CPU s\n"
        f"--- stdout\n{stdout}\n--- stderr\n{stderr}\n"
    )
    step.error = _first_error(stderr)
    if step.rc is None:
        step.error = f"no answer within {timeout:.0f} s (killed by the benchmark)"
    try:
        step.data = json.loads(stdout) if stdout.strip().startswith("{") else {}
    except json.JSONDecodeError:
        step.data = {}
    return step


# ---------------------------------------------------------------------------- classification

# (class, pattern on the error line), first match wins
_ERROR_CLASSES: list[tuple[str, str]] = [
    ("benchmark timeout", r"killed by the benchmark"),
    ("filelist", r"filelist|listed but not found|\$\{?\w+\}?/"),
    ("macro", r"macro|`\w+"),
    ("include", r"include"),
    ("parse", r"syntax error|expected|unexpected"),
    ("elaboration", r"not defined|unknown module|undeclared|elaborat|not found in|unknown"),
    ("synthesis (yosys)", r"yosys|ERROR:"),
    ("timing (opensta)", r"\bsta\b|opensta"),
    ("tool timeout", r"timeout|timed out|time limit"),
]


def _error_class(line: str) -> str:
    m = re.match(r"internal error: (\w+)", line)
    if m:  # a crash (exit 3): the exception type says where
        return f"internal error: {m.group(1)}"
    for cls, pat in _ERROR_CLASSES:
        if re.search(pat, line, re.I):
            return cls
    return "tool error"


def _formal_of(data: Mapping[str, Any]) -> tuple[str, str, str]:
    """(verdict, method, reason) of the candidate's formal result."""
    cand = data.get("candidate") or {}
    formal = cand.get("formal") or {}
    return (
        str(formal.get("verdict", "")),
        str(formal.get("method", "")),
        str(formal.get("reason", "")),
    )


def _unknown_class(why: str) -> str:
    """Why the formal check could not decide."""
    low = why.lower()
    if "unchecked for parameters" in low:
        return "unknown-proof: unchecked parameterization"
    if "timed out" in low or "timeout" in low or "time limit" in low:
        return "SAT timeout"
    if "cannot read" in low or "yosys:" in low:
        return "formal: yosys cannot read/elaborate"
    if "latch" in low:
        return "unknown-proof: latches"
    if "no reset" in low:
        return "unknown-proof: no reset (bounded check only)"
    if "induction failed" in low:
        return "unknown-proof: induction failed"
    return "unknown-proof: other"


def _is_weak(cls: str) -> bool:
    """A rejection only because the proof was not found."""
    return cls.startswith(("unknown-proof", "SAT timeout", "formal: yosys"))


def _screen_class(reason: str) -> str:
    low = reason.lower()
    if "compiler directive" in low:
        return "screen: directives in the file"
    if "initial" in low:
        return "screen: initial block"
    if "system task" in low or "$" in reason:
        return "screen: system task"
    return "screen: other"


def _rejection_class(cand: Mapping[str, Any]) -> tuple[str, str]:
    """Failure class and line of a rejected (exit 1) evaluation."""
    status, stage = cand.get("status", ""), cand.get("stage", "")
    reason = str(cand.get("reason", ""))
    formal = cand.get("formal") or {}
    first = str(cand.get("log_error") or "")
    if status == "timeout":
        return f"tool timeout ({stage})", reason
    if status == "tool_error":
        low = reason.lower()
        if "sat" in low and ("time" in low or "limit" in low):
            return "SAT timeout", reason
        return f"tool error ({stage})", reason
    if stage == "screen":
        return _screen_class(reason), reason
    if stage == "compile":
        what = "macro" if re.search(r"macro|`\w", first) else "error"
        return f"candidate compile ({what})", f"{reason}: {first}" if first else reason
    if stage == "interface":
        return "interface", reason
    if stage == "simulation":
        if "does not compile beside the reference" in reason:
            return "testbench compile", reason
        return "sim mismatch", reason
    if stage == "formal":
        verdict = formal.get("verdict")
        if verdict == "refuted":
            return "formal refuted", reason
        return _unknown_class(f"{formal.get('reason', '')} {reason}"), reason
    return f"rejected at {stage}", reason


def classify_view(
    step_name: str, rc: int | None, error: str, cand: Mapping[str, Any], accepted: bool
) -> tuple[str, str, str]:
    """(outcome, failure class, detail line) of one step from its raw result."""
    if step_name == "inspect":
        if rc == 0:
            return "ok", "", ""
        return "error", _error_class(error), error
    if rc == 0 and accepted:
        outcome, cls, detail = "accepted", "", ""
    elif rc == 1 and cand:
        outcome = "rejected"
        cls, detail = _rejection_class(cand)
    else:
        outcome = "error"
        cls, detail = _error_class(error), error
        if rc == 3 and cls == "tool error":
            cls = "internal error: other"
    formal = cand.get("formal") or {}
    verdict = str(formal.get("verdict", ""))
    if step_name == "broken":
        # A broken rewrite must be rejected; the class says how convincing the rejection was.
        if outcome == "accepted":
            cls, detail = "ACCEPTED (not caught)", f"accepted, formal {verdict}"
    elif outcome == "accepted" and verdict != "proven":
        cls = f"accepted without proof ({verdict or 'none'})"
    return outcome, cls, detail


def _has_counterexample(modules: Sequence[Mapping[str, Any]]) -> bool:
    """A failed check that shows why: a refutation or a failing input with its outputs."""
    return any(
        m.get("equivalence") in ("refuted", "mismatch")
        and any(str(n).startswith("failing input") for n in m.get("notes") or [])
        for m in modules
    ) or any(m.get("equivalence") == "refuted" for m in modules)


def _gate_class(finding: str) -> str:
    low = finding.lower()
    if "worse by" in low:
        return "gate: PPA worse"
    if "interface changed" in low:
        return "gate: interface"
    if "not proven" in low or "unchecked" in low:
        return "gate: unknown proof"
    if "not equivalent" in low or "refuted" in low:
        return "gate: not equivalent"
    if "could not check" in low:
        return "gate: could not check"
    return "gate: other"


def classify_check(
    step_name: str, rc: int | None, error: str, modules: Sequence[Mapping[str, Any]]
) -> tuple[str, str, str]:
    """(outcome, failure class, detail line) of one ``rtlopt check`` step: the equivalent
    rewrite must pass (exit 0), the broken one must fail (exit 1) with a counterexample."""
    findings = [str(f) for m in modules for f in m.get("findings") or []]
    first = findings[0] if findings else error
    if rc == -1:
        return "error", "modified the repository", error
    if rc == 0:
        if step_name == "check_broken":
            return "pass", "PASSED (not caught)", "the broken change passed the gate"
        return "pass", "", ""
    if rc == 1:
        if step_name == "check_equiv":
            return "fail", _gate_class(first), first
        if _has_counterexample(modules):
            return "fail", "", ""
        return "fail", "rejected without counterexample", first
    if rc == 3:
        return "could not check", "could not check (exit 3)", first
    if rc is None:
        return "error", "benchmark timeout", error
    return "error", _error_class(error), error


def classify(step_name: str, step: Step) -> None:
    """Fill ``outcome``, ``cls`` and ``detail`` of one step."""
    if step_name in CHECK_STEPS:
        step.outcome, step.cls, step.detail = classify_check(
            step_name, step.rc, step.error, step.data.get("modules") or []
        )
        return
    cand = step.data.get("candidate") or {}
    step.outcome, step.cls, step.detail = classify_view(
        step_name, step.rc, step.error, cand, bool(step.data.get("accepted"))
    )


def reclassify(record: dict[str, Any]) -> dict[str, Any]:
    """Classify a stored record again with this version of the rules (no rerun needed)."""
    for name, s in record["steps"].items():
        if name in CHECK_STEPS:
            s["outcome"], s["class"], s["detail"] = classify_check(
                name, s["rc"], s["error"], s.get("check") or []
            )
            s["detail"] = s["detail"][:400]
            continue
        cand = (
            {
                "status": s.get("status"),
                "stage": s.get("stage"),
                "reason": s.get("reason", ""),
                "formal": s.get("formal"),
                "log_error": s.get("log_error", ""),
            }
            if s.get("stage")
            else {}
        )
        accepted = s.get("accepted", s.get("outcome") == "accepted")
        s["outcome"], s["class"], s["detail"] = classify_view(
            name, s["rc"], s["error"], cand, bool(accepted)
        )
        s["detail"] = s["detail"][:400]
    return record


def _first_log_error(data: Mapping[str, Any]) -> str:
    """The first error line of the candidate's compile log (kept before scratch is deleted)."""
    logs = (data.get("candidate") or {}).get("logs") or {}
    for key in ("compile", "sim_compile"):
        path = logs.get(key)
        if not path:
            continue
        try:
            text = Path(path).read_text(errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            if "error" in line.lower() or "unknown" in line.lower():
                return line.strip()[:300]
    return ""


# ---------------------------------------------------------------------------- running


def _case_home(out: Path, case: Case) -> Path:
    home = out / "home" / f"{case.repo}__{case.module}"  # fresh caches and no user config
    if home.exists():
        shutil.rmtree(home)
    (home / "cache").mkdir(parents=True)
    (home / "config").mkdir(parents=True)
    (home / "candidates").mkdir()
    return home


def _eval_steps(
    case: Case,
    repo_root: Path,
    home: Path,
    env: Mapping[str, str],
    pdk: str,
    timeout: float,
    logs: Path,
    only: Sequence[str],
) -> dict[str, Step]:
    """inspect, then the self/equiv/broken evaluations named in ``only``."""
    target = case.target
    common = [target, "--module", case.module]
    steps: dict[str, Step] = {}
    if "inspect" in only:
        steps["inspect"] = run_cli(
            ["inspect", *common, "--json", "--harness-dir", str(home / "harness")],
            repo_root,
            env,
            timeout,
            logs / "inspect.log",
        )
    for name in ("self", "equiv", "broken"):
        if name not in only:
            continue
        cand_file = repo_root / target
        if name != "self":
            # the rewrites are stored as edits of the upstream file (no third-party copies)
            cand_file = home / "candidates" / f"{name}.v"
            cand_file.write_text(candidate_text(case, name, repo_root / target))
        steps[name] = run_cli(
            ["evaluate", *common, "--candidate", str(cand_file), "--pdk", pdk, "--json"]
            + ["--workdir", str(home / f"work-{name}")],
            repo_root,
            env,
            timeout,
            logs / f"{name}.log",
        )
    return steps


class GateSetupError(RuntimeError):
    """The case's repository cannot be set up for the gate (not a verdict of rtlopt)."""


def gate_repo(case: Case, repo_root: Path, dest: Path) -> Path:
    """A clone of the case's repository whose committed ``rtlopt.toml`` lists the module as
    optimization-only: the gate a user sets up for ``rtlopt check``."""
    if dest.exists():
        shutil.rmtree(dest)
    _git(repo_root.parent, "clone", "-q", str(repo_root), str(dest))
    toml = dest / "rtlopt.toml"
    text = toml.read_text() if toml.is_file() else ""
    if re.search(r"^\s*\[check\]", text, re.M):
        raise GateSetupError(f"{toml}: already has a [check] section")
    toml.write_text(text + f'\n[check]\noptimization_only = ["{case.module}"]\n')
    _git(dest, "add", "rtlopt.toml")
    _git(dest, "commit", "-q", "-m", "gate the module")
    return dest


def _check_steps(
    case: Case,
    repo_root: Path,
    home: Path,
    env: Mapping[str, str],
    timeout: float,
    logs: Path,
    only: Sequence[str],
) -> dict[str, Step]:
    """``rtlopt check`` on the staged equivalent and the staged broken rewrite, as the
    pre-commit hook runs it (the staged file named on the command line)."""
    steps: dict[str, Step] = {}
    names = [n for n in CHECK_STEPS if n in only]
    if not names:
        return steps
    gate = gate_repo(case, repo_root, home / "gate" / case.repo)
    env = {**env, **repo_env(case.repo, gate)}
    for name in names:
        upstream = gate / case.target
        upstream.write_text(candidate_text(case, name.removeprefix("check_"), upstream))
        _git(gate, "add", case.target)
        step = run_cli(
            ["check", case.target, "--no-ppa", "--json"], gate, env, timeout, logs / f"{name}.log"
        )
        # nothing the user owns is modified: only the staged change, no other file
        status = _git(gate, "status", "--porcelain", "--untracked-files=all").splitlines()
        if status != [f"M  {case.target}"]:
            step.rc, step.error = -1, f"the repository was modified by rtlopt: {status}"
        _git(gate, "reset", "-q", "--hard")
        steps[name] = step
    return steps


def run_case(
    case: Case,
    repo_root: Path,
    out: Path,
    env: Mapping[str, str],
    pdk: str,
    timeout: float,
    only: Sequence[str] = STEPS,
) -> dict[str, Any]:
    """The commands of one case (those named in ``only``); returns the JSON-ready record."""
    logs = out / "logs" / f"{case.repo}__{case.module}"
    logs.mkdir(parents=True, exist_ok=True)
    home = _case_home(out, case)
    env = {**env, "XDG_CACHE_HOME": str(home / "cache"), "XDG_CONFIG_HOME": str(home / "config")}
    steps = _eval_steps(case, repo_root, home, env, pdk, timeout, logs, only)
    steps.update(_check_steps(case, repo_root, home, env, timeout, logs, only))
    log_errors = {name: _first_log_error(step.data) for name, step in steps.items()}
    for name, step in steps.items():
        if log_errors[name] and step.data.get("candidate"):
            step.data["candidate"]["log_error"] = log_errors[name]
        classify(name, step)
    shutil.rmtree(home, ignore_errors=True)  # scratch folders are large; logs stay
    insp = steps["inspect"].data if "inspect" in steps else {}
    record: dict[str, Any] = {
        "format": FORMAT,
        "repo": case.repo,
        "module": case.module,
        "target": case.target,
        "kind": case.kind,
        "rare": case.rare,
        "equiv_change": case.equiv,
        "broken_change": case.broken,
        "inspect_summary": {
            "clocks": insp.get("clocks"),
            "resets": insp.get("resets"),
            "ports": len(insp.get("ports", []) or []),
            "files": len(insp.get("files", []) or []),
            "vectors": insp.get("vectors"),
        }
        if insp
        else None,
        "steps": {name: _step_record(name, step, log_errors[name]) for name, step in steps.items()},
    }
    return record


def _step_record(name: str, step: Step, log_error: str) -> dict[str, Any]:
    v, m, why = _formal_of(step.data) if name in ("self", "equiv", "broken") else ("", "", "")
    cand: dict[str, Any] = step.data.get("candidate") or {}
    rec: dict[str, Any] = {
        "rc": step.rc,
        "seconds": step.seconds,
        "cpu": step.cpu,
        "outcome": step.outcome,
        "class": step.cls,
        "detail": step.detail[:400],
        "error": step.error[:400],
        "formal": {"verdict": v, "method": m, "reason": why[:300]} if v else None,
        "stage": cand.get("stage"),
        "status": cand.get("status"),
        "accepted": bool(step.data.get("accepted")),
        "log_error": log_error,
        "reason": str(cand.get("reason", ""))[:400],
        "sim": {k: (cand.get("sim") or {}).get(k) for k in ("vectors", "mismatches")}
        if cand.get("sim")
        else None,
        "tools": (step.data.get("reference") or {}).get("provenance", {}).get("tools"),
    }
    if name in CHECK_STEPS:
        mods = step.data.get("modules") or []
        rec["check"] = [
            {k: m.get(k) for k in ("module", "equivalence", "findings", "notes")} for m in mods
        ]
    return rec


# ---------------------------------------------------------------------------- reporting


def _check_cell(s: Mapping[str, Any], name: str) -> str:
    if s["outcome"] == "pass":
        return "pass" if name == "check_equiv" else "**PASSED**"
    if s["outcome"] == "fail":
        if name == "check_broken":
            return "fail, cex" if not s["class"] else f"fail ({s['class']})"
        return f"**{s['class']}**"
    return f"**{s['class']}** (exit {s['rc']})"


def _cell(rec: Mapping[str, Any], name: str) -> str:
    s = rec["steps"].get(name)
    if s is None:
        return "-"
    if name in CHECK_STEPS:
        return _check_cell(s, name)
    if name == "inspect":
        return "ok" if s["outcome"] == "ok" else f"**{s['class']}**"
    if name == "broken":
        if s["outcome"] == "accepted":
            return "**ACCEPTED**"
        if s["outcome"] == "rejected":
            return {"sim mismatch": "rejected (sim)", "formal refuted": "rejected (formal)"}.get(
                s["class"], f"rejected ({s['class']})"
            )
        return f"**{s['class']}** (exit {s['rc']})"
    if s["outcome"] == "accepted":
        v = (s.get("formal") or {}).get("verdict", "")
        return "accepted" if v == "proven" else f"accepted, {v or 'no proof'}"
    if s["outcome"] == "rejected":
        return f"**{s['class']}**"
    return f"**{s['class']}** (exit {s['rc']})"


def _formal_cell(rec: Mapping[str, Any]) -> str:
    parts = []
    for name in ("equiv", "broken"):
        f = (rec["steps"].get(name) or {}).get("formal")
        if f:
            parts.append(
                f"{name[0]}: {f['verdict']} ({f['method']})"
                if f["method"]
                else f"{name[0]}: {f['verdict']}"
            )
    return "; ".join(parts) or "-"


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    n = len(records)

    def count(name: str, pred: Callable[[Mapping[str, Any]], bool]) -> int:
        return sum(1 for r in records if name in r["steps"] and pred(r["steps"][name]))

    def proven(s: Mapping[str, Any]) -> bool:
        return bool((s.get("formal") or {}).get("verdict") == "proven")

    return {
        "cases": n,
        "repos": dict(Counter(r["repo"] for r in records)),
        "inspect_ok": count("inspect", lambda s: s["outcome"] == "ok"),
        "self_accepted": count("self", lambda s: s["outcome"] == "accepted"),
        "equiv_accepted": count("equiv", lambda s: s["outcome"] == "accepted"),
        "equiv_proven": count("equiv", lambda s: s["outcome"] == "accepted" and proven(s)),
        "broken_rejected": count("broken", lambda s: s["outcome"] != "accepted" and s["rc"] == 1),
        "broken_refuted": count(
            "broken", lambda s: s["class"] in ("sim mismatch", "formal refuted")
        ),
        "broken_by_formal": count("broken", lambda s: s["class"] == "formal refuted"),
        "broken_unknown_only": count("broken", lambda s: _is_weak(s["class"])),
        "broken_accepted": count("broken", lambda s: s["outcome"] == "accepted"),
        "broken_error": count("broken", lambda s: s["outcome"] == "error"),
        "check_cases": count("check_equiv", lambda s: True),
        "check_equiv_pass": count("check_equiv", lambda s: s["outcome"] == "pass"),
        "check_broken_fail": count("check_broken", lambda s: s["outcome"] == "fail"),
        "check_broken_cex": count(
            "check_broken", lambda s: s["outcome"] == "fail" and not s["class"]
        ),
        "check_could_not": count("check_equiv", lambda s: s["rc"] == 3)
        + count("check_broken", lambda s: s["rc"] == 3),
        "cpu_s": round(sum(st.get("cpu", 0.0) for r in records for st in r["steps"].values()), 1),
        "rare_cases": sum(1 for r in records if r["rare"]),
        "broken_weak_names": [
            f"{r['module']}" + (" (rare)" if r["rare"] else "")
            for r in records
            if "broken" in r["steps"] and _is_weak(r["steps"]["broken"]["class"])
        ],
    }


def failure_classes(records: Sequence[Mapping[str, Any]]) -> list[tuple[str, int, str]]:
    """(class, count, one example "case step: line") over every non-success, most common first.

    Non-success: inspect error; self/equiv not accepted with a proof; broken accepted, not
    refuted (rejected only for unknown proof or an unrelated failure), or an error.
    """
    seen: Counter[str] = Counter()
    example: dict[str, str] = {}
    for r in records:
        for name in STEPS:
            s = r["steps"].get(name)
            if (
                s is None
                or not s["class"]
                or (name == "broken" and s["class"] in ("sim mismatch", "formal refuted"))
            ):
                continue
            cls = s["class"]
            seen[cls] += 1
            line = s["detail"] or s["error"]
            example.setdefault(cls, f"{r['repo']}/{r['module']} {name}: {line}")
    return [(c, k, example[c]) for c, k in seen.most_common()]


def _summary_lines(s: Mapping[str, Any]) -> list[str]:
    n = s["cases"]
    return [
        "",
        "## Summary",
        "",
        f"- cases: {n} ({', '.join(f'{k} {v}' for k, v in s['repos'].items())})",
        f"- inspect ok: {s['inspect_ok']}/{n}",
        f"- self-evaluation accepted: {s['self_accepted']}/{n}",
        f"- equivalent rewrite accepted: {s['equiv_accepted']}/{n}, with a proof: "
        f"{s['equiv_proven']}/{n}",
        f"- broken rewrite rejected: {s['broken_rejected']}/{n} (refuted: "
        f"{s['broken_refuted']}, of which by formal {s['broken_by_formal']}; only because "
        f"the proof was unknown: {s['broken_unknown_only']}; errors: {s['broken_error']};"
        f" ACCEPTED: {s['broken_accepted']}); {s['rare_cases']} broken rewrites need rare "
        "stimuli",
        "- broken rewrites that passed simulation and were rejected only for want of a "
        "proof (accepted with --accept-unknown): " + (", ".join(s["broken_weak_names"]) or "none"),
        f"- `rtlopt check` on the staged equivalent rewrite passed (exit 0): "
        f"{s['check_equiv_pass']}/{s['check_cases']}; on the staged broken rewrite failed "
        f"(exit 1): {s['check_broken_fail']}/{s['check_cases']}, with a counterexample: "
        f"{s['check_broken_cex']}; could not check (exit 3): {s['check_could_not']}",
        f"- CPU seconds of every command (user + system, tools included): {s['cpu_s']}",
    ]


def render(records: Sequence[Mapping[str, Any]], meta: Mapping[str, Any]) -> str:
    lines = [
        f"# rtlopt on real repositories ({meta.get('date', '')})",
        "",
        f"rtlopt {meta.get('commit', '')}, PDK {meta.get('pdk')}, default settings "
        f"(proof required), tools: {meta.get('tools')}",
        "",
        "| module | kind | inspect | self | equivalent | broken | check equiv | check broken"
        " | formal (e: equiv, b: broken) | s | CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        secs = sum(s["seconds"] for s in r["steps"].values())
        cpu = sum(s.get("cpu", 0.0) for s in r["steps"].values())
        kind = r["kind"] + (" (rare bug)" if r["rare"] else "")
        cells = " | ".join(_cell(r, name) for name in STEPS)
        lines.append(
            f"| {r['repo']}/{r['module']} | {kind} | {cells} | {_formal_cell(r)} | {secs:.0f} "
            f"| {cpu:.0f} |"
        )
    lines += _summary_lines(summarize(records))
    lines += [
        "",
        "## Failure classes (every non-success)",
        "",
        "| class | count | example |",
        "|---|---|---|",
    ]
    out = str(meta.get("out", "")) or "\0"
    for cls, k, ex in failure_classes(records):
        ex = ex.replace(out, "<out>").replace("|", "/")
        lines.append(f"| {cls} | {k} | {ex[:300]} |")
    return "\n".join(lines) + "\n"


def product_version() -> str:
    """The last commit of the product code (rtlopt/), "+dirty" when it has local changes."""
    last = subprocess.run(
        ["git", "log", "-1", "--format=%h", "--", "rtlopt", "pyproject.toml"],
        cwd=REPO,
        capture_output=True,
        text=True,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "rtlopt", "pyproject.toml"],
        cwd=REPO,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (last or "unknown") + ("+dirty" if dirty else "")


def stored_any(results: Path, c: Case) -> dict[str, Any] | None:
    f = results / f"{c.repo}__{c.module}.json"
    try:
        rec: dict[str, Any] = json.loads(f.read_text())
    except (OSError, ValueError):
        return None
    return reclassify(rec) if rec.get("format") == FORMAT else None
