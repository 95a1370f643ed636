import { Alert, Box, Button, CircularProgress, Link, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { rememberedDestination, SessionLoading } from '../../../app/guards';
import { useAuth } from '../auth-context';
import { AuthCard } from '../components/AuthCard';
import { DeviceApprovalDialog } from '../components/device-approval';
import { DeviceWarnings } from '../components/DeviceWarnings';
import { useLogin } from '../hooks/useLogin';

/** Signed in already: warnings still waiting for the user hold them here; otherwise move on. */
function SignedInView({ destination }: { destination: string }) {
  const { warnings, isAdmin, dismissWarning, dismissAllWarnings } = useAuth();
  const navigate = useNavigate();
  if (warnings.length === 0) return <Navigate to={destination} replace />;
  return (
    <AuthCard title="Sign in">
      <DeviceWarnings warnings={warnings} onDismiss={dismissWarning} onDismissAll={dismissAllWarnings} />
      <Stack spacing={1}>
        {isAdmin && (
          <Button fullWidth variant="contained" onClick={() => void navigate('/admin')}>
            Go to Admin Dashboard
          </Button>
        )}
        <Button fullWidth variant="outlined" onClick={() => void navigate(destination)}>
          Back to Library
        </Button>
      </Stack>
    </AuthCard>
  );
}

export function LoginPage() {
  const { status } = useAuth();
  const location = useLocation();
  const destination = rememberedDestination(location.state);
  const { submit, approve, cancelApproval, submitting, error, notice, approval } = useLogin(destination);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  if (status === 'loading') return <SessionLoading />;
  if (status === 'signedIn') return <SignedInView destination={destination} />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(email, password);
  };

  return (
    <AuthCard title="Sign in">
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {notice && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      {/* noValidate: the spec's own messages replace the browser's validation bubbles. */}
      <Box component="form" onSubmit={onSubmit} noValidate>
        <TextField
          margin="normal"
          fullWidth
          id="email"
          label="Email Address"
          name="email"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={submitting}
        />
        <TextField
          margin="normal"
          fullWidth
          id="password"
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={submitting}
        />
        <Button type="submit" fullWidth variant="contained" sx={{ mt: 3, mb: 2 }} disabled={submitting}>
          {submitting ? <CircularProgress size={24} color="inherit" aria-label="Signing in" /> : 'Sign In'}
        </Button>
        <Box sx={{ textAlign: 'right' }}>
          <Link component={RouterLink} to="/register" variant="body2">
            {"Don't have an account? Sign Up"}
          </Link>
        </Box>
      </Box>
      <DeviceApprovalDialog
        open={approval.open}
        message={approval.message}
        busy={approval.busy}
        onCancel={cancelApproval}
        onApprove={() => void approve()}
      />
    </AuthCard>
  );
}
