import { createHash, randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { AuthResult, LoginBody, SignupBody, UserInfo } from '@moments/contract';
import { ERROR_CODES } from '@moments/contract';
import { DEFAULT_PLAN } from '@moments/domain';
import { systemClock, type Clock } from '../../clock.js';
import { AppError, unauthorized } from '../../http/errors.js';
import type { RealtimeBus } from '../../realtime/bus.js';
import { disconnectMessage } from '../../realtime/bus.js';
import type { UserRow, UsersRepository } from './users.repository.js';
import type { CreditReads, Ledger } from '../billing/index.js';
import { passwordWeakness } from '@moments/domain/password';

// Algorithm is a const enum (not importable under verbatimModuleSyntax): 2 is Argon2id.
const ARGON2_OPTIONS = { algorithm: 2 as Algorithm.Argon2id } as const;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** Realtime tickets look different from session tokens, so CONNECT knows which it got. */
const TICKET_PREFIX = 'rt_';
const TICKET_TTL_MS = 60_000;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);
/** The token's SHA-256: what the database keeps of session tokens and mailed links. */
export { hashToken };

/** A valid hash to verify against when the email is unknown, so timing does not reveal accounts. */
let decoyHash: Promise<string> | undefined;

export interface AuthServiceOptions {
  users: UsersRepository;
  sessionTtlDays: number;
  /** Where ended sessions are announced, so every API process closes their sockets. */
  bus?: RealtimeBus;
  /** Runs after an account is created (referral record, welcome mail); must not throw. */
  onSignedUp?: (userId: string, referral: string | undefined) => Promise<void>;
  /** The ledger grants a new account its free plan; user info reads the buckets back. */
  credits?: { ledger: Ledger; reads: CreditReads };
  /** When sessions and tickets expire. */
  clock?: Clock;
}

export class AuthService {
  private readonly deps: AuthServiceOptions & { clock: NonNullable<AuthServiceOptions['clock']> };

  constructor(options: AuthServiceOptions) {
    this.deps = { ...options, clock: options.clock ?? systemClock };
  }

  async signup(body: SignupBody): Promise<AuthResult> {
    const weakness = passwordWeakness(body.password, body.email, body.username);
    if (weakness) throw new AppError(ERROR_CODES.WEAK_PASSWORD, 422, weakness);
    if (await this.deps.users.findByEmail(body.email)) {
      throw new AppError(ERROR_CODES.EMAIL_TAKEN, 409, 'An account with this email already exists');
    }
    const passwordHash = await hashPassword(body.password);
    let user;
    try {
      user = await this.deps.users.create(
        { email: body.email, username: body.username, passwordHash, currentPlan: DEFAULT_PLAN },
        (tx, created) =>
          this.deps.credits?.ledger.grant(
            created.id,
            { source: 'plan', plan: DEFAULT_PLAN, action: null, key: `signup:${created.id}` },
            { tx },
          ),
      );
    } catch (error) {
      // Two sign-ups racing for one email: the unique index decides.
      if (await this.deps.users.findByEmail(body.email)) {
        throw new AppError(
          ERROR_CODES.EMAIL_TAKEN,
          409,
          'An account with this email already exists',
        );
      }
      throw error;
    }
    await this.deps.onSignedUp?.(user.id, body.referral);
    return { token: await this.startSession(user.id), user: await this.userInfo(user.id) };
  }

  async login(body: LoginBody): Promise<AuthResult> {
    const user = await this.deps.users.findByEmail(body.email);
    decoyHash ??= hash('decoy-password-for-timing', ARGON2_OPTIONS);
    const valid = await verify(user?.passwordHash ?? (await decoyHash), body.password);
    if (!user || !valid || user.deletedAt) {
      throw new AppError(ERROR_CODES.INVALID_CREDENTIALS, 401, 'Wrong email or password');
    }
    return { token: await this.startSession(user.id), user: await this.userInfo(user.id) };
  }

  async logout(token: string): Promise<void> {
    const session = await this.authenticate(token);
    const sessionHash = hashToken(token);
    await this.deps.users.deleteSession(sessionHash);
    // Sockets opened with this session close on every API process.
    if (session) await this.deps.bus?.publish(session.userId, disconnectMessage(sessionHash));
  }

  /**
   * Ends the user's credentials: every session but `keepToken`'s (the caller's own, after a
   * password change) and the realtime sockets opened with them, on every API process. The one
   * place that ends a user's ways in: credentials added later (API tokens) are revoked here too.
   */
  async revokeCredentials(userId: string, options: { keepToken?: string } = {}): Promise<void> {
    const keep = options.keepToken ? hashToken(options.keepToken) : undefined;
    const ended = await this.deps.users.deleteSessionsOf(userId, keep);
    for (const sessionHash of ended) {
      await this.deps.bus?.publish(userId, disconnectMessage(sessionHash));
    }
  }

  /** 403 WRONG_PASSWORD unless `password` is the account's; asked before changes to it. */
  async assertPassword(userId: string, password: string): Promise<UserRow> {
    const user = await this.deps.users.findById(userId);
    if (!user || user.deletedAt) throw unauthorized();
    if (!(await verify(user.passwordHash, password))) {
      throw new AppError(ERROR_CODES.WRONG_PASSWORD, 403, 'The password is not right.');
    }
    return user;
  }

  async changePassword(
    userId: string,
    sessionToken: string,
    body: { current_password: string; new_password: string },
  ): Promise<void> {
    const user = await this.assertPassword(userId, body.current_password);
    const weakness = passwordWeakness(body.new_password, user.email, user.username);
    if (weakness) throw new AppError(ERROR_CODES.WEAK_PASSWORD, 422, weakness);
    await this.deps.users.updatePassword(userId, await hashPassword(body.new_password));
    // Whoever else held a session (a lost laptop, a thief) is out; this one stays.
    await this.revokeCredentials(userId, { keepToken: sessionToken });
  }

  /**
   * A single-use ticket (one minute) for the realtime CONNECT's `token` header, so the web app
   * never needs the httpOnly session token in JavaScript.
   */
  async createRealtimeTicket(sessionToken: string): Promise<string> {
    const session = await this.authenticate(sessionToken);
    if (!session) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    const ticket = TICKET_PREFIX + randomBytes(24).toString('base64url');
    await this.deps.users.createRealtimeTicket(
      hashToken(ticket),
      hashToken(sessionToken),
      session.userId,
      new Date(this.deps.clock.now().getTime() + TICKET_TTL_MS),
    );
    return ticket;
  }

  /**
   * The realtime CONNECT's `token`: a ticket (consumed) or, for API clients that hold one, a
   * session bearer token. `sessionKey` ties the socket to its session so logout can close it.
   */
  async authenticateRealtime(
    token: string,
  ): Promise<{ userId: string; sessionKey: string } | null> {
    if (!token || token.length > 200) return null;
    if (token.startsWith(TICKET_PREFIX)) {
      const ticket = await this.deps.users.consumeRealtimeTicket(
        hashToken(token),
        this.deps.clock.now(),
      );
      return ticket ? { userId: ticket.userId, sessionKey: ticket.sessionHash } : null;
    }
    const session = await this.authenticate(token);
    return session ? { userId: session.userId, sessionKey: hashToken(token) } : null;
  }

  /** The user a session token belongs to, or null when it is unknown or expired. */
  async authenticate(token: string): Promise<{ userId: string } | null> {
    if (!token || token.length > 200) return null;
    const userId = await this.deps.users.findSessionUser(hashToken(token), this.deps.clock.now());
    return userId ? { userId } : null;
  }

  async userInfo(userId: string): Promise<UserInfo> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    const grants = (await this.deps.credits?.reads.entitlements(userId, user.currentPlan)) ?? [];
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      edu_verified: user.eduVerified,
      entitlements: grants,
      subscription: {
        current_plan: user.currentPlan,
        cancel_at_period_end: user.cancelAtPeriodEnd,
      },
    };
  }

  get sessionMaxAgeSeconds(): number {
    return this.deps.sessionTtlDays * 86_400;
  }

  private async startSession(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.deps.clock.now().getTime() + this.sessionMaxAgeSeconds * 1000);
    await this.deps.users.createSession(hashToken(token), userId, expiresAt);
    return token;
  }
}
