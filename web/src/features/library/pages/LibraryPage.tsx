import { useQuery } from '@apollo/client/react';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import SecurityIcon from '@mui/icons-material/Security';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Container,
  Grid,
  MenuItem,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { memo, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { apolloClient, PREFETCH } from '../../../app/apollo';
import { prefetchFirstQuery } from '../../../app/prefetch';
import { SearchField } from '../../../components/SearchField';
import { useGradualCount } from '../../../components/useGradualCount';
import { AudioFilesDocument, type LibrarySort } from '../../../gql/graphql';
import { useAuth } from '../../auth/auth-context';
import { DeviceWarnings } from '../../auth/components/DeviceWarnings';
import { LibraryFilters, type LibraryFilter } from '../../catalog/components/LibraryFilters';
import { AudioFileCard, type LibraryFile } from '../components/AudioFileCard';
import { CollectionShelves } from '../components/CollectionShelves';
import { ContinueListening } from '../components/ContinueListening';
import { FinishedShelf } from '../components/FinishedShelf';
import { RecentlyAddedShelf } from '../components/RecentlyAddedShelf';
import { WantToListenShelf } from '../components/WantToListenShelf';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { useWhenVisible } from '../hooks/useWhenVisible';
import { LIBRARY_FIRST_PAGE } from '../library-lists';

// Sent as the page's code loads, beside the shelves' first lists.
const takePrefetched = prefetchFirstQuery(window.location.pathname === '/' ? 'first-page' : null, () =>
  apolloClient.query({
    query: AudioFilesDocument,
    variables: LIBRARY_FIRST_PAGE,
    context: PREFETCH,
    fetchPolicy: 'network-only',
  }),
);

const SORTS: [LibrarySort, string][] = [
  ['TITLE', 'Title'],
  ['RECENTLY_ADDED', 'Recently added'],
  ['DURATION', 'Duration'],
  ['RECENTLY_PLAYED', 'Recently played'],
];

function matches(file: LibraryFile, needle: string): boolean {
  return file.title.toLowerCase().includes(needle) || (file.description ?? '').toLowerCase().includes(needle);
}

/** Cards per row of the grid below: one on a phone, two from sm, three from md. */
function useColumns(): number {
  const sm = useMediaQuery((theme) => theme.breakpoints.up('sm'), { noSsr: true });
  const md = useMediaQuery((theme) => theme.breakpoints.up('md'), { noSsr: true });
  return md ? 3 : sm ? 2 : 1;
}

/** One cell of the grid: memoised like the card, so drawing the next row leaves those drawn alone. */
const GridCard = memo(function GridCard({ file }: { file: LibraryFile }) {
  return (
    <Grid size={{ xs: 12, sm: 6, md: 4 }}>
      <AudioFileCard file={file} />
    </Grid>
  );
});

export function LibraryPage() {
  const navigate = useNavigate();
  const { isAdmin, logout, warnings, dismissWarning, dismissAllWarnings } = useAuth();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const serverSearch = useDebouncedValue(needle, 300);
  // Filters and the order live in the address, so a library view can be linked to and survives a
  // reload.
  const [params, setParams] = useSearchParams();
  const sort = SORTS.find(([value]) => value === params.get('sort'))?.[0] ?? LIBRARY_FIRST_PAGE.sort;
  const setSort = (next: LibrarySort) =>
    setParams(
      (current) => {
        if (next === LIBRARY_FIRST_PAGE.sort) current.delete('sort');
        else current.set('sort', next);
        return current;
      },
      { replace: true },
    );
  const filter: LibraryFilter = {
    authorId: params.get('authorId'),
    narratorId: params.get('narratorId'),
    seriesId: params.get('seriesId'),
    genre: params.get('genre'),
  };
  const filtered = Object.values(filter).some((v) => v !== null);
  const filterKey = Object.values(filter).join('|');
  const setFilter = (next: LibraryFilter) =>
    setParams(
      {
        ...Object.fromEntries(Object.entries(next).filter((entry): entry is [string, string] => entry[1] !== null)),
        ...(sort !== LIBRARY_FIRST_PAGE.sort && { sort }),
      },
      { replace: true },
    );

  // The server narrows the list; the same rule applied here keeps results in step with typing.
  // cache-and-network: coming back to the library shows new uploads without a reload. The first
  // library after a prefetch takes its answer (or joins its request) instead of asking again.
  const [afterPrefetch] = useState(() => takePrefetched('first-page'));
  const { data, dataState, previousData, loading, error, fetchMore } = useQuery(AudioFilesDocument, {
    variables: { ...LIBRARY_FIRST_PAGE, ...filter, search: serverSearch || null, sort },
    fetchPolicy:
      afterPrefetch && !serverSearch && !filtered && sort === LIBRARY_FIRST_PAGE.sort
        ? 'cache-first'
        : 'cache-and-network',
  });
  const answered = (dataState === 'complete' ? data : previousData)?.audioFiles;
  // Apollo renders an answer synchronously, in one task; the cards are drawn in a background
  // render instead, in slices, while the page shows what it showed before.
  const page = useDeferredValue(answered);
  const drawing = page !== answered;
  const items = page?.items;
  const files = useMemo(() => (items ?? []).filter((f) => matches(f, needle)), [items, needle]);
  // A page of cards is drawn a few at a time (see useGradualCount): first two rows, then a row (two
  // cards on a phone) per task. Each card costs some 20 ms on a slow phone: the first covers are
  // asked for sooner, and no batch holds a tap up for long.
  const columns = useColumns();
  const shown = useGradualCount(
    files.length,
    `${serverSearch}:${sort}:${filterKey}`,
    2 * columns,
    Math.max(2, columns),
  );

  // The next page loads as the end of the grid scrolls into view (the apollo.ts cache policy
  // appends it), until the list holds every file the server counted. A failed page is not asked
  // for again until the list changes, so a server that is down is not called in a loop.
  const [loadingMore, setLoadingMore] = useState(false);
  const [failedAt, setFailedAt] = useState<string | null>(null);
  const loaded = items?.length ?? 0;
  const listAt = `${serverSearch}:${sort}:${filterKey}@${loaded}`;
  const moreFailed = failedAt === listAt;
  // The next page waits until this one is drawn: the end of a half-drawn grid is in view.
  const hasMore =
    dataState === 'complete' && !drawing && page !== undefined && loaded < page.total && shown === files.length;
  const loadMore = useCallback(() => {
    setLoadingMore(true);
    fetchMore({ variables: { offset: loaded } })
      .then(
        () => setFailedAt(null),
        () => setFailedAt(listAt),
      )
      .finally(() => setLoadingMore(false));
  }, [fetchMore, loaded, listAt]);
  const endOfList = useWhenVisible<HTMLDivElement>(loadMore, hasMore && !loadingMore && !moreFailed);

  // The title and the buttons are drawn first; then the shelves; then the search and sort fields,
  // the filters and the grid below them: each step a background render that React draws in slices,
  // and a commit of its own (each appears below what is drawn, so nothing drawn moves). Drawn in
  // the first render, they made it one long task, with their styles inserted in one go: Lighthouse
  // (mobile, 5 runs of the bench) blocked 1,000-1,500 ms and scored 56; in two renders 640-1,080
  // ms and 65.
  const drawn = useGradualCount(2, 'library-body', 0, 1);
  const drawShelves = drawn >= 1;
  const drawList = drawn >= 2;

  const onLogout = async () => {
    await logout();
    void navigate('/login', { replace: true });
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { md: 'center' }, mb: 3 }}
      >
        <Typography variant="h4" component="h1">
          My Audio Library
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<PersonIcon />} onClick={() => void navigate('/profile')}>
            Profile
          </Button>
          <Button variant="outlined" startIcon={<SecurityIcon />} onClick={() => void navigate('/devices')}>
            Device Security
          </Button>
          {isAdmin && (
            <Button
              variant="contained"
              startIcon={<CloudUploadIcon />}
              onClick={() => void navigate('/admin/files/upload')}
            >
              Upload New File
            </Button>
          )}
          <Button variant="outlined" color="error" startIcon={<LogoutIcon />} onClick={() => void onLogout()}>
            Logout
          </Button>
        </Stack>
      </Stack>

      <DeviceWarnings warnings={warnings} onDismiss={dismissWarning} onDismissAll={dismissAllWarnings} />
      {drawShelves && !needle && !filtered && (
        <>
          <ContinueListening />
          {/* Sorted newest first, the grid below is this shelf already. */}
          {sort !== 'RECENTLY_ADDED' && <RecentlyAddedShelf />}
          <WantToListenShelf />
          <FinishedShelf />
          <CollectionShelves />
        </>
      )}

      {drawList && (
        <Box component="section" aria-labelledby="all-files">
          <Typography id="all-files" variant="h5" component="h2" sx={{ mb: 2 }}>
            All audio files
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3 }}>
            <SearchField label="Search audio files" value={search} onChange={setSearch} />
            <TextField
              select
              label="Sort by"
              value={sort}
              onChange={(e) => setSort(e.target.value as LibrarySort)}
              sx={{ minWidth: { sm: 200 } }}
            >
              {SORTS.map(([value, label]) => (
                <MenuItem key={value} value={value}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <LibraryFilters filter={filter} onChange={setFilter} />

          {error && (
            <Alert severity="error" sx={{ mb: 3 }}>
              Failed to fetch audio files
            </Alert>
          )}

          {(loading || drawing) && !items ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
              <CircularProgress aria-label="Loading audio files" />
            </Box>
          ) : files.length === 0 ? (
            !error && (
              <Typography color="text.secondary" sx={{ textAlign: 'center', py: 8 }}>
                {needle || filtered ? 'No matching audio files found' : 'No audio files available'}
              </Typography>
            )
          ) : (
            <Grid container spacing={3}>
              {files.slice(0, shown).map((file) => (
                <GridCard key={file.id} file={file} />
              ))}
            </Grid>
          )}
          <Box ref={endOfList} sx={{ display: 'flex', justifyContent: 'center', py: hasMore ? 4 : 0 }}>
            {loadingMore && <CircularProgress aria-label="Loading more audio files" />}
            {moreFailed && <Alert severity="error">Failed to fetch audio files</Alert>}
          </Box>
        </Box>
      )}
    </Container>
  );
}
