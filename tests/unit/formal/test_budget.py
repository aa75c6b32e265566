"""One time budget per verdict: a formal check's limit is what the verdict has left."""

from __future__ import annotations

import dataclasses

from rtlopt.config import FormalConfig
from rtlopt.formal.budget import Deadline, bounded, within


def test_a_check_gets_no_more_than_the_verdict_has_left() -> None:
    cfg = dataclasses.replace(FormalConfig(), timeout_s=120.0)
    assert bounded(cfg) is cfg  # no verdict deadline: the configured limit
    with within(Deadline.after(30.0)):
        assert 28.0 < bounded(cfg).timeout_s <= 30.0
        # an inner, later deadline cannot extend the verdict's
        with within(Deadline.after(100.0)):
            assert bounded(cfg).timeout_s <= 30.0
        # an inner, sooner one cuts it further
        with within(Deadline.after(5.0)):
            assert bounded(cfg).timeout_s <= 5.0
    assert bounded(cfg) is cfg
    with within(Deadline.after(0.0)):
        assert bounded(cfg).timeout_s == 1.0  # a check always starts, then reports undecided


def test_shares_go_in_turn() -> None:
    d = Deadline.after(60.0)
    first = d.share(3)
    assert 19.0 < first.left() <= 20.0
    assert d.share(1).left() > 59.0
