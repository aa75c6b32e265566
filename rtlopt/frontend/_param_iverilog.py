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
from typing import Any

from rtlopt.frontend.model import Design

__all__ = [
    "differences",
    "generate_blocks",
    "iverilog_values",
    "compared",
]

Value = tuple[int, str] | None


def iverilog_values(
    design: Design,
    files: Sequence[Path],
    tops: Sequence[str],
    paths: Sequence[tuple[str, Sequence[str]]],
    *,
    timeout_s: float = 60.0,
    include_first: Sequence[Path] = (),
    scopes_under: Sequence[str] = (),
    scopes_out: set[str] | None = None,
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
    if scopes_under:  # the scopes iverilog builds: a VCD header lists each, empty ones too
        lines.append('  $dumpfile("scopes.vcd");')
        lines += [f"  $dumpvars(0, {path});" for path in scopes_under]
    lines += ["end", "endmodule", ""]
    with scratch_dir(None, "rtlopt_param_iverilog_") as wd:
        probe = wd / "probe.v"
        probe.write_text("\n".join(lines))
        argv = require_tool("iverilog").argv("-g2012", "-o", str(wd / "probe.vvp"))
        argv += [f"-I{d}" for d in [*include_first, *design.include_dirs]]
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
                text = [ln.strip() for ln in run.output().splitlines() if ln.strip()]
                err = next((ln for ln in text if "error" in ln.lower()), text[-1] if text else "")
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
        if scopes_out is not None and scopes_under:
            vcd = wd / "scopes.vcd"
            if not vcd.is_file():
                return "its scopes were not dumped"
            scopes_out.update(_vcd_scopes(vcd.read_text(errors="replace")))
        return out


def _vcd_scopes(text: str) -> set[str]:
    """The hierarchical path of every scope a VCD header declares."""
    stack: list[str] = []
    out: set[str] = set()
    for m in re.finditer(
        r"\$(scope)\s+\S+\s+(\S+)\s+\$end|\$(upscope)\b|\$(enddefinitions)\b", text
    ):
        if m.group(1):
            stack.append(m.group(2))
            out.add(".".join(stack))
        elif m.group(3):
            if stack:
                stack.pop()
        else:
            break
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


def generate_blocks(inst: Any) -> tuple[set[str], set[str]]:
    """The generate blocks slang builds under instance ``inst`` (recursively, instances
    included) and those it does not (their paths)."""
    from rtlopt.frontend._slang import node_kind

    built: set[str] = set()
    unbuilt: set[str] = set()

    def visit(members: Any) -> None:
        for m in members:
            k = node_kind(m)
            if k == "GenerateBlock":
                if m.isUninstantiated:
                    unbuilt.add(str(m.hierarchicalPath))
                else:
                    built.add(str(m.hierarchicalPath))
                    visit(m)
            elif k in ("GenerateBlockArray", "InstanceArray"):
                visit(m)
            elif k == "Instance":
                visit(m.body)

    visit(inst.body)
    return built, unbuilt


def compared(
    design: Design,
    files: Sequence[Path],
    tops: Sequence[str],
    found: list[tuple[str, dict[str, tuple[int, str]]]],
    timeout_s: float,
    include_first: Sequence[Path] = (),
    blocks_of: Sequence[Any] = (),
) -> str | list[str]:
    """iverilog's values of ``found`` against slang's: the differences (``path: name
    (iverilog: v, slang: w)``), or why iverilog gave none (a string)."""
    paths = [(path, sorted(values)) for path, values in found]
    built: set[str] = set()
    got = iverilog_values(
        design,
        files,
        tops,
        paths,
        timeout_s=timeout_s,
        include_first=include_first,
        scopes_under=[str(i.hierarchicalPath) for i in blocks_of],
        scopes_out=built,
    )
    if isinstance(got, str):
        return got
    out: list[str] = []
    for inst in blocks_of:
        slang_built, slang_unbuilt = generate_blocks(inst)
        out += [
            f"{b} (a generate block slang does not build)" for b in sorted(built & slang_unbuilt)
        ]
        out += [f"{b} (no generate block: slang builds one)" for b in sorted(slang_built - built)]
    for (path, ours), theirs in zip(found, got, strict=True):
        out += [f"{path}.{d}" for d in differences(ours, theirs)]
    return out
