"""The picture of a profile: an icicle chart of area by hierarchy, the worst path marked.

Each row is one level of the instance tree, the top first; each instance is a box as wide as
its area with everything below it, so a box's children fill it from the left and what is left
of its width is its own logic. Boxes of modules on the worst timing path are drawn in red.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rtlopt.profile import Profile

__all__ = ["plot_profile"]

_PATH_COLOR = "#c0392b"
_COLORS = ("#1f4e79", "#2e75b6", "#5b9bd5", "#9dc3e6", "#bdd7ee")


def _totals(tree: Sequence[tuple[str, str, float]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for path, _mod, own in tree:
        parts = path.split("/") if path else []
        for cut in range(len(parts) + 1):
            key = "/".join(parts[:cut])
            total[key] = total.get(key, 0.0) + own
    return total


def _children(tree: Sequence[tuple[str, str, float]]) -> dict[str, list[str]]:
    kids: dict[str, list[str]] = {}
    for path, _mod, _own in tree:
        if path:
            parent = path.rsplit("/", 1)[0] if "/" in path else ""
            kids.setdefault(parent, []).append(path)
    return kids


def plot_profile(profile: Profile, path: Path, *, max_depth: int = 6) -> Path:
    """Draw the icicle chart of ``profile`` into ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    tree = profile.tree
    modules = {p: m for p, m, _ in tree}
    total = _totals(tree)
    kids = _children(tree)
    critical = {m.name for m in profile.modules if m.on_critical_path}
    top_area = total.get("", 0.0) or 1.0
    depth = min(max_depth, 1 + max((p.count("/") + 1 for p, _, _ in tree if p), default=0))
    fig, ax = plt.subplots(figsize=(12, 1.1 * depth + 1.4))
    boxes: list[tuple[str, float, int]] = [("", 0.0, 0)]
    while boxes:
        node, x, level = boxes.pop()
        width = total.get(node, 0.0) / top_area
        if width <= 0 or level >= depth:
            continue
        mod = modules.get(node, profile.top)
        hot = mod in critical
        face = _PATH_COLOR if hot else _COLORS[level % len(_COLORS)]
        ax.add_patch(
            Rectangle((x, -level - 1), width, 0.92, facecolor=face, edgecolor="white", lw=0.8)
        )
        label = f"{node.rsplit('/', 1)[-1] or mod}\n{mod} {width:.0%}" if node else mod
        if width > 0.06:
            ax.text(
                x + width / 2,
                -level - 0.54,
                label,
                ha="center",
                va="center",
                fontsize=8,
                color="white" if level < 3 or hot else "black",
                clip_on=True,
            )
        child_x = x
        for child in sorted(kids.get(node, []), key=lambda c: -total.get(c, 0.0)):
            boxes.append((child, child_x, level + 1))
            child_x += total.get(child, 0.0) / top_area
    ax.set_xlim(0, 1)
    ax.set_ylim(-depth - 0.1, 0.05)
    ax.set_yticks([-i - 0.54 for i in range(depth)], [f"level {i}" for i in range(depth)])
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "25%", "50%", "75%", "100%"])
    ax.set_xlabel(f"share of {profile.top}'s cell area ({profile.area_um2:,.0f} um^2)")
    handles: list[Any] = [Patch(color=_PATH_COLOR, label="on the worst timing path")]
    ax.legend(
        handles=handles, loc="upper right", bbox_to_anchor=(1.0, -0.08), fontsize=8, frameon=False
    )
    ax.set_title(
        f"{profile.top}: area by hierarchy (each box: an instance with everything below it)",
        fontsize=10,
    )
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    fig.savefig(path, dpi=120, bbox_inches="tight", facecolor="white")
    plt.close(fig)
    return path
