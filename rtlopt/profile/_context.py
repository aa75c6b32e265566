"""PPA in context: does a module's gain survive once the top is flattened and optimized?

A module that is smaller alone can be no smaller in the chip: logic that drives outputs the
top leaves unconnected, or that constants from the top make redundant, is removed by
synthesis across the boundary in the reference and the rewrite alike. This measures the top
(the normal flattened flow) with the original modules and with the rewrites in place, beside
each module alone, in one flow, and says when a gain vanishes.

The equivalence argument stays per module: each rewrite is proven equivalent to its original,
and replacing modules by equivalent ones leaves the top equivalent, so the top is not proven
again here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda.flow import PpaFlow
from rtlopt.errors import DesignError
from rtlopt.frontend.model import Design
from rtlopt.pdk import PdkInfo
from rtlopt.results import PPA
from rtlopt.verilog import find_span, splice_module

__all__ = ["CLAIM", "ContextResult", "ModuleGain", "measure_in_context"]

#: What the in-context numbers rest on (stated in every report of them).
CLAIM = (
    "Each rewritten module is proven equivalent to its original on its own; a top whose "
    "modules are replaced by equivalent ones is equivalent, so the top is not proven again."
)

#: A gain smaller than this (relative) counts as none.
_NOISE = 0.005


@dataclass(frozen=True)
class ModuleGain:
    """One rewritten module, alone and in context."""

    module: str
    alone_before: PPA
    alone_after: PPA
    top_after: PPA | None = None  # the top with only this module replaced (several rewrites)

    @property
    def area_ratio(self) -> float:
        return (
            self.alone_after.area_um2 / self.alone_before.area_um2
            if self.alone_before.area_um2
            else 1.0
        )

    @property
    def delay_ratio(self) -> float:
        return (
            self.alone_after.delay_ps / self.alone_before.delay_ps
            if self.alone_before.delay_ps
            else 1.0
        )


@dataclass(frozen=True)
class ContextResult:
    """The top before and after, and each module alone before and after."""

    top: str
    before: PPA
    after: PPA
    modules: tuple[ModuleGain, ...]

    @property
    def area_ratio(self) -> float:
        return self.after.area_um2 / self.before.area_um2 if self.before.area_um2 else 1.0

    @property
    def delay_ratio(self) -> float:
        return self.after.delay_ps / self.before.delay_ps if self.before.delay_ps else 1.0

    def top_ratio(self, gain: ModuleGain) -> float:
        """The top's area after / before with ``gain``'s module replaced (alone when several
        modules were measured one by one, else with every rewrite)."""
        after = gain.top_after if gain.top_after is not None else self.after
        return after.area_um2 / self.before.area_um2 if self.before.area_um2 else 1.0

    def top_delay_ratio(self, gain: ModuleGain) -> float:
        """The top's worst delay after / before with ``gain``'s module replaced."""
        after = gain.top_after if gain.top_after is not None else self.after
        return after.delay_ps / self.before.delay_ps if self.before.delay_ps else 1.0

    def vanished(self) -> list[str]:
        """Modules that are smaller alone while the top is not."""
        return [
            m.module
            for m in self.modules
            if m.area_ratio < 1.0 - _NOISE and self.top_ratio(m) >= 1.0 - _NOISE
        ]

    def sentences(self) -> list[str]:
        """One plain sentence per module: its area change alone and in the flattened top, and
        its delay change beside the top's when the module got faster."""
        out = []
        gone = self.vanished()
        for m in self.modules:
            alone, ctx = m.area_ratio - 1, self.top_ratio(m) - 1
            line = (
                f"{m.module}: {_pct_words(alone)} alone, {_pct_words(ctx)} in the flattened "
                f"{self.top}"
            )
            if m.module in gone:
                line += (
                    f": the {-alone:.0%} smaller module is {max(0.0, -ctx):.0%} smaller in the "
                    "flattened top, its gain vanishes in context"
                )
            fast, top_fast = m.delay_ratio - 1, self.top_delay_ratio(m) - 1
            if fast < -_NOISE:
                line += f"; its delay {fast:+.1%} alone, the top's worst delay {top_fast:+.1%}" + (
                    ": its speed-up does not reach the top" if top_fast > -_NOISE else ""
                )
            out.append(line)
        return out

    def summary(self) -> str:
        """One plain sentence on what survives in context."""
        alone = ", ".join(f"{m.module} {m.area_ratio - 1:+.1%}" for m in self.modules)
        line = f"area alone: {alone}; {self.top} in context: {self.area_ratio - 1:+.1%}"
        gone = self.vanished()
        if gone:
            line += f". The gain of {', '.join(gone)} vanishes in context"
        return line

    def to_json(self) -> dict[str, object]:
        def ppa(p: PPA) -> dict[str, object]:
            return {"area_um2": p.area_um2, "delay_ps": p.delay_ps, "power_uw": p.power_uw}

        return {
            "top": self.top,
            "before": ppa(self.before),
            "after": ppa(self.after),
            "area_ratio": self.area_ratio,
            "delay_ratio": self.delay_ratio,
            "modules": [
                {
                    "module": m.module,
                    "alone_before": ppa(m.alone_before),
                    "alone_after": ppa(m.alone_after),
                    "area_ratio": m.area_ratio,
                    "top_area_ratio": self.top_ratio(m),
                }
                for m in self.modules
            ],
            "vanished": self.vanished(),
            "claim": CLAIM,
        }


def _pct_words(change: float) -> str:
    """``-0.378`` -> ``37.8 % smaller``; a change within the noise is ``0.0 % smaller``."""
    if abs(change) < _NOISE:
        return "0.0 % smaller"
    return f"{abs(change) * 100:.1f} % {'smaller' if change < 0 else 'larger'}"


def _replaced_files(
    design: Design, rewrites: Mapping[str, str], workdir: Path
) -> tuple[list[Path], list[Path]]:
    """The top's files with each rewritten module spliced into a copy of its file, and the
    original folders of those copies (their relative includes)."""
    files = [*design.prelude, *design.closure]
    folders: list[Path] = []
    edited: dict[Path, str] = {}
    for name, text in rewrites.items():
        mod = design.modules.get(name)
        if mod is None or mod.file not in files:
            raise DesignError(f"module {name} is not part of {design.target.name}'s design")
        current = edited.get(mod.file, mod.file.read_text(errors="replace"))
        span = find_span(current, name)
        if span is None:
            raise DesignError(f"module {name} not found in its file", path=mod.file)
        edited[mod.file] = splice_module(current, span, text)
    out: list[Path] = []
    workdir.mkdir(parents=True, exist_ok=True)
    for i, f in enumerate(files):
        if f in edited:
            copy = workdir / f"{i:03d}_{f.name}"
            copy.write_text(edited[f])
            out.append(copy)
            folders.append(f.parent)
        else:
            out.append(f)
    return out, folders


def measure_in_context(
    design: Design,
    pdk: PdkInfo,
    flow_cfg: FlowConfig,
    sandbox: SandboxConfig,
    rewrites: Mapping[str, str],
    workdir: Path,
) -> ContextResult:
    """Measure ``design``'s target (the top) with the original modules and with ``rewrites``
    (module name -> its new module text) in place, and each rewritten module alone.

    Raises:
        DesignError: a rewritten module is not part of the top's design.
        ToolFailed: a tool failed (logs under ``workdir``).
    """
    new_files, folders = _replaced_files(design, rewrites, workdir / "sources")
    old_files = [*design.prelude, *design.closure]
    inc: Sequence[Path] = (*design.include_dirs, *folders)
    defines = dict(design.defines)
    top = design.target
    with PpaFlow(pdk, flow_cfg, sandbox) as flow:

        def run(files: Sequence[Path], name: str, clocks: Sequence[str], tag: str) -> PPA:
            m = flow.measure(files, name, clocks, workdir / tag, include_dirs=inc, defines=defines)
            return m.ppa

        before = run(old_files, top.name, top.clocks, "top_before")
        after = run(new_files, top.name, top.clocks, "top_after")
        gains = []
        for name in rewrites:
            clocks = design.modules[name].clocks
            top_after = None
            if len(rewrites) > 1:  # the top with this module alone replaced: its own share
                files, more = _replaced_files(
                    design, {name: rewrites[name]}, workdir / f"sources_{name}"
                )
                inc = (*design.include_dirs, *more)
                top_after = run(files, top.name, top.clocks, f"top_with_{name}")
                inc = (*design.include_dirs, *folders)
            gains.append(
                ModuleGain(
                    name,
                    run(old_files, name, clocks, f"{name}_before"),
                    run(new_files, name, clocks, f"{name}_after"),
                    top_after,
                )
            )
    return ContextResult(top.name, before, after, tuple(gains))
