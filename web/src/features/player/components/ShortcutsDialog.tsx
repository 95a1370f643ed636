import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableRow,
} from '@mui/material';

/** The keys of usePlayerShortcuts, with the listener's jump lengths. */
export const shortcuts = (jumps: { back: number; forward: number }): [keys: string, action: string][] => [
  ['Space or K', 'Play or pause'],
  ['Left arrow', `Back ${jumps.back} seconds`],
  ['Right arrow', `Forward ${jumps.forward} seconds`],
  ['Shift + Left arrow', 'Previous chapter'],
  ['Shift + Right arrow', 'Next chapter'],
  ['[', 'Slower (0.25x less)'],
  [']', 'Faster (0.25x more)'],
  ['M', 'Mute or unmute'],
  ['?', 'Show these shortcuts'],
];

export function ShortcutsDialog({
  open,
  onClose,
  jumps,
}: {
  open: boolean;
  onClose: () => void;
  jumps: { back: number; forward: number };
}) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="shortcuts-title">
      <DialogTitle id="shortcuts-title">Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label="Keyboard shortcuts">
          <TableBody>
            {shortcuts(jumps).map(([keys, action]) => (
              <TableRow key={keys}>
                <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {keys}
                </TableCell>
                <TableCell>{action}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
