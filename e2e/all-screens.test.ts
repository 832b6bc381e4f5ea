import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import type { Job, Moment, Note, Task } from '@moments/contract';
import { hasYtDlp } from '@moments/media/ingest';
import { serveFiles, type ServedFiles } from '@moments/media/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount } from './support/accounts';
import { axeViolations } from './support/axe';
import { apiClient, runLinkTask, type ApiCall } from './support/api';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT, hasChromium } from './support/browser';
import { REPO_ROOT } from './support/paths';
import { signedInContext } from './support/session';
import { startTalkStage, type TalkStage } from './support/talk';
import { rawKeysIn, t } from '../apps/web/src/messages/catalogue';

// Acceptance of every screen: every route of the app's route table, reached from the menus on a
// desktop and a phone viewport, screenshotted (test-results/screens/) and checked by axe-core
// in the page for accessibility violations of any impact (minor and moderate too). Real server, build, Chromium and
// a real task (so the task, moment and job screens show real content). No screen shows
// a raw message key, and no anonymous screen logs a console error.

// About three minutes and a half, four topics of about 50 s one after another (bread, coffee, knives, herbs),
// so the summary has several chapters to find.
const TALK = `Welcome to the kitchen show. Today we bake a simple loaf of bread at home.
You need flour, water, salt and a little yeast. Mix them in a big bowl until the dough comes together.
Knead the dough for ten minutes, until it feels smooth and springs back when you press it.
Now the secret: let the dough rest overnight in the fridge. Time does the work for you.
The cold slows the yeast down, so the flavour has hours to develop.
In the morning, shape the loaf, let it rise for an hour, and bake it in a very hot oven.
A tray of water on the bottom shelf gives you steam, and steam gives you a shiny crust.
The crust will crackle as it cools. That sound means you did everything right.
Wait an hour before you slice it, because the inside is still baking while the loaf cools.
Wrapped in a linen towel, the bread stays fresh for two or three days.
Next, let us talk about coffee. Buy whole beans from a local roaster and grind them just before you brew.
Ground coffee goes stale within days, because the oils that carry the flavour escape into the air.
Keep the beans in a sealed jar, away from light and heat, and never in the freezer door.
Use water just off the boil, and weigh your beans: fifteen grams for every quarter litre is a good start.
Pour a little water first and wait half a minute, so the fresh grounds can bloom and release their gas.
If the cup tastes bitter, grind coarser. If it tastes sour, grind finer.
A clean filter and a rinsed pot matter more than an expensive machine.
Drink it within twenty minutes, since coffee kept warm on a hot plate turns flat and burnt.
And if you take milk, warm it gently, never let it boil.
Now a word about knives. A sharp knife is safer than a dull one, because it does not slip off the onion.
Hold the handle firmly, and curl the fingers of your other hand, so the blade meets only your knuckles.
Hone the edge on a steel every week, and send the knife to a sharpener once or twice a year.
Never put a good knife in the dishwasher. The heat and the rattling ruin the edge and crack the handle.
Wash it by hand, dry it at once, and keep it on a magnetic strip, not loose in a drawer.
Cut on a wooden or plastic board, never on glass or stone, which dull the edge in a few strokes.
A good chef's knife and a small paring knife are all most home cooks ever need.
Buy them one at a time, and hold them in the shop before you pay.
Let us move to the window sill, where a small herb garden can grow all year.
Basil wants sun and warmth, parsley is happy in half shade, and mint spreads so fast it needs a pot of its own.
Water the herbs when the soil feels dry, and pick the top leaves often, so the plants grow bushy instead of tall.
Turn the pots every few days, because the plants lean towards the light.
In winter, the sill by a radiator is too dry, so mist the leaves or move the pots.
Fresh herbs lift a simple dish more than any spice from a jar.
Chop them at the last moment, and add soft herbs like basil only after the pan leaves the heat.
What you cannot use, freeze in an ice cube tray with a little olive oil.
That is all for today. Thanks for watching the kitchen show.`;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/all-screens: skipping, missing ${missing.join(', ')}`);

const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screens');
/** Waits until the page stopped loading: network quiet and no loader left on screen. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page
    .locator('.mantine-Loader-root, [data-loading=true]')
    .first()
    .waitFor({ state: 'hidden', timeout: 20_000 })
    .catch(() => {});
  // Mantine transitions (tabs, modals) run as CSS transitions: wait until none runs, however
  // slow a busy machine makes them (endless ones, a skeleton's shimmer, never end).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((animation) => animation.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => {});
  await page.waitForTimeout(250);
}

describe.skipIf(missing.length > 0)('all screens from the menus, with axe', () => {
  let stage: TalkStage;
  let browser: Browser;
  let baseUrl: string;
  let dataDir: string;
  let account: TestAccount;
  let token: string;
  let call: ApiCall;
  let task: Task;
  let questionTask: Task;
  let moment: Moment;
  let job: Job;
  let inviteCode: string;
  let failedTask: Task;
  let note: Note;
  let summarySharePath: string;
  let noteSharePath: string;
  let clipSharePath: string;
  let brokenFiles: ServedFiles | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-e2e-screens-'));
    await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
    stage = await startTalkStage(TALK, 'kitchen-show.mp4', { DATA_DIR: dataDir });
    browser = stage.browser;
    baseUrl = stage.server.baseUrl;
    call = apiClient(baseUrl, () => token);

    account = newAccount('screens');
    const signup = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    token = ((await signup.json()) as { data: { token: string } }).data.token;
    task = await runLinkTask(call, { url: stage.videoUrl, title: 'The kitchen show: bread' });
    expect(task.status).toBe('DONE');
    const moments = await call<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    expect(moments.length).toBeGreaterThan(0);
    moment = moments[0]!;
    // A question about the same video: a second task of one video, whose answers are moments
    // the first task found too (the home search shows that video once, and no moment twice).
    const asked = await call<Task>(
      'POST',
      `/api/highlight_moment/task/start?url_source=direct&source_lang=en&query=${encodeURIComponent(
        'How long should the dough rest?',
      )}&root_task_id=${task.id}`,
      task.video,
    );
    for (let i = 0; i < 240; i++) {
      questionTask = await call<Task>('GET', `/api/highlight_moment/task?id=${asked.id}`);
      if (questionTask.status === 'DONE' || questionTask.status === 'ERROR') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(questionTask!.status).toBe('DONE');
    job = await call<Job>('POST', '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: moment!.id,
    });
    inviteCode = (await call<{ code: string }>('GET', '/api/invite/info')).code;
    // Real content for the notes and shared pages, made through the API the web app calls: a
    // note from the task's summary, the summary and the note shared as unlisted links, and the
    // moment published to the home shelf (so the home page and anonymous visitors reach it).
    note = await call<Note>('POST', '/api/note', { from: 'summary', id: task.id });
    summarySharePath = (
      await call<{ path: string }>('POST', `/api/summary/share?task_id=${task.id}`)
    ).path;
    noteSharePath = (await call<{ path: string }>('POST', `/api/note/share?id=${note.id}`)).path;
    await call('POST', `/api/highlight_moment/share?id=${moment.id}`, { publish: true });
    // The export, once rendered, shared as a public clip page.
    for (let done = false; !done;) {
      job = await call<Job>('GET', `/api/job/${job.job_id}`);
      done = job.status !== 'IN_PROGRESS';
      if (!done) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    clipSharePath = (await call<{ path: string }>('POST', `/api/job/share?id=${job.job_id}`)).path;
    // A link that answers with an .mp4 that is no video: the task starts, then fails.
    await fs.writeFile(path.join(dataDir, 'broken-recording.mp4'), randomBytes(256 * 1024));
    brokenFiles = await serveFiles(dataDir);
    failedTask = await runLinkTask(call, { url: `${brokenFiles.url}/broken-recording.mp4` });
    expect(failedTask.status).toBe('ERROR');
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await stage?.close();
    await brokenFiles?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** The welcome mail the outbox holds for `email` (mail is written there without SMTP_URL). */
  async function welcomeMailTo(email: string): Promise<{ text: string }> {
    const outbox = path.join(dataDir, 'outbox');
    for (let i = 0; i < 50; i++) {
      for (const name of await fs.readdir(outbox).catch(() => [] as string[])) {
        const mail = JSON.parse(await fs.readFile(path.join(outbox, name), 'utf8')) as {
          to: string;
          category: string;
          text: string;
        };
        if (mail.to === email && mail.category === 'account') return mail;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no welcome mail to ${email}`);
  }

  type Step = { name: string; path: RegExp; go(page: Page): Promise<void> };

  /** Visits every step in order; returns the problems found (wrong place, axe violations). */
  async function tour(page: Page, viewport: string, steps: Step[]): Promise<string[]> {
    const problems: string[] = [];
    for (const step of steps) {
      await step.go(page);
      await page.waitForURL(step.path).catch(() => {
        problems.push(`${viewport} ${step.name}: at ${page.url()}, expected ${step.path}`);
      });
      await settled(page);
      await page.screenshot({
        path: path.join(SCREENSHOT_DIR, `${viewport}-${step.name}.png`),
        fullPage: true,
      });
      for (const violation of await axeViolations(page)) {
        problems.push(`${viewport} ${step.name}: ${violation}`);
      }
      // Every text goes through the message catalogue; a key on screen is a bug.
      for (const key of rawKeysIn(await page.locator('body').innerText())) {
        problems.push(`${viewport} ${step.name}: shows the raw message key "${key}"`);
      }
    }
    return problems;
  }

  type Go = Step['go'];
  /**
   * Opens a URL as a person types or pastes it. Used only for entry points: the first page, links
   * that arrive from outside the app (a shared link, a mail, an invite) and routes no menu or link
   * of the app leads to; every other screen is reached by clicking.
   */
  const goto =
    (url: string): Go =>
    async (page) => {
      await page.goto(url);
    };
  const click =
    (role: 'link' | 'tab' | 'button', name: string | RegExp, within?: string): Go =>
    async (page) => {
      const scope = within ? page.locator(within) : page;
      await scope
        .getByRole(role, { name, exact: typeof name === 'string' })
        .first()
        .click();
    };
  /** Several clicks in a row (e.g. a menu, then a link on the page it opens). */
  const inOrder =
    (...gos: Go[]): Go =>
    async (page) => {
      for (const go of gos) await go(page);
    };
  /** Types into the home page's box and presses Search once the box reads it as keywords. */
  const searchFromHome =
    (text: string): Go =>
    async (page) => {
      await page.getByRole('textbox', { name: 'Video link or search' }).fill(text);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
    };
  const closeDialog: Go = async (page) => {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').first().waitFor({ state: 'hidden' });
  };
  /** Confirms a plan on the plan page without ticking the agreement. */
  const confirmWithoutAgreement: Go = async (page) => {
    await page.getByRole('button', { name: 'Choose plan' }).first().click();
    const confirm = page.getByRole('dialog', { name: /^Choose/ });
    await confirm.getByRole('button', { name: /Continue to checkout|Confirm and pay/ }).click();
    await confirm.getByText(t('plan protocol tips')).waitFor();
  };
  /** The published moment's card on the home page's "Shared moments" shelf. */
  const shelfMoment: Go = async (page) => {
    await page
      .getByRole('region', { name: 'Shared moments' })
      .getByRole('link', { name: moment.title })
      .first()
      .click();
  };
  /** A button or link on the task's card in the library's video task list. */
  const onTaskCard =
    (name: string): Go =>
    async (page) => {
      await page
        .locator(`[data-testid="task-row"][data-task-id="${task.id}"]`)
        .getByRole('link', { name, exact: true })
        .click();
    };

  /** Screens that need a login, reached from the side menu (desktop) or bottom/top bar (phone). */
  function signedInSteps(phone: boolean): Step[] {
    const menu = phone ? 'nav[aria-label="Bottom menu"]' : 'nav[aria-label="Side menu"]';
    const toLibrary = click('link', 'Library', menu);
    return [
      // Entry point: the address a person types.
      { name: 'home', path: /\/home$/, go: goto('/home') },
      { name: 'search-result', path: /\/search\/result\?query=bread/, go: searchFromHome('bread') },
      {
        // A video link pasted into the search box of the results opens its video result.
        name: 'search-video-result',
        path: /\/search\/result\/video\/result\?url=/,
        go: async (page) => {
          const search = page.getByRole('search');
          await search.getByRole('textbox', { name: 'Search' }).fill(stage.videoUrl);
          await search.getByRole('button', { name: 'Search' }).click();
        },
      },
      {
        // Entry point: no link of the app leads here; it is where a link carrying ?url=
        // arrives from outside, so it is opened the way a pasted link is.
        name: 'home-video-result',
        path: /\/home\/video\/result\?url=/,
        go: goto(`/home/video/result?url=${encodeURIComponent(stage.videoUrl)}`),
      },
      {
        name: 'moment-view',
        path: new RegExp(`/home/moment/${moment.id}$`),
        go: inOrder(click('link', 'Home', menu), shelfMoment),
      },
      {
        name: 'task-moments',
        path: new RegExp(`/video/${task.id}/moments\\?moment=`),
        go: click('link', 'All moments of this video'),
      },
      {
        name: 'clip-editor',
        path: new RegExp(`/moment/${moment.id}/clip$`),
        go: async (page) => {
          await page
            .locator(`[data-testid="moment-card"][data-moment-id="${moment.id}"]`)
            .getByRole('link', { name: 'Edit clip' })
            .click();
        },
      },
      { name: 'library-videoTasks', path: /\/library\/videoTasks$/, go: toLibrary },
      {
        name: 'task-summary',
        path: new RegExp(`/video/${task.id}/summary$`),
        go: onTaskCard('Summary'),
      },
      {
        name: 'task-captions',
        path: new RegExp(`/video/${task.id}/captions$`),
        go: inOrder(toLibrary, onTaskCard('Captions')),
      },
      {
        name: 'library-moments',
        path: /\/library\/moments$/,
        go: inOrder(toLibrary, click('tab', 'Moments')),
      },
      { name: 'library-projects', path: /\/library\/projects$/, go: click('tab', 'Projects') },
      {
        name: 'job',
        path: new RegExp(`/job/${job.job_id}$`),
        go: click('link', `Open ${job.title}`),
      },
      {
        name: 'library-notes',
        path: /\/library\/notes$/,
        go: inOrder(toLibrary, click('tab', 'Notes')),
      },
      {
        name: 'note-detail',
        path: new RegExp(`/note/detail/${note.id}$`),
        // The note's entry in the Notes tab: its title, then when it was edited.
        go: async (page) => {
          await page.getByRole('link', { name: note.title }).first().click();
        },
      },
      // Entry point: /moments is a known route; no menu or link of the app leads to it.
      { name: 'moments', path: /\/moments$/, go: goto('/moments') },
      {
        // Entry point: a mistyped or stale address of a video's summary.
        name: 'summary-not-found',
        path: /\/video\/[^/]+\/summary$/,
        go: goto('/video/00000000-0000-4000-8000-000000000000/summary'),
      },
      phone
        ? {
            name: 'notification',
            path: /\/notification$/,
            go: click('link', 'Notifications', menu),
          }
        : {
            name: 'notification',
            path: /\/notification$/,
            // The header bell's dropdown, then its "See all notifications".
            go: inOrder(
              click('button', /^Notifications/, 'header'),
              click('link', 'See all notifications'),
            ),
          },
      {
        name: 'settings-profile',
        path: /\/settings\/profile$/,
        go: click('link', 'Settings', menu),
      },
      { name: 'settings-plan', path: /\/settings\/plan/, go: click('tab', 'Plan') },
      {
        // The plan page's confirm without the agreement ticked: the spec's key, as readable text.
        name: 'settings-plan-agreement',
        path: /\/settings\/plan/,
        go: confirmWithoutAgreement,
      },
      {
        name: 'settings-credits',
        path: /\/settings\/credits$/,
        go: inOrder(closeDialog, click('tab', 'Credits')),
      },
      { name: 'settings-api', path: /\/settings\/api$/, go: click('tab', 'API') },
      { name: 'settings-faq', path: /\/settings\/faq$/, go: click('tab', 'Help & FAQ') },
      { name: 'settings-feedback', path: /feedback=1/, go: click('button', 'Write feedback') },
      phone
        ? { name: 'invite', path: /\/invite$/, go: click('link', 'Invite friends', 'header') }
        : { name: 'invite', path: /\/invite$/, go: click('link', 'Invite friends', menu) },
      phone
        ? {
            name: 'plan-from-upgrade',
            path: /\/settings\/plan/,
            go: click('link', 'Upgrade', 'header'),
          }
        : { name: 'plan-from-menu', path: /\/settings\/plan/, go: click('link', 'Plan', menu) },
    ];
  }

  /** Screens open to anonymous visitors, reached from the logged-out header and the login page. */
  function anonymousSteps(unsubscribeUrl: string): Step[] {
    const toHome = click('link', 'Moments home', 'header');
    const toLogin = click('link', 'Log in', 'header');
    return [
      // Entry point: the address a person types.
      { name: 'anon-home', path: /\/home$/, go: goto('/home') },
      {
        name: 'anon-moment',
        path: new RegExp(`/home/moment/${moment.id}$`),
        go: shelfMoment,
      },
      {
        // A search from the home box: a visitor sees the shared moments that mention it, with a
        // link to log in for their own videos.
        name: 'anon-search-shared',
        path: /\/home\?query=bread$/,
        go: inOrder(toHome, searchFromHome('bread')),
      },
      { name: 'anon-login', path: /\/login$/, go: toLogin },
      { name: 'anon-terms', path: /\/terms-of-use$/, go: click('link', 'Terms of Use') },
      { name: 'anon-login-again', path: /\/login$/, go: toLogin },
      { name: 'anon-privacy', path: /\/privacy-policy$/, go: click('link', 'Privacy Policy') },
      { name: 'anon-signup', path: /type=signup/, go: click('link', /^Sign up/, 'header') },
      // Entry points from here on: no link of the app leads to /comingsoon; the others are links
      // a person is given and pastes (an invite, a shared summary or note, an export) or opens
      // from a mail (unsubscribe).
      { name: 'anon-comingsoon', path: /\/comingsoon$/, go: goto('/comingsoon') },
      {
        name: 'anon-invite-landing',
        path: /\/invite\/landing\?ref=/,
        go: goto(`/invite/landing?ref=${inviteCode}`),
      },
      { name: 'anon-job', path: new RegExp(`/job/${job.job_id}$`), go: goto(`/job/${job.job_id}`) },
      { name: 'anon-shared-summary', path: /\/s\/[^/?]+$/, go: goto(summarySharePath) },
      { name: 'anon-shared-note', path: /\/s\/[^/?]+\?note=1$/, go: goto(noteSharePath) },
      { name: 'anon-shared-clip', path: /\/s\/[^/?]+\?clip=1$/, go: goto(clipSharePath) },
      {
        // A Tools menu entry: the product's own start form, opened in a new tab (followed here).
        name: 'anon-tool-video-translator',
        path: /\/home\?tool=video-translator$/,
        go: goto('/home?tool=video-translator'),
      },
      { name: 'anon-unsubscribe', path: /\/unsubscribe\//, go: goto(unsubscribeUrl) },
    ];
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP_VIEWPORT],
    ['phone', PHONE_VIEWPORT],
  ] as const) {
    it(`reaches every screen on ${label} (${viewport.width}x${viewport.height}) with no axe violation`, async () => {
      const signedIn = await signedInContext(browser, baseUrl, { account, viewport });
      contexts.push(signedIn.context);
      const page = await signedIn.context.newPage();
      page.setDefaultTimeout(15_000);
      const problems = await tour(page, label, signedInSteps(label === 'phone'));

      const anonymous = await browser.newContext({
        baseURL: baseUrl,
        viewport,
        serviceWorkers: 'block',
      });
      contexts.push(anonymous);
      await anonymous.addInitScript(() =>
        localStorage.setItem('moments.updateBannerDismissed', '1'),
      );
      const anonymousPage = await anonymous.newPage();
      anonymousPage.setDefaultTimeout(15_000);
      // A visitor's pages log no error (the session check used to answer 401).
      anonymousPage.on('console', (entry) => {
        if (entry.type() === 'error') {
          problems.push(`${label} anonymous ${anonymousPage.url()}: console error ${entry.text()}`);
        }
      });
      const welcome = await welcomeMailTo(account.email);
      const unsubscribe = new URL(
        /https?:\/\/[^\s\]]+\/unsubscribe\/[^\s\]]+/.exec(welcome.text)![0],
      );
      problems.push(...(await tour(anonymousPage, label, anonymousSteps(unsubscribe.pathname))));
      await fs.writeFile(path.join(SCREENSHOT_DIR, `${label}-problems.txt`), problems.join('\n'));
      expect(problems).toEqual([]);
    }, 240_000);
  }

  it('shows where a failed task came from and why, the cost of a retry, and goes offline cleanly', async () => {
    const { context } = await signedInContext(browser, baseUrl, { account });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto('/library/videoTasks');
    const failedRow = page.locator(`[data-task-id="${failedTask.id}"]`);
    expect(await failedRow.getByTestId('task-source').textContent()).toContain(
      'broken-recording.mp4',
    );
    expect(await failedRow.getByTestId('task-error').textContent()).toBe(failedTask.error_reason);
    const doneRow = page.locator(`[data-task-id="${task.id}"]`);
    // Running finished work again asks first, with the price of the run.
    await doneRow.getByRole('button', { name: 'Run again' }).click();
    const runAgain = page.getByRole('dialog', { name: 'Run this task again?' });
    expect(await runAgain.getByTestId('run-again-text').textContent()).toMatch(
      /This run costs \d+(\.\d)? credits?, taken from your balance now\.$/,
    );
    await runAgain.getByRole('button', { name: 'Cancel' }).click();
    await runAgain.waitFor({ state: 'hidden' });

    // Offline, the Network Disconnected dialog shows (not a spinner). Back online,
    // it goes by itself.
    await context.setOffline(true);
    const dialog = page.getByRole('dialog', { name: 'Network Disconnected' });
    await dialog.waitFor();
    await context.setOffline(false);
    await dialog.waitFor({ state: 'hidden' });
    // A request the network lost waits in the dialog; Retry sends it again. (Aborting the list
    // call makes the loss certain: going offline alone may catch no request at all.)
    const taskList = '**/api/highlight_moment/task/list**';
    await page.route(taskList, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await dialog.waitFor();
    await page.unroute(taskList);
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await failedRow.getByTestId('task-error').waitFor();
    // A page refresh the network lost while the browser went offline is sent again by itself
    // when it comes back: the dialog goes and the list shows, with no click (it used to stay
    // open, waiting on a read that going offline happened to catch).
    await page.route(taskList, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await dialog.waitFor();
    await page.unroute(taskList);
    await context.setOffline(true);
    await context.setOffline(false);
    await dialog.waitFor({ state: 'hidden' });
    await failedRow.getByTestId('task-error').waitFor();
  });

  it("adds up every moment card's shown points to its score, each reason once", async () => {
    const { context } = await signedInContext(browser, baseUrl, { account });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`/video/${task.id}/moments`);
    const cards = page.getByTestId('moment-card');
    await cards.first().waitFor();
    // Open every card's reasons, as a reader does ("Why it could go viral").
    const folded = page.locator('[data-testid="moment-card"] button[aria-expanded="false"]');
    while ((await folded.count()) > 0) await folded.first().click();
    await page.waitForTimeout(500);
    const shown = await cards.evaluateAll((elements) =>
      elements.map((card) => ({
        // The ring's number (its label under it says "score").
        score: Number.parseInt(
          card.querySelector('[data-testid="moment-score"]')?.textContent ?? '',
          10,
        ),
        points: Array.from(
          card.querySelectorAll('[data-testid="moment-reasons"] [data-points]'),
        ).map((row) => Number(row.getAttribute('data-points'))),
        labels: Array.from(
          card.querySelectorAll('[data-testid="moment-reasons"] [data-points]'),
        ).map((row) => row.querySelector('p')?.textContent ?? ''),
      })),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const card of shown) {
      expect(card.points.length).toBeGreaterThan(0);
      expect(card.points.reduce((sum, points) => sum + points, 0)).toBe(card.score);
      expect(new Set(card.labels).size).toBe(card.labels.length);
    }
    // The first card opens with its reasons and their total, as a reader sees them.
    await expect
      .poll(() => cards.first().getByTestId('moment-reasons-total').innerText())
      .toContain(String(shown[0]!.score));
  });

  it('finds a chapter per topic in the summary of a talk of several topics', async () => {
    const { context } = await signedInContext(browser, baseUrl, { account });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`/video/${task.id}/summary`);
    const chapters = page.getByTestId('summary-chapter-title');
    await chapters.first().waitFor();
    // Four topics of about 50 s each: a chapter holds at least 45 s, so three at least (the
    // deepest change of topic may fall a sentence away from where the speaker made it).
    expect(await chapters.count()).toBeGreaterThanOrEqual(3);
    const titles = await chapters.allInnerTexts();
    expect(new Set(titles).size).toBe(titles.length);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows each video once in the home search, and no moment twice', async () => {
    const { context } = await signedInContext(browser, baseUrl, { account });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto('/search/result?query=dough');
    const hits = page.getByTestId('search-hit');
    await hits.first().waitFor();
    const rows = await hits.evaluateAll((cards) =>
      cards.map((card) => ({
        video: card.getAttribute('data-video'),
        kind: card.getAttribute('data-kind'),
        id: card.getAttribute('data-id'),
        moments: Array.from(card.querySelectorAll('[data-testid="search-hit-moment"]')).map(
          (link) => link.getAttribute('data-id'),
        ),
      })),
    );
    // The video was run twice (its moments and a question): one row.
    const videos = rows.map((row) => row.video);
    expect(videos.filter((video) => video === task.video.url)).toHaveLength(1);
    expect(new Set(videos).size).toBe(videos.length);
    const momentIds = rows.flatMap((row) => [
      ...(row.kind === 'moment' ? [row.id] : []),
      ...row.moments,
    ]);
    expect(new Set(momentIds).size).toBe(momentIds.length);
    // Nor the same moment under another id: one title per row at most once.
    const titles = await hits.evaluateAll((cards) =>
      cards.map((card) =>
        [
          ...(card.getAttribute('data-kind') === 'moment'
            ? [card.querySelector('[data-testid="search-hit-title"]')?.textContent ?? '']
            : []),
          ...Array.from(card.querySelectorAll('[data-testid="search-hit-moment"]')).map(
            (link) => link.textContent ?? '',
          ),
        ].map((title) => title.trim()),
      ),
    );
    for (const row of titles) expect(new Set(row).size).toBe(row.length);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'desktop-search-grouped.png') });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('words every credit history line, with no code of the ledger or the plans', async () => {
    const { context } = await signedInContext(browser, baseUrl, { account });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto('/settings/credits');
    const lines = page.getByTestId('credit-line');
    await lines.first().waitFor();
    // The sign-up's plan grant and the charges of the tasks above, at least.
    expect(await lines.count()).toBeGreaterThanOrEqual(2);
    const history = await page.getByTestId('credit-history').innerText();
    // An upper-case code (CREATE, FREE_TOOL_CREDIT) or a plan's id (vip_year, free) never shows.
    expect(history).not.toMatch(/\b[A-Z]{3,}(?:_[A-Z]+)*\b/);
    expect(history).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
    // Each line is a sentence of the catalogue: the sign-up's plan by its name, the tasks' work.
    const texts = await lines.allInnerTexts();
    expect(texts).toContain('Plan started: Free');
    expect(texts).toContain('Viral moments');
    for (const text of texts) expect(text).toMatch(/^[A-Z][a-z]/);
  });

  it('fits every control of the clip editor on a 390x844 phone, none cut', async () => {
    const { context } = await signedInContext(browser, baseUrl, {
      account,
      viewport: PHONE_VIEWPORT,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`/moment/${moment.id}/clip`);
    await page.getByText('Framing', { exact: true }).waitFor();
    await settled(page);
    const clipped = await page.evaluate(() => {
      const problems: string[] = [];
      const width = document.documentElement.clientWidth;
      const controls = document.querySelectorAll<HTMLElement>(
        'main button, main input:not([type=hidden]), main textarea, main [role=radio], ' +
          'main .mantine-SegmentedControl-label, main .mantine-Select-input',
      );
      for (const control of Array.from(controls)) {
        const box = control.getBoundingClientRect();
        const style = getComputedStyle(control);
        // Visually hidden inputs (a segmented control's radios) and hidden parts are not shown.
        if (box.width < 2 || box.height < 2 || style.visibility === 'hidden') continue;
        if (style.opacity === '0' || control.closest('[aria-hidden="true"]')) continue;
        const name =
          control.getAttribute('aria-label') ||
          control.textContent?.trim() ||
          control.getAttribute('placeholder') ||
          control.tagName;
        if (box.left < -1 || box.right > width + 1) {
          problems.push(`${name}: ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
        }
        // Its own text cut (an ellipsis or overflow inside it).
        if (control.scrollWidth > control.clientWidth + 1 && style.overflowX !== 'auto') {
          problems.push(`${name}: text ${control.scrollWidth} px in ${control.clientWidth} px`);
        }
        // Inside a container that cuts it off.
        for (let parent = control.parentElement; parent; parent = parent.parentElement) {
          const parentStyle = getComputedStyle(parent);
          if (parentStyle.overflowX === 'visible') continue;
          const outer = parent.getBoundingClientRect();
          if (box.left < outer.left - 1 || box.right > outer.right + 1) {
            problems.push(`${name}: outside its ${parent.className || parent.tagName}`);
          }
          break;
        }
      }
      return problems;
    });
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'phone-clip-editor-controls.png'),
      fullPage: true,
    });
    expect(clipped).toEqual([]);
    // The framing choice shows all its labels whole, "Slide + speaker" too.
    const framing = page.getByRole('radiogroup', { name: 'Framing' });
    for (const label of ['Auto', 'Speaker', 'Split', 'Fit', 'Slide + speaker']) {
      expect(await framing.getByText(label, { exact: true }).isVisible()).toBe(true);
    }
  });

  it('unsubscribes from the link of a real mail, and refuses a tampered one', async () => {
    const friend = newAccount('unsub');
    const signup = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...friend, referral: inviteCode }),
    });
    expect(signup.status).toBe(200);
    const link = new URL(
      /https?:\/\/[^\s\]]+\/unsubscribe\/[^\s\]]+/.exec(
        (await welcomeMailTo(friend.email)).text,
      )![0],
    );
    const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: 'block' });
    contexts.push(context);
    const page = await context.newPage();

    // An altered signature (never the one it already ends with).
    const tail = link.pathname.endsWith('abc') ? 'xyz' : 'abc';
    await page.goto(`${link.pathname.slice(0, -3)}${tail}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not valid');

    await page.goto(link.pathname);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'You are unsubscribed' }).isVisible())
      .toBe(true);
    const info = await (
      await context.request.get(`/api/unsubscribe/${link.pathname.split('/').pop()}`)
    ).json();
    expect(info.data).toMatchObject({ category: 'account', stopped: true });
    // The friend was recorded as invited by the test account.
    expect((await call<{ invited: number }>('GET', '/api/invite/info')).invited).toBe(1);
  });
});
