import { useQuery } from '@apollo/client/react';
import { MenuItem, Stack, TextField } from '@mui/material';
import { LibraryFilterChoicesDocument } from '../../../gql/graphql';

export interface LibraryFilter {
  authorId: string | null;
  narratorId: string | null;
  seriesId: string | null;
  genre: string | null;
}

export const NO_FILTER: LibraryFilter = { authorId: null, narratorId: null, seriesId: null, genre: null };

interface Choice {
  value: string;
  label: string;
}

function FilterSelect({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: string | null;
  choices: Choice[];
  onChange: (value: string | null) => void;
}) {
  // A record from the address that is not among the choices still shows, rather than a blank select.
  const known = value === null || choices.some((c) => c.value === value);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value || null)}
      sx={{ minWidth: { sm: 170 }, flex: { xs: 1, sm: 'none' } }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">All</MenuItem>
      {!known && <MenuItem value={value}>Selected</MenuItem>}
      {choices.map((c) => (
        <MenuItem key={c.value} value={c.value}>
          {c.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Author, narrator, series and genre selects: only records of books the caller may see are offered. */
export function LibraryFilters({ filter, onChange }: { filter: LibraryFilter; onChange: (f: LibraryFilter) => void }) {
  const { data } = useQuery(LibraryFilterChoicesDocument, { fetchPolicy: 'cache-and-network' });
  const counted = (items: { id: string; name: string; bookCount: number }[] | undefined): Choice[] =>
    (items ?? []).map((i) => ({ value: i.id, label: `${i.name} (${i.bookCount})` }));
  const set = (key: keyof LibraryFilter) => (value: string | null) => onChange({ ...filter, [key]: value });
  if (
    data &&
    !data.authors.items.length &&
    !data.narrators.items.length &&
    !data.seriesList.items.length &&
    !data.genres.length
  )
    return null;
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', mb: 3 }}>
      <FilterSelect
        label="Author"
        value={filter.authorId}
        choices={counted(data?.authors.items)}
        onChange={set('authorId')}
      />
      <FilterSelect
        label="Narrator"
        value={filter.narratorId}
        choices={counted(data?.narrators.items)}
        onChange={set('narratorId')}
      />
      <FilterSelect
        label="Series"
        value={filter.seriesId}
        choices={counted(data?.seriesList.items)}
        onChange={set('seriesId')}
      />
      <FilterSelect
        label="Genre"
        value={filter.genre}
        choices={(data?.genres ?? []).map((g) => ({ value: g.name, label: `${g.name} (${g.bookCount})` }))}
        onChange={set('genre')}
      />
    </Stack>
  );
}
