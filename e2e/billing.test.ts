/**
 * Plans and billing end to end through the built-in TEST MODE checkout: real server,
 * real build, real Chromium. One user walks the whole money loop: buy, change, cancel, resume.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT, hasChromium, launchChromium } from './support/browser';
import { startMomentsServer, type RunningMomentsServer } from './support/server';
import { signedInContext } from './support/session';
import { ensureWebBuild } from './support/webBuild';
import { t } from '../apps/web/src/messages/catalogue';

if (!hasChromium) console.warn('e2e/billing: /usr/bin/chromium is missing, skipping');

const SUCCESS = 'Enjoy your subscription! Refresh the page to see the latest data.';

describe.skipIf(!hasChromium)('plans and billing in TEST MODE', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureWebBuild();
    [server, browser] = await Promise.all([
      startMomentsServer({ OPERATOR_EMAIL: 'ops@moments.example' }),
      launchChromium(),
    ]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.stop();
  });

  async function signedInPage(viewport = DESKTOP_VIEWPORT) {
    const signedIn = await signedInContext(browser, server.baseUrl, { viewport });
    contexts.push(signedIn.context);
    const page = await signedIn.context.newPage();
    page.setDefaultTimeout(15_000);
    return { page, ...signedIn };
  }

  const userInfo = async (page: Page) =>
    (
      (await (await page.context().request.get('/api/user/info')).json()) as {
        data: {
          subscription: { current_plan: string; cancel_at_period_end: boolean };
          entitlements: Array<{ feature: string; limit: number; usage: number }>;
        };
      }
    ).data;

  const planCard = (page: Page, plan: string) => page.getByTestId(`plan-card-${plan}`);
  const currentPlanIs = (page: Page, text: string) =>
    expect
      .poll(() => page.getByTestId('current-plan').textContent(), { timeout: 10_000 })
      .toBe(text);

  async function payOnCheckout(page: Page, card: string) {
    await page.waitForURL('**/billing/test-checkout/**');
    expect(await page.locator('.banner').textContent()).toContain('TEST MODE');
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
  }

  /** The subscription calls the page makes, in order. */
  function subscriptionCalls(page: Page) {
    const calls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/subscription/') && request.method() === 'POST') calls.push(path);
    });
    return calls;
  }

  /** From a free account's plan page: choose `plan`, tick the agreement, go to the checkout. */
  async function checkoutFromPlanPage(page: Page, plan: string, title: RegExp) {
    await planCard(page, plan).getByRole('button', { name: 'Choose plan' }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.getByRole('checkbox', { name: /I agree to the/ }).check();
    await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
  }

  const invoiceCount = async (page: Page) =>
    (
      (await (await page.context().request.get('/api/payment/invoice')).json()) as {
        data: unknown[];
      }
    ).data.length;

  it('walks free → standard → pro yearly → cancel → pro plus yearly, declines a card, contacts sales', async () => {
    const { page } = await signedInPage();
    const calls = subscriptionCalls(page);

    // Free → standard monthly through checkout.
    await page.goto('/settings/plan?type=monthly');
    await currentPlanIs(page, 'Free');
    expect(await planCard(page, 'free').getByRole('button').isDisabled()).toBe(true);
    await planCard(page, 'vip_month').getByRole('button', { name: 'Choose plan' }).click();
    const confirm = page.getByRole('dialog', { name: /Choose Standard/ });
    await confirm.getByRole('button', { name: 'Continue to checkout' }).click();
    await confirm.getByText(t('plan protocol tips')).waitFor();
    await confirm.getByRole('checkbox', { name: /I agree to the/ }).check();
    await confirm.getByRole('button', { name: 'Continue to checkout' }).click();
    await payOnCheckout(page, '4242 4242 4242 4242');
    await page.waitForURL('**/settings/plan**');
    await page.getByText(SUCCESS).waitFor();
    await currentPlanIs(page, 'Standard (monthly)');
    const history = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('moments.paymentSessions'))) ?? '[]',
    ) as string[];
    expect(history).toHaveLength(1);
    // The message shows for 5 s, then goes.
    await page.getByText(SUCCESS).waitFor({ state: 'detached', timeout: 8_000 });
    // Coming back with the same session id does not celebrate twice.
    await page.goto(`/settings/plan?type=monthly&session_id=${history[0]}`);
    await currentPlanIs(page, 'Standard (monthly)');
    await page.waitForTimeout(500);
    expect(await page.getByText(SUCCESS).count()).toBe(0);

    // Upgrade to pro yearly: the prorated preview, the agreement checkbox, then the change.
    await page.getByText('Yearly · save 50%').click();
    await planCard(page, 'svip_year').getByRole('button', { name: 'Choose plan' }).click();
    const upgrade = page.getByRole('dialog', { name: /Choose Pro/ });
    const shown = await upgrade.getByTestId('preview-amount').textContent();
    const preview = (await (
      await page.context().request.post('/api/subscription/preview_invoice', {
        data: { plan: 'svip_year' },
      })
    ).json()) as { data: { amount: number } };
    expect(shown).toBe(`$${(preview.data.amount / 100).toFixed(2)}`);
    await upgrade.getByRole('button', { name: 'Confirm and pay' }).click();
    await upgrade.getByText(t('plan protocol tips')).waitFor();
    await upgrade.getByRole('checkbox', { name: /I agree to the/ }).check();
    await upgrade.getByRole('button', { name: 'Confirm and pay' }).click();
    await currentPlanIs(page, 'Pro (yearly)');
    expect((await userInfo(page)).subscription.current_plan).toBe('svip_year');

    // Cancel with the survey's validation.
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const survey = page.getByRole('dialog', { name: /why are you cancelling/ });
    await survey.getByRole('button', { name: 'Continue' }).click();
    await survey.getByText('Please enter feedback').waitFor();
    await survey.getByRole('checkbox', { name: 'It is too expensive' }).check();
    await survey.getByRole('button', { name: 'Continue' }).click();
    await survey.getByText('Please enter content').waitFor();
    await survey.getByRole('textbox', { name: /It is too expensive: details/ }).fill('Over budget');
    await survey.getByRole('checkbox', { name: 'I only needed it for one project' }).check();
    await survey.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel your subscription?' })
      .getByRole('button', { name: 'Confirm cancellation' })
      .click();
    await page
      .getByRole('dialog', { name: 'Your subscription is cancelled' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.getByText('Cancels at the end of the period').waitFor();
    expect((await userInfo(page)).subscription.cancel_at_period_end).toBe(true);

    // Pro plus yearly while the cancellation is pending: stop_cancel first, then resubscribe.
    calls.length = 0;
    await planCard(page, 'ssvip_year').getByRole('button', { name: 'Choose plan' }).click();
    const proPlus = page.getByRole('dialog', { name: /Choose Pro plus/ });
    await proPlus.getByTestId('preview-amount').waitFor();
    await proPlus.getByRole('checkbox', { name: /I agree to the/ }).check();
    await proPlus.getByRole('button', { name: 'Confirm and pay' }).click();
    await currentPlanIs(page, 'Pro plus (yearly)');
    expect(calls.filter((call) => call !== '/api/subscription/preview_invoice')).toEqual([
      '/api/subscription/stop_cancel',
      '/api/subscription/resubscribe',
    ]);
    expect((await userInfo(page)).subscription).toEqual({
      current_plan: 'ssvip_year',
      cancel_at_period_end: false,
    });

    // A declined card: a clear error on the checkout page, and nothing changes.
    const before = await userInfo(page);
    await page.getByRole('button', { name: /^100 credits/ }).click();
    await payOnCheckout(page, '4000 0000 0000 0002');
    await page.getByRole('alert').getByText('Your card was declined.').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Nothing was charged.');
    expect(await userInfo(page)).toEqual(before);

    // Invoices are listed on the plan page with links to real invoice pages.
    await page.goto('/settings/plan');
    const invoiceLinks = page.getByRole('link', { name: 'View' });
    await invoiceLinks.first().waitFor();
    expect(await invoiceLinks.count()).toBe(3);
    const invoice = await page
      .context()
      .request.get((await invoiceLinks.first().getAttribute('href'))!);
    expect(invoice.status()).toBe(200);

    // Enterprise from ?showApiModal=true, with the form's validation.
    await page.goto('/settings/plan?showApiModal=true');
    const contact = page.getByRole('dialog', { name: 'Talk to us about Enterprise' });
    await contact.getByRole('button', { name: 'Send' }).click();
    expect(await contact.getByText('This field is required').count()).toBeGreaterThanOrEqual(5);
    await contact.getByLabel('First name').fill('Grace');
    await contact.getByLabel('Last name').fill('Hopper');
    await contact.getByLabel('Business email').fill('grace@');
    await contact.getByLabel('Company name').fill('Navy');
    await contact
      .getByRole('combobox', { name: 'Company size' })
      .or(contact.getByRole('textbox', { name: 'Company size' }))
      .first()
      .click();
    await page.getByRole('option', { name: '1001 - 5000' }).click();
    await contact.getByLabel('Company social channel').fill('youtube.com/@navy');
    await contact.getByLabel('Message').fill('Seats for the fleet');
    await contact.getByRole('button', { name: 'Send' }).click();
    await contact.getByText('Enter a valid business email').waitFor();
    await contact.getByLabel('Business email').fill('grace@navy.example');
    await contact.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/received your request/).waitFor();
    await contact.waitFor({ state: 'detached' });
  }, 240_000);

  it('a declined card on a plan checkout shows a clear error and changes nothing', async () => {
    const { page } = await signedInPage();
    await page.goto('/settings/plan?type=monthly');
    await currentPlanIs(page, 'Free');
    await page.getByText('No invoices yet.').waitFor();
    const before = await userInfo(page);

    await checkoutFromPlanPage(page, 'svip_month', /Choose Pro \(monthly\)/);
    await payOnCheckout(page, '4000 0000 0000 0002');
    // The checkout page says why, plainly, and stays on the form to try another card.
    const alert = page.getByRole('alert');
    await alert.getByText('Your card was declined.').waitFor();
    expect(await alert.textContent()).toContain('Nothing was charged.');
    expect(new URL(page.url()).pathname).toMatch(/^\/billing\/test-checkout\//);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Moments Pro (monthly)',
    );
    expect(await userInfo(page)).toEqual(before);
    expect(await invoiceCount(page)).toBe(0);

    // Back on the plan page: still free, no celebration, no invoice.
    await page.getByRole('link', { name: 'Cancel and go back' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/plan');
    expect(new URL(page.url()).searchParams.has('session_id')).toBe(false);
    // Back on the period of the plan the user was buying.
    expect(new URL(page.url()).searchParams.get('type')).toBe('monthly');
    await currentPlanIs(page, 'Free');
    await page.getByText('No invoices yet.').waitFor();
    expect(await page.getByText(SUCCESS).count()).toBe(0);
    expect(
      await planCard(page, 'svip_month').getByRole('button', { name: 'Choose plan' }).isEnabled(),
    ).toBe(true);
    expect(await userInfo(page)).toEqual(before);
    expect(await invoiceCount(page)).toBe(0);
  }, 120_000);

  it('a failed resubscribe while a cancellation is pending applies the cancellation again', async () => {
    const { page } = await signedInPage();
    const calls = subscriptionCalls(page);

    // Standard monthly, paid with a card that pays at checkout but declines later charges.
    await page.goto('/settings/plan?type=monthly');
    await currentPlanIs(page, 'Free');
    await checkoutFromPlanPage(page, 'vip_month', /Choose Standard \(monthly\)/);
    await payOnCheckout(page, '4000 0000 0000 0341');
    await page.waitForURL('**/settings/plan**');
    await page.getByText(SUCCESS).waitFor();
    await currentPlanIs(page, 'Standard (monthly)');

    // Cancel through the survey (reason 7: details optional).
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const survey = page.getByRole('dialog', { name: /why are you cancelling/ });
    await survey.getByRole('checkbox', { name: 'Other', exact: true }).check();
    await survey.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel your subscription?' })
      .getByRole('button', { name: 'Confirm cancellation' })
      .click();
    await page
      .getByRole('dialog', { name: 'Your subscription is cancelled' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.getByText('Cancels at the end of the period').waitFor();
    const before = await userInfo(page);
    expect(before.subscription).toEqual({ current_plan: 'vip_month', cancel_at_period_end: true });
    const invoicesBefore = await invoiceCount(page);
    expect(invoicesBefore).toBe(1);

    // Pro monthly while cancelling: stop_cancel, the resubscribe charge is declined, cancel again.
    calls.length = 0;
    await page.getByText('Monthly', { exact: true }).click();
    await planCard(page, 'svip_month').getByRole('button', { name: 'Choose plan' }).click();
    const change = page.getByRole('dialog', { name: /Choose Pro \(monthly\)/ });
    await change.getByTestId('preview-amount').waitFor();
    await change.getByRole('checkbox', { name: /I agree to the/ }).check();
    // After any change (a failed one too) the page reloads user info 1.5 s later.
    // (The web app reads the user through /api/auth/session, which visitors get without a 401.)
    const userInfoReloaded = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/auth/session',
    );
    await change.getByRole('button', { name: 'Confirm and pay' }).click();
    await change
      .getByRole('alert')
      .getByText('Your card was declined. Update your payment method and try again.')
      .waitFor();
    expect(calls.filter((call) => call !== '/api/subscription/preview_invoice')).toEqual([
      '/api/subscription/stop_cancel',
      '/api/subscription/resubscribe',
      '/api/subscription/cancel',
    ]);
    expect(await userInfo(page)).toEqual(before);

    // After the page reloads user info, and after a full reload: same plan, still cancelling.
    await change.getByRole('button', { name: 'Back', exact: true }).click();
    await userInfoReloaded;
    await currentPlanIs(page, 'Standard (monthly)');
    await page.getByText('Cancels at the end of the period').waitFor();
    await page.reload();
    await currentPlanIs(page, 'Standard (monthly)');
    await page.getByText('Cancels at the end of the period').waitFor();
    expect(await page.getByText(/You're now on/).count()).toBe(0);
    expect(await userInfo(page)).toEqual(before);
    expect(await invoiceCount(page)).toBe(invoicesBefore);
  }, 120_000);

  it('works at 390x844: cards fit the screen and a plan can be chosen', async () => {
    const { page } = await signedInPage(PHONE_VIEWPORT);
    await page.goto('/settings/plan?type=yearly');
    const card = planCard(page, 'vip_year');
    await card.waitFor();
    const box = (await card.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(await card.getByText('$4.99').count()).toBe(1);
    expect(await card.getByText('$13.99').count()).toBe(1);
    expect(await card.getByText(/83\.88 after the first year/).count()).toBe(1);
    await card.getByRole('button', { name: 'Choose plan' }).click();
    await page.getByRole('dialog', { name: /Choose Standard/ }).waitFor();
    // On a wide screen free and enterprise cards are 548 wide, the others 360.
    const wide = await signedInPage();
    await wide.page.goto('/settings/plan?type=yearly');
    await planCard(wide.page, 'enterprise').waitFor();
    expect((await planCard(wide.page, 'enterprise').boundingBox())!.width).toBe(548);
    expect((await planCard(wide.page, 'free').boundingBox())!.width).toBe(548);
    expect((await planCard(wide.page, 'svip_year').boundingBox())!.width).toBe(360);
  }, 120_000);
});
