import { LIBRARY_TABS, type LibraryTab } from '@moments/contract';
import { IconFolder, IconNotes, IconSparkles, IconVideo } from '@tabler/icons-react';
import { Navigate, useParams } from 'react-router';
import { RouteTabsPage, type RouteTab } from '../layout/RouteTabsPage';
import { LibraryMomentsTab } from '../moments/LibraryMomentsTab';
import { VideoTasksList } from '../tasks/VideoTasksList';
import { ProjectsTab } from '../jobs/ProjectsTab';
import { NotesTab } from '../notes/NotesTab';
import { t } from '../messages/catalogue';

const TAB_CONTENT: Record<LibraryTab, RouteTab> = {
  videoTasks: { label: 'pages.library.videos', icon: IconVideo },
  moments: { label: 'pages.library.moments', icon: IconSparkles },
  projects: { label: 'a11y.projects', icon: IconFolder },
  notes: { label: 'pages.library.notes', icon: IconNotes },
};

function isLibraryTab(value: string | undefined): value is LibraryTab {
  return (LIBRARY_TABS as readonly string[]).includes(value ?? '');
}

/** /library/{tab}: videoTasks, moments, projects, notes. */
export default function LibraryPage() {
  const { tab } = useParams();
  if (!isLibraryTab(tab)) return <Navigate to="/library/videoTasks" replace />;

  return (
    <RouteTabsPage
      title={t('title.library')}
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
