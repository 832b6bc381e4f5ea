import type { ComponentType } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { AppFrame, PageLoader } from '../layout/AppFrame';
import { HomeFallback, RequireLogin } from './guards';
import { RouteError } from './RouteError';

/**
 * Pages load lazily, so a stale chunk after a deploy surfaces as a route error that RouteError
 * turns into the update dialog.
 */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

function RootRedirect() {
  const { search, hash } = useLocation();
  return <Navigate to={`/home${search}${hash}`} replace />;
}

/** The route table with its access rules. */
export const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    errorElement: (
      <AppFrame>
        <RouteError />
      </AppFrame>
    ),
    hydrateFallbackElement: <PageLoader />,
    children: [
      {
        // Inside the layout, so a failing page keeps the menus around it.
        errorElement: <RouteError />,
        children: [
          // anonymous
          { index: true, element: <RootRedirect /> },
          { path: 'home', lazy: page(() => import('../pages/HomePage')) },
          { path: 'home/moment/:momentId', lazy: page(() => import('../moments/MomentViewPage')) },
          { path: 'login', lazy: page(() => import('../pages/LoginPage')) },
          { path: 'invite/landing', lazy: page(() => import('../invites/InviteLandingPage')) },
          { path: 'comingsoon', lazy: page(() => import('../pages/ComingSoonPage')) },
          {
            path: 'unsubscribe/:encodedParam',
            lazy: page(() => import('../mail/UnsubscribePage')),
          },
          // Opened from a mail, maybe on a device without the session: the token is the proof.
          {
            path: 'settings/email/confirm',
            lazy: page(() => import('../pages/settings/ConfirmEmailPage')),
          },
          { path: 'privacy-policy', lazy: page(() => import('../pages/PrivacyPolicyPage')) },
          { path: 'terms-of-use', lazy: page(() => import('../pages/TermsOfUsePage')) },
          // "not marked as login" in the route table: export results can be opened from a link.
          { path: 'job/:jobId', lazy: page(() => import('../jobs/JobResultPage')) },
          // Target of the legacy /sharesummary and /note links: shared content is public.
          { path: 's/:shareId', lazy: page(() => import('../shares/SharedPage')) },

          // login required
          {
            element: <RequireLogin />,
            children: [
              // The search results need a login; logged out, the guard leads to /login.
              { path: 'search/result', lazy: page(() => import('../search/SearchResultPage')) },
              { path: 'home/video/result', lazy: page(() => import('../ingest/VideoResultPage')) },
              {
                path: 'search/result/video/result',
                lazy: page(() => import('../ingest/VideoResultPage')),
              },
              { path: 'library', element: <Navigate to="/library/videoTasks" replace /> },
              { path: 'library/:tab', lazy: page(() => import('../pages/LibraryPage')) },
              {
                path: 'video/:taskId/moments',
                lazy: page(() => import('../moments/TaskMomentsPage')),
              },
              {
                path: 'video/:taskId/summary',
                lazy: page(() => import('../summaries/SummaryPage')),
              },
              {
                path: 'video/:taskId/captions',
                lazy: page(() => import('../captions/CaptionResultPage')),
              },
              {
                path: 'notification',
                lazy: page(() => import('../notifications/NotificationsPage')),
              },
              {
                path: 'moment/:momentId/clip',
                lazy: page(() => import('../studio/ClipEditorPage')),
              },
              { path: 'note/detail/:noteId', lazy: page(() => import('../notes/NoteDetailPage')) },
              { path: 'settings', element: <Navigate to="/settings/profile" replace /> },
              { path: 'settings/:tab', lazy: page(() => import('../pages/SettingsPage')) },
              { path: 'invite', lazy: page(() => import('../invites/InvitePage')) },
              { path: 'moments', lazy: page(() => import('../moments/MyMomentsPage')) },
            ],
          },

          { path: '*', element: <HomeFallback /> },
        ],
      },
    ],
  },
];
