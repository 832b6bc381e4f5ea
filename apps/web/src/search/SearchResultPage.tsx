import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  EmptyState,
  Flex,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconSearch, IconSearchOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import { useSearchResults } from './api';
import { queryWords } from '@moments/domain/search';
import { searchTarget } from './searchTarget';
import { SearchHitCard } from './SearchHitCard';
import { t } from '../messages/catalogue';

/** The box at the top of the results: search again, or open a pasted link. */
function SearchBox({ initial }: { initial: string }) {
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  useEffect(() => setText(initial), [initial]);
  return (
    <form
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        const target = searchTarget(text);
        if (target) void navigate(target);
      }}
    >
      <Flex gap="sm" direction={{ base: 'column', sm: 'row' }}>
        <TextInput
          flex={1}
          size="md"
          aria-label={t('a11y.search')}
          placeholder={t('search.box.placeholder')}
          leftSection={<IconSearch size={18} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button size="md" type="submit">
          {t('a11y.search')}
        </Button>
      </Flex>
    </form>
  );
}

function ResultsSkeleton() {
  return (
    <Stack gap="sm" role="status" aria-label={t('a11y.loadingResults')}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} h={122} radius="md" />
      ))}
    </Stack>
  );
}

function NoResults({ query, signedIn }: { query: string; signedIn: boolean }) {
  return (
    <Card p="xl" data-testid="search-empty">
      <EmptyState
        variant="light"
        icon={<IconSearchOff size={26} />}
        title={t('search.empty.title', { query })}
        description={signedIn ? t('search.empty.signedIn') : t('search.empty.visitor')}
      >
        <EmptyState.Actions>
          {signedIn ? (
            <Button component={Link} to="/home" variant="light">
              {t('search.empty.addVideo')}
            </Button>
          ) : (
            <Button
              component={Link}
              to={`/login?redirect=${encodeURIComponent(`/search/result?query=${encodeURIComponent(query)}`)}`}
            >
              {t('search.logIn')}
            </Button>
          )}
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/**
 * The results of a query, 24 at a time: shared moments for everyone, and a signed-in
 * user's own videos and moments. Used by /search/result and, for visitors, by the home page.
 */
export function SearchResults({ query }: { query: string }) {
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  const results = useSearchResults(query);
  const words = queryWords(query);
  const hits = results.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <div>
        <Title order={1} size="h3">
          {t('search.results.title', { query })}
        </Title>
        {!signedIn && status !== 'loading' && (
          <Text size="sm" c="dimmed">
            {t('search.results.visitor')}{' '}
            <Anchor
              component={Link}
              to={`/login?redirect=${encodeURIComponent(`/search/result?query=${encodeURIComponent(query)}`)}`}
            >
              {t('search.logIn')}
            </Anchor>{' '}
            {t('search.results.visitorAfterLink')}
          </Text>
        )}
      </div>
      {results.isPending ? (
        <ResultsSkeleton />
      ) : results.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {results.error.message}
        </Alert>
      ) : hits.length === 0 ? (
        <NoResults query={query} signedIn={signedIn} />
      ) : (
        <Stack gap="sm" data-testid="search-results">
          {hits.map((hit) => (
            <SearchHitCard
              key={`${hit.kind}:${hit.moment_id ?? hit.task_id}`}
              hit={hit}
              words={words}
            />
          ))}
          {results.hasNextPage && (
            <Center>
              <Button
                variant="light"
                loading={results.isFetchingNextPage}
                onClick={() => void results.fetchNextPage()}
              >
                {t('search.results.loadMore')}
              </Button>
            </Center>
          )}
        </Stack>
      )}
    </>
  );
}

/** /search/result: what the instance holds about the query. */
export default function SearchResultPage() {
  const [params] = useSearchParams();
  const query = (params.get('query') ?? params.get('q') ?? '').trim();
  return (
    <Stack maw={880} mx="auto" gap="lg" py={{ base: 'md', sm: 'xl' }}>
      <SearchBox initial={query} />
      {!query ? <Text c="dimmed">{t('search.noQuery')}</Text> : <SearchResults query={query} />}
    </Stack>
  );
}
