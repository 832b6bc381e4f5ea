import { Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { MyMoments, isMyMomentsList } from './MyMoments';
import { t } from '../messages/catalogue';

/** /moments: every moment of the user's videos (all, favourites, clipped). */
export default function MyMomentsPage() {
  const [params, setParams] = useSearchParams();
  const list = params.get('list');
  return (
    <Stack maw={1100} mx="auto" gap="lg">
      <Stack gap={2}>
        <Title order={1} size="h2">
          {t('moments.mine.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('moments.mine.text')}
        </Text>
      </Stack>
      <MyMoments
        list={isMyMomentsList(list) ? list : 'all'}
        onListChange={(next) => setParams(next === 'all' ? {} : { list: next }, { replace: true })}
      />
    </Stack>
  );
}
