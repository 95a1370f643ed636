import { Alert, Box, Button, Typography } from '@mui/material';
import { isRouteErrorResponse, useRouteError } from 'react-router';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Shown by the router when a route throws or its code fails to load. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: 8, px: 2 }}>
      <Typography variant="h4" gutterBottom>
        Unexpected Application Error!
      </Typography>
      <Alert severity="error" sx={{ mb: 3 }}>
        {describe(error)}
      </Alert>
      {/* A full load, not a client navigation: the router state may be what broke. */}
      <Button variant="contained" onClick={() => window.location.assign('/')}>
        Back to Library
      </Button>
    </Box>
  );
}
