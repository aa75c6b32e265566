"""Unit tests: stimulus classes, testbench text, tagged result parsing (no tools)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import HarnessConfig
from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import VECTOR_FILE, build_testbench, parse_sim_output, parse_sim_report
from rtlopt.harness._stimulus import combinational, pack_fields, sequential


def _design(
    tmp_path: Path,
    ports: tuple[Port, ...],
    clocks: tuple[str, ...] = (),
    resets: tuple[str, ...] = (),
    low: dict[str, bool] | None = None,
) -> Design:
    f = tmp_path / "m.v"
    f.write_text("module m(); endmodule\n")
    m = Module("m", f, 1, 0, 21, ports, clocks=clocks, resets=resets, reset_active_low=low or {})
    return Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"m": m}, (f,))


LZA_LIKE = (
    Port("a", "input", 24, 23, 0),
    Port("sub", "input", 1),
    Port("b", "input", 24, 23, 0),
    Port("y", "output", 5, 4, 0),
    Port("z", "output", 1),
)


def test_combinational_classes_and_reproducibility() -> None:
    fields = pack_fields([("a", 24), ("sub", 1), ("b", 24)], {})
    cfg = HarnessConfig(random_vectors=1000, sparse_vectors=100, seed=7)
    s1, s2 = combinational(fields, cfg), combinational(fields, cfg)
    assert s1.vectors == s2.vectors
    assert combinational(fields, HarnessConfig(seed=8)).vectors != s1.vectors
    counts = s1.counts()
    assert counts["random"] == 1000 and counts["sparse"] == 100
    assert counts["walking"] == 2 * 2 * 48  # ones and zeros, 48 data bits, sub = 0/1
    assert counts["close"] == 100
    vecs = set(s1.vectors)
    a_msb = 1 << 23
    for sub in (0, 1):
        assert (sub << 24) in vecs  # all zero, each mode
        assert a_msb | (sub << 24) in vecs  # MSB only on a
        assert ((1 << 49) - 1) & ~(1 << 24) | (sub << 24) in vecs  # all ones
    # close pairs: b = a xor one bit
    for v in s1.classes["close"]:
        a, b = v & 0xFFFFFF, (v >> 25) & 0xFFFFFF
        assert bin(a ^ b).count("1") == 1
    for v in s1.classes["sparse"][::2]:
        assert 1 <= bin(v).count("1") <= 3


def test_exhaustive_when_small() -> None:
    fields = pack_fields([("a", 4), ("b", 4), ("c", 1)], {})
    s = combinational(fields, HarnessConfig(exhaustive_max_bits=9))
    assert s.counts() == {"exhaustive": 512}
    assert sorted(s.vectors) == list(range(512))
    assert "exhaustive" not in combinational(fields, HarnessConfig(exhaustive_max_bits=8)).counts()


def test_sequential_reset_sequence() -> None:
    fields = pack_fields([("rst_n", 1), ("en", 1), ("d", 8)], {"rst_n": 0})
    cfg = HarnessConfig(reset_cycles=3, random_vectors=200, sequence_cycles=300)
    s = sequential(fields, cfg)
    assert s.classes["reset"] == [0, 0, 0]  # reset active low, data zero
    assert all(v & 1 for v in s.classes["random"])  # reset released during random cycles
    assert len(s.classes["hold"]) == 300
    assert any(not v & 1 for v in s.classes["hold"])  # occasional reset pulses
    assert s.vectors == sequential(fields, cfg).vectors


def test_testbench_text(tmp_path: Path) -> None:
    d = _design(tmp_path, LZA_LIKE)
    tb = build_testbench(d, HarnessConfig(), "s3cr3t")
    assert "m__rtlopt_ref u_ref_" in tb.text and "\n  m u_cand_" in tb.text
    assert "ref_y !== cand_y" in tb.text and "ref_z !== cand_z" in tb.text
    assert "RTLOPT s3cr3t RESULT" in tb.text
    assert tb.total == sum(tb.classes.values())
    lines = tb.extra_files[VECTOR_FILE].splitlines()
    assert len(lines) == tb.total and all(len(x) == 13 for x in lines)  # 49 bits -> 13 hex
    assert not tb.sequential
    assert tb.class_at(0) == "corner"
    tb2 = build_testbench(d, HarnessConfig(), "other")
    assert tb2.digest == tb.digest and "s3cr3t" not in tb2.text


def test_testbench_sequential(tmp_path: Path) -> None:
    ports = (
        Port("clk", "input", 1),
        Port("rst_n", "input", 1),
        Port("d", "input", 8, 7, 0),
        Port("q", "output", 8, 7, 0),
    )
    d = _design(tmp_path, ports, ("clk",), ("rst_n",), {"rst_n": True})
    tb = build_testbench(d, HarnessConfig(), "abc")
    assert tb.sequential
    assert "clk_clk_ = 1'b1" in tb.text and ".clk(clk_clk_)" in tb.text
    assert tb.classes["reset"] == 3


def test_testbench_rejects_bad_secret(tmp_path: Path) -> None:
    d = _design(tmp_path, LZA_LIKE)
    with pytest.raises(ValueError):
        build_testbench(d, HarnessConfig(), 'x"); $finish; //')


OK = "RTLOPT k3y RESULT vectors=10 checks=10 mismatches=0\n"
BAD = (
    "RTLOPT k3y MISMATCH t=5 vec=4 phase=0 out=y exp=0101 got=0100 in:a=3 in:b=7\n"
    "RTLOPT k3y RESULT vectors=10 checks=10 mismatches=2\n"
)


def test_parse_pass_and_mismatch() -> None:
    r = parse_sim_output("noise\n" + OK, "k3y")
    assert r.passed and r.vectors == 10 and r.mismatches == 0
    r = parse_sim_output(BAD, "k3y")
    assert not r.passed and r.mismatches == 2
    assert r.first_mismatch is not None
    assert r.first_mismatch.output == "y" and r.first_mismatch.expected == "0101"
    assert r.first_mismatch.got == "0100" and dict(r.first_mismatch.inputs) == {"a": "3", "b": "7"}
    assert "vector 4" in r.first_mismatch.time


@pytest.mark.parametrize(
    "log, why",
    [
        ("", "no result"),
        (OK.replace("k3y", "guess"), "no result"),  # wrong secret does not count
        (OK + OK, "duplicate"),
        ("RTLOPT k3y RESULT vectors=x checks=1 mismatches=0\n", "malformed"),
        ("RTLOPT k3y INTERFACE port=y expected=5 got=8\n" + OK, "width"),
        ("RTLOPT k3y RESULT vectors=10 checks=10 mismatches=3\n", "without a report"),
    ],
)
def test_parse_rejects(log: str, why: str) -> None:
    rep = parse_sim_report(log, "k3y")
    assert not rep.result.passed
    assert why in rep.reason


def test_sequential_sparse_vectors_spread_over_every_data_input() -> None:
    """A sparse vector is a word of the data inputs together (few bits set, or few cleared),
    cut into the inputs at their offsets: every input gets its share, not only the first."""
    fields = pack_fields([("rst", 1), ("a", 4), ("b", 4)], {"rst": 1})
    cfg = HarnessConfig(sparse_vectors=40)
    sparse = sequential(fields, cfg).classes["sparse"]
    assert len(sparse) == 40
    by_name = {f.name: f for f in fields}

    def data(word: int) -> int:  # the data inputs' bits, a below b, without the reset
        a, b = by_name["a"], by_name["b"]
        return (word >> a.offset) & a.mask | ((word >> b.offset) & b.mask) << a.width

    ones = [bin(data(w)).count("1") for w in sparse]
    assert all(n <= 3 for n in ones[0::2]) and all(n >= 5 for n in ones[1::2]), ones
    for f in ("a", "b"):
        lo = by_name[f]
        assert any((w >> lo.offset) & lo.mask for w in sparse[0::2]), f
    # the reset is held inactive throughout
    assert all((w >> by_name["rst"].offset) & 1 == 0 for w in sparse)
