"""``rtlopt evaluate`` answered from the evaluation cache before any configuration, parse,
harness or heavy import.

The full command (``rtlopt.cli.evaluate``) keeps a memo (:mod:`rtlopt.inputs`) under its
command line, working folder, environment and interpreter: the evaluation cache folder it
answered from and everything that folder's fingerprint was made from, as observations (the
configuration files and the upward search for them, every repository file the tools read
with the preprocessor's list of what it opens, the folders includes are looked up in, the
source tree, the PDK's files, the tools' binaries, rtlopt's own files and the modules the
command loaded). The same command again is answered here when every observation gives the
same value and the cache folder holds the reference's result and the candidate's, by the
candidate's exact bytes: the answer the full command would give from the same cache. Anything
else (no memo, an input that changed, a candidate not judged yet, a result that does not read
back) runs the full command, which keeps the memo again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rtlopt.evaluate import CacheInputs
    from rtlopt.results import EvalResult
    from rtlopt.session import Evaluation, TargetSpec

__all__ = ["answer_evaluate", "note_command", "remember_evaluate", "wants_memo"]

_COMMAND: dict[str, Any] = {}
_KIND = "evaluate"


def note_command(argv: Sequence[str]) -> None:
    """The command ``main`` runs: its key (made now, before anything changes the environment)
    and when it started (a memo is kept only for inputs that did not change since)."""
    from rtlopt.inputs import command_key

    _COMMAND.clear()
    _COMMAND.update(
        argv=list(argv),
        started_ns=time.time_ns(),
        key=command_key(argv, os.getcwd(), os.environ),
    )


def wants_memo() -> bool:
    """Whether the running command is an ``rtlopt evaluate`` that ``main`` noted (a memo is
    kept only for a command line it can be found under again)."""
    return bool(_COMMAND) and _COMMAND["argv"][:1] == [_KIND]


def answer_evaluate(argv: Sequence[str]) -> int | None:
    """Print the answer and return the exit code, or None when the full command must run."""
    start = time.monotonic()
    try:
        found = _answer(argv, start)
    except Exception:  # noqa: BLE001 - the full command answers (and reports) instead
        return None
    if found is None:
        return None
    show, code = found
    show()
    return code


def _answer(argv: Sequence[str], start: float) -> tuple[Callable[[], None], int] | None:
    """What prints the full command's output, and its exit code, from the memo and the cache;
    None when the full command must run."""
    from rtlopt.inputs import load_memo

    if _COMMAND.get("argv") != list(argv):
        return None
    memo = load_memo(str(_COMMAND["key"]))
    if memo is None or memo.get("command") != _KIND:
        return None
    text = _candidate_text(str(memo["candidate"]))
    if text is None:
        return None
    folder = Path(str(memo["folder"]))
    ref = _reference(folder, str(memo["target_hash"]))
    h = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    res = _result(folder / f"{h}.json", h)
    if ref is None or res is None:
        return None
    import dataclasses

    binaries, liberty = dict(memo["binaries"]), memo["liberty"]
    ref = ref.served_from_cache(binaries, liberty)
    res = res.served_from_cache(binaries, liberty)
    res = dataclasses.replace(res, duration_s=time.monotonic() - start)
    code = 0 if res.accepted else 1
    if res.logs.get("trace"):  # the scratch folder goes: the counterexample's waveform stays
        from rtlopt.evaluate import keep_trace

        res = keep_trace(res)
    if "--json" not in argv:
        return functools.partial(_table, str(memo["target"]), ref, res, str(memo["metric"])), code
    out = {
        "reference": ref.to_json(),
        "candidate": res.to_json(),
        "metric": memo["metric"],
        "accepted": res.accepted,
        "scope": res.scope,
        "configurations": list(res.configurations),
        "workdir": None,
    }
    text = json.dumps(out, indent=2, default=str) + "\n"
    return functools.partial(_write, text), code


def _write(text: str) -> None:
    sys.stdout.write(text)


def _candidate_text(path: str) -> str | None:
    """The candidate as the full command reads it, or None when it is not a regular file."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        return Path(path).read_text(errors="replace")
    except OSError:
        return None


def _reference(folder: Path, target_hash: str) -> EvalResult | None:
    """The reference's result as the evaluator reads it (``evaluate._reference``), or None
    where the evaluator would not serve it."""
    from rtlopt.results import EvalResult

    try:
        entry = json.loads((folder / "reference.json").read_text())
        ref = EvalResult.from_json(entry["result"])
        gold, gold_text = entry["netlist_gold"], entry["netlist_gold_text"]
        str(entry["netlist_note"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if gold is not None and gold_text is None and Path(str(gold)).name != "reference.v":
        return None
    return ref if ref.source_hash == target_hash else None


def _result(path: Path, h: str) -> EvalResult | None:
    from rtlopt.results import EvalResult

    try:
        res = EvalResult.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return res if res.source_hash == h and not res.is_infrastructure_error else None


def _table(name: str, ref: EvalResult, res: EvalResult, metric: str) -> None:
    """The full command's table (rich and the command's module load only here)."""
    from rtlopt.cli import evaluate as command

    command._print_table(name, ref, res, metric, None)


def remember_evaluate(
    spec: TargetSpec, target: str, candidate: Path, evaluation: Evaluation, kept: bool
) -> bool:
    """Keep the memo of the command ``main`` runs (a full ``rtlopt evaluate`` that ended with
    both results in the cache): True when kept."""
    cache = evaluation.cache
    if not wants_memo() or cache is None or cache.folder is None:
        return False
    if kept or evaluation.candidate.is_infrastructure_error:
        return False
    import rtlopt
    from rtlopt.config import config_observations
    from rtlopt.inputs import python_observations, store_memo

    observed = [
        *_command_observations(spec),
        *config_observations(spec.file.resolve(), spec.config_file),
        *cache.observations,
        *python_observations(Path(rtlopt.__file__).parent),
    ]
    answer = _answer_of(target, candidate, evaluation, cache)
    return store_memo(str(_COMMAND["key"]), observed, answer, int(_COMMAND["started_ns"]))


def _command_observations(spec: TargetSpec) -> list[tuple[str, str]]:
    """Where the paths of the command line lead (relative ones from the working folder)."""
    paths = [spec.file, *spec.include_dirs]
    if spec.liberty is not None:
        paths.append(spec.liberty)
    out = [("real", str(p)) for p in paths]
    if spec.liberty is not None:
        out.append(("bytes", str(spec.liberty)))
    return out


def _answer_of(
    target: str, candidate: Path, evaluation: Evaluation, cache: CacheInputs
) -> dict[str, Any]:
    return {
        "command": _KIND,
        "folder": str(cache.folder),
        "candidate": str(candidate),
        "target_hash": evaluation.reference.source_hash,
        "target": target,
        "metric": evaluation.metric,
        "binaries": cache.binaries,
        "liberty": cache.liberty,
    }
