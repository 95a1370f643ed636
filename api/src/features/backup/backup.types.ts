import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One scheduled backup run, as the audit log recorded it.' })
export class BackupRun {
  @Field({ description: 'When it ended.' }) at!: Date;
  @Field(() => Float, { nullable: true, description: 'The archive size in bytes (a completed run).' })
  bytes!: number | null;
  @Field(() => Int, { nullable: true, description: 'How long it took, in milliseconds (a completed run).' })
  durationMs!: number | null;
  @Field(() => String, { nullable: true, description: 'Why it failed (a failed run).' }) error!: string | null;
}

@ObjectType({ description: 'How the scheduled backups went (BACKUP_DIR; docs/backups.md).' })
export class BackupStatus {
  @Field(() => BackupRun, { nullable: true, description: 'The latest scheduled run that completed.' })
  lastSuccess!: BackupRun | null;
  @Field(() => BackupRun, { nullable: true, description: 'The latest scheduled run that failed.' })
  lastFailure!: BackupRun | null;
  @Field({ description: 'The latest scheduled run failed, and none has succeeded since.' }) failing!: boolean;
}

@ObjectType({ description: 'A one-minute link to download a backup, signed for this device session.' })
export class BackupLink {
  @Field({ description: 'Path relative to the server: follow it (a plain GET) to download the archive.' })
  url!: string;
  @Field({ description: 'When the link stops working.' }) expiresAt!: Date;
}
