import type { UserId } from '../../../db/schema.ts';
import type { Language } from '../../../locales/index.ts';
import type { Clock } from '../../clock.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../errors.ts';
import type { Reauthentication, SignedIn } from '../accounts/index.ts';
import type { AccountAlerts } from '../accountAlerts/index.ts';
import type { SessionService, SignInDevice } from '../sessions/index.ts';
import { validateInitData } from './initData.ts';
import { validateLoginWidget } from './loginWidget.ts';
import type { TelegramIdentity } from './telegramIdentity.ts';
import type { TelegramUserService } from './telegramUsers.ts';

const notConfigured = () => new AppError(503, 'telegram_not_configured', 'Telegram sign-in is not configured');
const malformed = () => badRequest('invalid_init_data', 'Malformed Telegram data');
const refused = () => unauthorized('Telegram authentication failed', 'telegram_auth_failed');
const expired = () => unauthorized('Telegram launch data expired', 'telegram_data_expired');

/** Sign-in with data Telegram signed: the Mini App's init data and the Login Widget's user object. */
export class TelegramAuthService {
  constructor(
    private readonly botToken: string | undefined,
    private readonly users: TelegramUserService,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
    private readonly reauth: Reauthentication,
    private readonly alerts: AccountAlerts,
  ) {}

  /** The sign-in, and the launch's start parameter (a `ref_<code>` invitation counts for a new account). */
  async signInWithInitData(initData: string, device: SignInDevice): Promise<SignedIn & { startParam?: string }> {
    if (!this.botToken) throw notConfigured();
    const result = validateInitData(initData, this.botToken, this.clock.now());
    // Expired data has its own code: the app tells the user to reopen it (an old chat button, a tab left open).
    if (!result.ok)
      throw result.reason === 'malformed' ? malformed() : result.reason === 'stale' ? expired() : refused();
    const signedIn = await this.signIn(result.data.user, device);
    // Telegram says the user let the bot write to them (opened from the attachment menu, a link with write
    // access asked, or granted before): the bot may reach them now, without waiting for a /start (issue 39).
    if (result.data.user.allowsWriteToPm === true)
      await this.users.markWriteAllowed(result.data.user.id, result.data.authDate);
    return result.data.startParam === undefined ? signedIn : { ...signedIn, startParam: result.data.startParam };
  }

  /** `language`: the one chosen in the app, for an account this creates (the widget sends no language of Telegram's). */
  async signInWithWidget(
    payload: Readonly<Record<string, string | number>>,
    device: SignInDevice,
    language?: Language,
  ): Promise<SignedIn> {
    if (!this.botToken) throw notConfigured();
    const result = validateLoginWidget(payload, this.botToken, this.clock.now());
    if (!result.ok) throw refused();
    return this.signIn(result.user, device, language);
  }

  /**
   * Links the Telegram account the Login Widget vouches for to the signed-in account (TelegramUserService.link),
   * once the owner has proven themselves (Reauthentication), and tells them.
   */
  async linkWithWidget(
    userId: UserId,
    sessionHash: string,
    payload: Readonly<Record<string, string | number>>,
    password: string | undefined,
  ): Promise<void> {
    if (!this.botToken) throw notConfigured();
    await this.reauth.confirm(userId, sessionHash, password);
    const result = validateLoginWidget(payload, this.botToken, this.clock.now());
    if (!result.ok) throw refused();
    if (await this.users.link(userId, result.user))
      await this.alerts.tell(userId, { change: 'method_added', method: 'telegram' });
  }

  private async signIn(identity: TelegramIdentity, device: SignInDevice, language?: Language): Promise<SignedIn> {
    const account = await this.users.ensure(identity, language);
    if (account.banned) throw forbidden('banned', 'This account has been blocked');
    return {
      userId: account.userId,
      session: await this.sessions.start(account.userId, device),
      created: account.created,
    };
  }
}
