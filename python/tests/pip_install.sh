#!/usr/bin/env bash
# Python.PipInstall: the package as a user installs it, with no network.
#   python3 -m build --no-isolation --wheel   -> a wheel, installed into a
#       fresh venv (no system site packages) with pip --no-index
#   pip install SRC --no-build-isolation --no-index   (README's command) in
#       another fresh venv
#   python3 -m build --no-isolation --sdist   -> a tarball holding the C++ tree
# and in each venv, from a directory outside the tree, pgcodec decodes あ.
# Usage: pip_install.sh SOURCE_DIR SCRATCH_DIR PYTHON
set -euo pipefail
src=$1 scratch=$2 python=$3
rm -rf "$scratch"
mkdir -p "$scratch/outside"
build_dir=$scratch/cmake-build   # shared by both builds: the second is incremental

check_import() {  # venv
  local got
  got=$(cd "$scratch/outside" && "$1/bin/python" -c \
    "import pgcodec, sys; assert pgcodec.__file__.startswith(sys.prefix), pgcodec.__file__; print(pgcodec.lookup('sjis').decode(b'\x82\xa0'))")
  if [ "$got" != "あ" ]; then
    echo "pip_install: $1 printed '$got', not あ" >&2
    exit 1
  fi
}

echo "== python3 -m build --no-isolation --wheel"
(cd "$src" && "$python" -m build --no-isolation --wheel --outdir "$scratch/dist" -C build-dir="$build_dir")
wheels=("$scratch"/dist/pgcodec-*-cp3*-linux_*.whl)
[ -f "${wheels[0]}" ] || { echo "pip_install: no wheel in $scratch/dist" >&2; exit 1; }
"$python" -m venv "$scratch/venv-wheel"
"$scratch/venv-wheel/bin/python" -m pip install --no-index --quiet "${wheels[0]}"
check_import "$scratch/venv-wheel"

echo "== pip install . --no-build-isolation --no-index (fresh venv)"
"$python" -m venv "$scratch/venv-pip"
if (cd "$scratch/outside" && "$scratch/venv-pip/bin/python" -c "import pgcodec" 2>/dev/null); then
  echo "pip_install: pgcodec importable before installing (system site packages?)" >&2
  exit 1
fi
(cd "$src" && "$scratch/venv-pip/bin/python" -m pip install . --no-build-isolation --no-index --quiet \
  --config-settings build-dir="$build_dir")
check_import "$scratch/venv-pip"

echo "== python3 -m build --no-isolation --sdist"
(cd "$src" && "$python" -m build --no-isolation --sdist --outdir "$scratch/dist")
sdists=("$scratch"/dist/pgcodec-*.tar.gz)
tar -tzf "${sdists[0]}" > "$scratch/sdist-files"
for f in CMakeLists.txt pyproject.toml python/packaging/pgcodec_build.py src/codec.cpp include/pgcodec/codec.hpp; do
  grep -qx "pgcodec-[0-9.]*/$f" "$scratch/sdist-files" || { echo "pip_install: $f missing from the sdist" >&2; exit 1; }
done
echo "pip_install: ok"
