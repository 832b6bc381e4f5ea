import { createHash, randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { AuthResult, LoginBody, SignupBody, UserInfo } from '@moments/contract';
import { ERROR_CODES } from '@moments/contract';
import { DEFAULT_PLAN, PLAN_ENTITLEMENTS, tierOfPlan } from '@moments/domain';
import { AppError } from '../../http/errors.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import { passwordWeakness } from './password-policy.js';

// Algorithm is a const enum (not importable under verbatimModuleSyntax): 2 is Argon2id.
const ARGON2_OPTIONS = { algorithm: 2 as Algorithm.Argon2id } as const;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A valid hash to verify against when the email is unknown, so timing does not reveal accounts. */
let decoyHash: Promise<string> | undefined;

export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessionTtlDays: number,
  ) {}

  async signup(body: SignupBody): Promise<AuthResult> {
    const weakness = passwordWeakness(body.password, body.email);
    if (weakness) throw new AppError(ERROR_CODES.WEAK_PASSWORD, 400, weakness);
    if (await this.users.findByEmail(body.email)) {
      throw new AppError(ERROR_CODES.EMAIL_TAKEN, 409, 'An account with this email already exists');
    }
    const passwordHash = await hash(body.password, ARGON2_OPTIONS);
    let user;
    try {
      user = await this.users.createWithEntitlements(
        { email: body.email, username: body.username, passwordHash, currentPlan: DEFAULT_PLAN },
        PLAN_ENTITLEMENTS[tierOfPlan(DEFAULT_PLAN)],
      );
    } catch (error) {
      // Two sign-ups racing for one email: the unique index decides.
      if (await this.users.findByEmail(body.email)) {
        throw new AppError(
          ERROR_CODES.EMAIL_TAKEN,
          409,
          'An account with this email already exists',
        );
      }
      throw error;
    }
    return { token: await this.startSession(user.id), user: await this.userInfo(user.id) };
  }

  async login(body: LoginBody): Promise<AuthResult> {
    const user = await this.users.findByEmail(body.email);
    decoyHash ??= hash('decoy-password-for-timing', ARGON2_OPTIONS);
    const valid = await verify(user?.passwordHash ?? (await decoyHash), body.password);
    if (!user || !valid) {
      throw new AppError(ERROR_CODES.INVALID_CREDENTIALS, 401, 'Wrong email or password');
    }
    return { token: await this.startSession(user.id), user: await this.userInfo(user.id) };
  }

  async logout(token: string): Promise<void> {
    await this.users.deleteSession(hashToken(token));
  }

  /** The user a session token belongs to, or null when it is unknown or expired. */
  async authenticate(token: string): Promise<{ userId: string } | null> {
    if (!token || token.length > 200) return null;
    const userId = await this.users.findSessionUser(hashToken(token), new Date());
    return userId ? { userId } : null;
  }

  async userInfo(userId: string): Promise<UserInfo> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    const grants = await this.users.listEntitlements(userId);
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
    return this.sessionTtlDays * 86_400;
  }

  private async startSession(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.sessionMaxAgeSeconds * 1000);
    await this.users.createSession(hashToken(token), userId, expiresAt);
    return token;
  }
}
