import { LegalPage } from './LegalPage';
import { t } from '../messages/catalogue';

export default function TermsOfUsePage() {
  return (
    <LegalPage
      title={t('title.termsOfUse')}
      summary={t('pages.terms.summary')}
      sections={[
        { heading: t('pages.terms.software.heading'), body: t('pages.terms.software.body') },
        { heading: t('pages.terms.service.heading'), body: t('pages.terms.service.body') },
        { heading: t('pages.terms.content.heading'), body: t('pages.terms.content.body') },
        { heading: t('pages.terms.use.heading'), body: t('pages.terms.use.body') },
        { heading: t('pages.terms.plans.heading'), body: t('pages.terms.plans.body') },
        { heading: t('pages.terms.changes.heading'), body: t('pages.terms.changes.body') },
      ]}
    />
  );
}
