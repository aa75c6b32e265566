"""The first load's GGUF conversion reports as rtlopt's own log lines, not transformers' tqdm bar
(issue 25, finding 8: its carriage returns spilled into piped logs)."""

from __future__ import annotations

import inspect
import logging

import pytest

gguf_utils = pytest.importorskip("transformers.modeling_gguf_pytorch_utils")

from rtlopt.policy._transformers import gguf_progress  # noqa: E402


def test_transformers_converts_gguf_tensors_through_its_module_tqdm() -> None:
    """What gguf_progress replaces is what transformers iterates the tensors with."""
    assert "tqdm(reader.tensors" in inspect.getsource(gguf_utils.load_gguf_checkpoint)


def test_gguf_conversion_progress_is_logged_without_carriage_returns(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    before = gguf_utils.tqdm
    with caplog.at_level(logging.INFO, logger="rtlopt.progress"), gguf_progress():
        seen = list(
            gguf_utils.tqdm(range(272), desc="Converting and de-quantizing GGUF tensors...")
        )
    assert seen == list(range(272)) and gguf_utils.tqdm is before
    lines = [r.getMessage() for r in caplog.records if "GGUF" in r.getMessage()]
    assert 10 <= len(lines) <= 11 and lines[-1].startswith(
        "converting the GGUF model (once; kept in the model cache): 272/272 tensors"
    )
    out = capsys.readouterr()
    assert "\r" not in out.out + out.err + "".join(lines)
