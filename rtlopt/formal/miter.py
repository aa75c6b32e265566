"""The equivalence miter as an AIG, built from a Yosys JSON netlist of gate-level cells.

Yosys prepares both designs exactly as for its own SAT miter (``proc; flatten; memory``,
initial values removed, ``async2sync`` or ``clk2fflogic``), then ``dffunmap; techmap`` leaves
single-bit gates (``$_AND_``, ``$_MUX_``, ...) and plain flip-flops. This module reads that
netlist and builds the miter itself, so that every modelling decision is here and explicit:

* **Undefined values are ternary** (:mod:`rtlopt.formal.aig`): x constants, and every register
  at power-up, are x; a gate computes its exact ternary function. This is the semantics of
  Yosys's ``sat -enable_undef`` and of the testbench's 4-state simulation, and it is sound
  however synthesis later resolves an x (also differently at each place it is read).
* **The X policy**: an output bit where the reference is x accepts any candidate value; where
  the reference is defined, the candidate must be defined and equal (strict: x must also
  meet x). ``z`` bits, undriven reference outputs, black boxes, latches and any cell this
  module does not know make the miter unavailable (:class:`NotModelled`): the caller then
  relies on the other engines, never on a guess.
* **Time**: sequential designs step every register once per step (one clock, one edge; or
  Yosys's ``clk2fflogic`` model where clocks are ordinary inputs). At step 0 every register
  holds x (power-up) and every reset input is forced to its active level for the first
  ``reset_steps`` steps; outputs are compared at every step, step 0 included.
* **AIGER** has zero-initialized latches and two-valued signals, so the power-up step is
  built as a separate copy of the logic (registers x, reset forced) selected by a ``first``
  latch, and a register that may hold x later keeps two latches (its two rails). A register
  is given one latch only when its next value is binary by construction in both copies (a
  greatest fixpoint), so designs without undefined values after reset give plain AIGs.
* **Correspondence** (``free_init``: designs without reset, and registers a reset leaves
  alone): every register starts from a free defined value instead of x; a reference register
  bit copies the value of the candidate bit it corresponds to (by next-state function, found
  by :mod:`rtlopt.formal.regcorr` whatever the names, possibly complemented; else the same
  name, or a renamed register whose width is unique on both sides). A
  proof then says: for every power-up state of the candidate, the reference started in the
  matched state (its other registers anything) behaves the same, so every
  behaviour of the candidate is one of the reference. No register is x at power-up, so an
  un-reset reference register cannot make its outputs x and accept anything. Any pairing is
  sound (a wrong one only fails); a counterexample only shows that this pairing fails, so it
  is not a refutation (:attr:`Miter.exact` is false).
* **Stated power-up values** (``stated_init``, :mod:`rtlopt.formal.engines.stated`): the
  netlist keeps Yosys's ``init`` attributes; each register bit with a stated value starts
  from it, every other one x, and a net no gate drives holds its stated value. No reset is
  forced (the caller passes none). The miter stays exact: a counterexample is a difference
  from the stated power-up state. With ``free_init`` too, the bits without a stated value
  start from free defined values, paired as above, the stated ones from their values (not
  exact: a proof holds for every power-up state the candidate's text allows).

The miter's single output is 1 when the designs differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rtlopt.formal.aig import FALSE, TRUE, Aig, Tern, X, tern_const
from rtlopt.formal.netlist import (
    GATES,
    Bit,
    CombinationalLoop,
    MiterSpec,
    NeedsGlobalClock,
    Netlist,
    NotModelled,
    fanin_order,
    input_leaves,
    user_name,
)
from rtlopt.formal.regcorr import Member, correspondence, match_classes, pairs_of
from rtlopt.formal.regpair import signature_pairs

__all__ = ["Miter", "MiterSpec", "NeedsGlobalClock", "NotModelled", "build_miter"]


@dataclass
class Miter:
    """The built miter.

    Attributes:
        aig: The graph; its one output is 1 when the designs differ.
        inputs: For each AIG input (in order): ``(port, bit)`` of a primary input, or
            ``("<init>", i)`` for the i-th shared power-up value.
        gold_registers: Register bits of the reference.
        gate_registers: Register bits of the candidate.
        dual: Register bits that keep two rails (they may hold x after power-up).
        exact: A counterexample is a real difference (no shared power-up values).
    """

    aig: Aig
    inputs: list[tuple[str, int]]
    gold_registers: int = 0
    gate_registers: int = 0
    dual: int = 0
    exact: bool = True
    written_latches: int = 0
    #: With ``free_init``: which register bits start equal (see :func:`_free_init`).
    pairing: str = ""
    #: With ``free_init``: every reference register bit shares its power-up value with a
    #: candidate bit (the reference's state is a function of the candidate's).
    paired_all: bool = False
    #: Output bits per copy ("first" for step 0, "steady" after): port -> (gold, gate) bits.
    probes: dict[str, dict[str, tuple[list[Tern], list[Tern]]]] = field(default_factory=dict)
    #: With ``stated_init``: reference register bits without a stated power-up value (x).
    gold_unstated: int = 0


class _Eval:
    """Ternary values of a module's bits for one view (leaf values given)."""

    def __init__(
        self, aig: Aig, net: Netlist, leaves: Mapping[Bit, Tern], *, undriven: Tern
    ) -> None:
        self.aig = aig
        self.net = net
        self.memo: dict[Bit, Tern] = dict(leaves)
        self.undriven = undriven

    def get(self, bit: Bit) -> Tern:
        if isinstance(bit, str):
            return self.get_const_or_memo(bit)
        memo = self.memo
        if bit in memo:
            return memo[bit]
        for b, drv in fanin_order(self.net.driver, (bit,), memo, name=self.net.name):
            if drv is None:
                memo[b] = self.undriven
            else:
                vals = [self.get_const_or_memo(i) for i in drv[1]]
                memo[b] = GATES[drv[0]][1](self.aig, vals)
        return memo[bit]

    def get_const_or_memo(self, bit: Bit) -> Tern:
        if isinstance(bit, str):
            if bit in ("0", "1", "x"):
                return tern_const(bit)
            raise NotModelled(f"{self.net.name}: a '{bit}' constant is not modelled")
        return self.memo[bit]


def _compare(aig: Aig, g: Tern, t: Tern, strict: bool) -> int:
    """1 when the candidate bit ``t`` is not acceptable for the reference bit ``g``."""
    g1 = aig.and_(g[0], g[1] ^ 1)  # reference is 1
    g0 = aig.and_(g[0] ^ 1, g[1])  # reference is 0
    bad = aig.or_(aig.and_(g1, t[1]), aig.and_(g0, t[0]))
    if strict:
        gx = aig.and_(g[0], g[1])
        tx = aig.and_(t[0], t[1])
        bad = aig.or_(bad, aig.and_(gx, tx ^ 1))
    return bad


def build_miter(netlist: Mapping[str, Any], spec: MiterSpec) -> Miter:
    """Build the miter of ``spec.gold`` against ``spec.gate`` from a ``write_json`` netlist.

    Raises:
        NotModelled: a construct outside what this miter models soundly.
    """
    mods = netlist.get("modules", {})
    gmod = mods.get(spec.gold) or mods.get("\\" + spec.gold)
    tmod = mods.get(spec.gate) or mods.get("\\" + spec.gate)
    if gmod is None or tmod is None:
        raise NotModelled("the netlist lacks a module")
    gold = Netlist(gmod, "reference", spec)
    gate = Netlist(tmod, "candidate", spec)
    if {k: len(v) for k, v in gold.inputs.items()} != {
        k: len(v) for k, v in gate.inputs.items()
    } or {k: len(v) for k, v in gold.outputs.items()} != {
        k: len(v) for k, v in gate.outputs.items()
    }:
        raise NotModelled("the ports differ")
    if spec.outputs:
        if not set(spec.outputs) <= set(gold.outputs):
            raise NotModelled("an output to compare is not a port")
        for net in (gold, gate):
            net.outputs = {k: v for k, v in net.outputs.items() if k in spec.outputs}
    for bits in gold.outputs.values():
        for b in bits:
            if isinstance(b, str):
                if b == "z":
                    raise NotModelled("reference: a 'z' output is not modelled")
            elif b not in gold.driver and b not in gold.input_bits and b not in gold.q_bits:
                raise NotModelled("reference: an undriven output (z) is not modelled")
    aig = Aig()
    inputs: list[tuple[str, int]] = []
    port_lits: dict[str, list[int]] = {}
    data_clocks = set() if spec.global_clock else set(spec.clocks)
    for pname, bits in gold.inputs.items():
        if spec.sequential and pname in data_clocks:
            continue
        lits = []
        for i in range(len(bits)):
            lits.append(aig.input(f"{pname}[{i}]" if len(bits) > 1 else pname))
            inputs.append((pname, i))
        port_lits[pname] = lits
    if spec.stated_init and not inputs:
        # ABC's correspondence engines need a primary input (lcorr aborts without one)
        aig.input("rtlopt_unused")
        inputs.append(("<unused>", 0))
    if not spec.sequential:
        leaves_g = {**_stated_leaves(gold), **_leaves(gold, port_lits, {})}
        leaves_t = {**_stated_leaves(gate), **_leaves(gate, port_lits, {})}
        eg = _Eval(aig, gold, leaves_g, undriven=X)
        et = _Eval(aig, gate, leaves_t, undriven=X)
        probes: dict[str, tuple[list[Tern], list[Tern]]] = {}
        aig.output(_outputs_bad(aig, gold, gate, eg, et, spec.strict_x, probes))
        return Miter(aig, inputs, probes={"steady": probes})
    return _sequential(aig, inputs, port_lits, gold, gate, spec)


def _stated_leaves(net: Netlist) -> dict[Bit, Tern]:
    """The nets holding a stated value forever (``stated_init``; none otherwise)."""
    return {b: tern_const(v) for b, v in net.stated_leaves().items()}


def _leaves(
    net: Netlist, port_lits: Mapping[str, list[int]], override: Mapping[str, Sequence[Tern]]
) -> dict[Bit, Tern]:
    values = {p: [Aig.binary(x) for x in lits] for p, lits in port_lits.items()}
    return input_leaves(net.inputs, {**values, **override})


def _outputs_bad(
    aig: Aig,
    gold: Netlist,
    gate: Netlist,
    eg: _Eval,
    et: _Eval,
    strict: bool,
    probes: dict[str, tuple[list[Tern], list[Tern]]] | None = None,
) -> int:
    terms = []
    for pname, gbits in gold.outputs.items():
        gv = [eg.get(b) for b in gbits]
        tv = [et.get(b) for b in gate.outputs[pname]]
        if probes is not None:
            probes[pname] = (gv, tv)
        terms += [_compare(aig, g, t, strict) for g, t in zip(gv, tv, strict=True)]
    return aig.or_all(terms)


class _Fresh:
    """Free defined power-up values, one new AIG input each (``rtlopt_init<k>``, recorded in
    the miter's inputs as ``("<init>", k)``)."""

    def __init__(self, aig: Aig, inputs: list[tuple[str, int]]) -> None:
        self.aig = aig
        self.inputs = inputs
        self.count = 0

    def __call__(self) -> Tern:
        lit = self.aig.input(f"rtlopt_init{self.count}")
        self.inputs.append(("<init>", self.count))
        self.count += 1
        return Aig.binary(lit)


def _free_init(
    aig: Aig,
    inputs: list[tuple[str, int]],
    gold: Netlist,
    gate: Netlist,
    init_g: dict[Bit, Tern],
    init_t: dict[Bit, Tern],
    spec: MiterSpec | None = None,
) -> str:
    """Free defined power-up values; paired register bits share one (see ``free_init``).

    Returns:
        What was paired, for the result (``"12 of 12 reference register bits paired: 10 by
        next-state function, 2 by name"``).
    """
    fresh = _Fresh(aig, inputs)
    # registers paired by their next-state functions first (names do not matter), then the
    # rest by name or by a width unique on both sides, then by ternary simulation
    taken: set[tuple[int, Bit]] = set()
    classes = _function_classes(gold, gate, spec)
    by_function = _share_classes(aig, classes, fresh, init_g, init_t, taken)
    pairs = _name_pairs(gold, gate, taken)
    by_name = len(pairs)
    if spec is not None:
        # the classes above assume two-valued states; this one keeps x and stops at the
        # miter's pairing deadline
        done = (
            {q for side, q in taken if side == 0},
            {q for side, q in taken if side == 1},
        )
        pairs += signature_pairs(gold, gate, spec, paired=pairs, taken=done)
    for gbit, tbit in pairs:
        init_g[gbit] = init_t[tbit] = fresh()
    for init in (init_g, init_t):
        for q, v in init.items():
            if v == X:
                init[q] = fresh()
    paired = by_function + len(pairs)
    return (
        f"{paired} of {len(gold.ffs)} reference register bits paired with candidate bits "
        f"({by_function} by next-state function, {by_name} by name"
        + (f", {len(pairs) - by_name} by ternary simulation)" if len(pairs) > by_name else ")")
    )


def _function_classes(gold: Netlist, gate: Netlist, spec: MiterSpec | None) -> list[list[Member]]:
    """Register bits with one next-state function (:mod:`rtlopt.formal.regcorr`), split into
    one-to-one pairs; none when ``spec.by_function`` is off."""
    if spec is not None and not spec.by_function:
        return []
    try:
        return match_classes(
            gold,
            gate,
            correspondence(
                gold,
                gate,
                constants=spec.constants if spec else (),
                deadline=spec.pair_deadline if spec else 0.0,
            ),
        )
    except CombinationalLoop:  # the structure check rejects it anyway
        return []


def _share_classes(
    aig: Aig,
    classes: list[list[Member]],
    fresh: _Fresh,
    init_g: dict[Bit, Tern],
    init_t: dict[Bit, Tern],
    taken: set[tuple[int, Bit]],
) -> int:
    """Each class's reference bits copy its candidate bit's free value (complemented by
    phase), or share a value of their own; returns the reference bits paired."""
    by_function = 0
    for golds, source in pairs_of(classes):
        if source is None:
            v, ref_phase = fresh(), 0
        else:
            (_, tbit), ref_phase = source
            init_t[tbit] = v = fresh()
            taken.add((1, tbit))
            by_function += len(golds)
        for (_, gbit), ph in golds:
            init_g[gbit] = v if ph == ref_phase else aig.t_not(v)
            taken.add((0, gbit))
    return by_function


def _named(net: Netlist, side: int, taken: set[tuple[int, Bit]]) -> dict[str, Bit]:
    """The user's register names of ``net`` (side 0: reference) -> their Q bits, those not
    ``taken``."""
    out: dict[str, Bit] = {}
    for _, q in net.ffs:
        name = user_name(net.names, q)
        if name:
            out[name] = q
    return {n: q for n, q in out.items() if (side, q) not in taken}


def _name_pairs(gold: Netlist, gate: Netlist, taken: set[tuple[int, Bit]]) -> list[tuple[Bit, Bit]]:
    """Register bits not ``taken`` paired by name, then by a width unique on both sides."""
    gq, tq = _named(gold, 0, taken), _named(gate, 1, taken)
    pairs = [(gq[name], tq[name]) for name in sorted(set(gq) & set(tq))]
    pairs += _renamed_pairs(
        {n: q for n, q in gq.items() if n not in tq}, {n: q for n, q in tq.items() if n not in gq}
    )
    return pairs


def _renamed_pairs(gold: dict[str, Bit], gate: dict[str, Bit]) -> list[tuple[Bit, Bit]]:
    """Pair the registers left unmatched by name when their width is unique on both sides
    (one reference and one candidate register of that width: a rename). Any pairing is sound;
    a wrong one only fails the proof."""

    def by_base(named: dict[str, Bit]) -> dict[str, dict[str, Bit]]:
        out: dict[str, dict[str, Bit]] = {}
        for name, q in named.items():
            base, _, index = name.partition("[")
            out.setdefault(base, {})[index] = q
        return out

    def by_width(bases: dict[str, dict[str, Bit]]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for base, bits in bases.items():
            out.setdefault(len(bits), []).append(base)
        return out

    gb, tb = by_base(gold), by_base(gate)
    gw, tw = by_width(gb), by_width(tb)
    pairs: list[tuple[Bit, Bit]] = []
    for width, gnames in gw.items():
        tnames = tw.get(width, [])
        if len(gnames) == 1 and len(tnames) == 1:
            gbits, tbits = gb[gnames[0]], tb[tnames[0]]
            if set(gbits) == set(tbits):
                pairs += [(gbits[i], tbits[i]) for i in sorted(gbits)]
    return pairs


def _sequential(
    aig: Aig,
    inputs: list[tuple[str, int]],
    port_lits: dict[str, list[int]],
    gold: Netlist,
    gate: Netlist,
    spec: MiterSpec,
) -> Miter:
    """The sequential miter: a copy of the logic for the power-up step (step 0) and one for
    every later step, the registers as latches between them."""
    first, forcing = _step_counter(aig, max(1, spec.reset_steps))
    over0, overs = _reset_values(aig, spec, gold, port_lits, forcing)

    # power-up values: x, or a shared free value for matched registers
    init_g: dict[Bit, Tern] = {q: _power_up(gold, q) for _, q in gold.ffs}
    init_t: dict[Bit, Tern] = {q: _power_up(gate, q) for _, q in gate.ffs}
    x_g, x_t = dict(init_g), dict(init_t)
    pairing = ""
    paired_all = False
    if spec.free_init:
        pairing = _free_init(aig, inputs, gold, gate, init_g, init_t, spec)
        if spec.stated_init:  # the stated bits keep their values; only the others are free
            init_g.update((q, v) for q, v in x_g.items() if v != X)
            init_t.update((q, v) for q, v in x_t.items() if v != X)
        # every bit got a fresh value of its own or one shared with its pair
        paired_all = set(init_g.values()) <= set(init_t.values())

    # step 0: registers at power-up, resets forced
    held_g, held_t = _stated_leaves(gold), _stated_leaves(gate)
    e0g = _Eval(aig, gold, {**held_g, **_leaves(gold, port_lits, over0), **init_g}, undriven=X)
    e0t = _Eval(aig, gate, {**held_t, **_leaves(gate, port_lits, over0), **init_t}, undriven=X)
    d0 = [e0g.get(d) for d, _ in gold.ffs] + [e0t.get(d) for d, _ in gate.ffs]
    probes0: dict[str, tuple[list[Tern], list[Tern]]] = {}
    if spec.free_init and spec.x_first:
        e0g = _Eval(aig, gold, {**_leaves(gold, port_lits, over0), **x_g}, undriven=X)
        e0t = _Eval(aig, gate, {**_leaves(gate, port_lits, over0), **x_t}, undriven=X)
    bad0 = _outputs_bad(aig, gold, gate, e0g, e0t, spec.strict_x, probes0)

    # the later steps, then the outputs compared in the copy of the current step
    esg, est, dual = _registers(aig, port_lits, gold, gate, overs, first, d0)
    probes: dict[str, tuple[list[Tern], list[Tern]]] = {}
    bads = _outputs_bad(aig, gold, gate, esg, est, spec.strict_x, probes)
    aig.output(aig.mux(first, bads, bad0))
    return Miter(
        aig,
        inputs,
        gold_registers=len(gold.ffs),
        gate_registers=len(gate.ffs),
        dual=dual,
        exact=not spec.free_init,
        pairing=pairing,
        paired_all=paired_all,
        probes={"first": probes0, "steady": probes},
        gold_unstated=sum(1 for v in x_g.values() if v == X) if spec.stated_init else 0,
    )


def _power_up(net: Netlist, q: Bit) -> Tern:
    """A register bit's power-up value: its stated value (``stated_init``), else x."""
    v = net.init.get(q)
    return X if v is None else tern_const(v)


def _step_counter(aig: Aig, steps: int) -> tuple[int, int]:
    """Latches counting the first ``steps`` steps: ``(first, forcing)``, the literals that are
    1 at step 0 and while the resets are still forced (steps 0 .. steps-1)."""
    started = [aig.latch(f"rtlopt_started{i}") for i in range(steps)]
    aig.set_next(started[0], TRUE)
    for i in range(1, steps):
        aig.set_next(started[i], started[i - 1])
    return started[0] ^ 1, started[-1] ^ 1


def _reset_values(
    aig: Aig, spec: MiterSpec, gold: Netlist, port_lits: Mapping[str, list[int]], forcing: int
) -> tuple[dict[str, list[Tern]], dict[str, list[Tern]]]:
    """The reset inputs' values in the power-up copy (active) and in the steady copy (forced
    while ``forcing``: that copy runs at steps >= 1)."""
    resets = [r for r in spec.resets if r in gold.inputs and r in port_lits]
    over0: dict[str, list[Tern]] = {}
    for r in resets:
        over0[r] = [Aig.binary(TRUE if spec.resets[r] else FALSE)] * len(gold.inputs[r])
    overs: dict[str, list[Tern]] = {}
    for r in resets:
        act = TRUE if spec.resets[r] else FALSE
        if max(1, spec.reset_steps) == 1:
            overs[r] = [Aig.binary(x) for x in port_lits[r]]
        else:
            overs[r] = [Aig.binary(aig.mux(forcing, x, act)) for x in port_lits[r]]
    return over0, overs


def _registers(
    aig: Aig,
    port_lits: Mapping[str, list[int]],
    gold: Netlist,
    gate: Netlist,
    overs: Mapping[str, Sequence[Tern]],
    first: int,
    d0: Sequence[Tern],
) -> tuple[_Eval, _Eval, int]:
    """The register latches and the steady copy of the logic that reads them.

    A register keeps one latch while its next value is binary in both copies (a greatest
    fixpoint: a round that finds a non-binary one builds again), else two (its rails). Returns
    the steady copy's evaluators and the number of registers with two rails.
    """
    n_g = len(gold.ffs)
    binary = [True] * (n_g + len(gate.ffs))
    while True:
        latches: list[tuple[int, int | None]] = []  # (p latch, complemented n latch or None)
        values: list[Tern] = []
        for k, is_bin in enumerate(binary):
            tag = ("g" if k < n_g else "c") + str(k)
            p = aig.latch(f"rtlopt_{tag}p")
            if is_bin:
                latches.append((p, None))
                values.append(Aig.binary(p))
            else:
                m = aig.latch(f"rtlopt_{tag}n")
                latches.append((p, m))
                values.append((p, m ^ 1))
        vg = {q: values[k] for k, (_, q) in enumerate(gold.ffs)}
        vt = {q: values[n_g + k] for k, (_, q) in enumerate(gate.ffs)}
        esg = _Eval(
            aig, gold, {**_stated_leaves(gold), **_leaves(gold, port_lits, overs), **vg}, undriven=X
        )
        est = _Eval(
            aig, gate, {**_stated_leaves(gate), **_leaves(gate, port_lits, overs), **vt}, undriven=X
        )
        ds = [esg.get(d) for d, _ in gold.ffs] + [est.get(d) for d, _ in gate.ffs]
        nxt = [aig.t_select(first, s, z) for s, z in zip(ds, d0, strict=True)]
        changed = False
        for k, v in enumerate(nxt):
            if binary[k] and not Aig.is_binary(v):
                binary[k] = False
                changed = True
        if changed:
            continue  # the unused latches of this round fall outside the cone
        for (p_latch, n_latch), v in zip(latches, nxt, strict=True):
            aig.set_next(p_latch, v[0])
            if n_latch is not None:
                aig.set_next(n_latch, v[1] ^ 1)
        return esg, est, binary.count(False)
