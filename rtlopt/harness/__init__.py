"""Equivalence harness: renamed reference, candidate screening, testbench.

The harness never runs a tool; :mod:`rtlopt.eda.iverilog` simulates the testbench and
:mod:`rtlopt.formal` (which builds its own scripts) proves.
"""

from rtlopt.harness._captured import declared_names
from rtlopt.harness._claims import claim_problems
from rtlopt.harness._kept_checks import exposed_signals
from rtlopt.harness._macro_args import unbalanced_macros
from rtlopt.harness._output import SimReport, parse_sim_output, parse_sim_report
from rtlopt.harness._ports import in_reference_order
from rtlopt.harness._reference import (
    ref_name,
    reference_modules,
    reference_text,
    target_context_text,
)
from rtlopt.harness._screen import (
    ALLOWED_SYSTEM_FUNCTIONS,
    DEFAULT_TB_TOP,
    same_as_reference,
    screen_candidate,
    screen_preprocessed,
    tool_pragmas,
)
from rtlopt.harness._semantics import (
    event_violations,
    initial_values,
    power_up_difference,
    power_up_file,
    power_up_text,
    strip_initial_values,
    uninitialised_registers,
)
from rtlopt.harness._stimulus import Field
from rtlopt.harness._testbench import (
    VECTOR_FILE,
    HeldStart,
    SealedBench,
    Testbench,
    build_testbench,
)
from rtlopt.harness._vocabulary import REF_SUFFIX
from rtlopt.verilog import blank_comments, rename_modules

__all__ = [
    "claim_problems",
    "event_violations",
    "initial_values",
    "power_up_difference",
    "power_up_file",
    "power_up_text",
    "strip_initial_values",
    "uninitialised_registers",
    "ALLOWED_SYSTEM_FUNCTIONS",
    "DEFAULT_TB_TOP",
    "REF_SUFFIX",
    "VECTOR_FILE",
    "Field",
    "SimReport",
    "SealedBench",
    "HeldStart",
    "Testbench",
    "blank_comments",
    "build_testbench",
    "declared_names",
    "exposed_signals",
    "in_reference_order",
    "parse_sim_output",
    "parse_sim_report",
    "ref_name",
    "reference_modules",
    "reference_text",
    "target_context_text",
    "rename_modules",
    "same_as_reference",
    "screen_candidate",
    "screen_preprocessed",
    "tool_pragmas",
    "unbalanced_macros",
]
