"""One run of `rtlopt check`: the trees, the rules, what the change reaches, the verdicts.

Three trees, all temporary: ``new`` is the repository after the change (the index for a
commit, without untracked files: those the design may read are findings; the work tree in
CI, with untracked files git does not ignore); ``tree`` is the
context the modules are judged in: ``new`` with every changed file at its base version (the
reference) and, unless the configuration is trusted, the base's configuration and filelists;
``base`` is the base revision itself, exported only when a module is judged preprocessed.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rtlopt.check._build_files import build_checks
from rtlopt.check._check import (
    CheckReport,
    ModuleCheck,
    _captured_modules,
    _duplicate_modules,
    _file_changes,
    _in_repository,
    _Job,
    _moved_modules,
    _relative,
    _run_jobs,
    keep_proofs,
    repository_text,
)
from rtlopt.check._definitions import Lookup, definition_findings, still_instantiated
from rtlopt.check._gate_runs import with_gate_sandbox
from rtlopt.check._rules import (
    Required,
    Rules,
    check_trailers,
    config_headline,
    load_rules,
    required_headline,
    required_modules,
    trailer_commits,
)
from rtlopt.check._rules import config_check as _config_check
from rtlopt.check._undecodable import undecodable_checks
from rtlopt.config import Config
from rtlopt.errors import DesignError, RtloptError
from rtlopt.frontend._sources import register_checkouts, unregister_checkouts
from rtlopt.verilog import module_spans

log = logging.getLogger(__name__)

VERILOG = (".v", ".sv", ".vh", ".svh")


def run_check(
    start: Path,
    files: Sequence[Path] = (),
    *,
    base: str | None = None,
    overrides: dict[str, Any] | None = None,
    pdk: Any | None = None,
    trust_config: bool = False,
    proofs: Path | None = None,
    message_file: Path | None = None,
) -> CheckReport:
    """Check the changed modules of the repository containing ``start``.

    Each changed module is judged in the context ``rtlopt evaluate`` uses: the repository
    after the change with the changed files at their base version as the reference; the new
    file is the candidate, so messages point at its own lines. The rules (the configuration
    and its filelists) are the base's: a change to them is a finding (see
    :mod:`rtlopt.check._rules`), unless ``trust_config``. Modules a changed header, package,
    define or include folder reaches are judged too (:mod:`rtlopt.check._deps`); a deleted
    module that is still instantiated fails.

    Args:
        start: A path inside the repository.
        files: Files to check (pre-commit passes the staged ones); default: every changed file.
            A named file whose change is not staged is judged from the work tree (noted).
        base: Compare with the merge base of this revision; default: HEAD vs the index.
        overrides: Configuration overrides (dotted keys).
        pdk: A resolved PDK for the PPA comparison, or None to resolve ``flow.pdk``.
        trust_config: Judge by the change's configuration instead of the base's.
        proofs: A folder receiving each proven module's replay files (the second proof's
            miter and ``replay.sh``, :mod:`rtlopt.formal.second`) as ``<module>/``.
        message_file: The message of the commit being made (the ``commit-msg`` hook's
            argument): its trailers count, for the files the commit changes.
    """
    from rtlopt.check._gate_runs import environment_line
    from rtlopt.check._git import all_changes, open_repo, resolve_base

    repo, top = open_repo(start)
    staged = base is None
    base_rev = resolve_base(repo, base)
    tmp = Path(tempfile.mkdtemp(prefix="rtlopt-check-"))
    register_checkouts(tmp, top)  # a path into the work tree is read in each checkout
    try:
        gate = _Gate(repo, top, base_rev, staged, tmp, all_changes(repo, base_rev, staged=staged))
        rules = load_rules(
            gate.read_base,
            gate.new_tree,
            tmp / "base-config",
            overrides,
            trust=trust_config,
            changed=list(gate.changes),
        )
        commits, said = trailer_commits(repo, base, base_rev, message_file, list(gate.changes))
        gate.required = required_modules(rules.config, commits)
        check_trailers(commits, (gate.new_tree, gate.base_tree()))
        report = gate.run(rules, files, pdk)
        report.environment = environment_line(os.environ, trusted=trust_config)
        if report.modules:
            report.notes.append(said)
    except RtloptError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _in_repository(exc, tmp, top) from exc.__cause__
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        unregister_checkouts(tmp)
    for m in report.modules:  # the repository's paths, not the gate's copies
        m.findings = [repository_text(f, tmp) for f in m.findings]
        m.notes = [repository_text(n, tmp) for n in m.notes]
    keep_proofs(report.modules, proofs)
    if any(m.tool_error for m in report.modules):  # the crashed tool's log is named there
        log.warning("logs of the tool failure kept in %s", tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return report


class _Gate:
    def __init__(
        self, repo: Any, top: Path, base_rev: str, staged: bool, tmp: Path, changes: dict[str, str]
    ) -> None:
        from rtlopt.check._git import context_tree
        from rtlopt.check._reads import submodule_changes

        self.repo, self.top, self.base_rev, self.staged, self.tmp = repo, top, base_rev, staged, tmp
        self.new_tree = context_tree(repo, top, tmp / "new", staged=staged)
        # the work tree: a .gitattributes edited there is not the one its checkout applied
        pending = [] if staged else str(repo.git.diff("-z", "--name-only", "--")).split("\0")
        pending += (
            [] if staged else str(repo.git.ls_files("-z", "-o", "--exclude-standard")).split("\0")
        )
        self._pending_attributes = sorted({p for p in pending if Path(p).name == ".gitattributes"})
        # a submodule bump: the paths that differ under it are changes of the repository
        self.subs, self._base_links = submodule_changes(repo, top, base_rev, staged, self.new_tree)
        self.changes = changes | {p: s for p, s in self.subs.changes.items() if s != "G"}
        self.required = Required()
        self.renames: dict[str, str] = {}  # a renamed file: its path -> its base path
        self._base_tree: Path | None = None
        self._sources_with_macros: set[str] = set()
        self._quiet: set[str] = set()  # changed in comments only
        self.read: frozenset[str] = frozenset()  # every file the design reads, either side
        self.outside: tuple[Path, ...] | None = None  # what it reads outside the repository
        self.sources: list[str] = []  # changed files it reads, judged whatever their name
        self.flagged: set[str] = set()  # paths of the change with a finding before _judge

    def read_base(self, rel: str) -> str | None:
        """``rel`` at the base as a checkout of the base reads it (its attributes applied);
        a symlink's: its target's."""
        from rtlopt.check._git import base_content

        p = self.base_tree() / rel
        if p.is_file() and not p.is_symlink():  # also under a submodule, which git show is not
            return p.read_text(errors="replace")
        return base_content(self.repo, self.base_rev, rel, self.base_tree())

    def base_tree(self) -> Path:
        from rtlopt.check._git import export_tree, fill_submodules

        if self._base_tree is None:
            self._base_tree = export_tree(self.repo, self.base_rev, self.tmp / "base")
            fill_submodules(self.top, self._base_tree, self._base_links)
        return self._base_tree

    def _map_reads(self, rules: Rules) -> list[ModuleCheck]:
        """Map the change to the files the design reads (:func:`rtlopt.check._reads.map_reads`):
        those it reads are judged whatever their name; what the gate cannot read fails."""
        from rtlopt.check._reads import map_reads

        mapped = map_reads(
            self.repo, self.top, self.base_tree(), self.new_tree, rules, self.changes, self.subs
        )
        self.read, self.outside = mapped.read, mapped.outside
        self.changes.update(dict.fromkeys(mapped.converted, "M"))
        self.sources = mapped.sources
        found = mapped.findings + [
            (
                rel,
                f"{rel} is not staged: the change is read as a checkout of the index reads "
                f"it, with the index's attributes; stage it (git add {rel}) and check again",
            )
            for rel in self._pending_attributes
        ]
        self.flagged |= {rel for rel, _ in found}  # a finding each already
        subs = {p for p, s in self.subs.changes.items() if s == "G"} | set(self.subs.links)
        return [
            ModuleCheck(rel, "(submodule)" if rel in subs else "(file)", "changed", findings=[f])
            for rel, f in found
        ]

    def _comments_only(self) -> list[str]:
        """Files changed in comments and white space only (:mod:`rtlopt.check._comments`):
        taken out of the change, named in a note."""
        from rtlopt.check._comments import comment_only_files

        self._quiet = set(
            comment_only_files(
                self.changes, self.base_tree(), self.new_tree, elsewhere=self.outside
            )
        )
        for rel in self._quiet:
            del self.changes[rel]
        quiet = ", ".join(sorted(self._quiet))
        return [f"comments and white space only, read alike by all tools: {quiet}"] if quiet else []

    def _rels(self, files: Sequence[Path]) -> tuple[list[str], set[str]]:
        """The changed Verilog files to judge, and those named but not staged."""
        from rtlopt.check._git import changed_files

        staged, repo, base_rev = self.staged, self.repo, self.base_rev
        changed = [*changed_files(repo, base_rev, staged=staged), *self.sources]
        changed = [rel for rel in changed if rel not in self._quiet]
        changed += [p for p, s in self.subs.changes.items() if s != "D" and p.endswith(VERILOG)]
        if not files:
            return sorted(set(changed)), set()
        wanted = set(changed)
        rels, unstaged = [], set()
        for r in _relative(files, self.top):
            if r in wanted:
                rels.append(r)
            elif staged and r in changed_files(repo, base_rev, staged=False):
                rels.append(r)  # named on the command line, edited but not staged
                unstaged.add(r)
        return rels, unstaged

    def run(self, rules: Rules, files: Sequence[Path], pdk: Any) -> CheckReport:
        from rtlopt.check._git import mode_changes, unstaged_files

        cfg = with_gate_sandbox(rules.config)
        report = CheckReport(self.base_rev, cfg.flow.metric_kind, cfg.check.ppa_threshold, [])
        report.ppa = cfg.check.ppa
        if rules.changes:
            report.modules.append(_config_check(rules))
            report.headline = config_headline(rules.changes, trusted=rules.trusted)
        report.modules += self._case_collisions()
        modes = mode_changes(self.repo, self.base_rev, staged=self.staged) | self.subs.modes
        report.modules += build_checks(
            self.changes, self.new_tree, self.read_base, rules.trusted, modes
        )
        if self.changes or self._pending_attributes:  # nothing changed: no base checkout
            report.modules += self._map_reads(rules)
            report.notes += self._comments_only()
            trees = (self.base_tree(), self.new_tree)
            report.modules += undecodable_checks(self.changes, *trees, self.read)
        untracked = self._untracked(rules)
        rels, unstaged = self._rels(files)
        if not rels and not self.changes:  # nothing changed: no tools
            pending = unstaged_files(self.repo) if self.staged else []
            if pending:
                report.notes.append(
                    f"not staged, so not checked: {', '.join(pending[:5])}"
                    + (" ..." if len(pending) > 5 else "")
                    + " (git add them, or name them: rtlopt check FILE)"
                )
            if untracked:
                names = [rel for rel, _ in untracked]
                report.notes.append(
                    f"untracked, so not checked: {', '.join(names[:5])}"
                    + (" ..." if len(names) > 5 else "")
                    + " (git add them to commit them)"
                )
            return report
        report.modules += [
            ModuleCheck(rel, "(file)", "untracked", findings=[f]) for rel, f in untracked
        ]
        if pdk is None and cfg.check.ppa:
            from rtlopt.session import resolve_pdk

            pdk = resolve_pdk(cfg.flow)
        report.modules += self._judge(cfg, rules, rels, unstaged, pdk)
        judged = [(m.module, m.rule) for m in report.modules if m.rule and m.change != "config"]
        report.headline = required_headline(judged, ppa=cfg.check.ppa) or report.headline
        return report

    def _case_collisions(self) -> list[ModuleCheck]:
        """A path the change adds that equals another ignoring case or Unicode normalization
        (:mod:`rtlopt.check._case`): a finding naming both."""
        from rtlopt.check._case import case_collisions, collision_finding, tree_paths

        added = [p for p, s in self.changes.items() if s == "A"]
        if not added:
            return []
        found = case_collisions(tree_paths(self.new_tree), added)
        self.flagged |= {rel for rel, _ in found}
        return [
            ModuleCheck(rel, "(file)", "added", findings=[collision_finding(rel, other)])
            for rel, other in found
        ]

    def _untracked(self, rules: Rules) -> list[tuple[str, str]]:
        """A commit being made (staged): the untracked files the design may read, each with
        its finding (:func:`rtlopt.check._reads.untracked_findings`); the change judged is
        the index, without them."""
        from rtlopt.check._git import untracked_files
        from rtlopt.check._reads import untracked_findings

        if not self.staged:  # the work tree is the change: its untracked files are in it
            return []
        names = untracked_files(self.repo)
        projects = (rules.base.project, rules.new.project)
        return untracked_findings(self.top, names, projects) if names else []

    def _context(self, rules: Rules) -> Path:
        """The judging tree: the change's, with the base's configuration unless trusted."""
        tree = self.tmp / "tree"
        shutil.copytree(self.new_tree, tree, symlinks=True)
        if not rules.trusted:
            for rel, text in rules.base_texts.items():
                (tree / rel).unlink(missing_ok=True)
                if text is not None:
                    (tree / rel).parent.mkdir(parents=True, exist_ok=True)
                    (tree / rel).write_text(text)
        return tree

    def _judge(
        self, cfg: Config, rules: Rules, rels: list[str], unstaged: set[str], pdk: Any
    ) -> list[ModuleCheck]:
        from rtlopt.check._git import renamed_files, work_tree_content
        from rtlopt.frontend._depgraph import design_graph

        tree = self._context(rules)
        renames = renamed_files(self.repo, self.base_rev, staged=self.staged)
        self.renames = renames
        modules: list[ModuleCheck | _Job] = []
        removed: dict[str, tuple[str, str]] = {}  # name -> (file, its base text)
        added: dict[str, str] = {}  # name -> its new text
        gone = set(renames.values())
        deleted = [p for p, s in self.changes.items() if s == "D" and p not in gone]
        for rel in [*rels, *(p for p in deleted if p.endswith(VERILOG) or p in self.read)]:
            if rel in deleted:
                text: str | None = ""
            elif rel in unstaged:
                text = work_tree_content(self.top, rel)
            else:  # as a checkout of the change reads it
                p = self.new_tree / rel
                text = p.read_text(errors="replace") if p.is_file() else None
            if rel not in deleted and (tree / rel).is_symlink():  # the tools read the target
                text = (tree / rel).read_text(errors="replace") if (tree / rel).exists() else None
            if text is None:
                continue
            old_text = self.read_base(renames.get(rel, rel)) or ""
            if _file_changes(rel, text, old_text, modules, removed, added):
                # the reference: this file at its base version, in the context after the change
                (tree / rel).unlink(missing_ok=True)
                (tree / rel).write_text(old_text)
        _moved_modules(modules, removed, added)
        _duplicate_modules(tree, modules)
        _captured_modules(self.base_tree(), modules, removed)
        graph = design_graph(self.new_tree, cfg.project.exclude, extra=self.read)
        # a changed file an `include reads, whatever its name: its macros reach every reader
        self.read |= {p for p in self.changes if not p.endswith(VERILOG) and graph.includers(p)}
        still_instantiated(graph, modules)
        modules += self._screened(graph, renames, rules)
        from rtlopt.check._shadow import displaced_headers, shadowed_headers
        from rtlopt.check._units import captured_units

        trees, read_base = (self.base_tree(), self.new_tree), self.read_base
        new_paths = [p for p, s in self.changes.items() if s == "A"]
        modules += shadowed_headers(graph, trees, new_paths, read_base)
        edited = [p for p, s in self.changes.items() if s not in ("A", "D")]
        modules += displaced_headers(graph, tree, cfg.project, edited)
        modules += self._removed_shadows(graph, rules, renames)
        texts = [(r, read_base(renames.get(r, r)) or "", n) for r, _, n in self._changed_verilog()]
        modules += captured_units(*trees, [t for t in texts if t[2]])
        lookups = (
            Lookup(self.base_tree(), rules.base.project, self.top),
            Lookup(self.new_tree, rules.new.project, self.top),
        )
        flagged = self.flagged | {
            m.file for m in modules if isinstance(m, ModuleCheck) and m.findings
        }
        modules += definition_findings(lookups, graph, self.changes, self.read, flagged)
        self._reached(cfg, rules, graph, tree, modules)
        jobs = [self._with_rule(m, graph) for m in modules if isinstance(m, _Job)]
        done = _run_jobs(cfg, tree, jobs, pdk, self.tmp, self.new_tree)
        by_key = {(j.rel, j.name): done[id(j)] for j in jobs}
        out = [by_key[(m.rel, m.name)] if isinstance(m, _Job) else m for m in modules]
        for m in out:
            if m.file in unstaged:
                m.notes.append(
                    "not staged: judged the work tree's version (git add it to commit it)"
                )
        return out

    def _removed_shadows(
        self, graph: Any, rules: Rules, renames: dict[str, str]
    ) -> list[ModuleCheck]:
        """A deleted or renamed-away file an include can name while another file of that
        name remains (:func:`rtlopt.check._shadow.removed_shadows`)."""
        from rtlopt.check._shadow import removed_shadows

        gone = [p for p, s in self.changes.items() if s == "D"]
        if not gone:
            return []
        stated = rules.include_folders(self.base_tree())
        trees = (self.base_tree(), self.new_tree)
        return removed_shadows(graph, trees, gone, stated, renames)

    def _screened(self, graph: Any, renames: dict[str, str], rules: Rules) -> list[ModuleCheck]:
        """Each added or edited text file by the screen's rules that need no base and the
        design's configuration words (:mod:`rtlopt.check._screen_files`); changed files the
        configured build does not read (:mod:`rtlopt.check._foreign_units`)."""
        from rtlopt.check._config_words import design_words
        from rtlopt.check._foreign_units import foreign_rows, merged_rows
        from rtlopt.check._screen_files import screen_changes

        words = design_words(graph, self.read, lambda rel, name: self.required.why(rel, name))
        lists = frozenset(str(f) for p in (rules.base, rules.new) for f in p.project.filelists)
        ordered, changes = bool(rules.base.project.filelists), self.changes
        args = (changes, self.read, self.new_tree, self.read_base, renames, graph, ordered)
        found = screen_changes(
            *args, words, lists, trusted=rules.trusted, base_tree=self.base_tree()
        )
        trees = ((self.base_tree(), rules.base.project), (self.new_tree, rules.new.project))
        more = foreign_rows(graph, changes, trees, self.read_base, renames)
        return merged_rows(found, more, self.flagged)

    def _with_rule(self, job: _Job, graph: Any) -> _Job:
        from rtlopt.check._ancestors import required_above

        def why(rel: str, name: str) -> str | None:
            return self.required.why(rel, name, self.renames.get(rel))

        required = why(job.rel, job.name)
        if required is None:  # a required module above it reads it
            required = required_above(graph, job.name, why)
        return dataclasses.replace(job, required=required)

    def _reached(
        self,
        cfg: Config,
        rules: Rules,
        graph: Any,
        tree: Path,
        modules: list[ModuleCheck | _Job],
    ) -> None:
        """Add the modules a changed header, package, define or include folder reaches, each
        judged preprocessed, and the modules that use a changed package (judged against the
        base's package, :mod:`rtlopt.check._packages`)."""
        from rtlopt.check._deps import expand, reached_files
        from rtlopt.check._reads import unjudged_files

        defines: set[str] = set()
        incdirs = False
        if rules.changes:
            defines, incdirs = rules.define_changes(self.base_tree(), self.new_tree)
        # the same rules can name other folders: a symlinked include folder retargeted
        incdirs = incdirs or rules.include_folders_differ(self.base_tree(), self.new_tree)
        packages = self._changed_packages()
        headers = self._changed_headers()
        for names in headers.values():  # a changed header's macros, however it is reached
            defines |= names
        reach = reached_files(graph, self.changes, defines, incdirs, set(packages))
        from rtlopt.check._headers import simulator_readings

        modules += simulator_readings(rules, headers, self.new_tree, self.read_base)
        if cfg.harness.other_configurations == "check":
            from rtlopt.check._headers import other_configurations

            own = [r for r in headers if r not in self._sources_with_macros]
            modules += other_configurations(rules, own, self.new_tree, self.read_base)
        for rel, names in sorted(headers.items()):
            if not names and not graph.includers(rel):
                modules.append(  # fail closed: a change nothing the gate can see reads
                    ModuleCheck(
                        rel,
                        "(header)",
                        "changed",
                        findings=[
                            f"{rel} changed, holds no module and defines no macro, and the gate "
                            "found no file that includes it: review it in a commit of its own"
                        ],
                    )
                )
        # judged as sources; mapped to their paths; a finding each already
        skip = self.read | set(self.subs.links) | self.flagged
        for rel, finding in unjudged_files(self.changes, skip, [self.base_tree(), self.new_tree]):
            modules.append(ModuleCheck(rel, "(file)", "changed", findings=[finding]))
        sources = {rel for rel in headers if rel in self._sources_with_macros}
        for rel, why in sorted(reach.files.items()):
            if self.read_base(rel) is None or not (self.new_tree / rel).is_file():
                continue  # a new file: its modules are new; a deleted one: removed
            if rel in sources:
                continue  # its own modules are judged as changed, directives and all
            if not module_spans((self.new_tree / rel).read_text(errors="replace")):
                # a header without modules: its includers read it in their own context (its
                # expansion alone, written here, would be another text: a macro of the
                # includer's file lost, a declaration it finishes cut)
                continue
            scratch = self.tmp / "expand" / rel.replace("/", "__")
            try:
                old = expand(self.base_tree(), rel, rules.base.project, scratch / "base")
                new = expand(self.new_tree, rel, rules.new.project, scratch / "new")
            except DesignError as exc:
                for span in module_spans((self.new_tree / rel).read_text(errors="replace")):
                    modules.append(
                        ModuleCheck(
                            rel,
                            span.name,
                            "reached",
                            findings=[f"could not check: {why}, and {exc.one_line()}"],
                        )
                    )
                continue
            (tree / rel).unlink(missing_ok=True)
            (tree / rel).write_text(old)
            self._rejudge(rules, rel, (old, new), why, modules, scratch)
        from rtlopt.check._packages import rejudge_package_users

        rejudge_package_users(
            graph, reach.packages, packages, tree, modules, self.read_base, self.new_tree
        )

    def _rejudge(
        self,
        rules: Rules,
        rel: str,
        texts: tuple[str, str],
        why: str,
        modules: list[ModuleCheck | _Job],
        scratch: Path,
    ) -> None:
        """The modules of the reached file ``rel`` (its expansions at the base and after the
        change: ``texts``) judged again there (:func:`rtlopt.check._deps.rejudged`), in place
        of its changed modules' jobs."""
        from rtlopt.check._deps import own_reading, rejudged

        old, new = texts
        kept = [m for m in modules if not (isinstance(m, _Job) and m.rel == rel)]
        modules[:] = kept
        judged = {m.name: m.rel for m in kept if isinstance(m, _Job) and not m.why}
        raw = (self.new_tree / rel).read_text(errors="replace")
        reading = own_reading(self.new_tree, rules.new.project, scratch)
        included = why.startswith("it includes ")
        for span in rejudged(old, new, raw, judged, reading, included=included):
            modules.append(_Job(rel, span.name, new, span.line, why=why))

    def _changed_headers(self) -> dict[str, set[str]]:
        """Changed headers and their macros (:func:`rtlopt.check._headers.changed_headers`):
        every file that reads one of them is re-judged."""
        from rtlopt.check._headers import changed_headers
        from rtlopt.harness._verification_only import formal_defined_in

        # where only the formal build defines FORMAL in both trees, the macros only it
        # defines (ZipCPU's `define ASSUME in `ifdef FORMAL) are no hardware build's
        trees = (self.new_tree, self.base_tree())
        hardware = not any(formal_defined_in(t) for t in trees)
        headers, sources = changed_headers(self._changed_verilog(), hardware=hardware)
        self._sources_with_macros |= sources
        return headers

    def _changed_verilog(self) -> Iterator[tuple[str, str, str]]:
        """Each changed Verilog file (or other file the design reads) with its text at the
        base and after the change ("" where it does not exist)."""
        for rel, status in self.changes.items():
            if not (rel.endswith(VERILOG) or rel in self.read):
                continue
            p = self.new_tree / rel
            new = p.read_text(errors="replace") if status != "D" and p.is_file() else ""
            yield rel, self.read_base(rel) or "", new

    def _changed_packages(self) -> dict[str, str]:
        """Packages whose text differs between the base and the change: name -> file."""
        from rtlopt.frontend._depgraph import package_spans

        out: dict[str, str] = {}
        for rel, old, new in self._changed_verilog():
            old_p, new_p = package_spans(old), package_spans(new)
            for name in old_p:  # a new package has no base to compare with
                if old_p[name] != new_p.get(name):
                    out[name] = rel
        return out
