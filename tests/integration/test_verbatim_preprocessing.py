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
