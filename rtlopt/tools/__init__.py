"""Starting tools: the ground floor every layer that runs a program uses.

- :class:`Tool` (name, the binary that runs, its version), :func:`require_tool` (honours
  ``RTLOPT_<NAME>``), :func:`require_tools`, :func:`tool_versions`, :func:`tool_paths`.
- :func:`run_tool` with :class:`Limits` (timeout, memory): the one subprocess runner;
  :class:`ToolRun` records what ran; :func:`raise_if_crashed` / :func:`crash_signal`: a run a
  signal killed is a tool failure (:mod:`rtlopt.tools._crash`).
- :func:`sandboxed` / :func:`configure_sandbox`: tools on candidate-derived text run under
  bubblewrap (:mod:`rtlopt.tools._sandbox`); ``run_tool`` wraps every run unless told not to.
- Process groups, signals, clean-ups and scratch folders (:mod:`rtlopt.tools._process`).
- Names and paths in tool scripts (:mod:`rtlopt.tools._script`): ``script_path``, ``argv_path``,
  ``yosys_id``, ``tcl_word``, ``sta_cell_name``, ``yosys_read_lines``, ``original_path``.

Imports nothing of rtlopt but :mod:`rtlopt.errors`.
"""

from rtlopt.tools._crash import crash_signal, raise_if_crashed
from rtlopt.tools._process import (
    SIGNAL_GRACE_S,
    check_not_stopping,
    child_setup,
    install_signal_handlers,
    kill_group,
    kill_live_groups,
    limited,
    live_groups,
    reap_group,
    register_cleanup,
    run_cleanups,
    scratch_dir,
    stopping,
    track_group,
    unregister_cleanup,
    untrack_group,
)
from rtlopt.tools._runner import (
    Limits,
    Tool,
    ToolRun,
    binary_id,
    remembered_version,
    require_tool,
    require_tools,
    run_tool,
    tool_env_key,
    tool_paths,
    tool_versions,
)
from rtlopt.tools._sandbox import (
    POLICY_ENV,
    SandboxUnavailable,
    bwrap_binary,
    configure_sandbox,
    sandbox_available,
    sandbox_policy,
    sandboxed,
)
from rtlopt.tools._script import (
    SIMPLE_IDENTIFIER,
    argv_path,
    check_define,
    is_safe_word,
    is_simple_identifier,
    link_root,
    original_path,
    script_path,
    sta_cell_name,
    tcl_word,
    yosys_id,
    yosys_read_lines,
)

__all__ = [
    "crash_signal",
    "raise_if_crashed",
    "POLICY_ENV",
    "SandboxUnavailable",
    "bwrap_binary",
    "configure_sandbox",
    "sandbox_available",
    "sandbox_policy",
    "sandboxed",
    "SIGNAL_GRACE_S",
    "SIMPLE_IDENTIFIER",
    "Limits",
    "Tool",
    "ToolRun",
    "argv_path",
    "binary_id",
    "check_define",
    "check_not_stopping",
    "child_setup",
    "install_signal_handlers",
    "is_safe_word",
    "is_simple_identifier",
    "kill_group",
    "kill_live_groups",
    "limited",
    "link_root",
    "live_groups",
    "original_path",
    "reap_group",
    "register_cleanup",
    "remembered_version",
    "require_tool",
    "require_tools",
    "run_cleanups",
    "run_tool",
    "script_path",
    "scratch_dir",
    "sta_cell_name",
    "stopping",
    "tcl_word",
    "tool_env_key",
    "tool_paths",
    "tool_versions",
    "track_group",
    "unregister_cleanup",
    "untrack_group",
    "yosys_id",
    "yosys_read_lines",
]
