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
  List,
  ListItemButton,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { MyListeningStatsDocument } from '../../../gql/graphql';
import { ListeningBars } from '../components/ListeningBars';
import { browserTimeZone, formatDay, formatListening } from '../listening-format';

const DAYS = 14;
const WEEKS = 8;

/** /stats: the listener's own time listened per day and per week, and the books they finished. */
export function ListeningStatsPage() {
  const navigate = useNavigate();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const { data, loading, error } = useQuery(MyListeningStatsDocument, {
    variables: { days: DAYS, weeks: WEEKS, timeZone },
    fetchPolicy: 'cache-and-network',
  });
  const stats = data?.myListeningStats;
  const lastDays = stats?.days.reduce((sum, day) => sum + day.seconds, 0) ?? 0;
  const thisWeek = stats?.weeks.at(-1)?.seconds ?? 0;

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 3, gap: 2 }}>
        <Typography variant="h4" component="h1">
          Listening Stats
        </Typography>
        <Button variant="outlined" onClick={() => void navigate('/profile')}>
          Back to Profile
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error.message || 'Failed to load listening stats'}
        </Alert>
      )}
      {loading && !stats && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Loading listening stats" />
        </Box>
      )}
      {stats && (
        <Stack spacing={3}>
          <Grid container spacing={2}>
            <Grid size={{ xs: 6 }}>
              <Card variant="outlined">
                <CardContent>
                  <Typography variant="subtitle2" component="h2" color="text.secondary">
                    This week
                  </Typography>
                  <Typography variant="h5" data-testid="listened-this-week">
                    {formatListening(thisWeek)}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
            <Grid size={{ xs: 6 }}>
              <Card variant="outlined">
                <CardContent>
                  <Typography variant="subtitle2" component="h2" color="text.secondary">
                    Last {DAYS} days
                  </Typography>
                  <Typography variant="h5" data-testid="listened-last-days">
                    {formatListening(lastDays)}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          </Grid>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">
                Time listened per day
              </Typography>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                Playing counts; seeking and skipping do not. Days in {stats.timeZone} time.
              </Typography>
              <ListeningBars
                title={`Time listened on each of the last ${DAYS} days`}
                bars={[...stats.days].reverse().map((day) => ({
                  key: day.start,
                  label: formatDay(day.start),
                  seconds: day.seconds,
                  value: formatListening(day.seconds),
                }))}
              />
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                Time listened per week
              </Typography>
              <ListeningBars
                title={`Time listened in each of the last ${WEEKS} weeks`}
                bars={[...stats.weeks].reverse().map((week) => ({
                  key: week.start,
                  label: `From ${formatDay(week.start, { day: 'numeric', month: 'short' })}`,
                  seconds: week.seconds,
                  value: formatListening(week.seconds),
                }))}
              />
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">
                Finished books
              </Typography>
              {stats.finished.length === 0 ? (
                <Typography color="text.secondary" sx={{ mt: 1 }}>
                  No finished books yet
                </Typography>
              ) : (
                <List dense aria-label="Finished books">
                  {stats.finished.map((book) => (
                    <ListItemButton key={book.file.id} onClick={() => void navigate(`/player/${book.file.id}`)}>
                      <ListItemText
                        primary={book.file.title}
                        secondary={`Finished ${new Date(book.finishedAt).toLocaleDateString()}`}
                      />
                    </ListItemButton>
                  ))}
                </List>
              )}
            </CardContent>
          </Card>
        </Stack>
      )}
    </Container>
  );
}
