"""The equivalence proof: every verdict of rtlopt rests on this package.

- :mod:`.check`: the only entry point (:func:`check_equivalence`, :func:`check_structure`,
  :func:`check_x_outputs`);
  it puts the engines in order and splits the time limit between them, nothing else.
- :mod:`.engines`: one file per engine, each with one ``run(job, *, share, ...)``.
- :mod:`.job`: the :class:`Job` every engine works on.
- :mod:`.scripts`: the Yosys scripts (plan, miter, structural matching, structure netlist).
- :mod:`.logparse`: reading the SAT miter's Yosys log.
- :mod:`.prepare`, :mod:`.miter`, :mod:`.aig`, :mod:`.abc`: the AIGER miter built from a
  Yosys gate netlist and the ABC runs on it.
- :mod:`.regcorr`, :mod:`.regpair`: register correspondence and pairing by behaviour.
- :mod:`.clocking`, :mod:`.clockgate`, :mod:`.structure`: the clock/reset structure check and
  clock-gate modelling.
- :mod:`.identical`: the byte-for-byte shortcut.
- :mod:`.powerup_search`: a failing input from the power-up state the reference and the
  change share, a refutation when no power-up state of the reference follows it (designs
  without reset; the formal check and ``rtlopt check``).
- :mod:`.xfaith`, :mod:`.xfaith_model`: the x-faithfulness proof (:func:`check_x_faith`) where
  the repository feeds x into inputs of the target, and where Yosys's undef model is not
  known to be iverilog's (refused).
- :mod:`.xpolicy`: the X-policy proof (:func:`check_x_policy`) where a candidate divides by a
  value that may be 0 or adds a register only a reset writes: a candidate x where the
  reference is defined, which the 0/1 proofs (division as synthesis, every proof from reset)
  cannot see, is a difference.
- :mod:`.second`: the second, independent proof of a kept design (``confirm_proof``: another
  frontend, miter builder and engine) and its replay files for stock ``yosys-abc``.

Layering: ``formal`` sits beside ``eda`` and ``pdk`` (above ``harness`` and ``frontend``, below
``evaluate``); it never imports ``eda``, and ``harness`` never imports it. Engine files never
import :mod:`.check`.
"""

from __future__ import annotations

from rtlopt.formal.check import (
    POWERUP_METHOD,
    check_equivalence,
    check_structure,
    check_x_outputs,
)
from rtlopt.formal.identical import identical_source
from rtlopt.formal.job import yosys_argv
from rtlopt.formal.logparse import parse_counterexample
from rtlopt.formal.xfaith import check_x_faith

__all__ = [
    "POWERUP_METHOD",
    "check_equivalence",
    "check_structure",
    "check_x_faith",
    "check_x_outputs",
    "identical_source",
    "parse_counterexample",
    "yosys_argv",
]
