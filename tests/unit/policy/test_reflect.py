"""ACE-style reflection: the playbook (dedup, bound, evidence), lesson parsing, case choice, and
the reflector against a real local OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rtlopt.config import ReflectConfig
from rtlopt.errors import UsageError
from rtlopt.policy import (
    Case,
    Evidence,
    Playbook,
    Reflector,
    parse_lessons,
    preflight_reflector,
    reflection_prompt,
)
from rtlopt.policy._reflect import pick_cases, same_lesson
from tests.openai_server import LocalOpenAIServer


def ev(step: int, h: str = "abc") -> Evidence:
    return Evidence(step, h, "rejected at simulation: 3 of 100 vectors mismatch")


def test_playbook_merges_the_same_lesson_and_keeps_its_evidence() -> None:
    pb = Playbook(max_lessons=5)
    assert pb.add("Keep the reset value of count_q when re-encoding the FSM.", ev(1, "a")) == "new"
    assert (
        pb.add("When re-encoding the FSM keep the reset value of count_q", ev(2, "b")) == "merged"
    )
    assert (
        pb.add("Share the two adders of the datapath: they are never used together.", ev(2, "c"))
        == "new"
    )
    assert len(pb.lessons) == 2
    first = pb.lessons[0]
    assert first.support == 2 and [e.candidate for e in first.evidence] == ["a", "b"]
    assert (first.first_step, first.last_step) == (1, 2)
    assert pb.prompt_lines(1) == [
        "Keep the reset value of count_q when re-encoding the FSM. (seen 2 times)"
    ]
    assert same_lesson("Use a Wallace tree.", "use a wallace TREE") and not same_lesson(
        "Use a Wallace tree for the multiplier.", "Keep the reset value of the counter."
    )


def test_playbook_is_bounded_dropping_the_least_supported_then_oldest() -> None:
    pb = Playbook(max_lessons=2)
    pb.add("Lesson alpha about adders sharing", ev(1))
    pb.add("Lesson alpha about adders sharing", ev(2))  # support 2
    pb.add("Lesson beta about register retiming", ev(2))
    assert pb.add("Lesson gamma about one hot encoding", ev(3)) == "new"
    assert [x.text for x in pb.lessons] == [
        "Lesson alpha about adders sharing",
        "Lesson gamma about one hot encoding",
    ]
    pb2 = Playbook.from_json(pb.to_json(), max_lessons=1)
    assert [x.text for x in pb2.lessons] == ["Lesson alpha about adders sharing"]
    assert pb2.lessons[0].evidence == pb.lessons[0].evidence


def test_parse_lessons_and_prompt() -> None:
    text = (
        "<think>LESSON: not this one</think>\nHere:\n1. LESSON: Keep the enable gating.\n"
        "- **LESSON**: Do not merge the two counters.\nLESSON 3: short\nnoise\n"
        "LESSON: a fourth"
    )
    assert parse_lessons(text) == [
        "Keep the enable gating.",
        "Do not merge the two counters.",
        "short",
    ]
    case = Case(
        "failed",
        3,
        "h1",
        "module m; assign y = a; endmodule\n",
        "module m; assign y = b; endmodule\n",
        ("Syntax: PASS", "Functional Test: FAIL (first mismatch ...)"),
        "rejected at simulation: 1 of 10 vectors mismatch",
    )
    _, user = reflection_prompt("m", "ADP", case, ["an old lesson"])
    content = user["content"]
    assert "REJECTED" in content and "-module m; assign y = a; endmodule" in content
    assert "+module m; assign y = b; endmodule" in content
    assert "- an old lesson" in content and "`LESSON:`" in content


def test_pick_cases_alternates_improvements_and_distinct_failures() -> None:
    def c(kind: str, outcome: str) -> Case:
        return Case(kind, 1, outcome, "", "x", (), outcome)

    cases = [
        c("improved", "ADP 10 -> 8"),
        c("improved", "ADP 10 -> 9"),
        c("failed", "rejected at simulation: a"),
        c("failed", "rejected at simulation: a"),
        c("failed", "rejected at compile: b"),
    ]
    picked = pick_cases(cases, 3)
    assert [x.outcome for x in picked] == [
        "ADP 10 -> 8",
        "rejected at simulation: a",
        "ADP 10 -> 9",
    ]
    assert [x.outcome for x in pick_cases(cases, 5)][-1] == "rejected at compile: b"
    assert len(pick_cases(cases, 9)) == 4  # the repeated failure is read once


@pytest.fixture
def server() -> Iterator[LocalOpenAIServer]:
    def answer(body: dict[str, Any]) -> str:
        user = body["messages"][-1]["content"]
        if "REJECTED" in user:
            return (
                "LESSON: Keep the reset value of the state register.\n"
                "LESSON: Keep the reset value of the state register!\n"
            )
        return "LESSON: Sharing the adder between the two modes saved area."

    s = LocalOpenAIServer(answer)
    yield s
    s.close()


def test_reflector_runs_parallel_reflections_against_an_endpoint(server: LocalOpenAIServer) -> None:
    cfg = ReflectConfig(endpoint=server.url, parallel=2, temperature=0.1, max_tokens=99)
    preflight_reflector(cfg)
    r = Reflector(cfg)
    pb = Playbook(cfg.max_lessons)
    cases = [
        Case("failed", 4, "h1", "a\n", "b\n", ("Functional Test: FAIL",), "rejected: x"),
        Case("improved", 4, "h2", "a\n", "c\n", ("Synthesis: ...",), "ADP 10 -> 8"),
        Case("failed", 4, "h3", "a\n", "d\n", ("Functional Test: FAIL",), "rejected: x"),
    ]
    stats = r.reflect(cases, pb, "m", "ADP", seed=7)
    r.close()
    assert len(server.requests) == 2 and stats.requests == 2  # parallel = 2 distinct cases
    body = server.requests[0]
    assert body["model"] == "reflector-model" and body["temperature"] == 0.1
    assert body["max_tokens"] == 99
    assert (stats.new, stats.merged) == (2, 1)  # the repeated lesson merged into the first
    texts = sorted(x.text for x in pb.lessons)
    assert texts == [
        "Keep the reset value of the state register.",
        "Sharing the adder between the two modes saved area.",
    ]
    keep = next(x for x in pb.lessons if x.text.startswith("Keep"))
    assert keep.support == 2 and keep.evidence[0].candidate == "h1"


def test_reflector_failure_costs_the_lessons_not_the_run(server: LocalOpenAIServer) -> None:
    r = Reflector(ReflectConfig(endpoint=server.url, parallel=1))
    server.httpd.shutdown()
    server.httpd.server_close()
    pb = Playbook(4)
    stats = r.reflect([Case("failed", 1, "h", "a\n", "b\n", (), "rejected")], pb, "m", "ADP", 1)
    assert stats.errors == 1 and pb.lessons == []
    with pytest.raises(UsageError, match="reflector: "):
        preflight_reflector(ReflectConfig(endpoint=server.url))


def test_playbook_records_whether_a_lessons_fix_worked() -> None:
    """Issue 25, finding 6: ACE-RTL's coordinator tracks whether a fix worked; the playbook
    only ranked lessons by recurrence."""
    from rtlopt.policy._reflect import Case, Evidence, Playbook

    pb = Playbook(8)
    ev = Evidence(1, "", "rejected at simulation: mismatch")
    pb.add("Keep the reset value of every register", ev)
    pb.add("Do not drop the carry input of the adder", ev)
    pb.add("Do not drop the carry input of the adder", ev)  # support 2: ranked first
    failed = Case("failed", 2, "h1", "b", "c", (), "rejected at simulation: mismatch at cycle 3")
    improved = Case("improved", 3, "h2", "b", "c", (), "ADP 10 -> 8 (-20.0%), proven equivalent")
    carry = "Do not drop the carry input of the adder"
    pb.record_outcomes([carry], [failed], 2)
    pb.record_outcomes([carry], [failed], 3)
    lesson = next(x for x in pb.lessons if x.text == carry)
    assert (lesson.applied, lesson.fixed) == (2, 0)
    assert pb.top(1)[0].text != carry  # tried twice without a fix: below the untried lesson
    reset = "Keep the reset value of every register"
    pb.record_outcomes([reset], [failed, improved], 4)
    first = pb.top(1)[0]
    assert first.text == reset and (first.applied, first.fixed) == (1, 1)
    assert "fixed (ADP 10 -> 8" in first.outcomes[-1]
    assert "worked 1 of 1 times" in pb.prompt_lines(1)[0]
    again = Playbook.from_json(pb.to_json(), 8)
    assert [(x.applied, x.fixed, x.outcomes) for x in again.lessons] == [
        (x.applied, x.fixed, x.outcomes) for x in pb.lessons
    ]
