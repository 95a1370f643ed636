import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { connectionType } from '../../graphql/connection.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { User } from '../users/user.entity.js';

export enum GrantStatus {
  Active = 'Active',
  Expired = 'Expired',
  Revoked = 'Revoked',
}
registerEnumType(GrantStatus, {
  name: 'GrantStatus',
  description: 'Expired once the expiry has passed; otherwise Active while canView, else Revoked.',
  valuesConfig: {
    Active: { description: 'The user may see the file.' },
    Expired: { description: 'The expiry has passed.' },
    Revoked: { description: 'An administrator revoked it.' },
  },
});

@ObjectType({ description: "One user's access to one file." })
export class FileAccessGrant {
  @Field(() => ID, { description: 'The grant id.' })
  id!: string;

  @Field(() => User, { description: 'The user the grant is for.' })
  user!: User;

  @Field({ description: 'False once revoked.' })
  canView!: boolean;

  @Field({ description: 'When it was granted (or last renewed).' })
  grantedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'No expiry when null.' })
  expiresAt!: Date | null;

  @Field(() => GrantStatus, { description: 'Active, Expired or Revoked, as of now.' })
  status!: GrantStatus;
}

export const FileAccessGrantConnection = connectionType('FileAccessGrant', () => FileAccessGrant, 'grant');

@ArgsType()
export class GrantCandidateArgs {
  @Field(() => ID, { description: 'The file to grant.' })
  fileId!: string;

  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name or email.' })
  search?: string | null;

  @Field(() => Int, { defaultValue: 20, description: 'Users to return, 1 to 100.' })
  limit!: number;
}

@ObjectType({ description: 'What the Manage Access screen shows for one file.' })
export class FileAccessData {
  @Field(() => AudioFile, { description: 'The file.' })
  file!: AudioFile;

  @Field(() => [FileAccessGrant], {
    description: 'Every grant of the file, newest first, revoked and expired ones included.',
  })
  grants!: FileAccessGrant[];
}

@InputType({ description: 'Who gets to see which file, and until when.' })
export class GrantAccessInput {
  @Field(() => ID, { description: 'The user to grant.' })
  userId!: string;

  @Field(() => ID, { description: 'The file to grant.' })
  fileId!: string;

  @Field(() => Date, {
    nullable: true,
    description: 'When the access ends; null for no expiry. Must be in the future.',
  })
  expiresAt?: Date | null;
}
