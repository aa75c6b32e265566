"""Frontend: parse a repository, locate the target module, extract its interface.

Public API:
    load_design(target, module, project, *, include_dirs=(), defines={}) -> Design
    parse_text(text, name="candidate.v", frontend="pyslang") -> list[Module]
    parse_files(files, sources, frontend="pyslang") -> dict[str, Module]
    find_repo_root(path) -> Path
    override_roles(module, clocks, resets) -> Module  (harness.clocks / harness.resets)
    compare_constants(design) -> tuple[FieldConstant, ...]  (values inputs are compared with)
    Frontend, FrontendFactory (Protocols); FRONTENDS (registry kept in rtlopt.plugins;
    entry-point group ``rtlopt.frontends``)
"""

from rtlopt.frontend._base import (
    ClockedBlock,
    Condition,
    Frontend,
    FrontendFactory,
    FrontendResult,
    InstanceConnections,
    SyntaxProblem,
)
from rtlopt.frontend._clocks import override_roles
from rtlopt.frontend._compare import FieldConstant, compare_constants
from rtlopt.frontend._drivers import driven_inputs
from rtlopt.frontend._filelist_vars import guess_variables
from rtlopt.frontend._files import read_source, source_problem
from rtlopt.frontend._lazy import module_closure, module_users, with_module
from rtlopt.frontend._load import FRONTENDS, get_frontend, load_design, parse_files, parse_text
from rtlopt.frontend._params import (
    Parameterization,
    never_elaborated,
    parameterizations,
    probe_parameterizations,
    specialize,
)
from rtlopt.frontend._sources import (
    collect_sources,
    filelist_variables,
    find_repo_root,
    include_roots,
    parse_defines,
    read_filelist,
    read_project_filelist,
)
from rtlopt.frontend.model import Design, Module, Parameter, Port, SourceSet
from rtlopt.verilog import ModuleSpan, find_span, header_comment, module_spans, splice_module

__all__ = [
    "include_roots",
    "driven_inputs",
    "module_closure",
    "module_users",
    "with_module",
    "read_source",
    "source_problem",
    "FRONTENDS",
    "ClockedBlock",
    "Condition",
    "Design",
    "FieldConstant",
    "Frontend",
    "FrontendFactory",
    "FrontendResult",
    "InstanceConnections",
    "Module",
    "ModuleSpan",
    "Parameter",
    "Parameterization",
    "Port",
    "SourceSet",
    "SyntaxProblem",
    "collect_sources",
    "compare_constants",
    "find_repo_root",
    "find_span",
    "get_frontend",
    "header_comment",
    "never_elaborated",
    "parameterizations",
    "probe_parameterizations",
    "specialize",
    "load_design",
    "module_spans",
    "override_roles",
    "parse_defines",
    "parse_files",
    "parse_text",
    "read_filelist",
    "filelist_variables",
    "guess_variables",
    "read_project_filelist",
    "splice_module",
]
