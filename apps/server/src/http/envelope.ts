import { SUCCESS_CODE } from '@moments/contract';

/** Every successful reply: `{ code: 0, message: 'ok', data }` (spec reads results as reply data). */
export const ok = <T>(data: T): { code: typeof SUCCESS_CODE; message: string; data: T } => ({
  code: SUCCESS_CODE,
  message: 'ok',
  data,
});
