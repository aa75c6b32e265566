"""How rtlopt reads the repository's texts (``harness/_binary.py``, ``harness/_unpacked.py``,
``harness/_opaque.py``, ``evaluate/_repo_texts.py``): a text that starts like a binary format
is text (A); a compressed file or an archive is judged by what it holds, one that cannot be
unpacked fails closed (B); a script that computes characters at run time, or is written in a
source encoding, is read as Python reads it or is opaque (C); the decoded form of a line is
judged before the line's own comment (D)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._foreign_x_anytext import x_texts
from rtlopt.evaluate._repo_texts import opaque_reason, other_texts
from rtlopt.frontend import load_design
from rtlopt.harness._binary import is_binary, with_decoded
from rtlopt.harness._opaque import run_time_spelling, source_text
from rtlopt.harness._unpacked import unpacked

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
COMMENTS = "# 波形开关：仿真时是否转储波形文件，默认关闭以加快回归速度\n" * 6


def test_a_text_starting_like_a_binary_format_is_text() -> None:
    """A: the FSDB prefix and UTF-8 comments (>= 10% bytes >= 0x80) make no binary file."""
    make = ("FSDB ?= 0\n" + COMMENTS + "sim:\n\tiverilog -Ptb.TW=21 tb.v\n").encode()
    assert not is_binary(make[:8192])
    assert not is_binary(("FSDB = 0\n" + COMMENTS).encode("gbk"))  # a legacy encoding
    assert is_binary(b"FSDB" + os.urandom(4000)) and is_binary(b"\x1f\x8b\x08" + os.urandom(99))


def _packs(inner: bytes) -> dict[str, bytes]:
    zbuf, tbuf = io.BytesIO(), io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr("stim/scenario.v", inner)
    with tarfile.open(fileobj=tbuf, mode="w:gz") as t:
        info = tarfile.TarInfo("stim/scenario.v")
        info.size = len(inner)
        t.addfile(info, io.BytesIO(inner))
    return {
        "scenario.v.gz": gzip.compress(inner),
        "scenario.v.bz2": bz2.compress(inner),
        "scenario.v.xz": lzma.compress(inner),
        "stim.zip": zbuf.getvalue(),
        "stim.tgz": tbuf.getvalue(),
    }


@pytest.mark.parametrize("name", list(_packs(b"")))
def test_a_compressed_file_is_read_by_what_it_holds(name: str) -> None:
    """B: each format Python reads, named as the build names it unpacked."""
    inner = b"initial tb.s = 1'bx;\n"
    found = unpacked(Path(name), _packs(inner)[name])
    assert found is not None and not found.why
    assert [(p.name, d) for p, d in found.members] == [("scenario.v", inner)]


def test_a_compressed_file_rtlopt_cannot_unpack_fails_closed() -> None:
    zstd = unpacked(Path("s.v.zst"), b"\x28\xb5\x2f\xfd" + os.urandom(64))
    big = unpacked(Path("s.v.gz"), gzip.compress(b"\n" * 2000), cap=1000)
    bad = unpacked(Path("s.v.gz"), b"\x1f\x8b\x08\x00" + os.urandom(64))
    assert zstd is not None and "zstd" in zstd.why and not zstd.members
    assert big is not None and "more than" in big.why and not big.members
    assert bad is not None and "cannot be unpacked" in bad.why
    assert unpacked(Path("run.sh"), b"vsim -c tb\n") is None


def test_an_unpacked_stimulus_feeds_x_and_a_zstd_file_is_opaque(tmp_path: Path) -> None:
    (tmp_path / "mux.v").write_text(MUX)
    (tmp_path / "scenario.v.gz").write_bytes(gzip.compress(b"initial tb.s = 1'bx;\n"))
    design = load_design(tmp_path / "mux.v", "mux", ProjectConfig())
    texts, unread = other_texts(design)
    assert {p.name for p, _ in texts} >= {"scenario.v"}
    hits = x_texts(texts, unread, set(), ["s", "a"], {"dut/s"}, {"mux"})
    assert [h.path.name for h in hits] == ["scenario.v"]
    (tmp_path / "stim.v.zst").write_bytes(b"\x28\xb5\x2f\xfd" + os.urandom(64))
    design = load_design(tmp_path / "mux.v", "mux", ProjectConfig())
    assert opaque_reason(design, None, "feed x").startswith("stim.v.zst:1: rtlopt cannot read")


@pytest.mark.parametrize(
    "line",
    [
        'UNK = chr(ord("w") + 1)',
        'P = base64.b64decode("dGIuZHV0LmNudA==").decode()',
        'P = codecs.decode("gb.qhg.pag", "rot13")',
        'P = "%c" % (n + 1)',
        'exec(src + "x")',
        'P = bytearray.fromhex("74622e").decode()',
    ],
)
def test_a_script_computing_characters_is_opaque(line: str) -> None:
    """C: a generator (it writes a file) that computes characters at run time."""
    text = f"import base64, codecs\n{line}\nopen('tb.v', 'w').write(P)\n"
    assert run_time_spelling(Path("gen_tb.py"), text) == (2, line)
    assert run_time_spelling(Path("run.sh"), "v=$(printf %b '\\\\170')\n") is not None


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("gen_tb.py", "UNK = chr(120)\nopen('tb.v', 'w').write(UNK)\n"),  # decoded, not opaque
        ("gen_tb.py", "# chr(ord(c) + 1) shifts a letter\nprint('ok')\n"),  # a comment
        ("crc.py", "n = crc(bytes([1, 2, 3]))\n"),  # neither writes nor runs
        # literal bytes are decoded (held-out trial 49: secworks/sha256's padding script)
        ("pad.py", "with open('p.bin', 'wb') as f:\n    f.write(bytearray([0x80]))\n"),
        ("t.py", "cocotb = __import__('cocotb')\nprint(1)\n"),  # a module by its name
        ("notes.md", "`chr(ord(c) + 1)` shifts a letter\n"),  # documentation
        ("sim.v", 'initial $display("%c", n + 1);\n'),  # Verilog: the x analysis reads it
    ],
)
def test_no_run_time_spelling_where_nothing_is_computed_for_a_build(name: str, text: str) -> None:
    assert run_time_spelling(Path(name), text) is None


def test_a_declared_source_encoding_is_honoured() -> None:
    """C: Python reads ``+AHg-`` as "x" in a UTF-7 source; an unknown encoding is opaque."""
    text, why = source_text(b'# coding: utf-7\nUNK = "+AHg-"\n')
    assert 'UNK = "x"' in text and not why
    assert "does not know" in source_text(b"# -*- coding: nosuch -*-\nA = 1\n")[1]


def test_the_decoded_form_is_judged_before_the_lines_comment() -> None:
    """D: a lexer drops what follows ``#``: the decoded form comes first on the line."""
    line = with_decoded("UNK = chr(120)  # the unknown value\n").split("\n")[0]
    assert line.startswith('UNK = "x"') and "UNK = chr(120)" in line
    hits = x_texts(
        [(Path("gen_tb.py"), with_decoded("UNK = chr(120)  # unknown\nprint(UNK)\n"))],
        [],
        set(),
        ["s"],
        {"dut/s"},
        {"mux"},
    )
    assert hits and hits[0].line == 1
    # a Python block string stays one (no quotes joined into it)
    assert with_decoded('CFG = """\n# W=37\n"""\n') == 'CFG = """\n# W=37\n"""\n'


def test_literal_bytes_are_decoded_and_computed_ones_stay_opaque() -> None:
    """``bytes([116, 98])`` spells "tb" where a rule reads names; a computed list is opaque."""
    assert '"tb"' in with_decoded("open('t', 'w').write(bytes([116, 98]))\n")
    assert '"tb.dut"' in with_decoded("PATH = bytes([116, 98, 46, 100, 117, 116]).decode()\n")
    text = "open('t', 'wb').write(bytes([n + 1 for n in d]))\n"
    assert run_time_spelling(Path("gen.py"), text) == (1, text.strip())


def test_computed_bytes_a_python_text_keeps_as_bytes_are_data() -> None:
    """A cocotb test's payload (held-out trial 51: alexforencich's verilog-uart) names nothing;
    decoded, written to a binary file or handed to a process, it may."""
    payload = "import cocotb\n\ndef prbs_payload(n):\n    gen = prbs31()\n"
    payload += "    return bytearray([next(gen) for x in range(n)])\n"
    assert run_time_spelling(Path("test_uart_rx.py"), payload) is None
    for out in [
        "NAME = prbs_payload(3).decode()\n",
        "open('t.v', 'wb').write(prbs_payload(3))\n",
        "subprocess.run([prbs_payload(3)])\n",
        "os.environ['N'] = prbs_payload(3).hex()\n",
    ]:
        assert run_time_spelling(Path("test_uart_rx.py"), payload + out) == (
            5,
            "return bytearray([next(gen) for x in range(n)])",
        ), out
