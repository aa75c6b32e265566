"""Exception hierarchy shared by every layer.

Library code raises these; only the CLI turns them into one-line messages and exit codes.
"""

from __future__ import annotations

from pathlib import Path


class RtloptError(Exception):
    """Base class of every error rtlopt reports to the user."""

    exit_code = 3

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = Path(path) if path is not None else None
        self.line = line
        self.hint = hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The error as one line: ``file:line: message (hint)``."""
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{self.message}{hint}"


class UsageError(RtloptError):
    """Bad input from the user: wrong path, missing module, syntax error, unknown name."""

    exit_code = 2


class ConfigError(UsageError):
    """Invalid configuration: unknown key, bad value, conflicting settings."""


class DesignError(UsageError):
    """The user's RTL cannot be used: syntax error, missing module, unsupported construct."""


class PluginError(UsageError):
    """Unknown or broken plugin."""


class RepoError(UsageError):
    """The git repository is not in a state we may write to (dirty, detached, ...)."""


class ToolNotFound(UsageError):
    """A required external tool is missing or too old."""


class InfrastructureError(RtloptError):
    """A tool crashed or timed out: never scored as a bad candidate."""

    exit_code = 3


class ToolFailed(InfrastructureError):
    """A tool exited abnormally where it should not have."""

    def __init__(
        self,
        message: str,
        *,
        command: list[str] | None = None,
        returncode: int | None = None,
        log_path: Path | None = None,
        stderr_tail: str = "",
    ) -> None:
        self.command = command or []
        self.returncode = returncode
        self.log_path = log_path
        self.stderr_tail = stderr_tail
        hint = f"see {log_path}" if log_path else None
        super().__init__(message, hint=hint)


class EvaluationTimeout(InfrastructureError):
    """A tool ran past its time limit."""


class Terminated(BaseException):  # noqa: N818 - like KeyboardInterrupt, not an error
    """The process received SIGTERM or SIGHUP: unwind (``finally`` blocks run), then exit.

    A ``BaseException`` like ``KeyboardInterrupt`` so that ``except Exception`` handlers do not
    swallow it. The command line exits with ``128 + signum``.
    """

    def __init__(self, signum: int, name: str = "") -> None:
        self.signum = signum
        self.name = name or f"signal {signum}"
        super().__init__(f"terminated by {self.name}")

    @property
    def exit_code(self) -> int:
        return 128 + self.signum
