#!/usr/bin/env bash
# Build Memory Desk's one-folder PyInstaller bundle: dist/memory-desk/memory-desk.
#
#   packaging/build-bundle.sh [--venv DIR] [--dist DIR] [--work DIR]
#
# --venv  the virtual environment to build in (default: build/bundle-venv, created on
#         first use). PyInstaller and Memory Desk are installed into it when missing;
#         an environment that already has Memory Desk (editable or not) is used as is.
# --dist  where the bundle goes (default: dist/)
# --work  PyInstaller's scratch folder (default: build/pyinstaller/)
# PYTHON  the interpreter used to create the venv (default: python3)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/build/bundle-venv"
dist="$repo/dist"
work="$repo/build/pyinstaller"

while [ $# -gt 0 ]; do
    case "$1" in
        --venv) venv="$2"; shift 2 ;;
        --dist) dist="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "build-bundle.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

if [ ! -d "$venv" ]; then
    echo "Creating $venv"
    "${PYTHON:-python3}" -m venv "$venv"
fi
if [ -x "$venv/bin/python" ]; then
    python="$venv/bin/python"
else
    python="$venv/Scripts/python.exe"  # Windows (Git Bash)
fi

if ! "$python" -c "import PyInstaller" 2>/dev/null; then
    "$python" -m pip install --quiet "pyinstaller>=6.6"
fi
if ! "$python" -c "import memory_desk.resources" 2>/dev/null; then
    "$python" -m pip install --quiet "$repo"
fi

# The spec bundles resources/ as it is in the checkout: compile the catalogues there first.
"$python" "$repo/packaging/translations.py" release >/dev/null

start=$(date +%s)
"$python" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$dist" --workpath "$work" "$repo/packaging/memory-desk.spec"
end=$(date +%s)

bundle="$dist/memory-desk"
echo "Built $bundle in $((end - start)) s ($(du -sh "$bundle" | cut -f1))"
