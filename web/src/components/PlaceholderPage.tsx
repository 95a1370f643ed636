import { Box, Button, Container, Typography } from '@mui/material';
import { Link } from 'react-router';

/** Stand-in for a screen that a later phase builds; keeps its route and title reachable. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Box sx={{ mt: 2 }}>
        <Button component={Link} to="/" variant="outlined">
          Back to Library
        </Button>
      </Box>
    </Container>
  );
}
