"""And-inverter graphs with ternary (0/1/x) signals, written as binary AIGER for ABC.

A literal is ``2 * var + complemented``; variable 0 is the constant, so literal 0 is false and
1 is true. :class:`Aig` hashes AND nodes structurally and folds constants, so logic that does
not depend on an undefined value costs nothing extra in the ternary encoding below.

A :data:`Tern` is a dual-rail pair ``(p, n)``: ``p`` says the value *may be 1*, ``n`` that it
*may be 0*. Defined 1 is ``(1, 0)``, defined 0 is ``(0, 1)``, x is ``(1, 1)``; ``(0, 0)`` never
occurs. Each gate computes exactly the ternary (Kleene) function of its inputs, which
over-approximates every way an ``x`` can be resolved, also differently at every place it is
read: a bit that comes out defined has that value whatever the undefined inputs are. A signal
whose ``n`` is the complement of its ``p`` is *binary* and is built with plain AND gates
(:meth:`Aig.is_binary`), so designs without undefined values give a plain AIG.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["FALSE", "TRUE", "X", "Aig", "Tern", "tern_const"]

FALSE = 0
TRUE = 1

#: A ternary signal: (may be 1, may be 0) as two literals.
Tern = tuple[int, int]

X: Tern = (TRUE, TRUE)


def tern_const(bit: str) -> Tern:
    """The ternary constant of a Yosys JSON constant bit ("0", "1", "x")."""
    if bit == "0":
        return (FALSE, TRUE)
    if bit == "1":
        return (TRUE, FALSE)
    if bit == "x":
        return X
    raise ValueError(f"no ternary constant for {bit!r}")


@dataclass(frozen=True)
class AigStats:
    """Sizes of the written AIGER file (after the cone of influence)."""

    inputs: int
    latches: int
    ands: int
    outputs: int


class Aig:
    """A structurally hashed AIG with inputs, zero-initialized latches and outputs."""

    def __init__(self) -> None:
        self._fanins: list[tuple[int, int]] = [(0, 0)]  # per variable; (0, 0) for non-AND
        self._kind: list[str] = ["const"]
        self._strash: dict[tuple[int, int], int] = {}
        self.inputs: list[int] = []  # variables, in creation order
        self.input_names: list[str] = []
        self.latches: list[int] = []
        self.latch_names: list[str] = []
        self._next: dict[int, int] = {}
        self.outputs: list[int] = []

    # ------------------------------------------------------------------ construction

    def _new(self, kind: str, fanins: tuple[int, int] = (0, 0)) -> int:
        self._fanins.append(fanins)
        self._kind.append(kind)
        return len(self._fanins) - 1

    def input(self, name: str = "") -> int:
        """A new primary input; returns its positive literal."""
        var = self._new("input")
        self.inputs.append(var)
        self.input_names.append(name)
        return 2 * var

    def latch(self, name: str = "") -> int:
        """A new latch with initial value 0; set its next state with :meth:`set_next`."""
        var = self._new("latch")
        self.latches.append(var)
        self.latch_names.append(name)
        return 2 * var

    def set_next(self, latch: int, nxt: int) -> None:
        """The next-state literal of the latch whose positive literal is ``latch``."""
        var = latch >> 1
        if latch & 1 or self._kind[var] != "latch":
            raise ValueError("set_next needs a latch's positive literal")
        self._next[var] = nxt

    def output(self, lit: int) -> None:
        """Add a primary output (for a miter: 1 means the designs differ)."""
        self.outputs.append(lit)

    def and_(self, a: int, b: int) -> int:
        """AND of two literals (constants folded, structurally hashed)."""
        if a > b:
            a, b = b, a
        if a == FALSE:
            return FALSE
        if a == TRUE or a == b:
            return b
        if a == b ^ 1:
            return FALSE
        key = (a, b)
        var = self._strash.get(key)
        if var is None:
            var = self._new("and", key)
            self._strash[key] = var
        return 2 * var

    def or_(self, a: int, b: int) -> int:
        return self.and_(a ^ 1, b ^ 1) ^ 1

    def xor(self, a: int, b: int) -> int:
        return self.or_(self.and_(a, b ^ 1), self.and_(a ^ 1, b))

    def mux(self, s: int, a: int, b: int) -> int:
        """``s ? b : a``."""
        if a == b:
            return a
        return self.or_(self.and_(s, b), self.and_(s ^ 1, a))

    def or_all(self, lits: Iterable[int]) -> int:
        """OR of many literals as a balanced tree."""
        items = [x for x in lits if x != FALSE]
        if TRUE in items:
            return TRUE
        while len(items) > 1:
            items = [
                self.or_(items[i], items[i + 1]) if i + 1 < len(items) else items[i]
                for i in range(0, len(items), 2)
            ]
        return items[0] if items else FALSE

    # ------------------------------------------------------------------ ternary

    @staticmethod
    def is_binary(t: Tern) -> bool:
        """Whether the signal can never be x (its rails are complements)."""
        return t[1] == t[0] ^ 1

    @staticmethod
    def binary(lit: int) -> Tern:
        return (lit, lit ^ 1)

    def t_not(self, a: Tern) -> Tern:
        return (a[1], a[0])

    def t_and(self, a: Tern, b: Tern) -> Tern:
        p = self.and_(a[0], b[0])
        if self.is_binary(a) and self.is_binary(b):
            return (p, p ^ 1)
        return (p, self.or_(a[1], b[1]))

    def t_or(self, a: Tern, b: Tern) -> Tern:
        n = self.and_(a[1], b[1])
        if self.is_binary(a) and self.is_binary(b):
            return (n ^ 1, n)
        return (self.or_(a[0], b[0]), n)

    def t_xor(self, a: Tern, b: Tern) -> Tern:
        if self.is_binary(a) and self.is_binary(b):
            return self.binary(self.xor(a[0], b[0]))
        p = self.or_(self.and_(a[0], b[1]), self.and_(a[1], b[0]))
        n = self.or_(self.and_(a[0], b[0]), self.and_(a[1], b[1]))
        return (p, n)

    def t_mux(self, s: Tern, a: Tern, b: Tern) -> Tern:
        """``s ? b : a``; an x select gives a defined result where ``a`` and ``b`` agree."""
        if a == b:
            return a
        if self.is_binary(s) and self.is_binary(a) and self.is_binary(b):
            return self.binary(self.mux(s[0], a[0], b[0]))
        p = self.or_(self.and_(s[0], b[0]), self.and_(s[1], a[0]))
        n = self.or_(self.and_(s[0], b[1]), self.and_(s[1], a[1]))
        return (p, n)

    def t_select(self, s: int, a: Tern, b: Tern) -> Tern:
        """``s ? b : a`` for a binary select literal."""
        if self.is_binary(a) and self.is_binary(b):
            return self.binary(self.mux(s, a[0], b[0]))
        return (self.mux(s, a[0], b[0]), self.mux(s, a[1], b[1]))

    # ------------------------------------------------------------------ output

    def _cone(self) -> tuple[list[int], list[int]]:
        """Latches and AND variables in the cone of influence of the outputs."""
        seen: set[int] = set()
        stack = [lit >> 1 for lit in self.outputs]
        while stack:
            var = stack.pop()
            if var in seen or var == 0:
                continue
            seen.add(var)
            kind = self._kind[var]
            if kind == "and":
                a, b = self._fanins[var]
                stack += [a >> 1, b >> 1]
            elif kind == "latch":
                stack.append(self._next.get(var, FALSE) >> 1)
        latches = [v for v in self.latches if v in seen]
        ands = [v for v in range(len(self._kind)) if self._kind[v] == "and" and v in seen]
        return latches, ands

    def to_aiger(self) -> tuple[bytes, AigStats, dict[int, int]]:
        """The binary AIGER text of the outputs' cone (every input kept, in order).

        Returns:
            The file's bytes, its sizes, and the map from latch variables of this graph to
            their index in the file.
        """
        latches, ands = self._cone()
        newvar: dict[int, int] = {0: 0}
        for i, v in enumerate(self.inputs):
            newvar[v] = 1 + i
        base = 1 + len(self.inputs)
        for i, v in enumerate(latches):
            newvar[v] = base + i
        base += len(latches)
        for i, v in enumerate(ands):
            newvar[v] = base + i

        def lit(x: int) -> int:
            return 2 * newvar[x >> 1] + (x & 1)

        n_in, n_l, n_a = len(self.inputs), len(latches), len(ands)
        out = bytearray(f"aig {n_in + n_l + n_a} {n_in} {n_l} {len(self.outputs)} {n_a}\n".encode())
        for v in latches:
            out += f"{lit(self._next.get(v, FALSE))}\n".encode()
        for o in self.outputs:
            out += f"{lit(o)}\n".encode()
        for v in ands:
            lhs = 2 * newvar[v]
            r0, r1 = sorted((lit(self._fanins[v][0]), lit(self._fanins[v][1])), reverse=True)
            for delta in (lhs - r0, r0 - r1):
                while delta >= 0x80:
                    out.append((delta & 0x7F) | 0x80)
                    delta >>= 7
                out.append(delta)
        symbols = bytearray()
        for i, name in enumerate(self.input_names):
            if name:
                symbols += f"i{i} {_symbol(name)}\n".encode()
        for i, v in enumerate(latches):
            name = self.latch_names[self.latches.index(v)]
            if name:
                symbols += f"l{i} {_symbol(name)}\n".encode()
        out += symbols + b"c\nwritten by rtlopt\n"
        index = {v: i for i, v in enumerate(latches)}
        return bytes(out), AigStats(n_in, n_l, n_a, len(self.outputs)), index

    # ------------------------------------------------------------------ simulation

    def simulate(
        self, inputs: Sequence[Sequence[int]], probes: Sequence[int] = ()
    ) -> list[list[int]]:
        """Binary simulation from the zero state: output values per step.

        Args:
            inputs: One list of input values (0/1, in :attr:`inputs` order) per step.
            probes: Further literals to report after the outputs, per step.
        """
        state = {v: 0 for v in self.latches}
        result: list[list[int]] = []
        for frame in inputs:
            val: dict[int, int] = {0: 0}
            for v, bit in zip(self.inputs, frame, strict=True):
                val[v] = bit & 1
            val.update(state)

            def get(x: int, val: dict[int, int] = val) -> int:
                return val[x >> 1] ^ (x & 1)

            for v in range(len(self._kind)):
                if self._kind[v] == "and":
                    a, b = self._fanins[v]
                    val[v] = get(a) & get(b)
            result.append([get(o) for o in [*self.outputs, *probes]])
            state = {v: get(self._next.get(v, FALSE)) for v in self.latches}
        return result


def _symbol(name: str) -> str:
    # AIGER symbols end at the newline; nothing else needs escaping
    return name.replace("\n", " ").replace("\r", " ")
