import { FormControl, InputLabel, MenuItem, Select, TextField } from '@mui/material';
import type { UserRole } from '../../../gql/graphql';

export interface UserFieldValues {
  name: string;
  email: string;
  role: UserRole;
}

/** Name, Email and Role: the fields create and edit share. */
export function UserFields({
  values,
  onChange,
}: {
  values: UserFieldValues;
  onChange: (next: UserFieldValues) => void;
}) {
  return (
    <>
      <TextField
        label="Name"
        required
        fullWidth
        margin="normal"
        value={values.name}
        onChange={(e) => onChange({ ...values, name: e.target.value })}
      />
      <TextField
        label="Email"
        type="email"
        required
        fullWidth
        margin="normal"
        value={values.email}
        onChange={(e) => onChange({ ...values, email: e.target.value })}
      />
      <FormControl fullWidth margin="normal">
        <InputLabel id="user-role-label">Role</InputLabel>
        <Select
          labelId="user-role-label"
          label="Role"
          value={values.role}
          onChange={(e) => onChange({ ...values, role: e.target.value === 'admin' ? 'admin' : 'user' })}
        >
          <MenuItem value="user">User</MenuItem>
          <MenuItem value="admin">Admin</MenuItem>
        </Select>
      </FormControl>
    </>
  );
}
