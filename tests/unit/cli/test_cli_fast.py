"""The short commands stay light: no heavy import for `--help`, and a cached `rtlopt evaluate`
answers without starting a tool (timings themselves are measured by bench/cli_latency.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, FakeTools

HEAVY = ("torch", "transformers", "pyslang", "rich", "rtlopt.config", "rtlopt.tools")
ADDER = (
    "module top(input [3:0] a, input [3:0] b, output [4:0] y);\n  assign y = a + b;\nendmodule\n"
)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def _loaded_after(code: str) -> list[str]:
    probe = (
        f"import sys\n{code}\nprint('LOADED:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], env=_env(), capture_output=True, text=True, check=True
    )
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("LOADED:"), out.stdout
    return [m for m in last.removeprefix("LOADED:").split(",") if m]


def test_import_and_help_load_no_heavy_module() -> None:
    assert _loaded_after("import rtlopt.cli") == []
    run_help = (
        "import rtlopt.cli as c\nsys.argv = ['rtlopt', '--help']\n"
        "try:\n    c.main()\nexcept SystemExit:\n    pass"
    )
    assert _loaded_after(run_help) == []


def test_cached_evaluate_starts_no_tool(fake_tools: FakeTools, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "top.v").write_text(ADDER)
    (repo / "rtlopt.toml").write_text(
        '[flow]\npersistent = false\npower = false\n[eval]\nnetlist_check = "never"\n'
    )
    lib = tmp_path / "fake.lib"
    lib.write_text("library (fake) { }\n")
    cand = tmp_path / "cand.v"
    cand.write_text(ADDER.replace("a + b", "b + a"))
    argv = [
        sys.executable,
        "-m",
        "rtlopt",
        "evaluate",
        str(repo / "rtl" / "top.v"),
        "-c",
        str(cand),
        "--liberty",
        str(lib),
        "--pdk",
        "custom",
        "--json",
    ]

    def run() -> dict[str, object]:
        out = subprocess.run(argv, env=_env(), capture_output=True, text=True, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        data: dict[str, object] = json.loads(out.stdout)
        return data

    first = run()
    assert fake_tools.calls(), "the first evaluation runs the tools"
    fake_tools.clear()
    second = run()
    assert fake_tools.calls() == []
    cand_json = second["candidate"]
    ref_json = second["reference"]
    assert isinstance(cand_json, dict) and isinstance(ref_json, dict)
    assert cand_json["cached"] and ref_json["cached"]
    first_cand = first["candidate"]
    assert isinstance(first_cand, dict)
    assert cand_json["ppa"] == first_cand["ppa"] and cand_json["timings"] == first_cand["timings"]
    assert "simulation" in cand_json["timings"]
