"""Channels a candidate cannot write: where every verdict of the formal engines is read from.

Yosys runs ``$display`` in a design's ``initial`` blocks while it reads the design, so a
candidate can print any line into a Yosys log, including the tools' own success strings and
the phase markers of rtlopt's scripts. No verdict is therefore read from a whole log:

* **Sealed phase markers**: each script run gets a fresh secret (:func:`new_secret`); the
  ``log RTLOPT_PHASE <name>`` lines of its script become ``log RTLOPT_PHASE_<secret> <name>``
  (:func:`seal`) and the log is split only on those (:func:`sealed_phases`). A candidate never
  sees the secret, so it cannot start a phase.
* **Result files**: the commands a verdict depends on run under ``tee -o <secret>_<name>.txt``
  (:func:`tee`), which holds that command's output only (nothing is read from the design while
  it runs); the file is read with :func:`result_text`. A name that was never written, or one
  whose secret does not match, reads as empty: a missing channel never proves anything.
* **Exit status**: a proof also needs the tool to have exited with 0.

Within one result text, failure markers are looked for first (:func:`first_marker`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "MARK",
    "first_marker",
    "new_secret",
    "result_name",
    "result_text",
    "seal",
    "sealed_phases",
    "span",
    "stamp",
    "tee",
]

#: The phase marker of rtlopt's Yosys scripts (sealed with a secret before a run).
MARK = "RTLOPT_PHASE"


def new_secret() -> str:
    """A fresh secret for one tool run (16 hex digits)."""
    return secrets.token_hex(8)


def seal(script: str, secret: str) -> str:
    """``script`` with every ``log RTLOPT_PHASE <name>`` line carrying ``secret``."""
    return re.sub(rf"^log {MARK} ", f"log {MARK}_{secret} ", script, flags=re.M)


def result_name(secret: str, name: str) -> str:
    """The file name of result ``name`` in a run with ``secret``."""
    return f"rtlopt_{secret}_{name}.txt"


def tee(secret: str, name: str, command: str) -> str:
    """The Yosys script line running ``command`` with its output also in a result file."""
    return f"tee -o {result_name(secret, name)} {command}"


def result_text(workdir: Path, secret: str, name: str) -> str:
    """The text of a result file ("" when it was not written)."""
    try:
        return (workdir / result_name(secret, name)).read_text(errors="replace")
    except OSError:
        return ""


def stamp(secret: str, name: str) -> str:
    """A Yosys script line that only writes result file ``name`` (its time is a timestamp
    for :func:`span`)."""
    return f"tee -q -o {result_name(secret, name)} log {name}"


def span(workdir: Path, secret: str, first: str, last: str) -> float:
    """Seconds from result file ``first`` to result file ``last`` being last written (0.0
    when either is missing): the time of the commands between a :func:`stamp` and a
    :func:`tee`."""
    try:
        a = (workdir / result_name(secret, first)).stat().st_mtime
        b = (workdir / result_name(secret, last)).stat().st_mtime
    except OSError:
        return 0.0
    return max(0.0, b - a)


def sealed_phases(text: str, secret: str, known: frozenset[str]) -> dict[str, str]:
    """The log split on the sealed markers of ``secret`` (phase name -> text).

    Text before the first marker is under ``"_start"``. An unsealed marker (what a candidate
    may print) is ordinary text of the phase it appears in.
    """
    out: dict[str, str] = {}
    current = "_start"
    # lines end at "\n" only: a candidate's identifier may hold other line breaks of Python's
    for chunk in re.split(rf"(?m)^{MARK}_{re.escape(secret)} (\w+)[ \t\r]*$", text):
        if chunk in known:
            current = chunk
            continue
        out[current] = out.get(current, "") + chunk
    return out


def first_marker(text: str, failures: Sequence[str], successes: Sequence[str]) -> str:
    """``"fail"`` when any failure marker occurs, else ``"pass"`` when a success marker
    occurs, else ``""`` (failure markers win)."""
    if any(m in text for m in failures):
        return "fail"
    if any(m in text for m in successes):
        return "pass"
    return ""
