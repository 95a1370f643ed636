import SecurityIcon from '@mui/icons-material/Security';
import {
  Alert,
  AlertTitle,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';

interface Props {
  open: boolean;
  /** Server text that replaces the default policy line. */
  message: string | null;
  busy: boolean;
  onCancel: () => void;
  onApprove: () => void;
}

const POLICY = [
  'Only one active device session is allowed per account.',
  'Attempting to log in from multiple devices will lock your account.',
  'If your account is locked, contact support to unlock it.',
];

/** Asks the user to accept the single-device policy before this device becomes the account's device. */
export function DeviceApprovalDialog({ open, message, busy, onCancel, onApprove }: Props) {
  return (
    // Only the buttons close it: an accidental backdrop click must not decide either way.
    <Dialog open={open} maxWidth="sm" fullWidth aria-labelledby="device-approval-title">
      <DialogTitle id="device-approval-title" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <SecurityIcon color="warning" />
        Device Security Notice
      </DialogTitle>
      <DialogContent dividers>
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>Single Device Policy</AlertTitle>
          {message || 'This application only allows login from one device at a time.'}
        </Alert>
        <Typography gutterBottom>
          If you proceed, this device becomes the only device allowed to use your account. A later login from another
          device will <strong>permanently lock your account</strong>.
        </Typography>
        <List dense>
          {POLICY.map((line) => (
            <ListItem key={line} sx={{ display: 'list-item', listStyleType: 'disc', ml: 3, py: 0 }}>
              <ListItemText primary={line} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel Login
        </Button>
        <Button
          variant="contained"
          color="warning"
          onClick={onApprove}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          I Understand - Proceed
        </Button>
      </DialogActions>
    </Dialog>
  );
}
