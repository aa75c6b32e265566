"""ACE-RTL's reflection (sections 3.2-3.4): a reflector writes lessons, a coordinator keeps them.

* **Reflector**: a second model behind any OpenAI-compatible endpoint (``[reflect]``, configured
  apart from the generator, which may be the on-device TTT policy). After a step it reads a few
  of the step's rollouts, failed ones (with their error or counterexample) and improved ones
  (with the change and its numbers), each as the diff against the code it started from plus its
  feedback, and answers with short lessons (``LESSON: ...`` lines).
* **Coordinator**: the :class:`Playbook`, a file in the run directory (``playbook.json``).
  A lesson that says what another already says (same words, or nearly) is merged into it, which
  raises its support; every lesson keeps its evidence (step, candidate, outcome); beyond
  ``reflect.max_lessons`` the least supported, then the oldest, lessons are dropped. The best
  supported lessons go into later prompts (``reflect.prompt_lessons``).
* **Parallel scaling**: ``reflect.parallel`` reflections per step run concurrently, each on a
  different rollout (failures of different kinds, the best improvement).

A reflector that fails (down, slow, refusing) costs the step its lessons, never the run.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rtlopt.config import PolicyConfig, ReflectConfig
from rtlopt.errors import RtloptError, UsageError
from rtlopt.policy._preflight import check_endpoint
from rtlopt.policy._types import Message, Prompt

__all__ = [
    "Case",
    "Evidence",
    "Lesson",
    "Playbook",
    "ReflectStats",
    "Reflector",
    "parse_lessons",
    "pick_cases",
    "preflight_reflector",
    "reflection_prompt",
]

log = logging.getLogger(__name__)

_FORMAT = 1
MAX_LESSON_CHARS = 300
MAX_EVIDENCE = 5
_DIFF_LINES = 120

REFLECTOR_SYSTEM = (
    "You are a senior RTL design reviewer. You read one attempt to rewrite a Verilog module "
    "for lower area and delay, with what the EDA tools said about it, and you distil lessons "
    "for the designer's next attempts."
)


@dataclass(frozen=True)
class Evidence:
    """Why a lesson is in the playbook: the rollout it was learned from.

    Attributes:
        step: The step of the rollout.
        candidate: Its candidate hash (``candidates/<hash>.v``), empty when it gave no design.
        outcome: One line: what happened (rejected at ..., ADP a -> b).
    """

    step: int
    candidate: str
    outcome: str


@dataclass
class Lesson:
    """One lesson of the playbook.

    Attributes:
        text: The lesson, one line.
        evidence: The rollouts it was learned from (most recent last, at most 5).
        support: How many reflections wrote it (merged duplicates included).
        first_step: When it was first written.
        last_step: When it was last confirmed.
        applied: Steps whose prompts showed it (ACE-RTL's coordinator: was the fix tried?).
        fixed: Of those, steps with a proven improvement (did the fix work?).
        outcomes: The last few of those steps' outcomes, one line each.
    """

    text: str
    evidence: list[Evidence] = field(default_factory=list)
    support: int = 1
    first_step: int = 0
    last_step: int = 0
    applied: int = 0
    fixed: int = 0
    outcomes: list[str] = field(default_factory=list)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9_]+", text.lower())


def same_lesson(a: str, b: str) -> bool:
    """Whether two lessons say the same: equal word sets up to 40% difference, or nearly the
    same text."""
    wa, wb = set(_words(a)), set(_words(b))
    if not wa or not wb:
        return False
    if len(wa & wb) / len(wa | wb) >= 0.6:
        return True
    return difflib.SequenceMatcher(None, " ".join(_words(a)), " ".join(_words(b))).ratio() >= 0.85


class Playbook:
    """The coordinator's memory: deduplicated, bounded lessons with evidence.

    Args:
        max_lessons: The bound (``reflect.max_lessons``).
    """

    def __init__(self, max_lessons: int) -> None:
        self.max_lessons = max_lessons
        self.lessons: list[Lesson] = []

    def add(self, text: str, evidence: Evidence) -> str:
        """Add a lesson; returns ``"new"``, ``"merged"`` (same as a kept lesson) or
        ``"dropped"`` (empty, or evicted at once for being the least supported)."""
        text = " ".join(text.split())[:MAX_LESSON_CHARS]
        if not _words(text):
            return "dropped"
        for lesson in self.lessons:
            if same_lesson(lesson.text, text):
                lesson.support += 1
                lesson.last_step = max(lesson.last_step, evidence.step)
                if evidence not in lesson.evidence:
                    lesson.evidence = [*lesson.evidence, evidence][-MAX_EVIDENCE:]
                return "merged"
        new = Lesson(text, [evidence], 1, evidence.step, evidence.step)
        self.lessons.append(new)
        if len(self.lessons) > self.max_lessons:
            victim = min(self.lessons, key=lambda x: (x.support, x.last_step, x.first_step))
            self.lessons.remove(victim)
            if victim is new:
                return "dropped"
        return "new"

    def top(self, k: int) -> list[Lesson]:
        """The ``k`` best lessons: those whose fix worked most often, then the best supported,
        then the most recently confirmed; a lesson tried twice or more without a fix ranks
        below the untried ones."""

        def key(x: Lesson) -> tuple[int, int, int, int, int]:
            failing = 1 if x.applied >= 2 and x.fixed == 0 else 0
            return (failing, -x.fixed, -x.support, -x.last_step, x.first_step)

        return sorted(self.lessons, key=key)[:k]

    def record_outcomes(self, shown: Sequence[str], cases: Sequence[Case], step: int) -> None:
        """The step's prompts showed the lessons ``shown``: count the step for each, as fixed
        when one of its rollouts improved the design (``cases``: the step's failed and
        improved rollouts)."""
        improved = [c for c in cases if c.kind == "improved"]
        outcome = (
            f"step {step}: fixed ({improved[0].outcome})"
            if improved
            else f"step {step}: no improvement" + (f" ({cases[0].outcome[:120]})" if cases else "")
        )
        for lesson in self.lessons:
            if lesson.text in shown:
                lesson.applied += 1
                lesson.fixed += 1 if improved else 0
                lesson.outcomes = [*lesson.outcomes, outcome][-MAX_EVIDENCE:]

    def prompt_lines(self, k: int) -> list[str]:
        """The ``k`` top lessons as prompt lines, with how often they were seen and worked."""
        out = []
        for lesson in self.top(k):
            notes = []
            if lesson.support > 1:
                notes.append(f"seen {lesson.support} times")
            if lesson.applied:
                notes.append(f"worked {lesson.fixed} of {lesson.applied} times")
            out.append(lesson.text + (f" ({', '.join(notes)})" if notes else ""))
        return out

    def to_json(self) -> dict[str, Any]:
        """The playbook as a JSON-ready dict."""
        return {
            "version": _FORMAT,
            "max_lessons": self.max_lessons,
            "lessons": [
                {
                    "text": x.text,
                    "support": x.support,
                    "first_step": x.first_step,
                    "last_step": x.last_step,
                    "applied": x.applied,
                    "fixed": x.fixed,
                    "outcomes": list(x.outcomes),
                    "evidence": [e.__dict__ for e in x.evidence],
                }
                for x in self.lessons
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], max_lessons: int) -> Playbook:
        """Inverse of :meth:`to_json` (bounded again by ``max_lessons``)."""
        pb = cls(max_lessons)
        for d in data.get("lessons", []):
            pb.lessons.append(
                Lesson(
                    str(d["text"]),
                    [Evidence(**e) for e in d["evidence"]],
                    int(d["support"]),
                    int(d["first_step"]),
                    int(d["last_step"]),
                    int(d.get("applied", 0)),
                    int(d.get("fixed", 0)),
                    [str(o) for o in d.get("outcomes", [])],
                )
            )
        while len(pb.lessons) > max_lessons:
            pb.lessons.remove(min(pb.lessons, key=lambda x: (x.support, x.last_step)))
        return pb


@dataclass(frozen=True)
class Case:
    """A rollout for the reflector.

    Attributes:
        kind: ``failed`` or ``improved``.
        step: Its step.
        candidate: Its candidate hash (empty when it gave no design).
        base: The code it started from (the parent, or the reference).
        code: Its code (empty when it gave no design).
        feedback: Its feedback lines.
        outcome: One line: what happened.
        answer: The raw answer, shown when it gave no design (e.g. an edit that did not apply).
    """

    kind: str
    step: int
    candidate: str
    base: str
    code: str
    feedback: tuple[str, ...]
    outcome: str
    answer: str = ""

    @property
    def evidence(self) -> Evidence:
        """This case as a lesson's evidence."""
        return Evidence(self.step, self.candidate, self.outcome)


def pick_cases(cases: Sequence[Case], k: int) -> list[Case]:
    """Up to ``k`` informative cases: improvements (largest first) and failures of distinct
    kinds (by outcome), alternating, so parallel reflections read different rollouts."""
    improved = [c for c in cases if c.kind == "improved"]
    failed: list[Case] = []
    seen: set[str] = set()
    for c in cases:
        key = " ".join(c.outcome.split()[:6])
        if c.kind == "failed" and key not in seen:
            seen.add(key)
            failed.append(c)
    out: list[Case] = []
    while len(out) < k and (improved or failed):
        for pool in (improved, failed):
            if pool and len(out) < k:
                out.append(pool.pop(0))
    return out


def _diff(base: str, code: str) -> str:
    lines = list(
        difflib.unified_diff(
            base.splitlines(), code.splitlines(), "before", "after", n=2, lineterm=""
        )
    )
    if len(lines) > _DIFF_LINES:
        lines = lines[:_DIFF_LINES] + [f"... ({len(lines) - _DIFF_LINES} more diff lines)"]
    return "\n".join(lines)


def reflection_prompt(
    module: str, metric: str, case: Case, known: Sequence[str], max_new: int = 3
) -> Prompt:
    """The reflector's prompt for one case.

    Args:
        module: The module's name.
        metric: The figure of merit's display name (``ADP``).
        case: The rollout.
        known: Lessons already in the playbook (not to be repeated).
        max_new: Most lessons asked for.
    """
    what = (
        "This attempt was REJECTED."
        if case.kind == "failed"
        else f"This attempt IMPROVED the {metric}."
    )
    user = f"## Module `{module}`\n{what} Outcome: {case.outcome}\n"
    if case.code:
        diff = _diff(case.base, case.code)
        user += f"## Change against the code it started from\n```diff\n{diff}\n```\n"
    elif case.answer:
        user += f"## The answer (it gave no design)\n```\n{case.answer[:3000]}\n```\n"
    user += "## Feedback from the EDA tools\n" + "".join(f"- {f}\n" for f in case.feedback)
    if known:
        user += "## Lessons already known (do not repeat them)\n" + "".join(
            f"- {k}\n" for k in known
        )
    user += (
        f"Write at most {max_new} short lessons for the next attempts to rewrite this "
        "module (what to do or avoid, and why), general enough to apply to other "
        "rewrites of it. One per line, each starting with `LESSON:`, at most 30 words."
    )
    system: Message = {"role": "system", "content": REFLECTOR_SYSTEM}
    return (system, {"role": "user", "content": user})


_LESSON = re.compile(
    r"^\s*(?:[-*]\s*|\d+[.)]\s*)?\**LESSON\**\s*\d*\s*[:.-]\s*(.+?)\s*$", re.I | re.M
)


def parse_lessons(text: str, limit: int = 3) -> list[str]:
    """The ``LESSON:`` lines of a reflection (reasoning dropped), at most ``limit``."""
    text = re.sub(r"<think>.*?(</think>|\Z)", "", text, flags=re.S | re.I)
    out = [m.group(1).strip().strip("*").strip() for m in _LESSON.finditer(text)]
    return [x for x in out if x][:limit]


@dataclass(frozen=True)
class ReflectStats:
    """What one step's reflection did."""

    requests: int = 0
    new: int = 0
    merged: int = 0
    dropped: int = 0
    errors: int = 0


def _client_config(cfg: ReflectConfig) -> PolicyConfig:
    return PolicyConfig(
        backend="openai",
        endpoint=cfg.endpoint,
        model=cfg.model,
        api_key_env=cfg.api_key_env,
        temperature=cfg.temperature,
        max_new_tokens=cfg.max_tokens,
        request_timeout_s=cfg.request_timeout_s,
    )


def preflight_reflector(cfg: ReflectConfig) -> None:
    """With a reflector configured, its endpoint answers ``GET /models``.

    Raises:
        UsageError: the endpoint does not answer.
    """
    if not cfg.endpoint:
        return
    try:
        check_endpoint(cfg.endpoint, cfg.api_key_env, 5.0)
    except UsageError as exc:
        raise UsageError(
            f"reflector: {exc.message}", hint=exc.hint or "check reflect.endpoint"
        ) from exc


class Reflector:
    """Runs the reflections of a step against the ``[reflect]`` endpoint.

    Args:
        cfg: The reflector's settings.
    """

    def __init__(self, cfg: ReflectConfig) -> None:
        from rtlopt.policy._openai import OpenAIPolicy

        self.cfg = cfg
        self.client = OpenAIPolicy(_client_config(cfg))

    def reflect(
        self, cases: Sequence[Case], playbook: Playbook, module: str, metric: str, seed: int
    ) -> ReflectStats:
        """Reflect on up to ``reflect.parallel`` of ``cases`` at once and put the lessons in
        ``playbook``."""
        shown = [x.text for x in playbook.top(self.cfg.prompt_lessons)]  # this step's prompts
        playbook.record_outcomes(shown, cases, cases[0].step if cases else 0)
        chosen = pick_cases(cases, self.cfg.parallel)
        if not chosen:
            return ReflectStats()
        known = [x.text for x in playbook.top(self.cfg.max_lessons)]
        prompts = [reflection_prompt(module, metric, c, known) for c in chosen]
        try:
            answers = self.client.generate(prompts, 1, seed=seed)
        except RtloptError as exc:
            log.warning("reflection failed, no lessons this step: %s", exc.one_line())
            return ReflectStats(requests=len(prompts), errors=len(prompts))
        counts = {"new": 0, "merged": 0, "dropped": 0}
        for case, group in zip(chosen, answers, strict=True):
            for text in parse_lessons(group[0].text if group else ""):
                counts[playbook.add(text, case.evidence)] += 1
        return ReflectStats(len(prompts), counts["new"], counts["merged"], counts["dropped"])

    def close(self) -> None:
        """Release the client."""
        self.client.close()
