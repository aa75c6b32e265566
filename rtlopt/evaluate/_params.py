"""Equivalence for the configurations that exist (``harness.parameterizations``).

The evaluator's stages check the target under its default parameters. This stage adds every
other parameterization the repository elaborates (:func:`rtlopt.frontend.parameterizations`):
reference and candidate specialized (values written as defaults) and evaluated by a second
evaluator without PPA, through the same simulation and formal check.

The guarantee depends on whether the repository instantiates the target. For a module it
instantiates, the configurations it elaborates are the guarantee (each checked first; one
undecided rejects); probes of other values are extra assurance: a difference they find rejects,
a probe that cannot be built or finish is reported in the scope, never a rejection. For a
module nothing instantiates (a library module, a top), its parameters are its interface: a
change that depends on them is checked under probes, tied parameters together and combinations
of two or more; a probe that cannot finish, a parameter with no legal probe value, a type
parameter or text macro the change depends on leaves it "unchecked for parameters", rejected.

A change that depends on a parameter (``_param_deps``) is checked under probes (chosen in
:mod:`._param_probes`): the values the change compares with and their neighbours, the module's
own numbers, common widths, values that elaborate other generate blocks; each counts only if
the reference, specialized to it, passes against itself. In a module nothing instantiates,
value-only parameters are proven as inputs together first (:mod:`._param_free`): no probes.

The repository's configurations are slang's elaboration; where the tools may give an instance
of the target other values (:func:`rtlopt.frontend._param_agree.disagreements`: slang's
diagnostics on the parents' overrides, two overrides of one parameter, an overridden body
``parameter`` of a module with a header parameter list, an unsized decimal literal above 32
bits, Yosys's own elaboration giving values slang does not), the change is unchecked for
parameters, rejected, the place named. So is a change that depends on a parameter where a text
of the repository instantiates a module through a macro rtlopt reads no definition of (a
build's ``-DCORE=m``: :mod:`._macro_instances`), which slang's elaboration cannot see.

One deadline (``formal.timeout_s``) for the whole verdict: the repository's configurations
first, then the probes; the result names its scope and each configuration's verdict.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.config import Config
from rtlopt.errors import DesignError
from rtlopt.evaluate._macros import macro_values
from rtlopt.evaluate._param_free import FREED_OK, FreeProof
from rtlopt.evaluate._param_probes import ProbeChoice
from rtlopt.evaluate._param_scope import (
    NOT_FINISHED,
    Evaluates,
    ParamOutcome,
    Scope,
    not_finished,
    verdict_of,
)
from rtlopt.evaluate._target_copy import design_with_target_text
from rtlopt.formal.budget import Deadline, within
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage, Verdict
from rtlopt.verilog import PARAMETER_SCAN_DIRECTIVES, alternation

if TYPE_CHECKING:
    from rtlopt.formal.second import SecondProof
    from rtlopt.frontend._param_agree import Agreement
    from rtlopt.frontend._param_deps import ParamDependence
    from rtlopt.frontend._params import Elaborations, Parameterization


#: Makes the second evaluator: ``(design, config, workdir) -> evaluator`` (the Evaluator class).
Factory = Callable[[Design, Config, Path], Evaluates]

__all__ = ["ParameterCheck"]

#: A parameter (``parameter``, an SV header ``#(``) or a text macro other than a directive.
_PARAMETRIC = re.compile(
    rf"\bparameter\b|#\s*\(|`(?!(?:{alternation(PARAMETER_SCAN_DIRECTIVES)})\b)[A-Za-z_]"
)

#: An include inside the module: what it declares or uses is not in the module's own text.
_INCLUDE = re.compile(r"`\s*include\b")

log = logging.getLogger(__name__)
#: One INFO line per configuration checked (the CLI shows it as its progress).
progress = logging.getLogger("rtlopt.evaluate.configuration")


class ParameterCheck(ProbeChoice, FreeProof):
    """Checks a candidate under the repository's other parameterizations of the target, and
    under probes of the parameters its change depends on."""

    def __init__(self, design: Design, config: Config, workdir: Path, factory: Factory) -> None:
        self.factory = factory
        self.design = design
        self.config = config
        self.workdir = workdir
        self._lock = threading.Lock()
        self._settings: list[Parameterization] | None = None
        self._readings_unchecked = ""
        self._ref = ""
        self._ref_dead: list[str] = []
        self._elab: Elaborations = {}  # the reference's elaborations, shared by every search
        self._subs: dict[int, Evaluates] = {}
        self._keys: dict[tuple[tuple[tuple[str, str], ...], bool], int] = {}
        self._designs: dict[tuple[tuple[str, str], ...], Design] = {}
        self._probe_lock = threading.RLock()
        self._probes: list[Parameterization] | None = None
        self._valid: dict[tuple[tuple[str, str], ...], Parameterization | None] = {}
        self._declared: dict[str, tuple[str, ...]] | None = None
        self._values: dict[str, list[str]] = {}
        self._agree: Agreement | None = None

    def _found(self) -> list[Parameterization]:
        from rtlopt.evaluate._foreign_params import foreign_parameterizations
        from rtlopt.evaluate._reading_params import reading_parameterizations
        from rtlopt.frontend._params import never_elaborated, parameterizations

        with self._lock:
            if self._settings is None:
                t = self.design.target
                self._settings = parameterizations(self.design)
                self._ref = ref = t.file.read_text(errors="surrogateescape")
                if self._settings and self._has_parameters():
                    # the values other readings (the simulators', other builds) and settings
                    # outside Verilog (command lines, test runners) pass to it
                    more = reading_parameterizations(self.design, self._settings)
                    self._settings += list(more.extra)
                    got = foreign_parameterizations(self.design, ref, self._settings, self._elab)
                    self._settings += got[0]
                    self._readings_unchecked = more.unchecked or got[1]
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

    def instantiated(self) -> bool:
        """Whether an instance in the repository (below one of its tops) uses the target:
        then its parameterizations are the guarantee and probes are extra assurance."""
        return any("." in w for pz in self._found() for w in pz.where)

    def _has_parameters(self) -> bool:
        """Whether the target declares a parameter or uses a text macro or an include in its
        own text (a module with none of them costs nothing here: other modules of its file
        and what they declare do not count)."""
        t = self.design.target
        if any(not p.local for p in t.parameters):
            return True
        own = t.text()
        return _PARAMETRIC.search(own) is not None or _INCLUDE.search(own) is not None

    def _text(self) -> str:
        if not self._ref:
            self._ref = self.design.target.file.read_text(errors="surrogateescape")
        return self._ref

    def check(
        self, text: str, deadline: Deadline | None = None, base: str = "proven"
    ) -> ParamOutcome | None:
        """The rejection (stage, reason, the failing configuration's result, whose status says
        whether a tool failed) or None, with the scope: every configuration the repository
        elaborates is checked first; then probes of the parameters the candidate's change
        depends on. A probe's difference rejects; a probe that does not finish, or a
        parameter with no other legal value, rejects only a target nothing instantiates.
        ``deadline``: the verdict's time budget (``formal.timeout_s`` by default); ``base``:
        the verdict under the defaults (the evaluator's own stages)."""
        if not self._has_parameters():
            return None
        settings = self._found()
        if not settings:
            return None
        deadline = deadline or Deadline.after(self.config.formal.timeout_s)
        inst = self.instantiated()
        used = [pz for pz in settings if any("." in w for w in pz.where)]
        scope = Scope(inst, len(used))
        scope.add(settings[0].label(), "defaults", ", ".join(settings[0].where[:3]), base)
        if not inst and self.config.harness.unused_parameters == "defaults":
            scope.notes.append(
                "parameters and macros at their defaults only (harness.unused_parameters = "
                "defaults: the module is only built with them)"
            )
            return self._done(scope, None)
        doubt = self._disagreement(scope) if inst else ""
        if doubt:
            return self._done(scope, (Stage.FORMAL, f"unchecked for parameters: {doubt}", None))
        if self._readings_unchecked:
            return self._done(
                scope, (Stage.FORMAL, f"unchecked for parameters: {self._readings_unchecked}", None)
            )
        deps = self._depends(text)
        hidden = self._hidden() if deps.params else []
        if hidden:
            more = f" ({len(hidden) - 1} more)" if len(hidden) > 1 else ""
            return self._done(
                scope, (Stage.FORMAL, f"unchecked for parameters: {hidden[0]}{more}", None)
            )
        why = self._unchecked(deps, inst, scope)
        if why:
            return self._done(scope, (Stage.FORMAL, f"unchecked for parameters: {why}", None))
        iface = not inst or self._opened(deps, scope)
        others = [pz for pz in settings[1:] if pz.differs(settings[0])]
        for i, pz in enumerate(others):
            res = self._run(text, pz, "repository", deadline.share(len(others) - i), scope)
            if res is not None and not res.accepted:
                where = ", ".join(pz.where[:3])
                reason = f"under parameters {pz.label()} ({where}): {res.reason}"
                scope.unreached([p.label() for p in others[i + 1 :]], "repository")
                return self._done(scope, (res.stage, reason, res))
        verdict, texts = self._free_check(text, deps, deadline, scope) if iface else (None, None)
        if iface:
            freed = {r["values"] for r in scope.rows if (r["kind"], r["verdict"]) == FREED_OK}
            if verdict is not None or (deps.params and freed >= {f"{p} free" for p in deps.params}):
                return self._done(scope, verdict)
        with within(deadline.share(2)):
            probes, missing = self._probes_for(deps, text, not iface, scope, texts)
        if missing:
            return self._done(
                scope, (Stage.FORMAL, f"unchecked for parameters {self.labels()}: {missing}", None)
            )
        return self._done(scope, self._probe_all(text, deps, probes, deadline, scope, not iface))

    def _opened(self, deps: ParamDependence, scope: Scope) -> bool:
        """Whether a parameter the change depends on of this instantiated target takes an
        open value (:func:`._param_open.open_parameters`: a top's parameter, a macro a build
        may set): then it is the module's interface, checked as one nothing instantiates."""
        from rtlopt.evaluate._param_open import open_parameters

        found = open_parameters(self.design) if deps.params else {}
        opened = [p for p in deps.params if p in found]
        for p in opened:
            scope.notes.append(f"{p} open: {found[p]} sets it")
        return bool(opened)

    def _hidden(self) -> list[str]:
        """Instances a macro no definition rtlopt reads names the module of
        (:func:`rtlopt.evaluate._macro_instances.hidden_instances`): each may be one of the
        target with parameter values slang's elaboration does not see."""
        from rtlopt.evaluate._macro_instances import hidden_instances

        return hidden_instances(self.design, self.workdir)

    def _disagreement(self, scope: Scope) -> str:
        """Why the repository's configurations (slang's elaboration) may not be the values the
        other tools build the target with (:func:`rtlopt.frontend._param_agree.disagreements`),
        or "" (with a note when Yosys could not cross-check them)."""
        from rtlopt.frontend._param_agree import disagreements

        with self._lock:
            if self._agree is None:
                self._agree = disagreements(
                    self.design, timeout_s=min(60.0, self.config.formal.timeout_s)
                )
        scope.notes += self._agree.notes
        reasons = self._agree.reasons
        if not reasons:
            return ""
        more = f" ({len(reasons) - 1} more)" if len(reasons) > 1 else ""
        return (
            "the tools may give the target other parameter values than slang's elaboration of "
            f"the repository, which rtlopt checks: {reasons[0]}{more}"
        )

    def _unchecked(self, deps: ParamDependence, inst: bool, scope: Scope) -> str:
        """Why a change to a target nothing instantiates cannot be checked (a type parameter
        or a macro it depends on: no probe sets those); for an instantiated target they are
        fixed by the repository's configurations, which are checked, and noted."""
        types = [p for p in deps.params if self._ties().get(p) == ("type",)]
        if inst:
            if deps.macros:
                scope.notes.append(
                    f"{', '.join(deps.macros)} as this compilation defines "
                    f"{'them' if len(deps.macros) > 1 else 'it'}"
                )
            return ""
        if types:
            return (
                f"the candidate changes code that depends on type parameter {types[0]}, and "
                "rtlopt does not probe other types of a module nothing in the repository "
                "instantiates (if it is only built with its defaults, set "
                'harness.unused_parameters = "defaults")'
            )
        from rtlopt.evaluate._macros import overridable_macros

        open_macros = overridable_macros(self.design, deps.macros)
        if deps.macros and not open_macros:
            scope.notes.append(
                f"{', '.join(deps.macros)} as the repository defines "
                f"{'them' if len(deps.macros) > 1 else 'it'} (unconditionally)"
            )
        if open_macros:
            return (
                f"the candidate changes code that depends on text macro {open_macros[0]} (a "
                "define sets it under a condition, or a localparam the change uses), and a module "
                "nothing in the repository instantiates may be compiled with other definitions, "
                "which rtlopt does not probe (if it is only built with these, set "
                'harness.unused_parameters = "defaults")'
            )
        return ""

    def _probe_all(
        self,
        text: str,
        deps: ParamDependence,
        probes: list[Parameterization],
        deadline: Deadline,
        scope: Scope,
        inst: bool,
    ) -> tuple[Stage, str, EvalResult | None] | None:
        """The candidate under each probe (with the unused-block probes and the values at which
        a changed guard diverges, when it changes a generate block none of the configurations
        elaborates or nothing instantiates the target): a difference rejects; a probe
        that does not finish rejects a target nothing instantiates, else it is noted."""
        from rtlopt.frontend._params import never_elaborated

        settings, name = self._found(), self.design.target.name
        local: Elaborations = {}
        dead = never_elaborated(text, name, self.design, settings, local) != self._ref_dead
        # nothing instantiates the target: its parameters are its interface, so a changed
        # guard or bound is searched for wherever it diverges, also when the defaults build
        # the same blocks on both sides (`W > 8` made `W > 8 && W != 10`)
        if dead or not inst:
            with within(deadline.share(2)):
                more = [*self._probed(), *self._diverging(text, deps, local)]
            probes += [pz for pz in dict.fromkeys(more) if pz not in probes]
        unfinished: list[str] = []
        first: dict[Parameterization, tuple[str, float]] = {}  # an unfinished try's reason
        queue = list(probes)
        log.info("%s: %d probe(s) in the %.1f s left", name, len(queue), deadline.left())
        for i, pz in enumerate(queue):
            share = deadline.share(len(queue) - i)
            given = share.left()
            try:
                res = self._run(text, pz, "probe", share, scope, again=i >= len(probes))
            except DesignError as exc:  # the reference does not elaborate under it: not legal
                log.info("probe %s not used: %s", pz.label(), exc)
                scope.notes.append(f"probe {pz.label()} skipped: the reference does not build")
                continue
            verdict = verdict_of(res) if res is not None else NOT_FINISHED
            rest = [p.label() for p in queue[i + 1 :]]
            # an unfinished probe of a target the repository instantiates is reported only,
            # legal or not: the reference is checked against itself where that decides
            decides = verdict == "refuted" or (verdict == NOT_FINISHED and not inst)
            if decides and self._illegal(pz, scope):
                continue
            if verdict == "refuted" and res is not None and not self._unbuilt(pz, res, scope):
                where = ", ".join(pz.where[:3])
                scope.unreached(rest, "probe")
                return (res.stage, f"under parameters {pz.label()} ({where}): {res.reason}", res)
            if verdict == NOT_FINISHED and self._negative_width(pz):
                scope.notes.append(f"probe {pz.label()}: not finished at a negative width")
                continue
            if verdict == NOT_FINISHED and inst:
                unfinished.append(pz.label())
            elif verdict == NOT_FINISHED:
                timeout = self.config.formal.timeout_s
                out = not_finished(pz, res, (given, timeout), queue, i, first, scope)
                if out is not None:
                    return out
        if unfinished:
            scope.notes.append(f"probe {'; '.join(unfinished)} not finished (reported only)")
        every = [*settings, *probes]
        if dead and never_elaborated(text, name, self.design, every, local) != never_elaborated(
            self._ref, name, self.design, every, self._elab
        ):
            if inst and not macro_values(self._ref + text):
                scope.notes.append(
                    "a changed generate block that no configuration of the repository "
                    "elaborates, nor any probe, is not checked"
                )
                return None
            if inst:  # another build may give the macro the value that selects it
                return (
                    Stage.FORMAL,
                    "unchecked: the candidate changes code (a generate block or its guard) that "
                    "none of the configurations rtlopt knows elaborates, and the module reads a "
                    "macro's value, which another build of the repository may set so that it "
                    "does (red-team round 125: `if (`MODE == 2)` with a Makefile's -DMODE=2); "
                    "keep that code as the repository has it",
                    None,
                )
            return (
                Stage.FORMAL,
                f"unchecked for parameters {self.labels()}: the candidate changes code (a "
                "generate block or its guard) that none of the repository's parameterizations "
                "of the target elaborates, and no probe parameterization elaborates it",
                None,
            )
        return None

    def _run(
        self,
        text: str,
        pz: Parameterization,
        kind: str,
        deadline: Deadline,
        scope: Scope,
        *,
        again: bool = False,
    ) -> EvalResult | None:
        """The candidate under ``pz`` within ``deadline`` (None when no time is left for a
        probe), its verdict added to ``scope``; ``again``: a probe tried once more with more
        time (a comment appended: the evaluator's memo holds the first, unfinished try)."""
        where = ", ".join(pz.where[:3])
        values = pz.differs(self._found()[0])
        name = self.design.target.name
        if kind == "probe" and deadline.left() < 1.0:
            scope.add(pz.label(), kind, where, NOT_FINISHED, "the time budget was spent")
            return None
        progress.info("%s: checking the %s configuration %s (%s)", name, kind, pz.label(), where)
        special = _specialized(text, name, values)
        if again:
            special += "\n// the probe tried again with the time the others left\n"
        with within(deadline):
            res = self._sub(values).evaluate(special)
        scope.add(pz.label(), kind, where, verdict_of(res), res.reason)
        return res

    def confirm_configurations(self, text: str) -> tuple[str, SecondProof | None, float]:
        """The second, independent proof of ``text`` under each configuration of the target
        the repository elaborates besides the defaults (the first proof proved each of them;
        a construct one frontend misreads may matter in one configuration only): the first
        that does not agree, with its label (None: all agree), and the seconds spent. Probe
        parameterizations are not built by the repository and keep the first proof only."""
        from rtlopt.formal.second import SecondProof

        spent = 0.0
        if not self.config.harness.parameterizations or not self._has_parameters():
            return "", None, spent
        settings = self._found()
        if not settings or not self.instantiated():
            return "", None, spent
        name = self.design.target.name
        for pz in [p for p in settings[1:] if p.differs(settings[0])]:
            values = pz.differs(settings[0])
            sub = self._sub(values)
            special = sub.in_reference_order(_specialized(text, name, values))
            res = sub.evaluate(special)
            if not res.accepted:
                why = f"unchecked: the configuration is not proven ({res.reason})"
                return f"under parameters {pz.label()}", SecondProof(False, "", why, 0.0), spent
            if res.formal is None or res.formal.verdict is not Verdict.PROVEN:
                continue  # its acceptance does not rest on a proof (as check's)
            progress.info("%s: the second proof under %s", name, pz.label())
            proof = sub.confirm(special, res)
            spent += proof.duration_s
            if not proof.agrees:
                return f"under parameters {pz.label()}", proof, spent
        return "", None, spent

    def _done(
        self, scope: Scope, rejection: tuple[Stage, str, EvalResult | None] | None
    ) -> ParamOutcome:
        if rejection is None and scope.pending:
            rejection = (Stage.FORMAL, f"unchecked for parameters: {scope.pending}", None)
        line = scope.text()
        log.info("%s: %s", self.design.target.name, line if rejection is None else "rejected")
        return ParamOutcome(rejection, line if rejection is None else "", tuple(scope.rows))

    def _ties(self) -> dict[str, tuple[str, ...]]:
        from rtlopt.frontend._params import declared_parameters

        with self._probe_lock:
            if self._declared is None:
                self._declared = declared_parameters(self._text(), self.design.target.name)
            return self._declared

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
        elaborates other generate code than the reference does: a value that exercises a
        changed guard, bound or block."""
        from rtlopt.frontend._params import elaborated_blocks
        from rtlopt.frontend._probe_values import PROBE_TRIES, around

        t = self.design.target
        out: list[Parameterization] = []
        for p in self._roots(deps):
            own = around(deps.numbers, "$clog2" in text, common=False)
            members = self._members(p)  # an enum's legal values are its members
            tried = members if members is not None else [*own, *self._module_values(p)]
            for v in list(dict.fromkeys(tried))[:PROBE_TRIES]:
                o = [f"{p}={v}"]
                # the code each side builds there (a changed guard's text alone is no
                # divergence: every value would count, and the first one tried was taken)
                cand = elaborated_blocks(text, t.name, self.design, o, local, guards=False)
                ref = elaborated_blocks(self._ref, t.name, self.design, o, self._elab, guards=False)
                if cand != ref:
                    found = self._pick(p, [v], 1)
                    out += found
                    if found:
                        break
        return out

    def _legal(self, values: dict[str, str]) -> Parameterization | None:
        """The probe that sets ``values`` if it is legal: it elaborates the reference, is
        no configuration of the repository, and the reference under it does not fail against
        itself (:meth:`_holds_first`; a check that did not finish is not remembered: the probe
        is used, and the candidate's own check under it decides)."""
        from rtlopt.frontend._params import probe

        key = tuple(sorted(values.items()))
        with self._probe_lock:
            if key in self._valid:
                return self._valid[key]
            settings = self._found()
            t = self.design.target
            pz = probe(self._ref, t.name, self.design, settings[0], values, self._elab)
            holds = pz is not None and pz not in settings and self._holds_first(pz)
            if holds is not None:
                self._valid[key] = pz if holds else None
            return pz if holds is not False else None

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
                self._probes = [pz for pz in found if self._holds_first(pz) is not False]
                log.info(
                    "%s: probe parameterization(s) of its unused blocks: %s",
                    t.name,
                    "; ".join(p.label() for p in self._probes) or "none",
                )
            return self._probes

    def _sub(self, values: dict[str, str], *, proof: bool = True) -> Evaluates:
        """The evaluator of the target specialized to ``values`` (``proof`` False: another
        one, without the formal check; both read one specialized design)."""
        with self._lock:
            key = (tuple(sorted(values.items())), proof)
            k = self._keys.setdefault(key, len(self._keys) + 1)
            if k in self._subs:
                return self._subs[k]
            (folder := self.workdir / "parameters" / str(k)).mkdir(parents=True, exist_ok=True)
            special = self._designs.get(key[0])
            if special is None:
                t = self.design.target
                text = _specialized(t.file.read_text(errors="surrogateescape"), t.name, values)
                special = self._designs[key[0]] = design_with_target_text(
                    self.design, text, folder, parameter_check=self.workdir
                )
            formal, harness = self.config.formal, self.config.harness
            if not proof:  # the simulation judges the stated power-up values: none left over
                formal = dataclasses.replace(formal, enabled=False)
                harness = dataclasses.replace(harness, initial_values="honor")
            cfg = dataclasses.replace(
                self.config,
                harness=dataclasses.replace(harness, parameterizations=False),
                eval=dataclasses.replace(self.config.eval, cache=False),
                formal=formal,
            )
            self._subs[k] = self.factory(special, cfg, folder / "eval")
            return self._subs[k]

    def close(self) -> None:
        for ev in self._subs.values():
            ev.close()


def _specialized(text: str, module: str, values: dict[str, str]) -> str:
    from rtlopt.frontend._params import specialize

    return specialize(text, module, values)
