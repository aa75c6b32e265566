"""The reference measurement: the original module synthesized and timed once per evaluator (or
read from the cache), and the netlist check's decision of what candidate netlists are
compared with."""

from __future__ import annotations

import dataclasses
import functools
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rtlopt.eda.yosys import reference_error
from rtlopt.errors import DesignError, RtloptError, ToolFailed
from rtlopt.evaluate._cache import ResultCache
from rtlopt.evaluate._netlist import NetlistGold, NetlistOutcome, netlist_check
from rtlopt.evaluate._setup import EvalSetup, FlowPool, ppa_metrics
from rtlopt.frontend.model import Design
from rtlopt.results import PPA, EvalResult, SimResult, Stage, Status
from rtlopt.verilog import source_hash

__all__ = ["ReferenceMeasurement"]


def _in_user_file(s: EvalSetup, err: RtloptError) -> RtloptError:
    """``err`` naming the user's file and line where it names the preprocessed design file."""
    if not isinstance(err, DesignError) or s.unit is None or err.line is None:
        return err
    if s.design_file is None or err.path is None or Path(err.path).name != s.design_file.name:
        return err
    where = s.unit.source_of(err.line)
    if where is None:
        return err
    return DesignError(err.message, path=where[0], line=where[1], hint=err.hint)


_KEY = "reference"


class ReferenceMeasurement:
    """The reference's result, measured on first use (thread-safe) and cached beside the
    candidates' results (same fingerprint: the same reference, repository, settings, tools and
    code).

    Args:
        design: The design (its target's bytes key the cached reference).
        shared_dir: Where the netlist check's gold file is kept.
        parts: The evaluator's fixed inputs and flows, built on first call (a cached
            reference needs neither).
        cache: Its result cache.
        gold: Filled with the netlist check's decision.
        scratch: Makes a fresh scratch folder for a tag.
        provenance: The evaluator's provenance (recorded in the reference's result).
    """

    def __init__(
        self,
        design: Design,
        shared_dir: Path,
        parts: Callable[[], tuple[EvalSetup, FlowPool]],
        cache: ResultCache,
        gold: NetlistGold,
        scratch: Callable[[str], Path],
        provenance: Callable[[], dict[str, Any]],
    ) -> None:
        self._design = design
        self._shared_dir = shared_dir
        self._parts = parts
        self._cache = cache
        self._gold = gold
        self._scratch = scratch
        self._provenance = provenance
        self._lock = threading.Lock()
        self._result: EvalResult | None = None

    def get(self, flow: Any = None) -> EvalResult:
        """Synthesize the original module; its reward is w_syn + w_func + w_ppa by definition.
        ``flow``: the flow to measure with (a helper thread measures with its caller's).

        With the netlist check on, the reference's own synthesized netlist is simulated against
        its RTL first. When they differ (the reference itself reads differently in synthesis,
        e.g. tri-state outputs, initial values, translate_off), candidate netlists are compared
        with the reference's netlist instead: the numbers compared are then between two
        netlists proven to behave alike on the harness, and the provenance says so.
        """
        with self._lock:
            if self._result is None:
                self._result = self._load()
            if self._result is None:
                self._result = self._measure(flow)
                self._store(self._result)
            return self._result

    def known(self) -> EvalResult | None:
        """The reference's result where it is measured already or in the cache (no tool
        runs), else None."""
        with self._lock:
            if self._result is None:
                self._result = self._load()
            return self._result

    def unmeasured(self) -> EvalResult:
        """The reference as it stands without a measurement: its reward by definition, no
        PPA (a candidate rejected before synthesis needs none; see :meth:`known`)."""
        rw = self._parts()[0].config.reward
        return EvalResult(
            status=Status.OK,
            stage=Stage.DONE,
            reward=rw.w_syn + rw.w_func + rw.w_ppa,
            r_syn=1.0,
            r_func=1.0,
            r_ppa=1.0,
            source_hash=source_hash(self._design.target.text()),
            provenance=self._provenance(),
        )

    def _measure(self, flow: Any = None) -> EvalResult:
        s, flows = self._parts()
        start = time.monotonic()
        d = self._scratch("reference")
        ppa: PPA | None = None
        logs: dict[str, str] = {}
        netlist: SimResult | None = None
        if flows.flow() is not None:
            along = None
            if s.config.eval.netlist_check != "never":
                along = functools.partial(netlist_check, s, d / "netlist", s.reference_file)
            try:
                files = [s.design_file] if s.design_file is not None else list(s.tools.closure)
                meas = flows.measure(files, d, alongside=along, flow=flow)
            except ToolFailed as exc:  # the user's own design: an input error when Yosys
                raise _in_user_file(s, reference_error(exc)) from exc  # says what it cannot read
            ppa, logs = meas.ppa, dict(meas.logs)
            if along is not None:
                outcome: NetlistOutcome = meas.alongside
                netlist = outcome.result
                self._gold.choose(s, outcome, meas.generic_netlist)
                logs["netlist"] = str(d / "netlist")
        return dataclasses.replace(
            self.unmeasured(),
            ppa=ppa,
            netlist=netlist,
            metrics=ppa_metrics(ppa) if ppa else {},
            logs=logs,
            duration_s=time.monotonic() - start,
        )

    def _store(self, ref: EvalResult) -> None:
        """Keep the reference's result and its netlist-check decision."""
        gold = self._gold.path
        entry = {
            "result": ref.to_json(),
            "netlist_gold": None if gold is None else gold.name,
            "netlist_gold_text": gold.read_text()
            if gold is not None and gold.name != "reference.v"
            else None,
            "netlist_note": self._gold.note,
        }
        self._cache.write(_KEY, entry)

    def _load(self) -> EvalResult | None:
        """The reference from the cache (no tool runs), or None when it is not there."""
        entry = self._cache.read(_KEY)
        if entry is None:
            return None
        try:
            ref = EvalResult.from_json(entry["result"])
            gold_name, gold_text = entry["netlist_gold"], entry["netlist_gold_text"]
            note = str(entry["netlist_note"])
        except (KeyError, TypeError, ValueError):
            return None
        if ref.source_hash != source_hash(self._design.target.text()):
            return None
        gold: Path | None = None
        if gold_name is not None:
            gold = self._shared_dir / Path(str(gold_name)).name
            if gold_text is not None:
                gold.parent.mkdir(parents=True, exist_ok=True)
                gold.write_text(str(gold_text))
            elif gold.name != "reference.v":  # the reference's file: written with the setup
                return None
        self._gold.path, self._gold.note = gold, note
        return self._cache.as_cached(ref)
