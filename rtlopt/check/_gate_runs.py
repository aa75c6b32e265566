"""How the gate itself is run and configured, for `rtlopt check`.

The gate judges a change by the base revision's rules; a change may instead alter how the gate
runs: a CI workflow, a Makefile, a script, a pre-commit or tox configuration that calls
``rtlopt`` or sets an ``RTLOPT_<SECTION>__<KEY>`` variable (which overrides the configuration
wherever the gate runs), or a pinned version of rtlopt. Each changed line of such a file that
names rtlopt is a change of the rules (:func:`gate_run_changes`): a finding unless
``--trust-config``, like a change to ``rtlopt.toml``.

The environment the gate runs in may set such variables too (:func:`environment_overrides`):
they are said on the first lines of the output, and those of the sections that make the rules
(``check``, ``formal``, ``eval``, ``harness``, ``project``; not the settings of how the tools
run, like ``eval.workers``) do not apply unless the configuration is trusted, and are each a
finding (:func:`rule_environment`).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rtlopt.config import Config

#: Sections whose settings are the gate's rules: what must stay equivalent, how it is proven.
RULE_SECTIONS = ("check", "formal", "eval", "harness", "project")
#: Settings of those sections that say how the tools run, not what is judged.
_RUN_ONLY = frozenset(
    f"eval.{k}" for k in ("workers", "cache", "cache_dir", "keep_scratch", "traces", "executor")
) | {"eval.ray_address"}
#: A line that runs or configures rtlopt.
_NAMES_RTLOPT = re.compile(r"rtlopt", re.I)
#: Files no build or CI reads (documentation), and files judged otherwise: Verilog sources
#: (their ``rtlopt:`` directives), ``rtlopt.toml`` (its settings) and filelists.
_NOT_RUN = (".md", ".rst", ".adoc", ".v", ".sv", ".vh", ".svh", ".f", ".F", ".vc", ".flist")
_CAP = 2_000_000  # a larger file is no script


def gate_run_changes(
    changed: Sequence[str], read_base: Callable[[str], str | None], new_tree: Path
) -> list[str]:
    """One entry per changed file (``changed``: repository paths) whose added or removed
    lines name rtlopt (``rtlopt check``, ``RTLOPT_CHECK__OPTIMIZATION_ONLY``, ``rtlopt==2.1``):
    the first such line, and how many there are."""
    out: list[str] = []
    for rel in sorted(set(changed)):
        if rel.endswith(_NOT_RUN) or Path(rel).name in ("rtlopt.toml", ".gitignore"):
            continue
        old, new = read_base(rel), _text(new_tree / rel)
        if old == new or "\0" in (old or "") + (new or ""):
            continue
        lines = [(n, t) for n, t in _changed_lines(old or "", new or "") if _NAMES_RTLOPT.search(t)]
        if not lines:
            continue
        n, text = lines[0]
        more = f" and {len(lines) - 1} more line(s)" if len(lines) > 1 else ""
        shown = text.strip()[:100]
        out.append(
            f"{rel}:{n}: a changed line runs or configures rtlopt ({shown!r}{more}), which "
            "changes how the gate judges"
        )
    return out


def _text(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > _CAP:
            return None
        return path.read_text(errors="replace")
    except OSError:
        return None


def _changed_lines(old: str, new: str) -> list[tuple[int, str]]:
    """``(line, text)`` of each line the change adds (its line after the change) or removes
    (the line where it stood)."""
    a, b = old.splitlines(), new.splitlines()
    out: list[tuple[int, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        out += [(b0 + i + 1, t) for i, t in enumerate(b[b0:b1])]
        out += [(max(b0, 1), t) for t in a[a0:a1]]
    return sorted(out)


def environment_overrides(env: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(variable, dotted key)`` for each ``RTLOPT_<SECTION>__<KEY>`` variable of ``env``
    that names a section of the configuration (as :func:`rtlopt.config.load_config` reads
    them)."""
    sections = {f.name for f in dataclasses.fields(Config)}
    out = []
    for var in sorted(env):
        if var.startswith("RTLOPT_") and "__" in var:
            dotted = var[len("RTLOPT_") :].lower().replace("__", ".")
            if dotted.split(".", 1)[0] in sections:
                out.append((var, dotted))
    return out


def rule_environment(env: Mapping[str, str]) -> list[str]:
    """The variables of ``env`` that override a setting of the rules' sections."""
    return [
        v
        for v, dotted in environment_overrides(env)
        if dotted.split(".")[0] in RULE_SECTIONS and dotted not in _RUN_ONLY
    ]


def environment_rules(env: Mapping[str, str], *, trusted: bool) -> list[str]:
    """One entry (a change of the rules) per variable of ``env`` that overrides a rule."""
    how = (
        "applied (--trust-config)"
        if trusted
        else "not applied: the gate judges by the base revision's rtlopt.toml"
    )
    return [
        f"environment: {var}={env[var]!r} overrides {dotted} for this run ({how}); unset it "
        "and state the setting in rtlopt.toml, in a commit of its own"
        for var, dotted in environment_overrides(env)
        if var in rule_environment(env)
    ]


def environment_line(env: Mapping[str, str], *, trusted: bool) -> str:
    """The output's line naming the configuration keys the environment overrides ("" when
    none)."""
    found = environment_overrides(env)
    if not found:
        return ""
    ruled = set(rule_environment(env))
    shown = ", ".join(
        f"{d} ({v}{'' if v not in ruled or trusted else ', not applied'})" for v, d in found
    )
    return f"rtlopt check: the environment overrides the configuration: {shown}"


def with_gate_sandbox(cfg: Config) -> Config:
    """``cfg`` with ``sandbox.require = "always"`` where it is "auto": a gate never judges a
    commit with unsandboxed tools."""
    if cfg.sandbox.require == "auto":
        return dataclasses.replace(cfg, sandbox=dataclasses.replace(cfg.sandbox, require="always"))
    return cfg
