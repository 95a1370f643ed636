import { useState } from 'react';
import { useDebouncedValue } from '../../library/hooks/useDebouncedValue';

/** The spec's admin table page sizes; 10 is the default. */
export const PAGE_SIZES = [5, 10, 25];
const DEFAULT_PAGE_SIZE = 10;

export interface Paging {
  page: number;
  rowsPerPage: number;
  onPageChange: (page: number) => void;
  onRowsPerPageChange: (rowsPerPage: number) => void;
}

/**
 * Search text and paging of a server-side admin list: the query sees the search 300 ms after the
 * last keystroke, and a new search, filter or page size starts again at the first page.
 */
export function useListControls() {
  const [search, setSearchText] = useState('');
  const serverSearch = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(DEFAULT_PAGE_SIZE);

  const paging: Paging = {
    page,
    rowsPerPage,
    onPageChange: setPage,
    onRowsPerPageChange: (next) => {
      setRowsPerPage(next);
      setPage(0);
    },
  };
  return {
    search,
    setSearch: (text: string) => {
      setSearchText(text);
      setPage(0);
    },
    /** For a filter change: back to the first page. */
    firstPage: () => setPage(0),
    /** The query's variables. */
    window: { search: serverSearch || null, offset: page * rowsPerPage, limit: rowsPerPage },
    paging,
  };
}
