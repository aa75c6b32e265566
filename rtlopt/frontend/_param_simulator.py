"""The simulator's values compared with slang's in every scope of a candidate: alone at its
defaults and placed in each instance of the repository (iverilog is asked through
:mod:`._param_iverilog`; slang's elaboration as :mod:`._param_agree` reads it)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rtlopt.frontend._param_iverilog import compared, generate_blocks
from rtlopt.frontend.model import Design

__all__ = ["own_differences", "placed_differences", "scopes"]


def scopes(inst: Any) -> list[tuple[str, dict[str, tuple[int, str]]]]:
    """Each scope of instance ``inst`` and below it (itself, its built generate blocks, its
    functions and tasks, the instances in them, recursively) with slang's integral value of
    each parameter declared there (a real or a type parameter, or a loop's genvar, is left
    out), as ``(hierarchical path, {name: (width, bits)})``."""
    from rtlopt.frontend._param_agree import svint_bits
    from rtlopt.frontend._slang import node_kind

    out: list[tuple[str, dict[str, tuple[int, str]]]] = []

    def visit(path: str, members: Any) -> None:
        values: dict[str, tuple[int, str]] = {}
        for m in members:
            k = node_kind(m)
            if k == "Parameter" and m.syntax is not None:
                try:
                    v = svint_bits(m.value.value)
                except Exception:  # noqa: BLE001 - no value slang can give
                    v = None
                if v is not None:
                    values[str(m.name)] = v
            elif k == "GenerateBlock" and not m.isUninstantiated:
                visit(str(m.hierarchicalPath), m)
            elif k in ("GenerateBlockArray", "InstanceArray"):
                visit(path, m)  # its blocks or instances, each a scope of its own
            elif k == "Subroutine":
                visit(str(m.hierarchicalPath), m)
            elif k == "Instance":
                visit(str(m.hierarchicalPath), m.body)
        if values:
            out.append((path, values))

    visit(str(inst.hierarchicalPath), inst.body)
    return out


def own_differences(design: Design, files: Sequence[Path], top: str, timeout_s: float) -> str:
    """Why iverilog builds module ``top`` of ``files`` (at its defaults) with other parameter
    values than slang reads, in any scope of it (:func:`scopes`), or ""."""
    from rtlopt.frontend._params import _compile

    try:
        root = _compile(list(files), {}, design, tops=[top]).getRoot()
        inst = next(i for i in root.topInstances if i.name == top)
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        return f"slang cannot elaborate {top} to compare its parameter values ({exc})"
    found = scopes(inst)
    if not found and not any(generate_blocks(inst)):
        return ""
    diff = compared(design, files, [top], found, timeout_s, blocks_of=[inst])
    if isinstance(diff, str):
        return f"iverilog's values of the parameters of {top} are not known: {diff}"
    if not diff:
        return ""
    return (
        f"iverilog builds {', '.join(diff[:3])}: the simulator computes a value at elaboration "
        "otherwise than the proofs (give a parameter its type and width: localparam [4:0] P)"
    )


def placed_differences(design: Design, candidate: str, timeout_s: float) -> str:
    """Why iverilog builds an instance of the target with other parameter values than slang
    reads there, in any scope of it, ``candidate`` in the target's place in the repository
    (each parent's overrides, the candidate's own values under them), or "". A repository
    iverilog does not compile even with the original module is not compared (its simulator
    is another)."""
    from rtlopt.frontend._param_agree import _walk, _yosys_files
    from rtlopt.frontend._params import _compile
    from rtlopt.tools import scratch_dir

    t = design.target
    full = t.file.read_text(errors="replace")
    placed = full[: t.start] + candidate + full[t.end :]
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        comp = _compile(files, {t.file: placed}, design)
        chains = list(_walk(comp.getRoot(), [], []))
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        return f"slang cannot elaborate the repository with the change ({exc})"
    below = [c for c in chains if len(c) > 1 and c[-1].body.definition.name == t.name]
    found = [scope for c in below for scope in scopes(c[-1])]
    if not found and not any(b for c in below for b in generate_blocks(c[-1])):
        return ""
    tops = list(dict.fromkeys(str(c[0].name) for c in below))
    read = _yosys_files(design, [c for c in chains if c[0].name in tops], comp.sourceManager)
    with scratch_dir(None, "rtlopt_param_placed_") as wd:
        copy = wd / t.file.name
        copy.write_text(placed)
        swapped = [copy if f == t.file else f for f in read]
        diff = compared(
            design, swapped, tops, found, timeout_s, [t.file.parent], [c[-1] for c in below]
        )
    if isinstance(diff, str):
        if isinstance(compared(design, read, tops, [], timeout_s), str):
            return ""  # not even the repository as it is
        return f"iverilog does not build the repository with the change: {diff}"
    if not diff:
        return ""
    return (
        f"iverilog builds {', '.join(diff[:3])}: the simulator computes a value at elaboration "
        "otherwise than the proofs"
    )
