import { useQuery } from '@apollo/client/react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Container,
  Grid,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ListeningOverviewDocument, type PlayedBookFieldsFragment } from '../../../gql/graphql';
import { ListeningBars } from '../components/ListeningBars';
import { formatListening } from '../listening-format';

const PERIODS = [7, 30, 90, 365];

function PlayedBooks({
  title,
  books,
  by,
}: {
  title: string;
  books: PlayedBookFieldsFragment[];
  by: 'time' | 'listeners';
}) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {books.length === 0 ? (
          <Typography color="text.secondary">No listening in this period</Typography>
        ) : (
          <ListeningBars
            title={title}
            bars={books.map((book) => ({
              key: book.file.id,
              label: book.file.title,
              seconds: by === 'time' ? book.seconds : book.listeners,
              value:
                by === 'time'
                  ? formatListening(book.seconds)
                  : `${book.listeners} ${book.listeners === 1 ? 'listener' : 'listeners'}`,
            }))}
          />
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/stats: the most played books and the active listeners over a chosen period. */
export function AdminListeningStatsPage() {
  const navigate = useNavigate();
  const [days, setDays] = useState(30);
  const { data, loading, error } = useQuery(ListeningOverviewDocument, {
    variables: { days },
    fetchPolicy: 'cache-and-network',
  });
  const overview = data?.listeningOverview;

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 3, gap: 2 }}
      >
        <Typography variant="h4" component="h1">
          Listening Stats
        </Typography>
        <Stack direction="row" spacing={1}>
          <TextField
            select
            size="small"
            label="Period"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
            sx={{ minWidth: 160 }}
          >
            {PERIODS.map((period) => (
              <MenuItem key={period} value={period}>
                Last {period} days
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" onClick={() => void navigate('/admin')}>
            Back
          </Button>
        </Stack>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error.message || 'Failed to load listening stats'}
        </Alert>
      )}
      {loading && !overview && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading listening stats" />
        </Box>
      )}
      {overview && (
        <Stack spacing={3}>
          <Typography color="text.secondary" data-testid="overview-summary">
            {formatListening(overview.totalSeconds)} listened by {overview.listenerCount}{' '}
            {overview.listenerCount === 1 ? 'listener' : 'listeners'} since{' '}
            {new Date(overview.since).toLocaleDateString()}.
          </Typography>
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, md: 6 }}>
              <PlayedBooks title="Most played by listening time" books={overview.byTime} by="time" />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <PlayedBooks title="Most played by listeners" books={overview.byListeners} by="listeners" />
            </Grid>
          </Grid>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                Active listeners
              </Typography>
              {overview.activeListeners.length === 0 ? (
                <Typography color="text.secondary">No listening in this period</Typography>
              ) : (
                <TableContainer>
                  <Table size="small" aria-label="Active listeners">
                    <TableHead>
                      <TableRow>
                        <TableCell>Name</TableCell>
                        <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Email</TableCell>
                        <TableCell align="right">Time listened</TableCell>
                        <TableCell align="right">Books</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {overview.activeListeners.map((listener) => (
                        <TableRow key={listener.userId}>
                          <TableCell>{listener.name}</TableCell>
                          <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{listener.email}</TableCell>
                          <TableCell align="right">{formatListening(listener.seconds)}</TableCell>
                          <TableCell align="right">{listener.files}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              )}
            </CardContent>
          </Card>
        </Stack>
      )}
    </Container>
  );
}
