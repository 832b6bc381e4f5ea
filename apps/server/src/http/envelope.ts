import type { ApiEnvelope } from '@moments/contract';
import { SUCCESS_CODE } from '@moments/contract';

/** Every successful reply: `{ code: 0, message: 'ok', data }` (spec reads results as reply data). */
export const ok = <T>(data: T): ApiEnvelope<T> => ({ code: SUCCESS_CODE, message: 'ok', data });
