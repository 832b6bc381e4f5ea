import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a picture link in a mail keeps working (a mail is often opened days later). */
const MAIL_PICTURE_TTL_MS = 30 * 24 * 3600_000;

export type PictureTokenCheck = 'valid' | 'expired' | 'invalid';

/**
 * The `?sig=` of a picture address in a mail: `<expiry>.<signature>`, the signature an
 * HMAC-SHA256 of the picture's kind, id and expiry under the app secret. A mail client loads the
 * thumbnail with no session; the token grants that one picture until it expires, nothing else.
 */
export class PictureTokens {
  constructor(private readonly secret: string | Buffer) {}

  sign(kind: string, id: string, now = Date.now(), ttlMs = MAIL_PICTURE_TTL_MS): string {
    const expires = Math.floor((now + ttlMs) / 1000).toString(36);
    return `${expires}.${this.signature(kind, id, expires)}`;
  }

  /** Forged or altered tokens are `invalid`; genuine ones past their expiry `expired`. */
  check(kind: string, id: string, token: string, now = Date.now()): PictureTokenCheck {
    if (token.length > 100) return 'invalid';
    const [expires, signature, ...rest] = token.split('.');
    if (!expires || !signature || rest.length || !/^[0-9a-z]+$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.signature(kind, id, expires));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return parseInt(expires, 36) * 1000 < now ? 'expired' : 'valid';
  }

  private signature(kind: string, id: string, expires: string): string {
    return createHmac('sha256', this.secret)
      .update(`picture:${kind}:${id}:${expires}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
