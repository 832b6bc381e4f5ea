/**
 * What time it is, for rules that expire (sessions, realtime tickets). Services take it from the
 * composition root, so a test moves time forward instead of waiting for it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
