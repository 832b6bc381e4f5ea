import type { VideoMeta } from '@moments/contract';
import { ERROR_CODES, UPLOAD_EXTENSIONS } from '@moments/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Upload, type DetailedError } from 'tus-js-client';
import { ApiError } from '../api/client';
import { t } from '../messages/catalogue';
import { apiErrorText } from '../messages/domain';

const TUS_ENDPOINT = '/api/upload/tus';
/** Resumable chunks: a dropped connection costs at most this much re-sending. */
const CHUNK_BYTES = 32 * 1024 * 1024;

/** Only mp4, mov and webm; checked here too so a wrong file fails before any byte is sent. */
export function uploadRejection(file: Pick<File, 'name' | 'size'>): ApiError | null {
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
    return new ApiError(
      ERROR_CODES.UNSUPPORTED_EXTENSION,
      t('ingest.upload.unsupported', {
        name: file.name,
        // "MP4, MOV or WEBM": the file types as a person names them, the last one after "or".
        extensions: new Intl.ListFormat('en', { type: 'disjunction' }).format(
          UPLOAD_EXTENSIONS.map((extension) => extension.toUpperCase()),
        ),
      }),
      400,
      true,
    );
  }
  if (file.size === 0) {
    return new ApiError(
      ERROR_CODES.EMPTY_FILE,
      t('ingest.upload.empty', { name: file.name }),
      400,
      true,
    );
  }
  return null;
}

/** The server answers tus failures (and the finished upload) with our usual envelope. */
function errorFromTus(error: Error | DetailedError): ApiError {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (response) {
    try {
      const envelope = JSON.parse(response.getBody()) as { code?: string; message?: string };
      if (envelope.code && envelope.message) {
        // Worded like every other API error: the catalogue's text where the code has one.
        return new ApiError(
          envelope.code,
          apiErrorText(envelope.code, envelope.message),
          response.getStatus(),
          true,
        );
      }
    } catch {
      // not JSON: fall through
    }
  }
  return new ApiError(ERROR_CODES.NETWORK_DISCONNECTED, t('ingest.upload.interrupted'), 0, true);
}

type UploadPhase = 'idle' | 'uploading' | 'paused' | 'processing' | 'done' | 'error';

export interface UploadState {
  phase: UploadPhase;
  fileName: string | null;
  bytesSent: number;
  bytesTotal: number;
  /** 0–100 */
  percent: number;
  video: VideoMeta | null;
  error: ApiError | null;
}

const IDLE: UploadState = {
  phase: 'idle',
  fileName: null,
  bytesSent: 0,
  bytesTotal: 0,
  percent: 0,
  video: null,
  error: null,
};

/**
 * A resumable (tus) upload of one video: progress, pause and resume; the finished upload's reply
 * is the video meta to start a task with.
 */
/** A finished upload as a page opened for it shows it (the file that was sent, at 100%). */
export function finishedUpload(video: VideoMeta, fileName: string | null): UploadState {
  return { ...IDLE, phase: 'done', percent: 100, fileName, video };
}

export function useVideoUpload(initial: UploadState = IDLE) {
  const [state, setState] = useState<UploadState>(initial);
  const uploadRef = useRef<Upload | null>(null);

  useEffect(() => () => void uploadRef.current?.abort(), []);

  const start = useCallback((file: File) => {
    void uploadRef.current?.abort();
    uploadRef.current = null;
    const rejection = uploadRejection(file);
    if (rejection) {
      setState({ ...IDLE, phase: 'error', fileName: file.name, error: rejection });
      return;
    }
    setState({ ...IDLE, phase: 'uploading', fileName: file.name, bytesTotal: file.size });
    const upload: Upload = new Upload(file, {
      endpoint: TUS_ENDPOINT,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000],
      removeFingerprintOnSuccess: true,
      metadata: { filename: file.name, filetype: file.type },
      onProgress: (bytesSent, bytesTotal) => {
        if (uploadRef.current !== upload) return;
        const percent = bytesTotal ? Math.min(100, Math.floor((bytesSent / bytesTotal) * 100)) : 0;
        setState((s) => ({
          ...s,
          bytesSent,
          bytesTotal,
          percent,
          // Every byte is there: the server now checks the video and makes its thumbnail.
          phase: s.phase === 'uploading' && bytesSent >= bytesTotal ? 'processing' : s.phase,
        }));
      },
      onSuccess: ({ lastResponse }) => {
        if (uploadRef.current !== upload) return;
        try {
          const envelope = JSON.parse(lastResponse.getBody()) as { data?: VideoMeta };
          if (!envelope.data?.url) throw new Error('no video meta');
          setState((s) => ({ ...s, phase: 'done', percent: 100, video: envelope.data! }));
        } catch {
          setState((s) => ({
            ...s,
            phase: 'error',
            error: new ApiError(ERROR_CODES.INTERNAL, t('ingest.upload.unconfirmed'), 500, true),
          }));
        }
      },
      onError: (error) => {
        if (uploadRef.current !== upload) return;
        setState((s) => ({ ...s, phase: 'error', error: errorFromTus(error) }));
      },
    });
    uploadRef.current = upload;
    // An interrupted upload of the same file (same fingerprint) continues where it stopped.
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      })
      .catch(() => undefined)
      .finally(() => {
        if (uploadRef.current === upload) upload.start();
      });
  }, []);

  const pause = useCallback(() => {
    const upload = uploadRef.current;
    if (!upload) return;
    void upload.abort();
    setState((s) => (s.phase === 'uploading' ? { ...s, phase: 'paused' } : s));
  }, []);

  const resume = useCallback(() => {
    const upload = uploadRef.current;
    if (!upload) return;
    setState((s) => ({ ...s, phase: 'uploading', error: null }));
    upload.start();
  }, []);

  const reset = useCallback(() => {
    void uploadRef.current?.abort();
    uploadRef.current = null;
    setState(IDLE);
  }, []);

  return { state, start, pause, resume, reset };
}
