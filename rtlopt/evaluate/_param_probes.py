"""Which values a parameter check probes (:class:`ProbeChoice`, the choice half of
:class:`rtlopt.evaluate._params.ParameterCheck`): the parameters a change depends on, tied ones
through their roots, each one's values from the change's own numbers, then from the module's,
an enum's members, a width beyond every written one, and combinations of two or more."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rtlopt.config import Config
from rtlopt.errors import RtloptError
from rtlopt.evaluate._param_free import FREED_OK
from rtlopt.evaluate._param_scope import SKIPPED, Evaluates, Scope
from rtlopt.frontend._probe_values import PROBE_BEYOND_MAX
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage

if TYPE_CHECKING:
    from rtlopt.frontend._param_deps import ParamDependence
    from rtlopt.frontend._params import Elaborations, Parameterization

__all__ = ["COMBINATIONS", "SPECIAL", "ProbeChoice"]

#: How many repository modules the leak analysis reads below a text.
_HELPERS_MAX = 32

#: At most this many probes combine parameters (all together, then pairs).
COMBINATIONS = 6
#: At most this many probes set every parameter to one value that each of them is probed at
#: (``(P || Q || R || S) ? 1 : 0`` in a width differs only where all four are 0: round 113).
COMMON = 4
#: At most this many probes of a parameter of a target nothing instantiates at the values a
#: constant expression of the candidate singles out (:meth:`ProbeChoice._special`).
SPECIAL = 2

log = logging.getLogger("rtlopt.evaluate._params")


class ProbeChoice:
    """The probe choice of a parameter check; the check provides the reference's text, its
    parameterizations (:meth:`_found`), its ties (:meth:`_ties`) and which probes are legal
    (:meth:`_legal`)."""

    design: Design
    config: Config
    _ref: str
    _elab: Elaborations
    _probe_lock: threading.RLock
    _valid: dict[tuple[tuple[str, str], ...], Parameterization | None]
    _values: dict[str, list[str]]
    #: values of parameters not freed where the change may differ (the free proof's part)
    _suggested: Callable[[str, list[str], Scope], tuple[dict[str, list[str]], str]]

    def _found(self) -> list[Parameterization]:
        raise NotImplementedError

    def _ties(self) -> dict[str, tuple[str, ...]]:
        raise NotImplementedError

    def _legal(self, values: dict[str, str]) -> Parameterization | None:
        raise NotImplementedError

    def instantiated(self) -> bool:
        raise NotImplementedError

    def _sub(self, values: dict[str, str], *, proof: bool = True) -> Evaluates:
        raise NotImplementedError

    def _roots(self, deps: ParamDependence) -> list[str]:
        """The parameters to probe for ``deps``: a parameter whose default names others
        (``W = B + 1``) is probed through them, so tied parameters change together; type
        parameters are not probed."""
        from rtlopt.frontend._params import tied_roots

        ties = self._ties()
        defaults = dict(self._found()[0].values)
        roots = [r for p in deps.params for r in tied_roots(ties, p)]
        return [r for r in dict.fromkeys(roots) if r in defaults and ties.get(r) != ("type",)]

    def _probes_for(
        self,
        deps: ParamDependence,
        text: str,
        inst: bool,
        scope: Scope,
        freed: tuple[str, str] | None = None,
    ) -> tuple[list[Parameterization], str]:
        """The probes of the parameters the candidate's change depends on (tied ones through
        their roots, :meth:`_roots`): for each, up to ``harness.parameter_probes`` values from
        the change's own numbers, as many from the module's
        (:func:`rtlopt.frontend._params.probe_values`) and, when the change writes a fixed
        width, one above every width the texts write (:func:`rtlopt.frontend._params.beyond`);
        for a target nothing instantiates whose change depends on two or more parameters,
        their combinations too (:meth:`_combined`). Or why the change is unchecked: a
        parameter of such a target with no other legal value (for an instantiated target
        that parameter is fixed: noted in ``scope``). New guards are looked for in the
        ``freed`` texts (reference, candidate) where parameters were proven free: a guard of
        freed parameters only was proven for every value."""
        from rtlopt.frontend._probe_values import beyond

        choices = self._choices(deps, text)
        k = self.config.harness.parameter_probes
        why, reach = self._refused(deps, text, inst, freed, choices)
        if why:
            return [], why
        chosen: list[Parameterization] = []
        firsts: dict[str, str] = {}
        tried: dict[str, list[str]] = {}
        if not inst and k > 0 and deps.params:  # and past every new constant's value
            values = [*self._new_reach(text, values=True), *deps.numbers]
            reach += [n for n in values if 0 <= n and n + 2 <= PROBE_BEYOND_MAX]
        done = {
            r["values"].removesuffix(" free")
            for r in scope.rows
            if (r["kind"], r["verdict"]) == FREED_OK
        }
        rest = [
            p
            for p in self._roots(deps)
            if p not in done and p not in choices and self._members(p) is None
        ]
        suggested: dict[str, list[str]] = {}
        if not inst and k > 0 and rest:
            suggested, scope.pending = self._suggested(text, rest, scope)
        for p in self._roots(deps):
            if p in choices:  # a class of values per probe: every behaviour under p
                got = self._pick(p, choices[p], len(choices[p]))
                if got:
                    firsts[p] = dict(got[0].values)[p]
                chosen += [pz for pz in got if pz not in chosen]
                continue
            got = self._values_of(p, deps, k)
            if not got:
                if k > 0 and inst:
                    scope.notes.append(
                        f"{p} fixed: no other value of {p} elaborates the reference and "
                        "passes it against itself"
                    )
                    continue
                return [], self._missing(p, k)
            firsts[p] = dict(got[0].values)[p]
            if k > 0 and not inst and self._members(p) is None:  # a guard computed from p
                got += self._pick(p, self._special(text, p), SPECIAL, got)
            if k > 0 and deps.fixed and self._members(p) is None:  # no width of an enum
                got += self._pick(p, [beyond(deps.numbers, self._ref + text)], 1, got)
            if reach and self._members(p) is None:  # past what only the candidate reaches
                # at the first widths holding it, too: `(ones >> 99) == 1` holds at W = 100
                # only, `ones == 2**100 - 1` (100 bits long) as well
                past = [str(max(reach) + 1), str(max(reach)), beyond(reach, "")]
                got += self._pick(p, past, 3, got)
            if k > 0 and not inst and self._members(p) is None:  # `[W:0]` holds W = -1
                got += self._pick(p, ["-1", "-2"], 1, got)
            if suggested.get(p):  # where its value uses may differ
                got += self._pick(p, suggested[p], len(suggested[p]), got)
            chosen += [pz for pz in got if pz not in chosen]
            tried[p] = [dict(pz.values)[p] for pz in got]
        if not inst and k > 0:  # a parameter tied to others by its default, set apart
            chosen += [pz for pz in self._untied(deps, choices, firsts) if pz not in chosen]
        if not inst and len(firsts) >= 2:
            chosen += [pz for pz in self._combined(firsts, tried) if pz not in chosen]
        self._log_probes(deps, chosen)
        return chosen, ""

    def _log_probes(self, deps: ParamDependence, chosen: list[Parameterization]) -> None:
        if deps.params:
            log.info(
                "%s: the change depends on %s; probes %s",
                self.design.target.name,
                ", ".join(deps.params),
                "; ".join(pz.label() for pz in chosen) or "none",
            )

    def _untied(
        self, deps: ParamDependence, choices: dict[str, list[str]], firsts: dict[str, str]
    ) -> list[Parameterization]:
        """A probe of each parameter the change depends on whose default names others
        (``H = W / 2``, ``AW = $clog2(N)``), set apart from them: a module nothing
        instantiates may be given any value of it (red-team round 119: a candidate writing
        ``W / 2`` where the reference reads ``H`` agreed at every probe of ``W``)."""
        ties = self._ties()
        out: list[Parameterization] = []
        for p in deps.params:
            tied = [q for q in ties.get(p, ()) if q != "type"]
            if not tied or p in firsts or p in choices or self._members(p) is not None:
                continue
            out += self._values_of(p, deps, 1)[:2]
        return out

    def _refused(
        self,
        deps: ParamDependence,
        text: str,
        inst: bool,
        freed: tuple[str, str] | None,
        choices: dict[str, list[str]],
    ) -> tuple[str, list[int]]:
        """Why no probes can check the change of a target nothing instantiates (a new guard
        on parameters whose values are not all probed, a new width leak, a number past what
        probes reach), or "", with the numbers only the candidate reaches."""
        from rtlopt.frontend._param_guards import new_guards

        if inst or not deps.params:
            return "", []
        ref, cand = freed or (self._ref, text)
        with self._probe_lock:
            guards = new_guards(ref, cand, self.design.target.name, frozenset(choices))
            # one the candidate drops singles values out as well (`(P ^ 5) == 12` at P = 9,
            # `P == 3 && Q == 5`: red-team round 114): where the two differ, no probe may be
            dropped = new_guards(cand, ref, self.design.target.name, frozenset(choices))
        if guards:
            return self._guarded(guards), []
        if dropped:
            return self._guarded(dropped, "the reference", "the candidate"), []
        leaks = self._new_leaks(text)
        if leaks:
            return self._leaked(leaks), []
        reach = self._new_reach(text) if self.config.harness.parameter_probes > 0 else []
        if reach and reach[-1] + 2 > PROBE_BEYOND_MAX:
            return self._out_of_reach(reach[-1]), []
        return "", reach

    def _holds_first(self, pz: Parameterization) -> bool | None:
        """Whether probe ``pz`` is legal before the candidate is checked under it
        (:meth:`_probe_holds`); None (used, undecided) for a target the repository
        instantiates: its probes are extra assurance, so the reference is checked against
        itself under one only where the candidate differs there (:meth:`_illegal`), which
        halves the probes' cost where the candidate holds."""
        return None if self.instantiated() else self._probe_holds(pz)

    def _illegal(self, pz: Parameterization, scope: Scope) -> bool:
        """Whether the candidate's difference (or unfinished check) under probe ``pz`` of an
        instantiated target (whose probes' legality waits: :meth:`_holds_first`) is no
        verdict: the reference under it fails against itself (then the probe is not legal,
        its row says so); a reference check that cannot decide leaves the verdict standing."""
        if not self.instantiated() or self._probe_holds(pz) is not False:
            return False
        row = next(r for r in reversed(scope.rows) if r["values"] == pz.label())
        row.update(verdict=SKIPPED, reason="the reference under it fails against itself")
        scope.notes.append(f"probe {pz.label()} skipped: the reference fails against itself")
        return True

    def _probe_holds(self, pz: Parameterization) -> bool | None:
        """Whether the reference specialized to probe ``pz`` evaluates against itself (a copy
        with a comment appended: built, screened and simulated from its stated power-up
        values, not short-cut as identical text); None when that check did not finish or
        left the verdict to a proof, or did not start because the time of the search for
        legal probes (its :func:`within` deadline) is spent: the defaults' own proof comes
        after it in the verdict's one budget.

        The reference is not proven against itself here: a proof of a design against its own
        copy says nothing of the candidate, it took as long as the candidate's own proof under
        the probe (a module of 13 probes spent the budget on them and was left unchecked), and
        a proof of it that ran out of time made the probe "not legal", so the candidate went
        unchecked under it. The candidate's own proof under the probe decides; one that does
        not finish leaves the change unchecked (fail closed). Only a reference that does not
        build, pass the screen or simulate against itself makes a probe illegal."""
        from rtlopt.formal.budget import time_left

        left = time_left()
        if left is not None and left < 1.0:  # the search's share is spent: not a verdict
            log.info("probe %s: no time left to check the reference under it", pz.label())
            return None
        from rtlopt.frontend._params import specialize

        values = pz.differs(self._found()[0])
        # the target's own text, as a candidate is: its file's other modules are the
        # repository's, and a copy of them is refused as a redefinition
        copy = specialize(self.design.target.text(), self.design.target.name, values)
        copy += "\n// the reference under a probe parameterization\n"
        try:
            res = self._sub(values, proof=False).evaluate(copy)
        except RtloptError as exc:
            log.info("probe %s not used: %s", pz.label(), exc)
            return False
        if res.accepted:
            return True
        if res.is_infrastructure_error or res.reason.startswith("unchecked"):
            # no verdict on the probe (a tool's time, or what only a proof decides): the
            # probe is used and the candidate's own check under it decides
            log.info("probe %s: the reference under it is undecided: %s", pz.label(), res.reason)
            return None
        log.info("probe %s not used: the reference under it: %s", pz.label(), res.reason)
        return False

    def _values_of(self, p: str, deps: ParamDependence, k: int) -> list[Parameterization]:
        """Up to ``k`` probes of ``p`` from the change's own numbers, then up to ``k`` more
        from the module's."""
        from rtlopt.frontend._probe_values import around, sizes

        members = self._members(p)
        if members is not None:  # an enum: its members are its legal values, each a probe
            return self._pick(p, members, max(k, len(members)) if k > 0 else 0)
        signed = not sizes(self._ref, p)
        own = around(deps.numbers, "$clog2" in self._ref, common=False, negative=signed)
        got = self._pick(p, own, k)
        return got + self._pick(p, self._module_values(p), k, got)

    def _combined(
        self, firsts: dict[str, str], tried: dict[str, list[str]]
    ) -> list[Parameterization]:
        """Probes that set several parameters at once: all of them at each one's first probe
        value, each pair so, and all of them at each value (up to :data:`COMMON`) that every
        one of them is probed at (``tried``): a change wrong only when several differ from
        their defaults together shows there."""
        names = list(firsts)
        sets = [{a: firsts[a], b: firsts[b]} for i, a in enumerate(names) for b in names[i + 1 :]]
        if len(names) > 2:  # first: with four or more, the pairs alone fill COMBINATIONS
            sets.insert(0, dict(firsts))
        sets = sets[:COMBINATIONS]
        common = [
            v for v in tried.get(names[0], []) if all(v in tried.get(p, []) for p in names[1:])
        ]
        sets += [dict.fromkeys(names, v) for v in common[:COMMON]]
        out: list[Parameterization] = []
        for values in sets:
            pz = self._legal(values)
            if pz is not None and pz not in out:
                out.append(pz)
        return out

    @staticmethod
    def _guarded(
        guards: list[str], who: str = "the candidate", other: str = "the reference"
    ) -> str:
        """Why a change that adds (or drops) parameter guards is unchecked
        (:mod:`rtlopt.frontend._param_guards`)."""
        first = min(guards, key=len)
        more = f" ({len(guards) - 1} more)" if len(guards) > 1 else ""
        return (
            f"{who} computes `{first}` from the module's parameters{more}, which {other} "
            "does not; such a guard can single out values no probe tries, so the "
            "change cannot be checked for every value of a module nothing in the repository "
            "instantiates (write the rewrite without it, or, if the module is only built with "
            'its defaults, set harness.unused_parameters = "defaults"; '
            "it holds for every module nothing instantiates)"
        )

    def _unbuilt(self, pz: Parameterization, res: EvalResult, scope: Scope) -> bool:
        """Whether ``res`` is the candidate not compiling under a negative value of a
        parameter that sizes something (``{W{1'b0}}`` at W = -1, where the reference's
        ``[W:0]`` builds): a width below zero is no design's intent, so it is noted, not a
        difference; a candidate that builds there and differs is."""
        if self._negative_width(pz) and res.stage is Stage.COMPILE:
            scope.notes.append(f"probe {pz.label()}: the candidate does not build there")
            return True
        return False

    def _negative_width(self, pz: Parameterization) -> bool:
        """Whether probe ``pz`` gives a parameter that sizes something a negative value: no
        design's intent, so a candidate that does not build or whose check does not finish
        there is noted (held-out trial 44: verilog-uart's rewrites proven at every width tried
        but unchecked at DATA_WIDTH = -1); one that differs there is refuted."""
        from rtlopt.frontend._probe_values import sizes

        return any(v.startswith("-") and sizes(self._ref, p) for p, v in pz.values)

    def _new_reach(self, text: str, values: bool = False) -> list[int]:
        """The numbers the candidate reaches and the reference does not, ascending
        (:func:`rtlopt.frontend._param_special.reach_numbers`): a change wrong only at a
        width past one of them shows at a probe one past the largest."""
        from rtlopt.frontend._param_special import reach_numbers

        name = self.design.target.name
        with self._probe_lock:
            theirs = set(reach_numbers(self._ref, name, self.design, values))
            mine = reach_numbers(text, name, self.design, values)
        return [n for n in mine if n not in theirs]

    def _new_leaks(self, text: str) -> list[str]:
        """The fixed-width nets the candidate writes from data whose width moves with the
        parameters by a write the reference does not have
        (:func:`rtlopt.frontend._param_leaks.new_width_leaks`)."""
        from rtlopt.frontend._param_leaks import new_width_leaks

        ref, cand = self._with_helpers(self._ref), self._with_helpers(text)
        with self._probe_lock:
            return new_width_leaks(ref, cand, self.design.target.name, self.design)

    def _with_helpers(self, text: str) -> str:
        """``text`` with the repository's modules it instantiates (at any depth) that it
        does not define appended: their writes are the change's too (red-team round 119:
        ``wire [4095:0] t = x`` in a repository helper handed ``N = W`` truncates past 4096)."""
        from rtlopt.frontend import parse_text

        out, seen = text, set[str]()
        queue = [text]
        while queue and len(seen) < _HELPERS_MAX:
            try:
                mods = parse_text(queue.pop(0), "candidate.v")
            except RtloptError:
                break
            seen |= {m.name for m in mods}
            for sub in dict.fromkeys(i for m in mods for i in m.instances):
                found = self.design.modules.get(sub)
                if sub in seen or found is None or sub == self.design.target.name:
                    continue
                seen.add(sub)
                try:
                    body = found.text()
                except OSError:
                    continue
                out += "\n" + body
                queue.append(body)
        return out

    @staticmethod
    def _leaked(names: list[str]) -> str:
        return (
            f"the candidate writes data whose width follows the module's parameters into "
            f"`{names[0]}`, a net of a fixed width, which the reference does not (or does "
            "not read): its value then depends on a width parameter at values no probe tries "
            "(`{W{1'b1}}` in a 256-bit net is 2**W - 1), so a change of a module nothing in the "
            "repository instantiates cannot be checked for every value (size it by the "
            "parameters, or, if the module is only built with its defaults, set "
            "harness.unused_parameters = "
            '"defaults"; '
            "it holds for every module nothing instantiates)"
        )

    @staticmethod
    def _out_of_reach(n: int) -> str:
        return (
            f"the candidate reaches the number {n} (a constant, every value of a shift amount "
            "or an index, or the largest a fixed-width variable holds), which the reference "
            "does not, past the widest probe "
            f"({PROBE_BEYOND_MAX}): a change of a module nothing in the repository "
            "instantiates could differ only at a width past it (write the rewrite without "
            "it, or, if the module is only built with its defaults, set "
            'harness.unused_parameters = "defaults"; '
            "it holds for every module nothing instantiates)"
        )

    @staticmethod
    def _missing(p: str, k: int) -> str:
        return f"the candidate changes code whose meaning depends on parameter {p}, and " + (
            "parameter probes are off (harness.parameter_probes = 0)"
            if k <= 0
            else f"no other value of {p} elaborates the reference and passes it against itself"
        )

    def _special(self, text: str, p: str) -> list[str]:
        """The values of ``p`` that a rarely changing constant expression of the candidate
        singles out (:func:`rtlopt.frontend._param_special.special_values`)."""
        from rtlopt.frontend._param_special import special_values

        default = dict(self._found()[0].values)[p]
        with self._probe_lock:
            return special_values(text, self.design.target.name, p, default, self.design)

    def _choices(self, deps: ParamDependence, text: str) -> dict[str, list[str]]:
        """The parameters of ``deps`` that only choose in both texts, each with the probe
        values covering every behaviour under it
        (:func:`rtlopt.frontend._param_choices.string_choices`)."""
        from rtlopt.frontend._param_choices import string_choices

        out: dict[str, list[str]] = {}
        for p in self._roots(deps) if self.config.harness.parameter_probes > 0 else ():
            with self._probe_lock:
                got = string_choices((self._ref, text), self.design.target.name, p)
            if got is not None:
                out[p] = got
        return out

    def _members(self, p: str) -> list[str] | None:
        """The members' values of enum parameter ``p``; None when ``p`` is no enum."""
        from rtlopt.frontend._params import enum_members

        with self._probe_lock:
            found = enum_members(self._ref, self.design.target.name, self.design, self._elab)
        return list(found[p]) if p in found else None

    def _module_values(self, p: str) -> list[str]:
        from rtlopt.frontend._probe_values import probe_values

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
        from rtlopt.frontend._probe_values import PROBE_TRIES, sizes

        default = dict(self._found()[0].values)[p]
        size = sizes(self._ref, p)
        out: list[Parameterization] = []
        tried = 0
        for v in dict.fromkeys(values):
            if len(out) >= k or tried >= PROBE_TRIES:
                break
            if v == default or (size and v == "0"):
                continue
            with self._probe_lock:
                tried += ((p, v),) not in self._valid
            pz = self._legal({p: v})
            if pz is not None and pz not in out and pz not in taken:
                out.append(pz)
        return out
