"""The simulator's own values of a module's parameters (local ones too).

slang's elaboration (the repository's configurations) and Yosys's (the proofs, synthesis) read
a constant expression by IEEE 1800's width rules; iverilog, the simulator the harness and the
repository's testbenches run, evaluates some at elaboration time otherwise: an untyped
parameter keeps the carry of sized operands (``4'd9 + 4'd9`` is 18, not 2), ``$clog2`` of a
negative argument, a constant function's signed comparison. A parameter iverilog gives another
value builds another design in simulation than the one proven. :func:`iverilog_values` asks
iverilog itself: a probe module (a per-run secret in its name and every line it prints, so no
text of the design can forge one) displays the width and bits of each parameter of each
instance path, and only the probe's lines are read.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["differences", "iverilog_values", "own_differences"]

Value = tuple[int, str] | None


def iverilog_values(
    design: Design,
    files: Sequence[Path],
    tops: Sequence[str],
    paths: Sequence[tuple[str, Sequence[str]]],
    *,
    timeout_s: float = 60.0,
) -> list[dict[str, Value]] | str:
    """For each ``(hierarchical path, parameter names)`` of ``paths``, iverilog's value of
    each parameter as ``(width, bits)`` (MSB first, x/z kept), compiling ``files`` (after the
    design's prelude) with ``tops`` as roots; or why iverilog gave none."""
    from rtlopt.tools import Limits, require_tool, run_tool, scratch_dir

    files = list(dict.fromkeys([*design.prelude, *files]))
    nonce = secrets.token_hex(8)
    probe_name = f"rtlopt_param_probe_{nonce}"
    lines = [f"module {probe_name};", "initial begin"]
    for i, (path, names) in enumerate(paths):
        for name in names:
            ref = f"{path}.{name}"
            lines.append(f'  $display("{nonce} {i} {name} %0d %b", $bits({ref}), {ref});')
    lines += ["end", "endmodule", ""]
    with scratch_dir(None, "rtlopt_param_iverilog_") as wd:
        probe = wd / "probe.v"
        probe.write_text("\n".join(lines))
        argv = require_tool("iverilog").argv("-g2012", "-o", str(wd / "probe.vvp"))
        argv += [f"-I{d}" for d in design.include_dirs]
        argv += [f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in design.defines.items()]
        for top in [*tops, probe_name]:
            argv += ["-s", top]
        argv += [str(f) for f in files] + [str(probe)]
        try:
            run = run_tool(
                argv,
                cwd=wd,
                log_path=wd / "compile.log",
                limits=Limits(timeout_s),
                raise_on_timeout=False,
            )
            if run.timed_out or run.returncode != 0:
                err = next((ln.strip() for ln in run.output().splitlines() if ln.strip()), "")
                why = "timed out" if run.timed_out else err or f"exit {run.returncode}"
                return f"iverilog does not compile it ({why})"
            sim = run_tool(
                require_tool("vvp").argv("-n", str(wd / "probe.vvp")),
                cwd=wd,
                log_path=wd / "run.log",
                limits=Limits(timeout_s),
                raise_on_timeout=False,
            )
        except Exception as exc:  # noqa: BLE001 - no iverilog, no sandbox: nothing compared
            return f"iverilog did not run ({exc})"
        if sim.timed_out or sim.returncode != 0:
            return "its simulation did not finish" if sim.timed_out else "vvp failed"
        out: list[dict[str, Value]] = [{} for _ in paths]
        pattern = re.compile(rf"^{nonce} (\d+) (\S+) (\d+) ([01xzXZ]+)$")
        for line in (wd / "run.log").read_text(errors="replace").splitlines():
            m = pattern.match(line.strip())
            if m is not None and int(m.group(1)) < len(out):
                out[int(m.group(1))][m.group(2)] = (int(m.group(3)), m.group(4).lower())
        for i, (_, names) in enumerate(paths):
            for name in names:
                out[i].setdefault(name, None)
        return out


def differences(slang: Mapping[str, Value], iverilog: Mapping[str, Value]) -> list[str]:
    """``name (iverilog: v, slang: w)`` for each parameter the two give other values (one
    the other has none for included: a real iverilog cannot display is not compared)."""
    from rtlopt.frontend._param_yosys import same_value

    out: list[str] = []
    for name, theirs in iverilog.items():
        ours = slang.get(name)
        if ours is None and theirs is None:
            continue
        if theirs is None or ours is None or not same_value(ours, theirs):
            out.append(f"{name} (iverilog: {_show(theirs)}, slang: {_show(ours)})")
    return out


def _show(v: Value) -> str:
    if v is None:
        return "none"
    width, bits = v
    if set(bits) <= {"0", "1"}:
        return f"{width}'d{int(bits, 2)}"
    return f"{width}'b{bits}"


def own_differences(design: Design, files: Sequence[Path], top: str, timeout_s: float) -> str:
    """Why iverilog builds module ``top`` of ``files`` (at its defaults) with other parameter
    values than slang reads there, or "" (none differ, or it has no parameters)."""
    from rtlopt.frontend._param_agree import _bits_of
    from rtlopt.frontend._params import _compile

    try:
        root = _compile(list(files), {}, design, tops=[top]).getRoot()
        inst = next(i for i in root.topInstances if i.name == top)
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        return f"slang cannot elaborate {top} to compare its parameter values ({exc})"
    # an integral value each (a real or a type parameter is no bit pattern to compare)
    ours = {k: v for k, v in _bits_of(inst).items() if v is not None}
    if not ours:
        return ""
    got = iverilog_values(design, files, [top], [(top, sorted(ours))], timeout_s=timeout_s)
    if isinstance(got, str):
        return f"iverilog's values of the parameters of {top} are not known: {got}"
    diff = differences(ours, got[0])
    if not diff:
        return ""
    return (
        f"iverilog builds {top} with {', '.join(diff)}: the simulator reads a parameter "
        "otherwise than the proofs (write its type and width, e.g. localparam [4:0] P = ...)"
    )
