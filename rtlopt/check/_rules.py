"""The rules `rtlopt check` judges by: read from the base revision, never from the change.

The configuration (``rtlopt.toml``, ``[tool.rtlopt]`` in ``pyproject.toml``) and the filelists
it names come from the base the change is compared against; a commit that loosens them (empties
``check.optimization_only``, turns ``formal.enabled`` off, sets ``eval.netlist_check`` to
``never``) is judged by the rules it tried to change, and the change is itself a finding.
``--trust-config`` takes the changed configuration instead, and says so. Which modules must stay
equivalent: those ``check.optimization_only`` matches and those that a commit in the range
names in a trailer (``Rtlopt-Equivalent: <module>``), or whose files a commit with rtlopt's own
``Rtlopt-Equivalence:`` trailer changed.
"""

from __future__ import annotations

import difflib
import fnmatch
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import Config, load_config, to_dict
from rtlopt.errors import ConfigError, RtloptError

if TYPE_CHECKING:
    from rtlopt.check._check import ModuleCheck

CONFIG_FILES = ("rtlopt.toml", "pyproject.toml")
FILELIST_SUFFIXES = (".f", ".F", ".vc", ".flist")
#: How to require equivalence, for the message that says nothing is required.
HOW_TO_REQUIRE = (
    'set [check] optimization_only = ["*"] (or module/file patterns) in rtlopt.toml, or add a '
    "'Rtlopt-Equivalent: <module>' trailer to the commit (read with --message-file in the "
    "commit-msg hook, and from the commits since --base or the upstream branch)"
)


def required_headline(judged: Sequence[tuple[str, str]], *, ppa: bool) -> str:
    """The first line of a check's output: which judged modules must stay equivalent and by
    which rule, or that none must and how to require it ("" when no module was judged).

    Args:
        judged: (module, rule) of each judged module, the rule ``"required (why)"`` or
            ``"not required"``.
        ppa: Whether PPA is compared (said when nothing is required).
    """
    if not judged:
        return ""
    required: dict[str, list[str]] = {}
    free: list[str] = []
    for name, rule in judged:
        if rule.startswith("required"):
            why = rule.removeprefix("required").strip().removeprefix("(").removesuffix(")")
            required.setdefault(why or "required", []).append(name)
        else:
            free.append(name)
    if not required:
        return (
            "rtlopt check: no changed module is required to stay equivalent (only "
            f"interfaces{' and PPA' if ppa else ''} are checked); to require it, {HOW_TO_REQUIRE}"
        )
    names = sum(len(v) for v in required.values())
    groups = "; ".join(f"{_listed(mods)} ({why})" for why, mods in required.items())
    text = f"rtlopt check: required to stay equivalent ({names} of {len(judged)}): {groups}"
    return text + (f"; not required: {_listed(free)}" if free else "")


def config_headline(changes: Sequence[str], *, trusted: bool) -> str:
    """The first line when the change alters the configuration (replaced by
    :func:`required_headline` when a module is judged): what changed and by whose rules the
    change is judged ("" without a change)."""
    if not changes:
        return ""
    more = f" and {len(changes) - 1} more" if len(changes) > 1 else ""
    whose = "the change's (--trust-config)" if trusted else "the base's"
    return (
        f"rtlopt check: the change alters the configuration the gate judges by "
        f"({changes[0]}{more}); it is judged by {whose} rules"
    )


def _listed(names: Sequence[str], most: int = 5) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


@dataclass
class Rules:
    """The configuration a check judges by, and what changed in it."""

    config: Config  # the rules (the base's, or the change's with trust)
    base: Config
    new: Config
    trusted: bool
    changes: list[str] = field(default_factory=list)  # one line per changed setting or file
    base_texts: dict[str, str | None] = field(default_factory=dict)  # config files at the base
    # changes the gate cannot re-judge even when the configuration is trusted: a filelist
    # whose sources (their set or order) changed, which changes what every later file means
    unjudged: list[str] = field(default_factory=list)

    def define_changes(self, base_tree: Path, new_tree: Path) -> tuple[set[str], bool]:
        """Names of defines whose value differs between the base's rules and the change's
        (config and filelists), and whether the include folders differ."""
        b_defs, b_inc = _rule_context(base_tree, self.base)
        n_defs, n_inc = _rule_context(new_tree, self.new)
        names = {k for k in b_defs.keys() | n_defs.keys() if b_defs.get(k) != n_defs.get(k)}
        return names, b_inc != n_inc

    def include_folders_differ(self, base_tree: Path, new_tree: Path) -> bool:
        """Whether the include folders the rules name, resolved in each side's tree (a
        symlinked folder read where it points), differ between the base and the change."""
        return _rule_context(base_tree, self.base)[1] != _rule_context(new_tree, self.new)[1]

    def include_folders(self, tree: Path) -> list[str]:
        """The include folders the rules judged by state (config and filelists), in order,
        resolved in ``tree``."""
        return _rule_context(tree, self.config)[1]


def _rule_context(tree: Path, cfg: Config) -> tuple[dict[str, str | None], list[str]]:
    """The defines one side's rules set and the include folders they name, in order, each
    resolved in ``tree`` (repository-relative where inside it)."""
    from rtlopt.frontend import parse_defines, read_project_filelist
    from rtlopt.frontend._sources import rerooted

    root = tree.resolve()

    def where(p: Path) -> str:
        try:
            return p.resolve().relative_to(root).as_posix()
        except ValueError:  # outside the repository: the same folder on both sides
            return str(p.resolve())
        except OSError:
            return str(p)

    defs: dict[str, str | None] = dict(parse_defines(cfg.project.defines))
    incs = [where(rerooted(tree / d, tree)) for d in cfg.project.include_dirs]
    for fl in cfg.project.filelists:
        try:
            lst = read_project_filelist(tree, fl, cfg.project)
        except RtloptError:
            defs[f"<filelist {fl}>"] = None
            continue
        defs.update(lst.defines)
        incs += [where(p) for p in lst.include_dirs]
    return defs, incs


def _project_text(show: Any) -> tuple[str, str] | None:
    """The base's project file: (name, text), rtlopt.toml first, then a pyproject.toml that
    has [tool.rtlopt]."""
    for name in CONFIG_FILES:
        text = show(name)
        if text is None:
            continue
        if name == "pyproject.toml":
            try:
                if "rtlopt" not in tomllib.loads(text).get("tool", {}):
                    continue
            except tomllib.TOMLDecodeError:
                pass  # a broken one is read (and reported) by load_config
        return name, text
    return None


def load_rules(
    read_base: Any,
    new_tree: Path,
    scratch: Path,
    overrides: Mapping[str, Any] | None,
    *,
    trust: bool,
    changed: Sequence[str],
    env: Mapping[str, str] | None = None,
) -> Rules:
    """The base's and the change's configuration, which one rules, and what changed.

    Args:
        read_base: ``rel -> text | None`` at the base revision.
        new_tree: The repository after the change.
        scratch: A folder for the base's project file.
        overrides: Command-line overrides (apply to both sides).
        trust: Take the change's configuration (``--trust-config``).
        changed: Every path the change touches (any kind of file).
        env: The environment (default ``os.environ``): its ``RTLOPT_<SECTION>__<KEY>``
            overrides of the rules' sections apply only with ``trust``, and are changes of
            the rules (:mod:`rtlopt.check._gate_runs`).
    """
    from rtlopt.check._gate_runs import environment_rules, gate_run_changes, rule_environment

    env = dict(os.environ if env is None else env)
    said = environment_rules(env, trusted=trust)
    if not trust:
        env = {k: v for k, v in env.items() if k not in rule_environment(env)}
    found = _project_text(read_base)
    base = _load(scratch, found, overrides, env)

    def read_new(rel: str) -> str | None:
        p = new_tree / rel
        return p.read_text(errors="replace") if p.is_file() else None

    found_new = _project_text(read_new)
    try:
        new = _load(new_tree, found_new, overrides, env)
    except ConfigError as exc:
        if trust:
            raise
        bad = f"the changed configuration does not load: {exc.one_line()}"
        rules = Rules(base, base, base, False, [bad, *said])
        _collect_files(rules, read_base, new_tree, changed)
        rules.changes += gate_run_changes(changed, read_base, new_tree)
        return rules
    rules = Rules(new if trust else base, base, new, trust)
    where = (found_new or found or ("the configuration", ""))[0]
    rules.changes += [f"{where}: {c}" for c in _setting_changes(base, new)]
    _collect_files(rules, read_base, new_tree, changed)
    rules.changes += gate_run_changes(changed, read_base, new_tree) + said
    return rules


def _load(
    folder: Path,
    found: tuple[str, str] | None,
    overrides: Mapping[str, Any] | None,
    env: Mapping[str, str],
) -> Config:
    """The configuration of one side: its project file (written to ``folder`` when it is not
    there), the user's file, the environment ``env`` and the command line."""
    if found is None:
        return load_config(None, overrides=overrides, env=env).config
    path = folder / found[0]
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(found[1])
    return load_config(None, overrides=overrides, env=env, config_file=path).config


def _collect_files(rules: Rules, read_base: Any, new_tree: Path, changed: Sequence[str]) -> None:
    """Name every changed filelist, and keep the base texts of every file the rules read
    (None: absent at the base). The project files' changes are the settings they change."""
    listed = set(rules.base.project.filelists) | set(rules.new.project.filelists)
    names = sorted({*CONFIG_FILES, *listed} | {c for c in changed if c.endswith(FILELIST_SUFFIXES)})
    for rel in names:
        old = read_base(rel)
        p = new_tree / rel
        new = p.read_text(errors="replace") if p.is_file() else None
        rules.base_texts[rel] = old
        if old == new or rel in CONFIG_FILES:
            continue
        if old is None:
            rules.changes.append(f"filelist {rel} added")
        elif new is None:
            rules.changes.append(f"filelist {rel} removed")
        else:
            rules.changes.append(f"filelist {rel} changed: {_line_diff(old, new)}")
            if _sources(old) != _sources(new):
                rules.unjudged.append(
                    f"filelist {rel} changes its sources or their order, which changes the "
                    "macros every later file sees; the gate does not re-judge that"
                )


def _sources(text: str) -> list[str]:
    """A filelist's entries other than defines and include folders, in order (comments and
    blank lines dropped)."""
    out = []
    for line in text.splitlines():
        entry = line.split("//")[0].split("#")[0].strip()
        if entry and not entry.startswith(("+define+", "+incdir+", "-D", "-I")):
            out.append(entry)
    return out


def _line_diff(old: str, new: str) -> str:
    lines = [
        ln
        for ln in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
        if ln[:1] in "+-" and not ln.startswith(("+++", "---"))
    ]
    out = ", ".join(f"{ln[0]}{ln[1:].strip()!r}" for ln in lines[:6])
    return out + (" ..." if len(lines) > 6 else "")


def _setting_changes(base: Config, new: Config) -> list[str]:
    """``section.key: old -> new`` for every setting that differs."""
    out: list[str] = []

    def walk(a: Any, b: Any, prefix: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(a.keys() | b.keys()):
                walk(a.get(k), b.get(k), f"{prefix}{k}.")
        elif a != b:
            out.append(f"{prefix[:-1]}: {_show(a)} -> {_show(b)}")

    walk(to_dict(base), to_dict(new), "")
    return out


def _show(v: Any) -> str:
    s = repr(v) if isinstance(v, str) else str(v).replace("'", '"')
    return s if len(s) <= 60 else s[:57] + "..."


def config_check(rules: Rules) -> ModuleCheck:
    """The configuration as one row: its changes a finding, or a note under trust."""
    first = rules.changes[0].split(":")[0].removeprefix("filelist ")
    where = first.removesuffix(" changed").removesuffix(" added").removesuffix(" removed")
    from rtlopt.check._check import ModuleCheck

    mc = ModuleCheck(where, "(configuration)", "config")
    if rules.trusted:
        mc.notes += [f"trusted (--trust-config): {c}" for c in rules.changes]
        mc.rule = "trusted"
        # fail closed: what trust cannot make the gate judge stays a finding
        mc.findings += [f"{c} (review it in a commit of its own)" for c in rules.unjudged]
        return mc
    mc.findings += [
        f"the change alters the rules: {c}; judged by the base's rules (review it in a "
        "commit of its own, or pass --trust-config)"
        for c in rules.changes
    ]
    return mc


# ------------------------------------------------------------------ what must stay equivalent

_VERDICT_WORDS = ("proven", "simulated", "unknown", "refuted", "equivalent")
_SUBJECT = re.compile(r"^rtlopt: optimize (\S+)")


@dataclass
class Required:
    """Module-name (or file) patterns that must stay equivalent, with why."""

    patterns: dict[str, str] = field(default_factory=dict)  # pattern -> why
    files: dict[str, str] = field(default_factory=dict)  # file -> why

    def why(self, rel: str, name: str, base_rel: str | None = None) -> str | None:
        """Why module ``name`` of ``rel`` must stay equivalent (None: it need not). A
        module moved with its file (``base_rel``: its path at the base) is required where
        either path is: the change cannot choose its own rule by moving the file."""
        for path in dict.fromkeys(p for p in (rel, base_rel) if p):
            for pat, why in self.patterns.items():
                if fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(path, pat):
                    return why if path == rel else f"{why}, its base path {path}"
            if path in self.files:
                return self.files[path]
        return None


def required_modules(cfg: Config, commits: Sequence[tuple[str, str, list[str]]]) -> Required:
    """What must stay equivalent: ``check.optimization_only`` of the rules, and the trailers of
    the commits in the range (``(sha, message, files it changed)`` each)."""
    req = Required()
    for pat in cfg.check.optimization_only:
        req.patterns.setdefault(pat, f"optimization_only {pat!r}")
    for sha, message, files in commits:
        short = sha[:10] if re.fullmatch(r"[0-9a-f]{40}", sha) else sha
        for key, value in _trailers(message):
            if key == "rtlopt-equivalent":
                for name in re.split(r"[\s,]+", value):
                    if name:
                        req.patterns.setdefault(name, f"trailer of {short}")
            elif key == "rtlopt-equivalence":
                head = value.split()[0].lower() if value.split() else ""
                if head and head not in _VERDICT_WORDS:
                    req.patterns.setdefault(head, f"trailer of {short}")
                m = _SUBJECT.match(message)
                if m:
                    req.patterns.setdefault(m.group(1), f"trailer of {short}")
                for f in files:  # the commit claims its change is equivalent
                    req.files.setdefault(f, f"Rtlopt-Equivalence trailer of {short}")
    return req


def _trailers(message: str) -> list[tuple[str, str]]:
    """``Key: value`` lines of the message, keys lower-cased: of every paragraph, not only the
    last one git reads as trailers (a requirement written one paragraph up still requires)."""
    out = []
    for line in message.splitlines():
        key, sep, value = _plain_line(line).partition(":")
        if sep and re.fullmatch(r"[A-Za-z0-9_-]+", key.strip()):
            out.append((key.strip().lower(), value.strip()))
    return out


#: The trailer keys rtlopt reads (lower-cased).
_KEYS = ("rtlopt-equivalent", "rtlopt-equivalence")


#: A line that starts like an equivalence trailer (after list or emphasis marks), in any
#: spelling: it must be one (``- Rtlopt-Equivalent: m``, ``Rtlopt Equivalent: m``,
#: ``Rtlopt-Equivalent = m`` require nothing otherwise).
_LOOKS_LIKE = re.compile(r"(?!#)[\W\d_]*?rtl\W*opt\W*equiv", re.I)
_HYPHENS = re.compile("[\u2010-\u2015\u2212\ufe63\uff0d]")


def _plain_line(line: str) -> str:
    """``line`` without format characters (a zero-width space inside a key) and with every
    dash a hyphen, as a reader sees it."""
    import unicodedata

    line = "".join(c for c in line if unicodedata.category(c) != "Cf")
    return _HYPHENS.sub("-", line)


def _looks_like(line: str) -> bool:
    """Whether ``line`` starts like an equivalence trailer (list marks, numbers, bullets or
    emphasis before it; not a ``#`` comment line)."""
    return bool(_LOOKS_LIKE.match(_plain_line(line)))


#: The other keys of rtlopt's own commits (``rtlopt: optimize m`` subjects, ``Rtlopt-Run``).
_WRITTEN = ("rtlopt", "rtlopt-run", "rtlopt-metric")


def _rtlopt_like(key: str) -> bool:
    """Whether a trailer key is, or looks like, one rtlopt reads (its own commits' aside)."""
    if key in _WRITTEN:
        return False
    return key.startswith("rtlopt") or bool(difflib.get_close_matches(key, _KEYS, cutoff=0.78))


def trailer_problems(
    commits: Sequence[tuple[str, str, list[str]]], modules: set[str], files: set[str]
) -> list[str]:
    """What the trailers of ``commits`` say that names nothing: a key like rtlopt's that is
    none of them (``Rtlopt-Equivalant``), or an ``Rtlopt-Equivalent`` name or pattern that
    matches no module of either revision (``modules``) and no file (``files``): a requirement
    that requires nothing would let the change pass unjudged."""
    out: list[str] = []
    for sha, message, _ in commits:
        short = sha[:10] if re.fullmatch(r"[0-9a-f]{40}", sha) else sha
        out += [
            f"the line {line.strip()!r} of {short} reads like an equivalence trailer but is "
            "not one; write 'Rtlopt-Equivalent: <module>' at the start of a line"
            for line in message.splitlines()
            if _looks_like(line) and not _trailers(line)
        ]
        for key, value in _trailers(message):
            if key not in _KEYS and _rtlopt_like(key):
                out.append(
                    f"the trailer key {key!r} of {short} is not one rtlopt reads; write "
                    "'Rtlopt-Equivalent: <module>' (or 'Rtlopt-Equivalence: <verdict>')"
                )
            if key != "rtlopt-equivalent":
                continue
            for name in (n for n in re.split(r"[\s,]+", value) if n):
                if any(fnmatch.fnmatchcase(m, name) for m in modules | files):
                    continue
                close = difflib.get_close_matches(name, sorted(modules), n=3)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                out.append(
                    f"the trailer 'Rtlopt-Equivalent: {name}' of {short} names no module or "
                    f"file of the repository{hint}: fix the name, or the change is not judged"
                )
    return out


def check_trailers(commits: Sequence[tuple[str, str, list[str]]], roots: Sequence[Path]) -> None:
    """Raise when a trailer of ``commits`` names nothing (:func:`trailer_problems`), reading
    the modules and files of the revisions checked out at ``roots``.

    Raises:
        UsageError: naming each such trailer and the fix.
    """
    from rtlopt.errors import UsageError
    from rtlopt.frontend._sources import HEADER_SUFFIXES, SOURCE_SUFFIXES
    from rtlopt.inputs import SKIP_DIRS
    from rtlopt.verilog import blank_comments, module_declarations

    if not any(_rtlopt_like(k) for _, m, _ in commits for k, _ in _trailers(m)) and not any(
        _looks_like(ln) for _, m, _ in commits for ln in m.splitlines()
    ):
        return
    modules: set[str] = set()
    files: set[str] = set()
    for root in roots:
        for f in root.rglob("*"):
            if set(f.relative_to(root).parts) & SKIP_DIRS or not f.is_file() or f.is_symlink():
                continue
            files.add(f.relative_to(root).as_posix())
            if f.suffix in SOURCE_SUFFIXES + HEADER_SUFFIXES:
                text = blank_comments(f.read_text(errors="replace"))
                modules |= {name for name, _ in module_declarations(text)}
    found = trailer_problems(commits, modules, files)
    if found:
        raise UsageError("rtlopt check: " + "; ".join(found))


#: The trailers that require equivalence, as the output names them.
TRAILERS = "Rtlopt-Equivalent / Rtlopt-Equivalence trailers"


def trailer_commits(
    repo: Any, base: str | None, base_rev: str, message_file: Path | None, changed: list[str]
) -> tuple[list[tuple[str, str, list[str]]], str]:
    """The commits whose trailers say what must stay equivalent, and a line saying which.

    With ``--base``: the commits from the merge base to HEAD. Without it (pre-commit, or
    ``rtlopt check FILE`` on a branch): the commits from the merge base with the branch's
    upstream (else ``origin/HEAD``) to HEAD, when there is one. With ``--message-file`` (the
    ``commit-msg`` stage): also the message of the commit being made, for the files it
    changes.
    """
    from rtlopt.check._git import message_file_text, range_commits, upstream_merge_base

    commits: list[tuple[str, str, list[str]]] = []
    where: list[str] = []
    if base is not None:
        commits = range_commits(repo, base_rev)
        where.append(f"{len(commits)} commit(s) since the merge base with {base}")
    else:
        found = upstream_merge_base(repo)
        if found is not None:
            commits = range_commits(repo, found[0])
            where.append(f"{len(commits)} commit(s) since the merge base with {found[1]}")
    if message_file is not None:
        commits.append(("the commit message", message_file_text(message_file), changed))
        where.append(f"the commit message {message_file}")
    if not where:
        return commits, (
            f"{TRAILERS}: none read (no --base, no upstream branch, no --message-file); a "
            "trailer counts on a commit since the upstream branch or in the message of the "
            "commit being made (the commit-msg hook)"
        )
    return commits, f"{TRAILERS} read from {' and '.join(where)}"
