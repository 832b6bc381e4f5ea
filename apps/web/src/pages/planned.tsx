import {
  IconFileText,
  IconGift,
  IconMailOff,
  IconNotes,
  IconShare,
  IconUsers,
  IconVideo,
} from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
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
