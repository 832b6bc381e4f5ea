import { List } from '@mantine/core';
import { LegalPage } from './LegalPage';
import { t } from '../messages/catalogue';

const STORED = [
  'pages.privacy.stored.account',
  'pages.privacy.stored.creations',
  'pages.privacy.stored.billing',
  'pages.privacy.stored.logs',
] as const;

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title={t('title.privacyPolicy')}
      summary={t('pages.privacy.summary')}
      sections={[
        { heading: t('pages.privacy.operator.heading'), body: t('pages.privacy.operator.body') },
        {
          heading: t('pages.privacy.stored.heading'),
          body: (
            <List spacing={4}>
              {STORED.map((key) => (
                <List.Item key={key}>{t(key)}</List.Item>
              ))}
            </List>
          ),
        },
        { heading: t('pages.privacy.use.heading'), body: t('pages.privacy.use.body') },
        { heading: t('pages.privacy.browser.heading'), body: t('pages.privacy.browser.body') },
        { heading: t('pages.privacy.choices.heading'), body: t('pages.privacy.choices.body') },
      ]}
    />
  );
}
