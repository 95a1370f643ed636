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

export const SHORTCUTS: [keys: string, action: string][] = [
  ['Space or K', 'Play or pause'],
  ['Left arrow', 'Back 15 seconds'],
  ['Right arrow', 'Forward 30 seconds'],
  ['Shift + Left arrow', 'Previous chapter'],
  ['Shift + Right arrow', 'Next chapter'],
  ['[', 'Slower (0.25x less)'],
  [']', 'Faster (0.25x more)'],
  ['M', 'Mute or unmute'],
  ['?', 'Show these shortcuts'],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="shortcuts-title">
      <DialogTitle id="shortcuts-title">Keyboard shortcuts</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label="Keyboard shortcuts">
          <TableBody>
            {SHORTCUTS.map(([keys, action]) => (
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
