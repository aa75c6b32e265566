"""Generation of the equivalence testbench: renamed reference beside the candidate."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.config import HarnessConfig
from rtlopt.errors import DesignError
from rtlopt.frontend import FieldConstant, compare_constants
from rtlopt.frontend.model import Design, Module, Port
from rtlopt.harness._reference import ref_name
from rtlopt.harness._stimulus import Field, Stimulus, combinational, pack_fields, sequential

VECTOR_FILE = "rtlopt_vectors.hex"
TAG = "RTLOPT"


#: Vectors (or cycles) a held start runs after its check at time 0.
HELD_VECTORS = 64


@dataclass(frozen=True)
class HeldStart:
    """A testbench that starts with the inputs held from time 0 by a variable's initializer,
    which makes no event under ``iverilog -g2012`` (as an environment outside the repository may
    hold a top's inputs: ``logic a = 1'b0;``), before the stimulus runs as usual.

    Attributes:
        value: The held inputs' packed value (the stimulus's layout), reset fields included.
        evented: Inputs that get their value by an event at time 0 instead (x until then).
        strict: Whether the check at time 0 compares x exactly (a reference x is then no
            don't care: a reader in the repository decides on it).
    """

    value: int
    evented: frozenset[str] = frozenset()
    strict: bool = False


@dataclass(frozen=True)
class Testbench:
    """A generated testbench.

    Attributes:
        text: Verilog source of the testbench top.
        top: Name of the testbench top module.
        extra_files: File name to contents; write them into the simulation's working directory.
        classes: Number of vectors (combinational) or cycles (sequential) per stimulus class.
        total: Total vectors or cycles.
        sequential: Whether clocks are driven.
        fields: Layout of the packed input word.
        digest: Hash of the text and vectors (same seed and design give the same digest).
        constants: Values the design compares inputs against, behind the ``biased`` class
            (empty when none were found or ``harness.bias_constants`` is off).
        seed: The stimulus seed (``harness.seed``).
        token: The secret the text was built with; :meth:`sealed` replaces it for each run.
    """

    text: str
    top: str
    extra_files: Mapping[str, str]
    classes: Mapping[str, int]
    total: int
    sequential: bool
    fields: tuple[Field, ...] = field(default_factory=tuple)
    digest: str = ""
    constants: tuple[FieldConstant, ...] = ()
    seed: int = 0
    token: str = field(default="", repr=False)

    def sealed(self, vectors: Path | None = None) -> SealedBench:
        """The text with a fresh secret, and fresh names for the top and the two instances;
        with ``vectors``, reading its vectors from that file (a folder the design cannot
        write: a design that rewrote the vectors before the testbench read them would choose
        its own stimulus).

        Every compile and run of the testbench uses its own: a secret that a file somewhere
        (the shared testbench, an earlier run's log) shows is dead by the time a design could
        read it, and a design cannot name the testbench's signals (``rtlopt_tb.errors_``) in
        a hierarchical reference, because it was written before the names were drawn.
        """
        if not self.token:
            raise ValueError("the testbench was not built with a secret (build_testbench)")
        new = secrets.token_hex(16)
        old_suffix, suffix = _suffix(self.token), _suffix(new)
        top = f"{self.top}_{suffix}"
        text = self.text.replace(self.token, new).replace(old_suffix, suffix)
        head = f"module {self.top};"
        if head not in text:
            raise ValueError("the testbench text has no top module header")
        text = text.replace(head, f"module {top};", 1)
        if vectors is not None:
            quoted = str(vectors).replace("\\", "\\\\").replace('"', '\\"')
            if "\n" in quoted or "\r" in quoted:
                raise ValueError(f"a line break in the vector file's path: {vectors!r}")
            text = text.replace(f'$readmemh("{VECTOR_FILE}"', f'$readmemh("{quoted}"', 1)
        return SealedBench(text, top, new, f"u_ref_{suffix}", f"u_cand_{suffix}")

    def stimulus_record(self) -> dict[str, object]:
        """Seed, vectors per class and the constant set, for results and reports."""
        return {
            "seed": self.seed,
            "classes": dict(self.classes),
            "constants": [c.to_dict() for c in self.constants],
        }

    @property
    def files(self) -> Mapping[str, str]:
        """Alias of ``extra_files``."""
        return self.extra_files

    def class_at(self, index: int) -> str:
        """Stimulus class of the vector (or cycle) with this index."""
        for name, n in self.classes.items():
            if index < n:
                return name
            index -= n
        return "?"


@dataclass(frozen=True)
class SealedBench:
    """One run's testbench (:meth:`Testbench.sealed`).

    Attributes:
        text: The Verilog text.
        top: Its top module's name.
        secret: The token its result lines carry.
        reference: The reference's instance name.
        candidate: The candidate's instance name.
    """

    text: str
    top: str
    secret: str = field(repr=False)
    reference: str
    candidate: str

    def with_initial(self, body: str) -> SealedBench:
        """The bench with one more ``initial`` block (``body``: its statements)."""
        head, _, _ = self.text.rstrip().rpartition("endmodule")
        text = f"{head}  initial begin {body} end\nendmodule\n"
        return SealedBench(text, self.top, self.secret, self.reference, self.candidate)


def _suffix(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:8]


def _driven_inputs(design: Design) -> tuple[list[Port], list[Port]]:
    """(clocks, other inputs) of the target."""
    t = design.target
    clock_names = set(t.clocks)
    clocks = [p for p in t.inputs if p.name in clock_names]
    others = [p for p in t.inputs if p.name not in clock_names]
    return clocks, others


def _decl(width: int) -> str:
    return f"[{width - 1}:0] " if width > 1 else ""


def build_testbench(
    design: Design,
    cfg: HarnessConfig,
    secret: str,
    *,
    top_name: str = "rtlopt_tb",
    only: Collection[str] | None = None,
    constants: tuple[FieldConstant, ...] | None = None,
    held: HeldStart | None = None,
) -> Testbench:
    """Generate the equivalence testbench for ``design``'s target.

    The testbench instantiates the renamed reference (``<top>__rtlopt_ref``) and the candidate
    (``<top>``) on the same inputs, reads precomputed vectors from ``rtlopt_vectors.hex``
    (written from ``extra_files``), and compares every output after each vector for
    combinational designs, in both clock phases of every cycle for sequential ones. The X
    policy: by default a bit that is ``x`` in the reference may be anything in the candidate
    (a refinement, as logic-equivalence tools allow), while 0, 1 and ``z`` bits must match
    exactly, so a candidate ``x`` where the reference is defined is a mismatch; with
    ``cfg.strict_x`` every bit must match exactly (4-state ``!==``). It first checks that every
    candidate port has the reference's width. Results go out as tagged lines carrying
    ``secret``; see :func:`parse_sim_output`.

    Args:
        design: The design; its target is the reference.
        cfg: Stimulus settings (seed, counts).
        secret: Per-run token; it appears in the testbench text only.
        top_name: Name of the testbench module.
        only: Keep only these stimulus classes (e.g. ``{"random"}``); default all.
        constants: Compared constants for the biased class; default: found in ``design``
            (:func:`rtlopt.frontend.compare_constants`) when ``cfg.bias_constants`` is on.
        held: Start with the inputs held from time 0 (:class:`HeldStart`): checked once at
            1 ns (vector -1), before the first vector; then the first :data:`HELD_VECTORS`.

    Raises:
        DesignError: The target has no outputs to compare.
    """
    t = design.target
    if not t.outputs:
        raise DesignError(
            f"module '{t.name}' has no outputs to compare",
            path=t.file,
            line=t.line,
            hint="pick a module with at least one output",
        )
    if not secret or not secret.isalnum():
        raise ValueError("secret must be a non-empty alphanumeric token")
    clocks, others = _driven_inputs(design)
    seq = bool(clocks)
    resets = {r: (0 if t.reset_active_low.get(r, False) else 1) for r in t.resets}
    fields = pack_fields([(p.name, p.width) for p in others], resets)
    stim, constants = _stimulus(design, cfg, fields, seq, constants, only)
    vectors = stim.vectors
    width = max(1, sum(f.width for f in fields))
    hexw = (width + 3) // 4
    if not vectors:
        vectors = [0]
        stim.classes["idle"] = [0]
    mem = "".join(f"{v:0{hexw}x}\n" for v in vectors)
    n = len(vectors)
    tag = f"{TAG} {secret}"
    suffix = _suffix(secret)
    u_ref, u_cand = f"u_ref_{suffix}", f"u_cand_{suffix}"
    L = [
        *_tb_declarations(t, top_name, width, n, clocks, fields, (u_ref, u_cand)),
        *_tb_check_task(t, fields, tag, cfg.strict_x, n // 2 if seq else -1),
        *_tb_main(t, u_cand, tag, n, clocks),
    ]
    if held is not None:
        L = _held_start(L, held, fields, width)
    text = "\n".join(L) + "\n"
    counts = stim.counts()
    neutral = text.replace(secret, "").replace(suffix, "")
    digest = hashlib.sha256((neutral + mem).encode()).hexdigest()[:16]
    return Testbench(
        text=text,
        top=top_name,
        extra_files={VECTOR_FILE: mem},
        classes=counts,
        total=n,
        sequential=seq,
        fields=tuple(fields),
        digest=digest,
        constants=constants,
        seed=cfg.seed,
        token=secret,
    )


def _stimulus(
    design: Design,
    cfg: HarnessConfig,
    fields: list[Field],
    seq: bool,
    constants: tuple[FieldConstant, ...] | None,
    only: Collection[str] | None,
) -> tuple[Stimulus, tuple[FieldConstant, ...]]:
    """The stimulus classes, and the compared constants behind the biased class (none when
    that class is empty)."""
    if constants is None:
        use_bias = cfg.bias_constants and cfg.bias_vectors > 0
        constants = compare_constants(design) if use_bias else ()
    driven = {f.name for f in fields if f.reset_active is None}
    constants = tuple(c for c in constants if c.port in driven)
    stim: Stimulus = (
        sequential(fields, cfg, constants) if seq else combinational(fields, cfg, constants)
    )
    if not stim.classes.get("biased"):
        constants = ()
    if only is not None:
        stim = Stimulus({k: v for k, v in stim.classes.items() if k in only})
    return stim, constants


def _tb_declarations(
    t: Module,
    top_name: str,
    width: int,
    n: int,
    clocks: list[Port],
    fields: list[Field],
    units: tuple[str, str],
) -> list[str]:
    """The module header, the vector memory, the input and output wires and the two
    instances (reference, candidate)."""
    u_ref, u_cand = units
    L: list[str] = []
    a = L.append
    a("`timescale 1ns/1ps")
    a("// Generated by rtlopt: equivalence testbench. Do not edit.")
    a(f"module {top_name};")
    a(f"  reg [{width - 1}:0] mem_ [0:{n - 1}];")
    a(f"  reg [{width - 1}:0] vec_;")
    a("  integer i_, errors_, checks_, bad_;")
    for c in clocks:
        a(f"  reg {c.name}_clk_ = 1'b0;")
    for f in fields:
        a(f"  wire {_decl(f.width)}in_{f.name} = vec_[{f.offset + f.width - 1}:{f.offset}];")
    for f in fields:
        # the candidate's own copy: a simulator joins an input port's net with the net it is
        # connected to, so a candidate that drives its input port (``assign a[0] = 0``) would
        # drive the reference's input too (both outputs x: any candidate passes); through a
        # copy its driver meets only the copy's, and the conflict shows on its side
        a(f"  wire {_decl(f.width)}cin_{f.name} = in_{f.name};")
    for p in t.outputs:
        # always a range, so that the X-refinement check below can index a 1-bit output
        a(f"  wire [{p.width - 1}:0] ref_{p.name};")
        a(f"  wire [{p.width - 1}:0] cand_{p.name};")
        if clocks:
            a(f"  reg [{p.width - 1}:0] xseen_{p.name};")
            a(f"  integer xn_{p.name};")

    def conns(prefix: str) -> str:
        items = []
        for p in t.ports:
            if p.direction == "input":
                copy = "cin" if prefix == "cand" else "in"
                sig = f"{p.name}_clk_" if p in clocks else f"{copy}_{p.name}"
            else:
                sig = f"{prefix}_{p.name}"
            items.append(f".{p.name}({sig})")
        return ", ".join(items)

    a(f"  {ref_name(t.name)} {u_ref} ({conns('ref')});")
    a(f"  {t.name} {u_cand} ({conns('cand')});")
    return L


def _tb_check_task(
    t: Module, fields: list[Field], tag: str, strict_x: bool, half: int
) -> list[str]:
    """The compare task: counts a mismatching vector/cycle once, reports the first one.

    From cycle ``half`` on (sequential testbenches; -1: never) it also records, in
    ``xseen_<output>``, every bit the reference shows x, and counts in ``xn_<output>`` the
    checks where one is: un-reset state the stimulus has not defined after thousands of
    cycles (see :func:`_tb_main`)."""
    L: list[str] = []
    a = L.append
    a("  task check_;")
    a("    input integer idx_;")
    a("    input integer phase_;")
    a("    input integer strict_;")
    a("    integer k_, diff_;")
    a("    begin")
    a("      checks_ = checks_ + 1;")
    a("      bad_ = 0;")
    if half >= 0:
        for p in t.outputs:
            a(f"      if (idx_ >= {half} && ^ref_{p.name} === 1'bx) begin")
            a(f"        xn_{p.name} = xn_{p.name} + 1;")
            a(f"        for (k_ = 0; k_ < {p.width}; k_ = k_ + 1)")
            a(f"          if (ref_{p.name}[k_] === 1'bx) xseen_{p.name}[k_] = 1'b1;")
            a("      end")
    inputs_fmt = " ".join(f"in:{f.name}=%h" for f in fields)
    inputs_args = ", ".join(f"in_{f.name}" for f in fields)
    for p in t.outputs:
        a(f"      if (ref_{p.name} !== cand_{p.name}) begin")
        if strict_x:
            a("        diff_ = 1;")
        else:
            # X policy: an x bit of the reference may be refined to anything; every other bit
            # (0, 1 and z) must be matched exactly, so an x where the reference is defined fails
            a("        diff_ = 0;")
            a(f"        for (k_ = 0; k_ < {p.width}; k_ = k_ + 1)")
            a(
                f"          if ((strict_ || ref_{p.name}[k_] !== 1'bx) "
                f"&& ref_{p.name}[k_] !== cand_{p.name}[k_])"
            )
            a("            diff_ = 1;")
        a("        if (diff_ && errors_ == 0 && bad_ == 0)")
        args = f"$time, idx_, phase_, ref_{p.name}, cand_{p.name}"
        if inputs_args:
            args += ", " + inputs_args
        a(
            f'          $display("{tag} MISMATCH t=%0t vec=%0d phase=%0d out={p.name} '
            f'exp=%b got=%b {inputs_fmt}", {args});'
        )
        a("        if (diff_) bad_ = 1;")
        a("      end")
    a("      if (bad_) errors_ = errors_ + 1;")
    a("    end")
    a("  endtask")
    return L


def _held_start(lines: list[str], held: HeldStart, fields: list[Field], width: int) -> list[str]:
    """The testbench ``lines`` starting from ``held``: the stimulus register declared with the
    held value as its initializer (no event at time 0; the evented inputs' bits x), given the
    whole value at time 0 (an event only where it was x) and checked at 1 ns."""
    bits = ["0"] * width
    for f in fields:
        for i in range(f.width):
            pos = f.offset + i
            bits[pos] = "x" if f.name in held.evented else str((held.value >> pos) & 1)
    initializer = f"{width}'b{''.join(reversed(bits))}"
    value = f"{width}'h{held.value & ((1 << width) - 1):x}"
    declaration = f"  reg [{width - 1}:0] vec_;"
    start = "    errors_ = 0; checks_ = 0;"
    if lines.count(declaration) != 1 or lines.count(start) != 1:
        raise ValueError("the testbench has no single stimulus register or start")
    out = list(lines)
    out[out.index(declaration)] = f"  reg [{width - 1}:0] vec_ = {initializer};"
    at = out.index(start) + 1
    out[at:at] = [f"    vec_ = {value};", f"    #1; check_(-1, 0, {int(held.strict)});"]
    # what time 0 leaves shows in the first vectors (a sequential stimulus resets first)
    loop = [k for k, line in enumerate(out) if line.startswith("    for (i_ = 0; i_ < ")]
    if len(loop) != 1:
        raise ValueError("the testbench has no single stimulus loop")
    out[loop[0]] = re.sub(
        r"i_ < (\d+);", lambda m: f"i_ < {min(int(m.group(1)), HELD_VECTORS)};", out[loop[0]]
    )
    return out


def _tb_main(t: Module, u_cand: str, tag: str, n: int, clocks: list[Port]) -> list[str]:
    """The initial block: the port-width check, then every vector (both clock phases of a
    cycle for sequential designs), then the result line."""
    L: list[str] = []
    a = L.append
    a("  initial begin")
    a("    errors_ = 0; checks_ = 0;")
    for p in t.outputs if clocks else ():
        a(f"    xseen_{p.name} = {p.width}'d0; xn_{p.name} = 0;")
    for p in t.ports:
        a(f"    if ($bits({u_cand}.{p.name}) != {p.width}) begin")
        a(
            f'      $display("{tag} INTERFACE port={p.name} expected={p.width} got=%0d", '
            f"$bits({u_cand}.{p.name}));"
        )
        a("      errors_ = errors_ + 1;")
        a("    end")
    a(f'    $readmemh("{VECTOR_FILE}", mem_);')
    a(f"    for (i_ = 0; i_ < {n}; i_ = i_ + 1) begin")
    a("      vec_ = mem_[i_];")
    if clocks:
        a("      #2; check_(i_, 0, 0);")
        a("      #3;")
        for c in clocks:
            a(f"      {c.name}_clk_ = 1'b1;")
        a("      #2; check_(i_, 1, 0);")
        a("      #3;")
        for c in clocks:
            a(f"      {c.name}_clk_ = 1'b0;")
    else:
        a("      #1; check_(i_, 0, 0);")
    a("    end")
    for p in t.outputs if clocks else ():
        # the reference's outputs still x in the second half: un-reset state the stimulus
        # never defined (the formal check must not rest on the X policy there)
        a(f"    if (xseen_{p.name} != {p.width}'d0)")
        a(
            f'      $display("{tag} XREF out={p.name} mask=%b checks=%0d", '
            f"xseen_{p.name}, xn_{p.name});"
        )
    a(f'    $display("{tag} RESULT vectors={n} checks=%0d mismatches=%0d", checks_, errors_);')
    a("    $finish;")
    a("  end")
    a("endmodule")
    return L
