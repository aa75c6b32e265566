"""What a candidate may name: the system functions, compiler directives and keywords the screen
allows or rejects (with the reason shown to the policy), and the macros tools read differently."""

from __future__ import annotations

from rtlopt.verilog import DIRECTIVES, PREPROCESSOR_DIRECTIVES

#: The macros only synthesis defines (Yosys defines both): a simulator's reading of the written
#: text has neither, whatever the repository's synthesis flow defines beside them.
SYNTHESIS_MACROS = frozenset({"SYNTHESIS", "YOSYS"})

#: The suffix of the renamed reference modules (``<name>__rtlopt_ref``).
REF_SUFFIX = "__rtlopt_ref"

#: System functions a synthesizable candidate may call: pure, no side effects, no simulator state.
ALLOWED_SYSTEM_FUNCTIONS = frozenset(
    {
        "$clog2",
        "$signed",
        "$unsigned",
        "$bits",
        "$countones",
        "$onehot",
        "$onehot0",
        "$isunknown",
        "$size",
        "$left",
        "$right",
        "$high",
        "$low",
        "$increment",
        "$dimensions",
        "$unpacked_dimensions",
        "$countbits",
        "$ln",
        "$log10",
        "$exp",
        "$sqrt",
        "$pow",
        "$floor",
        "$ceil",
        "$sin",
        "$cos",
        "$tan",
        "$asin",
        "$acos",
        "$atan",
        "$atan2",
        "$hypot",
        "$sinh",
        "$cosh",
        "$tanh",
        "$asinh",
        "$acosh",
        "$atanh",
        "$rtoi",
        "$itor",
        "$realtobits",
        "$bitstoreal",
        "$shortrealtobits",
        "$bitstoshortreal",
    }
)

#: Compiler directives a candidate may use; every other directive (`include, `define, ...)
#: is rejected unless the repository's own file holds the same directive line (a copy of the
#: original file is not the candidate's doing). Macro *uses* are allowed only for macros the
#: repository defines.
ALLOWED_DIRECTIVES = frozenset(
    {"timescale", "default_nettype", "resetall", "celldefine", "endcelldefine"}
)

#: Every directive the screen knows: the standard ones and the legacy ones of older simulators.
_DIRECTIVES = DIRECTIVES | frozenset(
    {
        "uselib",
        "protect",
        "endprotect",
        "protected",
        "endprotected",
        "delay_mode_zero",
        "delay_mode_unit",
        "delay_mode_path",
        "delay_mode_distributed",
        "default_decay_time",
        "default_trireg_strength",
        "accelerate",
        "noaccelerate",
        "expand_vectornets",
        "noexpand_vectornets",
        "suppress_faults",
        "nosuppress_faults",
        "enable_portfaults",
        "disable_portfaults",
        "remove_gatenames",
        "noremove_gatenames",
        "remove_netnames",
        "noremove_netnames",
    }
)

#: Keywords that have no place in a synthesizable rewrite and could reach the simulator.
_FORBIDDEN_KEYWORDS: dict[str, str] = {
    "initial": "initial blocks are not allowed (they run once in simulation only)",
    "final": "final blocks are not allowed",
    "force": "force is not allowed",
    "release": "release is not allowed",
    "bind": "bind is not allowed",
    "program": "program blocks are not allowed",
    "class": "classes are not allowed",
    "checker": "checkers are not allowed",
    "config": "configurations are not allowed",
    "library": "library declarations are not allowed",
    "wait": "wait statements are not allowed",
    "fork": "fork/join is not allowed",
    "deassign": "procedural assign/deassign is not allowed",
    "defparam": "defparam is not allowed (override parameters with #(...))",
    "specify": "specify blocks are not allowed (timing models are not synthesized)",
    "primitive": "user-defined primitives are not allowed",
    "table": "user-defined primitive tables are not allowed",
    # assertions and assumptions would constrain the formal check instead of the design
    "assert": "assertions are not allowed",
    "assume": "assumptions are not allowed (they would constrain the formal check)",
    "cover": "cover statements are not allowed",
    "restrict": "restrict statements are not allowed",
    "property": "properties are not allowed",
    "sequence": "sequences are not allowed",
    "expect": "expect statements are not allowed",
    # switch-level and analog-ish constructs: simulated, but not synthesized the same way
    "tran": "switch primitives (tran) are not allowed",
    "tranif0": "switch primitives (tranif0) are not allowed",
    "tranif1": "switch primitives (tranif1) are not allowed",
    "rtran": "switch primitives (rtran) are not allowed",
    "rtranif0": "switch primitives (rtranif0) are not allowed",
    "rtranif1": "switch primitives (rtranif1) are not allowed",
    "nmos": "switch primitives (nmos) are not allowed",
    "pmos": "switch primitives (pmos) are not allowed",
    "cmos": "switch primitives (cmos) are not allowed",
    "rnmos": "switch primitives (rnmos) are not allowed",
    "rpmos": "switch primitives (rpmos) are not allowed",
    "rcmos": "switch primitives (rcmos) are not allowed",
    "pullup": "pullup primitives are not allowed",
    "pulldown": "pulldown primitives are not allowed",
    "trireg": "trireg nets (charge storage) are not allowed",
    # SystemVerilog's full_case/parallel_case: synthesis may treat missing items as don't-care
    # (every tool of the flow reads the plain statement: rtlopt.verilog_plain.plain_case_qualifiers)
    "unique": "unique case/if is not allowed beyond the reference's own uses (synthesis reads "
    "it as full_case/parallel_case: values the proof never saw)",
    "unique0": "unique0 case/if is not allowed beyond the reference's own uses (synthesis "
    "reads it as parallel_case)",
    "priority": "priority case/if is not allowed beyond the reference's own uses (synthesis "
    "reads it as full_case: values the proof never saw)",
    "real": "real variables are not synthesizable",
    "realtime": "realtime variables are not synthesizable",
    "shortreal": "shortreal variables are not synthesizable",
}

#: Directives whose whole line is the key compared with the repository's lines.
#: (```undefineall`` is not one: a candidate never holds it.)
_LINE_DIRECTIVES = frozenset(PREPROCESSOR_DIRECTIVES) - {"undefineall"}

#: Macros one tool defines and another does not: a conditional on them would let simulation and
#: synthesis read different designs, whatever the repository does. (``__ICARUS__`` is undefined
#: by the prelude every tool reads first, and no tool rtlopt runs defines ``FORMAL``: those
#: read the same everywhere.)
_TOOL_MACROS = frozenset(
    {"YOSYS", "VERILATOR", "COCOTB_SIM", "XILINX_SIMULATOR", "MODEL_TECH", "VCS", "INCA", "RTLOPT"}
)

#: Of those, the macros the tools rtlopt runs read differently (Yosys defines YOSYS, iverilog
#: does not). The others no tool rtlopt runs defines: a conditional on them reads the same in
#: every tool, so one the reference already has is not a finding.
_DISAGREEING_MACROS = frozenset({"YOSYS"})

_CONDITIONALS = frozenset({"ifdef", "ifndef", "elsif"})

#: Case and if qualifiers: a candidate may use each no more often than the reference modules
#: do (every tool proves the plain statement; synthesis of the written-back text may read a
#: new one as "don't care" where the proof saw the simulator's value).
_QUALIFIERS = frozenset({"unique", "unique0", "priority"})

#: Forbidden keywords a candidate may still use when the reference itself does (ROM contents
#: in ``initial`` blocks, a reference built from UDPs).
_ALLOWED_IF_REFERENCE_USES = frozenset(
    {
        "initial",
        "specify",
        "primitive",
        "table",
        "defparam",
        "tran",
        "tranif0",
        "tranif1",
        "rtran",
        "rtranif0",
        "rtranif1",
        "nmos",
        "pmos",
        "cmos",
        "rnmos",
        "rpmos",
        "rcmos",
        "pullup",
        "pulldown",
        "trireg",
        "real",
        "realtime",
        "shortreal",
        "unique",
        "unique0",
        "priority",
    }
)
