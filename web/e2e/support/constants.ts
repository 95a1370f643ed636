export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e-admin-password';
export const USER_PASSWORD = 'e2e-user-password';

/** Browser test files run at once (vitest.e2e.config.ts), each worker on a server of its own (global-setup.ts). */
export const E2E_WORKERS = 2;
