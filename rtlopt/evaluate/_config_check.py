"""Proofs in the other configurations of a module's ```ifdef``s.

``evaluate/_configs.py`` lists the assignments of the macros a module's conditionals test
under which the candidate reads differently from the reference. Each is checked here like
the defaults: the target's file is copied with ```define`` / ```undef`` lines for those
macros in front of the module, and an evaluator of that design (its own reference, testbench
and proof) judges the candidate's text, read in that macro state. A difference rejects (a
counterexample of that configuration); a configuration in which the repository's module itself
does not build or pass (checked first, once: an empty define of a valued macro, a module the
default closure lacks), a tool error, an error building the candidate's evaluation or no time
left leaves the change unchecked (rejected): nothing is skipped. All of it within the
verdict's one time budget.

Another build of the repository (``evaluate/_alternatives.py``: another file's definition of
a submodule read in place of this build's) is a configuration too: proven in this macro
state and in each of the others, counted against the same limit, with the same check of the
repository's module first (a vendor cell the tree lacks leaves the change unchecked).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.config import Config
from rtlopt.errors import DesignError
from rtlopt.evaluate._alternatives import Substitution, substituted_design, substitution_label
from rtlopt.evaluate._configs import label
from rtlopt.evaluate._param_scope import Evaluates, verdict_of
from rtlopt.evaluate._params import Factory
from rtlopt.evaluate._reporting_blocks import without_any_reporting_block
from rtlopt.evaluate._target_copy import design_with_target_text
from rtlopt.formal.budget import Deadline, within
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage, Verdict
from rtlopt.verilog import MACRO_DIRECTIVES, alternation

if TYPE_CHECKING:
    from rtlopt.formal.second import SecondProof

__all__ = ["CONFIG_CLOSE", "CONFIG_OPEN", "ConfigurationCheck"]

log = logging.getLogger(__name__)
progress = logging.getLogger("rtlopt.evaluate.configuration")

#: The lines that set a configuration in the copied target file (``_switched.outside_directives``
#: compares a candidate with the repository's file, without them).
CONFIG_OPEN = "// rtlopt: configuration\n"
CONFIG_CLOSE = "// rtlopt: end of configuration\n"

#: A directive before a text's module that makes it a copy of the whole file (one that opens a
#: conditional, sets macros or includes; ```elsif``/```else``/```endif`` follow an opening one).
_FILE_DIRECTIVE = re.compile(
    rf"^[ \t]*`(?:{alternation(['ifdef', 'ifndef', *MACRO_DIRECTIVES, 'include'])})\b", re.M
)

#: At most this many other configurations are proven per candidate.
MAX_PROOFS = 4


def configured(
    text: str,
    name: str,
    macros: list[str],
    config: frozenset[str],
    line: int = 0,
    derived: frozenset[str] = frozenset(),
) -> str:
    """``text`` with the lines that set ``config`` in front of module ``name`` (the one at
    ``line`` when there are several; the start of the text when there is none). In front of
    a module, the ``derived`` macros (which the repository defines with a value) are left as
    the lines before it set them: an empty define of one is no build of the repository."""
    from rtlopt.verilog import module_spans

    spans = [m for m in module_spans(text) if m.name == name]
    span = next((m for m in spans if m.line == line), spans[0] if spans else None)
    at = 0 if span is None else span.start
    own = [m for m in macros if span is None or m not in derived]
    head = (
        CONFIG_OPEN
        + "".join(f"`define {m}\n" if m in config else f"`undef {m}\n" for m in own)
        + CONFIG_CLOSE
    )
    return text[:at] + head + text[at:]


class ConfigurationCheck:
    """Evaluates a candidate in other configurations of the target's tested macros."""

    def __init__(self, design: Design, config: Config, workdir: Path, factory: Factory) -> None:
        self.design = design
        self.config = config
        self.workdir = workdir
        self.factory = factory
        self._lock = threading.Lock()
        self._subs: dict[tuple[str, ...], Evaluates] = {}
        self._valid: dict[tuple[str, ...], str] = {}
        self._derived: frozenset[str] | None = None
        self._derived_lock = threading.Lock()

    def derived(self) -> frozenset[str]:
        """The macros the design's sources (and the headers they include) define with a
        value: set by the repository's own lines, never by an empty one of rtlopt's."""
        from rtlopt.evaluate._configs import read_files, valued_macros

        with self._derived_lock:
            if self._derived is None:
                d = self.design
                known = dict.fromkeys([*d.prelude, *d.sources.files, *d.closure])
                self._derived = valued_macros(read_files(known, d.include_dirs))
            return self._derived

    def check(
        self,
        text: str,
        macros: list[str],
        configs: list[frozenset[str]],
        deadline: Deadline,
        builds: Sequence[Substitution] = (),
        rows: list[dict[str, str]] | None = None,
    ) -> tuple[Stage, str, EvalResult | None] | None:
        """The rejection (stage, reason, the failing configuration's result) or None.

        ``builds``: the builds that read another file for a submodule's (each proven in this
        configuration and in each of ``configs``); ``rows`` gets a row per configuration
        checked (``evaluate/_param_scope.py``)."""
        jobs = [(None, b) for b in builds] + [(cfg, b) for cfg in configs for b in ((), *builds)]
        if len(jobs) > MAX_PROOFS:
            return (
                Stage.FORMAL,
                f"unchecked: the change reads differently in {len(jobs)} other "
                f"configurations ({self._label(macros, *jobs[0])}, ...); rtlopt proves at "
                f"most {MAX_PROOFS}",
                None,
            )
        name = self.design.target.name
        for i, (config, build) in enumerate(jobs):
            what = self._label(macros, config, build)
            if deadline.left() < 1.0:
                return (
                    Stage.FORMAL,
                    f"unchecked: no time was left to check the configuration {what}",
                    None,
                )
            progress.info("%s: checking the configuration %s", name, what)
            why = self._reference_fails(macros, config, build, deadline)
            if why:
                # rtlopt's own reading of the configuration (an empty define of a valued
                # macro, a module the closure lacks) may be what fails: never a skip
                return (
                    Stage.FORMAL,
                    f"unchecked: the repository's module does not pass against itself in the "
                    f"configuration {what} ({why}), so the change cannot be checked there",
                    None,
                )
            try:
                # the candidate read with the configuration's lines in front of its module,
                # also a copy of the whole file (read from the state at the file's start)
                with within(deadline.share(len(jobs) - i)):
                    sub = self._sub(macros, config, build)
                    res = sub.evaluate(self._read_as(text, macros, config))
            except DesignError as exc:  # the reference passed there: never a skip
                return (
                    Stage.FORMAL,
                    f"unchecked in the configuration {what}: {exc.one_line()}",
                    None,
                )
            if rows is not None:
                rows.append(
                    {
                        "values": what,
                        "kind": "configuration",
                        "where": "another build" if build else "another `ifdef configuration",
                        "verdict": verdict_of(res),
                        "reason": "" if res.accepted else res.reason,
                    }
                )
            if not res.accepted:
                return res.stage, f"in the configuration {what}: {res.reason}", res
        return None

    def confirm_configurations(
        self,
        text: str,
        macros: list[str],
        configs: list[frozenset[str]],
        builds: Sequence[Substitution] = (),
    ) -> tuple[str, SecondProof | None, float]:
        """The second, independent proof of ``text`` in each configuration and build
        :meth:`check` proved with the first: the first that does not agree with its label
        (None: all agree), and the seconds spent."""
        from rtlopt.formal.second import SecondProof

        jobs = [(None, b) for b in builds] + [(cfg, b) for cfg in configs for b in ((), *builds)]
        spent = 0.0
        for config, build in jobs:
            what = f"in the configuration {self._label(macros, config, build)}"
            try:
                sub = self._sub(macros, config, build)
                read = self._read_as(text, macros, config)
                res = sub.evaluate(read)
            except DesignError as exc:
                return what, SecondProof(False, "", f"unchecked: {exc.one_line()}", 0.0), spent
            if not res.accepted:
                why = f"unchecked: the configuration is not proven ({res.reason})"
                return what, SecondProof(False, "", why, 0.0), spent
            if res.formal is None or res.formal.verdict is not Verdict.PROVEN:
                continue  # its acceptance does not rest on a proof
            progress.info(
                "%s: the second proof in the configuration %s", self.design.target.name, what
            )
            proof = sub.confirm(read, res)
            spent += proof.duration_s
            if not proof.agrees:
                return what, proof, spent
        return "", None, spent

    def _label(self, macros: list[str], config: frozenset[str] | None, build: Substitution) -> str:
        """``A defined, B undefined, with sub from rtl/sub_latch.v``."""
        parts = [] if config is None else [label(macros, config)]
        if build:
            parts.append(substitution_label(self.design, build))
        return ", ".join(parts)

    def _reference_fails(
        self,
        macros: list[str],
        config: frozenset[str] | None,
        build: Substitution,
        deadline: Deadline,
    ) -> str:
        """Why the repository's module itself does not pass in the configuration (once per
        configuration), or "": one in which it does not build or is refused (a simulator's
        model with system tasks, a vendor cell the tree lacks) is not a configuration rtlopt
        can judge, nor one a candidate must match."""
        from rtlopt.verilog import module_spans

        key = self._key(macros, config, build)
        with self._lock:
            if key in self._valid:
                return self._valid[key]
        t = self.design.target
        text = t.file.read_text(errors="surrogateescape")
        spans = [m for m in module_spans(text) if m.name == t.name]
        span = next((m for m in spans if m.line == t.line), spans[0])
        module = without_any_reporting_block(text[span.start : span.end])
        try:
            with within(deadline.share(2)):
                sub = self._sub(macros, config, build)
                res = sub.evaluate(self._read_as(module, macros, config))
            why = "" if res.accepted else res.reason
        except DesignError as exc:
            why = exc.one_line()
        if why:
            log.info("%s: the reference in %s: %s", t.name, key, why)
        with self._lock:
            self._valid[key] = why[:300]
        return why[:300]

    @staticmethod
    def _key(
        macros: list[str], config: frozenset[str] | None, build: Substitution
    ) -> tuple[str, ...]:
        here = () if config is None else tuple(f"{m}={int(m in config)}" for m in macros)
        return (*here, *(f"{f}>{g}" for f, g in build))

    def _read_as(self, text: str, macros: list[str], config: frozenset[str] | None) -> str:
        """The text the configuration's evaluator judges: a module alone as it is (read in
        the macro state at the target's position in the configured copy of its file, after
        the file's own lines before it: a conditional there may select a macro it uses); a
        copy of the whole file with the configuration's lines in front of its module."""
        from rtlopt.verilog import blank_comments, module_spans

        if config is None:
            return text  # another build in this configuration: read as the repository is
        # blocks that only report are blanked, as in the configuration's reference (_sub)
        text = without_any_reporting_block(text)
        name = self.design.target.name
        span = next((m for m in module_spans(text) if m.name == name), None)
        head = blank_comments(text[: span.start if span else len(text)], strings=False)
        if not _FILE_DIRECTIVE.search(head):
            return text
        return configured(text, name, macros, config, derived=self.derived())

    def close(self) -> None:
        with self._lock:
            for ev in self._subs.values():
                close = getattr(ev, "close", None)
                if close is not None:
                    close()
            self._subs.clear()

    def _sub(
        self, macros: list[str], config: frozenset[str] | None, build: Substitution
    ) -> Evaluates:
        """The evaluator of the target read with ``config`` (None: this one's) in the build
        ``build`` (one per configuration).

        Raises:
            DesignError: the build does not read as a design (``substituted_design``).
        """
        key = self._key(macros, config, build)
        with self._lock:
            if key in self._subs:
                return self._subs[key]
            d = self.design
            t = d.target
            folder = self.workdir / "configurations" / str(len(self._subs) + 1)
            folder.mkdir(parents=True, exist_ok=True)
            built = substituted_design(d, build) if build else d
            special = built
            if config is not None:
                # the same lines first in the unit, as a command-line define would set them:
                # the modules of other files (a submodule's own `ifdef) read the
                # configuration too
                first = folder / "rtlopt_configuration.vh"
                first.write_text(configured("", t.name, macros, config))
                # blocks of assertions that only report are read by neither side: they
                # change no value in the build that defines their macro
                text = configured(
                    without_any_reporting_block(t.file.read_text(errors="surrogateescape")),
                    t.name,
                    macros,
                    config,
                    t.line,
                    self.derived(),
                )
                special = design_with_target_text(built, text, folder, (first,))
            # a parent's instance under one of these conditionals may give the target other
            # parameters here: the configuration's own parameterizations are checked then
            # (the repository's other parameterizations check their own configurations and
            # builds: evaluate/_params.py keeps other_configurations)
            from rtlopt.evaluate._macros import instance_conditions

            params = bool(set(macros) & instance_conditions(d)) and (
                self.config.harness.parameterizations
            )
            cfg = dataclasses.replace(
                self.config,
                harness=dataclasses.replace(
                    self.config.harness, parameterizations=params, other_configurations="ignore"
                ),
                eval=dataclasses.replace(self.config.eval, cache=False),
            )
            self._subs[key] = self.factory(special, cfg, folder / "eval")
            return self._subs[key]
