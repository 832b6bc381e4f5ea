import { LIBRARY_TABS, type LibraryTab } from '@moments/contract';
import { IconFolder, IconNotes, IconSparkles, IconVideo } from '@tabler/icons-react';
import { Navigate, useParams } from 'react-router';
import { RouteTabsPage } from '../layout/RouteTabsPage';
import { LibraryMomentsTab } from '../moments/LibraryMomentsTab';
import { VideoTasksList } from '../tasks/VideoTasksList';
import { ProjectsTab } from '../jobs/ProjectsTab';
import { NotesTab } from '../notes/NotesTab';

const TAB_CONTENT: Record<
  LibraryTab,
  { label: string; icon: typeof IconVideo; empty: string; description: string }
> = {
  videoTasks: {
    label: 'Videos',
    icon: IconVideo,
    empty: 'No video tasks yet',
    description: 'Videos you send to Moments appear here with their progress and results.',
  },
  moments: {
    label: 'Moments',
    icon: IconSparkles,
    empty: 'No saved moments yet',
    description: 'Moments you favourite or clip are collected here.',
  },
  projects: {
    label: 'Projects',
    icon: IconFolder,
    empty: 'No projects yet',
    description: 'Clips you edit and export are kept here as projects.',
  },
  notes: {
    label: 'Notes',
    icon: IconNotes,
    empty: 'No notes yet',
    description: 'Notes you save from video summaries are kept here.',
  },
};

function isLibraryTab(value: string | undefined): value is LibraryTab {
  return (LIBRARY_TABS as readonly string[]).includes(value ?? '');
}

/** spec §2 /library/{tab}: videoTasks, moments, projects, notes. Lists arrive with later issues. */
export default function LibraryPage() {
  const { tab } = useParams();
  if (!isLibraryTab(tab)) return <Navigate to="/library/videoTasks" replace />;

  return (
    <RouteTabsPage
      title="Library"
      basePath="/library"
      tabs={LIBRARY_TABS}
      content={TAB_CONTENT}
      current={tab}
      maxWidth={1100}
    >
      {tab === 'videoTasks' ? (
        <VideoTasksList />
      ) : tab === 'moments' ? (
        <LibraryMomentsTab />
      ) : tab === 'projects' ? (
        <ProjectsTab />
      ) : (
        <NotesTab />
      )}
    </RouteTabsPage>
  );
}
