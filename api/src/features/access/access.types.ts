import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
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
});

@ObjectType({ description: "One user's access to one file." })
export class FileAccessGrant {
  @Field(() => ID)
  id!: string;

  @Field(() => User)
  user!: User;

  @Field({ description: 'False once revoked.' })
  canView!: boolean;

  @Field()
  grantedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'No expiry when null.' })
  expiresAt!: Date | null;

  @Field(() => GrantStatus)
  status!: GrantStatus;
}

@ObjectType({ description: 'What the Manage Access screen shows for one file.' })
export class FileAccessData {
  @Field(() => AudioFile)
  file!: AudioFile;

  @Field(() => [FileAccessGrant], {
    description: 'Every grant of the file, newest first, revoked and expired ones included.',
  })
  grants!: FileAccessGrant[];

  @Field(() => [User], { description: 'Every user, by name, to choose whom to grant.' })
  allUsers!: User[];
}

@InputType()
export class GrantAccessInput {
  @Field(() => ID)
  userId!: string;

  @Field(() => ID)
  fileId!: string;

  @Field(() => Date, {
    nullable: true,
    description: 'When the access ends; null for no expiry. Must be in the future.',
  })
  expiresAt?: Date | null;
}
