import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, registerAccount, type TestAccount } from './support/accounts';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT, hasChromium, launchChromium } from './support/browser';
import { startMomentsServer, type RunningMomentsServer } from './support/server';
import { ensureWebBuild } from './support/webBuild';
import { t } from '../apps/web/src/messages/catalogue';

// Acceptance tests of the web app shell: real server, real build, real Chromium.
if (!hasChromium) console.warn('e2e/web-shell: /usr/bin/chromium is missing, skipping');

describe.skipIf(!hasChromium)('web app shell', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureWebBuild();
    [server, browser] = await Promise.all([startMomentsServer(), launchChromium()]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.stop();
  });

  async function openPage(
    viewport = DESKTOP_VIEWPORT,
    serviceWorkers: 'allow' | 'block' = 'allow',
  ): Promise<Page> {
    // Tests that intercept requests block the service worker: Playwright cannot see through it.
    const context = await browser.newContext({ viewport, baseURL: server.baseUrl, serviceWorkers });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  const pathOf = (page: Page) => {
    const url = new URL(page.url());
    return `${url.pathname}${url.search}${url.hash}`;
  };

  async function fillLogin(page: Page, account: TestAccount) {
    await page.locator('input[name=email]').fill(account.email);
    await page.locator('input[name=password]').fill(account.password);
    await page.locator('form button[type=submit]').click();
  }

  it('signs up, logs out and logs back in', async () => {
    const page = await openPage();
    const account = newAccount('signup');
    await page.goto('/login?type=signup');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Create your account' }).isVisible())
      .toBe(true);
    await page.locator('input[name=username]').fill(account.username);
    await fillLogin(page, account);

    await page.waitForURL('**/home');
    // Logged-in users get the welcome offer on home, and only one pop-up per visit
    // (the community chat and the yearly guard wait for later visits: e2e/walk.test.ts).
    await page
      .getByRole('dialog', { name: t('popup.welcome.label') })
      .getByRole('button', { name: 'Maybe later' })
      .click();
    // Once its closing animation is over, no second pop-up takes its place.
    await page.getByRole('dialog').first().waitFor({ state: 'detached' });
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('link', { name: `Account settings for ${account.username}` }).click();

    await page.waitForURL('**/settings/profile');
    expect(await page.getByTestId('profile-username').textContent()).toBe(account.username);
    expect(await page.getByTestId('profile-email').textContent()).toBe(account.email);
    // Credits show as the amount divided by 10.
    const info = (await (await page.context().request.get('/api/user/info')).json()) as {
      data: { entitlements: Array<{ feature: string; limit: number; usage: number }> };
    };
    const credit = info.data.entitlements.find((entitlement) => entitlement.feature === 'CREDIT');
    expect(credit).toBeDefined();
    const creditRow = page.getByTestId('entitlements').getByRole('row', { name: /^Credits/ });
    expect(await creditRow.getByRole('cell').nth(2).textContent()).toBe(
      String(Math.round(credit!.limit) / 10),
    );

    // The pop-ups remember being closed.
    await page.goto('/home');
    await page.getByRole('textbox', { name: 'Video link or search' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.goto('/settings/profile');
    await page.getByRole('button', { name: 'Log out' }).click();

    await page.waitForURL('**/home');
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    await page.goto('/settings/profile');
    await page.waitForURL('**/login?redirect=**');

    await fillLogin(page, account);
    await page.waitForURL('**/settings/profile');
    expect(await page.getByTestId('profile-email').textContent()).toBe(account.email);
  });

  it('shows field errors from the server: taken email, wrong password', async () => {
    const account = newAccount('taken');
    await registerAccount(server.baseUrl, account);
    const page = await openPage();
    await page.goto('/login?type=signup');
    await page.locator('input[name=username]').fill('someone else');
    await fillLogin(page, account);
    await page.getByText('An account with this email already exists').waitFor();

    await page.goto('/login');
    await fillLogin(page, { ...account, password: 'not-the-password-1' });
    await page.getByText('Email or password is incorrect.').waitFor();
    expect(pathOf(page)).toBe('/login');
  });

  it('changes the password, then deletes the account with its password, from the profile', async () => {
    const account = newAccount('leaving');
    await registerAccount(server.baseUrl, account);
    const page = await openPage();
    await page.goto('/login');
    await fillLogin(page, account);
    await page.waitForURL('**/home');
    await page.goto('/settings/profile');
    const card = page.getByTestId('account-security');
    const renewed = `${account.password}-renewed`;
    await card
      .getByLabel(t('pages.profile.account.currentPassword'))
      .first()
      .fill(account.password);
    await card.getByLabel(t('pages.profile.account.newPassword')).fill(renewed);
    await card.getByRole('button', { name: t('pages.profile.account.changePassword') }).click();
    await card.getByText(t('pages.profile.account.passwordChanged')).waitFor();

    await card.getByRole('button', { name: t('pages.profile.account.deleteAccount') }).click();
    const dialog = page.getByRole('dialog', {
      name: t('pages.profile.account.deleteConfirmTitle'),
    });
    const password = dialog.getByLabel(t('pages.profile.account.currentPassword'));
    const confirm = dialog.getByRole('button', { name: t('pages.profile.account.deleteForGood') });
    // The old password no longer counts: the account stays.
    await password.fill(account.password);
    await confirm.click();
    await dialog.getByText(t('pages.profile.account.wrongPassword')).waitFor();
    await password.fill(renewed);
    await confirm.click();
    await page.waitForURL('**/home');
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: renewed }),
    });
    expect(login.status).toBe(401);
  });

  it('returns to the protected page, with its query, after logging in', async () => {
    const account = newAccount('redirect');
    await registerAccount(server.baseUrl, account);
    const page = await openPage();
    await page.goto('/library/moments?sort=newest');
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/library/moments?sort=newest');

    await fillLogin(page, account);
    await page.waitForURL('**/library/moments?sort=newest');
    await page.getByRole('tab', { name: 'Moments', selected: true }).waitFor();
  });

  it('rewrites legacy links under /home/ and /<product>_share/', async () => {
    const page = await openPage();
    const cases: Array<[string, string]> = [
      ['/home/landing', '/invite/landing'],
      ['/clips_share/landing', '/invite/landing'],
      ['/home/sharesummary?id=abc123', '/s/abc123'],
      ['/moments_share/note?id=n7', '/s/n7?note=1'],
    ];
    for (const [legacy, expected] of cases) {
      await page.goto(legacy);
      await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe(expected);
    }
    // Targets that need login keep the rewritten address as the return path.
    await page.goto('/home/account/subscription');
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/settings/plan');

    const account = newAccount('legacy');
    await registerAccount(server.baseUrl, account);
    await page.goto('/home/support/userFeedback');
    await page.waitForURL('**/login?**');
    await fillLogin(page, account);
    await page.waitForURL('**/settings/faq?feedback=1');
    await page.getByText('Send us feedback').waitFor();
  });

  it('sends unknown routes to /home keeping query and hash', async () => {
    const page = await openPage();
    await page.goto('/no/such/page?url=https%3A%2F%2Fexample.com%2Fv&x=1#details');
    await expect
      .poll(() => pathOf(page))
      .toBe('/home?url=https%3A%2F%2Fexample.com%2Fv&x=1#details');
    // `url` prefills the home box.
    expect(await page.getByRole('textbox', { name: 'Video link or search' }).inputValue()).toBe(
      'https://example.com/v',
    );
  });

  it('uses the bottom menu on a phone and the side menu on a desktop', async () => {
    const phone = await openPage(PHONE_VIEWPORT);
    await phone.goto('/home');
    const bottomMenu = phone.getByRole('navigation', { name: 'Bottom menu' });
    await bottomMenu.waitFor();
    expect(await phone.getByRole('navigation', { name: 'Side menu' }).count()).toBe(0);
    expect(await bottomMenu.getByRole('link').allTextContents()).toEqual([
      'Home',
      'Library',
      'Notifications',
      'Settings',
    ]);

    const desktop = await openPage(DESKTOP_VIEWPORT);
    await desktop.goto('/privacy-policy');
    const sideMenu = desktop.getByRole('navigation', { name: 'Side menu' });
    await sideMenu.waitFor();
    expect(await desktop.getByRole('navigation', { name: 'Bottom menu' }).count()).toBe(0);
    expect(await sideMenu.getByRole('link').allTextContents()).toEqual([
      'Home',
      'Library',
      'Plan',
      'Invite friends',
      'Settings',
    ]);
    await desktop.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
  });

  it('remembers a dismissed update banner across a reload', async () => {
    const page = await openPage();
    await page.goto('/home');
    const banner = page.getByRole('region', { name: 'Announcement' });
    await banner.waitFor();
    expect(await banner.getByRole('link', { name: 'See yearly plans' }).getAttribute('href')).toBe(
      '/settings/plan?type=yearly',
    );
    await page.getByRole('button', { name: 'Dismiss announcement' }).click();
    await banner.waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    expect(await banner.count()).toBe(0);
  });

  it('registers the service worker', async () => {
    const page = await openPage();
    await page.goto('/home');
    const scriptUrl = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.scriptURL;
    });
    expect(scriptUrl).toBe(`${server.baseUrl}/sw.js`);
  });

  it('offers Retry when the server cannot be reached, and retries the request', async () => {
    const page = await openPage(DESKTOP_VIEWPORT, 'block');
    const account = newAccount('offline');
    const signup = await page.context().request.post('/api/auth/signup', { data: account });
    expect(signup.status()).toBe(200);

    // The session check (GET /api/auth/session) is the first request the app makes.
    await page.route('**/api/auth/session', (route) => route.abort('internetdisconnected'));
    await page.goto('/home?auto_parse_video=1');
    const dialog = page.getByRole('dialog', { name: 'Network Disconnected' });
    await dialog.waitFor();

    await page.unroute('**/api/auth/session');
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: `Account settings for ${account.username}` }).waitFor();
  });

  it('shows the update dialog when a page chunk fails to load, and reloads', async () => {
    const page = await openPage(DESKTOP_VIEWPORT, 'block');
    await page.route('**/assets/TermsOfUsePage-*.js', (route) => route.abort('failed'));
    await page.goto('/terms-of-use');
    const dialog = page.getByRole('dialog', { name: 'A new version is available' });
    await dialog.waitFor();

    await page.unroute('**/assets/TermsOfUsePage-*.js');
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Terms of Use' }).waitFor();
  });

  it('signs up for coming-soon updates, validating the form first', async () => {
    const page = await openPage(PHONE_VIEWPORT);
    await page.goto('/comingsoon');
    await page.getByRole('button', { name: 'Notify me' }).click();
    await page.getByText('Pick at least one tool.').waitFor();
    await page.getByText('Enter a valid email address.').waitFor();

    await page.getByRole('checkbox', { name: 'Video translator' }).check();
    await page.getByRole('textbox', { name: 'Email' }).fill('updates@example.com');
    await page.getByRole('button', { name: 'Notify me' }).click();
    await page.getByRole('heading', { name: "You're on the list" }).waitFor();
  });
});
