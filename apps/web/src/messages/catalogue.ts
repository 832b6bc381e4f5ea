import { PLAN_PROTOCOL_TIPS } from '@moments/domain/plans';
import { ACCOUNT_MESSAGES } from './areas/account';
import { BRAND_KITS_MESSAGES } from './areas/brandKits';
import { CAPTIONS_MESSAGES } from './areas/captions';
import { DOMAIN_MESSAGES } from './areas/domain';
import { ERRORS_MESSAGES } from './areas/errors';
import { INGEST_MESSAGES } from './areas/ingest';
import { INTEGRATIONS_MESSAGES } from './areas/integrations';
import { INVITES_MESSAGES } from './areas/invites';
import { JOBS_MESSAGES } from './areas/jobs';
import { LAYOUT_MESSAGES } from './areas/layout';
import { MAIL_MESSAGES } from './areas/mail';
import { MOMENTS_MESSAGES } from './areas/moments';
import { BATCHES_MESSAGES } from './areas/batches';
import { NOTES_MESSAGES } from './areas/notes';
import { NOTIFICATIONS_MESSAGES } from './areas/notifications';
import { PAGES_MESSAGES } from './areas/pages';
import { POPUPS_MESSAGES } from './areas/popups';
import { ROUTING_MESSAGES } from './areas/routing';
import { SEARCH_MESSAGES } from './areas/search';
import { SHARES_MESSAGES } from './areas/shares';
import { STUDIO_MESSAGES } from './areas/studio';
import { STYLE_MESSAGES } from './areas/style';
import { SUMMARIES_MESSAGES } from './areas/summaries';
import { TASKS_MESSAGES } from './areas/tasks';

/**
 * The message catalogue: every key a screen may name (the spec's own keys, such as the plan
 * page's 'plan protocol tips', and the app's `area.name` keys) with the text a person reads.
 * Screens call `t(key)`; a key never reaches the screen as it is, and the browser suite fails on
 * any screen that shows one (`rawKeysIn`).
 */
export const MESSAGES = {
  // The checkbox under a plan's confirm button (terms and privacy).
  [PLAN_PROTOCOL_TIPS]: 'Tick the box to agree to the Terms of Use and the Privacy Policy first.',

  // Pop-ups on home, one per visit.
  'popup.welcome.label': 'Welcome gift: 50% off the annual plan',
  'popup.community.label': 'Community chat',
  'popup.yearly.label': 'Yearly plans',
  'popup.yearly.feature': 'Twelve months of credits at once',

  // The update banner, by plan and period.
  'banner.newMember': 'Limited time: 50% off the annual plan for new members.',
  'banner.newMember.link': 'See yearly plans',
  'banner.switchYearly': 'Switch to yearly billing and pay less per month.',
  'banner.switchYearly.link': 'Compare yearly plans',

  // The logged-out Tools menu opening the product's own start forms.
  'tools.video-summarizer': 'Video summarizer',
  'tools.video-translator': 'Video translator',
  'tools.subtitle-translator': 'Subtitle translator',
  'tools.auto-subtitle-generator': 'Auto subtitle generator',
  'tools.auto-caption-generator': 'Auto caption generator',
  'tools.start.video-summarizer':
    'Video summarizer: paste a link or upload a video; every processed video gets a summary with chapters and key points.',
  'tools.start.video-translator':
    'Video translator: paste a link or upload a video, then pick the language its captions are translated into.',
  'tools.start.subtitle-translator':
    'Subtitle translator: paste a link or upload a video, then pick the language of the subtitles; you can download them as SRT or WebVTT.',
  'tools.start.auto-subtitle-generator':
    'Auto subtitle generator: paste a link or upload a video and get subtitles timed to every word.',
  'tools.start.auto-caption-generator':
    'Auto caption generator: paste a link or upload a video and get word-by-word animated captions.',
  'tools.needsLlm':
    'This server makes captions in the language spoken (it transcribes 99 languages) but cannot translate them yet: translation needs a language model, which whoever runs this server can add.',

  // Words many screens share.
  'common.close': 'Close',

  // Accessible names and titles of the screens' controls, dialogs and empty states.
  'a11y.announcement': 'Announcement',
  'a11y.back': 'Back',
  'a11y.bottomMenu': 'Bottom menu',
  'a11y.copyLink': 'Copy link',
  'a11y.createNote': 'Create note',
  'a11y.creditHistory': 'Credit history',
  'a11y.deleteNotification': 'Delete notification',
  'a11y.dismissAnnouncement': 'Dismiss announcement',
  'a11y.editClip': 'Edit clip',
  'a11y.exportProgress': 'Export progress',
  'a11y.exportedVideo': 'Exported video',
  'a11y.favourite': 'Favourite',
  'a11y.feedback': 'Feedback',
  'a11y.formatting': 'Formatting',
  'a11y.fullScreen': 'Full screen',
  'a11y.inviteFriends': 'Invite friends',
  'a11y.loading': 'Loading',
  'a11y.loadingMailSettings': 'Loading mail settings',
  'a11y.loadingNotes': 'Loading notes',
  'a11y.loadingProjects': 'Loading projects',
  'a11y.loadingResults': 'Loading results',
  'a11y.loadingTheExport': 'Loading the export',
  'a11y.loadingTheNote': 'Loading the note',
  'a11y.loadingVideoDetails': 'Loading video details',
  'a11y.projects': 'Projects',
  'a11y.ratedBad': 'Rated bad',
  'a11y.ratedGood': 'Rated good',
  'a11y.reason': 'Reason',
  'a11y.refreshScore': 'Refresh score',
  'a11y.removeFromClipped': 'Remove from clipped',
  'a11y.search': 'Search',
  'a11y.searchNotes': 'Search notes',
  'a11y.share': 'Share',
  'a11y.sideMenu': 'Side menu',
  'a11y.startATask': 'Start a task',
  'a11y.taskProgress': 'Task progress',
  'a11y.thumbsDown': 'Thumbs down',
  'a11y.thumbsUp': 'Thumbs up',
  'a11y.trim': 'Trim',
  'a11y.unread': 'Unread',
  'a11y.upgrade': 'Upgrade',
  'a11y.uploadAVideo': 'Upload a video',
  'a11y.uploadProgress': 'Upload progress',
  'a11y.videoLinkOrSearch': 'Video link or search',
  'a11y.whatToMake': 'What to make',
  'a11y.whichMoments': 'Which moments',
  'title.beforeYouGoWhyAreYou': 'Before you go: why are you cancelling?',
  'title.cancelYourSubscription': 'Cancel your subscription?',
  'title.couldNotLoadTheMoments': 'Could not load the moments',
  'title.couldNotLoadThisMoment': 'Could not load this moment',
  'title.couldNotLoadThisTask': 'Could not load this task',
  'title.couldNotLoadYourMoments': 'Could not load your moments',
  'title.couldNotLoadYourProjects': 'Could not load your projects',
  'title.couldNotStart': 'Could not start',
  'title.deleteThisExport': 'Delete this export?',
  'title.deleteThisVideoTask': 'Delete this video task?',
  'title.runThisTaskAgain': 'Run this task again?',
  'title.goodToKnow': 'Good to know',
  'title.library': 'Library',
  'title.noNotificationsYet': 'No notifications yet',
  'title.noProjectsYet': 'No projects yet',
  'title.noVideoTasksYet': 'No video tasks yet',
  'title.privacyPolicy': 'Privacy Policy',
  'title.settings': 'Settings',
  'title.shareThisMoment': 'Share this moment',
  'title.talkToUsAboutEnterprise': 'Talk to us about Enterprise',
  'title.termsOfUse': 'Terms of Use',
  'title.thankYou': 'Thank you',
  'title.theExportFailed': 'The export failed',
  'title.theMomentAsFound': 'The moment as found',
  'title.thisMomentIsPrivateOrWas': 'This moment is private or was removed',
  'title.thisTaskCouldNotFinish': 'This task could not finish',
  'title.thisVideoTaskDoesNotExist': 'This video task does not exist',
  'title.uploadFailed': 'Upload failed',
  'title.yourSubscriptionIsCancelled': 'Your subscription is cancelled',
  'title.yourVideosCouldNotBeLoaded': 'Your videos could not be loaded',

  // Sharing an exported clip.
  'clip.share.title': 'Share this clip',
  'clip.share.text':
    'Anyone with the link can watch this clip, without an account. Stop sharing and the link stops working.',
  'clip.share.link': 'Public link to this clip',
  'clip.share.start': 'Create a public link',
  'clip.share.stop': 'Stop sharing',
  'clip.shared.badge': 'Shared clip',
  'clip.shared.cta': 'Make clips like this from your own videos:',

  // Each screen folder's own texts (apps/web/src/messages/areas/<folder>.ts).
  ...ACCOUNT_MESSAGES,
  ...CAPTIONS_MESSAGES,
  ...DOMAIN_MESSAGES,
  ...ERRORS_MESSAGES,
  ...INGEST_MESSAGES,
  ...INTEGRATIONS_MESSAGES,
  ...BRAND_KITS_MESSAGES,
  ...INVITES_MESSAGES,
  ...JOBS_MESSAGES,
  ...LAYOUT_MESSAGES,
  ...MAIL_MESSAGES,
  ...MOMENTS_MESSAGES,
  ...BATCHES_MESSAGES,
  ...NOTES_MESSAGES,
  ...NOTIFICATIONS_MESSAGES,
  ...PAGES_MESSAGES,
  ...POPUPS_MESSAGES,
  ...ROUTING_MESSAGES,
  ...SEARCH_MESSAGES,
  ...SHARES_MESSAGES,
  ...STUDIO_MESSAGES,
  ...STYLE_MESSAGES,
  ...SUMMARIES_MESSAGES,
  ...TASKS_MESSAGES,
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** The text of a catalogue key, with `{name}` placeholders filled in. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return (MESSAGES[key] as string).replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** Keys whose text differs from the key: if one of these is on a screen, a key leaked. */
const LEAKABLE_KEYS = (Object.keys(MESSAGES) as MessageKey[]).filter(
  (key) => (MESSAGES[key] as string) !== key,
);

/**
 * The catalogue keys a screen's text shows as they are (should be none). Dotted keys match as whole
 * tokens; the spec's phrase keys ('plan protocol tips') as whole phrases, case-insensitively.
 */
export function rawKeysIn(screenText: string): string[] {
  return LEAKABLE_KEYS.filter((key) => {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\w.-])${escaped}($|[^\\w-]|\\.(\\s|$))`, 'i').test(screenText);
  });
}
