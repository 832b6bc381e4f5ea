import { Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { MyMoments, isMyMomentsList } from './MyMoments';

/** spec §2 /moments: every moment of the user's videos (all, favourites, clipped). */
export default function MyMomentsPage() {
  const [params, setParams] = useSearchParams();
  const list = params.get('list');
  return (
    <Stack maw={1100} mx="auto" gap="lg">
      <Stack gap={2}>
        <Title order={2}>Your moments</Title>
        <Text c="dimmed" size="sm">
          Every moment found in your videos, newest first.
        </Text>
      </Stack>
      <MyMoments
        list={isMyMomentsList(list) ? list : 'all'}
        onListChange={(next) => setParams(next === 'all' ? {} : { list: next }, { replace: true })}
      />
    </Stack>
  );
}
