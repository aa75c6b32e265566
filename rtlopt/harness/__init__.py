"""Equivalence harness: renamed reference, candidate screening, testbench, formal scripts.

The harness never runs a tool; :mod:`rtlopt.eda.iverilog` and :mod:`rtlopt.eda.formal` do.
"""

from rtlopt.harness._formal import (
    STRUCTURE_JSON,
    FormalPlan,
    equiv_script,
    formal_script,
    plan_formal,
    structure_script,
)
from rtlopt.harness._output import SimReport, parse_sim_output, parse_sim_report
from rtlopt.harness._reference import (
    ref_name,
    reference_modules,
    reference_text,
    target_context_text,
)
from rtlopt.harness._screen import (
    ALLOWED_SYSTEM_FUNCTIONS,
    DEFAULT_TB_TOP,
    REF_SUFFIX,
    screen_candidate,
)
from rtlopt.harness._stimulus import Field
from rtlopt.harness._testbench import VECTOR_FILE, Testbench, build_testbench
from rtlopt.verilog import blank_comments, rename_modules

__all__ = [
    "ALLOWED_SYSTEM_FUNCTIONS",
    "DEFAULT_TB_TOP",
    "REF_SUFFIX",
    "STRUCTURE_JSON",
    "VECTOR_FILE",
    "Field",
    "FormalPlan",
    "SimReport",
    "Testbench",
    "blank_comments",
    "build_testbench",
    "equiv_script",
    "formal_script",
    "parse_sim_output",
    "parse_sim_report",
    "plan_formal",
    "ref_name",
    "reference_modules",
    "reference_text",
    "target_context_text",
    "rename_modules",
    "screen_candidate",
    "structure_script",
]
