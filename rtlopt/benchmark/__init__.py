"""Benchmark suites, the paper's summary metrics, tables and charts."""

from rtlopt.benchmark.summary import (
    PAPER_METHODS,
    PAPER_NAME_ALIASES,
    TABLE2_BINS,
    BenchRow,
    BenchSummary,
    BinSummary,
    ComplexityBin,
    MethodSummary,
    canonical_design_name,
    compare,
    load_paper_table4,
    read_rows_csv,
    summarize,
    summary_markdown,
    write_rows_csv,
)

__all__ = [
    "PAPER_METHODS",
    "PAPER_NAME_ALIASES",
    "TABLE2_BINS",
    "BenchRow",
    "BenchSummary",
    "BinSummary",
    "ComplexityBin",
    "MethodSummary",
    "canonical_design_name",
    "compare",
    "load_paper_table4",
    "read_rows_csv",
    "summarize",
    "summary_markdown",
    "write_rows_csv",
]
