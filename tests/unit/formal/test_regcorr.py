"""Register correspondence by next-state function (no names), on hand-built gate netlists."""

from __future__ import annotations

from dataclasses import dataclass, field

from rtlopt.formal.regcorr import correspondence, pairs_of


@dataclass
class Net:
    inputs: dict[str, list[int | str]]
    driver: dict[int | str, tuple[str, list[int | str]]] = field(default_factory=dict)
    ffs: list[tuple[int | str, int | str]] = field(default_factory=list)


def _gold() -> Net:
    # input i = bit 1; registers: a (bit 10) toggles with i, b (bit 11) = a & ~b
    n = Net({"i": [1]})
    n.driver[20] = ("$_XOR_", [10, 1])
    n.driver[21] = ("$_ANDNOT_", [10, 11])
    n.ffs = [(20, 10), (21, 11)]
    return n


def _gate(*, broken: bool = False) -> Net:
    # the same registers declared the other way round; b is stored complemented (nb = ~(a & ~b)
    # = ~a | b, with ~b = nb: ~a | ~nb = ~(a & nb))
    n = Net({"i": [1]})
    n.driver[30] = ("$_NAND_", [11, 10])  # nb' = ~(a & nb)
    n.driver[31] = ("$_XNOR_" if broken else "$_XOR_", [11, 1])  # a' = a ^ i
    n.ffs = [(30, 10), (31, 11)]  # Q bit 10 is nb, Q bit 11 is a
    return n


def test_renamed_and_complemented_registers_are_paired() -> None:
    classes = correspondence(_gold(), _gate())
    got = {frozenset((node, ph) for node, ph in c) for c in classes}
    # gold a (0, 10) with gate a (1, 11), same phase; gold b (0, 11) with gate nb (1, 10),
    # complemented
    assert len(got) == 2
    by_gold = {next(n for (n, _) in c if n[0] == 0): c for c in classes}
    a = dict(by_gold[(0, 10)])
    assert set(a) == {(0, 10), (1, 11)} and a[(0, 10)] == a[(1, 11)]
    b = dict(by_gold[(0, 11)])
    assert set(b) == {(0, 11), (1, 10)} and b[(0, 11)] != b[(1, 10)]
    assert all(src is not None for _, src in pairs_of(classes))


def test_a_different_next_state_function_is_not_paired() -> None:
    classes = correspondence(_gold(), _gate(broken=True))
    for c in classes:
        sides = {n[0] for n, _ in c}
        # a and nb depend on a: nothing of the candidate corresponds to the reference's a
        assert not ((0, 10) in {n for n, _ in c} and sides == {0, 1})
