"""Moments' long-lived speech server: faster-whisper behind JSON lines on stdin/stdout.

Started by packages/ai/src/asr/whisper-server.ts with the Python of .tools/venv (faster-whisper
pinned in scripts/setup/requirements.txt). It keeps the models it has loaded, so a task or a chunk
pays for imports and model loading once per process instead of once per run.

One request per line on stdin, handled one at a time:
  {"id": 1, "op": "detect", "audio": "/abs/a.wav", "model": "/abs/model-dir"}
  (the language of the file's first 30 s of speech)
  ("model" may also be a Whisper name such as "small" with "download_root": "/abs/hub-cache")
  {"id": 2, "op": "transcribe", "audio": "/abs/a.wav", "model": "/abs/model-dir",
   "language": "en" | null, "batch_size": 4, "beam_size": 1, "clip_s": 30}
  {"id": 3, "op": "ping"}
  {"id": 4, "op": "load", "model": "/abs/model-dir"}   (loads the model, answers {"ok": true})
Replies on stdout, one JSON object a line; a transcription also reports progress as it goes:
  {"id": 2, "progress": 12.5}                      (seconds of audio decoded so far)
  {"id": 2, "ok": true, "language": "en", "language_probability": 0.98, "segments": [...]}
  {"id": 2, "ok": false, "error": "..."}
Each segment is {"start", "end", "text", "words": [{"word", "start", "end", "probability"}]}
(seconds). Nothing else is written to stdout; faster-whisper's own logging goes to stderr.
"""

import argparse
import json
import sys
import traceback


def reply(message):
    sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def speech_clips(speech, max_s):
    """VAD speech pieces (samples) joined into clips of at most max_s seconds of wall time."""
    clips = []
    for piece in speech:
        start, end = piece["start"] / SAMPLE_RATE, piece["end"] / SAMPLE_RATE
        if clips and end - clips[-1]["start"] <= max_s:
            clips[-1]["end"] = end
        else:
            clips.append({"start": start, "end": end})
    return clips


def transcribe_batched(batched, audio_path, batch_size, clip_s, options):
    """
    faster-whisper's batched pipeline on clips of the speech, each decoded once. Where the decoder
    ends a clip early or skips a stretch (tiny.en lost 18 s of an 85 s reading so), the speech no
    word was heard in is decoded again as clips of its own, so no speech is silently dropped.
    """
    from faster_whisper.audio import decode_audio
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    audio = decode_audio(audio_path)
    speech = get_speech_timestamps(
        audio, VadOptions(min_silence_duration_ms=160, max_speech_duration_s=clip_s)
    )
    clips = speech_clips(speech, clip_s)
    if not clips:
        return iter(()), None
    options = {**options, "vad_filter": False}
    segments, info = batched.transcribe(
        audio, batch_size=batch_size, clip_timestamps=clips, **options
    )
    segments = list(segments)
    # Speech no word was heard in (a clip ended early, or skipped a stretch) is decoded again as
    # clips of its own, twice at most.
    for _ in range(2):
        missed = unheard_speech(speech, segments, clip_s)
        if not missed:
            break
        more, _ = batched.transcribe(audio, batch_size=batch_size, clip_timestamps=missed, **options)
        segments = sorted(segments + list(more), key=lambda s: s.start)
    return iter(segments), info


SAMPLE_RATE = 16000


def transcribe_sequential(model, audio_path, options, on_segment):
    """
    faster-whisper's sequential decoder over the VAD's speech, segments told to on_segment as they
    are decoded. The decoder sometimes jumps past a stretch of speech (whisper-base dropped 25 s of
    a five-minute talk so, keeping one garbled line of it): speech no word was heard in is decoded
    again as clips of its own, twice at most, as in the batched pipeline.
    """
    from faster_whisper.audio import decode_audio
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    audio = decode_audio(audio_path)
    segments, info = model.transcribe(audio, **options)
    heard = []
    for segment in segments:  # a generator: decoding happens while we read it
        heard.append(segment)
        on_segment(segment)
    speech = get_speech_timestamps(audio, VadOptions(min_silence_duration_ms=160))
    again = {
        **options,
        "vad_filter": False,
        # The clips are pieces of one talk: in the language already heard, each decoded alone.
        "language": options.get("language") or info.language,
        "condition_on_previous_text": False,
    }
    for _ in range(2):
        missed = unheard_speech(speech, heard, CLIP_S)
        if not missed:
            break
        bounds = [edge for clip in missed for edge in (clip["start"], clip["end"])]
        more, _ = model.transcribe(audio, clip_timestamps=bounds, **again)
        more = [segment for segment in more if segment.words]
        if not more:
            break
        heard = sorted(heard + more, key=lambda segment: segment.start)
    return heard, info


# The longest clip a missed stretch is decoded in (Whisper's window).
CLIP_S = 30


def unheard_speech(speech, segments, clip_s, min_s=1.0):
    """Stretches of VAD speech (seconds) of at least min_s that no heard word overlaps."""
    heard = sorted((w.start, w.end) for s in segments for w in (s.words or []))
    stretches = []
    for piece in speech:
        start, end = piece["start"] / SAMPLE_RATE, piece["end"] / SAMPLE_RATE
        cursor = start
        for word_start, word_end in heard:
            if word_end <= cursor or word_start >= end:
                continue
            if word_start - cursor >= min_s:
                stretches.append((cursor, word_start))
            cursor = max(cursor, word_end)
        if end - cursor >= min_s:
            stretches.append((cursor, end))
    clips = []
    for start, end in stretches:
        # Neighbouring stretches join into one clip, as the first pass joins speech.
        if clips and start - clips[-1]["end"] < 2.0 and end - clips[-1]["start"] <= clip_s:
            clips[-1]["end"] = end
        else:
            clips.append({"start": start, "end": end})
    return clips


# The head of the file the VAD reads first to find the speech the language is heard in.
DETECT_HEAD_S = 60
HEAD_MARGIN_S = 2


def first_speech(audio_path, window):
    """
    The first `window` samples of speech in the file, joined (Whisper hears the language in one
    30 s window). Only the head of the file is read and searched for speech when it holds that
    much: over a whole 80 s chunk the VAD took 0.65 s on a busy 2-core machine, over 30 s 0.13 s.
    """
    import numpy as np
    from faster_whisper.audio import decode_audio
    from faster_whisper.vad import get_speech_timestamps

    head_samples = DETECT_HEAD_S * SAMPLE_RATE
    head, whole = wav_head(audio_path, head_samples)
    audio = None
    if head is None:  # not the WAV the tasks extract: decoded whole
        audio = decode_audio(audio_path)
        head, whole = audio[:head_samples], len(audio) <= head_samples
    pieces = get_speech_timestamps(head)
    # The last piece may end early at the head's edge: the speech must fill the window past it.
    heard = sum(p["end"] - p["start"] for p in pieces)
    if not whole and heard < window + HEAD_MARGIN_S * SAMPLE_RATE:
        head = audio if audio is not None else decode_audio(audio_path)
        pieces = get_speech_timestamps(head)
    if not pieces:
        return np.array([], dtype=np.float32)
    return np.concatenate([head[p["start"] : p["end"]] for p in pieces])[:window]


def wav_head(audio_path, samples):
    """
    The first `samples` of a 16 kHz mono 16-bit WAV (the audio the tasks extract), as
    decode_audio gives them, and whether that is the whole file; (None, False) for any other file.
    """
    import wave

    import numpy as np

    try:
        with wave.open(audio_path, "rb") as wav:
            if (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) != (SAMPLE_RATE, 1, 2):
                return None, False
            frames = wav.readframes(samples)
            whole = not wav.readframes(1)
    except (wave.Error, EOFError, OSError):
        return None, False
    return np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768.0, whole


CUBLAS = "libcublas.so.12"


def load_cublas():
    """
    CTranslate2 4.8 (pinned) opens CUDA 12's cuBLAS by name at the first GPU matrix product, not at
    start. Find it on the loader's path or, failing that, in the pip package nvidia-cublas-cu12 in
    this venv, and load it now, so a missing cuBLAS is told at start rather than at the first
    transcription. Returns the path loaded, or raises OSError saying what to install.
    """
    import ctypes
    import glob
    import os

    try:
        ctypes.CDLL(CUBLAS, mode=ctypes.RTLD_GLOBAL)
        return CUBLAS
    except OSError:
        pass
    for site in sys.path:
        for lib_dir in glob.glob(os.path.join(site, "nvidia", "cublas", "lib")):
            candidate = os.path.join(lib_dir, CUBLAS)
            if os.path.exists(candidate):
                # cuBLASLt first: libcublas.so.12 needs it and finds it only on the loader's path.
                for lt in glob.glob(os.path.join(lib_dir, "libcublasLt.so.12*")):
                    ctypes.CDLL(lt, mode=ctypes.RTLD_GLOBAL)
                ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
                return candidate
    raise OSError(
        f"{CUBLAS} (CUDA 12 cuBLAS) cannot be loaded: install it into the tools venv with "
        "'.tools/venv/bin/pip install nvidia-cublas-cu12', or put its folder on LD_LIBRARY_PATH"
    )


def check_cuda():
    """`--check-cuda`: one JSON line saying whether this venv can transcribe on a GPU."""
    try:
        import ctranslate2

        count = ctranslate2.get_cuda_device_count()
        if count < 1:
            reply({"ok": False, "devices": 0, "error": "CTranslate2 sees no CUDA GPU"})
            return
        reply({"ok": True, "devices": count, "cublas": load_cublas()})
    except Exception as error:  # the caller turns this into the refusal at start
        reply({"ok": False, "error": f"{type(error).__name__}: {error}"})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check-cuda", action="store_true")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--compute-type", default="int8")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--max-models", type=int, default=2)
    args = parser.parse_args()
    if args.check_cuda:
        check_cuda()
        return
    if args.device == "cuda":
        load_cublas()

    # Imported after the arguments so a bad call fails fast; these imports take about a second.
    from faster_whisper import BatchedInferencePipeline, WhisperModel

    models = {}  # model path or name -> (WhisperModel, BatchedInferencePipeline), oldest first

    def model_for(request):
        name = request["model"]
        if name in models:
            entry = models.pop(name)
        else:
            # At most --max-models loaded (base for detection, tiny.en for English): memory stays bounded.
            while len(models) >= args.max_models:
                models.pop(next(iter(models)))
            model = WhisperModel(
                name,
                device=args.device,
                compute_type=args.compute_type,
                cpu_threads=args.threads,
                # A model name ("small") is fetched once into download_root; a directory never is.
                download_root=request.get("download_root"),
                local_files_only=not request.get("download_root"),
            )
            entry = (model, BatchedInferencePipeline(model=model))
        models[name] = entry
        return entry

    def detect(request):
        model, _ = model_for(request)
        speech = first_speech(request["audio"], model.feature_extractor.n_samples)
        language, probability, _ = model.detect_language(
            speech, vad_filter=False, language_detection_segments=1
        )
        return {"language": language, "language_probability": probability}

    def transcribe(request):
        model, batched = model_for(request)
        options = dict(
            language=request.get("language") or None,
            beam_size=int(request.get("beam_size") or 1),
            word_timestamps=True,
            vad_filter=True,
        )
        batch_size = int(request.get("batch_size") or 0)
        progress = lambda segment: reply({"id": request["id"], "progress": segment.end})
        if batch_size > 0:
            segments, info = transcribe_batched(
                batched, request["audio"], batch_size, float(request.get("clip_s") or 30), options
            )
            segments = list(segments)
            for segment in segments:
                progress(segment)
        else:
            segments, info = transcribe_sequential(model, request["audio"], options, progress)
        out = [
            {
                "start": segment.start,
                "end": segment.end,
                "text": segment.text,
                "words": [
                    {"word": w.word, "start": w.start, "end": w.end, "probability": w.probability}
                    for w in (segment.words or [])
                ],
            }
            for segment in segments
        ]
        return {
            "language": info.language if info else request.get("language"),
            "language_probability": info.language_probability if info else 0,
            "segments": out,
        }

    def load(request):
        # Loads the model ahead of the first chunk, while another process detects the language.
        model_for(request)
        return {}

    handlers = {
        "detect": detect,
        "transcribe": transcribe,
        "load": load,
        "ping": lambda _request: {},
    }
    reply({"ready": True})
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            handler = handlers.get(request.get("op"))
            if handler is None:
                raise ValueError(f"unknown op {request.get('op')!r}")
            reply({"id": request_id, "ok": True, **handler(request)})
        except Exception as error:  # one bad request must not end the process: reply with it
            traceback.print_exc(file=sys.stderr)
            reply({"id": request_id, "ok": False, "error": f"{type(error).__name__}: {error}"})


if __name__ == "__main__":
    main()
