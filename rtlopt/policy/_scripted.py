"""scripted backend: candidates read from files, for tests and for judging hand-written designs.

``policy.scripted_path`` is either a directory (its ``*.v`` and ``*.sv`` files, sorted by name)
or a text file listing candidate paths, one per line, relative to the list file (blank lines and
lines starting with ``#`` are skipped). ``generate`` hands the candidates out in order, ``n`` per
prompt, without repeats until every candidate has been handed out once; then it starts again
from the first (cycles). The policy is frozen.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.policy._extract import extract_verilog
from rtlopt.policy._types import Completion, Prompt, Sample, UpdateStats, frozen_stats
from rtlopt.verilog import module_spans

log = logging.getLogger(__name__)

SUFFIXES = (".v", ".sv")


def candidate_paths(spec: str | Path | None) -> list[Path]:
    """The candidate files named by ``policy.scripted_path``.

    Raises:
        UsageError: no path, a missing path or listed file, or no candidates.
    """
    if spec is None:
        raise UsageError(
            "the scripted backend needs candidates",
            hint="pass --candidates DIR or a file listing paths",
        )
    root = Path(spec).expanduser()
    if root.is_dir():
        paths = sorted(p for p in root.iterdir() if p.is_file() and p.suffix in SUFFIXES)
    elif root.is_file():
        paths = []
        for no, raw in enumerate(root.read_text(errors="replace").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            p = Path(line).expanduser()
            p = p if p.is_absolute() else root.parent / p
            if not p.is_file():
                raise UsageError(
                    f"listed candidate {line} does not exist",
                    path=root,
                    line=no,
                    hint="paths are relative to the list file",
                )
            paths.append(p)
    else:
        raise UsageError(
            f"candidate path {root} does not exist",
            hint="pass a directory of .v/.sv files or a file listing paths",
        )
    if not paths:
        raise UsageError(f"no candidates in {root}", hint="add .v or .sv files")
    return paths


class ScriptedPolicy:
    """Hands out pre-written candidates in order (see the module docstring).

    Args:
        cfg: ``scripted_path``.
        train: Unused (the policy is frozen).
        seed: Unused: the order is fixed.
    """

    name = "scripted"
    trainable = False

    @classmethod
    def preflight(cls, cfg: PolicyConfig) -> None:
        """The path exists and names at least one candidate."""
        candidate_paths(cfg.scripted_path)

    def __init__(
        self, cfg: PolicyConfig, train: TrainConfig | None = None, *, seed: int = 0
    ) -> None:
        self.paths = candidate_paths(cfg.scripted_path)
        self.texts = [p.read_text(errors="replace") for p in self.paths]
        # a Verilog file is the candidate as written (its lines keep their numbers in every
        # message); other files are answers to extract the Verilog from
        self.verbatim = [
            p.suffix in (".v", ".sv") and bool(module_spans(t))
            for p, t in zip(self.paths, self.texts, strict=True)
        ]
        self.cursor = 0
        self.cycles = 0

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        """The next ``n`` candidates for each prompt, cycling when exhausted."""
        out: list[list[Completion]] = []
        for _ in prompts:
            group = []
            for _ in range(n):
                text = self.texts[self.cursor]
                verilog = text if self.verbatim[self.cursor] else extract_verilog(text)
                source = self.paths[self.cursor].name
                group.append(Completion(text=text, verilog=verilog, source=source))
                self.cursor += 1
                if self.cursor == len(self.texts):
                    self.cursor = 0
                    self.cycles += 1
                    log.debug("scripted: all %d candidates handed out; cycling", len(self.texts))
            out.append(group)
        return out

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        """Frozen: nothing to learn."""
        return frozen_stats()

    def save(self, path: Path) -> None:
        """Save the position in the candidate list (for resume)."""
        path.mkdir(parents=True, exist_ok=True)
        (path / "scripted.json").write_text(
            json.dumps({"cursor": self.cursor, "cycles": self.cycles}) + "\n"
        )

    def load(self, path: Path) -> None:
        """Restore the position saved by :meth:`save`."""
        f = path / "scripted.json"
        if f.is_file():
            state = json.loads(f.read_text())
            self.cursor = int(state["cursor"]) % len(self.texts)
            self.cycles = int(state.get("cycles", 0))

    def close(self) -> None:
        """Nothing to release."""
