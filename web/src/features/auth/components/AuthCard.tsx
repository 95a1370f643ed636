import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Avatar, Box, Container, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** The centred card both the sign-in and the registration screens sit in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container component="main" maxWidth="xs">
      <Paper elevation={3} sx={{ mt: 8, p: 4, display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
        <Avatar sx={{ m: 1, bgcolor: 'secondary.main' }}>
          <LockOutlinedIcon />
        </Avatar>
        <Typography component="h1" variant="h5">
          {title}
        </Typography>
        <Box sx={{ mt: 2, width: '100%' }}>{children}</Box>
      </Paper>
    </Container>
  );
}
