"""Robust extraction of the Verilog answer from a model's reply."""

from __future__ import annotations

import re

from rtlopt.verilog import first_module_start

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)
# An opening fence with an optional language tag, up to the next closing fence (or the end of
# the text when the answer was cut off by the token limit).
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_MODULE = re.compile(
    r"^[ \t]*(?:\(\*.*?\*\)\s*)?(?:macro)?module\b.*?\bendmodule\b(?:[ \t]*:[ \t]*[A-Za-z_]\w*)?",
    re.DOTALL | re.MULTILINE,
)
_LOOSE_MODULE = re.compile(r"\bmodule\s+[A-Za-z_][\w$]*.*?\bendmodule\b", re.DOTALL)
_HDL_TAGS = {"", "verilog", "systemverilog", "sv", "v", "vlog"}


def _drop_think(text: str) -> str:
    text = _THINK_BLOCK.sub("", text)
    # An unterminated <think> runs to the end: drop it all.
    m = _THINK_OPEN.search(text)
    if m is not None:
        text = text[: m.start()]
    # A stray closing tag (the template put <think> in the prompt): keep what follows.
    m = _THINK_CLOSE.search(text)
    if m is not None:
        text = text[m.end() :]
    return text


def in_thought(answer: str) -> bool:
    """Whether the answer ends inside an unterminated ``<think>`` block (a reasoning model cut
    off before it began to answer)."""
    text = _THINK_BLOCK.sub("", answer)
    return _THINK_OPEN.search(text) is not None


def _modules(text: str) -> list[str]:
    found = [m.group(0).strip("\n") for m in _MODULE.finditer(text)]
    if not found:  # e.g. "Here it is: module m(...); ... endmodule" on one line
        found = [m.group(0) for m in _LOOSE_MODULE.finditer(text)]
    return found


def extract_verilog(answer: str) -> str | None:
    """The Verilog in a model's answer, or None when it holds no ``module ... endmodule``.

    Handles ```` ```verilog ````/```` ```systemverilog ````/bare ```` ``` ```` fences,
    ``<think>...</think>`` reasoning (dropped, as is an unterminated ``<think>``), several fenced
    blocks (every block that contains a module is kept, in order, and their modules joined) and
    bare module text without fences. Text outside ``module ... endmodule`` is dropped, except
    compiler directives and declarations inside a fenced block that has a module (e.g.
    ```` `define ````), which stay. A ```` `timescale ```` line is dropped: models add one out
    of habit, and written back it would set the unit of delays of the repository's later files
    (``evaluate._placement`` refuses a candidate that changes it).
    """
    text = _drop_think(answer.replace("\r\n", "\n"))
    blocks: list[str] = []
    for m in _FENCE.finditer(text):
        tag = m.group(1).lower()
        body = m.group(2)
        if tag not in _HDL_TAGS and not _modules(body):
            continue
        mods = _modules(body)
        if mods:
            blocks.append(_keep_block(body))
    if blocks:
        return "\n\n".join(blocks).strip() + "\n"
    mods = _modules(text)
    if mods:
        return "\n\n".join(mods).strip() + "\n"
    return None


def _keep_block(body: str) -> str:
    """A fenced block from its first directive/module line to its last ``endmodule``."""
    mods = list(_MODULE.finditer(body)) or list(_LOOSE_MODULE.finditer(body))
    start = mods[0].start()
    # Keep directives (`timescale, `define, `include) and comments directly above the module.
    pre = body[:start].splitlines()
    kept: list[str] = []
    for line in reversed(pre):
        s = line.strip()
        if s.startswith("`timescale"):
            continue
        if not s or s.startswith(("`", "//")):
            kept.append(line)
            continue
        break
    head = "\n".join(reversed(kept))
    core = body[start : mods[-1].end()]
    return (head + "\n" + core).strip("\n") if head.strip() else core.strip("\n")


def unfinished_module(answer: str) -> str | None:
    """The text from the first ``module NAME`` of an answer that never finishes it (cut off,
    malformed) up to a closing fence, so the syntax stage's error count gives it partial
    credit (TTT-RTL's r_syn); None when the answer starts no module."""
    text = re.sub(r"<think>.*?(</think>|$)", "", answer, flags=re.S)
    start = first_module_start(text)
    if start is None:
        return None
    return text[start:].split("```", 1)[0].strip() + "\n"


def answer_code(answer: str) -> str | None:
    """What to evaluate for a model's answer: its Verilog (:func:`extract_verilog`), else an
    unfinished module (:func:`unfinished_module`), else None (no credit)."""
    return extract_verilog(answer) or unfinished_module(answer)
