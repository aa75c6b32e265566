"""Benchmark summary metrics, as defined by the TTT-RTL paper (arXiv 2606.05253, section 4.2).

A benchmark run yields one :class:`BenchRow` per design: the reference metric (the PPA product
``A*D*P`` of the reference, or ``A*D``) and, per method, the ratio of its best accepted design's
metric to the reference metric (``None`` when the method produced no accepted design). From the
rows :func:`summarize` computes the paper's Table 1 and Table 2 columns:

* coverage: designs on which a method has a ratio;
* geometric and arithmetic mean over the *common subset* (designs where every compared method
  has a ratio);
* penalized geometric mean over all designs, each failure counted as ratio 1.0;
* number improved (ratio < 1) and number best (lowest ratio; ties split equally) on the common
  subset;
* the complexity-bin breakdown of Table 2 (geometric mean on the common subset, binned by the
  reference metric).

The published per-design numbers of Table 4 ship as package data (``rtlopt/data/
paper_table4.csv``); :func:`load_paper_table4` reads them and :func:`compare` merges any such
CSV into a run's rows as extra method columns.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from rtlopt.errors import UsageError

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

PAPER_METHODS: tuple[str, ...] = ("EvolVE", "VeriAgent", "REvolution", "TTT-RTL")
"""Method columns of the paper's Table 4, in the paper's order."""

PAPER_NAME_ALIASES: Mapping[str, str] = {
    # The paper (and the module inside the design) spell it "subtractor"; the RTLLM v2.0
    # folder is "fixed_point_substractor".
    "fixed_point_subtractor": "fixed_point_substractor",
}
"""Design names used by papers mapped to the RTLLM v2.0 folder names."""

_REF_COLUMN = "ref_metric"
_DESIGN_COLUMN = "design"
_META_COLUMNS = frozenset({_DESIGN_COLUMN, _REF_COLUMN, "status", "detail"})


def canonical_design_name(name: str) -> str:
    """The RTLLM folder name of a design named ``name`` in a paper or another tool."""
    return PAPER_NAME_ALIASES.get(name, name)


@dataclass(frozen=True)
class BenchRow:
    """One design of a benchmark run.

    Attributes:
        design: Design name (RTLLM folder name).
        ref_metric: The reference's PPA product (``None`` if the reference could not be scored).
        ratios: Method name -> best accepted metric / reference metric, ``None`` for a failure.
        status: Short outcome of our own run on this design ("ok", "no improvement",
            "failed", "skipped", ...); empty for published data.
        detail: Free text (reason of a failure or skip).
    """

    design: str
    ref_metric: float | None = None
    ratios: Mapping[str, float | None] = field(default_factory=dict)
    status: str = ""
    detail: str = ""

    def ratio(self, method: str) -> float | None:
        """The ratio of ``method`` (``None`` if it failed or is not a column)."""
        return self.ratios.get(method)


@dataclass(frozen=True)
class ComplexityBin:
    """A half-open range ``[low, high)`` of the reference metric."""

    label: str
    low: float
    high: float

    def contains(self, value: float) -> bool:
        """Whether ``value`` falls in this bin."""
        return self.low <= value < self.high


TABLE2_BINS: tuple[ComplexityBin, ...] = (
    ComplexityBin("Small (<1e3)", 0.0, 1e3),
    ComplexityBin("Medium (1e3-1e5)", 1e3, 1e5),
    ComplexityBin("Large (1e5-1e7)", 1e5, 1e7),
    ComplexityBin("Huge (>1e7)", 1e7, math.inf),
)
"""The complexity bins of the paper's Table 2.

The paper states the edges explicitly in the row labels of Table 2: Small (ref PPA < 10^3),
Medium (10^3 - 10^5), Large (10^5 - 10^7), Huge (> 10^7). Bins are taken half-open (no Table 4
reference metric lies on an edge) and applied to the common subset, which reproduces the
published bin sizes 17 / 14 / 10 / 3 (sum 44).
"""


@dataclass(frozen=True)
class MethodSummary:
    """The Table 1 columns of one method."""

    method: str
    n_designs: int
    coverage: int
    n_common: int
    geomean: float | None
    arithmean: float | None
    n_improved: int
    n_best: float
    geomean_penalized: float | None


@dataclass(frozen=True)
class BinSummary:
    """One row of the Table 2 breakdown: geometric mean per method inside a complexity bin."""

    bin: ComplexityBin
    n: int
    geomean: Mapping[str, float | None]


@dataclass(frozen=True)
class BenchSummary:
    """All summary metrics of a set of rows."""

    methods: tuple[MethodSummary, ...]
    common: tuple[str, ...]
    bins: tuple[BinSummary, ...]

    def method(self, name: str) -> MethodSummary:
        """The summary of method ``name``.

        Raises:
            UsageError: unknown method (listing the known ones).
        """
        for m in self.methods:
            if m.method == name:
                return m
        known = ", ".join(m.method for m in self.methods)
        raise UsageError(f"no method '{name}' in the summary", hint=f"known: {known}")


def _geomean(values: Sequence[float]) -> float | None:
    if not values:
        return None
    for v in values:
        if not v > 0.0:
            raise ValueError(f"ratio {v!r} is not positive; a geometric mean needs ratios > 0")
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _methods_of(rows: Sequence[BenchRow]) -> list[str]:
    seen: dict[str, None] = {}
    for row in rows:
        for m in row.ratios:
            seen.setdefault(m, None)
    return list(seen)


def summarize(
    rows: Sequence[BenchRow],
    methods: Sequence[str] | None = None,
    bins: Sequence[ComplexityBin] = TABLE2_BINS,
) -> BenchSummary:
    """Compute the paper's summary metrics.

    Args:
        rows: One row per design.
        methods: Methods to compare (default: every method column of the rows, in first-seen
            order). The common subset is taken over exactly these methods.
        bins: Complexity bins of the breakdown (on the reference metric, common subset only;
            rows without a reference metric are left out of the breakdown).

    Returns:
        A :class:`BenchSummary`.

    Raises:
        UsageError: a requested method is not a column of any row.
    """
    names = list(methods) if methods is not None else _methods_of(rows)
    known = set(_methods_of(rows))
    missing = [m for m in names if m not in known]
    if missing:
        raise UsageError(
            f"unknown method(s) {', '.join(missing)}",
            hint=f"columns: {', '.join(sorted(known)) or 'none'}",
        )
    common = [r for r in rows if names and all(r.ratio(m) is not None for m in names)]

    best: dict[str, float] = dict.fromkeys(names, 0.0)
    for r in common:
        vals = {m: _req(r.ratio(m)) for m in names}
        low = min(vals.values())
        winners = [m for m in names if vals[m] == low]
        for m in winners:
            best[m] += 1.0 / len(winners)

    summaries = []
    for m in names:
        got = [v for v in (r.ratio(m) for r in rows) if v is not None]
        com = [_req(r.ratio(m)) for r in common]
        penalized = [v if v is not None else 1.0 for v in (r.ratio(m) for r in rows)]
        summaries.append(
            MethodSummary(
                method=m,
                n_designs=len(rows),
                coverage=len(got),
                n_common=len(common),
                geomean=_geomean(com),
                arithmean=_mean(com),
                n_improved=sum(1 for v in com if v < 1.0),
                n_best=best[m],
                geomean_penalized=_geomean(penalized),
            )
        )

    bin_rows = []
    for b in bins:
        inside = [r for r in common if r.ref_metric is not None and b.contains(r.ref_metric)]
        bin_rows.append(
            BinSummary(
                bin=b,
                n=len(inside),
                geomean={m: _geomean([_req(r.ratio(m)) for r in inside]) for m in names},
            )
        )
    return BenchSummary(tuple(summaries), tuple(r.design for r in common), tuple(bin_rows))


def _req(value: float | None) -> float:
    assert value is not None  # callers filter to the common subset first
    return value


def _fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def summary_markdown(summary: BenchSummary) -> str:
    """Markdown rendering of Table 1 and Table 2 for a summary."""
    n = summary.methods[0].n_designs if summary.methods else 0
    c = len(summary.common)
    out = [
        f"| Method | Coverage | GeoMean (N={c}) | ArithMean (N={c}) | #Improved | #Best "
        f"| GeoMean pen. (N={n}) |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in summary.methods:
        out.append(
            f"| {m.method} | {m.coverage}/{m.n_designs} | {_fmt(m.geomean)} | "
            f"{_fmt(m.arithmean)} | {m.n_improved}/{m.n_common} | {m.n_best:.1f}/{m.n_common} | "
            f"{_fmt(m.geomean_penalized)} |"
        )
    if summary.bins:
        names = [m.method for m in summary.methods]
        out += [
            "",
            "| Complexity bin | N | " + " | ".join(names) + " |",
            "|---|---|" + "---|" * len(names),
        ]
        for b in summary.bins:
            cells = " | ".join(_fmt(b.geomean[m]) for m in names)
            out.append(f"| {b.bin.label} | {b.n} | {cells} |")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# CSV input/output


def _parse_float(text: str, where: str) -> float | None:
    text = text.strip()
    if text in ("", "-", "–", "—", "NA", "None", "nan"):
        return None
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{where}: '{text}' is not a number") from None


def _parse_rows(text: str, source: str) -> list[BenchRow]:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    reader = csv.DictReader(lines)
    if reader.fieldnames is None or _DESIGN_COLUMN not in reader.fieldnames:
        raise UsageError(
            f"{source}: a '{_DESIGN_COLUMN}' column is required",
            hint="first non-comment line is the header, e.g. design,ref_metric,M1",
        )
    method_cols = [f for f in reader.fieldnames if f not in _META_COLUMNS]
    rows = []
    for i, rec in enumerate(reader, start=2):
        where = f"{source} row {i}"
        ref = rec.get(_REF_COLUMN)
        rows.append(
            BenchRow(
                design=canonical_design_name(rec[_DESIGN_COLUMN].strip()),
                ref_metric=_parse_float(ref, where) if ref is not None else None,
                ratios={m: _parse_float(rec[m] or "", where) for m in method_cols},
                status=(rec.get("status") or "").strip(),
                detail=(rec.get("detail") or "").strip(),
            )
        )
    return rows


def read_rows_csv(path: Path) -> list[BenchRow]:
    """Read per-design rows from a CSV.

    Format: lines starting with ``#`` are comments; the header has a ``design`` column, an
    optional ``ref_metric``, ``status`` and ``detail`` column, and one column per method
    holding ratios (empty or ``-`` for a failure). Paper spellings of design names are mapped to
    RTLLM folder names (:data:`PAPER_NAME_ALIASES`).

    Raises:
        UsageError: unreadable file, no ``design`` column, or a non-numeric cell.
    """
    try:
        text = path.read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}", path=path) from None
    return _parse_rows(text, str(path))


def write_rows_csv(
    rows: Sequence[BenchRow],
    path: Path,
    methods: Sequence[str] | None = None,
    comment: str | None = None,
) -> Path:
    """Write rows in the format :func:`read_rows_csv` reads; returns ``path``."""
    names = list(methods) if methods is not None else _methods_of(rows)
    buf = io.StringIO()
    if comment:
        for line in comment.splitlines():
            buf.write(f"# {line}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([_DESIGN_COLUMN, _REF_COLUMN, *names, "status", "detail"])
    for r in rows:
        w.writerow(
            [
                r.design,
                "" if r.ref_metric is None else f"{r.ref_metric:.6g}",
                *("" if r.ratio(m) is None else f"{r.ratio(m):.6g}" for m in names),
                r.status,
                r.detail,
            ]
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(buf.getvalue())
    return path


def load_paper_table4() -> list[BenchRow]:
    """The paper's Table 4 (49 RTLLM v2.0 designs, four methods), from the package data.

    Design names are RTLLM folder names. Source: TTT-RTL, arXiv 2606.05253, appendix A,
    Table 4; the EvolVE / VeriAgent / REvolution columns come from Ping et al. 2026, Table 3.
    """
    text = resources.files("rtlopt.data").joinpath("paper_table4.csv").read_text()
    return _parse_rows(text, "paper_table4.csv")


def compare(
    rows: Sequence[BenchRow], other: Path | Iterable[BenchRow], methods: Sequence[str] | None = None
) -> list[BenchRow]:
    """Merge other methods' per-design ratios into ``rows`` as extra columns.

    Args:
        rows: Our rows (their order and design set are kept).
        other: A CSV in :func:`read_rows_csv` format, or rows (e.g. :func:`load_paper_table4`).
        methods: Which of the other source's methods to merge (default: all of them). A method
            already present in ``rows`` is an error.

    Returns:
        New rows; a design absent from ``other`` gets ``None`` (failure) for the merged methods.
        A row without a reference metric takes the other source's.
    """
    others = read_rows_csv(other) if isinstance(other, Path) else list(other)
    by_name = {r.design: r for r in others}
    names = list(methods) if methods is not None else _methods_of(others)
    available = set(_methods_of(others))
    unknown = [m for m in names if m not in available]
    if unknown:
        raise UsageError(
            f"method(s) {', '.join(unknown)} not in the comparison data",
            hint=f"available: {', '.join(sorted(available)) or 'none'}",
        )
    clash = [m for m in names if m in set(_methods_of(rows))]
    if clash:
        raise UsageError(
            f"method(s) {', '.join(clash)} already present in the results",
            hint="pass methods= to pick other columns",
        )
    merged = []
    for r in rows:
        o = by_name.get(canonical_design_name(r.design))
        extra = {m: (o.ratio(m) if o is not None else None) for m in names}
        ref = r.ref_metric if r.ref_metric is not None else (o.ref_metric if o else None)
        merged.append(replace(r, ref_metric=ref, ratios={**r.ratios, **extra}))
    return merged
