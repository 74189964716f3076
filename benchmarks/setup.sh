#!/usr/bin/env bash
# Create the benchmark's own virtual environment, benchmarks/.venv (git-ignored): the project
# (editable, so the benchmark times the working tree) plus the Python peers we compare with.
# Peers live only here, never in the project's dependencies.
#   scorch            0.2.0  CoNLL-2012 metrics (MUC, B3, CEAFm, CEAFe, BLANC) on JSON clusters
#   coreference-eval  0.0.2  the e2e-coref metrics.py (MUC, B3, CEAFe, LEA) as a package ("corefeval")
#   udapi             0.5.2  what corefud-scorer (a checkout: github ufal/corefud-scorer) reads CoNLL-U with
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/pip" install --quiet --disable-pip-version-check)
"${pip[@]}" -e "$repo"
"${pip[@]}" "scorch==0.2.0" "coreference-eval==0.0.2" "udapi==0.5.2"
"$venv/bin/python" - <<'EOF'
import importlib.metadata as md
for name in ("coref-workbench", "scorch", "coreference-eval", "udapi", "numpy", "scipy"):
    print(f"{name:18} {md.version(name)}")
EOF
echo "benchmark venv ready: $venv"
