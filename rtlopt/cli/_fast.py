"""``rtlopt evaluate`` answered from the evaluation cache before any configuration, parse,
harness or heavy import.

The full command (``rtlopt.cli.evaluate``) keeps a memo (:mod:`rtlopt.inputs`) under its
command line, working folder, environment and interpreter: the evaluation cache folder it
answered from and everything that folder's fingerprint was made from, as observations (the
configuration files and the upward search for them, every repository file the tools read with
the preprocessor's list of what it opens, the folders includes are looked up in, the source
tree, every file of the repository whatever its name (the repository rules read them all: a
Makefile may compile a ``probe.txt``), the PDK's files, the tools' binaries, rtlopt's own files
and the modules the command loaded). The same command again is answered here when every
observation gives the same value and the cache folder holds the reference's result and the
candidate's, by the candidate's exact bytes: the answer the full command would give from the
same cache. Anything else (no memo, an input that changed, a candidate not judged yet, a result
that does not read back) runs the full command, which keeps the memo again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rtlopt.evaluate import CacheInputs
    from rtlopt.session import Evaluation, TargetSpec

__all__ = [
    "answer_evaluate",
    "note_command",
    "observe_command",
    "remember_evaluate",
    "wants_memo",
]

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
    h = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    ref, res = _reference(folder, str(memo["target_hash"])), _result(folder / f"{h}.json", h)
    if ref is None or res is None:
        return None
    binaries, liberty = dict(memo["binaries"]), memo["liberty"]
    ref = served(ref, binaries, liberty)
    res = {**served(res, binaries, liberty), "duration_s": time.monotonic() - start}
    accepted = res["status"] == "ok"
    if res["logs"].get("trace") or not memo["json"]:
        return _shown(memo, ref, res), int(not accepted)
    out = {
        "reference": ref,
        "candidate": res,
        "metric": memo["metric"],
        "accepted": accepted,
        "scope": res["scope"],
        "configurations": list(res["configurations"]),
        "workdir": None,
    }
    text = json.dumps(out, indent=2, default=str) + "\n"
    return functools.partial(_write, text), int(not accepted)


def served(entry: Mapping[str, Any], binaries: Mapping[str, str], liberty: Any) -> dict[str, Any]:
    """A stored result (``EvalResult.to_json``) as the evaluator serves it from the cache:
    ``EvalResult.served_from_cache`` on the JSON form (the test holds the two together)."""
    prov = dict(entry["provenance"])
    if "binaries" in prov:
        prov["binaries"] = {**prov["binaries"], **binaries}
    if isinstance(prov.get("flow"), dict) and liberty is not None:
        prov["flow"] = {**prov["flow"], "liberty": liberty}
    return {**entry, "cached": True, "provenance": prov}


def _write(text: str) -> None:
    sys.stdout.write(text)


def _shown(memo: Mapping[str, Any], ref: dict[str, Any], res: dict[str, Any]) -> Callable[[], None]:
    """The table, or a result with a waveform to keep: through the result types (loaded only
    here) as the full command does."""

    def show() -> None:
        from rtlopt.results import EvalResult, keep_trace

        r, c = EvalResult.from_json(ref), keep_trace(EvalResult.from_json(res))
        if not memo["json"]:
            from rtlopt.cli._evaluate_table import print_table

            print_table(str(memo["target"]), r, c, str(memo["metric"]), None)
            return
        out = {
            "reference": r.to_json(),
            "candidate": c.to_json(),
            "metric": memo["metric"],
            "accepted": c.accepted,
            "scope": c.scope,
            "configurations": list(c.configurations),
            "workdir": None,
        }
        _write(json.dumps(out, indent=2, default=str) + "\n")

    return show


def _candidate_text(path: str) -> str | None:
    """The candidate as the full command reads it, or None when it is not a regular file."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        data = Path(path).read_bytes()
        text = data.decode("utf-8")  # not UTF-8: the full command says why (a usage error)
    except (OSError, UnicodeDecodeError):
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _reference(folder: Path, target_hash: str) -> dict[str, Any] | None:
    """The reference's stored result where the evaluator would serve it
    (``evaluate._reference``), else None."""
    try:
        entry = json.loads((folder / "reference.json").read_text())
        gold, gold_text = entry["netlist_gold"], entry["netlist_gold_text"]
        str(entry["netlist_note"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if gold is not None and gold_text is None and Path(str(gold)).name != "reference.v":
        return None
    return _checked(entry.get("result"), target_hash)


def _result(path: Path, h: str) -> dict[str, Any] | None:
    """The candidate's stored result, else None; one accepted on a proof only with the second
    proof's agreement stored beside it (``formal.second``): a result stored without it, as a
    search stores one, gets it in the full command."""
    try:
        entry = _checked(json.loads(path.read_text()), h)
    except (OSError, ValueError):
        return None
    formal = entry.get("formal") if entry is not None else None
    if entry is not None and entry["status"] == "ok" and isinstance(formal, dict):
        second = formal.get("second")
        if formal.get("verdict") == "proven" and not (
            isinstance(second, dict) and second.get("agrees") is True
        ):
            return None
    return entry


#: What a stored result must hold to be served here (the evaluator reads it through
#: ``EvalResult.from_json``; the memo is kept only when that reads its entries back as
#: they are). A timeout or tool crash is never stored, nor served.
_FIELDS = ("status", "stage", "source_hash", "provenance", "logs", "scope", "configurations")
_SERVED_STATUS = ("ok", "invalid")


def _checked(entry: Any, h: str) -> dict[str, Any] | None:
    if not isinstance(entry, dict) or any(k not in entry for k in _FIELDS):
        return None
    if entry["status"] not in _SERVED_STATUS or entry["source_hash"] != h:
        return None
    if not isinstance(entry["provenance"], dict) or not isinstance(entry["logs"], dict):
        return None
    return entry


def observe_command(
    spec: TargetSpec, config_files: Sequence[Path]
) -> list[tuple[str, str, str]] | None:
    """The command's own inputs with their values, right after the target was opened: where
    its paths lead, the configuration files and their upward search; None when a
    configuration file it read is gone already (no memo then)."""
    from rtlopt.config import config_observations
    from rtlopt.inputs import observe_all

    observed = observe_all(
        [*_command_observations(spec), *config_observations(spec.file.resolve(), spec.config_file)]
    )
    present = {a for k, a, v in observed if k == "bytes" and v != "absent"}
    return observed if all(str(f) in present for f in config_files) else None


def remember_evaluate(
    command: Sequence[tuple[str, str, str]] | None,
    target: str,
    candidate: Path,
    evaluation: Evaluation,
    *,
    kept: bool,
    as_json: bool,
) -> bool:
    """Keep the memo of the command ``main`` runs (a full ``rtlopt evaluate`` that ended with
    both results in the cache): True when kept. ``command``: :func:`observe_command`;
    ``as_json``: the output asked for (as the command line was read)."""
    cache = evaluation.cache
    if not wants_memo() or command is None or cache is None or cache.folder is None:
        return False
    if kept or evaluation.candidate.is_infrastructure_error:
        return False
    import rtlopt
    from rtlopt.inputs import observe_all, python_observations, store_memo

    observed = [
        *command,
        *cache.observations,
        *observe_all(python_observations(Path(rtlopt.__file__).parent)),
    ]
    if not _faithful(evaluation, cache):
        return False
    answer = {**_answer_of(target, candidate, evaluation, cache), "json": as_json}
    return store_memo(str(_COMMAND["key"]), observed, answer, int(_COMMAND["started_ns"]))


def _faithful(evaluation: Evaluation, cache: CacheInputs) -> bool:
    """Whether the stored results, served here, read as the full command's (the time taken,
    the cached mark and a waveform's paths aside), and read back through the result types as
    they are."""
    from rtlopt.results import EvalResult

    assert cache.folder is not None
    ref, cand = evaluation.reference, evaluation.candidate
    pairs = (
        (_reference(cache.folder, ref.source_hash), ref),
        (_result(cache.folder / f"{cand.source_hash}.json", cand.source_hash), cand),
    )
    for entry, made in pairs:
        if entry is None or _plain(EvalResult.from_json(entry).to_json()) != _plain(entry):
            return False
        mine = _plain(served(entry, cache.binaries, cache.liberty))
        theirs = _plain(made.to_json())
        for d in (mine, theirs):
            for k in ("cached", "duration_s", *(("logs",) if made.logs.get("trace") else ())):
                d.pop(k, None)
        if mine != theirs:
            return False
    return True


def _plain(d: Any) -> Any:
    return json.loads(json.dumps(d, default=str))


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
