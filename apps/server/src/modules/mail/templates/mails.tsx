/** @jsxRuntime automatic @jsxImportSource react */
// (The pragma: the server also runs under tsx from the repository root, whose tsconfig does not
// cover apps/server, so the JSX runtime is named here.)
import type { MailBody } from './render.js';
import { MailLayout, Paragraph, type MailPicture } from './layout.js';

/**
 * The mails Moments sends users, as one template set (react-email): each gives its subject and
 * a body rendered to both the HTML and the plain-text part. Every address is absolute (PUBLIC_URL).
 */
export interface MailTemplate {
  subject: string;
  body: MailBody;
}

export function welcomeMail(input: { username: string; homeUrl: string }): MailTemplate {
  return {
    subject: 'Welcome to Moments',
    body: (footer) => (
      <MailLayout
        preview="Paste a video link and get its best moments."
        heading={`Welcome, ${input.username}`}
        action={{ label: 'Find your first moments', href: input.homeUrl }}
        footer={footer}
      >
        <Paragraph>
          Paste a video link or upload a video and Moments finds its best moments, ready to clip,
          caption and share.
        </Paragraph>
      </MailLayout>
    ),
  };
}

export interface TaskMailInput {
  title: string;
  /** What the task made: its moments, or its captions (a caption task). */
  made: 'moments' | 'captions';
  /** Its result page, or the task list when it failed. */
  url: string;
  failed: boolean;
  reason?: string | undefined;
  picture?: MailPicture | undefined;
}

/** A finished or failed task, named by what it makes, linking to the page that shows it. */
export function taskMail(input: TaskMailInput): MailTemplate {
  const { title, made, url } = input;
  if (input.failed) {
    return {
      subject: `Processing failed: ${title}`,
      body: (footer) => (
        <MailLayout
          preview={`Moments could not process "${title}".`}
          heading="Processing failed"
          action={{ label: 'See your videos', href: url }}
          footer={footer}
        >
          <Paragraph>
            Moments could not make the {made} of &ldquo;{title}&rdquo;.
            {input.reason ? ` Reason: ${input.reason}` : ''} No credits were used.
          </Paragraph>
        </MailLayout>
      ),
    };
  }
  const captions = made === 'captions';
  return {
    subject: captions ? `Your captions are ready: ${title}` : `Your moments are ready: ${title}`,
    body: (footer) => (
      <MailLayout
        preview={captions ? `The captions of "${title}" are ready.` : `"${title}" is processed.`}
        heading={captions ? 'Your captions are ready' : 'Your moments are ready'}
        action={{ label: captions ? 'Open the captions' : 'Open the moments', href: url }}
        picture={input.picture}
        footer={footer}
      >
        <Paragraph>
          {captions
            ? `The animated captions of "${title}" are ready: pick a style, check the transcript and export the video.`
            : `"${title}" is processed: its best moments are ranked and ready to clip.`}
        </Paragraph>
      </MailLayout>
    ),
  };
}

export function exportMail(input: {
  title: string;
  url: string;
  failed: boolean;
  picture?: MailPicture | undefined;
}): MailTemplate {
  const { title, url } = input;
  return {
    subject: input.failed ? `Export failed: ${title}` : `Your export is ready: ${title}`,
    body: (footer) => (
      <MailLayout
        preview={input.failed ? `The export of "${title}" failed.` : `"${title}" is ready.`}
        heading={input.failed ? 'The export failed' : 'Your export is ready'}
        action={{ label: input.failed ? 'Try again' : 'Watch and download', href: url }}
        picture={input.failed ? undefined : input.picture}
        footer={footer}
      >
        <Paragraph>
          {input.failed
            ? `The export of "${title}" failed. No credits were used; open the editor to try again.`
            : `The export of "${title}" is ready to watch, download and share.`}
        </Paragraph>
      </MailLayout>
    ),
  };
}

export function referralMail(input: {
  friendName: string;
  credits: number;
  inviteUrl: string;
}): MailTemplate {
  return {
    subject: `You earned ${input.credits} credits`,
    body: (footer) => (
      <MailLayout
        preview={`${input.friendName} took a paid plan after your invite.`}
        heading={`You earned ${input.credits} credits`}
        action={{ label: 'Invite more friends', href: input.inviteUrl }}
        footer={footer}
      >
        <Paragraph>
          {input.friendName} took a paid plan after your invite: {input.credits} credits were added
          to your account.
        </Paragraph>
      </MailLayout>
    ),
  };
}

/**
 * The link that confirms a new email address, sent to that address: the account's email changes
 * only once it is opened, so nobody can move an account to an address they do not read.
 */
export function emailChangeMail(input: {
  username: string;
  confirmUrl: string;
  validHours: number;
}): MailTemplate {
  return {
    subject: 'Confirm your new email address',
    body: (footer) => (
      <MailLayout
        preview="Confirm the new address of your Moments account."
        heading="Confirm your new email address"
        action={{ label: 'Confirm this address', href: input.confirmUrl }}
        footer={footer}
      >
        <Paragraph>
          {input.username}, open the link to make this the email address of your Moments account. It
          works once, for {input.validHours} hours. If you did not ask for this, ignore this mail:
          nothing changes.
        </Paragraph>
      </MailLayout>
    ),
  };
}

/** A payment receipt; the card is named the one way the invoices name it ("Card ending in 4242"). */
export function receiptMail(input: {
  amount: string;
  paymentMethod: string;
  planLabel: string;
  planUrl: string;
}): MailTemplate {
  return {
    subject: `Your Moments receipt: $${input.amount}`,
    body: (footer) => (
      <MailLayout
        preview={`Thank you for your payment of $${input.amount}.`}
        heading="Thank you for your payment"
        action={{ label: 'See your plan and invoices', href: input.planUrl }}
        footer={footer}
      >
        <Paragraph>
          We received ${input.amount} ({input.paymentMethod}). Your plan: {input.planLabel}.
        </Paragraph>
        <Paragraph>Your invoices are on your plan page.</Paragraph>
      </MailLayout>
    ),
  };
}
