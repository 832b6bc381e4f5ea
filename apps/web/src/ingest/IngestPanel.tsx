import {
  Alert,
  Anchor,
  Button,
  Card,
  Divider,
  Flex,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UrlSource, VideoMeta } from '@moments/contract';
import { IconAlertCircle, IconLink, IconLogin, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import { StartTaskForm } from './StartTaskForm';
import { UploadArea } from './UploadArea';
import { useVideoUpload } from './upload';
import { useLinkPreview, type LinkPreview } from './useLinkPreview';
import { VideoCard, VideoCardSkeleton } from './VideoCard';

const SOURCES_HINT =
  'YouTube, Google Drive, Dailymotion, Vimeo, TikTok, Facebook, Twitch, Bilibili and direct media links.';

function hintFor(preview: LinkPreview, pending: boolean) {
  if (pending || preview.kind === 'checking') return 'Reading…';
  switch (preview.kind) {
    case 'keyword':
      return 'Press Search to find videos about this.';
    case 'loading':
      return 'Fetching the video details…';
    default:
      return `Paste a link from ${SOURCES_HINT}`;
  }
}

/**
 * spec §2 home input: one box for a link or keywords, an upload area, and once a video is known,
 * its card and the start form.
 */
export function IngestPanel() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  // spec §2: `url` carries a video link whose metadata is fetched at once.
  const [text, setText] = useState(params.get('url') ?? '');
  const [source, setSource] = useState<'link' | 'upload'>('link');
  const { preview, commit, pending } = useLinkPreview(text, signedIn);
  const upload = useVideoUpload();

  const isLink =
    preview.kind === 'ready' || preview.kind === 'loading' || preview.kind === 'login-needed';
  const submit = () => {
    const value = text.trim();
    if (!value) return;
    setSource('link');
    if (preview.kind === 'keyword' && !pending) {
      void navigate(`/search/result?query=${encodeURIComponent(value)}`);
    } else {
      commit();
    }
  };

  let chosen: { video: VideoMeta; urlSource: UrlSource } | null = null;
  if (source === 'link' && preview.kind === 'ready') {
    chosen = { video: preview.video, urlSource: preview.platform ?? 'direct' };
  } else if (source === 'upload' && upload.state.video) {
    chosen = { video: upload.state.video, urlSource: 'upload' };
  }
  const loginTarget = `/login?redirect=${encodeURIComponent(`/home?url=${encodeURIComponent(text.trim())}`)}`;

  return (
    <Stack gap="lg">
      <Card p={{ base: 'md', sm: 'lg' }} shadow="sm">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Flex gap="sm" direction={{ base: 'column', sm: 'row' }}>
            <TextInput
              flex={1}
              size="lg"
              aria-label="Video link or search"
              placeholder="Paste a video link or search"
              value={text}
              onChange={(event) => {
                setText(event.currentTarget.value);
                setSource('link');
              }}
              leftSection={isLink ? <IconLink size={20} /> : <IconSearch size={20} />}
              rightSection={
                pending || preview.kind === 'checking' || preview.kind === 'loading' ? (
                  <Loader size="xs" />
                ) : null
              }
              error={preview.kind === 'error' && source === 'link'}
            />
            <Button size="lg" type="submit">
              {preview.kind === 'keyword' && !pending ? 'Search' : 'Get video'}
            </Button>
          </Flex>
        </form>

        {source === 'link' && preview.kind === 'error' ? (
          <Alert
            mt="sm"
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            data-testid="link-error"
          >
            {preview.error.message}
          </Alert>
        ) : source === 'link' && preview.kind === 'login-needed' ? (
          <Alert mt="sm" color="violet" variant="light" icon={<IconLogin size={18} />}>
            <Text size="sm">
              <Anchor component={Link} to={loginTarget} fw={600}>
                Log in
              </Anchor>{' '}
              to import this video and find its moments.
            </Text>
          </Alert>
        ) : (
          <Text size="sm" c="dimmed" mt="sm">
            {hintFor(preview, pending)}
          </Text>
        )}

        {signedIn && (
          <>
            <Divider label="or upload a video" labelPosition="center" my="lg" />
            <UploadArea
              upload={{
                ...upload,
                start: (file: File) => {
                  setSource('upload');
                  upload.start(file);
                },
              }}
            />
          </>
        )}
      </Card>

      {source === 'link' && preview.kind === 'loading' && <VideoCardSkeleton />}
      {chosen && (
        <Stack gap="md">
          <VideoCard video={chosen.video} />
          <Card p={{ base: 'md', sm: 'lg' }}>
            <Title order={4} mb="md">
              What should Moments make?
            </Title>
            <StartTaskForm
              key={chosen.video.url}
              video={chosen.video}
              urlSource={chosen.urlSource}
            />
          </Card>
        </Stack>
      )}
    </Stack>
  );
}
