"""docs/ARCHITECTURE.md stays true: every dotted code name it writes in backticks resolves in
rtlopt, and its layer diagram is the one the import-linter contracts of pyproject.toml check."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import tomllib
from pathlib import Path

from rtlopt.config import Config

REPO = Path(__file__).resolve().parents[3]
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"

# `a.b`, `a.b.c(...)`: identifiers joined by dots, optionally called
_DOTTED = re.compile(r"`((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*)(?:\([^`]*\))?(?:\s*->[^`]*)?`")
_FILE = re.compile(r"\.(py|v|sv|vh|svh|h|json|jsonl|md|toml|txt|png|csv|sh|gz|lib|yaml)$")
# "- `iverilog.py`: `compile_sources(...)`": a function named after its file
_IN_FILE = re.compile(r"`(\w+)\.py`[^`\n]*:\s*`(\w+)\(")


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in (REPO / "rtlopt").rglob("*.py"):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _defined(path: Path) -> dict[str, set[str]]:
    """Top-level names of a module, and the attributes of each class it defines."""
    tree = ast.parse(path.read_text())
    names: dict[str, set[str]] = {"": set()}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[""].add(node.name)
            attrs = names.setdefault(node.name, set())
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    attrs.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    attrs.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    attrs.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names[""].add(node.name)
        elif isinstance(node, ast.Assign):
            names[""].update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[""].add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names[""].update(a.asname or a.name for a in node.names)
    return names


def _config_keys() -> set[str]:
    cfg = Config()
    return {
        f"{section.name}.{f.name}"
        for section in dataclasses.fields(cfg)
        for f in dataclasses.fields(getattr(cfg, section.name))
    }


def _entry_point_groups() -> set[str]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    return set(data["project"]["entry-points"])


def _resolves(name: str, defined: dict[str, dict[str, set[str]]], known: set[str]) -> bool:
    if name in known:  # a setting (``flow.pdk``) or an entry-point group (``rtlopt.pdks``)
        return True
    parts = name.removeprefix("rtlopt.").split(".")
    modules = defined
    # a module path (``eda.iverilog``, ``_abcflow``: also by its last parts) and an attribute
    for i in range(len(parts), 0, -1):
        head, rest = parts[:i], parts[i:]
        for mod in modules:
            if mod == "rtlopt." + ".".join(head) or mod.endswith("." + ".".join(head)):
                if not rest or _attr_path(defined[mod], rest):
                    return True
    # a class anywhere in rtlopt (``Evaluator.evaluate``, ``Tool.argv``)
    return any(_attr_path(names, parts) for names in defined.values())


def _attr_path(names: dict[str, set[str]], rest: list[str]) -> bool:
    if rest[0] not in names[""]:
        return False
    return len(rest) == 1 or (len(rest) == 2 and rest[1] in names.get(rest[0], set()))


def test_every_dotted_name_in_the_architecture_resolves() -> None:
    defined = {m: _defined(p) for m, p in _modules().items()}
    known = _config_keys() | _entry_point_groups()
    text = ARCHITECTURE.read_text()
    names = {m.group(1) for m in _DOTTED.finditer(text)}
    names |= {f"{m.group(1)}.{m.group(2)}" for m in _IN_FILE.finditer(text)}
    names = {n for n in names if not _FILE.search(n) and not n.startswith(("rtlopt-", "docs."))}
    missing = sorted(n for n in names if not _resolves(n, defined, known))
    assert len(names) > 40, sorted(names)  # the pattern still finds the names
    assert not missing, f"docs/ARCHITECTURE.md names what rtlopt does not have: {missing}"


def _diagram_floors() -> list[set[str]]:
    text = ARCHITECTURE.read_text()
    block = re.search(r"\n\n((?: {4}.*->.*\n)+)", text)
    assert block, "docs/ARCHITECTURE.md lost its layer diagram"
    floors = " ".join(block.group(1).split()).split("->")
    return [{n.strip() for n in f.split("/") if n.strip()} for f in floors]


def _contract_floors() -> tuple[list[set[str]], set[str]]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    contracts = data["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "layers")["layers"]
    floors = [{n.strip(" ()") for n in re.split(r"[|:]", layer)} for layer in layers]
    floors.reverse()  # bottom first, as the diagram reads
    return floors[1:], floors[0]


def test_the_diagram_is_the_import_contract() -> None:
    floors, ground = _contract_floors()
    assert _diagram_floors() == floors
    listed = re.search(
        r"Ground floor[^\n]*\n((?:- `rtlopt\.[\w.]+`.*\n)+)", ARCHITECTURE.read_text()
    )
    assert listed, "docs/ARCHITECTURE.md lost its list of ground-floor modules"
    assert set(re.findall(r"^- `rtlopt\.([\w.]+)`", listed.group(1), flags=re.M)) == ground


def test_the_names_are_importable_modules() -> None:
    """The contracts name real packages (a renamed one would make a layer silently empty)."""
    floors, ground = _contract_floors()
    for name in set().union(*floors, ground) - {"formal"}:
        importlib.import_module(f"rtlopt.{name}")
