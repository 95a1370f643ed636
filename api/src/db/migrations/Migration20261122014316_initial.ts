import { Migration } from '@mikro-orm/migrations';

export class Migration20261122014316_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create type "user_role" as enum ('user', 'admin');`);
    this.addSql(`create type "upload_status" as enum ('active', 'completed', 'cancelled', 'expired');`);
    this.addSql(`create type "cover_storage" as enum ('file', 'base64');`);
    this.addSql(`create type "chapter_status" as enum ('pending', 'ready', 'failed');`);
    this.addSql(`create type "segment_storage" as enum ('database', 'filesystem');`);
    this.addSql(`create table "users" ("id" uuid not null, "name" varchar(100) not null, "email" varchar(254) not null, "password_hash" varchar(255) not null, "role" "user_role" not null default 'user', "is_locked" boolean not null default false, "lock_until" timestamptz null, "failed_login_count" int not null default 0, "avatar_url" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`);
    this.addSql(`create unique index "users_email_lower_unique" on "users" (lower("email"));`);

    this.addSql(`create table "device_sessions" ("id" uuid not null, "user_id" uuid not null, "device_id" varchar(128) not null, "device_name" varchar(200) not null, "device_type" varchar(20) not null default 'other', "fingerprint" varchar(64) null, "ip_address" varchar(64) null, "user_agent" varchar(512) null, "is_active" boolean not null default true, "created_at" timestamptz not null, "last_activity" timestamptz not null, "ended_at" timestamptz null, "end_reason" varchar(40) null, constraint "device_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "device_sessions_user_id_is_active_index" on "device_sessions" ("user_id", "is_active");`);
    this.addSql(`alter table "device_sessions" add constraint "device_sessions_user_id_device_id_unique" unique ("user_id", "device_id");`);

    this.addSql(`create table "audit_log" ("id" bigserial primary key, "user_id" uuid null, "actor_email" varchar(254) null, "action" varchar(60) not null, "device_id" varchar(128) null, "device_session_id" uuid null, "ip_address" varchar(64) null, "user_agent" varchar(512) null, "details" jsonb null, "created_at" timestamptz not null);`);
    this.addSql(`create index "audit_log_user_id_index" on "audit_log" ("user_id");`);
    this.addSql(`create index "audit_log_created_at_index" on "audit_log" ("created_at");`);

    this.addSql(`create table "audio_files" ("id" uuid not null, "title" varchar(200) not null, "description" text null, "filename" varchar(255) not null, "storage_path" varchar(512) not null, "size" bigint not null, "duration" double precision not null, "mime_type" varchar(100) not null, "is_public" boolean not null default false, "uploaded_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "audio_files_pkey" primary key ("id"));`);
    this.addSql(`create index "audio_files_is_public_index" on "audio_files" ("is_public");`);
    this.addSql(`create index "audio_files_created_at_index" on "audio_files" ("created_at");`);

    this.addSql(`create table "upload_sessions" ("id" uuid not null, "owner_id" uuid not null, "file_name" varchar(255) not null, "file_size" bigint not null, "total_chunks" int not null, "chunk_size" int not null, "file_hash" varchar(64) not null, "mime_type" varchar(100) not null, "metadata" jsonb null, "status" "upload_status" not null default 'active', "file_id" uuid null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "upload_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "upload_sessions_status_expires_at_index" on "upload_sessions" ("status", "expires_at");`);
    this.addSql(`create index "upload_sessions_owner_id_status_index" on "upload_sessions" ("owner_id", "status");`);

    this.addSql(`create table "stream_sessions" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "device_session_id" uuid not null, "file_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "stream_sessions_pkey" primary key ("id"));`);
    this.addSql(`alter table "stream_sessions" add constraint "stream_sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "stream_sessions_user_id_index" on "stream_sessions" ("user_id");`);
    this.addSql(`create index "stream_sessions_device_session_id_index" on "stream_sessions" ("device_session_id");`);
    this.addSql(`create index "stream_sessions_expires_at_index" on "stream_sessions" ("expires_at");`);

    this.addSql(`create table "file_access" ("id" uuid not null, "user_id" uuid not null, "file_id" uuid not null, "can_view" boolean not null default true, "granted_at" timestamptz not null, "expires_at" timestamptz null, "granted_by_id" uuid null, constraint "file_access_pkey" primary key ("id"));`);
    this.addSql(`create index "file_access_file_id_index" on "file_access" ("file_id");`);
    this.addSql(`alter table "file_access" add constraint "file_access_user_id_file_id_unique" unique ("user_id", "file_id");`);

    this.addSql(`create table "covers" ("file_id" uuid not null, "storage_type" "cover_storage" not null, "mime_type" varchar(100) not null, "size" int not null, "path" varchar(512) null, "base64" text null, "updated_at" timestamptz not null, constraint "covers_pkey" primary key ("file_id"));`);

    this.addSql(`create table "checkpoints" ("id" uuid not null, "file_id" uuid not null, "user_id" uuid not null, "timestamp" int not null, "name" varchar(200) not null, "description" text null, "created_at" timestamptz not null, constraint "checkpoints_pkey" primary key ("id"));`);
    this.addSql(`create index "checkpoints_file_id_index" on "checkpoints" ("file_id");`);
    this.addSql(`create index "checkpoints_user_id_file_id_index" on "checkpoints" ("user_id", "file_id");`);

    this.addSql(`create table "chapters" ("id" uuid not null, "file_id" uuid not null, "label" varchar(200) not null, "start_time" double precision not null, "end_time" double precision null, "order" int not null default 0, "status" "chapter_status" not null default 'pending', "storage_type" "segment_storage" null, "plain_size" bigint null, "encrypted_size" bigint null, "finalized_at" timestamptz null, "error" text null, "playlist" text null, "created_at" timestamptz not null, constraint "chapters_pkey" primary key ("id"));`);
    this.addSql(`create index "chapters_file_id_order_index" on "chapters" ("file_id", "order");`);

    this.addSql(`create table "chapter_segments" ("chapter_id" uuid not null, "index" int not null, "duration" double precision not null, "size" int not null, "data" bytea null, "path" varchar(512) null, constraint "chapter_segments_pkey" primary key ("chapter_id", "index"));`);

    this.addSql(`create table "chapter_keys" ("chapter_id" uuid not null, "key" bytea not null, "iv" bytea not null, constraint "chapter_keys_pkey" primary key ("chapter_id"));`);

    this.addSql(`alter table "device_sessions" add constraint "device_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "audit_log" add constraint "audit_log_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "audio_files" add constraint "audio_files_uploaded_by_id_foreign" foreign key ("uploaded_by_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "upload_sessions" add constraint "upload_sessions_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "upload_sessions" add constraint "upload_sessions_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "stream_sessions" add constraint "stream_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "stream_sessions" add constraint "stream_sessions_device_session_id_foreign" foreign key ("device_session_id") references "device_sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "stream_sessions" add constraint "stream_sessions_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "file_access" add constraint "file_access_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "file_access" add constraint "file_access_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "file_access" add constraint "file_access_granted_by_id_foreign" foreign key ("granted_by_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "covers" add constraint "covers_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "checkpoints" add constraint "checkpoints_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "checkpoints" add constraint "checkpoints_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "chapters" add constraint "chapters_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "chapter_segments" add constraint "chapter_segments_chapter_id_foreign" foreign key ("chapter_id") references "chapters" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "chapter_keys" add constraint "chapter_keys_chapter_id_foreign" foreign key ("chapter_id") references "chapters" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "device_sessions" drop constraint "device_sessions_user_id_foreign";`);

    this.addSql(`alter table "audit_log" drop constraint "audit_log_user_id_foreign";`);

    this.addSql(`alter table "audio_files" drop constraint "audio_files_uploaded_by_id_foreign";`);

    this.addSql(`alter table "upload_sessions" drop constraint "upload_sessions_owner_id_foreign";`);

    this.addSql(`alter table "stream_sessions" drop constraint "stream_sessions_user_id_foreign";`);

    this.addSql(`alter table "file_access" drop constraint "file_access_user_id_foreign";`);

    this.addSql(`alter table "file_access" drop constraint "file_access_granted_by_id_foreign";`);

    this.addSql(`alter table "checkpoints" drop constraint "checkpoints_user_id_foreign";`);

    this.addSql(`alter table "stream_sessions" drop constraint "stream_sessions_device_session_id_foreign";`);

    this.addSql(`alter table "upload_sessions" drop constraint "upload_sessions_file_id_foreign";`);

    this.addSql(`alter table "stream_sessions" drop constraint "stream_sessions_file_id_foreign";`);

    this.addSql(`alter table "file_access" drop constraint "file_access_file_id_foreign";`);

    this.addSql(`alter table "covers" drop constraint "covers_file_id_foreign";`);

    this.addSql(`alter table "checkpoints" drop constraint "checkpoints_file_id_foreign";`);

    this.addSql(`alter table "chapters" drop constraint "chapters_file_id_foreign";`);

    this.addSql(`alter table "chapter_segments" drop constraint "chapter_segments_chapter_id_foreign";`);

    this.addSql(`alter table "chapter_keys" drop constraint "chapter_keys_chapter_id_foreign";`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "device_sessions" cascade;`);

    this.addSql(`drop table if exists "audit_log" cascade;`);

    this.addSql(`drop table if exists "audio_files" cascade;`);

    this.addSql(`drop table if exists "upload_sessions" cascade;`);

    this.addSql(`drop table if exists "stream_sessions" cascade;`);

    this.addSql(`drop table if exists "file_access" cascade;`);

    this.addSql(`drop table if exists "covers" cascade;`);

    this.addSql(`drop table if exists "checkpoints" cascade;`);

    this.addSql(`drop table if exists "chapters" cascade;`);

    this.addSql(`drop table if exists "chapter_segments" cascade;`);

    this.addSql(`drop table if exists "chapter_keys" cascade;`);

    this.addSql(`drop type "user_role";`);
    this.addSql(`drop type "upload_status";`);
    this.addSql(`drop type "cover_storage";`);
    this.addSql(`drop type "chapter_status";`);
    this.addSql(`drop type "segment_storage";`);
  }

}
