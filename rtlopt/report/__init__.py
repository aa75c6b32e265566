"""Report layer: report.md, report.json and PNG plots of a run directory.

Public API: :func:`generate_report` (``run_dir -> ReportPaths``), :class:`ReportPaths`,
:func:`load_run` / :class:`RunData` / :class:`Candidate` (reading a run directory, also an
interrupted one), :func:`build_report_json`, :func:`pareto_front` and
:func:`counterexample_lines` (why a rejected candidate is not equivalent, values labelled with
width and radix). matplotlib is imported only when plots are drawn.
"""

from rtlopt.report._cex import counterexample_lines, literal
from rtlopt.report._data import Candidate, RunData, load_run, pareto_front
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
    "literal",
    "load_run",
    "multi_pr_body",
    "multi_report",
    "pareto_front",
    "plot_profile",
]
