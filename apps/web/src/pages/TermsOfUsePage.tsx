import { LegalPage } from './LegalPage';

export default function TermsOfUsePage() {
  return (
    <LegalPage
      title="Terms of Use"
      summary="Plain terms for using this installation of Moments, an open-source, self-hostable app."
      sections={[
        {
          heading: 'The software',
          body: 'Moments is open-source software provided as is, without warranty of any kind. Its licence, not these terms, governs copying and changing the code.',
        },
        {
          heading: 'This service',
          body: 'The person or organisation hosting this installation provides the service and may set their own limits, plans and prices. They can suspend accounts that break these terms or the law.',
        },
        {
          heading: 'Your content',
          body: 'Only process videos you have the right to use. You keep all rights to what you upload and create; you allow the service to store and process it to provide the features you ask for. Respect the terms of the platforms you link videos from.',
        },
        {
          heading: 'Acceptable use',
          body: 'Do not use the service to break the law, infringe others’ rights, distribute harmful content, or overload or attack the server.',
        },
        {
          heading: 'Plans and credits',
          body: 'Paid plans and credits, when the operator enables them, are described on the plan page. Failed tasks and exports do not use credits.',
        },
        {
          heading: 'Changes',
          body: 'The operator may update these terms; continued use after an update means you accept the new version.',
        },
      ]}
    />
  );
}
