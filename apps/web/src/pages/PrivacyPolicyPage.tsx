import { List } from '@mantine/core';
import { LegalPage } from './LegalPage';

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      summary="Moments is open-source software that anyone can run on their own server. This page explains what the software stores and who is responsible for it."
      sections={[
        {
          heading: 'Who runs this installation',
          body: 'This copy of Moments is operated by whoever hosts it, not by the authors of the software. The operator decides where the server runs and is responsible for your data. Contact them with any privacy request.',
        },
        {
          heading: 'What is stored',
          body: (
            <List spacing={4}>
              <List.Item>
                Your account: email address, username and a hashed password (never the password
                itself).
              </List.Item>
              <List.Item>
                What you create: videos you upload or link, their transcripts, moments, clips,
                exports and notes.
              </List.Item>
              <List.Item>
                Your plan, credit usage and, if billing is enabled, the records the payment provider
                returns (never full card numbers).
              </List.Item>
              <List.Item>
                Technical logs the server needs to run and to investigate failures.
              </List.Item>
            </List>
          ),
        },
        {
          heading: 'What the software does with it',
          body: 'Your data is used only to provide the features you use. The software contains no advertising, no tracking scripts and no sale of data. Processing such as transcription runs on the operator’s server; it reaches an outside service only when the operator configures one (for example a language model or storage provider).',
        },
        {
          heading: 'In your browser',
          body: 'A session cookie keeps you logged in. Local storage remembers small preferences, such as having closed a banner or a pop-up. A service worker helps the app load; it does not cache your account data.',
        },
        {
          heading: 'Your choices',
          body: 'You can ask the operator to export or delete your account and everything it holds. Deleting removes your videos, moments and exports from the server.',
        },
      ]}
    />
  );
}
