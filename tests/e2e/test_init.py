"""`rtlopt init` on a darkriscv-style repository: what it detects, what it writes, and that
`rtlopt check` runs with the written configuration (issue 33)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from rtlopt.config import load_config
from tests.e2e._darkstyle import BROKEN, EQUIVALENT, edit, write_darkstyle
from tests.e2e.conftest import git, rtlopt

UART = "rtl/darkuart.v"


def _without_config(tmp_path: Path) -> Path:
    repo = write_darkstyle(tmp_path / "dark")
    git(repo, "rm", "-q", "rtlopt.toml")
    (repo / "rtl" / "rtl.f").write_text("+incdir+rtl\n+define+FAST_UART\nrtl/darkuart.v\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "no rtlopt configuration")
    return repo


def test_init_writes_what_it_detected_and_keeps_existing_files(tmp_path: Path) -> None:
    repo = _without_config(tmp_path)
    r = rtlopt(["init"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "filelists: rtl/rtl.f" in r.stdout and "include folders: rtl" in r.stdout
    assert "FAST_UART" in r.stdout
    data = tomllib.loads((repo / "rtlopt.toml").read_text())
    assert data["project"]["filelists"] == ["rtl/rtl.f"]
    assert data["project"]["include_dirs"] == ["rtl"]
    assert data["check"]["optimization_only"] == ["*"]
    cfg = load_config(None, config_file=repo / "rtlopt.toml").config  # unknown keys would raise
    assert cfg.project.filelists == ("rtl/rtl.f",)
    for rel in (".pre-commit-config.yaml", ".github/workflows/rtlopt-check.yml"):
        assert "rtlopt check" in (repo / rel).read_text(), rel
    # never overwritten without --force
    (repo / "rtlopt.toml").write_text("# mine\n")
    r = rtlopt(["init"], repo)
    assert r.returncode == 0 and "kept rtlopt.toml" in r.stdout, r.stdout
    assert (repo / "rtlopt.toml").read_text() == "# mine\n"
    r = rtlopt(["init", "--force"], repo)
    assert r.returncode == 0 and "wrote rtlopt.toml" in r.stdout
    assert "[check]" in (repo / "rtlopt.toml").read_text()


@pytest.mark.tools
def test_check_runs_with_the_written_configuration(tmp_path: Path) -> None:
    repo = _without_config(tmp_path)
    assert rtlopt(["init"], repo).returncode == 0
    git(repo, "add", "rtlopt.toml")
    git(repo, "commit", "-qm", "rtlopt configuration")
    p = repo / UART
    base = p.read_text()
    p.write_text(edit(base, *EQUIVALENT[0]))
    git(repo, "add", UART)
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    [m] = json.loads(r.stdout)["modules"]
    assert (m["module"], m["equivalence"]) == ("darkuart", "proven"), m
    p.write_text(edit(base, *BROKEN[0]))
    git(repo, "add", UART)
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode == 1, r.stdout + r.stderr


def test_init_states_a_filelists_variables_so_no_shell_needs_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cv32e40p's manifest: "${DESIGN_RTL_DIR}/..." paths the user's shell must set
    monkeypatch.delenv("DESIGN_RTL_DIR", raising=False)
    repo = tmp_path / "core"
    (repo / "rtl" / "include").mkdir(parents=True)
    (repo / "rtl" / "include" / "defs.svh").write_text("`define W 4\n")
    (repo / "rtl" / "inv.sv").write_text(
        '`include "defs.svh"\nmodule inv (input [`W-1:0] a, output [`W-1:0] y);\n'
        "  assign y = ~a;\nendmodule\n"
    )
    (repo / "core_manifest.flist").write_text(
        "+incdir+${DESIGN_RTL_DIR}/include\n${DESIGN_RTL_DIR}/inv.sv\n"
    )
    git(repo, "init", "-q")
    r = rtlopt(["init"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "DESIGN_RTL_DIR=rtl" in r.stdout, r.stdout
    data = tomllib.loads((repo / "rtlopt.toml").read_text())
    assert data["project"]["filelists"] == ["core_manifest.flist"]
    assert data["project"]["filelist_vars"] == ["DESIGN_RTL_DIR=rtl"]
    r = rtlopt(["inspect", "rtl/inv.sv", "--json"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["module"] == "inv", r.stdout
    # the control: the filelist without the stated value names the variable and the fix
    toml = repo / "rtlopt.toml"
    toml.write_text(toml.read_text().replace('filelist_vars = ["DESIGN_RTL_DIR=rtl"]', ""))
    r = rtlopt(["inspect", "rtl/inv.sv", "--json"], repo)
    assert r.returncode == 2 and "project.filelist_vars" in r.stderr, r.stdout + r.stderr


def test_init_names_tool_projects_whose_sources_it_does_not_read(tmp_path: Path) -> None:
    repo = _without_config(tmp_path)
    (repo / "fpga").mkdir()
    (repo / "fpga" / "board.xpr").write_text("<Project/>\n")
    (repo / "fpga" / "board.qsf").write_text("set_global_assignment -name VERILOG_FILE a.v\n")
    r = rtlopt(["init"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    said = " ".join(r.stdout.split())  # however the console wraps it
    assert "tool projects (their source lists are not read): fpga/board.qsf, fpga/board.xpr" in (
        said
    ), r.stdout


def test_the_files_init_writes_pass_a_documentation_commit(tmp_path: Path) -> None:
    """Committed whole, init's pre-commit configuration (its comments) and workflow (its
    ``env:`` variables) are no finding, and a README edit passes the gate, also beside a
    testbench reading a file named by a parameter whose default carries a note."""
    repo = _without_config(tmp_path)
    (repo / "tb").mkdir()
    (repo / "tb" / "tb.v").write_text(
        'module tb;\n  parameter STREAM = "E:/sim/stream.txt"  // change to your own path\n'
        "  reg [7:0] mem [0:15];\n  initial $readmemh(STREAM, mem);\nendmodule\n"
    )
    (repo / "README.md").write_text("# dark\n")
    assert rtlopt(["init"], repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "rtlopt gate")
    git(repo, "branch", "base")
    (repo / "README.md").write_text("# dark\n\nA line more.\n")
    git(repo, "commit", "-qam", "docs")
    r = rtlopt(["check", "--base", "base"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    # a name some text builds still makes a documentation edit a finding
    (repo / "tb" / "tb.v").write_text(
        (repo / "tb" / "tb.v").read_text().replace('"E:/sim/stream.txt"', '{"E:/sim/", "s.txt"}')
    )
    git(repo, "commit", "-qam", "tb")
    git(repo, "branch", "-f", "base")
    (repo / "README.md").write_text("# dark\n\nTwo lines more.\n")
    git(repo, "commit", "-qam", "docs again")
    r = rtlopt(["check", "--base", "base"], repo)
    assert r.returncode == 1 and "README.md" in r.stdout, r.stdout + r.stderr


def test_a_module_added_under_a_src_folder_passes_with_the_workflow_init_wrote(
    tmp_path: Path,
) -> None:
    """Held-out trial 49 (biriscv): the workflow init wrote assigned a shell variable ``src``,
    read as naming the repository's ``src/`` folder, so every added or renamed module file
    there failed the gate."""
    repo = tmp_path / "r"
    (repo / "src" / "core").mkdir(parents=True)
    (repo / "src" / "core" / "a.v").write_text(
        "module a(input x, output y);\n  assign y = x;\nendmodule\n"
    )
    git(tmp_path, "init", "-q", str(repo))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    assert rtlopt(["init"], repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "rtlopt gate")
    (repo / "src" / "core" / "h.v").write_text(
        "module h(input x, output y);\n  assign y = ~x;\nendmodule\n"
    )
    git(repo, "add", "-A")
    r = rtlopt(["check"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "h (added)" in r.stdout, r.stdout


def test_init_names_build_defines_unparsed_files_and_duplicate_modules(tmp_path: Path) -> None:
    """Held-out trial 49 (biriscv): a Makefile's ``-D`` flags, a testbench that does not parse
    without them and a second copy of a module under tb/ were not mentioned; each is now
    printed and written as a comment beside the key that would use it, and the written
    ``exclude`` keeps its defaults."""
    repo = tmp_path / "r"
    (repo / "src").mkdir(parents=True)
    (repo / "tb").mkdir()
    (repo / "src" / "mem.v").write_text(
        "module mem(input a, output y);\n  assign y = a;\nendmodule\n"
    )
    (repo / "tb" / "mem.v").write_text(
        "module mem(input a, output y);\n  assign y = ~a;\nendmodule\n"
    )
    (repo / "tb" / "tb.v").write_text("module tb;\n  initial if (`TRACE) $display(1);\nendmodule\n")
    (repo / "tb" / "makefile").write_text(
        "VFLAGS += -DTRACE=$(TRACE) -Dverilog_sim\nCFLAGS += -DVM_TRACE=1\n"
        "sim:\n\tiverilog $(VFLAGS) -o out tb.v\n"
    )
    git(tmp_path, "init", "-q", str(repo))
    r = rtlopt(["init"], repo)
    assert r.returncode == 0, r.stdout + r.stderr
    out = " ".join(r.stdout.split())
    assert "tb/makefile passes -DTRACE=$(TRACE) -Dverilog_sim" in out, out
    assert "VM_TRACE" not in out, out  # a C compiler's flag
    assert "tb/tb.v:2 (UnknownDirective)" in out and "[project] defines" in out, out
    assert "module mem is defined in src/mem.v, tb/mem.v" in out, out
    text = (repo / "rtlopt.toml").read_text()
    assert "# tb/tb.v:2 does not parse on its own" in text, text
    # no "module mem" there: a text scan of the repository read it as a second definition
    assert "# mem: a module defined in src/mem.v, tb/mem.v" in text and "module mem" not in text
    cfg = load_config(None, config_file=repo / "rtlopt.toml").config
    assert cfg.project.exclude == ("**/build/**", "**/.rtlopt/**")
