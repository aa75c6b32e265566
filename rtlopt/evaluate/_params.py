"""Equivalence for the configurations that exist (``harness.parameterizations``).

The evaluator's stages check the target under its default parameters. This stage adds every
other parameterization with which the repository instantiates the target
(:func:`rtlopt.frontend.parameterizations`): for each, the reference and the candidate are
specialized (the values written as defaults) and evaluated by a second evaluator without PPA,
through the same simulation and formal check.

A candidate whose change depends on a parameter (``_param_deps.changed_parameters``:
the changed items closed over the signals that link them to the outputs, the declarations they
use, localparams and functions) is also checked under probes (``harness.parameter_probes``):
parameterizations no instance uses, that parameter changed from its default to the values the
change itself compares with (and their neighbours), then to the module's own numbers beside it
and common widths. A change to a generate block or guard none of the parameterizations
elaborates also gets the probes that elaborate the reference's unused blocks and, per
parameter, a value under which the candidate elaborates other blocks than the reference. A
probe counts only if the reference, specialized to it, evaluates against itself (a copy with a
comment, so that it is simulated and proven, not short-cut); the reasons name it as a probe.
A change that depends on a parameter no probe value can check, or a changed block no probe
elaborates, is "unchecked for parameters ...", never accepted.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rtlopt.config import Config
from rtlopt.errors import RtloptError
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage

if TYPE_CHECKING:
    from rtlopt.frontend._param_deps import ParamDependence
    from rtlopt.frontend._params import Elaborations, Parameterization


class _Evaluates(Protocol):
    def evaluate(self, text: str) -> EvalResult: ...

    def close(self) -> None: ...


#: Makes the second evaluator: ``(design, config, workdir) -> evaluator`` (the Evaluator class).
Factory = Callable[[Design, Config, Path], _Evaluates]

__all__ = ["ParameterCheck"]

log = logging.getLogger(__name__)


class ParameterCheck:
    """Checks a candidate under the repository's other parameterizations of the target, and
    under probes of the parameters its change depends on."""

    def __init__(self, design: Design, config: Config, workdir: Path, factory: Factory) -> None:
        self.factory = factory
        self.design = design
        self.config = config
        self.workdir = workdir
        self._lock = threading.Lock()
        self._settings: list[Parameterization] | None = None
        self._ref = ""
        self._ref_dead: list[str] = []
        self._elab: Elaborations = {}  # the reference's elaborations, shared by every search
        self._subs: dict[int, _Evaluates] = {}
        self._keys: dict[tuple[tuple[str, str], ...], int] = {}
        self._probe_lock = threading.RLock()
        self._probes: list[Parameterization] | None = None
        self._valid: dict[tuple[str, str], Parameterization | None] = {}
        self._values: dict[str, list[str]] = {}

    def _found(self) -> list[Parameterization]:
        from rtlopt.frontend._params import never_elaborated, parameterizations

        with self._lock:
            if self._settings is None:
                t = self.design.target
                self._settings = parameterizations(self.design)
                self._ref = t.file.read_text(errors="surrogateescape")
                self._ref_dead = never_elaborated(
                    self._ref, t.name, self.design, self._settings, self._elab
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
        parameterization and probe (or the target has only its defaults)."""
        from rtlopt.frontend._params import never_elaborated

        settings = self._found()
        if not settings:
            return None
        name = self.design.target.name
        deps = self._depends(text)
        probes, missing, soft = self._probes_for(deps, text)
        if missing:
            return (Stage.FORMAL, f"unchecked for parameters {self.labels()}: {missing}", None)
        local: Elaborations = {}
        dead = never_elaborated(text, name, self.design, settings, local) != self._ref_dead
        if dead:
            more = [*self._probed(), *self._diverging(text, deps, local)]
            probes += [pz for pz in dict.fromkeys(more) if pz not in probes]
        base = settings[0]
        for pz in [*settings[1:], *probes]:
            values = pz.differs(base)
            if not values:
                continue
            res = self._sub(values).evaluate(_specialized(text, name, values))
            if not res.accepted and pz in soft and _inconclusive(res):
                log.info("probe %s inconclusive, not counted: %s", pz.label(), res.reason)
                continue
            if not res.accepted:
                where = ", ".join(pz.where[:3])
                return (res.stage, f"under parameters {pz.label()} ({where}): {res.reason}", res)
        every = [*settings, *probes]
        if dead and never_elaborated(text, name, self.design, every, local) != never_elaborated(
            self._ref, name, self.design, every, self._elab
        ):
            return (
                Stage.FORMAL,
                f"unchecked for parameters {self.labels()}: the candidate changes code (a "
                "generate block or its guard) that none of the repository's parameterizations "
                "of the target elaborates, and no probe parameterization elaborates it",
                None,
            )
        return None

    def _depends(self, text: str) -> ParamDependence:
        """What the candidate's change depends on (``_param_deps.changed_parameters``)."""
        from rtlopt.frontend._param_deps import changed_parameters

        t = self.design.target
        defaults = dict(self._found()[0].values)
        return changed_parameters(
            self._ref, text, t.name, list(defaults), [p.name for p in t.inputs]
        )

    def _diverging(
        self, text: str, deps: ParamDependence, local: Elaborations
    ) -> list[Parameterization]:
        """For each parameter the change depends on, the first probe (of at most
        :data:`rtlopt.frontend._params.PROBE_TRIES` values) under which the candidate
        elaborates other generate blocks or guards than the reference does: a value that
        exercises a changed guard, bound or block."""
        from rtlopt.frontend._params import PROBE_TRIES, around, elaborated_blocks

        t = self.design.target
        out: list[Parameterization] = []
        for p in deps.params:
            own = around(deps.numbers, "$clog2" in text, common=False)
            for v in list(dict.fromkeys([*own, *self._module_values(p)]))[:PROBE_TRIES]:
                o = [f"{p}={v}"]
                cand = elaborated_blocks(text, t.name, self.design, o, local)
                if cand != elaborated_blocks(self._ref, t.name, self.design, o, self._elab):
                    found = self._pick(p, [v], 1)
                    out += found
                    if found:
                        break
        return out

    def _probes_for(
        self, deps: ParamDependence, text: str
    ) -> tuple[list[Parameterization], str, list[Parameterization]]:
        """The probes of the parameters the candidate's change depends on: for each, up to
        ``harness.parameter_probes`` values from the change's own numbers, as many from the
        module's (:func:`rtlopt.frontend._params.probe_values`) and, when the change writes a
        fixed width, one above every width the texts write
        (:func:`rtlopt.frontend._params.beyond`; those last, the third item, reject only on a
        difference found, not on a proof that did not finish: a wide datapath can be too hard
        to prove); or why the change is unchecked."""
        from rtlopt.frontend._params import around, beyond, sizes

        t = self.design.target
        k = self.config.harness.parameter_probes
        chosen: list[Parameterization] = []
        soft: list[Parameterization] = []
        for p in deps.params:
            signed = not sizes(self._ref, p)
            own = around(deps.numbers, "$clog2" in self._ref, common=False, negative=signed)
            got = self._pick(p, own, k)
            got += self._pick(p, self._module_values(p), k, got)
            if not got:
                return (
                    [],
                    (
                        f"the candidate changes code whose meaning depends on parameter {p}, and "
                        + (
                            "parameter probes are off (harness.parameter_probes = 0)"
                            if k <= 0
                            else f"no other value of {p} elaborates the reference and passes it "
                            "against itself"
                        )
                    ),
                    [],
                )
            if k > 0 and deps.fixed:
                wide = self._pick(p, [beyond(deps.numbers, self._ref + text)], 1, got)
                soft += [pz for pz in wide if pz not in chosen and pz not in got]
                got += wide
            chosen += [pz for pz in got if pz not in chosen]
        if deps.params:
            log.info(
                "%s: the change depends on %s; probes %s",
                t.name,
                ", ".join(deps.params),
                "; ".join(pz.label() for pz in chosen),
            )
        return chosen, "", soft

    def _module_values(self, p: str) -> list[str]:
        from rtlopt.frontend._params import probe_values

        with self._probe_lock:
            if p not in self._values:
                default = dict(self._found()[0].values)[p]
                self._values[p] = probe_values(self._ref, p, default)
            return self._values[p]

    def _pick(
        self, p: str, values: list[str], k: int, taken: Sequence[Parameterization] = ()
    ) -> list[Parameterization]:
        """Up to ``k`` probes ``p=value`` for the first usable of ``values`` (at most
        :data:`rtlopt.frontend._params.PROBE_TRIES` tried): a value some repository
        parameterization has is checked there already and skipped."""
        from rtlopt.frontend._params import PROBE_TRIES, probe, sizes

        settings = self._found()
        default = dict(settings[0].values)[p]
        size = sizes(self._ref, p)
        out: list[Parameterization] = []
        tried = 0
        for v in dict.fromkeys(values):
            if len(out) >= k or tried >= PROBE_TRIES:
                break
            if v == default or (size and v == "0"):
                continue
            with self._probe_lock:
                if (p, v) not in self._valid:
                    tried += 1
                    t = self.design.target
                    pz = probe(self._ref, t.name, self.design, settings[0], p, v, self._elab)
                    if pz is not None and (pz in settings or not self._probe_holds(pz)):
                        pz = None
                    self._valid[(p, v)] = pz
                pz = self._valid[(p, v)]
            if pz is not None and pz not in out and pz not in taken:
                out.append(pz)
        return out

    def _probed(self) -> list[Parameterization]:
        """The probes of the reference's never-elaborated blocks that the reference passes
        (found once; :func:`rtlopt.frontend.probe_parameterizations`)."""
        from rtlopt.frontend._params import probe_parameterizations

        with self._probe_lock:
            if self._probes is None:
                settings = self._found()
                t = self.design.target
                found = probe_parameterizations(
                    self._ref,
                    t.name,
                    self.design,
                    settings,
                    max(self.config.harness.parameter_probes, 0),
                    self._elab,
                )
                self._probes = [pz for pz in found if self._probe_holds(pz)]
                log.info(
                    "%s: probe parameterization(s) of its unused blocks: %s",
                    t.name,
                    "; ".join(p.label() for p in self._probes) or "none",
                )
            return self._probes

    def _probe_holds(self, pz: Parameterization) -> bool:
        """Whether the reference specialized to probe ``pz`` evaluates against itself (a copy
        with a comment appended: simulated and proven, not short-cut as identical text)."""
        values = pz.differs(self._found()[0])
        copy = _specialized(self._ref, self.design.target.name, values)
        copy += "\n// the reference under a probe parameterization\n"
        try:
            res = self._sub(values).evaluate(copy)
        except RtloptError as exc:
            log.info("probe %s not used: %s", pz.label(), exc)
            return False
        if not res.accepted:
            log.info("probe %s not used: the reference under it: %s", pz.label(), res.reason)
        return res.accepted

    def _sub(self, values: dict[str, str]) -> _Evaluates:
        """The evaluator of the target specialized to ``values`` (one per parameterization)."""
        from rtlopt.frontend import parse_text

        with self._lock:
            k = self._keys.setdefault(tuple(sorted(values.items())), len(self._keys) + 1)
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


def _inconclusive(res: EvalResult) -> bool:
    """Whether a rejection is a proof that did not finish (no difference found)."""
    from rtlopt.results import Verdict

    sim_ok = res.sim is None or res.sim.passed
    return sim_ok and res.formal is not None and res.formal.verdict == Verdict.UNKNOWN


def _specialized(text: str, module: str, values: dict[str, str]) -> str:
    from rtlopt.frontend._params import specialize

    return specialize(text, module, values)
