"""`rtlopt check`: the pre-commit / CI gate on changed modules."""

from rtlopt.check._check import CheckReport, ModuleCheck, percent_text
from rtlopt.check._gate import run_check

__all__ = ["CheckReport", "ModuleCheck", "percent_text", "run_check"]
