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
import { UPLOAD_URL_PREFIX, type UrlSource, type VideoMeta } from '@moments/contract';
import { useQuery } from '@tanstack/react-query';
import { IconAlertCircle, IconLink, IconLogin, IconSearch, IconTools } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { useSession } from '../account/session';
import { useTranslationSupport } from '../captions/api';
import { EXTERNAL_TOOL_LABELS, TOOL_START, isExternalTool, type ExternalTool } from '../config';
import { t } from '../messages/catalogue';
import { StartTaskForm } from './StartTaskForm';
import { UploadArea } from './UploadArea';
import { finishedUpload, useVideoUpload } from './upload';
import { DeleteUploadButton } from './DeleteUploadButton';
import { useLinkPreview, type LinkPreview } from './useLinkPreview';
import { VideoCard, VideoCardSkeleton } from './VideoCard';

function hintFor(preview: LinkPreview, pending: boolean) {
  if (pending || preview.kind === 'checking') return t('ingest.box.reading');
  switch (preview.kind) {
    case 'keyword':
      return t('ingest.box.pressSearch');
    case 'loading':
      return t('ingest.box.fetching');
    default:
      return t('ingest.box.sources');
  }
}

/** The page of an uploaded video: it survives a refresh, Back and Forward (spec route). */
const uploadResultPath = (uploadId: string) =>
  `/home/video/result?upload=${encodeURIComponent(uploadId)}`;

/**
 * The uploaded video the address names (`?upload=<id>`), read again from the server, so the
 * card and the start form come back after a refresh or Back/Forward without uploading again.
 * A finished upload puts its id in the address.
 */
function useKeptUpload(signedIn: boolean): VideoMeta | null {
  const [params] = useSearchParams();
  const uploadId = params.get('upload');
  // The upload that just finished hands its meta over with the address: no second look-up.
  const handedOver = (useLocation().state as HandedOver | null)?.uploaded;
  const query = useQuery({
    queryKey: ['upload', uploadId],
    queryFn: () => api.get<VideoMeta>(`/api/upload/${encodeURIComponent(uploadId!)}`),
    enabled: signedIn && Boolean(uploadId),
    initialData: handedOver?.url === `${UPLOAD_URL_PREFIX}${uploadId}` ? handedOver : undefined,
    staleTime: Infinity,
  });
  return uploadId ? (query.data ?? null) : null;
}

/** What a finished upload hands to the page of its address. */
interface HandedOver {
  uploaded: VideoMeta;
  fileName: string | null;
}

const uploadIdOf = (video: VideoMeta | null) =>
  video?.url.startsWith(UPLOAD_URL_PREFIX) ? video.url.slice(UPLOAD_URL_PREFIX.length) : null;

/**
 * Once an upload is done, the page becomes its address (pushed, so Back returns here). Until the
 * address names it, the finished upload is not shown: its card and form appear once, there.
 */
function useUploadAddress(video: VideoMeta | null, fileName: string | null): boolean {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uploadId = uploadIdOf(video);
  const addressed = uploadId !== null && params.get('upload') === uploadId;
  useEffect(() => {
    if (uploadId && !addressed) {
      const state: HandedOver = { uploaded: video!, fileName };
      void navigate(uploadResultPath(uploadId), { state });
    }
  }, [uploadId, addressed, video, fileName, navigate]);
  return addressed;
}

/**
 * The home input: one box for a link or keywords, an upload area, and once a video is known,
 * its card and the start form.
 */
export function IngestPanel() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const toolParam = params.get('tool');
  const tool = isExternalTool(toolParam) ? toolParam : null;
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  // `url` carries a video link whose metadata is fetched at once.
  const [text, setText] = useState(params.get('url') ?? params.get('query') ?? '');
  // A page opened for the upload that just finished shows it finished, as the page before did.
  const state = useLocation().state as Partial<HandedOver> | null;
  const handedOver = state?.uploaded?.url ? (state as HandedOver) : null;
  const [source, setSource] = useState<'link' | 'upload'>(handedOver ? 'upload' : 'link');
  const { preview, commit, pending } = useLinkPreview(text, signedIn);
  const upload = useVideoUpload(
    handedOver ? finishedUpload(handedOver.uploaded, handedOver.fileName) : undefined,
  );
  const kept = useKeptUpload(signedIn);
  const uploadAddressed = useUploadAddress(upload.state.video, upload.state.fileName);

  const isLink =
    preview.kind === 'ready' || preview.kind === 'loading' || preview.kind === 'login-needed';
  const submit = () => {
    const value = text.trim();
    if (!value) return;
    setSource('link');
    if (preview.kind === 'keyword' && !pending) {
      // /search/result needs a login; a visitor's search answers on /home itself.
      const page = signedIn ? '/search/result' : '/home';
      void navigate(`${page}?query=${encodeURIComponent(value)}`);
    } else {
      commit();
    }
  };

  let chosen: { video: VideoMeta; urlSource: UrlSource } | null = null;
  if (source === 'link' && preview.kind === 'ready') {
    chosen = { video: preview.video, urlSource: preview.platform ?? 'direct' };
  } else if (source === 'upload' && upload.state.video) {
    if (uploadAddressed) chosen = { video: upload.state.video, urlSource: 'upload' };
  } else if (source === 'link' && !text.trim() && kept) {
    chosen = { video: kept, urlSource: 'upload' };
  }
  const loginTarget = `/login?redirect=${encodeURIComponent(`/home?url=${encodeURIComponent(text.trim())}`)}`;

  return (
    <Stack gap="lg">
      {tool && <ToolIntro tool={tool} />}
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
              aria-label={t('a11y.videoLinkOrSearch')}
              placeholder={t('ingest.box.placeholder')}
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
              {preview.kind === 'keyword' && !pending ? t('a11y.search') : t('ingest.box.getVideo')}
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
                {t('ingest.box.logIn')}
              </Anchor>{' '}
              {t('ingest.box.logInToImport')}
            </Text>
          </Alert>
        ) : (
          <Text size="sm" c="dimmed" mt="sm">
            {hintFor(preview, pending)}
          </Text>
        )}

        {signedIn && (
          <>
            <Divider label={t('ingest.box.orUpload')} labelPosition="center" my="lg" />
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
          {uploadIdOf(chosen.video) && (
            <DeleteUploadButton video={chosen.video} uploadId={uploadIdOf(chosen.video)!} />
          )}
          <Card p={{ base: 'md', sm: 'lg' }}>
            <Title order={2} size="h4" mb="md">
              {t('ingest.whatToMake')}
            </Title>
            <StartTaskForm
              key={chosen.video.url}
              video={chosen.video}
              urlSource={chosen.urlSource}
              initialMode={tool ? TOOL_START[tool].mode : undefined}
              wantsTranslation={tool ? TOOL_START[tool].translate : false}
            />
          </Card>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * What a Tools menu entry opened: the tool named, and what it needs from this server
 * (translation needs an LLM endpoint), said plainly as the captions page says it.
 */
function ToolIntro({ tool }: { tool: ExternalTool }) {
  const translation = useTranslationSupport();
  const needsLlm = TOOL_START[tool].translate && translation.data?.engine === null;
  return (
    <Alert
      variant="light"
      color={needsLlm ? 'yellow' : 'violet'}
      icon={<IconTools size={18} />}
      title={EXTERNAL_TOOL_LABELS[tool]}
      // The light alert's coloured title is below 4.5:1 on its tinted background.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="tool-intro"
    >
      <Stack gap={4}>
        <Text size="sm">{t(`tools.start.${tool}`)}</Text>
        {needsLlm && (
          <Text size="sm" fw={600} data-testid="tool-needs">
            {t('tools.needsLlm')}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
