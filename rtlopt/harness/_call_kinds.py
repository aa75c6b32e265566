"""What a call or an expression may do, by kind: the tasks that only report, the system
functions that only read, the expression kinds that write. Read by the rule on what the
SystemVerilog view drops (:mod:`rtlopt.harness._dropped`) and by the pure-function rule
(:mod:`rtlopt.harness._pure_calls`)."""

from __future__ import annotations

import functools

__all__ = ["ASSERTION_STATEMENTS", "REPORTING_TASKS", "_PURE_CALLS", "_write_kinds"]

#: System tasks an assertion action may call: they report or end the simulation, they
#: write no signal of the design.
REPORTING_TASKS = frozenset(
    "$error $warning $info $fatal $finish $stop $display $displayb $displayh $displayo "
    "$write $writeb $writeh $writeo $strobe $strobeb $strobeh $strobeo".split()
)
#: Increments and decrements: they write their operand.
_STEPS = frozenset(
    {
        "PreincrementExpression",
        "PredecrementExpression",
        "PostincrementExpression",
        "PostdecrementExpression",
    }
)


@functools.cache
def _write_kinds() -> frozenset[str]:
    """The expression kinds that write: every assignment kind pyslang knows (``=``, ``<=``,
    ``+=``, ``&=``, ``<<<=``, ...), taken from its ``SyntaxKind`` names so that none is
    missed, and :data:`_STEPS`."""
    from pyslang import syntax

    names = syntax.SyntaxKind.__members__
    return _STEPS | frozenset(n for n in names if n.endswith("AssignmentExpression"))


#: System functions an assertion's condition may call: they read, they write nothing.
_PURE_CALLS = frozenset(
    "$past $rose $fell $stable $changed $sampled $onehot $onehot0 $isunknown $countones "
    "$countbits $bits $clog2 $signed $unsigned $size $left $right $low $high $increment "
    "$dimensions $unpacked_dimensions $time $stime $realtime $initstate".split()
)

#: Assertion statements (immediate, concurrent, cover, restrict): their own clocking and
#: sequence delays are no process timing, their actions are judged on their own.
ASSERTION_STATEMENTS = frozenset(
    {
        "ImmediateAssertStatement",
        "ImmediateAssumeStatement",
        "ImmediateCoverStatement",
        "AssertPropertyStatement",
        "AssumePropertyStatement",
        "CoverPropertyStatement",
        "CoverSequenceStatement",
        "RestrictPropertyStatement",
    }
)
