import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { connectionType } from '../../graphql/connection.js';
import { User } from '../users/user.entity.js';
import { DeviceSession } from './device-session.entity.js';

export enum DeviceWarningKind {
  new_device = 'new_device',
  device_locked = 'device_locked',
  suspicious_activity = 'suspicious_activity',
  max_devices_reached = 'max_devices_reached',
}
registerEnumType(DeviceWarningKind, {
  name: 'DeviceWarningType',
  description: 'What a device notice is about.',
  valuesConfig: {
    new_device: { description: 'A device the account had not used before signed in.' },
    device_locked: { description: 'The account was locked by a sign-in from a further device.' },
    suspicious_activity: { description: 'Wrong passwords were tried since the last sign-in.' },
    max_devices_reached: { description: 'The account is signed in on as many devices as allowed.' },
  },
});

export enum SecurityEventKind {
  FORCED_LOGOUT = 'FORCED_LOGOUT',
  DEVICE_LOCKED = 'DEVICE_LOCKED',
  SESSION_TERMINATED = 'SESSION_TERMINATED',
  ACCESS_REVOKED = 'ACCESS_REVOKED',
}
registerEnumType(SecurityEventKind, {
  name: 'SecurityEventType',
  description: 'What happened to a session.',
  valuesConfig: {
    FORCED_LOGOUT: {
      description: 'This session was ended: signed out from another device, or the account locked, demoted or deleted.',
    },
    DEVICE_LOCKED: { description: 'The account was locked by a sign-in from a further device: sign out.' },
    SESSION_TERMINATED: { description: 'An administrator ended this session.' },
    ACCESS_REVOKED: { description: 'Access to fileId ended: stop playing it.' },
  },
});

@InputType({ description: 'What the client knows about the device it runs on.' })
export class DeviceDataInput {
  @Field({ description: 'Generated once by the client and sent as X-Device-ID on every request.' })
  deviceId!: string;
  @Field(() => String, { nullable: true, description: 'A hash of stable browser traits, to tell devices apart.' })
  deviceFingerprint?: string | null;
  @Field(() => String, { nullable: true, description: 'A readable name for the device.' }) deviceName?: string | null;
  @Field(() => String, { nullable: true, description: 'The IANA time zone (for example Europe/Paris).' }) timezone?:
    string | null;
  @Field(() => String, { nullable: true, description: 'The preferred language (for example en-GB).' }) language?:
    string | null;
  @Field(() => String, { nullable: true, description: 'The platform the browser reports.' }) platform?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether cookies are enabled.' }) cookieEnabled?: boolean | null;
  @Field(() => String, { nullable: true, description: 'The Do Not Track setting, as the browser reports it.' })
  doNotTrack?: string | null;
  @Field(() => String, { nullable: true, description: 'The browser name.' }) browser?: string | null;
  @Field(() => String, { nullable: true, description: 'The operating system name.' }) os?: string | null;
  @Field(() => String, { nullable: true, description: 'Desktop, Mobile or Tablet.' }) deviceType?: string | null;
}

@InputType({ description: 'A sign-in from one device.' })
export class LoginInput {
  @Field({ description: 'The account email, any case.' }) email!: string;
  @Field({ description: 'The account password.' }) password!: string;
  @Field({ defaultValue: false, description: 'True once the user accepted the single-device policy.' })
  deviceApproved!: boolean;
  @Field(() => DeviceDataInput, { description: 'The device signing in.' }) deviceData!: DeviceDataInput;
}

@InputType({ description: 'A new account, signed in on the device that creates it.' })
export class RegisterInput {
  @Field({ description: 'The name shown in the app.' }) name!: string;
  @Field({ description: 'Unique regardless of case.' }) email!: string;
  @Field({ description: 'At least 8 characters.' }) password!: string;
  @Field({ defaultValue: false, description: 'True once the user accepted the single-device policy.' })
  deviceApproved!: boolean;
  @Field(() => DeviceDataInput, { description: 'The device registering.' }) deviceData!: DeviceDataInput;
}

@InputType({ description: "The signed-in user's new name and email." })
export class UpdateDetailsInput {
  @Field({ description: 'The new name.' }) name!: string;
  @Field({ description: 'The new email; CONFLICT when another account has it.' }) email!: string;
}

@ObjectType({ description: "A notice about the account's devices, given at sign-in." })
export class DeviceWarning {
  @Field(() => ID, { nullable: true, description: 'The device session it is about, if any.' }) id?: string;
  @Field(() => DeviceWarningKind, { description: 'What kind of notice it is.' }) type!: DeviceWarningKind;
  @Field({ description: 'The text to show.' }) message!: string;
  @Field(() => String, { nullable: true, description: 'The device it is about, if any.' }) deviceName?: string | null;
  @Field(() => Date, { nullable: true, description: 'When it happened, if known.' }) timestamp?: Date;
}

@ObjectType({ description: 'The outcome of a login: signed in, or awaiting device approval.' })
export class LoginResult {
  @Field({ description: 'True when signed in.' }) success!: boolean;
  @Field({ description: 'The text to show the user.' }) message!: string;
  @Field({ description: 'True when the sign-in must be repeated with deviceApproved.' })
  requiresDeviceApproval!: boolean;
  @Field(() => String, { nullable: true, description: 'Bearer token bound to the device session.' })
  token!: string | null;
  @Field(() => User, { nullable: true, description: 'The account, once signed in.' }) user!: User | null;
  @Field(() => DeviceSession, { nullable: true, description: 'The device session, once signed in.' })
  deviceSession!: DeviceSession | null;
  @Field(() => [DeviceWarning], { description: "Notices about the account's devices." }) warnings!: DeviceWarning[];
}

@ObjectType({ description: 'Something that happened to this session: act on it at once.' })
export class SecurityEvent {
  @Field(() => SecurityEventKind, { description: 'What happened.' }) type!: SecurityEventKind;
  @Field({ description: 'The text to show the user.' }) message!: string;
  @Field(() => ID, { nullable: true, description: 'The file, for ACCESS_REVOKED.' }) fileId!: string | null;
  @Field({ description: 'When it happened (ISO 8601).' }) at!: string;
}

export const DeviceSessionConnection = connectionType('DeviceSession', () => DeviceSession, 'device session');
