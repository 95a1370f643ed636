import { useMutation, useQuery } from '@apollo/client/react';
import LogoutIcon from '@mui/icons-material/Logout';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Alert,
  Button,
  Chip,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  AdminTerminateSessionDocument,
  AdminUserSessionsDocument,
  type AdminUserSessionsQuery,
} from '../../../gql/graphql';
import { relativeTime } from '../../../components/relative-time';
import { errorText, formatDateTime } from '../admin-format';
import { useTimedMessage } from '../hooks/useTimedMessage';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { currentFirst, deviceLabel } from '../../devices/device-label';

type Session = AdminUserSessionsQuery['userSessions'][number];

/** A user's active device sessions (the administrator's own first), with terminate (signed out at once). */
export function UserSessionsTable({ userId }: { userId: string }) {
  const { data, loading, error, refetch } = useQuery(AdminUserSessionsDocument, {
    variables: { userId },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const [terminate, { loading: terminating }] = useMutation(AdminTerminateSessionDocument);
  const [toTerminate, setToTerminate] = useState<Session | null>(null);
  const [success, setSuccess] = useTimedMessage(5000);
  const [actionError, setActionError] = useTimedMessage(5000);
  const sessions = currentFirst(data?.userSessions ?? []);

  const onTerminate = async () => {
    if (!toTerminate) return;
    try {
      await terminate({ variables: { userId, sessionId: toTerminate.id } });
      setSuccess('Session terminated successfully');
      await refetch();
    } catch (err) {
      setActionError(errorText(err, 'Failed to terminate session'));
    } finally {
      setToTerminate(null);
    }
  };

  return (
    <Paper sx={{ p: 3, mt: 3 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Active Sessions
        </Typography>
        {sessions.length > 1 && <Chip color="warning" size="small" label="Multiple Sessions" />}
        <Button startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={loading}>
          Refresh
        </Button>
      </Stack>
      {error && <Alert severity="error">{errorText(error, 'Failed to load session data')}</Alert>}
      {actionError && <Alert severity="error">{actionError}</Alert>}
      {success && <Alert severity="success">{success}</Alert>}
      {sessions.length === 0 ? (
        !loading && <Typography color="text.secondary">No active sessions</Typography>
      ) : (
        <Table size="small" aria-label="Active Sessions">
          <TableHead>
            <TableRow>
              <TableCell>Device</TableCell>
              <TableCell>IP Address</TableCell>
              <TableCell>Last Activity</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sessions.map((session) => (
              <TableRow key={session.id}>
                <TableCell>
                  {deviceLabel(session)}
                  {session.isCurrent && <Chip size="small" color="primary" label="Current Device" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>{session.ipAddress ?? 'Unknown'}</TableCell>
                <TableCell title={formatDateTime(session.lastActivity)}>{relativeTime(session.lastActivity)}</TableCell>
                <TableCell align="right">
                  <Tooltip title="Terminate session">
                    <IconButton
                      color="error"
                      aria-label={`Terminate ${deviceLabel(session)}`}
                      onClick={() => setToTerminate(session)}
                    >
                      <LogoutIcon />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog
        open={toTerminate !== null}
        title="Terminate Session"
        confirmLabel="Terminate"
        busy={terminating}
        onConfirm={() => void onTerminate()}
        onCancel={() => setToTerminate(null)}
        danger
        message={
          <>
            <Typography>This device will be signed out immediately.</Typography>
            <Typography>Device: {toTerminate ? deviceLabel(toTerminate) : ''}</Typography>
            <Typography>IP Address: {toTerminate?.ipAddress ?? 'Unknown'}</Typography>
            <Typography>Last Activity: {toTerminate ? relativeTime(toTerminate.lastActivity) : ''}</Typography>
          </>
        }
      />
    </Paper>
  );
}
