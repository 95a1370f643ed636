import { Alert, AlertTitle, Box, Chip, Link, List, ListItem, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { AdminRipAlertFragment, RipRule } from '../../../gql/graphql';
import { formatDateTime } from '../admin-format';

/** Each rule the server can flag, in an administrator's words. */
const RULE_WORDS: Record<RipRule, string> = {
  rate: 'Fetched audio much faster than it plays',
  whole_file: 'Took most of a long file far sooner than it plays',
  keys: 'Fetched more chapter keys than a listener needs',
  two_addresses: 'One session used from two addresses at once',
};

function Account({ alert }: { alert: AdminRipAlertFragment }) {
  const email = alert.email ?? 'A deleted account';
  if (!alert.userId) return email;
  return (
    <Link component={RouterLink} to={`/admin/users/edit/${alert.userId}`} sx={{ fontWeight: 'medium' }}>
      {email}
    </Link>
  );
}

/**
 * The sessions the server flagged for ripping (recent ones, newest first): who, which rule, how
 * fast, when, and whether it locked the account. Nothing at all when there are none.
 */
export function RipAlertsPanel({ alerts }: { alerts: readonly AdminRipAlertFragment[] }) {
  if (alerts.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 3, '& .MuiAlert-message': { flexGrow: 1, minWidth: 0 } }}>
      <AlertTitle>Suspected ripping</AlertTitle>
      Recent sessions suspected of copying audio rather than listening to it. Each was throttled; repeated offences lock
      the account.
      <List dense disablePadding aria-label="Suspected ripping" sx={{ mt: 1 }}>
        {alerts.map((alert) => (
          <ListItem
            key={alert.id}
            divider
            disableGutters
            sx={{ flexWrap: 'wrap', gap: 1, justifyContent: 'space-between', overflowWrap: 'anywhere' }}
          >
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2">
                <Account alert={alert} /> · {RULE_WORDS[alert.rule]}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {alert.speed.toFixed(1)}x real time over {alert.windowSeconds} s · {formatDateTime(alert.at)}
              </Typography>
            </Box>
            <Chip
              size="small"
              label={alert.accountLocked ? 'Account locked' : 'Throttled, not locked'}
              color={alert.accountLocked ? 'error' : 'default'}
              variant={alert.accountLocked ? 'filled' : 'outlined'}
            />
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}
