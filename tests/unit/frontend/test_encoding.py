"""Sources rtlopt would read as another text than the tools: bytes that are not UTF-8 in
code, carriage returns no line feed follows."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.errors import DesignError
from rtlopt.frontend._encoding import candidate_text, undecodable_line, undecodable_problem


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b'module m;\n// caf\xe9\nwire [7:0] k = "\x80";\nendmodule\n', 3),
        (b"module m; wire k\xff;\nendmodule\n", 1),
        (b"module m;\n// caf\xe9\n/* \xff */ wire k;\nendmodule\n", None),
        ("module m; // café\nendmodule\n".encode(), None),
    ],
)
def test_a_byte_that_is_not_utf8_counts_outside_comments(data: bytes, line: int | None) -> None:
    assert undecodable_line(data) == line


def test_a_lone_carriage_return_is_refused_anywhere(tmp_path: Path) -> None:
    p = tmp_path / "m.v"
    p.write_bytes(b"module m;\r\n// x\rwire a;\nendmodule\n")
    assert "line 2 holds a carriage return" in (undecodable_problem(p) or "")
    p.write_bytes(b"module m;\r\nwire a;\r\nendmodule\r\n")
    assert undecodable_problem(p) is None
    assert candidate_text(p) == "module m;\nwire a;\nendmodule\n"


def test_a_candidate_file_not_utf8_in_code_is_a_design_error(tmp_path: Path) -> None:
    p = tmp_path / "c.v"
    p.write_bytes(b'module m; wire [7:0] k = "\x80"; endmodule\n')
    with pytest.raises(DesignError, match="not UTF-8"):
        candidate_text(p)


def test_a_nul_byte_is_refused_anywhere(tmp_path: Path) -> None:
    p = tmp_path / "m.v"
    p.write_bytes(b"module m;\n// a\0b\nendmodule\n")
    assert "line 2 holds a NUL byte" in (undecodable_problem(p) or "")
