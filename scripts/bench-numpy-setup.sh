#!/usr/bin/env bash
# The numpy reference of the benchmarks (scripts/dpgd_numpy_port.py): a venv in
# target/bench-venv (git-ignored) with numpy from PyPI. Idempotent; prints the
# venv's python.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/bench-venv
if ! "$venv/bin/python" -c 'import numpy' 2>/dev/null; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    apt-get install -y python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check numpy >&2
fi
echo "$venv/bin/python"
