"""Equivalence for the configurations that exist (``harness.parameterizations``).

The evaluator's stages check the target under its default parameters. This stage adds every
other parameterization with which the repository instantiates the target
(:func:`rtlopt.frontend.parameterizations`): for each, the reference and the candidate are
specialized (the values written as defaults) and evaluated by a second evaluator without PPA,
through the same simulation and formal check.

A candidate that changes code none of the parameterizations elaborates (a generate branch
nobody takes) is also checked under probes (``harness.parameter_probes``): parameterizations
no instance uses, one parameter changed from its default, chosen to elaborate those branches
(:func:`rtlopt.frontend.probe_parameterizations`). A probe counts only if the reference,
specialized to it, evaluates against itself (a copy with a comment, so that it is simulated and
proven, not short-cut); the reasons name it as a probe. A change that no probe reaches either is
"unchecked for parameters ...", never accepted.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rtlopt.config import Config
from rtlopt.errors import RtloptError
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage

if TYPE_CHECKING:
    from rtlopt.frontend._params import Parameterization


class _Evaluates(Protocol):
    def evaluate(self, text: str) -> EvalResult: ...

    def close(self) -> None: ...


#: Makes the second evaluator: ``(design, config, workdir) -> evaluator`` (the Evaluator class).
Factory = Callable[[Design, Config, Path], _Evaluates]

__all__ = ["ParameterCheck"]

log = logging.getLogger(__name__)


class ParameterCheck:
    """Checks a candidate under the repository's other parameterizations of the target."""

    def __init__(self, design: Design, config: Config, workdir: Path, factory: Factory) -> None:
        self.factory = factory
        self.design = design
        self.config = config
        self.workdir = workdir
        self._lock = threading.Lock()
        self._settings: list[Parameterization] | None = None
        self._ref_dead: list[str] = []
        self._subs: dict[int, _Evaluates] = {}
        self._probe_lock = threading.Lock()
        self._probes: list[Parameterization] | None = None
        self._ref_dead_probed: list[str] = []

    def _found(self) -> list[Parameterization]:
        from rtlopt.frontend._params import never_elaborated, parameterizations

        with self._lock:
            if self._settings is None:
                t = self.design.target
                self._settings = parameterizations(self.design)
                self._ref_dead = never_elaborated(
                    t.file.read_text(errors="surrogateescape"), t.name, self.design, self._settings
                )
                log.info(
                    "%s: %d parameterization(s): %s",
                    t.name,
                    len(self._settings),
                    "; ".join(p.label() for p in self._settings),
                )
            return self._settings

    def labels(self) -> str:
        return "; ".join(f"{p.label()} ({', '.join(p.where[:2])})" for p in self._settings or [])

    def check(self, text: str) -> tuple[Stage, str, EvalResult | None] | None:
        """The stage and reason of a rejection (with the other parameterization's result, whose
        status says whether a tool failed), or None when the candidate passes under every
        parameterization (or the target has only its defaults)."""
        from rtlopt.frontend._params import never_elaborated

        settings = self._found()
        if not settings:
            return None
        name = self.design.target.name
        extra: list[Parameterization] = []
        if never_elaborated(text, name, self.design, settings) != self._ref_dead:
            extra = self._probed()
            reached = extra and (
                never_elaborated(text, name, self.design, [*settings, *extra])
                == self._ref_dead_probed
            )
            if not reached:
                return (
                    Stage.FORMAL,
                    f"unchecked for parameters {self.labels()}: the candidate changes code that "
                    "none of the repository's parameterizations of the target elaborates"
                    + ("" if extra else " (and no probe parameterization reaches it)"),
                    None,
                )
        base = settings[0]
        for k, pz in enumerate([*settings[1:], *extra], start=1):
            values = pz.differs(base)
            if not values:
                continue
            res = self._sub(k, values).evaluate(_specialized(text, name, values))
            if not res.accepted:
                where = ", ".join(pz.where[:3])
                return (res.stage, f"under parameters {pz.label()} ({where}): {res.reason}", res)
        return None

    def _probed(self) -> list[Parameterization]:
        """The probes of the reference's never-elaborated blocks that the reference passes
        (found once; :func:`rtlopt.frontend.probe_parameterizations`)."""
        from rtlopt.frontend._params import never_elaborated, probe_parameterizations

        with self._probe_lock:
            if self._probes is None:
                settings = self._found()
                t = self.design.target
                ref = t.file.read_text(errors="surrogateescape")
                found = probe_parameterizations(
                    ref, t.name, self.design, settings, self.config.harness.parameter_probes
                )
                first = len(settings)
                self._probes = [
                    pz for j, pz in enumerate(found) if self._probe_holds(first + j, pz, ref)
                ]
                self._ref_dead_probed = never_elaborated(
                    ref, t.name, self.design, [*settings, *self._probes]
                )
                log.info(
                    "%s: probe parameterization(s): %s",
                    t.name,
                    "; ".join(p.label() for p in self._probes) or "none",
                )
            return self._probes

    def _probe_holds(self, k: int, pz: Parameterization, ref: str) -> bool:
        """Whether the reference specialized to probe ``pz`` evaluates against itself (a copy
        with a comment appended: simulated and proven, not short-cut as identical text)."""
        values = pz.differs(self._found()[0])
        copy = _specialized(ref, self.design.target.name, values)
        copy += "\n// the reference under a probe parameterization\n"
        try:
            res = self._sub(k, values).evaluate(copy)
        except RtloptError as exc:
            log.info("probe %s not used: %s", pz.label(), exc)
            return False
        if not res.accepted:
            log.info("probe %s not used: the reference under it: %s", pz.label(), res.reason)
        return res.accepted

    def _sub(self, k: int, values: dict[str, str]) -> _Evaluates:
        from rtlopt.frontend import parse_text

        with self._lock:
            if k in self._subs:
                return self._subs[k]
            d = self.design
            t = d.target
            folder = self.workdir / "parameters" / str(k)
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / t.file.name
            path.write_text(
                _specialized(t.file.read_text(errors="surrogateescape"), t.name, values),
                errors="surrogateescape",
            )
            mods = {m.name: m for m in parse_text(path.read_text(), str(path), sources=d.sources)}
            target = dataclasses.replace(
                mods[t.name],
                clocks=t.clocks,
                resets=t.resets,
                reset_active_low=t.reset_active_low,
            )
            sources = dataclasses.replace(
                d.sources, include_dirs=(*d.sources.include_dirs, t.file.parent)
            )
            special = dataclasses.replace(
                d,
                target=target,
                modules={**d.modules, t.name: target},
                closure=tuple(path if f == t.file else f for f in d.closure),
                sources=sources,
            )
            cfg = dataclasses.replace(
                self.config,
                harness=dataclasses.replace(self.config.harness, parameterizations=False),
                eval=dataclasses.replace(self.config.eval, cache=False),
            )
            self._subs[k] = self.factory(special, cfg, folder / "eval")
            return self._subs[k]

    def close(self) -> None:
        for ev in self._subs.values():
            ev.close()


def _specialized(text: str, module: str, values: dict[str, str]) -> str:
    from rtlopt.frontend._params import specialize

    return specialize(text, module, values)
