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
import { queryWords, searchTarget } from './queryWords';
import { SearchHitCard } from './SearchHitCard';

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
          aria-label="Search"
          placeholder="Search shared moments and your videos"
          leftSection={<IconSearch size={18} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button size="md" type="submit">
          Search
        </Button>
      </Flex>
    </form>
  );
}

function ResultsSkeleton() {
  return (
    <Stack gap="sm" aria-label="Loading results">
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
        title={`Nothing matches “${query}”`}
        description={
          signedIn
            ? 'No shared moment and none of your videos mention it. Try other words, or paste a video link to find its moments.'
            : 'No shared moment mentions it. Try other words, or log in to search your own videos too.'
        }
      >
        <EmptyState.Actions>
          {signedIn ? (
            <Button component={Link} to="/home" variant="light">
              Add a video
            </Button>
          ) : (
            <Button
              component={Link}
              to={`/login?redirect=${encodeURIComponent(`/search/result?query=${encodeURIComponent(query)}`)}`}
            >
              Log in
            </Button>
          )}
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/** spec §2 /search/result: what the instance holds about the query, 24 at a time (§9). */
export default function SearchResultPage() {
  const [params] = useSearchParams();
  const query = (params.get('query') ?? params.get('q') ?? '').trim();
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  const results = useSearchResults(query);
  const words = queryWords(query);
  const hits = results.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Stack maw={880} mx="auto" gap="lg" py={{ base: 'md', sm: 'xl' }}>
      <SearchBox initial={query} />
      {!query ? (
        <Text c="dimmed">Type a few words to search shared moments and your videos.</Text>
      ) : (
        <>
          <div>
            <Title order={2} size="h3">
              Results for “{query}”
            </Title>
            {!signedIn && status !== 'loading' && (
              <Text size="sm" c="dimmed">
                Showing shared moments.{' '}
                <Anchor
                  component={Link}
                  to={`/login?redirect=${encodeURIComponent(`/search/result?query=${encodeURIComponent(query)}`)}`}
                >
                  Log in
                </Anchor>{' '}
                to search your own videos too.
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
                    Load more
                  </Button>
                </Center>
              )}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
