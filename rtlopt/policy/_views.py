"""Code views: which lines of a long module a prompt shows (the interface, the lines around an edit
and the signals that matter, elided runs marked) and how many fit the prompt's token budget."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rtlopt.policy._fitting import OMITTED_RANGE, _interface_lines, _largest_fitting
from rtlopt.policy._types import Prompt


def interface_view(code: str) -> str:
    """The module's interface: header, port and parameter declarations, ``endmodule``; every
    run of other lines replaced by an omission marker naming its line numbers."""
    lines = code.strip("\n").split("\n")
    return _render_view(lines, _interface_lines(lines))


def _render_view(lines: Sequence[str], chosen: set[int]) -> str:
    out: list[str] = []
    run_start: int | None = None
    for i, line in enumerate(lines):
        if i in chosen:
            if run_start is not None:
                out.append(OMITTED_RANGE.format(n=i - run_start, a=run_start + 1, b=i))
                run_start = None
            out.append(line)
        elif run_start is None:
            run_start = i
    if run_start is not None:
        out.append(OMITTED_RANGE.format(n=len(lines) - run_start, a=run_start + 1, b=len(lines)))
    return "\n".join(out)


def focus_view(code: str, focus: Iterable[int], max_lines: int) -> str:
    """The code with its interface plus the ``max_lines`` other lines nearest to ``focus``
    (0-based line numbers: the region that matters, e.g. the last edit or the critical path);
    without focus, the first and last lines. Each omitted run becomes one marker line naming
    its line numbers (1-based), so the model can tell where it is."""
    lines = code.strip("\n").split("\n")
    keep = _interface_lines(lines)
    free = [i for i in range(len(lines)) if i not in keep]
    if max_lines >= len(free):
        return "\n".join(lines)
    spots = sorted({f for f in focus if 0 <= f < len(lines)})
    if not spots:
        head = (max_lines + 1) // 2
        chosen = set(free[:head]) | set(free[len(free) - (max_lines - head) :])
        return _render_view(lines, keep | chosen)
    # distance of every line to the nearest focus line, by two sweeps
    spot_set = set(spots)
    dist = [len(lines)] * len(lines)
    last = -2 * len(lines)
    for i in range(len(lines)):
        if i in spot_set:
            last = i
        dist[i] = i - last
    nxt = 4 * len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if i in spot_set:
            nxt = i
        dist[i] = min(dist[i], nxt - i)
    ranked = sorted(free, key=lambda i: (dist[i], i))
    return _render_view(lines, keep | set(ranked[: max(0, max_lines)]))


_ALIAS = re.compile(r"^\s*assign\s+([A-Za-z_][\w$]*)\s*=\s*([A-Za-z_][\w$]*)\s*;", re.M)


def relevant_lines(code: str, names: Iterable[str]) -> tuple[int, ...]:
    """0-based lines of ``code`` that mention any of ``names`` as a whole identifier.

    Names may be netlist-style (``u_alu.sum_q[3]``, ``count_reg``): the last hierarchical part
    is used, without bit selects and without a ``_reg`` suffix Yosys adds to registers; a
    plain alias (``assign pcpi_rs2 = reg_op2;``) brings in the other name.
    """
    idents: set[str] = set()
    for raw in names:
        base = raw.strip().lstrip("\\").split("[", 1)[0].rsplit(".", 1)[-1].rsplit("/", 1)[0]
        if not re.fullmatch(r"[A-Za-z_][\w$]*", base):
            continue
        idents.add(base)
        if base.endswith("_reg"):
            idents.add(base[:-4])
    if not idents:
        return ()
    # a netlist keeps one name per net: follow plain aliases (`assign out = reg_q;`) both ways
    aliases = _ALIAS.findall(code)
    for _ in range(2):
        for a, b in aliases:
            if a in idents or b in idents:
                idents.update((a, b))
    pat = re.compile(
        r"(?<![\w$])(?:" + "|".join(re.escape(i) for i in sorted(idents)) + r")(?![\w$])"
    )
    return tuple(i for i, line in enumerate(code.split("\n")) if pat.search(line))


def fit_view(
    render: Callable[[int], Prompt], total_free: int, limit: int, estimate: Callable[[Prompt], int]
) -> Prompt:
    """The prompt ``render(k)`` with the largest ``k`` (lines of code shown beside the
    interface, ``0..total_free``) whose ``estimate`` is within ``limit``; ``render(0)`` when
    even that is over (then :func:`fit_prompt` in the backend has the last word)."""
    full = render(total_free)
    if estimate(full) <= limit:
        return full
    return render(_largest_fitting(0, total_free, lambda k: estimate(render(k)) <= limit))


CHARS_PER_TOKEN = 1.8
"""A cautious tokens-per-character rate for Verilog (SmolLM2 measures 2.06 chars/token on
picorv32, larger vocabularies more): the loop sizes code views with it before any tokenizer."""


def estimate_tokens(prompt: Prompt) -> int:
    """Tokens of ``prompt`` by :data:`CHARS_PER_TOKEN`, plus a few per message."""
    return sum(int(len(m["content"]) / CHARS_PER_TOKEN) + 8 for m in prompt)


def free_lines(code: str) -> int:
    """Lines of ``code`` outside its interface (what a view may show or omit)."""
    lines = code.strip("\n").split("\n")
    return len(lines) - len(_interface_lines(lines))
