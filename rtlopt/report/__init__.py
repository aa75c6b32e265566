"""Report layer: report.md, report.json and PNG plots of a run directory.

Public API: :func:`generate_report` (``run_dir -> ReportPaths``), :class:`ReportPaths`,
:func:`load_run` / :class:`RunData` / :class:`Candidate` (reading a run directory, also an
interrupted one), :func:`build_report_json` and :func:`pareto_front`. matplotlib is imported
only when plots are drawn.
"""

from rtlopt.report._data import Candidate, RunData, load_run, pareto_front
from rtlopt.report._report import ReportPaths, build_report_json, generate_report

__all__ = [
    "Candidate",
    "ReportPaths",
    "RunData",
    "build_report_json",
    "generate_report",
    "load_run",
    "pareto_front",
]
