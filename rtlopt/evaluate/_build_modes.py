"""The language modes and directive states a build of the repository may compile the target
in, which rtlopt's own compilation (``iverilog -g2012``, slang, each side read alone) does not
put in force (round 76).

- a Verilog generation: ``iverilog -g1995``/``-g2001``/``-g2005`` named by any text of the
  repository, or an ``iverilog`` command line naming no SystemVerilog generation (Icarus's
  default is Verilog 2005), a Verilog-only reader (Yosys ``read_verilog`` without ``-sv``,
  ``read -vlog95``/``-vlog2k``, Verilator ``--language 1364-...``): the candidate must
  compile there (``logic``, ``always_comb`` do not);
- a ```default_nettype`` any Verilog text of the repository writes (a file a build compiles
  before the target leaves it in force; which build order is not decided): other than
  ``wire``/``tri`` (``none``, and the resolved kinds ``tri0``/``wand``/...: an implicit net
  reads otherwise there) the candidate must compile under ```default_nettype none``.

Each mode is judged only where the repository's module compiles in it (the reference passes
by construction): the candidate's error messages there that neither the reference's nor its
own under rtlopt's defaults hold refuse it, naming the mode and the fix. A module's missing
submodules (compiled alone) are no error of either side.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["build_modes", "mode_refusal", "modes_named"]

log = logging.getLogger(__name__)

_GEN = re.compile(r"(?<![\w-])-g\s*(1995|2001|2001-noconfig|2005)(?![\w-])")
_SV_GEN = re.compile(r"(?<![\w-])-g\s*(?:2005-sv|2009|2012|2017|2023)\b")
_IVERILOG = re.compile(r"(?<![\w.-])iverilog(?![\w.-])")
_READ_VERILOG = re.compile(r"(?<![\w-])read_verilog(?![\w-])")
_YOSYS_READ = re.compile(r"(?<![\w-])read\s+(?:-\w+\s+)*-vlog(95|2k)\b")
_LANGUAGE = re.compile(r"--(?:default-)?language[\s=]+1364-(1995|2001|2005)")
#: A ```default_nettype`` token anywhere on its line (after code too).
_NETTYPE = re.compile(r"`default_nettype[ \t]+(\w+)")
#: Lines no side's own: a module compiled alone misses its submodules and packages' units.
_MISSING = re.compile(
    r"Unknown module type|error\(s\) during elaboration|modules were missing|referenced \d+ "
    r"times|^\*\*\*|^\s*$|I give up|^\$ "
)


def modes_named(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """The Verilog generations (``1995``, ``2001``, ``2005``) and ```default_nettype``
    values the ``texts`` name (see the module's docstring)."""
    gens: set[str] = set()
    nettypes: set[str] = set()
    for text in texts:
        for line in text.splitlines():
            if "-g" in line:
                gens.update(g.replace("-noconfig", "") for g in _GEN.findall(line))
            if _IVERILOG.search(line) and not _SV_GEN.search(line) and "-E" not in line.split():
                gens.add("2005")
            if _READ_VERILOG.search(line) and not re.search(r"(?<![\w-])-sv\b", line):
                gens.add("2005")
            gens.update({"95": "1995", "2k": "2001"}[g] for g in _YOSYS_READ.findall(line))
            gens.update(_LANGUAGE.findall(line))
        if "`default_nettype" in text:
            nettypes.update(_NETTYPE.findall(text))
    return gens, nettypes


def build_modes(texts: Iterable[str]) -> list[tuple[str, list[str], str]]:
    """The modes to compile in: (label, extra iverilog arguments, prefix text)."""
    gens, nettypes = modes_named(texts)
    out = [(f"-g{g}", [f"-g{g}"], "") for g in sorted(gens)]
    if nettypes - {"wire", "tri"}:
        shown = sorted(nettypes - {"wire", "tri"})[0]
        out.append((f"`default_nettype {shown}", ["-g2012"], "`default_nettype none\n"))
    return out


def _errors(output: str) -> set[str]:
    """The error messages of an iverilog run, each without its file and line."""
    out = set()
    for line in output.splitlines():
        if _MISSING.search(line) or "warning" in line.lower():
            continue
        out.add(re.sub(r"^[^:\n]*:\d+:\s*", "", line).strip())
    return out


def _compile(
    text: str, args: Sequence[str], prefix: str, wd: Path, name: str, env: _Env
) -> set[str]:
    from rtlopt.tools import Limits, require_tool, run_tool

    wd.mkdir(parents=True, exist_ok=True)
    src = wd / f"{name}.v"
    src.write_text(prefix + text)
    argv = require_tool("iverilog").argv(*args, "-o", wd / f"{name}.vvp")
    for inc in env.include_dirs:
        argv += ["-I", str(inc)]
    for k, v in env.defines.items():
        argv.append(f"-D{k}={v}" if v != "" else f"-D{k}")
    run = run_tool(
        [*argv, str(src)],
        cwd=wd,
        log_path=wd / f"{name}.log",
        limits=Limits(30.0, None),
        writable=[wd],
    )
    return _errors(run.output())


_REFERENCE: dict[tuple[object, ...], set[str]] = {}


def _reference(
    text: str, args: Sequence[str], prefix: str, wd: Path, name: str, env: _Env
) -> set[str]:
    """:func:`_compile` of the repository's module, once per text and mode."""
    key = (text, tuple(args), prefix, env.include_dirs, tuple(sorted(env.defines.items())))
    if key not in _REFERENCE:
        if len(_REFERENCE) > 64:
            _REFERENCE.clear()
        _REFERENCE[key] = _compile(text, args, prefix, wd, name, env)
    return _REFERENCE[key]


class _Env:
    def __init__(self, include_dirs: Sequence[Path], defines: Mapping[str, str]) -> None:
        self.include_dirs = tuple(include_dirs)
        self.defines = dict(defines)


def mode_refusal(
    reference: str,
    candidate: str,
    texts: Iterable[str],
    wd: Path,
    *,
    include_dirs: Sequence[Path] = (),
    defines: Mapping[str, str] | None = None,
    where: str = "the repository",
) -> str:
    """Why ``candidate`` does not compile in a mode of :func:`build_modes` where the
    ``reference`` module does, or ""."""
    modes = build_modes(texts)
    if not modes:
        return ""
    env = _Env(include_dirs, defines or {})
    ref0: set[str] | None = None
    cand0: set[str] | None = None
    for i, (label, args, prefix) in enumerate(modes):
        got = _compile(candidate, args, prefix, wd, f"cand_mode{i}", env)
        if not got:
            continue  # compiles there (the usual case: one run per mode)
        if ref0 is None:
            ref0 = _reference(reference, ["-g2012"], "", wd, "ref_default", env)
        ref = _reference(reference, args, prefix, wd, f"ref_mode{i}", env)
        if ref - ref0:
            continue  # the repository's module does not compile there: no build does so
        if cand0 is None:
            cand0 = _compile(candidate, ["-g2012"], "", wd, "cand_default", env)
        new = got - cand0 - ref
        if new:
            log.info("candidate does not compile under %s: %s", label, sorted(new)[0])
            fix = (
                "write it in that Verilog generation (no SystemVerilog: logic, always_comb, "
                "always_ff, int, ...)"
                if label.startswith("-g")
                else "declare every net it uses (no implicit net)"
            )
            return (
                f"{where} may compile the target under {label} (a build text names it), where "
                f"the repository's module compiles but the candidate does not "
                f"({sorted(new)[0][:100]}): {fix}"
            )
    return ""


def build_mode_unchecked(design: Design, candidate: str, wd: Path, own: Path | None) -> str:
    """:func:`mode_refusal` for the target of ``design`` : the
    repository's module as written against the candidate, every text of the repository
    read for the modes."""
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts

    t = design.target
    reference = t.file.read_text(errors="replace")[t.start : t.end]
    mine = Path(__file__).resolve().parents[1]  # rtlopt's own prelude is no build text
    texts = [
        x
        for p, x in [*repository_texts(design), *other_texts(design, own)[0]]
        if not p.resolve().is_relative_to(mine)
    ]
    return mode_refusal(
        reference,
        candidate,
        texts,
        wd / "build_modes",
        include_dirs=[t.file.parent, *design.include_dirs],
        defines=design.defines,
        where=f"a build of the repository ({t.file.name})",
    )
