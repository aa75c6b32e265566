"""`rtlopt check`: the pre-commit / CI gate on changed modules."""

from rtlopt.check._check import CheckReport, ModuleCheck, run_check

__all__ = ["CheckReport", "ModuleCheck", "run_check"]
