import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UnsubscribeClaim {
  userId: string;
  category: string;
}

/**
 * The `{encodedParam}` of /unsubscribe links: `<payload>.<signature>`, both base64url, the
 * signature an HMAC-SHA256 of the payload under the app secret. It never expires (an old mail's
 * link must still work) and grants nothing but stopping or resuming that one category.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string | Buffer) {}

  sign(claim: UnsubscribeClaim): string {
    const payload = Buffer.from(`${claim.userId}:${claim.category}`).toString('base64url');
    return `${payload}.${this.signature(payload)}`;
  }

  /** The claim of a genuine token, or null for anything forged, altered or malformed. */
  verify(token: string): UnsubscribeClaim | null {
    if (token.length > 200) return null;
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length) return null;
    const expected = Buffer.from(this.signature(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const [userId, category, ...extra] = Buffer.from(payload, 'base64url')
      .toString('utf8')
      .split(':');
    if (!userId || !category || extra.length) return null;
    return { userId, category };
  }

  private signature(payload: string): string {
    // 128 bits of HMAC-SHA256 keep the link short (route parameters stop at 100 characters).
    return createHmac('sha256', this.secret)
      .update(`unsubscribe:${payload}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
