"""Yosys's parameter values of the target, compared with slang's.

Yosys reads the repository (``read_verilog -sv`` with its include folders and defines) and
elaborates each top that reaches the target (``hierarchy -top``): every module it derives from
the target (``$paramod\\m\\K=...``, or ``$paramod$<hash>\\m`` for long lists) carries the
values Yosys builds it with, after conversion to the declared types (``write_rtlil``'s
``parameter`` lines). Each must be the values of one of slang's instances of the target: a
read_verilog misreading (``'1`` read as 1, ``'sh8000_0000 >>> n``) or another resolution of
the overrides gives the synthesized design values nobody proved. Where Yosys cannot read the
repository (SystemVerilog it does not support), nothing is compared and a note says so.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["yosys_differences", "yosys_values", "same_value"]

log = logging.getLogger(__name__)

Value = tuple[int, str] | None


def yosys_differences(
    design: Design,
    files: Sequence[Path],
    tops: Sequence[str],
    slang: Sequence[dict[str, Value]],
    *,
    timeout_s: float = 60.0,
) -> tuple[list[str], str]:
    """``(reasons, note)``: each module Yosys derives from the target whose values are those of
    no instance slang elaborates; the note says why nothing was compared (empty if it was)."""
    name = design.target.name
    got = yosys_values(design, files, tops, timeout_s=timeout_s)
    if isinstance(got, str):
        return [], got
    out: list[str] = []
    for values in got.values():
        if any(_matches(values, theirs) for theirs in slang):
            continue
        shown = ", ".join(f"{k}={_show(v)}" for k, v in values.items()) or "no values"
        near = ", ".join(f"{k}={_show(slang[0].get(k))}" for k in values if slang and k in slang[0])
        out.append(
            f"Yosys (read_verilog; hierarchy) elaborates {name} with {shown}, values no "
            "configuration slang elaborates has"
            + (f" (slang: {near}, ...)" if near else "")
            + ": synthesis builds a configuration that is not checked"
        )
    return out, ""


def yosys_values(
    design: Design, files: Sequence[Path], tops: Sequence[str], *, timeout_s: float = 60.0
) -> dict[str, dict[str, Value]] | str:
    """The parameter values of each module Yosys derives from the target under ``tops`` (and
    the target itself when an instance keeps its defaults), reading ``files`` (after the
    design's prelude), or why Yosys gave none."""
    from rtlopt.tools import Limits, require_tool, run_tool, scratch_dir, yosys_id, yosys_read_lines

    files = list(dict.fromkeys([*design.prelude, *files]))
    name = design.target.name
    with scratch_dir(None, "rtlopt_param_yosys_") as wd:
        lines = yosys_read_lines(files, design.include_dirs, design.defines)
        for i, top in enumerate(tops):
            lines += [
                "design -push-copy",
                f"hierarchy -top {yosys_id(top)}",
                f"write_rtlil top{i}.il",
                "design -pop",
            ]
        script = wd / "params.ys"
        script.write_text("\n".join(lines) + "\n")
        try:
            run = run_tool(
                require_tool("yosys").argv("-q", "-s", script),
                cwd=wd,
                log_path=wd / "params.log",
                limits=Limits(timeout_s),
                raise_on_timeout=False,
            )
        except Exception as exc:  # noqa: BLE001 - no Yosys, no sandbox: nothing compared
            return f"Yosys did not run ({exc})"
        if run.timed_out or run.returncode != 0:
            err = next((ln.strip() for ln in run.output().splitlines() if "ERROR" in ln), "")
            why = "timed out" if run.timed_out else err or f"exit {run.returncode}"
            return f"Yosys's read_verilog cannot elaborate the repository ({why})"
        out: dict[str, dict[str, Value]] = {}
        for i in range(len(tops)):
            path = wd / f"top{i}.il"
            if path.exists():
                out.update(_modules(path, name))
        return out


def _modules(path: Path, name: str) -> dict[str, dict[str, Value]]:
    """The target's modules in an RTLIL file, each with its ``parameter`` lines' values."""
    own = re.compile(
        r"(?:\\"
        + re.escape(name)
        + r"|\$paramod(?:\$[0-9a-fA-F]+)?\\"
        + re.escape(name)
        + r"(?:\\.*)?)"
    )
    out: dict[str, dict[str, Value]] = {}
    current: dict[str, Value] | None = None
    for line in path.read_text(errors="replace").splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "module":
            current = {} if own.fullmatch(line.strip()[len("module ") :]) else None
            if current is not None:
                out[line.strip()[len("module ") :]] = current
        elif words[0] == "end":
            current = None
        elif current is not None and line.startswith("  parameter "):  # not a cell's
            rest = words[1:]
            if rest and rest[0] == "signed":
                rest = rest[1:]
            if rest:
                value = line.split(rest[0], 1)[1].strip()
                current[rest[0].lstrip("\\")] = parse_const(value)
    return out


def parse_const(text: str) -> Value:
    """An RTLIL constant as ``(width, bits)``: ``8'0101...``, a string, a 32-bit integer."""
    m = re.fullmatch(r"(\d+)'([01xzm-]*)", text)
    if m:
        width, bits = int(m.group(1)), m.group(2).replace("m", "x").replace("-", "x")
        return (width, bits.rjust(width, "0")) if len(bits) <= width else None
    if re.fullmatch(r"-?\d+", text):
        n = int(text) & 0xFFFFFFFF
        return 32, format(n, "032b")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        raw = text[1:-1].encode("latin-1", "replace")
        if not raw:
            return None
        return 8 * len(raw), "".join(format(b, "08b") for b in raw)
    return None


def same_value(ours: Value, theirs: Value) -> bool:
    """Whether two values are one: the same bits, or the same non-negative number (top bit
    clear on both) when the widths differ."""
    if ours is None or theirs is None:
        return False
    (wa, a), (wb, b) = ours, theirs
    if wa == wb:
        return a == b
    if a[:1] != "0" or b[:1] != "0":
        return False
    w = max(wa, wb)
    return a.rjust(w, "0") == b.rjust(w, "0")


def _matches(yosys: dict[str, Value], slang: dict[str, Value]) -> bool:
    return all(k in slang and same_value(v, slang[k]) for k, v in yosys.items())


def _show(v: Value) -> str:
    if v is None:
        return "?"
    width, bits = v
    if set(bits) <= {"0", "1"}:
        return f"{width}'h{int(bits, 2):x}"
    return f"{width}'b{bits}"
