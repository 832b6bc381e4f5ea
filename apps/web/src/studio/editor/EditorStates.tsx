import { Alert, Anchor, Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../api/client';
import { t } from '../../messages/catalogue';

/**
 * The states both editors pass through before they open: a failed load (not found, or another
 * error with a way back to the library), loading, and a source video no longer stored.
 */
export function EditorLoadFailed({
  error,
  notFoundTitle,
  failedTitle,
  notFoundText,
  backTo,
  backLabel,
}: {
  error: unknown;
  notFoundTitle: string;
  failedTitle: string;
  notFoundText: string;
  backTo: string;
  backLabel: string;
}) {
  const missing = isApiError(error) && error.status === 404;
  return (
    <Center h="50vh" p="md">
      <Alert
        color={missing ? 'gray' : 'red'}
        title={missing ? notFoundTitle : failedTitle}
        maw={480}
      >
        {missing ? notFoundText : isApiError(error) ? error.message : t('studio.failed.unknown')}{' '}
        <Anchor component={Link} to={backTo}>
          {backLabel}
        </Anchor>
      </Alert>
    </Center>
  );
}

export function EditorLoading({ label }: { label: string }) {
  return (
    <Center h="50vh">
      <Loader type="dots" role="status" aria-label={label} />
    </Center>
  );
}

export function SourceVideoGone({ children }: { children: ReactNode }) {
  return (
    <Center h="50vh" p="md">
      <Alert color="gray" title={t('studio.sourceGone.title')} maw={480}>
        {children}
      </Alert>
    </Center>
  );
}
