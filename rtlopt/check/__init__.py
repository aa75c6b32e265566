"""`rtlopt check`: the pre-commit / CI gate on changed modules."""

from rtlopt.check._check import CheckReport, ModuleCheck
from rtlopt.check._gate import run_check
from rtlopt.check._ppa_compare import percent_text

__all__ = ["CheckReport", "ModuleCheck", "percent_text", "run_check"]
