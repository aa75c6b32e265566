"""The short commands stay light: no heavy import for `--help`, and a cached `rtlopt evaluate`
answers without starting a tool (timings themselves are measured by bench/cli_latency.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
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


#: Loaded by the full `rtlopt evaluate`, and by none of a cached one (issue 31): neither click,
#: the configuration, the frontend, the evaluator, the harness, the tools' runner nor the
#: result types.
NOT_FOR_A_HIT = (
    "click",
    "pyslang",
    "rich",
    "rtlopt.config",
    "rtlopt.frontend",
    "rtlopt.evaluate",
    "rtlopt.harness",
    "rtlopt.tools",
    "rtlopt.results",
)


def test_cached_evaluate_starts_no_tool_and_loads_nothing_heavy(
    fake_tools: FakeTools, tmp_path: Path
) -> None:
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
    # `rtlopt ARGV` in a fresh interpreter, then the modules it loaded
    probe = (
        "import sys\nfrom rtlopt.cli import main\n"
        f"sys.argv = ['rtlopt', *{argv!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        f"print('\\nLOADED:' + ','.join(m for m in {NOT_FOR_A_HIT!r} if m in sys.modules), code)"
    )

    # a liberty cache of its own: the suite's shared one changes while other tests run, and a
    # memo is kept only for inputs that did not change during the command (CI, wave 25)
    env = {**_env(), "RTLOPT_LIBERTY_CACHE": str(tmp_path / "liberty-cache")}

    def run() -> tuple[dict[str, object], str]:
        out = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=tmp_path
        )
        assert out.returncode == 0, out.stderr
        text, _, loaded = out.stdout.rpartition("\nLOADED:")
        data: dict[str, object] = json.loads(text)
        return data, loaded.strip()

    time.sleep(0.1)  # a memo is kept only for inputs that did not change just before
    first, loaded = run()
    assert fake_tools.calls(), "the first evaluation runs the tools"
    assert "rtlopt.evaluate" in loaded and loaded.endswith(" 0"), loaded
    fake_tools.clear()
    second, loaded = run()
    assert fake_tools.calls() == []
    assert loaded == "0"  # nothing of NOT_FOR_A_HIT, exit 0
    cand_json = second["candidate"]
    ref_json = second["reference"]
    assert isinstance(cand_json, dict) and isinstance(ref_json, dict)
    assert cand_json["cached"] and ref_json["cached"]
    first_cand = first["candidate"]
    assert isinstance(first_cand, dict)
    assert cand_json["ppa"] == first_cand["ppa"] and cand_json["timings"] == first_cand["timings"]
    assert "simulation" in cand_json["timings"]
