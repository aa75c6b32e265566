"""The proof with a parameter free (:class:`FreeProof`, a part of
:class:`rtlopt.evaluate._params.ParameterCheck`): a change to a module nothing instantiates
that depends on a parameter only as a value is proven once more with that parameter an input
of the proof (:func:`rtlopt.frontend._param_free.free_parameters`), so every value is covered,
not the few the probes try. Every such parameter is freed in the same proof, so every
combination of their values is covered too (red-team round 99: a change wrong only where two
reference guards hold together). A parameter the reference needs as a constant (a width, a
bound, a guard) cannot be freed and keeps its probes; the candidate, freed the same way, must
then build and be proven, or the change is rejected."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import Config
from rtlopt.errors import RtloptError
from rtlopt.evaluate._param_scope import Scope, verdict_of
from rtlopt.evaluate._target_copy import design_with_target_text
from rtlopt.formal.budget import Deadline, within
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage

if TYPE_CHECKING:
    from rtlopt.frontend._param_deps import ParamDependence

__all__ = ["FREED_OK", "FreeProof"]

#: The kind and verdict of a scope row of a parameter proven free.
FREED_OK = ("free", "proven")

log = logging.getLogger("rtlopt.evaluate._params")


class FreeProof:
    """The free-parameter proof of a parameter check; the check provides the design, the
    reference's text, the evaluator factory and the parameters' ties."""

    design: Design
    config: Config
    workdir: Path
    factory: Callable[[Design, Config, Path], Any]
    _ref: str
    _probe_lock: threading.RLock

    def _ties(self) -> dict[str, tuple[str, ...]]:
        raise NotImplementedError

    def _free_check(
        self, text: str, deps: ParamDependence, deadline: Deadline, scope: Scope
    ) -> tuple[tuple[Stage, str, EvalResult | None] | None, tuple[str, str] | None]:
        """The candidate proven with every parameter its change depends on that the reference
        can take as an input freed together (a type parameter is never freed), so one proof
        covers every combination of their values: a difference, a failure or a proof that does
        not finish rejects; a parameter the reference cannot take as an input is noted and
        left to the probes. With the rejection or None, the reference and the candidate as
        proven (integers freed), or None when nothing was freed."""
        from rtlopt.frontend._param_free import unprobed, vector_width

        values = [p for p in deps.params if self._ties().get(p) != ("type",)]
        odd = unprobed(self._ref, self.design.target.name, values)
        if odd:
            return (Stage.FORMAL, self._unprobed(odd[0]), None), None
        width = vector_width(self._ref, text)
        freed, refs = self._freeable(values, width)
        for p in values:
            if p not in freed:
                scope.notes.append(f"{p} not freed: the reference needs it as a constant")
        if not freed:
            return None, None
        untyped = list(refs[0][1])
        if untyped:
            scope.notes.append(
                f"{', '.join(untyped)} free as integers and as vectors of up to {width} bits"
            )
        verdict = self._prove_freed(text, freed, refs, width, deadline, scope)
        real = "" if verdict is not None else self._real_read(text, untyped)
        if real:  # proven for integers and vectors (a refutation names its value first)
            scope.notes.append(f"{', '.join(untyped)}: a real override not covered")
            verdict = (Stage.FORMAL, real, None)
        first = refs[0][1]
        cand = self._free(text, freed, first, width)
        return verdict, (refs[0][2], cand) if cand is not None else None

    def _real_read(self, text: str, untyped: list[str]) -> str:
        """Why the change is unchecked for a real override of a freed untyped parameter
        (:mod:`rtlopt.frontend._param_reals`): the texts read it otherwise than all as truth
        values or all rounded, and the reference builds with a real in its place; or ""."""
        from rtlopt.frontend._param_reals import ROUNDING, TRUTH, real_reads, takes_a_real

        name = self.design.target.name
        ref, cand = real_reads(self._ref, name, untyped), real_reads(text, name, untyped)
        for p in untyped:
            kinds = (ref or {}).get(p, set()) | (cand or {}).get(p, {"unread"})
            if kinds <= {TRUTH} or kinds <= {ROUNDING}:
                continue
            if takes_a_real(self._ref, name, p, self.design):
                return (
                    f"unchecked for parameters: {p} is untyped and the reference builds with "
                    f"a real value of it ({p} = 0.5), which the proof with {p} free does not "
                    f"cover (it proves integer and vector values), and the texts read {p} "
                    "otherwise than all as conditions or all as whole assigned values, where "
                    "a real acts as no integer does (if the module is only built with "
                    "integer values, type the parameter in the repository; if only with its "
                    "defaults, set "
                    'harness.unused_parameters = "defaults"; '
                    "it holds for every module nothing instantiates)"
                )
        return ""

    def _refs(self, names: list[str], width: int) -> list[tuple[str, dict[str, str], str]] | None:
        """The reference with ``names`` inputs, once per choice of kinds of the untyped ones
        (:func:`rtlopt.frontend._param_free.kind_choices`: each type an override can give
        them, in pairs), as (what the choice is called, the choice, the text), all integers
        first; None when it cannot take them as inputs."""
        from rtlopt.frontend._param_free import (
            constant_reads,
            kind_choices,
            new_errors,
        )

        name = self.design.target.name
        if constant_reads(self._ref, name, names):
            return None
        refs: list[tuple[str, dict[str, str], str]] = []
        for choice in kind_choices(self._ref, name, names):
            ref = self._free(self._ref, names, choice, width)
            if ref is None:
                return None
            if ref not in (r for _, _, r in refs):
                kinds = set(choice.values())
                label = (
                    kinds.pop()
                    if len(kinds) == 1
                    else ", ".join(f"{p} {k}" for p, k in choice.items())
                )
                refs.append((label if choice else "", choice, ref))
        if not refs or any(new_errors(self._ref, r, self.design) for _, _, r in refs):
            return None
        return refs

    def _freeable(
        self, values: list[str], width: int
    ) -> tuple[list[str], list[tuple[str, dict[str, str], str]]]:
        """The parameters of ``values`` the reference takes as inputs together, and the
        reference so freed by kind: all of them at once when it can, else each in turn that
        keeps the rest freeable."""
        refs = self._refs(values, width) if values else None
        if refs is not None and self._holds(", ".join(values), refs[0][2]):
            return values, refs
        freed: list[str] = []
        best: list[tuple[str, dict[str, str], str]] = []
        for p in values:
            trial = self._refs([*freed, p], width)
            if trial is not None and self._holds(", ".join([*freed, p]), trial[0][2]):
                freed, best = [*freed, p], trial
        return freed, best

    def _prove_freed(
        self,
        text: str,
        freed: list[str],
        refs: list[tuple[str, dict[str, str], str]],
        width: int,
        deadline: Deadline,
        scope: Scope,
    ) -> tuple[Stage, str, EvalResult | None] | None:
        """The candidate, freed as the reference is, proven against it once per choice of
        kinds."""
        from rtlopt.frontend._param_free import four_state

        label = ", ".join(freed)
        one = len(freed) == 1
        # an override may give a 4-state one x or z bits (`#(.P(1'bx))`: `if (P)` takes its
        # else, `!P && q` is x; red-team round 116): the proofs feed them x too
        x_fed = tuple(four_state(self._ref, self.design.target.name, freed))
        for i, (kinds, choice, ref) in enumerate(refs):
            sub = self._freed(label, ref, proof=True, kind=f"k{i}", x_fed=x_fed)
            cand = self._free(text, freed, choice, width)
            if cand is None:
                return (Stage.FORMAL, self._not_free(label), None)
            with within(deadline.share(len(refs) - i)):
                res: EvalResult = sub.evaluate(cand)
            every = f"every {kinds} value" if " " not in kinds else f"every value with {kinds}"
            every = "every value" if len(refs) == 1 else every
            if not one:
                every += " of each, together"
            for p in freed:
                scope.add(f"{p} free", "free", every, verdict_of(res), res.reason)
            if not res.accepted:
                what = f"parameter {label}" if one else f"parameters {label}"
                return (res.stage, f"with {what} free ({every}): {res.reason}", res)
        return None

    def _suggested(
        self, text: str, names: list[str], scope: Scope
    ) -> tuple[dict[str, list[str]], str]:
        """Whether the candidate uses the values of the parameters ``names`` (not freed) as
        the reference does: both proven with every such use read from an input
        (:func:`rtlopt.frontend._param_split.split_values`). A difference gives the value to
        probe first (a real refutation there names it) and why the change is unchecked if
        every probe passes: a proof at one width cannot tell a value the widths contradict
        from one they allow, so the change fails closed. "" when they agree, when neither
        uses them as values, or when the reference cannot be read so."""
        from rtlopt.frontend._param_split import COPY_SUFFIX, INPUT_SUFFIX, split_values

        name = self.design.target.name
        label = ", ".join(names)
        passed = self._passed_on(text, names)
        if passed:
            return {}, passed
        source, _ = self._sources(text)
        ref = split_values(self._ref, name, names, sources=source, tag="r")
        cand = split_values(text, name, names, sources=source, tag="c")
        if ref is None or cand is None:  # a type no input holds, a name declared twice
            return {}, (
                f"rtlopt cannot read the uses of {label} as values in the "
                f"{'reference' if ref is None else 'candidate'} (a type no input can have, or "
                "a localparam computed from it declared twice), so a module nothing in the "
                "repository instantiates could differ at a value no probe tries (if the module "
                'is only built with its defaults, set harness.unused_parameters = "defaults"; '
                "it holds for every module nothing instantiates)"
            )
        if ref[1] + cand[1] == 0:
            return {}, ""
        try:
            res: EvalResult = self._freed(label, ref[0], proof=True, kind="values").evaluate(
                cand[0]
            )
        except RtloptError as exc:  # the reference so read does not build: no such check
            log.info("%s not read as values: %s", label, exc)
            if COPY_SUFFIX in ref[0] or COPY_SUFFIX in cand[0]:  # an instance's uses: unread
                return {}, (
                    f"rtlopt cannot read the uses of {label} as values in the modules the "
                    f"reference or the candidate hands it to ({_clipped(str(exc))}), so a "
                    "module nothing in the repository instantiates could differ at a value no "
                    "probe tries (if the module is only built with its defaults, set "
                    'harness.unused_parameters = "defaults"; '
                    "it holds for every module nothing instantiates)"
                )
            return {}, ""
        if res.accepted:
            scope.notes.append(f"{label} as values: the same uses for every value")
            return {}, ""
        found = {p: _input_value(res, p + INPUT_SUFFIX) for p in names}
        where = ", ".join(f"{p}={v}" for p, v in found.items() if v is not None)
        why = (
            f"the candidate uses the value of {label} where the reference does not, or "
            f"otherwise ({'they differ at ' + where if where else _clipped(res.reason)}), and "
            f"a proof at the widths of one value of {label} cannot tell which other values "
            "the widths allow: a module nothing in the repository instantiates could differ "
            "at a value no probe tries (write the rewrite with the reference's uses of it, or, "
            "if the module is only built with its defaults, set harness.unused_parameters = "
            '"defaults"; '
            "it holds for every module nothing instantiates)"
        )
        return {p: [str(v)] for p, v in found.items() if v is not None}, why

    def _free(
        self, text: str, names: Sequence[str], kind: str | Mapping[str, str], width: int
    ) -> str | None:
        """``text`` with ``names`` freed, through the modules it hands them to
        (:func:`rtlopt.frontend._param_free_inst.free_through_instances`)."""
        from rtlopt.frontend._param_free_inst import free_through_instances

        name = self.design.target.name
        source, _ = self._sources(text)
        return free_through_instances(text, name, names, kind, width, self.design, source)

    def _sources(self, text: str) -> tuple[Callable[[str], str | None], frozenset[str]]:
        """A module's text by its name: the candidate's own helpers (``text``), else the
        repository's; None for one rtlopt has no text of. And the helpers' names."""
        from rtlopt.frontend import parse_text

        name = self.design.target.name
        try:  # the candidate's own helpers, by their offsets in its text (no file)
            mods = parse_text(text, "candidate.v")
            helpers = {m.name: text[m.start : m.end] for m in mods if m.name != name}
        except RtloptError:
            helpers = {}

        def source(module: str) -> str | None:
            if module in helpers:
                return helpers[module]
            found = self.design.modules.get(module)
            try:
                return found.text() if found is not None else None
            except OSError:
                return None

        return source, frozenset(helpers)

    def _passed_on(self, text: str, names: list[str]) -> str:
        """Why the split proof cannot see every value use of ``names``: the reference or the
        candidate assigns one to an instance's parameter that its module guards on, passes
        on positionally or has no text for (:func:`rtlopt.frontend._param_passed.passed_on`;
        a module that uses it as a value is split there: :func:`.split_values`), or ""."""
        from rtlopt.frontend._param_passed import passed_on

        name = self.design.target.name
        source, own = self._sources(text)
        for side, code in (("reference", self._ref), ("candidate", text)):
            where = passed_on(code, name, names, source, own)
            if where:
                return (
                    f"the {side} passes {', '.join(names)} to the parameter {where}, which "
                    "guards on it (a generate condition, a constant comparison) or which "
                    "rtlopt cannot read: a proof at one value of it cannot see what it "
                    "selects, so a module nothing in the repository instantiates could "
                    "differ at a value no probe tries (write the helper's logic inline, or, if "
                    "the module is only built with its defaults, set harness.unused_parameters "
                    '= "defaults"; '
                    "it holds for every module nothing instantiates)"
                )
        return ""

    def _holds(self, p: str, ref: str) -> bool:
        """Whether the reference with ``p`` (names joined by ", ") inputs builds, passes the
        screen and simulates against itself (a copy with a comment appended, not short-cut
        as identical text; no proof, as for a probe): a reference that uses ``p`` as a
        constant does not."""
        try:
            res: EvalResult = self._freed(p, ref, proof=False).evaluate(
                ref + "\n// the reference with a parameter free\n"
            )
        except (RtloptError, KeyError) as exc:
            log.info("parameter %s not freed: %s", p, exc)
            return False
        if not res.accepted and not res.is_infrastructure_error and _undecided(res):
            # built, screened and simulated: only a proof decides the rest (x the repository
            # feeds), which the freed proof of the candidate is
            log.info("parameter %s freed; the reference left to the proof: %s", p, res.reason)
            return True
        if not res.accepted:
            log.info("parameter %s not freed: %s", p, res.reason)
        return res.accepted

    def _freed(
        self,
        p: str,
        ref: str,
        *,
        proof: bool,
        kind: str = "integer",
        x_fed: tuple[str, ...] = (),
    ) -> Any:
        """The evaluator of the reference with ``p`` (names joined by ", ") inputs (``proof``
        False: without the formal check, judging the stated power-up values); ``x_fed``: those
        of them the proofs feed x (:attr:`rtlopt.frontend.model.Design.x_fed`)."""
        tag = p.replace(", ", "-")
        folder = self.workdir / "parameters" / f"free-{tag}-{kind}-{int(proof)}"
        folder.mkdir(parents=True, exist_ok=True)
        with self._probe_lock:
            design = design_with_target_text(
                self.design, ref, folder, parameter_check=self.workdir, x_fed=x_fed
            )
        c = self.config
        formal, harness = c.formal, c.harness
        if not proof:
            formal = dataclasses.replace(formal, enabled=False)
            harness = dataclasses.replace(harness, initial_values="honor")
        cfg = dataclasses.replace(
            c,
            harness=dataclasses.replace(harness, parameterizations=False),
            eval=dataclasses.replace(c.eval, cache=False),
            formal=formal,
        )
        return self.factory(design, cfg, folder / "eval")

    @staticmethod
    def _unprobed(p: str) -> str:
        return (
            f"unchecked for parameters: the candidate changes code that depends on parameter "
            f"{p}, a real or a string, which rtlopt can neither make an input of the proof nor "
            "probe in every value in a module nothing in the repository instantiates (if the "
            'module is only built with its defaults, set harness.unused_parameters = "defaults"; '
            "it holds for every module nothing instantiates)"
        )

    @staticmethod
    def _not_free(p: str) -> str:
        return (
            f"unchecked for parameters: the candidate declares parameter {p} so that it cannot "
            "be made an input of the proof, as the reference's can (every value of it is "
            "proven that way in a module nothing in the repository instantiates)"
        )


def _undecided(res: EvalResult) -> bool:
    """Whether ``res`` (the reference against itself, without the proof) is left to a proof:
    "unchecked", its simulation without a mismatch."""
    sim = res.sim
    return res.reason.startswith("unchecked") and (sim is None or sim.first_mismatch is None)


def _input_value(res: EvalResult, port: str) -> int | None:
    """The value of input ``port`` in ``res``'s counterexample (the proof's, in bits, or the
    simulation's first mismatch, in hex digits), a 32-bit one signed; None when it has none."""
    got: list[tuple[str, int]] = []
    if res.formal is not None:
        got.append((str(res.formal.counterexample.get(port, "")), 2))
    sim = res.sim.first_mismatch if res.sim is not None else None
    if sim is not None:
        got.append((str(sim.inputs.get(port, "")), 16))
    for text, base in got:
        digits = text.strip().lower().replace("_", "")
        try:
            n = int(digits, base)
        except ValueError:  # none, or x and z bits
            continue
        bits = len(digits) * (1 if base == 2 else 4)
        return n - 2**32 if bits == 32 and n >= 2**31 else n
    return None


def _clipped(text: str, limit: int = 200) -> str:
    """``text`` cut at a word before ``limit`` characters, marked (held-out trial 51: a
    reason ended "[counterexample replay: the counte")."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:([") + " ..."
