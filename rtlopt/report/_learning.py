"""Learning telemetry: did the policy's weights change, and how (terminal line, report.md).

Reads step records as written to ``steps.jsonl`` (dicts, or :class:`~rtlopt.rundir.StepRecord`):
``updated``, ``samples``, ``loss``, ``grad_norm``, ``kl_ref``, ``trunc_frac``, ``masked``,
``think_closed``, ``tied`` and ``logprob_gap``. Runs of older versions lack these fields; then
nothing is claimed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["learning_line", "learning_section", "no_update_note"]


def _get(rec: Mapping[str, Any] | Any, key: str) -> Any:
    return rec.get(key) if isinstance(rec, Mapping) else getattr(rec, key, None)


def _count(x: Any) -> str:
    return "-" if not isinstance(x, int) or isinstance(x, bool) else str(x)


def _num(x: Any, digits: int = 3) -> str:
    return "-" if not isinstance(x, int | float) else f"{x:.{digits}g}"


def learning_line(rec: Mapping[str, Any] | Any) -> str:
    """One step's learning in a few words: ``updated: 2 samples, loss 0.41, |g| 1.3, KL
    0.002`` or ``no update (0 samples)``; truncation and logprob gap when measured."""
    samples = _get(rec, "samples")
    if _get(rec, "updated") is None:
        return "learning: not recorded"
    if _get(rec, "updated"):
        text = (
            f"updated: {samples} sample{'s' * (samples != 1)}, loss {_num(_get(rec, 'loss'))}, "
            f"|g| {_num(_get(rec, 'grad_norm'))}"
        )
    else:
        text = f"no update ({samples or 0} samples)"
    kl = _get(rec, "kl_ref")
    if kl is not None:
        text += f", KL {_num(kl, 2)}"
    text += _cut_off(rec)
    closed, tied = _get(rec, "think_closed"), _get(rec, "tied")
    if closed:
        text += f", {closed} think block{'s' * (closed != 1)} closed at the budget"
    if tied:
        text += f", {tied} tied within the noise floor"
    gap = _get(rec, "logprob_gap")
    if gap is not None:
        text += f", logprob gap {_num(gap, 2)}"
    return text


def _cut_off(rec: Mapping[str, Any] | Any) -> str:
    """``, 25% cut off (1 masked)``: the truncation rate and the answers kept out of the loss
    for it; empty when nothing was cut off."""
    trunc, masked = _get(rec, "trunc_frac"), _get(rec, "masked")
    if not trunc:
        return ""
    return f", {trunc:.0%} cut off" + (f" ({masked} masked)" if masked is not None else "")


def no_update_note(steps: Sequence[Mapping[str, Any] | Any], trainable: bool = True) -> str | None:
    """The sentence a run ends with when no step changed the weights (None otherwise, for a
    frozen policy, and for runs that did not record it)."""
    flags = [_get(r, "updated") for r in steps]
    if not trainable or not flags or any(f is None for f in flags) or any(flags):
        return None
    return (
        f"no step updated the policy's weights ({len(flags)} step{'s' * (len(flags) != 1)}): "
        "every group's rewards were constant or its answers were cut off; this run searched "
        "but did not learn"
    )


def learning_section(steps: Sequence[Mapping[str, Any]], trainable: bool) -> list[str]:
    """report.md's learning section: how many steps updated the weights, with the per-step
    telemetry; empty for runs that did not record it."""
    rec = [r for r in steps if r.get("updated") is not None]
    if not rec:
        return []
    out = ["## Learning", ""]
    if not trainable:
        return [*out, "Frozen policy: no weight changes (best-of-N search).", ""]
    updated = sum(1 for r in rec if r.get("updated"))
    note = no_update_note(rec)
    out += [
        note[0].upper() + note[1:] + "."
        if note
        else f"{updated} of {len(rec)} steps updated the policy's weights.",
        "",
    ]
    out += [
        "| step | updated | samples | loss | grad norm | KL | cut off | masked | think closed "
        "| tied | logprob gap |"
    ]
    out += ["|---:|:--|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rec:
        trunc = r.get("trunc_frac")
        out.append(
            f"| {r.get('step')} | {'yes' if r.get('updated') else 'no'} | {r.get('samples')} | "
            f"{_num(r.get('loss'))} | {_num(r.get('grad_norm'))} | {_num(r.get('kl_ref'), 2)} | "
            f"{'-' if trunc is None else f'{trunc:.0%}'} | {_count(r.get('masked'))} | "
            f"{_count(r.get('think_closed'))} | {_count(r.get('tied'))} | "
            f"{_num(r.get('logprob_gap'), 2)} |"
        )
    return [*out, ""]
