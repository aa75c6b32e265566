"""The gate reads a changed text as evaluate reads the repository's (``check/_screen_files.py``
``changed_text``): escapes decoded (N), any size up to 64 MB and a finding where larger (O), a
compressed file by what it holds and a finding where it cannot be unpacked (B), a text that
starts like a binary format as text (A)."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from rtlopt.check import _screen_files
from rtlopt.check._build_options import option_problems
from rtlopt.check._screen_files import changed_text


def test_escapes_are_decoded_where_the_gate_reads_options(tmp_path: Path) -> None:
    """N: ``printf '\\055D...'`` is ``-DFAST_INV`` to the shell."""
    f = tmp_path / "Makefile"
    f.write_text("sim:\n\tiverilog $$(printf '\\055D\\106\\101\\123\\124_INV') inv.v\n")
    text, why = changed_text(f)
    assert text is not None and not why and "-DFAST_INV" in text
    old = "sim:\n\tiverilog inv.v\n"
    assert any("-DFAST_INV" in msg for _, msg in option_problems("Makefile", old, text))


def test_a_text_over_4_mb_is_read_whole(tmp_path: Path) -> None:
    """O: a generated Makefile with no Verilog keyword is judged all the same."""
    f = tmp_path / "Makefile"
    lines = "".join(f"s{i}:\n\t./run {i}\n" for i in range(400_000))
    f.write_text(lines + "sim:\n\tiverilog -DFAST_INV inv.v\n")
    assert f.stat().st_size > 4_000_000
    text, why = changed_text(f)
    assert text is not None and not why and "-DFAST_INV" in text


def test_a_text_too_large_to_read_is_not_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_screen_files, "JUDGED_BYTES", 100)
    f = tmp_path / "Makefile"
    f.write_text("sim:\n\tiverilog inv.v\n" * 20)
    text, why = changed_text(f)
    assert text is None and "too large to be judged" in why


def test_a_compressed_file_is_judged_by_its_content(tmp_path: Path) -> None:
    """B: a define inside ``sim_defs.v.gz`` the Makefile unpacks; a zstd file is not judged."""
    f = tmp_path / "sim_defs.v.gz"
    f.write_bytes(gzip.compress(b"`define FAST_INV\n"))
    assert changed_text(f) == ("`define FAST_INV\n", "")
    z = tmp_path / "sim_defs.v.zst"
    z.write_bytes(b"\x28\xb5\x2f\xfd" + os.urandom(64))
    text, why = changed_text(z)
    assert text is None and "zstd" in why


def test_a_makefile_starting_like_a_waveform_is_read(tmp_path: Path) -> None:
    """A: ``FSDB ?= 0`` then UTF-8 comments."""
    f = tmp_path / "Makefile"
    f.write_text(
        "FSDB ?= 0\n"
        + "# 波形开关：仿真时是否转储波形文件\n" * 20
        + "sim:\n\tiverilog -DFAST_INV inv.v\n"
    )
    text, _ = changed_text(f)
    assert text is not None and "-DFAST_INV" in text
