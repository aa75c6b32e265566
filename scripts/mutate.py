#!/usr/bin/env python3
"""Mutation testing for the team: inject known bugs into a copy of the tree, expect red tests.

Each mutation below is a one-line bug in the product (a sign flip, a removed rule). For each,
the script copies the working tree (tracked and untracked, not ignored files) into a
temporary folder, applies the mutation there (the working tree is never touched), runs the
tests that claim to cover the rule, and expects them to FAIL. A mutation the tests do not catch
is reported as SURVIVED. The unmutated copy runs the same tests first and must pass (so a red
result is the mutation's doing). Tests run with ``RTLOPT_REQUIRE_TOOLS=1``: a skip cannot pass
for green.

    scripts/mutate.sh                 # all mutations, markdown table on stdout
    scripts/mutate.sh --only puct-greedy,loop-advantage-sign
    scripts/mutate.sh --list

Exit 0 when every mutation is caught; 1 when one survives or its site is no longer found (the
product changed: update the pattern in MUTATIONS); 2 when the baseline is not green.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutation:
    """A bug: replace the single match of ``pattern`` in ``path`` by ``replacement``."""

    id: str
    bug: str
    path: str
    pattern: str
    replacement: str
    tests: tuple[str, ...]


MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "policy-advantage-sign",
        "TransformersPolicy.update flips the sign of the advantage",
        "rtlopt/policy/_transformers.py",
        r"TokenizedSample\(p_ids, c_ids, float\(s\.advantage\), lps, forced\)",
        "TokenizedSample(p_ids, c_ids, -float(s.advantage), lps, forced)",
        (
            "tests/integration/test_policy_transformers.py::test_one_update_raises_positive_and_lowers_negative_sample",
            "tests/integration/test_policy_transformers.py::test_advantage_sign_alone_sets_the_direction",
        ),
    ),
    Mutation(
        "evaluator-accepts-unknown",
        'the evaluator no longer rejects a formal verdict of "unknown"',
        "rtlopt/evaluate/_stages.py",
        r"formal\.verdict is not Verdict\.PROVEN and cfg\.formal\.require_proof",
        "False",
        ("tests/e2e/test_proof_rule.py",),
    ),
    Mutation(
        "puct-greedy",
        "PUCT ordered by reward alone (exploration term ignored)",
        "rtlopt/search/_samplers.py",
        r"ordered = \[x\.state for x in puct_scores\(pool, self\.cfg\.puct_c\)\]",
        "ordered = _by_reward(pool)",
        ("tests/unit/search",),
    ),
    Mutation(
        "puct-no-bonus",
        "the PUCT score drops its exploration bonus",
        "rtlopt/search/_samplers.py",
        r"ScoredState\(s, s\.q, prior, bonus, s\.q \+ bonus\)",
        "ScoredState(s, s.q, prior, bonus, s.q)",
        ("tests/unit/search",),
    ),
    Mutation(
        "loop-advantage-sign",
        "the run loop flips the sign of the advantage",
        "rtlopt/run/_loop.py",
        r"advantage=adv if used else 0\.0,",
        "advantage=-adv if used else 0.0,",
        ("tests/integration/test_loop_advantages.py",),
    ),
    Mutation(
        "loop-trains-on-cut-off-answers",
        "answers cut off at the token limit enter the loss (no overlong filtering)",
        "rtlopt/run/_loop.py",
        r"return c\.truncated and \(mode == \"all\"",
        'return False and (mode == "all"',
        ("tests/unit/run/test_optimizer_fake.py",),
    ),
    Mutation(
        "step-scores-forced-tokens",
        "the tokens the think budget wrote into an answer enter the loss",
        "rtlopt/train/_step.py",
        r"cmask\[i, p - 1 \+ k\] = 0\.0",
        "cmask[i, p - 1 + k] = 1.0",
        ("tests/unit/policy/test_thinking.py", "tests/unit/policy/test_vllm_fake.py"),
    ),
    Mutation(
        "no-ppa-ties",
        "answers within the noise floor keep their own rewards",
        "rtlopt/train/_ties.py",
        r"            out\[i\] = mean",
        "            out[i] = rewards[i]",
        ("tests/unit/train/test_train_ties.py", "tests/unit/run/test_optimizer_fake.py"),
    ),
    Mutation(
        "no-lineage-blocking",
        "samplers stop blocking states of one lineage",
        "rtlopt/search/_samplers.py",
        r"if blocking and not s\.is_root",
        "if False and not s.is_root",
        ("tests/unit/search",),
    ),
    Mutation(
        "no-drivers-check",
        "the drivers check no longer rejects a candidate with more conflicting drivers",
        "rtlopt/formal/vacuity.py",
        r"    if not worse:",
        "    if True:",
        ("tests/integration/test_formal_verdict_hostile.py",),
    ),
    Mutation(
        "no-witness",
        "a proof is taken without a witness trace of its assumptions",
        "rtlopt/formal/logparse.py",
        r'    if state == "pass":',
        "    if True:",
        ("tests/unit/formal/test_verdict_channels.py",),
    ),
    Mutation(
        "no-aig-witness",
        "a proof of the AIG miter is taken without simulating it",
        "rtlopt/formal/vacuity.py",
        r"        if any\(get\(o\) for o in aig\.outputs\):",
        "        if False:",
        ("tests/unit/formal/test_verdict_channels.py",),
    ),
    Mutation(
        "verdict-from-log",
        "the SAT miter's verdict is read from the Yosys log, not from its result files",
        "rtlopt/formal/engines/sat.py",
        r"\{name: result_text\(wd, job\.secret, name\) for name in RESULTS\}",
        "{name: text for name in RESULTS}",
        ("tests/integration/test_formal_verdict_hostile.py",),
    ),
    Mutation(
        "unsealed-markers",
        "phase markers are taken without the run's secret",
        "rtlopt/formal/channel.py",
        r"\^\{MARK\}_\{re\.escape\(secret\)\} ",
        r"^{MARK}(?:_\w+)? ",
        ("tests/unit/formal/test_verdict_channels.py",),
    ),
    Mutation(
        "abc-empty-cex-unknown",
        "ABC's failure without a counterexample becomes unknown",
        "rtlopt/formal/engines/abc.py",
        r"            Verdict\.REFUTED,\n            method,\n            \"ABC found",
        '            Verdict.UNKNOWN,\n            method,\n            "ABC found',
        ("tests/integration/test_formal_verdict_hostile.py",),
    ),
    Mutation(
        "no-top-k",
        "the pool admits every child (top-k ignored)",
        "rtlopt/search/_pool.py",
        r"if len\(admitted\) >= self\.cfg\.top_k:",
        "if False:",
        ("tests/unit/search",),
    ),
    Mutation(
        "sandbox-off",
        "candidate tools never run in the bubblewrap sandbox (the policy is read as off)",
        "rtlopt/tools/_sandbox.py",
        r'if sandbox_policy\(\) == "off":\n        return list\(argv\)',
        "if True:\n        return list(argv)",
        ("tests/integration/test_sandbox.py",),
    ),
    Mutation(
        "sandbox-run-tool-bypass",
        "run_tool starts every tool outside the sandbox",
        "rtlopt/tools/_runner.py",
        r"    if sandbox:\n        # inside bubblewrap",
        "    if False:\n        # inside bubblewrap",
        ("tests/integration/test_sandbox.py",),
    ),
    Mutation(
        "sandbox-network",
        "the sandbox keeps the network (no --unshare-net)",
        "rtlopt/tools/_sandbox.py",
        r'"--unshare-net",\n',
        "",
        ("tests/integration/test_sandbox.py",),
    ),
    Mutation(
        "sandbox-abc-server",
        "the long-lived ABC runs outside the sandbox",
        "rtlopt/eda/_abcserver.py",
        r"argv = sandboxed\(argv, \[self\.workdir\], die_with_parent=False\)",
        "argv = list(argv)",
        ("tests/integration/test_sandbox.py",),
    ),
    Mutation(
        "sandbox-sta-worker",
        "the long-lived OpenSTA runs outside the sandbox",
        "rtlopt/eda/_worker.py",
        r"argv = sandboxed\(\n\s*self\.sta\.argv\(\"-no_init\", \"-no_splash\"\), "
        r"\[self\.log_path\.parent\], die_with_parent=False\n\s*\)",
        'argv = self.sta.argv("-no_init", "-no_splash")',
        ("tests/integration/test_sandbox.py",),
    ),
    Mutation(
        "abc-client-pasted-path",
        "the ABC client script pastes its request FIFO's path into /bin/sh text",
        "rtlopt/eda/_abcserver.py",
        r"self\.client\.write_text\(_CLIENT\)",
        "self.client.write_text(_CLIENT.replace('q=\"${0%/*}/requests\"', f'q=\"{self._req}\"'))",
        ("tests/integration/test_hostile_paths.py",),
    ),
    Mutation(
        "gitignore-above-runs",
        "the runs folder's .gitignore goes into the first folder of runs_dir (rtl/.gitignore)",
        "rtlopt/session.py",
        r'\(runs / "\.gitignore"\)\.write_text',
        '(root / rel.parts[0] / ".gitignore").write_text',
        ("tests/unit/test_session.py",),
    ),
    Mutation(
        "lexer-python-whitespace",
        "escaped identifiers end at any Python whitespace (a vertical tab hides code)",
        "rtlopt/verilog.py",
        r'ESCAPED_IDENTIFIER = r"\\\\\[\^ \\t\\n\\r\\f\]\+"',
        'ESCAPED_IDENTIFIER = r"\\\\\\S+"',
        ("tests/unit/harness/test_screen_characters.py", "tests/integration/test_lexer_tools.py"),
    ),
    Mutation(
        "screen-control-characters",
        "the screen lets control and non-ASCII characters through outside comments and strings",
        "rtlopt/harness/_screen.py",
        r"    problems \+= character_problems\(text, code, lambda: _reference_texts\(design\)\)\n",
        "",
        ("tests/unit/harness/test_screen_characters.py",),
    ),
    Mutation(
        "fingerprint-no-liberty",
        "the evaluator's fingerprint drops the liberty checksum (stale PPA after a new liberty)",
        "rtlopt/evaluate/_cache.py",
        r'"liberty_md5": getattr\(pdk, "md5", None\),',
        '"liberty_md5": None,',
        ("tests/integration/test_cache_liberty.py",),
    ),
    Mutation(
        "check-tool-error-as-note",
        "rtlopt check files a tool error under notes: the module passes (exit 0)",
        "rtlopt/check/_check.py",
        r'mc\.findings\.append\(f"could not check the change to \{rel\}: \{res\.reason\}"\)'
        r"\n        mc\.tool_error = True",
        'mc.notes.append(f"could not check the change to {rel}: {res.reason}")',
        ("tests/e2e/test_check_tool_errors.py",),
    ),
    Mutation(
        "xpolicy-candidate-x",
        "the testbench's X policy lets a candidate x stand for a defined reference bit",
        "rtlopt/harness/_testbench.py",
        r"ref_\{p\.name\}\[k_\] !== 1'bx\) \"",
        "ref_{p.name}[k_] !== 1'bx) && cand_{p.name}[k_] !== 1'bx \"",
        ("tests/integration/test_x_policy_simulation.py",),
    ),
    Mutation(
        "reset-by-name",
        "a name makes a synchronous reset again (an input named rst used as data is forced)",
        "rtlopt/frontend/_clocks.py",
        r"and blk\.forces_constants\n",
        "and (blk.forces_constants or is_reset_name(cond.signal))\n",
        (
            "tests/unit/frontend/test_frontend_clocks.py",
            "tests/integration/test_semantics_models.py",
        ),
    ),
    Mutation(
        "reset-name-fallback",
        "every reset-like input of a clocked module is a reset, used as data or not",
        "rtlopt/frontend/_clocks.py",
        r"for name in _opaque_only\(roles\.inputs, connections, submodule, text\):",
        "for name in roles.inputs:",
        (
            "tests/unit/frontend/test_frontend_clocks.py",
            "tests/integration/test_semantics_models.py",
        ),
    ),
    Mutation(
        "initial-values-simulated",
        "simulation keeps initial values the formal check drops (two power-up models)",
        "rtlopt/harness/_semantics.py",
        r"spans = sorted\(\{s for _, s in _spans\(text\)\}\)",
        "spans: list[tuple[int, int]] = []",
        ("tests/integration/test_semantics_models.py",),
    ),
    Mutation(
        "event-lists-unchecked",
        "an incomplete event list is no longer rejected (the slang view makes it combinational)",
        "rtlopt/evaluate/_evaluator.py",
        r"violations \+= event_violations\(text, self\.design\.target\.text\(\)\)",
        "violations += []",
        ("tests/integration/test_semantics_models.py",),
    ),
    Mutation(
        "parameters-defaults-only",
        "the candidate is checked under the default parameters only",
        "rtlopt/evaluate/_pipeline.py",
        r"if equivalence and s\.config\.harness\.parameterizations and self\._params is not None:",
        "if False:",
        ("tests/integration/test_semantics_models.py",),
    ),
    Mutation(
        "identical-views",
        '"identical source" compares the slang views, not the candidate\'s own bytes',
        "rtlopt/formal/check.py",
        r"own = source if source is not None else",
        "own = None or",
        ("tests/integration/test_semantics_models.py",),
    ),
    Mutation(
        "reference-reconstructed",
        "the reference is rebuilt from directive lines, not the preprocessed unit (reading order)",
        "rtlopt/evaluate/_setup.py",
        r"ref_body = unit\.reference_text\(\)",
        "ref_body = reference_text(design)",
        ("tests/integration/test_one_text.py",),
    ),
    Mutation(
        "drivers-one-spare",
        "a net of the candidate may carry one driver more than the reference's",
        "rtlopt/formal/drivers.py",
        r"        if n > ref:",
        "        if n > ref + 1:",
        ("tests/unit/formal/test_drivers.py", "tests/integration/test_two_drivers.py"),
    ),
    Mutation(
        "second-proof-agrees",
        "the second proof's ABC status is taken as proven without running it",
        "rtlopt/formal/second.py",
        r"status = _abc_status\(out, engine, left, workdir\)",
        'status = "snl_UNSAT"',
        ("tests/integration/test_formal_second.py", "tests/integration/test_second_proof_keep.py"),
    ),
    Mutation(
        "second-proof-one-model",
        "the second proof covers only the unknown power-up model under ignore",
        "rtlopt/formal/second.py",
        r'return \(STATED,\) if plan\.honor else \("unknown", STATED\)',
        'return (STATED,) if plan.honor else ("unknown",)',
        ("tests/integration/test_formal_second.py", "tests/integration/test_second_proof_keep.py"),
    ),
    Mutation(
        "ignore-stated-alone",
        "under ignore only the proof from the stated power-up values runs",
        "rtlopt/formal/power_up_models.py",
        r"    if job\.plan\.honor:",
        "    if True:",
        ("tests/integration/test_formal_stated_power_up.py",),
    ),
    Mutation(
        "simulator-reading-unjudged",
        "a change that reads otherwise only in a simulator's reading passes",
        "rtlopt/evaluate/_sim_reading.py",
        r"        if ref\.tokens == cand\.tokens:",
        "        if True:",
        (
            "tests/unit/evaluate/test_sim_reading.py",
            "tests/integration/test_redteam_w29_simulators.py",
        ),
    ),
    Mutation(
        "dormant-branches-unjudged",
        "a branch no reading takes is never judged",
        "rtlopt/harness/_dormant.py",
        r"    if dormant:\n        name, line = min\(dormant\)",
        "    if False:\n        name, line = min(dormant)",
        ("tests/unit/harness/test_redteam_w29_readings.py",),
    ),
    Mutation(
        "translate-off-unlimited",
        "a candidate's translate_off region need not repeat one of the reference's",
        "rtlopt/harness/_translate_off.py",
        r"            if used\[content\] > limit\[content\]:",
        "            if False:",
        ("tests/unit/harness/test_screen_translate_off.py",),
    ),
    Mutation(
        "two-state-no-value",
        "2-state variables are taken as 4-state (no power-up value 0)",
        "rtlopt/harness/_two_state.py",
        r"    if k in _TWO_STATE_KINDS:\n        return \"2\"",
        '    if k in _TWO_STATE_KINDS:\n        return "4"',
        ("tests/unit/harness/test_two_state_power_up.py",),
    ),
)


def tree_files(repo: Path) -> list[str]:
    """Tracked and untracked (not ignored) files of the working tree."""
    out = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted({f for f in out.stdout.split("\0") if f and (repo / f).is_file()})


def copy_tree(repo: Path, dest: Path) -> None:
    for f in tree_files(repo):
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / f, dest / f)


def apply(m: Mutation, root: Path) -> str:
    """Mutate the copy; returns "" or why the site was not found."""
    f = root / m.path
    if not f.is_file():
        return f"{m.path} not found"
    text = f.read_text()
    hits = len(re.findall(m.pattern, text))
    if hits != 1:
        return f"pattern matches {hits} times in {m.path}"
    f.write_text(re.sub(m.pattern, lambda _: m.replacement, text))
    return ""


def run_tests(root: Path, tests: Sequence[str], log: Path) -> tuple[int, float]:
    """pytest on the copy (its own code on PYTHONPATH); (exit code, seconds)."""
    shared = REPO.parent / "shared"
    env = {**os.environ, "PYTHONPATH": str(root), "RTLOPT_REQUIRE_TOOLS": "1"}
    env.setdefault("RTLOPT_BENCH_PATH", str(shared / "bench"))
    env.setdefault("RTLOPT_PDK_PATH", str(shared / "pdk"))
    t0 = time.monotonic()
    with log.open("w") as fh:
        rc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
            cwd=root,
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
        ).returncode
    return rc, time.monotonic() - t0


def _failed_tests(log: Path) -> str:
    names = re.findall(r"^(?:FAILED|ERROR) (\S+)", log.read_text(errors="replace"), re.M)
    return ", ".join(n.split("/")[-1] for n in names)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated mutation ids")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--no-baseline", action="store_true", help="skip the run of the unmutated copy")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    args = ap.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or m.id in args.only.split(",")]
    if args.list or not chosen:
        for m in MUTATIONS:
            print(f"{m.id:28s} {m.bug} ({m.path}; tests: {', '.join(m.tests)})")
        return 0 if chosen else 2
    work = Path(tempfile.mkdtemp(prefix="rtlopt-mutate-"))
    status = 0
    try:
        if not args.no_baseline:
            base = work / "baseline"
            copy_tree(REPO, base)
            tests = sorted({t for m in chosen for t in m.tests})
            rc, secs = run_tests(base, tests, work / "baseline.log")
            print(
                f"baseline (unmutated copy): {'green' if rc == 0 else f'RED (exit {rc})'} "
                f"in {secs:.0f}s: {' '.join(tests)}",
                flush=True,
            )
            if rc != 0:
                print((work / "baseline.log").read_text()[-3000:])
                return 2
        print("\n| mutation | bug injected | tests run | result | failing tests | time |")
        print("|---|---|---|---|---|---|")
        for m in chosen:
            root = work / m.id
            copy_tree(REPO, root)
            why = apply(m, root)
            if why:
                result, failing, secs = f"site not found: {why}", "", 0.0
                status = 1
            else:
                log = work / f"{m.id}.log"
                rc, secs = run_tests(root, m.tests, log)
                failing = _failed_tests(log)
                if rc == 1:
                    result = "caught (red)"
                else:
                    result = f"SURVIVED (pytest exit {rc})"
                    status = 1
            print(
                f"| {m.id} | {m.bug} | {', '.join(m.tests)} | {result} | {failing} | {secs:.0f}s |",
                flush=True,
            )
            if not args.keep:
                shutil.rmtree(root, ignore_errors=True)
    finally:
        if args.keep:
            print(f"\ncopies and logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
