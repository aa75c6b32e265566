"""A third-party policy backend for rtlopt: answers every prompt with the design it was shown.

The answer is always equivalent (it is the parent), so a run with it finds nothing better; it
shows the plumbing of a policy plugin: the factory signature, ``preflight``, ``generate`` with
rtlopt's ``Completion`` type, a frozen ``update``, ``save``/``load`` for resume, ``close``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rtlopt.errors import UsageError
from rtlopt.policy import Completion, UpdateStats

_MODULE = re.compile(r"\bmodule\b.*?\bendmodule\b", re.S)


class EchoPolicy:
    """``echo``: the last ``module ... endmodule`` of each prompt's last message, ``n`` times.

    Args:
        cfg: rtlopt's ``PolicyConfig`` (``model`` must stay ``auto``: echo has no model).
        train: rtlopt's ``TrainConfig`` (unused: the policy is frozen).
        seed: The run's seed (unused: echo does not sample).
    """

    name = "echo"
    trainable = False

    @classmethod
    def preflight(cls, cfg: Any) -> None:
        """Checked before the run starts; refuse settings that make no sense here."""
        if cfg.model not in ("auto", "echo"):
            raise UsageError("the echo policy has no model", hint="drop --model")

    def __init__(self, cfg: Any, train: Any = None, *, seed: int = 0) -> None:
        self.calls = 0

    def generate(self, prompts: Sequence[Any], n: int, *, seed: int) -> list[list[Completion]]:
        out = []
        for prompt in prompts:
            found = _MODULE.findall(prompt[-1]["content"])
            text = found[-1] if found else ""
            out.append([Completion(text=text, verilog=text or None) for _ in range(n)])
        self.calls += 1
        log = os.environ.get("ECHO_POLICY_LOG")
        if log:
            with Path(log).open("a") as fh:
                fh.write(f"generate {len(prompts)} prompt(s) x {n}\n")
        return out

    def update(self, samples: Sequence[Any]) -> UpdateStats:
        """Frozen: nothing to learn (``loss=None`` tells the run so)."""
        return UpdateStats(
            loss=None, kl_ref=None, n_samples=0, tokens=0, grad_norm=None, time_s=0.0
        )

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / "echo.txt").write_text(f"{self.calls}\n")

    def load(self, path: Path) -> None:
        f = path / "echo.txt"
        if f.is_file():
            self.calls = int(f.read_text())

    def close(self) -> None:
        pass
