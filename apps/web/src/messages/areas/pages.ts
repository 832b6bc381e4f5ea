/** What the pages/ screens say (keys `pages.*`). */
export const PAGES_MESSAGES = {
  // Home (/home).
  'pages.home.badge': 'Long videos in, short clips out',
  // The headline, split around its gradient words.
  'pages.home.headline': 'Turn long videos into',
  'pages.home.headlineHighlight': 'viral clips',
  'pages.home.intro':
    'Paste a video link or search for a topic. Moments finds the best moments, captions them and reframes them for every platform.',
  'pages.home.viral.title': 'Find viral moments',
  'pages.home.viral.text': 'Turn long videos into ranked short clips.',
  'pages.home.captions.title': 'Animated captions',
  'pages.home.captions.text':
    'Word-by-word captions in the language spoken: 99 languages are transcribed. Translation when the server has a language model set up.',
  'pages.home.reframe.title': 'One-click reframing',
  'pages.home.reframe.text': 'Keep the speaker in frame for every platform.',
  'pages.home.sources.title': 'Any source',
  'pages.home.sources.text': 'YouTube, Vimeo, TikTok, uploads and more.',

  // Library and settings tabs.
  'pages.library.videos': 'Videos',
  'pages.library.moments': 'Moments',
  'pages.library.notes': 'Notes',
  'pages.settings.profile': 'Profile',
  'pages.settings.plan': 'Plan',
  'pages.settings.credits': 'Credits',
  'pages.settings.faq': 'Help & FAQ',

  // Terms of use.
  'pages.terms.summary':
    'Plain terms for using this installation of Moments, an open-source, self-hostable app.',
  'pages.terms.software.heading': 'The software',
  'pages.terms.software.body':
    'Moments is open-source software provided as is, without warranty of any kind. Its licence, not these terms, governs copying and changing the code.',
  'pages.terms.service.heading': 'This service',
  'pages.terms.service.body':
    'The person or organisation hosting this installation provides the service and may set their own limits, plans and prices. They can suspend accounts that break these terms or the law.',
  'pages.terms.content.heading': 'Your content',
  'pages.terms.content.body':
    'Only process videos you have the right to use. You keep all rights to what you upload and create; you allow the service to store and process it to provide the features you ask for. Respect the terms of the platforms you link videos from.',
  'pages.terms.use.heading': 'Acceptable use',
  'pages.terms.use.body':
    'Do not use the service to break the law, infringe others’ rights, distribute harmful content, or overload or attack the server.',
  'pages.terms.plans.heading': 'Plans and credits',
  'pages.terms.plans.body':
    'Paid plans and credits, when the operator enables them, are described on the plan page. Failed tasks and exports do not use credits.',
  'pages.terms.changes.heading': 'Changes',
  'pages.terms.changes.body':
    'The operator may update these terms; continued use after an update means you accept the new version.',

  // Privacy policy.
  'pages.privacy.summary':
    'Moments is open-source software that anyone can run on their own server. This page explains what the software stores and who is responsible for it.',
  'pages.privacy.operator.heading': 'Who runs this installation',
  'pages.privacy.operator.body':
    'This copy of Moments is operated by whoever hosts it, not by the authors of the software. The operator decides where the server runs and is responsible for your data. Contact them with any privacy request.',
  'pages.privacy.stored.heading': 'What is stored',
  'pages.privacy.stored.account':
    'Your account: email address, username and a hashed password (never the password itself).',
  'pages.privacy.stored.creations':
    'What you create: videos you upload or link, their transcripts, moments, clips, exports and notes.',
  'pages.privacy.stored.billing':
    'Your plan, credit usage and, if billing is enabled, the records the payment provider returns (never full card numbers).',
  'pages.privacy.stored.logs':
    'Technical logs the server needs to run and to investigate failures.',
  'pages.privacy.use.heading': 'What the software does with it',
  'pages.privacy.use.body':
    'Your data is used only to provide the features you use. The software contains no advertising, no tracking scripts and no sale of data. Processing such as transcription runs on the operator’s server; it reaches an outside service only when the operator configures one (for example a language model or storage provider).',
  'pages.privacy.browser.heading': 'In your browser',
  'pages.privacy.browser.body':
    'A session cookie keeps you logged in. Local storage remembers small preferences, such as having closed a banner or a pop-up. A service worker helps the app load; it does not cache your account data.',
  'pages.privacy.choices.heading': 'Your choices',
  'pages.privacy.choices.body':
    'You can ask the operator to export or delete your account and everything it holds. Deleting removes your videos, moments and exports from the server.',

  // Coming soon (/comingsoon).
  'pages.comingSoon.title': 'More tools are on the way',
  'pages.comingSoon.intro':
    "Pick the tools you want and we'll email you once when they launch. No other mail.",
  'pages.comingSoon.pickTool': 'Pick at least one tool.',
  'pages.comingSoon.doneTitle': "You're on the list",
  'pages.comingSoon.doneText': "We'll write to {email} when these tools are ready.",
  'pages.comingSoon.tools': "Tools I'm interested in",
  'pages.comingSoon.notifyMe': 'Notify me',
  'pages.form.email': 'Email',
  'pages.form.invalidEmail': 'Enter a valid email address.',
  'pages.form.failed': 'Something went wrong. Try again.',

  // Log in and sign up (/login).
  'pages.login.emailTaken': 'An account with this email already exists. Log in instead?',
  'pages.login.usernameTaken': 'This username is taken.',
  'pages.login.weakPassword': 'Choose a stronger password.',
  'pages.login.invalidCredentials': 'Email or password is incorrect.',
  'pages.login.enterPassword': 'Enter your password.',
  'pages.login.usernameRule': 'Use 2–40 letters, digits, spaces, _ . or -.',
  'pages.login.rateLimited': 'Too many attempts. Try again in {wait}.',
  'pages.login.unreachable':
    'The server could not be reached. Check your connection and try again.',
  'pages.login.signupTitle': 'Create your account',
  'pages.login.loginTitle': 'Welcome back',
  'pages.login.signupIntro': 'Sign up free and turn your first video into clips.',
  'pages.login.loginIntro': 'Log in to your Moments account.',
  'pages.login.username': 'Username',
  'pages.login.password': 'Password',
  'pages.login.passwordRule': 'At least 8 characters, mixing letters and digits or symbols.',
  // "By continuing you agree to the <Terms of Use> and <Privacy Policy>.", split around the links.
  'pages.login.agreeBefore': 'By continuing you agree to the',
  'pages.login.agreeAnd': 'and',

  // Settings → Credits.
  'pages.credits.bucket.plan': 'Plan credits',
  'pages.credits.bucket.reward': 'Rewards',
  'pages.credits.bucket.purchased': 'Bought credits',
  // The line of a history row naming what moved, when it is not credits.
  'pages.credits.feature.FREE_TOOL_CREDIT': 'Free tool credits',
  'pages.credits.feature.CANVAS_EXPORT': 'Clip exports of your plan',
  'pages.credits.unlimitedExports': 'Unlimited exports',
  // What a history row is: the ledger's own reasons are never shown.
  'pages.credits.line.charge': '{work}',
  'pages.credits.line.refund': 'Refund: {work}',
  'pages.credits.line.work.task-run': 'Viral moments',
  'pages.credits.line.work.question': 'Question',
  'pages.credits.line.work.caption-task': 'Caption task',
  'pages.credits.line.work.summary': 'Summary',
  'pages.credits.line.work.summary-refresh': 'Summary refresh',
  'pages.credits.line.work.export': 'Clip export',
  'pages.credits.line.work.caption-export': 'Caption video export',
  'pages.credits.line.work.unknown': 'Work',
  'pages.credits.line.plan.START': 'Plan started: {plan}',
  'pages.credits.line.plan.CREATE': 'Plan started: {plan}',
  'pages.credits.line.plan.Recharge': 'Plan renewed: {plan}',
  'pages.credits.line.plan.UPGRADE': 'Plan changed to {plan}',
  'pages.credits.line.plan.UNSUBSCRIBE': 'Plan cancelled, back to {plan}',
  'pages.credits.line.plan.RESUBSCRIBE': 'Plan resumed: {plan}',
  'pages.credits.line.plan.CREDIT': 'Plan credits: {plan}',
  'pages.credits.line.planEnd': 'Unused plan credits ended with the period',
  'pages.credits.line.topUp': 'Credits bought',
  'pages.credits.line.inviteReward': 'Invite reward',
  'pages.credits.line.other': 'Credit change',
  'pages.credits.kind.charge': 'Spent',
  'pages.credits.kind.refund': 'Given back',
  'pages.credits.kind.grant': 'Added',
  'pages.credits.kind.expire': 'Expired',
  'pages.credits.exports.one': '{sign}{count} export',
  'pages.credits.exports.other': '{sign}{count} exports',
  'pages.credits.deletedWork': 'Deleted work',
  'pages.credits.order':
    "Credits are spent in this order: your plan's credits for this period first, then rewards, then credits you bought. Bought credits never expire and stay through every plan change; what is left of the plan's credits expires when a new period starts.",
  'pages.unlimited': 'Unlimited',
  'pages.credits.date': 'Date',
  'pages.credits.what': 'What',
  'pages.credits.amount': 'Amount',
  'pages.credits.balanceAfter': 'Balance after',
  'pages.credits.none': 'No credit movements yet.',
  'pages.credits.newer': 'Newer',
  'pages.credits.page': 'Page {page}',
  'pages.credits.older': 'Older',

  // Settings → Profile.
  'pages.profile.feature.credits': 'Credits',
  'pages.profile.feature.freeToolCredits': 'Free tool credits',
  'pages.profile.feature.canvasExports': 'Canvas exports',
  'pages.profile.feature.maxVideoMinutes': 'Longest video (minutes)',
  'pages.profile.feature.maxClipMinutes': 'Longest clip (minutes)',
  'pages.profile.feature.brandKits': 'Brand kits',
  'pages.profile.eduVerified': 'Education verified',
  'pages.profile.account.title': 'Sign-in and account',
  'pages.profile.account.passwordTitle': 'Password',
  'pages.profile.account.currentPassword': 'Current password',
  'pages.profile.account.newPassword': 'New password',
  'pages.profile.account.changePassword': 'Change password',
  'pages.profile.account.passwordChanged':
    'Password changed. You are still signed in here; every other device was signed out.',
  'pages.profile.account.emailTitle': 'Email address',
  'pages.profile.account.emailHint':
    'We mail a link to the new address. Your email changes when you open it (within 24 hours).',
  'pages.profile.account.newEmail': 'New email address',
  'pages.profile.account.changeEmail': 'Send confirmation link',
  'pages.profile.account.emailSent':
    'We sent a link to {email}. Open it to make it your email address.',
  'pages.profile.account.deleteTitle': 'Delete account',
  'pages.profile.account.deleteHint':
    'Deletes your account, your uploads, videos, moments and exports for good. Cancel a paid plan first.',
  'pages.profile.account.deleteAccount': 'Delete account…',
  'pages.profile.account.deleteConfirmTitle': 'Delete your account?',
  'pages.profile.account.deleteConfirmText':
    'Everything in your account is deleted and cannot be brought back. Enter your password to confirm.',
  'pages.profile.account.deleteForGood': 'Delete for good',
  'pages.profile.account.cancel': 'Cancel',
  'pages.profile.account.wrongPassword': 'That password is not right.',
  'pages.profile.account.failed': 'That did not work. Try again in a moment.',
  'pages.confirmEmail.title': 'Confirm your new email address',
  'pages.confirmEmail.ask': 'Make this address the email of your Moments account.',
  'pages.confirmEmail.button': 'Confirm this address',
  'pages.confirmEmail.doneTitle': 'Email address changed',
  'pages.confirmEmail.done': 'Your account now uses {email}.',
  'pages.confirmEmail.used': 'This link was used already.',
  'pages.confirmEmail.expired': 'This link has expired. Ask for a new one in your settings.',
  'pages.confirmEmail.unknown':
    'This link does not work (a newer one may have replaced it). Ask for a new one in your settings.',
  'pages.profile.endsThisPeriod': 'Ends at the end of this period',
  'pages.profile.managePlan': 'Manage plan',
  'pages.profile.logOut': 'Log out',
  'pages.profile.usage': 'Usage',
  'pages.profile.noAllowances': 'Your plan has no usage allowances yet.',
  'pages.profile.feature': 'Feature',
  'pages.profile.used': 'Used',
  // A limit on each video, not an allowance used up.
  'pages.profile.eachVideo': 'Applies to each video',
  'pages.profile.minutesPerVideo': '{minutes} min per video',
  'pages.profile.limit': 'Limit',
  'pages.profile.remaining': 'Remaining',

  // Settings → Help & FAQ.
  'pages.faq.what.q': 'What does Moments do?',
  'pages.faq.what.a':
    'You give it a long video by link or upload. Moments transcribes it, finds the moments most likely to work as short clips, adds word-by-word animated captions, reframes them for vertical platforms and exports MP4 files.',
  'pages.faq.sources.q': 'Which video sources are supported?',
  'pages.faq.sources.a':
    'Links from YouTube, Google Drive, Dailymotion, Vimeo, TikTok, Facebook, Twitch and Bilibili, direct links to media files, and uploads of MP4, MOV and WebM files.',
  'pages.faq.credits.q': 'How are credits counted?',
  'pages.faq.credits.a':
    'Tasks and the whole-video caption export use credits; the cost is shown before you start. Failed tasks and exports are refunded. Settings → Credits shows every movement and what is left.',
  'pages.faq.failed.q': 'Why did my video task fail?',
  'pages.faq.failed.a':
    'The task card in Library → Video tasks shows the link or file it came from and the reason, for example a link that answered 404, a private video, or a file without an audio track. Fix the cause and press Retry; a failed task used no credits.',
  'pages.faq.clip.q': 'How do I get a vertical clip with captions?',
  'pages.faq.clip.a':
    'Open a moment, press Edit clip, pick the aspect ratio and a caption template, adjust the start and end, and export. You get a notification (and a mail when you are away) when the file is ready.',
  'pages.faq.translation.q': 'Can captions be translated?',
  'pages.faq.translation.a':
    'This server transcribes speech in 99 languages and makes captions in the language spoken. Translating captions into another language needs an OpenAI-compatible language model (a hosted one, or Ollama or vLLM on your own machine). Whoever runs this server adds one by setting LLM_BASE_URL and LLM_MODEL in its .env file and restarting it; the Configuration section of the README and docs/configuration.md describe both settings. The translation languages are offered as soon as the server has one.',
  'pages.faq.invites.q': 'How do invites work?',
  'pages.faq.invites.a':
    'Share your link from Invite friends. When a friend signs up through it and starts a first paid plan, you both get credits, once per friend.',
  'pages.faq.emails.q': 'How do I stop emails?',
  'pages.faq.emails.a':
    'Every email has an unsubscribe link that stops that kind of email in one click. Turn kinds of email on or off any time under Settings → Profile.',
  'pages.faq.data.q': 'Where is my data stored?',
  'pages.faq.data.a':
    'Moments is self-hosted: your videos, transcripts and account live on the server run by whoever operates this installation.',
  'pages.faq.title': 'Frequently asked questions',
  'pages.feedback.title': 'Send us feedback',
  'pages.feedback.write': 'Write feedback',
  'pages.feedback.tooShort': 'Write at least a few words.',
  'pages.feedback.invalidEmail': 'Enter a valid email so we can answer.',
  'pages.feedback.sent': 'Your feedback was sent. We read every message.',
  'pages.feedback.label': 'Your feedback',
  'pages.feedback.placeholder': "What works, what doesn't, what you miss",
  'pages.feedback.email': 'Your email',
  'pages.feedback.send': 'Send feedback',

  // Settings → Plan.
  'pages.plan.paymentSuccess': 'Enjoy your subscription! Refresh the page to see the latest data.',
  'pages.plan.topUpSuccess': 'Your credits were added. Refresh the page to see your new balance.',
  'pages.plan.loadFailed': 'The plans could not be loaded.',
  'pages.plan.continues': 'Your subscription continues.',
  'pages.plan.whatCreditsBuy': 'What credits buy',
  'pages.plan.choose.year': 'Choose {plan} (yearly)',
  'pages.plan.choose.month': 'Choose {plan} (monthly)',
  'pages.plan.enterpriseSent': "Thanks! We've received your request and will reply by email soon.",
  'pages.plan.dollars': '${amount}',
  'pages.plan.perMonth': '/ month',
  'pages.plan.enterprise': 'Enterprise',
  'pages.plan.free': 'Free',
  'pages.plan.forEducation': '{tier} for education',
  'pages.plan.custom': 'Custom',
  'pages.plan.button.current': 'Current plan',
  'pages.plan.button.notAvailable': 'Not available',
  'pages.plan.button.choose': 'Choose plan',
  'pages.plan.button.contact': 'Contact us',
  'pages.plan.grant.unlimitedCredits': 'Unlimited credits',
  'pages.plan.grant.credits.one': '{credits} credit',
  'pages.plan.grant.credits.other': '{credits} credits',
  'pages.plan.grant.unlimitedFreeToolCredits': 'Unlimited free-tool credits',
  'pages.plan.grant.freeToolCredits.one': '{credits} free-tool credit',
  'pages.plan.grant.freeToolCredits.other': '{credits} free-tool credits',
  'pages.plan.grant.unlimitedExports': 'Unlimited exports',
  'pages.plan.grant.exports.one': '{count} export',
  'pages.plan.grant.exports.other': '{count} exports',
  'pages.plan.grant.anyLength': 'Videos of any length',
  'pages.plan.grant.minutes.one': 'Videos up to {count} minute',
  'pages.plan.grant.minutes.other': 'Videos up to {count} minutes',
  'pages.plan.grant.clipMinutes.one': 'Clips up to {count} minute',
  'pages.plan.grant.clipMinutes.other': 'Clips up to {count} minutes',
  'pages.plan.grant.brandKits.one': '{count} brand kit',
  'pages.plan.grant.brandKits.other': '{count} brand kits',
  'pages.plan.grant.unlimitedBrandKits': 'Unlimited brand kits',
  'pages.plan.grant.other': '{feature}: {limit}',
  'pages.plan.couldNotPrice': 'Could not price this change',
  'pages.plan.nowOn': "You're now on {plan}.",
  'pages.plan.changeFailed': 'The change did not go through',
  'pages.plan.confirm.checkout': 'You will be taken to a secure checkout to pay by card.',
  'pages.plan.confirm.change': 'Your plan changes from {plan} right away.',
  'pages.plan.confirm.price': 'Price',
  'pages.plan.confirm.dueToday': 'Due today (prorated)',
  // "I agree to the <Terms of Use> and <Privacy Policy>", split around the links.
  'pages.plan.confirm.agreeBefore': 'I agree to the',
  'pages.plan.confirm.toCheckout': 'Continue to checkout',
  'pages.plan.confirm.pay': 'Confirm and pay',
  'pages.plan.current': 'Current plan',
  'pages.plan.cancelsAtPeriodEnd': 'Cancels at the end of the period',
  'pages.plan.monthly': 'Monthly',
  'pages.plan.yearlySave': 'Yearly · save 50%',
  // Under a yearly plan's price: the saving against the same plan paid monthly.
  'pages.plan.savedAgainstMonthly':
    'Save {percent}% (${saved} a month) against paying ${monthly} monthly',
  'pages.plan.subscription': 'Subscription',
  'pages.plan.portalText':
    'Payment method, billing address and receipts are in the billing portal.',
  'pages.plan.manageBilling': 'Manage billing',
  'pages.plan.resume': 'Resume subscription',
  'pages.plan.cancel': 'Cancel subscription',
  'pages.plan.addCredits': 'Add credits',
  'pages.plan.pack': '{credits} credits · {price}',
  'pages.plan.invoices': 'Invoices',
  'pages.plan.invoice.date': 'Date',
  'pages.plan.invoice.item': 'Item',
  'pages.plan.invoice.amount': 'Amount',
  'pages.plan.invoice.paymentMethod': 'Payment method',
  'pages.plan.invoice.view': 'View',
  'pages.plan.invoice.none': 'No invoices yet.',

  // Cancelling.
  'pages.cancel.failed': 'Something went wrong',
  'pages.cancel.details': '{reason}: details',
  'pages.cancel.tellMore': 'Tell us more',
  'pages.cancel.tellMoreOptional': 'Tell us more (optional)',
  'pages.cancel.keepPlan': 'Keep my plan',
  'pages.cancel.continue': 'Continue',
  'pages.cancel.periodEnd': 'the end of the paid period',
  'pages.cancel.staysActive':
    'Your plan stays active until {end}, then moves to the free plan. You can resume any time before that.',
  'pages.cancel.confirm': 'Confirm cancellation',
  'pages.cancel.thanks': 'Thanks for your feedback. You keep your plan until {end}.',
  'pages.cancel.done': 'Done',

  // The enterprise contact form.
  'pages.enterprise.failed': "We couldn't send your request: {reason}. Please try again.",
  'pages.enterprise.unknownError': 'unknown error',
  'pages.enterprise.firstName': 'First name',
  'pages.enterprise.lastName': 'Last name',
  'pages.enterprise.businessEmail': 'Business email',
  'pages.enterprise.companyName': 'Company name',
  'pages.enterprise.companySize': 'Company size',
  'pages.enterprise.socialChannel': 'Company social channel',
  'pages.enterprise.message': 'Message',
  'pages.enterprise.cancel': 'Cancel',
  'pages.enterprise.send': 'Send',
  'pages.enterprise.socialChannelExample': 'youtube.com/@yourcompany',
} as const;
