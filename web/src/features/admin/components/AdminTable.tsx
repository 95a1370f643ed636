import {
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  type SxProps,
  type Theme,
} from '@mui/material';
import type { ReactNode } from 'react';
import { PAGE_SIZES, type Paging } from '../hooks/useListControls';

export interface Column<Row> {
  /** The header text; on a phone it labels the value in each stacked row. */
  label: string;
  cell: (row: Row) => ReactNode;
  align?: 'right';
}

interface Props<Row extends { id: string }> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<Row>[];
  /** One page of a server-side list, with the total across pages (undefined while loading)... */
  page?: { items: readonly Row[]; total: number };
  /** ...or the whole list. */
  rows?: readonly Row[];
  /** Shown in place of the rows when the list is empty. */
  empty: string;
  loading?: boolean;
  /** With `page`: which page and its size. */
  paging?: Paging;
}

/**
 * Below 600 px a row becomes a block of "label value" lines, so every column (Status, Sessions,
 * the actions) stays on screen at 390 px instead of running off its right edge. The header stays
 * in the accessibility tree, only out of sight.
 */
const stackOnPhones: SxProps<Theme> = (theme) => ({
  [theme.breakpoints.down('sm')]: {
    '&, & tbody, & tr, & td': { display: 'block', width: '100%' },
    '& thead': {
      display: 'block',
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clipPath: 'inset(50%)',
    },
    '& tbody tr': { borderBottom: '1px solid', borderColor: 'divider', py: 1 },
    '& td': {
      display: 'flex',
      // A right-aligned cell (the actions) is reversed by MUI; the label still comes first.
      flexDirection: 'row',
      justifyContent: 'space-between',
      alignItems: 'center',
      gap: 2,
      border: 0,
      py: 0.5,
      textAlign: 'right',
      overflowWrap: 'anywhere',
    },
    '& td[data-label]::before': {
      content: 'attr(data-label)',
      fontWeight: theme.typography.fontWeightMedium,
      color: 'text.secondary',
      textAlign: 'left',
      flexShrink: 0,
    },
  },
});

/** The admin list table: columns, an empty state, a loading bar and the spec's paging (5, 10, 25). */
export function AdminTable<Row extends { id: string }>({
  label,
  columns,
  page,
  rows = page?.items,
  empty,
  loading,
  paging,
}: Props<Row>) {
  return (
    <Paper>
      {loading && <LinearProgress />}
      <TableContainer>
        <Table aria-label={label} sx={stackOnPhones}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.label} align={column.align}>
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows?.map((row) => (
              <TableRow key={row.id} hover>
                {columns.map((column) => (
                  <TableCell
                    key={column.label}
                    data-label={column.label}
                    align={column.align}
                    sx={column.align === 'right' ? { whiteSpace: 'nowrap' } : undefined}
                  >
                    {column.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {rows && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns.length} align="center">
                  {empty}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {paging && (
        <TablePagination
          component="div"
          count={page?.total ?? 0}
          page={paging.page}
          rowsPerPage={paging.rowsPerPage}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, next) => paging.onPageChange(next)}
          onRowsPerPageChange={(e) => paging.onRowsPerPageChange(Number(e.target.value))}
          sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap' } }}
        />
      )}
    </Paper>
  );
}
