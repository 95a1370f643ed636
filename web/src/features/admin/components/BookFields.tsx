import { Grid, TextField } from '@mui/material';
import type { BookDetailsFieldsFragment, BookDetailsInput } from '../../../gql/graphql';

/** A book's details as the forms hold them: text as typed, names separated by semicolons. */
export interface BookForm {
  subtitle: string;
  authors: string;
  narrators: string;
  series: string;
  seriesPosition: string;
  year: string;
  publisher: string;
  genres: string;
  language: string;
}

export const EMPTY_BOOK: BookForm = {
  subtitle: '',
  authors: '',
  narrators: '',
  series: '',
  seriesPosition: '',
  year: '',
  publisher: '',
  genres: '',
  language: '',
};

const joined = (names: string[]) => names.join('; ');
const split = (text: string) =>
  text
    .split(/[;\n]/)
    .map((n) => n.trim())
    .filter(Boolean);

/** The form of a stored book (Edit File). */
export function bookFormOf(book: BookDetailsFieldsFragment): BookForm {
  return {
    subtitle: book.subtitle ?? '',
    authors: joined(book.authors.map((p) => p.name)),
    narrators: joined(book.narrators.map((p) => p.name)),
    series: book.series?.series.name ?? '',
    seriesPosition: book.series?.position ?? '',
    year: book.year === null ? '' : String(book.year),
    publisher: book.publisher ?? '',
    genres: joined(book.genres),
    language: book.language ?? '',
  };
}

/** What the file's own tags say, as read in the browser (read-tags.ts), as a form. */
export function bookFormOfTags(tags: {
  subtitle: string | null;
  authors: string[];
  narrators: string[];
  series: string | null;
  seriesPosition: string | null;
  year: number | null;
  publisher: string | null;
  genres: string[];
  language: string | null;
}): BookForm {
  return {
    subtitle: tags.subtitle ?? '',
    authors: joined(tags.authors),
    narrators: joined(tags.narrators),
    series: tags.series ?? '',
    seriesPosition: tags.seriesPosition ?? '',
    year: tags.year === null ? '' : String(tags.year),
    publisher: tags.publisher ?? '',
    genres: joined(tags.genres),
    language: tags.language ?? '',
  };
}

/** The input of updateBook: every field, so blank ones clear. */
export function bookInputOf(form: BookForm): BookDetailsInput {
  return {
    subtitle: form.subtitle.trim() || null,
    authors: split(form.authors),
    narrators: split(form.narrators),
    series: form.series.trim() || null,
    seriesPosition: form.seriesPosition.trim() || null,
    year: form.year.trim() ? Number(form.year.trim()) : null,
    publisher: form.publisher.trim() || null,
    genres: split(form.genres),
    language: form.language.trim() || null,
  };
}

/** The same fields for the upload's multipart form (names stay semicolon-separated text). */
export function appendBookForm(form: FormData, book: BookForm): void {
  for (const [key, value] of Object.entries(book)) if (value.trim()) form.append(key, value.trim());
}

/** A year the server would refuse, said before sending. */
export function bookProblem(book: BookForm): string | null {
  const year = book.year.trim();
  if (year && !/^\d{1,4}$/.test(year)) return 'year must be a whole number';
  return null;
}

const FIELDS: { key: keyof BookForm; label: string; helper?: string; wide?: boolean }[] = [
  { key: 'subtitle', label: 'Subtitle', wide: true },
  { key: 'authors', label: 'Authors', helper: 'Separate names with ;' },
  { key: 'narrators', label: 'Narrators', helper: 'Separate names with ;' },
  { key: 'series', label: 'Series' },
  { key: 'seriesPosition', label: 'Position in series', helper: 'For example 1 or 2.5' },
  { key: 'year', label: 'Year' },
  { key: 'publisher', label: 'Publisher' },
  { key: 'genres', label: 'Genres', helper: 'Separate genres with ;' },
  { key: 'language', label: 'Language' },
];

/** Subtitle, authors, narrators, series and position, year, publisher, genres and language. */
export function BookFields({ book, onChange }: { book: BookForm; onChange: (book: BookForm) => void }) {
  return (
    <Grid container spacing={2} sx={{ mt: 1 }}>
      {FIELDS.map(({ key, label, helper, wide }) => (
        <Grid key={key} size={{ xs: 12, sm: wide ? 12 : 6 }}>
          <TextField
            label={label}
            fullWidth
            value={book[key]}
            helperText={helper}
            onChange={(e) => onChange({ ...book, [key]: e.target.value })}
            slotProps={key === 'year' ? { htmlInput: { inputMode: 'numeric' } } : undefined}
          />
        </Grid>
      ))}
    </Grid>
  );
}
