import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { RegisterPage } from '../features/auth/pages/RegisterPage';
import { LibraryPage } from '../features/library/pages/LibraryPage';
import { RequireAdmin, RequireAuth, SessionLoading } from './guards';
import { RootLayout } from './RootLayout';
import { RouteErrorPage } from './RouteErrorPage';

// Everything but sign-in and the library loads on demand: the player (Shaka) and the admin
// screens are large, and Devices and Profile are visited rarely.
const admin = {
  dashboard: () =>
    import('../features/admin/pages/AdminDashboardPage').then((m) => ({ Component: m.AdminDashboardPage })),
  users: () => import('../features/admin/pages/UserListPage').then((m) => ({ Component: m.UserListPage })),
  createUser: () => import('../features/admin/pages/CreateUserPage').then((m) => ({ Component: m.CreateUserPage })),
  editUser: () => import('../features/admin/pages/EditUserPage').then((m) => ({ Component: m.EditUserPage })),
  files: () => import('../features/admin/pages/FileListPage').then((m) => ({ Component: m.FileListPage })),
  upload: () => import('../features/admin/pages/UploadFilePage').then((m) => ({ Component: m.UploadFilePage })),
  editFile: () => import('../features/admin/pages/EditFilePage').then((m) => ({ Component: m.EditFilePage })),
  access: () => import('../features/admin/pages/FileAccessPage').then((m) => ({ Component: m.FileAccessPage })),
};
const player = () => import('../features/player/pages/PlayerPage').then((m) => ({ Component: m.PlayerPage }));
const devices = () => import('../features/devices/pages/DevicesPage').then((m) => ({ Component: m.DevicesPage }));
const profile = () => import('../features/profile/pages/ProfilePage').then((m) => ({ Component: m.ProfilePage }));

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
        element: <RequireAuth />,
        children: [
          { index: true, element: <LibraryPage /> },
          { path: 'player/:id', lazy: player },
          { path: 'devices', lazy: devices },
          { path: 'profile', lazy: profile },
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
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
