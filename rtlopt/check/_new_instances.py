"""A changed module judged under the instances the commit itself gives it.

A module is judged against its base version under the parameterizations the base tree builds
it with. A commit may change the module and, in another file, an instance of it: ``m`` gains a
guard true only at ``W = 12`` and ``top`` now instantiates ``m #(.W(12))``. Judged alone, ``m``
is equivalent at the base's ``W = 8`` and ``top`` with the base's ``m``, while the commit's
``top`` computes another value (round 97). So a required module whose new tree builds it with
parameter values the base never does is judged once more, in the commit's tree with the base
version of its own file put back: its reference is the base's module and its
parameterizations are the commit's instances.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rtlopt.config import Config
from rtlopt.errors import DesignError
from rtlopt.results import EvalResult, Status

__all__ = ["under_new_instances"]

log = logging.getLogger("rtlopt.check")


def _values(design: Any) -> set[tuple[tuple[str, str], ...]]:
    from rtlopt.frontend._params import parameterizations

    return {pz.values for pz in parameterizations(design, defaults=False)}


def under_new_instances(
    cfg: Config,
    base_design: Any,
    new_tree: Path | None,
    rel: str,
    name: str,
    new_text: str,
    evaluate: Callable[[Any, str, Path], EvalResult],
    tmp: Path,
) -> str:
    """Why the change of module ``name`` (file ``rel``, new text ``new_text``) fails under a
    parameterization only the commit's tree builds (module docstring), or "" (none, or each
    proven). ``evaluate(design, text, workdir)`` judges ``text`` against ``design``'s target."""
    from rtlopt.frontend import load_design

    if new_tree is None or not (new_tree / rel).is_file():
        return ""
    try:
        new_design = load_design(new_tree / rel, name, cfg.project, root=new_tree)
        added = _values(new_design) - _values(base_design)
    except DesignError:
        return ""  # the commit's tree does not build it: the other findings say why
    if not added:
        return ""
    labels = "; ".join(", ".join(f"{k}={v}" for k, v in sorted(a)) for a in sorted(added))
    mixed = tmp / "commit-instances"
    shutil.copytree(new_tree, mixed, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    (mixed / rel).write_text(base_design.target.file.read_text(errors="surrogateescape"))
    try:
        design = load_design(mixed / rel, name, cfg.project, root=mixed)
    except DesignError as exc:
        return f"could not check {name} under the commit's instances ({labels}): {exc.one_line()}"
    log.info("%s: judged again under the commit's instances: %s", name, labels)
    res = evaluate(design, new_text, tmp / "eval-commit-instances")
    if res.status is Status.OK:
        return ""
    return (
        f"{name} under the parameters the commit instantiates it with ({labels}), which the "
        f"base never builds: {res.reason}"
    )
