import { Alert, Box, Button, CircularProgress, Link, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink } from 'react-router';
import { deviceData } from '../../../app/device';
import { requestGraphql } from '../../../app/graphql-request';
import { SessionLoading } from '../../../app/guards';
import { storeSession } from '../../../app/stored-session';
import { RegisterDocument } from '../../../gql/graphql';
import { useAuth } from '../auth-context';
import { EMAIL_PATTERN, callErrorText } from '../auth-messages';
import { AuthCard } from '../components/AuthCard';
import { DeviceApprovalDialog } from '../components/device-approval';

export function RegisterPage() {
  const { status } = useAuth();
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The server's policy text while the Device Security Notice is open; registering waits for it.
  const [approval, setApproval] = useState<string | null>(null);

  if (status === 'loading') return <SessionLoading />;
  if (status === 'signedIn') return <Navigate to="/" replace />;

  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
    disabled: submitting,
  });

  /** Asks the server to register; the first answer asks for the device approval, as sign-in does. */
  const send = async (deviceApproved: boolean) => {
    setSubmitting(true);
    try {
      const data = await requestGraphql(RegisterDocument, {
        input: {
          name: form.name.trim(),
          email: form.email.trim(),
          password: form.password,
          deviceApproved,
          deviceData: deviceData(),
        },
      });
      if (data?.register.requiresDeviceApproval && !deviceApproved) {
        setApproval(data.register.message);
        setSubmitting(false);
        return;
      }
      setApproval(null);
      if (!data?.register.token || !data.register.user) throw new Error('Registration failed');
      const { token, user, deviceSession } = data.register;
      storeSession({ token, user, deviceSession: deviceSession ?? null, warnings: [] });
      // Same as login: reload so every client starts with the new token.
      window.location.assign('/');
    } catch (e) {
      setApproval(null);
      setError(callErrorText(e) || (e instanceof Error && e.message) || 'Registration failed');
      setSubmitting(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = form.name.trim();
    const email = form.email.trim();
    setError(null);
    if (!name || !email || !form.password) return setError('Please enter your name, email and password');
    if (!EMAIL_PATTERN.test(email)) return setError('Please enter a valid email address');

    await send(false);
  };

  return (
    <AuthCard title="Sign up">
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Box component="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField margin="normal" fullWidth id="name" label="Name" autoComplete="name" autoFocus {...field('name')} />
        <TextField
          margin="normal"
          fullWidth
          id="email"
          label="Email Address"
          type="email"
          autoComplete="email"
          {...field('email')}
        />
        <TextField
          margin="normal"
          fullWidth
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          {...field('password')}
        />
        <Button type="submit" fullWidth variant="contained" sx={{ mt: 3, mb: 2 }} disabled={submitting}>
          {submitting ? <CircularProgress size={24} color="inherit" aria-label="Signing up" /> : 'Sign Up'}
        </Button>
        <Box sx={{ textAlign: 'right' }}>
          <Link component={RouterLink} to="/login" variant="body2">
            Already have an account? Sign in
          </Link>
        </Box>
      </Box>
      <DeviceApprovalDialog
        open={approval !== null}
        message={approval}
        busy={submitting}
        onCancel={() => setApproval(null)}
        onApprove={() => void send(true)}
      />
    </AuthCard>
  );
}
