// The library's two lists the first screen asks for, as constants: the page and the shelf ask with
// them, and the build sends the same requests ahead of the app (vite.config.ts, page-preload).

/** Cards fetched at a time: eight full rows of three. */
const PAGE_SIZE = 24;

/** The library grid's first page: the whole library by title, no search or filter. */
export const LIBRARY_FIRST_PAGE = {
  search: null,
  // Newest first is the "Recently added" shelf above: the grid is the whole library by title.
  sort: 'TITLE',
  offset: 0,
  limit: PAGE_SIZE,
  authorId: null,
  narratorId: null,
  seriesId: null,
  genre: null,
} as const;

/** The newest files the user may see, newest first: the library's own list at its newest end. */
export const RECENTLY_ADDED = {
  search: null,
  sort: 'RECENTLY_ADDED',
  offset: 0,
  limit: 10,
  authorId: null,
  narratorId: null,
  seriesId: null,
  genre: null,
} as const;
