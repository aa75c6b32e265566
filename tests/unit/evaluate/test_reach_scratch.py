"""rtlopt's own scratch folder is no file of the repository: a candidate's copy written there
(``candidate.in.v``) is not read as another build's instance of the target, even where the
caller puts the folder inside the repository's folder; a scratch folder that holds the
repository or its sources hides nothing. Real frontend, no tool run."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.evaluate._repo_texts import claim_scratch
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design

M = "module m (input clk, input [3:0] a, output reg [3:0] y);\n  always @(posedge clk) y <= a;\nendmodule\n"
#: A copy of the target under a macro another build may define: an instance of m there is a
#: configuration the proof does not check.
COPY = "`ifdef M_ON\nmodule w (input clk, input [3:0] a, output [3:0] y);\n  m u (.clk(clk), .a(a), .y(y));\nendmodule\n`endif\n"


def _design(tmp: Path) -> Design:
    """The design loaded first, then the scratch file written (as an evaluator does)."""
    (tmp / "m.v").write_text(M)
    design = load_design(tmp / "m.v", "m", ProjectConfig())
    claim_scratch(tmp / "scratch")  # as an evaluator does before writing into it
    (tmp / "scratch").mkdir()
    (tmp / "scratch" / "candidate.in.v").write_text(COPY)
    return design


def test_a_file_of_the_scratch_folder_is_not_read(tmp_path: Path) -> None:
    design = _design(tmp_path)
    assert repository_reach(design, tmp_path / "scratch") == ""


def test_the_same_file_outside_the_scratch_folder_is_read(tmp_path: Path) -> None:
    design = _design(tmp_path)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "copy.v").write_text(COPY)
    why = repository_reach(design)
    assert "copy.v" in why and "M_ON" in why, why


def test_an_earlier_evaluators_scratch_folder_is_not_read(tmp_path: Path) -> None:
    """Two evaluators of one design in the repository's folder (``--workdir`` inside it): the
    second does not read the first's candidates and tool logs as the repository's files
    (a netlist log naming ``m.y`` is no path into the target)."""
    design = _design(tmp_path)
    claim_scratch(tmp_path / "second")
    (tmp_path / "second").mkdir()
    assert repository_reach(design, tmp_path / "second") == ""


def test_a_scratch_folder_holding_the_repository_hides_nothing(tmp_path: Path) -> None:
    design = _design(tmp_path)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "copy.v").write_text(COPY)
    why = repository_reach(design, tmp_path)
    assert "copy.v" in why, why


def test_a_folder_that_held_files_before_is_no_scratch_folder(tmp_path: Path) -> None:
    # red team 38 F4: `--workdir sim` naming a folder of the repository whose probe a build
    # compiles hid the probe from the reach rule
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "probe.txt").write_text(COPY)
    design = load_design(tmp_path / "m.v", "m", ProjectConfig())
    claim_scratch(tmp_path / "sim")
    why = repository_reach(design, tmp_path / "sim")
    assert "probe.txt" in why, why


def test_scratch_folders_claimed_while_another_thread_reads_them(tmp_path: Path) -> None:
    """Parallel rollouts' evaluators claim scratch folders while another reads the claimed
    set (CI on 84f53aba: "Set changed size during iteration" ended a bench run)."""
    import threading

    from rtlopt.evaluate._repo_texts import _scratch

    design = _design(tmp_path)
    errors: list[BaseException] = []
    done = threading.Event()

    def claim() -> None:
        for k in range(2000):
            claim_scratch(tmp_path / "many" / f"s{k}")
        done.set()

    def read() -> None:
        try:
            while not done.is_set():
                _scratch(design, tmp_path / "scratch")
        except RuntimeError as e:  # pragma: no cover - the failure this test guards
            errors.append(e)

    threads = [threading.Thread(target=claim), threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
