import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  EmptyState,
  Grid,
  Group,
  Loader,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { MomentView } from '@moments/contract';
import { IconAlertTriangle, IconArrowRight, IconLock, IconSparkles } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useSession } from '../account/session';
import { isNotFound, useMomentView } from './api';
import { formatClipLength, formatSpan } from './format';
import { Hashtags } from './MomentCard';
import { MomentActions } from './MomentActions';
import { MomentPlayer } from './MomentPlayer';
import { MomentReasons } from './MomentReasons';
import { ScoreRing } from './ScoreRing';
import { useVideoTopBar } from './useVideoTopBar';
import { t } from '../messages/catalogue';

function PrivateMoment() {
  return (
    <Card p="xl" maw={640} mx="auto" data-testid="moment-private">
      <EmptyState
        variant="light"
        icon={<IconLock size={26} />}
        title={t('title.thisMomentIsPrivateOrWas')}
        description={t('moments.private.text')}
      >
        <EmptyState.Actions>
          <Button component={Link} to="/home">
            {t('moments.private.home')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/** For visitors: what Moments is, and a way in (anonymous visitors may view a moment). */
function SignUpCallToAction() {
  return (
    <Card p="lg" bg="violet.0" style={{ borderColor: 'var(--mantine-color-violet-2)' }}>
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="xl" variant="filled">
            <IconSparkles size={22} />
          </ThemeIcon>
          <Title order={3} size="h4">
            {t('moments.cta.title')}
          </Title>
        </Group>
        <Text size="sm">{t('moments.cta.text')}</Text>
        <Group gap="sm">
          <Button
            component={Link}
            to="/login?type=signup"
            rightSection={<IconArrowRight size={16} />}
          >
            {t('moments.cta.signUp')}
          </Button>
          <Anchor component={Link} to="/login" size="sm" c="violet.8">
            {t('moments.cta.logIn')}
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}

/** /home/moment/{momentId}: one moment, public once shared; its owner also gets actions. */
export default function MomentViewPage() {
  const { momentId = '' } = useParams();
  const view = useMomentView(momentId);
  const { status } = useSession();
  useVideoTopBar(view.data?.video);

  if (view.isPending) {
    return (
      <Center h={300}>
        <Loader />
      </Center>
    );
  }
  if (view.isError) {
    return isNotFound(view.error) ? (
      <PrivateMoment />
    ) : (
      <Alert
        maw={640}
        mx="auto"
        color="red"
        icon={<IconAlertTriangle size={18} />}
        title={t('title.couldNotLoadThisMoment')}
      >
        {view.error.message}
      </Alert>
    );
  }
  return <MomentDetails moment={view.data} visitor={status === 'anonymous'} />;
}

function MomentDetails({ moment, visitor }: { moment: MomentView; visitor: boolean }) {
  const isSearch = moment.type === 'search_snippet';
  // Side by side the call to action sits under the player; stacked, after the moment itself.
  const isWide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  return (
    <Stack maw={1100} mx="auto" gap="lg">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Card p="sm">
              <MomentPlayer
                mediaUrl={moment.media_url}
                // A visitor's media is the span alone (it starts at media_start), not the whole video.
                span={{
                  start: moment.start - (moment.media_start ?? 0),
                  end: moment.end - (moment.media_start ?? 0),
                }}
                poster={moment.video.thumbnail}
              />
            </Card>
            {visitor && isWide && <SignUpCallToAction />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <Card p="lg">
              <Stack gap="sm">
                <Group wrap="nowrap" align="flex-start" gap="md">
                  <ScoreRing
                    score={moment.score}
                    size={76}
                    label={isSearch ? t('moments.score.relevance') : t('moments.score.virality')}
                  />
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Title order={1} size="h3" lh={1.25} data-testid="moment-title">
                      {moment.title}
                    </Title>
                    <Text size="xs" c="dimmed">
                      {t('moments.view.facts', {
                        span: formatSpan(moment.start, moment.end),
                        length: formatClipLength(moment.start, moment.end),
                        video: moment.video.title || t('moments.view.aVideo'),
                      })}
                    </Text>
                  </Stack>
                </Group>
                {moment.description && <Text size="sm">{moment.description}</Text>}
                <Hashtags hashtags={moment.hashtags} />
                {moment.owned && <MomentActions moment={moment} />}
                {moment.owned && (
                  <Anchor
                    component={Link}
                    to={`/video/${encodeURIComponent(moment.task_id)}/moments?moment=${encodeURIComponent(moment.id)}`}
                    size="sm"
                  >
                    {t('moments.view.allOfVideo')}
                  </Anchor>
                )}
              </Stack>
            </Card>
            {moment.reasons.length > 0 && (
              <Card p="lg">
                <Title order={2} size="h5" mb="sm">
                  {isSearch ? t('moments.why.search') : t('moments.why.viral')}
                </Title>
                <MomentReasons moment={moment} />
              </Card>
            )}
            {moment.transcript && (
              <Card p="lg">
                <Title order={2} size="h5" mb="xs">
                  {t('summaries.transcript')}
                </Title>
                <Text size="sm" data-testid="moment-transcript" style={{ whiteSpace: 'pre-wrap' }}>
                  {moment.transcript}
                </Text>
              </Card>
            )}
            {visitor && !isWide && <SignUpCallToAction />}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
