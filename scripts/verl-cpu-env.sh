#!/usr/bin/env bash
# A Python with verl 0.9.0's own code but without vLLM or a GPU: the tests check rtlopt's verl
# launch against verl's real config schema, validate_config and advantage-estimator registry
# (tests/integration/test_verl_launch.py). verl's full dependencies pull vLLM and CUDA
# builds of torch, so verl and the few packages its config and registry import go in with
# --no-deps on top of this machine's Python (torch CPU and Ray come from rtlopt's extras).
#
#   bash scripts/verl-cpu-env.sh [DIR]      # default DIR: /opt/rtlopt-verl-cpu
#   RTLOPT_VERL_PYTHON=DIR/bin/python pytest tests/integration/test_verl_launch.py
set -euo pipefail
dir="${1:-/opt/rtlopt-verl-cpu}"
python3 -m venv --system-site-packages "$dir"
"$dir/bin/pip" install -q --no-deps \
    verl==0.9.0 omegaconf==2.4.0 hydra-core==1.3.8 antlr4-python3-runtime==4.9.3 \
    tensordict==0.15.3 pyvers==0.2.3 codetiming==1.4.0 datasets==5.2.0 multiprocess==0.70.19 \
    pandas==3.1.1 pyarrow==26.0.1 dill==0.4.1 xxhash==4.1.0 fsspec
"$dir/bin/python" -c "import verl.utils.config, verl.trainer.ppo.core_algos; print('verl', verl.__version__, 'config and registry import')"
