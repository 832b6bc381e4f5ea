import { Text } from '@mantine/core';
import {
  IconCut,
  IconFileText,
  IconGift,
  IconMailOff,
  IconMovie,
  IconNotes,
  IconSearch,
  IconShare,
  IconUsers,
  IconVideo,
} from '@tabler/icons-react';
import { useParams, useSearchParams } from 'react-router';
import { PlannedPage } from './PlannedPage';

/* Pages whose content later issues build. Each states what it will hold (spec §2 route table). */

export function VideoResultPage() {
  return (
    <PlannedPage
      icon={<IconVideo size={28} />}
      title="Video result"
      description="After you give a video by link or upload, this page shows its details and lets you start a task."
      features={[
        'Video title, thumbnail, duration and channel',
        'Find viral moments, search for moments, or make animated captions',
        'Source and translation languages and caption display',
      ]}
    />
  );
}

export function SearchResultPage() {
  const [params] = useSearchParams();
  const query = params.get('query') ?? params.get('q');
  return (
    <PlannedPage
      icon={<IconSearch size={28} />}
      title={query ? `Results for “${query}”` : 'Search results'}
      description="Videos and moments that match your search, 24 at a time."
      features={[
        'Matching videos with thumbnails and durations',
        'Open a video to find its moments',
      ]}
    />
  );
}

export function VideoSummaryPage() {
  return (
    <PlannedPage
      icon={<IconFileText size={28} />}
      title="Summary"
      description="A written summary of the video with its key points and chapters."
      features={['Key points with timestamps', 'Chapters', 'Save as a note or share']}
    />
  );
}

export function JobResultPage() {
  const { jobId } = useParams();
  return (
    <PlannedPage
      icon={<IconMovie size={28} />}
      title="Export"
      description="The rendered video of an export: watch it, download the MP4 and share it."
      features={['Progress while rendering', 'Download and share', 'Back to the clip editor']}
    >
      <Text size="xs" c="dimmed" ta="center">
        Export {jobId}
      </Text>
    </PlannedPage>
  );
}

export function ClipEditorPage() {
  return (
    <PlannedPage
      icon={<IconCut size={28} />}
      title="Clip editor"
      description="Trim the moment, pick an aspect ratio and caption style, preview exactly what will be exported."
      features={[
        'Trim on word boundaries',
        'Aspect ratios 9:16, 1:1, 4:5 and 16:9 with the speaker kept in frame',
        'Word-by-word animated captions, source, translation, both or none',
        'Export to MP4',
      ]}
    />
  );
}

export function NoteDetailPage() {
  return (
    <PlannedPage
      icon={<IconNotes size={28} />}
      title="Note"
      description="A note you saved from a video summary."
      features={['The note text with links back into the video', 'Share the note']}
    />
  );
}

export function SharedPage() {
  const [params] = useSearchParams();
  const isNote = params.get('note') === '1';
  return (
    <PlannedPage
      icon={<IconShare size={28} />}
      title={isNote ? 'Shared note' : 'Shared summary'}
      description={
        isNote
          ? 'A note someone shared with you from Moments.'
          : 'A video summary someone shared with you from Moments.'
      }
    />
  );
}

export function InvitePage() {
  return (
    <PlannedPage
      icon={<IconGift size={28} />}
      title="Invite friends"
      description="Share your invite link; you both get credits when a friend signs up."
      features={['Your personal invite link', 'Friends who joined and the credits you earned']}
    />
  );
}

export function InviteLandingPage() {
  return (
    <PlannedPage
      icon={<IconUsers size={28} />}
      title="You've been invited to Moments"
      description="Moments turns long videos into short clips with animated captions. Sign up through an invite and you both get extra credits."
    />
  );
}

export function UnsubscribePage() {
  return (
    <PlannedPage
      icon={<IconMailOff size={28} />}
      title="Unsubscribe"
      description="Stop receiving emails from Moments. Confirming here will turn off the emails this link was sent for."
    />
  );
}
