"""The build texts of a tree, and the names that tell a Verilog source and a documentation
file from them (the gate's build-file rules read these: :mod:`rtlopt.check._build_files`,
:mod:`rtlopt.check._named_files`, :mod:`rtlopt.check._metadata_reads`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

__all__ = ["VERILOG_SUFFIXES", "build_texts", "is_documentation", "is_verilog"]

VERILOG_SUFFIXES = (".v", ".sv", ".vh", ".svh", ".verilog", ".vlog", ".svi", ".svp")
_VERILOG = VERILOG_SUFFIXES
_DOC_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".pdf")
_DOC_STEMS = ("readme", "license", "licence", "copying", "authors", "changelog", "changes")

_SKIP_DIRS = {".git"}
_MAX_BYTES = 4_000_000


def is_documentation(rel: str) -> bool:
    """A documentation file by its name: Markdown, reStructuredText, AsciiDoc, PDF, or a
    README/LICENSE/COPYING/AUTHORS/CHANGELOG (any extension but a Verilog one)."""
    p = PurePosixPath(rel)
    suffix = p.suffix.lower()
    if suffix in _DOC_SUFFIXES:
        return True
    return p.stem.lower() in _DOC_STEMS and suffix in ("", ".txt")


def is_verilog(rel: str) -> bool:
    """A Verilog source or header by its suffix."""
    return PurePosixPath(rel).suffix.lower() in _VERILOG


def build_texts(tree: Path) -> Iterable[tuple[str, str]]:
    """(path, text) of each build text of ``tree``: a text file neither Verilog nor
    documentation nor a link, up to 4 MB (``.git`` aside); a YAML text's comments blank
    (:func:`rtlopt.check._yaml_text.yaml_code`)."""
    from rtlopt.check._yaml_text import is_yaml, yaml_code

    for root, dirs, names in os.walk(tree):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        for name in names:
            path = Path(root) / name
            rel = path.relative_to(tree).as_posix()
            if is_verilog(rel) or is_documentation(rel) or path.is_symlink():
                continue
            try:
                if path.stat().st_size > _MAX_BYTES:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if b"\0" in data[:8192]:
                continue
            text = data.decode("utf-8", "replace")
            yield rel, yaml_code(text) if is_yaml(rel) else text
