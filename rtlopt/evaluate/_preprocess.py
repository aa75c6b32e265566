"""One preprocessed, macro-free text per side: what the screen judges and every tool reads.

The compilation unit (the prelude, then the target's closure files in order) is run once
through the simulator's own preprocessor (``iverilog -E``, with the design's include folders,
``-grelative-include`` and defines). Its output has no ```define``, conditional, ```include``
or macro use left; comments, line counts of include-free files, ```timescale``,
```default_nettype`` and ```celldefine`` are kept, and SystemVerilog's ```` `` ```` and
```"`` and ```__FILE__``/```__LINE__`` are expanded. Yosys 0.23 ``read_verilog`` and iverilog
read that output without a macro of their own to resolve, so every tool reads the same design.

- The **reference** is the renamed copy of the target and its submodule closure cut from that
  output (never rebuilt from directive lines).
- A **candidate** is preprocessed in the macro state at the target module's position in the
  unit: a skeleton of every directive line before it (prelude, earlier closure files, the
  target's file up to the module), made once per design, is read in front of the candidate's
  text. Macro state the reference module sets inside itself does not reach the candidate.
- The **library** a candidate compiles with is the preprocessed text of the repository modules
  it instantiates.

Both sides are read without ``unique``/``unique0``/``priority`` qualifiers
(:func:`rtlopt.verilog_plain.plain_case_qualifiers`): Yosys reads a unique case as ``full_case``
(x where no item matches), a simulator keeps the value before it.

A macro the candidate uses but the unit does not define is a rejection (``iverilog -E`` would
expand it to nothing). Messages name the candidate's own lines through a line map.
"""

from __future__ import annotations

import bisect
import difflib
import logging
import re
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.errors import DesignError
from rtlopt.evaluate._alternatives import OtherBuilds
from rtlopt.evaluate._placement import (
    PASS_DIRECTIVE,
    last_state,
    repository_includes,
    state_left,
)
from rtlopt.evaluate._switched_lines import switched_off_lines
from rtlopt.frontend import module_closure
from rtlopt.frontend._unit import directive_skeleton, is_skeleton
from rtlopt.frontend.model import Design
from rtlopt.harness._reference import ref_name, reference_modules
from rtlopt.verilog import (
    PASS_THROUGH_DIRECTIVES,
    ModuleSpan,
    blank_comments,
    first_module_start,
    module_spans,
    rename_modules,
)
from rtlopt.verilog_plain import plain_case_qualifiers

__all__ = ["Preprocessed", "UnitText"]

log = logging.getLogger(__name__)

_UNDEFINED = re.compile(r"warning: macro (\S+) undefined")
CANDIDATE_NAME = "candidate.pp.v"


@dataclass(frozen=True)
class Preprocessed:
    """A candidate's macro-free text.

    Attributes:
        text: What the screen judges and every tool reads.
        lines: For each line of ``text`` (0-based), the candidate's own line (0: generated).
        errors: Preprocessor errors, ``"line N: message"`` with the candidate's lines.
    """

    text: str
    lines: tuple[int, ...]
    errors: tuple[str, ...] = ()
    # the target module's lines the preprocessor dropped: switched-off branches, directives
    # (``UnitText._switched_off``), and the macros its conditionals test that are defined
    # where it starts
    off: tuple[str, ...] = ()
    defined: frozenset[str] = frozenset()

    def source_line(self, n: int) -> int:
        """The candidate's line of line ``n`` (1-based) of :attr:`text`."""
        if 1 <= n <= len(self.lines):
            return self.lines[n - 1] or n
        return n

    def relabel(self, message: str) -> str:
        """``message`` with ``candidate.pp.v:N`` / ``line N`` read as the candidate's lines."""
        out = re.sub(
            re.escape(CANDIDATE_NAME) + r":(\d+)",
            lambda m: f"candidate.v:{self.source_line(int(m.group(1)))}",
            message,
        )
        return re.sub(r"^line (\d+):", lambda m: f"line {self.source_line(int(m.group(1)))}:", out)


def _state(directives: Sequence[str]) -> tuple[list[str], list[str]]:
    """The header that sets the pass-through state the ``directives`` leave, and the footer
    that restores the defaults after the text."""
    last = last_state(directives)
    head = [v for v in last.values() if not v.startswith(("`endcell", "`nounconn", "`resetall"))]
    foot = []
    if "default_nettype" in last and not last["default_nettype"].endswith(" wire"):
        foot.append("`default_nettype wire")
    if last.get("celldefine", "").startswith("`celldefine"):
        foot.append("`endcelldefine")
    if last.get("unconnected_drive", "").startswith("`unconnected_drive"):
        foot.append("`nounconnected_drive")
    return head, foot


def _line_map(source: list[str], out: list[str]) -> list[int]:
    """For each output line, the source line it came from (1-based): matching lines by
    alignment, an expanded line (a macro over several lines) to the line it was written on."""
    if len(source) == len(out):
        return list(range(1, len(out) + 1))
    mapping = [1] * len(out)
    sm = difflib.SequenceMatcher(None, source, out, autojunk=False)
    for _, i1, i2, j1, j2 in sm.get_opcodes():
        for k in range(j2 - j1):
            mapping[j1 + k] = min(i1 + k, max(i2 - 1, i1)) + 1
    return mapping


class UnitText:
    """The design's compilation unit, preprocessed once; candidates preprocessed in its state.

    Args:
        design: The design (its prelude, closure, include folders and defines).
        folder: Where the unit's files are written.
        timeout: Limit of one preprocessor run.
    """

    def __init__(self, design: Design, folder: Path, timeout: float = 60.0) -> None:
        self.design = design
        self.folder = folder
        self.timeout = timeout
        folder.mkdir(parents=True, exist_ok=True)
        self.order, self.unit = self._unit_in_order(folder / "unit")
        self._spans = {s.name: s for s in module_spans(self.unit)}
        code = blank_comments(self.unit, strings=False)
        self._pass = [(m.start(), m.group(0)) for m in PASS_DIRECTIVE.finditer(code)]
        self._extra: dict[str, tuple[str, ModuleSpan]] = {}
        self._off: tuple[str, ...] | None = None
        self._module_text = ""
        self._external: dict[tuple[str, ...], tuple[frozenset[str], OtherBuilds]] = {}
        self._ext_lock = threading.Lock()
        self._off_lock = threading.Lock()
        self._unit_lines: list[tuple[int, Path, int]] = []
        self._lock = threading.Lock()
        self.state_file, self._depth = self._state_file("target_state.vh", True)
        self.file_state, self._file_depth = self._state_file("file_state.vh", False)
        self._header, self._footer = self._state_at_target()

    # --- the unit -----------------------------------------------------------------------

    def _run(self, files: Sequence[Path], wd: Path) -> str:
        """``iverilog -E`` over ``files`` (one unit); the output text.

        Raises:
            DesignError: the preprocessor rejects the repository's own files.
        """
        text, errors = self._preprocess(files, wd)
        if errors:
            raise DesignError(
                f"the preprocessor rejects the design's compilation unit: {errors[0]}",
                hint=f"see {wd / 'pre.log'}",
            )
        return text

    def _unit_in_order(self, wd: Path) -> tuple[tuple[Path, ...], str]:
        """The closure files in the repository's order (a filelist's; a file listed after
        the target's must not set the macros the target is read with), and the unit they
        make; the closure's own order (dependencies first) when the repository's does not
        preprocess (a file that needs a macro a later one defines)."""
        d = self.design
        listed = {f.resolve(): i for i, f in enumerate(d.sources.files)}
        order = tuple(sorted(d.closure, key=lambda f: listed.get(f.resolve(), -1)))
        if order != d.closure:
            try:
                return order, self._run([*d.prelude, *order], wd)
            except DesignError as exc:
                log.info("the closure in the repository's order does not preprocess: %s", exc)
        return d.closure, self._run([*d.prelude, *d.closure], wd)

    def _preprocess(self, files: Sequence[Path], wd: Path) -> tuple[str, list[str]]:
        from rtlopt.eda._known_preprocess import known_output
        from rtlopt.eda.iverilog import preprocess_argv
        from rtlopt.tools import Limits, raise_if_crashed, require_tool, run_tool

        wd.mkdir(parents=True, exist_ok=True)
        out = wd / "pre.v"
        d = self.design
        known = known_output(
            require_tool("iverilog"),
            files,
            include_dirs=d.include_dirs,
            defines=d.defines,
            timeout=self.timeout,
        )
        if known is not None:  # the preprocessor's own output, without a run over them
            out.write_bytes(known[0])
            return plain_case_qualifiers(out.read_text(errors="replace")), []
        argv = preprocess_argv(
            require_tool("iverilog"),
            files,
            out.name,
            include_dirs=d.include_dirs,
            defines=d.defines,
        )
        argv[1:1] = ["-grelative-include"]
        run = run_tool(argv, cwd=wd, log_path=wd / "pre.log", limits=Limits(self.timeout))
        raise_if_crashed(run, "preprocessing")  # a tool failure, never "does not preprocess"
        msgs = run.messages()
        errors = [m for m in msgs if m.strip() and "warning" not in m]
        errors += [m for m in msgs if _UNDEFINED.search(m)]
        if run.returncode != 0 and not errors:
            errors = [f"iverilog -E exited with {run.returncode}"]
        try:
            # every tool reads case and if statements as a simulator does (see
            # rtlopt.verilog_plain.plain_case_qualifiers: Yosys reads a unique case as full_case)
            return plain_case_qualifiers(out.read_text(errors="replace")), errors
        except OSError:
            return "", errors or ["iverilog -E wrote nothing"]

    def _state_file(self, name: str, with_prefix: bool) -> tuple[Path, int]:
        """The directive skeleton of everything before the target's file (and, with
        ``with_prefix``, of its file up to the target module): made once per design.
        Returns the file and the conditional depth it leaves open."""
        d = self.design
        tfile = d.target.file
        before = [*d.prelude]
        for f in self.order:
            if f.resolve() == tfile.resolve():
                break
            before.append(f)
        parts: list[str] = []
        for f in before:
            parts.append(directive_skeleton(f.read_text(errors="replace"), f, d.include_dirs))
        if with_prefix:
            text = tfile.read_text(errors="replace")[: d.target.start]
            parts.append(directive_skeleton(text, tfile, d.include_dirs))
        body = "\n".join(parts)
        depth = 0
        for m in re.finditer(r"`(ifdef|ifndef|endif)\b", blank_comments(body)):  # anywhere
            depth += -1 if m.group(1) == "endif" else 1
        out = self.folder / name
        out.write_text(
            "// Generated by rtlopt: the macro state a candidate is read in. Do not edit.\n"
            + body
            + "\n"
        )
        return out, max(depth, 0)

    def _state_at_target(self) -> tuple[list[str], list[str]]:
        span = self._spans.get(self.design.target.name)
        if span is None:
            raise DesignError(
                f"module {self.design.target.name} is not in the preprocessed compilation unit "
                "(it sits in a branch the design's defines turn off)",
                hint="set the defines that select it (-D / project.defines)",
            )
        return self._state_before(span.start)

    def _state_before(self, offset: int) -> tuple[list[str], list[str]]:
        k = bisect.bisect_left([a for a, _ in self._pass], offset)
        return _state([d for _, d in self._pass[:k]])

    def _module(self, name: str) -> str | None:
        """Module ``name``'s preprocessed text with the state it is read in (None if absent):
        the target's file's modules as the unit reads them; a module of another file at its
        place in the repository's order (a file listed between may redefine a macro it
        reads), the unit's reading when that place does not preprocess."""
        span = self._spans.get(name)
        mod = self.design.modules.get(name)
        if span is not None and (mod is None or mod.file == self.design.target.file):
            head, foot = self._state_before(span.start)
            return "\n".join([*head, self.unit[span.start : span.end], *foot])
        if mod is None:
            return None
        with self._lock:  # its own file, behind the state of its place
            if name not in self._extra:
                wd = self.folder / f"m_{name}"
                try:
                    text = self._run([*self._state_at_file(mod.file, wd), mod.file], wd)
                except DesignError:
                    if span is None:
                        raise
                    text = ""
                for s in module_spans(text):
                    self._extra.setdefault(s.name, (text, s))
            found = self._extra.get(name)
        if found is None and span is not None:
            head, foot = self._state_before(span.start)
            return "\n".join([*head, self.unit[span.start : span.end], *foot])
        if found is None:
            return None
        text, span = found
        ahead = blank_comments(text[: span.start], strings=False)
        head, foot = _state([m.group(0) for m in PASS_DIRECTIVE.finditer(ahead)])
        return "\n".join([*head, text[span.start : span.end], *foot])

    def _state_at_file(self, path: Path, wd: Path) -> list[Path]:
        """What a file outside the unit is read after in the repository's order: the
        prelude's headers, then the directive skeleton of every source listed before it (not
        the prelude's state at the target's file: a file between may redefine a macro)."""
        d = self.design
        heads = [p for p in d.prelude if not is_skeleton(p)]
        key = path.resolve()
        order = [f.resolve() for f in d.sources.files]
        if key not in order:
            return [*d.prelude]
        parts = [
            directive_skeleton(f.read_text(errors="replace"), f, d.include_dirs)
            for f in order[: order.index(key)]
        ]
        wd.mkdir(parents=True, exist_ok=True)
        state = wd / "file_state.vh"
        state.write_text(
            "// Generated by rtlopt: the macro state a repository file is read in.\n"
            + "\n".join(parts)
            + "\n"
        )
        return [*heads, state]

    def reference_text(self) -> str:
        """The target and its submodule closure, preprocessed, every module renamed."""
        mods = reference_modules(self.design)
        mapping = {m.name: ref_name(m.name) for m in mods}
        parts = ["// Generated by rtlopt: the reference design, preprocessed and renamed."]
        for m in mods:
            body = self._module(m.name)
            if body is None:
                raise DesignError(f"module {m.name} is not in the preprocessed compilation unit")
            parts.append(f"// rtlopt reference: {m.name} from {m.file.name}:{m.line}")
            parts.append(rename_modules(body, mapping))
        return "\n".join(parts) + "\n"

    def unit_text(self) -> str:
        """The target and its submodule closure, preprocessed, under their own names (what the
        reference is measured from); :meth:`source_of` maps its lines back."""
        parts = ["// Generated by rtlopt: the design, preprocessed."]
        at = 2  # the line the next part starts on
        self._unit_lines = []
        for m in reference_modules(self.design):
            body = self._module(m.name)
            if body is None:
                continue
            # the pass-through header lines come first, then the ``module`` keyword's line
            lines = body.split("\n")
            keyword = next((i for i, ln in enumerate(lines) if not ln.startswith("`")), 0)
            self._unit_lines.append((at + keyword, m.file, m.line))
            parts.append(body)
            at += body.count("\n") + 1
        return "\n".join(parts) + "\n"

    def source_of(self, line: int) -> tuple[Path, int] | None:
        """The repository file and line of line ``line`` of :meth:`unit_text` (a module's
        lines counted from its ``module`` keyword), or None before the first module."""
        found = None
        for start, path, src in self._unit_lines:
            if start <= line:
                found = (path, src + line - start)
        return found

    def reference_off(self) -> tuple[str, ...]:
        """:attr:`Preprocessed.off` of the repository's own target module, read as a candidate
        would be (once per design)."""
        with self._off_lock:
            if self._off is None:
                t = self.design.target
                text = t.file.read_text(errors="replace")
                span = next(
                    (m for m in module_spans(text) if m.name == t.name and m.line == t.line),
                    None,
                ) or next(m for m in module_spans(text) if m.name == t.name)
                self._module_text = text[span.start : span.end]
                pp = self.candidate(self._module_text, self.folder / "reference-off")
                self._off = pp.off
            return self._off

    def external_macros(self, candidate: str = "") -> frozenset[str]:
        """The macros tested outside the target module's own text that can change the design
        (``evaluate._configs.external_macros``): in the files of the modules the reference or
        ``candidate`` instantiates (and those another build reads in their place) and the
        headers the module or those files include."""
        return self._outside(candidate)[0]

    def other_builds(self, candidate: str = "") -> OtherBuilds:
        """The builds that read another file for one of the modules the reference or
        ``candidate`` instantiates (``evaluate._alternatives.other_builds``)."""
        return self._outside(candidate)[1]

    def _outside(self, candidate: str) -> tuple[frozenset[str], OtherBuilds]:
        from rtlopt.evaluate._alternatives import other_builds
        from rtlopt.evaluate._configs import external_macros, used_macros
        from rtlopt.evaluate._macros import design_uses, package_files
        from rtlopt.harness._verification_only import hardware_reading, verification_only

        d = self.design
        t = d.target
        # what the target's design reads of the candidate: not the other modules of a copy
        # of the whole file, which nothing of it instantiates
        code, used, reached = design_uses(d, self._module_text, candidate)
        names = set(d.submodules) | {
            w for w in re.findall(r"[A-Za-z_][\w$]*", code) if w in d.modules
        }
        names.discard(t.name)
        files = {d.modules[n].file for n in names if n in d.modules}
        module = self._module_text + "\n" + candidate
        used = hardware_reading(d, used)

        files |= set(package_files(d, [module]))
        files.discard(t.file)
        # each header the module includes where the repository finds it: beside the target's
        # file, else the first include folder holding it (a name found nowhere does not
        # preprocess; one given by a macro is refused in :func:`_placement.repository_includes`)
        heads = [
            p
            for name in re.findall(r'`include\s+"([^"\n]+)"', module)
            for p in [f / name for f in [t.file.parent, *d.include_dirs] if (f / name).is_file()][
                :1
            ]
        ]
        # submodules in the target's own file: their text (the target's is compared by tokens)
        local = sorted(n for n in names if n in d.modules and d.modules[n].file == t.file)
        # the macros the text uses and the modules it reaches: another candidate's may differ
        key = (
            *sorted(str(f) for f in [*files, *heads]),
            *local,
            "`used",
            *sorted(used_macros(used)),
            "`reached",
            *sorted(reached),
        )
        with self._ext_lock:
            if key not in self._external:
                from rtlopt.evaluate._macros import configuration_macros

                builds = other_builds(d, sorted(files))
                read = sorted({*files, *builds.files})
                hardware = verification_only(d)
                found = external_macros([*read, *heads], d.include_dirs, hardware=hardware)
                found |= configuration_macros(d, used, read, reached)
                if local:
                    from rtlopt.evaluate._configs import TOOL_MACROS, tested_macros

                    # the whole file but the target itself: a conditional may also stand
                    # around a submodule's definition
                    text = blank_comments(t.file.read_text(errors="replace"), strings=False)
                    text = hardware_reading(d, text)
                    own = [m for m in module_spans(text) if m.name == t.name]
                    rest = text if not own else text[: own[0].start] + text[own[0].end :]
                    found |= tested_macros(rest) - TOOL_MACROS
                self._external[key] = (frozenset(found), builds)
            return self._external[key]

    def state_left(self, text: str) -> str:
        """Why ``text`` leaves later files another pass-through state than the repository's
        file with its module, or "" (:func:`_placement.state_left`)."""
        t = self.design.target
        before = [d for _, d in self._pass_before_target()]
        whole = directives_before_module(text)
        span = (t.start, t.end)
        return state_left(
            text, self.reference_file_text(), span, before, t.name, copy_of_file=whole
        )

    def _pass_before_target(self) -> list[tuple[int, str]]:
        span = self._spans[self.design.target.name]
        return [(a, d) for a, d in self._pass if a < span.start]

    def reference_file_text(self) -> str:
        """The text of the repository file that holds the target."""
        return self.design.target.file.read_text(errors="replace")

    def reference_module(self) -> str:
        """The text of the repository's own target module (as :meth:`reference_off` reads it)."""
        self.reference_off()
        return self._module_text

    def library_text(self, defined: Sequence[str], used: Sequence[str]) -> str:
        """The preprocessed repository modules a candidate instantiates (its own shadow them)."""
        target = self.design.target.name
        wanted = [
            n for n in module_closure(used, self.design.modules) if n not in defined and n != target
        ]
        # in the order the reference's unit reads them (:meth:`unit_text`): Yosys's result
        # follows the order modules are read in (verilog-uart's uart_tx before uart_rx: a
        # comment-only change measured 16 % faster than the reference, wave 52)
        order = {m.name: i for i, m in enumerate(reference_modules(self.design))}
        ranked = sorted(reversed(wanted), key=lambda n: order.get(n, len(order)))
        parts = [t for t in (self._module(n) for n in ranked) if t is not None]
        if not parts:
            return ""
        return "// Generated by rtlopt: repository modules, preprocessed.\n" + "\n".join(parts)

    # --- a candidate --------------------------------------------------------------------

    def candidate(self, text: str, wd: Path) -> Preprocessed:
        """``text`` preprocessed in the macro state at the target module's position; a copy
        of the whole file (directives before its first module, as ``rtlopt check`` passes a
        changed file) in the state at the start of the target's file."""
        whole = directives_before_module(text)
        state, depth = (
            (self.file_state, self._file_depth) if whole else (self.state_file, self._depth)
        )
        marker = "rtlopt-candidate-" + secrets.token_hex(8)
        wd.mkdir(parents=True, exist_ok=True)
        src = wd / "candidate.in.v"
        resolved, unresolved = repository_includes(self.design, text)
        if unresolved:
            return Preprocessed("", (), unresolved)
        src.write_text(f"// {marker}\n{resolved}\n" + "`endif\n" * depth)
        out, errors = self._preprocess([state, src], wd / "preprocess")
        at = out.find(marker)
        if at < 0:
            return Preprocessed("", (), tuple(errors or ["the candidate was not read"]))
        body = out[out.index("\n", at) + 1 :].split("\n")
        source = text.split("\n")
        body = body[: len(body) - depth] if depth else body
        lines = _line_map(source, body)
        msgs = tuple(_error_line(e, src.name) for e in errors)
        head, foot = self._header, self._footer
        full = "\n".join([*head, *body, *foot])
        lmap = tuple([0] * len(head) + lines + [0] * len(foot))
        (wd / CANDIDATE_NAME).write_text(full)
        if not self._module_text:
            self.reference_off()  # the module's own text first: the macros outside it
        extra = self.external_macros(text)
        extra = frozenset(m for m in extra if m.isidentifier())  # not the unfollowed marker
        from rtlopt.harness._verification_only import hardware_reading

        # what a build defining FORMAL alone reads is no configuration: not compared
        hardware = hardware_reading(self.design, text, source=True)
        off, defined = self._switched_off(hardware, state, depth, wd / "preprocess-off", extra)
        return Preprocessed(full, lmap, msgs, off, defined)

    def _switched_off(
        self, text: str, state: Path, depth: int, wd: Path, extra: frozenset[str] = frozenset()
    ) -> tuple[tuple[str, ...], frozenset[str]]:
        """:func:`rtlopt.evaluate._switched_lines.switched_off_lines` in this unit."""
        return switched_off_lines(self.design, self._preprocess, text, state, depth, wd, extra)


def directives_before_module(text: str) -> bool:
    """``text`` holds a compiler directive (other than pass-through state) before its first
    ``module``: a copy of a file rather than of a module."""
    start = first_module_start(text)
    head = blank_comments(text[: start if start is not None else len(text)], strings=False)
    return any(
        m.group(1) not in PASS_THROUGH_DIRECTIVES
        for m in re.finditer(r"`([A-Za-z_]\w*)", head)  # a directive anywhere on its line
    )


def _error_line(message: str, name: str) -> str:
    """A preprocessor message as ``line N: message`` in the candidate's lines (the marker line
    written in front of the candidate is not counted)."""
    m = re.search(re.escape(name) + r":(\d+):\s*(.*)", message)
    if m is None:
        return message.strip()
    return f"line {max(int(m.group(1)) - 1, 1)}: {m.group(2).strip()}"
