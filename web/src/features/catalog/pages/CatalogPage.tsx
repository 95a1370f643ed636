import { CombinedGraphQLErrors } from '@apollo/client';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, CircularProgress, Container, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

const isNotFound = (error: unknown) =>
  CombinedGraphQLErrors.is(error) &&
  error.errors.some((e) => e.extensions?.code === 'NOT_FOUND' || e.extensions?.code === 'BAD_USER_INPUT');

/** The frame of an author's or a series' page: back to the library, the heading, loading and errors. */
export function CatalogPage({
  kind,
  title,
  subtitle,
  loading,
  error,
  children,
}: {
  kind: 'Author' | 'Series';
  title: string | undefined;
  subtitle?: string;
  loading: boolean;
  error: unknown;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/')} sx={{ mb: 2 }}>
        Back to Library
      </Button>
      {loading && !title && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
          <CircularProgress aria-label={`Loading ${kind.toLowerCase()}`} />
        </Box>
      )}
      {error !== undefined && !title && (
        <Alert severity="error">
          {isNotFound(error) ? `${kind} not found` : `Failed to load the ${kind.toLowerCase()}`}
        </Alert>
      )}
      {title && (
        <>
          <Typography variant="overline" color="text.secondary" component="p">
            {kind}
          </Typography>
          <Typography variant="h4" component="h1">
            {title}
          </Typography>
          {subtitle && <Typography color="text.secondary">{subtitle}</Typography>}
          {children}
        </>
      )}
    </Container>
  );
}
