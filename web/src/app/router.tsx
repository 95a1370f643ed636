import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { RegisterPage } from '../features/auth/pages/RegisterPage';
import { RequireAdmin, RequireAuth, SessionLoading } from './guards';
import { RootLayout } from './RootLayout';
import { lazyPage } from './load-chunk';
import { RouteErrorPage } from './RouteErrorPage';

// Only sign-in and registration are in the first download: every page behind sign-in loads on
// demand, together with SignedInLayout (Apollo Client and the GraphQL documents). The player
// (Shaka) and the admin screens are large, and Devices and Profile are visited rarely.
const signedIn = lazyPage(() => import('./SignedInLayout'), 'SignedInLayout');
const library = lazyPage(() => import('../features/library/pages/LibraryPage'), 'LibraryPage');
const admin = {
  dashboard: lazyPage(() => import('../features/admin/pages/AdminDashboardPage'), 'AdminDashboardPage'),
  users: lazyPage(() => import('../features/admin/pages/UserListPage'), 'UserListPage'),
  createUser: lazyPage(() => import('../features/admin/pages/CreateUserPage'), 'CreateUserPage'),
  editUser: lazyPage(() => import('../features/admin/pages/EditUserPage'), 'EditUserPage'),
  files: lazyPage(() => import('../features/admin/pages/FileListPage'), 'FileListPage'),
  upload: lazyPage(() => import('../features/admin/pages/UploadFilePage'), 'UploadFilePage'),
  editFile: lazyPage(() => import('../features/admin/pages/EditFilePage'), 'EditFilePage'),
  access: lazyPage(() => import('../features/admin/pages/FileAccessPage'), 'FileAccessPage'),
  apiKeys: lazyPage(() => import('../features/admin/pages/ApiKeysPage'), 'ApiKeysPage'),
  collections: lazyPage(() => import('../features/collections/pages/CollectionsAdminPage'), 'CollectionsAdminPage'),
  editCollection: lazyPage(() => import('../features/collections/pages/CollectionEditPage'), 'CollectionEditPage'),
  graphqlExplorer: lazyPage(() => import('../features/admin/pages/GraphqlExplorerPage'), 'GraphqlExplorerPage'),
  listeningStats: lazyPage(() => import('../features/stats/pages/AdminListeningStatsPage'), 'AdminListeningStatsPage'),
};
const catalog = {
  author: lazyPage(() => import('../features/catalog/pages/AuthorPage'), 'AuthorPage'),
  series: lazyPage(() => import('../features/catalog/pages/SeriesPage'), 'SeriesPage'),
};
const player = lazyPage(() => import('../features/player/pages/PlayerPage'), 'PlayerPage');
const collection = lazyPage(() => import('../features/collections/pages/CollectionPage'), 'CollectionPage');
const devices = lazyPage(() => import('../features/devices/pages/DevicesPage'), 'DevicesPage');
const profile = lazyPage(() => import('../features/profile/pages/ProfilePage'), 'ProfilePage');
const listeningStats = lazyPage(() => import('../features/stats/pages/ListeningStatsPage'), 'ListeningStatsPage');

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <SessionLoading />,
    children: [
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      {
        lazy: signedIn,
        children: [
          {
            element: <RequireAuth />,
            children: [
              { index: true, lazy: library },
              { path: 'player/:id', lazy: player },
              { path: 'authors/:id', lazy: catalog.author },
              { path: 'series/:id', lazy: catalog.series },
              { path: 'collections/:id', lazy: collection },
              { path: 'devices', lazy: devices },
              { path: 'profile', lazy: profile },
              { path: 'stats', lazy: listeningStats },
            ],
          },
          {
            path: 'admin',
            element: <RequireAdmin />,
            children: [
              { index: true, lazy: admin.dashboard },
              { path: 'users', lazy: admin.users },
              { path: 'users/new', lazy: admin.createUser },
              { path: 'users/edit/:id', lazy: admin.editUser },
              { path: 'files', lazy: admin.files },
              { path: 'files/new', lazy: admin.upload },
              { path: 'files/upload', lazy: admin.upload },
              { path: 'files/edit/:id', lazy: admin.editFile },
              { path: 'files/:fileId/access', lazy: admin.access },
              { path: 'api-keys', lazy: admin.apiKeys },
              { path: 'collections', lazy: admin.collections },
              { path: 'collections/:id', lazy: admin.editCollection },
              { path: 'graphql', lazy: admin.graphqlExplorer },
              { path: 'stats', lazy: admin.listeningStats },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** The app's router; creating it starts loading the first page's code. */
export const createAppRouter = () => createBrowserRouter(routes);
export type AppRouter = ReturnType<typeof createAppRouter>;
