"""EDA tool wrappers: one module per tool plus the PPA flow.

- ``rtlopt.eda._run``: ``run_tool`` / ``require_tool`` / ``tool_versions`` (the only way to start
  a tool).
- ``rtlopt.eda.yosys``: synthesis to a liberty (Yosys binary or in-process pyosys).
- ``rtlopt.eda.opensta``: timing and power with OpenSTA.
- ``rtlopt.eda.flow``: ``PpaFlow``, synthesis + STA with long-lived workers.

Submodules are imported on use so that this package stays light.
"""

from __future__ import annotations

__all__ = ["flow", "opensta", "yosys"]
