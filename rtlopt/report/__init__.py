"""Report layer: report.md, report.json and PNG plots of a run directory.

Public API: :func:`generate_report` (``run_dir -> ReportPaths``), :class:`ReportPaths`,
:func:`load_run` / :class:`RunData` / :class:`Candidate` (reading a run directory, also an
interrupted one), :func:`build_report_json`, :func:`pareto_front` and
:func:`counterexample_lines` (why a rejected candidate is not equivalent, values labelled with
width and radix); :func:`learning_line`, :func:`learning_section` and :func:`no_update_note`
(whether and how the policy's weights changed, per step and per run). matplotlib is imported
only when plots are drawn.
"""

from rtlopt.report._cex import counterexample_lines, literal
from rtlopt.report._data import Candidate, RunData, load_run, pareto_front
from rtlopt.report._learning import learning_line, learning_section, no_update_note
from rtlopt.report._multi import ModuleRow, multi_pr_body, multi_report
from rtlopt.report._profile_chart import plot_profile
from rtlopt.report._report import ReportPaths, build_report_json, generate_report

__all__ = [
    "Candidate",
    "ModuleRow",
    "ReportPaths",
    "RunData",
    "build_report_json",
    "counterexample_lines",
    "generate_report",
    "learning_line",
    "learning_section",
    "literal",
    "load_run",
    "multi_pr_body",
    "multi_report",
    "no_update_note",
    "pareto_front",
    "plot_profile",
]
