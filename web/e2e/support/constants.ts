export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e-admin-password';
export const USER_PASSWORD = 'e2e-user-password';
