"""The proof with a parameter free (:class:`FreeProof`, a part of
:class:`rtlopt.evaluate._params.ParameterCheck`): a change to a module nothing instantiates
that depends on a parameter only as a value is proven once more with that parameter an input
of the proof (:func:`rtlopt.frontend._param_free.free_parameters`), so every value is covered,
not the few the probes try. A parameter the reference needs as a constant (a width, a bound,
a guard) cannot be freed and keeps its probes; the candidate, freed the same way, must then
build and be proven, or the change is rejected."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
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

__all__ = ["FREED", "FREED_OK", "FreeProof"]

#: At most this many parameters are freed, one proof each.
FREED = 2
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
    ) -> tuple[Stage, str, EvalResult | None] | None:
        """The candidate proven with each parameter its change depends on free (at most
        :data:`FREED`; a type parameter is never freed): a difference, a failure or a proof
        that does not finish rejects; a parameter the reference cannot take as an input is
        noted and left to the probes."""
        from rtlopt.frontend._param_free import KINDS, free_parameters, new_errors, vector_width

        name = self.design.target.name
        values = [p for p in deps.params if self._ties().get(p) != ("type",)][:FREED]
        width = vector_width(self._ref, text)
        for i, p in enumerate(values):
            refs: dict[str, str] = {}
            for kind in KINDS:  # an untyped parameter: each type an override can give it
                ref = free_parameters(self._ref, name, [p], kind, width)
                if ref is not None and ref not in refs.values():
                    refs[kind] = ref
            first = refs.get("integer")
            if (
                first is None
                or any(new_errors(self._ref, r, self.design) for r in refs.values())
                or not self._holds(p, first)
            ):
                scope.notes.append(f"{p} not freed: the reference needs it as a constant")
                continue
            for kind, ref in refs.items():
                sub = self._freed(p, ref, proof=True, kind=kind)
                cand = free_parameters(text, name, [p], kind, width)
                if cand is None:
                    return (Stage.FORMAL, self._not_free(p), None)
                with within(deadline.share(len(values) - i)):
                    res: EvalResult = sub.evaluate(cand)
                every = "every value" if len(refs) == 1 else f"every {kind} value"
                scope.add(f"{p} free", "free", every, verdict_of(res), res.reason)
                if not res.accepted:
                    return (res.stage, f"with parameter {p} free ({every}): {res.reason}", res)
        return None

    def _holds(self, p: str, ref: str) -> bool:
        """Whether the reference with ``p`` an input builds, passes the screen and simulates
        against itself (a copy with a comment appended, not short-cut as identical text;
        no proof, as for a probe): a reference that uses ``p`` as a constant does not."""
        try:
            res: EvalResult = self._freed(p, ref, proof=False).evaluate(
                ref + "\n// the reference with a parameter free\n"
            )
        except (RtloptError, KeyError) as exc:
            log.info("parameter %s not freed: %s", p, exc)
            return False
        if not res.accepted:
            log.info("parameter %s not freed: %s", p, res.reason)
        return res.accepted

    def _freed(self, p: str, ref: str, *, proof: bool, kind: str = "integer") -> Any:
        """The evaluator of the reference with ``p`` an input (``proof`` False: without the
        formal check, judging the stated power-up values)."""
        folder = self.workdir / "parameters" / f"free-{p}-{kind}-{int(proof)}"
        folder.mkdir(parents=True, exist_ok=True)
        with self._probe_lock:
            design = design_with_target_text(self.design, ref, folder)
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
    def _not_free(p: str) -> str:
        return (
            f"unchecked for parameters: the candidate declares parameter {p} so that it cannot "
            "be made an input of the proof, as the reference's can (every value of it is "
            "proven that way in a module nothing in the repository instantiates)"
        )
