import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { User } from '../users/user.entity.js';
import { DeviceSession } from './device-session.entity.js';

export enum DeviceWarningKind {
  new_device = 'new_device',
  device_locked = 'device_locked',
  suspicious_activity = 'suspicious_activity',
  max_devices_reached = 'max_devices_reached',
}
registerEnumType(DeviceWarningKind, { name: 'DeviceWarningType' });

export enum SecurityEventKind {
  FORCED_LOGOUT = 'FORCED_LOGOUT',
  DEVICE_LOCKED = 'DEVICE_LOCKED',
  SESSION_TERMINATED = 'SESSION_TERMINATED',
  ACCESS_REVOKED = 'ACCESS_REVOKED',
}
registerEnumType(SecurityEventKind, { name: 'SecurityEventType' });

@InputType({ description: 'What the client knows about the device it runs on.' })
export class DeviceDataInput {
  @Field({ description: 'Generated once by the client and sent as X-Device-ID on every request.' })
  deviceId!: string;
  @Field(() => String, { nullable: true }) deviceFingerprint?: string | null;
  @Field(() => String, { nullable: true }) deviceName?: string | null;
  @Field(() => String, { nullable: true }) timezone?: string | null;
  @Field(() => String, { nullable: true }) language?: string | null;
  @Field(() => String, { nullable: true }) platform?: string | null;
  @Field(() => Boolean, { nullable: true }) cookieEnabled?: boolean | null;
  @Field(() => String, { nullable: true }) doNotTrack?: string | null;
  @Field(() => String, { nullable: true }) browser?: string | null;
  @Field(() => String, { nullable: true }) os?: string | null;
  @Field(() => String, { nullable: true, description: 'Desktop, Mobile or Tablet.' }) deviceType?: string | null;
}

@InputType()
export class LoginInput {
  @Field() email!: string;
  @Field() password!: string;
  @Field({ defaultValue: false, description: 'True once the user accepted the single-device policy.' })
  deviceApproved!: boolean;
  @Field(() => DeviceDataInput) deviceData!: DeviceDataInput;
}

@InputType()
export class RegisterInput {
  @Field() name!: string;
  @Field() email!: string;
  @Field() password!: string;
  @Field({ defaultValue: false, description: 'True once the user accepted the single-device policy.' })
  deviceApproved!: boolean;
  @Field(() => DeviceDataInput) deviceData!: DeviceDataInput;
}

@InputType()
export class UpdateDetailsInput {
  @Field() name!: string;
  @Field() email!: string;
}

@ObjectType()
export class DeviceWarning {
  @Field(() => ID, { nullable: true }) id?: string;
  @Field(() => DeviceWarningKind) type!: DeviceWarningKind;
  @Field() message!: string;
  @Field(() => String, { nullable: true }) deviceName?: string | null;
  @Field(() => Date, { nullable: true }) timestamp?: Date;
}

@ObjectType({ description: 'The outcome of a login: signed in, or awaiting device approval.' })
export class LoginResult {
  @Field() success!: boolean;
  @Field() message!: string;
  @Field() requiresDeviceApproval!: boolean;
  @Field(() => String, { nullable: true, description: 'Bearer token bound to the device session.' })
  token!: string | null;
  @Field(() => User, { nullable: true }) user!: User | null;
  @Field(() => DeviceSession, { nullable: true }) deviceSession!: DeviceSession | null;
  @Field(() => [DeviceWarning]) warnings!: DeviceWarning[];
}

@ObjectType({ description: 'Something that happened to this session: act on it at once.' })
export class SecurityEvent {
  @Field(() => SecurityEventKind) type!: SecurityEventKind;
  @Field() message!: string;
  @Field(() => ID, { nullable: true, description: 'The file, for ACCESS_REVOKED.' }) fileId!: string | null;
  @Field() at!: string;
}
