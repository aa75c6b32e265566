#!/usr/bin/env python3
"""rtlopt on real repositories, as a new user runs it: inspect and evaluate through the CLI.

For every case under ``bench/repos_cases/<repo>/<module>/`` (``meta.toml``,
``equiv.edit``, ``broken.edit``: the rewrites as edits of the upstream file, applied at run
time by ``bench/repos_edits.py``, so no third-party code is shipped) the module's repository
is copied into a fresh git repository whose only addition is
``examples/repos/<repo>/rtlopt.toml`` (what a user writes from the repository's own filelist
or build files), and four commands run with default settings (proof required):

1. ``rtlopt inspect TARGET --module M --json``
2. ``rtlopt evaluate TARGET --module M --candidate TARGET`` (self-evaluation: must be accepted)
3. ``... --candidate equiv.v`` (a hand-written equivalent rewrite: must be accepted, proven)
4. ``... --candidate broken.v`` (a one-operator/one-constant change: must be rejected)

Each case gets a fresh ``XDG_CACHE_HOME`` and ``XDG_CONFIG_HOME`` so that nothing is served from
a cache or a user's settings. Results are written per case as JSON (the run resumes where it
stopped), then a markdown table (module, kind, inspect, self, equivalent, broken, formal
engine/verdict, seconds), summary counts, and every non-success with its failure class and the
error line.

    python bench/repos.py [--jobs 2] [--only 'serv/*' ...] [--rerun] [--out DIR]

Data by path: ``--repos-path``, else ``$RTLOPT_BENCH_PATH/repos``, else ``../shared/bench/repos``
beside the checkout; liberty files from ``$RTLOPT_PDK_PATH`` (default ``../shared/pdk``).
"""

from __future__ import annotations

import argparse
import fnmatch
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
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "repos_cases"
TOMLS = REPO / "examples" / "repos"
#: Repositories written for rtlopt in the styles found in real ones (include folders, in-module
#: includes, vendor cells behind parameters, clock gates between clock domains, registers
#: without reset, a generated core); they ship with the checkout and need no --repos-path.
FIXTURES = Path(__file__).resolve().parent / "fixture_repos"
REPOS = ("picorv32", "serv", "ibex", "cv32e40p")
STEPS = ("inspect", "self", "equiv", "broken")
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

    @property
    def name(self) -> str:
        return f"{self.repo}/{self.module}"


@dataclass
class Step:
    """One CLI command of a case."""

    rc: int | None = None  # None: the benchmark's own timeout killed it
    seconds: float = 0.0
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
            )
        )
    return cases


def candidate_text(case: Case, name: str, upstream: Path) -> str:
    """The ``equiv``/``broken`` rewrite: its edit file applied to the upstream target file.

    Raises:
        SystemExit: the upstream file is not the one the edit was made from.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from repos_edits import EditError, apply_edit

    edit = case.folder / f"{name}.edit"
    try:
        return apply_edit(edit.read_text(), upstream.read_bytes(), str(edit))
    except EditError as exc:
        raise SystemExit(str(exc)) from None


def repo_env(repo: str, root: Path) -> dict[str, str]:
    """Environment the repository's own build expects (``repo.toml`` ``[env]``; ``{root}`` is
    the copy's root), e.g. cv32e40p's manifest needs ``DESIGN_RTL_DIR`` set by the user."""
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
        try:
            step.rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
        step.seconds = round(time.monotonic() - start, 1)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    log.write_text(
        f"$ cd {cwd} && {' '.join(cmd)}\n# rc={step.rc} {step.seconds}s\n"
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


def classify(step_name: str, step: Step) -> None:
    """Fill ``outcome``, ``cls`` and ``detail`` of one step."""
    cand = step.data.get("candidate") or {}
    step.outcome, step.cls, step.detail = classify_view(
        step_name, step.rc, step.error, cand, bool(step.data.get("accepted"))
    )


def reclassify(record: dict[str, Any]) -> dict[str, Any]:
    """Classify a stored record again with this version of the rules (no rerun needed)."""
    for name, s in record["steps"].items():
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


def run_case(
    case: Case, repo_root: Path, out: Path, env: Mapping[str, str], pdk: str, timeout: float
) -> dict[str, Any]:
    """The four commands of one case; returns the JSON-ready record."""
    tag = f"{case.repo}__{case.module}"
    logs = out / "logs" / tag
    logs.mkdir(parents=True, exist_ok=True)
    home = out / "home" / tag  # fresh caches and no user config
    if home.exists():
        shutil.rmtree(home)
    (home / "cache").mkdir(parents=True)
    (home / "config").mkdir(parents=True)
    env = {**env, "XDG_CACHE_HOME": str(home / "cache"), "XDG_CONFIG_HOME": str(home / "config")}
    target = case.target
    common = [target, "--module", case.module]
    # the rewrites are stored as edits of the upstream file (no third-party copies shipped)
    cand_dir = home / "candidates"
    cand_dir.mkdir()
    cands = {"self": repo_root / target}
    for name in ("equiv", "broken"):
        cands[name] = cand_dir / f"{name}.v"
        cands[name].write_text(candidate_text(case, name, repo_root / target))
    steps: dict[str, Step] = {}
    steps["inspect"] = run_cli(
        ["inspect", *common, "--json", "--harness-dir", str(home / "harness")],
        repo_root,
        env,
        timeout,
        logs / "inspect.log",
    )
    for name, cand_file in cands.items():
        steps[name] = run_cli(
            [
                "evaluate",
                *common,
                "--candidate",
                str(cand_file),
                "--pdk",
                pdk,
                "--json",
                "--workdir",
                str(home / f"work-{name}"),
            ],
            repo_root,
            env,
            timeout,
            logs / f"{name}.log",
        )
    log_errors = {name: _first_log_error(step.data) for name, step in steps.items()}
    for name, step in steps.items():
        if log_errors[name] and step.data.get("candidate"):
            step.data["candidate"]["log_error"] = log_errors[name]
        classify(name, step)
    shutil.rmtree(home, ignore_errors=True)  # scratch folders are large; logs stay
    insp = steps["inspect"].data
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
        "steps": {},
    }
    for name, step in steps.items():
        v, m, why = _formal_of(step.data) if name != "inspect" else ("", "", "")
        cand: dict[str, Any] = step.data.get("candidate") or {}
        record["steps"][name] = {
            "rc": step.rc,
            "seconds": step.seconds,
            "outcome": step.outcome,
            "class": step.cls,
            "detail": step.detail[:400],
            "error": step.error[:400],
            "formal": {"verdict": v, "method": m, "reason": why[:300]} if v else None,
            "stage": cand.get("stage"),
            "status": cand.get("status"),
            "accepted": bool(step.data.get("accepted")),
            "log_error": log_errors[name],
            "reason": str(cand.get("reason", ""))[:400],
            "sim": {k: (cand.get("sim") or {}).get(k) for k in ("vectors", "mismatches")}
            if cand.get("sim")
            else None,
            "tools": (step.data.get("reference") or {}).get("provenance", {}).get("tools"),
        }
    return record


# ---------------------------------------------------------------------------- reporting


def _cell(rec: Mapping[str, Any], name: str) -> str:
    s = rec["steps"][name]
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
        f = rec["steps"][name].get("formal")
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
        return sum(1 for r in records if pred(r["steps"][name]))

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
        "rare_cases": sum(1 for r in records if r["rare"]),
        "broken_weak_names": [
            f"{r['module']}" + (" (rare)" if r["rare"] else "")
            for r in records
            if _is_weak(r["steps"]["broken"]["class"])
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
            s = r["steps"][name]
            if not s["class"] or (
                name == "broken" and s["class"] in ("sim mismatch", "formal refuted")
            ):
                continue
            cls = s["class"]
            seen[cls] += 1
            line = s["detail"] or s["error"]
            example.setdefault(cls, f"{r['repo']}/{r['module']} {name}: {line}")
    return [(c, k, example[c]) for c, k in seen.most_common()]


def render(records: Sequence[Mapping[str, Any]], meta: Mapping[str, Any]) -> str:
    lines = [
        f"# rtlopt on real repositories ({meta.get('date', '')})",
        "",
        f"rtlopt {meta.get('commit', '')}, PDK {meta.get('pdk')}, default settings "
        f"(proof required), tools: {meta.get('tools')}",
        "",
        "| module | kind | inspect | self | equivalent | broken | formal (e: equiv, b: broken)"
        " | s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        secs = sum(s["seconds"] for s in r["steps"].values())
        kind = r["kind"] + (" (rare bug)" if r["rare"] else "")
        lines.append(
            f"| {r['repo']}/{r['module']} | {kind} | {_cell(r, 'inspect')} | "
            f"{_cell(r, 'self')} | {_cell(r, 'equiv')} | {_cell(r, 'broken')} | "
            f"{_formal_cell(r)} | {secs:.0f} |"
        )
    s = summarize(records)
    n = s["cases"]
    lines += [
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--repos-path",
        type=Path,
        default=None,
        help="folder holding picorv32/ serv/ ibex/ cv32e40p/ "
        "(default: $RTLOPT_BENCH_PATH/repos or ../shared/bench/repos)",
    )
    ap.add_argument(
        "--out",
        type=Path,
        default=REPO / ".rtlopt" / "bench" / "repos",
        help="results, logs and repository copies (default: .rtlopt/bench/repos)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="cases run in parallel")
    ap.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="glob patterns on REPO/MODULE (e.g. 'serv/*' '*/ibex_alu')",
    )
    ap.add_argument("--rerun", action="store_true", help="ignore stored per-case results")
    ap.add_argument("--pdk", default="nangate45")
    ap.add_argument(
        "--timeout",
        type=float,
        default=1800.0,
        help="the benchmark's own limit per command, seconds",
    )
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument(
        "--report-only",
        action="store_true",
        help="render the table from stored results without running anything",
    )
    args = ap.parse_args(argv)

    cases = load_cases()
    if args.only:
        cases = [c for c in cases if any(fnmatch.fnmatch(c.name, p) for p in args.only)]
    if args.list:
        for c in cases:
            print(f"{c.name:<40} {c.kind:<40} {c.target}")
        return 0
    src_root = (args.repos_path or default_repos_path()).resolve()
    out: Path = args.out.resolve()
    results = out / "results"
    results.mkdir(parents=True, exist_ok=True)

    def stored(c: Case) -> dict[str, Any] | None:
        f = results / f"{c.repo}__{c.module}.json"
        if args.rerun or not f.is_file():
            return None
        try:
            rec: dict[str, Any] = json.loads(f.read_text())
        except ValueError:
            return None
        return rec if rec.get("format") == FORMAT else None

    todo = [c for c in cases if stored(c) is None]
    commit = product_version()
    if todo and not args.report_only:
        missing = sorted({c.repo for c in todo if not repo_source(src_root, c.repo).is_dir()})
        if missing:
            print(
                f"repositories not found under {src_root}: {', '.join(missing)} "
                "(pass --repos-path or set RTLOPT_BENCH_PATH)",
                file=sys.stderr,
            )
            return 2
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        }
        env.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
        # WebAssembly Yosys compiled to machine code (minutes, once per machine) is not a
        # result: every case's fresh cache folder would compile it again
        env.setdefault(
            "YOWASP_CACHE_DIR",
            os.path.join(
                os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "YoWASP"
            ),
        )
        roots = {
            r: prepare_repo(repo_source(src_root, r), out / "work" / r)
            for r in sorted({c.repo for c in todo})
        }
        heads = {r: _git(p, "rev-parse", "HEAD").strip() for r, p in roots.items()}
        print(
            f"{len(todo)} case(s) to run, {len(cases) - len(todo)} stored; jobs {args.jobs}",
            flush=True,
        )
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futs = {
                pool.submit(
                    run_case,
                    c,
                    roots[c.repo],
                    out,
                    {**env, **repo_env(c.repo, roots[c.repo])},
                    args.pdk,
                    args.timeout,
                ): c
                for c in todo
            }
            for fut in as_completed(futs):
                c = futs[fut]
                rec = fut.result()
                rec["rtlopt_commit"], rec["date"] = commit, time.strftime("%Y-%m-%d %H:%M")
                (results / f"{c.repo}__{c.module}.json").write_text(json.dumps(rec, indent=1))
                secs = sum(s["seconds"] for s in rec["steps"].values())
                print(
                    f"{c.name:<40} "
                    + " ".join(
                        f"{n}={rec['steps'][n]['outcome']}"
                        + (f"[{rec['steps'][n]['class']}]" if rec["steps"][n]["class"] else "")
                        for n in STEPS
                    )
                    + f" {secs:.0f}s",
                    flush=True,
                )
        # Nothing the user owns is modified: the copies must still be clean.
        for repo, path in roots.items():
            dirty = _git(path, "status", "--porcelain").strip()
            if dirty or _git(path, "rev-parse", "HEAD").strip() != heads[repo]:
                print(
                    f"WARNING: the copy of {repo} was modified by rtlopt:\n{dirty}", file=sys.stderr
                )

    records = [r for c in cases if (r := stored_any(results, c)) is not None]
    tools = next((s["tools"] for r in records for s in r["steps"].values() if s.get("tools")), None)
    commits = sorted({str(r.get("rtlopt_commit", "?")) for r in records})
    dates = sorted(str(r.get("date", "?")) for r in records)
    meta = {
        "date": f"{dates[0]} .. {dates[-1]}" if dates else "",
        "pdk": args.pdk,
        "jobs": args.jobs,
        "tools": tools,
        "commit": ", ".join(commits),
        "out": str(out),
    }
    text = render(records, meta)
    (out / "table.md").write_text(text)
    (out / "summary.json").write_text(
        json.dumps(
            {"meta": meta, "summary": summarize(records), "classes": failure_classes(records)},
            indent=1,
        )
    )
    print(text)
    print(f"(results in {out})")
    return 0


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


if __name__ == "__main__":
    sys.exit(main())
