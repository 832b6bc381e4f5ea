import { Card, EmptyState, Stack, Tabs, Title, Button } from '@mantine/core';
import { LIBRARY_TABS, type LibraryTab } from '@moments/contract';
import { IconFolder, IconNotes, IconSparkles, IconVideo } from '@tabler/icons-react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { LibraryMomentsTab } from '../moments/LibraryMomentsTab';
import { VideoTasksList } from '../tasks/VideoTasksList';
import { ProjectsTab } from '../jobs/ProjectsTab';

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
  const navigate = useNavigate();
  if (!isLibraryTab(tab)) return <Navigate to="/library/videoTasks" replace />;

  return (
    <Stack maw={1100} mx="auto" gap="lg">
      <Title order={2}>Library</Title>
      <Tabs value={tab} onChange={(next) => next && void navigate(`/library/${next}`)}>
        <Tabs.List>
          {LIBRARY_TABS.map((key) => {
            const { label, icon: Icon } = TAB_CONTENT[key];
            return (
              <Tabs.Tab key={key} value={key} leftSection={<Icon size={16} />}>
                {label}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
      </Tabs>
      {tab === 'videoTasks' ? (
        <VideoTasksList />
      ) : tab === 'moments' ? (
        <LibraryMomentsTab />
      ) : tab === 'projects' ? (
        <ProjectsTab />
      ) : (
        <Card p="xl">
          <EmptyState
            variant="light"
            icon={(() => {
              const Icon = TAB_CONTENT[tab].icon;
              return <Icon size={26} />;
            })()}
            title={TAB_CONTENT[tab].empty}
            description={TAB_CONTENT[tab].description}
          >
            <EmptyState.Actions>
              <Button component={Link} to="/home">
                Add a video
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      )}
    </Stack>
  );
}
