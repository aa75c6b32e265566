"""The preprocessor's output known without running it (``eda.iverilog.verbatim_preprocessed``)
is the real ``iverilog -E``'s byte for byte, on hand-made edge cases and on the bench's files
that hold no directive; a file with a directive mark or a carriage return is left to the tool
(real iverilog)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.eda.iverilog import verbatim_preprocessed
from tests.conftest import bench_path

pytestmark = pytest.mark.tools

CASES = {
    "no-last-newline.v": b"module a; endmodule",
    "empty.v": b"",
    "tabs.v": b"module b;\tendmodule\n\n\n",
    "utf8.v": "module d; // caf\u00e9\nendmodule\n".encode() + b"// \xff\n",
    "escaped.v": b"module e; wire \\a\\b ; endmodule\n",
    "backslash.v": b"module f;\n  assign x = 1; \\\n endmodule\n",
    "strings.v": b'module g; initial $display("%d \\" // /*", 1); endmodule\n',
}


def _tool(files: list[Path], tmp: Path, *extra: str) -> bytes:
    out = tmp / "pre.v"
    argv = ["iverilog", "-grelative-include", *extra, "-E", "-g2012", "-o", str(out)]
    subprocess.run([*argv, *map(str, files)], check=True, capture_output=True)
    return out.read_bytes()


def test_the_known_output_is_the_preprocessors_own(tmp_path: Path) -> None:
    files = []
    for name, data in CASES.items():
        f = tmp_path / name
        f.write_bytes(data)
        files.append(f)
        assert verbatim_preprocessed([f]) == _tool([f], tmp_path), name
    # concatenated in order, nothing between them (defines and folders change nothing)
    got = _tool(files, tmp_path, "-DX=1", f"-I{tmp_path}")
    assert verbatim_preprocessed(files) == got


def test_the_bench_files_without_a_directive_come_out_unchanged(tmp_path: Path) -> None:
    plain = [
        f
        for f in sorted((bench_path() / "rtllm").rglob("*.v"))
        if b"`" not in f.read_bytes() and b"\r" not in f.read_bytes()
    ][:40]
    assert len(plain) >= 20
    for f in plain:
        assert verbatim_preprocessed([f]) == _tool([f], tmp_path), f


@pytest.mark.parametrize(
    "data", [b"`define W 8\nmodule a; endmodule\n", b"module a;\r\nendmodule\r\n", b"a\0b\n"]
)
def test_a_directive_a_carriage_return_or_nul_leaves_it_to_the_tool(
    data: bytes, tmp_path: Path
) -> None:
    f = tmp_path / "x.v"
    f.write_bytes(data)
    assert verbatim_preprocessed([f]) is None
    assert verbatim_preprocessed([tmp_path / "missing.v"]) is None


PREFIXES = {
    "a-define": b"`define W 8\n",
    "an-undef": b"// prelude\n`undef __ICARUS__\n",
    "a-closed-ifdef": b"`ifdef X\n`define Y 1\n`else\n`define Y 2\n`endif\n",
    "an-open-ifdef": b"`ifdef NOT_SET\n",
    "an-open-ifndef": b"`ifndef NOT_SET\n",
    "a-continued-define": b"`define Z a \\\n",
    "an-open-comment": b"`define Q 1\n/* open\n",
    "no-last-newline": b"`define R 1",
    "an-include": b'`include "h.vh"\n',
    "a-timescale": b"`timescale 1ns/1ps\n`celldefine\n",
}


def _tool_deps(files: list[Path], tmp: Path) -> tuple[bytes, set[Path]] | None:
    out, deps = tmp / "pre.v", tmp / "deps.txt"
    argv = ["iverilog", "-grelative-include", f"-Mall={deps}", "-E", "-g2012", "-o", str(out)]
    run = subprocess.run([*argv, *map(str, files)], capture_output=True)
    if run.returncode != 0 or run.stderr.strip():
        return None
    return out.read_bytes(), {Path(x) for x in deps.read_text().splitlines() if x}


@pytest.mark.parametrize("prefix", sorted(PREFIXES))
def test_a_prefix_is_remembered_only_where_plain_files_come_out_unchanged(
    prefix: str, tmp_path: Path
) -> None:
    from rtlopt.eda._known_preprocess import known_output
    from rtlopt.tools import require_tool

    (tmp_path / "h.vh").write_bytes(b"`define H 1\nwire h;\n")
    first = tmp_path / "prefix.vh"
    first.write_bytes(PREFIXES[prefix])
    plain = tmp_path / "plain.v"
    plain.write_bytes(CASES["tabs.v"] + CASES["utf8.v"])
    files = [first, plain]
    known = known_output(require_tool("iverilog"), files)
    tool = _tool_deps(files, tmp_path)
    if known is not None:  # whenever it is known, it is the tool's own output and reads
        assert tool is not None, prefix
        assert known[0] == tool[0], prefix
        assert set(known[1]) == tool[1], prefix
    if prefix in ("a-define", "an-undef", "a-closed-ifdef", "an-include", "a-timescale"):
        assert known is not None, prefix  # transparent prefixes are remembered
    if prefix == "an-include":  # a header that changes is read again
        (tmp_path / "h.vh").write_bytes(b"`define H 2\nwire g;\n")
        again = known_output(require_tool("iverilog"), files)
        tool = _tool_deps(files, tmp_path)
        assert again is not None and tool is not None and again[0] == tool[0]
