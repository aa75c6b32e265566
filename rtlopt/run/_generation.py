"""The generation phase of a step: the prompt of every expansion (its answer format, the code
view a long module shows, the playbook's lessons), IGR's idea requests, the policy's answers and
the candidate text (or the verdict) each answer gives."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend.model import Design
from rtlopt.policy import (
    Completion,
    EditError,
    ParentInfo,
    Playbook,
    Policy,
    Prompt,
    answer_format,
    apply_edits,
    build_prompt,
    changed_lines,
    estimate_tokens,
    fit_view,
    focus_view,
    free_lines,
    has_edit_blocks,
    idea_prompt,
    interface_view,
    parse_edit_blocks,
    parse_ideas,
    relevant_lines,
)
from rtlopt.results import EvalResult, Stage
from rtlopt.run._rollouts import (
    _edit_failure_result,
    _policy_error_result,
    _Rollouts,
    candidate_text,
    no_module_result,
)
from rtlopt.rundir import RunDir
from rtlopt.search import Expansion, normalize_idea, read_igr_notes

log = logging.getLogger("rtlopt.run._loop")
progress_log = logging.getLogger("rtlopt.progress")

PROMPT_MARGIN_TOKENS = 64
"""Tokens kept free below ``policy.max_prompt_tokens`` when sizing a code view."""

IDEAS_PER_REQUEST = 10


class _Generation:
    """The optimizer's prompting and generation steps (a base of :class:`Optimizer`)."""

    design: Design
    config: Config
    evaluator: Evaluator
    policy: Policy
    rd: RunDir
    spec: str
    playbook: Playbook | None

    def _reference_code(self) -> str:
        return self.design.target.text()

    def _format(self, code: str) -> str:
        p = self.config.policy
        return answer_format(code, p.answer_format, p.edit_min_lines)

    def _lessons(self) -> list[str]:
        if self.playbook is None:
            return []
        return self.playbook.prompt_lines(self.config.reflect.prompt_lessons)

    def _prompt_for(self, e: Expansion, note: str | None = None) -> tuple[Prompt, str, str]:
        """The expansion's prompt, its answer format and the code its edits apply to; ``note``
        (a restart's) follows the playbook's lessons."""
        ref = self.evaluator.reference()
        assert ref.ppa is not None
        kind = self.evaluator.metric_kind
        ref_code = self._reference_code()
        base = e.code or ref_code
        fmt = self._format(base)
        parent: ParentInfo | None = None
        res: EvalResult | None = None
        if not e.is_root:
            res = self.rd.read_candidate(e.eval_hash) if e.eval_hash else None
            parent = ParentInfo(
                code=e.code,
                ppa=res.ppa if res is not None else None,
                feedback=tuple(e.feedback.splitlines()),
                prev_metric=self._metric_of(e.prev_hash),
            )
        elif e.feedback:
            # a retry from the reference after an answer that gave no design: show that
            # answer's feedback against the reference
            parent = ParentInfo(
                code=ref_code,
                ppa=ref.ppa,
                feedback=tuple(e.feedback.splitlines()),
                prev_metric=None,
            )
        lessons = [*self._lessons(), *([note] if note else [])]

        def render(view: str | None) -> Prompt:
            return build_prompt(
                ref_code,
                ref.ppa,  # type: ignore[arg-type]
                self.spec,
                kind,
                parent,
                answer=fmt,
                code_view=view,
                lessons=lessons,
                idea=e.idea,
            )

        if fmt != "edit":
            return render(None), fmt, base
        focus = self._focus(e, base, res)
        limit = max(256, self.config.policy.max_prompt_tokens - PROMPT_MARGIN_TOKENS)
        prompt = fit_view(
            lambda k: render(focus_view(base, focus, k)),
            free_lines(base),
            limit,
            self._count_tokens,
        )
        return prompt, fmt, base

    def _count_tokens(self, prompt: Prompt) -> int:
        """The policy's own count when it has a tokenizer (``prompt_ids``: the transformers
        and vLLM backends), else a cautious estimate from the characters."""
        ids = getattr(self.policy, "prompt_ids", None)
        if callable(ids):
            try:
                return len(ids(prompt))
            except Exception:  # a backend without a usable tokenizer: estimate instead
                log.debug("prompt_ids failed; estimating tokens", exc_info=True)
        return estimate_tokens(prompt)

    def _focus(self, e: Expansion, base: str, res: EvalResult | None) -> set[int]:
        """Lines of ``base`` a long module's prompt shows first: the last edit, the lines
        naming the signals of its critical path (the reference's for a root prompt), and the
        failing output of a counterexample."""
        focus = set(e.focus)
        names: list[str] = []
        ref = self.evaluator.reference()
        src = res if res is not None else (ref if e.is_root else None)
        details = src.ppa.details if src is not None and src.ppa is not None else None
        if details is not None and details.critical_path is not None:
            cp = details.critical_path
            names += [cp.startpoint, cp.endpoint, *cp.signals]
        if res is not None:  # a netlist-check failure's mismatch is the netlist's
            sim = res.netlist if res.stage is Stage.NETLIST else res.sim
            if sim is not None and sim.first_mismatch is not None:
                names.append(sim.first_mismatch.output)
        focus.update(relevant_lines(base, names))
        return focus

    def _metric_of(self, h: str | None) -> float | None:
        """The figure of merit of a recorded candidate; ``""`` is the reference."""
        kind = self.evaluator.metric_kind
        if h is None:
            return None
        if h == "":
            ref = self.evaluator.reference()
            return ref.ppa.metric(kind) if ref.ppa is not None else None
        res = self.rd.read_candidate(h)
        return res.ppa.metric(kind) if res is not None and res.ppa is not None else None

    def _ideas(self, existing: Sequence[str], want: int) -> list[str]:
        """Ask the policy for ``want`` ideas (IGR), ``IDEAS_PER_REQUEST`` per request, each
        request seeing the ideas so far; stops early when a request brings nothing new."""
        ref = self.evaluator.reference()
        assert ref.ppa is not None
        code = self._reference_code()
        shown = interface_view(code) if self._format(code) == "edit" else code
        notes, _ = read_igr_notes(self.config.search.igr_notes)
        out: list[str] = []
        seen = {normalize_idea(i) for i in existing}
        rounds = 0
        while len(out) < want and rounds < math.ceil(want / IDEAS_PER_REQUEST) + 1:
            ask = min(IDEAS_PER_REQUEST, want - len(out))
            prompt = idea_prompt(
                shown, ref.ppa, self.spec, self.evaluator.metric_kind, [*existing, *out], ask, notes
            )
            seed = self.config.run.seed * 100003 + 50_000 + rounds
            comps = self.policy.generate([prompt], 1, seed=seed)
            rounds += 1
            got = comps[0][0] if comps and comps[0] else None
            if got is None or got.error:
                break
            fresh = [i for i in parse_ideas(got.text) if normalize_idea(i) not in seen]
            for i in fresh:
                seen.add(normalize_idea(i))
            if not fresh:
                break
            out.extend(fresh)
        log.info("IGR: the policy gave %d of %d ideas in %d request(s)", len(out), want, rounds)
        return out[:want]

    def _generate(
        self, step: int, expansions: list[Expansion], note: str | None = None
    ) -> _Rollouts:
        """Prompt the policy once per expansion for ``e.n`` answers each (``note``: a
        restart's note for every prompt)."""
        cfg = self.config
        built = [self._prompt_for(e, note) for e in expansions]
        prompts = [b[0] for b in built]
        groups: list[list[Completion]] = [[] for _ in expansions]
        sizes = sorted({e.n for e in expansions}, key=[e.n for e in expansions].index)
        for si, n in enumerate(sizes):  # one call per rollout count (usually one)
            idx = [i for i, e in enumerate(expansions) if e.n == n]
            seed = cfg.run.seed * 100003 + step + 7919 * si
            t0 = time.perf_counter()
            out = self.policy.generate([prompts[i] for i in idx], n, seed=seed)
            progress_log.info(
                "%s step %d: %d rollout(s) generated in %.0f s",
                self.design.target.name,
                step,
                sum(len(g) for g in out),
                time.perf_counter() - t0,
            )
            for i, comps in zip(idx, out, strict=True):
                groups[i] = list(comps)
        group = [gi for gi, comps in enumerate(groups) for _ in comps]
        completions = [c for comps in groups for c in comps]
        texts: list[str | None] = []
        decided: list[EvalResult | None] = []
        focus: list[tuple[int, ...]] = []
        for gi, c in zip(group, completions, strict=True):
            text, res, foc = self._answer(c, built[gi][1], built[gi][2])
            texts.append(text)
            decided.append(res)
            focus.append(foc)
        return _Rollouts(
            expansions,
            prompts,
            [b[1] for b in built],
            [b[2] for b in built],
            group,
            completions,
            texts,
            decided,
            focus,
        )

    def _answer(
        self, c: Completion, fmt: str, base: str
    ) -> tuple[str | None, EvalResult | None, tuple[int, ...]]:
        """The design an answer gives (an edit applied to ``base``, or a whole module), or the
        result that rejects it, and the lines it changed."""
        rw = self.config.reward
        if getattr(c, "error", None):
            return None, _policy_error_result(str(c.error)), ()
        if has_edit_blocks(c.text):
            try:
                edited = apply_edits(base, parse_edit_blocks(c.text))
            except EditError as exc:
                return None, _edit_failure_result(exc, rw.edit_failed), ()
            return edited.text, None, changed_lines(base, edited.text)
        text = candidate_text(c)
        if text is None:
            if fmt == "edit":
                return (
                    None,
                    _edit_failure_result(
                        EditError(
                            None, "the answer holds no <<<<<<< SEARCH block and no complete module"
                        ),
                        rw.edit_failed,
                    ),
                    (),
                )
            return None, no_module_result(rw.no_module), ()
        return text, None, changed_lines(base, text)
