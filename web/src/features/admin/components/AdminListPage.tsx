import { Container } from '@mui/material';
import type { ReactNode } from 'react';
import type { Banners } from '../hooks/useBanners';
import { AdminPageHeader } from './AdminPageHeader';
import { Banner } from '../../../components/Banner';

interface Props {
  title: string;
  back: string;
  /** Buttons beside the title (Add User, Upload File). */
  actions?: ReactNode;
  banners: Pick<Banners, 'success' | 'error'>;
  /** The list's own load failure, already worded. */
  loadError?: string | null;
  children: ReactNode;
}

/** The frame of an admin list page: header, the success and error banners, then the list. */
export function AdminListPage({ title, back, actions, banners, loadError, children }: Props) {
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <AdminPageHeader title={title} back={back}>
        {actions}
      </AdminPageHeader>
      <Banner severity="success">{banners.success}</Banner>
      <Banner severity="error">{banners.error}</Banner>
      <Banner severity="error">{loadError}</Banner>
      {children}
    </Container>
  );
}
