import { useMutation } from '@apollo/client/react';
import { Alert, Button, Paper, Stack, Typography } from '@mui/material';
import { CreateBackupLinkDocument, type AdminDashboardQuery } from '../../../gql/graphql';
import { errorText, formatBytes, formatDateTime } from '../admin-format';

type BackupStatus = AdminDashboardQuery['dashboardStats']['backupStatus'];

/**
 * The scheduled backups' latest outcome (a failure stays raised until a run succeeds), and a
 * download of a backup taken now: the browser follows a one-minute signed link, so the archive
 * streams to disk as a file instead of through the page's memory.
 */
export function BackupPanel({ status }: { status: BackupStatus }) {
  const [createLink, { loading, error }] = useMutation(CreateBackupLinkDocument);

  async function download() {
    const { data } = await createLink();
    if (data) window.location.assign(data.createBackupLink.url);
  }

  return (
    <Paper sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Backups
      </Typography>
      <Stack spacing={1}>
        {status.failing && status.lastFailure && (
          <Alert severity="error">
            The scheduled backup of {formatDateTime(status.lastFailure.at)} failed: {status.lastFailure.error}
          </Alert>
        )}
        <Typography variant="body2" color="text.secondary">
          {status.lastSuccess
            ? `Last scheduled backup: ${formatDateTime(status.lastSuccess.at)}${
                status.lastSuccess.bytes === null ? '' : `, ${formatBytes(status.lastSuccess.bytes)}`
              }`
            : 'No scheduled backup has completed yet.'}
        </Typography>
        {error && <Alert severity="error">{errorText(error, 'Could not start the backup')}</Alert>}
        <Button variant="outlined" disabled={loading} onClick={() => void download()}>
          Download a Backup
        </Button>
      </Stack>
    </Paper>
  );
}
